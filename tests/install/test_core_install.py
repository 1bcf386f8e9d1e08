"""Every command line path as `pip install m2lsp` (no extras) runs it: m2lsp and its core
requirements only (`core_site`), in an interpreter started without site-packages.  A path
that needs an extra says which `pip install` it needs, in one line and exit 2; nothing ends
in a traceback (`score --metric cleme --cleme2 --cleme-weigher length` did: NumPy)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import COMMANDS
from tests.install.core_site import build

GOLD = ("S The cat sat on mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
        "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0\n\n"
        "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
HYP_M2 = ("S The cat sat on mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
          "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
ZH_GOLD = ("S 我 喜 欢 猫 。\nA 2 3|||S|||歡|||REQUIRED|||-NONE-|||0\n\n")
TRUTH = "A1, 2, 3, S\nA2, correct\n"
TWO = ("S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
       "A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||1\n\n")
FILES = {"gold.m2": GOLD, "two.m2": TWO, "hyp.m2": HYP_M2,
         "sys.txt": "The dog sat on the mat .\nIt is fine .\n",
         "other.txt": "The dog sat on mat .\nIt is fine .\n",
         "src.txt": "The cat sat on mat .\nIt is fine .\n",
         "ref.txt": "The dog sat on the mat .\nIt is fine .\n",
         "zh.m2": ZH_GOLD, "zh.txt": "我喜歡猫。\n", "zh_src.txt": "我喜欢猫。\n",
         "truth.txt": TRUTH, "result.txt": TRUTH,
         "input.txt": "A1\t我喜欢猫。\nA2\t我很好。\n",
         "parallel.tsv": "The cat sat .\tThe dog sat .\n"}

# (command line, the exit codes it may end with, what stderr must say when it ends in 2)
PATHS = [
    (["check", "gold.m2"], {0}, None),
    (["check", "--fix", "gold.m2", "--output-format", "sarif"], {0}, None),
    (["rule", "M402"], {0}, None),
    (["rule", "--all"], {0}, None),
    (["score", "sys.txt", "gold.m2"], {0}, None),
    (["score", "sys.txt", "gold.m2", "--bootstrap", "20", "--per-type", "-v"], {0}, None),
    (["score", "--metric", "errant", "hyp.m2", "gold.m2"], {0}, None),
    (["score", "--metric", "errant", "sys.txt", "gold.m2"], {2}, "pip install"),
    (["score", "--metric", "cherrant", "zh.m2", "zh.m2"], {0}, None),
    (["score", "--metric", "cherrant", "zh.txt", "zh.m2"], {2}, "pip install"),
    (["score", "--metric", "cged", "result.txt", "truth.txt"], {0}, None),
    (["score", "--metric", "cgec", "zh.txt", "zh.m2"], {0}, None),
    (["score", "--metric", "gleu", "sys.txt", "--source", "src.txt", "--ref", "ref.txt"],
     {0}, None),
    (["score", "--metric", "gleu", "sys.txt", "gold.m2"], {0}, None),
    (["score", "--metric", "green", "sys.txt", "gold.m2"], {0}, None),
    (["score", "--metric", "cleme", "hyp.m2", "gold.m2"], {0}, None),
    (["score", "--metric", "cleme", "--level", "sentence", "hyp.m2", "gold.m2"], {0}, None),
    (["score", "--metric", "cleme", "--cleme2", "--cleme-weigher", "length", "hyp.m2",
      "gold.m2"], {0}, None),
    (["score", "--metric", "cleme", "--cleme2", "--cleme-weigher", "similarity", "hyp.m2",
      "gold.m2"], {2}, "needs m2lsp[neural]"),
    (["score", "--metric", "cleme", "sys.txt", "gold.m2"], {2}, "pip install"),
    (["compare", "sys.txt", "other.txt", "gold.m2", "--samples", "20"], {0}, None),
    (["compare", "--metric", "green", "sys.txt", "other.txt", "gold.m2", "--samples", "20"],
     {0}, None),
    (["errant-compare", "-hyp", "hyp.m2", "-ref", "gold.m2"], {0}, None),
    (["convert", "gold.m2", "--to", "parallel"], {0}, None),
    (["annotate", "--orig", "src.txt", "--cor", "sys.txt"], {2}, "pip install"),
    (["annotate", "--lang", "zh", "--orig", "zh_src.txt", "--cor", "zh.txt"], {2},
     "pip install"),
    (["agree", "two.m2"], {0}, None),
    (["report", "gold.m2", "sys.txt", "-o", "report.html"], {2}, "pip install"),
    (["cache", "info"], {0}, None),
    (["meta-eval", "--dataset", "seeda", "--data", "nowhere"], {2}, None),
    (["--help"], {0}, None),
    *(([command, "--help"], {0}, None) for command in COMMANDS),
]


@pytest.fixture(scope="module")
def core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("core-site"))


def _run(core: Path, folder: Path, argv: list[str], entry: str = "main"
         ) -> subprocess.CompletedProcess:
    code = (f"import sys; sys.path.insert(0, {str(core)!r}); "
            f"from m2lsp.cli import main; from m2lsp.cli.score import m2scorer_main; "
            f"sys.exit({entry}({argv!r}))")
    env = {"PATH": "/usr/bin:/bin", "M2LSP_CACHE_DIR": str(folder / "cache"),
           "HOME": str(folder), "M2LSP_CHERRANT_DATA": str(folder / "tables")}
    return subprocess.run([sys.executable, "-S", "-c", code], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("core-files")
    for name, text in FILES.items():
        (here / name).write_text(text, encoding="utf-8")
    (here / "tables").mkdir()  # ChERRANT's tables, there: the missing extra is what is said
    for name in ("cilin.txt", "confusion_dict.txt"):
        (here / "tables" / name).write_text("", encoding="utf-8")
    return here


def test_the_core_site_has_no_extra(core: Path, folder: Path) -> None:
    """The check below can fail: the site holds no NumPy, spaCy, ERRANT, pypinyin, Jinja2,
    matplotlib or Dask, and m2lsp imports from it."""
    probe = (f"import importlib.util, sys; sys.path.insert(0, {str(core)!r}); import m2lsp; "
             "print(m2lsp.__file__); print([m for m in ('numpy', 'spacy', 'errant', "
             "'pypinyin', 'jinja2', 'matplotlib', 'dask', 'trueskill', 'scipy') "
             "if importlib.util.find_spec(m)])")
    done = subprocess.run([sys.executable, "-S", "-c", probe], cwd=folder, capture_output=True,
                          text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert lines[0].startswith(str(core)) and lines[1] == "[]", done.stderr


@pytest.mark.parametrize(("argv", "codes", "says"), PATHS, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_every_path_runs_or_names_its_extra(core: Path, folder: Path, argv, codes,
                                            says) -> None:
    done = _run(core, folder, argv)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in codes, done.stderr
    if done.returncode == 2 and says is not None:
        assert says in done.stderr, done.stderr


def test_the_m2scorer_drop_in(core: Path, folder: Path) -> None:
    done = _run(core, folder, ["sys.txt", "gold.m2"], entry="m2scorer_main")
    assert done.returncode == 0 and done.stdout.startswith("Precision   : "), done.stderr
