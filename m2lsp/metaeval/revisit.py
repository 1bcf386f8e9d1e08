"""RevisitCGEC (Wang et al., "Revisiting the evaluation for Chinese grammatical error
correction"): human rankings of six CGEC systems' corrections of 100 MuCGEC and 100 YACLC
dev sentences.  Its release (wang136906578/RevisitCGEC) has the rankings
(`judgments.xml`, Appraise XML, doc-id mucgec or yaclc, src-id the sentence's 0-based line
of the dev file), the ids of the judged sentences (`sentence ids/{mucgec,yaclc}_ids.txt`:
MuCGEC's are its 1-based ids, YACLC's its 0-based ones) and each system's corrections in
the ids' order (`system corrections/SYSTEM.{mucgec,yaclc}.txt`); the sources and the
references come from MuCGEC's `MuCGEC_dev.txt` (HillZhang1999/MuCGEC) and YACLC's
`yaclc-minimal_dev.para` (blcuicall/CCL2022-CLTC, track 3), both ChERRANT's parallel format
(id, source, references, tab separated).

Here the 200 judged sentences become one corpus, MuCGEC's 100 then YACLC's 100, each in its
ids file's order: every system's output, the sources and the references (ChERRANT's
parallel lines), in memory; and, when a metric needs it, their char-level M2 gold, which
takes minutes to annotate: kept in m2lsp's cache where there is one (in a folder named by
the inputs' digest), else made in memory for the run."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input, Text

SYSTEMS = ("bart", "char", "s2e", "spm", "t5", "word")
DOCS = ("mucgec", "yaclc")
FILES = {"mucgec": "MuCGEC_dev.txt", "yaclc": "yaclc-minimal_dev.para"}
WHERE = ("the folder of wang136906578/RevisitCGEC (judgments.xml, sentence ids/, system "
         "corrections/), with MuCGEC_dev.txt (HillZhang1999/MuCGEC, data/MuCGEC/) and "
         "yaclc-minimal_dev.para (blcuicall/CCL2022-CLTC, datasets/track3/dev/) anywhere "
         "under it or beside it")


@dataclass(frozen=True)
class Found:
    root: Path  # RevisitCGEC's own files
    dev: Mapping[str, Path]  # doc -> its dev file
    cherrant_data: Path | None  # ChERRANT's data/ (cilin.txt ...), where one is there


@dataclass(frozen=True)
class Prepared:
    """The corpus of the judged sentences, in memory."""

    outputs: Mapping[str, Text]  # system -> its corrections, one a line
    spaced: Mapping[str, Text]  # system -> the same with their characters spaced
    sources: Text
    references: Text  # ChERRANT's parallel lines: id, source, references
    lines: Mapping[tuple[str, int], int]  # (doc-id, src-id) -> line of the corpus
    cherrant_data: Path | None
    digest: str  # of the inputs: names the gold kept in the cache

    def output(self, system: str) -> Text:
        return self.outputs[system]


def find(folder: Path) -> Found:
    """The release's files under `folder` (its own subfolder revisit-cgec/ or RevisitCGEC/
    first), and the two dev files anywhere under it or its parent."""
    root = next((c for c in (folder / "revisit-cgec", folder / "RevisitCGEC", folder)
                 if (c / "judgments.xml").is_file() and (c / "system corrections").is_dir()),
                None)
    if root is None:
        raise UsageError(f"{folder}: no RevisitCGEC release here; --data is {WHERE}")
    dev = {}
    for doc, name in FILES.items():
        path = _search(root, name) or _search(folder, name) or _search(folder.parent, name)
        if path is None:
            raise UsageError(f"{folder}: no {name}; --data is {WHERE}")
        dev[doc] = path
    cilin = _search(folder, "cilin.txt") or _search(folder.parent, "cilin.txt")
    return Found(root, dev, cilin.parent if cilin is not None else None)


def _search(folder: Path, name: str, depth: int = 4) -> Path | None:
    """The first file called `name` at most `depth` folders down (sorted walk)."""
    if not folder.is_dir():
        return None
    for current, subfolders, files in os.walk(folder):
        if name in files:
            return Path(current) / name
        level = len(Path(current).relative_to(folder).parts)
        subfolders[:] = sorted(s for s in subfolders if level < depth
                               and not s.startswith("."))
    return None


def prepare(found: Found) -> Prepared:
    """The corpus of the judged sentences, in memory."""
    texts = {doc: _lines(path) for doc, path in found.dev.items()}
    ids = {doc: _numbers(found.root / "sentence ids" / f"{doc}_ids.txt") for doc in DOCS}
    outputs = {(s, doc): _text(found.root / "system corrections" / f"{s}.{doc}.txt")
               .splitlines() for s in SYSTEMS for doc in DOCS}
    rows: list[list[str]] = []
    lines: dict[tuple[str, int], int] = {}
    for doc in DOCS:
        by_id = {row[0]: row for row in texts[doc]}
        for k, number in enumerate(ids[doc]):
            key = str(number)
            if key not in by_id:
                raise InputError(f"{found.dev[doc]}: no sentence {key} (RevisitCGEC's "
                                 f"{doc}_ids.txt line {k + 1})")
            src_id = number - 1 if doc == "mucgec" else number
            lines[(doc, src_id)] = len(rows)
            rows.append(by_id[key])
    for (system, doc), got in outputs.items():
        if len(got) != len(ids[doc]):
            raise InputError(f"RevisitCGEC's {system}.{doc}.txt has {len(got)} lines for "
                             f"{len(ids[doc])} sentences")
    corpus = {s: [line for doc in DOCS for line in outputs[(s, doc)]] for s in SYSTEMS}
    return Prepared(
        {s: Text.of_lines(f"RevisitCGEC's {s}", text) for s, text in corpus.items()},
        {s: Text.of_lines(f"RevisitCGEC's {s} (its characters spaced)",
                          [" ".join(t.replace(" ", "")) for t in text])
         for s, text in corpus.items()},
        Text.of_lines("RevisitCGEC's sources", [r[1] for r in rows]),
        Text.of_lines("RevisitCGEC's references",
                      ["\t".join([str(k), *r[1:]]) for k, r in enumerate(rows)]),
        lines, found.cherrant_data, _digest(rows, outputs))


def _digest(rows: list[list[str]], outputs: Mapping[tuple[str, str], list]) -> str:
    digest = hashlib.sha256()
    for row in rows:
        digest.update("\t".join(row).encode("utf-8") + b"\n")
    for key in sorted(outputs):
        for line in outputs[key]:
            digest.update(line.encode("utf-8") + b"\n")
    return digest.hexdigest()[:16]


def _text(path: Path) -> str:
    from m2lsp.parsing.source import read_source

    return read_source(path, "RevisitCGEC data").text


def _lines(path: Path) -> list[list[str]]:
    """A tab-separated file's rows (blank lines skipped)."""
    return [line.split("\t") for line in _text(path).splitlines() if line.strip()]


def _numbers(path: Path) -> list[int]:
    try:
        return [int(row[0]) for row in _lines(path)]
    except (ValueError, IndexError):
        raise InputError(f"{path}: not one sentence id a line") from None


CHAR_TOKENS = frozenset({"m2", "cgec"})  # metrics that read tokens between spaces: given
# the outputs with their characters spaced, as the gold's S lines are
# metrics that read each reference as a whole sentence: from an M2 gold they apply each
# annotator's edits, and ChERRANT's char-level gold of these references has annotators
# whose edits overlap (their sentence cannot be rebuilt); nor do their plain references fit
# --ref files, one reference a file (1 to 14 references a sentence here)
WHOLE_REFERENCES = frozenset({"gleu", "green", "bertscore", "gotoscorer", "pt-errant",
                              "pt-m2"})


def output_for(prepared: Prepared, system: str, metric: str) -> Text:
    if metric in CHAR_TOKENS:
        return prepared.spaced[system]
    return prepared.output(system)


def gold(prepared: Prepared, config: object, jobs: int = 1) -> Input:
    """The references' char-level M2 gold (ChERRANT's parallel_to_m2 -g char, as m2lsp
    annotates it): made once and kept in the cache where there is one, else made for this
    run, in memory."""
    from m2lsp.annotation.parallel import annotate, read_cherrant, settings_for
    from m2lsp.files.writing import write_atomic

    cache = cache_folder()
    path = None if cache is None else cache / f"revisit-cgec-{prepared.digest}" / "gold.char.m2"
    if path is not None and path.is_file():
        return path
    settings = settings_for("zh", config, cherrant_data=prepared.cherrant_data)
    made = "".join(annotate(read_cherrant(prepared.references), settings, jobs))
    if path is None:
        return Text.of("RevisitCGEC's char-level gold (annotated from its references)", made)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, made)
    return path


def cache_folder() -> Path | None:
    """Where meta-evaluation keeps what takes long to make (an annotated gold): m2lsp's
    cache, or None where there is none (it is then made again each run)."""
    from m2lsp.parsing.grammar import cache_dir

    base = cache_dir()
    return None if base is None else base / "meta-eval"
