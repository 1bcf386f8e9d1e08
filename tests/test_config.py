"""Settings from editors: the server's keys apply, the clients' own keys pass silently,
anything else is logged and skipped."""

from __future__ import annotations

import logging

import pytest

from m2lsp.config import config_from_mapping


def test_client_keys_are_not_server_options(caplog):
    with caplog.at_level(logging.WARNING, logger="m2lsp"):
        config = config_from_mapping({"server": {"command": ["python3"]}, "trace": {},
                                      "maxUnchangedWords": 3, "bogus": 1})
    assert config.score.max_unchanged_words == 3
    assert [r.getMessage() for r in caplog.records] == [
        "settings: unknown m2lsp option 'bogus' ignored"]


def test_the_client_settings_list_every_metric_and_the_defaults_once():
    """The metric names come from the registry; the client's settings repeat them and the
    defaults, so a test holds them equal."""
    import json

    from m2lsp.config import OPTIONS, default_value
    from m2lsp.scoring.metric import names
    from tests.conftest import ROOT

    manifest = json.loads((ROOT / "vscode-client" / "package.json").read_text("utf-8"))
    properties = manifest["contributes"]["configuration"]["properties"]
    assert properties["m2lsp.metric"]["enum"] == names()
    for option in OPTIONS:
        camel = "m2lsp." + "".join(w if i == 0 else w.capitalize()
                                   for i, w in enumerate(option.key.split("-")))
        default = default_value(option)
        if option.key in ("severity", "score-marks", "spacy-models"):  # tables in the client
            default = {k: v.label if v is not None else "off" for k, v in default}
        elif isinstance(default, tuple):
            default = list(default)
        assert properties[camel].get("default") == default, option.key


def test_score_reads_pyproject_and_flags_win(tmp_path, monkeypatch, capsys):
    from m2lsp.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.m2").write_text("S a b .\nA 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n\n"
                                   "S d e .\nA 0 1|||X|||f|||REQUIRED|||-NONE-|||0\n")
    (tmp_path / "s.txt").write_text("a c .\nd e .\n")
    (tmp_path / "pyproject.toml").write_text("[tool.m2lsp]\nbeta = 1.0\n")
    assert main(["score", "s.txt", "g.m2"]) == 0
    assert "F_1.0       : 0.6667" in capsys.readouterr().out
    assert main(["score", "s.txt", "g.m2", "--beta", "0.5"]) == 0
    assert "F_0.5" in capsys.readouterr().out
    (tmp_path / "pyproject.toml").write_text("[tool.m2lsp]\nbeta = -1\n")
    assert main(["score", "s.txt", "g.m2"]) == 2
    assert "option 'beta' = -1 is invalid" in capsys.readouterr().err
    # beta from the configuration is not an option given to a metric without one
    (tmp_path / "pyproject.toml").write_text('[tool.m2lsp]\nmetric = "gleu"\nbeta = 1.0\n')
    assert main(["score", "s.txt", "g.m2"]) == 0  # references from the M2 gold
    assert capsys.readouterr().out.startswith("s.txt\nThere is one reference.")
    assert main(["score", "s.txt", "g.m2", "--beta", "2"]) == 2  # given: refused
    assert "not available with --metric gleu: --beta" in capsys.readouterr().err


@pytest.fixture
def two_folders(tmp_path, monkeypatch):
    """Data in data/ (no pyproject), the project's pyproject.toml in work/, run from work/."""
    data, work = tmp_path / "data", tmp_path / "work"
    data.mkdir()
    work.mkdir()
    (data / "g.m2").write_text("S a b .\nA 1 2|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n"
                               "S d e .\nA 0 1|||R:NOUN|||f|||REQUIRED|||-NONE-|||0\n")
    (data / "s.txt").write_text("a c .\nd e .\n")
    (data / "t.txt").write_text("a b .\nd e .\n")
    monkeypatch.chdir(work)
    return data, work


# (command line, what beta = 1.0 in the working folder's pyproject shows on stdout)
EVERY_COMMAND = [
    (["score", "{d}/s.txt", "{d}/g.m2"], "F_1.0"),
    (["compare", "{d}/s.txt", "{d}/t.txt", "{d}/g.m2", "--samples", "20"], "F_1.0"),
    (["check", "{d}/g.m2"], None),
]


@pytest.mark.parametrize(("argv", "shown"), EVERY_COMMAND)
def test_every_command_finds_the_configuration_the_same_way(two_folders, capsys, argv, shown):
    """The nearest [tool.m2lsp] above the named files, else above the current folder; a bad
    value is exit 2 on every command (score used to ignore the working folder's)."""
    from m2lsp.cli import main

    data, work = two_folders
    argv = [a.format(d=data) for a in argv]
    (work / "pyproject.toml").write_text("[tool.m2lsp]\nbeta = 1.0\n")
    assert main(argv) in (0, 1)
    if shown:
        assert shown in capsys.readouterr().out
    (work / "pyproject.toml").write_text('[tool.m2lsp]\nbeta = "abc"\n')
    assert main(argv) == 2
    assert "option 'beta' = 'abc' is invalid" in capsys.readouterr().err
    # the one above the named files wins over the working folder's
    (data / "pyproject.toml").write_text("[tool.m2lsp]\nbeta = 2.0\n")
    assert main(argv) in (0, 1)
    if shown:
        assert "F_2.0" in capsys.readouterr().out
    # --config wins over both; a --config that does not exist is a usage error
    (work / "mine.toml").write_text("[tool.m2lsp]\nbeta = 3.0\n")
    assert main([*argv, "--config", "mine.toml"]) in (0, 1)
    if shown:
        assert "F_3.0" in capsys.readouterr().out
    assert main([*argv, "--config", "missing.toml"]) == 2
    assert "--config missing.toml: no such file" in capsys.readouterr().err
    # a metric the registry does not have: exit 2 on every command, check included
    (data / "pyproject.toml").write_text('[tool.m2lsp]\nmetric = "bleurt"\n')
    assert main(argv) == 2
    assert "option 'metric' = 'bleurt' is invalid (expected one of m2, errant" in \
        capsys.readouterr().err
