"""MultiGEC-2025's results table: every hypothesis file of a folder scored as the shared
task's evaluation scored it (GLEU: the gleu package's `-d 4 -f -n 4 -t word` on
syntok-tokenised essays; ERRANT: its fork's errant_parallel over a UD parse of the
references and the hypothesis, then errant_compare), one row per file: language, corpus,
track, GLEU, P, R, F0.5 (in percent, to two decimals, as its results pages print them).

Files are found by the shared task's naming, `LANG-CORPUS-ROLE-SPLIT.md`: the hypotheses
are the files whose role is neither `orig` nor `refN` (`hyp`, `hypo1`, a team's name); each
one's original and references are the `LANG-CORPUS-orig-SPLIT.md` and
`LANG-CORPUS-refN-SPLIT.md` of the gold folder (by default the hypothesis's own).  The
track is `fluency` where the file's path says so (its name, or a folder so named), else
`minimal`, as the evaluation script decided it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, M2lspError, UsageError

METRICS = ("gleu", "errant")
TRACKS = ("minimal", "fluency")
COLUMNS = ("language", "corpus", "track", "GLEU", "precision", "recall", "F0.5")
MAX_FILES = 10_000  # hypothesis files in one folder (every one is scored in turn)
_NAME = re.compile(r"^(?P<lang>[a-z]{2,3})-(?P<corpus>.+?)-(?P<role>[^-]+)(?:-.+)?-"
                   r"(?P<split>train|dev|test)\.md$", re.IGNORECASE)
_REFERENCE = re.compile(r"ref(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class Submission:
    """One hypothesis file and the gold it is scored against."""

    path: Path
    lang: str
    corpus: str
    track: str
    split: str
    orig: Path
    refs: tuple[Path, ...]


@dataclass(frozen=True)
class Row:
    """A hypothesis file's line of the table (None: that metric was not asked for, or could
    not be run, and `notes` says why)."""

    path: Path
    lang: str
    corpus: str
    track: str
    split: str
    gleu: float | None = None
    precision: float | None = None
    recall: float | None = None
    f05: float | None = None
    notes: tuple[str, ...] = ()

    def values(self) -> dict[str, Any]:
        return {"language": self.lang, "corpus": self.corpus, "track": self.track,
                "GLEU": self.gleu, "precision": self.precision, "recall": self.recall,
                "F0.5": self.f05}


@dataclass(frozen=True)
class Settings:
    """What the table is scored with: the metrics (METRICS), a spaCy pipeline per
    language (else the configuration's `spacy-models`, or CoNLL-U is not possible here),
    the files' encoding and the processes ERRANT's annotation may use."""

    metrics: tuple[str, ...] = METRICS
    spacy_models: dict[str, str] = field(default_factory=dict)
    encoding: str | None = None
    jobs: int | None = None
    warn: Callable[[str], None] | None = None


def chosen(metric: str | None) -> tuple[str, ...]:
    """The metrics of a table: both, as the shared task scored, or the one named."""
    if metric is None:
        return METRICS
    if metric not in METRICS:
        raise UsageError(f"a folder of MultiGEC hypotheses is scored with gleu and errant, as "
                         f"the shared task did, not --metric {metric}")
    return (metric,)


def is_folder_table(path: Path) -> bool:
    """Whether `path` is a folder holding at least one MultiGEC hypothesis file."""
    return path.is_dir() and any(_hypothesis_name(p.name) for p in _md_files(path))


def submissions(hypotheses: Path, gold: Path | None = None) -> list[Submission]:
    """The hypothesis files under `hypotheses` (its subfolders too), each with its gold
    (from `gold`, else the folder it is in), in the table's order (language, corpus,
    track, file)."""
    if gold is not None and not gold.is_dir():
        raise UsageError(f"{gold}: not a folder (the gold of a folder of MultiGEC hypotheses "
                         "is the folder of its LANG-CORPUS-orig-SPLIT.md and refN files)")
    found = [_submission(p, hypotheses, gold) for p in _md_files(hypotheses)
             if _hypothesis_name(p.name)]
    if not found:
        raise UsageError(f"{hypotheses}: no MultiGEC hypothesis file (named "
                         "LANG-CORPUS-hyp-SPLIT.md, as the shared task named them)")
    if len(found) > MAX_FILES:
        raise UsageError(f"{hypotheses}: {len(found)} hypothesis files, more than the "
                         f"{MAX_FILES} one table scores")
    return sorted(found, key=lambda s: (s.lang, s.corpus, TRACKS.index(s.track),
                                        str(s.path)))


def _md_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.md") if p.is_file())


def _hypothesis_name(name: str) -> bool:
    match = _NAME.match(name)
    return match is not None and _role(match) == "hyp"


def _role(match: re.Match[str]) -> str:
    role = match.group("role").lower()
    return "orig" if role == "orig" else "ref" if _REFERENCE.fullmatch(role) else "hyp"


def _submission(path: Path, root: Path, gold: Path | None) -> Submission:
    match = _NAME.match(path.name)
    assert match is not None
    lang, corpus, split = (match.group(k) for k in ("lang", "corpus", "split"))
    folder = gold if gold is not None else path.parent
    stem = f"{lang}-{corpus}".lower()
    orig = _gold_file(folder, f"{stem}-orig-{split.lower()}.md")
    if orig is None:
        raise InputError(f"{path}: its original {stem}-orig-{split.lower()}.md is not in "
                         f"{folder}")
    relative = path.relative_to(root).parts if path.is_relative_to(root) else (path.name,)
    track = "fluency" if any("fluency" in p.lower() for p in relative) else "minimal"
    return Submission(path, lang.lower(), corpus.lower(), track, split.lower(), orig,
                      _references(folder, stem, split.lower()))


def _gold_file(folder: Path, name: str) -> Path | None:
    """`name` in `folder`, matched without regard to case (the shared task lowercased)."""
    exact = folder / name
    if exact.is_file():
        return exact
    return next((p for p in sorted(folder.glob("*.md")) if p.name.lower() == name), None)


def _references(folder: Path, stem: str, split: str) -> tuple[Path, ...]:
    found = []
    for path in sorted(folder.glob("*.md")):
        match = _NAME.match(path.name)
        number = _REFERENCE.fullmatch(match.group("role")) if match is not None else None
        if (match is not None and number is not None
                and f"{match.group('lang')}-{match.group('corpus')}".lower() == stem
                and match.group("split").lower() == split):
            found.append((int(number.group(1)), path))
    if not found:
        raise InputError(f"{folder}: no reference {stem}-ref1-{split}.md")
    return tuple(path for _, path in sorted(found))


def table(hypotheses: Path, gold: Path | None, settings: Settings,
          progress: Callable[[str], None] | None = None) -> list[Row]:
    """Every hypothesis file of the folder scored (see `scored`)."""
    rows = []
    for submission in submissions(hypotheses, gold):
        if progress is not None:
            progress(f"scoring {submission.path.name}")
        rows.append(scored(submission, settings))
    return rows


def scored(submission: Submission, settings: Settings) -> Row:
    """One file's row: each metric asked for, as the shared task ran it; a metric that
    cannot run for this language (ERRANT without a parse) leaves its cells empty and says
    why in the row's notes (any other problem is an error)."""
    notes: list[str] = []
    warn = _collecting(notes, settings.warn)
    numbers: dict[str, float | None] = {}
    if "gleu" in settings.metrics:
        numbers["gleu"] = _gleu(submission, settings, warn)
    if "errant" in settings.metrics:
        try:
            numbers.update(_errant(submission, settings, warn))
        except UsageError as exc:
            if not _no_parse(exc):
                raise
            notes.append(f"ERRANT not scored: {exc}")
    return Row(submission.path, submission.lang, submission.corpus, submission.track,
               submission.split, numbers.get("gleu"), numbers.get("precision"),
               numbers.get("recall"), numbers.get("f05"), tuple(dict.fromkeys(notes)))


def _collecting(notes: list[str], warn: Callable[[str], None] | None
                ) -> Callable[[str], None]:
    def note(message: str) -> None:
        notes.append(message)
        if warn is not None:
            warn(message)
    return note


def _no_parse(exc: M2lspError) -> bool:
    """Whether ERRANT stopped for want of a parse of the language (no pipeline named or
    installed), which leaves a row's ERRANT cells empty rather than stopping the table."""
    text = str(exc)
    return "spacy-model" in text or "CoNLL-U" in text or "pipeline" in text


def _request(name: str, submission: Submission, values: dict[str, Any], settings: Settings,
             warn: Callable[[str], None]) -> tuple[Any, Any]:
    from m2lsp.config import config_for
    from m2lsp.scoring.metric import Request, Shared, metric

    chosen = metric(name)
    values = {"source": submission.orig, "gleu_references": [str(p) for p in submission.refs],
              "jobs": settings.jobs, **values}
    config = config_for([submission.path]).score
    shared = Shared.settled(values, config)
    request = Request(submission.path, None, shared, chosen.options(values, shared, config),
                      settings.encoding, warn, None,
                      f"m2lsp score --metric {name} HYP.md --source ORIG.md --ref REF1.md")
    return chosen, request


def _gleu(submission: Submission, settings: Settings, warn: Callable[[str], None]
          ) -> float:
    """The gleu package's GLEU as the shared task printed it (`-d 4`: already x 100)."""
    chosen, request = _request("gleu", submission, {"gleu_fixed_seed": True,
                                                    "gleu_digits": 4}, settings, warn)
    printed = chosen.run(request).text(request)
    return round(float(str(printed).split()[-1]), 2)


def _errant(submission: Submission, settings: Settings, warn: Callable[[str], None]
            ) -> dict[str, float]:
    """errant_compare's P, R and F0.5 as it printed them (4 digits), x 100."""
    model = settings.spacy_models.get(submission.lang)
    chosen, request = _request("errant", submission, {"errant_lang": submission.lang,
                                                      "spacy_model": model}, settings, warn)
    printed = str(chosen.run(request).text(request)).split("\n")[3].split()
    return {"precision": _percent(printed[3]), "recall": _percent(printed[4]),
            "f05": _percent(printed[5])}


def _percent(printed: str) -> float:
    """A printed fraction x 100, to the two decimals its digits give (0.6989: 69.89)."""
    return round(float(printed) * 100, 2)


def shown(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def text_table(rows: Sequence[Row], metrics: Sequence[str] = METRICS) -> str:
    """The table as aligned text, a header line and a line per file."""
    header = _header(metrics)
    lines = [header] + [_cells(row, metrics) for row in rows]
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    return "".join("  ".join(cell.ljust(w) if k < 3 else cell.rjust(w)
                             for k, (cell, w) in enumerate(zip(line, widths, strict=True))
                             ).rstrip() + "\n" for line in lines)


def _header(metrics: Sequence[str]) -> list[str]:
    return [c for c in COLUMNS if _kept(c, metrics)]


def _kept(column: str, metrics: Sequence[str]) -> bool:
    if column == "GLEU":
        return "gleu" in metrics
    if column in ("precision", "recall", "F0.5"):
        return "errant" in metrics
    return True


def _cells(row: Row, metrics: Sequence[str]) -> list[str]:
    return [v if isinstance(v, str) else shown(v) for k, v in row.values().items()
            if _kept(k, metrics)]


def csv_table(rows: Sequence[Row], metrics: Sequence[str] = METRICS,
              system: str | None = None) -> str:
    """The table as CSV (the evaluation script's scores.csv columns; empty: not scored)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(([] if system is None else ["system"]) + _header(metrics) + ["file"])
    for row in rows:
        cells = ["" if c == "n/a" else c for c in _cells(row, metrics)]
        writer.writerow(([] if system is None else [system]) + cells + [str(row.path)])
    return out.getvalue()


def json_rows(rows: Sequence[Row], metrics: Sequence[str] = METRICS) -> list[dict[str, Any]]:
    """The rows as JSON objects (null: not scored; `notes`: why, and what was noticed)."""
    return [{**{k: v for k, v in row.values().items() if _kept(k, metrics)},
             "split": row.split, "file": str(row.path), "notes": list(row.notes)}
            for row in rows]
