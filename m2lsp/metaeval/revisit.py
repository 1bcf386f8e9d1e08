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
ids file's order: every system's output, the sources, the references (a ChERRANT parallel
file) and, when a metric needs it, their char-level M2 gold; written once into a folder of
the cache named by the inputs' digest."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from m2lsp.errors import InputError, UsageError

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
    folder: Path
    lines: Mapping[tuple[str, int], int]  # (doc-id, src-id) -> line of the corpus
    cherrant_data: Path | None

    def output(self, system: str) -> Path:
        return self.folder / f"{system}.txt"

    @property
    def sources(self) -> Path:
        return self.folder / "sources.txt"

    @property
    def references(self) -> Path:
        return self.folder / "references.para"


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


def prepare(found: Found, cache: Path) -> Prepared:
    """The corpus files (once per distinct input, in `cache`)."""
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
    folder = cache / ("revisit-cgec-" + _digest(rows, outputs))
    if not (folder / "done").is_file():
        _write(folder, rows, outputs)
    return Prepared(folder, lines, found.cherrant_data)


def _write(folder: Path, rows: list[list[str]],
           outputs: Mapping[tuple[str, str], list[str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for system in SYSTEMS:
        text = [line for doc in DOCS for line in outputs[(system, doc)]]
        (folder / f"{system}.txt").write_text("".join(f"{t}\n" for t in text),
                                             encoding="utf-8")
        (folder / f"{system}.chars.txt").write_text(
            "".join(" ".join(t.replace(" ", "")) + "\n" for t in text), encoding="utf-8")
    (folder / "sources.txt").write_text("".join(f"{r[1]}\n" for r in rows), encoding="utf-8")
    (folder / "references.para").write_text(
        "".join("\t".join([str(k), *r[1:]]) + "\n" for k, r in enumerate(rows)),
        encoding="utf-8")
    (folder / "done").write_text("")


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


def output_for(prepared: Prepared, system: str, metric: str) -> Path:
    if metric in CHAR_TOKENS:
        return prepared.folder / f"{system}.chars.txt"
    return prepared.output(system)


def gold(prepared: Prepared, config: object, jobs: int = 1) -> Path:
    """The references' char-level M2 gold (ChERRANT's parallel_to_m2 -g char, as m2lsp
    annotates it), made once."""
    from m2lsp.annotation.parallel import annotate, read_cherrant, settings_for
    from m2lsp.files.writing import write_atomic

    path = prepared.folder / "gold.char.m2"
    if not path.is_file():
        settings = settings_for("zh", config, cherrant_data=prepared.cherrant_data)
        blocks = annotate(read_cherrant(prepared.references), settings, jobs)
        write_atomic(path, "".join(blocks))
    return path


def cache_folder() -> Path:
    import tempfile

    from m2lsp.parsing.grammar import cache_dir

    base = cache_dir()
    return (base / "meta-eval") if base is not None else Path(tempfile.mkdtemp(
        prefix="m2lsp-revisit-"))
