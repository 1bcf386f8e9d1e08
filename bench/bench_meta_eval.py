"""`m2lsp meta-eval` on SEEDA (../shared/data/meta-eval): the whole job -- scoring the 12
base systems with m2, errant and gleu, then system level (4 human scores) and sentence
level (2 judgment files) -- as one command (goal: <= 60 s on this project's 2-core
machines); and the correlation step alone on given score files, against SEEDA's own
scripts doing the same (corr_system.py for each human score, corr_sentence.py for each
judgment file, on the same M2 scores), both measured in this run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
META = DATA / "meta-eval"
GOLD = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
GOAL = 60.0


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    if not (META / "seeda").is_dir():
        sys.exit(f"the meta-evaluation data is not at {META}")
    sys.path.insert(0, str(ROOT))
    m2lsp = [sys.executable, "-m", "m2lsp", "meta-eval", "--data", str(META)]
    whole = timed([*m2lsp, "--metric", "m2", "--metric", "errant", "--metric", "gleu",
                   "--gold", str(GOLD)])
    print(f"SEEDA, m2 + errant + gleu, scoring included: {whole:.1f} s (goal <= {GOAL:.0f} s: "
          f"{'met' if whole <= GOAL else 'MISSED'})")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        column, table, sentences = _m2_files(folder)
        ours = timed([*m2lsp, "--scores", f"m2={table}", "--sentence-scores",
                      f"m2={sentences}"])
        utils = META / "seeda" / "utils"
        start = time.perf_counter()
        for human in ("EW_edit", "EW_sent", "TS_edit", "TS_sent"):
            subprocess.run([sys.executable, str(utils / "corr_system.py"), "--human_score",
                            str(META / "seeda" / "scores" / "human" / f"{human}.txt"),
                            "--metric_score", str(column)], check=True, capture_output=True)
        for kind in ("edit", "sent"):
            subprocess.run([sys.executable, str(utils / "corr_sentence.py"), "--human_score",
                            str(META / "seeda" / "data" / f"judgments_{kind}.xml"),
                            "--metric_score", str(sentences)], check=True, capture_output=True)
        theirs = time.perf_counter() - start
    print(f"correlations alone, one metric's given scores: m2lsp {ours:.2f} s, SEEDA's "
          f"scripts {theirs:.2f} s ({theirs / ours:.1f}x)")


def _m2_files(folder: Path) -> tuple[Path, Path, Path]:
    from m2lsp.metaeval.datasets import SEEDA_SYSTEMS, load
    from m2lsp.metaeval.scores import gold_for, metric_scores

    dataset = load("seeda", META, "all")
    m2 = metric_scores(dataset, "m2", gold_for(dataset, GOLD, folder))
    column, table, sentences = folder / "m2.txt", folder / "m2.tsv", folder / "sentences"
    column.write_text("".join(f"{m2.system[s]!r}\n" for s in SEEDA_SYSTEMS))
    table.write_text("".join(f"{s}\t{m2.system[s]!r}\n" for s in SEEDA_SYSTEMS))
    sentences.mkdir()
    for system, values in (m2.sentences or {}).items():
        (sentences / f"{system}.txt").write_text("".join(f"{v!r}\n" for v in values))
    return column, table, sentences


if __name__ == "__main__":
    main()
