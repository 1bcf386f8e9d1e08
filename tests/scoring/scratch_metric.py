"""A metric written for a test, as a new one is written: this module and one registry line.
`scratch` is the share of system lines equal to the gold's sentences (M2 S lines)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from m2lsp.scoring.metric import Flag, MetricBase, Request, ScoreBase
from m2lsp.scoring.signature import Signature, signed


@dataclass(frozen=True)
class ScratchScore(ScoreBase):
    same: float
    gold_text: str

    @property
    def signature(self) -> str:
        return signed(Signature("SCRATCH", (("scorer", "scratch"),)), self.gold_text)

    def text(self, request: Request) -> str:
        return f"Same : {self.same:.4f}\n{self.signature}\n"

    def json(self, request: Request) -> dict[str, Any]:
        return {"metric": "scratch", "signature": self.signature, "same": self.same}


class Scratch(MetricBase):
    name = "scratch"
    help = "scratch (a test's metric: system lines equal to the gold's sentences)"
    shared: frozenset[str] = frozenset()
    flags = (Flag(("--scratch-strip",), "scratch: compare lines stripped",
                  {"action": "store_true", "dest": "scratch_strip"}),)

    def run(self, request: Request) -> ScratchScore:
        from m2lsp.parsing.source import read_source

        assert request.gold is not None
        gold = read_source(request.gold, "gold").text
        sources = [line[2:] for line in gold.splitlines() if line.startswith("S ")]
        system = read_source(request.system, "system").text.splitlines()
        same = sum(a == b for a, b in zip(system, sources, strict=False))
        return ScratchScore(same / max(len(sources), 1), gold)


METRIC = Scratch()
