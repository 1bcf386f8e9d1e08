"""One owner per fact: the registry (`m2lsp.scoring.metric.REGISTRY`) names the metrics, and
every other list of them -- configuration docs, command-line help, the VS Code client's
settings, the docs -- says the same names, no more and no fewer."""

from __future__ import annotations

import json
import re

import pytest

from m2lsp.scoring.metric import comparable, names
from tests.conftest import ROOT

LAYOUT = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
SCORING = (ROOT / "docs" / "scoring" / "index.md").read_text(encoding="utf-8")
CONFIG = (ROOT / "m2lsp" / "config.py").read_text(encoding="utf-8")
CLIENT = json.loads((ROOT / "vscode-client" / "package.json").read_text(encoding="utf-8"))
SETTING = CLIENT["contributes"]["configuration"]["properties"]["m2lsp.metric"]


def listed(text: str, pattern: str) -> list[str]:
    """The names of the list that `pattern`'s group 1 captures in `text` (`a, b or c`,
    `a|b|c`, "`a/`, `b/`"), in order."""
    match = re.search(pattern, text, re.DOTALL)
    assert match, f"no list matches {pattern!r}"
    words = re.split(r"[\s,|`/]+|\bor\b|\band\b", match.group(1))
    return [w.replace("_", "-") for w in words if w]  # a package `pt_errant/` is `pt-errant`


def option_doc(key: str) -> str:
    from m2lsp.config import KEYS

    return KEYS[key].doc


# where a list of every metric stands, and the pattern that captures it
EVERY_METRIC = [
    ("config.py ScoreSettings.metric", CONFIG, r'"""Default metric: ([^."]*)\.'),
    ("config.py the metric option", option_doc("metric"), r"in-editor scoring: ([^.]*)\."),
    ("the client's metric description", SETTING["description"], None),
    ("docs/development.md layout", LAYOUT, r"one\s+subpackage per metric: (.*?), and the registry"),
]
# lists of the metrics with per-sentence statistics
PER_SENTENCE = [
    ("docs/scoring --bootstrap", SCORING, r"per-sentence statistics \(([^;]*);"),
    ("docs/scoring compare", SCORING, r"m2lsp compare A B GOLD \[--metric ([^\]]*)\]"),
]


def names_in_the_client_description(text: str) -> list[str]:
    """The client's description says each metric followed by what it scores."""
    return re.findall(r"(?:^|\), |: )([\w-]+) \(", text)


@pytest.mark.parametrize(("where", "text", "pattern"), EVERY_METRIC,
                         ids=[w for w, _, _ in EVERY_METRIC])
def test_every_list_of_metrics_is_the_registry(where, text, pattern) -> None:
    found = listed(text, pattern) if pattern else names_in_the_client_description(text)
    assert sorted(found) == sorted(names()), where


@pytest.mark.parametrize(("where", "text", "pattern"), PER_SENTENCE,
                         ids=[w for w, _, _ in PER_SENTENCE])
def test_every_list_of_comparable_metrics_is_the_registry(where, text, pattern) -> None:
    assert sorted(listed(text, pattern)) == sorted(comparable()), where


def test_the_client_and_the_command_line_offer_the_registry() -> None:
    from m2lsp.cli import build_parser

    assert SETTING["enum"] == names()
    parser = build_parser("score")
    commands = next(a for a in parser._actions if a.dest != "help" and a.choices)
    score, compare = commands.choices["score"], commands.choices["compare"]
    metric_of = {p: next(a for a in p._actions if a.dest == "metric") for p in (score, compare)}
    assert list(metric_of[score].choices) == names()
    assert list(metric_of[compare].choices) == comparable()
    from m2lsp.cli.metric_help import GROUPS

    groups = getattr(score, GROUPS)  # each metric's options, under what the metric is
    assert all(groups[name].description.startswith(f"{name} (") for name in names()
               if name in groups)
    # cgec has no option of its own; llm-e takes llm-s's (the --llm-* flags) and ERRANT's
    assert set(names()) - set(groups) <= {"cgec", "llm-e"}


def test_a_deliberate_mismatch_is_caught() -> None:
    """The extraction reads a list as written: one name too many or too few differs."""
    text = '"""Default metric: m2, errant, cged, cgec, gleu or bleurt.'
    assert sorted(listed(text, EVERY_METRIC[0][2])) != sorted(names())
    text = '"""Default metric: m2, errant, cged or cgec.'
    assert sorted(listed(text, EVERY_METRIC[0][2])) != sorted(names())


def test_every_metric_has_its_sacrebleu_style_class() -> None:
    from m2lsp import metrics

    assert sorted(metrics.CLASSES) == sorted(names())
    for name, cls in metrics.CLASSES.items():
        assert getattr(metrics, cls).name == name
