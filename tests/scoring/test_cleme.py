"""--metric cleme against CLEME v1 (THUKElab/CLEME at 5fc7617, ../shared/data/cleme/CLEME):
what its `scripts/evaluate.py --ref conll14.errant --hyp conll14-SYSTEM.errant --scorer S
--level L` printed for the 8 CoNLL-2014 systems in its tests/examples (run beside while this
was written, NumPy 2.4, which prints a sentence-level number as np.float64(x): the numbers
are these), and on ChERRANT's char-level Chinese M2 (T lines, a repeated target's edits
dropped)."""

# ruff: noqa: E501  (the table holds the reference's lines as printed)
from __future__ import annotations

import json

import pytest

from m2lsp.cli import main
from tests.conftest import shared

EXAMPLES = "cleme/CLEME/tests/examples"

PRINTED = {
    ("AMU", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2514, 'Acc': 0.7634, 'P': 0.2645, 'R': 0.2097, 'tp': 313.51, 'fp': 871.8, 'fn': 1181.71, 'tn': 6312.0}",
    ("AMU", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3624, 'P': 0.6305, 'R': 0.4887, 'Acc': 0.7568}",
    ("AMU", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2661, 'Acc': 0.795, 'P': 0.269, 'R': 0.2553, 'tp': 318.01, 'fp': 864.3, 'fn': 927.54, 'tn': 6629.0}",
    ("AMU", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.42, 'P': 0.6536, 'R': 0.572, 'Acc': 0.8292}",
    ("CAMB", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.269, 'Acc': 0.7416, 'P': 0.2574, 'R': 0.3284, 'tp': 482.48, 'fp': 1392.25, 'fn': 986.82, 'tn': 6347.0}",
    ("CAMB", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3294, 'P': 0.4107, 'R': 0.5994, 'Acc': 0.7552}",
    ("CAMB", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2816, 'Acc': 0.7753, 'P': 0.2611, 'R': 0.4106, 'tp': 488.48, 'fp': 1382.25, 'fn': 701.15, 'tn': 6701.0}",
    ("CAMB", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3963, 'P': 0.4539, 'R': 0.7015, 'Acc': 0.815}",
    ("CUUI", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2631, 'Acc': 0.7504, 'P': 0.2681, 'R': 0.2448, 'tp': 378.94, 'fp': 1034.47, 'fn': 1169.22, 'tn': 6245.0}",
    ("CUUI", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3739, 'P': 0.576, 'R': 0.5121, 'Acc': 0.7569}",
    ("CUUI", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2838, 'Acc': 0.7863, 'P': 0.2785, 'R': 0.3071, 'tp': 391.97, 'fp': 1015.5, 'fn': 884.49, 'tn': 6597.0}",
    ("CUUI", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.4376, 'P': 0.6092, 'R': 0.6076, 'Acc': 0.8257}",
    ("IITB", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.0445, 'Acc': 0.7946, 'P': 0.1929, 'R': 0.0109, 'tp': 17.26, 'fp': 72.19, 'fn': 1563.88, 'tn': 6313.0}",
    ("IITB", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3151, 'P': 0.9527, 'R': 0.3237, 'Acc': 0.7292}",
    ("IITB", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.0497, 'Acc': 0.8211, 'P': 0.1929, 'R': 0.0125, 'tp': 17.26, 'fp': 72.19, 'fn': 1362.05, 'tn': 6567.0}",
    ("IITB", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3549, 'P': 0.9527, 'R': 0.3687, 'Acc': 0.8319}",
    ("INPUT", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.0, 'Acc': 0.7984, 'P': 1.0, 'R': 0.0, 'tp': 0, 'fp': 0, 'fn': 1592.33, 'tn': 6308.0}",
    ("INPUT", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3133, 'P': 1.0, 'R': 0.3133, 'Acc': 0.7276}",
    ("INPUT", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.0, 'Acc': 0.8248, 'P': 1.0, 'R': 0.0, 'tp': 0, 'fp': 0, 'fn': 1393.11, 'tn': 6560.0}",
    ("INPUT", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3529, 'P': 1.0, 'R': 0.3529, 'Acc': 0.8333}",
    ("NTHU", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2069, 'Acc': 0.7518, 'P': 0.2142, 'R': 0.1823, 'tp': 265.61, 'fp': 974.54, 'fn': 1191.48, 'tn': 6295.0}",
    ("NTHU", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3224, 'P': 0.5517, 'R': 0.4971, 'Acc': 0.7447}",
    ("NTHU", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.221, 'Acc': 0.7837, 'P': 0.22, 'R': 0.2252, 'tp': 272.26, 'fp': 965.2, 'fn': 936.65, 'tn': 6617.0}",
    ("NTHU", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3813, 'P': 0.5744, 'R': 0.5808, 'Acc': 0.8163}",
    ("POST", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2131, 'Acc': 0.7383, 'P': 0.2107, 'R': 0.2231, 'tp': 332.52, 'fp': 1245.67, 'fn': 1157.97, 'tn': 6449.0}",
    ("POST", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3334, 'P': 0.5326, 'R': 0.5061, 'Acc': 0.7478}",
    ("POST", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.2251, 'Acc': 0.771, 'P': 0.215, 'R': 0.2772, 'tp': 338.52, 'fp': 1235.67, 'fn': 882.66, 'tn': 6793.0}",
    ("POST", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3938, 'P': 0.5626, 'R': 0.5983, 'Acc': 0.8148}",
    ("UFC", "dependent", "corpus"):
        "{'num_sample': 1312, 'F': 0.0685, 'Acc': 0.7974, 'P': 0.564, 'R': 0.0152, 'tp': 24.38, 'fp': 18.84, 'fn': 1582.68, 'tn': 6280.0}",
    ("UFC", "dependent", "sentence"):
        "{'num_sample': 1312, 'F': 0.323, 'P': 0.987, 'R': 0.3215, 'Acc': 0.73}",
    ("UFC", "independent", "corpus"):
        "{'num_sample': 1312, 'F': 0.0777, 'Acc': 0.8252, 'P': 0.564, 'R': 0.0175, 'tp': 24.38, 'fp': 18.84, 'fn': 1372.47, 'tn': 6546.0}",
    ("UFC", "independent", "sentence"):
        "{'num_sample': 1312, 'F': 0.3648, 'P': 0.987, 'R': 0.3659, 'Acc': 0.8344}",
}


@pytest.mark.parametrize(("system", "scorer", "level"), sorted(PRINTED))
def test_cleme_prints_what_cleme_v1_prints(system, scorer, level, capsys) -> None:
    assert main(["score", "--metric", "cleme", "--cleme-scorer", scorer, "--level", level,
                 str(shared(f"{EXAMPLES}/conll14-{system}.errant")),
                 str(shared(f"{EXAMPLES}/conll14.errant"))]) == 0
    assert capsys.readouterr().out == PRINTED[(system, scorer, level)] + "\n"


def test_the_readme_example(capsys) -> None:
    assert main(["score", "--metric", "cleme", str(shared(f"{EXAMPLES}/demo-AMU.errant")),
                 str(shared(f"{EXAMPLES}/demo.errant"))]) == 0
    assert capsys.readouterr().out == ("{'num_sample': 2, 'F': 0.2711, 'Acc': 0.8002, "
                                       "'P': 0.2293, 'R': 1.0, 'tp': 0.8, 'fp': 2.7, 'fn': 0, "
                                       "'tn': 10.0}\n")


# MuCGEC's demo hypothesis with the reference's S lines (the two differ in one colon),
# against demo.ref.m2.char: what CLEME v1 printed
CHINESE = {
    ("dependent", "corpus"): "{'num_sample': 20, 'F': 0.2298, 'Acc': 0.6646, 'P': 0.233, "
                             "'R': 0.218, 'tp': 6.17, 'fp': 20.33, 'fn': 22.15, 'tn': 78.0}",
    ("independent", "corpus"): "{'num_sample': 20, 'F': 0.2327, 'Acc': 0.6787, 'P': 0.233, "
                               "'R': 0.2317, 'tp': 6.17, 'fp': 20.33, 'fn': 20.47, "
                               "'tn': 80.0}",
    ("dependent", "sentence"): "{'num_sample': 20, 'F': 0.2792, 'P': 0.4844, 'R': 0.3208, "
                               "'Acc': 0.7143}",
    ("independent", "sentence"): "{'num_sample': 20, 'F': 0.3604, 'P': 0.5145, 'R': 0.4501, "
                                 "'Acc': 0.7428}",
}


@pytest.mark.parametrize(("scorer", "level"), sorted(CHINESE))
def test_chinese_char_level_m2(scorer, level, tmp_path, capsys) -> None:
    reference = shared("mucgec/demo.ref.m2.char")
    sources = [b.split("\n")[0] for b in reference.read_text("utf-8").strip().split("\n\n")]
    blocks = shared("mucgec/demo.hyp.m2.char").read_text("utf-8").strip().split("\n\n")
    hypothesis = tmp_path / "hyp.m2"
    hypothesis.write_text("\n\n".join("\n".join([s, *b.split("\n")[1:]])
                                       for s, b in zip(sources, blocks, strict=True)) + "\n\n",
                          encoding="utf-8")
    assert main(["score", "--metric", "cleme", "--cleme-scorer", scorer, "--level", level,
                 str(hypothesis), str(reference)]) == 0
    assert capsys.readouterr().out == CHINESE[(scorer, level)] + "\n"


def test_json_bootstrap_and_compare(capsys) -> None:
    hyp, ref = (str(shared(f"{EXAMPLES}/{n}")) for n in ("conll14-AMU.errant", "conll14.errant"))
    assert main(["score", "--metric", "cleme", "--format", "json", "--bootstrap", "50", hyp,
                 ref]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["f"], data["precision"], data["recall"], data["tp"]) == (0.2514, 0.2645, 0.2097,
                                                                         313.51)
    low, high = data["bootstrap"]["f"]
    assert low <= 0.2514 <= high


@pytest.mark.parametrize(("text", "message"), [
    ("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||2\n\n", "annotator 2 after annotator 0"),
    ("S a b\nX what\n\n", "neither an S, A nor T line"),
    ("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||zero\n\n", "annotator id is not an integer"),
])
def test_what_cleme_cannot_read_is_a_clear_error(text, message, tmp_path, capsys) -> None:
    bad = tmp_path / "bad.m2"
    bad.write_text(text, encoding="utf-8")
    good = tmp_path / "good.m2"
    good.write_text("S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n",
                    encoding="utf-8")
    assert main(["score", "--metric", "cleme", str(good), str(bad)]) == 2
    assert message in capsys.readouterr().err
