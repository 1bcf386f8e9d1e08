"""The Lark parsers, built once from the grammars shipped as package data."""

from __future__ import annotations

from functools import cache

from lark import Lark

GRAMMAR_PACKAGE = "m2lsp.grammar"


@cache
def parser(name: str, *start: str) -> Lark:
    """An LALR parser for `grammar/<name>.lark` with the given start symbols."""
    return Lark.open_from_package(
        GRAMMAR_PACKAGE,
        f"{name}.lark",
        parser="lalr",
        start=list(start),
        propagate_positions=True,
        maybe_placeholders=True,
    )


def expected_words(lark: Lark, names: object, words: dict[str, str]) -> list[str]:
    """Readable names for the terminals a parse error expected: `words` first, then the
    literal text of anonymous terminals ('<DOC>', '>'), then the terminal's own name."""
    out = set()
    for name in names or ():
        if name in words:
            out.add(words[name])
            continue
        try:
            pattern = lark.get_terminal(name).pattern
        except KeyError:
            out.add(name)
            continue
        out.add(repr(pattern.value) if pattern.type == "str" else name.lower())
    return sorted(out)
