"""Shared test fixtures: where the real public data lives, snapshot files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
UPDATE_SNAPSHOTS = bool(os.environ.get("M2LSP_UPDATE_SNAPSHOTS"))


def shared(relative: str) -> Path:
    """A file of the shared real data; the test is skipped when it is not there."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"real data not available: {path} (set M2LSP_SHARED_DATA)")
    return path


def assert_snapshot(path: Path, actual: str) -> None:
    """Compare with a stored snapshot; M2LSP_UPDATE_SNAPSHOTS=1 rewrites it."""
    if UPDATE_SNAPSHOTS or not path.exists():
        path.write_text(actual, encoding="utf-8")
        if not UPDATE_SNAPSHOTS:
            pytest.fail(f"snapshot {path.name} was missing and has been written; check it")
    assert actual == path.read_text(encoding="utf-8")
