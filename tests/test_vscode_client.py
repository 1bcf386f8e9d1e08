"""The VS Code client, built for real: `npm ci`, `npm run package` (type check, esbuild
bundle, vsce) gives a .vsix with the grammars and the bundle; `npm test` tokenizes fixed and
real lines with the TextMate grammars (vscode-textmate, as VS Code does)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile

import pytest

from tests.conftest import ROOT, SHARED_DATA
from tests.run_once import shared_folder

# the client is built in a copy made once for the run (tests/run_once.py: under a lock, as
# two `npm ci` in one folder at once break each other), never in the checkout (another run
# may be building it)
CLIENT = ROOT / "vscode-client"
NPM = shutil.which("npm")
REQUIRE = os.environ.get("M2LSP_REQUIRE_EDITORS") == "1"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A copy of the client (its sources, without node_modules or a build), built: the
    folder, holding m2lsp.vsix."""
    if NPM is None:
        if REQUIRE:
            pytest.fail("npm is not installed and M2LSP_REQUIRE_EDITORS=1")
        pytest.skip("npm (Node 20) is not installed: the VS Code client cannot be built")
    return shared_folder(tmp_path_factory, "vscode-client", _build) / "vscode-client"


def _build(into) -> None:
    folder = into / "vscode-client"
    shutil.copytree(CLIENT, folder, ignore=shutil.ignore_patterns(
        "node_modules", "dist", "*.vsix", ".vscode-test", "e2e"))
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "package"]):
        done = subprocess.run([NPM, *step], cwd=folder, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, f"npm {' '.join(step)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.mark.slow
def test_the_vsix_holds_the_bundle_grammars_and_manifest(built):
    with zipfile.ZipFile(built / "m2lsp.vsix") as vsix:
        names = set(vsix.namelist())
        manifest = json.loads(vsix.read("extension/package.json"))
    assert {"extension/dist/extension.js", "extension/syntaxes/gec-m2.tmLanguage.json",
            "extension/syntaxes/gec-cged.tmLanguage.json",
            "extension/syntaxes/gec-cged-truth.tmLanguage.json"} <= names
    assert not any(n.startswith("extension/node_modules/") for n in names)
    titles = {c["title"] for c in manifest["contributes"]["commands"]}
    assert titles == {"M2: Score Against System File…",
                      "M2: Score With a Metric Against System File…", "M2: Clear Scores",
                      "M2: Open Report", "M2: Explain a System's Edits…",
                      "M2: Restart Server",
                      "M2: Next False Positive", "M2: Next Missed Edit", "M2: Sort Scores…",
                      "M2: Show One Error Type…", "M2: Refresh Scores",
                      "M2: Next Disagreement", "M2: Previous Disagreement",
                      "M2: Refresh Disagreements"}
    assert [v["id"] for v in manifest["contributes"]["views"]["explorer"]] == [
        "m2Scores", "m2Disagreements"]
    # every language the server reads, and only those
    from m2lsp.lsp.server import LANGUAGE_FORMATS

    assert {lang["id"] for lang in manifest["contributes"]["languages"]} == set(LANGUAGE_FORMATS)
    assert ({g["language"] for g in manifest["contributes"]["grammars"]}
            == set(LANGUAGE_FORMATS))


def test_settings_mirror_the_server_options():
    """The client's settings (its package.json) are the server's options."""
    from m2lsp.config import OPTIONS

    manifest = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    settings = set(manifest["contributes"]["configuration"]["properties"])
    camel = {"m2lsp." + "".join(w if i == 0 else w.capitalize()
                                for i, w in enumerate(o.key.split("-"))) for o in OPTIONS}
    assert settings == camel | {"m2lsp.server.command"}


@pytest.mark.slow
def test_grammar_unit_tests(built):
    done = subprocess.run([NPM, "test"], cwd=built, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "M2LSP_SHARED_DATA": str(SHARED_DATA)})
    assert done.returncode == 0, done.stdout + done.stderr
    # the real-data tests skip where ../shared/data is absent: 12 tests either way
    counts = dict(re.findall(r"^# (pass|skipped|fail) (\d+)$", done.stdout, re.MULTILINE))
    assert counts["fail"] == "0" and int(counts["pass"]) + int(counts["skipped"]) == 12, done.stdout
    if SHARED_DATA.is_dir():  # the copy finds the real data as the client's folder does
        assert counts["skipped"] == "0", done.stdout


def test_the_client_asks_the_server_only_for_what_it_serves():
    """Every server command and request the client sends is one the server registers."""
    import re

    from m2lsp.lsp.features import create_server

    sent = set()
    for source in (CLIENT / "src").glob("*.ts"):
        text = source.read_text(encoding="utf-8")
        sent |= set(re.findall(r'command: "(m2lsp\.(?!client\.)[A-Za-z]+)"', text))
        sent |= set(re.findall(r'sendRequest<?[A-Za-z]*>?\("(m2lsp/[A-Za-z]+)"', text))
    assert {"m2lsp.score", "m2lsp.clearScores", "m2lsp.nextScoreMark",
            "m2lsp/scoreReport", "m2lsp.report", "m2lsp.explain", "m2lsp.disagreements",
            "m2lsp.nextDisagreement", "m2lsp.progress"} <= sent
    ls = create_server()
    served = set(ls.protocol.fm.commands) | set(ls.protocol.fm.features)
    assert sent <= served


def test_long_sentences_wrap_in_m2_files_and_in_the_editor_beside():
    """An M2 file wraps its long lines by default (a language default the user's setting
    overrides), and so does the editor beside in which a corrected sentence is edited."""
    manifest = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    assert manifest["contributes"]["configurationDefaults"]["[gec-m2]"] == {
        "editor.wordWrap": "on"}
    source = (CLIENT / "src" / "workbench.ts").read_text(encoding="utf-8")
    beside = source[source.index("async function editInPlace"):]
    beside = beside[:beside.index("\n}\n")]
    assert '"editor.action.toggleWordWrap"' in beside and '"wordWrap"' in beside


def test_the_client_asks_for_the_text_of_the_s_line_actions():
    """"Insert at i…" and "Split token i…" carry no text: the client asks for it."""
    source = (CLIENT / "src" / "workbench.ts").read_text(encoding="utf-8")
    assert 'command === "m2lsp.splitToken" && args[3] === null' in source
    assert "Insert before token" in source
    from m2lsp.lsp.features import create_server

    assert {"m2lsp.splitToken", "m2lsp.joinTokens", "m2lsp.addEdit"} <= set(
        create_server().protocol.fm.commands)


def _imports(source: str) -> set[str]:
    """The client's own modules a TypeScript source imports (`./name`)."""
    return {m.group(1) for m in re.finditer(r'^import[^;]*?from\s+"\./([\w-]+)"', source,
                                            re.MULTILINE)}


def test_the_client_s_modules_import_in_one_direction() -> None:
    """No circle among the client's modules (extension.ts and scores.ts imported each
    other): each view stands below the extension that wires them."""
    graph = {path.stem: _imports(path.read_text("utf-8"))
             for path in (CLIENT / "src").glob("*.ts")}
    assert graph["scores"] == {"protocol"} and "scores" in graph["extension"]

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n}))
                   for n in graph.get(start, ()))

    assert [name for name in graph if reaches(name, name)] == []
