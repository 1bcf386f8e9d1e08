"""One shape for every metric: each one through `score()`, `Scorer.update/compute` and its
Hugging Face `evaluate` module gives the command line's numbers, prints nothing, keeps
precision at full precision and its counts under the same keys; the sacreBLEU-style
classes and a Trainer's `compute_metrics` give the same."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from tests.conftest import shared

SIZE = 60  # the first sentences of each corpus: enough to count, quick to annotate
COUNTING = ("m2", "errant", "cherrant", "cleme")


def _blocks(path: Path, size: int = SIZE) -> str:
    blocks = [b for b in path.read_text("utf-8").split("\n\n") if b.strip()][:size]
    return "".join(b.strip("\n") + "\n\n" for b in blocks)


def _lines(path: Path, size: int = SIZE) -> list[str]:
    return path.read_text("utf-8").splitlines()[:size]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> dict:
    """Slices of real data written as files (the command line's inputs), and the same
    as lists (the API's)."""
    where = tmp_path_factory.mktemp("api-shape")
    gold = where / "gold.m2"
    gold.write_text(_blocks(shared("conll2014/gold/official-2014.combined.m2")), "utf-8")
    camb = _lines(shared("conll2014/systems/CAMB"))
    (where / "camb.txt").write_text("".join(f"{s}\n" for s in camb), "utf-8")
    cleme_ref = where / "cleme-ref.m2"
    cleme_ref.write_text(_blocks(shared("cleme/CLEME/tests/examples/conll14.errant")),
                         "utf-8")
    cleme_hyp = where / "cleme-hyp.m2"
    cleme_hyp.write_text(_blocks(shared("cleme/CLEME/tests/examples/conll14-AMU.errant")),
                         "utf-8")
    sources = [b.split("\n")[0][2:] for b in gold.read_text("utf-8").split("\n\n") if b]
    (where / "src.txt").write_text("".join(f"{s}\n" for s in sources), "utf-8")
    assert main(["convert", str(gold), "--to", "parallel", "-o", str(where / "par.tsv")]) == 0
    rows = [line.split("\t") for line in (where / "par.tsv").read_text("utf-8").splitlines()]
    references = [[row[k] for row in rows] for k in (1, 2)]  # each annotator's corrections
    for k, column in enumerate(references):
        (where / f"ref{k}.txt").write_text("".join(f"{s}\n" for s in column), "utf-8")
    return {"where": where, "gold": gold, "camb": camb, "sources": sources,
            "references": references, "cleme_ref": cleme_ref, "cleme_hyp": cleme_hyp}


# metric -> (system file, GOLD or None, flags for the command line, API keyword arguments)
def _cases(c: dict) -> dict:
    w = c["where"]
    mucgec = shared("mucgec")
    return {
        "m2": (w / "camb.txt", c["gold"], [], {"gold": c["gold"]}),
        "errant": (w / "camb.txt", c["gold"], [], {"gold": c["gold"]}),
        "cherrant": (mucgec / "demo.hyp.m2.char", mucgec / "demo.ref.m2.char", [],
                     {"gold": mucgec / "demo.ref.m2.char"}),
        "cleme": (c["cleme_hyp"], c["cleme_ref"], [], {"gold": c["cleme_ref"]}),
        "gleu": (w / "camb.txt", None, ["--source", str(w / "src.txt"), "--ref",
                                        str(w / "ref0.txt"), str(w / "ref1.txt")],
                 {"sources": c["sources"], "references": c["references"]}),
        "green": (w / "camb.txt", None, ["--source", str(w / "src.txt"), "--ref",
                                         str(w / "ref0.txt"), str(w / "ref1.txt")],
                  {"sources": c["sources"], "references": c["references"]}),
        "cgec": (mucgec / "demo.hyp", mucgec / "demo.ref.m2.char", [],
                 {"gold": mucgec / "demo.ref.m2.char"}),
        "cged": (shared("cged/cged2016/nlptea16cged_release1.0/Evaluation/HSK_OutputFile.txt"),
                 shared("cged/cged2016/nlptea16cged_release1.0/Evaluation/HSK_Truth.txt"),
                 [], {"gold": shared("cged/cged2016/nlptea16cged_release1.0/Evaluation/"
                                     "HSK_Truth.txt")}),
    }


def _cli(capsys, name: str, system: Path, gold: Path | None, flags: list[str]) -> dict:
    capsys.readouterr()
    argv = ["score", "--metric", name, "--format", "json", str(system),
            *([str(gold)] if gold else []), *flags]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _system(name: str, path: Path) -> list[str] | Path:
    """The system as the API takes it: a list of sentences (an M2 hypothesis: its path)."""
    text = path.read_text("utf-8")
    return path if text.startswith("S ") or name == "cged" else text.splitlines()


@pytest.mark.parametrize("name", ["m2", "errant", "cherrant", "cleme", "gleu", "green",
                                  "cgec", "cged"])
def test_score_is_the_commands_and_quiet(corpus, capfd, name) -> None:
    if name == "errant":
        pytest.importorskip("errant")
    system, gold, flags, given = _cases(corpus)[name]
    printed = _cli(capfd, name, system, gold, flags)
    capfd.readouterr()
    found = m2lsp.score(_system(name, system), metric=name, **given)
    assert capfd.readouterr() == ("", "")  # nothing printed, not even by a library below
    for key in ("precision", "recall", "f", "gleu", "green", "acc_sen"):
        if isinstance(printed.get(key), float):
            ours = getattr(found, key, None) if key in ("precision", "recall", "f") \
                else found.to_dict()[key]
            digits = len(repr(printed[key]).split(".")[1])  # what the tool prints
            assert round(ours, min(digits, 12)) == pytest.approx(printed[key], abs=1e-12), key
    if name in COUNTING:
        counts = found.counts
        assert {"tp", "fp", "fn"} <= set(counts)
        tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
        if name != "cleme":  # (CLEME's precision: of the chunks' weights)
            assert found.precision == (tp / (tp + fp) if fp else 1.0)  # not rounded
            assert found.recall == (tp / (tp + fn) if fn else 1.0)
        assert found.tp == tp and found.fp == fp and found.fn == fn
        assert found.score == found.f
    else:
        assert found.counts == {} and found.tp is None
    scores = found.sentence_scores  # what sentence-level meta-evaluation reads
    if name in ("cgec", "cged", "cleme"):  # (CLEME's: at --cleme-level sentence)
        assert scores is None
    else:
        assert len(scores) == (SIZE if name != "cherrant" else len(found.sentences)) > 0
        assert all(v is None or isinstance(v, float) for v in scores)
        assert printed.get("sentence_scores", scores) == scores


@pytest.fixture(scope="module")
def chinese(tmp_path_factory) -> Iterator[dict]:
    """MuCGEC's demo: the unsplit hypothesis, its inputs, and the char-level gold's
    reference as plain text; ChERRANT's tables for the char-level annotation."""
    where = tmp_path_factory.mktemp("api-zh")
    mucgec = shared("mucgec")
    assert main(["convert", str(mucgec / "demo.ref.m2.char"), "--to", "parallel", "-o",
                 str(where / "par.tsv")]) == 0
    rows = [line.split("\t") for line in (where / "par.tsv").read_text("utf-8").splitlines()]
    with pytest.MonkeyPatch.context() as patch:  # for this module's tests only
        patch.setenv("M2LSP_CHERRANT_DATA", str(mucgec / "ChERRANT" / "data"))
        yield {"gold": mucgec / "demo.ref.m2.char", "hyps": _lines(mucgec / "demo.hyp"),
               "sources": ["".join(row[0].split()) for row in rows],
               "references": [["".join(row[1].split()) for row in rows]]}


def test_cherrant_batches_make_the_corpus_score(chinese) -> None:
    pytest.importorskip("pypinyin")
    with m2lsp.Scorer("cherrant", gold=chinese["gold"]) as scorer:
        hypotheses = chinese["hyps"]
        whole = scorer.score(hypotheses)
        for start in range(0, len(hypotheses), 7):
            scorer.update(hypotheses[start:start + 7])
        assert scorer.compute().to_dict() == whole.to_dict()
        assert {"tp", "fp", "fn"} <= set(whole.counts)


@pytest.mark.parametrize("name", ["m2", "errant", "gleu", "green", "cleme"])
def test_batches_make_the_corpus_score(corpus, name) -> None:
    """update() three batches, compute(): the score of the whole corpus at once (corpus
    scores choose each sentence's annotator from the totals so far: not an average)."""
    if name == "cleme":
        given = {"gold": corpus["cleme_ref"]}
        hypotheses = None
    else:
        given = ({"gold": corpus["gold"]} if name in ("m2", "errant")
                 else {"sources": corpus["sources"], "references": corpus["references"]})
        hypotheses = corpus["camb"]
    with m2lsp.Scorer(name, **given) as scorer:
        if hypotheses is None:  # CLEME scores M2 hypotheses: plain text is annotated
            hypotheses = corpus["camb"][:scorer.size]
        whole = scorer.score(hypotheses)
        for start in range(0, len(hypotheses), 25):
            scorer.update(hypotheses[start:start + 25])
        batched = scorer.compute()
        assert batched.to_dict() == whole.to_dict()
        scorer.reset()
        scorer.update(hypotheses[30:], ids=list(range(30, len(hypotheses))))
        scorer.update(hypotheses[:30], ids=list(range(30)))
        assert scorer.compute().to_dict() == whole.to_dict()
        part = scorer.score(hypotheses[10:20], ids=list(range(10, 20)))
    if "gold" in given:
        blocks = [b for b in Path(given["gold"]).read_text("utf-8").split("\n\n") if b]
        alone = {"gold": "".join(b.strip("\n") + "\n\n" for b in blocks[10:20])}
    else:
        alone = {"sources": corpus["sources"][10:20],
                 "references": [r[10:20] for r in corpus["references"]]}
    expected = m2lsp.score(hypotheses[10:20], metric=name, **alone)
    assert part.score == expected.score and part.counts == expected.counts


def test_a_batch_shorter_than_the_gold_says_how(corpus) -> None:
    with m2lsp.Scorer("m2", gold=corpus["gold"]) as scorer:
        with pytest.raises(m2lsp.InputError, match=r"give ids= .* or add batches with update"):
            scorer.score(corpus["camb"][:5])
        assert scorer.score(corpus["camb"][:5], ids=[0, 1, 2, 3, 4]).f is not None


def test_the_function_takes_the_ids_its_message_advises(corpus) -> None:
    with pytest.raises(m2lsp.InputError, match=r"give ids="):
        m2lsp.score(corpus["camb"][:40], corpus["gold"])
    found = m2lsp.score(corpus["camb"][:40], corpus["gold"], ids=range(40))
    with m2lsp.Scorer("m2", gold=corpus["gold"]) as scorer:
        assert found.to_dict() == scorer.score(corpus["camb"][:40], ids=list(range(40))
                                               ).to_dict()


@pytest.mark.parametrize("name", ["m2", "errant"])
def test_a_gold_changed_on_disk_is_read_again(corpus, name, tmp_path) -> None:
    """A Scorer keeps its gold between calls (files.kept), never past a change."""
    gold = tmp_path / "gold.m2"
    gold.write_text(Path(corpus["gold"]).read_text("utf-8"), "utf-8")
    with m2lsp.Scorer(name, gold=gold) as scorer:
        first = scorer.score(corpus["camb"])
        assert scorer.score(corpus["camb"]).to_dict() == first.to_dict()
        noop = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
        gold.write_text("".join((noop if line.startswith("A ") else line) + "\n"
                                for line in gold.read_text("utf-8").splitlines()), "utf-8")
        again = scorer.score(corpus["camb"])
    assert again.counts["tp"] == 0 < first.counts["tp"]


def _read_again(*args: object, **kwargs: object) -> None:
    raise AssertionError("the gold was read or parsed again")


@pytest.mark.parametrize(("name", "form"), [("m2", "path"), ("m2", "text"),
                                            ("errant", "path")])
def test_a_scorer_holds_its_gold_parsed(corpus, name, form, monkeypatch) -> None:
    """The gold is read and parsed once, when the Scorer is made, and held as a parsed
    document: a later score neither reads the file nor parses it again, whatever the
    process's few kept readings (files.kept) have forgotten in between."""
    import m2lsp.files.kept as kept
    import m2lsp.files.reading as reading
    import m2lsp.parsing.m2 as parsing
    from m2lsp.model import M2Document

    gold = corpus["gold"]
    given = gold if form == "path" else gold.read_text("utf-8")
    with m2lsp.Scorer(name, gold=given) as scorer:
        assert isinstance(scorer.gold.document, M2Document)
        lines = len(gold.read_text("utf-8").splitlines())
        assert str(scorer.gold) == (str(gold) if form == "path"
                                    else f"the gold (a text of {lines} lines)")
        first = scorer.score(corpus["camb"]).to_dict()
        kept._KEPT.clear()
        monkeypatch.setattr(reading, "read_bytes", _read_again)
        monkeypatch.setattr(parsing, "parse_m2", _read_again)
        assert scorer.score(corpus["camb"]).to_dict() == first


BAD_EVALUATE_INPUTS = [  # (compute's keywords, what the error says)
    ({"predictions": None}, "predictions: None; give a list of sentences"),
    ({"predictions": [1, 2]}, "predictions: item 0 is an int, not a sentence"),
    ({"predictions": [["a b"], ["c"]]}, "predictions: item 0 is a list, not a sentence"),
    ({"predictions": (p for p in ["a b", "c d"])}, "predictions: a generator; give"),
    ({"predictions": [b"a b", b"c d"]}, "predictions: item 0 is bytes"),
    ({"references": "a b"}, "references: a str; give a list with each prediction's"),
    ({"references": [[["a b"]], [["c d"]]]}, "references[0]: item 0 is a list"),
    ({"references": [[], []]}, "references[0]: an empty list"),
    ({"sources": ["a b"]}, "2 predictions, 2 references and 1 sources"),
    ({"sources": None}, "sources= is needed"),
    ({"predictions": ["a b"]}, "1 predictions, 2 references and 2 sources"),
]


@pytest.mark.parametrize("name", ["m2", "errant", "gleu", "green", "cleme"])
@pytest.mark.parametrize(("given", "says"), BAD_EVALUATE_INPUTS)
def test_the_evaluate_modules_refuse_what_m2lsp_score_refuses(name, given, says, tmp_path,
                                                               monkeypatch) -> None:
    """Each bad input is m2lsp's UsageError or InputError, as `m2lsp.score` says it: never
    the `evaluate` library's own ValueError or TypeError."""
    evaluate = pytest.importorskip("evaluate")
    for variable in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.setenv(variable, "1")
    module = evaluate.load(m2lsp.evaluate_module(name), cache_dir=str(tmp_path / "cache"))
    good = {"predictions": ["a b", "c d"], "references": [["a b"], ["c e"]],
            "sources": ["a b", "c d"]}
    with pytest.raises((m2lsp.UsageError, m2lsp.InputError), match=re.escape(says)):
        module.compute(**{**good, **given})
    flat = module.compute(**{**good, "references": ["a b", "c e"]})  # one each
    assert flat == module.compute(**good)
