"""Real editors as clients: Neovim (headless) opens the bundled example and receives the
diagnostics `m2lsp check` reports, and a hover; the README's Neovim setup and Emacs eglot
recipe score a system and list every wrong and missed edit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from m2lsp.cli import main as m2lsp_main
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # real editors, each a process with the server beside it
NVIM = shutil.which("nvim")
EMACS = shutil.which("emacs")
# Set M2LSP_REQUIRE_EDITORS=1 where Neovim is guaranteed: a missing editor then fails.
REQUIRED = os.environ.get("M2LSP_REQUIRE_EDITORS") == "1"


def need(editor: str | None, name: str, packages: str) -> None:
    """Skip (fail where editors are required) when the editor is not installed."""
    if editor is None:
        if REQUIRED:
            pytest.fail(f"{name} is not installed but M2LSP_REQUIRE_EDITORS=1")
        pytest.skip(f"{name} is not installed (Debian: apt-get install {packages})")


def expected(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple]:
    capsys.readouterr()
    m2lsp_main(["check", "--output-format", "json", "--exit-zero", "-q", str(path)])
    return sorted((d["code"], d["location"]["row"] - 1, d["location"]["column"] - 1,
                   d["end_location"]["column"] - 1, d["message"])
                  for d in json.loads(capsys.readouterr().out))


SERVER = [sys.executable, "-m", "m2lsp", "serve"]


def run_neovim_recipe(tmp_path: Path, script: str, **env: str) -> None:
    """Headless Neovim on the README's setup (docs/editors/m2lsp.lua) running `script`
    (a file beside this one), with M2LSP_NVIM_<name> variables from `env`."""
    variables = {f"M2LSP_NVIM_{k}": v for k, v in env.items()}
    subprocess.run([NVIM, "--headless", "--clean", "-c",
                    f"luafile {Path(__file__).with_name(script)}"], cwd=tmp_path,
                   env=dict(os.environ, **variables,
                            M2LSP_NVIM_SETUP=str(ROOT / "docs" / "editors" / "m2lsp.lua"),
                            M2LSP_NVIM_CMD=json.dumps(SERVER),
                            XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path)),
                   timeout=240, check=True, stdin=subprocess.DEVNULL, capture_output=True)


def run_emacs_recipe(tmp_path: Path, script: str, **env: str) -> None:
    """Emacs in batch on the README's recipe (docs/editors/gec-m2-mode.el) loading
    `script` (a file beside this one), with M2LSP_EMACS_<name> variables from `env`."""
    variables = {f"M2LSP_EMACS_{k}": v for k, v in env.items()}
    subprocess.run([EMACS, "--batch", "-l", str(Path(__file__).with_name(script))],
                   cwd=tmp_path,
                   env=dict(os.environ, **variables,
                            M2LSP_EMACS_SETUP=str(ROOT / "docs" / "editors" / "gec-m2-mode.el"),
                            M2LSP_EMACS_CMD="\t".join(SERVER), HOME=str(tmp_path)),
                   timeout=240, check=True, stdin=subprocess.DEVNULL, capture_output=True)


def _neovim_receives_the_diagnostics_and_a_hover(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]):
    example = tmp_path / "annotated.m2"
    shutil.copy(ROOT / "examples" / "annotated.m2", example)
    out = tmp_path / "nvim.json"
    env = dict(os.environ, M2LSP_NVIM_OUT=str(out),
               M2LSP_NVIM_CMD=json.dumps([sys.executable, "-m", "m2lsp", "serve"]),
               XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    subprocess.run([NVIM, "--headless", "--clean", str(example),
                    "-c", f"luafile {Path(__file__).with_name('neovim.lua')}"],
                   cwd=tmp_path, env=env, timeout=120, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True)
    result = json.loads(out.read_text("utf-8"))
    assert result["arrived"] is True
    got = sorted((d["code"], d["line"], d["col"], d["end_col"], d["message"])
                 for d in result["diagnostics"])
    assert got == expected(example, capsys)
    assert {d["code"] for d in result["diagnostics"]} == {"M102", "M402", "M405"}
    assert "sits" in result["hover"] and "R:VERB:SVA" in result["hover"]


def _neovim_setup_scores_and_fills_the_quickfix_list_with_every_fp_and_fn(
        tmp_path: Path):
    """The README's Neovim setup on Debian's Neovim: `*.m2` is gec-m2 (not Modula-2), and
    `:M2Score` fills the quickfix list from m2lsp/scoreReport with every FP and FN of CAMB
    on the full CoNLL-2014 gold, as the core computes them."""
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.m2.live import LiveScore
    from m2lsp.scoring.m2.maxmatch import M2Settings
    from tests.conftest import shared

    gold = tmp_path / "gold.m2"
    gold.write_bytes(shared("conll2014/gold/official-2014.combined.m2").read_bytes())
    system = shared("conll2014/systems/CAMB")
    out = tmp_path / "nvim.json"
    run_neovim_recipe(tmp_path, "neovim_score.lua", OUT=str(out), GOLD=str(gold),
                      SYSTEM=str(system))
    result = json.loads(out.read_text("utf-8"))
    assert result["filetype"] == "gec-m2" and result["attached"] and result["filled"]
    assert result["title"].startswith("m2lsp: F0.5 0.3733")
    source = SourceText(gold.read_text("utf-8"))
    live = LiveScore(M2Settings())
    view = live.update(live.gold(parse_m2(source), source, "gold"),
                       system.read_text("utf-8"))
    expected = sorted((r.line + 1, f"{m.kind} {m.message}") for r in view.reviews
                      for m in r.marks if m.kind != "TP")
    got = sorted((i["lnum"], i["text"]) for i in result["items"])
    assert len(got) == 1172 + 1793
    assert got == expected




ANNOTATED = ("S He go to school yesterday .\n"
             "A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0\n"
             "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\n"
             "A 4 5|||U:ADV||||||REQUIRED|||-NONE-|||1\n"
             "\n"
             "S It is fine .\n")
AFTER_GIVEN = ANNOTATED.replace("A 4 5|||U:ADV||||||REQUIRED|||-NONE-|||1\n",
                                "").replace("|||goes|||REQUIRED|||-NONE-|||1\n",
                                            "|||goes|||REQUIRED|||-NONE-|||1\n"
                                            "A 3 3|||OTHER|||the|||REQUIRED|||-NONE-|||1\n"
                                            )  # the unchanged edit keeps its hand-set type
AFTER_PROMPT = AFTER_GIVEN + "A 2 2|||OTHER|||very|||REQUIRED|||-NONE-|||0\n"


def _neovim_annotates_from_a_correction(tmp_path: Path):
    """`:M2Annotate TEXT` on an A line replaces that annotator's lines; without TEXT it asks,
    prefilled with the current correction; one `undo` takes the edit back."""
    gold = tmp_path / "gold.m2"
    gold.write_text(ANNOTATED, encoding="utf-8")
    out = tmp_path / "nvim.json"
    run_neovim_recipe(tmp_path, "neovim_annotate.lua", OUT=str(out), GOLD=str(gold))
    result = json.loads(out.read_text("utf-8"))
    assert result["attached"]
    assert "\n".join(result["given"]) + "\n" == AFTER_GIVEN
    assert result["asked"] == {"prompt": "Corrected (annotator 0): ",
                               "default": "It is fine ."}
    assert "\n".join(result["prompted"]) + "\n" == AFTER_PROMPT
    assert "\n".join(result["undone"]) + "\n" == AFTER_GIVEN


WORKBENCH = ("S He go to school .\n"
             "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
             "\n"
             "S Nobody here yet .\n")


def _neovim_uses_the_workbench(tmp_path: Path):
    """Token numbers (inlay hints), completion of offsets and "Add an edit for tokens i–j…"
    through Neovim's own LSP client; the server's edit applied by Neovim."""
    gold = tmp_path / "gold.m2"
    gold.write_text(WORKBENCH, encoding="utf-8")
    out = tmp_path / "nvim.json"
    run_neovim_recipe(tmp_path, "neovim_workbench.lua", OUT=str(out), GOLD=str(gold))
    result = json.loads(out.read_text("utf-8"))
    assert result["attached"]
    assert result["numbers"][:5] == [[0, 2, "0"], [0, 5, "1"], [0, 8, "2"], [0, 11, "3"],
                                     [0, 18, "4"]]
    assert [n[0] for n in result["numbers"]].count(3) == 4  # the second S line's 4 tokens
    assert result["starts"][:2] == [["0", "Nobody here yet ."], ["1", "here yet ."]]
    assert "Add an edit for token 1…" in result["titles"]
    assert result["applied"] is True
    assert result["after"][-2:] == ["S Nobody here yet .",
                                    "A 1 2|||OTHER|||there|||REQUIRED|||-NONE-|||0"]
    # Neovim's code-action menu, and the recipe's client command asking the correction
    assert result["asked"] == "go"
    assert result["menu"][:3] == ["S He go to school .",
                                  "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0",
                                  "A 1 2|||OTHER|||went|||REQUIRED|||-NONE-|||0"]


def _emacs_annotates_from_a_correction(tmp_path: Path):
    """M-x gec-m2-annotate on an A line with the text given, and through the prompt
    (prefilled with the current correction) on an S line; one undo takes the last back."""
    gold = tmp_path / "gold.m2"
    gold.write_text(ANNOTATED, encoding="utf-8")
    out = tmp_path / "emacs.json"
    run_emacs_recipe(tmp_path, "emacs_annotate.el", OUT=str(out), GOLD=str(gold))
    result = json.loads(out.read_text("utf-8"))
    assert result["mode"] == "gec-m2-mode"
    assert result["given"] == AFTER_GIVEN
    assert result["asked"] == ["Corrected (annotator 0): ", "It is fine ."]
    assert result["prompted"] == AFTER_PROMPT
    assert result["undone"] == AFTER_GIVEN


def _emacs_adds_an_edit_and_splits_a_token(tmp_path: Path):
    """M-x gec-m2-add-edit on a selection of an S line and M-x gec-m2-split-token inside a
    token, each asking what eglot's own code-action menu would have sent empty (the server
    refused "Add an edit" run from eglot: "needs the correction")."""
    gold = tmp_path / "gold.m2"
    gold.write_text(WORKBENCH, encoding="utf-8")
    out = tmp_path / "emacs.json"
    run_emacs_recipe(tmp_path, "emacs_workbench.el", OUT=str(out), GOLD=str(gold))
    result = json.loads(out.read_text("utf-8"))
    assert result["asked"] == [["Correction of 'here': ", "here"],
                               ["Split 'Nobody' at spaces: ", "Nobody"]]
    assert result["added"].endswith("S Nobody here yet .\n"
                                    "A 1 2|||OTHER|||there|||REQUIRED|||-NONE-|||0\n")
    assert result["split"].endswith("S No body here yet .\n"
                                    "A 2 3|||OTHER|||there|||REQUIRED|||-NONE-|||0\n")


def _emacs_eglot_recipe_lists_every_fp_and_fn(tmp_path: Path):
    """The README's Emacs recipe (docs/editors/gec-m2-mode.el) on Debian's Emacs 28 with
    eglot 1.9: `*.m2` opens in gec-m2-mode, and gec-m2-score lists every FP and FN of CAMB
    on the full CoNLL-2014 gold (from m2lsp/scoreReport) as file:line:col entries."""
    from tests.conftest import shared

    gold = tmp_path / "gold.m2"
    gold.write_bytes(shared("conll2014/gold/official-2014.combined.m2").read_bytes())
    out = tmp_path / "emacs.txt"
    run_emacs_recipe(tmp_path, "emacs_score.el", OUT=str(out), GOLD=str(gold),
                     SYSTEM=str(shared("conll2014/systems/CAMB")))
    mode, *listing = out.read_text("utf-8").splitlines()
    assert mode == "gec-m2-mode"
    assert listing[0].startswith("m2lsp: F0.5 0.3733")
    entries = [line for line in listing if line.startswith(str(gold) + ":")]
    kinds = [line.split(": ", 1)[1].split(" ", 1)[0] for line in entries]
    assert (kinds.count("FP"), kinds.count("FN")) == (1172, 1793)


CGED_XML = ('<?xml version="1.0" encoding="UTF-8"?>\n<DOC>\n<TEXT id="1">我喜歡你</TEXT>\n'
            '<ERROR start_off="2" end_off="2" type="S"></ERROR>\n</DOC>\n')
POM = '<?xml version="1.0"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n</project>\n'


def _plain_path_and_venv(tmp_path: Path, venv: bool) -> tuple[Path, dict[str, str]]:
    """A folder to start the editor in, with (or without) the README's .venv/bin/m2lsp, and
    a PATH where no `m2lsp` is and whose python3 (if any) cannot import m2lsp."""
    work = tmp_path / ("with-venv" if venv else "without")
    (work / "sub").mkdir(parents=True)
    if venv:
        exe = work / ".venv" / "bin" / "m2lsp"
        exe.parent.mkdir(parents=True)
        exe.write_text("#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    bare = tmp_path / "bin"
    bare.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=str(bare), HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path))
    return work / "sub", env


def _neovim_finds_the_server_or_says_why_and_knows_cged_xml(tmp_path: Path, venv: bool):
    where, env = _plain_path_and_venv(tmp_path, venv)
    (where / "cged.xml").write_text(CGED_XML, encoding="utf-8")
    (where / "pom.xml").write_text(POM, encoding="utf-8")
    out = tmp_path / "nvim.json"
    env.update(M2LSP_NVIM_OUT=str(out), M2LSP_NVIM_CMD=json.dumps(["true"]),
               M2LSP_NVIM_SETUP=str(ROOT / "docs" / "editors" / "m2lsp.lua"))
    subprocess.run([NVIM, "--headless", "--clean", "-c",
                    f"luafile {Path(__file__).with_name('find_server.lua')}"],
                   cwd=where, env=env, timeout=120, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True)
    result = json.loads(out.read_text("utf-8"))
    if venv:
        assert result["cmd"] == [str(where.parent / ".venv" / "bin" / "m2lsp"), "serve"]
    else:
        assert result["cmd"] is None
        assert result["why"].startswith("m2lsp: the language server was not found")
    assert result["filetypes"] == {"cged.xml": "gec-cged", "pom.xml": "xml"}


def _emacs_finds_the_server_or_says_why(tmp_path: Path, venv: bool):
    where, env = _plain_path_and_venv(tmp_path, venv)
    out = tmp_path / "emacs.txt"
    env.update(M2LSP_EMACS_OUT=str(out),
               M2LSP_EMACS_SETUP=str(ROOT / "docs" / "editors" / "gec-m2-mode.el"))
    subprocess.run([EMACS, "--batch", "-l", str(Path(__file__).with_name("find_server.el"))],
                   cwd=where, env=env, timeout=120, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True)
    found = out.read_text("utf-8")
    if venv:
        assert found == f"{where.parent / '.venv' / 'bin' / 'm2lsp'}\tserve"
    else:
        assert found.startswith("ERROR m2lsp: the language server was not found")


def _emacs_says_the_servers_reason_when_scoring_fails(tmp_path: Path):
    """Not 'this document has no live score': the reason the server gave."""
    from tests.conftest import shared

    gold = tmp_path / "gold.m2"
    gold.write_bytes(shared("conll2014/gold/official-2014.combined.m2").read_bytes())
    short = tmp_path / "short.txt"
    short.write_text("one line only\n", encoding="utf-8")
    env = dict(os.environ, M2LSP_EMACS_OUT=str(tmp_path / "out.txt"),
               M2LSP_EMACS_GOLD=str(gold), M2LSP_EMACS_SYSTEM=str(short),
               M2LSP_EMACS_SETUP=str(ROOT / "docs" / "editors" / "gec-m2-mode.el"),
               M2LSP_EMACS_CMD="\t".join([sys.executable, "-m", "m2lsp", "serve"]),
               HOME=str(tmp_path))
    done = subprocess.run([EMACS, "--batch", "-l",
                           str(Path(__file__).with_name("emacs_score.el"))],
                          cwd=tmp_path, env=env, timeout=240, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    assert done.returncode != 0
    # the user-error that ended gec-m2-score (Emacs shortens it in the backtrace)
    assert 'Lisp error: (user-error "m2lsp: cannot score: the gold has 1312 sentences' in \
        done.stderr, done.stderr[-2000:]


def _emacs_says_m2lsp_is_not_attached(tmp_path: Path):
    """Without a server, the commands said `(cl-no-applicable-method
    jsonrpc--next-request-id nil)`; now one sentence, as Neovim's recipe says it."""
    gold = tmp_path / "gold.m2"
    gold.write_text("S The cat sat .\n", encoding="utf-8")
    out = tmp_path / "said.txt"
    run_emacs_recipe(tmp_path, "emacs_detached.el", OUT=str(out), GOLD=str(gold))
    said = out.read_text(encoding="utf-8").splitlines()
    assert len(said) == 3 and all(s.startswith("m2lsp is not attached") for s in said), said


# One test per editor, each scenario in a folder of its own (a fresh clone without the
# editors skips two tests, not eleven); a failure names its scenario in the traceback.
def _alone(scenario: Any, *args: Any) -> Any:
    return lambda where, capsys: scenario(where, *args)


NEOVIM = {
    "diagnostics-and-hover": _neovim_receives_the_diagnostics_and_a_hover,
    "quickfix": _alone(_neovim_setup_scores_and_fills_the_quickfix_list_with_every_fp_and_fn),
    "annotate": _alone(_neovim_annotates_from_a_correction),
    "workbench": _alone(_neovim_uses_the_workbench),
    "finds-the-venv": _alone(_neovim_finds_the_server_or_says_why_and_knows_cged_xml, True),
    "says-why-not": _alone(_neovim_finds_the_server_or_says_why_and_knows_cged_xml, False),
}
EMACS_SCENARIOS = {
    "annotate": _alone(_emacs_annotates_from_a_correction),
    "workbench": _alone(_emacs_adds_an_edit_and_splits_a_token),
    "eglot-recipe": _alone(_emacs_eglot_recipe_lists_every_fp_and_fn),
    "finds-the-venv": _alone(_emacs_finds_the_server_or_says_why, True),
    "says-why-not": _alone(_emacs_finds_the_server_or_says_why, False),
    "the-servers-reason": _alone(_emacs_says_the_servers_reason_when_scoring_fails),
    "not-attached": _alone(_emacs_says_m2lsp_is_not_attached),
}


def test_neovim(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    need(NVIM, "nvim", "neovim")
    for name, scenario in NEOVIM.items():
        (tmp_path / name).mkdir()
        scenario(tmp_path / name, capsys)


def test_emacs(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    need(EMACS, "emacs", "emacs-nox elpa-eglot")
    for name, scenario in EMACS_SCENARIOS.items():
        (tmp_path / name).mkdir()
        scenario(tmp_path / name, capsys)
