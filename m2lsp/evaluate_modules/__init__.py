"""m2lsp's metrics as Hugging Face `evaluate` modules, loadable offline from the installed
package:

    >>> import evaluate, m2lsp                                        # doctest: +SKIP
    >>> m2 = evaluate.load(m2lsp.evaluate_module("m2"))               # doctest: +SKIP
    >>> m2.compute(predictions=["The cat sat on the mat ."],          # doctest: +SKIP
    ...            references=[["The cat sat on the mat ."]],
    ...            sources=["The cat sat on mat ."])

`predictions` are the system's sentences, `references` each prediction's references (a
list per prediction, as `evaluate` modules take them), `sources` the sentences they
correct; the metric's options go to `evaluate.load(...)` or `compute(...)`.  The result
uses the keys of `m2lsp score --format json` (`precision`, `recall`, `f`; `gleu`;
`green`), at full precision, with the `signature`.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
MODULES = ("m2", "errant", "cherrant", "gleu", "green", "cleme")


def evaluate_module(metric: str) -> str:
    """The path `evaluate.load` takes for m2lsp's module of `metric`."""
    from m2lsp.errors import UsageError

    if not isinstance(metric, str) or metric not in MODULES:
        raise UsageError(f"evaluate_module: one of {', '.join(MODULES)}, not {metric!r}")
    return str(HERE / metric)
