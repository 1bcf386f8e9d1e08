"""Every command or Python block of the README and the documentation site runs in the tests
against small real data, or says why it does not: the line before its fence is `<!-- run
-->` or `<!-- not run: REASON -->` (the tutorial's `>>>` blocks run as doctests in
tests/test_api.py; docs/rules.md holds M2 examples, not commands).  A `run` block runs in a
folder holding the files the examples name (gold.m2, sys.txt, src.txt, HYP, REF0, ...) cut
from ../shared/data: a shell block line by line (exit 0, or 1 for findings; never a
traceback), a Python block whole (exit 0)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT, shared

PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md")
                                     if p.name != "rules.md")]
COMMAND = re.compile(r"(m2lsp|pip|python3?|dask|bash|cd)\b")
MARKER = re.compile(r"<!-- (run|not run: .+) -->")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the fence, 1-based
    lang: str
    body: str
    marker: str | None

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks() -> list[Block]:
    found = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        i = 0
        while i < len(lines):
            fence = re.match(r"^```(\w*)\s*$", lines[i])
            if not fence:
                i += 1
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            body = "\n".join(lines[i + 1:end])
            marker = MARKER.fullmatch(lines[i - 1].strip()) if i else None
            lang = fence.group(1)
            if (lang in ("sh", "bash", "python", "console")
                    or (not lang and COMMAND.match(body))) and ">>>" not in body:
                found.append(Block(page, i + 1, lang, body,
                                   marker.group(1) if marker else None))
            i = end + 1
    return found


BLOCKS = blocks()
RUN = [b for b in BLOCKS if b.marker == "run"]


def test_every_command_block_runs_or_says_why_not() -> None:
    unmarked = [str(b) for b in BLOCKS if b.marker is None]
    assert not unmarked, f"mark these <!-- run --> or <!-- not run: why -->: {unmarked}"
    assert all(len(b.marker or "") > len("not run: ") + 10 for b in BLOCKS
               if b.marker != "run"), "a reason, not a word"
    assert len(RUN) >= 10


def _lines(path: str, count: int) -> str:
    return "".join(shared(path).read_text("utf-8").splitlines(keepends=True)[:count])


def _blocks_of(path: str, count: int) -> str:
    text = shared(path).read_text("utf-8").strip("\n").split("\n\n")[:count]
    return "\n\n".join(text) + "\n\n"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the examples name, cut from the real data."""
    folder = tmp_path_factory.mktemp("docs")
    gold = _blocks_of("conll2014/gold/official-2014.combined.m2", 40)
    for name in ("gold.m2", "ref.m2", "data/gold.m2"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(gold, encoding="utf-8")
    (folder / "A.m2").write_text(_blocks_of("conll2014/gold/official-2014.0.m2", 40))
    (folder / "B.m2").write_text(_blocks_of("conll2014/gold/official-2014.1.m2", 40))
    sources = "".join(block.split("\n")[0][2:] + "\n" for block in gold.strip().split("\n\n"))
    (folder / "src.txt").write_text(sources, encoding="utf-8")
    for name in ("sys.txt", "system.txt", "out.txt", "hyp.txt"):
        (folder / name).write_text(_lines("conll2014/systems/CAMB", 40), encoding="utf-8")
    (folder / "other.txt").write_text(_lines("conll2014/systems/AMU", 40), encoding="utf-8")
    jfleg = shared("jfleg/dev")
    (folder / "SRC").write_text(_lines("jfleg/dev/dev.src", 50), encoding="utf-8")
    (folder / "HYP").write_text(_lines("jfleg/dev/dev.ref0", 50), encoding="utf-8")
    for k in range(4):
        (folder / f"REF{k}").write_text(_lines(f"jfleg/dev/dev.ref{k}", 50), encoding="utf-8")
    assert jfleg.is_dir()
    (folder / "GOLD.m2").write_text("".join(  # JFLEG's sources as M2, for `gleu HYP GOLD.m2`
        f"S {line}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
        for line in (folder / "SRC").read_text("utf-8").splitlines()), encoding="utf-8")
    cged = "cged/cged2015/nlptea15cged_release1.0/Test/"
    (folder / "truth.txt").write_text(_lines(cged + "NLPTEA15_CGED_TestTruth.txt", 200))
    (folder / "input.txt").write_text(shared(cged + "NLPTEA15_CGED_TestInput.txt").read_text())
    shutil.copy(shared("conll2014/gold/official-2014.combined.m2"), folder)
    (folder / "meta-eval").symlink_to(shared("meta-eval"), target_is_directory=True)
    shutil.copytree(ROOT / "examples", folder / "examples")
    return folder


def _env(sandbox: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "M2LSP_CACHE_DIR": str(sandbox / ".cache"), "PYTHONPATH": str(ROOT),
            "NO_MKDOCS_2_WARNING": "1"}


PAGES_RUN = sorted({b.page for b in RUN})


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES_RUN, ids=[str(p.relative_to(ROOT)) for p in PAGES_RUN])
def test_the_examples_of_a_page_run(page: Path, sandbox: Path, tmp_path: Path) -> None:
    """A page's blocks in order, in a copy of the folder of its own (a later block may use
    what an earlier one made: the learned page's tiny models)."""
    folder = Path(shutil.copytree(sandbox, tmp_path / "docs", symlinks=True))
    for block in (b for b in RUN if b.page == page):
        _run(block, folder)


def _run(block: Block, folder: Path) -> None:
    env = _env(folder)
    if block.lang == "python":
        done = subprocess.run([sys.executable, "-c", block.body], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{block}\n{done.stderr[-3000:]}"
        return
    for line in block.body.splitlines():
        command = line.split("  #")[0].strip()
        if not command or command.startswith("#"):
            continue
        done = subprocess.run(["bash", "-c", command], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode in (0, 1), f"{block}: {command}\n{done.stderr[-3000:]}"
        assert "Traceback" not in done.stderr, f"{block}: {command}\n{done.stderr[-3000:]}"
