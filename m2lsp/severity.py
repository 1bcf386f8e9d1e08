"""How serious a finding is, numbered as in LSP: its own module, so that reading the
configuration does not load the diagnostic model."""

from __future__ import annotations

from enum import IntEnum


class Severity(IntEnum):
    """Numbered as in LSP."""

    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: str) -> Severity:
        """'error', 'warning', 'info' (or 'information'), 'hint'; ValueError otherwise."""
        key = value.strip().lower()
        if key == "information":
            key = "info"
        for member in cls:
            if member.label == key:
                return member
        raise ValueError(f"unknown severity {value!r}: use error, warning, info or hint")
