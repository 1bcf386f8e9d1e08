"""`m2lsp report` on the 8 CoNLL-2014 outputs: every number is `m2lsp score`'s, every
p-value `m2lsp compare`'s, and the page, the LaTeX and the Markdown tables are written."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import assert_snapshot, shared

SNAPSHOTS = Path(__file__).parent / "snapshots"
NAMES = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC")
SAMPLES = "200"


def conll() -> tuple[Path, list[Path]]:
    gold = shared("conll2014/gold/official-2014.combined.m2")
    return gold, [shared(f"conll2014/systems/{name}") for name in NAMES]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def conll_report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    gold, systems = conll()
    out = tmp_path_factory.mktemp("report") / "report.json"
    assert main(["report", str(gold), *map(str, systems), "--format", "json", "--samples",
                 SAMPLES, "-o", str(out)]) == 0
    return json.loads(out.read_text("utf-8"))


@pytest.mark.slow
def test_every_number_is_score_s(conll_report: dict, capsys: pytest.CaptureFixture[str]
                                 ) -> None:
    gold, systems = conll()
    assert [s["name"] for s in conll_report["systems"]] == list(NAMES)
    for system, path in zip(conll_report["systems"], systems, strict=True):
        scored = _json(capsys, "score", "--format", "json", str(path), str(gold))
        assert system["scores"] == {k: scored[k] for k in ("precision", "recall", "f")}
        assert system["signature"] == scored["signature"]
        boot = _json(capsys, "score", "--format", "json", "--bootstrap", SAMPLES, str(path),
                     str(gold))["bootstrap"]
        assert system["intervals"] == {k: boot[k] for k in ("precision", "recall", "f")}
    assert conll_report["sentence_count"] == len(conll_report["sentences"]) == 1312


@pytest.mark.slow
def test_every_p_value_is_compare_s(conll_report: dict,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from m2lsp.config import ScoreSettings
    from m2lsp.scoring.bootstrap import compare
    from m2lsp.scoring.metric import Request, Shared, metric

    gold, systems = conll()
    m2 = metric("m2")
    request = Request(systems[0], gold, Shared(), m2.options({}, Shared(), ScoreSettings()))
    stats = [s.sentence_stats() for s in m2.run_many(request, systems)]
    pairs = {(p["a"], p["b"]): p for p in conll_report["pairs"]}
    assert set(pairs) == set(combinations(range(8), 2))
    for (a, b), pair in pairs.items():
        found = compare(stats[a].rows, stats[b].rows, stats[a].aggregate, 2, int(SAMPLES))
        assert (pair["p_bootstrap"], pair["p_randomised"]) == (found.p_value,
                                                               found.p_randomised)
        assert pair["interval"] == [found.difference.low, found.difference.high]
    capsys.readouterr()
    assert main(["compare", str(systems[1]), str(systems[2]), str(gold), "--samples",
                 SAMPLES]) == 0
    printed = re.findall(r"p = (\d\.\d+) ", capsys.readouterr().out)
    pair = pairs[1, 2]  # (200 samples resolve two decimals)
    assert printed == [f"{pair['p_bootstrap']:.2f}", f"{pair['p_randomised']:.2f}"]


def test_holm_and_ranks_follow_the_pairs(conll_report: dict) -> None:
    from m2lsp.reporting.significance import holm

    pairs = conll_report["pairs"]
    assert [p["p_bootstrap_holm"] for p in pairs] == holm([p["p_bootstrap"] for p in pairs])
    # 200 samples cannot make any of 28 pairs significant after Holm: the report says so
    assert {s["rank"] for s in conll_report["systems"]} == {1}
    assert "use --samples 560 or more" in conll_report["warnings"][0]


def test_errant_numbers_are_score_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    gold = shared("conll2014/gold/official-2014.combined.m2")
    hyps = [shared("conll2014/gold/official-2014.0.m2"),
            shared("conll2014/gold/official-2014.1.m2")]
    data = _json(capsys, "report", str(gold), *map(str, hyps), "--metric", "errant",
                 "--format", "json", "--samples", SAMPLES, "--names", "zero,one")
    for system, hyp in zip(data["systems"], hyps, strict=True):
        scored = _json(capsys, "score", "--metric", "errant", "--format", "json", str(hyp),
                       str(gold))
        assert system["scores"] == {k: scored[k] for k in ("precision", "recall", "f")}
    assert any(t["type"] == "Prep" for t in data["types"])


@pytest.mark.slow
def test_the_page_and_the_paper_tables(tmp_path: Path) -> None:
    gold, systems = conll()
    page = tmp_path / "report.html"
    assert main(["report", str(gold), *map(str, systems), "-o", str(page)]) == 0
    html = page.read_text("utf-8")
    assert page.stat().st_size <= 5_000_000
    # offline: nothing fetched (the SVG namespace is a name, not a download)
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=\"https?:", html)
    assert html.count("<svg") >= 3 and 'id="leaderboard-table"' in html
    for fmt, suffix in (("latex", "tex"), ("md", "md")):
        out = tmp_path / f"table.{suffix}"
        assert main(["report", str(gold), *map(str, systems), "--format", fmt,
                     "-o", str(out)]) == 0
        assert_snapshot(SNAPSHOTS / f"conll2014.{suffix}", out.read_text("utf-8"))


def test_a_system_of_another_length_is_named(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    gold, systems = conll()
    short = tmp_path / "SHORT"
    short.write_text("".join(systems[1].read_text("utf-8").splitlines(True)[:-3]), "utf-8")
    assert main(["report", str(gold), str(systems[0]), str(short), "--format", "json"]) == 2
    assert f"system file {short} has 1309 sentences" in capsys.readouterr().err
    assert main(["report", str(gold), str(systems[0]), "--names", "a,b"]) == 2
    assert "--names gives 2 names for 1 systems" in capsys.readouterr().err


OTHER_METRICS = [
    # metric, gold, systems, extra flags, the JSON keys of `score` the report's numbers equal
    ("cgec", "conll2014/gold/official-2014.combined.m2",
     ["conll2014/systems/CAMB", "conll2014/systems/AMU"], [],
     {"acc_sen": "acc_sen", "bleu_c": "bleu", "mp": "mp"}),
    ("gleu", "conll2014/gold/official-2014.combined.m2",
     ["conll2014/systems/CAMB", "conll2014/systems/AMU"], [], {"gleu": "gleu"}),
    ("cged", "cged/cged2015/nlptea15cged_release1.0/Tool/NLPTEA15_Toy_Truth.txt",
     ["cged/cged2015/nlptea15cged_release1.0/Tool/NLPTEA15_Toy_Result.txt"], [],
     {"false_positive_rate": "false_positive_rate"}),
    ("cherrant", "mucgec/demo.ref.m2.char", ["mucgec/demo.hyp.m2.char", "mucgec/demo.hyp"],
     ["--cherrant-data", "mucgec/ChERRANT/data"], {"f": "f"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "gold", "systems", "flags", "keys"), OTHER_METRICS)
def test_every_metric_reports(name: str, gold: str, systems: list[str], flags: list[str],
                              keys: dict[str, str], tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    if name == "cherrant":
        pytest.importorskip("opencc")
    extra = [str(shared(f)) if i % 2 else f for i, f in enumerate(flags)]
    paths = [str(shared(s)) for s in systems]
    data = _json(capsys, "report", str(shared(gold)), *paths, "--metric", name, "--format",
                 "json", "--samples", SAMPLES, *extra)
    for system, path in zip(data["systems"], paths, strict=True):
        scored = _json(capsys, "score", "--metric", name, "--format", "json", path,
                       str(shared(gold)), *extra)
        assert {k: system["scores"][k] for k in keys} == {k: scored[v]
                                                          for k, v in keys.items()}
    page = tmp_path / "page.html"
    assert main(["report", str(shared(gold)), *paths, "--metric", name, "--samples", SAMPLES,
                 "-o", str(page), *extra]) == 0
    assert "leaderboard-table" in page.read_text("utf-8")


def test_a_missing_extra_names_the_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import builtins

    gold, systems = conll()
    real = builtins.__import__

    def without_matplotlib(name: str, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name=name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", without_matplotlib)
    assert main(["report", str(gold), str(systems[1]), "--samples", SAMPLES,
                 "-o", str(tmp_path / "r.html")]) == 2
    assert "pip install 'm2lsp[report]'" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()  # nothing half-written
    # the tables need neither
    assert main(["report", str(gold), str(systems[1]), "--samples", SAMPLES,
                 "--format", "md"]) == 0


def test_the_gold_is_read_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """GOLD is read where the command starts, once: the scores, the page's gold
    corrections and each system's attribution take its text (it was read for each)."""
    pytest.importorskip("spacy")
    import m2lsp.files.reading as reading

    gold = tmp_path / "gold.m2"
    gold.write_text("S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S This are a apple .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"
                    "A 3 4|||R:NOUN|||an|||REQUIRED|||-NONE-|||0\n\n", "utf-8")
    for name, text in (("a.txt", "He goes home .\nThis is a apple .\n"),
                       ("b.txt", "He go home .\nThis is an apple .\n")):
        (tmp_path / name).write_text(text, "utf-8")
    real, read = reading.read_bytes, []

    def counted(path, *args, **kwargs):
        read.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(reading, "read_bytes", counted)
    found = _json(capsys, "report", str(gold), str(tmp_path / "a.txt"),
                  str(tmp_path / "b.txt"), "--format", "json", "--samples", "20",
                  "--explain", "add")
    assert found["gold"] == str(gold) and len(found["attribution"]["systems"]) == 2
    assert read.count("gold.m2") == 1
