"""`m2lsp check`: lint files and folders, print diagnostics, apply fixes."""

from __future__ import annotations

import argparse
import codecs
import errno
import itertools
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, keep_until_exit
from m2lsp.errors import M2lspError, UsageError
from m2lsp.linting.cap import MOST_PER_RULE
from m2lsp.model import Format
from m2lsp.severity import Severity

if TYPE_CHECKING:
    from m2lsp.linting.files import CheckedFile, CheckOptions

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
    check.add_argument("--fail-on", choices=("error", "warning", "info", "hint"),
                       default="hint",
                       help="exit 1 only for findings of this severity or worse (default "
                       "hint: any finding); every finding is still printed, so `--fail-on "
                       "error` keeps warnings in sight without blocking a commit")
    check.add_argument("--max-findings-per-rule", type=_count, default=MOST_PER_RULE,
                       metavar="N",
                       help=f"list at most N findings of each rule in each file (default "
                       f"{MOST_PER_RULE:,}), then one line `and 999,000 more M005`; the "
                       "summary and the exit code count them all; 0 lists every finding "
                       "(a file of a million findings then takes gigabytes)")
    check.add_argument("-q", "--quiet", action="store_true",
                       help="print diagnostics only (errors still go to stderr)")
    check.add_argument("--allow-empty", action="store_true",
                       help="exit 0 when no file was checked (default: exit 2, so a check "
                       "pointed at the wrong folder does not pass)")
    check.add_argument("--skip-unknown", action="store_true",
                       help="skip and count named files that are not M2 or CGED (as files "
                       "inside a named folder are), instead of an error; for hooks that "
                       "select files by name, e.g. *.xml")
    check.set_defaults(handler=run_check)


def _count(value: str) -> int:
    """A count of 0 or more, for argparse (its error names the option)."""
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a count (0 or more)")
    return number


UNKNOWN_FORMAT = ("not recognised as M2, CGED SGML, a CGED truth file or a CGED input file; "
                  "--format m2, cged, cged-truth or cged-input reads it as one")


def run_check(args: argparse.Namespace) -> int:
    from m2lsp.linting.files import CheckedFile, check_file, discover

    options = _check_options(args)
    unusable = {path: why for path in args.paths if (why := _unusable(path))}
    for path, why in unusable.items():
        print(f"m2lsp: error: {path}: {why}", file=sys.stderr)
    named = [p for p in args.paths if p not in unusable]
    files = list(discover(named))
    progress = Progress(len(files), enabled=sys.stderr.isatty() and not args.quiet)
    results = []
    latest = None
    for path in files:
        progress.step(path)
        result = check_file(path, options, explicit=path in named)
        if (result.format is None and result.error is None and path in named
                and not args.skip_unknown):
            result = CheckedFile(path, None, error=UNKNOWN_FORMAT)  # named, so meant
        # each file's parsed document is freed when the next is read, but the last one's
        # is kept to the exit: freeing a large file's blocks object by object costs a tenth
        # of its check
        latest = result.linted
        results.append(replace(result, linted=None) if latest is not None else result)
    progress.done()
    _warn_empty_folders(named, results, args.quiet)
    keep_until_exit((results, latest))
    return _report(results, args, had_errors=bool(unusable))


def _unusable(path: Path) -> str | None:
    """Why a path named on the command line cannot be checked at all (missing, a link loop,
    not readable), or None."""
    try:
        os.stat(path)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENOENT:
            reason = "no such file or folder"
        return reason
    if not os.access(path, os.R_OK):
        return "not readable (permission denied)"
    return None


def _warn_empty_folders(named: list[Path], results: list[CheckedFile], quiet: bool) -> None:
    """A named folder in which no file was checked is said, not passed over."""
    checked = [r.path for r in results if r.format is not None]
    for folder in (p for p in named if p.is_dir()):
        if not any(folder in path.parents for path in checked) and not quiet:
            print(f"m2lsp: warning: {folder}: no M2 or CGED file found in this folder",
                  file=sys.stderr)


def _check_options(args: argparse.Namespace) -> CheckOptions:
    from m2lsp.config import config_for, config_from_mapping
    from m2lsp.diagnostic import Applicability
    from m2lsp.linting.files import CheckOptions
    from m2lsp.scoring.metric import names

    config = config_for(args.paths, args.config, names())
    overrides = {k: v for k, v in (("select", args.select), ("ignore", args.ignore),
                                   ("taxonomy", args.taxonomy)) if v is not None}
    if overrides:
        config = config_from_mapping(overrides, config, origin="command line")
    _check_codes(config.lint.select, "--select" if args.select else "select")
    _check_codes(config.lint.ignore, "--ignore" if args.ignore else "ignore")
    if args.cged_input is not None and (why := _unusable(args.cged_input)):
        raise UsageError(f"--cged-input {args.cged_input}: {why}")
    fix: frozenset[Applicability] = frozenset()
    if args.fix:
        fix = frozenset({Applicability.SAFE} | (
            {Applicability.UNSAFE} if args.unsafe_fixes else set()))
    _check_encoding(args.encoding)
    return CheckOptions(config.lint, Format(args.format) if args.format else None,
                        args.encoding, fix, args.cged_input, args.max_findings_per_rule or None)


def _check_codes(codes: tuple[str, ...], option: str) -> None:
    """A usage error for a rule code or prefix that names no rule (a typo would otherwise
    select nothing, and every file would pass)."""
    from m2lsp.rules.registry import all_rules

    known = [rule.code for rule in all_rules()]
    unknown = [c for c in codes if c != "ALL" and not any(k.startswith(c) for k in known)]
    if unknown:
        raise UsageError(f"{option}: no rule has the code or prefix {', '.join(unknown)} "
                         "(`m2lsp rule --all` lists them)")


def _check_encoding(encoding: str | None) -> None:
    if encoding is None:
        return
    try:
        codecs.lookup(encoding)
    except LookupError as exc:
        raise M2lspError(f"unknown encoding {encoding!r}") from exc


def _report(results: list[CheckedFile], args: argparse.Namespace, had_errors: bool) -> int:
    from m2lsp.output import FileReport, renderers

    reports = [FileReport(str(r.path), r.diagnostics, r.unlisted) for r in results
               if r.diagnostics or r.unlisted]
    render = renderers()[args.output_format]
    failed = sum(1 for r in results if r.error)
    checked = sum(1 for r in results if r.format is not None and not r.error)
    special = sum(1 for r in results if r.not_regular)
    skipped = len(results) - checked - failed - special
    if args.output_format == "text":
        empty = sum(1 for r in results if r.empty and not r.error)
        sys.stdout.write(render(reports, checked=checked, unchecked=failed + had_errors,
                                skipped=skipped, quiet=args.quiet, special=special,
                                empty=empty))
    else:
        sys.stdout.write(render(reports))
    sys.stdout.flush()
    errors = had_errors
    for result in results:
        if result.error:
            print(f"m2lsp: error: {result.path}: {result.error}", file=sys.stderr)
            errors = True
        if result.not_fixed:
            print(f"m2lsp: {result.path}: {result.not_fixed}", file=sys.stderr)
        if result.fixed and result.fixed.applied and not args.quiet:
            print(f"m2lsp: {result.path}: {result.fixed.describe()}", file=sys.stderr)
    if not args.quiet and args.output_format != "text":
        note = f"checked {checked} file(s)" + (f", skipped {skipped} (not M2 or CGED)"
                                              if skipped else "")
        note += f", skipped {special} (not regular files)" if special else ""
        print(f"m2lsp: {note}", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    if checked == 0 and not args.allow_empty:
        print("m2lsp: error: no file was checked" + (
            f" ({skipped} skipped: not M2 or CGED)" if skipped else "")
            + "; --allow-empty exits 0 when that is expected", file=sys.stderr)
        return EXIT_ERROR
    worst = Severity.parse(args.fail_on)
    severities = itertools.chain((d.severity for r in results for d in r.diagnostics),
                                 (u.severity for r in results for u in r.unlisted))
    if not args.exit_zero and any(severity <= worst for severity in severities):
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
