"""CLEME kept current while the open reference M2 or the system changes (the editor's live
score).  The hypothesis is read as `--metric errant` reads it in the editor (an M2 file, or
plain text annotated line by line, each line's annotation kept), the reference as CLEME
reads it; each sentence's chunks are kept by the texts that decide them, so an edit of one
system line partitions that sentence again.  Weighing, counting and the corpus choice of
references run over all sentences each time (they depend on the whole corpus); the numbers
are those `m2lsp score --metric cleme` prints for the same texts.  Each hypothesis chunk
that counts is marked on the system's words: correct (TP), wrong (FP) or missed (FN), its
references in the hover."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from m2lsp.errors import InputError, UsageError
from m2lsp.model import Format
from m2lsp.scoring.cleme.chunks import Chunk
from m2lsp.scoring.metric import EditorJob, LiveBase, drain
from m2lsp.scoring.review import EMPTY, FOUND, MISSED, WRONG, LiveView, Mark, SentenceReview
from m2lsp.scoring.signature import Signature, signed

if TYPE_CHECKING:
    from m2lsp.config import ScoreSettings

Chunked = tuple[list[Chunk], list[list[Chunk]]]


class ClemeLive(LiveBase):
    """`Metric.live` of cleme: dependent or independent, corpus or sentence level, as the
    job's options say (`cleme_scorer`, `cleme_level`)."""

    def __init__(self, config: ScoreSettings) -> None:
        from m2lsp.scoring.errant.live import ErrantLive

        self.hypotheses = ErrantLive(config)  # reads or annotates the system, line by line
        self._references: tuple[str, list[Any]] = ("", [])
        self._chunked: dict[tuple[str, int], tuple[Any, Chunked]] = {}
        self._reviews: dict[tuple[int, int, int, int], tuple[Chunked, SentenceReview]] = {}

    def update(self, job: EditorJob) -> LiveView:
        return drain(self.steps(job))

    def warm_up(self) -> None:
        self.hypotheses.warm_up()

    def steps(self, job: EditorJob) -> Generator[int, None, LiveView]:
        from m2lsp.scoring.cleme.counting import scored

        if job.format is not Format.M2:
            raise UsageError(f"the gold document {job.uri} is not an open M2 document")
        scorer = str(job.options.get("cleme_scorer") or "dependent")
        level = str(job.options.get("cleme_level") or "corpus")
        if scorer not in ("dependent", "independent") or level not in ("corpus", "sentence"):
            raise UsageError("cleme: cleme_scorer is dependent or independent, cleme_level "
                             "corpus or sentence")
        references = self._read_references(job.text, job.uri)
        blocks = self.hypotheses.reference(job.text, job.uri)
        hypotheses, versions = yield from self.hypotheses.hypothesis(job.system_text, blocks)
        if len(hypotheses) != len(references):
            raise InputError(f"the gold has {len(references)} sentences as CLEME reads it but "
                             f"{len(hypotheses)} as the system is read")
        chunked, fresh = self._partitioned(hypotheses, references)
        result = scored(chunked, scorer, level)
        reviews = self._reviewed(chunked, result, [b.line for b in blocks])
        return _view(result, level, scorer, reviews, fresh, job.text, versions)

    def _read_references(self, text: str, name: str) -> list[Any]:
        from m2lsp.scoring.cleme.reading import read_m2

        if text != self._references[0]:
            self._references = (text, read_m2(text, name))
        return self._references[1]

    def _partitioned(self, hypotheses: Sequence[Any], references: Sequence[Any]
                     ) -> tuple[list[Chunked], int]:
        """Each sentence's chunks: kept where its hypothesis block and reference did not
        change, made again where they did."""
        from m2lsp.scoring.cleme.chunks import chunked
        from m2lsp.scoring.cleme.reading import read_m2

        kept: dict[tuple[str, int], tuple[Any, Chunked]] = {}
        out, fresh = [], 0
        for index, (block, reference) in enumerate(zip(hypotheses, references, strict=True)):
            key = (block.text, id(reference))
            entry = self._chunked.get(key)
            if entry is None or entry[0] is not reference:
                samples = read_m2(block.text + "\n\n", "the system")
                if len(samples) != 1:
                    raise InputError(f"system sentence {index + 1} is not one M2 block")
                entry = (reference, chunked(samples[0], reference, index))
                fresh += 1
            kept[key] = entry
            out.append(entry[1])
        self._chunked = kept
        return out, fresh

    def _reviewed(self, chunked: Sequence[Chunked], result: Any,
                  lines: Sequence[int]) -> list[SentenceReview]:
        """Each sentence against the reference it is scored against (the independent
        scorer's, which counts against all at once: the first)."""
        from m2lsp.scoring.cleme.counting import prf

        kept: dict[tuple[int, int, int, int], tuple[Chunked, SentenceReview]] = {}
        out = []
        for index, entry in enumerate(chunked):
            hyp, refs = entry
            chosen = result.references[index]
            key = (index, lines[index], id(entry), chosen)
            found = self._reviews.get(key)
            if found is None or found[0] is not entry:
                found = (entry, _review(index, lines[index], hyp, refs, chosen, prf))
            kept[key] = found
            out.append(found[1])
        self._reviews = kept
        return out


def _review(index: int, line: int, hyp: list[Chunk], refs: list[list[Chunk]], chosen: int,
            prf: Any) -> SentenceReview:
    """The sentence's chunks in plain words: what the system did with each chunk that it or
    the chosen reference changes."""
    marks = []
    for k, chunk in enumerate(hyp):
        theirs = refs[chosen][k]
        kind = (FOUND if chunk.same(theirs) else WRONG) if chunk.corrected else (
            MISSED if theirs.corrected and not chunk.same(theirs) else None)
        if kind is None:
            continue
        shown = " ".join(chunk.source_tokens) or EMPTY
        wrote = " ".join(chunk.target_tokens) or EMPTY
        options = " | ".join(dict.fromkeys(" ".join(r[k].target_tokens) or EMPTY
                                           for r in refs))
        verb = {FOUND: "correct", WRONG: "wrong", MISSED: "missed"}[kind]
        marks.append(Mark(kind, chunk.start, chunk.end,
                          f"{verb} chunk: {shown} -> {wrote}; references: {options}",
                          hyp_start=chunk.target_start,
                          hyp_end=chunk.target_start + len(chunk.target_tokens)))
    tp = sum(1 for m in marks if m.kind == FOUND)
    fp = sum(1 for m in marks if m.kind == WRONG)
    fn = sum(1 for m in marks if m.kind == MISSED)
    p, r, f = prf(tp, fp, fn)
    source = " ".join(t for c in hyp for t in c.source_tokens)
    hypothesis = " ".join(t for c in hyp for t in c.target_tokens) or EMPTY
    return SentenceReview(index, line, chosen, tp, tp + fp, tp + fn, p, r, f, source,
                          hypothesis, tuple(marks), ())


def _view(result: Any, level: str, scorer: str, reviews: list[SentenceReview], fresh: int,
          gold: str, versions: dict[str, str]) -> LiveView:
    base = Signature("CLEME", (("chunks", scorer), ("level", level), ("scorer", "cleme-v1")))
    counts: dict[str, Any] = {"sentences": result.sentences}
    if level == "corpus":
        counts |= {"tp": result.tp, "fp": result.fp, "fn": result.fn, "tn": result.tn,
                   "acc": result.acc}
    else:
        counts |= {"acc": result.acc}
    summary = (f"CLEME ({scorer}, {level}) F0.5 {result.f:.4f}  P {result.p:.4f}  "
               f"R {result.r:.4f}  Acc {result.acc:.4f}")
    return LiveView(result.p, result.r, result.f, 0.5, signed(base, gold), counts, reviews,
                    fresh, hypothesis_tokens="words" if versions else "", summary=summary)
