"""`m2lsp merge`, `m2lsp split` and `m2lsp agree --disagreements` on real data: CoNLL-2014's
two-annotator gold split and merged back byte for byte; its per-annotator files merged;
JFLEG references annotated one file each and merged, equal to `annotate --cor A B`; every
refusal names what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.authoring.disagreements import key
from m2lsp.cli import main
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from tests.annotation.conftest import m2lsp, spacy_model
from tests.conftest import shared

COMBINED = "conll2014/gold/official-2014.combined.m2"


def test_split_then_merge_gives_the_gold_back(tmp_path: Path, capsys) -> None:
    gold = shared(COMBINED)
    assert main(["split", str(gold), "-o", str(tmp_path / "parts")]) == 0
    parts = sorted((tmp_path / "parts").iterdir())
    assert [p.name for p in parts] == ["official-2014.combined.0.m2",
                                       "official-2014.combined.1.m2"]
    one = parse_m2(SourceText(parts[1].read_text("utf-8")))
    assert {e.annotator for b in one.blocks for e in b.edits} == {"0"}  # renumbered
    assert main(["merge", *map(str, parts), "-o", str(tmp_path / "merged.m2")]) == 0
    assert (tmp_path / "merged.m2").read_bytes() == gold.read_bytes()
    capsys.readouterr()


def test_the_per_annotator_files_merge_to_the_annotators_of_the_combined(tmp_path, capsys):
    """official-2014.0.m2 and .1.m2 are each one annotator's (id 0 in both): merged, each
    sentence is the combined file's, annotator k's edits those of the k-th file."""
    files = [shared(f"conll2014/gold/official-2014.{k}.m2") for k in (0, 1)]
    assert main(["merge", *map(str, files)]) == 0
    merged = parse_m2(SourceText(capsys.readouterr().out))
    combined = parse_m2(SourceText(shared(COMBINED).read_text("utf-8")))
    assert [b.lines[0] for b in merged.blocks] == [b.lines[0] for b in combined.blocks]
    for k, path in enumerate(files):
        alone = parse_m2(SourceText(path.read_text("utf-8")))
        for ours, theirs in zip(merged.blocks, alone.blocks, strict=True):
            assert [key(e) for e in ours.by_annotator.get(str(k), [])] == \
                [key(e) for e in theirs.edits]


@pytest.mark.slow
def test_annotated_files_merge_to_what_annotate_writes_for_both(tmp_path: Path) -> None:
    model = spacy_model()
    jfleg = shared("jfleg/dev")
    files = {}
    for name in ("src", "ref0", "ref1"):
        files[name] = tmp_path / name
        lines = (jfleg / f"dev.{name}").read_text("utf-8").splitlines()[:40]
        files[name].write_text("".join(f"{line}\n" for line in lines), "utf-8")
    common = ["--spacy-model", model, "--jobs", "1", "--orig", str(files["src"])]
    outs = []
    for refs in (["ref0"], ["ref1"], ["ref0", "ref1"]):
        done = m2lsp("annotate", *common, "--cor", *(str(files[r]) for r in refs))
        assert done.returncode == 0, done.stderr
        outs.append(tmp_path / f"{'-'.join(refs)}.m2")
        outs[-1].write_text(done.stdout, "utf-8")
    done = m2lsp("merge", str(outs[0]), str(outs[1]))
    assert done.returncode == 0, done.stderr
    assert done.stdout == outs[2].read_text("utf-8")


def test_files_of_other_sentences_are_refused_naming_the_first(tmp_path, capsys) -> None:
    text = shared("conll2014/gold/official-2014.0.m2").read_text("utf-8")
    other = tmp_path / "other.m2"
    blocks = text.split("\n\n")
    blocks[6] = blocks[6].replace("S ", "S Surely ", 1)
    other.write_text("\n\n".join(blocks), "utf-8")
    assert main(["merge", str(shared("conll2014/gold/official-2014.0.m2")), str(other)]) == 2
    err = capsys.readouterr().err
    assert "sentence 7 differs" in err and f"{other}:" in err
    assert main(["merge", "--keep-ids", str(shared("conll2014/gold/official-2014.0.m2")),
                 str(shared("conll2014/gold/official-2014.1.m2"))]) == 2
    assert "annotator 0 is in" in capsys.readouterr().err


def test_disagreements_on_the_conll_gold(capsys) -> None:
    gold = shared(COMBINED)
    assert main(["agree", "--disagreements", str(gold), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    document = parse_m2(SourceText(gold.read_text("utf-8")))
    expected = []
    for number, (start, block) in enumerate(zip(document.starts, document.blocks,
                                                strict=True), 1):
        sets = [{key(e) for e in block.by_annotator.get(a, []) if not e.is_noop}
                for a in ("0", "1")]
        if sets[0] != sets[1]:
            expected.append((number, start + 1, sorted(sets[0] - sets[1]),
                             sorted(sets[1] - sets[0])))
    found = [(d["sentence"], d["line"],
              sorted((e["start"], e["end"], e["type"], tuple(e["corrections"]))
                     for e in d["only"]["0"]),
              sorted((e["start"], e["end"], e["type"], tuple(e["corrections"]))
                     for e in d["only"]["1"])) for d in data["disagreements"]]
    assert found == expected and len(found) == 1169 and data["sentences"] == 1312
    assert main(["agree", "--disagreements", str(gold)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1] == "1169 of 1312 sentences disagree (annotators 0, 1)"
    assert text[0].startswith(f"{gold}:5: sentence 3: Genetic risk refers")
