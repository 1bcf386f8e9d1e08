"""The attribution tests' small gold: three sentences, two systems' outputs of them, and
their sources, written into the test's own folder (its working folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

GOLD = """S This are a apple .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 2 3|||R:DET|||an|||REQUIRED|||-NONE-|||0

S He go to school yesterday .
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0

S I like it .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""
SYSTEM = "This is an apple .\nHe goes to the school yesterday .\nI like it .\n"
OTHER = "This is a apple .\nHe go to school yesterday .\nI liked it .\n"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pytest.importorskip("spacy")
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text(GOLD, encoding="utf-8")
    for name, text in (("system.txt", SYSTEM), ("a.txt", SYSTEM), ("b.txt", OTHER)):
        Path(name).write_text(text, encoding="utf-8")
    Path("source.txt").write_text("This are a apple .\nHe go to school yesterday .\n"
                                  "I like it .\n", encoding="utf-8")
    return tmp_path
