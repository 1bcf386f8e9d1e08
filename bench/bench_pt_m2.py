"""PT-M2 (sentm2, BERTScore weights) on CoNLL-2014 CAMB's first --sentences sentences,
against the authors' scorer (pygongnlp/PT-M2, a copy of the repository named by
$M2LSP_PT_M2_GIT or found under ../.mirror), both as whole processes in this run, with the
same seeded BERT the tests make (tiny: the authors' scorer calls BERTScore twice per edit,
one pair at a time) and an empty m2lsp cache.

Numbers must agree within float32 noise (sentence F within 5e-5: see
tests/learned/test_pt_m2_against_authors.py).  No goal was set; the ratio is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import timed  # bench/, the script's own folder

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
MIRROR = Path(os.environ.get("M2LSP_MIRRORS", ROOT.parent / ".mirror"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sentences", type=int, default=400)
    args = parser.parse_args()
    git = Path(os.environ.get("M2LSP_PT_M2_GIT", MIRROR / "pygongnlp+PT-M2" / "repo"))
    gold = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    if not git.exists() or not gold.is_file():
        print(f"skipped: needs a copy of pygongnlp/PT-M2 ({git}) and CoNLL-2014 ({DATA})")
        return
    sys.path.insert(0, str(ROOT))
    from tests.learned import models
    from tests.learned.test_pt_m2_against_authors import DRIVER

    with tempfile.TemporaryDirectory(prefix="m2lsp-bench-pt-m2-") as work:
        folder = Path(work)
        authors = folder / "authors"
        authors.mkdir()
        archive = subprocess.run(["git", "--git-dir", str(git), "archive", "HEAD"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(authors)], input=archive, check=True)
        blocks = gold.read_text(encoding="utf-8").split("\n\n")[:args.sentences]
        (folder / "gold.m2").write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
        system = (DATA / "conll2014" / "systems" / "CAMB").read_text().splitlines()
        (folder / "CAMB").write_text("\n".join(system[:args.sentences]) + "\n")
        texts = [b.split("\n")[0][2:] for b in blocks] + system[:args.sentences]
        model = models.bert(folder / "bs", texts, seed=7, lower=True)
        baseline = folder / "bs.tsv"
        baseline.write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.31,0.32,0.33\n2,0.4,0.5,0.45\n")
        env = {**os.environ, "TQDM_DISABLE": "1", "PYTHONPATH": str(ROOT),
               "M2LSP_CACHE_DIR": str(folder / "cache")}
        base, out = timed([sys.executable, "-c", DRIVER, str(authors), "bertscore", str(model),
                           "2", str(baseline), str(folder / "gold.m2"),
                           json.dumps([["sentm2", str(folder / "CAMB")]])], env)
        mine, printed = timed([sys.executable, "-m", "m2lsp", "score", "--metric", "pt-m2",
                               str(folder / "CAMB"), str(folder / "gold.m2"),
                               "--bertscore-model-type", str(model),
                               "--bertscore-num-layers", "2", "--bertscore-baseline-path",
                               str(baseline), "--format", "json"], env)
    theirs, found = json.loads(out)[0], json.loads(printed)
    worst = max(abs(a - b) for a, b in zip(theirs["sentences"], found["sentence_scores"],
                                           strict=True))
    agreed = "agree" if worst < 5e-5 else "DIFFER"
    print(f"PT-M2 sentm2, CoNLL-2014 CAMB, {args.sentences} sentences: authors' scorer "
          f"{base:6.1f} s   m2lsp {mine:5.1f} s   {base / mine:5.1f}x faster; sentence F "
          f"{agreed} (largest difference {worst:.1e}), PT-M2 {theirs['score']:.6f} / "
          f"{found['pt-m2']:.6f}")


if __name__ == "__main__":
    main()
