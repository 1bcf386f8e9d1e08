"""`--metric errant`: span-based scores, identical to errant_compare 3.0.2 (its -v as -v, its
-cat 3 as --per-type).  SYSTEM is the hypothesis edits in M2, GOLD the reference M2."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Text
from m2lsp.scoring.errant import DECLARATION
from m2lsp.scoring.errant.options import errant_options
from m2lsp.scoring.metric import (
    Agreement,
    EditorJob,
    EditorScore,
    MetricBase,
    Numbers,
    Request,
    ScoreBase,
    SentenceStats,
    Shared,
    Steps,
)
from m2lsp.scoring.signature import signed


def _check_arguments(request: Request, hyp: str, ref: str, name: str = "errant") -> None:
    """An error saying what probably happened when the files do not look like a hypothesis
    (M2 or plain text) and an M2 reference."""
    from m2lsp.scoring.system_text import empty_problem, looks_like_m2, swapped

    ref_m2 = looks_like_m2(ref)
    if request.gold is not None and (
            problem := swapped(request.system, hyp, request.gold, ref, request.usage)):
        raise InputError(problem)
    if (empty := empty_problem(request.system, len(hyp.strip()), request.gold,
                               len(ref.strip()))):
        raise UsageError(empty)
    if not ref_m2:
        raise UsageError(f"the reference {request.gold} is not M2: --metric {name} scores "
                         f"against reference edits (an M2 file)")


def has_target_lines(text: str) -> bool:
    """Whether an M2 text has ChERRANT's target lines (`T0-A0 ...`)."""
    return "\nT" in text or text.startswith("T")


@dataclass(frozen=True)
class ErrantScore(ScoreBase):
    result: Any  # compare.ErrantResult
    reference_text: str = ""
    annotated_with: tuple[tuple[str, str], ...] = ()  # a plain-text hypothesis: what
    # annotated it (errant's version, the spaCy pipeline's name and version)

    @property
    def signature(self) -> str:
        base = self.result.settings.signature()
        if self.annotated_with:
            fields = list(base.fields)
            fields[-1:-1] = list(self.annotated_with)
            base = replace(base, fields=tuple(fields))
        return signed(base, self.reference_text)

    def text(self, request: Request) -> str:
        from m2lsp.scoring.errant.report import report
        from m2lsp.scoring.metric import bootstrap_text

        text = report(self.result, request.shared.verbose, request.options.category)
        extras = []
        if request.shared.per_type:  # stdout stays errant_compare's: the macro is a note
            from m2lsp.logs import logger
            from m2lsp.scoring.macro import macro_line

            line = macro_line(self.macro(request.options.category), self.result.settings.beta)
            logger(__name__).info("note: %s", line.strip())
        if request.shared.sentence_level:
            extras.append("\n" + sentence_text(self.result))
        if request.shared.bootstrap:
            extras.append("\n" + bootstrap_text(self.sentence_stats(), request))
        if request.shared.sentence_average:
            name = "SentChERRANT" if self.result.settings.cherrant else "SentERRANT"
            extras.append("\n" + self.sentence_average().text(name))
        if extras:
            extras.append(f"\n{self.signature}\n")
        return text + "".join(extras)

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.errant.json_output import result_data
        from m2lsp.scoring.metric import bootstrap_data

        data = result_data(self.result, request.system, request.gold,
                           request.options.category == 3)
        data["signature"] = self.signature
        if request.shared.per_type:
            macro = self.macro(request.options.category)
            data["macro"] = None if macro is None else {**macro.data(),
                                                        "level": request.options.category}
        if request.shared.bootstrap:
            data["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        if request.shared.sentence_average:
            data["sentence_average"] = self.sentence_average().data()
        return data

    def macro(self, level: int | None = 3) -> Any:
        """The macro-averaged P, R, F over the error types at -cat `level` (1 operation,
        2 main type, 3 whole type), as errant PR #52 defines them (scoring.macro)."""
        from m2lsp.scoring.errant.compare import categories_at
        from m2lsp.scoring.macro import macro_average

        table = categories_at(self.result.categories, level or 3)
        return macro_average([(name, tp, fp, fn) for name, (tp, fp, fn) in table.items()],
                             self.result.settings.beta)

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        """The corpus P, R, F before errant_compare rounds them, and TP, FP, FN."""
        from m2lsp.scoring.errant.compare import f_exact

        r = self.result
        p, rec, f = f_exact(r.tp, r.fp, r.fn, r.settings.beta)
        return Numbers(p, rec, f, {"tp": r.tp, "fp": r.fp, "fn": r.fn})

    def main(self, data: dict[str, Any]) -> float | None:
        """F as errant_compare prints it (4 decimals, what SEEDA's scripts correlate), or
        for the gec-metrics variant at full precision, as gec-metrics correlates it."""
        if self.result.settings.variant == "gec-metrics":
            return self.unrounded(data).f
        return super().main(data)

    def sentence_average(self) -> Any:
        """SentERRANT: each sentence's best F over the annotators' comparisons."""
        from m2lsp.scoring.sentence_average import averaged

        return averaged(self._comparison_counts(), self.result.settings.beta)

    def sentence_scores(self) -> list[float | None]:
        """Each sentence's F-beta against its own best annotator (SentERRANT's terms)."""
        from m2lsp.scoring.sentence_average import best_per_sentence

        return best_per_sentence(self._comparison_counts(), self.result.settings.beta)

    def _comparison_counts(self) -> list[list[tuple[int, int, int]]]:
        return [[(c.tp, c.fp, c.fn) for c in s.comparisons] for s in self.result.sentences]

    def reviews(self) -> list[Any]:
        """Each sentence in plain words (review.SentenceReview), as the editor shows it."""
        from m2lsp.scoring.errant.live import review

        settings = self.result.settings
        return [review(s, settings.beta, chars=settings.cherrant)
                for s in self.result.sentences]

    def type_counts(self) -> list[tuple[str, int, int, int, float]]:
        """(type, TP, FP, FN, F) per error type, as errant_compare -cat 3 counts them."""
        from m2lsp.scoring.errant.compare import f_score

        beta = self.result.settings.beta
        return [(name, tp, fp, fn, f_score(tp, fp, fn, beta)[2])
                for name, (tp, fp, fn) in sorted(self.result.categories.items())]

    def sentence_stats(self) -> SentenceStats:
        from m2lsp.scoring.errant.compare import f_score

        beta = self.result.settings.beta

        def aggregate(sums: tuple) -> tuple[float, float, float]:
            return f_score(int(sums[0]), int(sums[1]), int(sums[2]), beta)
        return SentenceStats([s.counts for s in self.result.sentences],
                             ("Precision", "Recall", f"F_{beta:.1f}"), aggregate, main=2)


def sentence_text(result: Any) -> str:
    """One line per sentence: number, reference line, chosen coders, TP, FP, FN, P, R, F."""
    from m2lsp.scoring.errant.compare import f_score

    beta = result.settings.beta
    lines = [f"{'sentence':>8} {'line':>6} {'coders':>7} {'TP':>5} {'FP':>5} {'FN':>5} "
             f"{'P':>7} {'R':>7} {f'F_{beta:.1f}':>7}"]
    for s in result.sentences:
        tp, fp, fn = s.counts
        p, r, f = f_score(tp, fp, fn, beta)
        coders = f"{s.best.hyp.coder}-{s.best.ref.coder}"
        lines.append(f"{s.index + 1:>8} {s.line + 1:>6} {coders:>7} {tp:>5} {fp:>5} {fn:>5} "
                     f"{p:>7.4f} {r:>7.4f} {f:>7.4f}")
    return "\n".join(lines) + "\n"


class Errant(MetricBase):
    declaration = DECLARATION
    editor = "steps"

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> Any:
        return errant_options(values, shared, config)

    def agreement(self, scored_m2: str, gold_m2: str, corrected: Sequence[str],
                  beta: float) -> Agreement:
        """errant_compare of the scored annotator's edits against the gold one's."""
        from m2lsp.scoring.errant.compare import ErrantSettings, evaluate
        from m2lsp.scoring.errant.inputs import read_blocks

        result = evaluate(read_blocks(scored_m2, "the scored annotator"),
                          read_blocks(gold_m2, "the gold annotator"), ErrantSettings(beta=beta))
        precision, recall, f = result.scores
        return Agreement(result.tp, result.fp, result.fn, precision, recall, f)

    def run(self, request: Request) -> ErrantScore:
        from m2lsp.files.kept import kept
        from m2lsp.parsing.source import SourceText, read_source
        from m2lsp.scoring.errant.files import as_errant_reads, score_blocks
        from m2lsp.scoring.errant.inputs import read_blocks
        from m2lsp.scoring.system_text import looks_like_m2

        references = getattr(request.options, "references", ())
        if request.gold is None and not references:
            raise UsageError(f"--metric {self.name} needs GOLD (the reference M2 file), or "
                             "plain-text references: --source SRC --ref REF ...")
        if references:
            if request.gold is not None:
                raise UsageError(f"--metric {self.name} takes the references from --ref or "
                                 "from GOLD (M2), not both")
            hyp, ref, gold_name = _from_references(request, references)
            # the hypothesis is annotated against the gold's S lines: the sources read
            request = replace(request, gold=Path(gold_name),
                              shared=replace(request.shared, source=None))
        else:
            assert request.gold is not None
            hyp = read_source(request.system, "hypothesis", request.encoding)
            gold = request.gold
            ref = kept(gold, ("reference", request.encoding),
                       lambda: read_source(gold, "reference", request.encoding))
        _check_arguments(request, hyp.text, ref.text, self.name)
        self.check_reference(request, ref.text)
        annotated: tuple[tuple[str, str], ...] = ()
        hyp_name = str(request.system)
        refs = self.reference_blocks(request, ref) if not references else read_blocks(
            as_errant_reads(ref), str(request.gold))  # read and split once
        if not looks_like_m2(hyp.text):
            self.check_language(request, hyp.text, ref.text)
            plain = self.annotated(request, refs, hyp)
            hyp, annotated = SourceText(plain.m2), tuple(plain.versions.items())
            hyp_name = plain.source_name  # the annotated S lines are its sentences
        hyp_blocks = read_blocks(as_errant_reads(hyp), hyp_name)
        if annotated and getattr(request.options.annotation, "tokenise", False):
            _retokenised(hyp_blocks, refs, str(request.gold))
        hyp_blocks, refs = self.selected(request, hyp_blocks, refs)
        result = score_blocks(hyp_blocks, hyp_name, refs, str(request.gold),
                              request.options.settings, request.warn,
                              hyp_by_sentence=bool(annotated))
        return ErrantScore(result, ref.text, annotated)

    def selected(self, request: Request, hyp: list[Any], refs: list[Any]
                 ) -> tuple[list[Any], list[Any]]:
        """The sentences scored, of the hypothesis's and the reference's blocks (all;
        ChERRANT's scorer can take a slice)."""
        return hyp, refs

    def reference_blocks(self, request: Request, ref: Any) -> Any:
        """The gold's blocks as the reference tool reads them (kept while unchanged)."""
        return _reference_blocks(request, ref)

    def check_language(self, request: Request, system: str, gold: str) -> None:
        """ERRANT annotates English: a Chinese plain-text hypothesis or gold would be
        aligned word by word as if it were English (TP 0 and a page of FPs)."""
        from m2lsp.scripts import chinese_for_english

        lang = getattr(request.options.annotation, "lang", "en")
        if lang != "en":  # another language: a warning if the script is not its own
            from m2lsp.annotation.annotators import script_problem

            warning = script_problem(request.options.annotation, system)
            if warning is not None and request.warn is not None:
                request.warn(warning)
            return
        problem = chinese_for_english(
            {"hypothesis": system, "reference": gold},
            "--metric errant (a plain-text hypothesis)", "for Chinese use --metric cherrant "
            "(ChERRANT at char level), or annotate with `m2lsp annotate --lang zh`")
        if problem is not None:
            raise UsageError(problem)

    def check_reference(self, request: Request, text: str) -> None:
        """Warn where the reference was made for another scorer (ChERRANT's files)."""
        if has_target_lines(text) and request.warn is not None:
            request.warn(f"warning: {request.gold} has ChERRANT's target lines (T...): "
                         f"these are errant_compare's numbers; ChERRANT's own scorer "
                         f"(compare_m2_for_evaluation.py) scores such files differently (it "
                         f"removes spaces inside corrections and leaves out a sentence whose "
                         f"only reference edit is NA): for its numbers, --metric cherrant")

    def annotated(self, request: Request, refs: Any, hyp: Any) -> Any:
        """The plain-text hypothesis (`hyp`, read) as errant_parallel would annotate it
        against the reference (`refs`, its blocks)."""
        return _annotated(request, refs, hyp)

    def editor_settings(self, job: EditorJob) -> Any:
        from m2lsp.scoring.errant.compare import ErrantSettings

        return ErrantSettings(beta=job.settings.beta)

    def live(self, config: Any) -> Any:
        """The editor's live score: the open reference against an M2 or plain-text
        hypothesis, kept current as either changes."""
        from m2lsp.scoring.errant.live import ErrantLive

        return ErrantLive(config, cherrant=self.name == "cherrant")

    def in_editor(self, job: EditorJob) -> Steps:
        """The open reference M2 against the system's hypothesis M2."""
        from m2lsp.model import Format
        from m2lsp.scoring.errant.compare import evaluate_in_steps
        from m2lsp.scoring.errant.inputs import check_pair, read_blocks
        from m2lsp.scoring.errant.marks import errant_diagnostics

        if job.format is not Format.M2:
            raise UsageError(f"the gold document {job.uri} is not an open M2 document")
        settings = self.editor_settings(job)
        hyp = read_blocks(job.system_text, "system")
        ref = read_blocks(job.text, job.uri)
        warning = check_pair(hyp, ref, "system", job.uri)
        result = yield from evaluate_in_steps(hyp, ref, settings)
        p, r, f = result.scores
        signature = signed(settings.signature(), job.text)
        return EditorScore(
            errant_diagnostics(result, job.document),
            f"P {p}  R {r}  F{settings.beta:g} {f}  ({signature})"
            + (f"; {warning}" if warning else ""),
            {"precision": p, "recall": r, "f": f, "signature": signature,
             "true_positives": result.tp, "false_positives": result.fp,
             "false_negatives": result.fn})


def _from_references(request: Request, references: Sequence[str | Text]) -> tuple[Any, Any, str]:
    """(hypothesis, gold, the gold's name) from plain-text references of --source: the
    references annotated into the gold as errant_parallel annotates them (MultiGEC-2025's
    essay files one essay a line, as the shared task made them)."""
    from m2lsp.annotation.parallel import ParallelText, annotate, default_jobs, read_lines
    from m2lsp.formats.multigec.parser import aligned, is_essays
    from m2lsp.parsing.source import SourceText, read_source

    source = request.shared.source
    if source is None:
        raise UsageError("--ref needs --source (the sentences the references correct)")
    orig = read_source(source, "source", request.encoding).text
    paths = [r if isinstance(r, Text) else Path(r) for r in references]
    if is_essays(orig):
        texts = [read_source(p, "reference", request.encoding).text for p in paths]
        hyp_text = read_source(request.system, "hypothesis", request.encoding).text
        _, sources, hyps, columns, notes = aligned(orig, hyp_text, texts, list(map(str, paths)))
        for note in notes:
            if request.warn is not None:
                request.warn(f"warning: {request.system}: {note}")
        hyp = SourceText("".join(f"{h}\n" for h in hyps))
    else:
        sources = read_lines(source, "source", request.encoding)
        columns = [read_lines(p, "reference", request.encoding) for p in paths]
        hyp = read_source(request.system, "hypothesis", request.encoding)
    options = request.options
    gold = "".join(annotate(ParallelText(list(sources), [list(c) for c in columns]),
                            options.annotation, options.jobs or default_jobs()))
    return hyp, SourceText(gold), " ".join(map(str, paths))


def _annotated(request: Request, refs: Any, hyp: Any) -> Any:
    """The plain-text hypothesis of `request` as errant_parallel would annotate it."""
    from m2lsp.annotation.parallel import read_lines, source_lines
    from m2lsp.scoring.errant.plain import annotate_hypothesis, reference_sources

    hypotheses = source_lines(hyp)  # read once, by `run`
    source = request.shared.source
    if source is not None:
        sources, name = read_lines(source, "source", request.encoding), str(source)
    else:
        sources, name = reference_sources(refs), f"{request.gold} (its S lines)"
    options = request.options
    return annotate_hypothesis(request.system, hypotheses, sources, name, options.annotation,
                               options.jobs, request.warn, request.progress)


METRIC = Errant()


def _reference_blocks(request: Request, ref: Any, cherrant: bool = False) -> Any:
    """The gold's blocks in errant_compare's reading (`cherrant`: ChERRANT's), kept for the
    next run while the file is unchanged (`files.kept`)."""
    from m2lsp.files.kept import kept
    from m2lsp.scoring.errant.files import as_errant_reads
    from m2lsp.scoring.errant.inputs import read_blocks

    assert request.gold is not None
    return kept(request.gold, ("cherrant-blocks" if cherrant else "errant-blocks",
                               request.encoding),
                lambda: read_blocks(as_errant_reads(ref), str(request.gold),
                                    cherrant=cherrant))


def _retokenised(hyp: Any, ref: Any, gold: str) -> None:
    """With --tok the source sentences are tokenised again by spaCy before the hypothesis
    is annotated: where that changes a sentence's tokens, the gold's edit offsets no longer
    refer to them.  A UsageError that says so, naming the sentence once."""
    for index, (ours, theirs) in enumerate(zip(hyp, ref, strict=False)):
        if len(ours.tokens) != len(theirs.tokens):
            raise UsageError(
                f"--tok tokenised the source sentences again with spaCy, and sentence "
                f"{index + 1} ({gold}:{theirs.line + 1}) became {len(ours.tokens)} tokens "
                f"where the gold has {len(theirs.tokens)}: the gold's edit offsets count its "
                f"own tokens. Score without --tok (the gold's S lines are tokenised already)")
