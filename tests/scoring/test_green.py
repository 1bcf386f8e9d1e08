"""--metric green against its two references, run beside while this was written (their
numbers are in the tables): the authors' `green` 0.1.0 (shotakoyama/green at ab1546d,
`green -s INPUT -r REF0 REF1 -c SYSTEM -d 10`, and `sgreen` per sentence) and gec-metrics'
GREEN class (gotutiyan/gec-metrics at 320c830), on the 8 CoNLL-2014 outputs with the two
annotators of the combined gold as references; and gec-metrics' own published test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.scoring.green.ngrams import GreenSettings, evaluate
from tests.conftest import shared

GOLD = "conll2014/gold/official-2014.combined.m2"

# green -d 10 (beta 1, n 4, word)
AUTHORS = {"AMU": "82.5288365139", "CAMB": "80.7938508889", "CUUI": "82.0178389989",
           "IITB": "84.7904573934", "INPUT": "85.0883277696", "NTHU": "81.2351233248",
           "POST": "80.4895277676", "UFC": "85.1011233592"}
# gec-metrics GREEN(Config(beta=2.0)).score_corpus(...)
GEC_METRICS = {"AMU": 0.8007753134684717, "CAMB": 0.8024890262925709,
               "CUUI": 0.7988469564777396, "IITB": 0.781253553577041,
               "INPUT": 0.7807656452683918, "NTHU": 0.7886166958574873,
               "POST": 0.7899596087849198, "UFC": 0.7825841418397657}
# sgreen -d 10 on CAMB, its first sentences
AUTHORS_CAMB_SENTENCES = ["100.0000000000", "0E-10", "48.7189299566", "81.3579401138",
                          "58.9565203514"]


@pytest.fixture(params=["compiled", "python"])
def counting(request, monkeypatch) -> str:
    """Each test twice: with the compiled counts (where built) and with Python's sets."""
    from m2lsp.scoring.green import ngrams

    if request.param == "python":
        monkeypatch.setattr(ngrams, "compiled", None)
    elif ngrams.compiled is None:
        pytest.skip("_green.c was not built (no C compiler at install)")
    return request.param


# green (and mgreen) -s SRC -r REF0 REF1 -c AMU CAMB INPUT -b 0.5 1 2 -d 10, at ab1546d
SEVERAL = {
    "green": {"AMU": ("85.6976066333", "82.5288365139", "80.0948233739"),
              "CAMB": ("82.1494612112", "80.7938508889", "80.2489026293"),
              "INPUT": ("93.4492338409", "85.0883277696", "78.1006591851")},
    "mgreen": {"AMU": ("86.6974155614", "83.6289343897", "82.2265800283"),
               "CAMB": ("80.8142168779", "80.1531205708", "81.3345494119"),
               "INPUT": ("92.5668636907", "85.3944739519", "80.2617690899")},
}


@pytest.mark.slow
@pytest.mark.parametrize("tool", sorted(SEVERAL))
def test_several_systems_and_betas_as_green_prints_them(tool, capsys) -> None:
    """`green -c A B C -b 0.5 1 2` (each beta choosing its own references), and mgreen's
    mean of the sentences' GREEN."""
    paths = [str(shared(f"conll2014/systems/{s}")) for s in ("AMU", "CAMB", "INPUT")]
    assert main(["score", "--metric", "green", "--green-digits", "10", paths[0],
                 str(shared(GOLD)), "--cor", *paths[1:], "--green-beta", "0.5", "1", "2",
                 *(["--green-mean"] if tool == "mgreen" else [])]) == 0
    rows = [f"{p}\t" + "\t".join(SEVERAL[tool][name]) for p, name
            in zip(paths, ("AMU", "CAMB", "INPUT"), strict=True)]
    assert capsys.readouterr().out == (
        "alpha\t0.8000000000\t0.5000000000\t0.2000000000\n"
        "beta\t0.5000000000\t1.0000000000\t2.0000000000\n" + "\n".join(rows) + "\n")


def test_mgreen_alone_and_in_json(capsys) -> None:
    path = str(shared("conll2014/systems/AMU"))
    assert main(["score", "--metric", "green", "--green-mean", "--format", "json", path,
                 str(shared(GOLD))]) == 0
    data = json.loads(capsys.readouterr().out)
    assert f"{100 * data['green']:.10f}" == SEVERAL["mgreen"]["AMU"][1]
    assert "aggregate:mean-of-sentences" in data["signature"]


@pytest.mark.parametrize("system", sorted(AUTHORS))
def test_green_prints_what_the_authors_green_prints(system, capsys, counting) -> None:
    path = shared(f"conll2014/systems/{system}")
    assert main(["score", "--metric", "green", "--green-digits", "10", str(path),
                 str(shared(GOLD))]) == 0
    assert capsys.readouterr().out == (f"alpha\t0.5000000000\nbeta\t1.0000000000\n"
                                       f"{path}\t{AUTHORS[system]}\n")


@pytest.mark.parametrize("system", sorted(GEC_METRICS))
def test_the_gec_metrics_variant_equals_gec_metrics(system, capsys, counting) -> None:
    assert main(["score", "--metric", "green", "--green-variant", "gec-metrics", "--format",
                 "json", str(shared(f"conll2014/systems/{system}")), str(shared(GOLD))]) == 0
    assert json.loads(capsys.readouterr().out)["green"] == GEC_METRICS[system]


def test_sentences_as_sgreen_prints_them(tmp_path, capsys) -> None:
    """Plain-text references (--ref with --source) and the M2 gold give the same."""
    from m2lsp.scoring.sentence_inputs import from_m2 as _from_m2

    sources, references, _ = _from_m2(shared(GOLD), None)
    (tmp_path / "src").write_text("".join(f"{s}\n" for s in sources), encoding="utf-8")
    for k in (0, 1):
        (tmp_path / f"ref{k}").write_text("".join(f"{r[k]}\n" for r in references),
                                          encoding="utf-8")
    camb = str(shared("conll2014/systems/CAMB"))
    assert main(["score", "--metric", "green", "--green-digits", "10", "--sent", camb,
                 "--ref", str(tmp_path / "ref0"), str(tmp_path / "ref1"), "--source",
                 str(tmp_path / "src")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == f"{camb}\t{AUTHORS['CAMB']}"
    assert [line.split("\t")[1] for line in lines[3:8]] == AUTHORS_CAMB_SENTENCES


# gec-metrics' src/gec_metrics/metrics/green_test.py
SOURCES = ["This sentences contain gramamtical error .", "This is a sentence .",
           "This is no change .", "I bought a pen to write a letter to a friend ."]
HYPOTHESES = ["This sentence contains a grammatical error .",
              "the sentence was corrected into completely different one .",
              "This is no change .", "I bought a pen to write a letter to a friend ."]
REFERENCES = [["This sentence contains a gramamtical error .",
               "These sentences contain grammatical errors ."],
              ["dummy sentence .", "another dummy sentence ."],
              ["This is no change .", "This is no change ."],
              ["I bought a pen to write a letter to the friend .",
               "I bought a pen to write the letter to the friend ."]]


@pytest.mark.parametrize(("beta", "corpus", "sentences"), [
    (0.5, 67.353281938837, [67.080694940041, 34.099683242425, 100.0, 89.496113939418]),
    (2.0, 71.852523831581, [74.467815149281, 60.992075408949, 100.0, 68.051848160668]),
])
def test_gec_metrics_published_values(beta, corpus, sentences) -> None:
    result = evaluate(SOURCES, REFERENCES, HYPOTHESES,
                      GreenSettings(beta=beta, variant="gec-metrics"))
    assert 100 * result.f == pytest.approx(corpus, abs=1e-9)
    assert [100 * result.sentence_f(i) for i in range(4)] == pytest.approx(sentences, abs=1e-9)


def test_green_needs_references(tmp_path, capsys) -> None:
    system = tmp_path / "sys.txt"
    system.write_text("a b\n", encoding="utf-8")
    assert main(["score", "--metric", "green", str(system)]) == 2
    assert "--metric green needs references" in capsys.readouterr().err

# green -s SRC -r REF0 REF1 -c CAMB -b 0.5 2 -v (and -v -l -d 4) on the first 30 sentences
VERBOSE = Path(__file__).with_name("expected") / "green-v-camb-30.txt"  # {system}: CAMB
LINE_VERBOSE = ("0.8000\t0.5000\t79.5062\t80.5233\t79.7076\n"
                "0.2000\t2.0000\t77.9161\t82.4756\t81.5215\n")


@pytest.mark.parametrize("line", [False, True])
def test_verbose_tables_as_green_v_prints_them(tmp_path, capsys, line) -> None:
    from m2lsp.scoring.sentence_inputs import from_m2 as _from_m2

    sources, references, _ = _from_m2(shared(GOLD), None)
    (tmp_path / "src").write_text("".join(f"{s}\n" for s in sources[:30]), encoding="utf-8")
    for k in (0, 1):
        (tmp_path / f"ref{k}").write_text("".join(f"{r[k]}\n" for r in references[:30]),
                                          encoding="utf-8")
    camb = tmp_path / "CAMB"
    head = shared("conll2014/systems/CAMB").read_text(encoding="utf-8").splitlines()[:30]
    camb.write_text("".join(f"{h}\n" for h in head), encoding="utf-8")
    assert main(["score", "--metric", "green", str(camb), "--ref", str(tmp_path / "ref0"),
                 str(tmp_path / "ref1"), "--source", str(tmp_path / "src"), "--green-beta",
                 "0.5", "2", "-v", *(["--line-verbose", "--green-digits", "4"] if line
                                     else [])]) == 0
    expected = LINE_VERBOSE if line else VERBOSE.read_text(encoding="utf-8").format(
        system=camb)
    assert capsys.readouterr().out == expected


# sgreen -s SRC -r REF0 REF1 -c CAMB -b 1 2 -v on the first 3 sentences
SENTENCE_VERBOSE = Path(__file__).with_name("expected") / "sgreen-v-camb-3.txt"


def test_sentence_tables_as_sgreen_v_prints_them(tmp_path, capsys) -> None:
    from m2lsp.scoring.sentence_inputs import from_m2 as _from_m2

    sources, references, _ = _from_m2(shared(GOLD), None)
    (tmp_path / "src").write_text("".join(f"{s}\n" for s in sources[:3]), encoding="utf-8")
    for k in (0, 1):
        (tmp_path / f"ref{k}").write_text("".join(f"{r[k]}\n" for r in references[:3]),
                                          encoding="utf-8")
    camb = tmp_path / "CAMB"
    head = shared("conll2014/systems/CAMB").read_text(encoding="utf-8").splitlines()[:3]
    camb.write_text("".join(f"{h}\n" for h in head), encoding="utf-8")
    assert main(["score", "--metric", "green", str(camb), "--ref", str(tmp_path / "ref0"),
                 str(tmp_path / "ref1"), "--source", str(tmp_path / "src"), "--green-beta",
                 "1", "2", "-v", "--sent"]) == 0
    assert capsys.readouterr().out == SENTENCE_VERBOSE.read_text(encoding="utf-8")
