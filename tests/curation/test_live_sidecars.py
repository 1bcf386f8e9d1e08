"""The language server reads the files beside an M2 file as `m2lsp check` does: the
notes and a curated gold's decision log give the same N001-N003 findings in the editor,
hover shows a sentence's and an edit's notes, and a change on disk (a watched file, a save,
a decision made in the editor) refreshes them; a broken sidecar is a diagnostic."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from m2lsp.curation.keys import sentence_key
from m2lsp.curation.notes import Note
from tests.curation.test_curate import A, B

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
REGISTERED: list[types.RegistrationParams] = []


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def registered(params: types.RegistrationParams) -> None:
        REGISTERED.append(params)

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True)))))
    yield
    await lsp_client.shutdown_session()


def _team(folder: Path) -> Path:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (folder / name).write_text(text, encoding="utf-8")
    gold = folder / "gold.m2"
    assert main(["curate", str(folder / "A.m2"), str(folder / "B.m2"), "-o", str(gold),
                 "--who", "cara"]) == 0
    return gold


def _orphan(path: Path, sentence: str, edit: str) -> None:
    """A note beside `path` on an edit its sentence does not have (as one left by an edit
    changed since)."""
    note = Note("cara", "2026-01-01T00:00:00Z", sentence_key(sentence.split()), "gone",
                edit=edit)
    with open(str(path) + ".notes.jsonl", "a", encoding="utf-8") as notes:
        notes.write(note.line())


def _open(client: LanguageClient, path: Path) -> None:
    client.diagnostics.pop(path.as_uri(), None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=path.as_uri(), language_id="gec-m2", version=1,
        text=path.read_text(encoding="utf-8"))))


async def _published(client: LanguageClient, path: Path,
                     holds: Callable[[list[tuple[str, int, str]]], bool]
                     ) -> list[tuple[str, int, str]]:
    """The N findings published for `path` (code, line, message), once `holds` them."""
    def found() -> list[tuple[str, int, str]]:
        return [(str(d.code), d.range.start.line, d.message)
                for d in client.diagnostics.get(path.as_uri(), []) if str(d.code)[0] == "N"]
    async with asyncio.timeout(30):
        while not holds(found()):
            await asyncio.sleep(0.02)
    return found()


def _checked(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, int, str]]:
    """What `m2lsp check` says of the N rules on the file (code, 0-based line, message)."""
    capsys.readouterr()
    main(["check", "--output-format", "json", str(path)])
    found = json.loads(capsys.readouterr().out)
    return [(d["code"], d["location"]["row"] - 1, d["message"]) for d in found
            if d["code"].startswith("N")]


def _reloaded(client: LanguageClient, path: Path, version: int = 2) -> None:
    """The editor's copy of `path` follows the file on disk, as VS Code reloads it."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        [types.TextDocumentContentChangeWholeDocument(path.read_text(encoding="utf-8"))]))


def _watched(client: LanguageClient, *paths: Path) -> None:
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=p.as_uri(), type=types.FileChangeType.Changed) for p in paths]))


async def _hover(client: LanguageClient, path: Path, line: int) -> str | None:
    found = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(path.as_uri()), types.Position(line, 2)))
    return None if found is None else found.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_the_editor_reports_what_check_reports(client: LanguageClient, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    gold = _team(tmp_path)
    _orphan(gold, "He go to school .", "1 2|||R:VERB:SVA|||went")
    expected = _checked(gold, capsys)
    assert [code for code, _, _ in expected] == ["N002", "N001"]
    _open(client, gold)
    assert await _published(client, gold, lambda found: found == expected)
    # the server asked to hear of changes to the files beside M2 files
    globs = [w["globPattern"] for r in REGISTERED for g in r.registrations
             if g.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
             for w in g.register_options["watchers"]]
    assert {"**/*.notes.jsonl", "**/*.curation.jsonl"} <= set(globs)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_change_on_disk_refreshes_findings_and_hover(
        client: LanguageClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _team(tmp_path)
    _open(client, gold)
    await _published(client, gold, lambda found: [c for c, _, _ in found] == ["N001"])
    assert "note by" not in (await _hover(client, gold, 6) or "")
    # a note written beside the file from the command line, the client told of it
    assert main(["note", str(gold), "3", "--text", "on or at?", "--unsure", "--who",
                 "cara"]) == 0
    _orphan(gold, "We need more time .", "0 0|||M:DET|||The")
    _watched(client, Path(str(gold) + ".notes.jsonl"))
    await _published(client, gold, lambda found: [c for c, _, _ in found] == ["N002", "N001"])
    assert "- note by cara (unsure): on or at?" in (await _hover(client, gold, 6) or "")
    # a decision from the command line: the log changed, and so does N001's count
    assert main(["curate", str(gold), "--sentence", "3", "--take", "0", "--who", "cara"]) == 0
    _reloaded(client, gold)
    _watched(client, Path(str(gold) + ".curation.jsonl"))
    after = await _published(client, gold, lambda found: any(
        "2 of 5" in m for c, _, m in found if c == "N001"))
    assert after == _checked(gold, capsys)
    # an annotator's file saved in the editor: the gold that reads it is refreshed
    (tmp_path / "B.m2").write_text(B.replace("A 0 0|||M:PRON|||We", "A 0 0|||M:PRON|||we"),
                                   encoding="utf-8")
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        types.TextDocumentIdentifier((tmp_path / "B.m2").as_uri())))
    await _published(client, gold, lambda found: any(
        "1 of 5" in m for c, _, m in found if c == "N001"))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_decision_in_the_editor_refreshes_n001(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    gold = _team(tmp_path)
    _open(client, gold)
    await _published(client, gold, lambda found: any("3 of 5" in m for _, _, m in found))
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.curate", arguments=[gold.as_uri(), {"action": "take",
                                                           "sentence": "3", "value": "0"}]))
    assert answer["curated"] == 3
    found = await _published(client, gold, lambda found: any("2 of 5" in m
                                                             for _, _, m in found))
    assert [(c, line) for c, line, _ in found] == [("N001", 9)]


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_an_edit_shows_its_notes(client: LanguageClient,
                                                tmp_path: Path) -> None:
    ana = tmp_path / "A.m2"
    ana.write_text(A, encoding="utf-8")
    for edit, text, annotator in (("2 3|||R:PREP|||on", "on or at?", []),
                                  ("1 2|||R:VERB:SVA|||arrives", "sure", ["--annotator", "0"])):
        assert main(["note", str(ana), "3", "--edit", edit, "--text", text, "--who", "ana",
                     *annotator]) == 0
    with open(str(ana) + ".notes.jsonl", "a", encoding="utf-8") as notes:  # another's edit
        notes.write(Note("ben", "t", sentence_key(["She", "arrive", "at", "Monday", "."]),
                         "not this one", edit="1 2|||R:VERB:SVA|||arrives",
                         annotator="1").line())
    _open(client, ana)
    # the edit's notes above what the A line itself shows
    on = (await _hover(client, ana, 8) or "").split("\n\n---\n\n")
    assert on[0] == "- note by ana on `2 3|||R:PREP|||on`: on or at?" and len(on) == 2
    on = (await _hover(client, ana, 7) or "").split("\n\n---\n\n")
    assert on[0] == "- note by ana on `1 2|||R:VERB:SVA|||arrives` (annotator 0): sure"
    assert "note by" not in (await _hover(client, ana, 1) or "")


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(("sidecar", "text", "said"), [
    (".notes.jsonl", '{"who": "ana"\n', "the notes cannot be read: A.m2.notes.jsonl:1:"),
    (".notes.jsonl", "\udcff", "the notes cannot be read: not UTF-8"),
    (".curation.jsonl", "[1, 2]\n", "the curation of A.m2 cannot be read:"),
    (".curation.jsonl", '{"time": "t", "who": "c", "action": "start", "inputs": ["gone.m2"]}\n',
     "gone.m2 is not a file"),
])
async def test_a_broken_sidecar_is_a_diagnostic(client: LanguageClient, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                sidecar: str, text: str, said: str) -> None:
    ana = tmp_path / "A.m2"
    ana.write_text(A, encoding="utf-8")
    Path(str(ana) + sidecar).write_bytes(text.encode("utf-8", "surrogateescape"))
    expected = _checked(ana, capsys)
    assert [c for c, _, _ in expected] == ["N003"] and said in expected[0][2]
    _open(client, ana)
    assert await _published(client, ana, lambda found: found == expected)
    assert await _hover(client, ana, 6) is None  # answered: no notes to show
    # mended, the diagnostic goes
    Path(str(ana) + sidecar).unlink()
    _watched(client, Path(str(ana) + sidecar))
    assert await _published(client, ana, lambda found: found == []) == []


def test_a_sidecars_message_reads_the_same_from_any_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check data/A.m2` and the server (which has the absolute path) name an annotator's
    file the log names alike: by its name beside the gold."""
    from m2lsp.files.sidecars import sidecars_of

    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "A.m2").write_text(A, encoding="utf-8")
    (folder / "A.m2.curation.jsonl").write_text(
        '{"time": "t", "who": "c", "action": "start", "inputs": ["gone.m2"]}\n',
        encoding="utf-8")
    absolute = sidecars_of(folder / "A.m2")
    monkeypatch.chdir(tmp_path)
    relative = sidecars_of(Path("data/A.m2"))
    assert absolute is not None and relative is not None
    assert absolute.problems == relative.problems
    assert "cannot be read: gone.m2 is not a file" in absolute.problems[0]
