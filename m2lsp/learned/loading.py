"""Loading a learned metric's model and tokenizer: a Hugging Face hub id (from the local
cache: these commands never download unless the hub is reachable) or a local folder made
with `save_pretrained`.  Whatever goes wrong comes out as one `ModelError` that names the
model, HF_HOME and how to give a folder instead, never a traceback."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError

EXTRA = "pip install 'm2lsp[neural]'"


class ModelError(InputError):
    """A model that cannot be loaded (no network and no local copy, or not a model)."""


@dataclass(frozen=True)
class Loaded:
    """A model in inference mode on its device, its tokenizer, and what names it in a
    signature: the id as given and its revision (`identity.revision`: a folder's content,
    a hub model's commit)."""

    model: Any
    tokenizer: Any
    name: str
    revision: str

    @property
    def signed(self) -> str:
        return f"{self.name}@{self.revision}"


def torch_modules() -> tuple[Any, Any]:
    """torch and transformers, or a UsageError saying which extra installs them."""
    try:
        import torch
        import transformers
    except ImportError as missing:  # transformers' own ImportErrors name no module
        cause = f"{missing.name} is not installed" if missing.name else str(missing)
        raise UsageError(f"learned metrics need torch and transformers ({cause}): "
                         f"{EXTRA}") from None
    transformers.logging.set_verbosity_error()  # no notes on stderr: warnings are ours
    transformers.logging.disable_progress_bar()
    return torch, transformers


def device(no_cuda: bool) -> str:
    """CUDA when it is there and not refused, else the CPU."""
    torch, _ = torch_modules()
    return "cpu" if no_cuda or not torch.cuda.is_available() else "cuda"


def load(kind: str, name: str, on: str, option: str, outputs: int | None = None) -> Loaded:
    """The model `name` as transformers' Auto class `kind` (`AutoModel`,
    `AutoModelForSequenceClassification`, `AutoModelForCausalLM`) with its tokenizer, on
    device `on`; `option` is the flag that names it (for the error).  A folder, or the
    local Hugging Face cache, first; the hub only when its host answers (no retries for
    half a minute on a machine without network).  No code of the model's own ever runs
    (`trust_remote_code=False`; nothing asks on stdin), and a model whose weights the
    metric needs were not all in the checkpoint is refused (`fresh_weights`), as is a
    classifier with other than `outputs` outputs (a regressor has one)."""
    exists(name, option)
    _, transformers = torch_modules()
    key = (kind, name, on, _content(name))
    found = _LOADED.get(key)
    if found is None:
        found = _found(transformers, kind, name, on, option)
        if len(_LOADED) >= 8:  # a handful of models stay loaded (a training loop, a report)
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = found
    given = getattr(found.model.config, "num_labels", outputs)
    if outputs is not None and given != outputs:
        raise ModelError(f"the model {name!r} ({option}) gives {given} outputs a sentence; "
                         f"the metric reads {outputs} (a regressor's score): give a model "
                         "trained for this metric")
    return found


_LOADED: dict[tuple[str, str, str, str], Loaded] = {}

# what `from_pretrained` is always given: a folder's or the hub's own code never runs (left
# unset, transformers asks "run the custom code? [y/N]" on stdin and runs it on "y")
SAFE = {"trust_remote_code": False}


def exists(name: str, option: str) -> None:
    """A ModelError when `name` is a path that does not exist: said before torch loads,
    which takes seconds."""
    if _is_path(name) and not Path(name).expanduser().exists():
        raise ModelError(unavailable(name, option, None))


def _content(name: str) -> str:
    """A folder's content hash (a folder edited while the server runs is loaded again)."""
    from m2lsp.learned.identity import folder_digest

    return folder_digest(Path(name)) if Path(name).is_dir() else ""


def _found(transformers: Any, kind: str, name: str, on: str, option: str) -> Loaded:
    try:
        return _loaded(transformers, kind, name, on, option, local_only=True)
    except ModelError:
        raise
    except Exception as local:  # OSError, ValueError, HF's own: all "cannot load"
        if _is_path(name) or not hub_reachable():
            raise ModelError(unavailable(name, option, local)) from None
    try:
        return _loaded(transformers, kind, name, on, option, local_only=False)
    except ModelError:
        raise
    except Exception as remote:
        raise ModelError(unavailable(name, option, remote)) from None


def available(name: str, option: str) -> Any:
    """The model's config, from a folder or the local cache, else from the hub when it
    answers: a ModelError says why the model cannot be had."""
    exists(name, option)
    _, transformers = torch_modules()
    try:
        return transformers.AutoConfig.from_pretrained(name, local_files_only=True, **SAFE)
    except Exception as local:
        if _is_path(name) or not hub_reachable():
            raise ModelError(unavailable(name, option, local)) from None
    try:
        return transformers.AutoConfig.from_pretrained(name, **SAFE)
    except Exception as remote:
        raise ModelError(unavailable(name, option, remote)) from None


def _loaded(transformers: Any, kind: str, name: str, on: str, option: str,
            local_only: bool) -> Loaded:
    from m2lsp.learned.identity import revision

    model, info = getattr(transformers, kind).from_pretrained(
        name, local_files_only=local_only, output_loading_info=True, **SAFE)
    refuse_fresh_weights(kind, name, option, info)
    tokenizer = transformers.AutoTokenizer.from_pretrained(name, local_files_only=local_only,
                                                           **SAFE)
    model.eval()
    model.to(on)
    return Loaded(model, tokenizer, name, revision(model.config, name))


def fresh_weights(kind: str, info: dict[str, Any]) -> list[str]:
    """The weights `kind` computes with that the checkpoint did not have (transformers
    initialises them at random: a plain encoder given as a regressor scores noise).  An
    encoder's pooler is not among them: no metric reads it."""
    missing = sorted(str(k) for k in info.get("missing_keys") or ())
    if kind == "AutoModel":
        missing = [k for k in missing if "pooler" not in k.split(".")]
    return missing


def refuse_fresh_weights(kind: str, name: str, option: str, info: dict[str, Any]) -> None:
    missing = fresh_weights(kind, info)
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5
                                          else "")
        raise ModelError(f"the model {name!r} ({option}) lacks weights the metric computes "
                         f"with: {shown}; transformers would start them at random, so its "
                         f"scores would be noise. Give a model trained for this metric "
                         f"({kind.removeprefix('Auto')})")


def _is_path(name: str) -> bool:
    return Path(name).exists() or name.startswith(("/", "./", "../", "~")) or name.count(
        "/") > 1


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the hub's host (HF_ENDPOINT, else huggingface.co) takes a connection, unless
    HF_HUB_OFFLINE says not to try."""
    import socket
    from urllib.parse import urlparse

    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return False
    endpoint = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    port = endpoint.port or (80 if endpoint.scheme == "http" else 443)
    try:
        socket.create_connection((endpoint.hostname or "", port), timeout=timeout).close()
    except OSError:
        return False
    return True


def unavailable(name: str, option: str, exc: BaseException | None) -> str:
    home = os.environ.get("HF_HOME") or str(Path.home() / ".cache" / "huggingface")
    first = "" if exc is None else _first_line(exc)
    if "custom code" in first or "trust_remote_code" in first:
        where = ("it asks to run Python code of its own (an auto_map in its config or "
                 "tokenizer), and m2lsp never runs a model's code")
    elif Path(name).exists():
        where = f"the folder has no model transformers can load ({first[:200]})"
    elif _is_path(name):
        where = "there is no such folder"
    else:
        where = (f"it is not in the Hugging Face cache (HF_HOME={home}) and the hub cannot "
                 "be reached")
    return (f"cannot load the model {name!r}: {where}. Give a local folder made with "
            f"save_pretrained instead: {option} /path/to/model")


class _Guarded:
    """An Auto class whose `from_pretrained` never runs a model's own code, and refuses an
    encoder with weights the checkpoint lacked: what bert-score's loaders are given."""

    def __init__(self, auto: Any, kind: str, option: str) -> None:
        self.auto, self.kind, self.option = auto, kind, option

    def from_pretrained(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.kind != "AutoModel":
            return self.auto.from_pretrained(name, *args, **{**kwargs, **SAFE})
        model, info = self.auto.from_pretrained(name, *args, output_loading_info=True,
                                                **{**kwargs, **SAFE})
        refuse_fresh_weights(self.kind, name, self.option, info)
        return model


_GUARD = threading.Lock()


@contextlib.contextmanager
def guarded_bert_score(option: str) -> Iterator[None]:
    """bert-score's model and tokenizer loaders (`bert_score.utils`) given `_Guarded`
    Auto classes for the duration (one thread at a time: the module is shared)."""
    import bert_score.utils as loaders

    with _GUARD:
        saved = loaders.AutoModel, loaders.AutoTokenizer
        loaders.AutoModel = _Guarded(saved[0], "AutoModel", option)
        loaders.AutoTokenizer = _Guarded(saved[1], "AutoTokenizer", option)
        try:
            yield
        finally:
            loaders.AutoModel, loaders.AutoTokenizer = saved


@contextlib.contextmanager
def model_errors(label: str) -> Iterator[None]:
    """What torch, transformers or bert-score raise while a metric loads and runs its models
    (a tokenizer without a padding token, a vocabulary without [UNK], a shape that does not
    fit) comes out as one ModelError naming the metric and the cause, never a traceback."""
    from m2lsp.errors import M2lspError

    try:
        yield
    except M2lspError:
        raise
    except Exception as exc:
        raise ModelError(f"{label}: the model cannot score this input: {_first_line(exc)}. "
                         "Is each model the kind this metric needs (see m2lsp score --help)?"
                         ) from None


def finite(label: str, scores: Sequence[float], numbered: bool = True) -> None:
    """A ModelError when a score is not a finite number (a NaN or an infinity, as a
    baseline of 1 or a model's overflow makes): JSON has no such number, and no ranking
    can use one."""
    import math

    bad = next((i for i, v in enumerate(scores) if not math.isfinite(v)), None)
    if bad is not None:
        which = f"sentence {bad + 1}" if numbered else "a sentence"
        raise ModelError(f"{label} gave {which} the score {scores[bad]}, which is not a "
                         "finite number: the model or its settings (a baseline, a "
                         "threshold) do not fit this metric")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0][:300] if text else type(exc).__name__)
