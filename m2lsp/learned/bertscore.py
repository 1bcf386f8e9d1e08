"""BERTScore (Zhang et al. 2020) of each hypothesis against its references, as gec-metrics
0.1.1 asks the `bert-score` package for it: the best P, R and F over the references, each
rescaled with the package's baseline for the model and language, then the one chosen
(`f` by default).  The package itself computes it (it sorts and deduplicates sentences);
m2lsp keeps each (hypothesis, references) score in the cache."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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

    @property
    def signed(self) -> str:
        return f"{self.name}@{self.revision}"


def load(options: dict[str, Any], option: str) -> BertScore:
    """The scorer gec-metrics' BertScore builds from these options (its Config's fields)."""
    from m2lsp.errors import UsageError
    from m2lsp.learned.loading import ModelError, available, revision, torch_modules, unavailable

    torch_modules()
    name = str(options["model_type"])
    config = available(name, option)
    try:
        from bert_score import BERTScorer
        from bert_score.utils import model2layers
    except ImportError:
        raise UsageError("--metric bertscore needs the bert-score package: pip install "
                         "'m2lsp[neural]'") from None
    layers = options.get("num_layers") or model2layers.get(name)
    if layers is None:
        raise UsageError(f"bert-score does not know how many layers of {name!r} to use: "
                         "give --bertscore-num-layers N")
    try:
        scorer = BERTScorer(
            model_type=name, num_layers=int(layers), batch_size=int(options["batch_size"]),
            nthreads=int(options["nthreads"]), all_layers=False, idf=bool(options["idf"]),
            idf_sents=None, lang=str(options["lang"]),
            rescale_with_baseline=bool(options["rescale_with_baseline"]),
            baseline_path=options.get("baseline_path") or None,
            use_fast_tokenizer=bool(options["use_fast_tokenizer"]),
            device="cpu" if options.get("no_cuda") else None)
    except Exception as exc:
        raise ModelError(unavailable(name, option, exc)) from None
    scorer._model.eval()
    return BertScore(scorer, name, revision(config, name), int(layers), str(options["lang"]),
                     bool(options["rescale_with_baseline"]), bool(options["idf"]),
                     str(options["score_type"]))


def sentence_scores(bert: BertScore, hypotheses: Sequence[str],
                    references: Sequence[Sequence[str]]) -> list[float]:
    """Each hypothesis's score against its references (from the cache where known)."""
    from m2lsp.learned.remembered import namespace, remembered

    rows = [(h, tuple(refs)) for h, refs in zip(hypotheses, references, strict=True)]
    unique, where = distinct(rows)
    space = namespace("bertscore", bert.signed, bert.num_layers, bert.lang, bert.rescale,
                      bert.idf, bert.score_type, bert.scorer.device)

    def compute(missing: list[int]) -> list[float]:
        return fresh(bert, [unique[i][0] for i in missing], [unique[i][1] for i in missing])

    scores = remembered(space, ["\0".join([h, *refs]) for h, refs in unique], compute)
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
