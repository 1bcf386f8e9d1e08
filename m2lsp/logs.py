"""The `m2lsp` logger, where the library says what a user should know (a pipeline chosen
for them, settings ignored) without printing: a library's logger has a NullHandler, so
nothing reaches stderr unless the program asks (the command line prints each distinct note
once; the API keeps them in `Score.warnings`; the server sends them to the client's log).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

ROOT = "m2lsp"


def logger(name: str) -> logging.Logger:
    """The logger of module `name` (under `m2lsp`), the package's NullHandler in place."""
    package = logging.getLogger(ROOT)
    if not any(isinstance(h, logging.NullHandler) for h in package.handlers):
        package.addHandler(logging.NullHandler())
    return logging.getLogger(name)


class _Collect(logging.Handler):
    def __init__(self, sink: Callable[[str], None], once: bool) -> None:
        super().__init__(logging.INFO)
        self.sink, self.once, self.seen = sink, once, set[str]()

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if self.once and text in self.seen:
            return
        self.seen.add(text)
        self.sink(text)


@contextmanager
def collected(sink: Callable[[str], None], once: bool = False) -> Iterator[None]:
    """While the block runs, every message of the `m2lsp` loggers (INFO and up), and every
    Python warning a library below shows (spaCy's about a pipeline's version), also goes
    to `sink` (`once`: each distinct message once) instead of stderr."""
    import warnings

    package = logger(ROOT)
    handler = _Collect(sink, once)
    level = package.level
    package.addHandler(handler)
    if package.getEffectiveLevel() > logging.INFO:
        package.setLevel(logging.INFO)

    def shown(message: Warning | str, *_args: object, **_kwargs: object) -> None:
        handler.emit(logging.makeLogRecord({"msg": f"warning: {message}"}))

    try:
        with warnings.catch_warnings():
            warnings.showwarning = shown
            yield
    finally:
        package.removeHandler(handler)
        package.setLevel(level)
