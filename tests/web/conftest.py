"""The web tests hash passwords with argon2id at its lightest settings: the project's own
(argon2-cffi's defaults: 3 passes over 64 MiB on 4 lanes) cost 0.1-2 s a hash, and most
tests make a team of four.  Tests that run `m2lsp web` as a process keep the real settings;
tests/web/test_security.py checks the stored hashes are argon2id either way."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def light_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    argon2 = pytest.importorskip("argon2", reason="argon2-cffi comes with m2lsp[web]")
    from m2lsp.web import accounts

    light = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts, "_hasher", lambda: light)
