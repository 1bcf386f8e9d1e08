"""BERTScore (Zhang et al. 2020) of each hypothesis against its references, as gec-metrics
0.1.1 asks the `bert-score` package for it: the best P, R and F over the references, each
rescaled with the package's baseline for the model and language, then the one chosen
(`f` by default).  The package itself computes it (it sorts and deduplicates sentences);
m2lsp keeps each (hypothesis, references) score in the cache."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.learned.batching import distinct

COLUMNS = {"p": 0, "r": 1, "f": 2}


@dataclass(frozen=True)
class BertScore:
    scorer: Any  # bert_score.BERTScorer
    name: str
    revision: str
    num_layers: int
    lang: str
    rescale: bool
    idf: bool
    score_type: str = "f"
    baseline: str = ""  # the rescaling baseline file's content hash (12 hex digits)

    @property
    def signed(self) -> str:
        return f"{self.name}@{self.revision}"

    @property
    def rescaled(self) -> str:
        """The signature's `rescaled` field: `no`, or `yes@` the baseline file's hash."""
        return f"yes@{self.baseline}" if self.rescale else "no"


def load(options: dict[str, Any], option: str) -> BertScore:
    """The scorer gec-metrics' BertScore builds from these options (its Config's fields)."""
    from m2lsp.errors import UsageError
    from m2lsp.learned.identity import revision
    from m2lsp.learned.loading import (
        ModelError,
        available,
        guarded_bert_score,
        torch_modules,
        unavailable,
    )

    name = model_name(options["model_type"], option)
    baseline = baseline_file(options.get("baseline_path"))
    torch_modules()
    config = available(name, option)
    try:
        from bert_score import BERTScorer
        from bert_score.utils import model2layers
    except ImportError as missing:  # bert-score's own import errors name no module
        cause = f"{missing.name} is not installed" if missing.name else str(missing)
        raise UsageError(f"--metric bertscore needs the bert-score package ({cause}): pip "
                         "install 'm2lsp[neural]'") from None
    layers = options.get("num_layers") or model2layers.get(name)
    if layers is None:
        raise UsageError(f"bert-score does not know how many layers of {name!r} to use: "
                         "give --bertscore-num-layers N")
    try:
        with guarded_bert_score(option):
            scorer = BERTScorer(
                model_type=name, num_layers=int(layers), batch_size=int(options["batch_size"]),
                nthreads=int(options["nthreads"]), all_layers=False, idf=bool(options["idf"]),
                idf_sents=None, lang=str(options["lang"]),
                rescale_with_baseline=bool(options["rescale_with_baseline"]),
                baseline_path=baseline, use_fast_tokenizer=bool(options["use_fast_tokenizer"]),
                device="cpu" if options.get("no_cuda") else None)
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(unavailable(name, option, exc)) from None
    scorer._model.eval()
    rescale = bool(options["rescale_with_baseline"])
    return BertScore(scorer, name, revision(config, name), int(layers), str(options["lang"]),
                     rescale, bool(options["idf"]), str(options["score_type"]),
                     baseline_read(scorer, int(layers)) if rescale else "")


def model_name(given: Any, option: str) -> str:
    """The model option's value, which must be a hub id or a folder (a string)."""
    from m2lsp.errors import UsageError

    if not isinstance(given, str) or not given.strip():
        raise UsageError(f"{option} takes a hub id or a local folder, not {given!r}")
    return given


def baseline_file(given: Any) -> str | None:
    """A baseline of the user's own: a readable file, else an InputError naming it."""
    from m2lsp.errors import InputError, UsageError

    if given in (None, ""):
        return None
    if not isinstance(given, str | Path):
        raise UsageError(f"--bertscore-baseline-path takes a file, not {given!r}")
    if not Path(given).is_file():
        raise InputError(f"{given}: no such baseline file (--bertscore-baseline-path)")
    return str(given)


def baseline_read(scorer: Any, layer: int) -> str:
    """The rescaling baseline's content hash, once bert-score has read the file and its
    row for `layer` holds three finite numbers below 1 (the scores are divided by 1 - b):
    anything else is a ModelError naming the file."""
    import warnings

    from m2lsp.learned.identity import file_digest
    from m2lsp.learned.loading import ModelError

    path = Path(scorer.baseline_path)
    try:
        path.read_bytes().decode("utf-8")
        with warnings.catch_warnings():  # bert-score hands torch a read-only array: a
            # warning about torch's internals, once a process, not about the user's input
            warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
            values = [float(v) for v in scorer.baseline_vals.view(-1).tolist()]
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"{path}: the BERTScore baseline cannot be read ({exc}); give "
                         "--bertscore-baseline-path FILE, or --bertscore-no-rescale-with-"
                         "baseline") from None
    except Exception as exc:
        raise ModelError(f"{path}: no BERTScore baseline for layer {layer} in it ("
                         f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc!r}"
                         "): a CSV with a header and a row LAYER,P,R,F for each layer") from None
    if len(values) != 3 or not all(math.isfinite(v) and v < 1 for v in values):
        raise ModelError(f"{path}: the baseline row of layer {layer} is {values}: P, R and F "
                         "must be finite numbers below 1 (scores are rescaled by 1 - b)")
    return file_digest(path)[:12]


def sentence_scores(bert: BertScore, hypotheses: Sequence[str],
                    references: Sequence[Sequence[str]]) -> list[float]:
    """Each hypothesis's score against its references (from the cache where known)."""
    from m2lsp.learned.loading import finite
    from m2lsp.learned.remembered import namespace, remembered

    rows = [(h, tuple(refs)) for h, refs in zip(hypotheses, references, strict=True)]
    unique, where = distinct(rows)
    space = namespace("bertscore", bert.signed, bert.num_layers, bert.lang, bert.rescale,
                      bert.idf, bert.score_type, bert.scorer.device, bert.baseline)

    def compute(missing: list[int]) -> list[float]:
        return fresh(bert, [unique[i][0] for i in missing], [unique[i][1] for i in missing])

    scores = remembered(space, ["\0".join([h, *refs]) for h, refs in unique], compute)
    finite("BERTScore", scores, numbered=False)
    return [scores[i] for i in where]


def fresh(bert: BertScore, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
          ) -> list[float]:
    """Scored now; what bert-score prints (empty sentences scored 0) becomes a note of
    m2lsp's logger, and its warning about a read-only baseline array is dropped."""
    import contextlib
    import io
    import warnings

    from m2lsp.logs import logger

    if not hypotheses:
        return []
    said = io.StringIO()
    with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said), \
            warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
        found = bert.scorer.score(cands=list(hypotheses), refs=[list(r) for r in references])
    for line in dict.fromkeys(said.getvalue().splitlines()):
        if line.strip():
            logger(__name__).warning("bert-score: %s", line.strip().removeprefix("Warning: "))
    return found[COLUMNS[bert.score_type]].view(-1).tolist()
