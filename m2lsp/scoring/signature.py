"""How a score was made, printed with it (as sacreBLEU's signatures): the metric's name, its
options and the tool it reproduces, then -- once the references are known -- a hash of them
and m2lsp's version.  Every signature is a `Signature`; its text is what is printed:
`M2|beta:0.5|max-unchanged:2|...|scorer:nus-m2-3.2|refs-hash:4bf22cbe1311|m2lsp:0.1.0`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

Field = tuple[str, str | None]  # (key, value); a value of None prints the key alone


@dataclass(frozen=True)
class Signature:
    """A metric's name and its fields, in the order they print."""

    name: str
    fields: tuple[Field, ...] = ()

    def __str__(self) -> str:
        parts = [key if value is None else f"{key}:{value}" for key, value in self.fields]
        return "|".join([self.name, *parts])

    def with_fields(self, *more: Field) -> Signature:
        return replace(self, fields=(*self.fields, *more))

    def signed(self, *reference_texts: str | bytes) -> Signature:
        """The full signature: a hash of the references, and m2lsp's version last."""
        from m2lsp.version import __version__

        return self.with_fields(("refs-hash", reference_hash(*reference_texts)),
                                ("m2lsp", __version__))


def reference_hash(*texts: str | bytes) -> str:
    """A short hash of the references a score was computed against: two scores with the same
    signature were computed against the same data."""
    digest = _sha256()
    for text in texts:
        # the same references with CRLF or LF line ends are the same references
        text = (text.replace("\r\n", "\n") if isinstance(text, str)
                else text.replace(b"\r\n", b"\n"))
        # surrogatepass: an editor's text may hold a lone surrogate (UTF-16 half); valid
        # text hashes exactly as plain UTF-8
        digest.update(text.encode("utf-8", "surrogatepass") if isinstance(text, str)
                      else text)
        digest.update(b"\0")
    return digest.hexdigest()[:12]


def signed(base: Signature, *reference_texts: str | bytes) -> str:
    """The printed text of `base` signed with its references (see `Signature.signed`)."""
    return str(base.signed(*reference_texts))


def _sha256() -> Any:
    """SHA-256 from the interpreter's own module where it has one (CPython 3.11's `_sha256`,
    3.12's `_sha2`): hashlib first loads OpenSSL, a tenth of a short command's start."""
    from importlib import import_module

    for name in ("_sha256", "_sha2"):
        try:
            return import_module(name).sha256()
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256()
