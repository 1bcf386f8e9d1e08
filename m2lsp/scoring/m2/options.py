"""MaxMatch's own options, typed, built once from the command line and the configuration
(the command line's `m2lsp score`, and the editor's live score)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import m2lsp.defaults as defaults
from m2lsp.errors import UsageError
from m2lsp.scoring.metric import Shared, given

if TYPE_CHECKING:  # the engine loads when options are built, not when flags are declared
    from m2lsp.scoring.m2.maxmatch import M2Settings


@dataclass(frozen=True)
class M2Options:
    """MaxMatch's own options."""

    settings: M2Settings
    very_verbose: bool = False  # also each sentence's lattice and weights
    jobs: int = 1  # processes
    time_limit: float = 5.0  # seconds after which a sentence is named on stderr
    python2: bool = False  # -v as release 3.2 prints it under Python 2.7


def m2_options(values: Mapping[str, Any], shared: Shared, config: Any) -> M2Options:
    """The scorer's options from the command line and the configuration, or a UsageError
    naming the bad one."""
    from m2lsp.scoring.m2.maxmatch import M2Settings

    unchanged = given(values, "max_unchanged_words", config.max_unchanged_words)
    memory = given(values, "max_lattice_memory", defaults.MAX_LATTICE_MEMORY_MIB)
    jobs = 1 if shared.jobs is None else shared.jobs
    if unchanged < 0 or shared.beta < 0:
        raise UsageError("--max-unchanged-words and --beta must be >= 0")
    if memory < 0:
        raise UsageError("--max-lattice-memory must be >= 0 (0: the memory available)")
    if jobs < 1:
        raise UsageError("--jobs must be >= 1")
    ignore = given(values, "ignore_whitespace_casing", config.ignore_whitespace_casing)
    split = bool(values.get("split_chars"))
    very_verbose, python2 = bool(values.get("very_verbose")), bool(values.get("python2"))
    if python2 and not (shared.verbose or very_verbose):
        raise UsageError("--python2 changes what -v prints: give -v too")
    return M2Options(M2Settings(unchanged, shared.beta, ignore, memory, split),
                     very_verbose, jobs, given(values, "time_limit", 5.0), python2)
