"""CGED's marks in the editor: each line of the open truth file found by the result (TP),
missed (FN), or for a `correct` sentence whether the result agrees (TN) or flags errors
(FP).  Plain diagnostics; the server publishes them apart from lint diagnostics."""

from __future__ import annotations

from m2lsp.diagnostic import Diagnostic, Severity
from m2lsp.model import Span
from m2lsp.scoring.cged.inputs import CgedItem
from m2lsp.scoring.review import FOUND, MISSED, NOTHING_WRONG, WRONG


def cged_diagnostics(truth: list[CgedItem], result: list[CgedItem],
                     lines: list[str] | None = None) -> list[Diagnostic]:
    """Each truth line: found by the result (TP, same position and type), missed (FN), or,
    for a `correct` line, whether the result agrees (TN) or flags errors (FP, listed)."""
    claimed: dict[str, list[CgedItem]] = {}
    for item in result:
        claimed.setdefault(item.sid, []).append(item)
    out = []
    for item in truth:
        width = len(lines[item.line]) if lines and item.line < len(lines) else len(item.sid)
        span = Span.on_line(item.line, 0, width)
        mine = claimed.get(item.sid, [])
        if item.correct:
            wrong = [c for c in mine if not c.correct]
            code, severity = (WRONG, Severity.INFO) if wrong or not mine else \
                (NOTHING_WRONG, Severity.HINT)
            text = ("FP: the system flags " + "; ".join(_item_text(c) for c in wrong)
                    if wrong else "FP: the system says nothing on this sentence" if not mine
                    else "TN: the system also finds no error")
            out.append(Diagnostic(code, text, span, severity))
            continue
        hit = any(c.type.upper() == item.type.upper() and c.position == item.position
                  for c in mine)
        code, severity = (FOUND, Severity.HINT) if hit else (MISSED,
                                                                    Severity.INFO)
        verb = "found by the system" if hit else "missed by the system"
        out.append(Diagnostic(code, f"{code}: {_item_text(item)} {verb}", span, severity))
    return out


def _item_text(item: CgedItem) -> str:
    return f"{item.position} {item.type}" if item.position else item.type
