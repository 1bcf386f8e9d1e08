"""`--metric llm-s` and `--metric llm-e`: every system of a `score`, `compare`, `report` or
meta-evaluation shown to the judge side by side (learned.llm_judge), the replies from the
cache where it has them -- the model is loaded only when a prompt is not there -- and each
system's ratings as its sentence scores, their mean its score."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.parsing.source import Input, file_option
from m2lsp.scoring.learned_metric import LearnedMetric
from m2lsp.scoring.metric import Declaration, Request, SentenceStats, Shared, given
from m2lsp.scoring.sentence_scored import SentenceScored


@dataclass(frozen=True)
class Rated(SentenceScored):
    """A system's ratings (None: its hypothesis was not shown, or the reply was unread);
    the corpus score is the mean of those it has."""

    scores: tuple[float | None, ...]  # type: ignore[assignment]

    @property
    def rated(self) -> list[float]:
        return [s for s in self.scores if s is not None]

    @property
    def corpus(self) -> float:
        found = self.rated
        return sum(found) / len(found) if found else 0.0

    def text(self, request: Request) -> str:
        from m2lsp.scoring.metric import bootstrap_text

        lines = [f"{self.label:<12}: {self.corpus:.4f}  ({len(self.rated)} of "
                 f"{len(self.scores)} sentences rated)"]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{'-' if s is None else f'{s:g}'}"
                      for i, s in enumerate(self.scores)]
        out = "\n".join(lines) + "\n"
        if request.shared.bootstrap:
            out += "\n" + bootstrap_text(self.sentence_stats(), request)
        return out + f"\n{self.signature}\n"

    def sentence_stats(self) -> SentenceStats:
        rows = [(0.0, 0.0) if s is None else (s, 1.0) for s in self.scores]
        return SentenceStats(rows, (self.label,),
                             lambda sums: (sums[0] / sums[1] if sums[1] else 0.0,), main=0)

    def sentence_scores(self) -> list[float | None]:
        return list(self.scores)


class Judge:
    """Who answers, made on the first prompt the cache lacks (a cached run loads nothing)."""

    def __init__(self, options: Mapping[str, Any], label: str) -> None:
        self.options, self.label = options, label
        self._asker: Any = None

    def ask(self, prompts: Sequence[str], sizes: Sequence[int]) -> Iterator[dict]:
        from m2lsp.learned.loading import model_errors

        with model_errors(self.label):
            if self._asker is None:
                self._asker = self._made()
            yield from self._asker.ask(prompts, sizes)

    def _made(self) -> Any:
        from m2lsp.learned import llm_models
        from m2lsp.learned.loading import device, load

        options = self.options
        if options["endpoint"]:
            return llm_models.EndpointJudge(options["endpoint"], model_name(options),
                                            llm_models.endpoint_key(options["key_env"]),
                                            int(options["seed"]),
                                            timeout=float(options["timeout"]))
        loaded = load("AutoModelForCausalLM", model_name(options), device(options["no_cuda"]),
                      "--llm-model")
        return llm_models.LocalJudge(loaded, int(options["seed"]))


def model_name(options: Mapping[str, Any]) -> str:
    from m2lsp.scoring.llm import ENDPOINT_DEFAULT, LOCAL_DEFAULT

    chosen = options.get("model")
    if chosen:
        return str(chosen)
    return ENDPOINT_DEFAULT if options.get("endpoint") else LOCAL_DEFAULT


def identity(options: Mapping[str, Any]) -> str:
    """What names the judge, without loading it: a folder's content, a hub model's cached
    commit (else its id alone), an endpoint's URL (never its user and password) and model
    name.  A folder's hash reads every file's stat and its remembered digest: computed once
    a run, and passed on."""
    name = model_name(options)
    if options.get("endpoint"):
        from m2lsp.learned.llm_models import public_url

        return f"{name}@{public_url(str(options['endpoint']))}"
    if Path(name).expanduser().is_dir():
        from m2lsp.learned.identity import folder_digest

        return f"{name}@{folder_digest(Path(name).expanduser())[:12]}"
    return f"{name}@{_hub_commit(name) or 'hub'}"


def _hub_commit(name: str) -> str | None:
    import os

    home = Path(os.environ.get("HF_HUB_CACHE") or Path(
        os.environ.get("HF_HOME") or Path.home() / ".cache" / "huggingface") / "hub")
    ref = home / f"models--{name.replace('/', '--')}" / "refs" / "main"
    try:
        return ref.read_text(encoding="utf-8").strip()[:12] or None
    except OSError:
        return None


def judge_of_lines(options: Mapping[str, Any], named: str) -> str:
    """What each cache line records of its judge, and must match to answer: `identity`,
    but a folder by its name and content alone (wherever it is)."""
    if not options.get("endpoint") and Path(model_name(options)).expanduser().is_dir():
        return f"{Path(model_name(options)).expanduser().name}@{named.rsplit('@', 1)[1]}"
    return named


def cache_file(options: Mapping[str, Any], named: str) -> Path | None:
    """The replies' file: --llm-cache, else one per judge (`named`: its `identity`) in
    m2lsp's cache folder (None where m2lsp keeps no cache)."""
    if options.get("cache"):
        return Path(str(options["cache"])).expanduser()
    from m2lsp.parsing.grammar import cache_dir

    where = cache_dir()
    if where is None:
        return None
    if not options.get("endpoint") and Path(model_name(options)).expanduser().is_dir():
        named = named.rsplit("@", 1)[1]  # a folder's content, wherever it is
    slug = "".join(c if c.isalnum() or c in "-_." else "-"
                   for c in Path(model_name(options)).name or "model")[-60:]
    return where / "llm" / f"{slug}-{hashlib.sha256(named.encode()).hexdigest()[:12]}.jsonl"


def endpoint_checked(url: str) -> None:
    """A UsageError where `url` is no http(s) URL with a host (a port, if any, a number),
    said before any request (and without its user and password)."""
    import urllib.parse

    from m2lsp.learned.llm_models import public_url

    shown = public_url(url)
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"--llm-endpoint takes an http(s) URL, not {shown!r}")
    try:
        parts = urllib.parse.urlsplit(shown)
        host, _ = parts.hostname, parts.port
    except ValueError as bad:
        raise UsageError(f"--llm-endpoint {shown!r} is no URL: {bad}") from None
    if not host:
        raise UsageError(f"--llm-endpoint {shown!r} names no host")


class LlmMetric(LearnedMetric):
    """LLM-S or LLM-E (`kind`)."""

    scorer = "gec-metrics-0.1.2"
    side_by_side = True  # all systems at once: a meta-evaluation scores them in one run

    def __init__(self, declaration: Declaration, label: str) -> None:
        self.declaration = declaration
        self.label = label

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any
                ) -> dict[str, Any]:
        from m2lsp.scoring.llm import FLAGS

        out = {f.dest.removeprefix("llm_"): given(values, f.dest, f.default) for f in FLAGS}
        out["source"] = None if shared.source is None else file_option(shared.source)
        out["references"] = ()
        if self.name == "llm-e":
            from m2lsp.annotation.parallel import settings_for
            from m2lsp.config import ScoreSettings

            out["annotation"] = settings_for("en", config or ScoreSettings(),
                                             spacy_model=values.get("spacy_model"))
            out["jobs"] = shared.jobs or 1
        return out

    def checked(self, options: dict[str, Any]) -> None:
        from m2lsp.learned.loading import exists

        if options["endpoint"]:
            endpoint_checked(str(options["endpoint"]))
            return
        exists(model_name(options), "--llm-model")

    def language_note(self, options: dict[str, Any], hypotheses: Sequence[str]
                      ) -> str | None:
        return None

    def run_many(self, request: Request, systems: Sequence[Input]) -> list[Any]:
        found = [self.sentences(replace(request, system=s)) for s in systems]
        self.checked(request.options)
        judge = Judge(request.options, self.label)
        named = identity(request.options)
        judged, cache = self.judged(request.options, found[0].sources,
                                    [f.hypotheses for f in found], judge, named)
        for note in notes(judged, cache, self.label, bool(request.options.get("cache"))):
            if request.warn is not None:
                request.warn(note)
        out = [self.rated(request.options, named, r, f.texts, len(systems),
                          len(judged.unread))
               for r, f in zip(judged.ratings, found, strict=True)]
        available(self.label, out, [s.name for s in systems], judged)
        return out

    def judged(self, options: Mapping[str, Any], sources: Sequence[str],
               systems: Sequence[Sequence[str]], judge: Judge, named: str | None = None
               ) -> tuple[Any, Any]:
        """The judge's ratings of `systems` side by side, and the reply cache it used
        (`named`: the judge's `identity`, computed here when not given)."""
        from m2lsp.learned import llm_judge

        forms = self.forms(options, sources, systems)
        named = named or identity(options)
        cache = llm_judge.ReplyCache(cache_file(options, named),
                                     judge_of_lines(options, named))
        instruction = llm_judge.template(self.name, options.get("criterion"))
        return llm_judge.judge(sources, systems, instruction, forms, cache, judge.ask), cache

    def forms(self, options: Mapping[str, Any], sources: Sequence[str],
              systems: Sequence[Sequence[str]]) -> Any:
        """How a hypothesis is shown: itself (LLM-S), or its ERRANT edits (LLM-E)."""
        from m2lsp.learned.llm_judge import sentence_form

        if self.name == "llm-s":
            return sentence_form
        from m2lsp.learned.llm_edits import edit_forms

        return edit_forms(sources, systems, options["annotation"], options["jobs"])

    def rated(self, options: Mapping[str, Any], named: str, ratings: Sequence[float | None],
              texts: tuple[str, ...], side_by_side: int, unread: int) -> Rated:
        from m2lsp.scoring.signature import Signature

        fields = (("model", named),
                  ("decoding", "endpoint" if options["endpoint"] else "constrained-greedy"),
                  ("criterion", options.get("criterion") or "none"),
                  ("systems", str(side_by_side)), ("scorer", self.scorer))
        return Rated(self.name, self.label, tuple(ratings), Signature(self.label, fields),
                     texts, "mean", {"model": model_name(options), "unread": unread})

    # the editor and the API's one system: LearnedMetric's path, one system alone

    def models(self, options: dict[str, Any]) -> Any:
        return options

    def scores(self, models: Any, sources: list[str], hypotheses: list[str],
               references: list[list[str]]) -> list[Any]:
        judged, _ = self.judged(models, sources, [hypotheses], Judge(models, self.label))
        return list(judged.ratings[0])

    def result(self, models: Any, scores: list[Any], texts: tuple[str, ...]) -> Any:
        found = self.rated(models, identity(models), scores, texts, 1,
                           sum(s is None for s in scores))
        available(self.label, [found], [""], None)
        return found

    def shown(self, score: Any) -> str:
        return "unrated" if score is None else f"{score:g}"


def available(label: str, scores: Sequence[Rated], names: Sequence[str],
              judged: Any) -> None:
    """A ModelError where a system has no rated sentence: a mean over nothing is no score
    (it would print 0.0000 and rank the system last).  `names`: the systems' ("" for the
    one system of the editor and the API)."""
    from m2lsp.learned.loading import ModelError

    empty = [n for n, s in zip(names, scores, strict=True) if not s.rated]
    if not empty:
        return
    if judged is not None and not judged.unread:
        why = "their hypotheses were never among the five the judge was shown"
    else:
        told = "" if judged is None else f"{len(judged.unread)} of {judged.prompts} "
        why = (f"{told}replies give no rating; such replies are not cached: a run again "
               "asks again")
    which = f" for {', '.join(empty)}" if any(empty) else ""
    raise ModelError(f"{label}: not available{which}: none of the {len(scores[0].scores)} "
                     f"sentences was rated ({why})")


def notes(judged: Any, cache: Any, label: str, explicit: bool = False) -> list[str]:
    """What a run says beside its numbers: unread replies, skipped cache lines, replies
    of a cache named on the command line (`explicit`) that name no judge, and prompts
    asked anew because only another judge had answered them."""
    found = []
    if judged.unread:
        first = ", ".join(str(k + 1) for k in judged.unread[:5])
        found.append(f"warning: {label}: {len(judged.unread)} of {judged.prompts} replies "
                     f"give no rating for every hypothesis shown (sentences {first}"
                     f"{', ...' if len(judged.unread) > 5 else ''}); those sentences rate "
                     "no system, and those replies are not cached")
    if cache.skipped:
        found.append(f"warning: {label}: {cache.skipped} lines of {cache.path} are no cache "
                     "entry (a line written half?) and were skipped")
    if explicit and judged.unsigned:
        found.append(f"note: {label}: {judged.unsigned} replies of {cache.path} name no "
                     f"judge (gec-metrics writes none): taken as {cache.judge}'s")
    if judged.others:
        found.append(f"note: {label}: {judged.others} prompts had only another judge's "
                     f"reply in {cache.path}: asked {cache.judge} anew")
    return found
