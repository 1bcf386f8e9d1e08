"""ERRANT's marks in the editor (scored once, not live): per-sentence P/R/F on each S line of
the reference M2, whether each reference edit was found (TP) or missed (FN), and each false
positive on the source tokens it touches.  Plain diagnostics; the server publishes them
apart from lint diagnostics (source `m2lsp-score`)."""

from __future__ import annotations

from m2lsp.diagnostic import Diagnostic, Severity
from m2lsp.model import M2Document, Span, block_at
from m2lsp.scoring.errant.compare import ErrantResult, ErrantSentence, f_score
from m2lsp.scoring.review import FOUND, MISSED, SENTENCE, WRONG


def _line_length(document: M2Document, line: int) -> int:
    found = block_at(document, line)
    if found is None:
        return 0
    start, block = found
    return len(block.lines[line - start])


def errant_diagnostics(result: ErrantResult, document: M2Document) -> list[Diagnostic]:
    """Diagnostics for every sentence of an ERRANT `result` on the reference `document`:
    P/R/F on the S line, TP and FN on the reference edit lines, FP on the source tokens."""
    beta = result.settings.beta
    out: list[Diagnostic] = []
    for sentence in result.sentences:
        out.extend(_errant_sentence(sentence, document, beta))
    out.sort(key=lambda d: d.sort_key)
    return out


def _errant_sentence(sentence: ErrantSentence, document: M2Document, beta: float
                     ) -> list[Diagnostic]:
    best, line = sentence.best, sentence.line
    p, r, f = f_score(best.tp, best.fp, best.fn, beta)
    found = block_at(document, line)
    source = found[1].sentence if found is not None else None
    s_span = source.span().shifted(line - source.row) if source else Span.on_line(line, 0, 1)
    out = [Diagnostic(SENTENCE, f"P {p:.4f}  R {r:.4f}  F{beta:g} {f:.4f}  (ERRANT, reference "
                      f"annotator {best.ref.coder}: {best.tp} TP, {best.fp} FP, {best.fn} FN)",
                      s_span, Severity.INFO)]
    for keys, code, severity, verb in ((best.true_positives, FOUND, Severity.HINT,
                                        "found by the system"),
                                       (best.false_negatives, MISSED, Severity.INFO,
                                        "missed by the system")):
        for key in keys:
            edit_line = best.ref.lines[key]
            out.append(Diagnostic(code, f"{code}: reference edit {_key_text(key)} {verb}",
                                  Span.on_line(edit_line, 0, _line_length(document, edit_line)),
                                  severity))
    for key in best.false_positives:
        span = s_span
        if source is not None and key[0] >= 0:
            span = source.tokens_span(key[0], key[1]).shifted(line - source.row)
        out.append(Diagnostic(WRONG, f"FP: system edit {_key_text(key)} "
                              f"({best.hyp.types[key][0]}) is not in the reference", span,
                              Severity.INFO))
    return out


def _key_text(key: tuple) -> str:
    """`3 4 'the'`, or `3 4` for detection keys."""
    return f"{key[0]} {key[1]}" + (f" '{key[-1]}'" if len(key) > 2 else "")


