"""ERRANT's span-based scoring of hypothesis edits against reference edits, identical to
`errant_compare` from errant 3.0.2.

Per sentence, every hypothesis annotator is compared with every reference annotator.  Edits
are keys: (start, end, correction) by default (`cs`), with the type too (`cse`), the span
only (`ds`), or one key per source token (`dt`; an insertion counts as the token on its
right).  A hypothesis key found among the reference keys is a true positive *once per
reference edit at that key*; otherwise once per hypothesis edit at that key a false
positive; reference keys not in the hypothesis are false negatives, once per edit.  `noop`
keys never count.  Edits of type `UNK` count only for detection (`ds`, `dt`).

The pair chosen for a sentence is the one whose counts, added to the corpus counts chosen so
far, give the highest F (rounded to 4 places, as errant_compare rounds), then more true
positives, fewer false positives, fewer false negatives; on a complete tie the first pair in
file order (hypothesis annotators outside, reference annotators inside, each in order of
first appearance).  This is not the M2 scorer's choice, which breaks ties differently.
gec-metrics' ERRANT (`variant` "gec-metrics") chooses the same way on F at full precision:
where two references' F round alike it may keep another one (SEEDA's PIE at beta 2: F
0.45817 against errant_compare's 0.45804).

P, R, F: a denominator without false positives (or false negatives) gives precision (or
recall) 1.0, F is 0.0 when P + R is 0, and all three are rounded to 4 places.

ChERRANT's scorer (`compare_m2_for_evaluation.py`, `cherrant=True`) is errant_compare with
these differences: spaces are removed from corrections (`在 国 内` and `在国内` are one
edit); optionally only annotators 0 .. N-1 are read (`max_answers`) and only sentences with
exactly N reference annotators are scored (`references`); and a sentence whose reference
is one annotator with a single edit key of type `NA` (ChERRANT's 无法标注, not annotatable)
is not scored.  A sentence not scored counts nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import m2lsp.defaults as defaults
from m2lsp.scoring.errant.inputs import ErrantBlock, ErrantEdit
from m2lsp.scoring.metric import drain
from m2lsp.scoring.signature import Signature

MODES = ("cs", "cse", "ds", "dt")
CHERRANT_SCORER = "compare_m2_for_evaluation-MuCGEC@3922193"
NOT_ANNOTATABLE = "NA"
NOOP = "noop"
UNKNOWN = "UNK"
_NOOP_EDIT = ErrantEdit(-1, -1, NOOP, "-NONE-", 0, -1)

Key = tuple  # (start, end, correction) | (start, end, type, correction) | (start, end)
Categories = dict[str, list[int]]  # type -> [tp, fp, fn], in order of first count


@dataclass(frozen=True)
class ErrantSettings:
    """errant_compare's options; the defaults are its defaults."""

    beta: float = defaults.BETA
    mode: str = "cs"  # cs | cse | ds | dt
    single: bool = False
    multi: bool = False
    filtered: tuple[str, ...] = ()
    cherrant: bool = False  # ChERRANT's compare_m2_for_evaluation.py (module docstring)
    max_answers: int | None = None  # ChERRANT: only annotators 0 .. N-1
    references: int | None = None  # ChERRANT: only sentences with N reference annotators
    variant: str = "errant"  # or gec-metrics: each reference chosen on F at full precision

    def signature(self) -> Signature:
        """How the numbers were made, printed with them."""
        fields: list[tuple[str, str | None]] = [("beta", f"{self.beta:g}"), ("mode", self.mode)]
        if self.single:
            fields.append(("single", None))
        if self.multi:
            fields.append(("multi", None))
        if self.filtered:
            fields.append(("filter", ",".join(self.filtered)))
        if self.variant != "errant":
            fields.append(("choice", "full-precision-f"))
        if not self.cherrant:
            return Signature("ERRANT", (*fields, ("scorer", "errant_compare-3.0.2")))
        if self.max_answers is not None:
            fields.append(("max-answers", str(self.max_answers)))
        if self.references is not None:
            fields.append(("references", str(self.references)))
        return Signature("ChERRANT", (*fields, ("scorer", CHERRANT_SCORER)))

    def keeps(self, edit: ErrantEdit) -> bool:
        """Whether the edit is evaluated under these options."""
        if edit.type == UNKNOWN and self.mode not in ("ds", "dt"):
            return False
        span = edit.end - edit.start
        if self.single and (span >= 2 or len(edit.correction.split()) >= 2):
            return False
        if self.multi and span < 2 and len(edit.correction.split()) < 2:
            return False
        return not (self.filtered and edit.type in self.filtered)

    def keys(self, edit: ErrantEdit) -> list[Key]:
        """The keys the edit is counted under."""
        return _KEYS[self.mode](edit)


def _token_keys(edit: ErrantEdit) -> list[Key]:
    start, end = edit.start, edit.end
    if start == -1:
        return [(start, start)]
    if start == end and start >= 0:
        return [(start, start + 1)]
    return [(token, token + 1) for token in range(start, end)]


_KEYS: dict[str, Callable[[ErrantEdit], list[Key]]] = {
    "cs": lambda e: [(e.start, e.end, e.correction)],
    "cse": lambda e: [(e.start, e.end, e.type, e.correction)],
    "ds": lambda e: [(e.start, e.end)],
    "dt": _token_keys,
}


class CoderEdits(NamedTuple):
    """One annotator's evaluated edits: each key's types, and the line that first gave it."""

    coder: int
    types: dict[Key, list[str]]
    lines: dict[Key, int]


def coder_edits(edits: Sequence[ErrantEdit], settings: ErrantSettings) -> list[CoderEdits]:
    """Each annotator's keys, annotators in order of first appearance.  A block without
    edits reads as annotator 0's noop."""
    coders: dict[int, CoderEdits] = {}
    if settings.cherrant:
        edits = _as_cherrant_reads(edits, settings.max_answers)
    plain = settings.mode == "cs" and not (settings.single or settings.multi
                                           or settings.filtered)
    keys = _KEYS[settings.mode]
    if plain:
        _plain_keys(coders, edits or (_NOOP_EDIT,))
        return list(coders.values())
    for edit in edits or (_NOOP_EDIT,):
        found = coders.get(edit.coder)
        if found is None:
            found = coders[edit.coder] = CoderEdits(edit.coder, {}, {})
        if settings.keeps(edit):
            for key in keys(edit):
                _add(found, key, edit)
    return list(coders.values())


def _as_cherrant_reads(edits: Sequence[ErrantEdit], max_answers: int | None
                       ) -> list[ErrantEdit]:
    """The edits without spaces in their corrections, and only annotators 0 .. N-1."""
    return [e._replace(correction=e.correction.replace(" ", "")) for e in edits
            if max_answers is None or 0 <= e.coder < max_answers]


def _plain_keys(coders: dict[int, CoderEdits], edits: Sequence[ErrantEdit]) -> None:
    """The default options, quickly (the hot loop of scoring): UNK left out, one key per
    edit."""
    for start, end, kind, correction, coder, line in edits:
        found = coders.get(coder)
        if found is None:
            found = coders[coder] = CoderEdits(coder, {}, {})
        if kind == UNKNOWN:
            continue
        key = (start, end, correction)
        types = found.types.get(key)
        if types is None:
            found.types[key] = [kind]
            found.lines[key] = line
        else:
            types.append(kind)


def _add(coder: CoderEdits, key: Key, edit: ErrantEdit) -> None:
    types = coder.types.get(key)
    if types is None:
        coder.types[key] = [edit.type]
        coder.lines[key] = edit.line
    else:
        types.append(edit.type)


class Comparison(NamedTuple):
    """One hypothesis annotator against one reference annotator."""

    hyp: CoderEdits
    ref: CoderEdits
    tp: int
    fp: int
    fn: int
    categories: Categories
    true_positives: tuple[Key, ...]
    false_positives: tuple[Key, ...]
    false_negatives: tuple[Key, ...]


def compare(hyp: CoderEdits, ref: CoderEdits) -> Comparison:
    """Count the hypothesis keys against the reference keys."""
    categories: Categories = {}
    tps, fps, fns = [], [], []
    tp = fp = fn = 0
    hyp_types, ref_types = hyp.types, ref.types
    for key, types in hyp_types.items():
        if types[0] == NOOP:
            continue
        found = ref_types.get(key)
        if found is not None:
            tps.append(key)
            tp += len(found)
            _count(categories, found, 0)
        else:
            fps.append(key)
            fp += len(types)
            _count(categories, types, 1)
    for key, types in ref_types.items():
        if key not in hyp_types and types[0] != NOOP:
            fns.append(key)
            fn += len(types)
            _count(categories, types, 2)
    return Comparison(hyp, ref, tp, fp, fn, categories, tuple(tps), tuple(fps), tuple(fns))


def _count(categories: Categories, types: list[str], slot: int) -> None:
    for name in types:
        if name in categories:
            categories[name][slot] += 1
        else:
            counts = categories[name] = [0, 0, 0]
            counts[slot] = 1


def f_score(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """errant_compare's P, R, F, each rounded to 4 places."""
    p, r, f = f_exact(tp, fp, fn, beta)
    return round(p, 4), round(r, 4), round(f, 4)


def f_exact(tp: float, fp: float, fn: float, beta: float) -> tuple[float, float, float]:
    """errant_compare's P, R, F before it rounds them (P is 1 without false positives, R
    1 without false negatives, F 0 when both are 0)."""
    p = float(tp) / (tp + fp) if fp else 1.0
    r = float(tp) / (tp + fn) if fn else 1.0
    f = float((1 + (beta ** 2)) * p * r) / (((beta ** 2) * p) + r) if p + r else 0.0
    return p, r, f


_NOBODY = CoderEdits(0, {}, {})
NOT_SCORED = Comparison(_NOBODY, _NOBODY, 0, 0, 0, {}, (), (), ())


class ErrantSentence(NamedTuple):
    """Everything scoring found about one sentence."""

    index: int  # type: ignore[assignment]  # 0-based (a field named as tuple.index)
    hyp_block: ErrantBlock
    ref_block: ErrantBlock
    comparisons: tuple[Comparison, ...]  # in the order they were tried
    chosen: int  # index into comparisons
    before: tuple[int, int, int]  # corpus tp, fp, fn chosen before this sentence

    @property
    def best(self) -> Comparison:
        return self.comparisons[self.chosen] if self.comparisons else NOT_SCORED

    @property
    def scored(self) -> bool:
        """False for a sentence ChERRANT's scorer leaves out (counted as nothing)."""
        return bool(self.comparisons)

    @property
    def line(self) -> int:
        """The reference file's sentence line (0-based)."""
        return self.ref_block.line

    @property
    def counts(self) -> tuple[int, int, int]:
        best = self.best
        return best.tp, best.fp, best.fn


@dataclass(frozen=True)
class ErrantResult:
    sentences: list[ErrantSentence]
    tp: int
    fp: int
    fn: int
    categories: Categories = field(default_factory=dict)
    settings: ErrantSettings = field(default_factory=ErrantSettings)

    @property
    def scores(self) -> tuple[float, float, float]:
        return f_score(self.tp, self.fp, self.fn, self.settings.beta)


def evaluate(hyp: Sequence[ErrantBlock], ref: Sequence[ErrantBlock],
             settings: ErrantSettings = ErrantSettings()) -> ErrantResult:
    """Score hypothesis blocks against reference blocks (same number, same order)."""
    return drain(evaluate_in_steps(hyp, ref, settings, step=len(ref) + 1))


def evaluate_in_steps(hyp: Sequence[ErrantBlock], ref: Sequence[ErrantBlock],
                      settings: ErrantSettings = ErrantSettings(), step: int = 500
                      ) -> Generator[int, None, ErrantResult]:
    """`evaluate`, yielding the number of sentences done after every `step` of them (so an
    event loop can go on between steps); the result is the generator's return value."""
    if len(hyp) != len(ref):
        raise ValueError("hypothesis and reference have different numbers of sentences")
    total = [0, 0, 0]
    categories: Categories = {}
    sentences = []
    for index, (h, r) in enumerate(zip(hyp, ref, strict=True)):
        sentence = _sentence(index, h, r, settings, (total[0], total[1], total[2]))
        best = sentence.best
        total[0] += best.tp
        total[1] += best.fp
        total[2] += best.fn
        _merge(categories, best.categories)
        sentences.append(sentence)
        if (index + 1) % step == 0:
            yield index + 1
    return ErrantResult(sentences, total[0], total[1], total[2], categories, settings)


def _sentence(index: int, hyp: ErrantBlock, ref: ErrantBlock, settings: ErrantSettings,
              before: tuple[int, int, int]) -> ErrantSentence:
    refs = coder_edits(ref.edits, settings)
    if settings.cherrant and _left_out(refs, settings):
        return ErrantSentence(index, hyp, ref, (), 0, before)
    comparisons = [compare(h, r) for h in coder_edits(hyp.edits, settings) for r in refs]
    return ErrantSentence(index, hyp, ref, tuple(comparisons),
                          choose(comparisons, before, settings.beta,
                                 exact=settings.variant == "gec-metrics"), before)


def _left_out(refs: Sequence[CoderEdits], settings: ErrantSettings) -> bool:
    """Whether ChERRANT's scorer leaves the sentence out: not the number of references
    asked for, or one reference whose only edit is not annotatable (NA)."""
    if settings.references is not None and len(refs) != settings.references:
        return True
    if len(refs) != 1 or len(refs[0].types) != 1:
        return False
    return next(iter(refs[0].types.values()))[0] == NOT_ANNOTATABLE


def choose(comparisons: Sequence[Comparison], before: tuple[int, int, int],
           beta: float, exact: bool = False) -> int:
    """The index of the comparison errant_compare keeps (see the module docstring); with
    `exact`, the one gec-metrics' ERRANT keeps (F at full precision)."""
    if len(comparisons) == 1:
        return 0
    score = f_exact if exact else f_score
    best, best_key = 0, None
    for index, c in enumerate(comparisons):
        f = score(c.tp + before[0], c.fp + before[1], c.fn + before[2], beta)[2]
        key = (f, c.tp, -c.fp, -c.fn)
        if best_key is None or key > best_key:
            best, best_key = index, key
    return best


def _merge(total: Categories, counts: Categories) -> None:
    for name, (tp, fp, fn) in counts.items():
        if name in total:
            found = total[name]
            total[name] = [found[0] + tp, found[1] + fp, found[2] + fn]
        else:
            total[name] = [tp, fp, fn]


def categories_at(categories: Categories, level: int) -> Categories:
    """errant_compare -cat: 1 the operation (`R`), 2 the rest (`NOUN:NUM`), 3 the whole
    type.  `UNK` keeps its name, and at level 2 it replaces (does not add to) a category
    that reads `UNK` after its operation is cut off, as errant_compare does."""
    if level == 3:
        return categories
    out: Categories = {}
    for name, counts in categories.items():
        if name == UNKNOWN:
            out[name] = counts
            continue
        short = name[:1] if level == 1 else name[2:]
        found = out.get(short)
        out[short] = counts if found is None else [a + b for a, b in
                                                   zip(found, counts, strict=True)]
    return out
