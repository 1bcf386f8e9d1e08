"""The editor's score of a metric with no editor code of its own (PT-M2, PT-ERRANT,
GoToScorer, CGEC): the open gold's text and the system, scored as `m2lsp score` (the API)
scores them; each sentence's score, where the metric has them, a hint on the
gold's S line, and the corpus score with the signature the message."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from m2lsp.diagnostic import Diagnostic, Severity
from m2lsp.model import Span
from m2lsp.parsing.source import Text
from m2lsp.scoring.metric import EditorScore, Steps


def steps(metric: str, gold_name: str, gold_text: str, lines: Sequence[str],
          system: Path | None, system_name: str, system_text: str,
          options: Mapping[str, Any]) -> Steps:
    """Scored in one step (the server runs it in a thread); `system`: the system's file,
    else its text (an open document, `system_name` its URI).  The texts go to the API as
    they are, named as the editor knows them (a metric that still reads files has them
    written to the API's temporary folder)."""
    from m2lsp.api.scoring import score

    yield 0
    gold = Text.of(gold_name, gold_text)
    given = system if system is not None else Text.of(system_name, system_text)
    found = score(given, gold=gold, metric=metric,
                  **{k: v for k, v in options.items() if k != "metric"})
    return shown(metric, found.data, found.score, found.signature, lines)


def shown(metric: str, data: Mapping[str, Any], corpus: float | None, signature: str,
          lines: Sequence[str]) -> EditorScore:
    """The marks, message and answer of a score: a hint per S line when the metric gives
    as many sentence scores as the gold has S lines."""
    from m2lsp.editor.attribution import source_lines

    rows = source_lines(lines)
    sentences = data.get("sentence_scores")
    marks = []
    if isinstance(sentences, list) and len(sentences) == len(rows):
        marks = [Diagnostic(metric, f"{metric} {value:.4f} (sentence)",
                            Span.on_line(row, 0, len(lines[row])), Severity.HINT)
                 for row, value in zip(rows, sentences, strict=True)
                 if isinstance(value, int | float)]
    number = "n/a" if corpus is None else f"{corpus:.4f}"
    return EditorScore(marks, f"{metric} {number}  ({signature})", dict(data))
