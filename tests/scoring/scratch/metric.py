"""The scratch metric's work: `METRIC`, which holds the package's declaration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from m2lsp.scoring.metric import MetricBase, Request, ScoreBase
from m2lsp.scoring.signature import Signature, signed
from tests.scoring.scratch import DECLARATION


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
    declaration = DECLARATION

    def run(self, request: Request) -> ScratchScore:
        from m2lsp.parsing.source import read_source

        assert request.gold is not None
        gold = read_source(request.gold, "gold").text
        sources = [line[2:] for line in gold.splitlines() if line.startswith("S ")]
        system = read_source(request.system, "system").text.splitlines()
        same = sum(a == b for a, b in zip(system, sources, strict=False))
        return ScratchScore(same / max(len(sources), 1), gold)


METRIC = Scratch()
