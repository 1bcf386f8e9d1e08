"""`m2lsp score` and the drop-in `m2scorer` command (the scorers' command line)."""

from __future__ import annotations

import argparse
import getopt
import sys
from collections.abc import Sequence
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR
from m2lsp.cli.inputs import read_text
from m2lsp.errors import InputError, M2lspError, UsageError
from m2lsp.parsing.m2 import parse_m2
from m2lsp.scoring.m2 import (
    Counts,
    M2Result,
    M2Settings,
    Score,
    SentenceResult,
    choose,
    corpus_score,
    score_all,
)
from m2lsp.scoring.m2_input import GoldWarning, gold_warnings, read_gold, read_system
from m2lsp.scoring.m2_report import summary, verbose


def add_commands(commands: argparse._SubParsersAction) -> None:
    score = commands.add_parser(
        "score", help="score a system against gold edits",
        description="Score a system's output against gold edits. --metric m2 (default): "
        "MaxMatch, identical to the NUS M2 scorer 3.2; SYSTEM is one tokenized sentence a "
        "line. --metric errant: span-based, identical to errant_compare 3.0.2; SYSTEM is the "
        "hypothesis edits in M2.")
    score.add_argument("system", type=Path,
                       help="system output: one tokenized sentence a line (m2), M2 (errant)")
    score.add_argument("gold", type=Path, help="gold (reference) M2 file")
    score.add_argument("--metric", choices=["m2", "errant", "cged", "cgec"], default="m2",
                       help="m2 (MaxMatch, default), errant (span-based), cged (NLP-TEA "
                       "CGED levels; SYSTEM is the result file, GOLD the truth file) or "
                       "cgec (Lin et al.: sentence accuracy, char BLEU, meaning "
                       "preservation; GOLD is M2, each annotator one reference)")
    score.add_argument("--cged-report", choices=["2014", "2015", "2016", "2018"],
                       help="print the report of that year's official CGED tool, byte for byte "
                       "(2014-2016: the jar's -o file; 2018: evaluation.pl's output)")
    score.add_argument("--cged-report-file", type=Path, metavar="FILE",
                       help="with --cged-report 2018, also write the report file "
                       "evaluation.pl writes")
    score.add_argument("--cged-counting", choices=["official", "paper", "2016"],
                       default="official",
                       help="official: as nlptea15cged.jar (one error per sentence; default); "
                       "paper: false positives as the NLP-TEA 2015 overview counts them; "
                       "2016: as nlptea16cged.jar (several errors per sentence)")
    score.add_argument("--cged-line-ends", choices=["lf", "crlf"], default="lf",
                       help="line ends of --cged-report (the official tools write the "
                       "platform's; the recorded reports are CRLF)")
    score.add_argument("-v", "--verbose", action="store_true",
                       help="print every sentence's edits, as the NUS scorer's -v does")
    score.add_argument("--very-verbose", action="store_true",
                       help="also print each sentence's lattice and weights")
    _add_m2_options(score)
    score.add_argument("--format", choices=["text", "json"], default="text",
                       help="text (the NUS scorer's output) or json")
    score.add_argument("--per-type", action="store_true",
                       help="also print P/R/F per error type of the gold edits")
    score.add_argument("--sentence-level", action="store_true",
                       help="also print each sentence's counts and P/R/F")
    score.add_argument("--bootstrap", type=int, default=0, metavar="N",
                       help="also print 95%% bootstrap intervals from N resamples")
    score.add_argument("--seed", type=int, default=12345, help="bootstrap seed (default 12345)")
    score.set_defaults(handler=run_score)

    compare = commands.add_parser(
        "compare", help="paired bootstrap test of two systems",
        description="Is system A's F better than system B's? A paired bootstrap test over "
        "sentences (same resamples for both systems).")
    compare.add_argument("system_a", type=Path)
    compare.add_argument("system_b", type=Path)
    compare.add_argument("gold", type=Path)
    _add_m2_options(compare)
    compare.add_argument("--samples", type=int, default=1000, help="resamples (default 1000)")
    compare.add_argument("--seed", type=int, default=12345, help="seed (default 12345)")
    compare.set_defaults(handler=run_compare)


def _add_m2_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-unchanged-words", type=int, default=2, metavar="N",
                        help="longest run of unchanged tokens inside one edit (default 2)")
    parser.add_argument("--beta", type=float, default=0.5, metavar="B",
                        help="weight of recall in the F-score (default 0.5)")
    parser.add_argument("--ignore-whitespace-casing", action="store_true",
                        help="drop system edits that only change whitespace or case")
    parser.add_argument("--encoding", help="encoding of the files (default: UTF-8)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="score with N processes (default 1)")
    parser.add_argument("--time-limit", type=float, default=5.0, metavar="SECONDS",
                        help="name sentences slower than this on stderr (default 5)")
    parser.add_argument("--max-lattice-memory", type=int,
                        default=M2Settings.max_lattice_memory, metavar="MIB",
                        help="stop with an error naming a sentence whose edit lattice would "
                        "need more than MIB MiB (default %(default)s; 0: no bound)")


def _settings(args: argparse.Namespace) -> M2Settings:
    if args.max_unchanged_words < 0 or args.beta <= 0:
        raise UsageError("--max-unchanged-words must be >= 0 and --beta > 0")
    if args.max_lattice_memory < 0:
        raise UsageError("--max-lattice-memory must be >= 0 (0: no bound)")
    if args.jobs < 1:
        raise UsageError("--jobs must be >= 1")
    return M2Settings(args.max_unchanged_words, args.beta, args.ignore_whitespace_casing,
                      args.max_lattice_memory)


def _positive(name: str, value: int, zero_means_off: bool) -> None:
    """A usage error for a count that cannot be used (negative, or 0 where 0 means nothing
    would be computed)."""
    if value < 0 or (value == 0 and not zero_means_off):
        least = "0 (none) or more" if zero_means_off else "at least 1"
        raise UsageError(f"{name} must be {least}, not {value}")


def run_score(args: argparse.Namespace) -> int:
    if args.metric == "errant":
        return run_errant(args)
    if args.metric == "cged":
        return run_cged(args)
    if args.metric == "cgec":
        return run_cgec(args)
    settings = _settings(args)
    _positive("--bootstrap", args.bootstrap, zero_means_off=True)
    job = Scoring(settings, args.encoding, args.jobs, args.time_limit)
    results = job.results(args.system, args.gold)
    if args.format == "json":
        sys.stdout.write(_json(results, args, settings, job.warnings.get(args.gold, [])))
        return EXIT_CLEAN
    chosen, total = choose(results, settings.beta)
    score = corpus_score(total, settings)
    if args.verbose or args.very_verbose:
        text, score = verbose(results, settings, lattices=args.very_verbose)
    else:
        text = summary(score)
    sys.stdout.write(text + _extras(chosen, score, args))
    return EXIT_CLEAN


# options of the M2 metric only, with their defaults
_M2_ONLY = {"very_verbose": False, "max_unchanged_words": 2, "ignore_whitespace_casing": False,
            "jobs": 1, "bootstrap": 0, "sentence_level": False}


def _refuse_m2_options(args: argparse.Namespace, also: dict[str, bool] | None = None,
                       hint: str = "") -> None:
    """A usage error naming every given option the metric does not take."""
    given = ["--" + name.replace("_", "-") for name, default in _M2_ONLY.items()
             if getattr(args, name) != default]
    given += [flag for flag, on in (also or {}).items() if on]
    if given:
        raise UsageError(f"not available with --metric {args.metric}: " + ", ".join(given)
                         + hint)


def run_errant(args: argparse.Namespace) -> int:
    """`--metric errant`: errant_compare's scores (-v, --beta, --per-type as its -cat 3)."""
    from m2lsp.cli.errant_compare import score_files
    from m2lsp.scoring.errant import ErrantSettings
    from m2lsp.scoring.errant_json import result_json
    from m2lsp.scoring.errant_report import report

    _refuse_m2_options(args, hint=" (`m2lsp errant-compare --help` lists errant_compare's "
                       "own options)")
    if args.beta <= 0:
        raise UsageError("--beta must be > 0")
    result = score_files(args.system, args.gold, ErrantSettings(beta=args.beta), args.encoding)
    if args.format == "json":
        sys.stdout.write(result_json(result, args.system, args.gold, args.per_type))
    else:
        sys.stdout.write(report(result, args.verbose, 3 if args.per_type else None))
    return EXIT_CLEAN


def run_cged(args: argparse.Namespace) -> int:
    """`--metric cged`: the NLP-TEA levels (RESULT TRUTH)."""
    from m2lsp.scoring.cged import correction_level, evaluate_2016
    from m2lsp.scoring.cged import evaluate as evaluate_cged
    from m2lsp.scoring.cged_input import read_items
    from m2lsp.scoring.cged_report import report_2014, report_2015, report_2016, summary

    _refuse_m2_options(args, {"--per-type": args.per_type})
    if args.cged_report == "2018":
        return _run_cged_2018(args)
    if args.cged_report_file:
        raise UsageError("--cged-report-file goes with --cged-report 2018")
    positions, strict = args.cged_report != "2014", args.cged_report is not None
    result_items = read_items(read_text(args.system, "result", args.encoding).text,
                              str(args.system), "result", positions, strict)
    truth_items = read_items(read_text(args.gold, "truth", args.encoding).text,
                             str(args.gold), "truth", positions, strict)
    line_end = "\r\n" if args.cged_line_ends == "crlf" else "\n"
    if args.cged_report == "2016":
        out = report_2016(evaluate_2016(result_items, truth_items), args.system.name,
                          args.gold.name, line_end)
        sys.stdout.buffer.write(out.encode("utf-8"))
        return EXIT_CLEAN
    if args.cged_counting == "2016":
        if args.cged_report:
            raise UsageError(f"--cged-report {args.cged_report} counts as its own tool does; "
                             "--cged-counting 2016 is --cged-report 2016's counting")
        result = evaluate_2016(result_items, truth_items)
    else:
        result = evaluate_cged(result_items, truth_items, args.cged_counting)
        _warn_several(truth_items)
    if args.cged_report:
        report = report_2014 if args.cged_report == "2014" else report_2015
        sys.stdout.buffer.write(report(result, line_end).encode("utf-8"))
        return EXIT_CLEAN
    correction = correction_level(result_items, truth_items)
    if args.format == "json":
        sys.stdout.write(_cged_json(result, correction, args))
    else:
        sys.stdout.write(summary(result, correction, args.cged_counting))
    return EXIT_CLEAN


def _warn_several(truth_items) -> None:
    """The 2015 counting keeps each id's last line: say so where the truth has more."""
    from collections import Counter

    several = [sid for sid, n in Counter(i.sid for i in truth_items).items() if n > 1]
    if several:
        print(f"m2lsp: warning: {len(several)} truth sentence(s) have several lines (first "
              f"{several[0]!r}); the 2015 counting keeps only the last of each; "
              "--cged-counting 2016 counts every error", file=sys.stderr)


def run_cgec(args: argparse.Namespace) -> int:
    """`--metric cgec`: Lin et al.'s metrics (SYSTEM one sentence a line, GOLD M2)."""
    import json

    from m2lsp.reading import corrected_sentence
    from m2lsp.scoring.cgec import SIGNATURE, evaluate

    _refuse_m2_options(args, {"-v": args.verbose, "--per-type": args.per_type})
    gold = parse_m2(read_text(args.gold, "gold", args.encoding))
    hypotheses = read_system(read_text(args.system, "system", args.encoding))
    blocks = [b for b in gold.blocks if b.sentence is not None]
    if len(blocks) != len(hypotheses):
        raise InputError(f"system file {args.system} has {len(hypotheses)} sentences but "
                         f"gold file {args.gold} has {len(blocks)}")
    sources = [b.sentence.text for b in blocks]
    references = [[r for a in dict.fromkeys(e.annotator.strip() for e in b.edits)
                   if (r := corrected_sentence(b, a)) is not None] for b in blocks]
    score = evaluate(sources, hypotheses, references)
    b = score.bleu
    if args.format == "json":
        sys.stdout.write(json.dumps({
            "metric": "cgec", "signature": SIGNATURE, "system": str(args.system),
            "gold": str(args.gold), "sentences": score.sentences,
            "acc_sen": score.accuracy, "exact": score.exact, "bleu": b.score,
            "bleu_precisions": list(b.precisions), "brevity_penalty": b.brevity_penalty,
            "hypothesis_length": b.hypothesis_length, "reference_length": b.reference_length,
            "mp": score.mp, "mp_average": score.mp_average, "mp_revised": score.mp_revised},
            indent=1) + "\n")
        return EXIT_CLEAN
    precisions = "/".join(f"{p:.4f}" for p in b.precisions)
    sys.stdout.write(
        f"Acc_sen : {score.accuracy:.4f} ({score.exact}/{score.sentences})\n"
        f"BLEU_c  : {b.score:.4f} (precisions {precisions}, BP {b.brevity_penalty:.4f}, "
        f"length {b.hypothesis_length}/{b.reference_length})\n"
        f"MP      : {score.mp:.4f}\n"
        f"MP_avg  : {score.mp_average:.4f} (references against their sources)\n"
        f"MP'     : {score.mp_revised:.4f}\n{SIGNATURE}\n")
    return EXIT_CLEAN


def _run_cged_2018(args: argparse.Namespace) -> int:
    from m2lsp.scoring import cged2018

    result = cged2018.evaluate(
        cged2018.read_result(read_text(args.system, "result", args.encoding).text),
        cged2018.read_truth(read_text(args.gold, "truth", args.encoding).text))
    if args.cged_report_file:
        try:
            args.cged_report_file.write_bytes(
                cged2018.report_2018(result, str(args.system), str(args.gold)).encode("utf-8"))
        except OSError as exc:
            raise InputError(f"cannot write {args.cged_report_file}: "
                             f"{exc.strerror or exc}") from exc
    sys.stdout.buffer.write(cged2018.stdout_2018(result).encode("utf-8"))
    return EXIT_CLEAN


def _cged_json(result, correction, args: argparse.Namespace) -> str:
    import json

    from m2lsp.scoring.cged import LEVELS
    from m2lsp.scoring.cged_report import signature

    def number(value: float) -> float | None:  # NaN (a 0/0) is not JSON
        return None if value != value else value

    rate = result.false_positive_rate[0]
    data = {"metric": "cged", "signature": signature(args.cged_counting),
            "system": str(args.system), "gold": str(args.gold),
            "false_positive_rate": number(rate), "levels": {}}
    for level in LEVELS:
        s = result.score(level)
        data["levels"][level] = {
            "accuracy": number(s.accuracy), "precision": number(s.precision),
            "recall": number(s.recall), "f1": number(s.f1), "true_positives": s.tp,
            "false_positives": s.fp, "false_negatives": s.fn}
        outcomes = getattr(result, "levels", {}).get(level)
        if outcomes is not None:  # the 2015 counting judges each line: which ids where
            data["levels"][level].update({name: getattr(outcomes, name)
                                          for name in ("tp", "fp", "tn", "fn")})
    data["levels"]["correction"] = {
        "precision": number(correction.precision), "recall": number(correction.recall),
        "f1": number(correction.f1), "true_positives": correction.tp,
        "claimed": correction.claimed, "expected": correction.expected}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _extras(chosen: list[SentenceResult], score: Score, args: argparse.Namespace) -> str:
    if not (args.per_type or args.sentence_level or args.bootstrap):
        return ""
    # imported here: the plain score (the drop-in m2scorer's whole job) does without them
    from m2lsp.scoring.bootstrap import confidence
    from m2lsp.scoring.breakdown import per_type, per_type_text, sentence_text

    beta = score.settings.beta
    parts = []
    if args.per_type:
        parts.append("\n" + per_type_text(per_type(chosen), beta))
    if args.sentence_level:
        parts.append("\n" + sentence_text(chosen, beta))
    if args.bootstrap:
        ci = confidence([s.best.counts for s in chosen], _stats(score.settings),
                        args.bootstrap, args.seed)
        parts.append(f"\n95% bootstrap intervals ({ci.samples} resamples of sentences, "
                     f"seed {ci.seed}):\n"
                     f"Precision   : [{ci.precision.low:.4f}, {ci.precision.high:.4f}]\n"
                     f"Recall      : [{ci.recall.low:.4f}, {ci.recall.high:.4f}]\n"
                     f"F_{beta:.1f}       : [{ci.f.low:.4f}, {ci.f.high:.4f}]\n")
    if parts:
        parts.append(f"\n{score.signature}\n")
    return "".join(parts)


def _stats(settings: M2Settings):
    def stats(correct: int, proposed: int, gold: int) -> tuple[float, float, float]:
        s = corpus_score(Counts(correct, proposed, gold), settings)
        return s.precision, s.recall, s.f
    return stats


def _json(results: list[SentenceResult], args: argparse.Namespace,
          settings: M2Settings, warnings: list[GoldWarning]) -> str:
    from m2lsp.scoring.bootstrap import confidence
    from m2lsp.scoring.breakdown import per_type
    from m2lsp.scoring.m2_json import result_json

    chosen, total = choose(results, settings.beta)
    score = corpus_score(total, settings)
    extra: dict = {"gold_warnings": [
        {"kind": w.kind, "count": w.count, "lines": [line + 1 for line in w.lines],
         "message": w.describe()} for w in warnings]}
    if args.per_type:
        extra["per_type"] = [{"type": r.type, "true_positives": r.true_positives,
                              "false_positives": r.false_positives,
                              "false_negatives": r.false_negatives,
                              **dict(zip(("precision", "recall", "f"), r.scores(settings.beta),
                                         strict=True))}
                             for r in per_type(chosen)]
    if args.bootstrap:
        ci = confidence([s.best.counts for s in chosen], _stats(settings), args.bootstrap,
                        args.seed)
        extra["bootstrap"] = {"samples": ci.samples, "seed": ci.seed, "level": ci.level,
                              "precision": [ci.precision.low, ci.precision.high],
                              "recall": [ci.recall.low, ci.recall.high],
                              "f": [ci.f.low, ci.f.high]}
    return result_json(M2Result(chosen, score), args.system, args.gold, extra)


def run_compare(args: argparse.Namespace) -> int:
    from m2lsp.scoring.bootstrap import compare

    settings = _settings(args)
    _positive("--samples", args.samples, zero_means_off=False)
    job = Scoring(settings, args.encoding, args.jobs, args.time_limit)
    counts = []
    for system in (args.system_a, args.system_b):
        chosen, _ = choose(job.results(system, args.gold), settings.beta)
        counts.append([s.best.counts for s in chosen])
    found = compare(counts[0], counts[1], _stats(settings), args.samples, args.seed)
    beta = settings.beta
    sys.stdout.write(
        f"A: {args.system_a}  F_{beta:.1f} = {found.f_a:.4f}\n"
        f"B: {args.system_b}  F_{beta:.1f} = {found.f_b:.4f}\n"
        f"A - B = {found.f_a - found.f_b:+.4f}, 95% interval "
        f"[{found.difference.low:+.4f}, {found.difference.high:+.4f}]\n"
        f"p = {found.p_value:.4f} (paired bootstrap, {found.samples} resamples of sentences, "
        f"seed {found.seed}: how often the resampled difference does not keep its sign)\n"
        f"{settings.signature()}\n")
    return EXIT_CLEAN


class Scoring:
    """Reading, checking and scoring one system at a time (gold read once).  Gold edits that
    change the score without saying so are warned about on stderr (`warn`) when the gold is
    read."""

    def __init__(self, settings: M2Settings, encoding: str | None = None, jobs: int = 1,
                 time_limit: float = 5.0, warn: bool = True) -> None:
        self.settings, self.encoding = settings, encoding
        self.jobs, self.time_limit, self.warn = jobs, time_limit, warn
        self._gold: dict[Path, list] = {}
        self.warnings: dict[Path, list[GoldWarning]] = {}

    def gold(self, path: Path) -> list:
        if path not in self._gold:
            source = read_text(path, "gold", self.encoding)
            self._gold[path] = read_gold(parse_m2(source), source, str(path))
            self.warnings[path] = gold_warnings(self._gold[path])
            if self.warn:
                _warn_gold(path, self.warnings[path])
        return self._gold[path]

    def results(self, system_path: Path, gold_path: Path) -> list[SentenceResult]:
        gold = self.gold(gold_path)
        hypotheses = read_system(read_text(system_path, "system", self.encoding))
        if len(gold) != len(hypotheses):
            raise InputError(count_mismatch(gold, hypotheses, system_path, gold_path))
        from m2lsp.cli.progress import Ticker

        with Ticker(len(gold)) as ticker:
            return score_all(gold, hypotheses, self.settings, self.jobs, _note_slow,
                             self.time_limit, ticker.at)


def _warn_gold(path: Path, warnings: list[GoldWarning]) -> None:
    for warning in warnings:
        print(f"m2lsp: warning: {path}: {warning.describe()}", file=sys.stderr)
    if warnings:
        print(f"m2lsp: the scores count these edits as the NUS M2 scorer 3.2 does; "
              f"`m2lsp check {path}` lists every problem of the gold", file=sys.stderr)


def _note_slow(result: SentenceResult, seconds: float) -> None:
    print(f"m2lsp: note: sentence {result.index + 1} (gold line {result.line + 1}) took "
          f"{seconds:.1f} s; its result is exact", file=sys.stderr)


def score_files(system_path: Path, gold_path: Path, settings: M2Settings,
                verbose_output: bool = False, encoding: str | None = None) -> str:
    """The NUS scorer's output for one system (summary, or with -v the full report)."""
    results = Scoring(settings, encoding, warn=False).results(system_path, gold_path)
    if verbose_output:
        return verbose(results, settings)[0]
    _, total = choose(results, settings.beta)
    return summary(corpus_score(total, settings))


def count_mismatch(gold: Sequence, hypotheses: Sequence[str], system_path: Path,
                   gold_path: Path) -> str:
    """Both counts, and the first sentence where the files stop lining up."""
    line = first_divergence([g.source for g in gold], hypotheses)
    where = ""
    if line is not None:
        gold_line = gold[line].line + 1 if line < len(gold) else None
        where = (f"; they stop lining up at system line {line + 1}"
                 + (f" (gold S line {gold_line})" if gold_line else ""))
    return (f"system file {system_path} has {len(hypotheses)} sentences but gold file "
            f"{gold_path} has {len(gold)}{where}")


def first_divergence(sources: Sequence[str], hypotheses: Sequence[str]) -> int | None:
    """The first index from which hypotheses look more like a shifted source than their own
    (a sentence lost or added), or the end of the shorter file."""
    def overlap(a: str, b: str) -> float:
        x, y = set(a.split()), set(b.split())
        return len(x & y) / max(len(x | y), 1)

    for index in range(min(len(sources), len(hypotheses))):
        own = overlap(sources[index], hypotheses[index])
        shifted = max(overlap(sources[index + 1], hypotheses[index])
                      if index + 1 < len(sources) else 0.0,
                      overlap(sources[index - 1], hypotheses[index]) if index else 0.0)
        if shifted > own + 0.2:
            return index
    return min(len(sources), len(hypotheses))


# ---------------------------------------------------------------------------------------
# m2scorer: the NUS scorer's own command line

USAGE = """Usage: m2scorer.py [OPTIONS] proposed_sentences gold_source
where
  proposed_sentences   -   system output, sentence per line
  source_gold          -   source sentences with gold token edits
OPTIONS
  -v    --verbose                   -  print verbose output
        --very_verbose              -  print lots of verbose output
        --max_unchanged_words N     -  Maximum unchanged words when extraction edit. Default 2.
        --beta B                    -  Beta value for F-measure. Default 0.5.
        --ignore_whitespace_casing  -  Ignore edits that only affect whitespace and caseing. Default no.
"""  # noqa: E501


def m2scorer_main(argv: Sequence[str] | None = None) -> int:
    """`m2scorer [OPTIONS] SYSTEM GOLD`, with the NUS scorer's flags, output and exit codes
    (an unknown option or a wrong argument count prints its usage and exits with 255)."""
    import gc

    gc.disable()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        opts, args = getopt.getopt(argv, "v", ["max_unchanged_words=", "beta=", "verbose",
                                               "ignore_whitespace_casing", "very_verbose",
                                               "max_lattice_memory="])
        settings, loud = _m2scorer_options(opts)
    except (getopt.GetoptError, UsageError, ValueError) as exc:
        print(exc, file=sys.stderr)
        sys.stderr.write(USAGE)
        return 255
    if len(args) != 2:
        sys.stderr.write(USAGE)
        return 255
    try:
        sys.stdout.write(score_files(Path(args[0]), Path(args[1]), settings, loud))
    except M2lspError as exc:
        message = str(exc).replace("--max-lattice-memory", "--max_lattice_memory")
        print(f"m2scorer: error: {message}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_CLEAN


def _m2scorer_options(opts: list[tuple[str, str]]) -> tuple[M2Settings, bool]:
    max_unchanged, beta, ignore, loud = 2, 0.5, False, False
    memory = M2Settings.max_lattice_memory
    for option, value in opts:
        if option in ("-v", "--verbose", "--very_verbose"):
            loud = True
        elif option == "--max_unchanged_words":
            max_unchanged = int(value)
        elif option == "--beta":
            beta = float(value)
        elif option == "--ignore_whitespace_casing":
            ignore = True
        elif option == "--max_lattice_memory":  # m2lsp's own: the bound on one lattice
            memory = int(value)
    return M2Settings(max_unchanged, beta, ignore, memory), loud
