"""Who answers an LLM judge's prompts: a local causal language model, or an
OpenAI-compatible endpoint.

**A local model** (`--llm-model DIR|hub-id`, loaded as the other learned metrics load it:
never its own code, never a download unless the hub answers) is not left to write freely.
The reply's shape is fixed -- `{"target_score1":R1,"target_score2":R2,...}` -- so the model
is given the prompt (through its chat template, where it has one, as gec-metrics' Hugging
Face path gives it), then the reply's text up to each rating, and each rating is the digit
1 to 5 the model finds likeliest there: greedy decoding over the only tokens the answer may
take.  That is deterministic (the seed changes nothing), it always parses, and it costs one
forward pass per rating, reusing the prompt's key-value cache.  gec-metrics constrains the
model with outlines to its JSON schema instead, which allows any integer and spaces between
tokens; its ratings can differ from these on the same model, and its replies (cached) are
read here as they are.

**An endpoint** (`--llm-endpoint URL`, its key from $OPENAI_API_KEY, or the variable
`--llm-key-env` names) is sent what gec-metrics sends OpenAI: the system message, the
prompt, a JSON schema of the reply and the seed (not to Gemini models, as there), and the
whole response is cached.  A user and password in the URL are sent as HTTP Basic
authentication where no key is set, and never shown (`public_url`).  A reply is bounded:
at most `MAX_REPLY` bytes (a chat completion is a few kilobytes), and `timeout` seconds
from connecting to its last byte, whatever its pace (a deadline shuts the socket: a
socket's own timeout bounds each read, and a reply that trickles a byte every few seconds
never trips it)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.learned.llm_judge import Reply
from m2lsp.learned.llm_prompts import SYSTEM_MESSAGE
from m2lsp.learned.loading import Loaded, ModelError

DIGITS = "12345"


def reply_of(ratings: Sequence[int]) -> Reply:
    """A reply as gec-metrics' Hugging Face path caches it: the compact JSON of the
    ratings (pydantic's `.json()`) as the first choice's content."""
    text = json.dumps({f"target_score{k + 1}": r for k, r in enumerate(ratings)},
                      separators=(",", ":"))
    return {"choices": [{"message": {"content": text}}]}


@dataclass(frozen=True)
class LocalJudge:
    loaded: Loaded
    seed: int = 777

    def ask(self, prompts: Sequence[str], sizes: Sequence[int]) -> Iterator[Reply]:
        import torch

        torch.manual_seed(self.seed)
        digits = digit_ids(self.loaded)
        for text, size in zip(prompts, sizes, strict=True):
            with torch.inference_mode():
                ratings = self._rated(text, size, digits)
            yield reply_of(ratings)

    def _rated(self, text: str, size: int, digits: list[int]) -> list[int]:
        import torch

        model, tokenizer = self.loaded.model, self.loaded.tokenizer
        ids = tokenizer(chat(tokenizer, text) + '{"target_score1":',
                        return_tensors="pt")["input_ids"].to(model.device)
        fits(self.loaded, ids.shape[1] + 12 * size)
        out = model(input_ids=ids, use_cache=True)
        found = []
        for k in range(size):
            logits = out.logits[0, -1, digits]
            finite_logits(self.loaded, logits)
            choice = int(torch.argmax(logits))
            found.append(choice + 1)
            if k + 1 == size:
                break
            more = tokenizer(f',"target_score{k + 2}":', add_special_tokens=False)["input_ids"]
            feed = torch.tensor([[digits[choice], *more]], device=model.device)
            out = model(input_ids=feed, past_key_values=out.past_key_values, use_cache=True)
        return found


def finite_logits(loaded: Loaded, logits: Any) -> None:
    """A ModelError where the digits' scores are not finite numbers (a model whose weights
    are NaN): argmax would still pick a digit, a rating the model never gave."""
    import torch

    if not bool(torch.isfinite(logits).all()):
        raise ModelError(f"the model {loaded.name!r} (--llm-model) gives the ratings' digits "
                         f"the scores {[float(v) for v in logits]}; a score that is not a "
                         "finite number rates nothing: its weights (NaN, after a training "
                         "run that diverged?) cannot judge")


def fits(loaded: Loaded, tokens: int) -> None:
    """A ModelError where a prompt and its reply are longer than the model's positions
    (torch would stop with "index out of range")."""
    config = loaded.model.config
    limit = getattr(config, "max_position_embeddings", None) or getattr(
        config, "n_positions", None)
    if isinstance(limit, int) and tokens > limit:
        raise ModelError(f"the model {loaded.name!r} (--llm-model) reads at most {limit} "
                         f"tokens; a prompt and its reply take {tokens} in its tokenizer: "
                         "give a model with a longer context")


def chat(tokenizer: Any, text: str) -> str:
    """The prompt through the tokenizer's chat template, where it has one."""
    if not getattr(tokenizer, "chat_template", None):
        return text
    try:
        return str(tokenizer.apply_chat_template([{"role": "user", "content": text}],
                                                 tokenize=False))
    except ValueError:
        return text


def digit_ids(loaded: Loaded) -> list[int]:
    """The token of each digit 1 to 5: a ModelError where the vocabulary lacks one."""
    tokenizer = loaded.tokenizer
    found = []
    for digit in DIGITS:
        ids = tokenizer(digit, add_special_tokens=False)["input_ids"]
        token = tokenizer.convert_tokens_to_ids(digit)
        if isinstance(token, int) and token != tokenizer.unk_token_id and token >= 0:
            found.append(token)
        elif len(ids) == 1:
            found.append(ids[0])
        else:
            raise ModelError(f"the model {loaded.name!r} (--llm-model) has no token for the "
                             f"digit {digit}: its ratings cannot be read one token each")
    return found


MAX_REPLY = 2**20  # bytes of one endpoint reply


@dataclass(frozen=True)
class EndpointJudge:
    url: str  # the API's base, e.g. https://api.openai.com/v1
    model: str
    key: str | None
    seed: int = 777
    timeout: float = 120.0  # seconds for one reply, from connecting to its last byte
    tries: int = 4  # a 429 or 5xx answer, or no answer, is asked again
    backoff: float = 2.0  # seconds before the second try, doubled each time

    @property
    def shown(self) -> str:
        return public_url(self.url)

    def ask(self, prompts: Sequence[str], sizes: Sequence[int]) -> Iterator[Reply]:
        for text, size in zip(prompts, sizes, strict=True):
            yield self._with_tries(text, size)

    def _with_tries(self, text: str, size: int) -> Reply:
        import time

        for attempt in range(self.tries):
            try:
                return self._asked(text, size)
            except _Transient as failed:
                if attempt + 1 == self.tries:
                    raise ModelError(f"{failed} ({self.tries} tries; the replies so far "
                                     "are cached: run again to go on)") from None
                time.sleep(self.backoff * 2 ** attempt)
        raise AssertionError("unreachable")

    def _asked(self, text: str, size: int) -> Reply:
        import http.client
        import urllib.error

        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": SYSTEM_MESSAGE},
                         {"role": "user", "content": text}],
            "response_format": {"type": "json_schema", "json_schema": schema(size)}}
        if "gemini" not in self.model:
            body["seed"] = self.seed
        with Deadline(self.timeout) as deadline:
            try:
                data = json.loads(self._read(self._request(body), deadline))
            except urllib.error.HTTPError as failed:
                said = (f"the endpoint {self.shown} answered {failed.code} {failed.reason}: "
                        f"{failed.read(300)!r}")
                if failed.code == 429 or failed.code >= 500:
                    raise _Transient(said) from None
                raise ModelError(said) from None
            except (OSError, http.client.HTTPException) as failed:
                if deadline.passed:
                    raise _Transient(f"the endpoint {self.shown} gave no whole reply within "
                                     f"{self.timeout:g} s (--llm-timeout)") from None
                raise _Transient(f"the endpoint {self.shown} gave no reply: "
                                 f"{_said(failed)}") from None
            except ValueError as failed:
                if deadline.passed:
                    raise _Transient(f"the endpoint {self.shown} gave no whole reply within "
                                     f"{self.timeout:g} s (--llm-timeout)") from None
                raise ModelError(f"the endpoint {self.shown} replied with no JSON: "
                                 f"{failed}") from None
        if not isinstance(data, dict):
            raise ModelError(f"the endpoint {self.shown} replied with no JSON object")
        return data

    def _request(self, body: dict[str, Any]) -> Any:
        import base64
        import urllib.request

        plain, user = without_user(self.url)
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        elif user:
            headers["Authorization"] = "Basic " + base64.b64encode(
                user.encode("utf-8")).decode("ascii")
        return urllib.request.Request(plain.rstrip("/") + "/chat/completions",
                                      json.dumps(body).encode(), headers, method="POST")

    def _read(self, request: Any, deadline: Deadline) -> str:
        """The reply's text: a ModelError past MAX_REPLY bytes, read no further."""
        with deadline.opener().open(request, timeout=self.timeout) as response:
            length = response.headers.get("Content-Length", "")
            if length.strip().isdigit() and int(length) > MAX_REPLY:
                raise ModelError(self._too_large(int(length)))
            data = response.read(MAX_REPLY + 1)
            if len(data) > MAX_REPLY:
                raise ModelError(self._too_large(None))
        if deadline.passed:  # a reply cut short by the deadline, no length to say so
            raise TimeoutError
        return data.decode("utf-8", "replace")

    def _too_large(self, size: int | None) -> str:
        limit = f"{MAX_REPLY // 2**20} MiB"
        said = f"{size} bytes (more than {limit})" if size else f"more than {limit}"
        return (f"the endpoint {self.shown} sent a reply of {said}; a chat completion is a "
                "few kB: not read. Is --llm-endpoint an OpenAI-compatible API's base URL?")


def _said(failed: BaseException) -> str:
    import urllib.error

    if isinstance(failed, urllib.error.URLError):
        return str(failed.reason)
    return str(failed) or type(failed).__name__


class Deadline:
    """One reply's whole time: when it is up, the sockets of the request are shut,
    whatever they are doing (connecting, waiting for the headers, reading a body that
    trickles), and `passed` says so.  Its `opener` makes them."""

    def __init__(self, seconds: float) -> None:
        import threading

        self.seconds = seconds
        self._expired = False
        self._end = float("inf")
        self._sockets: list[Any] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Deadline:
        import time

        self._end = time.monotonic() + self.seconds
        self._timer.start()
        return self

    @property
    def passed(self) -> bool:
        """Whether the time is up (a socket's own timeout, of as many seconds, may say so
        a moment before the timer)."""
        import time

        return self._expired or time.monotonic() >= self._end

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: Any) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self._expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self._expired = True
            for sock in self._sockets:
                _shut(sock)

    def opener(self) -> Any:
        """urllib's opener (proxies from the environment as ever), its connections
        watched."""
        import http.client
        import urllib.request

        deadline = self

        class Http(http.client.HTTPConnection):
            def connect(self) -> None:
                super().connect()
                deadline.watch(self.sock)

        class Https(http.client.HTTPSConnection):
            def connect(self) -> None:
                super().connect()
                deadline.watch(self.sock)

        class HttpHandler(urllib.request.HTTPHandler):
            def do_open(self, http_class: Any, req: Any, **kwargs: Any) -> Any:
                return super().do_open(Http, req, **kwargs)

        class HttpsHandler(urllib.request.HTTPSHandler):
            def do_open(self, http_class: Any, req: Any, **kwargs: Any) -> Any:
                return super().do_open(Https, req, **kwargs)

        return urllib.request.build_opener(HttpHandler, HttpsHandler)


def _shut(sock: Any) -> None:
    import contextlib
    import socket

    with contextlib.suppress(OSError):  # closed already
        sock.shutdown(socket.SHUT_RDWR)


_USER = re.compile(r"^((?:[A-Za-z][A-Za-z0-9+.-]*:)?//)?[^/?#]*@")


def public_url(url: str) -> str:
    """`url` without its user information (`http://user:password@host/v1` ->
    `http://host/v1`): what messages and signatures show of an endpoint."""
    return _USER.sub(lambda m: m.group(1) or "", url, count=1)


def without_user(url: str) -> tuple[str, str | None]:
    """`url` without its user information, and that information (`user:password`,
    percent-decoded), if it has some."""
    import urllib.parse

    found = _USER.match(url)
    if found is None:
        return url, None
    given = found.group(0)[len(found.group(1) or ""):-1]
    return public_url(url), urllib.parse.unquote(given)


class _Transient(Exception):
    """An answer worth asking again: too many requests, a server's error, no answer."""


def schema(size: int) -> dict[str, Any]:
    """The reply's JSON schema, as OpenAI's `parse` makes it of gec-metrics' pydantic
    class for `size` hypotheses."""
    fields = [f"target_score{k + 1}" for k in range(size)]
    return {"name": f"LLMSentOutputFormat{size}", "strict": True,
            "schema": {"type": "object", "title": f"LLMSentOutputFormat{size}",
                       "properties": {f: {"title": f.replace("_", " ").title().replace(
                           " ", " "), "type": "integer"} for f in fields},
                       "required": fields, "additionalProperties": False}}


def endpoint_key(variable: str) -> str | None:
    return os.environ.get(variable) or None
