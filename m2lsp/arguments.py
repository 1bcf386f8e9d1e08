"""The values a numeric option may take, checked once where the option is declared (the
`type` of its argparse spec, the `convert` of its configuration key): a value out of range is
refused with a message naming the range (exit 2), before any work, never a NaN printed as a
score or an overflow deep in a scorer."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Number:
    """A finite int or float within [low, high] (`above`: strictly above `low`)."""

    kind: type = int
    low: float | None = None
    high: float | None = None
    above: bool = False

    @property
    def __name__(self) -> str:  # argparse names a type by it in its messages
        return self.describe()

    def describe(self) -> str:
        what = "an integer" if self.kind is int else "a finite number"
        if self.low is not None:
            what += f" {'greater than' if self.above else 'of at least'} {self.low:g}"
        if self.high is not None:
            what += f"{' and' if self.low is not None else ''} at most {self.high:g}"
        return what

    def __call__(self, text: str | float) -> float:
        value = self.check(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"expected {self.describe()}, not {text!r}")
        return value

    def check(self, given: object) -> float | None:
        """The value, or None when it is not one this option takes."""
        value = _parsed(given, self.kind)
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            return None
        low_ok = self.low is None or (value > self.low if self.above else value >= self.low)
        return value if low_ok and (self.high is None or value <= self.high) else None


def _parsed(given: object, kind: type) -> float | None:
    if isinstance(given, bool):
        return None
    if isinstance(given, int | float) and not (kind is int and isinstance(given, float)):
        return kind(given)
    if not isinstance(given, str):
        return None
    try:
        return kind(given.strip())
    except (ValueError, OverflowError):
        return None


BETA = Number(float, 0, 1e6, above=True)
"""F-beta's beta: positive (beta 0 would be precision alone; use P)."""
BETA_OR_ZERO = Number(float, 0, 1e6)
"""`--beta` of `score` and `compare`: 0 too, which MaxMatch takes as NUS scorer 3.2 does
(F_0 is precision); the other metrics refuse it once chosen."""
COUNT = Number(int, 0, 10**7)
"""Resamples, iterations: 0 (none) to ten million."""
SAMPLES = Number(int, 1, 10**7)
JOBS = Number(int, 1, 1024)
SEED = Number(int, 0, 2**32 - 1)
"""A seed NumPy and Python's Mersenne Twister both take."""
UNCHANGED_WORDS = Number(int, 0, 10**6)
SECONDS = Number(float, 0, 10**7)
MEBIBYTES = Number(int, 0, 2**40)
DIGITS = Number(int, 0, 15)
"""Decimals printed: past 15 a double has no more to show."""
REFERENCES = Number(int, 1, 10**4)
BATCH = Number(int, 1, 2**16)
"""Sentences a learned metric's model reads at once."""
TOKENS = Number(int, 1, 2**20)
"""A learned metric's max_length, in its tokenizer's tokens."""
WEIGHT = Number(float, -1e6, 1e6)
"""A weight or threshold of a learned metric (finite; gec-metrics' ranges are not checked
there either)."""


def converter(number: Number) -> Callable[[object], float]:
    """The same check for a configuration value: ValueError saying what is expected."""

    def convert(value: object) -> float:
        checked = number.check(value)
        if checked is None:
            raise ValueError(f"expected {number.describe()}")
        return checked

    return convert
