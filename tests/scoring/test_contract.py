"""Every registry entry through the metric contract: it is a MetricBase, its scores are
ScoreBase (every optional capability answers, with its default where the metric has none),
its live score a LiveBase; and nothing outside the base probes for a capability."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from m2lsp.scoring.metric import (
    REGISTRY,
    LiveBase,
    MetricBase,
    Request,
    ScoreBase,
    SentenceStats,
    declared,
    metric,
)
from tests.conftest import ROOT, shared

# metric -> (system, gold) in ../shared/data, a pair it scores
INPUTS = {
    "m2": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2"),
    "errant": ("mucgec/demo.hyp.m2.char", "mucgec/demo.ref.m2.char"),
    "cherrant": ("mucgec/demo.hyp.m2.char", "mucgec/demo.ref.m2.char"),
    "cged": ("cged/cged2015/nlptea15cged_release1.0/Tool/NLPTEA15_Toy_Result.txt",
             "cged/cged2015/nlptea15cged_release1.0/Tool/NLPTEA15_Toy_Truth.txt"),
    "cgec": ("mucgec/demo.hyp", "mucgec/demo.ref.m2.char"),
    "gleu": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2"),
    "green": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2"),
    "cleme": ("cleme/CLEME/tests/examples/conll14-AMU.errant",
              "cleme/CLEME/tests/examples/conll14.errant"),
    "gotoscorer": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2"),
}


# the learned metrics need models: tests/learned/test_learned_commands.py runs them through
# `keeps_the_contract` on models the tests make
LEARNED = {"impara", "some", "scribendi", "bertscore", "pt-errant", "pt-m2", "llm-s",
           "llm-e"}


def test_every_registry_entry_has_inputs_here() -> None:
    assert set(INPUTS) | LEARNED == set(REGISTRY) and not set(INPUTS) & LEARNED


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_a_metric_keeps_the_contract(name: str) -> None:
    keeps_the_contract(name, *(shared(p) for p in INPUTS[name]))


def keeps_the_contract(name: str, system: Path, gold: Path, values: dict | None = None
                       ) -> None:
    """`name` scores `system` against `gold` (its options' values by dest: `values`)
    through the contract."""
    from m2lsp.config import ScoreSettings
    from m2lsp.scoring.metric import Shared

    chosen = metric(name)
    assert isinstance(chosen, MetricBase)
    assert chosen.declaration is declared(name)  # the package's, held by its code
    assert chosen.name == name and chosen.help.startswith(name)
    config = ScoreSettings()
    request = Request(system, gold, Shared(), chosen.options(values or {}, Shared(), config))
    score = chosen.run(request)
    assert isinstance(score, ScoreBase)
    data = score.json(request)
    assert data["metric"] == name and data["signature"] == score.signature
    stats = score.sentence_stats()
    assert (stats is not None) == chosen.per_sentence
    assert stats is None or isinstance(stats, SentenceStats)
    assert all(isinstance(v, float) for v in score.headline(data).values())
    assert isinstance(score.type_counts(), list) and isinstance(score.reviews(), list)
    main = score.main(data)
    assert main is None or isinstance(main, float)
    sentences = score.sentence_scores()
    assert sentences is None or all(v is None or isinstance(v, float) for v in sentences)
    live = chosen.live(config)
    assert live is None or isinstance(live, LiveBase)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_the_editor_way_is_what_the_metric_has(name: str) -> None:
    """"steps" or "thread": it has editor code of its own (an `in_editor`, or a live score
    the base's `in_editor` reads); "files": it has none, and the server scores the open
    gold and the system as files."""
    from m2lsp.config import ScoreSettings

    chosen = metric(name)
    own = (type(chosen).in_editor is not MetricBase.in_editor
           or chosen.live(ScoreSettings()) is not None)
    assert chosen.editor in ("steps", "thread", "files")
    assert (chosen.editor != "files") == own, chosen.editor


def test_no_capability_is_probed_for_outside_the_base() -> None:
    """`hasattr(score, "headline")`, `getattr(live, "warm_up", None)`: gone."""
    capabilities = ("headline", "type_counts", "reviews", "warm_up", "sentence_stats")
    probes = re.compile(r"(?:hasattr|getattr)\([^)]*[\"'](" + "|".join(capabilities) + ")[\"']")
    found = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in (ROOT / "m2lsp").rglob("*.py")
             for m in probes.finditer(path.read_text(encoding="utf-8"))]
    assert found == []



def test_building_the_command_line_loads_no_metric_code() -> None:
    """Flags, choices and help come from the declarations: `m2lsp score --help` (here in a
    fresh interpreter) imports each metric's package but none of its `metric` modules."""
    import subprocess
    import sys

    code = ("import sys\nfrom m2lsp.cli import build_parser\n"
            "for command in ('score', 'compare', 'report'):\n    build_parser(command)\n"
            "print(' '.join(m for m in sys.modules if m.startswith('m2lsp.scoring.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT).stdout.split()
    assert set(REGISTRY.values()) <= set(loaded)
    assert [m for m in loaded if m.endswith(".metric") and m != "m2lsp.scoring.metric"] == []
