"""What a hover says: on an A line, the tokens its span covers, the corrections, the error
type's meaning, and the sentence as its annotator corrects it; on a scored S line, the
sentence's score in words (`score_hover`)."""

from __future__ import annotations

from m2lsp.editor.navigation import edit_at
from m2lsp.model import NONE_CORRECTION, Block, Edit, M2Document, corrected_sentence
from m2lsp.scoring.review import FOUND, MISSED, WRONG, SentenceReview, escape
from m2lsp.taxonomy import Taxonomy


def covered_text(block: Block, edit: Edit) -> str | None:
    if block.sentence is None or edit.is_noop:
        return None
    tokens = block.sentence.tokens
    if not 0 <= edit.start <= edit.end <= len(tokens):
        return None
    return " ".join(tokens[edit.start:edit.end])


def hover(doc: M2Document, line: int, taxonomy: Taxonomy | None) -> str | None:
    """Markdown for a hover on an A line: the tokens its span covers, the corrections, the
    error type's meaning, and the sentence as its annotator corrects it."""
    found = edit_at(doc, line)
    if found is None:
        return None
    _, block, edit = found
    if edit.is_noop:
        return f"**noop**: annotator {edit.annotator.strip()} makes no edit in this sentence"
    covered = covered_text(block, edit)
    where = f"tokens {edit.start}–{edit.end}"
    original = "∅ (insertion point)" if covered == "" else (
        f"`{covered}`" if covered is not None else "(outside the sentence)")
    alternatives = " or ".join(f"`{c}`" if c.strip() and c != NONE_CORRECTION
                               else "∅ (deletion)" for c in edit.corrections) or "(none)"
    parts = [f"**{edit.type}** {where}: {original} → {alternatives}"]
    meaning = taxonomy.types.get(edit.type) if taxonomy is not None else None
    if meaning and taxonomy is not None:
        parts.append(f"{edit.type}: {meaning} ({taxonomy.title})")
    corrected = corrected_sentence(block, edit.annotator)
    if corrected is not None:
        parts.append(f"Annotator {edit.annotator.strip()}: {corrected}")
    return "\n\n".join(parts)


def score_hover(review: SentenceReview, beta: float) -> str:
    """Markdown for the S line: source, system, each annotator's corrected sentence, and
    every edit in plain words."""
    lines = [f"**Sentence {review.index + 1}** · {review.summary(beta)}", "",
             f"source: {escape(review.source)}", "",
             f"system: {escape(review.hypothesis)}", ""]
    for annotator, text in review.corrected:
        chosen = " (chosen: **found**, _missed_)" if annotator == review.annotator else ""
        lines += [f"annotator {annotator}{chosen}: {text}", ""]
    symbols = {FOUND: "✓", WRONG: "✗", MISSED: "–"}
    lines += [f"- {symbols[m.kind]} {escape(m.message)}" for m in review.marks]
    return "\n".join(lines)
