"""CGED SGML/XML text to `CgedDocument`, one <DOC> at a time.

`grammar/cged.lark` defines the format.  Real files are malformed in places (the 2020
release drops 301 `<DOC>` start tags), so the text is cut into chunks that each end at a
`</DOC>`, and every chunk is parsed on its own: one broken element costs one diagnostic,
not the rest of the file.  Lark is fast enough here (the largest release file, 560 KB,
parses in about half a second), so there is no separate fast path.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any, cast

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from m2lsp.formats.cged.model import Attribute, CgedDoc, CgedDocument, CgedError, CgedProblem
from m2lsp.model import Span
from m2lsp.parsing.grammar import expected_words, parser
from m2lsp.parsing.source import SourceText

_DOC_END = re.compile(r"</(?:DOC|ESSAY)\s*>")
_DOC_START = re.compile(r"\s*<DOC\s*>")
_ESSAY_START = re.compile(r"\s*<ESSAY[\s>]")
_DECL = re.compile(r"\s*<\?xml[^>]*\?>")


def parse_cged(source: SourceText | str) -> CgedDocument:
    """Parse CGED SGML; never raises for bad input (see `CgedDocument.problems`)."""
    text = source.normalized if isinstance(source, SourceText) else source
    locator = Locator(text)
    docs: list[CgedDoc] = []
    problems: list[CgedProblem] = []
    for start, end in _chunks(text):
        chunk = text[start:end]
        if not chunk.strip():
            continue
        if _ESSAY_START.match(chunk):
            found, trouble = _parse_essay(chunk, start, locator)
            docs += found
            problems += trouble
            continue
        doc, problem = _parse_chunk(chunk, start, locator)
        if doc is not None:
            docs.append(doc)
        if problem is not None:
            problems.append(problem)
    return CgedDocument(tuple(docs), tuple(problems))


def _chunks(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the pieces of text that each end with a </DOC>."""
    out = []
    pos = 0
    declaration = _DECL.match(text)
    if declaration:
        pos = declaration.end()
    for match in _DOC_END.finditer(text):
        out.append((pos, match.end()))
        pos = match.end()
    if text[pos:].strip():
        out.append((pos, len(text)))
    return out


class Locator:
    """Character offsets of a text to (line, column) positions."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]

    def span(self, start: int, end: int) -> Span:
        line, col = self.position(start)
        end_line, end_col = self.position(end)
        return Span(line, col, end_line, end_col)


MISSING_DOC_START = "missing <DOC> start tag"


def _parse_chunk(chunk: str, offset: int, locator: Locator) -> tuple[
        CgedDoc | None, CgedProblem | None]:
    """Parse one chunk; a chunk without its <DOC> tag is parsed as if it had one."""
    lead = len(chunk) - len(chunk.lstrip())
    body = chunk[lead:]
    has_start = _DOC_START.match(body) is not None
    prefix = "" if has_start else "<DOC>"
    try:
        tree = parser("cged", "document", "doc").parse(prefix + body, start="doc")
    except UnexpectedInput as exc:
        at = offset + lead + max(exc.pos_in_stream - len(prefix), 0) if exc.pos_in_stream \
            is not None else offset + lead
        return None, CgedProblem(locator.span(at, at + 1), _describe(exc))
    doc = Builder(locator, offset + lead - len(prefix)).doc(tree)
    problem = None
    if not has_start:
        problem = CgedProblem(locator.span(offset + lead, offset + lead), MISSING_DOC_START)
    return doc, problem


def _parse_essay(chunk: str, offset: int, locator: Locator) -> tuple[
        list[CgedDoc], list[CgedProblem]]:
    """Parse one NLP-TEA 2014 `<ESSAY>`: a CgedDoc per sentence, each with its MISTAKEs."""
    lead = len(chunk) - len(chunk.lstrip())
    try:
        tree = parser("cged", "document", "doc", "essay").parse(chunk[lead:], start="essay")
    except UnexpectedInput as exc:
        at = offset + lead + (exc.pos_in_stream or 0)
        return [], [CgedProblem(locator.span(at, at + 1), _describe(exc))]
    return Builder(locator, offset + lead).essay(tree)


def _describe(exc: UnexpectedInput) -> str:
    expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
    words = expected_words(parser("cged", "document", "doc"), expected, _TERMINALS)
    found = getattr(exc, "token", None) or getattr(exc, "char", "")
    text = f"unexpected {str(found)[:20]!r}"
    return f"{text}; expected {' or '.join(words)}" if words else text


_TERMINALS = {
    "_WS": "whitespace", "NAME": "an attribute name", "VALUE": "a quoted value",
    "CONTENT": "text", "$END": "end of file",
}


@dataclass(frozen=True)
class Builder:
    """Builds model objects from a `doc` tree whose text starts at `base` in the file."""

    locator: Locator
    base: int

    def span(self, node: Tree | Token) -> Span:
        if isinstance(node, Token):
            return self.locator.span(self.base + (node.start_pos or 0),
                                     self.base + (node.end_pos or 0))
        return self.locator.span(self.base + node.meta.start_pos, self.base + node.meta.end_pos)

    def essay(self, tree: Tree) -> tuple[list[CgedDoc], list[CgedProblem]]:
        """An essay's sentences, each a CgedDoc (style "essay") with the MISTAKEs that name
        it; a MISTAKE naming no sentence of the essay is a problem."""
        parts = [c for c in tree.children if isinstance(c, Tree)]
        text = next(c for c in parts if c.data == "essay_text")
        mistakes = [self.mistake(c) for c in parts if c.data == "mistake"]
        docs, problems = [], []
        sentences = [c for c in text.children if isinstance(c, Tree)]
        ids = {self._id(s) for s in sentences}
        for mistake in mistakes:
            named = mistake.attribute("id")
            if named is None or named.value not in ids:
                what = "no id" if named is None else f"id {named.value!r}, no sentence"
                problems.append(CgedProblem(mistake.span, f"<MISTAKE> with {what} of its "
                                            "<ESSAY>: it belongs to no sentence"))
        for sentence in sentences:
            own = tuple(m for m in mistakes if (a := m.attribute("id")) is not None
                        and a.value == self._id(sentence))
            content, span = self.content(sentence.children[-1], sentence)
            docs.append(self._make(sentence, self.attributes(sentence), content, span, None,
                                   own, "essay"))
        return docs, problems

    def _id(self, sentence: Tree) -> str:
        return next((a.value for a in self.attributes(sentence) if a.name == "id"), "")

    def doc(self, tree: Tree) -> CgedDoc:
        inner = tree.children[0]
        if inner.data == "sentence_doc":
            return self._sentence_doc(tree, inner)
        return self._text_doc(tree, inner)

    def _sentence_doc(self, tree: Tree, inner: Tree) -> CgedDoc:
        sentence, *mistakes = inner.children
        attributes = self.attributes(sentence)
        text, text_span = self.content(sentence.children[-1], sentence)
        errors = tuple(self.mistake(m) for m in mistakes)
        return self._make(tree, attributes, text, text_span, None, errors, "sentence")

    def _text_doc(self, tree: Tree, inner: Tree) -> CgedDoc:
        text_el, *rest = inner.children
        attributes = self.attributes(text_el)
        text, text_span = self.content(text_el.children[-1], text_el)
        correction = None
        errors = []
        for child in rest:
            if child.data == "correction":
                correction = self.content(child.children[0], child)[0]
            else:
                errors.append(self.error(child))
        return self._make(tree, attributes, text, text_span, correction, tuple(errors), "text")

    def _make(self, tree: Tree, attributes: tuple[Attribute, ...], text: str, text_span: Span,
              correction: str | None, errors: tuple[CgedError, ...], style: str) -> CgedDoc:
        id_attr = next((a for a in attributes if a.name == "id"), None)
        span = self.span(tree)
        return CgedDoc(span, id_attr.value if id_attr else "",
                       id_attr.value_span if id_attr else span, text, text_span, correction,
                       errors, style, id_attr)

    def mistake(self, tree: Tree) -> CgedError:
        type_el, correction = (c for c in tree.children if isinstance(c, Tree)
                               and c.data in ("type", "correction"))
        etype, type_span = self.content(type_el.children[0], type_el)
        return CgedError(self.span(tree), self.attributes(tree), etype, type_span,
                         self.content(correction.children[0], correction)[0])

    def error(self, tree: Tree) -> CgedError:
        attributes = self.attributes(tree)
        type_attr = next((a for a in attributes if a.name == "type"), None)
        if type_attr is None:
            return CgedError(self.span(tree), attributes, "", self.span(tree))
        return CgedError(self.span(tree), attributes, type_attr.value, type_attr.value_span)

    def attributes(self, tree: Tree) -> tuple[Attribute, ...]:
        out = []
        previous_end = None
        for child in tree.children:
            if isinstance(child, Tree) and child.data == "attribute":
                out.append(self.attribute(child, glued=previous_end == child.meta.start_pos))
                previous_end = child.meta.end_pos
        return tuple(out)

    def attribute(self, tree: Tree, glued: bool) -> Attribute:
        name, value = cast(list[Any], tree.children)
        start = self.base + value.start_pos + 1
        value_span = self.locator.span(start, start + len(value) - 2)
        return Attribute(str(name), str(value)[1:-1], self.span(tree), value_span, glued)

    def content(self, token: Any, owner: Tree) -> tuple[str, Span]:
        """Element text stripped of surrounding whitespace, and where it stands."""
        if not isinstance(token, Token):
            end = self.base + owner.meta.end_pos
            return "", self.locator.span(end, end)
        raw = str(token)
        lead = len(raw) - len(raw.lstrip())
        text = raw.strip()
        start = self.base + (token.start_pos or 0) + lead
        return text, self.locator.span(start, start + len(text))
