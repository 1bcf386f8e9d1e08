"""What a conversion could not carry over, said: every converter in `formats/` reports to a
list of these, and `m2lsp convert` prints them (and writes nothing unless told to go on)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unconverted:
    """Something a conversion could not carry over: its sentence (an id, or the M2 block's
    number), the line it stands on where that is known (0-based), and why."""

    sentence: str
    reason: str
    line: int | None = None
    unit: str = "sentence"  # what `sentence` numbers (an essay, for JSON essays)

    @property
    def where(self) -> str:
        if not self.sentence and self.line is not None:
            return f"line {self.line + 1}"
        return f"{self.unit} {self.sentence}" + ("" if self.line is None
                                                 else f" (line {self.line + 1})")


Problems = list[Unconverted] | None  # where a conversion reports what it could not carry
