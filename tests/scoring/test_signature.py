"""Every signature is a `Signature`: its text is the metric's name, its fields in order (a
bare key where it has no value), then the references' hash and m2lsp's version."""

from __future__ import annotations

import pytest

from m2lsp import __version__
from m2lsp.scoring.errant.compare import ErrantSettings
from m2lsp.scoring.m2.maxmatch import M2Settings
from m2lsp.scoring.signature import Signature, reference_hash, signed

TABLE = [
    (M2Settings().signature(),
     "M2|beta:0.5|max-unchanged:2|ignore-whitespace-casing:no|scorer:nus-m2-3.2"),
    (ErrantSettings(beta=1.0, mode="ds", single=True, filtered=("M", "R")).signature(),
     "ERRANT|beta:1|mode:ds|single|filter:M,R|scorer:errant_compare-3.0.2"),
    (Signature("CGED", (("scorer", "evaluation.pl-2018"),)), "CGED|scorer:evaluation.pl-2018"),
    (Signature("X"), "X"),
]


@pytest.mark.parametrize(("signature", "text"), TABLE)
def test_signature_text(signature, text) -> None:
    assert str(signature) == text


def test_signed_adds_the_references_hash_and_the_version() -> None:
    base = Signature("M2", (("beta", "0.5"),))
    assert signed(base, "gold text") == (f"M2|beta:0.5|refs-hash:{reference_hash('gold text')}"
                                         f"|m2lsp:{__version__}")
    assert reference_hash("a", "b") != reference_hash("ab")  # texts are kept apart
