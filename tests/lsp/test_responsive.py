"""No document blocks the server: a whole pass of the rules over a large CGED document runs
in the linting thread, and requests are answered meanwhile; a pass has a time budget, past
which the rules not begun are skipped and named (the same on the command line's `lint`)."""

from __future__ import annotations

import random
import time

import pytest

from m2lsp.linting.incremental import LiveDocument
from m2lsp.linting.run import lint
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText
from tests.lsp.raw import RawClient
from tests.rules.test_linear import cged_one_doc

BIG = "file:///work/big.sgml"


@pytest.mark.slow
def test_requests_are_answered_while_a_large_document_is_linted() -> None:
    text = cged_one_doc(20_000, random.Random(7))  # 1.3 MB, one <DOC> of 20,000 errors
    client = RawClient()
    try:
        client.initialize()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": BIG, "languageId": "gec-cged", "version": 1, "text": text}})
        client.request(1, "m2lsp/serverStats")
        stats = client.answer(1, timeout=60)["result"]
        assert stats["documents"] == 1
        published = [n for n in client.notifications
                     if n["method"] == "textDocument/publishDiagnostics"
                     and n["params"]["uri"] == BIG]
        assert not published  # answered before the pass of the rules ended
        deadline, asked = time.monotonic() + 120, 1
        while not published and time.monotonic() < deadline:
            asked += 1
            client.request(asked, "m2lsp/serverStats")
            client.answer(asked, timeout=60)
            time.sleep(0.05)
            published = [n for n in client.notifications
                         if n["method"] == "textDocument/publishDiagnostics"
                         and n["params"]["uri"] == BIG]
        found = published[-1]["params"]["diagnostics"]
        assert any(d.get("code") == "C009" for d in found)
    finally:
        client.close()


def test_a_pass_past_its_deadline_names_the_rules_it_skipped() -> None:
    text = cged_one_doc(200, random.Random(3))
    whole = lint(SourceText(text), Format.CGED)
    late = lint(SourceText(text), Format.CGED, deadline=time.monotonic() - 1)
    assert whole.unchecked == () and whole.diagnostics
    assert "C009" in late.unchecked and late.diagnostics == ()
    live = LiveDocument(text, Format.CGED, budget=0.0)
    generation, run = live.pending()
    assert live.adopt(generation, run()) and "C009" in live.unchecked
    live.apply([])
    assert not live.adopt(generation, run())  # the document changed meanwhile
