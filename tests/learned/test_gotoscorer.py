"""GoToScorer against gec-metrics 0.1.1 to the last digit, on the first 200 sentences of
CoNLL-2014's eight outputs (gec-metrics parses every sentence with spaCy again for each
system): the weight file byte for byte, then the corpus F, the weighted counts and every
sentence's F, with and without weights."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main

pytestmark = pytest.mark.usefixtures("neural")
COUNT = 80  # sentences of every CoNLL-2014 system (200 took a minute of CI)


@pytest.mark.slow
def test_gotoscorer_is_identical(conll, gec_metrics, english_pipeline, tmp_path: Path,
                                 monkeypatch) -> None:
    sources = conll.sources[:COUNT]
    reference = [refs[0] for refs in conll.references[:COUNT]]
    files = {"src": sources, "ref": reference,
             **{name: hyps[:COUNT] for name, hyps in conll.systems.items()}}
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    systems = [str(tmp_path / name) for name in conll.systems]
    flags = ["--src", str(tmp_path / "src"), "--ref", str(tmp_path / "ref"), "--hyps",
             *systems]
    from gec_metrics.cli import gen_gotoscorer_weight

    monkeypatch.setattr(sys, "argv", ["gecmetrics-gen-gotoscorer-weight", *flags, "--out",
                                      str(tmp_path / "theirs.json")])
    gen_gotoscorer_weight.main()
    assert main(["gotoscorer-weight", *flags, "--out", str(tmp_path / "mine.json")]) == 0
    assert (tmp_path / "mine.json").read_bytes() == (tmp_path / "theirs.json").read_bytes()

    fs = set()
    for weights in (None, str(tmp_path / "mine.json")):
        scorer = gec_metrics.GoToScorer(gec_metrics.GoToScorer.Config(
            no_weight=weights is None, weight_file=weights or ""))
        options = {} if weights is None else {"gotoscorer_weight_file": weights}
        for hyps in conll.systems.values():
            theirs = scorer.score_corpus_verbose(sources, hyps[:COUNT], [reference])
            mine = m2lsp.score(hyps[:COUNT], metric="gotoscorer", sources=sources,
                               references=[reference], **options)
            assert (mine.precision, mine.recall, mine.f) == (theirs.precision,
                                                              theirs.recall, theirs.f)
            assert (mine.tp, mine.fp, mine.fn, mine.tn) == (theirs.tp, theirs.fp, theirs.fn,
                                                            theirs.tn)
            assert mine.data["sentence_scores"] == scorer.score_sentence(
                sources, hyps[:COUNT], [reference])
            fs.add(mine.f)
    assert len(fs) > 8  # weighted and unweighted scores differ, and so do systems


def test_a_weight_file_of_other_sentences_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "s").write_text("a b .\n")
    (tmp_path / "w.json").write_text('[{"weights": [1.0]}]')
    assert main(["score", "--metric", "gotoscorer", str(tmp_path / "s"), "--source",
                 str(tmp_path / "s"), "--ref", str(tmp_path / "s"),
                 "--gotoscorer-weight-file", str(tmp_path / "w.json")]) == 2
    assert "gives sentence 1 1 weights for 7 chunks" in capsys.readouterr().err
    (tmp_path / "w.json").write_text('{"weights": 1}')
    assert main(["score", "--metric", "gotoscorer", str(tmp_path / "s"), "--source",
                 str(tmp_path / "s"), "--ref", str(tmp_path / "s"),
                 "--gotoscorer-weight-file", str(tmp_path / "w.json")]) == 2
    assert "is not a GoToScorer weight file" in capsys.readouterr().err


@pytest.mark.parametrize(("weight", "shown"), [
    ("NaN", "nan"), ("Infinity", "inf"), ("-Infinity", "-inf"), ("1e999", "inf"),
    ('"nan"', "nan")])
def test_a_weight_that_is_not_a_finite_number_is_refused(weight: str, shown: str,
                                                         tmp_path: Path, capsys) -> None:
    """A NaN or an infinite weight (JSON's NaN and Infinity, a number too large for a
    float, a string float() reads so) would make every score NaN or infinite: the error
    names the file and the line of the weight."""
    (tmp_path / "s").write_text("a b .\nc d .\n")
    weights = ["1.0"] * 7
    weights[4] = weight
    (tmp_path / "w.json").write_text('[\n  {"weights": [1, 1, 1, 1, 1, 1, 1]},\n'
                                     '  {"weights": [\n' + ",\n".join(weights)
                                     + "]}\n]\n")
    assert main(["score", "--metric", "gotoscorer", str(tmp_path / "s"), "--source",
                 str(tmp_path / "s"), "--ref", str(tmp_path / "s"),
                 "--gotoscorer-weight-file", str(tmp_path / "w.json")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'w.json'}:8: sentence 2's weight 5 is {shown}" in err, err
    assert "Traceback" not in err


def test_the_weight_file_fits_the_score_of_lines_that_end_in_spaces(
        conll, english_pipeline, tmp_path: Path, capsys) -> None:
    """CoNLL-2014's INPUT ends every line in spaces: `score` read them stripped, the weight
    command did not (37 chunks against 33 weights).  Both read them as `score` does now,
    and the weights equal those made from the stripped lines."""
    lines = (conll.folder / "INPUT").read_text("utf-8").splitlines()[:40]
    assert all(line.endswith(" ") for line in lines)
    (tmp_path / "spaced").write_text("".join(f"{line}\n" for line in lines))
    (tmp_path / "plain").write_text("".join(f"{line.strip()}\n" for line in lines))
    (tmp_path / "ref").write_text("".join(f"{r[0]}\n" for r in conll.references[:40]))
    systems = []
    for name in ("AMU", "CAMB"):
        systems.append(tmp_path / name)
        systems[-1].write_text("\n".join(conll.systems[name][:40]) + "\n")
    for src in ("spaced", "plain"):
        assert main(["gotoscorer-weight", "--src", str(tmp_path / src), "--ref",
                     str(tmp_path / "ref"), "--hyps", *map(str, systems), "--out",
                     str(tmp_path / f"{src}.json")]) == 0
    assert (tmp_path / "spaced.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    capsys.readouterr()
    out = {}
    for src in ("spaced", "plain"):
        assert main(["score", str(systems[0]), "--source", str(tmp_path / src), "--ref",
                     str(tmp_path / "ref"), "--metric", "gotoscorer",
                     "--gotoscorer-weight-file", str(tmp_path / "spaced.json"),
                     "--format", "json"]) == 0
        out[src] = json.loads(capsys.readouterr().out)
    assert out["spaced"]["f"] == out["plain"]["f"] and 0 < out["spaced"]["f"] < 1
