"""The report's figures as static SVG, drawn by matplotlib (the extra `m2lsp[report]`):
precision against recall with F-beta iso-curves, heatmaps of F per system and error type
(each cell's counts in its SVG <title>, which browsers show on hover), and found/missed
bars per type.  Text stays text in the SVG (smaller, and selectable in a paper's figure)."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.reporting.tables import metric_name

INSTALL = "pip install 'm2lsp[report]'"
MAX_TYPES = 30  # the heatmap's and bars' types: those with the most gold edits


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise UsageError(f"the HTML report draws its figures with matplotlib, which is not "
                         f"installed: {INSTALL}") from None
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "font.size": 9,
                                "svg.hashsalt": "m2lsp"})
    import matplotlib.pyplot as plt

    return plt


def _svg(figure: Any) -> str:
    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(figure)
    text = out.getvalue()
    return text[text.index("<svg"):]


# matplotlib's default cycle (tab10): one colour a system, by its place among all the
# report's systems, the same in every figure
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")


def colours(names: Sequence[str]) -> dict[str, str]:
    """Each system's colour, from its place in the whole list: a figure that leaves a
    system out (INPUT, which proposes nothing, from the P/R plot) shifts no other's."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def system_id(name: str) -> str:
    """The SVG id of a system's marks (`gid`), so a page or a test can find them."""
    return "system-" + re.sub(r"[^A-Za-z0-9_-]", "_", name)


def f_beta(p: float, r: float, beta: float) -> float:
    return (1 + beta * beta) * p * r / (beta * beta * p + r) if p + r else 0.0


def beta_of(data: dict[str, Any]) -> float:
    """The metric's beta; F1 where it has none (CGED's levels are F1)."""
    return data["beta"] if data["beta"] is not None else 1.0


def pr_scatter(data: dict[str, Any]) -> str | None:
    """Each system's precision and recall, with curves of equal F-beta."""
    figure = pr_figure(data)
    return None if figure is None else _svg(figure)


def pr_figure(data: dict[str, Any]) -> Any:
    """`pr_scatter`'s figure (matplotlib), None where the metric has no P and R."""
    if not {"precision", "recall"} <= set(data["names"]):
        return None
    plt = _pyplot()
    beta = beta_of(data)
    figure, axes = plt.subplots(figsize=(5.2, 4.2))
    points = [(s["name"], s["scores"]["recall"], s["scores"]["precision"])
              for s in data["systems"] if s.get("proposed") != 0]
    (x0, x1), (y0, y1) = zoomed([x for _, x, _ in points]), zoomed([y for _, _, y in points])
    _equal_f_curves(axes, beta, (x0, x1), (y0, y1))
    colour = colours([s["name"] for s in data["systems"]])
    for name, x, y in points:
        axes.scatter([x], [y], s=28, zorder=3, color=colour[name], gid=system_id(name))
    axes.set(xlabel="recall", ylabel="precision", xlim=(x0, x1), ylim=(y0, y1))
    axes.set_title(f"Precision and recall ({metric_name(data)}), curves of equal F{beta:g}")
    label_points(figure, axes, points, 8)
    return figure


def _equal_f_curves(axes: Any, beta: float, xs: tuple[float, float],
                    ys: tuple[float, float]) -> None:
    """Curves of equal F-beta every 0.05, each labelled "F0.5=0.3" where it leaves the
    visible part of the plot (a label at a curve's far end would fall outside the axes,
    where matplotlib does not draw it), ending at its curve near the right edge (else it
    runs across the frame); a curve whose label would touch the last one drawn is left out,
    so that every curve shown is labelled."""
    grid = [i / 400 for i in range(1, 401)]
    last: tuple[float, float] | None = None
    for step in range(1, 20):
        level = step / 20
        curve = [(r, p) for p in grid for r in [_recall_for(level, p, beta)] if r is not None]
        seen = [(r, p) for r, p in curve if xs[0] <= r <= xs[1] and ys[0] <= p <= ys[1]]
        if len(seen) < 2:
            continue
        at = ((seen[-1][0] - xs[0]) / (xs[1] - xs[0]), (seen[-1][1] - ys[0]) / (ys[1] - ys[0]))
        if last is not None and abs(at[0] - last[0]) < 0.16 and abs(at[1] - last[1]) < 0.06:
            continue
        last = at
        axes.plot([x for x, _ in curve], [y for _, y in curve], color="#bbb", lw=0.7,
                  gid=f"equal-f-{level:g}")
        right = at[0] > 0.85  # near the right edge: the label ends at its curve, inside
        axes.annotate(f"F{beta:g}={level:g}", seen[-1], fontsize=6.5, color="#777",
                      textcoords="offset points", xytext=(-2 if right else 2, -8),
                      ha="right" if right else "left", gid=f"equal-f-label-{level:g}")


def zoomed(values: Sequence[float], margin: float = 0.15, least: float = 0.1
           ) -> tuple[float, float]:
    """Axis limits around the values with a margin (at least `least` wide), within 0..1."""
    if not values:
        return 0.0, 1.0
    low, high = min(values), max(values)
    pad = max((high - low) * margin, (least - (high - low)) / 2, 0.02)
    return max(0.0, low - pad), min(1.02, high + pad)


Spot = tuple[int, int, str]  # where a label goes: (dx, dy) in points, its alignment
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in display units

# where a label may go beside its point: (dx, dy) in points and the text's alignment
SPOTS: tuple[Spot, ...] = ((5, 0, "left"), (-5, 0, "right"), (5, 9, "left"), (5, -9, "left"),
         (-5, 9, "right"), (-5, -9, "right"), (0, 14, "center"), (0, -14, "center"))


def _ring(radius: float, count: int = 12) -> tuple[Spot, ...]:
    """Spots around a point at `radius` points, the label aligned away from the point."""
    spots = []
    for k in range(count):
        angle = 2 * math.pi * k / count
        dx, dy = math.cos(angle), math.sin(angle)
        align = "left" if dx > 0.3 else "right" if dx < -0.3 else "center"
        spots.append((round(radius * dx), round(radius * dy), align))
    return tuple(spots)


# farther spots, tried after SPOTS, nearest first (joined to their point by a line)
FARTHER = tuple(spot for radius in (18, 26, 36, 48, 62) for spot in _ring(radius))


def label_points(figure: Any, axes: Any, points: Sequence[tuple[str, float, float]],
                 fontsize: float) -> list[Any]:
    """Each point's name beside it where it overlaps no label placed before it, no point
    and nothing outside the axes, measured as matplotlib draws the text (the axes' limits
    set first): near spots before farther ones (a farther label joined to its point by a
    thin line), and where every spot is taken, the one that overlaps least."""
    renderer = figure.canvas.get_renderer()
    dots = []
    for _, x, y in points:
        px, py = axes.transData.transform((x, y))
        dots.append((px - 3, py - 3, px + 3, py + 3))
    frame = axes.get_window_extent(renderer)
    inside = (frame.x0, frame.y0, frame.x1, frame.y1)
    taken: list[Box] = []
    labels = []
    for name, x, y in points:
        tried: list[tuple[int, int, Spot, Box]] = []  # (clashes, order, spot, box)
        for spot in (*SPOTS, *FARTHER):
            box = _label_box(axes, renderer, name, (x, y), spot, fontsize)
            clashes = 2 * sum(_overlap(box, other) for other in (*taken, *dots)) \
                + (not _within(box, inside))
            tried.append((clashes, len(tried), spot, box))
            if clashes == 0:
                break
        _, index, (dx, dy, align), box = min(tried)
        line = {"arrowprops": {"arrowstyle": "-", "lw": 0.5, "color": "#999",
                               "shrinkA": 0, "shrinkB": 3}} if index >= len(SPOTS) else {}
        labels.append(axes.annotate(name, (x, y), textcoords="offset points",
                                    xytext=(dx, dy), fontsize=fontsize, ha=align,
                                    va="center", **line))
        taken.append(box)
    return labels


def _label_box(axes: Any, renderer: Any, name: str, xy: tuple[float, float], spot: Spot,
               fontsize: float) -> Box:
    """Where a label at `spot` would be drawn, in display units."""
    label = axes.annotate(name, xy, textcoords="offset points", xytext=spot[:2],
                          fontsize=fontsize, ha=spot[2], va="center")
    extent = label.get_window_extent(renderer)
    label.remove()
    return extent.x0, extent.y0, extent.x1, extent.y1


def _within(box: Box, frame: Box) -> bool:
    return frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] \
        and box[3] <= frame[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _recall_for(f: float, p: float, beta: float) -> float | None:
    """The recall at which precision `p` gives F-beta `f` (None where none does)."""
    denominator = (1 + beta * beta) * p - f
    if denominator <= 0:
        return None
    r = f * beta * beta * p / denominator
    return r if 0 <= r <= 1 else None


def group_of(kind: str) -> str:
    """ERRANT's operation (`R:VERB:SVA` -> `R`); other taxonomies' types stand alone."""
    return kind.split(":", 1)[0] if ":" in kind else kind


# m2's false positives near no gold edit (scoring.m2.breakdown.UNTYPED): not an error type
UNTYPED = "(none)"


def type_table(data: dict[str, Any], grouped: bool) -> list[tuple[str, list[Any]]]:
    """(type, per system (tp, fp, fn) or None), the types with the most gold edits first
    (grouped: summed within each ERRANT operation); m2's `(none)` left out."""
    table: dict[str, list[Any]] = {}
    for row in data["types"]:
        if row["type"] == UNTYPED:
            continue
        name = group_of(row["type"]) if grouped else row["type"]
        cells = table.setdefault(name, [None] * len(data["systems"]))
        for k, counts in enumerate(row["systems"]):
            if counts is not None:
                old = cells[k] or (0, 0, 0)
                cells[k] = (old[0] + counts["tp"], old[1] + counts["fp"], old[2] + counts["fn"])
    rows = sorted(table.items(), key=lambda item: -max(
        (c[0] + c[2] for c in item[1] if c is not None), default=0))
    return rows[:MAX_TYPES]


def _f(counts: Sequence[int], beta: float) -> float:
    tp, fp, fn = counts
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return f_beta(p, r, beta)


def heatmap(data: dict[str, Any], rows: list[tuple[str, list[Any]]], note: str = ""
            ) -> str | None:
    """F-beta of each system (rows of the figure) on each error type (its columns: `rows`
    of `type_table`); hover: the counts."""
    if not rows:
        return None
    plt = _pyplot()
    from matplotlib.patches import Rectangle

    beta = beta_of(data)
    names = [s["name"] for s in data["systems"]]
    figure, axes = plt.subplots(figsize=(max(4.0, 0.42 * len(rows) + 1.6),
                                         0.34 * len(names) + 1.4))
    colours = plt.get_cmap("viridis")
    titles = {}
    for column, (kind, cells) in enumerate(rows):
        for row, counts in enumerate(cells):
            if counts is None:
                continue
            value = _f(counts, beta)
            cell = Rectangle((column, row), 1, 1, facecolor=colours(value), edgecolor="white")
            cell.set_gid(f"cell-{row}-{column}")
            axes.add_patch(cell)
            axes.text(column + 0.5, row + 0.5, f"{value:.2f}", ha="center", va="center",
                      fontsize=6.5, color="white" if value < 0.6 else "black")
            titles[f"cell-{row}-{column}"] = (f"{names[row]}, {kind}: F{beta:g} {value:.4f}; "
                                              f"TP {counts[0]}, FP {counts[1]}, FN {counts[2]}")
    axes.set(xlim=(0, len(rows)), ylim=(len(names), 0))
    axes.set_xticks([i + 0.5 for i in range(len(rows))], [k for k, _ in rows], rotation=60,
                    ha="right", fontsize=7)
    axes.set_yticks([i + 0.5 for i in range(len(names))], names)
    axes.set_title(f"F{beta:g} per error type{note}")
    return _with_titles(_svg(figure), titles)


def _with_titles(svg: str, titles: dict[str, str]) -> str:
    """Each cell's <title> (its counts), which a browser shows on hover."""
    from html import escape

    def titled(match: re.Match[str]) -> str:
        title = titles.get(match.group(1))
        return match.group(0) + (f"<title>{escape(title)}</title>" if title else "")
    return re.sub(r'<g id="(cell-\d+-\d+)">', titled, svg)


def found_missed(data: dict[str, Any], rows: list[tuple[str, list[Any]]]) -> str | None:
    """Per error type (`rows` of `type_table`, most gold edits first), each system's found
    (TP) and missed (FN)."""
    if not rows:
        return None
    plt = _pyplot()
    names = [s["name"] for s in data["systems"]]
    colour = colours(names)
    figure, axes = plt.subplots(figsize=(max(5.0, 0.7 * len(rows) * max(1, len(names)) / 4),
                                         3.6))
    width = 0.8 / max(1, len(names))
    for k, name in enumerate(names):
        xs = [i + k * width for i in range(len(rows))]
        found = [cells[k][0] if cells[k] else 0 for _, cells in rows]
        missed = [cells[k][2] if cells[k] else 0 for _, cells in rows]
        bars = axes.bar(xs, found, width, label=name, color=colour[name])
        light = axes.bar(xs, missed, width, bottom=found, color=colour[name], alpha=0.3)
        for bar in (*bars, *light):
            bar.set_gid(system_id(name))
    axes.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))], [k for k, _ in rows],
                    rotation=45, ha="right", fontsize=7)
    axes.set_ylabel("gold edits: found (solid), missed (light)")
    axes.legend(fontsize=7, ncols=2)
    axes.set_title("Found and missed edits per error type")
    return _svg(figure)


def meta_eval_scatter(meta: dict[str, Any], metric: dict[str, Any]) -> str:
    """The metric's score of each system against each human score of a meta-evaluation
    (`metaeval.render.to_dict`), one panel a human score, systems labelled."""
    return _svg(meta_eval_figure(meta, metric))


def meta_eval_figure(meta: dict[str, Any], metric: dict[str, Any]) -> Any:
    """`meta_eval_scatter`'s figure (matplotlib)."""
    plt = _pyplot()
    humans = list(meta["human"])
    figure, panels = plt.subplots(1, len(humans), figsize=(3.9 * len(humans), 3.4),
                                  squeeze=False, gridspec_kw={"wspace": 0.45})
    names = meta["system_names"]
    colour = colours(names)
    human_scores = meta["human_scores"]
    for axes, human in zip(panels[0], humans, strict=True):
        points = [(name, metric["scores"][name], human_scores[human][name]) for name in names]
        for name, x, y in points:
            axes.scatter([x], [y], s=20, zorder=3, color=colour[name], gid=system_id(name))
        xs, ys = _span([x for _, x, _ in points]), _span([y for _, _, y in points])
        axes.set(xlim=xs, ylim=ys)
        label_points(figure, axes, points, 7)
        level = metric["system_level"][human]
        axes.set(xlim=xs, ylim=ys, xlabel=f"{metric['metric']}",
                 ylabel=meta["human"][human])
        axes.set_title(f"r {_shown(level['pearson'])}, rho {_shown(level['spearman'])}",
                       fontsize=8)
    figure.suptitle(f"{metric['metric']} against human judgments ({meta['dataset']}, "
                    f"{meta['systems']} systems)")
    return figure


def _span(values: Sequence[float], margin: float = 0.12) -> tuple[float, float]:
    """The values' range with a margin (any sign: human scores such as TrueSkill's are
    not shares)."""
    low, high = min(values), max(values)
    pad = (high - low) * margin or 0.05
    return low - pad, high + pad


def _shown(value: float | None) -> str:
    return "nan" if value is None else f"{value:.3f}"


def figures(data: dict[str, Any]) -> dict[str, str]:
    """Every figure the data has, by name (SVG text)."""
    grouped, full = type_table(data, grouped=True), type_table(data, grouped=False)
    merged = grouped != full  # ERRANT's types: by operation, and each one a click away
    drawn = {"pr": pr_scatter(data),
             "heatmap": heatmap(data, grouped, " (ERRANT's operations)" if merged else "")}
    if merged:
        drawn["heatmap_full"] = heatmap(data, full)
    drawn["bars"] = found_missed(data, full[:12])
    meta = data.get("meta_eval")
    if meta:
        for metric in meta["metrics"]:
            drawn[f"meta_eval_{metric['metric']}"] = meta_eval_scatter(meta, metric)
    return {name: svg for name, svg in drawn.items() if svg}
