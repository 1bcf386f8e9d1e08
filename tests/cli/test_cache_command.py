"""`m2lsp cache info` and `m2lsp cache clear` know every cache m2lsp keeps under its
folder: the grammar parsers, parses.sqlite3 (parses, blocks, learned scores), the LLM
judges' replies, TrueSkill's runs and the meta-evaluation's converted inputs; and they
leave what is not m2lsp's alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main

KEPT = {  # a file of each cache, and the line `cache info` gives its cache
    "m2-document.lark": "grammar parsers: 1 file(s)",
    "llm/llm-0a1b2c3d4e5f.jsonl": "LLM judges' replies (llm/): 1 file(s)",
    "trueskill/0123456789abcdef0123/run-3.json": "TrueSkill runs (trueskill/): 1 file(s)",
    "meta-eval/revisit-cgec-0123/sources.txt":
        "meta-evaluation inputs (meta-eval/): 2 file(s)",
    "meta-eval/gmeg/0123.m2": "meta-evaluation inputs (meta-eval/): 2 file(s)",
}
NOT_OURS = ("notes.txt", "llm/notes.txt", "trueskill/readme.md", "meta-eval/mine.txt")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path))
    for name in (*KEPT, *NOT_OURS):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}\n", encoding="utf-8")
    return tmp_path


def test_info_lists_every_cache(folder: Path, capsys) -> None:
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    for line in KEPT.values():
        assert line in out
    assert "parses, blocks and learned scores" in out


def test_clear_deletes_every_cache_and_nothing_else(folder: Path, capsys) -> None:
    assert main(["cache", "clear"]) == 0
    out = capsys.readouterr().out
    left = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert left == sorted(NOT_OURS)
    assert "deleted 5 file(s)" in out and "LLM judges' replies: 1" in out
    assert not (folder / "meta-eval" / "gmeg").exists()  # emptied folders go too
