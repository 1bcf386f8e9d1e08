"""Progress on stderr for long commands: silent at first, then the item and how long the
current one has taken."""

from __future__ import annotations

import io
import time

from m2lsp.cli.progress import Ticker


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_is_printed_for_a_short_command() -> None:
    stream = io.StringIO()
    with Ticker(10, stream, after=5.0) as ticker:
        ticker.at(3, 7)
    assert stream.getvalue() == ""


def test_a_long_command_names_the_item_and_the_slow_one() -> None:
    """The item is begun before the thread starts its wait, so by the first report it has
    taken at least `after` seconds however the host schedules the thread."""
    stream = io.StringIO()
    ticker = Ticker(1312, stream, after=0.05)
    ticker.at(332, 2368)
    with ticker:
        time.sleep(0.3)
    text = stream.getvalue()
    assert text.startswith("m2lsp: sentence 333 of 1312 (line 2369): ")
    assert "s on it so far" in text and text.endswith("\n")


def test_on_a_terminal_the_line_is_rewritten_and_cleared() -> None:
    stream = Terminal()
    with Ticker(5, stream, after=0.05) as ticker:
        ticker.at(0)
        time.sleep(0.2)
    text = stream.getvalue()
    assert text.startswith("\r\x1b[Km2lsp: sentence 1 of 5") and text.endswith("\r\x1b[K")


def test_a_fork_waits_for_a_report_being_written() -> None:
    """A worker forked while the Ticker's thread writes would inherit the stream's lock
    held: the fork waits for the write, and the child starts with the lock free."""
    import os
    import threading

    from m2lsp.cli import progress

    progress._WRITING.acquire()  # a report being written
    forked = threading.Event()
    codes: list[int] = []

    def fork() -> None:
        pid = os.fork()
        if pid == 0:
            os._exit(0 if not progress._WRITING.locked() else 1)
        forked.set()
        codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

    thread = threading.Thread(target=fork)
    thread.start()
    assert not forked.wait(0.3)  # the fork waits while the report is written
    progress._WRITING.release()
    thread.join(10)
    assert forked.is_set() and not progress._WRITING.locked() and codes == [0]


def test_before_the_first_item_it_says_it_is_getting_ready() -> None:
    """While a pipeline loads no sentence is being worked on: the report says so, not
    "sentence 1 of 1312: 2 s on it so far"."""
    stream = io.StringIO()
    with Ticker(1312, stream, after=0.05):
        time.sleep(0.3)
    text = stream.getvalue()
    assert text.startswith("m2lsp: getting ready (") and "0 of 1312 sentences done" in text
    assert "on it so far" not in text
