"""The human judgments m2lsp meta-evaluates against, read from a folder laid out as the
public releases are (`--data`, the setting `meta-eval-data`, or $M2LSP_META_EVAL_DATA):

    seeda/outputs/subset/SYSTEM.txt       15 systems on the 391 judged CoNLL-2014 sentences
    seeda/scores/human/{EW,TS}_{edit,sent}.txt   system scores, systems in alphabetical order
    seeda/data/judgments_{edit,sent}.xml  sentence-level rankings (src-id: 1-based)
    gjg15/original/official_submissions/SYSTEM   the 12 CoNLL-2014 teams and INPUT
    gjg15/judgments.xml                   sentence-level rankings (src-id: 0-based line)

and GMEG-Data's release (metaeval.gmeg), RevisitCGEC's (metaeval.revisit).

SEEDA: Kobayashi et al. (TACL 2024), tmu-nlp/SEEDA.  GJG15: Grundkiewicz et al. (EMNLP
2015), grammatical/evaluation.  Nothing of either is shipped with m2lsp but the published
system scores of GJG15's Table 3, which its release has only as scripts' output.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input

ENVIRONMENT = "M2LSP_META_EVAL_DATA"

SEEDA_SYSTEMS = ("BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT",
                 "LM-Critic", "PIE", "REF-F", "REF-M", "Riken-Tohoku", "T5", "TemplateGEC",
                 "TransGEC", "UEDIN-MS")
# the system sets SEEDA's scripts choose with --systems: the systems each leaves out
SEEDA_SUBSETS = {"base": ("GPT-3.5", "INPUT", "REF-F"), "+INPUT": ("GPT-3.5", "REF-F"),
                 "+REF-F_GPT-3.5": ("INPUT",), "all": ()}
SEEDA_HUMAN = {"EW_edit": "SEEDA-E, Expected Wins", "EW_sent": "SEEDA-S, Expected Wins",
               "TS_edit": "SEEDA-E, TrueSkill", "TS_sent": "SEEDA-S, TrueSkill"}

# GJG15 Table 3: (b) Expected Wins and (c) TrueSkill, as published (systems in (b)'s order,
# which gec-metrics keeps too: the order decides a metric tie at the sentence level)
GJG15_PUBLISHED = {
    "EW": {"AMU": 0.628, "RAC": 0.566, "CAMB": 0.561, "CUUI": 0.550, "POST": 0.539,
           "UFC": 0.513, "PKU": 0.506, "UMC": 0.495, "IITB": 0.485, "SJTU": 0.463,
           "INPUT": 0.456, "NTHU": 0.437, "IPN": 0.300},
    "TS": {"AMU": 0.273, "CAMB": 0.182, "RAC": 0.114, "CUUI": 0.105, "POST": 0.080,
           "PKU": -0.001, "UMC": -0.022, "UFC": -0.041, "IITB": -0.055, "INPUT": -0.062,
           "SJTU": -0.074, "NTHU": -0.142, "IPN": -0.358},
}
GJG15_SYSTEMS = tuple(GJG15_PUBLISHED["EW"])
GJG15_HUMAN = {"EW": "GJG15 Table 3(b), Expected Wins", "TS": "GJG15 Table 3(c), TrueSkill"}
REVISIT_HUMAN = {"EW": "RevisitCGEC, Expected Wins (EW.pl)",
                 "TS": "RevisitCGEC, TrueSkill (mean mu of TS.py's runs)"}
DATASETS = ("seeda", "gjg15", "revisit-cgec", "gmeg")


@dataclass(frozen=True)
class Dataset:
    """One set of human judgments, its systems (those of the chosen subset, in the
    dataset's order), their outputs, their human system scores and the sentence-level
    rankings."""

    name: str
    folder: Path
    subset: str
    systems: tuple[str, ...]
    human: Mapping[str, tuple[float, ...]]  # name -> a score per system
    human_names: Mapping[str, str]  # name -> what it is
    judgments: Mapping[str, Path]  # sentence-level rankings by name
    ids_are_lines: bool  # a src-id is the 0-based line of the outputs (GJG15); else the
    # outputs hold the judged sentences, in the order of their src-ids (SEEDA)
    outputs: Mapping[str, Input] = field(default_factory=dict)  # prepared outputs
    # (RevisitCGEC's, in memory), by system
    sentence_lines: Mapping[tuple[str, int], int] = field(default_factory=dict)  # a
    # (doc-id, src-id)'s line, where src-ids count per document (RevisitCGEC)
    prepared: Any = None  # metaeval.revisit.Prepared
    judged: Mapping[str, Sequence[Any]] = field(default_factory=dict)  # sentence-level
    # judgments read already (GMEG's ratings), by name
    variant: str = ""  # what else chooses the data (GMEG: domain|split)

    def output(self, system: str) -> Input:
        if self.outputs:
            return self.outputs[system]
        if self.name == "seeda":
            return self.folder / "outputs" / "subset" / f"{system}.txt"
        return self.folder / "original" / "official_submissions" / system

    def lines(self, ids: list[int]) -> dict[int, int]:
        """Each src-id's line in the system outputs."""
        if self.ids_are_lines:
            return {i: i for i in ids}
        return {i: line for line, i in enumerate(sorted(set(ids)))}

    def judged_lines(self, judged: Sequence[Any]) -> list[int]:
        """Each judgment's line in the outputs."""
        if self.sentence_lines:
            try:
                return [self.sentence_lines[(j.doc, j.sentence)] for j in judged]
            except KeyError as exc:
                raise InputError(f"{self.name}: a judgment of {exc.args[0]} (doc-id, src-id), "
                                 "which is no sentence of the outputs") from None
        found = self.lines([j.sentence for j in judged])
        return [found[j.sentence] for j in judged]

    @property
    def signature(self) -> str:
        variant = f"|{self.variant}" if self.variant else ""
        return f"{self.name}{variant}|systems:{self.subset}|n:{len(self.systems)}"


def data_folder(given: Path | str | None, setting: str | None = None) -> Path:
    """The meta-evaluation data folder: `--data`, else the setting, else the environment
    variable (a UsageError says how to give one)."""
    for candidate in (given, setting, os.environ.get(ENVIRONMENT)):
        if candidate:
            folder = Path(candidate).expanduser()
            if not folder.is_dir():
                raise UsageError(f"meta-eval data folder {folder}: no such folder")
            return folder
    raise UsageError("meta-eval needs its data folder (holding seeda/ and gjg15/): give "
                     f"--data DIR, the setting meta-eval-data, or ${ENVIRONMENT}")


def load(name: str, folder: Path, subset: str | None = None, domain: str = "fce",
         split: str = "test") -> Dataset:
    """Dataset `name` from the data folder, with the systems of `subset` (SEEDA: base, the
    default, +INPUT, +REF-F_GPT-3.5 or all; GJG15 and RevisitCGEC: all; GMEG: base or
    +source, and its `domain` and `split`)."""
    if name == "seeda":
        return _seeda(_within(folder, "seeda"), subset or "base")
    if name == "gjg15":
        return _gjg15(_within(folder, "gjg15"), subset or "all")
    if name == "revisit-cgec":
        return _revisit(folder, subset or "all")
    if name == "gmeg":
        from m2lsp.metaeval import gmeg

        return Dataset(**gmeg.parts(folder, subset or "base", domain, split))
    raise UsageError(f"no dataset {name!r}: {', '.join(DATASETS)}")


def _within(folder: Path, name: str) -> Path:
    """The dataset's own folder: `folder/name`, or `folder` itself when it is that."""
    inner = folder / name
    return inner if inner.is_dir() else folder


def _seeda(folder: Path, subset: str) -> Dataset:
    if subset not in SEEDA_SUBSETS:
        raise UsageError(f"SEEDA's system sets are {', '.join(SEEDA_SUBSETS)}, not {subset!r}")
    left_out = SEEDA_SUBSETS[subset]
    kept = [i for i, s in enumerate(SEEDA_SYSTEMS) if s not in left_out]
    human = {}
    for key in SEEDA_HUMAN:
        values = _numbers(folder / "scores" / "human" / f"{key}.txt")
        if len(values) != len(SEEDA_SYSTEMS):
            raise InputError(f"{folder / 'scores' / 'human' / key}.txt: {len(values)} scores "
                             f"for SEEDA's {len(SEEDA_SYSTEMS)} systems")
        human[key] = tuple(values[i] for i in kept)
    judgments = {kind: folder / "data" / f"judgments_{kind}.xml" for kind in ("edit", "sent")}
    return Dataset("seeda", folder, subset, tuple(SEEDA_SYSTEMS[i] for i in kept), human,
                   SEEDA_HUMAN, judgments, ids_are_lines=False)


def _gjg15(folder: Path, subset: str) -> Dataset:
    if subset != "all":
        raise UsageError("GJG15 has one system set: all (its 12 teams and INPUT)")
    human = {key: tuple(table[s] for s in GJG15_SYSTEMS)
             for key, table in GJG15_PUBLISHED.items()}
    return Dataset("gjg15", folder, subset, GJG15_SYSTEMS, human, GJG15_HUMAN,
                   {"rank": folder / "judgments.xml"}, ids_are_lines=True)


def _revisit(folder: Path, subset: str) -> Dataset:
    """RevisitCGEC's six systems on its 200 judged sentences (metaeval.revisit), with the
    Expected Wins of its rankings (the TrueSkill comes with the runs asked: run.py)."""
    from m2lsp.metaeval import revisit
    from m2lsp.metaeval.judgments import expected_wins, read_judgments

    if subset != "all":
        raise UsageError("RevisitCGEC has one system set: all (its six systems)")
    found = revisit.find(folder)
    prepared = revisit.prepare(found)
    judgments = found.root / "judgments.xml"
    wins = expected_wins(read_judgments(judgments))
    human = {"EW": tuple(wins.get(s, 0.0) for s in revisit.SYSTEMS)}
    return Dataset("revisit-cgec", found.root, subset, revisit.SYSTEMS, human,
                   {"EW": REVISIT_HUMAN["EW"]}, {"rank": judgments}, ids_are_lines=False,
                   outputs={s: prepared.output(s) for s in revisit.SYSTEMS},
                   sentence_lines=prepared.lines, prepared=prepared)


def _numbers(path: Path) -> list[float]:
    from m2lsp.parsing.source import read_source

    text = read_source(path, "human scores").text
    try:
        return [float(line) for line in text.split()]
    except ValueError as exc:
        raise InputError(f"{path}: not one number a line ({exc})") from None
