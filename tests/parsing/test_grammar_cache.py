"""The built Lark parsers are kept in a cache file and read back; a cache that cannot be
written or read never stops parsing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from m2lsp.parsing import grammar
from m2lsp.parsing.m2 import ERROR_EXAMPLES

build = grammar.parser.__wrapped__  # the uncached builder: each call builds or loads anew
LINE = "A 1 x|||X|||y|||R|||C|||0\n"
EXPECTED = "UnexpectedToken offset ['OFFSET']"


def reading(lark) -> str:
    """What the parser makes of a bad line, as the M2 parser's messages use it."""
    try:
        lark.parse(LINE, start="line")
    except UnexpectedInput as exc:
        kind = exc.match_examples(lambda text: lark.parse(text, start="line"), ERROR_EXAMPLES,
                                  use_accepts=True)
        return f"{type(exc).__name__} {kind} {sorted(exc.expected)}"
    return "parsed"


def test_a_built_parser_is_kept_and_read_back(tmp_path: Path, monkeypatch, caplog) -> None:
    monkeypatch.setenv(grammar.CACHE_ENV, str(tmp_path))
    fresh = build("m2", "document", "block", "line")
    assert [p.name for p in tmp_path.iterdir()] == ["m2-document-block-line.lark"]
    with caplog.at_level(logging.DEBUG, logger="lark"):
        loaded = build("m2", "document", "block", "line")
    assert "Loading grammar from cache" in caplog.text
    assert reading(loaded) == reading(fresh) == EXPECTED


@pytest.mark.parametrize("setting", ["", "file-is-a-folder", "corrupt", "a-file"])
def test_no_usable_cache_still_parses(tmp_path: Path, monkeypatch, setting: str) -> None:
    where = tmp_path / "cache"
    if setting == "file-is-a-folder":  # can be neither read nor written, even by root
        (where / "m2-document-block-line.lark").mkdir(parents=True)
    elif setting == "corrupt":
        where.mkdir()
        (where / "m2-document-block-line.lark").write_bytes(b"not a cache\n\x80garbage")
    elif setting == "a-file":
        where.write_text("not a directory")
    monkeypatch.setenv(grammar.CACHE_ENV, "" if setting == "" else str(where))
    assert reading(build("m2", "document", "block", "line")) == EXPECTED
    if setting == "corrupt":  # rebuilt, and the cache rewritten in working order
        assert reading(build("m2", "document", "block", "line")) == EXPECTED
        assert not (where / "m2-document-block-line.lark").read_bytes().startswith(b"not")


def test_the_cache_goes_under_xdg_cache_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(grammar.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert grammar.cache_dir() == tmp_path / "m2lsp"
    assert (tmp_path / "m2lsp").is_dir()
