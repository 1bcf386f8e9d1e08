"""How well the annotators of one M2 file agree (`m2lsp agree`, the editor's lens).

Bryant and Ng (2015) measure it by scoring each annotator against the other as if one were
a system and the other the gold: F0.5 both ways, and their mean.  An annotator with no line in
a sentence left it as it is, as M2 means (CoNLL-2014's combined gold writes no line for
an annotator who made no edit where no one did, or where the other one did in 88
sentences).  A sentence whose edits cannot be applied (overlapping, outside the sentence)
or that the scorer could not read is counted in `left_out` and not scored.  Beside that:
whether each sentence needs a correction at all (Cohen's kappa), and the edits of each type
the two share (same span, same first correction).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from m2lsp.formats.m2.annotators import annotators
from m2lsp.model import Block, Edit, M2Document, corrected_sentence

GOLD_ID = "gold"  # the annotator id a gold scored against gets (`m2lsp agree --against`)


@dataclass(frozen=True)
class Direction:
    """One annotator scored against another (`scored` as the system, `gold` as the gold)."""

    scored: str
    gold: str
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f: float


@dataclass(frozen=True)
class Kappa:
    """Whether each sentence needs a correction, as two annotators decide it."""

    both: int  # both correct it
    first_only: int
    second_only: int
    neither: int

    @property
    def total(self) -> int:
        return self.both + self.first_only + self.second_only + self.neither

    @property
    def observed(self) -> float:
        return (self.both + self.neither) / self.total if self.total else 1.0

    @property
    def expected(self) -> float:
        if not self.total:
            return 1.0
        first, second = self.both + self.first_only, self.both + self.second_only
        yes = first * second / self.total ** 2
        no = (self.total - first) * (self.total - second) / self.total ** 2
        return yes + no

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa; None where chance alone agrees on every sentence (one answer)."""
        if self.expected >= 1.0:
            return None
        return (self.observed - self.expected) / (1.0 - self.expected)


@dataclass(frozen=True)
class TypeAgreement:
    """The edits of one type: how many each made, and how many of those the other made too."""

    type: str
    first: int
    second: int
    first_shared: int
    second_shared: int

    @property
    def agreement(self) -> float:
        """The share of the type's edits both made (Dice: 2|A∩B| / (|A|+|B|))."""
        made = self.first + self.second
        return (self.first_shared + self.second_shared) / made if made else 1.0


@dataclass(frozen=True)
class PairAgreement:
    first: str
    second: str
    sentences: int  # compared
    left_out: int  # not both annotated, or edits that cannot be applied
    forward: Direction  # first scored against second
    backward: Direction  # second scored against first
    needs_correction: Kappa
    types: tuple[TypeAgreement, ...]

    @property
    def mean_f(self) -> float:
        return (self.forward.f + self.backward.f) / 2


@dataclass(frozen=True)
class Agreement:
    metric: str
    beta: float
    annotators: tuple[str, ...]
    pairs: tuple[PairAgreement, ...]


@dataclass(frozen=True)
class _Pair:
    """The blocks compared, and how many could not be."""

    blocks: tuple[Block, ...]
    left_out: int


def agreement(document: M2Document, metric: str = "m2", beta: float = 0.5,
              pairs: Sequence[tuple[str, str]] | None = None) -> Agreement:
    """The pairs asked for (default: every pair of the file's annotators, in
    `formats.m2.annotators` order): each costs one pass over the file, so the time is
    linear in the pairs asked for."""
    everyone = annotators(document)
    asked = combinations(everyone, 2) if pairs is None else pairs
    found = tuple(pair_agreement(document.blocks, a, b, metric, beta) for a, b in asked)
    return Agreement(metric, beta, tuple(everyone), found)


@dataclass(frozen=True)
class AnnotatorSummary:
    """One annotator among many: the sentences it wrote lines in, those another annotator
    wrote lines in too, its edits there and how many of them another one there made."""

    annotator: str
    sentences: int
    shared: int
    edits: int
    matched: int

    @property
    def agreement(self) -> float | None:
        """The share of its edits (in shared sentences) another annotator made too."""
        return self.matched / self.edits if self.edits else None


@dataclass(frozen=True)
class Summary:
    """Many annotators at a glance, in one pass over the file (`m2lsp agree` prints it
    instead of every pair when there are many): each annotator's row."""

    annotators: tuple[str, ...]
    sentences: int
    pairs: int
    rows: tuple[AnnotatorSummary, ...]

    @property
    def agreement(self) -> float | None:
        edits = sum(r.edits for r in self.rows)
        return sum(r.matched for r in self.rows) / edits if edits else None


def summary(document: M2Document) -> Summary:
    """The `Summary` of the file's annotators: the time grows with the lines, not with the
    pairs."""
    everyone = annotators(document)
    rows = {a: [0, 0, 0, 0] for a in everyone}
    sentences = 0
    for block in document.blocks:
        if block.sentence is None:
            continue
        sentences += 1
        _summarise(block, list(block.by_annotator), rows)
    total = len(everyone) * (len(everyone) - 1) // 2
    return Summary(tuple(everyone), sentences, total,
                   tuple(AnnotatorSummary(a, *rows[a]) for a in everyone if a in rows))


def _summarise(block: Block, present: list[str], rows: dict[str, list[int]]) -> None:
    """One sentence's share of each present annotator's row."""
    made: Counter = Counter()
    own = {a: {_edit_key(e) for e in block.by_annotator[a] if not e.is_noop} for a in present}
    for keys in own.values():
        made.update(keys)
    for annotator, keys in own.items():
        row = rows.setdefault(annotator, [0, 0, 0, 0])
        row[0] += 1
        if len(present) < 2:
            continue
        row[1] += 1
        row[2] += len(keys)
        row[3] += sum(1 for k in keys if made[k] > 1)


def pair_agreement(blocks: Sequence[Block], first: str, second: str, metric: str = "m2",
                   beta: float = 0.5) -> PairAgreement:
    """`first` and `second` compared on the blocks where both their edits apply."""
    pair = _shared(blocks, first, second)
    forward = _direction(pair.blocks, first, second, metric, beta)
    backward = _direction(pair.blocks, second, first, metric, beta)
    return PairAgreement(first, second, len(pair.blocks), pair.left_out, forward, backward,
                         _kappa(pair.blocks, first, second), _types(pair.blocks, first, second))


def _shared(blocks: Iterable[Block], first: str, second: str) -> _Pair:
    kept, left_out = [], 0
    for block in blocks:
        if block.sentence is None and not block.edits:
            continue  # not a sentence (an empty block)
        if _comparable(block, first, second):
            kept.append(block)
        else:
            left_out += 1
    return _Pair(tuple(kept), left_out)


def _comparable(block: Block, first: str, second: str) -> bool:
    if block.sentence is None or block.problems:
        return False
    return all(corrected_sentence(block, a) is not None for a in (first, second))


def _corrects(block: Block, annotator: str) -> bool:
    return any(not e.is_noop for e in block.by_annotator.get(annotator, []))


def _kappa(blocks: Sequence[Block], first: str, second: str) -> Kappa:
    counts = Counter((_corrects(b, first), _corrects(b, second)) for b in blocks)
    return Kappa(counts[True, True], counts[True, False], counts[False, True],
                 counts[False, False])


def _edit_key(edit: Edit) -> tuple[int, int, str]:
    return edit.start, edit.end, edit.canonical[0] if edit.canonical else ""


def _types(blocks: Sequence[Block], first: str, second: str) -> tuple[TypeAgreement, ...]:
    made: dict[str, list[int]] = {}
    for block in blocks:
        mine = [e for e in block.by_annotator.get(first, []) if not e.is_noop]
        theirs = [e for e in block.by_annotator.get(second, []) if not e.is_noop]
        _count(made, mine, {_edit_key(e) for e in theirs}, 0)
        _count(made, theirs, {_edit_key(e) for e in mine}, 1)
    return tuple(TypeAgreement(t, c[0], c[1], c[2], c[3]) for t, c in sorted(made.items()))


def _count(made: dict[str, list[int]], edits: list[Edit], other: set, side: int) -> None:
    for edit in edits:
        row = made.setdefault(edit.type.strip(), [0, 0, 0, 0])
        row[side] += 1
        row[side + 2] += _edit_key(edit) in other


def _direction(blocks: Sequence[Block], scored: str, gold: str, metric: str,
               beta: float) -> Direction:
    """`scored` against `gold` with a registered metric that scores annotators."""
    from m2lsp.scoring.metric import metric as registered

    def m2(annotator: str) -> str:
        return "\n".join(as_single_annotator(b, annotator) for b in blocks)

    corrected = [corrected_sentence(b, scored) or "" for b in blocks]
    found = registered(metric).agreement(m2(scored), m2(gold), corrected, beta)
    return Direction(scored, gold, found.tp, found.fp, found.fn, found.precision,
                     found.recall, found.f)


def as_single_annotator(block: Block, annotator: str) -> str:
    """The block with only `annotator`'s lines, renumbered 0 (a noop if it has none)."""
    assert block.sentence is not None
    lines = [f"S {block.sentence.text}"]
    for edit in block.by_annotator.get(annotator, []):
        fields = edit.text.split("|||")
        lines.append("|||".join([*fields[:-1], "0"]) if len(fields) > 1 else edit.text)
    if len(lines) == 1:
        lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0")
    return "\n".join(lines) + "\n"


def block_summary(block: Block, beta: float = 0.5) -> str | None:
    """The editor's lens over a block two or more annotators wrote lines in (None for
    others): their agreement on this sentence, as `m2lsp agree` computes it (M2)."""
    present = list(block.by_annotator)  # who wrote lines here, in order
    if len(present) < 2 or block.sentence is None or block.problems:
        return None
    pairs = [pair_agreement([block], a, b, "m2", beta) for a, b in combinations(present, 2)]
    pairs = [p for p in pairs if p.sentences]
    if not pairs:
        return "annotators' edits cannot be applied: no agreement"
    if len(pairs) == 1:
        [p] = pairs
        return (f"annotators {p.first} and {p.second} agree: F{beta:g} {p.mean_f:.2f} "
                f"({p.forward.f:.2f} and {p.backward.f:.2f} each way)")
    mean = sum(p.mean_f for p in pairs) / len(pairs)
    least = min(pairs, key=lambda p: p.mean_f)
    return (f"{len(present)} annotators agree: mean F{beta:g} {mean:.2f} over {len(pairs)} "
            f"pairs; least {least.first} and {least.second}: {least.mean_f:.2f}")


def merged(documents: Sequence[tuple[str, M2Document]]) -> str:
    """Several M2 files of the same sentences, one annotator each, as one M2 text whose
    annotator k is the k-th file (whatever id it wrote); a ValueError naming the first
    sentence where the files part."""
    sentences = [[b for b in doc.blocks if b.sentence is not None] for _, doc in documents]
    first_name, first = documents[0][0], sentences[0]
    for (name, _), blocks in zip(documents[1:], sentences[1:], strict=True):
        if len(blocks) != len(first):
            raise ValueError(f"{name} has {len(blocks)} sentences but {first_name} has "
                             f"{len(first)}: the files must annotate the same sentences")
        for number, (ours, theirs) in enumerate(zip(blocks, first, strict=True), 1):
            if ours.lines[0].rstrip() != theirs.lines[0].rstrip():
                raise ValueError(f"sentence {number} differs between {first_name} and {name}: "
                                 "the files must annotate the same sentences, in order")
    out = []
    for row in zip(*sentences, strict=True):
        out.append(row[0].lines[0].rstrip("\r\n"))
        for index, block in enumerate(row):
            out.extend(_as_annotator(edit.text, index) for edit in block.edits)
        out.append("")
    return "\n".join(out) + "\n"


def _as_annotator(line: str, index: int) -> str:
    """An A line with its annotator field replaced by `index`."""
    fields = line.rstrip("\r\n").split("|||")
    return "|||".join([*fields[:-1], str(index)]) if len(fields) >= 6 else line


def with_gold(document: M2Document, gold: M2Document, name: str) -> str:
    """The annotators' sentences with the gold's edits added as annotator `gold`; a
    ValueError where the gold's sentences are not the same."""
    from m2lsp.authoring.annotators import Unpaired, paired
    from m2lsp.authoring.lines import renumbered

    try:
        pairs = paired(document, gold)
    except Unpaired as unpaired:
        if unpaired.number is None:
            raise ValueError(f"{name} has {unpaired.theirs} sentences but the annotators' "
                             f"files {unpaired.ours}: the gold must have the same "
                             "sentences") from None
        raise ValueError(f"sentence {unpaired.number} differs between the annotators' files "
                         f"and {name}: the gold must have the same sentences, in "
                         "order") from None
    out = []
    for block, other in pairs:
        out.append(block.lines[0].rstrip("\r\n"))
        out.extend(e.text.rstrip("\r\n") for e in block.edits)
        out.extend(renumbered(e.text, GOLD_ID) for e in other.edits)
        out.append("")
    return "\n".join(out) + "\n"


def agreement_data(found: Agreement) -> dict[str, Any]:
    """The JSON `--format json` prints: the dataclasses, with the derived numbers."""
    return {"metric": found.metric, "beta": found.beta, "annotators": list(found.annotators),
            "pairs": [_pair_data(p) for p in found.pairs]}


def _pair_data(pair: PairAgreement) -> dict[str, Any]:
    kappa = pair.needs_correction
    return {"first": pair.first, "second": pair.second, "sentences": pair.sentences,
            "left_out": pair.left_out, "forward": asdict(pair.forward),
            "backward": asdict(pair.backward), "mean_f": pair.mean_f,
            "needs_correction": {**asdict(kappa), "observed": kappa.observed,
                                 "expected": kappa.expected, "kappa": kappa.kappa},
            "types": [{**asdict(t), "agreement": t.agreement} for t in pair.types]}


def summary_data(found: Summary) -> dict[str, Any]:
    """The JSON `--pairs summary --format json` prints."""
    return {"summary": True, "annotators": len(found.annotators),
            "sentences": found.sentences, "pairs": found.pairs,
            "agreement": found.agreement,
            "rows": [{**asdict(r), "agreement": r.agreement} for r in found.rows]}
