"""`m2lsp check`: lint files and folders, print diagnostics, apply fixes."""

from __future__ import annotations

import argparse
import codecs
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from m2lsp.errors import M2lspError
from m2lsp.model import Format

if TYPE_CHECKING:
    from m2lsp.checking import CheckedFile, CheckOptions

OUTPUT_FORMATS = ("text", "json", "github", "sarif")


def add_commands(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser("check", help="lint M2 and CGED files",
                                description="Lint M2 and CGED files and folders.")
    check.add_argument("paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH")
    check.add_argument("--format", choices=[f.value for f in Format],
                       help="read every file as this format (default: by extension and content)")
    check.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text",
                       help="how to print diagnostics (default: text)")
    check.add_argument("--select", help="comma-separated rule codes or prefixes to run")
    check.add_argument("--ignore", help="comma-separated rule codes or prefixes not to run")
    check.add_argument("--taxonomy", help="error-type taxonomy: auto, errant, nucle, cherrant, any")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix, also apply unsafe fixes")
    check.add_argument("--encoding", help="encoding of the files (default: UTF-8)")
    check.add_argument("--cged-input", type=Path, metavar="FILE",
                       help="CGED input or SGML file whose sentence ids truth files must use")
    check.add_argument("--config", type=Path, help="pyproject.toml to read [tool.m2lsp] from")
    check.add_argument("--exit-zero", action="store_true",
                       help="exit 0 even when problems are found")
    check.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only")
    check.set_defaults(handler=run_check)


def run_check(args: argparse.Namespace) -> int:
    from m2lsp.checking import check_file, discover

    options = _check_options(args)
    files = list(discover(args.paths))
    missing = [p for p in args.paths if not p.exists()]
    for path in missing:
        print(f"m2lsp: error: {path}: no such file or folder", file=sys.stderr)
    progress = Progress(len(files), enabled=sys.stderr.isatty() and not args.quiet)
    results = []
    for path in files:
        if path in missing:
            continue
        progress.step(path)
        results.append(check_file(path, options))
    progress.done()
    return _report(results, args, had_errors=bool(missing))


def _check_options(args: argparse.Namespace) -> CheckOptions:
    from m2lsp.checking import CheckOptions
    from m2lsp.config import config_from_mapping, load_config
    from m2lsp.diagnostic import Applicability

    start = args.paths[0] if args.paths else Path(".")
    config = load_config(start if start.exists() else Path("."), explicit=args.config)
    overrides = {k: v for k, v in (("select", args.select), ("ignore", args.ignore),
                                   ("taxonomy", args.taxonomy)) if v is not None}
    if overrides:
        config = config_from_mapping(overrides, config, origin="command line")
    fix = frozenset()
    if args.fix:
        fix = frozenset({Applicability.SAFE} | (
            {Applicability.UNSAFE} if args.unsafe_fixes else set()))
    _check_encoding(args.encoding)
    return CheckOptions(config.lint, Format(args.format) if args.format else None,
                        args.encoding, fix, args.cged_input)


def _check_encoding(encoding: str | None) -> None:
    if encoding is None:
        return
    try:
        codecs.lookup(encoding)
    except LookupError as exc:
        raise M2lspError(f"unknown encoding {encoding!r}") from exc


def _report(results: list[CheckedFile], args: argparse.Namespace, had_errors: bool) -> int:
    from m2lsp.output import FileReport, renderers

    reports = [FileReport(str(r.path), r.diagnostics) for r in results if r.diagnostics]
    sys.stdout.write(renderers()[args.output_format](reports))
    sys.stdout.flush()
    errors = had_errors
    for result in results:
        if result.error:
            print(f"m2lsp: error: {result.path}: {result.error}", file=sys.stderr)
            errors = True
        if result.not_fixed:
            print(f"m2lsp: {result.path}: {result.not_fixed}", file=sys.stderr)
        if result.fixed and result.fixed.applied and not args.quiet:
            print(f"m2lsp: {result.path}: fixed {result.fixed.applied} problem(s)",
                  file=sys.stderr)
    checked = [r for r in results if r.format is not None]
    if not args.quiet and args.output_format == "text":
        skipped = len(results) - len(checked) - sum(1 for r in results if r.error)
        note = f"checked {len(checked)} file(s)" + (f", skipped {skipped} of unknown format"
                                                   if skipped else "")
        print(f"m2lsp: {note}", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    if any(r.diagnostics for r in results) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


class Progress:
    """A one-line progress count on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.count = total, 0
        self.enabled = enabled and total > 1

    def step(self, path: Path) -> None:
        self.count += 1
        if self.enabled:
            name = str(path)[-50:]
            sys.stderr.write(f"\r\x1b[K[{self.count}/{self.total}] {name}")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
