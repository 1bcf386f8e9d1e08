"""The few Python 2.7 behaviours of NUS M2 scorer 3.2 that Python 3 does not share.

The scorer runs on Python 2.7; these functions give the same answers in Python 3:

- `split` / `strip`: Python 2.7's Unicode database counts U+180E MONGOLIAN VOWEL SEPARATOR
  as whitespace; Python 3's does not.
- `int_dict_order`: a Python 2.7 dict iterates in slot order, not insertion order.  For
  small non-negative integer keys that is ascending order, which decides which annotator
  wins a complete tie; larger or negative ids follow the open-addressing probe sequence.
"""

from __future__ import annotations

import functools
import re

from m2lsp.model import MAX_DIGITS, read_int

_U180E = "\u180e"
# Every character Python 2.7's unicode.isspace() accepts.
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u180e"
              + "".join(chr(c) for c in range(0x2000, 0x200b)) + "\u2028\u2029\u202f\u205f\u3000")
_INT = re.compile(r"[ \t\n\x0b\x0c\r]*([+-]?[0-9]+)[ \t\n\x0b\x0c\r]*", re.ASCII)


def split(text: str) -> list[str]:
    """`text.split()` as Python 2.7 splits a unicode string."""
    if _U180E in text:
        text = text.replace(_U180E, " ")
    return text.split()


def strip(text: str) -> str:
    """`text.strip()` as Python 2.7 strips a unicode string."""
    return text.strip(WHITESPACE)


def parse_int(text: str) -> int | None:
    """What Python 2.7's `int(text)` returns for a byte string, or None where it raises (and
    where it has more than MAX_DIGITS digits: m2lsp does not read such numbers)."""
    if text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS:
        return int(text)
    match = _INT.fullmatch(text)
    return read_int(match.group(1)) if match else None


_MASK64 = (1 << 64) - 1


def _py2_hash(key: int) -> int:
    return -2 if key == -1 else key


@functools.lru_cache(maxsize=256)
def _order(keys: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(_int_dict_order(list(keys)))


def int_dict_order(keys: list[int]) -> list[int]:
    """The iteration order of a Python 2.7 dict after inserting `keys` in order (repeats
    keep their first slot)."""
    return list(_order(tuple(keys)))


def _int_dict_order(keys: list[int]) -> list[int]:
    size = 8
    table: list[int | None] = [None] * size
    used = 0
    seen: set[int] = set()  # (`key in table` scanned the table: quadratic in the keys)
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        _insert(table, key)
        used += 1
        if used * 3 >= size * 2:  # fill == used: nothing is ever deleted
            size = _resized(used)
            old, table = table, [None] * size
            for existing in old:
                if existing is not None:
                    _insert(table, existing)
    return [key for key in table if key is not None]


def _resized(used: int) -> int:
    minused = (2 if used > 50000 else 4) * used
    size = 8
    while size <= minused:
        size <<= 1
    return size


def _insert(table: list[int | None], key: int) -> None:
    mask = len(table) - 1
    hashed = _py2_hash(key) & _MASK64
    index = hashed & mask
    perturb = hashed
    while table[index & mask] is not None:
        index = (5 * index + perturb + 1) & _MASK64
        perturb >>= 5
    table[index & mask] = key


def float_str(value: float) -> str:
    """`str(value)` in Python 2.7, which `print` uses: 12 significant digits, not the
    shortest repr (`0.454545454545`, not `0.45454545454545453`)."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    text = format(value, ".12g")
    return text if any(c in text for c in ".e") else text + ".0"


def unicode_repr(text: str) -> str:
    """`repr(text)` of a Python 2.7 unicode string: `u'...'`, everything outside printable
    ASCII escaped (`u'l\\xe0'`, `u'\\u4e2d'`)."""
    quote = '"' if "'" in text and '"' not in text else "'"
    out = ["u", quote]
    for char in text:
        code = ord(char)
        if char in (quote, "\\"):
            out.append("\\" + char)
        elif code >= 0x10000:
            out.append(f"\\U{code:08x}")
        elif code >= 0x100:
            out.append(f"\\u{code:04x}")
        elif char in _CONTROL:
            out.append(_CONTROL[char])
        elif code < 0x20 or code >= 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(char)
    out.append(quote)
    return "".join(out)


_CONTROL = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
