"""CLEME's reading of an M2 file (THUKElab/CLEME v1, `cleme/data.py`'s M2DataReader): each
sentence's source and one target per annotator, built by applying that annotator's edits
in file order.  Annotator ids must run 0, 1, 2, ... within a sentence; noop edits are
skipped; in ChERRANT's files a `T` line of a target other than the first (`T0-A1 ...`)
drops the edits that follow it, as CLEME drops them.  What CLEME cannot read (its
assertions) is an InputError naming the line."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.errors import InputError

NONE_TYPES = frozenset({"noop", "NA"})  # English, Chinese
NONE_CORRECTION = "-NONE-"


@dataclass(frozen=True)
class Edit:
    """One edit of one target: where it stands in the source and in the target."""

    start: int
    end: int
    target_start: int
    target_end: int
    source_tokens: tuple[str, ...]
    target_tokens: tuple[str, ...]
    type: str


@dataclass(frozen=True)
class Sample:
    """A sentence: its source, and each annotator's target with the edits that made it."""

    source: str
    targets: tuple[str, ...]
    edits: tuple[tuple[Edit, ...], ...]


def read_m2(text: str, name: str) -> list[Sample]:
    """The samples of an M2 text, as CLEME reads them."""
    samples: list[Sample] = []
    targets: list[tuple[list[str], list[Edit]]] = []
    source_tokens: list[str] | None = None
    for tokens, target, edits, index in _targets(text.splitlines(keepends=True), name):
        if source_tokens is None:
            source_tokens = tokens
        if index != len(targets):  # the next sentence
            samples.append(_sample(source_tokens, targets))
            targets, source_tokens = [], tokens
        targets.append((target, edits))
    if targets and source_tokens is not None:
        samples.append(_sample(source_tokens, targets))
    return samples


def _sample(source: list[str], targets: list[tuple[list[str], list[Edit]]]) -> Sample:
    return Sample(" ".join(source), tuple(" ".join(t) for t, _ in targets),
                  tuple(tuple(e) for _, e in targets))


def _targets(lines: list[str], name: str):  # type: ignore[no-untyped-def]
    """(source tokens, target tokens, edits, annotator) of each target in file order."""
    annotator, index = 0, 0
    source: list[str] = []
    pending: list[tuple[int, str]] = []  # (line number, edit line without "A ")
    while index < len(lines):
        line = lines[index].strip()
        if line.startswith("S"):
            source = line.replace("S ", "", 1).split() if line.startswith("S ") else []
            index += 1
        elif line.startswith("T"):
            index += 1
            head = line.split("-", 1)
            if len(head) > 1 and _digit(head[1], index, name) != 0:
                while index < len(lines) and lines[index].startswith("A "):
                    index += 1  # a repeated target of ChERRANT's: its edits are not read
                continue
        elif line.startswith("A"):
            body = line.replace("A ", "", 1)
            found = _annotator(body, index + 1, name)
            if found != annotator:
                if found != annotator + 1:
                    raise InputError(f"{name}:{index + 1}: annotator {found} after annotator "
                                     f"{annotator}: CLEME reads annotators 0, 1, 2, ... in order")
                yield (source, *_built(source, pending, name), annotator)
                annotator += 1
                pending = []
            pending.append((index + 1, body))
            index += 1
        elif not line:
            yield (source, *_built(source, pending, name), annotator)
            while index < len(lines) and not lines[index].strip():
                index += 1
            if index == len(lines):
                return
            annotator, pending = 0, []
        else:
            raise InputError(f"{name}:{index + 1}: neither an S, A nor T line: {line[:40]!r}")
        if line and index == len(lines):
            yield (source, *_built(source, pending, name), annotator)


def _digit(rest: str, line: int, name: str) -> int:
    if len(rest) < 2 or not rest[1].isdigit():
        raise InputError(f"{name}:{line}: a T line CLEME cannot read (T<n>-A<digit> ...)")
    return int(rest[1])


def _annotator(body: str, line: int, name: str) -> int:
    try:
        return int(body.rsplit("|||", 1)[-1])
    except ValueError:
        raise InputError(f"{name}:{line}: the annotator id is not an integer") from None


def _built(source: list[str], pending: list[tuple[int, str]], name: str
           ) -> tuple[list[str], list[Edit]]:
    """The target an annotator's edits make of the source, and the edits placed in it."""
    target, offset, edits = list(source), 0, []
    for line, body in pending:
        head = body.split("|||", 2)
        fields = head[:2] + head[-1].rsplit("|||", 3)
        if len(fields) != 6:
            raise InputError(f"{name}:{line}: an edit line CLEME cannot read")
        try:
            start, end = map(int, fields[0].split())
        except ValueError:
            raise InputError(f"{name}:{line}: an edit span CLEME cannot read") from None
        if fields[1] in NONE_TYPES:
            if not (start == end == -1 and fields[2] == NONE_CORRECTION):
                raise InputError(f"{name}:{line}: a noop edit must be -1 -1 with -NONE-")
            continue
        if not 0 <= start <= end <= len(source):
            raise InputError(f"{name}:{line}: the edit {start} {end} runs backwards or outside "
                             f"the sentence of {len(source)} tokens, which CLEME cannot chunk")
        removed = source[start:end]
        added = fields[2].strip().split() if fields[2] != NONE_CORRECTION else []
        begin = start + offset
        target[begin:end + offset] = added
        offset += len(added) - len(removed)
        if begin != begin + len(added) and target[begin:begin + len(added)] != added:
            raise InputError(f"{name}:{line}: the edits overlap or run backwards, so CLEME "
                             "cannot build the target")
        edits.append(Edit(start, end, begin, begin + len(added), tuple(removed), tuple(added),
                          fields[1]))
    return target, edits
