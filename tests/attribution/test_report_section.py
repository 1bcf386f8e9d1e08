"""The report's attribution section (`m2lsp report --explain`): each system's types and
extremes are `m2lsp explain`'s, in the JSON and on the page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main


def test_json_section_is_explain_s(files, capsys) -> None:
    assert main(["report", "gold.m2", "a.txt", "b.txt", "--metric", "m2", "--explain",
                 "shapley", "--format", "json", "--samples", "10"]) == 0
    section = json.loads(capsys.readouterr().out)["attribution"]
    # a system is named without its file's extension (--names names them otherwise)
    assert [s["name"] for s in section["systems"]] == ["a", "b"]
    for system in section["systems"]:
        assert main(["explain", system["name"] + ".txt", "gold.m2", "--metric", "m2",
                     "--attributor", "shapley", "--format", "json", "--top", "5"]) == 0
        alone = json.loads(capsys.readouterr().out)
        assert system["types"] == alone["types"]
        assert (system["helpful"], system["harmful"]) == (alone["helpful"], alone["harmful"])
    b = section["systems"][1]
    assert b["harmful"][0]["correction"] == "liked"  # "like" was right: it costs the score
    assert section["types"][0] in section["systems"][0]["types"]


def test_the_page_shows_it(files) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    assert main(["report", "gold.m2", "a.txt", "b.txt", "--metric", "m2", "--explain", "add",
                 "-o", "r.html", "--samples", "10"]) == 0
    page = Path("r.html").read_text(encoding="utf-8")
    assert '<h2 id="attribution">' in page and 'href="#attribution"' in page
    table = page[page.index('id="attribution-table"'):]
    assert "R:VERB:SVA" in table and "+0.500" in table.split("</table>")[0]


def test_a_metric_without_sentence_scores_is_refused(files, capsys) -> None:
    assert main(["report", "gold.m2", "a.txt", "--metric", "cgec", "--explain", "add",
                 "--format", "json"]) == 2
    assert "--explain: --metric cgec does not score each sentence" in capsys.readouterr().err
