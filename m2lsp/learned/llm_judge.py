"""LLM-S and LLM-E (Kobayashi et al., BEA 2024) as gec-metrics 0.1.2's `LLMKobayashi24`
computes them: for each source, at most five distinct hypotheses of the systems are shown
to a language model side by side, which rates each from 1 to 5; each system's hypothesis
takes the rating of its text.

- **Which hypotheses.** The distinct hypotheses, all of them when there are at most five,
  else the five most frequent (ties: the first seen first); shown in code-point order.
  A system whose hypothesis is not shown has no rating for that sentence (None).
- **The prompt.** `llm_prompts.SENTENCE` (LLM-S) or `EDIT` (LLM-E, where each hypothesis
  is shown as its ERRANT edits, `orig→cor` joined by spaces), `[SOURCE]` the source,
  `[CORRECTION]` the hypotheses one a line; a criterion's sentence goes before
  "\\n\\n# context".
- **The replies** are kept per prompt in gec-metrics' JSONL cache: one line
  `{"id": MD5 of the prompt, "results": {"choices": [{"message": {"content": JSON}}]}}`,
  read and appended, so the same file serves both tools.  Each line written here also
  names its judge (`"judge"`: model and endpoint, or model and revision), and a line of
  another judge never answers for this one: the MD5 of a prompt says nothing of who
  replied.  A line that names no judge (gec-metrics writes none) is read as before, and
  counted.  A reply that gives no rating is used for its run only, never written: a
  later run asks again.
- **Reading a reply.** gec-metrics reads `json.loads(content)["target_scoreK"]`.  The same
  here, and more robustly: the first JSON object in the text (a reply in a ```json fence),
  keys `target_scoreK` or the instruction's own `targetK_score`, numbers or numeric
  strings.  A reply that still gives no number for every hypothesis (gec-metrics stops
  there with a KeyError) rates none of them: that sentence compares no systems, and the
  count is reported.

A system's LLM score is the mean of its ratings (gec-metrics has no corpus score for these
metrics); ranking systems by TrueSkill or Expected Wins of the ratings' pairwise
comparisons is what gec-metrics computes (`metaeval.rating`)."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from m2lsp.learned.llm_prompts import CRITERIA, EDIT, SENTENCE

MOST = 5  # hypotheses shown at once
Reply = dict  # {"choices": [{"message": {"content": str}}], ...}
Ask = Callable[[Sequence[str], Sequence[int]], Iterable[Reply]]  # prompts, sizes ->
# replies, one by one (each is cached as it comes: an interrupted run keeps them)


@dataclass(frozen=True)
class Judged:
    """Each system's rating of each sentence (None: not shown, or the reply unread), the
    sentences whose reply could not be read, how many prompts were asked anew, how many
    were answered by cache lines that name no judge, and how many were asked anew though
    the cache held another judge's reply."""

    ratings: tuple[tuple[float | None, ...], ...]  # [system][sentence]
    unread: tuple[int, ...]  # 0-based sentence indices
    prompts: int
    asked: int
    unsigned: int = 0
    others: int = 0


def template(kind: str, criterion: str | None = None) -> str:
    """The instruction of `kind` ("llm-s" or "llm-e") with its criterion's sentence."""
    base = SENTENCE if kind == "llm-s" else EDIT
    if not criterion:
        return base
    return base.replace("\n\n# context", f"\n{CRITERIA[kind][criterion]}\n\n# context")


def shown(hypotheses: Sequence[str], most: int = MOST) -> list[str]:
    """The hypotheses the model sees, in the order it sees them."""
    counts = Counter(hypotheses)
    if len(counts) <= most:
        return sorted(counts)
    return sorted(h for h, _ in sorted(counts.items(), key=lambda x: x[1],
                                       reverse=True)[:most])


def prompt(instruction: str, source: str, forms: Sequence[str]) -> str:
    return instruction.replace("[SOURCE]", source).replace("[CORRECTION]", "\n".join(forms))


def key(text: str) -> str:
    """gec-metrics' cache key: the MD5 of the prompt's UTF-8."""
    return hashlib.md5(text.encode()).hexdigest()


def content(reply: Reply) -> str | None:
    try:
        found = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return found if isinstance(found, str) else None


def ratings_of(text: str | None, count: int) -> list[float] | None:
    """The `count` ratings a reply's content gives, or None (see the module docstring)."""
    data = _object(text)
    if data is None:
        return None
    found = []
    for k in range(1, count + 1):
        value = data.get(f"target_score{k}", data.get(f"target{k}_score"))
        number = _number(value)
        if number is None:
            return None
        found.append(number)
    return found


def _object(text: str | None) -> dict | None:
    if text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        match = re.search(r"\{.*?\}", text, re.DOTALL)
        if match is None:
            return None
        try:
            data = json.loads(match.group(0))
        except ValueError:
            return None
    return data if isinstance(data, dict) else None


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


class ReplyCache:
    """gec-metrics' JSONL file of replies, read once and appended to (a line a reply, each
    written whole and flushed: an interrupted run keeps what it was told).  A line that is
    not a cache entry (a half-written last line) is skipped and counted.

    `judge` names who answers (`None`: anyone, and lines are written naming no one): a
    line naming another judge is not read as a reply, only noted (`others`); a line naming
    none (`unsigned`) is read, but a line naming this judge wins over it."""

    def __init__(self, path: Path | None, judge: str | None = None) -> None:
        self.path = path
        self.judge = judge
        self.replies: dict[str, Reply] = {}
        self.unsigned: set[str] = set()  # keys whose reply names no judge
        self.others: dict[str, str] = {}  # key -> another judge that replied to it
        self.skipped = 0
        if path is not None and path.is_file():
            self._read(path)

    def _read(self, path: Path) -> None:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    entry = json.loads(line)
                    self._take(str(entry["id"]), entry["results"], entry.get("judge"))
                except (ValueError, KeyError, TypeError, AttributeError):
                    self.skipped += bool(line.strip())

    def _take(self, prompt_key: str, reply: Reply, judge: object) -> None:
        if judge is None or self.judge is None:
            if prompt_key in self.replies and prompt_key not in self.unsigned:
                return  # this judge's own line wins, wherever it is
            self.unsigned.add(prompt_key)
        elif judge != self.judge:
            self.others[prompt_key] = str(judge)
            return
        else:
            self.unsigned.discard(prompt_key)
        self.replies[prompt_key] = reply

    def get(self, prompt_key: str) -> Reply | None:
        return self.replies.get(prompt_key)

    def hold(self, prompt_key: str, reply: Reply) -> None:
        """A reply for this run only (it gives no rating: a later run asks again)."""
        self.replies[prompt_key] = reply
        self.unsigned.discard(prompt_key)

    def add(self, prompt_key: str, reply: Reply) -> None:
        self.hold(prompt_key, reply)
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        entry: dict[str, object] = {"id": prompt_key, "results": reply}
        if self.judge is not None:
            entry["judge"] = self.judge
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with open(self.path, "ab+") as handle:
            if handle.tell() and (handle.seek(-1, 2), handle.read(1))[1] != b"\n":
                line = "\n" + line  # after a line written half, a line of its own
            handle.write(line.encode("utf-8"))


def usable(reply: Reply | None, count: int) -> bool:
    """Whether `reply` gives a rating for each of `count` hypotheses."""
    return reply is not None and ratings_of(content(reply), count) is not None


def judge(sources: Sequence[str], systems: Sequence[Sequence[str]], instruction: str,
          forms: Callable[[str, str], str], cache: ReplyCache, ask: Ask) -> Judged:
    """Every system's ratings: the prompts built, the replies from `cache` or from `ask`
    (all prompts without a usable reply at once, each asked once and kept as its reply
    comes, if it gives a rating), read."""
    plans = []
    for k, source in enumerate(sources):
        hypotheses = [column[k] for column in systems]
        chosen = shown(hypotheses)
        text = prompt(instruction, source, [forms(source, h) for h in chosen])
        plans.append((key(text), text, chosen, hypotheses))
    missing = list({p[0]: p for p in plans
                    if not usable(cache.get(p[0]), len(p[2]))}.values())
    if missing:
        replies = ask([p[1] for p in missing], [len(p[2]) for p in missing])
        for plan, reply in zip(missing, replies, strict=True):
            if usable(reply, len(plan[2])):
                cache.add(plan[0], reply)  # written before the next prompt is asked
            else:
                cache.hold(plan[0], reply)
    unsigned = len({p[0] for p in plans if p[0] in cache.unsigned})
    others = sum(p[0] in cache.others for p in missing)
    return replace(_read(plans, cache, len(systems), len(missing)), unsigned=unsigned,
                   others=others)


def _read(plans: list, cache: ReplyCache, count: int, asked: int) -> Judged:
    ratings: list[list[float | None]] = [[] for _ in range(count)]
    unread = []
    for k, (prompt_key, _, chosen, hypotheses) in enumerate(plans):
        found = ratings_of(content(cache.get(prompt_key) or {}), len(chosen))
        if found is None:
            unread.append(k)
        values: list[float | None] = list(found) if found else [None] * len(chosen)
        by_text = dict(zip(chosen, values, strict=True))
        for system, hypothesis in enumerate(hypotheses):
            ratings[system].append(by_text.get(hypothesis))
    return Judged(tuple(tuple(r) for r in ratings), tuple(unread), len(plans), asked)


def sentence_form(source: str, hypothesis: str) -> str:
    return hypothesis
