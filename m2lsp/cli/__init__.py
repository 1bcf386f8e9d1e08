"""The command line: `m2lsp check | rule | score | compare | serve | convert | annotate |
agree | report | cache | meta-eval`.

`main(argv)` returns the exit code: 0 clean, 1 findings, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from m2lsp.cli import exits
from m2lsp.cli.exits import EXIT_ERROR, EXIT_INTERRUPTED
from m2lsp.errors import M2lspError
from m2lsp.version import __version__


def main(argv: Sequence[str] | None = None) -> int:
    # A short-lived process over acyclic data: the cycle collector only costs time here.
    # (Turned back on at the end for callers that run commands in their own process.)
    from m2lsp.logs import collected

    collecting = gc.isenabled()
    gc.disable()
    try:
        with collected(_said, once=True):  # each distinct note once per run
            return _run(sys.argv[1:] if argv is None else list(argv))
    finally:
        if collecting:
            gc.enable()


def _said(message: str) -> None:
    """A note or warning of the `m2lsp` loggers, on stderr."""
    kind = "" if message.startswith(("note:", "warning:")) else "warning: "
    print(f"m2lsp: {kind}{message}", file=sys.stderr)


def entry() -> NoReturn:
    """The console script (and `python -m m2lsp`): `main`, then the exit without tearing down
    every object, which after checking a large file took a tenth of the run."""
    exits.ending = True
    gc.disable()  # for good: turned back on, it would first scan every object made (0.2 s)
    code = main()
    for stream in (sys.stdout, sys.stderr):
        if stream.closed:  # the language server's stdout, closed by its exit
            continue
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):
            code = code or EXIT_ERROR
    os._exit(code)


def _run(argv: list[str]) -> int:
    if argv == ["--version"]:  # without building every command's flags (and their imports)
        print(f"m2lsp {__version__}")
        return exits.EXIT_CLEAN
    parser = build_parser(next((a for a in argv if not a.startswith("-")), None))
    try:
        args = parser.parse_args(argv)  # (--help prints here: `| head` can close the pipe)
        if not getattr(args, "handler", None):
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        return args.handler(args)
    except M2lspError as exc:
        print(f"m2lsp: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_ERROR
    except UnicodeEncodeError as exc:  # a lone surrogate read from a JSON escape or decoder
        if exc.reason != "surrogates not allowed":
            raise
        print(f"m2lsp: error: the input holds a lone surrogate "
              f"(U+{ord(exc.object[exc.start]):04X}), which UTF-8 cannot hold, so nothing was "
              "written; `m2lsp check` locates each one (X005)", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:  # a file being written is left as it was (files.writing)
        print("m2lsp: interrupted; no file was left half written", file=sys.stderr)
        return EXIT_INTERRUPTED


# command -> the module that defines it (imported only when needed: a command starts faster
# without the others' imports)
COMMANDS = {"check": "check", "rule": "rule", "score": "score", "compare": "score",
            "errant-compare": "errant_compare", "serve": "serve", "convert": "convert",
            "annotate": "annotate", "errant-parallel": "annotate", "agree": "agree",
            "report": "report", "cache": "cache", "meta-eval": "meta_eval",
            "gotoscorer-weight": "gotoscorer_weight", "explain": "explain",
            "merge": "merge", "split": "merge", "audit": "audit", "curate": "curate",
            "note": "note", "skeleton": "source", "retokenise": "source", "web": "web"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with `command` one that knows only that command's module."""
    from m2lsp.cli.parser import Parser

    parser = Parser(
        prog="m2lsp", description="Check, score and edit grammatical-error-correction data "
        "(M2, CGED).")
    parser.add_argument("--version", action="version", version=f"m2lsp {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    names = [COMMANDS[command]] if command in COMMANDS else dict.fromkeys(COMMANDS.values())
    for name in names:
        importlib.import_module(f"m2lsp.cli.{name}").add_commands(commands)
    return parser


if __name__ == "__main__":
    sys.exit(main())
