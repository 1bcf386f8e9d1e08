"""One more decision on a curation (`state.then`, what `m2lsp curate` does for each decision
it makes) gives what replaying the whole log with it gives (`state.curation`)."""

from __future__ import annotations

import pytest

from m2lsp.curation.keys import sentence_keys
from m2lsp.curation.record import Decision
from m2lsp.curation.state import curation, then
from m2lsp.parsing.m2 import parse_m2

# two annotators: sentence 1 agreed (auto-merged), 2 agreed on nothing, 3 and 4 differ,
# 5 written by annotator 0 alone
MERGED = """\
S He go to school .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1

S We need more time .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S She arrive at Monday .
A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0
A 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||1

S need more time .
A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||0
A 0 0|||M:PRON|||We|||REQUIRED|||-NONE-|||1

S It rain .
A 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||0
"""
DOCUMENT = parse_m2(MERGED)
KEYS = sentence_keys(b for b in DOCUMENT.blocks if b.sentence is not None)


def decision(action: str, number: int | None = None, **more: object) -> Decision:
    sentence = None if number is None else KEYS[number - 1]
    return Decision(action, "t", "2026-01-01T00:00:00Z", sentence, **more)  # type: ignore[arg-type]


LOGS = {
    "start": [decision("start", inputs=("a", "b"))],
    "accept then reject": [decision("accept", 3, edit="2 3|||R:PREP|||on", source="0"),
                           decision("reject", 3, edit="1 2|||R:VERB:SVA|||arrives")],
    "competing edits": [decision("accept", 4, edit="0 0|||M:PRON|||we", source="0"),
                        decision("accept", 4, edit="0 0|||M:PRON|||We", source="1"),
                        decision("done", 4)],
    "edit an auto-merged sentence": [decision("edit", 1, edit="3 4|||R:NOUN|||schools"),
                                     decision("reopen", 1)],
    "take, recorded and not": [decision("take", 3, source="0"),
                               decision("take", 5, source="0",
                                        taken=("1 2|||R:VERB:SVA|||rains",))],
    "correct, done, reopen": [decision("correct", 2), decision("done", 2),
                              decision("reopen", 2), decision("done", 3)],
    "a sentence the inputs lost": [Decision("done", "t", "2026-01-01T00:00:00Z", "s0ld")],
}


@pytest.mark.parametrize("held", [frozenset(), frozenset(KEYS[:1])], ids=["", "held"])
@pytest.mark.parametrize("log", list(LOGS), ids=list(LOGS))
def test_one_more_decision_is_the_log_replayed(log: str, held: frozenset[str]) -> None:
    decisions = LOGS[log]
    found = curation(DOCUMENT, (), held)
    for k, made in enumerate(decisions, 1):
        found = then(found, made, held)
        assert found == curation(DOCUMENT, decisions[:k], held), (log, k)
