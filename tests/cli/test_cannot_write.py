"""Every command that writes files says why it could not: `m2lsp: error: cannot write PATH:
REASON`, exit 2, no traceback, the old output untouched and no temporary file left; and a
text and its brat annotation are written both or neither."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.files.writing import TEMP_SUFFIX

GOLD = ("S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
        "A 3 3|||M:ADV|||down|||REQUIRED|||-NONE-|||1\n\n")
ROOT = Path(__file__).resolve().parents[2]


def _inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "gold.m2").write_text(GOLD, "utf-8")
    (folder / "sys.txt").write_text("The dog sat .\n", "utf-8")
    (folder / "orig.txt").write_text("The cat sat .\n", "utf-8")
    return folder


# (command, its arguments before the output, the output flag, the output's name, the path
# the message names relative to the output)
WRITERS = [
    ("merge", ["merge", "gold.m2", "gold.m2"], "-o", "out.m2"),
    ("split", ["split", "gold.m2"], "-o", "parts"),
    ("convert", ["convert", "gold.m2", "--to", "parallel"], "-o", "out.txt"),
    ("convert-brat", ["convert", "gold.m2", "--to", "brat"], "-o", "out.ann"),
    ("report", ["report", "gold.m2", "sys.txt", "--format", "md"], "-o", "out.md"),
    pytest.param("annotate", ["annotate", "--orig", "orig.txt", "--cor", "sys.txt"], "-o",
                 "out.m2", marks=pytest.mark.slow, id="annotate"),
]


def _argv(folder: Path, command: list[str], flag: str, output: Path) -> list[str]:
    return [str(folder / a) if (folder / a).exists() else a for a in command] + \
        [flag, str(output)]


@pytest.mark.parametrize(("name", "command", "flag", "output"), WRITERS)
def test_no_space_left(tmp_path: Path, capsys, monkeypatch, name: str, command: list[str],
                       flag: str, output: str) -> None:
    folder = _inputs(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    target = out / output

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(_argv(folder, command, flag, target)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    # (brat names X.txt, written first; split DIR/gold.0.m2)
    assert err.splitlines()[-1].startswith(
        f"m2lsp: error: cannot write {target.with_suffix('')}")
    assert err.splitlines()[-1].endswith(": No space left on device")
    left = [p for p in out.rglob("*") if p.is_file()]
    assert left == [], left  # neither an output nor a temporary file


@pytest.mark.parametrize(("name", "command", "flag", "output"), WRITERS)
def test_a_folder_that_cannot_be(tmp_path: Path, capsys, name: str, command: list[str],
                                 flag: str, output: str) -> None:
    folder = _inputs(tmp_path)
    (tmp_path / "afile").write_text("a file, not a folder\n")
    target = tmp_path / "afile" / output
    assert main(_argv(folder, command, flag, target)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"m2lsp: error: cannot write {tmp_path / 'afile'}")
    assert (tmp_path / "afile").read_text() == "a file, not a folder\n"


@pytest.mark.parametrize("command", [["merge", "gold.m2", "gold.m2", "-o", "out.m2"],
                                     ["split", "gold.m2", "-o", "."]])
def test_a_file_size_limit(tmp_path: Path, command: list[str]) -> None:
    folder = _inputs(tmp_path)
    (folder / "out.m2").write_text("old\n")
    script = ("import resource, signal, sys\n"
              "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
              "resource.setrlimit(resource.RLIMIT_FSIZE, (20, 20))\n"
              "from m2lsp.cli import main\n"
              f"sys.exit(main({command!r}))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().endswith(": File too large")
    assert "m2lsp: error: cannot write " in done.stderr
    assert (folder / "out.m2").read_text() == "old\n"
    assert not [p for p in folder.iterdir() if p.name.endswith(TEMP_SUFFIX)]
    assert sorted(p.name for p in folder.iterdir()) == ["gold.m2", "orig.txt", "out.m2",
                                                        "sys.txt"]


def test_brat_writes_the_text_and_the_annotation_both_or_neither(tmp_path: Path, capsys,
                                                                 monkeypatch) -> None:
    folder = _inputs(tmp_path)
    ann = tmp_path / "doc.ann"
    ann.write_text("T1\tR:NOUN 4 7\tcat\n")
    ann.with_suffix(".txt").write_text("The cat sat .\n")
    real, calls = os.fsync, []

    def second_fails(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", second_fails)
    assert main(["convert", str(folder / "gold.m2"), "--to", "brat", "-o", str(ann)]) == 2
    assert f"cannot write {ann}: No space left on device" in capsys.readouterr().err
    assert ann.read_text() == "T1\tR:NOUN 4 7\tcat\n"
    assert ann.with_suffix(".txt").read_text() == "The cat sat .\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.ann", "doc.txt", "in"]
