"""No command loses a user's file: `check --fix` killed at any moment leaves the old file or
the new one, byte for byte; a change made by another program while it ran is not
overwritten; no command writes its output over one of its inputs; pipes and devices neither
hang a command nor fill the memory."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.linting import files as linting_files
from tests.conftest import shared

ROOT = Path(__file__).resolve().parents[2]
BLOCK = ("S The cat sat on the mat . \nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0 \n"
         "A 3 3|||M:ADV|||down|||REQUIRED|||-NONE-|||0\n\n")


def _m2lsp(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "m2lsp", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes, bytes, float]:
    """A gold of trailing spaces (every line fixable), what --fix makes of it, and how long
    a whole run takes."""
    folder = tmp_path_factory.mktemp("big")
    old = (BLOCK * 40_000).encode()
    fixed = folder / "fixed.m2"
    fixed.write_bytes(old)
    start = time.monotonic()
    done = _m2lsp("check", "--fix", "-q", str(fixed))
    done.communicate(timeout=300)
    took = time.monotonic() - start
    new = fixed.read_bytes()
    assert new != old and b" \n" not in new
    return folder, old, new, took


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_killed_fix_leaves_the_old_or_the_new_file(big, how: signal.Signals) -> None:
    folder, old, new, took = big
    rng = random.Random(how)
    for run in range(8):
        gold = folder / f"gold-{how.name}-{run}.m2"
        gold.write_bytes(old)
        process = _m2lsp("check", "--fix", "-q", str(gold))
        time.sleep(rng.uniform(0.3, 1.1) * took)
        process.send_signal(how)
        _out, err = process.communicate(timeout=120)
        now = gold.read_bytes()
        assert now in (old, new), f"run {run}: {len(now)} bytes, neither old nor new"
        assert b"Traceback" not in err
        if process.returncode in (0, 1):  # it had finished
            assert now == new
        else:
            assert process.returncode == (130 if how is signal.SIGINT else -9)
        leftovers = [p for p in folder.iterdir() if p.name.startswith(f".{gold.name}")]
        if how is signal.SIGINT:  # an interrupted write cleans up after itself
            assert leftovers == []
        for stray in leftovers:
            stray.unlink()


@pytest.mark.slow
def test_a_fix_killed_as_soon_as_the_file_changes(big) -> None:
    """The trial's way: watch the file and kill the run the moment its size or time moves
    (an in-place write empties the file first: killed then, the gold was left empty)."""
    folder, old, new, _took = big
    for run in range(3):
        gold = folder / f"gold-watched-{run}.m2"
        gold.write_bytes(old)
        before = os.stat(gold)
        process = _m2lsp("check", "--fix", "-q", str(gold))
        while process.poll() is None:
            now = os.stat(gold)
            if (now.st_size, now.st_mtime_ns, now.st_ino) != (
                    before.st_size, before.st_mtime_ns, before.st_ino):
                process.kill()
                break
        process.communicate(timeout=120)
        assert gold.read_bytes() in (old, new)


def test_an_edit_made_while_fixing_is_not_lost(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text(BLOCK, encoding="utf-8")
    fixing = linting_files.fix_until_stable

    def slow_fix(*args, **kwargs):
        with gold.open("a", encoding="utf-8") as other:  # another program appends
            other.write("S A new sentence .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
        return fixing(*args, **kwargs)

    monkeypatch.setattr(linting_files, "fix_until_stable", slow_fix)
    assert main(["check", "--fix", str(gold)]) == 2
    assert "changed since m2lsp read it" in capsys.readouterr().err
    assert gold.read_text(encoding="utf-8").endswith("|||0\n") and "A new sentence" in (
        gold.read_text(encoding="utf-8"))


# -- an output named as an input --------------------------------------------------------

GOLD = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"


@pytest.mark.parametrize("command", [
    ["annotate", "--orig", "in.txt", "--cor", "hyp.txt", "-o", "in.txt"],
    ["annotate", "--orig", "in.txt", "--cor", "hyp.txt", "-o", "hyp.txt"],
    ["annotate", "--orig", "in.txt", "--cor", "hyp.txt", "-o", "link.txt"],
    ["errant-parallel", "-orig", "in.txt", "-cor", "hyp.txt", "-out", "in.txt"],
    ["report", "gold.m2", "hyp.txt", "-o", "gold.m2"],
    ["report", "gold.m2", "hyp.txt", "-o", "hyp.txt", "--format", "md"],
    ["convert", "gold.m2", "--to", "parallel", "-o", "gold.m2"],
    ["convert", "gold.m2", "--to", "cged", "--ids", "in.txt", "-o", "in.txt"],
])
def test_no_output_overwrites_an_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture,
                                       command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    files = {"in.txt": "The cat sat .\n", "hyp.txt": "The dog sat .\n", "gold.m2": GOLD}
    for name, text in files.items():
        Path(name).write_text(text, encoding="utf-8")
    Path("link.txt").symlink_to("in.txt")
    assert main(command) == 2
    assert "also an input" in capsys.readouterr().err
    assert {name: Path(name).read_text(encoding="utf-8") for name in files} == files


def test_the_cged_report_file_is_not_the_truth(tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    truth = tmp_path / "truth.txt"
    truth.write_text("A1, 1, 2, R\n", encoding="utf-8")
    result = tmp_path / "result.txt"
    result.write_text("A1, 1, 2, R\n", encoding="utf-8")
    code = main(["score", "--metric", "cged", "--cged-report", "2018", "--cged-report-file",
                 str(truth), str(result), str(truth)])
    assert code == 2 and "also an input" in capsys.readouterr().err
    assert truth.read_text(encoding="utf-8") == "A1, 1, 2, R\n"


# -- pipes and devices --------------------------------------------------------------------


def test_a_pipe_inside_a_folder_is_skipped_and_counted(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    os.mkfifo(tmp_path / "waiting.m2")  # nobody writes: reading it would wait for ever
    assert main(["check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "No problems found in 1 file; 1 skipped (not regular files" in out


def test_a_device_named_like_gold_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "z.m2").symlink_to("/dev/zero")
    assert main(["check", str(tmp_path / "z.m2")]) == 2
    assert "not a regular file (a device)" in capsys.readouterr().err
    assert main(["check", str(tmp_path)]) == 2  # inside a folder: skipped, so nothing checked
    assert main(["score", str(tmp_path / "z.m2"), str(tmp_path / "z.m2")]) == 2


def test_a_named_pipe_is_read_once_for_every_system(tmp_path: Path) -> None:
    gold = shared("conll2014/gold/official-2014.combined.m2")
    systems = [str(shared(f"conll2014/systems/{name}")) for name in ("CAMB", "AMU")]
    fifo = tmp_path / "gold.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(gold.read_bytes()))
    writer.start()
    process = _m2lsp("report", str(fifo), *systems, "--format", "md", "--samples", "10")
    try:
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
        writer.join(timeout=5)
    assert process.returncode == 0, err
    assert b"| CAMB | 39.71 |" in out
