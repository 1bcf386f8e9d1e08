"""`--metric cleme --cleme2`: CLEME2.0's breakdown against THUKElab/CLEME's current code
(e90abea), run beside m2lsp (HEUOEditScorer with main.py's factors, its LengthWeigher and the
unweighted BaseWeigher, DependentCLEME and IndependentCLEME, on the 8 CoNLL-2014 systems of
CLEME v1's tests/examples; its spaCy tokenizer given this machine's en_core_web_sm, its
LTP and BERTScore imports stand-ins).  That code is not in ../shared/data, so what it printed
is recorded here: every number of its four rows to the 4 decimals it prints (m2lsp's
floats were equal to its floats, all 3,072 of them, when recorded)."""

from __future__ import annotations

import json

import pytest

from m2lsp.cli import main
from tests.conftest import shared

# (system, chunks, level, COM HIT ERR UND OVE of the rows corpus unweighted, corpus
#  weighted, sentence unweighted, sentence weighted, the corpus unweighted TP FP FN TN
#  FP_NE FP_UN, the corpus weighted TP FP FN); weigher: length
RECORDED = [
    ("AMU", "dependent", "corpus",
     ("0.4632 0.1888 0.1383 0.6729 0.4486", "0.4519 0.1780 0.1428 0.6792 0.5259",
      "0.4956 0.1355 0.0812 0.4982 0.2449", "0.4935 0.1324 0.0820 0.4975 0.2555"),
     "381 816 1358 6300 279 537", "312.0092 874.2957 1190.5243"),
    ("AMU", "dependent", "sentence",
     ("0.4670 0.1747 0.1812 0.6441 0.3500", "0.4453 0.1639 0.1920 0.6441 0.4263",
      "0.5338 0.1354 0.0976 0.4827 0.2135", "0.5305 0.1332 0.1003 0.4814 0.2235"),
     "382 815 1408 6250 396 419", "312.8005 871.0870 1229.3373"),
    ("AMU", "independent", "corpus",
     ("0.4661 0.2126 0.2236 0.5638 0.3350", "0.4502 0.1957 0.2335 0.5708 0.4101",
      "0.4946 0.1551 0.1587 0.4034 0.1832", "0.4916 0.1515 0.1604 0.4053 0.1928"),
     "388 809 1029 6629 408 401", "318.0092 864.2957 927.5391"),
    ("AMU", "independent", "sentence",
     ("0.4888 0.2126 0.2236 0.5638 0.3350", "0.4639 0.1957 0.2335 0.5708 0.4101",
      "0.5473 0.1551 0.1587 0.4034 0.1832", "0.5433 0.1515 0.1604 0.4053 0.1928"),
     "388 809 1029 6629 408 401", "318.0092 864.2957 927.5391"),
    ("CAMB", "dependent", "corpus",
     ("0.5006 0.2720 0.1957 0.5323 0.4680", "0.4867 0.2579 0.2045 0.5376 0.5428",
      "0.5199 0.2101 0.1299 0.3894 0.4157", "0.5163 0.2061 0.1336 0.3874 0.4328"),
     "585 1306 1145 6334 421 885", "478.7318 1398.5019 997.7399"),
    ("CAMB", "dependent", "sentence",
     ("0.5000 0.2623 0.2328 0.5049 0.4130", "0.4765 0.2476 0.2461 0.5063 0.4868",
      "0.5371 0.2099 0.1513 0.3697 0.3730", "0.5318 0.2068 0.1577 0.3664 0.3894"),
     "588 1303 1132 6347 522 781", "482.4818 1392.2519 986.8154"),
    ("CAMB", "independent", "corpus",
     ("0.4984 0.2979 0.3133 0.3888 0.3533", "0.4783 0.2757 0.3285 0.3958 0.4278",
      "0.5102 0.2388 0.2610 0.2677 0.3148", "0.5052 0.2335 0.2661 0.2680 0.3313"),
     "596 1295 778 6701 627 668", "488.4818 1382.2519 701.1499"),
    ("CAMB", "independent", "sentence",
     ("0.5275 0.2979 0.3133 0.3888 0.3533", "0.4997 0.2757 0.3285 0.3958 0.4278",
      "0.5519 0.2388 0.2610 0.2677 0.3148", "0.5453 0.2335 0.2661 0.2680 0.3313"),
     "596 1295 778 6701 627 668", "488.4818 1382.2519 701.1499"),
    ("CUUI", "dependent", "corpus",
     ("0.4804 0.2205 0.1461 0.6334 0.4544", "0.4672 0.2063 0.1481 0.6456 0.5394",
      "0.5056 0.1632 0.0907 0.4763 0.2919", "0.5021 0.1587 0.0921 0.4786 0.3047"),
     "471 964 1353 6228 312 652", "378.9417 1034.4659 1186.0639"),
    ("CUUI", "dependent", "sentence",
     ("0.4797 0.2079 0.1872 0.6049 0.3763", "0.4537 0.1945 0.1912 0.6142 0.4685",
      "0.5360 0.1630 0.1091 0.4596 0.2593", "0.5309 0.1587 0.1112 0.4618 0.2726"),
     "471 964 1370 6211 424 540", "378.5984 1034.1226 1195.4706"),
    ("CUUI", "independent", "corpus",
     ("0.4880 0.2536 0.2339 0.5125 0.3477", "0.4705 0.2336 0.2391 0.5272 0.4365",
      "0.5055 0.1890 0.1779 0.3732 0.2269", "0.5012 0.1838 0.1801 0.3761 0.2407"),
     "487 948 984 6597 449 499", "391.9714 1015.4956 884.4911"),
    ("CUUI", "independent", "sentence",
     ("0.5083 0.2536 0.2339 0.5125 0.3477", "0.4793 0.2336 0.2391 0.5272 0.4365",
      "0.5517 0.1890 0.1779 0.3732 0.2269", "0.5459 0.1838 0.1801 0.3761 0.2407"),
     "487 948 984 6597 449 499", "391.9714 1015.4956 884.4911"),
    ("IITB", "dependent", "corpus",
     ("0.3849 0.0120 0.0185 0.9695 0.3708", "0.3801 0.0103 0.0193 0.9704 0.4442",
      "0.4490 0.0081 0.0056 0.6745 0.0301", "0.4489 0.0079 0.0057 0.6746 0.0301"),
     "22 67 1781 6283 34 33", "17.2570 72.1941 1628.6525"),
    ("IITB", "dependent", "sentence",
     ("0.3815 0.0120 0.0185 0.9694 0.3708", "0.3662 0.0101 0.0206 0.9693 0.4418",
      "0.5115 0.0081 0.0083 0.6719 0.0244", "0.5114 0.0079 0.0086 0.6717 0.0245"),
     "22 67 1777 6287 34 33", "16.5070 73.4441 1583.5031"),
    ("IITB", "independent", "corpus",
     ("0.3856 0.0142 0.0219 0.9639 0.3708", "0.3805 0.0122 0.0230 0.9648 0.4442",
      "0.4540 0.0099 0.0152 0.6266 0.0229", "0.4538 0.0096 0.0155 0.6266 0.0229"),
     "22 67 1497 6567 34 33", "17.2570 72.1941 1362.0547"),
    ("IITB", "independent", "sentence",
     ("0.3825 0.0142 0.0219 0.9639 0.3708", "0.3667 0.0122 0.0230 0.9648 0.4442",
      "0.5198 0.0099 0.0152 0.6266 0.0229", "0.5196 0.0096 0.0155 0.6266 0.0229"),
     "22 67 1497 6567 34 33", "17.2570 72.1941 1362.0547"),
    ("INPUT", "dependent", "corpus",
     ("0.4000 0.0000 0.0000 1.0000 0.0000", "0.4000 0.0000 0.0000 1.0000 0.0000",
      "0.4470 0.0000 0.0000 0.6867 0.0000", "0.4470 0.0000 0.0000 0.6867 0.0000"),
     "0 0 1782 6308 0 0", "0.0000 0.0000 1592.3297"),
    ("INPUT", "dependent", "sentence",
     ("0.4500 0.0000 0.0000 1.0000 0.0000", "0.4500 0.0000 0.0000 1.0000 0.0000",
      "0.5127 0.0000 0.0000 0.6867 0.0000", "0.5127 0.0000 0.0000 0.6867 0.0000"),
     "0 0 1782 6308 0 0", "0.0000 0.0000 1592.3297"),
    ("INPUT", "independent", "corpus",
     ("0.4000 0.0000 0.0000 1.0000 0.0000", "0.4000 0.0000 0.0000 1.0000 0.0000",
      "0.4529 0.0000 0.0000 0.6471 0.0000", "0.4529 0.0000 0.0000 0.6471 0.0000"),
     "0 0 1530 6560 0 0", "0.0000 0.0000 1393.1126"),
    ("INPUT", "independent", "sentence",
     ("0.4500 0.0000 0.0000 1.0000 0.0000", "0.4500 0.0000 0.0000 1.0000 0.0000",
      "0.5206 0.0000 0.0000 0.6471 0.0000", "0.5206 0.0000 0.0000 0.6471 0.0000"),
     "0 0 1530 6560 0 0", "0.0000 0.0000 1393.1126"),
    ("NTHU", "dependent", "corpus",
     ("0.4438 0.1637 0.1503 0.6860 0.4874", "0.4315 0.1518 0.1566 0.6916 0.5649",
      "0.4808 0.1193 0.0968 0.4943 0.2969", "0.4783 0.1166 0.0988 0.4949 0.3075"),
     "330 905 1383 6279 303 602", "265.6088 974.5425 1209.9663"),
    ("NTHU", "dependent", "sentence",
     ("0.4467 0.1495 0.1985 0.6520 0.3781", "0.4238 0.1367 0.2124 0.6509 0.4539",
      "0.5154 0.1188 0.1155 0.4761 0.2604", "0.5119 0.1161 0.1190 0.4752 0.2696"),
     "330 905 1439 6223 438 467", "264.9543 973.8880 1261.3527"),
    ("NTHU", "independent", "corpus",
     ("0.4437 0.1847 0.2443 0.5710 0.3644", "0.4271 0.1675 0.2563 0.5762 0.4434",
      "0.4748 0.1373 0.1922 0.3901 0.2237", "0.4714 0.1333 0.1949 0.3914 0.2332"),
     "338 897 1045 6617 447 450", "272.2633 965.1971 936.6484"),
    ("NTHU", "independent", "sentence",
     ("0.4665 0.1847 0.2443 0.5710 0.3644", "0.4406 0.1675 0.2563 0.5762 0.4434",
      "0.5272 0.1373 0.1922 0.3901 0.2237", "0.5230 0.1333 0.1949 0.3914 0.2332"),
     "338 897 1045 6617 447 450", "272.2633 965.1971 936.6484"),
    ("POST", "dependent", "corpus",
     ("0.4618 0.1979 0.1518 0.6503 0.5324", "0.4500 0.1864 0.1555 0.6581 0.6138",
      "0.4935 0.1418 0.0883 0.4825 0.3398", "0.4904 0.1382 0.0897 0.4840 0.3560"),
     "412 1145 1354 6428 316 829", "332.5169 1246.9357 1174.2833"),
    ("POST", "dependent", "sentence",
     ("0.4512 0.1851 0.1972 0.6177 0.4534", "0.4267 0.1749 0.2015 0.6236 0.5469",
      "0.5184 0.1421 0.1074 0.4662 0.3060", "0.5131 0.1386 0.1110 0.4653 0.3228"),
     "412 1145 1375 6407 439 706", "332.5169 1246.9357 1185.5453"),
    ("POST", "independent", "corpus",
     ("0.4607 0.2215 0.2569 0.5216 0.4175", "0.4437 0.2036 0.2660 0.5304 0.5043",
      "0.4878 0.1653 0.1917 0.3746 0.2665", "0.4835 0.1607 0.1950 0.3760 0.2830"),
     "420 1137 989 6793 487 650", "338.5169 1236.9357 881.8896"),
    ("POST", "independent", "sentence",
     ("0.4755 0.2215 0.2569 0.5216 0.4175", "0.4478 0.2036 0.2660 0.5304 0.5043",
      "0.5317 0.1653 0.1917 0.3746 0.2665", "0.5257 0.1607 0.1950 0.3760 0.2830"),
     "420 1137 989 6793 487 650", "338.5169 1236.9357 881.8896"),
    ("UFC", "dependent", "corpus",
     ("0.4032 0.0176 0.0066 0.9758 0.1200", "0.3982 0.0136 0.0063 0.9800 0.1735",
      "0.4527 0.0120 0.0020 0.6781 0.0057", "0.4523 0.0114 0.0021 0.6785 0.0058"),
     "32 18 1773 6279 12 6", "24.3795 18.8438 1751.2903"),
    ("UFC", "dependent", "sentence",
     ("0.4354 0.0176 0.0066 0.9758 0.1200", "0.4232 0.0151 0.0070 0.9779 0.1735",
      "0.5171 0.0120 0.0022 0.6779 0.0050", "0.5167 0.0114 0.0024 0.6783 0.0050"),
     "32 18 1773 6279 12 6", "24.3795 18.8438 1583.4335"),
    ("UFC", "independent", "corpus",
     ("0.4048 0.0206 0.0077 0.9716 0.1200", "0.4001 0.0173 0.0081 0.9746 0.1735",
      "0.4597 0.0151 0.0047 0.6349 0.0042", "0.4593 0.0145 0.0049 0.6354 0.0043"),
     "32 18 1506 6546 12 6", "24.3795 18.8438 1372.4739"),
    ("UFC", "independent", "sentence",
     ("0.4370 0.0206 0.0077 0.9716 0.1200", "0.4244 0.0173 0.0081 0.9746 0.1735",
      "0.5263 0.0151 0.0047 0.6349 0.0042", "0.5259 0.0145 0.0049 0.6354 0.0043"),
     "32 18 1506 6546 12 6", "24.3795 18.8438 1372.4739"),
]
ROWS = ("corpus_unweighted", "corpus_weighted", "sentence_unweighted", "sentence_weighted")


def _example(name: str):
    return shared(f"cleme/CLEME/tests/examples/{name}")


def _json(capsys, system: str, *flags: str) -> dict:
    assert main(["score", "--metric", "cleme", "--cleme2", *flags, "--format", "json",
                 str(_example(f"conll14-{system}.errant")), str(_example("conll14.errant"))]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("system", "chunks", "level", "indicators", "counts", "weighted"),
                         RECORDED, ids=[f"{s}-{c}-{lv}" for s, c, lv, *_ in RECORDED])
def test_as_cleme2_prints_it(system, chunks, level, indicators, counts, weighted,
                             capsys) -> None:
    data = _json(capsys, system, "--cleme-scorer", chunks, "--level", level)
    ours = [f"{data['rows'][row][k]:.4f}" for row in ROWS
            for k in ("com", "hit", "err", "und", "ove")]
    assert " ".join(ours) == " ".join(indicators)
    corpus = data["rows"]["corpus_unweighted"]
    assert " ".join(str(int(corpus[k])) for k in ("tp", "fp", "fn", "tn", "fp_ne", "fp_un")) \
        == counts
    heavy = data["rows"]["corpus_weighted"]
    assert " ".join(f"{heavy[k]:.4f}" for k in ("tp", "fp", "fn")) == weighted
    assert data["com"] == corpus["com"] and data["weigher"] == "length"


def test_no_weights_weigh_nothing(capsys) -> None:
    """With `--cleme-weigher none` the weighted rows are the unweighted ones (as the
    reference's BaseWeigher gives every chunk 1)."""
    data = _json(capsys, "CAMB", "--cleme-weigher", "none")
    assert data["rows"]["corpus_weighted"] == data["rows"]["corpus_unweighted"]
    assert data["rows"]["sentence_weighted"] == data["rows"]["sentence_unweighted"]
    assert data["signature"].startswith("CLEME2|chunks:dependent|level:corpus|weigher:none|")


def test_text_bootstrap_and_misuse(capsys) -> None:
    gold, system = _example("conll14.errant"), _example("conll14-AMU.errant")
    assert main(["score", "--metric", "cleme", "--cleme2", "--bootstrap", "50", "--seed", "1",
                 str(system), str(gold)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["metric", "COM", "HIT", "ERR", "UND", "OVE", "TP", "FP", "FN",
                                "TN", "FP_NE", "FP_UN", "NE"]
    assert lines[1].split()[:3] == ["heuo_corpus_unweighted", "0.4632", "0.1888"]
    assert "COM" in out.split("\n\n", 1)[1]
    assert main(["score", "--metric", "cleme", "--cleme-weigher", "none", str(system),
                 str(gold)]) == 2
    assert "--cleme-weigher" in capsys.readouterr().err


def test_the_length_weight_needs_no_numpy() -> None:
    """The LengthWeigher's weight (the reference computes it with numpy.exp and numpy.clip)
    is computed with `math` in the core install: equal to NumPy's, bit for bit, for every
    chunk length of the CoNLL-2014 runs with the bias each run uses, for a sweep of lengths
    and biases, and where exp overflows (NumPy's inf) or the bias is NaN."""
    import math

    numpy = pytest.importorskip("numpy")
    from m2lsp.scoring.cleme.heuo import LENGTH, _weight, bias_of
    from m2lsp.scoring.cleme.heuo_score import chunked2
    from m2lsp.scoring.cleme.reading import read_m2

    def theirs(length: int, bias: float, reverse: bool) -> float:
        alpha, low, high = LENGTH
        x = length - bias if reverse else -length + bias
        with numpy.errstate(over="ignore"):
            weight = alpha * (1 / (1 + (alpha - 1) * numpy.exp(x)))
        return float(numpy.clip(weight, low, high).item())

    cases = set()
    for system in ("AMU", "CAMB", "NTHU"):
        hyps, refs_ = (read_m2(path.read_text(encoding="utf-8"), str(path)) for path in (
            _example(f"conll14-{system}.errant"), _example("conll14.errant")))
        chunked = [chunked2(h, r, i) for i, (h, r) in enumerate(zip(hyps, refs_, strict=True))]
        bias = bias_of([refs for _, refs in chunked])
        lengths = {c.length for hyp, refs in chunked for c in [*hyp, *(x for r in refs
                                                                       for x in r)]}
        cases |= {(length, bias) for length in lengths}
    cases |= {(length, bias / 7) for length in range(200) for bias in range(1, 140)}
    cases |= {(900, 1.5), (0, 900.25), (3, math.nan)}
    for length, bias in sorted(cases):
        for reverse in (False, True):
            ours, expected = _weight(length, bias, reverse), theirs(length, bias, reverse)
            assert ours == expected or (math.isnan(ours) and math.isnan(expected)), (
                length, bias, reverse)


def test_the_similarity_weigher_needs_the_neural_extra(monkeypatch, capsys) -> None:
    """`--cleme-weigher similarity` (BERTScore) without torch, transformers or bert-score:
    exit 2 naming the extra, before any file is read; its BERTScore flags with another
    weigher: refused."""
    import sys

    gold, system = _example("conll14.errant"), _example("conll14-AMU.errant")
    monkeypatch.setitem(sys.modules, "bert_score", None)  # import bert_score: ImportError
    assert main(["score", "--metric", "cleme", "--cleme2", "--cleme-weigher", "similarity",
                 str(system), "missing.m2"]) == 2
    err = capsys.readouterr().err
    assert "needs m2lsp[neural] (bert_score is not installed)" in err
    assert "pip install 'm2lsp[neural]'" in err and "Traceback" not in err
    assert main(["score", "--metric", "cleme", "--cleme2", "--bertscore-model-type", "x",
                 str(system), str(gold)]) == 2
    assert "--bertscore-model-type: the BERTScore of --cleme2 --cleme-weigher similarity" \
        in capsys.readouterr().err
