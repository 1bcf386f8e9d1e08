"""The keys decisions and notes are written with (docs/curating.md, "Keys"): a change here
orphans every log and note already written."""

from __future__ import annotations

import hashlib

import pytest

from m2lsp.curation.keys import EditSpec, sentence_key, sentence_keys
from m2lsp.errors import UsageError
from m2lsp.parsing.m2 import parse_m2


def test_a_sentence_key_is_the_sha1_of_its_tokens() -> None:
    digest = hashlib.sha1(b"He go to school .").hexdigest()[:12]
    assert sentence_key(["He", "go", "to", "school", "."]) == f"s{digest}" == "s7e58948f2c2a"
    assert sentence_key(["He", "go"], 3) == sentence_key(["He", "go"]) + ".3"


def test_copies_of_a_sentence_are_numbered_by_occurrence() -> None:
    doc = parse_m2("S a b\n\nS c\n\nS a  b\n\nS a b\n")
    first, other = sentence_key(["a", "b"]), sentence_key(["c"])
    assert sentence_keys(doc.blocks) == [first, other, first + ".2", first + ".3"]


EDITS = [  # written -> key
    ("3 4|||R:PREP|||on", "3 4|||R:PREP|||on"),
    ("A 3 4|||R:PREP|||on|||REQUIRED|||-NONE-|||1", "3 4|||R:PREP|||on"),
    ("2 3|||U:DET|||-NONE-", "2 3|||U:DET|||-NONE-"),
    ("2 3|||U:DET|||", "2 3|||U:DET|||-NONE-"),
    ("0 0|||M:PRON||| We ", "0 0|||M:PRON|||We"),
    ("1 2|||R:NOUN|||a||b", "1 2|||R:NOUN|||a||b"),
]


@pytest.mark.parametrize(("written", "key"), EDITS)
def test_an_edit_key(written: str, key: str) -> None:
    assert EditSpec.parse(written).key == key
    assert EditSpec.parse(key) == EditSpec.parse(written)


@pytest.mark.parametrize("written", ["", "3|||R|||x", "a b|||R|||x", "4 3|||R|||x",
                                     "-1 2|||R|||x", "1 2||| |||x", "1 2|||R"])
def test_what_is_no_edit(written: str) -> None:
    with pytest.raises(UsageError, match="is no edit"):
        EditSpec.parse(written)


COMPETING = [  # two edits -> whether they cannot both stand
    ("1 2|||R:X|||a", "1 2|||R:X|||b", True),
    ("1 3|||R:X|||a", "2 4|||R:X|||b", True),
    ("0 0|||M:X|||a", "0 0|||M:X|||b", True),
    ("0 0|||M:X|||a", "0 2|||R:X|||b", False),  # an insertion before a replacement
    ("2 2|||M:X|||a", "0 2|||R:X|||b", False),  # an insertion after it
    ("1 2|||R:X|||a", "2 3|||R:X|||b", False),
]


@pytest.mark.parametrize(("one", "other", "competes"), COMPETING)
def test_competing_edits(one: str, other: str, competes: bool) -> None:
    a, b = EditSpec.parse(one), EditSpec.parse(other)
    assert a.competes(b) is competes and b.competes(a) is competes
