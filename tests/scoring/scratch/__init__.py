"""A metric written for a test, as a new one is written: this folder (its declaration here,
its work in `metric.py`) and one registry line.  `scratch` is the share of system lines
equal to the gold's sentences (M2 S lines)."""

from __future__ import annotations

from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "scratch", "scratch (a test's metric: system lines equal to the gold's sentences)",
    flags=(Flag(("--scratch-strip",), "scratch: compare lines stripped",
                {"action": "store_true", "dest": "scratch_strip"}),))
