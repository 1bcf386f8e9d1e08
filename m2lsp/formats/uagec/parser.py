"""UA-GEC's annotated texts to `AnnotatedText`: annotations by `grammar/uagec.lark` (the
fast path reads a well-formed annotation with a pattern whose equivalence the tests prove;
one it rejects is parsed by Lark so that the problem names what was expected), the text
between them as it is, `\\n` inside an annotation read as a line break.  Never raises."""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedInput

from m2lsp.formats.uagec.model import AnnotatedText, Annotation, AnnProblem
from m2lsp.model import Span
from m2lsp.parsing.grammar import expected_words, parser
from m2lsp.parsing.source import SourceText

NO_SUGGESTIONS = "NO_SUGGESTIONS"
_ANNOTATION = re.compile(r"\{((?:[^{}=\n]|=(?!>))*)=>((?:[^{}:\n]|:(?!::[^:{}\n]))*)"
                         r"((?::::[^:{}\n][^{}:\n]*)*)\}")
_WORDS = {"SOURCE": "the source text", "TARGET": "the correction", "META": "':::key=value'",
          "$END": "end of annotation"}


def parse_ann(source: SourceText | str) -> AnnotatedText:
    """The annotations of a whole file (an annotation never spans lines)."""
    lines = source.lines if isinstance(source, SourceText) else SourceText(source).lines
    text: list[str] = []
    annotations: list[Annotation] = []
    problems: list[AnnProblem] = []
    offset = 0  # in the source text
    for row, line in enumerate(lines):
        if row:
            text.append("\n")
            offset += 1
        offset = _line(row, line, offset, text, annotations, problems)
    return AnnotatedText("".join(text), tuple(annotations), tuple(problems))


def _line(row: int, line: str, offset: int, text: list[str], annotations: list[Annotation],
          problems: list[AnnProblem]) -> int:
    at = 0
    while at < len(line):
        brace = min((i for i in (line.find("{", at), line.find("}", at)) if i >= 0),
                    default=-1)
        if brace < 0:
            text.append(line[at:])
            return offset + len(line) - at
        text.append(line[at:brace])
        offset += brace - at
        if line[brace] == "}":
            problems.append(AnnProblem(Span.on_line(row, brace, brace + 1),
                                       "a '}' closes no annotation ('{' before it missing)"))
            text.append("}")
            offset, at = offset + 1, brace + 1
            continue
        found = _annotation(row, line, brace, offset)
        if isinstance(found, AnnProblem):
            problems.append(found)
            close = line.find("}", brace + 1)
            end = close + 1 if close >= 0 and "{" not in line[brace + 1:close] else len(line)
            text.append(line[brace:end])
            offset, at = offset + end - brace, end
            continue
        annotation, end = found
        annotations.append(annotation)
        text.append(annotation.source)
        offset, at = offset + len(annotation.source), end
    return offset


def _annotation(row: int, line: str, start: int, offset: int
                ) -> tuple[Annotation, int] | AnnProblem:
    match = _ANNOTATION.match(line, start)
    if match is None:
        return _problem(row, line, start)
    source, target, meta = match.group(1), match.group(2) or "", match.group(3) or ""
    source = source.replace("\\n", "\n")
    suggestions = () if target == NO_SUGGESTIONS else tuple(
        s.replace("\\n", "\n") for s in target.split("|"))
    fields = tuple((key, value) for key, _, value in
                   (f.partition("=") for f in meta.split(":::")[1:]))
    annotation = Annotation(Span.on_line(row, start, match.end()), offset,
                            offset + len(source), source, suggestions, fields)
    return annotation, match.end()


def _problem(row: int, line: str, start: int) -> AnnProblem:
    """Why the annotation at `start` is not one (the grammar names what it expected)."""
    close = line.find("}", start + 1)
    end = close + 1 if close >= 0 else len(line)
    if close < 0 or "{" in line[start + 1:close]:
        return AnnProblem(Span.on_line(row, start, start + 1),
                          "a '{' that no '}' closes on its line (an annotation is "
                          "`{SOURCE=>TARGET:::error_type=TYPE}`)")
    try:
        parser("uagec", "annotation").parse(line[start:end])
    except UnexpectedInput as exc:
        expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None)
                          or ())
        wanted = expected_words(parser("uagec", "annotation"), expected, _WORDS)
        column = start + (getattr(exc, "column", 1) or 1)
        hint = f" at column {column}: expected {' or '.join(wanted)}" if wanted else ""
        return AnnProblem(Span.on_line(row, start, end), f"malformed annotation{hint} (an "
                          f"annotation is `{{SOURCE=>TARGET:::error_type=TYPE}}`)")
    return AnnProblem(Span.on_line(row, start, end), "malformed annotation")
