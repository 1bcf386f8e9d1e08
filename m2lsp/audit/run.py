"""`m2lsp audit`: a system's honest output and the attacks' outputs (audit.attacks) scored
by one metric, each attack's score set against the honest one -- how far an output made
only to please the metric climbs above a real correction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.audit.attacks import ATTACKS
from m2lsp.errors import UsageError

MASK_MODEL = "google-bert/bert-base-cased"  # AttackerForScribendi's fill-mask model
ENCODER = "bert-base-cased"  # AttackerForIMPARA's sentence encoder (semsis, avg)
EXAMPLES = 3


@dataclass(frozen=True)
class AuditRequest:
    system: Path
    metric: str
    gold: Path | None = None
    source: Path | None = None
    attacks: tuple[str, ...] = ()  # () : those whose inputs are given (see `chosen`)
    corpus: Path | None = None  # an M2 file: its sources and annotator 0's corrections
    mask_model: str | None = None
    no_cuda: bool = False
    encoder: str | None = None  # neighbour: the sentence encoder
    options: Mapping[str, Any] = field(default_factory=dict)  # the metric's, by dest


@dataclass(frozen=True)
class Attacked:
    attack: str
    score: float
    difference: float  # the attack's score minus the honest one
    higher: int | None  # sentences the attack scores above the honest output
    sentences: int
    examples: tuple[str, ...]  # its first hypotheses


@dataclass(frozen=True)
class AuditResult:
    metric: str
    signature: str
    honest: float
    attacks: tuple[Attacked, ...]

    @property
    def climbed(self) -> list[Attacked]:
        return [a for a in self.attacks if a.difference > 0]


def chosen(request: AuditRequest) -> tuple[str, ...]:
    """The attacks asked, else injection and those whose inputs were given."""
    unknown = [a for a in request.attacks if a not in ATTACKS]
    if unknown:
        raise UsageError(f"no attack {unknown[0]!r}; the attacks are {', '.join(ATTACKS)}")
    if request.attacks:
        return tuple(dict.fromkeys(request.attacks))
    found = ["injection"]
    if request.corpus is not None:
        found.append("best-sentence")
    if request.mask_model is not None:
        found.append("mask-fill")
    if request.encoder is not None and request.corpus is not None:
        found.append("neighbour")
    return tuple(found)


def audit(request: AuditRequest) -> AuditResult:
    from m2lsp.api.scoring import Scorer

    attacks = chosen(request)
    if "mask-fill" in attacks and request.metric != "scribendi":
        raise UsageError("the mask-fill attack searches by Scribendi's language model: "
                         "--metric scribendi")
    if "neighbour" in attacks and request.metric != "impara":
        raise UsageError("the neighbour attack keeps corrections IMPARA's threshold lets "
                         "through: --metric impara")
    for name in ("best-sentence", "neighbour"):
        if name in attacks and request.corpus is None:
            raise UsageError(f"the {name} attack picks from a corpus of corrections: give "
                             "--audit-corpus FILE.m2")
    with Scorer(request.metric, gold=request.gold, sources=request.source,
                **request.options) as scorer:
        honest = scorer.score(request.system)
        if honest.score is None:
            raise UsageError(f"--metric {request.metric} has no single number to audit")
        sources = _sources(request, scorer.gold)
        found = tuple(_attacked(name, _hypotheses(name, sources, request), honest, scorer)
                      for name in attacks)
    return AuditResult(request.metric, honest.signature, honest.score, found)


def _sources(request: AuditRequest, gold: Any) -> list[str]:
    """The sources: --source's lines, else the S lines of the gold the Scorer holds (read
    once, by it)."""
    from m2lsp.scoring.sentence_inputs import from_m2, read

    if request.source is not None:
        return read(request.source, "source", None)[0]
    if gold is not None:
        return from_m2(gold, None)[0]
    raise UsageError("audit needs the sources: --source SRC, or an M2 GOLD")


def _attacked(name: str, hypotheses: list[str], honest: Any, scorer: Any) -> Attacked:
    score = scorer.score(hypotheses)
    if score.score is None:
        raise UsageError(f"the {name} attack's output has no score")
    mine, theirs = honest.sentence_scores, score.sentence_scores
    higher = None
    if mine is not None and theirs is not None:
        higher = sum(1 for a, b in zip(theirs, mine, strict=True)
                     if a is not None and b is not None and a > b)
    return Attacked(name, score.score, score.score - honest.score, higher, len(hypotheses),
                    tuple(hypotheses[:EXAMPLES]))


def _hypotheses(name: str, sources: list[str], request: AuditRequest) -> list[str]:
    from m2lsp.audit import attacks

    if name == "injection":
        return attacks.injection(sources)
    if name == "best-sentence":
        corpus_sources, targets = corpus(request.corpus)
        return attacks.best_sentence(sources, corpus_sources, targets,
                                     _pair_scorer(request))
    if name == "neighbour":
        return _neighbour(sources, request)
    return _mask_fill(sources, request)


def corpus(path: Path | None) -> tuple[list[str], list[str]]:
    """An M2 file's sources and its first annotator's corrected sentences."""
    from m2lsp.scoring.sentence_inputs import from_m2

    assert path is not None
    sources, references, _ = from_m2(path, None)
    if not sources:
        raise UsageError(f"{path}: no sentence to pick from")
    return sources, [r[0] if r else s for s, r in zip(sources, references, strict=True)]


def _pair_scorer(request: AuditRequest) -> Any:
    """Sentence scores of (source, hypothesis) pairs by the metric (SOME with the
    attacker's weights)."""
    from m2lsp.api.scoring import score as scored
    from m2lsp.audit.attacks import SOME_WEIGHTS

    options = dict(request.options)
    if request.metric == "some":
        options.update(SOME_WEIGHTS)

    def score(sources: list[str], hypotheses: list[str]) -> list[float]:
        found = scored(hypotheses, metric=request.metric, sources=sources, **options)
        values = found.sentence_scores
        if values is None or any(v is None for v in values):
            raise UsageError(f"--metric {request.metric} gives no score to every corpus "
                             "sentence: the best-sentence attack cannot rank them")
        return [float(v) for v in values]  # type: ignore[arg-type]
    return score


def _neighbour(sources: list[str], request: AuditRequest) -> list[str]:
    from m2lsp.audit.attacks import neighbour
    from m2lsp.config import ScoreSettings
    from m2lsp.learned.loading import model_errors
    from m2lsp.scoring.metric import Shared, metric

    chosen_metric: Any = metric("impara")
    options = chosen_metric.options(dict(request.options), Shared(), ScoreSettings())
    _, targets = corpus(request.corpus)
    with model_errors("the neighbour attack"):
        encode = _encoder(request, int(options["batch_size"]))
        return neighbour(sources, targets, encode, float(options["threshold"]),
                         _pair_scorer(request))


def _encoder(request: AuditRequest, batch: int) -> Any:
    """Sentences to the mean of a BERT encoder's last hidden state over their tokens
    (semsis' `avg` sentence encoder), in batches."""
    from m2lsp.learned.loading import device, load, torch_modules

    torch, _ = torch_modules()
    loaded = load("AutoModel", request.encoder or ENCODER, device(request.no_cuda),
                  "--audit-encoder")

    def encode(texts: list[str]) -> Any:
        rows = []
        with torch.inference_mode():
            for at in range(0, len(texts), batch):
                inputs = loaded.tokenizer(texts[at:at + batch], return_tensors="pt",
                                          padding=True, truncation=True).to(
                    loaded.model.device)
                hidden = loaded.model(**inputs)["last_hidden_state"]
                mask = inputs["attention_mask"].unsqueeze(-1)
                rows.append(((hidden * mask).sum(dim=1) / mask.sum(dim=1)).cpu())
        return torch.cat(rows).numpy()
    return encode


def _mask_fill(sources: list[str], request: AuditRequest) -> list[str]:
    from m2lsp.audit.attacks import mask_fill
    from m2lsp.learned.loading import model_errors

    with model_errors("the mask-fill attack"):
        scribendi = _scribendi(request)
        fill, mask = _fill_mask(request)
        tokenise = _tokeniser()
        return mask_fill(sources, mask, fill, lambda texts: _perplexity(scribendi, texts),
                         tokenise, lambda s, h: _judged(scribendi, s, h))


def _scribendi(request: AuditRequest) -> Any:
    from m2lsp.config import ScoreSettings
    from m2lsp.scoring.metric import Shared, metric

    chosen_metric: Any = metric("scribendi")
    options = chosen_metric.options(dict(request.options), Shared(), ScoreSettings())
    return chosen_metric.models(options)


def _perplexity(scribendi: Any, texts: Sequence[str]) -> list[float]:
    from m2lsp.learned.scribendi import perplexities

    return perplexities(scribendi, list(texts))


def _judged(scribendi: Any, sources: list[str], hypotheses: list[str]) -> list[float]:
    from m2lsp.learned.scribendi import sentence_scores

    return sentence_scores(scribendi, sources, hypotheses)


def _fill_mask(request: AuditRequest) -> tuple[Any, str]:
    """The fill-mask pipeline's 64 best fillings of a masked sentence, and its mask."""
    from m2lsp.learned.loading import device, load, torch_modules

    _, transformers = torch_modules()
    on = device(request.no_cuda)
    loaded = load("AutoModelForMaskedLM", request.mask_model or MASK_MODEL, on,
                  "--audit-mask-model")
    pipe = transformers.pipeline("fill-mask", model=loaded.model, tokenizer=loaded.tokenizer,
                                 device=loaded.model.device, top_k=64)

    def fill(masked: str) -> list[tuple[str, str]]:
        return [(r["sequence"], r["token_str"]) for r in pipe(masked)]
    return fill, str(loaded.tokenizer.mask_token)


def _tokeniser() -> Any:
    """spaCy's English tokens joined by spaces (AttackerForScribendi's `tokenize`)."""
    import spacy

    from m2lsp.annotation.pipelines import resolve

    nlp = spacy.load(resolve(None, "en"))
    return lambda text: " ".join(token.text for token in nlp(text))
