"""LLM-S and LLM-E (Kobayashi et al. 2024) against gec-metrics 0.1.2's LLMKobayashi24, and
the whole path with a model the tests make.

- **Prompts and scores.** On SEEDA's twelve base systems, gec-metrics' own class builds
  every prompt and asks a stand-in client (a rating drawn from the prompt's MD5), which
  writes gec-metrics' JSONL cache.  m2lsp, given that file, finds a reply for every prompt
  it builds (the same MD5 keys: byte-identical prompts) and asks nothing; its pairwise
  tables are gec-metrics' `score_pairwise`, and its TrueSkill and Expected Wins rankings
  are gec-metrics' `rank_systems`.
- **A real model.** A small GPT-2 made in the tests judges: generation, the cache (a second
  run loads no model), the scores, meta-eval.
- **An endpoint.** A local HTTP server stands in for an OpenAI-compatible API.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

import m2lsp
from m2lsp.cli import main
from m2lsp.learned import llm_judge
from m2lsp.metaeval.rating import expected_wins, pairwise, trueskill
from tests.conftest import shared

pytestmark = pytest.mark.usefixtures("neural")
BASE = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "LM-Critic", "PIE", "REF-M",
        "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]


def read_lines(path: Path) -> list[str]:
    """As gec-metrics reads a file (meta_eval/utils.py)."""
    return path.read_text(encoding="utf-8").rstrip().split("\n")


def stand_in(instruction: str, size: int) -> dict:
    rng = random.Random(hashlib.md5(instruction.encode()).hexdigest())
    scores = {f"target_score{k + 1}": rng.randint(1, 5) for k in range(size)}
    return {"choices": [{"message": {"content": json.dumps(scores)}}]}


@pytest.fixture(scope="module")
def seeda() -> tuple[Path, list[str], list[list[str]]]:
    folder = shared("meta-eval/seeda/outputs/subset")
    return (folder, read_lines(folder / "INPUT.txt"),
            [read_lines(folder / f"{s}.txt") for s in BASE])


def theirs(gec_metrics, kind: str, cache: Path, sources, hypotheses):
    """gec-metrics' LLM metric of `kind` with the stand-in client: its tables and its
    rankings (the cache file is written as a side effect)."""
    metric = stand_in_metric(kind, cache)
    tables = metric.score_pairwise(sources, hypotheses)
    return tables, {a: metric.rank_systems(sources, hypotheses, aggregation=a)
                    for a in ("trueskill", "expected_wins")}


def stand_in_metric(kind: str, cache: Path):
    """gec-metrics' LLM metric of `kind`, its client the stand-in."""
    from gec_metrics.metrics import llm_kobayashi24 as module

    base = module.LLMKobayashi24HFSent if kind == "llm-s" else module.LLMKobayashi24HFEdit

    class StandIn(base):
        def __init__(self, config) -> None:  # no tokenizer to load: no chat template
            module.LLMKobayashi24.__init__(self, config)
            if kind == "llm-e":
                from gecommon import CachedERRANT
                self.errant = CachedERRANT()

        def load_client(self):
            return None

        def call_client(self, instruction, output_format):
            return stand_in(instruction, len(output_format.model_fields))

    return StandIn(StandIn.Config(model="stand-in", cache=str(cache)))


def refuse(prompts, sizes):
    raise AssertionError(f"asked {len(prompts)} prompts the cache should have had")


@pytest.mark.slow
def test_llm_s_prompts_tables_and_rankings_are_gec_metrics_own(gec_metrics, seeda,
                                                               tmp_path) -> None:
    _, sources, hypotheses = seeda
    cache = tmp_path / "stand-in.cache"
    tables, ranked = theirs(gec_metrics, "llm-s", cache, sources, hypotheses)
    found = llm_judge.judge(sources, hypotheses, llm_judge.template("llm-s"),
                            llm_judge.sentence_form, llm_judge.ReplyCache(cache), refuse)
    assert found.asked == 0 and found.unread == ()
    assert found.prompts == len(sources) == 391
    ours = pairwise(found.ratings)
    assert ours == tables
    assert trueskill(ours) == ranked["trueskill"]
    assert expected_wins(ours) == ranked["expected_wins"]


@pytest.mark.slow
def test_meta_eval_ranks_from_gec_metrics_cache(gec_metrics, seeda, tmp_path,
                                                capsys) -> None:
    """The command line reads SEEDA's files and gec-metrics' cache to the same rankings
    (no model: every reply is in the cache)."""
    folder, sources, hypotheses = seeda
    cache = tmp_path / "stand-in.cache"
    _, ranked = theirs(gec_metrics, "llm-s", cache, sources, hypotheses)
    for aggregation in ("trueskill", "expected-wins"):
        assert main(["meta-eval", "--data", str(folder.parents[2]), "--metric", "llm-s",
                     "--llm-model", "stand-in/model", "--llm-cache", str(cache),
                     "--aggregation", aggregation, "--format", "json",
                     "--no-sentence-level"]) == 0
        scores = json.loads(capsys.readouterr().out)["metrics"][0]["scores"]
        assert [scores[s] for s in BASE] == ranked[aggregation.replace("-", "_")]


@pytest.mark.slow
def test_the_sentence_level_is_gec_metrics_own(gec_metrics, seeda, tmp_path, capsys,
                                               monkeypatch) -> None:
    """gec-metrics' SEEDA corr_sentence for its LLM metric (each human ranking's systems
    shown to the judge) and m2lsp's, from the same replies: the same accuracy and Kendall
    for SEEDA-E and SEEDA-S.  Its SEEDA loader needs REF0/REF1 (made by its download
    script from the CoNLL-2014 gold): SEEDA's REF-M and REF-F stand in, unread by LLM-S."""
    import shutil

    from gec_metrics.meta_eval import MetaEvalSEEDA

    folder, sources, hypotheses = seeda
    root = tmp_path / "work"
    subset = root / "SEEDA" / "outputs" / "subset"
    shutil.copytree(folder, subset)
    for name in ("scores", "data"):
        (root / "SEEDA" / name).symlink_to(folder.parents[1] / name)
    shutil.copy(subset / "REF-M.txt", subset / "REF0.txt")
    shutil.copy(subset / "REF-F.txt", subset / "REF1.txt")
    cache = tmp_path / "stand-in.cache"
    theirs(gec_metrics, "llm-s", cache, sources, hypotheses)  # the system level's replies
    monkeypatch.chdir(root)
    corrs = MetaEvalSEEDA(MetaEvalSEEDA.Config(system="base")).corr_sentence(
        stand_in_metric("llm-s", cache))
    monkeypatch.undo()
    assert main(["meta-eval", "--data", str(folder.parents[2]), "--metric", "llm-s",
                 "--llm-model", "stand-in/model", "--llm-cache", str(cache),
                 "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["metrics"][0]["sentence_level"]
    for name in ("edit", "sent"):
        expected = getattr(corrs, name)
        assert (found[name]["accuracy"], found[name]["kendall"]) == (expected.accuracy,
                                                                     expected.kendall)


@pytest.mark.slow
def test_llm_e_prompts_are_gec_metrics_own(gec_metrics, seeda, tmp_path,
                                           english_pipeline) -> None:
    from m2lsp.annotation.parallel import settings_for
    from m2lsp.config import ScoreSettings
    from m2lsp.learned.llm_edits import edit_forms

    _, sources, hypotheses = seeda
    head = 120  # ERRANT on 12 x 120 pairs, both sides
    sources, hypotheses = sources[:head], [h[:head] for h in hypotheses]
    cache = tmp_path / "stand-in.cache"
    tables, ranked = theirs(gec_metrics, "llm-e", cache, sources, hypotheses)
    forms = edit_forms(sources, hypotheses, settings_for("en", ScoreSettings()))
    found = llm_judge.judge(sources, hypotheses, llm_judge.template("llm-e", None),
                            forms, llm_judge.ReplyCache(cache), refuse)
    assert found.asked == 0
    assert pairwise(found.ratings) == tables
    assert trueskill(pairwise(found.ratings)) == ranked["trueskill"]


@pytest.mark.parametrize(("content", "count", "expected"), [
    ('{"target_score1": 3, "target_score2": 5}', 2, [3.0, 5.0]),
    ('{"target_score1":4}', 1, [4.0]),
    ('```json\n{\n"target1_score": 2, "target2_score": "4"\n}\n```', 2, [2.0, 4.0]),
    ('Sure! {"target_score1": 5} is my answer', 1, [5.0]),
    ('{"target_score1": 3}', 2, None),  # a hypothesis without a rating
    ('{"target_score1": true}', 1, None),
    ("I cannot rate these.", 1, None),
    (None, 1, None),
])
def test_replies_are_read_robustly(content, count, expected) -> None:
    assert llm_judge.ratings_of(content, count) == expected


@pytest.mark.parametrize(("hypotheses", "shown"), [
    (["b", "a", "b"], ["a", "b"]),
    (["f", "e", "d", "c", "b", "a"], ["b", "c", "d", "e", "f"]),  # ties: first seen first
    (["a", "x", "x", "y", "y", "b", "c", "d"], ["a", "b", "c", "x", "y"]),
])
def test_at_most_five_hypotheses_shown(hypotheses, shown) -> None:
    assert llm_judge.shown(hypotheses) == shown


def test_a_half_written_cache_line_is_skipped_and_counted(tmp_path) -> None:
    cache = tmp_path / "c.jsonl"
    cache.write_text('{"id": "a", "results": {"choices": []}}\n{"id": "b", "res', "utf-8")
    found = llm_judge.ReplyCache(cache)
    assert list(found.replies) == ["a"] and found.skipped == 1
    found.add("c", {"x": 1})
    assert llm_judge.ReplyCache(cache).get("c") == {"x": 1}


# --- a model made in the tests ----------------------------------------------------------


@pytest.fixture
def few(conll, tmp_path) -> dict[str, Path]:
    folder = tmp_path / "few"
    conll.head(30, ("AMU", "CAMB", "INPUT"), folder)
    (folder / "source").write_text("".join(f"{s}\n" for s in conll.sources[:30]), "utf-8")
    return {n: folder / n for n in ("AMU", "CAMB", "INPUT", "source", "gold.m2")}


def test_a_small_causal_lm_judges_and_its_replies_are_cached(made, few, tmp_path,
                                                             monkeypatch, capsys) -> None:
    from m2lsp.scoring.llm import judged

    cache = tmp_path / "replies.jsonl"
    args = ["report", str(few["gold.m2"]), str(few["AMU"]), str(few["CAMB"]),
            str(few["INPUT"]), "--metric", "llm-s", "--llm-model", str(made["llm"]),
            "--llm-cache", str(cache), "--format", "json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    lines = cache.read_text("utf-8").splitlines()
    assert len(lines) == 30
    content = json.loads(lines[0])["results"]["choices"][0]["message"]["content"]
    keys = list(json.loads(content))
    assert keys == [f"target_score{k + 1}" for k in range(len(keys))] and len(keys) <= 3
    assert all(1 <= v <= 5 for v in json.loads(content).values())
    monkeypatch.setattr(judged.Judge, "_made", lambda self: pytest.fail("a model loaded"))
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["systems"] == first["systems"]
    assert len(cache.read_text("utf-8").splitlines()) == 30


def small_seeda(folder: Path, count: int) -> Path:
    """SEEDA's first `count` sentences: every system's output cut there, the judgments of
    those sentences only, the human system scores as they are (a meta-evaluation of every
    sentence asks the judge 4,680 times: two minutes of CI for what 40 sentences show)."""
    import re

    seeda = shared("meta-eval/seeda")
    for name in ("outputs/subset", "data", "scores/human"):
        (folder / "seeda" / name).mkdir(parents=True)
    for path in (seeda / "outputs/subset").iterdir():
        lines = path.read_text("utf-8").splitlines(keepends=True)[:count]
        (folder / "seeda/outputs/subset" / path.name).write_text("".join(lines), "utf-8")
    for path in (seeda / "scores/human").iterdir():
        (folder / "seeda/scores/human" / path.name).write_bytes(path.read_bytes())
    item = re.compile(r'\t<ranking-item src-id="(\d+)".*?</ranking-item>\n', re.S)
    for path in (seeda / "data").iterdir():
        text = path.read_text("utf-8")
        kept = item.sub(lambda m: m[0] if int(m[1]) < count else "", text)
        assert kept != text and "<ranking-item" in kept
        (folder / "seeda/data" / path.name).write_text(kept, "utf-8")
    return folder


def test_a_small_causal_lm_in_meta_eval(made, tmp_path, capsys, monkeypatch) -> None:
    data = small_seeda(tmp_path / "data", 40)
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["meta-eval", "--data", str(data), "--metric", "llm-s", "--llm-model",
                 str(made["llm"]), "--aggregation", "trueskill", "--format", "json"]) == 0
    out = capsys.readouterr()
    found = json.loads(out.out)["metrics"][0]
    assert found["signature"].endswith("|aggregation:trueskill")
    assert "systems:12" in found["signature"]
    assert set(found["sentence_level"]) == {"edit", "sent"}
    assert all(v["pairs"] > 50 for v in found["sentence_level"].values())
    assert len(list((tmp_path / "cache" / "llm").glob("*.jsonl"))) == 1


def test_one_system_from_python(made, few, tmp_path) -> None:
    found = m2lsp.score(few["AMU"], metric="llm-s", sources=few["source"],
                        llm_model=str(made["llm"]), llm_cache=str(tmp_path / "c.jsonl"))
    ratings = found.sentence_scores
    assert len(ratings) == 30 and all(r in (1.0, 2.0, 3.0, 4.0, 5.0) for r in ratings)
    assert found.data["llm-s"] == pytest.approx(sum(ratings) / 30)


# --- an endpoint --------------------------------------------------------------------------


class Endpoint(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint on 127.0.0.1.  `behaviour` makes it hostile: "huge"
    (a 600 MB Content-Length, of which it sends 2 MB), "huge-unsized" (2 MB without a
    length), "trickle" (a byte every 50 ms), "hang" (no answer at all); every loop of its
    own is bounded, and `stop` ends them when the test does."""

    seen: ClassVar[list] = []
    replies: ClassVar[dict] = {1: '{"target_score1": 3}',
                               2: '{"target_score1": 4, "target_score2": 2}'}
    unreadable: ClassVar[str | None] = None  # a prompt holding this is answered in words
    failures: ClassVar[list[int]] = []  # answer these statuses first, one a request
    behaviour: ClassVar[str | None] = None
    stop: ClassVar[threading.Event] = threading.Event()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if Endpoint.failures:
            self.send_response(Endpoint.failures.pop(0))
            self.end_headers()
            self.wfile.write(b'{"error": "slow down"}')
            return
        Endpoint.seen.append((self.path, self.headers.get("Authorization"), body))
        if Endpoint.behaviour is not None:
            self.hostile(Endpoint.behaviour)
            return
        size = len(body["response_format"]["json_schema"]["schema"]["required"])
        content = Endpoint.replies[size]
        if Endpoint.unreadable and Endpoint.unreadable in body["messages"][1]["content"]:
            content = "I would rather not say."
        data = json.dumps({"id": "x", "model": body["model"],
                           "choices": [{"message": {"content": content}}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(data.encode())

    def hostile(self, behaviour: str) -> None:
        if behaviour == "hang":
            Endpoint.stop.wait(10)
            return
        self.send_response(200)
        if behaviour == "huge":
            self.send_header("Content-Length", str(600 * 2**20))
        self.end_headers()
        pieces = {"huge": 32, "huge-unsized": 32, "trickle": 200}[behaviour]
        piece = b"x" * 2**16 if behaviour.startswith("huge") else b" "
        for _ in range(pieces):
            if Endpoint.stop.is_set():
                return
            try:
                self.wfile.write(piece)
                self.wfile.flush()
            except OSError:
                return
            if behaviour == "trickle":
                Endpoint.stop.wait(0.05)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    Endpoint.seen = []
    Endpoint.stop = threading.Event()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    Endpoint.stop.set()
    server.shutdown()
    server.server_close()


def test_an_openai_compatible_endpoint(endpoint, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MY_KEY", "secret")
    (tmp_path / "src").write_text("a b\nc d\n", "utf-8")
    (tmp_path / "A").write_text("a b .\nc d\n", "utf-8")
    (tmp_path / "B").write_text("a b !\nc d\n", "utf-8")
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                    "S c d\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n", "utf-8")
    found = m2lsp.rank_systems({"a": tmp_path / "A", "b": tmp_path / "B"}, gold,
                               metric="llm-s", llm_endpoint=endpoint, llm_model="judge-1",
                               llm_key_env="MY_KEY", llm_cache=str(tmp_path / "c.jsonl"))
    path, key, body = Endpoint.seen[0]
    assert path == "/v1/chat/completions" and key == "Bearer secret"
    assert body["model"] == "judge-1" and body["seed"] == 777
    assert body["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}
    assert body["messages"][1]["content"].startswith("The goal of this task")
    assert len(Endpoint.seen) == 2  # two sources, each asked once
    # shown in code-point order: "a b !" (B) is target 1, rated 4; "a b ." (A) 2
    assert found == {"a": (2 + 3) / 2, "b": (4 + 3) / 2}


def two_sentences(tmp_path: Path) -> list[str]:
    """`score` of one system of two sentences, by the endpoint, with a cache of its own:
    the arguments before the endpoint's."""
    (tmp_path / "src").write_text("a b\nc d\n", "utf-8")
    (tmp_path / "A").write_text("a b .\nc d\n", "utf-8")
    return ["score", str(tmp_path / "A"), "--source", str(tmp_path / "src"), "--metric",
            "llm-s", "--llm-cache", str(tmp_path / "c.jsonl")]


def cached(tmp_path: Path) -> list[dict]:
    path = tmp_path / "c.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()] \
        if path.exists() else []


def test_an_unreadable_reply_is_reported_and_never_cached(endpoint, tmp_path, monkeypatch,
                                                          capsys) -> None:
    """A reply that gives no rating rates nothing this run and is not kept: the next run
    asks again (R4 13)."""
    monkeypatch.setattr(Endpoint, "unreadable", "c d")
    argv = [*two_sentences(tmp_path), "--llm-endpoint", endpoint, "--format", "json"]
    assert main(argv) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["sentence_scores"] == [3.0, None]
    assert "1 of 2 replies give no rating" in out.err
    assert len(cached(tmp_path)) == 1 and len(Endpoint.seen) == 2
    monkeypatch.setattr(Endpoint, "unreadable", None)
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["sentence_scores"] == [3.0, 3.0]
    assert len(Endpoint.seen) == 3 and len(cached(tmp_path)) == 2  # the unread one alone


@pytest.mark.parametrize("command", ["score", "report"])
def test_a_score_over_no_rated_sentence_is_not_available(endpoint, tmp_path, monkeypatch,
                                                         capsys, command) -> None:
    """Every reply unreadable: no `LLM-S : 0.0000 (0 of 2 sentences rated)` and exit 0,
    but "not available" and exit 2 (R4 13)."""
    monkeypatch.setattr(Endpoint, "unreadable", "# source")
    argv = [*two_sentences(tmp_path), "--llm-endpoint", endpoint]
    if command == "report":
        (tmp_path / "gold.m2").write_text("S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||"
                                          "-NONE-|||0\n\nS c d\nA -1 -1|||noop|||-NONE-"
                                          "|||REQUIRED|||-NONE-|||0\n\n", "utf-8")
        (tmp_path / "B").write_text("a b !\nc d\n", "utf-8")
        argv = ["report", str(tmp_path / "gold.m2"), str(tmp_path / "A"),
                str(tmp_path / "B"), *argv[4:]]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "LLM-S: not available" in err and "none of the 2 sentences was rated" in err
    assert "0.0000" not in out and "Traceback" not in err
    assert cached(tmp_path) == []


def test_a_prompt_longer_than_the_model_reads_is_one_clear_error() -> None:
    from types import SimpleNamespace

    from m2lsp.learned.llm_models import fits
    from m2lsp.learned.loading import Loaded, ModelError

    config = SimpleNamespace(max_position_embeddings=None, n_positions=100)
    loaded = Loaded(SimpleNamespace(config=config), None, "tiny", "abc")
    fits(loaded, 100)
    with pytest.raises(ModelError, match="reads at most 100 tokens; a prompt and its reply "
                                         "take 101"):
        fits(loaded, 101)


def test_explain_attributes_a_judges_rating_to_the_edits(made, few, tmp_path, capsys,
                                                         english_pipeline) -> None:
    """`explain` with LLM-S: each edited sentence judged alone, each edit's share of the
    rating's change (the same cache as any run)."""
    assert main(["explain", str(few["CAMB"]), "--source", str(few["source"]), "--metric",
                 "llm-s", "--llm-model", str(made["llm"]), "--llm-cache",
                 str(tmp_path / "replies"), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["signature"].startswith("Explain(LLM-S|")
    assert found["sentences"] and all(s["edits"] is not None for s in found["sentences"])


def test_an_interrupted_run_keeps_the_replies_it_had(tmp_path) -> None:
    """Each reply is written to the cache as it comes: stopped after two of three
    prompts, the next run asks only the third."""
    cache = tmp_path / "replies.jsonl"
    sources = ["a b", "c d", "e f"]

    def ask_two_then_stop(prompts, sizes):
        for count, (text, size) in enumerate(zip(prompts, sizes, strict=True)):
            if count == 2:
                raise KeyboardInterrupt
            yield stand_in(text, size)

    with pytest.raises(KeyboardInterrupt):
        llm_judge.judge(sources, [["a b .", "c d .", "e f ."]], llm_judge.template("llm-s"),
                        llm_judge.sentence_form, llm_judge.ReplyCache(cache),
                        ask_two_then_stop)
    assert len(cache.read_text("utf-8").splitlines()) == 2
    asked = []

    def ask(prompts, sizes):
        asked.extend(prompts)
        return [stand_in(t, s) for t, s in zip(prompts, sizes, strict=True)]

    found = llm_judge.judge(sources, [["a b .", "c d .", "e f ."]],
                            llm_judge.template("llm-s"), llm_judge.sentence_form,
                            llm_judge.ReplyCache(cache), ask)
    assert len(asked) == 1 and "e f ." in asked[0] and found.unread == ()


@pytest.mark.parametrize(("failures", "code", "said"), [
    ([429, 503], 0, None),  # asked again, after a pause
    ([429, 429, 429, 429], 2, "answered 429"),  # four tries, then one clear error
    ([401], 2, "answered 401"),  # not worth a second try
])
def test_an_endpoint_that_says_wait(endpoint, tmp_path, monkeypatch, capsys, failures, code,
                                    said) -> None:
    slept: list[float] = []
    monkeypatch.setattr("time.sleep", slept.append)
    monkeypatch.setattr(Endpoint, "failures", list(failures))
    (tmp_path / "src").write_text("a b\n", "utf-8")
    (tmp_path / "A").write_text("a b .\n", "utf-8")
    assert main(["score", str(tmp_path / "A"), "--source", str(tmp_path / "src"),
                 "--metric", "llm-s", "--llm-endpoint", endpoint,
                 "--llm-cache", str(tmp_path / "c.jsonl")]) == code
    err = capsys.readouterr().err
    if said is None:
        assert slept == [2.0, 4.0]
    else:
        assert said in err and "Traceback" not in err


# --- R4 14: an explicit cache answers only for the judge that wrote it -------------------


def test_an_explicit_cache_answers_only_for_its_own_judge(endpoint, tmp_path,
                                                          capsys) -> None:
    """Each entry records the judge (model and endpoint); another judge's replies are not
    taken for this one's, whatever the file, and are asked anew."""
    base = [*two_sentences(tmp_path), "--format", "json"]

    def run(model: str, url: str = endpoint) -> dict:
        assert main([*base, "--llm-endpoint", url, "--llm-model", model]) == 0
        return json.loads(capsys.readouterr().out)

    first = run("judge-1")
    assert len(Endpoint.seen) == 2
    assert {e["judge"] for e in cached(tmp_path)} == {f"judge-1@{endpoint}"}
    second = run("judge-2")
    assert len(Endpoint.seen) == 4 and [b["model"] for _, _, b in Endpoint.seen[2:]] == [
        "judge-2", "judge-2"]
    assert "judge-2@" in second["signature"] and "judge-1" not in second["signature"]
    assert run("judge-1") == first and len(Endpoint.seen) == 4  # its own, from the cache
    run("judge-1", endpoint.replace("127.0.0.1", "localhost"))  # another endpoint
    assert len(Endpoint.seen) == 6 and len(cached(tmp_path)) == 6


def test_gec_metrics_cache_lines_still_answer(endpoint, tmp_path, capsys) -> None:
    """gec-metrics' lines name no judge: they are read as before, and the run says so."""
    template = llm_judge.template("llm-s")
    lines = [{"id": llm_judge.key(llm_judge.prompt(template, s, [h])),
              "results": stand_in("x", 1)} for s, h in (("a b", "a b ."), ("c d", "c d"))]
    argv = two_sentences(tmp_path)
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")
    assert main([*argv, "--llm-endpoint", endpoint, "--llm-model", "judge-1"]) == 0
    assert Endpoint.seen == []
    assert "2 replies of" in capsys.readouterr().err


# --- R4 15: an endpoint that sends too much, too slowly, or nothing ----------------------


@pytest.mark.parametrize(("behaviour", "said", "tries"), [
    ("huge", "more than 1 MiB", 1),  # not read whole, not asked again
    ("huge-unsized", "more than 1 MiB", 1),
    ("trickle", "no whole reply within 0.25 s (--llm-timeout)", 4),
    ("hang", "no whole reply within 0.25 s (--llm-timeout)", 4),
])
def test_an_endpoint_that_sends_too_much_or_too_slowly(endpoint, tmp_path, monkeypatch,
                                                      capsys, behaviour, said,
                                                      tries) -> None:
    monkeypatch.setattr("time.sleep", lambda seconds: None)  # the tries' pauses
    monkeypatch.setattr(Endpoint, "behaviour", behaviour)
    assert main([*two_sentences(tmp_path), "--llm-endpoint", endpoint,
                 "--llm-timeout", "0.25"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert len(Endpoint.seen) == tries and cached(tmp_path) == []


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_a_timeout_that_is_no_duration_is_refused(tmp_path, capsys, value) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*two_sentences(tmp_path), "--llm-endpoint", "http://127.0.0.1:9/v1",
              "--llm-timeout", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --llm-timeout: expected a finite number greater than 0" in err


# --- R4 24: credentials in the endpoint's URL are never shown ----------------------------


def with_password(url: str) -> str:
    return url.replace("http://", "http://user:PASSWORD@")


def test_credentials_in_the_endpoint_are_sent_but_never_shown(endpoint, tmp_path,
                                                              monkeypatch, capsys) -> None:
    import base64

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main([*two_sentences(tmp_path), "--llm-endpoint", with_password(endpoint),
                 "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert Endpoint.seen[0][1] == "Basic " + base64.b64encode(b"user:PASSWORD").decode()
    assert "PASSWORD" not in out + err + (tmp_path / "c.jsonl").read_text("utf-8")
    assert f"gpt-4o-mini-2024-07-18@{endpoint}|" in json.loads(out)["signature"]


@pytest.mark.parametrize("case", ["refused", "unreachable", "not http"])
def test_credentials_are_kept_out_of_errors(endpoint, tmp_path, monkeypatch, capsys,
                                            case) -> None:
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    monkeypatch.setattr(Endpoint, "failures", [401])
    url = {"refused": with_password(endpoint),
           "unreachable": "http://user:PASSWORD@127.0.0.1:9/v1",
           "not http": "ftp://user:PASSWORD@127.0.0.1/v1"}[case]
    assert main([*two_sentences(tmp_path), "--llm-endpoint", url]) == 2
    err = capsys.readouterr().err
    assert "PASSWORD" not in err and "127.0.0.1" in err and "Traceback" not in err


@pytest.mark.parametrize(("url", "said"), [
    ("http://", "names no host"),
    ("http://user:PASSWORD@host:port/v1", "is no URL: Port could not be cast"),
    ("http://[::1", "is no URL: Invalid IPv6 URL"),
])
def test_an_endpoint_that_is_no_url_is_refused_before_any_request(tmp_path, capsys, url,
                                                                  said) -> None:
    assert main([*two_sentences(tmp_path), "--llm-endpoint", url]) == 2
    err = capsys.readouterr().err
    assert said in err and "tries" not in err and "PASSWORD" not in err
