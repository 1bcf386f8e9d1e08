"""M011 flags every character the NUS scorer's `splitlines()` breaks a line at, the ASCII
ones too: in a file of ASCII only it flagged none (a shortcut took `isascii()` for "none of
them here"), and a streamed check, whose chunks can be ASCII where the file is not, missed
what `lint` of the whole file found."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main


@pytest.mark.parametrize("character", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
                                       "\u2028", "\u2029"])
def test_each_is_flagged_in_a_file_of_its_own(tmp_path: Path, capsys, character: str) -> None:
    path = tmp_path / "gold.m2"
    path.write_text(f"S The cat{character}sat .\n", encoding="utf-8")
    assert main(["check", "--select", "M011", str(path)]) == 1
    assert f"1:10: M011 U+{ord(character):04X} inside a line" in capsys.readouterr().out
