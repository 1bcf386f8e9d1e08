"""What the API is given, checked once at the door and turned into the files the metrics
read, each with the name a message gives it.

An input is a path (a `pathlib.Path`, or a `str` without a line break), the text of a file
(a `str` with line breaks), or its lines (a list or tuple of `str`, one sentence each).
References may be several: a list of such inputs, one per reference (a list of `str` is
always one reference's sentences, never a list of file names).  Anything else -- `None`,
numbers, `bytes`, a list holding something other than `str` -- is a `UsageError` saying
what was given and what is taken; a path that cannot be read is an `InputError`.

A text or a list is read where it is, as a `parsing.source.Text`, by a metric that takes
texts; for one that still reads files, it is written to a file in the call's own temporary
folder.  Every message that comes back names it as the user gave it ("the system (a list
of 20 sentences)"), never by a temporary path, and speaks the API's words (`gold=`, not
`--gold`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, M2lspError, UsageError
from m2lsp.parsing.source import Text

TAKES = "a path (pathlib.Path or str), a text (str with line breaks) or a list of sentences"


def kind_of(value: Any) -> str:
    """How a message names what was given: "None", "an int", "bytes"."""
    if value is None:
        return "None"
    if isinstance(value, bytes | bytearray | memoryview):
        return "bytes"
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def refuse(role: str, value: Any, takes: str = TAKES) -> UsageError:
    """The UsageError for a value of the wrong type."""
    if isinstance(value, bytes | bytearray | memoryview):
        return UsageError(f"{role}: bytes are not text; decode them first "
                          f"(data.decode('utf-8')), or give {takes}")
    return UsageError(f"{role}: {kind_of(value)}; give {takes}")


def is_path(value: Any) -> bool:
    """A path: a PathLike, or a str without a line break."""
    return isinstance(value, os.PathLike) or (
        isinstance(value, str) and "\n" not in value and "\r" not in value)


def sentences(value: Any, role: str) -> list[str]:
    """A list of sentences, checked: every item a str without a line break."""
    if not isinstance(value, list | tuple):
        raise refuse(role, value)
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise UsageError(f"{role}: item {index} is {kind_of(item)}, not a sentence (a "
                             f"str); a list holds one sentence a line")
        if "\n" in item or "\r" in item:
            raise UsageError(f"{role}: item {index} holds a line break; a list holds one "
                             "sentence each (give a text as one str instead)")
    return list(value)


def checked(value: Any, role: str) -> Any:
    """The value if it is an input of one of the three forms (see the module), or a
    `Text` an adapter made (the editor's open document, with its name)."""
    if isinstance(value, os.PathLike | Text):
        return value
    if isinstance(value, str):
        if not value:
            raise UsageError(f"{role}: an empty str; give {TAKES}")
        return value
    if isinstance(value, list | tuple):
        return sentences(value, role)
    raise refuse(role, value)


def readable(path: Path, role: str) -> Path:
    """The path, if it is a regular file that can be read; else an InputError saying why
    (a folder, a device such as /dev/zero that would never end, a pipe)."""
    try:
        if not path.exists():
            raise InputError(f"{role} {path}: no such file (a text is given with its line "
                             "breaks, or as a list of sentences)")
        if not path.is_file():
            raise InputError(f"{role} {path}: not a regular file (a folder, a device or a "
                             "pipe); give a file, a text or a list of sentences")
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise InputError(f"{role} {path}: cannot be read ({exc.strerror or exc})") from None
    return path


def several(value: Any, role: str) -> list[Any]:
    """References: one input, or a list of inputs (one per reference).  A list of `str`
    is one reference's sentences; a list whose items are lists, tuples or PathLikes is
    several references."""
    if isinstance(value, list | tuple) and value and all(
            isinstance(item, list | tuple | os.PathLike) for item in value):
        return [checked(item, f"{role}[{k}]") for k, item in enumerate(value)]
    return [checked(value, role)]


def lines_of(value: Any, role: str) -> list[str]:
    """The lines of an input (read from its file where it is a path)."""
    value = checked(value, role)
    if is_path(value):
        from m2lsp.parsing.source import read_source

        return read_source(readable(Path(value), role), role).text.splitlines()
    if isinstance(value, str):
        return value.splitlines()
    return list(value)


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else "".join(f"{line}\n" for line in value)


@dataclass
class Files:
    """The call's inputs: a path as it is, a text or a list given as a `Text` in memory
    named as the user gave it (every metric takes texts: nothing is written to a file),
    and `cleaned` puts a place in one into the user's words."""

    given: set[str] = field(default_factory=set)  # the names of the texts and lists given

    def file(self, value: Any, role: str) -> Path | Text:
        """The input as the metric reads it: a path (checked) as it is; a text or a list
        as a `Text` in memory."""
        value = checked(value, role)
        if isinstance(value, Text):
            return value
        if is_path(value):
            return readable(Path(value), role)
        self.given.add(named(value, role))
        return Text.of(named(value, role), text_of(value))

    def cleaned(self, message: str, quote: Callable[[str], str] = str) -> str:
        """The message with a place in a text or list given in the user's words (`quote`:
        how a name is written into it, e.g. escaped for a JSON text): "the system (a list
        of 20 sentences), line 12", not "...:12" as a file's would."""
        for name in self.given:
            shown = quote(name)
            if shown + ":" in message:
                message = re.sub(re.escape(shown) + r":(\d+)(?::\d+)?",
                                 shown.replace("\\", "\\\\") + r", line \1", message)
        return message

    def holds(self, text: str) -> bool:
        """Whether `text` names a place in a text given, which `cleaned` rewrites."""
        return any(name + ":" in text for name in self.given)


def named(value: Any, role: str) -> str:
    """"the system (a list of 20 sentences)", "the gold (a text of 8 lines)"."""
    if isinstance(value, str):
        count = len(value.splitlines())
        return f"{role} (a text of {count} line{'s' if count != 1 else ''})"
    return f"{role} (a list of {len(value)} sentence{'s' if len(value) != 1 else ''})"


@contextmanager
def files() -> Iterator[Files]:
    """The inputs of one call; an M2lspError raised inside comes out with its message
    cleaned and in the API's words."""
    found = Files()
    try:
        yield found
    except M2lspError as exc:
        raise type(exc)(api_words(found.cleaned(str(exc)))) from None


# the command line's words for what the API calls otherwise
_WORDS: list[tuple[re.Pattern[str], Any]] = [(re.compile(r"--metric (\w[\w-]*)"), r"metric='\1'"),
          (re.compile(r"--ref\b"), "references="), (re.compile(r"--source\b"), "sources="),
          (re.compile(r"--gold\b"), "gold="), (re.compile(r"\bGOLD\b"), "gold="),
          (re.compile(r"--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"),
           lambda m: m.group(1).replace("-", "_") + "=")]


def api_words(message: str) -> str:
    """A command-line message in the API's words: `--metric cleme needs GOLD` reads
    `metric='cleme' needs gold=`, `--max-unchanged-words` reads `max_unchanged_words=`."""
    for pattern, words in _WORDS:
        message = pattern.sub(words, message)
    return message


def strings(value: Any, role: str) -> tuple[str, ...]:
    """A list of names (metrics, systems), checked."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise refuse(role, value, "a list of str")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise UsageError(f"{role}: item {index} is {kind_of(item)}, not a str")
    return tuple(value)


def counted(kind: Any, key: str, value: Any) -> float:
    """A value a numeric option takes (`arguments.Number`), or a UsageError naming it."""
    import m2lsp.arguments as arguments

    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise refuse(key, value, kind.describe())
    try:
        return arguments.converter(kind)(value)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{key}: {exc}, not {value!r}") from None
