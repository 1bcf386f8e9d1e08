"""The argument parser every command is built with: argparse, with the errors a user can act
on in one line.

- An option the command does not have is refused before anything else is read, with "did
  you mean" from the command's own options; argparse alone would keep parsing, take the
  misspelled option's value as a positional argument ("errant" as the system) and then
  complain about the top-level usage.
- A value outside an option's choices (a metric, a format) gets "did you mean" from the
  choices.
- Every error is the command's one-line usage and the message, never the 25-line usage
  of a command with many options (`--help` still prints all of it).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from m2lsp.cli.exits import EXIT_ERROR

# a token that is an option's name, not a value: `--x...`, or `-` and a letter (`-1` is a
# number, `-` alone is standard input)
_OPTION = re.compile(r"--[^-]|-[A-Za-z]")


def suggestion(word: str, known: Iterable[str]) -> str | None:
    """The closest of `known` to a misspelled `word`, or None when none is close."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return close[0] if close else None


class Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser with one-line errors and "did you mean"; the commands'
    sub-parsers are of this class too (`add_subparsers` makes them of the parent's)."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        given = list(sys.argv[1:] if args is None else args)
        if not self._subparsers_here():  # a command's own parser: its options are known
            self._refuse_unknown(given)
        return super().parse_known_args(given, namespace)

    def _subparsers_here(self) -> bool:
        return any(isinstance(a, argparse._SubParsersAction) for a in self._actions)

    def _refuse_unknown(self, given: list[str]) -> None:
        """An error naming the first token that looks like an option and is none of this
        command's (nor an abbreviation of one), before any positional is read."""
        known = list(self._option_string_actions)
        for token in given:
            if token == "--":
                return
            if not _OPTION.match(token):
                continue
            name = token.split("=", 1)[0]
            if name in known or any(k.startswith(name) for k in known) or (
                    name[1] != "-" and name[:2] in known):  # `-o FILE` written `-oFILE`
                continue
            close = suggestion(name, [k for k in known if k.startswith("--")] or known)
            hint = f"; did you mean {close}?" if close else ""
            self.error(f"unknown option {name}{hint}")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(c) for c in choices]
        what = "/".join(action.option_strings) or action.dest
        if isinstance(action, argparse._SubParsersAction):
            what = "command"
        close = suggestion(str(value), names)
        hint = f"; did you mean {close}?" if close else ""
        raise argparse.ArgumentError(
            None, f"unknown {what} {value!r}{hint} (one of {', '.join(names)})")

    def one_line_usage(self) -> str:
        """`usage: m2lsp score [OPTIONS] system [gold]`: the positionals, the options
        folded into one word."""
        positionals = []
        for action in self._actions:
            if action.option_strings or action.help == argparse.SUPPRESS:
                continue
            if isinstance(action, argparse._SubParsersAction):
                positionals.append("COMMAND ...")
                continue
            name = action.metavar if isinstance(action.metavar, str) else action.dest
            optional = action.nargs in ("?", "*")
            many = action.nargs in ("*", "+") or (isinstance(action.nargs, int) and \
                action.nargs > 1)
            word = f"{name} ..." if many else name
            positionals.append(f"[{word}]" if optional else word)
        options = " [OPTIONS]" if len(self._option_string_actions) > 2 else ""
        return f"usage: {self.prog}{options} {' '.join(positionals)}".rstrip()

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.one_line_usage()}  (--help: every option)\n"
                  f"{self.prog}: error: {message}\n")
