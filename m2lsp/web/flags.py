"""Which done sentences of an annotator's list the linter still flags: the list marks them,
so that "done" never hides a finding the sentence's page would show.

A sentence's findings are the linter's on its block alone (`layers.findings`, what its page
lists), remembered by the block's version (a hash of its lines, so a cached count is never
another text's).  Each sentence shown or saved is remembered then; a list counts those it
does not know yet, within a time budget per request (a cold list of thousands of done
sentences is not made to wait for all of them): the rest are `null` and `unchecked` says
how many, for the page to ask again (`layers.listed`)."""

from __future__ import annotations

import threading
from collections import OrderedDict

MOST = 200_000  # versions remembered (about 20 MB), the least recently used dropped first
BUDGET = 0.15  # seconds a list spends counting the findings it does not know yet

_known: OrderedDict[str, int] = OrderedDict()
_lock = threading.Lock()


def remember(version: str, count: int) -> None:
    with _lock:
        _known[version] = count
        _known.move_to_end(version)
        while len(_known) > MOST:
            _known.popitem(last=False)


def known(version: str) -> int | None:
    with _lock:
        return _known.get(version)
