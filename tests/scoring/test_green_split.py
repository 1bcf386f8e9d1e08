"""GREEN counted by several processes gives what one process gives, sentence by sentence;
a part whose process fails is counted by the parent; threads keep it to one process."""

from __future__ import annotations

import os
import random
import threading

import pytest

from m2lsp.scoring.green import split
from m2lsp.scoring.green.ngrams import GreenSettings, evaluate

WORDS = ["a", "b", "c", "d", "e", "the", "of", "to", "in", "is"]


@pytest.fixture
def corpus() -> tuple[list[str], list[list[str]], list[str]]:
    rng = random.Random(7)

    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))

    sources = [sentence() for _ in range(90)]
    return sources, [[sentence(), sentence()] for _ in sources], [sentence() for _ in sources]


@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
@pytest.mark.parametrize("variant", ["authors", "gec-metrics"])
def test_the_parts_add_up_to_the_whole(corpus, monkeypatch, jobs: int, variant: str) -> None:
    monkeypatch.setattr(split, "MIN_PART", 20)
    forks, real = [], os.fork

    def counted() -> int:
        forks.append(1)
        return real()

    monkeypatch.setattr(os, "fork", counted)
    settings = GreenSettings(variant=variant)
    alone = evaluate(*corpus, settings)
    shared = split.evaluate_on(jobs, *corpus, settings)
    assert shared.chosen == alone.chosen and shared.f == alone.f
    assert len(forks) == min(jobs, 90 // 20) - 1  # the parent counts one part itself


def test_a_part_that_fails_is_counted_here(corpus, monkeypatch) -> None:
    monkeypatch.setattr(split, "MIN_PART", 20)
    parent, real = os.getpid(), split._counted

    def failing_elsewhere(start, end, inputs):
        if os.getpid() != parent:
            raise RuntimeError("a worker that dies")
        return real(start, end, inputs)

    monkeypatch.setattr(split, "_counted", failing_elsewhere)
    settings = GreenSettings()
    assert split.evaluate_on(3, *corpus, settings).chosen == evaluate(*corpus,
                                                                      settings).chosen


def test_with_another_thread_it_stays_in_one_process(corpus, monkeypatch) -> None:
    monkeypatch.setattr(split, "MIN_PART", 20)
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked beside a thread"))
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        found = split.evaluate_on(3, *corpus, GreenSettings())
    finally:
        stop.set()
        thread.join()
    assert found.chosen == evaluate(*corpus, GreenSettings()).chosen
