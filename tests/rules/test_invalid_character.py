"""A NUL or a lone surrogate is a located X005 finding in every output format, not a clean
`check` (where it used to pass) and never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main

M2 = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
CASES = [  # (file name, bytes, extra arguments, (line, column) of the finding)
    ("nul.m2", M2.replace("cat", "c\0at").encode(), [], (1, 8)),
    ("utf16.m2", M2.encode("utf-16-le"), ["--format", "m2"], (1, 2)),  # read as UTF-8
    ("escaped.m2", M2.replace("cat", "c\\ud800at").encode(), ["--encoding", "unicode_escape"],
     (1, 8)),
    ("essay.json", b'{"text": "The c\\ud800at sat.", "edits": [[0, []]]}\n', [], (1, 16)),
    ("nul.json", b'{"text": "The \\u0000cat sat.", "edits": [[0, []]]}\n', [], (1, 15)),
]


@pytest.mark.parametrize(("name", "data", "extra", "where"), CASES)
@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_invalid_characters_are_located_findings(tmp_path: Path, capsys, name: str,
                                                 data: bytes, extra: list[str],
                                                 where: tuple[int, int], output: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["check", str(path), "--select", "X005", "--output-format", output,
                 *extra]) == 1
    out = capsys.readouterr().out
    line, col = where
    located = {"text": f"{path}:{line}:{col}: X005 ",
               "github": f"line={line},col={col},",
               "json": '"code": "X005"', "sarif": '"ruleId": "X005"'}[output]
    assert located in out
    if output == "json":
        found = json.loads(out)
        # one finding a line, at its first such character
        assert (found[0]["location"]["row"], found[0]["location"]["column"]) == where
        assert len({f["location"]["row"] for f in found}) == len(found)


def test_a_surrogate_pair_escape_and_an_escaped_backslash_are_fine(tmp_path: Path,
                                                                   capsys) -> None:
    path = tmp_path / "essay.json"
    path.write_bytes(b'{"text": "A \\ud83d\\ude00 and \\\\u0000.", "edits": [[0, []]]}\n')
    assert main(["check", str(path), "--select", "X005"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(("target", "output"), [("parallel", None), ("parallel", "out.tsv"),
                                                ("bea-json", "out.json"),
                                                ("brat", "out/doc.ann")])
def test_a_lone_surrogate_is_a_clear_error_where_it_cannot_be_written(
        tmp_path: Path, capsys, target: str, output: str | None) -> None:
    """Written out, it was a UnicodeEncodeError traceback."""
    path = tmp_path / "escaped.m2"
    path.write_bytes(M2.replace("cat", "c\\ud800at").encode())
    extra = ["-o", str(tmp_path / output)] if output else []
    assert main(["convert", str(path), "--encoding", "unicode_escape", "--to", target,
                 *extra]) == 2
    err = capsys.readouterr().err
    assert "m2lsp: error: the input holds a lone surrogate (U+D800), which UTF-8 cannot hold"\
        in err
    assert output is None or not (tmp_path / output).exists()
