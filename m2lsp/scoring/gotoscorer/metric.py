"""`--metric gotoscorer`: chunk counts per sentence (gotoscorer.chunks) over ERRANT's edits of
each hypothesis and of the chosen reference; the corpus score is F-beta of their sums."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input, Text, file_option
from m2lsp.scoring.counted_score import CountedScore
from m2lsp.scoring.gotoscorer import DECLARATION
from m2lsp.scoring.metric import MetricBase, Request, Shared, given
from m2lsp.scoring.signature import Signature


@dataclass(frozen=True)
class GotoOptions:
    beta: float
    ref_id: int
    weight_file: str | None
    annotation: Any  # annotation.english.EnglishSettings
    jobs: int
    references: tuple[str | Text, ...]  # paths, or the API's texts in memory
    source: str | Text | None


class GoToScorer(MetricBase):
    declaration = DECLARATION

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> GotoOptions:
        from m2lsp.annotation.parallel import settings_for

        weights = values.get("gotoscorer_weight_file")
        return GotoOptions(shared.beta, int(given(values, "gotoscorer_ref_id", 0)),
                           None if weights is None else str(weights),
                           settings_for("en", config, spacy_model=values.get("spacy_model")),
                           shared.jobs or 1,
                           tuple(file_option(r) for r in values.get("gleu_references") or ()),
                           None if shared.source is None else file_option(shared.source))

    def run(self, request: Request) -> Any:
        return self.run_many(request, [request.system])[0]

    def run_many(self, request: Request, systems: Sequence[Input]) -> list[Any]:
        from m2lsp.scoring.sentence_inputs import with_references

        options: GotoOptions = request.options
        found = [with_references(replace(request, system=s), options.references,
                                 options.source, "GoToScorer") for s in systems]
        sources = [s.strip() for s in found[0].sources]  # as gecmetrics-eval reads lines
        references = [_reference(refs, options.ref_id).strip()
                      for refs in found[0].references]
        weights, weighted = _weights(options.weight_file, len(sources))
        reference_chunks = chunked(sources, references, options)
        out = []
        base = Signature("GoToScorer", (("beta", f"{options.beta:g}"),
                                        ("ref", str(options.ref_id)),
                                        ("weights", weighted or "none"),
                                        ("scorer", "gec-metrics-0.1.1")))
        for f in found:
            hypothesis_chunks = chunked(sources, [h.strip() for h in f.hypotheses], options)
            overall = [s.overall(options.beta) for s in _sentences(
                reference_chunks, hypothesis_chunks, weights, options.beta)]
            out.append(CountedScore("gotoscorer", base, tuple(overall),
                                    tuple(c.f for c in overall), options.beta, f.texts))
        return out


    def weight_file(self, source: Path, reference: Path, systems: Sequence[Path],
                    config: Any, spacy_model: str | None = None, jobs: int = 1) -> str:
        """The JSON gecmetrics-gen-gotoscorer-weight writes for these files (its bytes:
        indent 2, ASCII escapes): per sentence, each reference chunk's evaluations by the
        systems and its weight."""
        from m2lsp.annotation.parallel import settings_for
        from m2lsp.scoring.gotoscorer.chunks import weights

        sources = _stripped_lines(source)
        references = _stripped_lines(reference)
        hypotheses = [_stripped_lines(h) for h in systems]
        for path, lines in [(reference, references), *zip(systems, hypotheses, strict=True)]:
            if len(lines) != len(sources):
                raise InputError(f"{path} has {len(lines)} lines but {source} has "
                                 f"{len(sources)}")
        options = GotoOptions(0.5, 0, None, settings_for("en", config, spacy_model=spacy_model),
                              jobs, (), None)
        ref_chunks = chunked(sources, references, options)
        system_chunks = [chunked(sources, h, options) for h in hypotheses]
        data = []
        for i, chunks_ in enumerate(ref_chunks):
            evaluations, found = weights(chunks_, [s[i] for s in system_chunks])
            data.append({"evaluations": evaluations, "weights": found})
        return json.dumps(data, indent=2)


def _stripped_lines(path: Path) -> list[str]:
    """A file's lines as `score` reads them (and gecmetrics-eval): the text without its
    trailing whitespace, split on newlines, each line stripped.  gecmetrics-gen-gotoscorer-
    weight keeps each line's own trailing spaces, so on a file whose lines end in spaces
    (CoNLL-2014's INPUT) it counts chunks its own evaluation never sees, and its weights
    fit no sentence there; on any other file the two agree byte for byte."""
    from m2lsp.parsing.source import read_source

    return [line.strip() for line in read_source(Path(path), "input").text.rstrip().split(
        "\n")]


def chunked(sources: Sequence[str], targets: Sequence[str], options: GotoOptions
            ) -> list[list[Any]]:
    """Each sentence's chunks of the target's ERRANT edits."""
    from m2lsp.annotation.edit_lists import edit_lists
    from m2lsp.scoring.gotoscorer.chunks import chunks

    edits = edit_lists(sources, targets, options.annotation, options.jobs)
    return [chunks(e, s.split(" ")) for e, s in zip(edits, sources, strict=True)]


def _sentences(references: list[list[Any]], hypotheses: list[list[Any]],
               weights: list[list[float]] | None, beta: float) -> list[Any]:
    from m2lsp.scoring.gotoscorer.chunks import sentence

    out = []
    for i, (ref, hyp) in enumerate(zip(references, hypotheses, strict=True)):
        if weights is not None and len(weights[i]) != len(ref):
            raise InputError(f"the weight file gives sentence {i + 1} {len(weights[i])} "
                             f"weights for {len(ref)} chunks: was it made from this "
                             "reference (--gotoscorer-ref-id) and these sources?")
        out.append(sentence(ref, hyp, None if weights is None else weights[i], beta))
    return out


def _reference(refs: Sequence[str], ref_id: int) -> str:
    if ref_id >= len(refs):
        raise UsageError(f"--gotoscorer-ref-id {ref_id}: a sentence has {len(refs)} "
                         f"reference{'s' if len(refs) != 1 else ''}")
    return refs[ref_id]


def _weights(path: str | None, count: int) -> tuple[list[list[float]] | None, str | None]:
    """The weight file's weights per sentence and a hash of it (None: every weight 1)."""
    if path is None:
        return None, None
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.signature import reference_hash

    text = read_source(Path(path), "weight file").text
    try:
        data = json.loads(text)
        weights = [[float(w) for w in entry["weights"]] for entry in data]
    except (ValueError, TypeError, KeyError) as bad:
        raise InputError(f"{path} is not a GoToScorer weight file (a JSON list of "
                         f"{{\"weights\": [...]}} per sentence): {bad}") from None
    if len(weights) != count:
        raise InputError(f"{path} has weights for {len(weights)} sentences, the sources "
                         f"{count}")
    for i, row in enumerate(weights):
        for j, weight in enumerate(row):
            if not math.isfinite(weight):
                raise InputError(f"{path}:{_line_of(text, i, j)}: sentence {i + 1}'s weight "
                                 f"{j + 1} is {weight}: a weight must be a finite number (it "
                                 "would make every score NaN or infinite)")
    return weights, reference_hash(text)


def _line_of(text: str, sentence: int, index: int) -> int:
    """The line of a weight file holding weight `index` of sentence `sentence` (counted
    from 0): the `index`-th item of the `sentence`-th "weights" list, the lists found in
    file order (a weight is a scalar, so a list's items end at commas and its `]`); the
    line of the file's start where the file is not laid out so."""
    import re

    lists = list(re.finditer(r'"weights"\s*:\s*\[', text))
    if sentence >= len(lists):
        return 1
    start = lists[sentence].end()
    end = text.find("]", start)
    items = text[start:end if end >= 0 else len(text)].split(",")
    if index >= len(items):
        return 1
    offset = start + sum(len(item) + 1 for item in items[:index])
    item = items[index]
    offset += len(item) - len(item.lstrip())
    return text.count("\n", 0, offset) + 1


METRIC = GoToScorer()
