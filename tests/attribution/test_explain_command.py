"""`m2lsp explain` from the outside: its text and JSON on a small gold, the note when exact
Shapley is bounded, the refusals; and `m2lsp.explain` the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from tests.conftest import assert_snapshot

SNAPSHOTS = Path(__file__).parent / "snapshots"
@pytest.mark.parametrize("attributor", ["add", "shapley"])
def test_text(files, capsys, attributor: str) -> None:
    assert main(["explain", "system.txt", "gold.m2", "--metric", "m2", "--attributor",
                 attributor, "--sent"]) == 0
    out = capsys.readouterr().out
    assert_snapshot(SNAPSHOTS / f"m2-{attributor}.txt", _unsigned(out))


def _unsigned(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("Explain("))


def test_json_is_the_api(files, capsys) -> None:
    assert main(["explain", "system.txt", "gold.m2", "--metric", "m2", "--attributor",
                 "sub", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    found = m2lsp.explain(Path("system.txt"), Path("gold.m2"), metric="m2",
                          attributor="sub").to_dict()
    assert data == found
    first = data["sentences"][0]
    assert first["change"] == 1.0 and first["source_score"] == 0.0
    assert [e["attribution"] for e in first["edits"]] == [0.5, 0.5]
    second = data["sentences"][1]
    assert {e["correction"]: e["type"] for e in second["edits"]} == {
        "goes": "R:VERB:SVA", "the": "M:DET"}
    assert data["sentences"][2]["edits"] == [] and data["sentences"][2]["method"] is None
    assert data["types"]["R:VERB:SVA"]["edits"] == 2
    assert data["signature"].startswith("Explain(M2|")


def test_exact_shapley_is_bounded_and_said(files, capsys) -> None:
    assert main(["explain", "system.txt", "gold.m2", "--metric", "m2", "--attributor",
                 "shapley", "--max-exact-edits", "1", "--format", "json"]) == 0
    captured = capsys.readouterr()
    methods = [s["method"] for s in json.loads(captured.out)["sentences"]]
    assert methods == ["shapley-sampling", "shapley-sampling", None]
    assert "2 sentence(s) (1, 2) have more than --max-exact-edits 1 edits" in captured.err


def test_max_edits_leaves_sentences_out(files, capsys) -> None:
    assert main(["explain", "system.txt", "gold.m2", "--metric", "m2", "--max-edits", "1",
                 "--format", "json"]) == 0
    sentences = json.loads(capsys.readouterr().out)["sentences"]
    assert sentences[0]["left_out"] == "2 edits, more than --max-edits 1"
    assert sentences[0]["edits"] == []


@pytest.mark.parametrize(("args", "message"), [
    (["system.txt", "--metric", "impara"], "reference-free and needs the sources"),
    (["system.txt", "gold.m2", "--metric", "m2", "--scribendi-threshold", "3"],
     "not available with --metric m2"),
    (["gold.m2", "system.txt", "--metric", "m2"], "m2lsp explain --metric m2 SYSTEM GOLD"),
])
def test_refusals(files, capsys, args: list[str], message: str) -> None:
    assert main(["explain", *args]) == 2
    assert message in capsys.readouterr().err


def test_cged_is_not_a_choice(files, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["explain", "system.txt", "gold.m2", "--metric", "cged"])
    assert exited.value.code == 2


@pytest.mark.parametrize(("options", "message"), [
    ({"attributor": "lime"}, "attributor: one of add, sub, shapley, shapley-sampling"),
    ({"samples": "many"}, "samples"),
    ({"seed": 1.5}, "seed"),
    ({"metric": "cged"}, "does not score each sentence"),
    ({"spacy_model": 3}, "spacy_model"),
])
def test_api_refusals(files, options: dict, message: str) -> None:
    given = {"metric": "m2", **options}
    with pytest.raises(m2lsp.UsageError, match=message):
        m2lsp.explain(Path("system.txt"), Path("gold.m2"), **given)


@pytest.mark.parametrize("metric", ["m2", "errant", "gleu", "green", "cleme"])
def test_every_sentence_metric_is_explained(files, metric: str) -> None:
    """Exact Shapley shares add up to each sentence's change (its efficiency), whatever
    the metric; CLEME is explained at its sentence level."""
    found = m2lsp.explain(Path("system.txt"), Path("gold.m2"), metric=metric,
                          attributor="shapley").to_dict()
    changed = [s for s in found["sentences"] if s["edits"]]
    assert len(changed) == 2
    for sentence in changed:
        total = sum(e["attribution"] for e in sentence["edits"])
        assert total == pytest.approx(sentence["change"], abs=1e-9)
    assert found["signature"].startswith("Explain(")


@pytest.mark.parametrize("metric", ["m2", "errant"])
def test_the_files_are_read_once(files, capsys, monkeypatch, metric: str) -> None:
    """SYSTEM and GOLD are read where the command starts, once; the core takes their
    texts (the gold was read again for the edited sentences' scores)."""
    import m2lsp.files.reading as reading

    real, read = reading.read_bytes, []

    def counted(path, *args, **kwargs):
        read.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(reading, "read_bytes", counted)
    assert main(["explain", "system.txt", "gold.m2", "--metric", metric]) == 0
    assert (read.count("system.txt"), read.count("gold.m2")) == (1, 1)
    assert "system.txt" in capsys.readouterr().out
