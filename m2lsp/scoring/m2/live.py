"""An M2 score kept current while the gold or the system changes (the editor's live score).

Scoring a sentence is the expensive part; choosing annotators and summing counts is a cheap
pass over all sentences.  So each sentence's best paths are kept by what decides them (the
source, the hypothesis and every annotator's gold edits), each sentence's result and review
by the gold sentence object and hypothesis, and the gold's sentences by block (see
`read_gold`'s cache).  An edit to one block or one system line scores that sentence again
and nothing else; the numbers are those a full `m2lsp score` of the same texts prints.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from m2lsp.errors import InputError, UsageError
from m2lsp.model import Format, M2Document
from m2lsp.parsing.source import SourceText
from m2lsp.scoring.m2.inputs import (
    GoldSentence,
    GroupCache,
    gold_warnings,
    read_gold,
    read_system,
)
from m2lsp.scoring.m2.lattice import SystemEdit
from m2lsp.scoring.m2.maxmatch import (
    M2Settings,
    Score,
    SentenceResult,
    choose,
    corpus_score,
    sentence_paths,
    sentence_result,
)
from m2lsp.scoring.m2.options import m2_options
from m2lsp.scoring.m2.review import review
from m2lsp.scoring.metric import EditorJob, LiveBase, Shared, drain
from m2lsp.scoring.review import LiveView, SentenceReview
from m2lsp.scoring.signature import signed

if TYPE_CHECKING:
    from m2lsp.config import ScoreSettings


@dataclass(frozen=True)
class LiveResult:
    """The current score: corpus numbers, each sentence's review, and how many sentences
    this update scored afresh."""

    score: Score
    reviews: tuple[SentenceReview, ...]
    rescored: int


PathKey = tuple


class LiveScore:
    """Scores one gold text against one system text, again and again, reusing what did not
    change.  Holds only what the current texts need (older entries are dropped)."""

    def __init__(self, settings: M2Settings) -> None:
        self.settings = settings
        self._groups: GroupCache = {}
        self._paths: dict[PathKey, list[list[SystemEdit]]] = {}
        # id(gold sentence) -> (it, hypothesis, index, its result, {chosen: review})
        self._results: dict[int, tuple[GoldSentence, str, int, SentenceResult, dict]] = {}

    def gold(self, document: M2Document, source: SourceText, name: str
             ) -> list[GoldSentence]:
        """The gold's sentences, blocks that did not change read from the cache."""
        return read_gold(document, source, name, self._groups)

    def update(self, gold: Sequence[GoldSentence], system_text: str) -> LiveResult:
        """Score the system text (one sentence a line) against the gold sentences."""
        return drain(self.steps(gold, system_text))

    def steps(self, gold: Sequence[GoldSentence], system_text: str, every: int = 200
              ) -> Generator[int, None, LiveResult]:
        """`update`, yielding the sentences done after every `every` scored afresh."""
        hypotheses = read_system(SourceText(system_text))
        if len(gold) != len(hypotheses):
            lines = f"{len(hypotheses)} line{'s' if len(hypotheses) != 1 else ''}"
            raise InputError(f"the gold has {len(gold)} sentences but the system has {lines}")
        paths: dict[PathKey, list[list[SystemEdit]]] = {}
        results: dict[int, tuple] = {}
        fresh = 0
        for index, (sentence, hypothesis) in enumerate(zip(gold, hypotheses, strict=True)):
            entry = self._results.get(id(sentence))
            if entry is None or entry[0] is not sentence or entry[1] != hypothesis \
                    or entry[2] != index:
                entry, scored = self._score(index, sentence, hypothesis, paths)
                fresh += scored
                if scored and fresh % every == 0:
                    yield index
            results[id(sentence)] = entry
        self._paths, self._results = paths, results
        return self._choose([results[id(s)] for s in gold], fresh)

    def _score(self, index: int, sentence: GoldSentence, hypothesis: str,
               paths: dict[PathKey, list[list[SystemEdit]]]) -> tuple[tuple, int]:
        key = _key(sentence, hypothesis)
        found = paths.get(key) or self._paths.get(key)
        scored = found is None
        if found is None:
            found = sentence_paths(index, sentence, hypothesis, self.settings)
        paths[key] = found
        result = sentence_result(index, sentence, hypothesis, found, self.settings)
        return (sentence, hypothesis, index, result, {}), int(scored)

    def _choose(self, entries: list[tuple], fresh: int) -> LiveResult:
        beta = self.settings.beta
        chosen, total = choose([e[3] for e in entries], beta)
        reviews = []
        for entry, decided in zip(entries, chosen, strict=True):
            cached = entry[4].get(decided.chosen)
            if cached is None:
                cached = entry[4][decided.chosen] = review(decided, beta)
            reviews.append(cached)
        return LiveResult(corpus_score(total, self.settings), tuple(reviews), fresh)


def _key(sentence: GoldSentence, hypothesis: str) -> PathKey:
    """What a sentence's best paths depend on."""
    return (sentence.source, hypothesis, tuple(
        (a, tuple((e.start, e.end, e.original, tuple(e.corrections)) for e in edits))
        for a, edits in sentence.annotators))


class M2Live(LiveBase):
    """The live score of an open gold document (`Metric.live` of `m2`): each update reads
    the document's current blocks and the system's current text."""

    def __init__(self, config: ScoreSettings) -> None:
        self.settings = m2_options({}, Shared(beta=config.beta), config).settings
        self.live = LiveScore(self.settings)

    def update(self, job: EditorJob) -> LiveView:
        """The score of the job's texts; an M2lspError when they cannot be scored."""
        return drain(self.steps(job))

    def steps(self, job: EditorJob) -> Generator[int, None, LiveView]:
        """`update`, yielding how far it got while many sentences are scored afresh."""
        if job.format is not Format.M2 or job.document is None:
            raise UsageError(f"the gold document {job.uri} is not an open M2 document")
        gold = self.live.gold(job.document, SourceText(job.text), job.uri)
        found = yield from self.live.steps(gold, job.system_text)
        s = found.score
        return LiveView(s.precision, s.recall, s.f, self.settings.beta,
                        signed(self.settings.signature(), job.text),
                        {"correct": s.counts.correct, "proposed": s.counts.proposed,
                         "gold": s.counts.gold}, found.reviews, found.rescored,
                        tuple(w.describe() for w in gold_warnings(gold)))

