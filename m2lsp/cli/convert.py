"""`m2lsp convert`: between CGED SGML, CGED truth files, char-level M2 and parallel text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_FINDINGS
from m2lsp.cli.inputs import read_text
from m2lsp.errors import InputError, UsageError

TARGETS = {"m2": ("cged",), "cged": ("m2",), "truth": ("cged", "m2"), "parallel": ("m2",),
           "brat": ("m2",), "bea-json": ("m2",)}


def add_commands(commands: argparse._SubParsersAction) -> None:
    convert = commands.add_parser(
        "convert", help="convert between M2, CGED, parallel text, brat, BEA-2019 JSON, "
        "UA-GEC and MultiGEC essays",
        description="CGED SGML -> char-level M2 or truth file; M2 -> CGED SGML, truth file, "
        "parallel text (source, then each annotator's correction, tab separated), brat "
        "standoff or BEA-2019 JSON; parallel text -> M2, annotated as `m2lsp annotate` does "
        "(English with ERRANT, Chinese at char level as ChERRANT); brat (X.ann beside X.txt) "
        "-> M2; BEA-2019 JSON essays -> M2 as the release's json_to_m2.py -gold; MultiGEC "
        "essays (ORIG.md --cor REF.md) -> parallel text. Offsets: CGED start_off..end_off "
        "(1-based) is the M2 span start-1 end; an M error at k is the insertion point k-1. "
        "UA-GEC's annotated texts (DOC.aN.ann, or its annotated/ folder: every document, its "
        "annotators together) -> M2 or parallel text, over the corpus's tokenised sentences "
        "beside annotated/. What each is exact against: docs/formats.md.")
    convert.add_argument("input", type=Path, help="a CGED SGML/XML, M2, parallel text or "
                         "UA-GEC .ann file (or UA-GEC's annotated/ folder)")
    convert.add_argument("--to", required=True, choices=sorted(TARGETS),
                         help="what to write")
    convert.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    convert.add_argument("--annotator", help="M2 -> CGED: whose edits (default: each "
                         "sentence's first annotator)")
    convert.add_argument("--ids", type=Path, help="M2 -> CGED: a file of sentence ids, one a "
                         "line (default: 1, 2, ...)")
    convert.add_argument("--cor", type=Path, nargs="+", metavar="REF.md",
                         help="MultiGEC essays -> parallel: the corrected essay files (the "
                         "input is the original's); essays are paired by id and tokenised "
                         "as the shared task did (syntok), one essay a line")
    convert.add_argument("--no-spaces", action="store_true",
                         help="parallel: join tokens without spaces (char-level Chinese)")
    convert.add_argument("--header", action="store_true",
                         help="parallel: a first line naming the columns (source, annotator "
                         "0, annotator 1, ...); without it the columns are the same and "
                         "said on stderr")
    convert.add_argument("--detection-only", action="store_true",
                         help="CGED -> M2: write errors that have no correction as UNK edits "
                         "whose correction is the original text (ERRANT's convention for "
                         "errors marked, not corrected); without it they are unconvertible")
    convert.add_argument("--lang", choices=["en", "zh"],
                         help="parallel text -> M2: the language (default: zh when the text "
                         "has Chinese characters, else en)")
    convert.add_argument("--cherrant-data", type=Path, metavar="DIR",
                         help="parallel text -> M2 in Chinese: the data/ folder of a ChERRANT "
                         "checkout (default: the setting cherrant-data, else "
                         "$M2LSP_CHERRANT_DATA)")
    convert.add_argument("--spacy-model", help="parallel text or BEA-2019 JSON -> M2 in "
                         "English: the spaCy "
                         "pipeline (default: the setting spacy-model, else en_core_web_sm)")
    convert.add_argument("--encoding", help="encoding of the input (default: UTF-8)")
    convert.add_argument("--skip-unconvertible", action="store_true",
                         help="write the conversion even when some sentences cannot be "
                         "fully converted (each is still reported); without it nothing is "
                         "written and the exit code is 1")
    convert.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.cli.inputs import input_paths
    from m2lsp.files.writing import refuse_inputs
    from m2lsp.formats.cged import conversion, writer
    from m2lsp.formats.cged.parser import parse_cged
    from m2lsp.formats.unconverted import Unconverted
    from m2lsp.model import Format
    from m2lsp.parsing.detect import detect_format
    from m2lsp.parsing.m2 import parse_m2

    if args.output is not None:
        refuse_inputs(args.output, input_paths(args, "output"))
    if args.input.suffix.lower() == ".ann" and _brat(args.input, args.encoding):
        return _from_brat(args)
    if args.input.is_dir() or args.input.suffix.lower() == ".ann":
        return _from_annotated(args)
    source = read_text(args.input, "input", args.encoding)
    problems: list[Unconverted] = []
    if _is_bea_json(args.input, source.text):
        return _from_bea_json(args, source)
    if args.cor is not None:
        return _from_essays(args, source.text)
    kind = detect_format(args.input, source.text)
    if kind is None and args.to == "m2" and _is_parallel(source.text):
        return _from_parallel(args, source.text)
    name = {Format.M2: "m2", Format.CGED: "cged"}.get(kind) if kind is not None else None
    if name not in TARGETS[args.to]:
        raise UsageError(f"cannot convert {args.input} ({kind.value if kind else 'unknown'} "
                         f"format) to {args.to}: the input must be "
                         + " or ".join(TARGETS[args.to])
                         + (" or parallel text (tab separated)" if args.to == "m2" else ""))
    if name == "cged":
        sentences = conversion.from_cged(parse_cged(source), problems)
    else:
        document = parse_m2(source)
        if args.to == "parallel":
            return _parallel(args, document, problems)
        if args.to == "brat":
            return _to_brat(args, document, problems)
        if args.to == "bea-json":
            from m2lsp.formats.bea_json.conversion import from_m2

            return _write(args, from_m2(document, problems), problems)
        sentences = conversion.from_m2(document, args.annotator, problems)
    if args.to == "m2":
        return _write(args, conversion.to_m2(sentences, args.detection_only, problems),
                      problems)
    if args.to == "truth":
        return _write(args, writer.to_truth(sentences, problems), problems)
    ids = None
    if args.ids:
        ids = [x.strip() for x in read_text(args.ids, "ids", args.encoding).text.splitlines()
               if x.strip()]
    return _write(args, writer.to_cged(sentences, ids), problems)


def _from_essays(args: argparse.Namespace, orig: str) -> int:
    """A MultiGEC-2025 essay pair (or an original and several corrections) as parallel
    text: one essay a line, its tokens as the shared task's syntok gave them."""
    from m2lsp.formats.multigec.parser import corrected_columns, is_essays

    if args.to != "parallel":
        raise UsageError(f"--cor converts MultiGEC essays to parallel text, not to {args.to}")
    if not is_essays(orig):
        raise UsageError(f"{args.input} is not in MultiGEC's essay format (### essay_id = N "
                         "headings): --cor pairs essay files")
    texts = [read_text(path, "corrected", args.encoding).text for path in args.cor]
    sources, columns, notes = corrected_columns(orig, texts, [str(p) for p in args.cor])
    for note in notes:
        print(f"m2lsp: warning: {note}", file=sys.stderr)
    rows = ["\t".join(row) for row in zip(sources, *columns, strict=True)]
    if args.header:
        rows.insert(0, "\t".join(["source", *(str(p) for p in args.cor)]))
    return _write(args, "".join(f"{row}\n" for row in rows), [])


def _is_bea_json(path: Path, text: str) -> bool:
    from m2lsp.formats.bea_json.parser import is_bea_json

    return path.suffix.lower() in (".json", ".jsonl") and is_bea_json(text)


def _from_bea_json(args: argparse.Namespace, source: Any) -> int:
    """BEA-2019 JSON essays as the release's `json_to_m2.py -gold` converts them (ERRANT
    over the spaCy pipeline); an essay it cannot convert is reported (J001, J002, J005),
    an edit it drops is said."""
    from m2lsp.annotation.annotators import make_annotator
    from m2lsp.annotation.parallel import settings_for
    from m2lsp.config import config_for
    from m2lsp.formats.bea_json.conversion import Dropped, to_m2, unconvertible
    from m2lsp.formats.bea_json.parser import parse_bea_json
    from m2lsp.formats.unconverted import Unconverted

    if args.to != "m2":
        raise UsageError(f"BEA-2019 JSON converts to m2, not {args.to}")
    document = parse_bea_json(source)
    problems = [Unconverted("", p.message, p.span.line, "essay")
                for p in document.problems]
    problems += [Unconverted(essay.essay_id, why, essay.row, "essay")
                 for essay, why in unconvertible(document)]
    if problems and not args.skip_unconvertible:
        return _write(args, "", problems)
    refused = {p.line for p in problems}
    kept = type(document)(tuple(e for e in document.essays if e.row not in refused))
    settings = settings_for("en", config_for([args.input]).score,
                            spacy_model=args.spacy_model)
    dropped: list[Dropped] = []
    text = to_m2(kept, make_annotator(settings, cached=True), dropped)
    for drop in dropped:
        print(f"m2lsp: warning: {args.input}: essay {drop.essay}: {drop.reason}; "
              "json_to_m2.py drops it too", file=sys.stderr)
    return _write(args, text, problems)


def _brat(path: Path, encoding: str | None) -> bool:
    from m2lsp.formats.brat.conversion import is_brat

    return path.is_file() and is_brat(read_text(path, "input", encoding).text)


def _from_brat(args: argparse.Namespace) -> int:
    """A brat document (`X.ann` and the `X.txt` beside it) as M2."""
    from m2lsp.formats.brat.conversion import companion_text, from_brat

    if args.to != "m2":
        raise UsageError(f"brat standoff converts to m2, not {args.to}")
    text = read_text(companion_text(args.input), "text", args.encoding).text
    ann = read_text(args.input, "input", args.encoding).text
    problems: list = []
    return _write(args, from_brat(text, ann, str(args.input), problems), problems)


def _to_brat(args: argparse.Namespace, document: Any, problems: list) -> int:
    """M2 as a brat document: `-o X.ann` writes X.ann and X.txt (a folder: its files are
    named after the input)."""
    from m2lsp.files.writing import make_folder, write_together
    from m2lsp.formats.brat.conversion import configurations, to_brat

    if args.output is None:
        raise UsageError("--to brat writes two files (X.txt and X.ann): give -o X.ann or "
                         "-o FOLDER")
    ann_path = args.output if args.output.suffix == ".ann" else \
        args.output / (args.input.name.removesuffix(".m2") + ".ann")
    text, ann = to_brat(document, problems)
    if problems and not args.skip_unconvertible:
        return _write(args, "", problems)
    for problem in problems:
        print(f"m2lsp: warning: {args.input}: {problem.where}: {problem.reason}",
              file=sys.stderr)
    make_folder(ann_path.parent)
    # both or neither: a new text beside an old annotation puts its offsets in other words;
    # the configurations (brat shows the types it is told of) with them
    confs = [(ann_path.with_name(name), conf) for name, conf in configurations(ann).items()]
    write_together([(ann_path.with_suffix(".txt"), text), (ann_path, ann), *confs],
                   inputs=[args.input])
    print(f"m2lsp: wrote {ann_path.with_suffix('.txt')} and {ann_path}", file=sys.stderr)
    return EXIT_CLEAN


def _from_annotated(args: argparse.Namespace) -> int:
    """UA-GEC's annotated texts (a .ann file, or the annotated/ folder: every document, its
    annotators in one M2) as M2 or as parallel text (the tokenised sentences)."""
    from m2lsp.formats.uagec.conversion import Annotated, documents

    if args.to not in ("m2", "parallel"):
        raise UsageError(f"UA-GEC's annotated texts convert to m2 or parallel, not {args.to}")
    found: list[Annotated] = documents(args.input, args.encoding)
    if args.to == "m2":
        from m2lsp.formats.uagec.conversion import m2_blocks

        return _write(args, "".join(m2_blocks(d.doc_id, d.annotators) for d in found), [])
    rows = []
    for document in found:
        source = document.annotators[0][2].sentences
        for index, tokens in enumerate(source):
            rows.append("\t".join([" ".join(tokens), *(" ".join(tgt.sentences[index]) if
                                                      index < len(tgt.sentences) else ""
                                                      for _, _, _, tgt in document.annotators)]))
    return _write(args, "".join(f"{row}\n" for row in rows), [])


def _is_parallel(text: str) -> bool:
    """Parallel text: its first line has a tab (a ragged file is then an error naming the
    line, not another format)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return "\t" in first


HEADER = "source\t"  # the first line `convert --to parallel --header` writes


def _from_parallel(args: argparse.Namespace, text: str) -> int:
    """Parallel text (source, then one column per annotator) annotated as M2."""
    from m2lsp.annotation.parallel import ParallelText, text_lines

    lines = text_lines(text)
    first = 1
    if lines and lines[0].startswith(HEADER):
        lines, first = lines[1:], 2
    rows = [line.split("\t") for line in lines]
    for number, row in enumerate(rows, first):
        if len(row) != len(rows[0]):
            raise InputError(f"{args.input}:{number}: {len(row)} columns, but line {first} "
                             f"has {len(rows[0])}: every line is a source and one correction "
                             f"per annotator")
    columns = [[row[k] for row in rows] for k in range(1, len(rows[0]))]
    parallel = ParallelText([row[0] for row in rows], columns)
    settings = _annotation_settings(args, text)
    return _write(args, "".join(_annotated(parallel, settings)), [])


def _annotation_settings(args: argparse.Namespace, text: str) -> object:
    from m2lsp.config import config_for

    config = config_for([args.input]).score
    lang = args.lang or ("zh" if _has_chinese(text) else "en")
    if args.lang is None:
        chosen = "Chinese (char level, as ChERRANT)" if lang == "zh" else "English (ERRANT)"
        print(f"m2lsp: annotating as {chosen}; --lang {'en' if lang == 'zh' else 'zh'} to "
              f"change", file=sys.stderr)
    from m2lsp.annotation.parallel import settings_for

    return settings_for(lang, config, spacy_model=args.spacy_model,
                        cherrant_data=args.cherrant_data)


def _has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text[:20_000])


def _annotated(parallel: Any, settings: Any) -> list[str]:
    from m2lsp.annotation.parallel import annotate, default_jobs
    from m2lsp.cli.progress import Ticker

    return list(annotate(parallel, settings, default_jobs(),
                         lambda total: Ticker(total, what="line", stalls=False)))


def _parallel(args: argparse.Namespace, document: Any, problems: list) -> int:
    from m2lsp.formats.m2.annotators import annotators
    from m2lsp.formats.parallel.conversion import to_parallel

    if not args.header:
        columns = ", ".join(["source", *(f"annotator {a}"
                                         for a in annotators(document))])
        print(f"m2lsp: columns: {columns} (--header writes them as a first line)",
              file=sys.stderr)
    return _write(args, to_parallel(document, not args.no_spaces, problems, args.header),
                  problems)


def _write(args: argparse.Namespace, text: str, problems: list) -> int:
    """Write the conversion, unless something could not be converted and the user did not
    say to go on; every such sentence is reported either way."""
    kind = "warning" if args.skip_unconvertible else "error"
    for problem in problems:
        print(f"m2lsp: {kind}: {args.input}: {problem.where}: {problem.reason}",
              file=sys.stderr)
    if problems and not args.skip_unconvertible:
        sentences = len({problem.sentence or problem.line for problem in problems})
        unit = problems[0].unit
        print(f"m2lsp: {sentences} {unit}(s) could not be fully converted ({len(problems)} "
              "problem(s)); nothing written (--skip-unconvertible writes the rest)",
              file=sys.stderr)
        return EXIT_FINDINGS
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_CLEAN
    from m2lsp.cli.inputs import input_paths
    from m2lsp.files.writing import write_atomic

    write_atomic(args.output, text, inputs=input_paths(args, "output"))
    return EXIT_CLEAN
