"""BEA-2019 JSON essays to M2 as the release's `json_to_m2.py -gold` makes it (and M2 back
to JSON essays).

To M2, each essay, for each annotator in the order written:
1. the punctuation is normalised (curly quotes, dashes, full-width marks: `NORMALISED`);
2. the text is cut into paragraphs at line breaks; an edit is kept by the paragraph that
   holds it whole (one across a line break is dropped, and said); a detection edit (null
   correction) with a correction inside it is dropped;
3. each paragraph's whitespace becomes single spaces, the edits' offsets following, and a
   span's own leading or trailing space is left out of it;
4. the paragraph is tokenised and parsed; a span inside a token grows to the token's edges
   (its correction taking the characters it grew by), and one that then overlaps the edit
   before it is dropped; corrections are tokenised (a detection edit's: the tokens it
   covers);
5. the paragraph is cut into sentences where the parser's sentence ends with punctuation
   (or the paragraph ends); an edit across two sentences is dropped, and said; an insertion
   at a sentence's end stays there when its correction ends with punctuation;
6. each annotator's corrected sentence is built from its edits, and each edit is imported
   into ERRANT (`Annotator.import_edit`): minimised (a detection edit is not), its type
   classified; an edit minimised to nothing is dropped; an annotator with no edit gets a
   noop line.

Steps 1-5 need only tokens and sentence ends (`Parsed`): they are pure, and tested on
their own; step 6 is errant's own code.  Their order and their rules are the script's,
which m2lsp reproduces rather than improves: a test runs the script beside it."""

from __future__ import annotations

import bisect
import re
import string
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from m2lsp.formats.bea_json.model import BeaDocument, Essay

NORMALISED = str.maketrans({
    "’": "'", "´": "'", "‘": "'", "′": "'", "`": "'", "“": '"', "”": '"', "˝": '"', "¨": '"',
    "„": '"', "『": '"', "』": '"', "–": "-", "—": "-", "―": "-", "¬": "-", "、": ",",
    "，": ",", "：": ":", "；": ";", "？": "?", "！": "!", "\u0650": " ", "\u200b": " "})
DETECTION = "D"  # the kind of an edit with a null correction
CORRECTION = "C"  # the kind of a correction without an error type
_PARAGRAPH = re.compile(r"[^\n]+")
_WHITESPACE = re.compile(r"\s")
_SPACES = re.compile(r"  +")


@dataclass(eq=True)
class WorkEdit:
    """An edit on its way from characters to tokens (the script's mutable edit lists:
    equal when their fields are, which decides which one an overlap drops)."""

    start: int
    end: int
    kind: str  # DETECTION, CORRECTION, or the essay's error type
    text: str | None  # the correction (None: detection, until step 4)
    c_start: int = -1
    c_end: int = -1


@dataclass(frozen=True)
class Parsed:
    """What steps 4 and 5 read of a paragraph's parse: its tokens, where each starts, and
    the token index after each of the parser's sentences."""

    tokens: tuple[str, ...]
    starts: tuple[int, ...]
    sentence_ends: tuple[int, ...]


@dataclass
class Sentence:
    """A sentence of an annotator: source tokens, corrected tokens, the token edits."""

    orig: list[str]
    cor: list[str]
    edits: list[WorkEdit] = field(default_factory=list)


@dataclass
class Dropped:
    """Edits the script drops: across a line break, across a sentence end."""

    essay: str
    reason: str


# -- steps 2 and 3: paragraphs --------------------------------------------------------------

def paragraphs(text: str, edits: Sequence[tuple[int, int, str | None, str | None]],
               dropped: list[Dropped], essay: str) -> list[tuple[str, list[WorkEdit]]]:
    """Step 2: each paragraph (a run of characters between line breaks) with the edits it
    holds whole, offsets from its start, corrections normalised."""
    out = []
    kept: set[int] = set()
    for match in _PARAGRAPH.finditer(text):
        low, high = match.start(), match.end()
        inside = [i for i, (start, end, _, _) in enumerate(edits) if start >= low and end <= high]
        kept.update(inside)
        out.append((match.group(0), _without_nested_detections(
            [_work(edits[i][0] - low, edits[i][1] - low, edits[i][2], edits[i][3])
             for i in inside])))
    for i, (start, end, _, _) in enumerate(edits):
        if i not in kept:
            dropped.append(Dropped(essay, f"edit {start}-{end} is in no paragraph (it crosses "
                                   "a line break, or lies between two)"))
    return out


def _work(start: int, end: int, correction: str | None, kind: str | None) -> WorkEdit:
    if correction is None:
        return WorkEdit(start, end, DETECTION, None)
    return WorkEdit(start, end, kind if kind is not None else CORRECTION,
                    correction.translate(NORMALISED))


def _without_nested_detections(edits: list[WorkEdit]) -> list[WorkEdit]:
    """A detection edit goes when a correction lies inside it (a non-empty one within its
    span, an insertion strictly inside)."""
    corrections = [(e.start, e.end) for e in edits if e.text is not None]
    return [e for e in edits if e.text is not None
            or not any(_inside(span, e) for span in corrections)]


def _inside(span: tuple[int, int], edit: WorkEdit) -> bool:
    start, end = span
    if start != end:
        return start >= edit.start and end <= edit.end
    return edit.start < start < edit.end


def cleaned(paragraph: str, edits: list[WorkEdit]) -> str:
    """Step 3: whitespace as single spaces (offsets following: one inside a run of
    spaces goes to its start), a leading space removed, each span's own edge spaces left
    out of it (an insertion keeps its point)."""
    text = _WHITESPACE.sub(" ", paragraph)
    runs = [(m.start(), m.end()) for m in _SPACES.finditer(text)]
    if runs:
        starts = [start for start, _ in runs]
        removed = _removed_before(runs)
        for edit in edits:
            edit.start = _collapsed(edit.start, runs, starts, removed)
            edit.end = _collapsed(edit.end, runs, starts, removed)
        text = _SPACES.sub(" ", text)
    if text.startswith(" "):
        text = text.lstrip()
        for edit in edits:
            edit.start, edit.end = max(edit.start - 1, 0), max(edit.end - 1, 0)
    for edit in edits:
        if edit.start != edit.end:
            covered = text[edit.start:edit.end]
            edit.start += covered.startswith(" ")
            edit.end -= covered.endswith(" ")
    return text


def _removed_before(runs: list[tuple[int, int]]) -> list[int]:
    """How many spaces the runs before each one removed."""
    out, total = [], 0
    for start, end in runs:
        out.append(total)
        total += end - start - 1
    return out


def _collapsed(at: int, runs: list[tuple[int, int]], starts: list[int],
               removed: list[int]) -> int:
    """Where offset `at` goes when each run of spaces becomes one space."""
    index = bisect.bisect_left(starts, at) - 1  # the last run starting before `at`
    if index < 0:
        return at
    start, end = runs[index]
    if at < end:  # inside the run (after its first space)
        return start - removed[index]
    return at - removed[index] - (end - start - 1)


# -- step 4: tokens --------------------------------------------------------------------------

def token_edits(paragraph: str, parsed: Parsed, edits: list[WorkEdit],
                tokenise: Callable[[str], list[str]], dropped: list[Dropped] | None = None,
                essay: str = "") -> list[WorkEdit]:
    """Character spans to token spans (a span inside a token grows to its edges), the
    corrections tokenised; an edit that grew over the one before it is dropped (and
    said)."""
    starts = list(parsed.starts)
    ends = [s + len(t) for s, t in zip(parsed.starts, parsed.tokens, strict=True)]
    where = _Boundaries(starts, ends)
    previous_end = 0
    overlapping: list[int] = []
    for edit in edits:
        if edit.text is None:
            edit.text = paragraph[edit.start:edit.end]
        span = where.tokens(edit.start, edit.end)
        if len(span) == 4:
            if span[0] < previous_end:
                overlapping.append(edits.index(edit))
                if dropped is not None:
                    dropped.append(Dropped(essay, f"an edit inside {paragraph[span[2]:span[3]]!r}"
                                           " grows to the token's edges over the edit before "
                                           "it"))
                continue
            edit.text = (paragraph[span[2]:edit.start] + edit.text
                         + paragraph[edit.end:span[3]]).strip()
        previous_end = span[1]
        edit.start, edit.end = span[0], span[1]
        if edit.kind != DETECTION:
            edit.text = " ".join(tokenise(edit.text.strip()))
        else:
            edit.text = " ".join(parsed.tokens[edit.start:edit.end])
    for index in sorted(overlapping, reverse=True):
        del edits[index]
    return edits


class _Boundaries:
    """The tokens' start and end characters, each found by a dictionary."""

    def __init__(self, starts: list[int], ends: list[int]) -> None:
        self.starts, self.ends = starts, ends
        self.start_at = {s: i for i, s in reversed(list(enumerate(starts)))}
        self.end_at = {e: i for i, e in reversed(list(enumerate(ends)))}

    def tokens(self, start: int, end: int) -> list[int]:
        """[first token, after last token], with the grown characters [.., start, end]
        when the span is not on token edges."""
        if start == end:
            return self._insertion(start)
        if start in self.start_at and end in self.end_at:
            return [self.start_at[start], self.end_at[end] + 1]
        if start not in self.start_at:
            start = self.starts[bisect.bisect(self.starts, start) - 1]
        if end not in self.end_at:
            nearest = bisect.bisect(self.ends, end)
            end = self.ends[-1] if nearest >= len(self.ends) else self.ends[nearest]
        return [self.start_at[start], self.end_at[end] + 1, start, end]

    def _insertion(self, at: int) -> list[int]:
        if not at or at <= self.starts[0]:
            return [0, 0]
        if at >= self.ends[-1]:
            return [len(self.starts), len(self.starts)]
        if at in self.start_at:
            return [self.start_at[at]] * 2
        if at in self.end_at:
            return [self.end_at[at] + 1] * 2
        start = self.starts[bisect.bisect(self.starts, at) - 1]
        end = self.ends[bisect.bisect(self.ends, at)]
        return [self.start_at[start], self.end_at[end] + 1, start, end]


# -- step 5: sentences -----------------------------------------------------------------------

def sentences(parsed: Parsed, edits: list[WorkEdit], dropped: list[Dropped],
              essay: str) -> list[Sentence]:
    """The paragraph cut where a parser's sentence ends with punctuation, each sentence
    with its edits (offsets from its start)."""
    bounds = _bounds(parsed)
    if len(bounds) == 1:
        return [_corrected(list(parsed.tokens), edits)]
    out = []
    taken = 0
    for number, (low, high) in enumerate(bounds):
        mine = []
        for edit in edits[taken:]:
            if low <= edit.start < high and edit.end > high:
                dropped.append(Dropped(essay, f"an edit of {' '.join(parsed.tokens[low:high])!r}"
                                       " runs into the next sentence"))
                taken += 1
            elif low <= edit.start < high or (edit.start == edit.end == high and (
                    number == len(bounds) - 1 or not edit.text
                    or edit.text[-1] in string.punctuation)):
                edit.start, edit.end = edit.start - low, edit.end - low
                taken += 1
                mine.append(edit)
        out.append(_corrected(list(parsed.tokens[low:high]), mine))
    return out


def _bounds(parsed: Parsed) -> list[tuple[int, int]]:
    """(first, after last) token of each sentence: a parser's sentence ending in
    punctuation, or the paragraph's last."""
    out, low = [], 0
    size = len(parsed.tokens)
    for end in parsed.sentence_ends:
        if parsed.tokens[end - 1][-1] in string.punctuation or end == size:
            out.append((low, end))
            low = end
    return out


def _corrected(orig: list[str], edits: list[WorkEdit]) -> Sentence:
    """The sentence with its edits applied in their order, each edit given its span in
    the corrected tokens."""
    cor = orig[:]
    offset = 0
    for edit in edits:
        tokens = (edit.text or "").split()
        cor[edit.start + offset:edit.end + offset] = tokens
        edit.c_start = edit.start + offset
        edit.c_end = edit.c_start + len(tokens)
        offset += len(tokens) - (edit.end - edit.start)
    return Sentence(orig, cor, edits)


# -- one essay ------------------------------------------------------------------------------

Parse = Callable[[str], Parsed]


def essay_sentences(essay: Essay, parse: Parse, tokenise: Callable[[str], list[str]],
                    dropped: list[Dropped]) -> dict[int, list[Sentence]]:
    """Steps 1-5 for each annotator of an essay."""
    text = essay.text.translate(NORMALISED)
    out: dict[int, list[Sentence]] = {}
    for annotator in essay.annotators:
        edits = [(e.start, e.end, e.correction, e.kind) for e in annotator.edits]
        found = out.setdefault(annotator.id, [])
        for paragraph, inside in paragraphs(text, edits, dropped, essay.essay_id):
            clean = cleaned(paragraph, inside)
            if not clean:
                continue
            parsed = parse(clean)
            found.extend(sentences(parsed, token_edits(clean, parsed, inside, tokenise,
                                                       dropped, essay.essay_id),
                                   dropped, essay.essay_id))
    return out


def m2_lines(by_annotator: dict[int, list[Sentence]], annotate: Callable[
        [list[str], dict[int, Sentence]], list[str]]) -> Iterator[str]:
    """Step 6: each sentence's S line and every annotator's A lines (`annotate`: errant's
    import of each annotator's edits, by the caller, which holds the pipeline)."""
    ids = sorted(by_annotator)
    for index, first in enumerate(by_annotator[0]):
        yield "S " + " ".join(first.orig)
        yield from annotate(first.orig, {i: by_annotator[i][index] for i in ids})
        yield ""


def unconvertible(document: BeaDocument) -> Iterator[tuple[Essay, str]]:
    """(essay, why) for each essay the script cannot convert: no annotator 0 (whose
    sentences it writes), an annotator given twice (its sentences twice), an edit outside
    the text."""
    for essay in document.essays:
        ids = [a.id for a in essay.annotators]
        if 0 not in ids:
            yield essay, "no annotator 0, whose sentences json_to_m2.py writes"
        repeated = sorted(i for i, count in Counter(ids).items() if count > 1)
        if repeated:
            yield essay, f"annotator {repeated[0]} is given twice"
        for annotator in essay.annotators:
            for edit in annotator.edits:
                if not 0 <= edit.start <= edit.end <= len(essay.text):
                    yield essay, (f"edit {edit.start}-{edit.end} is not a span of the text "
                                  f"of {len(essay.text)} characters")


# -- step 6, and the whole: ERRANT over a spaCy pipeline ------------------------------------

def to_m2(document: BeaDocument, annotator: Any, dropped: list[Dropped]) -> str:
    """The M2 file `json_to_m2.py -gold` writes of the essays, with `annotator`'s pipeline
    and errant (an `annotation.english.EnglishAnnotator`); what the script drops is added
    to `dropped`."""
    nlp = annotator.nlp
    parse = _paragraph_parser(document, nlp)
    tokenise = _tokeniser(nlp)
    essays = [essay_sentences(essay, parse, tokenise, dropped) for essay in document.essays]
    texts = [" ".join(tokens) for by_id in essays for sentences_ in by_id.values()
             for sentence in sentences_ for tokens in (sentence.orig, sentence.cor)]
    parses = dict(zip(texts, annotator.parse(texts), strict=True))
    importer = _Importer(annotator.errant, parses)
    return "".join(f"{line}\n" for by_id in essays for line in m2_lines(by_id, importer))


def _paragraph_parser(document: BeaDocument, nlp: Any) -> Parse:
    """Every paragraph of the essays parsed once, in batches (steps 2-3 decide their text
    without the edits)."""
    from m2lsp.annotation.english import piped

    texts = dict.fromkeys(text for essay in document.essays
                          for paragraph in _PARAGRAPH.findall(essay.text.translate(NORMALISED))
                          if (text := cleaned(paragraph, [])))
    docs = piped(nlp, [nlp.make_doc(text) for text in texts])
    table = {text: _parsed(doc) for text, doc in zip(texts, docs, strict=True)}
    return table.__getitem__


def _parsed(doc: Any) -> Parsed:
    return Parsed(tuple(t.text for t in doc), tuple(t.idx for t in doc),
                  tuple(s.end for s in doc.sents))


def _tokeniser(nlp: Any) -> Callable[[str], list[str]]:
    seen: dict[str, list[str]] = {}

    def tokenise(text: str) -> list[str]:
        found = seen.get(text)
        if found is None:
            found = seen[text] = [t.text for t in nlp.make_doc(text)]
        return found
    return tokenise


class _Importer:
    """errant's `import_edit` of each annotator's edits of a sentence, as the script calls
    it: edits by end then start, a detection edit not minimised, one minimised to nothing
    dropped, a noop line for an annotator with none."""

    def __init__(self, errant: Any, parses: dict[str, Any]) -> None:
        self.errant, self.parses = errant, parses

    def __call__(self, orig_tokens: list[str], by_id: dict[int, Sentence]) -> list[str]:
        from m2lsp.annotation.english import noop_edit

        orig = self.parses[" ".join(orig_tokens)]
        lines = []
        for coder, sentence in by_id.items():
            cor = self.parses[" ".join(sentence.cor)]
            edits = [e for e in map(lambda w: self._imported(orig, cor, w),
                                    sorted(sentence.edits, key=lambda w: (w.end, w.start)))
                     if e is not None]
            lines.extend([e.to_m2(coder) for e in edits] or [noop_edit(coder)])
        return lines

    def _imported(self, orig: Any, cor: Any, work: WorkEdit) -> Any:
        spans = [work.start, work.end, work.c_start, work.c_end, work.kind]
        if work.kind == DETECTION:
            return self.errant.import_edit(orig, cor, spans, min=False, old_cat=False)
        edit = self.errant.import_edit(orig, cor, spans, True, False)
        return None if edit.o_start == edit.o_end and not edit.c_str else edit


# -- M2 to JSON essays -----------------------------------------------------------------------

def from_m2(document: Any, problems: list[Any]) -> str:
    """BEA-2019 JSON of an M2 document, one essay a sentence (M2 does not say where an
    essay ends): `{"id": "N", "text": the S line's text, "edits": [[annotator, [[start,
    end, correction], ...]], ...]}`, each annotator of the sentence (annotator 0 with no
    edit for a sentence without A lines); an edit's characters are those of its tokens;
    an insertion stands at the point before its token, its correction followed by a space
    (at the end: preceded by one); a deletion's correction is ""; an UNK edit (ERRANT's
    error detected, not corrected) has a null correction.  What JSON cannot hold (two
    alternative corrections, an annotator id that is no integer) is reported."""
    import json

    from m2lsp.formats.m2.sentences import m2_sentences
    from m2lsp.formats.unconverted import Unconverted

    lines = []
    for found in m2_sentences(document, problems):
        number, start, block = found.number, found.start, found.block
        text = block.sentence.text
        by_id: dict[int, list[list[Any]]] = {}
        for edit in block.edits:
            written = _json_edit(edit, text, found.columns)
            if isinstance(written, str):
                problems.append(Unconverted(str(number), written, start + edit.row))
                continue
            annotator = edit.annotator_id
            assert annotator is not None  # (_json_edit said so otherwise)
            by_id.setdefault(annotator, []).extend(written)
        edits = [[k, by_id[k]] for k in sorted(by_id)] or [[0, []]]
        lines.append(json.dumps({"id": str(number), "text": text, "edits": edits},
                                ensure_ascii=False))
    return "".join(f"{line}\n" for line in lines)


def _json_edit(edit: Any, text: str, columns: list[tuple[int, int]]
               ) -> list[list[Any]] | str:
    """The edit as JSON edits ([] for a noop), or why it cannot be one."""
    if edit.annotator_id is None or edit.annotator_id < 0:
        return f"annotator {edit.annotator!r} is no integer: JSON essays number annotators"
    if edit.is_noop:
        return []
    if not 0 <= edit.start <= edit.end <= len(columns):
        return f"edit {edit.start} {edit.end} is no span of the sentence's {len(columns)} tokens"
    if len(edit.corrections) != 1:
        return (f"edit {edit.start} {edit.end} has {len(edit.corrections)} alternative "
                "corrections: a JSON edit holds one")
    correction: str | None = edit.corrections[0]
    correction = "" if correction == "-NONE-" else correction
    if edit.type == "UNK":
        correction = None
    if edit.start == edit.end:
        at = columns[edit.start][0] if edit.start < len(columns) else len(text)
        spaced = None if correction is None else (
            correction + " " if edit.start < len(columns) else " " + correction)
        return [[at, at, spaced]]
    return [[columns[edit.start][0], columns[edit.end - 1][1], correction]]
