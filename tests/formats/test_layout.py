"""A format is one folder under `m2lsp/formats/` (its model, parser, writer and
conversions to and from M2) plus its rule family in `m2lsp/rules/`: nothing of it at the
top of the package, in `parsing/` (which keeps M2 and what every format shares) or in a
`conversion` module beside them."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "m2lsp"
FORMATS = {"m2", "cged", "bea_json", "brat", "multigec", "uagec", "parallel"}
# each rule family of a format, and the format's folder
FAMILIES = {"bea_json": "bea_json", "cged": "cged", "cged_input": "cged",
            "cged_truth": "cged", "multigec": "multigec", "uagec": "uagec"}


def _folders() -> set[str]:
    return {p.name for p in (PACKAGE / "formats").iterdir()
            if (p / "__init__.py").is_file()}


def test_each_format_has_one_folder() -> None:
    assert _folders() == FORMATS


def test_no_format_module_is_left_outside_its_folder() -> None:
    loose = sorted(p.relative_to(PACKAGE).as_posix() for p in
                   [*PACKAGE.glob("*_model.py"), *PACKAGE.glob("conversion*.py"),
                    *(PACKAGE / "formats").glob("*.py")]
                   if p.name not in ("__init__.py", "unconverted.py"))
    # parsing/ keeps M2 and what every format reads through (source, grammar, detect)
    parsing = sorted(p.name for p in (PACKAGE / "parsing").glob("*.py")
                     if any(p.stem.startswith(name) for name in FORMATS - {"m2"}))
    assert (loose, parsing) == ([], [])


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_format_rule_family_has_its_format_folder(family: str) -> None:
    assert (PACKAGE / "rules" / f"{family}.py").is_file()
    assert FAMILIES[family] in _folders()
