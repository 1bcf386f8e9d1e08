"""`--metric cged`: the NLP-TEA CGED levels.  SYSTEM is the result file, GOLD the truth file;
`--cged-report YEAR` prints that year's official tool's report byte for byte."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input, Text
from m2lsp.scoring.cged import DECLARATION
from m2lsp.scoring.metric import (
    EditorJob,
    EditorScore,
    MetricBase,
    Request,
    ScoreBase,
    SentenceStats,
    Shared,
    Steps,
    given,
)
from m2lsp.scoring.signature import Signature, signed


@dataclass(frozen=True)
class CgedScore(ScoreBase):
    """The levels (and the correction level), or a finished official report."""

    signature: str
    result: Any = None
    correction: Any = None
    counting: str = "official"
    report: bytes | None = None  # an official tool's report, as it writes it
    types: tuple[tuple[str, int, int, int, float], ...] = ()  # see type_counts

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        """The numbers a report ranks systems by, from this score's JSON `data`: each
        level's F1 (position first: the report ranks by it), then the false positive rate."""
        levels = data.get("levels") or {}
        found = {f"{level}_f1": levels[level]["f1"]
                 for level in ("position", "identification", "detection", "correction")
                 if isinstance(levels.get(level, {}).get("f1"), float)}
        rate = data.get("false_positive_rate")
        return found | ({"false_positive_rate": rate} if isinstance(rate, float) else {})

    def type_counts(self) -> list[tuple[str, int, int, int, float]]:
        """(type, TP, FP, FN, F1) per error type (R, M, S, W), counted at the position level
        as nlptea16cged.jar counts items: sets of `id, start, end, TYPE`."""
        return list(self.types)

    def text(self, request: Request) -> str | bytes:
        from m2lsp.scoring.cged.report import summary

        if self.report is not None:
            return self.report
        return summary(self.result, self.correction, self.counting, self.signature)

    def json(self, request: Request) -> dict[str, Any]:
        if self.report is not None:
            raise UsageError("--cged-report prints the official report; leave out --format json")
        return levels_json(self, request)

    def sentence_stats(self) -> SentenceStats | None:
        return None  # the official counting judges ids, not summable sentence vectors


def _number(value: float) -> float | None:  # NaN (a 0/0) is not JSON
    return None if value != value else value


def levels_json(score: CgedScore, request: Request) -> dict[str, Any]:
    from m2lsp.scoring.cged.levels import LEVELS

    result, correction = score.result, score.correction
    data: dict[str, Any] = {
        "metric": "cged", "signature": score.signature, "system": str(request.system),
        "gold": str(request.gold),
        "false_positive_rate": _number(result.false_positive_rate[0]), "levels": {}}
    for level in LEVELS:
        s = result.score(level)
        data["levels"][level] = {
            "accuracy": _number(s.accuracy), "precision": _number(s.precision),
            "recall": _number(s.recall), "f1": _number(s.f1), "true_positives": s.tp,
            "false_positives": s.fp, "false_negatives": s.fn}
        outcomes = getattr(result, "levels", {}).get(level)
        if outcomes is not None:  # the 2015 counting judges each line: which ids where
            data["levels"][level].update({name: getattr(outcomes, name)
                                          for name in ("tp", "fp", "tn", "fn")})
    data["levels"]["correction"] = {
        "precision": _number(correction.precision), "recall": _number(correction.recall),
        "f1": _number(correction.f1), "true_positives": correction.tp,
        "claimed": correction.claimed, "expected": correction.expected}
    return data


@dataclass(frozen=True)
class CgedOptions:
    """CGED's own options."""

    report: str | None = None  # the year of an official report to print
    report_file: str | None = None  # where --cged-report 2018 also writes its file
    counting: str | None = None  # official, paper or 2016; None: by the truth's format
    line_ends: str = "lf"  # of the official reports


class Cged(MetricBase):
    declaration = DECLARATION
    editor = "steps"

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> CgedOptions:
        return CgedOptions(values.get("cged_report"), values.get("cged_report_file"),
                           values.get("cged_counting"), given(values, "cged_line_ends", "lf"))

    def run(self, request: Request) -> CgedScore:
        if request.gold is None:
            raise UsageError("--metric cged needs GOLD (the truth file)")
        if request.options.report == "2018":
            return _run_2018(request)
        if request.options.report_file:
            raise UsageError("--cged-report-file goes with --cged-report 2018")
        return _run_levels(request)

    def live(self, config: Any) -> Any:
        """The editor's live score: scored again whole when the truth or the result changes
        (a test set of CGED scores in milliseconds)."""
        from m2lsp.scoring.cged.live import CgedLive

        return CgedLive(self, config)

    def in_editor(self, job: EditorJob) -> Steps:
        """A result file against the open truth file or SGML file (nlptea16cged.jar's
        counting: several errors per sentence)."""
        from m2lsp.formats.cged.parser import parse_cged
        from m2lsp.model import Format
        from m2lsp.scoring.cged.inputs import items_from_sgml, read_items
        from m2lsp.scoring.cged.levels import LEVELS, evaluate_2016
        from m2lsp.scoring.cged.marks import cged_diagnostics
        from m2lsp.scoring.cged.report import signature

        if job.format not in (Format.TRUTH, Format.CGED):
            raise UsageError(f"--metric cged scores against an open CGED truth or SGML file, "
                             f"not {job.uri}")
        if job.format is Format.CGED:
            truth = items_from_sgml(parse_cged(job.text))
        else:
            truth = read_items(job.text, job.uri, "truth", strict=False)
        result = read_items(job.system_text, "system", "result", strict=False)
        yield 0
        scored = evaluate_2016(result, truth)
        levels = {level: scored.score(level) for level in LEVELS}
        rate = scored.false_positive_rate[0]
        summary = "  ".join(f"{name[:3]} F1 {s.f1:.4f}" for name, s in levels.items())
        sign = signed(signature("2016"), job.text)
        return EditorScore(
            cged_diagnostics(truth, result, list(job.lines)),
            f"FPR {rate:.4f}  {summary}  ({sign})",
            {"false_positive_rate": _number(rate), "signature": sign,
             **{name: {"accuracy": _number(s.accuracy), "precision": _number(s.precision),
                       "recall": _number(s.recall), "f1": _number(s.f1)}
                for name, s in levels.items()}})


def _read(request: Request, positions: bool, strict: bool) -> tuple[list, list, str]:
    """The result's and the truth's items, and the truth's text (for the signature)."""
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.cged.inputs import read_items

    texts = {}

    def items(path: Input, what: str) -> list:
        texts[what] = read_source(path, what, request.encoding).text
        return read_items(texts[what], str(path), what, positions, strict)
    return items(request.system, "result"), items(_gold(request), "truth"), texts["truth"]


def _gold(request: Request) -> Input:
    if request.gold is None:
        raise UsageError("--metric cged needs GOLD (the truth file)")
    return request.gold


def _run_levels(request: Request) -> CgedScore:
    from m2lsp.scoring.cged.levels import (
        correction_level,
        evaluate,
        evaluate_2016,
        position_types,
    )
    from m2lsp.scoring.cged.report import report_2014, report_2015, report_2016, signature

    year = request.options.report
    result_items, truth_items, truth_text = _read(request, year != "2014", year is not None)
    line_end = "\r\n" if request.options.line_ends == "crlf" else "\n"
    if year == "2016":
        out = report_2016(evaluate_2016(result_items, truth_items), request.system.name,
                          _gold(request).name, line_end)
        return CgedScore(str(signature("2016")), report=out.encode("utf-8"))
    counting = request.options.counting or (
        "official" if year else counting_of(truth_text, _gold(request)))
    if counting == "2016":
        if year:
            raise UsageError(f"--cged-report {year} counts as its own tool does; "
                             "--cged-counting 2016 is --cged-report 2016's counting")
        result: Any = evaluate_2016(result_items, truth_items)
    else:
        result = evaluate(result_items, truth_items, counting)
        _warn_several(request, truth_items)
    if year:
        report = report_2014 if year == "2014" else report_2015
        return CgedScore(str(signature(counting)),
                         report=report(result, line_end).encode("utf-8"))
    return CgedScore(signed(signature(counting), truth_text), result,
                     correction_level(result_items, truth_items), counting,
                     types=position_types(result_items, truth_items))


WORDS = {"redundant", "missing", "selection", "disorder"}  # 2014-2015's error types
LETTERS = {"r", "m", "s", "w"}  # 2016 on


def counting_of(truth: str, path: Input) -> str:
    """The counting of the tool of the truth file's year, told by its error types: the
    2015 jar's (`official`) for type words (and for a truth of `correct` lines only), the
    2016 jar's for letters; a UsageError naming --cged-counting where they are mixed or
    neither."""
    kinds = set()
    for line in truth.splitlines():
        fields = [f.strip().lower() for f in line.split(",")]
        if len(fields) >= 4:
            kinds.add("words" if fields[3] in WORDS else
                      "letters" if fields[3] in LETTERS else "other")
        elif len(fields) == 2 and fields[1] in WORDS:  # 2014's `sid, Type`
            kinds.add("words")
    if kinds <= {"words"}:  # no error line at all: the countings differ little; 2015's
        return "official"
    if kinds == {"letters"}:
        return "2016"
    why = ("mixes type words and letters" if {"words", "letters"} <= kinds
           else "has error types that are neither")
    raise UsageError(f"the truth file {path} {why}, so its year's counting cannot be told: "
                     "name it with --cged-counting official (NLP-TEA 2014-2015's tool) or "
                     "2016 (2016 on)")


def _warn_several(request: Request, truth_items: list) -> None:
    """The 2015 counting keeps each id's last line: say so where the truth has more."""
    several = [sid for sid, n in Counter(i.sid for i in truth_items).items() if n > 1]
    if several and request.warn is not None:
        request.warn(f"warning: {len(several)} truth sentence(s) have several lines (first "
                     f"{several[0]!r}); the 2015 counting keeps only the last of each; "
                     "--cged-counting 2016 counts every error")


def _run_2018(request: Request) -> CgedScore:
    from m2lsp.files.writing import refuse_inputs
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.cged import evaluation2018 as cged2018

    inputs = [i for i in (request.system, request.gold, request.shared.source)
              if not isinstance(i, Text)]  # a text in memory is no file to write over
    if request.options.report_file:
        refuse_inputs(request.options.report_file, inputs)
    result_text = read_source(request.system, "result", request.encoding).text
    truth_text = read_source(_gold(request), "truth", request.encoding).text
    note = cged2018.crlf_note(request.gold, truth_text)
    if note is not None and request.warn is not None:
        request.warn(f"warning: {note}")
    result = cged2018.evaluate(cged2018.read_result(result_text),
                               cged2018.read_truth(truth_text))
    if request.options.report_file:
        path = request.options.report_file
        from m2lsp.files.writing import write_atomic

        try:
            write_atomic(path, cged2018.report_2018(result, str(request.system),
                                                    str(request.gold)).encode("utf-8"),
                         inputs=inputs)
        except OSError as exc:
            raise InputError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return CgedScore(str(Signature("CGED", (("scorer", "evaluation.pl-2018"),))),
                     report=cged2018.stdout_2018(result).encode("utf-8"))


METRIC = Cged()
