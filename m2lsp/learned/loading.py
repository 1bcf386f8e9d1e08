"""Loading a learned metric's model and tokenizer: a Hugging Face hub id (from the local
cache: these commands never download unless the hub is reachable) or a local folder made
with `save_pretrained`.  Whatever goes wrong comes out as one `ModelError` that names the
model, HF_HOME and how to give a folder instead, never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
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
    signature: the id as given and its revision (the hub's commit, else a hash of its
    config)."""

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
    except ImportError as missing:
        raise UsageError(f"learned metrics need torch and transformers ({missing.name} is "
                         f"not installed): {EXTRA}") from None
    transformers.logging.set_verbosity_error()  # no notes on stderr: warnings are ours
    transformers.logging.disable_progress_bar()
    return torch, transformers


def device(no_cuda: bool) -> str:
    """CUDA when it is there and not refused, else the CPU."""
    torch, _ = torch_modules()
    return "cpu" if no_cuda or not torch.cuda.is_available() else "cuda"


def load(kind: str, name: str, on: str, option: str) -> Loaded:
    """The model `name` as transformers' Auto class `kind` (`AutoModel`,
    `AutoModelForSequenceClassification`, `AutoModelForCausalLM`) with its tokenizer, on
    device `on`; `option` is the flag that names it (for the error).  A folder, or the
    local Hugging Face cache, first; the hub only when its host answers (no retries for
    half a minute on a machine without network)."""
    _, transformers = torch_modules()
    known = _LOADED.get((kind, name, on))
    if known is not None:
        return known
    found = _found(transformers, kind, name, on, option)
    if len(_LOADED) >= 8:  # a handful of models stay loaded (a training loop, a report)
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[(kind, name, on)] = found
    return found


_LOADED: dict[tuple[str, str, str], Loaded] = {}


def _found(transformers: Any, kind: str, name: str, on: str, option: str) -> Loaded:
    try:
        return _loaded(transformers, kind, name, on, local_only=True)
    except Exception as local:  # OSError, ValueError, HF's own: all "cannot load"
        if _is_path(name) or not hub_reachable():
            raise ModelError(unavailable(name, option, local)) from None
    try:
        return _loaded(transformers, kind, name, on, local_only=False)
    except Exception as remote:
        raise ModelError(unavailable(name, option, remote)) from None


def available(name: str, option: str) -> Any:
    """The model's config, from a folder or the local cache, else from the hub when it
    answers: a ModelError says why the model cannot be had."""
    _, transformers = torch_modules()
    try:
        return transformers.AutoConfig.from_pretrained(name, local_files_only=True)
    except Exception as local:
        if _is_path(name) or not hub_reachable():
            raise ModelError(unavailable(name, option, local)) from None
    try:
        return transformers.AutoConfig.from_pretrained(name)
    except Exception as remote:
        raise ModelError(unavailable(name, option, remote)) from None


def _loaded(transformers: Any, kind: str, name: str, on: str, local_only: bool) -> Loaded:
    model = getattr(transformers, kind).from_pretrained(name, local_files_only=local_only)
    tokenizer = transformers.AutoTokenizer.from_pretrained(name, local_files_only=local_only)
    model.eval()
    model.to(on)
    return Loaded(model, tokenizer, name, revision(model.config, name))


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


def unavailable(name: str, option: str, exc: BaseException) -> str:
    home = os.environ.get("HF_HOME") or str(Path.home() / ".cache" / "huggingface")
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if Path(name).exists():
        where = f"the folder has no model transformers can load ({first[:200]})"
    elif _is_path(name):
        where = "there is no such folder"
    else:
        where = (f"it is not in the Hugging Face cache (HF_HOME={home}) and the hub cannot "
                 "be reached")
    return (f"cannot load the model {name!r}: {where}. Give a local folder made with "
            f"save_pretrained instead: {option} /path/to/model")


def revision(config: Any, name: str) -> str:
    """The hub commit the model came from; for a local folder, the first 12 hex digits of
    the SHA-256 of its config's fields and its weight files (so two folders of the same
    shape and other weights never share a signature or cached scores)."""
    commit = getattr(config, "_commit_hash", None)
    if isinstance(commit, str) and commit and not Path(name).is_dir():
        return commit[:12]
    fields = {k: v for k, v in config.to_dict().items()
              if not k.startswith("_") and k != "transformers_version"}
    digest = hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode("utf-8"))
    if Path(name).is_dir():
        for weights in sorted(Path(name).glob("*.safetensors")) + sorted(
                Path(name).glob("*.bin")):
            digest.update(weights_digest(weights).encode("ascii"))
    return digest.hexdigest()[:12]


def weights_digest(path: Path) -> str:
    """The SHA-256 of a weight file, remembered per (path, size, modification time) in the
    cache: a large model is read through once, not at every run."""
    from m2lsp.annotation.parse_cache import ParseCache, default_cache

    stat = path.stat()
    key = ParseCache.key("weights-sha256", f"{path.resolve()}\0{stat.st_size}\0"
                                           f"{stat.st_mtime_ns}")
    cache = default_cache()
    try:
        known = cache.get([key]).get(key)
        if known is not None:
            return known.decode("ascii", "replace")
        with path.open("rb") as file:
            found = hashlib.file_digest(file, "sha256").hexdigest()
        cache.put([(key, found.encode("ascii"))])
        return found
    finally:
        cache.close()
