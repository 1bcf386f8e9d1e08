"""`m2lsp skeleton` (raw sentences to an M2 file to annotate: S lines, no A line) and
`m2lsp retokenise` (split or join tokens of one S line, every annotator's edits moved to
stay on their words; see m2lsp.authoring.source_tokens)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.cli.inputs import read_text
from m2lsp.errors import UsageError


def add_commands(commands: argparse._SubParsersAction) -> None:
    skeleton = commands.add_parser(
        "skeleton", help="raw sentences (one a line) to an M2 file to annotate",
        description="One S line per non-blank line of TEXT, tokenised by the language's "
        "pipeline as `m2lsp annotate --tok` tokenises (English and other languages: the "
        "spaCy pipeline, needs m2lsp[errant]; --lang zh: characters), and no A line: each "
        "sentence is to do for every annotator until they write a line in it (progress, "
        "and the opt-in M502, count it so).")
    skeleton.add_argument("text", type=Path, help="raw sentences, one a line")
    skeleton.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    skeleton.add_argument("--lang", default="en", metavar="CODE",
                          help="the language (default: en)")
    skeleton.add_argument("--spacy-model", help="the spaCy pipeline (default: the setting "
                          "spacy-model or spacy-models, else the language's installed one)")
    skeleton.add_argument("--no-tok", action="store_true",
                          help="the text is tokenised already: split it at whitespace")
    skeleton.add_argument("--config", type=Path, help="a pyproject.toml to read "
                          "[tool.m2lsp] from")
    skeleton.add_argument("--encoding", default=None, help="the file's encoding (UTF-8)")
    skeleton.set_defaults(handler=run_skeleton)
    retokenise = commands.add_parser(
        "retokenise", help="split or join tokens of one sentence's S line, the edits moved",
        description="Split one token of sentence N's S line (--split I 'way this makes': "
        "the pieces joined are the token) or join tokens I..J, end exclusive (--join I J), "
        "and move every annotator's edits so that each stays on its words. An edit that "
        "starts or ends inside joined tokens is widened to the joined token, and named.")
    retokenise.add_argument("file", type=Path, help="an M2 file")
    retokenise.add_argument("--sentence", type=int, required=True, metavar="N",
                            help="the sentence, counted from 1")
    how = retokenise.add_mutually_exclusive_group(required=True)
    how.add_argument("--split", nargs=2, metavar=("I", "PIECES"),
                     help="token I (from 0) and its pieces, separated by spaces")
    how.add_argument("--join", nargs=2, type=int, metavar=("I", "J"),
                     help="join tokens I..J (end exclusive)")
    where = retokenise.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    where.add_argument("--in-place", action="store_true", help="rewrite FILE")
    retokenise.add_argument("--encoding", default=None, help="the file's encoding (detected)")
    retokenise.set_defaults(handler=run_retokenise)


def run_skeleton(args: argparse.Namespace) -> int:
    from m2lsp.config import config_for
    from m2lsp.files.writing import write_atomic

    text = read_text(args.text, "text", args.encoding).text
    from m2lsp.annotation.tokenising import Tokeniser, tokeniser

    tokens: Tokeniser = str.split
    if not args.no_tok:
        tokens = tokeniser(args.lang, config_for([args.text], args.config).score,
                           args.spacy_model)
    blocks = [f"S {' '.join(words)}\n\n" for line in text.splitlines()
              if (words := tokens(line))]
    out = "".join(blocks)
    if args.output is None:
        sys.stdout.write(out)
    else:
        write_atomic(args.output, out, inputs=[args.text])
        print(f"m2lsp: wrote {args.output} ({len(blocks)} sentences to annotate)",
              file=sys.stderr)
    return EXIT_CLEAN


def run_retokenise(args: argparse.Namespace) -> int:
    from m2lsp.authoring.source_tokens import join_tokens, split_token
    from m2lsp.files.writing import write_atomic
    from m2lsp.parsing.m2 import parse_m2

    source = read_text(args.file, "M2", args.encoding)
    document = parse_m2(source)
    found = [(start, block) for start, block in zip(document.starts, document.blocks,
                                                     strict=True) if block.sentence]
    if not 1 <= args.sentence <= len(found):
        raise UsageError(f"--sentence {args.sentence}: {args.file} has {len(found)} "
                         "sentences")
    start, block = found[args.sentence - 1]
    if args.split is not None:
        try:
            index = int(args.split[0])
        except ValueError:
            raise UsageError(f"--split: {args.split[0]!r} is not a token number") from None
        done = split_token(block, index, args.split[1])
    else:
        done = join_tokens(block, *args.join)
    lines = source.text.splitlines(keepends=True)
    ending = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    new = [line + ending for line in done.lines]
    if not lines[start + len(block.lines) - 1].endswith(("\n", "\r")):
        new[-1] = new[-1].rstrip("\r\n")  # the file's last line, without its end
    text = "".join(lines[:start] + new + lines[start + len(block.lines):])
    for note in done.notes:
        print(f"m2lsp: note: {note}", file=sys.stderr)
    target = args.file if args.in_place else args.output
    if target is None:
        sys.stdout.write(text)
    else:
        write_atomic(target, text, inputs=[] if args.in_place else [args.file])
    return EXIT_CLEAN
