"""Settings from editors: the server's keys apply, the clients' own keys pass silently,
anything else is logged and skipped."""

from __future__ import annotations

import logging

from m2lsp.config import config_from_mapping


def test_client_keys_are_not_server_options(caplog):
    with caplog.at_level(logging.WARNING, logger="m2lsp"):
        config = config_from_mapping({"server": {"command": ["python3"]}, "trace": {},
                                      "maxUnchangedWords": 3, "bogus": 1})
    assert config.score.max_unchanged_words == 3
    assert [r.getMessage() for r in caplog.records] == [
        "settings: unknown m2lsp option 'bogus' ignored"]
