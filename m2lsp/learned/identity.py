"""What names a model in a signature and in the cache's keys: its content.

A local folder is identified by a hash of every file that decides what it computes (its
weights, its tokenizer's files, its configuration), never by its path, its shape or its
files' times: editing `tokenizer.json`, or replacing the weights with others of the same size
and putting the old modification time back, gives another identity.  Each file's SHA-256 is
remembered in m2lsp's cache per (path, device, inode, size, ctime, mtime): a large model is
read through once, not at every run, and any write to a file (which always moves its ctime,
whatever is done to its mtime) makes it read again.

A hub model from the local Hugging Face cache is identified by its commit: the hub's files
are named by their content's hash, so the commit fixes every byte."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

# the files of a model folder that decide its numbers (what `from_pretrained` of a model and
# its tokenizer reads); checkpoints of a training run beside them (optimizer.pt, runs/) are not
DECIDING = frozenset({".json", ".safetensors", ".bin", ".txt", ".model", ".tiktoken"})


def revision(config: Any, name: str) -> str:
    """12 hex digits naming the model's content: a folder's `folder_digest`; a hub model's
    commit (or, where the cache does not say, a hash of its configuration's fields)."""
    if Path(name).is_dir():
        return folder_digest(Path(name))[:12]
    commit = getattr(config, "_commit_hash", None)
    if isinstance(commit, str) and commit:
        return commit[:12]
    import json

    fields = {k: v for k, v in config.to_dict().items()
              if not k.startswith("_") and k != "transformers_version"}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode(
        "utf-8")).hexdigest()[:12]


def folder_digest(folder: Path) -> str:
    """The SHA-256 of the deciding files' names and contents, in name order."""
    digest = hashlib.sha256(b"m2lsp-model-folder-1\0")
    for path in sorted(p for p in folder.iterdir() if deciding(p)):
        digest.update(path.name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(file_digest(path).encode("ascii") + b"\0")
    return digest.hexdigest()


def deciding(path: Path) -> bool:
    return path.suffix in DECIDING and path.is_file()


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, remembered in the cache under its stat (see the
    module's docstring); with no cache, read each time."""
    from m2lsp.annotation.parse_cache import ParseCache, default_cache

    stat = path.stat()
    key = ParseCache.key("file-sha256", "\0".join(map(str, (
        path.resolve(), stat.st_dev, stat.st_ino, stat.st_size, stat.st_ctime_ns,
        stat.st_mtime_ns))))
    cache = default_cache()
    try:
        known = cache.get([key]).get(key)
        if known is not None and len(known) == 64:
            return known.decode("ascii", "replace")
        with path.open("rb") as file:
            found = hashlib.file_digest(file, "sha256").hexdigest()
        cache.put([(key, found.encode("ascii"))])
        return found
    finally:
        cache.close()
