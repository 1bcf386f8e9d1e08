"""Progress on stderr for commands that run long: nothing for the first seconds, then which
item of how many is being worked on and, when one item is slow, which one and for how long.

A thread prints it, so the report goes on while one sentence keeps the scorer busy (the
compiled core releases the interpreter while it works)."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TextIO

AFTER = 2.0  # seconds of silence before the first report
# A Ticker writes while holding this lock, and a fork waits for it: a worker forked while
# the thread was writing would otherwise inherit the stream's lock held, and hang on its
# first write.
_WRITING = threading.Lock()


def _fresh_lock() -> None:
    global _WRITING
    _WRITING = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=lambda: _WRITING.acquire(),
                        after_in_parent=lambda: _WRITING.release(),
                        after_in_child=_fresh_lock)
TERMINAL_EVERY = 1.0  # a terminal's line is rewritten this often
LOG_EVERY = 10.0  # elsewhere (logs, CI), a new line this often


class Ticker:
    """`with Ticker(total) as tick: ... tick.at(index, line)` reports on `stream` once the
    block has run past AFTER seconds."""

    def __init__(self, total: int, stream: TextIO | None = None, what: str = "sentence",
                 after: float = AFTER, stalls: bool = True) -> None:
        self.total, self.what, self.after = total, what, after
        self.stalls = stalls  # say so when one item takes long
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self._index, self._since = 0, time.monotonic()
        self._line: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="m2lsp-progress", daemon=True)
        self._printed = False
        self._started = False  # no item yet: what runs is loading (a pipeline, a model)

    def at(self, index: int, line: int | None = None) -> None:
        """Work on item `index` (0-based; `line` is where it is in the input, 0-based)."""
        self._index, self._line, self._since = index, line, time.monotonic()
        self._started = True

    def message(self, now: float) -> str:
        if not self._started:
            return (f"m2lsp: getting ready ({now - self._since:.0f} s: loading what the "
                    f"work needs); 0 of {self.total} {self.what}s done")
        text = f"m2lsp: {self.what} {self._index + 1} of {self.total}"
        spent = now - self._since
        if self.stalls and spent >= self.after:
            where = f" (line {self._line + 1})" if self._line is not None else ""
            text += f"{where}: {spent:.0f} s on it so far"
        return text

    def __enter__(self) -> Ticker:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self._printed and self.terminal:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _run(self) -> None:
        if self._stop.wait(self.after):
            return
        every = TERMINAL_EVERY if self.terminal else LOG_EVERY
        while True:
            text = self.message(time.monotonic())
            with _WRITING:
                self.stream.write(f"\r\x1b[K{text}" if self.terminal else text + "\n")
                self.stream.flush()
            self._printed = True
            if self._stop.wait(every):
                return


class Rate:
    """`with Rate(total) as tick: ... tick.at(index)`: how far, how fast and how long still
    to go ("line 5,000 of 100,000, 850 lines/s, 1 min 52 s left"), printed by the caller's
    own thread when it reports progress (no thread of its own: forking workers meanwhile is
    safe), after AFTER seconds, then every second on a terminal, every 10 s elsewhere."""

    def __init__(self, total: int, stream: TextIO | None = None, what: str = "line",
                 after: float = AFTER, start: int = 0) -> None:
        self.total, self.what, self.after, self.start = total, what, after, start
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.began = self.last = time.monotonic()
        self._printed = False

    def __enter__(self) -> Rate:
        self.began = self.last = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._printed and self.terminal:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def at(self, index: int, line: int | None = None) -> None:
        now = time.monotonic()
        every = TERMINAL_EVERY if self.terminal else LOG_EVERY
        if now - self.began < self.after or (self._printed and now - self.last < every):
            return
        self.last, self._printed = now, True
        text = self.message(index + 1, now - self.began)
        self.stream.write(f"\r\x1b[K{text}" if self.terminal else text + "\n")
        self.stream.flush()

    def message(self, done: int, spent: float) -> str:
        text = f"m2lsp: {self.what} {done:,} of {self.total:,}"
        rate = (done - self.start) / spent if spent > 0 else 0.0
        if rate > 0:
            left = max(0, self.total - done) / rate
            text += f", {rate:,.0f} {self.what}s/s, {_duration(left)} left"
        return text


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


class Stages:
    """A one-line progress bar on a terminal for a command of a few long steps (`report`):
    `stages(name)` starts the next; `done()` clears the line.  Silent elsewhere."""

    WIDTH = 20

    def __init__(self, total: int, stream: TextIO | None = None, what: str = "m2lsp") -> None:
        self.total, self.what, self.count = total, what, 0
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()

    def __call__(self, name: str) -> None:
        self.count += 1
        if not self.terminal:
            return
        filled = self.WIDTH * min(self.count - 1, self.total) // max(self.total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        spent = time.monotonic() - self.started
        self.stream.write(f"\r\x1b[K{self.what}: [{bar}] {name} ({spent:.0f} s)")
        self.stream.flush()

    def done(self) -> None:
        if self.terminal and self.count:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
