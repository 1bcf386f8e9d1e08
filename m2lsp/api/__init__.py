"""m2lsp from Python: the numbers `m2lsp score` prints, as objects a notebook or a training
loop can use.  Nothing here prints or exits: a problem is an `M2lspError` (`UsageError` for
a value of the wrong type or an impossible request, `InputError` for an input that cannot
be read or used), and what the command line would say is kept in `Score.warnings` (and
sent to the `m2lsp` logger).

    >>> import m2lsp
    >>> m2lsp.score("CAMB", gold="official-2014.combined.m2").f   # doctest: +SKIP
    0.3732...

Inputs are a path (a `pathlib.Path`, or a `str` without a line break), a file's text (a
`str` with line breaks), or a list of sentences (see `inputs`).  Options are the metric's
own, by the name the command line gives them without dashes (`beta`,
`max_unchanged_words`, `errant_cat`, `cged_counting`, ...); `m2lsp.metrics()` lists them.
"""

from __future__ import annotations

from m2lsp.api.annotating import annotate
from m2lsp.api.explaining import Explanation, explain
from m2lsp.api.listing import MetricInfo
from m2lsp.api.meta import MetaEval, meta_eval
from m2lsp.api.scoring import Score, Scorer, score
from m2lsp.api.tools import agree, check, compare, rank_systems, report

__all__ = ["Explanation", "MetaEval", "MetricInfo", "Score", "Scorer", "agree", "annotate",
           "check", "compare", "explain", "meta_eval", "rank_systems", "report",
           "score"]
