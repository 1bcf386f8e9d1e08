"""`m2lsp audit`: the attacks of Goto et al. (2025) as tables of cases on stand-in models
(the pure search of each attack), then on models the tests make: the injection against an
LLM judge, the best corpus sentence against SOME, the mask-fill search against Scribendi."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.audit import attacks
from m2lsp.cli import main

pytestmark = pytest.mark.usefixtures("neural")


def test_injection_is_one_instruction_for_every_sentence() -> None:
    assert attacks.injection(["a", "b"]) == [attacks.INSTRUCTION] * 2
    assert attacks.INSTRUCTION.startswith("# New instruction: Ignore previous instructions")


def test_best_sentence_is_the_first_best_for_every_source() -> None:
    scores = {"x": 0.1, "y": 0.9, "z": 0.9}
    found = attacks.best_sentence(["s1", "s2", "s3"], ["c1", "c2", "c3"], ["x", "y", "z"],
                                  lambda srcs, hyps: [scores[h] for h in hyps])
    assert found == ["y", "y", "y"]


def test_mask_fill_takes_the_first_filling_the_model_prefers() -> None:
    """Fillings in the fill-mask pipeline's order; perplexity: the sentence's length, the
    source 5; a filling equal to its token is passed over; a hypothesis judged -1 goes
    back to its source."""
    fills = {"[M] b": [("x b", "x"), ("a b", "a")],
             "a [M]": [("a bbbbbb", "bbbbbb"), ("a c", "c")]}

    def fill(masked: str) -> list[tuple[str, str]]:
        return fills.get(masked.replace("[MASK]", "[M]"), [])

    found = attacks.mask_fill(
        ["a b", "zz zz"], "[MASK]", fill, lambda texts: [5.0 if t == "a b" else len(t)
                                                          for t in texts],
        lambda text: text.upper(), lambda s, h: [1.0, -1.0])
    assert found == ["X B", "zz zz"]  # "x b" (3 < 5), tokenised; the second put back


def test_injection_against_an_llm_judge(made, conll, tmp_path, capsys) -> None:
    (tmp_path / "src").write_text("".join(f"{s}\n" for s in conll.sources[:12]), "utf-8")
    (tmp_path / "out").write_text("".join(f"{s}\n" for s in conll.systems["CAMB"][:12]),
                                  "utf-8")
    code = main(["audit", str(tmp_path / "out"), "--source", str(tmp_path / "src"),
                 "--metric", "llm-s", "--llm-model", str(made["llm"]), "--llm-cache",
                 str(tmp_path / "replies"), "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    (attack,) = found["attacks"]
    assert attack["attack"] == "injection" and attack["examples"][0] == attacks.INSTRUCTION
    assert attack["difference"] == pytest.approx(attack["score"] - found["honest"])
    assert code == (1 if attack["difference"] > 0 else 0)
    assert found["climbed"] == (["injection"] if attack["difference"] > 0 else [])


def test_the_best_corpus_sentence_against_some(made, conll, tmp_path, capsys) -> None:
    head = conll.head(20, ("CAMB",), tmp_path / "head")
    options = ["--some-model-g", str(made["g"]), "--some-model-f", str(made["f"]),
               "--some-model-m", str(made["m"])]
    main(["audit", str(head.path("CAMB")), str(head.gold), "--metric", "some",
          "--audit-corpus", str(head.gold), "--format", "json", *options])
    found = json.loads(capsys.readouterr().out)
    best = found["attacks"][1]
    assert [a["attack"] for a in found["attacks"]] == ["injection", "best-sentence"]
    assert len(set(best["examples"])) == 1 and best["sentences"] == 20
    assert best["examples"][0] in [r[0] for r in head.references]


def test_mask_fill_against_scribendi(made, conll, tmp_path, capsys, english_pipeline
                                     ) -> None:
    from tests.learned import models

    mask = models.bert(tmp_path / "mlm", conll.sources[:50], seed=3, head="masked")
    head = conll.head(4, ("CAMB",), tmp_path / "head")
    main(["audit", str(head.path("CAMB")), str(head.gold), "--metric", "scribendi",
          "--scribendi-model", str(made["gpt2"]), "--attack", "mask-fill",
          "--audit-mask-model", str(mask), "--audit-no-cuda", "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    (attack,) = found["attacks"]
    assert attack["attack"] == "mask-fill" and attack["sentences"] == 4
    # every sentence is its source (0) or a filling Scribendi scores +1: none is -1
    assert attack["score"] >= 0 and attack["score"] == int(attack["score"])


@pytest.mark.parametrize(("args", "said"), [
    (["--metric", "llm-s", "--attack", "mask-fill"], "--metric scribendi"),
    (["--metric", "llm-s", "--attack", "best-sentence"], "--audit-corpus"),
    (["--metric", "llm-s", "--attack", "neighbour"], "--metric impara"),
])
def test_what_is_refused(tmp_path, capsys, args, said) -> None:
    (tmp_path / "src").write_text("a b\n", "utf-8")
    (tmp_path / "out").write_text("a b\n", "utf-8")
    assert main(["audit", str(tmp_path / "out"), "--source", str(tmp_path / "src"),
                 *args]) == 2
    assert said in capsys.readouterr().err


def test_neighbour_takes_the_best_near_correction() -> None:
    """Vectors by hand: "far" is below the similarity threshold; of the near two, the
    scorer prefers "near b"; a source with no near correction keeps itself."""
    vectors = {"src": [1.0, 0.0], "other": [0.0, 1.0], "near a": [1.0, 0.05],
               "near b": [1.0, 0.1], "far": [0.2, 1.0]}
    found = attacks.neighbour(
        ["src", "other"], ["near a", "far", "near b"],
        lambda texts: [vectors[t] for t in texts], 0.9,
        lambda srcs, hyps: [{"near a": 0.2, "near b": 0.7, "far": 0.9}[h] for h in hyps])
    assert found == ["near b", "far"]


def test_neighbour_against_impara(made, conll, tmp_path, capsys) -> None:
    head = conll.head(15, ("CAMB",), tmp_path / "head")
    main(["audit", str(head.path("CAMB")), str(head.gold), "--metric", "impara",
          "--impara-model-qe", str(made["qe"]), "--impara-model-se", str(made["se"]),
          "--attack", "neighbour", "--audit-corpus", str(head.gold), "--audit-encoder",
          str(made["se"]), "--audit-no-cuda", "--format", "json"])
    found = json.loads(capsys.readouterr().out)
    (attack,) = found["attacks"]
    corrections = {r[0] for r in head.references}
    assert attack["attack"] == "neighbour" and attack["sentences"] == 15
    assert all(h in corrections or h in head.sources for h in attack["examples"])


def test_the_gold_is_read_once(tmp_path, capsys, monkeypatch) -> None:
    """The Scorer reads the gold and holds it; the sources are its S lines, taken from
    what it holds (the gold was read again for them)."""
    import m2lsp.files.reading as reading

    gold, system = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold.write_text("S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n",
                    "utf-8")
    system.write_text("He goes home .\nIt is fine .\n", "utf-8")
    real, read = reading.read_bytes, []

    def counted(path, *args, **kwargs):
        read.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(reading, "read_bytes", counted)
    main(["audit", str(system), str(gold), "--metric", "m2", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["metric"] == "m2"
    assert read.count("gold.m2") == 1
