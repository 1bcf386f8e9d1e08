"""`m2lsp agree`: each pair of annotators scored against each other, on hand-worked tables
and on CoNLL-2014's two annotators (where it equals `m2lsp score` run both ways)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.agreement import agreement
from m2lsp.cli import main
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from tests.conftest import shared

# Five sentences, two annotators (worked by hand below).
HAND = """\
S He go to school .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||1

S She like apple .
A 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0
A 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||1
A 2 3|||Nn|||apples|||REQUIRED|||-NONE-|||1

S It is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S They was happy .
A 1 2|||SVA|||were|||REQUIRED|||-NONE-|||0

S I has a cat .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 1 2|||SVA|||have|||REQUIRED|||-NONE-|||1
"""
# 0 against 1: gold (1) has 4 edits, 0 proposes 3 (goes, likes: found; were: not in 1's)
#   P 2/3, R 2/4, F0.5 = 1.25 PR / (0.25 P + R) = 0.625
# 1 against 0: gold (0) has 3, 1 proposes 4 (goes, likes found; apples, have not)
#   P 2/4, R 2/3, F0.5 = 10/19
# needs a correction: both S1 S2, only 0 S4, only 1 S5, neither S3:
#   p_o = 3/5, p_e = (3/5)(3/5) + (2/5)(2/5) = 13/25, kappa = (0.6 - 0.52) / 0.48 = 1/6
# SVA: 3 by each, 2 of each shared: 4/6; Nn: 1 by annotator 1, none shared
HAND_TABLE = [
    # metric, forward (tp, fp, fn, f), backward (tp, fp, fn, f)
    ("m2", (2, 1, 2, 0.625), (2, 2, 1, 10 / 19)),
    ("errant", (2, 1, 2, 0.625), (2, 2, 1, 0.5263)),  # errant_compare rounds to 4 places
]


def _document(text: str):
    return parse_m2(SourceText(text))


@pytest.mark.parametrize(("metric", "forward", "backward"), HAND_TABLE)
def test_hand_worked_pair(metric: str, forward: tuple, backward: tuple) -> None:
    found = agreement(_document(HAND), metric)
    [pair] = found.pairs
    assert (pair.first, pair.second, pair.sentences, pair.left_out) == ("0", "1", 5, 0)
    for direction, expected in ((pair.forward, forward), (pair.backward, backward)):
        assert (direction.tp, direction.fp, direction.fn) == expected[:3]
        assert direction.f == pytest.approx(expected[3])
    assert pair.mean_f == pytest.approx((forward[3] + backward[3]) / 2)


def test_hand_worked_kappa_and_types() -> None:
    [pair] = agreement(_document(HAND)).pairs
    k = pair.needs_correction
    assert (k.both, k.first_only, k.second_only, k.neither) == (2, 1, 1, 1)
    assert (k.observed, k.expected) == (pytest.approx(0.6), pytest.approx(0.52))
    assert k.kappa == pytest.approx(1 / 6)
    rows = {t.type: (t.first, t.second, t.first_shared, t.second_shared) for t in pair.types}
    assert rows == {"Nn": (0, 1, 0, 0), "SVA": (3, 3, 2, 2)}
    agreements = {t.type: t.agreement for t in pair.types}
    assert agreements == {"Nn": 0.0, "SVA": pytest.approx(4 / 6)}


def test_kappa_undefined_when_every_sentence_has_one_answer() -> None:
    text = ("S A b .\nA 0 1|||Mec|||a|||REQUIRED|||-NONE-|||0\n"
            "A 0 1|||Mec|||a|||REQUIRED|||-NONE-|||1\n")
    [pair] = agreement(_document(text)).pairs
    assert pair.needs_correction.kappa is None
    assert pair.forward.f == pair.backward.f == 1.0


def test_three_annotators_and_edits_that_cannot_be_applied() -> None:
    third = HAND.replace("A 1 2|||SVA|||were|||REQUIRED|||-NONE-|||0\n",
                         "A 1 2|||SVA|||were|||REQUIRED|||-NONE-|||0\n"
                         "A 0 2|||Pref|||We were|||REQUIRED|||-NONE-|||2\n"
                         "A 1 2|||SVA|||are|||REQUIRED|||-NONE-|||2\n")
    found = agreement(_document(third))
    assert found.annotators == ("0", "1", "2")
    assert [(p.first, p.second, p.sentences, p.left_out) for p in found.pairs] == [
        ("0", "1", 5, 0), ("0", "2", 4, 1), ("1", "2", 4, 1)]
    # annotator 2 made no edit elsewhere: against 0 on the other 4 sentences it finds none
    second = found.pairs[1]
    assert (second.backward.tp, second.backward.fp, second.backward.fn) == (0, 0, 2)


def test_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text(HAND, encoding="utf-8")
    assert main(["agree", str(gold)]) == 0
    text = capsys.readouterr().out
    assert "0 against 1: P 0.6667  R 0.5000  F0.5 0.6250  (TP 2, FP 1, FN 2)" in text
    assert "Cohen's kappa 0.1667" in text
    assert "  SVA              3         3            2/2  0.6667" in text
    assert main(["agree", str(gold), "--format", "json", "--metric", "errant"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "errant" and data["annotators"] == ["0", "1"]
    assert data["pairs"][0]["needs_correction"]["kappa"] == pytest.approx(1 / 6)
    assert data["pairs"][0]["backward"]["f"] == 0.5263


def test_one_annotator_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S A b .\nA 0 1|||Mec|||a|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    assert main(["agree", str(gold)]) == 2
    assert "one annotator (0): agreement needs two or more" in capsys.readouterr().err


def _merged_conll(tmp_path: Path) -> Path:
    """official-2014.0.m2 and .1.m2 (the same sentences) in one file, the second as 1."""
    first = shared("conll2014/gold/official-2014.0.m2").read_text(encoding="utf-8")
    second = shared("conll2014/gold/official-2014.1.m2").read_text(encoding="utf-8")
    blocks = []
    for a, b in zip(first.strip().split("\n\n"), second.strip().split("\n\n"), strict=True):
        a_lines, b_lines = a.split("\n"), b.split("\n")
        assert a_lines[0] == b_lines[0]
        blocks.append("\n".join(a_lines + [line[:-1] + "1" for line in b_lines[1:]]))
    merged = tmp_path / "merged.m2"
    merged.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return merged


def _corrected(gold: Path, out: Path) -> Path:
    assert main(["convert", "--to", "parallel", str(gold), "-o", str(out) + ".tsv"]) == 0
    lines = Path(str(out) + ".tsv").read_text(encoding="utf-8").splitlines()
    out.write_text("".join(line.split("\t")[1] + "\n" for line in lines), encoding="utf-8")
    return out


def _score(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    capsys.readouterr()
    assert main(["score", "--format", "json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_conll2014_annotators_equal_score_both_ways(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    merged = _merged_conll(tmp_path)
    gold0 = shared("conll2014/gold/official-2014.0.m2")
    gold1 = shared("conll2014/gold/official-2014.1.m2")
    m2 = agreement(parse_m2(SourceText(merged.read_text(encoding="utf-8"))), "m2")
    [pair] = m2.pairs
    assert (pair.sentences, pair.left_out) == (1312, 0)
    forward = _score(capsys, str(_corrected(gold0, tmp_path / "a0.txt")), str(gold1))
    backward = _score(capsys, str(_corrected(gold1, tmp_path / "a1.txt")), str(gold0))
    assert (pair.forward.precision, pair.forward.recall, pair.forward.f) == (
        forward["precision"], forward["recall"], forward["f"])
    assert (pair.backward.precision, pair.backward.recall, pair.backward.f) == (
        backward["precision"], backward["recall"], backward["f"])
    assert f"{pair.forward.f:.4f}" == "0.4534"
    errant = agreement(parse_m2(SourceText(merged.read_text(encoding="utf-8"))), "errant")
    scored = _score(capsys, "--metric", "errant", str(gold0), str(gold1))
    assert (errant.pairs[0].forward.tp, errant.pairs[0].forward.f) == (
        scored["counts"]["true_positives"], scored["f"])


def test_conll2014_combined_gold(capsys: pytest.CaptureFixture[str]) -> None:
    combined = shared("conll2014/gold/official-2014.combined.m2")
    assert main(["agree", str(combined)]) == 0
    out = capsys.readouterr().out
    assert "Annotators 0 and 1: 1312 sentences\n" in out
    assert "needs a correction: both 813, only 0 134, only 1 229, neither 136" in out


def test_one_file_per_annotator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`agree official-2014.0.m2 official-2014.1.m2` (it failed with the top-level usage
    line): each file one annotator, the same numbers as the files merged by hand."""
    gold0 = shared("conll2014/gold/official-2014.0.m2")
    gold1 = shared("conll2014/gold/official-2014.1.m2")
    assert main(["agree", "--format", "json", str(gold0), str(gold1)]) == 0
    by_files = json.loads(capsys.readouterr().out)
    assert main(["agree", "--format", "json", str(_merged_conll(tmp_path))]) == 0
    assert by_files == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("files", "said"), [
    ({"camb.txt": "This is a sentence .\nAnother one .\n"}, "camb.txt is not an M2 file"),
    ({"empty.m2": ""}, "empty.m2 has no sentence"),
    ({"noop.m2": "S A b .\n"}, "noop.m2 has no edit line, so no annotator"),
    ({"a.m2": "S A b .\nA 0 1|||X|||a|||REQUIRED|||-NONE-|||0\n",
      "b.m2": "S A c .\nA 0 1|||X|||a|||REQUIRED|||-NONE-|||0\n"},
     "sentence 1 differs between"),
    ({"a.m2": "S A b .\nA 0 1|||X|||a|||REQUIRED|||-NONE-|||0\n",
      "b.m2": "S A b .\n\nS c .\n"}, "b.m2 has 2 sentences but"),
])
def test_what_agree_cannot_compare_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           files: dict[str, str], said: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["agree", *(str(tmp_path / name) for name in files)]) == 2
    assert said in capsys.readouterr().err


def _many(annotators: int, sentences: int = 60) -> str:
    """`sentences` sentences, each annotated by three of `annotators` in turn, the first
    and the third the same way."""
    out = []
    for s in range(sentences):
        out.append(f"S w0 w1 w2 w3 w{s} .")
        for k in range(3):
            who = (s * 3 + k) % annotators
            out.append(f"A 0 1|||R:NOUN|||x{k % 2}|||REQUIRED|||-NONE-|||{who}")
        out.append("")
    return "\n".join(out) + "\n"


def test_many_annotators_are_summarised_in_output_linear_in_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """500 annotators took 80 s and printed 54 MB (every one of 124,750 pairs): by default
    one row per annotator, and no pair computed."""
    import m2lsp.agreement

    gold = tmp_path / "many.m2"
    gold.write_text(_many(60), encoding="utf-8")
    calls = []
    real = m2lsp.agreement.pair_agreement
    monkeypatch.setattr(m2lsp.agreement, "pair_agreement",
                        lambda *a, **k: calls.append(a[1:3]) or real(*a, **k))
    assert main(["agree", str(gold)]) == 0
    out = capsys.readouterr().out
    assert calls == []
    assert len(out.splitlines()) == 3 + 60
    assert out.startswith("Agreement of 60 annotators on 60 sentences: 1770 pairs, summarised")
    assert "\n  edits another annotator of the sentence made too: 0.6667\n" in out
    assert main(["agree", str(gold), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["summary"], data["pairs"], len(data["rows"])) == (True, 1770, 60)


# argv after the file -> the pairs computed
PAIRS_ASKED = [
    ([], [("0", "1"), ("0", "2"), ("0", "3"), ("1", "2"), ("1", "3"), ("2", "3")]),
    (["--annotators", "1,3"], [("1", "3")]),
    (["--annotators", "0,1,2", "--pairs", "all"], [("0", "1"), ("0", "2"), ("1", "2")]),
    (["--pairs", "summary"], []),
]


@pytest.mark.parametrize(("argv", "pairs"), PAIRS_ASKED)
def test_only_the_pairs_asked_for_are_computed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               argv: list[str], pairs: list) -> None:
    import m2lsp.agreement

    gold = tmp_path / "four.m2"
    gold.write_text(_many(4, 12), encoding="utf-8")
    calls = []
    real = m2lsp.agreement.pair_agreement
    monkeypatch.setattr(m2lsp.agreement, "pair_agreement",
                        lambda *a, **k: calls.append(tuple(a[1:3])) or real(*a, **k))
    assert main(["agree", str(gold), *argv]) == 0
    assert calls == pairs
    assert capsys.readouterr().out.count("\nAnnotators ") == len(pairs)


def test_every_pair_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "six.m2"
    gold.write_text(_many(6, 12), encoding="utf-8")
    assert main(["agree", str(gold)]) == 0  # 15 pairs: more than auto prints
    assert "summarised" in capsys.readouterr().out
    assert main(["agree", str(gold), "--pairs", "all"]) == 0
    assert capsys.readouterr().out.count("\nAnnotators ") == 15
    assert main(["agree", str(gold), "--annotators", "0,9"]) == 2
    assert "--annotators: 9 is no annotator of the file (they are 0, 1, 2, 3, 4, 5)" in \
        capsys.readouterr().err
    assert main(["agree", str(gold), "--annotators", "0"]) == 2
    assert "--annotators needs two or more" in capsys.readouterr().err


HAND_GOLD = """\
S He go to school .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0

S She like apple .
A 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0
A 2 3|||Nn|||apples|||REQUIRED|||-NONE-|||0

S It is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S They was happy .
A 1 2|||SVA|||were|||REQUIRED|||-NONE-|||0

S I has a cat .
A 1 2|||SVA|||have|||REQUIRED|||-NONE-|||0
"""


def test_each_annotator_against_a_gold_equals_score(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "hand.m2"
    hand.write_text(HAND, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    gold.write_text(HAND_GOLD, encoding="utf-8")
    assert main(["agree", str(hand), "--against", str(gold), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(p["first"], p["second"]) for p in data["pairs"]] == [("0", "gold"), ("1", "gold")]
    assert main(["split", str(hand), "-o", str(tmp_path / "each")]) == 0
    for pair, annotator in zip(data["pairs"], ("0", "1"), strict=True):
        own = _corrected(tmp_path / "each" / f"hand.{annotator}.m2", tmp_path / f"{annotator}.txt")
        scored = _score(capsys, str(own), str(gold))
        assert (pair["forward"]["precision"], pair["forward"]["recall"],
                pair["forward"]["f"]) == (scored["precision"], scored["recall"], scored["f"])
    assert main(["agree", str(hand), "--against", str(gold)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Agreement of 2 annotators with {gold} (M2, F0.5)")
    assert "0 against gold: P 1.0000  R 0.6000  F0.5 0.8824  (TP 3, FP 0, FN 2)" in text


def test_against_a_gold_of_other_sentences_is_refused(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "hand.m2"
    hand.write_text(HAND, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    gold.write_text(HAND_GOLD.replace("It is fine", "It was fine"), encoding="utf-8")
    assert main(["agree", str(hand), "--against", str(gold)]) == 2
    assert "sentence 3 differs between the annotators' files and" in capsys.readouterr().err


@pytest.mark.slow
def test_conll2014_annotators_against_their_curated_gold_equal_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CoNLL-2014's two annotators curated (what they agree on merged, then annotator 1
    taken where they differ in the first 200 sentences): each against the gold as
    `m2lsp score` scores their corrections."""
    monkeypatch.setenv("M2LSP_NOW", "2026-01-01T00:00:00Z")
    gold0 = shared("conll2014/gold/official-2014.0.m2")
    gold1 = shared("conll2014/gold/official-2014.1.m2")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(gold0), str(gold1), "-o", str(gold), "--who", "t"]) == 0
    assert main(["curate", str(gold), "--accept-agreed", "--who", "t"]) == 0
    capsys.readouterr()
    assert main(["agree", str(gold0), str(gold1), "--against", str(gold), "--format",
                 "json"]) == 0
    captured = capsys.readouterr()
    assert "is an unfinished curation" in captured.err
    pairs = json.loads(captured.out)["pairs"]
    for pair, own in zip(pairs, (gold0, gold1), strict=True):
        scored = _score(capsys, str(_corrected(own, tmp_path / f"{pair['first']}.txt")),
                        str(gold))
        assert (pair["forward"]["precision"], pair["forward"]["recall"],
                pair["forward"]["f"]) == (scored["precision"], scored["recall"], scored["f"])
        assert pair["sentences"] == 1312
