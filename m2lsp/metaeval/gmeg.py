"""GMEG-Data (Napoles, Nădejde and Tetreault, TACL 2019; grammarly/GMEG) as a
meta-evaluation dataset: six GEC systems' corrections of sentences from three domains --
FCE (learner essays), Wiki (Wikipedia edits) and Yahoo (Yahoo Answers; its text comes on
request) -- each rated by 8 people, with 4 references a sentence.  Its release, as
`--data` (the repository, or its `data/`):

    data/{test,dev}/DOMAIN/{source,amu,lstm,lstm-r,marian,nus,transformer,ref0..ref3}
    data/{test,dev}/DOMAIN-corpus-scores.csv    system,score   (each system's mean rating)
    data/{test,dev}/DOMAIN-segment-scores.csv   a column a system: each sentence's mean

The system level correlates a metric with the mean ratings, over the six systems
(`--systems base`) or with the source as a seventh (`+source`); the paper leaves out the
reference and the negative control (source+error), as here.  The sentence level (which the
paper does not report for metrics) takes each sentence's mean ratings as a ranking of the
systems: every pair rated differently is a human preference, counted as SEEDA's are.
Registry metrics score against an M2 gold that ERRANT makes of the source and the four
references (as `m2lsp annotate` makes it; made once and kept in the cache).

Not done: the paper's Table 8 adds 674 synthetic systems a domain (hybrid super-sampling of
pairs of systems, randomly; its code is not in the release), so its numbers cannot be
reproduced to their digits from the release."""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input, Text

DOMAINS = ("fce", "wiki", "yahoo")
SPLITS = ("test", "dev")
SYSTEMS = ("amu", "lstm", "lstm-r", "marian", "nus", "transformer")
SUBSETS = {"base": SYSTEMS, "+source": (*SYSTEMS, "source")}
REFERENCES = ("ref0", "ref1", "ref2", "ref3")


@dataclass(frozen=True)
class Rating:
    """One sentence's mean ratings, as a judgment the sentence level reads."""

    sentence: int
    ratings: tuple[tuple[str, float], ...]
    doc: str = ""

    def scores(self, systems: Sequence[str]) -> list[float | None]:
        found = dict(self.ratings)
        return [found.get(s) for s in systems]


def split_folder(folder: Path, split: str) -> Path:
    """The release's `data/SPLIT` under `folder` (the repository, its data/, or a folder
    holding gmeg/)."""
    if split not in SPLITS:
        raise UsageError(f"GMEG's splits are {', '.join(SPLITS)}, not {split!r}")
    for base in (folder / "data", folder, folder / "gmeg" / "data", folder / "GMEG" / "data"):
        if (base / split).is_dir():
            return base / split
    raise InputError(f"{folder}: no GMEG-Data release here (data/{split}/ with DOMAIN/ and "
                     "DOMAIN-corpus-scores.csv; grammarly/GMEG)")


def parts(folder: Path, subset: str, domain: str, split: str) -> dict[str, Any]:
    """The fields of the GMEG `Dataset` (metaeval.datasets) of a domain and split."""
    if subset not in SUBSETS:
        raise UsageError(f"GMEG's system sets are {', '.join(SUBSETS)}, not {subset!r}")
    if domain not in DOMAINS:
        raise UsageError(f"GMEG's domains are {', '.join(DOMAINS)}, not {domain!r}")
    root = split_folder(folder, split)
    systems = SUBSETS[subset]
    texts = root / domain
    missing = [n for n in ("source", *systems, *REFERENCES) if not (texts / n).is_file()]
    if missing:
        why = (" (the Yahoo domain's text is given on request: see GMEG's README)"
               if domain == "yahoo" else "")
        raise InputError(f"{texts}: no {', '.join(missing)}{why}")
    human = _corpus_scores(root / f"{domain}-corpus-scores.csv", systems)
    ratings = _segment_scores(root / f"{domain}-segment-scores.csv", systems)
    name = f"GMEG-Data mean rating ({domain}, {split})"
    return {"name": "gmeg", "folder": texts, "subset": subset, "systems": systems,
            "human": {"rating": human}, "human_names": {"rating": name}, "judgments": {},
            "ids_are_lines": True, "outputs": {s: texts / s for s in (*systems, "source")},
            "judged": {"rating": ratings}, "variant": f"{domain}|{split}"}


def _corpus_scores(path: Path, systems: Sequence[str]) -> tuple[float, ...]:
    rows = _rows(path)
    found = {}
    for row in rows:
        try:
            found[row["system"]] = float(row["score"])
        except (KeyError, ValueError):
            raise InputError(f"{path}: expected system,score rows, not {row}") from None
    lacking = [s for s in systems if s not in found]
    if lacking:
        raise InputError(f"{path}: no score for {', '.join(lacking)}")
    return tuple(found[s] for s in systems)


def _segment_scores(path: Path, systems: Sequence[str]) -> tuple[Rating, ...]:
    """Each sentence's ratings (a blank cell: that sentence was not rated for that
    system)."""
    found = []
    for line, row in enumerate(_rows(path)):
        ratings = []
        for system in systems:
            cell = (row.get(system) or "").strip()
            if not cell:
                continue
            try:
                ratings.append((system, float(cell)))
            except ValueError:
                raise InputError(f"{path}:{line + 2}: {system}'s rating {cell!r} is not a "
                                 "number") from None
        found.append(Rating(line, tuple(ratings)))
    return tuple(found)


def _rows(path: Path) -> list[dict[str, str]]:
    from m2lsp.parsing.source import read_source

    text = read_source(path, "GMEG scores").text
    return list(csv.DictReader(text.splitlines()))


def gold(dataset: Any, config: Any, jobs: int = 1) -> Input:
    """The M2 gold of the source and the four references (ERRANT), made once and kept in
    m2lsp's cache under the texts' hash; where there is no cache, made for this run, in
    memory."""
    from m2lsp.annotation.parallel import annotate, read_parallel, settings_for
    from m2lsp.files.writing import write_atomic
    from m2lsp.metaeval.revisit import cache_folder

    texts: Path = dataset.folder
    paths = [texts / "source", *(texts / r for r in REFERENCES)]
    digest = hashlib.sha256(b"".join(p.read_bytes() + b"\0" for p in paths)).hexdigest()[:16]
    cache = cache_folder()
    path = None if cache is None else cache / "gmeg" / f"{digest}.m2"
    if path is not None and path.is_file():
        return path
    settings = settings_for("en", config)
    made = "".join(annotate(read_parallel(paths[0], paths[1:]), settings, jobs))
    if path is None:
        return Text.of("GMEG's gold (annotated from its references)", made)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, made)
    return path


def synthetic(dataset: Any, scores: Sequence[Any], count: int, seed: int
              ) -> tuple[Any, list[Any]]:
    """The dataset and the metrics' scores with `count` synthetic systems more, made as
    the paper made its own (Graham and Liu 2016's hybrid super-sampling): each takes a
    share of the sentences (10% to 90%, in turn) from one of a pair of the six systems
    (the pairs in turn) and the rest from the other, the share drawn at random (seeded).
    Its human score is the mean rating of the sentences it took; its metric score sums
    the sentences' statistics (metrics with per-sentence statistics only)."""
    import itertools
    import random
    from dataclasses import replace

    lacking = [s.name for s in scores if s.mix is None]
    if lacking:
        raise UsageError(f"--synthetic: {', '.join(lacking)} has no per-sentence statistics "
                         "to make a synthetic system's score from (m2, errant, green and "
                         "the learned metrics have)")
    ratings = [dict(r.ratings) for r in dataset.judged["rating"]]
    pairs = list(itertools.combinations(SYSTEMS, 2))
    rng = random.Random(seed)
    chosen = []
    for k in range(count):
        a, b = pairs[k % len(pairs)]
        tenths = (k // len(pairs)) % 9 + 1
        picked = set(rng.sample(range(len(ratings)), round(tenths * len(ratings) / 10)))
        chosen.append([a if i in picked else b for i in range(len(ratings))])
    names = tuple(f"synthetic-{k + 1}" for k in range(count))
    human = tuple(_mean([ratings[i].get(s) for i, s in enumerate(c)]) for c in chosen)
    grown = replace(dataset, systems=(*dataset.systems, *names),
                    human={"rating": (*dataset.human["rating"], *human)},
                    variant=f"{dataset.variant}|synthetic:{count}|seed:{seed}")
    return grown, [_with_synthetic(s, names, chosen) for s in scores]


def _mean(values: Sequence[float | None]) -> float:
    rated = [v for v in values if v is not None]
    return sum(rated) / len(rated) if rated else 0.0


def _with_synthetic(scores: Any, names: Sequence[str], chosen: Sequence[Sequence[str]]
                    ) -> Any:
    from dataclasses import replace

    system = {**scores.system, **{n: scores.mix(c) for n, c in zip(names, chosen,
                                                                    strict=True)}}
    sentences = scores.sentences
    if sentences is not None:
        sentences = {**sentences, **{n: [sentences[s][i] for i, s in enumerate(c)]
                                     for n, c in zip(names, chosen, strict=True)}}
    return replace(scores, system=system, sentences=sentences, resample=None)
