"""The report as a researcher shows it: one signature above the table, no bold for a system
that made no edit or a precision bought with no recall, p below 0.001 printed so, labels
that do not collide in a zoomed P-R plot, readable headers and ranks for CGED and GLEU, the
annotator each sentence was scored against, and a progress line on a terminal."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.reporting.plots import meta_eval_figure, pr_figure, zoomed
from m2lsp.reporting.tables import p_value
from tests.conftest import shared

CONLL = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC"]


def _report(tmp_path: Path, gold: str, systems: list[str], *flags: str) -> tuple[dict, str]:
    paths = [str(shared(s)) for s in systems]
    page = tmp_path / "page.html"
    assert main(["report", str(shared(gold)), *paths, "-o", str(page), "--samples", "20",
                 *flags]) == 0
    html = page.read_text("utf-8")
    payload = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                        html, re.S)
    assert payload is not None
    return json.loads(payload.group(1).replace("<\\/", "</")), html


@pytest.fixture(scope="module")
def conll(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str]:
    return _report(tmp_path_factory.mktemp("conll"), "conll2014/gold/official-2014.combined.m2",
                   [f"conll2014/systems/{n}" for n in CONLL])


@pytest.mark.slow
def test_one_signature_above_the_table(conll) -> None:
    _, html = conll
    assert html.count("Signature: <code>M2|beta:0.5|") == 1
    assert "<th>Signature</th>" not in html


def test_no_bold_for_no_edits_or_no_recall(conll) -> None:
    _data, html = conll
    row = re.search(r'<tr data-system="INPUT">(.*?)</tr>', html, re.S).group(1)
    assert 'data-key="precision" data-value=""' in row and "–" in row and "best" not in row
    ufc = re.search(r'<tr data-system="UFC">(.*?)</tr>', html, re.S).group(1)
    assert "best" not in ufc
    cuui = re.search(r'<tr data-system="CUUI">(.*?)</tr>', html, re.S).group(1)
    assert 'class="num best" data-key="precision"' in cuui


@pytest.mark.parametrize(("p", "printed"), [(0.0, "< 0.001"), (0.0004, "< 0.001"),
                                            (0.001, "0.001"), (0.0312, "0.031"), (1.0, "1.000")])
def test_p_values(p: float, printed: str) -> None:
    assert p_value(p) == printed


def test_small_p_values_are_printed_below_a_thousandth(conll) -> None:
    _, html = conll
    assert "p 0.000" not in html


def test_p_values_are_never_finer_than_the_samples(conll) -> None:
    """20 samples resolve one decimal: no p in the page has two."""
    data, html = conll
    assert data["samples"] == 20
    printed = re.findall(r"(?:raw p |<span class=\"ci\">p )([^<\"]+)", html)
    assert printed and not [p for p in printed if re.search(r"\.\d\d", p)]


def test_the_sentences_say_whose_edits_they_were_scored_against(conll) -> None:
    data, _ = conll
    assert all(isinstance(x["annotator"], int) for s in data["sentences"] for x in s["systems"])


def _clashes(figure, names: set[str]) -> list[tuple[str, str]]:
    """Pairs of system labels (or a label and another system's point) that overlap as
    matplotlib draws them, in each panel."""
    from matplotlib.text import Text

    renderer = figure.canvas.get_renderer()
    found = []
    for axes in figure.axes:
        texts = [t for t in axes.texts if t.get_text() in names]
        for text in texts:
            text.update_positions(renderer)
        labels = [(t.get_text(), Text.get_window_extent(t, renderer))  # without its line
                  for t in texts]
        for i, (a, box) in enumerate(labels):
            found += [(a, b) for b, other in labels[i + 1:] if box.overlaps(other)]
        for collection in axes.collections:
            for point in collection.get_offsets():
                px, py = axes.transData.transform(point)
                found += [(a, "point") for a, box in labels
                          if box.x0 < px < box.x1 and box.y0 < py < box.y1]
    return found


def test_the_pr_plot_zooms_and_labels_do_not_collide(conll) -> None:
    data, _ = conll
    points = [(s["name"], s["scores"]["recall"], s["scores"]["precision"])
              for s in data["systems"] if s["proposed"]]
    xs, ys = zoomed([x for _, x, _ in points]), zoomed([y for _, _, y in points])
    assert xs[1] < 0.5 and ys[0] > 0.2  # not the whole 0..1 square
    assert _clashes(pr_figure(data), {s["name"] for s in data["systems"]}) == []


CROWD = [f"system-{k:02d}" for k in range(14)]


def test_crowded_pr_labels_do_not_overlap() -> None:
    """Fourteen systems within a few hundredths of each other."""
    systems = [{"name": n, "proposed": 10, "scores": {"precision": 0.40 + 0.004 * (k % 5),
                                                      "recall": 0.30 + 0.003 * (k // 5 + k)}}
               for k, n in enumerate(CROWD)]
    data = {"names": ["precision", "recall", "f"], "systems": systems, "beta": 0.5,
            "metric": "m2"}
    assert _clashes(pr_figure(data), set(CROWD)) == []


@pytest.mark.parametrize("subset", ["base", "all"])
def test_meta_eval_scatter_labels_do_not_overlap(tmp_path, capsys, subset) -> None:
    """SEEDA's systems against a metric (their outputs' length), in each human score's
    panel: the labels were placed for the P-R plot's size and overlapped here."""
    data = shared("meta-eval/seeda").parent
    rows = [f"{path.stem}\t{len(path.read_text(encoding='utf-8'))}\n"
            for path in sorted((data / "seeda" / "outputs" / "subset").glob("*.txt"))]
    scores = tmp_path / "length.tsv"
    scores.write_text("".join(rows), encoding="utf-8")
    assert main(["meta-eval", "--data", str(data), "--scores", f"length={scores}",
                 "--systems", subset, "--format", "json"]) == 0
    meta = json.loads(capsys.readouterr().out)
    figure = meta_eval_figure(meta, meta["metrics"][0])
    assert _clashes(figure, set(meta["system_names"])) == []


def test_cged_and_gleu_pages_read_as_tables(tmp_path: Path) -> None:
    tool = "cged/cged2015/nlptea15cged_release1.0/Tool/"
    data, html = _report(tmp_path, tool + "NLPTEA15_Toy_Truth.txt",
                         [tool + "NLPTEA15_Toy_Result.txt"], "--metric", "cged")
    assert "<th>FPR</th>" in html and "<th>Position F1</th>" in html
    assert "Brackets: 95%" not in html and "0 sentences" not in html
    assert data["systems"][0]["rank"] == 1
    data, html = _report(tmp_path, "conll2014/gold/official-2014.combined.m2",
                         ["conll2014/systems/CAMB", "conll2014/systems/AMU"],
                         "--metric", "gleu")
    assert "<th>GLEU</th>" in html and "<th>Std. dev.</th>" in html
    assert sorted(s["rank"] for s in data["systems"]) == [1, 2]


def test_two_systems_of_one_name_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    camb = str(shared("conll2014/systems/CAMB"))
    gold = str(shared("conll2014/gold/official-2014.combined.m2"))
    assert main(["report", gold, camb, camb, "--names", "a,a", "--format", "md"]) == 2
    assert "two systems have the same name" in capsys.readouterr().err


def test_a_progress_line_on_a_terminal_only() -> None:
    from m2lsp.cli.progress import Stages

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown, hidden = Terminal(), io.StringIO()
    for stream in (shown, hidden):
        stages = Stages(3, stream, what="m2lsp report")
        stages("scoring 8 systems")
        stages("testing 28 pairs")
        stages.done()
    assert "[------" in shown.getvalue() and "testing 28 pairs" in shown.getvalue()
    assert hidden.getvalue() == ""


def _fills(svg: str) -> dict[str, set[str]]:
    """Each system's fill colours in an SVG (its marks carry the id `system-NAME`)."""
    found: dict[str, set[str]] = {}
    for match in re.finditer(r'<g id="system-([^"]+)">(.*?)</g>', svg, re.S):
        found.setdefault(match.group(1), set()).update(
            re.findall(r"fill: (#[0-9a-f]{6})", match.group(2)))
    return found


def test_a_system_has_one_colour_in_every_figure(conll) -> None:
    """The P/R plot leaves INPUT out (it proposes nothing); that shifts no other system's
    colour: each system's fill is the same in the P/R plot and the bars."""
    _, html = conll
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    fills = [_fills(svg) for svg in svgs]
    pr = next(f for f in fills if "AMU" in f and "INPUT" not in f)
    bars = next(f for f in fills if "INPUT" in f)
    assert set(pr) == set(CONLL) - {"INPUT"} and set(bars) == set(CONLL)
    for name in pr:
        assert len(pr[name]) == 1 and bars[name] >= pr[name], name
    assert len({next(iter(pr[n])) for n in pr}) == len(pr)  # no two systems share one


def test_the_equal_f_curves_are_labelled(conll) -> None:
    _, html = conll
    pr = next(svg for svg in re.findall(r"<svg.*?</svg>", html, re.S)
              if 'id="system-AMU"' in svg and 'id="system-INPUT"' not in svg)
    curves = re.findall(r'<g id="equal-f-(0\.\d+)">', pr)
    labels = re.findall(r'<g id="equal-f-label-(0\.\d+)">.*?F0\.5=(0\.\d+)', pr, re.S)
    assert len(curves) >= 3 and sorted(c for c, _ in labels) == sorted(curves)
    assert all(a == b for a, b in labels)


def test_every_label_of_the_pr_plot_is_inside_its_axes(conll, monkeypatch) -> None:
    """The label of the last equal-F curve (F0.5=0.6 on CoNLL-2014) ran across the right
    edge of the frame: every label's drawn box now lies within the axes."""
    from m2lsp.reporting import plots

    drawn = []
    monkeypatch.setattr(plots, "_svg", lambda figure: drawn.append(figure) or "<svg/>")
    data, _ = conll
    assert plots.pr_scatter(data) is not None
    figure = drawn[0]
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    frame = axes.get_window_extent(renderer)
    labels = [t for t in axes.texts if t.get_text().startswith("F0.5=")]
    assert len(labels) >= 3
    for label in labels:
        box = label.get_window_extent(renderer)
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, label.get_text()


def test_one_system_is_said_as_what_its_metric_supports(tmp_path: Path) -> None:
    """One M2 system: its intervals are shown, and the page no longer says M2 has no
    per-sentence statistics; a metric without them (CGEC) still says so."""
    data, html = _report(tmp_path, "conll2014/gold/official-2014.combined.m2",
                         ["conll2014/systems/CAMB"])
    assert data["per_sentence"] and data["systems"][0]["intervals"]
    assert "has no per-sentence statistics" not in html
    assert "One system: nothing to test it against" in html


def test_names_drop_the_extension_unless_given(tmp_path: Path) -> None:
    gold = shared("conll2014/gold/official-2014.combined.m2")
    names = {"CAMB.txt": "CAMB", "AMU.out": "AMU", "run.1": "run.1"}
    for name in names:
        (tmp_path / name).write_text(shared("conll2014/systems/CAMB").read_text("utf-8"),
                                     encoding="utf-8")
    paths = [str(tmp_path / n) for n in names]
    out = tmp_path / "report.json"
    assert main(["report", str(gold), *paths, "--format", "json", "--samples", "10",
                 "-o", str(out)]) == 0
    data = json.loads(out.read_text("utf-8"))
    assert [s["name"] for s in data["systems"]] == list(names.values())
    assert main(["report", str(gold), *paths, "--format", "json", "--samples", "10",
                 "-o", str(out), "--names", "a.txt,b,c"]) == 0
    data = json.loads(out.read_text("utf-8"))
    assert [s["name"] for s in data["systems"]] == ["a.txt", "b", "c"]


def test_the_heatmap_has_no_none_column(conll) -> None:
    data, html = conll
    assert any(t["type"] == "(none)" for t in data["types"])  # m2's untyped FPs are there
    heatmap = re.search(r'<figure id="fig-heatmap">(.*?)</figure>', html, re.S).group(1)
    assert "(none)" not in heatmap and "ArtOrDet" in heatmap


def test_one_pair_is_no_plural(tmp_path: Path) -> None:
    _, html = _report(tmp_path, "conll2014/gold/official-2014.combined.m2",
                      ["conll2014/systems/CAMB", "conll2014/systems/AMU"])
    assert "1 pairs" not in html and "one pair" in html


@pytest.mark.parametrize(("files", "expected"), [
    (["a/CAMB.txt", "a/AMU.txt"], ["CAMB", "AMU"]),
    (["a/CAMB.txt", "b/CAMB.txt"], ["a/CAMB", "b/CAMB"]),
    (["x/a/CAMB.txt", "y/a/CAMB.txt", "y/b/CAMB.txt"], ["x/a/CAMB", "y/a/CAMB", "b/CAMB"]),
    (["a/CAMB.txt", "a/CAMB.out"], ["CAMB.txt", "CAMB.out"]),
])
def test_systems_of_one_file_name_stay_apart(files: list[str], expected: list[str],
                                             tmp_path: Path) -> None:
    """Two systems with the same file name in different folders are two systems, named by
    the shortest end of their paths that tells them apart, by `report` and by
    `m2lsp.report()` alike (the API named both by the file name, so one replaced the
    other)."""
    import m2lsp

    gold = tmp_path / "gold.m2"
    gold.write_text("S a b c\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    paths = []
    for k, name in enumerate(files):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(["x b c", "a b c", "x b d"][k % 3] + "\n", "utf-8")
        paths.append(tmp_path / name)
    out = tmp_path / "report.json"
    assert main(["report", str(gold), *map(str, paths), "--format", "json", "--samples", "10",
                 "-o", str(out)]) == 0
    assert [s["name"] for s in json.loads(out.read_text("utf-8"))["systems"]] == expected
    data = m2lsp.report(gold, paths, samples=10)
    assert sorted(s["name"] for s in data["systems"]) == sorted(expected)
