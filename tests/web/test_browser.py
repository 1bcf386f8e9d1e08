"""The team's workbench in a real browser (Debian's Chromium through Playwright, as
tests/report/test_browser.py launches it), against a real `m2lsp web` server on a free
port: a project made by `m2lsp web init` and `adduser` with its people only; the manager
loads 20 raw sentences in the page and assigns them, and watches the progress come live;
two annotators, in two browser contexts open at once, annotate (a
replacement typed in the corrected text and its type set by hand, an insertion by a click
between two tokens, a deletion, a note, "No error" on
the rest, the keyboard to go on, Back and the address bar's #N; a stale save from a second
tab refused, its text kept; a save while the server cannot be reached said so and retried
by Enter; a double-clicked Save saved once; "No error" on edits confirmed first); the curator
accepts what they agree on and decides the rest (an edit of her own, refused once with the
linter's reason, shown in the sentence's history; a decision from a second tab reaching the
first live; double-clicked decisions made once); the manager sees the agreement, scores a
system's output in the page (the numbers `m2lsp score --format json` prints, to four
decimals) and downloads the gold, which passes `m2lsp check`.  Screenshots go to a
temporary folder, and to docs/images with M2LSP_UPDATE_SCREENSHOTS=1 (docs/web.md shows
those)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SENTENCES = ["He go to school every day .", "He wants go home .", "We need more more time .",
             *(f"This is sentence number {n} ." for n in range(4, 21))]
SENTENCES[4] = "This is sentence number 5."  # a token to split: "5." -> "5 ."
SUGGESTED = "A 4 5|||R:OTHER|||six|||REQUIRED|||-NONE-|||0"  # on sentence 6
OUTPUT = ["He goes to school every day .", "He wants to go home .", "We need more more time .",
          "This was sentence number 4 .", "This is sentence number 5 .",
          *SENTENCES[5:]]  # a system's, tokenised as the gold: 2 edits right, 1 wrong
PEOPLE = {"ana": "annotator", "ben": "annotator", "cleo": "curator", "max": "manager"}


def _browser():
    sync = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium (Debian: apt install chromium)")
    return sync


def _project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The project, no sentence in it yet, and each person's password: `init` makes three
    people (their passwords generated and printed once), `adduser` the curator (the
    password on stdin)."""
    root = tmp_path / "team"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    m2lsp = [sys.executable, "-m", "m2lsp", "web"]
    people = [f"--user={name}:{role}" for name, role in PEOPLE.items() if name != "cleo"]
    made = subprocess.run([*m2lsp, "init", str(root), *people],
                          check=True, env=env, capture_output=True, text=True)
    passwords = dict(re.findall(r"^password of (\w+): (\S+)", made.stdout, re.M))
    passwords["cleo"] = "the curator's password"
    subprocess.run([*m2lsp, "adduser", str(root), "cleo", "--role", "curator"], check=True,
                   env=env, capture_output=True, input=passwords["cleo"] + "\n", text=True)
    assert set(passwords) == set(PEOPLE)
    return root, passwords


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(root: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    # edits come typed UNK (--no-types): the annotators choose each type by hand, as the
    # flow checks; tests/web/test_types.py serves ERRANT's types
    server = subprocess.Popen([sys.executable, "-m", "m2lsp", "web", str(root), "--no-types",
                               "--port", str(port)], env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    said = server.stderr.readline()  # printed just before uvicorn binds the port
    assert "serving" in said, said
    return server, f"http://127.0.0.1:{port}"


def _shots(tmp_path: Path) -> list[Path]:
    folders = [tmp_path]
    if os.environ.get("M2LSP_UPDATE_SCREENSHOTS"):
        folders.append(ROOT / "docs" / "images")
    return folders


class Person:
    """One person's page, in a browser context of their own."""

    def __init__(self, browser, url: str, name: str, password: str, errors: list[str]
                 ) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
        self.page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"),
                        lambda route: (errors.append(route.request.url), route.abort()))
        for attempt in range(100):  # the server may still be binding its port
            try:
                self.page.goto(url)
                break
            except Exception:
                if attempt == 99:
                    raise
                self.page.wait_for_timeout(50)
        self.page.fill("#name", name)
        self.page.fill("#password", password)
        self.page.click("button[type=submit]")
        self.page.wait_for_selector("header .who")

    def answer(self, method: str, path: str):
        return self.page.expect_response(
            lambda r: r.request.method == method and r.url.endswith(path))


def _correct(who: Person, number: int, text: str, kind: str | None) -> None:
    page = who.page
    page.locator(f"nav button[data-number='{number}']").click()
    page.wait_for_selector(f"#sentence-title:text-is('Sentence {number}')")
    page.fill("#corrected", text)
    with who.answer("PUT", f"/api/sentences/{number}") as saved:
        page.press("#corrected", "Enter")
    assert saved.value.ok
    # the sentence drawn anew, the keyboard is still in the box
    page.wait_for_function("document.activeElement && document.activeElement.id === "
                           "'corrected'")
    if kind is not None:  # the plain alignment types it UNK: the annotator sets the type
        with who.answer("POST", f"/api/sentences/{number}/type") as typed:
            page.select_option("select[data-edit='0']", kind)
        assert typed.value.ok
        page.wait_for_selector(f"select[data-edit='0']:has(option[value='{kind}']:checked)")


def _insert(who: Person, number: int, at: int, text: str, kind: str) -> None:
    """An insertion by a click on the gap before token `at` and its text typed."""
    page = who.page
    page.locator(f"nav button[data-number='{number}']").click()
    page.wait_for_selector(f"#sentence-title:text-is('Sentence {number}')")
    page.click(f"button.gap[data-at='{at}']")
    page.fill("#span-correction", text)
    with who.answer("POST", f"/api/sentences/{number}/edits") as added:
        page.click("form.span button[type=submit]")
    assert added.value.ok
    with who.answer("POST", f"/api/sentences/{number}/type"):
        page.select_option("select[data-edit='0']", kind)
    page.wait_for_selector(f"select[data-edit='0']:has(option[value='{kind}']:checked)")


def _no_error_on_the_rest(who: Person, first: int) -> None:
    page = who.page
    if page.locator("#sentence-title").inner_text() != f"Sentence {first}":
        page.locator(f"nav button[data-number='{first}']").click()
    for number in range(first, 21):
        page.wait_for_selector(f"#sentence-title:text-is('Sentence {number}')")
        with who.answer("PUT", f"/api/sentences/{number}"):
            page.click("#no-error")
    page.wait_for_selector("#progress-text:text-is('20 of 20')")
    page.wait_for_selector("#status:text-is('Sentence 20 marked correct (no error).')")


@pytest.mark.slow
def test_a_team_annotates_and_curates_in_chromium(tmp_path: Path) -> None:
    sync = _browser()
    root, passwords = _project(tmp_path)
    server, url = _serve(root)
    errors: list[str] = []
    try:
        with sync.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                 args=["--no-sandbox"])
            _team(browser, url, passwords, errors, tmp_path)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    assert errors == []  # no script error, nothing fetched from the network
    gold = root / "gold.m2"
    assert main(["check", str(gold)]) == 0
    blocks = gold.read_text(encoding="utf-8").split("\n\n")
    assert "A 1 2|||R:VERB:SVA|||goes|||" in blocks[0]
    assert "A 2 2|||M:PART|||to|||" in blocks[1] and "house" not in blocks[1]
    assert "A 3 4|||U:ADJ||||||" in blocks[2]
    # ana made it OPTIONAL in her layer (the gold's flag follows every annotator who made it)
    assert "A 3 4|||U:ADJ||||||OPTIONAL|||" in (root / "layers/ana.m2").read_text("utf-8")
    assert "A 3 4|||U:NOUN||||||" in blocks[3]  # the curator's own edit
    # ana typed every edit; ben left "house" UNK, which the linter flags in his layer
    assert main(["check", str(root / "layers/ana.m2")]) == 0
    assert main(["check", str(root / "layers/ben.m2")]) == 1
    assert "repeated" in (root / "layers/ana.m2.notes.jsonl").read_text(encoding="utf-8")
    assert "four" not in (root / "layers/ana.m2").read_text(encoding="utf-8")
    # the split of sentence 5 is in the source and every layer; the suggestion agreed
    for path in ("source.m2", "layers/ana.m2", "layers/ben.m2", "suggestions/sys.m2"):
        block = (root / path).read_text(encoding="utf-8").split("\n\n")[4]
        assert block.startswith("S This is sentence number 5 ."), path
    assert "A -1 -1|||noop|||" in (root / "layers/ben.m2").read_text().split("\n\n")[4]
    assert SUGGESTED.rsplit("|||", 1)[0] in blocks[5]


def _retokenise_suggest_undo(ana: Person, ben: Person) -> None:
    """ana splits a token of sentence 5 while ben looks at it, typing (his page hears of it
    and reloads, keeping his text); both accept the suggestion on sentence 6 (so they
    agree), and ana undoes it (offered again) and redoes it."""
    for who in (ben, ana):
        who.page.locator("nav button[data-number='5']").click()
        who.page.wait_for_selector("#sentence-title:text-is('Sentence 5')")
    typed = "This is sentence number five ."
    ben.page.fill("#corrected", typed)  # not saved yet
    ana.page.click("button.token[data-index='4']")
    # the token's text is selected in the edit's box, named 1-based: typing replaces it
    ana.page.wait_for_selector("form.span label:text-is('Token 5 (“5.”) becomes')")
    ana.page.wait_for_function("document.activeElement.id === 'span-correction'")
    ana.page.keyboard.type("5")
    assert ana.page.input_value("#span-correction") == "5"
    ana.page.fill("#split-pieces", "5 .")
    asked: list[str] = []  # the source is everyone's: the page asks first
    ana.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    with ana.answer("POST", "/api/sentences/5/split") as split:
        ana.page.click("form.retokenise button[type=submit]")
    assert split.value.ok and asked == [
        "Split the token in the source, for every annotator of the project?"]
    ana.page.wait_for_selector("button.token[data-index='5']")
    ben.page.wait_for_selector("#status:has-text('tokens of sentence 5 were fixed')")
    ben.page.wait_for_selector("button.token[data-index='5']")
    assert ben.page.input_value("#corrected") == typed  # kept through the reload
    ben.page.fill("#corrected", "This is sentence number 5 .")  # he thinks better of it
    for who in (ana, ben):
        who.page.locator("nav button[data-number='6']").click()
        who.page.wait_for_selector("#sentence-title:text-is('Sentence 6')")
        with who.answer("POST", "/api/suggestions/6") as accepted:
            who.page.click("ul.suggestions button.accept")
        assert accepted.value.ok
        who.page.wait_for_selector("tr[data-edit='0']:has-text('six')")
    with ana.answer("PUT", "/api/sentences/6") as undone:
        ana.page.keyboard.press("Alt+z")
    assert undone.value.ok
    ana.page.wait_for_selector("p.empty:text-is('No error: done.')")
    ana.page.wait_for_selector("ul.suggestions button.accept")  # offered again
    with ana.answer("PUT", "/api/sentences/6") as redone:
        ana.page.click("#redo")
    assert redone.value.ok
    ana.page.wait_for_selector("tr[data-edit='0']:has-text('six')")


def _address_bar(who: Person) -> None:
    """The address bar names the sentence shown: Back opens the one before, a #N typed by
    hand opens N, and a reload opens the one shown."""
    page = who.page
    page.go_back()
    page.wait_for_selector("#sentence-title:text-is('Sentence 3')")
    assert page.url.endswith("#3")
    page.evaluate("location.hash = '#4'")
    page.wait_for_selector("#sentence-title:text-is('Sentence 4')")
    assert page.locator("nav button[aria-current='true']").get_attribute("data-number") == "4"


def _save_by_double_click(who: Person, number: int, text: str) -> None:
    """Save double-clicked: one save, and no "another tab saved it" for the second click."""
    page = who.page
    page.locator(f"nav button[data-number='{number}']").click()
    page.wait_for_selector(f"#sentence-title:text-is('Sentence {number}')")
    page.fill("#corrected", text)
    sent: list[str] = []
    count = lambda request: sent.append(request.url) if request.method == "PUT" else None  # noqa: E731
    page.on("request", count)
    with who.answer("PUT", f"/api/sentences/{number}") as saved:
        page.dblclick("#save")
    assert saved.value.ok
    page.wait_for_selector(f"#status:text-is('Sentence {number} saved.')")
    page.wait_for_selector("tr[data-edit='0']")
    page.remove_listener("request", count)
    assert len(sent) == 1


def _offline_then_back(who: Person) -> None:
    """The server cannot be reached: a save says so (not the browser's words) and keeps the
    text as not saved, so Enter sends it again once it can be; opening a sentence says so
    too, and the page stays."""
    page = who.page
    page.route("**/api/sentences/**", lambda route: route.abort())
    page.fill("#corrected", "This is the sentence four .")
    page.press("#corrected", "Enter")
    page.wait_for_selector("#status.error:text-is('cannot reach the server: your change is "
                           "not saved; try again')")
    page.unroute("**/api/sentences/**")
    with who.answer("PUT", "/api/sentences/4") as saved:  # not counted as saved: sent again
        page.press("#corrected", "Enter")
    assert saved.value.ok
    page.wait_for_selector("tr[data-edit='0']")
    page.route("**/api/sentences/2", lambda route: route.abort())
    page.locator("nav button[data-number='2']").click()
    page.wait_for_selector("#status.error:text-is('cannot reach the server: try again')")
    page.unroute("**/api/sentences/2")
    assert page.inner_text("#sentence-title") == "Sentence 4"
    assert page.url.endswith("#4")


def _team(browser, url: str, passwords: dict[str, str], errors: list[str],
          tmp_path: Path) -> None:
    def person(name: str) -> Person:
        return Person(browser, url, name, passwords[name], errors)

    boss = person("max")
    boss.page.wait_for_selector("#sentence-count:has-text('No sentence yet')")
    boss.page.fill("#source-text", "\n".join(SENTENCES) + "\n")
    boss.page.check("#source-tokenised")
    with boss.answer("POST", "/api/source") as loaded:
        boss.page.click("form.source-form button[type=submit]")
    assert loaded.value.status == 201
    boss.page.wait_for_selector("#sentence-count:text-is('20 sentences.')")
    # a suggestion set: an M2 file of the sentences with a suggested edit
    boss.page.fill("#suggest-name", "sys")
    boss.page.select_option("#suggest-format", "m2")
    boss.page.fill("#suggest-text", "".join(
        f"S {text}\n" + (f"{SUGGESTED}\n" if n == 6 else "") + "\n"
        for n, text in enumerate(SENTENCES, 1)))
    with boss.answer("POST", "/api/suggestions") as offered:
        boss.page.click("form.suggest button[type=submit]")
    assert offered.value.status == 201
    boss.page.wait_for_selector("#suggestion-sets:text-is('Loaded: sys.')")
    for name in ("ana", "ben"):
        boss.page.select_option("#assign-user", name)
        boss.page.fill("#assign-first", "1")
        boss.page.fill("#assign-last", "20")
        with boss.answer("POST", "/api/assignments") as made:
            boss.page.click("form.assign button[type=submit]")
        assert made.value.status == 201
    boss.page.wait_for_selector("tr[data-user='ben'] td:text-is('20')")
    # two annotators at once, each in a context of their own
    ana, ben = person("ana"), person("ben")
    for who in (ana, ben):
        who.page.wait_for_selector("#progress-text:text-is('0 of 20')")
        _correct(who, 1, "He goes to school every day .", "R:VERB:SVA")
    _insert(ana, 2, 2, "to", "M:PART")
    _correct(ben, 2, "He wants to go house .", "M:PART")
    # a type that does not fit the edit: its finding offers a fix, to be checked; applied
    with ben.answer("POST", "/api/sentences/2/type"):
        ben.page.select_option("select[data-edit='0']", "U:PART")
    fix = "ul.findings li[data-code='M409'] button.fix"
    ben.page.wait_for_selector(f"{fix}:has-text('Fix (check it): Change the type to M:PART')")
    assert "M409 edit 1: U:PART" in ben.page.inner_text("ul.findings li[data-code='M409']")
    with ben.answer("POST", "/api/sentences/2/fix") as fixed:
        ben.page.click(fix)
    assert fixed.value.ok and "|||M:PART|||to|||" in fixed.value.json()["edits"][0]
    ben.page.wait_for_selector("#status:has-text('Fixed: Change the type to M:PART.')")
    ben.page.wait_for_selector("ul.findings li[data-code='M409']", state="detached")
    # done, with M407 left ("house" typed UNK): his list marks it, not with a plain tick
    ben.page.wait_for_selector("nav li.flagged button[data-number='2'] .mark:text-is('!')")
    assert ben.page.locator("nav li.flagged").count() == 1
    _correct(ana, 3, "We need more time .", "U:ADJ")
    with ana.answer("POST", "/api/sentences/3/required"):  # a deletion the scorer may skip
        ana.page.uncheck("input.required[data-edit='0']")
    ana.page.wait_for_selector("#status:has-text('now OPTIONAL')")
    ana.page.fill("#note-text", "a repeated word, or a typo?")
    ana.page.check("#note-unsure")
    with ana.answer("POST", "/api/sentences/3/notes"):
        ana.page.click("form.note button[type=submit]")
    ana.page.wait_for_selector("ul.notes li:has-text('repeated')")
    ana.page.evaluate("window.scrollTo(0, 0)")
    for folder in _shots(tmp_path):
        ana.page.screenshot(path=str(folder / "web-annotate.png"))
    ana.page.keyboard.press("Alt+n")  # the keyboard goes on to the next sentence
    ana.page.wait_for_selector("#sentence-title:text-is('Sentence 4')")
    _address_bar(ana)
    second = ana.context.new_page()  # a second tab of ana's, on the same sentence, that
    second.route("**/api/events", lambda route: route.abort())  # hears no live update
    second.goto(url + "#4")
    second.wait_for_selector("#sentence-title:text-is('Sentence 4')")
    _offline_then_back(ana)
    with ana.answer("PUT", "/api/sentences/4") as undone:  # back to before the first save:
        ana.page.keyboard.press("Alt+z")  # untouched, not "no error"
    assert undone.value.ok and undone.value.json()["edits"] == []
    ana.page.wait_for_selector("p.empty:text-is('No edit yet.')")
    # back on sentence 3, undo goes on where it was left: its last change (OPTIONAL) first
    ana.page.keyboard.press("Alt+p")
    ana.page.wait_for_selector("#sentence-title:text-is('Sentence 3')")
    with ana.answer("PUT", "/api/sentences/3") as back:
        ana.page.keyboard.press("Alt+z")
    assert back.value.ok and "REQUIRED" in back.value.json()["edits"][0]
    ana.page.wait_for_selector("input.required[data-edit='0']:checked")
    with ana.answer("PUT", "/api/sentences/3"):
        ana.page.keyboard.press("Alt+y")
    ana.page.wait_for_selector("input.required[data-edit='0']:not(:checked)")
    _save_by_double_click(ben, 3, "We need time .")  # then "No error" on it: asked first
    asked: list[str] = []
    ben.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    for who in (ana, ben):
        _no_error_on_the_rest(who, 3 if who is ben else 4)
    assert asked == ["Remove the edit and mark the sentence correct?"]
    second.fill("#corrected", "This is sentence number four .")
    with second.expect_response(lambda r: r.request.method == "PUT") as stale:
        second.press("#corrected", "Enter")
    assert stale.value.status == 409  # the first tab saved since: refused, and said so
    second.wait_for_selector("#status.error:has-text('changed since you loaded it')")
    assert second.input_value("#corrected") == "This is sentence number four ."
    second.close()
    _retokenise_suggest_undo(ana, ben)
    # the manager's page heard every save: its progress is up to date without a reload
    boss.page.wait_for_selector("tr[data-user='ana'] td:nth-child(3):text-is('20')")
    boss.page.wait_for_selector("tr[data-user='ana'] .ranges:text-is(' (1–20)')")
    boss.page.wait_for_selector("tr[data-user='ben'] td:nth-child(3):text-is('20')")
    boss.page.evaluate("window.scrollTo(0, 0)")
    for folder in _shots(tmp_path):
        boss.page.screenshot(path=str(folder / "web-manage.png"))
    # the curator: agreement first, then the rest
    cleo = person("cleo")
    page = cleo.page
    page.wait_for_selector("#counts:has-text('2 open')")
    with cleo.answer("POST", "/api/curation"):
        page.click("#accept-agreed")
    page.locator("nav button[data-number='2']").click()
    page.wait_for_selector("#sentence-title:text-is('Sentence 2')")
    page.wait_for_selector("#state:text-is('in progress')")
    assert page.locator(".version.gold li").count() == 1  # the agreed insertion
    assert "before token 3: " in page.inner_text(".version.gold li")  # where, named
    assert page.get_attribute(".source button.token[data-index='0']", "aria-label") == \
        "token 1: He"
    for folder in _shots(tmp_path):
        page.screenshot(path=str(folder / "web-curate.png"))
    assert page.inner_text("#correct") == "Source is correct (no edit)"
    assert "no edit" in (page.get_attribute("#correct", "title") or "")
    # ben's "house" is not in the gold: Done asks first
    done_asked: list[str] = []
    page.once("dialog", lambda dialog: (done_asked.append(dialog.message), dialog.accept()))
    with cleo.answer("GET", "/api/curating/2"):  # the page read it again after deciding
        page.dblclick("#done")  # one decision: the second click is ignored
    assert done_asked == ["Mark sentence 2 done with the gold as it is? 1 edit(s) of the "
                          "annotators are not in it."]
    page.wait_for_selector("#state:text-is('decided')")
    assert page.locator("ol.history li[data-action='done']").count() == 1
    # her own edit on sentence 4: "number" deleted, typed by hand; the history shows it
    page.locator("nav button[data-number='4']").click()
    page.wait_for_selector("#sentence-title:text-is('Sentence 4')")
    page.click(".source button.token[data-index='3']")
    page.fill("#own-correction", "")
    page.select_option("#own-type", "R:NOUN")  # a deletion typed R: the linter refuses it
    with cleo.answer("POST", "/api/curation/4") as refused:
        page.click("form.own button[type=submit]")
    assert refused.value.status == 400
    page.wait_for_selector("#status.error:has-text('rules flag')")
    page.select_option("#own-type", "U:NOUN")
    with cleo.answer("POST", "/api/curation/4"):
        page.click("form.own button[type=submit]")
    page.wait_for_selector("ol.history li[data-action='edit']:has-text('cleo')")
    # the log's edit read as the page reads edits, not as its key
    page.wait_for_selector("ol.history li[data-action='edit'] .edit:has-text('token 4: ')")
    with cleo.answer("POST", "/api/curation/4"):
        page.click("#done")
    page.wait_for_selector("ol.history li[data-action='done']")
    # ben changes sentence 2 after it was decided: the gold keeps the decision, the list
    # marks it and counts it, live; the sentence says who; Done settles it
    _correct(ben, 2, "He really wants to go house .", None)
    page.wait_for_selector("li.changed button[data-number='2']")
    page.wait_for_selector("#counts:has-text('1 changed since decided')")
    page.locator("nav button[data-number='2']").click()
    page.wait_for_selector("#changed:has-text('decided by ben')")
    with cleo.answer("POST", "/api/curation/2"):
        page.click("#done")
    page.wait_for_selector("#changed", state="detached")
    page.wait_for_selector("li.changed", state="detached")
    page.locator("nav button[data-number='3']").click()
    page.wait_for_selector("#sentence-title:text-is('Sentence 3')")
    # ana's deletion is OPTIONAL in her version, and so says the curator's page
    page.wait_for_selector("section[aria-label=\"ana's version\"] .badge.optional")
    assert "repeated" in page.locator("ul.notes").inner_text()
    # a second tab takes ana's version: the first hears of it and shows it, live
    other = cleo.context.new_page()
    other.goto(url + "#3")
    other.wait_for_selector("#sentence-title:text-is('Sentence 3')")
    with other.expect_response(lambda r: r.url.endswith("/api/curating/3")):
        other.dblclick("section[aria-label=\"ana's version\"] button.take")
    other.wait_for_selector("ol.history li[data-action='take']")
    assert other.locator("ol.history li[data-action='take']").count() == 1
    page.wait_for_selector("#live:has-text('take on 3')")
    page.wait_for_selector("#state:text-is('decided')")
    page.wait_for_selector("ol.history li[data-action='take']:has-text('from ana')")
    page.wait_for_selector("#counts:text-is('20 of 20 curated')")
    # her panels heard the decisions too: each annotator against the finished gold
    page.wait_for_selector("#agreement-gold tr[data-user='ana']")
    page.wait_for_selector("#agreement-unfinished", state="detached")
    _manager_scores_and_exports(boss, tmp_path)
    # the manager takes sentence 20 back from ben (asked first) while he has it open: his
    # page leaves it and says why, and his list loses it, live
    ben.page.locator("nav button[data-number='20']").click()
    ben.page.wait_for_selector("#sentence-title:text-is('Sentence 20')")
    boss.page.select_option("#assign-user", "ben")
    boss.page.fill("#assign-first", "20")
    boss.page.fill("#assign-last", "20")
    boss.page.once("dialog", lambda dialog: dialog.accept())
    with boss.answer("POST", "/api/assignments/remove") as removed:
        boss.page.click("#unassign")
    assert removed.value.ok and removed.value.json()["removed"] == 1
    boss.page.wait_for_selector("tr[data-user='ben'] .ranges:text-is(' (1–19)')")
    ben.page.wait_for_selector("#progress-text:text-is('19 of 19')")
    ben.page.wait_for_selector("#status:has-text('Sentence 20 is no longer assigned to you.')")
    assert ben.page.inner_text("#sentence-title") != "Sentence 20"
    assert ben.page.locator("nav button[data-number='20']").count() == 0
    # given back: his page says so, and his work there is still his (done)
    with boss.answer("POST", "/api/assignments") as given:
        boss.page.click("#assign")
    assert given.value.status == 201
    ben.page.wait_for_selector("#status:text-is('1 sentence(s) newly assigned to you.')")
    ben.page.wait_for_selector("#progress-text:text-is('20 of 20')")
    for who in (boss, ana, ben, cleo):
        who.context.close()


def _manager_scores_and_exports(boss: Person, tmp_path: Path) -> None:
    """The manager's panels once the gold is curated: each annotator against the gold, a
    system's output scored in the page (the numbers `m2lsp score --format json` prints,
    shown unmodified) and the gold downloaded as M2 (it passes `m2lsp check`)."""
    page = boss.page
    with boss.answer("GET", "/api/agreement"):
        page.click("#agreement-refresh")
    page.wait_for_selector("#agreement-gold tr[data-user='ben']")
    assert page.locator("#agreement-pairs tr[data-pair='ana-ben']").count() == 1
    system = tmp_path / "system.txt"
    system.write_text("\n".join(OUTPUT) + "\n", encoding="utf-8")
    page.set_input_files("#score-file", str(system))
    for _ in range(200):  # the page reads the file into the box
        if "was" in page.input_value("#score-system"):
            break
        page.wait_for_timeout(50)
    with boss.answer("POST", "/api/score") as scored:
        page.click("form.score button[type=submit]")
    assert scored.value.ok
    page.wait_for_selector("#score-corpus dd[data-key='f']")
    page.wait_for_selector("button.export[data-which='gold']")  # came with the decisions
    for folder in _shots(tmp_path):
        page.locator("section.panels").screenshot(path=str(folder / "web-panels.png"))
    with page.expect_download() as downloaded:
        page.click("button.export[data-which='gold'][data-format='m2']")
    gold = tmp_path / "downloaded-gold.m2"
    downloaded.value.save_as(gold)
    assert downloaded.value.suggested_filename == "team-gold.m2"
    assert gold.read_bytes() == (tmp_path / "team" / "gold.m2").read_bytes()
    assert main(["check", str(gold)]) == 0
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["score", str(system), str(gold), "--format", "json"]) == 0
    expected = json.loads(printed.getvalue())
    for key in ("precision", "recall", "f"):  # four decimals, the full value beside
        shown = page.locator(f"#score-corpus dd[data-key='{key}']")
        assert float(shown.get_attribute("data-value") or "") == expected[key]
        assert shown.inner_text() == f"{expected[key]:.4f}"
    rows = page.locator("#score-sentences tbody tr").evaluate_all(
        """rows => rows.map(row => [row.querySelector("td[data-key='f']").dataset.value,
            ...["found", "wrong", "missed"].map(
                kind => row.querySelectorAll(`ul.marks.${kind} li`).length)])""")
    heads = page.locator("#score-sentences thead th").count()
    assert all(page.locator("#score-sentences tbody tr").evaluate_all(
        f"rows => rows.map(row => row.children.length === {heads})"))
    assert [[float(f), *marks] for f, *marks in rows] == [
        [s["f"], *(len(s[key]) for key in ("true_positives", "false_positives",
                                           "false_negatives"))]
        for s in expected["sentences"]]
    assert len(rows) == 20
    assert (expected["counts"]["correct"], expected["counts"]["proposed"]) == (2, 3)
