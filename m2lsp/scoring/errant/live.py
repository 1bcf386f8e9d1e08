"""ERRANT's and ChERRANT's scores kept current while the gold or the system changes (the
editor's live score), on an open reference M2 against a hypothesis that is M2 or plain text.

A plain-text hypothesis is annotated line by line as `m2lsp annotate` annotates it (the
source: the reference's `S` lines); each (source, line) pair's block is kept, so an edit of
one line annotates that line again and nothing else (and the first score of an output
annotated before reads its blocks from the disk cache).  Reference blocks are kept by their
text and place, each sentence's comparisons by its two blocks; only the choice of annotators,
which depends on the counts before each sentence, is made again over all sentences.  The
numbers are those `m2lsp score --metric errant|cherrant` prints for the same texts.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from m2lsp.errors import InputError, UsageError
from m2lsp.model import Format
from m2lsp.scoring.errant.compare import (
    Comparison,
    ErrantSentence,
    ErrantSettings,
    _left_out,
    choose,
    coder_edits,
    compare,
    f_score,
)
from m2lsp.scoring.errant.inputs import ErrantBlock, _block, check_pair
from m2lsp.scoring.metric import EditorJob, LiveBase, drain
from m2lsp.scoring.review import (
    EMPTY,
    FOUND,
    MISSED,
    WRONG,
    Change,
    LiveView,
    Mark,
    SentenceReview,
)
from m2lsp.scoring.signature import signed

if TYPE_CHECKING:
    from m2lsp.config import ScoreSettings

CHUNK = 128  # lines annotated between two steps of the first score


class ErrantLive(LiveBase):
    """`Metric.live` of errant (`cherrant=False`) and cherrant."""

    def __init__(self, config: ScoreSettings, cherrant: bool = False) -> None:
        self.config = config
        self.settings = ErrantSettings(beta=config.beta, cherrant=cherrant)
        self._annotator: Any = None
        self._refs: dict[tuple[str, int], ErrantBlock] = {}
        self._read: tuple[str, list[ErrantBlock]] = ("", [])  # the last reference read
        self._hyps: dict[tuple[str, str], ErrantBlock] = {}
        self._sources: dict[int, tuple[ErrantBlock, str]] = {}  # id(reference block) -> source
        self._lines: tuple[Sequence[ErrantBlock], list[str], list[ErrantBlock]] | None = None
        self._versions: dict[str, str] = {}
        self._last: list[tuple[Comparison, int, SentenceReview]] = []  # the last reviews
        self._evaluations: list[ErrantSentence] = []  # the last sentences scored
        self._sentences: dict[tuple[int, int], tuple[ErrantBlock, ErrantBlock, tuple, bool]] = {}

    def update(self, job: EditorJob) -> LiveView:
        return drain(self.steps(job))

    def steps(self, job: EditorJob) -> Generator[int, None, LiveView]:
        """`update`, yielding how many lines are done while many are annotated afresh."""
        if job.format is not Format.M2:
            raise UsageError(f"the gold document {job.uri} is not an open M2 document")
        refs = self.reference(job.text, job.uri)
        hyps, versions = yield from self.hypothesis(job.system_text, refs)
        if len(hyps) != len(refs):
            check_pair(hyps, refs, "the system", job.uri)  # raises, naming where they part
        sentences, totals, fresh, differ = self._evaluated(hyps, refs)
        warning = check_pair(hyps, refs, "the system", job.uri) if differ else None
        reviews = self._reviewed(sentences)
        p, r, f = f_score(*totals, self.settings.beta)
        base = self.settings.signature()
        if versions:
            fields = list(base.fields)
            fields[-1:-1] = list(versions.items())
            base = replace(base, fields=tuple(fields))
        split = ("chars" if self.settings.cherrant else "words") if versions else ""
        return LiveView(p, r, f, self.settings.beta, signed(base, job.text),
                        {"true_positives": totals[0], "false_positives": totals[1],
                         "false_negatives": totals[2]}, reviews, fresh,
                        (warning,) if warning else (), split)

    # -- reading ---------------------------------------------------------------------

    def reference(self, text: str, name: str) -> list[ErrantBlock]:
        """The reference's blocks, in errant_compare's reading; unchanged ones reused (live
        CLEME reads its hypothesis through these too)."""
        from m2lsp.scoring.errant.inputs import read_blocks

        if text == self._read[0] and self._read[1]:
            return self._read[1]
        kept: dict[tuple[str, int], ErrantBlock] = {}
        blocks = read_blocks(text, name, self._refs, kept)
        self._refs = kept
        self._read = (text, blocks)
        return blocks

    def hypothesis(self, text: str, refs: Sequence[ErrantBlock]
                    ) -> Generator[int, None, tuple[list[ErrantBlock], dict[str, str]]]:
        from m2lsp.scoring.system_text import looks_like_m2

        if looks_like_m2(text):
            return self._reference_like(text), {}
        from m2lsp.annotation.parallel import text_lines

        lines = text_lines(text)
        if len(lines) != len(refs):
            raise InputError(f"the gold has {len(refs)} sentences but the system has "
                             f"{len(lines)} lines")
        quick = self._changed_lines(refs, lines)
        if quick is not None:
            return quick, self._versions
        rows = [(self._source(ref), line) for ref, line in zip(refs, lines, strict=True)]
        kept = {key: found for key in rows if (found := self._hyps.get(key)) is not None}
        missing = list(dict.fromkeys(i for i, key in enumerate(rows) if key not in kept))
        annotator = self._annotator_for() if missing else self._annotator
        for start in range(0, len(missing), CHUNK):
            chunk = missing[start:start + CHUNK]
            made = annotator.blocks([(rows[i][0], (rows[i][1],)) for i in chunk])
            for i, block in zip(chunk, made, strict=True):
                kept[rows[i]] = _hypothesis_block(block, i)
            if len(missing) > CHUNK:
                yield start + len(chunk)
        self._hyps = kept
        blocks = [kept[key] for key in rows]
        self._versions = dict(annotator.versions) if annotator else {}
        self._lines = (refs, lines, blocks)
        return blocks, self._versions

    def _changed_lines(self, refs: Sequence[ErrantBlock], lines: list[str]
                       ) -> list[ErrantBlock] | None:
        """The hypothesis blocks when the reference is the one last read and a few system
        lines changed (those annotated again, the rest kept); None otherwise."""
        last = self._lines
        if last is None or last[0] is not refs or len(last[1]) != len(lines) or \
                len(self._hyps) > 2 * len(lines) + 1000:
            return None
        changed = [i for i, (a, b) in enumerate(zip(lines, last[1], strict=True)) if a != b]
        if len(changed) > CHUNK:
            return None
        blocks = list(last[2])
        for i in changed:
            key = (self._source(refs[i]), lines[i])
            found = self._hyps.get(key)
            if found is None:
                made = self._annotator_for().blocks([(key[0], (key[1],))])
                found = self._hyps[key] = _hypothesis_block(made[0], i)
            blocks[i] = found
        self._lines = (refs, lines, blocks)
        return blocks

    def _source(self, ref: ErrantBlock) -> str:
        """The source sentence of a reference block, as the annotator is given it."""
        found = self._sources.get(id(ref))
        if found is None or found[0] is not ref:
            if len(self._sources) > 2 * len(self._refs) + 1000:
                self._sources.clear()
            joiner = "" if self.settings.cherrant else " "
            found = self._sources[id(ref)] = (ref, joiner.join(ref.tokens))
        return found[1]

    def _reference_like(self, text: str) -> list[ErrantBlock]:
        from m2lsp.scoring.errant.inputs import read_blocks

        return read_blocks(text, "the system")

    def _annotator_for(self) -> Any:
        """The annotator of plain text (loaded once): ERRANT's pipeline, or ChERRANT's
        tables (an error naming what to install or set when they are missing)."""
        if self._annotator is None:
            from m2lsp.annotation.parse_cache import default_cache

            if self.settings.cherrant:
                from m2lsp.annotation.cherrant_data import data_folder
                from m2lsp.annotation.chinese import ChineseAnnotator, ChineseSettings

                settings = ChineseSettings(data_folder(None, self.config.cherrant_data))
                self._annotator = ChineseAnnotator(settings, default_cache())
            else:
                from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings

                self._annotator = EnglishAnnotator(
                    EnglishSettings(model=self.config.spacy_model), default_cache())
        return self._annotator

    def warm_up(self) -> None:
        """Load what the next changed line needs that the first score did not (ERRANT's
        pipeline, when every line came from the cache); the server runs it in a thread
        after the first score, so the first keystroke does not wait for it."""
        if self._annotator is not None:
            self._annotator.load()

    # -- scoring ---------------------------------------------------------------------

    def _evaluated(self, hyps: Sequence[ErrantBlock], refs: Sequence[ErrantBlock]
                   ) -> tuple[list[ErrantSentence], tuple[int, int, int], int, bool]:
        """Every sentence scored (comparisons of unchanged pairs reused), the annotators
        chosen in order, and the corpus counts; how many pairs were compared afresh, and
        whether the sources of some pair differ."""
        beta, tp, fp, fn, fresh, differ = self.settings.beta, 0, 0, 0, 0, False
        kept: dict[tuple[int, int], tuple[ErrantBlock, ErrantBlock, tuple, bool]] = {}
        sentences = []
        new = ErrantSentence._make
        last, known = self._evaluations, self._sentences
        for index, (hyp, ref) in enumerate(zip(hyps, refs, strict=True)):
            previous = last[index] if index < len(last) else None
            if previous is not None and previous.hyp_block is hyp and previous.ref_block is ref:
                comparisons = previous.comparisons
                kept[(id(hyp), id(ref))] = found = known[(id(hyp), id(ref))]
            else:
                previous = None
                key = (id(hyp), id(ref))
                cached = known.get(key)
                if cached is not None and cached[0] is hyp and cached[1] is ref:
                    found = cached
                else:
                    found = (hyp, ref, self._comparisons(hyp, ref),
                             hyp.sentence != ref.sentence and hyp.tokens != ref.tokens)
                    fresh += 1
                kept[key] = found
                comparisons = found[2]
            differ = differ or found[3]
            if len(comparisons) > 1:  # the choice depends on the counts before it
                chosen = choose(comparisons, (tp, fp, fn), beta)
                sentence = new((index, hyp, ref, comparisons, chosen, (tp, fp, fn)))
            else:  # one pair (or none): its `before` is not kept up to date here
                sentence = previous or new((index, hyp, ref, comparisons, 0, (0, 0, 0)))
            sentences.append(sentence)
            if comparisons:
                best = comparisons[sentence.chosen]
                tp, fp, fn = tp + best.tp, fp + best.fp, fn + best.fn
        self._sentences, self._evaluations = kept, sentences
        return sentences, (tp, fp, fn), fresh, differ

    def _comparisons(self, hyp: ErrantBlock, ref: ErrantBlock) -> tuple[Comparison, ...]:
        settings = self.settings
        refs = coder_edits(ref.edits, settings)
        if settings.cherrant and _left_out(refs, settings):
            return ()
        return tuple(compare(h, r) for h in coder_edits(hyp.edits, settings) for r in refs)

    def _reviewed(self, sentences: Sequence[ErrantSentence]) -> list[SentenceReview]:
        """Each sentence's review, the last update's where its chosen comparison and its
        line are the same."""
        last, out, kept = self._last, [], []
        beta = self.settings.beta
        for sentence in sentences:
            index, best, line = sentence.index, sentence.best, sentence.ref_block.line
            if index < len(last) and last[index][0] is best and last[index][1] == line:
                entry = last[index]
            else:
                entry = (best, line, review(sentence, beta, self.settings.cherrant))
            kept.append(entry)
            out.append(entry[2])
        self._last = kept
        return out


def _hypothesis_block(block: str | None, index: int) -> ErrantBlock:
    """An annotated line's block, read as errant_compare reads it (line: its index)."""
    if block is None:
        raise InputError(f"sentence {index + 1} of the gold has an empty source, which the "
                         f"annotator writes no block for")
    return _block(block.strip(), index, "the system")


# -- the sentence in plain words ----------------------------------------------------------

def review(sentence: ErrantSentence, beta: float, chars: bool = False) -> SentenceReview:
    """The chosen reference annotator's reading of a scored sentence: each edit found,
    missed or wrong, named by its smallest change."""
    best = sentence.best
    tokens = sentence.ref_block.tokens
    wrong = [_change(key, tokens) for key in best.false_positives]
    where = _HypothesisPlaces(best.hyp.types, chars)
    marks = [*(_gold_mark(FOUND, key, best, tokens, wrong, where)
               for key in best.true_positives),
             *(_gold_mark(MISSED, key, best, tokens, wrong, where)
               for key in best.false_negatives),
             *(_wrong_mark(key, change, sentence, tokens, where)
               for key, change in zip(best.false_positives, wrong, strict=True))]
    marks.sort(key=lambda m: (m.start, m.end, m.kind))
    tp, fp, fn = best.tp, best.fp, best.fn
    p, r, f = f_score(tp, fp, fn, beta)
    return SentenceReview(sentence.index, sentence.line, best.ref.coder, tp, tp + fp, tp + fn,
                          p, r, f, " ".join(tokens), _hypothesis(sentence, tokens),
                          tuple(marks), ())


def _change(key: tuple, tokens: Sequence[str]) -> Change:
    start, end, correction = key[0], key[1], key[-1]
    original = " ".join(tokens[start:end])
    return Change.of(start, end, original, "" if correction == "-NONE-" else correction)


class _HypothesisPlaces:
    """Where source positions and the system's own edits stand in its sentence: each of
    its edits (keys: start, end, correction) shifts the words after it by the length of
    its correction less that of its span (ChERRANT's corrections, without spaces, are
    counted in characters)."""

    def __init__(self, keys: Any, chars: bool) -> None:
        self.edits = sorted((k[0], k[1], _length(k[-1], chars)) for k in keys if k[0] >= 0)

    def of_key(self, key: tuple) -> tuple[int, int]:
        """The hypothesis words a system edit wrote."""
        shift = 0
        for start, end, length in self.edits:
            if (start, end) == (key[0], key[1]):
                return start + shift, start + shift + length
            shift += length - (end - start)
        return self.span(key[0], key[1])

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The hypothesis words standing where source words start..end are."""
        first = self.boundary(start, True)
        return first, max(first, self.boundary(end, False))

    def boundary(self, at: int, opening: bool) -> int:
        """Where the source boundary `at` falls in the hypothesis (an insertion right at it
        comes before an opening boundary, after a closing one)."""
        shift = 0
        for start, end, length in self.edits:
            if start < at < end:
                return start + shift + (0 if opening else length)
            if not (end < at or (end == at and (opening or start < end))):
                break
            shift += length - (end - start)
        return at + shift


def _length(correction: str, chars: bool) -> int:
    if correction in ("-NONE-", ""):
        return 0
    return len(correction) if chars else len(correction.split())


def _gold_mark(kind: str, key: tuple, best: Comparison, tokens: Sequence[str],
               wrong: Sequence[Change], where: _HypothesisPlaces) -> Mark:
    change = _change(key, tokens)
    error_type = best.ref.types[key][0]
    text = f"{change.shown(tokens)} ({error_type})"
    if kind == FOUND:
        message = f"found: {text}"
    else:
        instead = next((w for w in wrong if change.overlaps(w)), None)
        message = (f"missed: {text}; " + (f"the system wrote {instead.shown(tokens)} instead"
                                          if instead else "the system left this unchanged"))
    hyp = where.of_key(key) if kind == FOUND else where.span(key[0], key[1])
    return Mark(kind, change.start, change.end, message, error_type, best.ref.lines[key],
                *hyp)


def _wrong_mark(key: tuple, change: Change, sentence: ErrantSentence,
                tokens: Sequence[str], where: _HypothesisPlaces) -> Mark:
    best = sentence.best
    having = sorted({c.ref.coder for c in sentence.comparisons if key in c.ref.types})
    if not having:
        why = f"no annotator {change.verb()} here"
    else:
        names = ", ".join(str(a) for a in having)
        why = (f"annotator {names} {change.verb()} here, but this sentence is scored against "
               f"annotator {best.ref.coder} (the one that gives the best corpus F)")
    return Mark(WRONG, change.start, change.end,
                f"system: {change.shown(tokens)} ({best.hyp.types[key][0]}); {why}",
                hyp_start=where.of_key(key)[0], hyp_end=where.of_key(key)[1])


def _hypothesis(sentence: ErrantSentence, tokens: Sequence[str]) -> str:
    """The system's sentence: its chosen annotator's edits applied to the source."""
    keys = sorted(k for k in sentence.best.hyp.types if k[0] >= 0)
    words: list[str] = []
    at = 0
    for key in keys:
        start, end = key[0], key[1]
        if start < at or end > len(tokens):
            continue
        words.extend(tokens[at:start])
        correction = key[-1]
        if correction not in ("-NONE-", ""):
            words.append(correction)
        at = end
    words.extend(tokens[at:])
    return " ".join(words) or EMPTY
