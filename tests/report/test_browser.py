"""The report's page in a real browser (Debian's Chromium through Playwright): the
leaderboard in the DOM equals `m2lsp score`, sorting and filtering the sentences change
them, and a sentence's link opens it.  Screenshots go to a temporary folder, and to docs/
with M2LSP_UPDATE_SCREENSHOTS=1 (the README shows those)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import ROOT
from tests.report.test_report import NAMES, conll

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _browser():
    sync = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium (Debian: apt install chromium)")
    return sync.sync_playwright()


def _shots(tmp_path: Path) -> list[Path]:
    folders = [tmp_path]
    if os.environ.get("M2LSP_UPDATE_SCREENSHOTS"):
        folders.append(ROOT / "docs")
    return folders


@pytest.mark.slow
def test_the_page_in_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, systems = conll()
    page_path = tmp_path / "report.html"
    assert main(["report", str(gold), *map(str, systems), "-o", str(page_path)]) == 0
    expected = {}
    for name, path in zip(NAMES, systems, strict=True):
        capsys.readouterr()
        assert main(["score", str(path), str(gold)]) == 0
        printed = dict(re.findall(r"^([\w.]+)\s*: (\d\.\d{4})$", capsys.readouterr().out,
                                  re.M))
        expected[name] = [printed["Precision"], printed["Recall"], printed["F_0.5"]]
    expected["INPUT"][0] = "–"  # no edit made: its precision is undefined, shown so
    with _browser() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route(re.compile(r"^https?://"), lambda route: (errors.append(route.request.url),
                                                             route.abort()))
        page.goto(page_path.as_uri())
        _leaderboard(page, expected)
        for folder in _shots(tmp_path):
            page.screenshot(path=str(folder / "report.png"))
        _sort_and_filter(page)
        page.goto(page_path.as_uri() + "#s2")
        target = page.locator("#s2")
        target.wait_for()
        assert "target" in (target.get_attribute("class") or "")
        assert "What is genetic risk ?" in target.inner_text()
        page.locator("#s2 a.go").click()
        assert page.url.endswith("#s2")
        for folder in _shots(tmp_path):
            page.screenshot(path=str(folder / "report-sentences.png"))
        browser.close()
    assert errors == []  # no script error, nothing fetched from the network


def _leaderboard(page, expected: dict[str, list[str]]) -> None:
    rows = page.locator("#leaderboard-table tbody tr")
    assert rows.count() == len(NAMES)
    for k in range(rows.count()):
        row = rows.nth(k)
        name = row.get_attribute("data-system")
        cells = row.locator("td[data-key]")
        shown = [cells.nth(i).inner_text().split("\n")[0] for i in range(3)]
        assert shown == expected[name], name


def _first_ids(page) -> list[str]:
    return page.locator("#sentence-list .sentence").evaluate_all(
        "nodes => nodes.slice(0, 5).map(n => n.id)")


def _sort_and_filter(page) -> None:
    before = _first_ids(page)
    count = page.locator("#count").inner_text()
    page.select_option("#sort", "spread")
    after = _first_ids(page)
    assert after != before
    page.select_option("#sort", "line")
    assert _first_ids(page) == ["s1", "s2", "s3", "s4", "s5"]
    page.select_option("#type", "Prep")
    filtered = page.locator("#count").inner_text()
    assert filtered != count and int(filtered.split()[0]) < int(count.split()[0])
    gold_marks = [t for t in page.locator("#sentence-list li").all_inner_texts()
                  if t.startswith(("missed", "found"))]  # those name the gold edit's type
    assert gold_marks and all("(Prep)" in t for t in gold_marks)
    page.fill("#query", "genetic")
    assert int(page.locator("#count").inner_text().split()[0]) <= int(filtered.split()[0])
