"""CGED SGML and truth files, written from CGED sentences (`conversion.CharSentence`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from m2lsp.formats.cged.conversion import CharSentence
from m2lsp.formats.unconverted import Problems, Unconverted


def to_cged(sentences: Iterable[CharSentence], ids: Sequence[str] | None = None) -> str:
    """CGED SGML in the 2016-2021 `<TEXT>`/`<ERROR>` style."""
    out = []
    for number, sentence in enumerate(sentences):
        sid = ids[number] if ids is not None and number < len(ids) else sentence.id
        out += ["<DOC>", f"<TEXT id={quoteattr(sid)}>", escape(sentence.text), "</TEXT>"]
        if sentence.correction is not None:
            out += ["<CORRECTION>", escape(sentence.correction), "</CORRECTION>"]
        for error in sentence.errors:
            answer = "" if error.answer is None else f" answer={quoteattr(error.answer)}"
            out.append(f'<ERROR start_off="{error.start}" end_off="{error.end}" '
                       f'type="{error.type}"{answer}></ERROR>')
        out.append("</DOC>")
    return "\n".join(out) + "\n" if out else ""


def to_truth(sentences: Iterable[CharSentence], problems: Problems = None) -> str:
    """A CGED truth file: `id, start, end, TYPE[, answer]`, or `id, correct`.  An answer
    with a comma cannot be written (the fields are comma separated): the error is written
    without it, and reported to `problems`."""
    lines = []
    for sentence in sentences:
        if not sentence.errors:
            lines.append(f"{sentence.id}, correct")
        for error in sentence.errors:
            answer = f", {error.answer}" if error.answer and error.type in "SM" else ""
            if "," in answer[2:]:
                answer = ""
                if problems is not None:
                    problems.append(Unconverted(sentence.id, f"the correction "
                                    f"{error.answer!r} has a comma, which a truth file "
                                    "cannot hold (its fields are comma separated)"))
            lines.append(f"{sentence.id}, {error.start}, {error.end}, {error.type}{answer}")
    return "\n".join(lines) + "\n" if lines else ""

