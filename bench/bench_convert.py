"""Every converter's speed on real data, apart from parsing: megabytes of input a second.

Each conversion is timed in this process on data read once (files in ../shared, copies
made larger by repeating them to at least 4 MB), and so is its baseline, measured in the
same run: reading the input (M2 and CGED parsed into their documents, JSON decoded, the
UA-GEC texts parsed).  BEA-2019 JSON to M2 parses paragraphs and sentences with spaCy:
those parses are made before the clock starts (that is "parsing": `annotate`'s benchmarks
time it), and the rest -- whitespace, characters to tokens, sentences, ERRANT's import and
classification of each edit -- is timed.  Goal: >= 1 MB/s for each conversion.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
REFS = Path(os.environ.get("M2LSP_SHARED_REFS", ROOT.parent / "shared" / "refs"))
GOAL = 1.0  # MB/s
SIZE = 4 << 20


def enlarged(text: str, separator: str = "") -> str:
    """The text repeated to at least SIZE bytes."""
    times = max(1, -(-SIZE // max(1, len(text.encode("utf-8")))))
    return separator.join([text] * times)


def best(run: Callable[[], Any], times: int = 3) -> float:
    found = []
    for _ in range(times):
        began = time.perf_counter()
        run()
        found.append(time.perf_counter() - began)
    return min(found)


def report(name: str, size: int, read: float, convert: float) -> bool:
    rate = size / convert / 1e6
    met = rate >= GOAL
    print(f"{name:34} {size / 1e6:6.1f} MB  read {read:6.2f} s  convert {convert:6.2f} s  "
          f"{rate:6.1f} MB/s  ({convert / read:4.1f}x reading)  "
          f"{'met' if met else 'MISSED'}")
    return met


def m2_targets() -> list[bool]:
    from m2lsp.formats.bea_json.conversion import from_m2 as bea_from_m2
    from m2lsp.formats.brat.conversion import from_brat, to_brat
    from m2lsp.formats.cged import conversion, writer
    from m2lsp.formats.cged.parser import parse_cged
    from m2lsp.formats.parallel.conversion import to_parallel
    from m2lsp.parsing.m2 import parse_m2

    results = []
    sgml = enlarged((SHARED / "cged/cged2015/nlptea15cged_release1.0/Training/"
                     "NLPTEA15_CGED_Training.sgml").read_text("utf-8"), "\n")
    read = best(lambda: parse_cged(sgml), 1)
    cged = parse_cged(sgml)
    size = len(sgml.encode())
    results.append(report("CGED SGML -> M2", size, read, best(
        lambda: conversion.to_m2(conversion.from_cged(cged, []), False, []), 1)))
    char_m2 = conversion.to_m2(conversion.from_cged(cged, []), False, [])
    document = parse_m2(char_m2)
    read = best(lambda: parse_m2(char_m2), 1)
    size = len(char_m2.encode())
    for name, run in (("char M2 -> CGED SGML", lambda: writer.to_cged(
                          conversion.from_m2(document, None, []))),
                      ("char M2 -> truth", lambda: writer.to_truth(
                          conversion.from_m2(document, None, []), []))):
        results.append(report(name, size, read, best(run, 1)))
    english = enlarged((SHARED / "conll2014/gold/official-2014.combined.m2").read_text(
        "utf-8").rstrip("\n") + "\n", "\n")
    document = parse_m2(english)
    read = best(lambda: parse_m2(english), 1)
    size = len(english.encode())
    results.append(report("M2 -> parallel", size, read, best(
        lambda: to_parallel(document, True, [], False), 1)))
    results.append(report("M2 -> brat", size, read, best(lambda: to_brat(document, []), 1)))
    results.append(report("M2 -> BEA-2019 JSON", size, read, best(
        lambda: bea_from_m2(document, []), 1)))
    text, ann = to_brat(document, [])
    results.append(report("brat -> M2", len((text + ann).encode()), best(
        lambda: ann.splitlines(), 1), best(lambda: from_brat(text, ann, "x.ann", []), 1)))
    return results


def ua_gec() -> list[bool]:
    from m2lsp.formats.uagec.conversion import documents, m2_blocks

    folder = REFS / "grammarly+ua-gec/data/gec-only/test/annotated"
    if not folder.is_dir():
        print(f"UA-GEC .ann -> M2: skipped ({folder} is not there)")
        return []
    size = sum(p.stat().st_size for p in folder.glob("*.ann"))
    read = best(lambda: documents(folder), 1)
    found = documents(folder)
    return [report("UA-GEC .ann -> M2", size, read, best(
        lambda: "".join(m2_blocks(d.doc_id, d.annotators) for d in found), 1))]


def bea_json() -> list[bool]:
    """JSON essays made from the BEA-2019 dev gold (`--to bea-json`), back to M2."""
    from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings
    from m2lsp.formats.bea_json import conversion as bea_json
    from m2lsp.formats.bea_json.parser import parse_bea_json
    from m2lsp.parsing.m2 import parse_m2

    gold = parse_m2((SHARED / "bea2019-dev/ABCN.dev.gold.bea19.m2").read_text("utf-8"))
    text = bea_json.from_m2(gold, [])
    document = parse_bea_json(text)
    annotator = EnglishAnnotator(EnglishSettings(model=os.environ.get("M2LSP_SPACY_MODEL")))
    parse = bea_json._paragraph_parser(document, annotator.nlp)  # parsing: not timed
    tokenise = bea_json._tokeniser(annotator.nlp)
    steps = [bea_json.essay_sentences(e, parse, tokenise, []) for e in document.essays]
    texts = [" ".join(t) for by_id in steps for ss in by_id.values() for s in ss
             for t in (s.orig, s.cor)]
    parses = dict(zip(texts, annotator.parse(texts), strict=True))  # parsing: not timed

    def convert() -> str:
        essays = [bea_json.essay_sentences(e, parse, tokenise, [])
                  for e in document.essays]
        importer = bea_json._Importer(annotator.errant, parses)
        return "".join(f"{line}\n" for by_id in essays
                       for line in bea_json.m2_lines(by_id, importer))

    size = len(text.encode())
    read = best(lambda: [json.loads(line) for line in text.splitlines()], 1)
    return [report("BEA-2019 JSON -> M2 (no parsing)", size, read, best(convert, 2))]


def main() -> None:
    results = m2_targets() + ua_gec() + bea_json()
    print(f"{sum(results)} of {len(results)} conversions at >= {GOAL:g} MB/s")


if __name__ == "__main__":
    main()
