"""`m2lsp annotate` (a source and its corrections to M2 edits) and `m2lsp errant-parallel`, a
drop-in for errant_parallel (errant 3.0.2): same flags, same output file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import InputError, UsageError

if TYPE_CHECKING:
    from m2lsp.annotation.parallel import ParallelText


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_annotate(commands)
    _add_errant_parallel(commands)


def _add_annotate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "annotate", help="align a source with its corrections and write the edits as M2",
        description="A source file and one or more corrected files (one sentence a line) "
        "to M2: English as errant_parallel writes it, with ERRANT (needs m2lsp[errant] "
        "and a spaCy pipeline); Chinese (--lang zh) as ChERRANT's parallel_to_m2.py -g "
        "char writes it (needs m2lsp[zh] and ChERRANT's tables, --cherrant-data); any "
        "other language (--lang fr, es, cs, ...) as MultiGEC-2025 annotated it, ERRANT's "
        "English merger and classifier over a UD parse from an installed spaCy pipeline "
        "(--spacy-model, or the setting spacy-models) or from CoNLL-U files "
        "(--orig-conllu, --cor-conllu). Each corrected file is one annotator (0, 1, ...).")
    parser.add_argument("--orig", type=Path, help="the source text file")
    parser.add_argument("--cor", nargs="+", type=Path,
                        help="one or more corrected text files (system outputs or references)")
    parser.add_argument("--parallel", type=Path,
                        help="--lang zh: ChERRANT's input instead of --orig and --cor, one "
                        "line per sentence: id<TAB>source<TAB>target<TAB>...")
    parser.add_argument("--pairs", type=Path, metavar="FILE",
                        help="instead of --orig and --cor: one file of pairs, TSV "
                        "(source<TAB>correction<TAB>..., a column per annotator) or JSONL "
                        "({\"source\": ..., \"corrections\": [...]} a line)")
    parser.add_argument("--pairs-format", choices=["tsv", "jsonl"],
                        help="the format of --pairs (default: jsonl for .jsonl/.json/.ndjson, "
                        "else tsv)")
    parser.add_argument("-o", "--output", type=Path, help="write here (default: stdout); "
                        "with --each, the folder to write into. Written in shards beside it "
                        "(.NAME.m2lsp-parts/): a stopped run started again continues where "
                        "it stopped")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="annotate on a Dask cluster (needs m2lsp[dask]): the address of "
                        "its scheduler; each worker loads the pipeline once")
    parser.add_argument("--scheduler-timeout", type=arguments.SECONDS, default=30.0,
                        metavar="SECONDS", help="how long to try to reach --scheduler "
                        "(default: %(default)g)")
    parser.add_argument("--each", action="store_true",
                        help="one M2 file per corrected file, as errant_parallel run on each "
                        "(written into the folder -o as NAME.m2), in one run: the sources "
                        "are parsed once")
    parser.add_argument("--lang", type=_language, default="en", metavar="CODE",
                        help="the language (en: ERRANT; zh: ChERRANT at char level; any "
                        "other code, fr, es, cs...: ERRANT over a UD parse, as MultiGEC-2025)")
    parser.add_argument("--orig-conllu", type=Path, metavar="FILE",
                        help="the source's parse, CoNLL-U (Stanza, UDPipe, Trankit), one "
                        "sentence per line of --orig, in order: no pipeline is loaded")
    parser.add_argument("--cor-conllu", nargs="+", type=Path, metavar="FILE",
                        help="the corrected files' parses, CoNLL-U, as --orig-conllu")
    _add_errant_flags(parser, "--tok", "--lev", "--merge")
    parser.add_argument("--cherrant-data", type=Path, metavar="DIR",
                        help="--lang zh: the data/ folder of a ChERRANT checkout (default: "
                        "the setting cherrant-data, else $M2LSP_CHERRANT_DATA)")
    parser.add_argument("--no-simplified", action="store_true",
                        help="--lang zh: keep Traditional characters in the targets "
                        "(parallel_to_m2 --no_simplified)")
    parser.add_argument("--strategy", choices=["all", "first"], default="all",
                        help="--lang zh: every distinct cheapest alignment (all, the default) "
                        "or only the first (parallel_to_m2 -s)")
    parser.add_argument("--granularity", choices=["char", "word"], default="char",
                        help="--lang zh: char (word level, with LTP, is not reproduced)")
    parser.add_argument("--spacy-model", help="the spaCy pipeline (default: the setting "
                        f"spacy-model, else {defaults.SPACY_MODEL}; another --lang: the "
                        "setting spacy-models, else the one pipeline of the language "
                        "installed)")
    parser.add_argument("--jobs", type=arguments.JOBS, help="processes that annotate in parallel "
                        "(default: the cores this process may use; 1: this process only)")
    parser.add_argument("--config", type=Path, help="a pyproject.toml to read [tool.m2lsp] "
                        "from (default: the nearest one above the source)")
    parser.add_argument("--encoding", help="encoding of the text files (default: UTF-8)")
    parser.set_defaults(handler=run_annotate)


def _add_errant_parallel(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "errant-parallel", help="errant_parallel's annotation of parallel text as M2",
        description="Align parallel text files and extract and classify the edits, as "
        "errant_parallel (errant 3.0.2) does, with its flags spelled as it spells them.",
        formatter_class=argparse.RawTextHelpFormatter,
        usage="%(prog)s [-h] [options] -orig ORIG -cor COR [COR ...] -out OUT")
    parser.add_argument("-orig", required=True, help="The path to the original text file.")
    parser.add_argument("-cor", required=True, nargs="+", default=[],
                        help="The paths to >= 1 corrected text files.")
    parser.add_argument("-out", required=True, help="The output filepath.")
    _add_errant_flags(parser, "-tok", "-lev", "-merge")
    parser.add_argument("--spacy-model", default=None,
                        help=f"the spaCy pipeline (default: {defaults.SPACY_MODEL})")
    parser.add_argument("--jobs", type=arguments.JOBS, help="processes that annotate in parallel "
                        "(default: the cores this process may use)")
    parser.set_defaults(handler=run_errant_parallel)


def _add_errant_flags(parser: argparse.ArgumentParser, tok: str, lev: str,
                      merge: str) -> None:
    parser.add_argument(tok, dest="tok", action="store_true",
                        help="Word tokenise the text using spacy (default: False).")
    parser.add_argument(lev, dest="lev", action="store_true",
                        help="Align using standard Levenshtein (default: False).")
    parser.add_argument(merge, dest="merge", choices=defaults.MERGES,
                        default=defaults.MERGES[0],
                        help="Choose a merging strategy for automatic alignment.\n"
                        "rules: Use a rule-based merging strategy (default)\n"
                        "all-split: Merge nothing: MSSDI -> M, S, S, D, I\n"
                        "all-merge: Merge adjacent non-matches: MSSDI -> M, SSDI\n"
                        "all-equal: Merge adjacent same-type non-matches: MSSDI -> M, SS, D, I")


def _language(text: str) -> str:
    if not (text.isalpha() and text.islower() and 2 <= len(text) <= 3):
        raise argparse.ArgumentTypeError(f"a language code (en, zh, fr, es, cs, ...), not "
                                         f"{text!r}")
    return text


def run_annotate(args: argparse.Namespace) -> int:
    from m2lsp.config import config_for
    from m2lsp.files.writing import refuse_inputs

    _check_inputs(args)
    if args.output is not None and not args.each:
        refuse_inputs(args.output, _inputs(args))
    config = config_for([args.parallel or args.orig or args.pairs], args.config)
    settings = _settings(args, config)
    if args.each:
        return _each(args, settings)
    if args.parallel is not None:
        text = _read_cherrant(args.parallel, args.encoding)
        _check_script(settings, _sample(text))
        _write(_started(text, settings, _jobs(args)), args.output, _inputs(args))
        return EXIT_CLEAN
    essays = _essays(args)
    if essays is not None:
        if getattr(settings, "tokenise", False):
            import dataclasses

            print("m2lsp: warning: --tok not applied: essays are tokenised with syntok, as "
                  "the shared task tokenised them", file=sys.stderr)
            settings = dataclasses.replace(settings, tokenise=False)
        _check_script(settings, _sample(essays))
        _write(_started(essays, settings, _jobs(args)), args.output, _inputs(args))
        return EXIT_CLEAN
    _stream(_row_source(args), settings, _jobs(args), args.output, _inputs(args),
            _scheduler(args))
    return EXIT_CLEAN


def _scheduler(args: argparse.Namespace) -> Any:
    """The scheduler, its address checked and its answer heard now: before the cache is
    read (a run whose every block is cached would never ask it), within the timeout."""
    if args.scheduler is None:
        return None
    from m2lsp.annotation.distributed import Scheduler, check

    scheduler = Scheduler(args.scheduler, args.scheduler_timeout)
    check(scheduler)
    return scheduler


def _row_source(args: argparse.Namespace) -> Any:
    from m2lsp.annotation.rows import FileRows, PairRows, pairs_format

    if args.pairs is not None:
        return PairRows(args.pairs, pairs_format(args.pairs, args.pairs_format), args.encoding)
    return FileRows(args.orig, tuple(args.cor), args.encoding)


def _stream(source: Any, settings: Any, jobs: int, output: Path | None, inputs: list[Path],
            scheduler: Any = None, announce: bool = False) -> None:
    """The rows read once to check them, then annotated as a stream: into `output` in
    shards (a stopped run resumes), or to stdout."""
    from m2lsp.annotation.annotators import length_problem
    from m2lsp.annotation.chunks import CHUNK_ROWS
    from m2lsp.annotation.rows import check
    from m2lsp.annotation.shards import SHARD_ROWS, annotate_to
    from m2lsp.cli.progress import Rate

    checked = check(source, SHARD_ROWS, lambda text, cors: length_problem(settings, text, cors))
    _check_script(settings, checked.sample)
    jobs = min(jobs, -(-checked.count // CHUNK_ROWS))  # no more workers than chunks
    if checked.bom:
        _warn_bom(source.paths[0])
    if announce:
        print("Processing parallel files...", flush=True)
    from m2lsp.files.writing import atomic_open, target_of

    if output is None:
        _to_stdout(source, settings, jobs, scheduler, checked.count, sys.stdout.write)
        return
    if target_of(output).stream:  # a pipe or a device: written through, nothing to resume
        with atomic_open(output, inputs=inputs) as out:
            _to_stdout(source, settings, jobs, scheduler, checked.count, out.write)
        return
    try:
        annotate_to(output, source.rows, checked, [*inputs], settings, jobs,
                    kind=type(source).__name__, scheduler=scheduler,
                    progress=lambda total, start: Rate(total, start=start))
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None


def _to_stdout(source: Any, settings: Any, jobs: int, scheduler: Any, count: int,
               write: Callable[[str], object]) -> None:
    """The blocks, as they are made, to `write` (stdout, or a pipe or device named by -o)."""
    from m2lsp.annotation.chunks import chunked
    from m2lsp.annotation.running import run_chunks
    from m2lsp.cli.progress import Rate

    done = 0
    with Rate(count) as tick:
        workers = jobs if scheduler is None else 1
        for blocks in run_chunks(chunked(source.rows(), total=count, workers=workers),
                                 settings, jobs, scheduler):
            for block in blocks:
                if block is not None:
                    write(block)
            done += len(blocks)
            tick.at(done - 1)


def _inputs(args: argparse.Namespace) -> list[Path]:
    """Every file the command reads: none of them is ever an output."""
    from m2lsp.cli.inputs import input_paths

    return input_paths(args, "output")


def _check_inputs(args: argparse.Namespace) -> None:
    """The flags that go together, or an error saying which do not."""
    if args.pairs is not None:
        if args.orig or args.cor or args.each or args.parallel:
            raise UsageError("--pairs replaces --orig and --cor (and --each, --parallel)")
    elif args.pairs_format is not None:
        raise UsageError("--pairs-format goes with --pairs")
    elif args.parallel is not None:
        if args.lang != "zh":
            raise UsageError("--parallel reads ChERRANT's id<TAB>source<TAB>target file: "
                             "use it with --lang zh")
        if args.orig or args.cor or args.each:
            raise UsageError("--parallel replaces --orig and --cor (and --each)")
    if args.scheduler is not None and (args.each or args.parallel is not None):
        raise UsageError("--scheduler annotates --orig/--cor or --pairs (not --each or "
                         "--parallel)")
    if args.pairs is None and args.parallel is None and (args.orig is None or not args.cor):
        raise UsageError("name the source with --orig and the corrected files with --cor "
                         "(or a file of pairs with --pairs)"
                         + (" (or ChERRANT's file with --parallel)" if args.lang == "zh"
                            else ""))
    english = [flag for flag, on in (("--tok", args.tok), ("--lev", args.lev),
                                     ("--merge", args.merge != defaults.MERGES[0]),
                                     ("--spacy-model", args.spacy_model)) if on]
    chinese = [flag for flag, on in (("--cherrant-data", args.cherrant_data),
                                     ("--no-simplified", args.no_simplified),
                                     ("--strategy", args.strategy != "all"),
                                     ("--granularity", args.granularity != "char")) if on]
    if args.lang == "zh" and english:
        raise UsageError(f"{', '.join(english)}: ERRANT's options, not for --lang zh")
    _check_conllu(args)
    if args.lang == "en" and chinese:
        raise UsageError(f"{', '.join(chinese)}: ChERRANT's options, for --lang zh")
    if args.granularity == "word":
        raise UsageError("--granularity word: ChERRANT's word level segments with LTP, which "
                         "m2lsp does not reproduce; char level is the default")


def _check_conllu(args: argparse.Namespace) -> None:
    """CoNLL-U files go together, with --orig and --cor, one per file, and replace a
    pipeline."""
    given = args.orig_conllu is not None or args.cor_conllu
    if not given:
        return
    if args.lang in ("en", "zh"):
        raise UsageError("--orig-conllu and --cor-conllu parse another language than en "
                         "and zh (--lang fr, es, cs, ...): ERRANT's English and ChERRANT "
                         "parse their own")
    if args.spacy_model:
        raise UsageError("--spacy-model or CoNLL-U files: the parse comes from one of them")
    if args.orig_conllu is None or not args.cor_conllu or args.orig is None or not args.cor \
            or len(args.cor_conllu) != len(args.cor):
        raise UsageError("CoNLL-U parses: --orig-conllu for --orig and one --cor-conllu "
                         "for each --cor file, in the same order")


def _settings(args: argparse.Namespace, config: Any) -> Any:
    from m2lsp.annotation.parallel import settings_for

    conllu = [*([args.orig_conllu] if args.orig_conllu else []), *(args.cor_conllu or [])]
    return settings_for(args.lang, config.score, spacy_model=args.spacy_model,
                        cherrant_data=args.cherrant_data,
                        english=(args.tok, args.lev, args.merge),
                        chinese=(not args.no_simplified, args.strategy), conllu=conllu)


def _read_cherrant(path: Path, encoding: str | None) -> ParallelText:
    from m2lsp.annotation.parallel import read_cherrant

    return read_cherrant(path, encoding)


def _each(args: argparse.Namespace, settings: Any) -> int:
    """Each corrected file's M2 in the folder -o, from one pipeline and one cache."""
    from m2lsp.annotation.parallel import annotate_each
    from m2lsp.cli.progress import Ticker

    if args.output is None:
        raise UsageError("--each writes one file per corrected file: name a folder with -o")
    names = [args.output / f"{path.name}.m2" for path in args.cor]
    if len(set(names)) < len(names):
        raise UsageError("--each: two corrected files have the same name")
    from m2lsp.files.writing import refuse_inputs

    for name in names:
        refuse_inputs(name, _inputs(args))
    texts = [_read(args, [path], settings) for path in args.cor]
    blocks = annotate_each(texts, settings, _jobs(args),
                           lambda total: Ticker(total, what="line", stalls=False))
    outputs: dict[int, list[str]] = {i: [] for i in range(len(names))}
    for which, block in blocks:
        outputs[which].append(block)
    args.output.mkdir(parents=True, exist_ok=True)
    for which, path in enumerate(names):
        _write(outputs[which], path, _inputs(args))
    return EXIT_CLEAN


def _read(args: argparse.Namespace, cors: list[Path], settings: Any) -> ParallelText:
    from m2lsp.annotation.parallel import read_parallel

    text = read_parallel(args.orig, cors, args.encoding)
    _warn_about(args.orig, text)
    _check_script(settings, _sample(text))
    return text


def _essays(args: argparse.Namespace) -> ParallelText | None:
    """MultiGEC-2025 essay files (--orig and --cor each `### essay_id = N` Markdown) as
    parallel text, one essay a line: paired by id and tokenised as the shared task did
    (syntok; formats.multigec.parser.aligned), what it filled in said.  None: not essay files."""
    if args.orig is None or not args.cor:
        return None
    from m2lsp.annotation.parallel import ParallelText
    from m2lsp.formats.multigec.parser import corrected_columns, is_essays
    from m2lsp.parsing.source import read_source

    orig = read_source(args.orig, "original", args.encoding).text
    if not is_essays(orig):
        return None
    texts = [read_source(path, "corrected", args.encoding).text for path in args.cor]
    sources, columns, notes = corrected_columns(orig, texts, [str(p) for p in args.cor])
    for note in notes:
        print(f"m2lsp: warning: {note}", file=sys.stderr)
    return ParallelText(sources, columns)


def _sample(text: ParallelText) -> str:
    return "\n".join(line for row in text.rows()[:2000] for line in (row[0], *row[1]))


def _check_script(settings: Any, sample: str) -> None:
    """Chinese for English is refused (a UsageError); another mismatch is a warning."""
    from m2lsp.annotation.annotators import script_problem, spacing_problem

    for warning in (script_problem(settings, sample), spacing_problem(settings, sample)):
        if warning is not None:
            print(f"m2lsp: {warning}", file=sys.stderr)


def _jobs(args: argparse.Namespace) -> int:
    from m2lsp.annotation.parallel import default_jobs

    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return args.jobs or default_jobs()


def run_errant_parallel(args: argparse.Namespace) -> int:
    from m2lsp.annotation.english import EnglishSettings
    from m2lsp.files.writing import refuse_inputs

    inputs = [Path(args.orig), *(Path(c) for c in args.cor)]
    refuse_inputs(args.out, inputs)
    print("Loading resources...")
    settings = EnglishSettings(args.tok, args.lev, args.merge, args.spacy_model)
    from m2lsp.annotation.rows import FileRows

    _stream(FileRows(Path(args.orig), tuple(Path(c) for c in args.cor)), settings,
            _jobs(args), Path(args.out), inputs, announce=True)
    return EXIT_CLEAN


def _started(text: ParallelText, settings: Any, jobs: int, announce: bool = False
             ) -> Iterable[str]:
    """The blocks, the first already made (loading the pipeline or the tables: their
    errors come before any output)."""
    from m2lsp.annotation.parallel import annotate
    from m2lsp.cli.progress import Ticker

    blocks = annotate(text, settings, jobs,
                      lambda total: Ticker(total, what="line", stalls=False))
    first = next(iter(blocks), None)
    if announce:
        print("Processing parallel files...", flush=True)
    return _chain(first, blocks)


def _chain(first: str | None, rest: Iterable[str]) -> Iterable[str]:
    if first is not None:
        yield first
    yield from rest


def _warn_about(orig: Path, text: ParallelText) -> None:
    if text.sources and text.sources[0].startswith("\ufeff"):
        _warn_bom(orig)


def _warn_bom(orig: Path) -> None:
    print(f"m2lsp: warning: {orig} starts with a byte-order mark; the reference tools keep "
          f"it as part of the first word, and so does this output", file=sys.stderr)


def _write(blocks: Iterable[str], output: Path | None, inputs: list[Path]) -> None:
    """The blocks to stdout, or to `output` whole or not at all (never over an input)."""
    from m2lsp.files.writing import atomic_open

    if output is None:
        for block in blocks:
            sys.stdout.write(block)
        return
    try:
        with atomic_open(output, inputs=inputs) as out:
            for block in blocks:
                out.write(block)
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None
