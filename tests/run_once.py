"""What a test run makes once, however many xdist workers need it: a folder (models the
tests make, a built client) and a reference tool's output.  The first worker to need one
makes it under a file lock while the others wait, then all read the same copy (each worker
made its own before: the same minute of CPU twice on two cores).

- `shared_folder`: in the run's own temporary folder (the workers' common parent), so
  nothing outlives the run;
- `reference_output`: a reference tool's JSON, kept in pytest's cache folder under a key of
  everything it read (its scripts, its input files, the versions of the packages that
  compute it), so a later run with the same inputs reads it and one with other inputs runs
  the tool again (`--cache-clear`, or `-p no:cacheprovider`, runs it afresh)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

import pytest
from filelock import FileLock


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder all of this run's workers share (a worker's own is inside)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str,
                  make: Callable[[Path], None]) -> Path:
    """The folder `name`, filled by `make` once for the run; a `make` that failed (or was
    interrupted) leaves no mark, so the next worker to come tries again."""
    folder = run_folder(tmp_path_factory) / f"once-{name}"
    done = folder / ".done"
    with FileLock(f"{folder}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            make(folder)
            done.touch()
    return folder


def content_key(files: Iterable[Path], packages: Iterable[str]) -> str:
    """A digest of the files' names and bytes (folders: every file inside, links followed)
    and of the installed packages' versions."""
    digest = hashlib.sha256()
    for path in files:
        inside = sorted(Path(top, name) for top, _, names in os.walk(path, followlinks=True)
                        for name in names) if path.is_dir() else [path]
        for file in inside:
            digest.update(f"{file.relative_to(path.parent)}\0".encode())
            digest.update(file.read_bytes())
    for name in packages:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "absent"
        digest.update(f"{name}=={version}\0".encode())
    return digest.hexdigest()[:32]


def reference_output(request: pytest.FixtureRequest, name: str, key: str,
                     compute: Callable[[], dict]) -> dict:
    """`compute()`'s JSON for this `key`: from pytest's cache when a run computed it with
    the same inputs, else computed now, once for all the run's workers."""
    cache = getattr(request.config, "cache", None)
    if cache is None:  # -p no:cacheprovider: the run's own folder
        tmp_path_factory = request.getfixturevalue("tmp_path_factory")
        folder = run_folder(tmp_path_factory) / "references"
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(cache.mkdir("m2lsp-references"))
    stored = folder / f"{name}-{key}.json"
    with FileLock(f"{stored}.lock"):
        if not stored.exists():
            found = compute()
            partial = stored.with_suffix(".part")
            partial.write_text(json.dumps(found), encoding="utf-8")
            partial.replace(stored)
    return json.loads(stored.read_text(encoding="utf-8"))
