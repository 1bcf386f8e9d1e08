"""`m2lsp convert`: offsets as a table, round trips on real data, each output's shape."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from m2lsp import conversion
from m2lsp.cli import main
from m2lsp.parsing.cged import parse_cged
from m2lsp.parsing.m2 import parse_m2
from tests.conftest import SHARED_DATA

SGML = """<DOC>
<TEXT id="s1">我送你那裡</TEXT>
<ERROR start_off="4" end_off="4" type="M" answer="到"></ERROR>
<ERROR start_off="1" end_off="2" type="W"></ERROR>
<ERROR start_off="5" end_off="5" type="R"></ERROR>
<ERROR start_off="3" end_off="3" type="S" answer="他"></ERROR>
</DOC>
<DOC>
<TEXT id="s2">他們高興</TEXT>
</DOC>
"""
M2 = """S 我 送 你 那 裡
A 3 3|||M|||到|||REQUIRED|||-NONE-|||0
A 0 2|||W|||我 送|||REQUIRED|||-NONE-|||0
A 4 5|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 2 3|||S|||他|||REQUIRED|||-NONE-|||0

S 他 們 高 興
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
"""


def convert(tmp_path: Path, name: str, text: str, *args: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["convert", str(tmp_path / name), *args]) == 0
    return out.getvalue()


def test_cged_to_m2_offsets_and_corrections(tmp_path):
    # M at 4 is the insertion point 3; W 1..2 is span 0 2 with no answer (detection only:
    # the correction is the covered text); R corrects to -NONE-
    assert convert(tmp_path, "a.sgml", SGML, "--to", "m2") == M2


def test_m2_to_cged_to_m2_is_exact(tmp_path):
    sgml = convert(tmp_path, "a.m2", M2, "--to", "cged")
    assert '<ERROR start_off="4" end_off="4" type="M" answer="到"></ERROR>' in sgml
    assert '<ERROR start_off="1" end_off="2" type="W"></ERROR>' in sgml
    assert convert(tmp_path, "b.sgml", sgml, "--to", "m2") == M2


def test_truth_and_parallel(tmp_path):
    assert convert(tmp_path, "a.sgml", SGML, "--to", "truth") == (
        "s1, 4, 4, M, 到\ns1, 1, 2, W\ns1, 5, 5, R\ns1, 3, 3, S, 他\ns2, correct\n")
    assert convert(tmp_path, "a.m2", M2, "--to", "parallel", "--no-spaces") == (
        "我送你那裡\t我送他到那\n他們高興\t他們高興\n")


MUCGEC = SHARED_DATA / "mucgec" / "demo.hyp.m2.char"


@pytest.mark.skipif(not MUCGEC.is_file(), reason="../shared/data/mucgec is absent")
def test_real_char_m2_round_trip_is_exact(tmp_path):
    """MuCGEC's hypothesis (one annotator, R/M/S/W) through CGED and back, ChERRANT's
    target lines aside."""
    lines = MUCGEC.read_text(encoding="utf-8").split("\n")
    plain = "\n".join(x for x in lines if not x.startswith("T")).strip() + "\n"
    sgml = conversion.to_cged(conversion.from_m2(parse_m2(plain)))
    assert conversion.to_m2(conversion.from_cged(parse_cged(sgml))) == plain


CGED = [SHARED_DATA / "cged" / "cged2018" / "train_CGED2018.xml",
        SHARED_DATA / "cged" / "cged2015" / "nlptea15cged_release1.0" / "Training"
        / "NLPTEA15_CGED_Training.sgml"]


@pytest.mark.parametrize("path", CGED, ids=["2018", "2015"])
def test_real_cged_round_trip_keeps_every_error(path):
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    sentences = conversion.from_cged(parse_cged(path.read_text(encoding="utf-8")))
    back = conversion.from_m2(parse_m2(conversion.to_m2(sentences)))
    assert len(back) == len(sentences) > 400
    for before, after in zip(sentences, back, strict=True):
        assert after.text == before.text.replace(" ", "").replace("\t", "")
        known = [conversion._corrections(before)[i] for i in range(len(before.errors))]
        # CGED 2015 writes some M errors as wide as the missing word (13..14 for two
        # characters); M2 keeps only the insertion point, so they come back as 13..13
        assert [(e.start, e.end, e.type) for e in after.errors] == [
            (e.start, e.start if e.type == "M" else e.end, e.type) for e in before.errors]
        assert [e.answer for e in after.errors] == [
            None if e.type == "R" else a for e, a in zip(before.errors, known, strict=True)]


CONFLICTING = ("S a b c\nA 0 2|||R:OTHER|||x|||REQUIRED|||-NONE-|||0\n"
               "A 1 2|||R:OTHER|||y|||REQUIRED|||-NONE-|||0\n"
               "A 0 1|||R:OTHER|||z|||REQUIRED|||-NONE-|||1\n\nS d e\n"
               "A 1 9|||R:OTHER|||f|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.parametrize("name, text, target, reports", [
    ("a.m2", CONFLICTING, "parallel", [
        "sentence 1 (line 1): annotator 0's edits overlap or lie outside the sentence",
        "sentence 2 (line 6): annotator 0's edits overlap"]),
    ("a.sgml", SGML.replace('start_off="5" end_off="5" type="R"', 'start_off="x" type="R"'),
     "m2", ["sentence s1 (line 5): error 'R' has no readable type or offsets"]),
])
def test_what_cannot_be_converted_is_reported_and_nothing_written(
        tmp_path, capsys, name, text, target, reports) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    output = tmp_path / "out"
    assert main(["convert", str(tmp_path / name), "--to", target, "-o", str(output)]) == 1
    err = capsys.readouterr().err
    assert all(report in err for report in reports), err
    assert err.count("m2lsp: error: ") == len(reports)
    assert not output.exists()
    assert main(["convert", str(tmp_path / name), "--to", target, "-o", str(output),
                 "--skip-unconvertible"]) == 0
    assert err.replace("error: ", "warning: ").split("\n")[:len(reports)] == \
        capsys.readouterr().err.split("\n")[:len(reports)]
    assert output.exists()
