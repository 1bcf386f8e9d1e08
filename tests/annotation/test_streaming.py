"""`m2lsp annotate` at corpus scale: pairs as TSV or JSONL, errors before any output, and
a run killed part-way that, started again, resumes from its shards and writes the file an
uninterrupted run writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from m2lsp.annotation.shards import SHARD_ROWS
from m2lsp.cli.progress import Rate
from tests.annotation.conftest import m2lsp, spacy_model
from tests.conftest import ROOT, shared

LINES = 300  # CoNLL-2014 source lines the tests annotate


@pytest.fixture(scope="module")
def conll(tmp_path_factory) -> dict:
    """The first LINES source lines, AMU's and CAMB's corrections of them, and what
    `annotate --orig --cor` writes for them (byte-identical to errant_parallel: see
    test_errant_parallel)."""
    model = spacy_model()
    gold = shared("conll2014/gold/official-2014.combined.m2")
    where = tmp_path_factory.mktemp("streaming")
    sources = [line[2:] for line in gold.read_text("utf-8").splitlines() if line[:2] == "S "]
    columns = [shared(f"conll2014/systems/{n}").read_text("utf-8").splitlines()
               for n in ("AMU", "CAMB")]
    rows = list(zip(sources, *columns, strict=True))[:LINES]
    paths = [where / name for name in ("source.txt", "amu.txt", "camb.txt")]
    for k, path in enumerate(paths):
        path.write_text("".join(row[k] + "\n" for row in rows), encoding="utf-8")
    env = {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache")}
    done = m2lsp("annotate", "--orig", str(paths[0]), "--cor", *map(str, paths[1:]), "-o",
                 str(where / "expected.m2"), "--spacy-model", model, env=env)
    assert done.returncode == 0, done.stderr
    return {"model": model, "rows": rows, "paths": paths, "where": where, "env": env,
            "expected": (where / "expected.m2").read_text("utf-8")}


@pytest.mark.parametrize("form", ["tsv", "jsonl-list", "jsonl-one", "tsv-stdout"])
def test_pairs(conll, form) -> None:
    where, rows = conll["where"], conll["rows"]
    if form.startswith("tsv"):
        pairs = where / "pairs.tsv"
        pairs.write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    else:
        pairs = where / f"{form}.jsonl"
        records = ([{"source": s, "corrections": [a, c]} for s, a, c in rows]
                   if form == "jsonl-list"
                   else [{"source": s, "correction": a} for s, a, _ in rows])
        pairs.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = where / f"{form}.m2"
    args = ["annotate", "--pairs", str(pairs), "--spacy-model", conll["model"], "--jobs", "1"]
    done = m2lsp(*args, *([] if form == "tsv-stdout" else ["-o", str(out)]), env=conll["env"])
    assert done.returncode == 0, done.stderr
    got = done.stdout if form == "tsv-stdout" else out.read_text("utf-8")
    if form == "jsonl-one":  # annotator 0 only: AMU's lines of each block
        expected = "".join(block + "\n" for block in _blocks(conll["expected"], keep="0"))
    else:
        expected = conll["expected"]
    assert got == expected
    assert not list(where.glob(".*.m2lsp-parts"))


def _blocks(text: str, keep: str) -> list[str]:
    blocks = []
    for block in text.split("\n\n"):
        if block.strip():
            lines = block.split("\n")
            blocks.append("\n".join([lines[0], *(a for a in lines[1:]
                                                  if a.rsplit("|||", 1)[1] == keep)]) + "\n")
    return blocks


@pytest.mark.parametrize(("content", "message"), [
    ("a b\tc d\nno tab here\n", "pairs.tsv:2: no tab"),
    ('{"source": "a"}\n', "pairs.jsonl:1: \"corrections\" must be"),
    ('{"source": "a", "corrections": ["b"]}\n[1]\n', "pairs.jsonl:2: a JSONL pair is an object"),
    ("{oops\n", "pairs.jsonl:1: not JSON"),
    ("\t\n\t\n", "has no sentence"),
])
def test_bad_pairs(tmp_path, content, message) -> None:
    spacy_model()
    name = "pairs.tsv" if "tsv" in message or "\t" in content else "pairs.jsonl"
    pairs = tmp_path / name
    pairs.write_text(content, encoding="utf-8")
    done = m2lsp("annotate", "--pairs", str(pairs), "-o", str(tmp_path / "out.m2"))
    assert done.returncode == 2
    assert message in done.stderr
    assert not (tmp_path / "out.m2").exists()


def test_uneven_files_fail_before_output(conll, tmp_path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("".join(row[1] + "\n" for row in conll["rows"][:-1]), encoding="utf-8")
    done = m2lsp("annotate", "--orig", str(conll["paths"][0]), "--cor", str(short),
                 "--spacy-model", conll["model"], env=conll["env"])
    assert done.returncode == 2
    assert done.stdout == ""
    assert f"line {LINES} of {conll['paths'][0]} has no counterpart" in done.stderr


def test_killed_run_resumes(conll, tmp_path) -> None:
    """Two shards of rows: the first the CoNLL lines again and again (from the cache, so
    the test is quick), the second ends with new lines (parsed: the run is killed then,
    once its first shard is written); started again it says it resumes, and its file is
    the one an uninterrupted run writes."""
    copies = SHARD_ROWS // LINES + 1
    gold = shared("conll2014/gold/official-2014.combined.m2")
    sources = [line[2:] for line in gold.read_text("utf-8").splitlines() if line[:2] == "S "]
    fresh = sources[LINES:2 * LINES]
    paths = []
    for path in conll["paths"]:
        paths.append(tmp_path / path.name)
        paths[-1].write_text(path.read_text("utf-8") * copies + "".join(
            f"{line}\n" for line in fresh), encoding="utf-8")
    out = tmp_path / "out.m2"
    argv = [sys.executable, "-m", "m2lsp", "annotate", "--orig", str(paths[0]), "--cor",
            *map(str, paths[1:]), "--spacy-model", conll["model"], "--jobs", "1"]
    parts = tmp_path / ".out.m2.m2lsp-parts"
    run = subprocess.Popen([*argv, "-o", str(out)], cwd=ROOT, env=conll["env"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while not (parts / "00000000.m2").exists() and run.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert not out.exists() and (parts / "manifest.json").exists()
    again = subprocess.run([*argv, "-o", str(out)], cwd=ROOT, env=conll["env"],
                           capture_output=True, text=True, timeout=1800)
    assert again.returncode == 0, again.stderr
    assert "resuming: 1 of 2 shards" in again.stderr
    assert not parts.exists()
    whole = subprocess.run(argv, cwd=ROOT, env=conll["env"], capture_output=True,
                           text=True, timeout=1800)
    assert whole.returncode == 0, whole.stderr
    assert out.read_text("utf-8") == whole.stdout
    assert whole.stdout.startswith(conll["expected"] * copies)


def test_changed_input_starts_over(conll, tmp_path) -> None:
    """Parts left by a run of other inputs are not used."""
    source, *corrected = conll["paths"]
    out = tmp_path / "out.m2"
    parts = tmp_path / ".out.m2.m2lsp-parts"
    parts.mkdir()
    (parts / "manifest.json").write_text("{}", encoding="utf-8")
    (parts / "00000000.m2").write_text("S stale\n\n", encoding="utf-8")
    done = m2lsp("annotate", "--orig", str(source), "--cor", *map(str, corrected), "-o",
                 str(out), "--spacy-model", conll["model"], env=conll["env"])
    assert done.returncode == 0, done.stderr
    assert "resuming" not in done.stderr
    assert out.read_text("utf-8") == conll["expected"]


@pytest.mark.parametrize(("done", "spent", "start", "expected"), [
    (1, 0.0, 0, "m2lsp: line 1 of 100,000"),
    (5000, 10.0, 0, "m2lsp: line 5,000 of 100,000, 500 lines/s, 3 min 10 s left"),
    (60000, 10.0, 50000, "m2lsp: line 60,000 of 100,000, 1,000 lines/s, 40 s left"),
    (100, 1.0, 0, "m2lsp: line 100 of 4,000,000, 100 lines/s, 11 h 6 min left"),
])
def test_rate_message(done, spent, start, expected) -> None:
    assert Rate(100_000 if "4,000" not in expected else 4_000_000,
                start=start).message(done, spent) == expected


def test_rate_prints_after_a_while(tmp_path) -> None:
    class Stream:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            return None

    stream = Stream()
    with Rate(10, stream=stream, after=0.0) as tick:  # type: ignore[arg-type]
        tick.at(4)
    assert stream.text.startswith("m2lsp: line 5 of 10")
    quiet = Stream()
    with Rate(10, stream=quiet, after=60.0) as tick:  # type: ignore[arg-type]
        tick.at(4)
    assert quiet.text == ""


def _children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return set()
    return {int(child) for child in text.split()}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_workers_end_with_a_killed_command(conll, tmp_path) -> None:
    """`--jobs 2` killed: its workers, which would wait for work forever, end too."""
    source, *corrected = conll["paths"]
    env = {**conll["env"], "M2LSP_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.Popen([sys.executable, "-m", "m2lsp", "annotate", "--orig", str(source),
                            "--cor", *map(str, corrected), "-o", str(tmp_path / "out.m2"),
                            "--spacy-model", conll["model"], "--jobs", "2"],
                           cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while len(workers := _children(run.pid)) < 2:
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived the killed command"
        time.sleep(0.1)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300), form=st.sampled_from(["tsv", "jsonl"]))
def test_any_bytes_as_pairs_read_or_say_why(tmp_path, data, form) -> None:
    """Any bytes in a pairs file: rows, or an error naming the problem (never another
    exception)."""
    from m2lsp.annotation.rows import PairRows, check
    from m2lsp.errors import M2lspError

    path = tmp_path / f"pairs.{form}"
    path.write_bytes(data)
    try:
        rows = list(PairRows(path, form).rows())
        check(PairRows(path, form))
    except M2lspError as exc:
        assert str(exc)
        return
    assert all(isinstance(s, str) and c and all(isinstance(x, str) for x in c) for s, c in rows)


def test_deeply_nested_json_is_an_error(tmp_path) -> None:
    from m2lsp.annotation.rows import PairRows
    from m2lsp.errors import InputError

    path = tmp_path / "pairs.jsonl"
    path.write_text("[" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"pairs\.jsonl:1: not JSON \(nested too deeply"):
        list(PairRows(path, "jsonl").rows())


def test_a_pair_too_long_to_align_says_so(conll, tmp_path) -> None:
    """A 6,000-token line against another: an error naming it, not gigabytes of table."""
    words = " ".join(f"w{k}" for k in range(6000))
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(f"{words}\t{words.replace('w1 ', 'x1 ')}\n", encoding="utf-8")
    done = m2lsp("annotate", "--pairs", str(pairs), "--spacy-model", conll["model"],
                 env={**conll["env"], "M2LSP_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2
    assert "a sentence of 6,000 tokens and its correction of 6,000 are too long" in done.stderr
