"""GREEN counted by several processes gives what one process gives, sentence by sentence;
a part whose process fails is counted by the parent; threads keep it to one process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading

import pytest

from m2lsp.scoring.green import split
from m2lsp.scoring.green.ngrams import GreenSettings, evaluate
from tests.conftest import ROOT

WORDS = ["a", "b", "c", "d", "e", "the", "of", "to", "in", "is"]


@pytest.fixture
def corpus() -> tuple[list[str], list[list[str]], list[str]]:
    rng = random.Random(7)

    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))

    sources = [sentence() for _ in range(90)]
    return sources, [[sentence(), sentence()] for _ in sources], [sentence() for _ in sources]


# Run in a process of its own: this test process may hold threads other tests left
# running, and beside a thread GREEN rightly counts in one process.
IN_A_FRESH_PROCESS = """
import json, os, random, sys
from m2lsp.scoring.green import split
from m2lsp.scoring.green.ngrams import GreenSettings, evaluate
from tests.conftest import ROOT
corpus = json.loads(sys.argv[1])
split.MIN_PART = 20
forks, real = [], os.fork
def counted():
    forks.append(1)
    return real()
os.fork = counted
found = []
for variant in ("authors", "gec-metrics"):
    for jobs in (1, 2, 3, 8):
        forks.clear()
        settings = GreenSettings(variant=variant)
        alone, shared = evaluate(*corpus, settings), split.evaluate_on(jobs, *corpus, settings)
        found.append([variant, jobs, shared.chosen == alone.chosen and shared.f == alone.f,
                      len(forks)])
print(json.dumps(found))
"""


def test_the_parts_add_up_to_the_whole(corpus) -> None:
    done = subprocess.run([sys.executable, "-c", IN_A_FRESH_PROCESS, json.dumps(corpus)],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    for variant, jobs, same, forks in json.loads(done.stdout):
        assert same, (variant, jobs)
        assert forks == min(jobs, 90 // 20) - 1, (variant, jobs)  # the parent counts one


def test_a_part_that_fails_is_counted_here(corpus, monkeypatch) -> None:
    """(Forked here even beside threads other tests left: the copies only raise.)"""
    monkeypatch.setattr(split, "MIN_PART", 20)
    monkeypatch.setattr(split.threading, "active_count", lambda: 1)
    parent, real, forks, fork = os.getpid(), split._counted, [], os.fork

    def failing_elsewhere(start, end, inputs):
        if os.getpid() != parent:
            raise RuntimeError("a worker that dies")
        return real(start, end, inputs)

    def counted() -> int:
        forks.append(1)
        return fork()

    monkeypatch.setattr(split, "_counted", failing_elsewhere)
    monkeypatch.setattr(os, "fork", counted)
    settings = GreenSettings()
    assert split.evaluate_on(3, *corpus, settings).chosen == evaluate(*corpus,
                                                                      settings).chosen
    assert len(forks) == 2


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
