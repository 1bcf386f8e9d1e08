"""m2lsp: language server, linter and scorer for grammatical-error-correction data.

The Python API (see docs/api.md): `score`, `Scorer`, `compare`, `explain`, `annotate`, `check`,
`agree`, `report`, `rank_systems`, `metrics` (the list, and sacreBLEU-style classes), `meta_eval`,
`evaluate_module` (Hugging Face `evaluate`), `trainer` (a Trainer's `compute_metrics`),
and one exception family under `M2lspError`.
What `__all__` names is a promise kept across minor versions (docs/api.md says how);
everything else may move.  The names load on first use, so `import m2lsp` stays as light
as the command line's start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from m2lsp.version import __version__

__all__ = [
    "Explanation", "InputError", "M2lspError", "MetaEval", "MetricInfo", "Score", "Scorer",
    "UsageError", "WriteRefused", "__version__", "agree", "annotate", "check", "compare",
    "evaluate_module", "explain", "meta_eval", "metrics", "rank_systems", "report", "score",
    "trainer",
]

_FROM = {"InputError": "m2lsp.errors", "M2lspError": "m2lsp.errors",
         "UsageError": "m2lsp.errors", "WriteRefused": "m2lsp.files.writing",
         "evaluate_module": "m2lsp.evaluate_modules"}
_MODULES = ("metrics", "trainer")  # submodules that are themselves the name

if TYPE_CHECKING:
    from m2lsp import metrics, trainer
    from m2lsp.api import (
        Explanation,
        MetaEval,
        MetricInfo,
        Score,
        Scorer,
        agree,
        annotate,
        check,
        compare,
        explain,
        meta_eval,
        rank_systems,
        report,
        score,
    )
    from m2lsp.errors import InputError, M2lspError, UsageError
    from m2lsp.evaluate_modules import evaluate_module
    from m2lsp.files.writing import WriteRefused


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'm2lsp' has no attribute {name!r}")
    import importlib

    if name in _MODULES:  # `m2lsp.metrics` is a module (and callable: the list)
        value = importlib.import_module(f"m2lsp.{name}")
    else:
        value = getattr(importlib.import_module(_FROM.get(name, "m2lsp.api")), name)
    globals()[name] = value
    return value
