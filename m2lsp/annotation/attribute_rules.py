"""spaCy's `attribute_ruler` applied without its Matcher: the same rules, the same writes.

In `en_core_web_sm` the attribute ruler (POS from tags and dependencies, morphology, a few
lemmas) took a quarter of the pipeline's time, nearly all of it in spaCy's general Matcher.
Its 179 rules are simple (each token's TAG, LOWER, DEP or IS_SPACE equal to, in or not in a
set of values, or LOWER searched by a regular expression; no quantifiers), so a rule set of
that kind is matched here directly: a one-token rule's outcome depends only on the token's
own values, which are looked up once per distinct (lower, tag, dep, space) and remembered.

What the ruler does is kept exactly: matches are found on the values before any rule wrote,
and applied in the ruler's order (by rule, then by span), each through spaCy's own
`set_token_attrs` with the ruler's own normalised attributes; later rules win.  A ruler
with any other kind of pattern is not replaced (`fast_ruler` returns None), and the tests
compare the two on real text (tests/annotation/test_fast_parse.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

_KEYS = ("LOWER", "TAG", "DEP", "IS_SPACE")
Values = tuple[str, str, str, bool]  # a token's LOWER, TAG, DEP, IS_SPACE
Test = Callable[[Values], bool]
Key = tuple[int, ...]  # the same as spaCy's hashes (and 0/1 for IS_SPACE)


@dataclass(frozen=True)
class Rule:
    """One pattern of the ruler: a test per token, the rule's number (its order) and the
    index of the token it writes to."""

    tests: tuple[Test, ...]
    number: int
    index: int
    first: dict  # the first token's spec, as the ruler has it


def _value_test(position: int, spec: Any) -> Test | None:
    """A test of one value, or None for a spec this module does not read."""
    if isinstance(spec, (str, bool)):
        return lambda values: values[position] == spec
    if not isinstance(spec, dict) or len(spec) != 1:
        return None
    (operator, operand), = spec.items()
    if operator == "IN" and isinstance(operand, list):
        allowed = frozenset(operand)
        return lambda values: values[position] in allowed
    if operator == "NOT_IN" and isinstance(operand, list):
        refused = frozenset(operand)
        return lambda values: values[position] not in refused
    if operator == "REGEX" and isinstance(operand, str) and position < 3:
        search = re.compile(operand).search
        return lambda values: bool(search(str(values[position])))
    return None


def _token_test(spec: Any) -> Test | None:
    if not isinstance(spec, dict) or not spec or any(key not in _KEYS for key in spec):
        return None
    tests = [_value_test(_KEYS.index(key), value) for key, value in spec.items()]
    if any(test is None for test in tests):
        return None
    checks = tuple(t for t in tests if t is not None)
    return lambda values: all(check(values) for check in checks)


def _rules(patterns: Sequence[dict]) -> list[Rule] | None:
    """The ruler's patterns as rules (a rule with several patterns gives one each, with
    the same number: writing the same attributes twice is writing them once), or None if
    one is of a kind not read here."""
    rules = []
    for number, entry in enumerate(patterns):
        index = entry.get("index", 0)
        if not isinstance(index, int) or not entry["patterns"]:
            return None
        for pattern in entry["patterns"]:
            tests = [_token_test(spec) for spec in pattern]
            if not tests or any(test is None for test in tests):
                return None
            rules.append(Rule(tuple(t for t in tests if t is not None), number, index,
                              pattern[0]))
    return rules


class FastRuler:
    """The attribute ruler `ruler`'s effect on a Doc, from its own patterns and attributes."""

    def __init__(self, ruler: Any, rules: list[Rule]) -> None:
        self.attrs = ruler.attrs
        self.single = [r for r in rules if len(r.tests) == 1]
        self.longer = [r for r in rules if len(r.tests) > 1]
        self._strings = ruler.vocab.strings
        # the one-token rules by the LOWER (else TAG) value they require, if any: a token
        # is tested against its own value's rules and the others only
        self._by_lower: dict[str, list[Rule]] = {}
        self._by_tag: dict[str, list[Rule]] = {}
        self._others: list[Rule] = []
        for rule in self.single:
            spec = rule.first
            if isinstance(spec.get("LOWER"), str):
                self._by_lower.setdefault(spec["LOWER"], []).append(rule)
            elif isinstance(spec.get("TAG"), str):
                self._by_tag.setdefault(spec["TAG"], []).append(rule)
            else:
                self._others.append(rule)
        self._seen: dict[Key, tuple[tuple[int, ...], tuple[Rule, ...]]] = {}

    def __call__(self, doc: Any) -> Any:
        from spacy.attrs import DEP, IS_SPACE, LOWER, TAG
        from spacy.tokens._retokenize import set_token_attrs

        keys = [tuple(row) for row in doc.to_array([LOWER, TAG, DEP, IS_SPACE]).tolist()]
        found: dict[int, list[int]] = {}
        for i, key in enumerate(keys):
            single, first = self._seen.get(key) or self._learn(key)
            if single:  # (a longer rule that matched earlier may have written to i)
                found.setdefault(i, []).extend(single)
            for rule in first:
                target = self._longer_match(rule, keys, i)
                if target is not None:
                    found.setdefault(target, []).append(rule.number)
        for i, numbers in found.items():
            set_token_attrs(doc[i], self._merged(sorted(numbers)))
        return doc

    def pipe(self, docs: Iterable[Any], batch_size: int = 128) -> Iterator[Any]:
        for doc in docs:
            yield self(doc)

    def _values(self, key: Key) -> Values:
        strings = self._strings
        return strings[key[0]], strings[key[1]], strings[key[2]], bool(key[3])

    def _learn(self, key: Key) -> tuple[tuple[int, ...], tuple[Rule, ...]]:
        """The one-token rules a token with these values matches, and the longer rules
        whose first token it matches (remembered per values)."""
        values = self._values(key)
        candidates = [*self._by_lower.get(values[0], ()), *self._by_tag.get(values[1], ()),
                      *self._others]
        single = sorted(r.number for r in candidates if r.tests[0](values))
        seen = (tuple(single), tuple(r for r in self.longer if r.tests[0](values)))
        self._seen[key] = seen
        return seen

    def _longer_match(self, rule: Rule, keys: list[Key], start: int) -> int | None:
        """The token a longer rule whose first token matched at `start` writes to, if the
        rest of it matches there too."""
        size = len(rule.tests)
        if start + size > len(keys):
            return None
        if not all(test(self._values(keys[start + k]))
                   for k, test in enumerate(rule.tests[1:], 1)):
            return None
        target = start + rule.index if rule.index >= 0 else start + size + rule.index
        return target if start <= target < start + size else None

    def _merged(self, numbers: list[int]) -> dict:
        if len(numbers) == 1:
            return self.attrs[numbers[0]]
        merged: dict = {}
        for number in numbers:
            merged.update(self.attrs[number])
        return merged


def fast_ruler(ruler: Any) -> FastRuler | None:
    """A FastRuler doing what `ruler` does, or None where its patterns are of another
    kind (spaCy's own then runs)."""
    try:
        patterns = ruler.patterns
    except (AttributeError, TypeError, ValueError):
        return None
    rules = _rules(patterns)
    if rules is None or len(patterns) != len(ruler.attrs):
        return None
    return FastRuler(ruler, rules)
