"""A live score on an open gold document: kept current as the gold or the system changes,
and placed in the editor -- marks on the words of each S line (within the diagnostics
budget, nearest the last edit or the last edit visited), a summary above each S line
(CodeLens), the hover, and the report every review surface reads (`m2lsp/scoreReport`).

The scoring is the metric's (`Metric.live`); this module only finds the texts, decides when
they changed, and converts reviews to LSP types.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from m2lsp.diagnostic import Severity
from m2lsp.editor.navigation import block_at
from m2lsp.errors import M2lspError
from m2lsp.files.reading import read_bytes
from m2lsp.lsp import convert
from m2lsp.model import M2Document, Span
from m2lsp.scoring.metric import EditorJob, LiveScoring
from m2lsp.scoring.review import FOUND, MISSED, WRONG, LiveView, Mark, SentenceReview

if TYPE_CHECKING:
    from m2lsp.config import Config
    from m2lsp.linting.incremental import LiveDocument


class OpenDocument(Protocol):
    """What a live score reads of an open document (the server's `OpenDocument`): given
    this, not the server's class, so that this module does not import the server."""

    uri: str
    version: int
    focus: int
    live: LiveDocument
    session: ScoreSession | None

    @property
    def lines(self) -> list[str]: ...


class M2Server(Protocol):
    """What a live score reads of the server: its settings, its open documents (a system
    may be one), the position encoding, and the live view of a document."""

    config: Config

    @property
    def documents(self) -> Mapping[str, OpenDocument]: ...

    @property
    def encoding(self) -> str: ...

    def live_view(self, doc: Any) -> LiveView | None: ...

log = logging.getLogger(__name__)

SCORE_CHANGED = "m2lsp/scoreChanged"
SOURCE = "m2lsp-score"
ORDER = {WRONG: 0, MISSED: 1, FOUND: 2}  # what needs attention first


@dataclass(frozen=True)
class SystemRef:
    """Where the system's sentences are: an open document, or a file (whose open document,
    if the user opens it, wins over the saved text)."""

    uri: str | None = None
    path: Path | None = None

    def matches(self, uri: str) -> bool:
        if uri == self.uri:
            return True
        return self.path is not None and uri.startswith("file:") and \
            Path(to_fs_path(uri) or uri) == self.path

    @property
    def name(self) -> str:
        return str(self.path) if self.path is not None else str(self.uri)


class ScoreSession:
    """The live score of one gold document against one system."""

    def __init__(self, metric: str, live: LiveScoring, system: SystemRef,
                 options: dict[str, Any]) -> None:
        self.metric, self.live, self.system, self.options = metric, live, system, options
        self.view: LiveView | None = None
        self.error: str | None = None
        self._key: tuple | None = None
        self._file: tuple[tuple, str] | None = None  # (stat key, text) of a system file
        self.notified: dict[str, Any] | None = None
        self.shown_on_system: LiveView | None = None  # the view last marked on the system
        self.on_system: dict[int, tuple] = {}  # the same cache for the marks on its words
        # id(mark) -> (mark, its S line, severity, encoding, LSP diagnostic): marks of
        # sentences that did not change are not converted again
        self.converted: dict[int, tuple] = {}

    def reconfigure(self, config: Any) -> None:
        """New settings (beta, max unchanged words): score everything again."""
        from m2lsp.scoring.metric import live_scoring

        live = live_scoring(self.metric, config)
        if live is not None:
            self.live, self._key = live, None

    def system_text(self, ls: M2Server) -> tuple[tuple, str]:
        """(what identifies this text, the text): the open document, else the file."""
        for uri, doc in ls.documents.items():
            if self.system.matches(uri):
                return ("doc", uri, doc.version), doc.live.text
        if self.system.path is None:
            raise M2lspError(f"the system document {self.system.uri} is not open")
        stat = self.system.path.stat()
        key = ("file", stat.st_mtime_ns, stat.st_size)
        if self._file is None or self._file[0] != key:
            self._file = (key, read_bytes(self.system.path, pipes=False).decode("utf-8"))
        return self._file

    def job(self, doc: OpenDocument, system_text: str) -> EditorJob:
        live = doc.live
        return EditorJob(doc.uri, live.text, live.lines, live.format, live.m2, system_text,
                         self.options, None)

    def current(self, ls: M2Server, doc: OpenDocument) -> LiveView | None:
        """The view of the current texts (scoring again what changed), or None with
        `error` saying why they cannot be scored as they are."""
        try:
            key, text = self.system_text(ls)
        except (OSError, UnicodeDecodeError, M2lspError) as exc:
            return self._failed(f"cannot read the system {self.system.name}: {exc}")
        if (doc.version, key) == self._key:
            return self.view
        self._key = (doc.version, key)
        try:
            self.view, self.error = self.live.update(self.job(doc, text)), None
        except M2lspError as exc:
            return self._failed(str(exc))
        except Exception:  # a bug must not take the server down with it
            log.exception("live scoring of %s failed", doc.uri)
            return self._failed("scoring failed (see the server log)")
        return self.view

    def adopt(self, view: LiveView, key: tuple) -> None:
        """A view scored outside `current` (the first score, in steps), for `key`."""
        self.view, self.error, self._key = view, None, key

    def _failed(self, message: str) -> LiveView | None:
        """No view now, and why (`error`)."""
        self.view, self.error, self._key = None, message, None
        return None

    def status(self, doc: OpenDocument) -> dict[str, Any]:
        """What `m2lsp/scoreChanged` says: the corpus score, or why there is none now."""
        data: dict[str, Any] = {"uri": doc.uri, "metric": self.metric,
                                "system": self.system.uri or from_fs_path(str(self.system.path))}
        if self.view is None:
            return data | {"error": self.error or "not scored"}
        v = self.view
        return data | {"precision": v.precision, "recall": v.recall, "f": v.f, "beta": v.beta,
                       "signature": v.signature, "counts": v.counts,
                       "sentences": len(v.reviews), "warnings": list(v.warnings)}


# -- placing reviews in the document ----------------------------------------------------

def mark_span(document: M2Document | None, review: SentenceReview, mark: Mark) -> Span:
    """The words of the S line a mark is about (an insertion: the point between them)."""
    found = block_at(document, review.line) if document is not None else None
    if found is None or found[1].sentence is None:
        return Span.on_line(review.line, 0, 1)
    start, block = found
    sentence = block.sentence
    assert sentence is not None  # tested above
    return sentence.tokens_span(mark.start, mark.end).shifted(start)


def sentence_span(document: M2Document | None, review: SentenceReview) -> Span:
    found = block_at(document, review.line) if document is not None else None
    if found is None or found[1].sentence is None:
        return Span.on_line(review.line, 0, 1)
    return found[1].sentence.span().shifted(found[0])


def diagnostics(ls: M2Server, doc: OpenDocument, view: LiveView, budget: int
                ) -> list[types.Diagnostic]:
    """Marks as diagnostics, at most `budget` of them (0: all): the most severe kinds, then
    those nearest the document's focus; a note on top when some are held back."""
    if view.marks:  # placed as the metric placed them (CGED's truth lines)
        return [convert.diagnostic(d, doc.lines, doc.uri, ls.encoding, source=SOURCE)
                for d in view.marks[:budget or None]]
    marks = ls.config.editor
    levels = {kind: marks.score_mark(kind) for kind in ORDER}
    shown = [(level, abs(r.line - doc.focus), r, m) for r in view.reviews
             for m in r.marks if (level := levels[m.kind]) is not None]
    total = len(shown)
    if budget and total > budget:
        shown.sort(key=lambda x: (x[0], x[1]))
        shown = shown[:budget - 1]
    cache = doc.session.converted if doc.session is not None else {}
    kept: dict[int, tuple] = {}
    out = []
    for level, _, review, mark in shown:
        found = cache.get(id(mark))
        if found is None or found[0] is not mark or found[1:4] != (review.line, level,
                                                                   ls.encoding):
            found = (mark, review.line, level, ls.encoding,
                     _diagnostic(ls, doc, level, review, mark))
        kept[id(mark)] = found
        out.append(found[4])
    cache.clear()
    cache.update(kept)
    if len(out) < total:
        out.insert(0, _held_back_note(total - len(out), total, doc.uri))
    return out


def _diagnostic(ls: M2Server, doc: OpenDocument, level: Severity, review: SentenceReview,
                mark: Mark) -> types.Diagnostic:
    lines, encoding = doc.lines, ls.encoding
    related = None
    if mark.gold_line is not None and 0 <= mark.gold_line < len(lines):
        where = Span.on_line(mark.gold_line, 0, len(lines[mark.gold_line]))
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=doc.uri, range=convert.range_of(where, lines,
                                                                        encoding)),
            message=f"the gold edit (annotator {review.annotator})")]
    return types.Diagnostic(
        range=convert.range_of(mark_span(doc.live.m2, review, mark), lines, encoding),
        message=mark.message, severity=types.DiagnosticSeverity(int(level)), code=mark.kind,
        source=SOURCE, related_information=related)


def hypothesis_diagnostics(ls: M2Server, doc: OpenDocument, gold: OpenDocument,
                           view: LiveView, budget: int) -> list[types.Diagnostic]:
    """The marks on the system's own words: line k of the open system document is sentence
    k; each found or wrong edit on the words the system wrote, each missed one on the words
    standing where it belongs (a point where they are none).  At most `budget` (0: all),
    those nearest the document's focus first."""
    levels = {kind: ls.config.editor.score_mark(kind) for kind in ORDER}
    lines = doc.lines
    shown = [(level, abs(r.index - doc.focus), r, m) for r in view.reviews if r.index < len(lines)
             for m in r.marks if m.hyp_start is not None and (level := levels[m.kind]) is not None]
    if budget and len(shown) > budget:
        shown.sort(key=lambda x: (x[0], x[1]))
        shown = shown[:budget]
    cache = gold.session.on_system if gold.session is not None else {}
    kept: dict[int, tuple] = {}
    out = []
    for level, _, review, mark in shown:
        line = lines[review.index]
        found = cache.get(id(mark))
        if found is None or found[0] is not mark or found[1:5] != (
                line, review.line, level, ls.encoding):
            found = (mark, line, review.line, level, ls.encoding,
                     _on_system(ls, doc, gold, view, review, mark, level))
        kept[id(mark)] = found
        out.append(found[5])
    cache.clear()
    cache.update(kept)
    return out


def _on_system(ls: M2Server, doc: OpenDocument, gold: OpenDocument, view: LiveView,
               review: SentenceReview, mark: Mark, level: Severity) -> types.Diagnostic:
    lines = doc.lines
    span = _hypothesis_span(lines[review.index], review.index, mark, view.hypothesis_tokens)
    related = [types.DiagnosticRelatedInformation(
        location=types.Location(uri=gold.uri, range=convert.range_of(
            sentence_span(gold.live.m2, review), gold.lines, ls.encoding)),
        message=f"the sentence in the gold (annotator {review.annotator})")]
    return types.Diagnostic(
        range=convert.range_of(span, lines, ls.encoding), message=mark.message,
        severity=types.DiagnosticSeverity(int(level)), code=mark.kind, source=SOURCE,
        related_information=related)


def _hypothesis_span(line: str, row: int, mark: Mark, split: str) -> Span:
    """The columns of hypothesis tokens hyp_start..hyp_end on a system line: words split
    at whitespace, or each character but whitespace."""
    if split == "words":
        places = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
    else:
        places = [(i, i + 1) for i, ch in enumerate(line) if not ch.isspace()]
    start, end = mark.hyp_start or 0, mark.hyp_end or 0
    if not places:
        return Span.on_line(row, 0, 0)
    if start >= len(places):
        return Span.on_line(row, places[-1][1], places[-1][1])
    if end <= start:
        return Span.on_line(row, places[start][0], places[start][0])
    return Span.on_line(row, places[start][0], places[min(end, len(places)) - 1][1])


def _held_back_note(hidden: int, total: int, uri: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        message=f"{hidden:,} more of {total:,} score marks are not shown here (those nearest "
        "your last edit are); the M2 Scores view, or the m2lsp/scoreReport request, lists "
        "every one", severity=types.DiagnosticSeverity.Information, source=SOURCE,
        code="max-diagnostics")


def code_lenses(doc: OpenDocument, view: LiveView) -> list[types.CodeLens]:
    """Each scored sentence's summary above its S line."""
    document = doc.live.m2
    out = []
    for review in view.reviews:
        span = sentence_span(document, review)
        at = types.Position(line=span.line, character=0)
        out.append(types.CodeLens(range=types.Range(start=at, end=at), command=types.Command(
            title=review.summary(view.beta), command="")))
    return out


def review_at(view: LiveView, line: int) -> SentenceReview | None:
    """The review of the sentence whose S line is `line`."""
    lines = [r.line for r in view.reviews]
    index = bisect.bisect_left(lines, line)
    if index < len(lines) and lines[index] == line:
        return view.reviews[index]
    return None


# -- the report -------------------------------------------------------------------------

SORTS = ("f", "fp", "fn", "line")


def report(ls: M2Server, doc: OpenDocument, session: ScoreSession, sort: str = "f",
           kind: str | None = None) -> dict[str, Any]:
    """Every sentence with its counts and edits (as `m2lsp/scoreReport` answers): sorted
    worst F first (`f`), most FP (`fp`) or FN (`fn`) first, or in file order (`line`);
    `kind` keeps only sentences with edits of that error type, and only those edits."""
    view = ls.live_view(doc)  # current, and the client told of any change
    data = session.status(doc)
    if view is None:
        return data | {"sentences": []}
    rows = [_row(ls, doc, r, view.beta, kind) for r in view.reviews]
    rows = [row for row in rows if kind is None or row["edits"]]
    rows.sort(key=_ordering(sort))
    return data | {"sort": sort, "type": kind, "types": _types(view),
                   "sentences": rows}


def _ordering(sort: str) -> Callable[[dict[str, Any]], Any]:
    if sort == "fp":
        return lambda row: (-row["fp"], row["f"], row["line"])
    if sort == "fn":
        return lambda row: (-row["fn"], row["f"], row["line"])
    if sort == "line":
        return lambda row: row["line"]
    return lambda row: (row["f"], -(row["fp"] + row["fn"]), row["line"])


def _row(ls: M2Server, doc: OpenDocument, review: SentenceReview, beta: float,
         kind: str | None) -> dict[str, Any]:
    lines, encoding, document = doc.lines, ls.encoding, doc.live.m2
    edits = [{"kind": m.kind, "message": m.message, "type": m.type,
              "goldLine": m.gold_line,
              "range": _json_range(mark_span(document, review, m), lines, encoding)}
             for m in review.marks if kind is None or m.type == kind]
    nothing = not review.proposed and not review.gold
    return {"index": review.index, "line": review.line,
            "range": _json_range(sentence_span(document, review), lines, encoding),
            "summary": review.summary(beta), "source": review.source,
            "hypothesis": review.hypothesis, "annotator": review.annotator,
            "precision": review.precision, "recall": review.recall,
            "f": 1.0 if nothing else review.f, "correct": review.correct,
            "proposed": review.proposed, "gold": review.gold,
            "tp": review.count(FOUND), "fp": review.count(WRONG), "fn": review.count(MISSED),
            "edits": edits}


def _types(view: LiveView) -> dict[str, dict[str, int]]:
    """Found and missed gold edits per error type."""
    out: dict[str, dict[str, int]] = {}
    for review in view.reviews:
        for mark in review.marks:
            if mark.type:
                counts = out.setdefault(mark.type, {FOUND: 0, MISSED: 0})
                counts[mark.kind] += 1
    return dict(sorted(out.items()))


def _json_range(span: Span, lines: list[str], encoding: str) -> dict[str, Any]:
    r = convert.range_of(span, lines, encoding)
    return {"start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character}}


def next_mark(doc: OpenDocument, view: LiveView, at: tuple[int, int], kinds: set[str],
              backwards: bool = False) -> tuple[Span, SentenceReview, Mark] | None:
    """The first mark of `kinds` after (before) position `at` (line, column), wrapping
    around the end (the start) of the document."""
    document = doc.live.m2
    found = sorted(((mark_span(document, r, m), r, m) for r in view.reviews for m in r.marks
                    if m.kind in kinds), key=lambda x: (x[0].line, x[0].col))
    if not found:
        return None
    if backwards:
        earlier = [x for x in found if (x[0].line, x[0].col) < at]
        return earlier[-1] if earlier else found[-1]
    later = [x for x in found if (x[0].line, x[0].col) > at]
    return later[0] if later else found[0]
