"""`m2lsp merge` and `m2lsp split` lose nothing with exit 0: several annotators in one input
keep apart (and split back into the inputs), lines they cannot read are refused by line,
annotator ids that sanitise alike get distinct files, and split writes all its files or
none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from m2lsp.cli import main

# X: two annotators (0, 1) with a ChERRANT-style T line; Y: one annotator.
X = ("S The cat sat on mat .\n"
     "A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
     "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0\n"
     "A 4 4|||M:DET|||a|||REQUIRED|||-NONE-|||1\n\n"
     "S It rain .\n"
     "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
     "A 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||1\n\n")
Y = ("S The cat sat on mat .\n"
     "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0\n\n"
     "S It rain .\n"
     "A 1 2|||R:VERB:FORM|||rained|||REQUIRED|||-NONE-|||0\n\n")
MERGED = ("S The cat sat on mat .\n"
          "A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
          "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0\n"
          "A 4 4|||M:DET|||a|||REQUIRED|||-NONE-|||1\n"
          "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||2\n\n"
          "S It rain .\n"
          "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
          "A 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||1\n"
          "A 1 2|||R:VERB:FORM|||rained|||REQUIRED|||-NONE-|||2\n\n")


def _files(tmp_path: Path, **texts: str) -> list[str]:
    out = []
    for name, text in texts.items():
        (tmp_path / f"{name}.m2").write_text(text, "utf-8")
        out.append(str(tmp_path / f"{name}.m2"))
    return out


def test_each_annotator_of_each_file_keeps_its_own_number(tmp_path: Path, capsys) -> None:
    x, y = _files(tmp_path, x=X, y=Y)
    assert main(["merge", x, y]) == 0
    captured = capsys.readouterr()
    assert captured.out == MERGED
    assert f"{x}: 0 -> 0, 1 -> 1; {y}: 0 -> 2" in captured.err
    assert "--group 0,1 --group 2" in captured.err


def test_split_of_merge_gives_the_multi_annotator_inputs_back(tmp_path: Path,
                                                              capsys) -> None:
    x, y = _files(tmp_path, x=X, y=Y)
    gold = tmp_path / "gold.m2"
    assert main(["merge", x, y, "-o", str(gold)]) == 0
    assert main(["split", str(gold), "-o", str(tmp_path / "parts"), "--group", "0,1",
                 "--group", "2"]) == 0
    capsys.readouterr()
    parts = tmp_path / "parts"
    assert sorted(p.name for p in parts.iterdir()) == ["gold.0+1.m2", "gold.2.m2"]
    assert (parts / "gold.0+1.m2").read_text("utf-8") == X
    assert (parts / "gold.2.m2").read_text("utf-8") == Y


BAD_LINES = [
    ("malformed", "S a b .\nA 0 1|||R:X|||c\n\n", 2),
    ("orphan", "A 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\n\nS a b .\n\n", 1),
    ("comment", "S a b .\n# a comment\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\n\n", 2),
]


@pytest.mark.parametrize(("name", "text", "line"), BAD_LINES, ids=[b[0] for b in BAD_LINES])
@pytest.mark.parametrize("command", ["merge", "split"])
def test_a_line_it_cannot_read_is_refused_by_line(tmp_path: Path, capsys, name: str,
                                                  text: str, line: int, command: str) -> None:
    (bad,) = _files(tmp_path, bad=text)
    out = tmp_path / "out"
    argv = ["merge", bad, bad, "-o", str(out)] if command == "merge" else \
        ["split", bad, "-o", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{bad}:{line}:" in err and "m2lsp check" in err
    assert not out.exists()


def test_ids_that_sanitise_alike_get_distinct_files(tmp_path: Path, capsys) -> None:
    (gold,) = _files(tmp_path, gold="S a b .\n" + "".join(
        f"A 0 1|||R:X|||c|||REQUIRED|||-NONE-|||{who}\n" for who in ("a.b", "a_b", "a/b"))
        + "\n")
    assert main(["split", gold, "-o", str(tmp_path / "parts"), "--keep-ids"]) == 0
    capsys.readouterr()
    parts = sorted((tmp_path / "parts").iterdir())
    assert len(parts) == 3
    assert sorted(p.read_text("utf-8").splitlines()[1].rsplit("|||", 1)[1] for p in parts) \
        == ["a.b", "a/b", "a_b"]


def test_split_writes_all_its_files_or_none(tmp_path: Path, capsys, monkeypatch) -> None:
    x, y = _files(tmp_path, x=X, y=Y)
    gold = tmp_path / "gold.m2"
    assert main(["merge", x, y, "-o", str(gold)]) == 0
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "gold.2.m2").write_text("earlier\n")
    real_fsync, calls = os.fsync, []

    def failing(fd: int) -> None:  # the disk fills while the third file is written
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    assert main(["split", str(gold), "-o", str(parts)]) == 2
    assert "m2lsp: error: cannot write" in capsys.readouterr().err
    assert [p.name for p in parts.iterdir()] == ["gold.2.m2"]
    assert (parts / "gold.2.m2").read_text() == "earlier\n"


def test_split_names_the_files_of_an_earlier_split_it_left(tmp_path: Path, capsys) -> None:
    x, y = _files(tmp_path, x=X, y=Y)
    gold = tmp_path / "gold.m2"
    assert main(["merge", x, y, "-o", str(gold)]) == 0
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "gold.7.m2").write_text("earlier\n")
    assert main(["split", str(gold), "-o", str(parts)]) == 0
    err = capsys.readouterr().err
    assert "gold.7.m2" in err and "left untouched" in err


def _document(annotators: list[list[list[tuple[int, str]]]], sentences: list[str]) -> str:
    """An M2 text: per sentence, per annotator, its edits (start, correction)."""
    out = []
    for k, sentence in enumerate(sentences):
        lines = [f"S {sentence}"]
        for who, edits in enumerate(annotators):
            lines += [f"A {s} {s + 1}|||R:OTHER|||{c}|||REQUIRED|||-NONE-|||{who}"
                      for s, c in edits[k]] or \
                [f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{who}"]
        out.append("\n".join(lines) + "\n\n")
    return "".join(out)


def test_split_of_merge_is_the_inputs_for_any_number_of_annotators() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from m2lsp.authoring.annotators import Named, merge, split
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText

    words = st.text("abcxyz", min_size=1, max_size=4)
    edit = st.tuples(st.integers(0, 3), words)

    @settings(max_examples=40, deadline=None)
    @given(st.integers(1, 4), st.lists(st.integers(1, 3), min_size=1, max_size=3),
           st.data())
    def check(sentences: int, sizes: list[int], data: st.DataObject) -> None:
        texts = [" ".join(data.draw(st.lists(words, min_size=4, max_size=6)))
                 for _ in range(sentences)]
        originals = []
        for size in sizes:
            edits = [[data.draw(st.lists(edit, max_size=2)) for _ in texts]
                     for _ in range(size)]
            originals.append(_document(edits, texts))
        merged = merge([Named(f"f{n}.m2", parse_m2(SourceText(text)))
                        for n, text in enumerate(originals)])
        pieces = split(parse_m2(SourceText(merged.text)), groups=merged.groups)
        assert list(pieces.values()) == originals

    check()
