"""What a request may name: a user (a file name under layers/, so checked before any path
is made of it) and a role."""

from __future__ import annotations

import re

from m2lsp.errors import UsageError

ROLES = ("annotator", "curator", "manager")
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def is_name(value: object) -> bool:
    """A user name: lower-case letters, digits, `_` and `-`, a letter first, at most 32
    (never `.`, `/` or `\\`, so never a path of its own)."""
    return isinstance(value, str) and _NAME.fullmatch(value) is not None


def checked_name(value: object, what: str = "a user name") -> str:
    if not is_name(value):
        raise UsageError(f"{value!r} is not {what} (lower-case letters, digits, _ and -, "
                         "a letter first, at most 32)")
    assert isinstance(value, str)
    return value


def checked_role(value: object) -> str:
    if value not in ROLES:
        raise UsageError(f"{value!r} is not a role (one of {', '.join(ROLES)})")
    assert isinstance(value, str)
    return value
