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
import uuid
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_killed_run_resumes(conll, tmp_path) -> None:
    """Two shards of rows: the first the CoNLL lines again and again (from the cache, so
    the test is quick), the second ends with new lines (parsed: the run is killed then,
    once its first shard is written); started again it says it resumes, and its file is
    the one an uninterrupted run writes."""
    copies = SHARD_ROWS // LINES + 1
    gold = shared("conll2014/gold/official-2014.combined.m2")
    sources = [line[2:] for line in gold.read_text("utf-8").splitlines() if line[:2] == "S "]
    marker = f"z{uuid.uuid4().hex[:8]}"  # never in any cache: the second shard is parsed
    fresh = [f"{line} {marker}" for line in sources[LINES:2 * LINES]]
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
    # a shard is written once its sum is (the shard's file comes first): kill after that
    while not (parts / "00000000.sum").exists() and run.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    assert run.wait() == -signal.SIGKILL, "the run ended before it could be killed"
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


@pytest.mark.slow
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
    assert run.wait() == -signal.SIGKILL, "the run ended before it could be killed"
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


@pytest.fixture
def stopped(conll, tmp_path, monkeypatch) -> dict:
    """A run of two shards (the CoNLL rows again and again: from the cache) stopped after
    writing both and before joining them (its join interrupted), and the file the
    uninterrupted run writes."""
    from m2lsp.annotation import shards
    from m2lsp.cli import main

    copies = SHARD_ROWS // LINES + 1
    paths = []
    for path in conll["paths"]:
        paths.append(tmp_path / path.name)
        paths[-1].write_text(path.read_text("utf-8") * copies, encoding="utf-8")
    monkeypatch.setenv("M2LSP_CACHE_DIR", conll["env"]["M2LSP_CACHE_DIR"])
    argv = ["annotate", "--orig", str(paths[0]), "--cor", *map(str, paths[1:]),
            "--spacy-model", conll["model"], "--jobs", "1", "-o", str(tmp_path / "out.m2")]

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(shards.Parts, "join", interrupted)
        assert main(argv) != 0
    parts = tmp_path / ".out.m2.m2lsp-parts"
    assert sorted(p.name for p in parts.iterdir()) == [
        "00000000.m2", "00000000.sum", "00000001.m2", "00000001.sum", "manifest.json"]
    return {"argv": argv, "parts": parts, "out": tmp_path / "out.m2", "paths": paths,
            "expected": conll["expected"] * copies}


def _damage_first(parts: Path, how: str) -> None:
    shard = parts / "00000000.m2"
    data = shard.read_bytes()
    if how == "emptied":
        shard.write_bytes(b"")
    elif how == "truncated":
        shard.write_bytes(data[:len(data) // 2])
    elif how == "overwritten":  # 10 bytes in the middle, the size kept
        middle = len(data) // 2
        shard.write_bytes(data[:middle] + b"X" * 10 + data[middle + 10:])
    elif how == "deleted":
        shard.unlink()
    elif how == "sum lost":
        (parts / "00000000.sum").unlink()


@pytest.mark.parametrize(("how", "said"), [
    ("emptied", "resuming: 1 of 2 shards were written by a run that stopped"),
    ("truncated", "resuming: 1 of 2 shards were written by a run that stopped"),
    ("overwritten", "resuming: 1 of 2 shards were written by a run that stopped"),
    ("deleted", "resuming: 1 of 2 shards were written by a run that stopped"),
    ("sum lost", "resuming: 1 of 2 shards were written by a run that stopped"),
])
def test_a_damaged_shard_is_redone(stopped, capsys, how, said) -> None:
    """An emptied, cut or overwritten shard is found by its digest and redone (it was
    joined as it was, exit 0: 5,088 sentences of 9,184); a deleted one, or one whose sum
    was never written, is redone as unfinished."""
    from m2lsp.cli import main

    _damage_first(stopped["parts"], how)
    capsys.readouterr()
    assert main(stopped["argv"]) == 0
    err = capsys.readouterr().err
    assert said in err
    damaged = how in ("emptied", "truncated", "overwritten")
    assert ("; 1 damaged, redone" in err) == damaged
    assert stopped["out"].read_text("utf-8") == stopped["expected"]
    assert not stopped["parts"].exists()


def test_a_same_size_edit_with_its_time_restored_starts_over(stopped, capsys) -> None:
    """The manifest knows the inputs by what they say: an edit that keeps the size and
    the modification time (as `touch -r`, `cp -p`, `rsync -t` and `tar x` leave it) is
    another input, and no shard of the old one is used."""
    from m2lsp.cli import main

    source = stopped["paths"][0]
    before = source.stat()
    text = source.read_text("utf-8")
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if " the " in line)
    lines[index] = lines[index].replace(" the ", " THE ", 1)
    source.write_text("\n".join(lines), encoding="utf-8")
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert source.stat().st_size == before.st_size
    assert source.stat().st_mtime_ns == before.st_mtime_ns
    capsys.readouterr()
    assert main(stopped["argv"]) == 0
    assert "resuming" not in capsys.readouterr().err
    out = stopped["out"].read_text("utf-8")
    assert f"S {lines[index]}\n" in out and out != stopped["expected"]


def _limited(gigabytes: float):
    import resource

    def limit() -> None:
        size = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return limit


@pytest.mark.parametrize("form", ["pairs", "files", "files -tok"])
def test_a_million_token_pair_is_refused_before_any_parse(conll, tmp_path, form) -> None:
    """A pair of 1M tokens each ran 223 s at 15.9 GB, then failed "too long to align": the
    bound is now checked on the text, before spaCy is even loaded, and the command ends
    within 1 GB of address space."""
    words = " ".join(f"w{k}" for k in range(1_000_000))
    other = words.replace("w1 ", "x1 ", 1)
    if form == "pairs":
        (tmp_path / "pairs.tsv").write_text(f"{words}\t{other}\n", encoding="utf-8")
        args = ["--pairs", str(tmp_path / "pairs.tsv")]
    else:
        (tmp_path / "orig.txt").write_text(words + "\n", encoding="utf-8")
        (tmp_path / "cor.txt").write_text(other + "\n", encoding="utf-8")
        args = ["--orig", str(tmp_path / "orig.txt"), "--cor", str(tmp_path / "cor.txt"),
                *(["--tok"] if "tok" in form else [])]
    done = subprocess.run([sys.executable, "-m", "m2lsp", "annotate", *args, "--spacy-model",
                           conll["model"], "-o", str(tmp_path / "out.m2")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={**conll["env"], "M2LSP_CACHE_DIR": str(tmp_path / "cache")},
                          preexec_fn=_limited(1.0))
    assert done.returncode == 2, done.stderr
    assert "is longer than the 50,000 tokens a side may have" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out.m2").exists()


def test_the_bound_is_kept_where_text_is_annotated_without_the_command(conll) -> None:
    """The same bound in the annotator (score --metric errant on plain text, the editor,
    the API): refused before its chunk is parsed."""
    from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings
    from m2lsp.errors import InputError

    annotator = EnglishAnnotator(EnglishSettings(model=conll["model"]))
    words = " ".join(f"w{k}" for k in range(60_000))
    with pytest.raises(InputError, match="a sentence of 60,000 tokens is longer than"):
        annotator.blocks([("a b", ["a c"]), (words, ["x"])])
    assert annotator._loaded is None  # nothing was parsed, not even the first row
