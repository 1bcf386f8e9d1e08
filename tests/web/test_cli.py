"""`m2lsp web init | adduser | PROJECT` from the outside: `main([...])` and its exit code."""

from __future__ import annotations

import io
import sqlite3

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main


@pytest.fixture
def raw(tmp_path):
    path = tmp_path / "raw.txt"
    path.write_text("This are a test .\n\nHe go home .\n")
    return path


def test_init_from_raw_sentences(tmp_path, raw):
    assert main(["web", "init", str(tmp_path / "p"), "--from", str(raw), "--no-tok"]) == 0
    assert (tmp_path / "p/source.m2").read_text() == "S This are a test .\n\nS He go home .\n\n"
    assert 'language = "en"' in (tmp_path / "p/project.toml").read_text()
    assert main(["check", str(tmp_path / "p/source.m2")]) == 0


def test_init_from_an_m2_file_takes_its_sentences(tmp_path):
    gold = tmp_path / "gold.m2"
    gold.write_text("S A b .\nA 0 1|||R:OTHER|||a|||REQUIRED|||-NONE-|||0\n\nS C d .\n"
                    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    assert main(["web", "init", str(tmp_path / "p"), "--from", str(gold), "--lang", "zh"]) == 0
    assert (tmp_path / "p/source.m2").read_text() == "S A b .\n\nS C d .\n\n"


def test_init_adds_people_in_the_same_command(tmp_path, raw, capsys):
    root = tmp_path / "p"
    assert main(["web", "init", str(root), "--from", str(raw), "--no-tok", "--user",
                 "ana:annotator", "--user", "cleo:curator"]) == 0
    said = capsys.readouterr()
    assert [line.split()[2] for line in said.out.splitlines()] == ["ana:", "cleo:"]
    assert "add more people with m2lsp web adduser" in said.err
    assert (root / "layers/ana.m2").is_file() and not (root / "layers/cleo.m2").exists()


def test_init_without_sentences_leaves_them_to_the_manager_page(tmp_path, capsys):
    root = tmp_path / "p"
    assert main(["web", "init", str(root), "--user", "ana:annotator"]) == 0
    assert "a manager loads them" in capsys.readouterr().err
    assert (root / "source.m2").read_text() == (root / "layers/ana.m2").read_text() == ""


def test_adduser_reads_the_password_or_prints_one_once(tmp_path, raw, monkeypatch, capsys):
    root = tmp_path / "p"
    main(["web", "init", str(root), "--from", str(raw), "--no-tok"])
    monkeypatch.setattr("sys.stdin", io.StringIO("a long password\n"))
    assert main(["web", "adduser", str(root), "ann", "--role", "annotator"]) == 0
    assert "password" not in capsys.readouterr().out
    assert (root / "layers/ann.m2").read_text() == (root / "source.m2").read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["web", "adduser", str(root), "boss", "--role", "manager"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("password of boss: ")
    hashes = dict(sqlite3.connect(root / "m2lsp-web.sqlite3").execute(
        "SELECT name, hash FROM users"))
    assert set(hashes) == {"ann", "boss"} and printed.split()[3] not in str(hashes)


@pytest.mark.parametrize(("argv", "said"), [
    (["web", "init", "{p}", "--from", "{blank}", "--no-tok"], "no sentence"),
    (["web", "{p}"], "not an m2lsp web project"),
    (["web", "adduser", "{p}", "ann"], "--role"),
    (["web", "adduser", "{q}", "../x", "--role", "annotator"], "not a user name"),
    (["web", "adduser", "{q}", "ann", "--role", "annotator"], "there is a user ann"),
    (["web", "init", "{q}", "--from", "{raw}"], "a project already"),
    (["web", "{q}", "--host", "0.0.0.0"], "TLS reverse proxy"),
    (["web", "{q}", "extra"], "one project folder"),
    (["web", "init", "{p}", "--from", "{raw}", "--user", "ana:boss"], "not a role"),
    (["web", "init", "{p}", "--from", "{raw}", "--user", "a:annotator", "--user",
      "a:curator"], "twice"),
])
def test_bad_use_is_a_clear_error(tmp_path, raw, capsys, monkeypatch, argv, said):
    q = tmp_path / "q"
    main(["web", "init", str(q), "--from", str(raw), "--no-tok"])
    monkeypatch.setattr("sys.stdin", io.StringIO("a long password\n"))
    main(["web", "adduser", str(q), "ann", "--role", "annotator"])
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("a long password\n"))
    blank = tmp_path / "blank.txt"
    blank.write_text("\n \n")
    given = [a.format(p=tmp_path / "p", q=q, raw=raw, blank=blank) for a in argv]
    assert main(given) == 2
    err = capsys.readouterr().err
    assert err.startswith("m2lsp: error: ") and said in err
