"""Analysis results -> SVG figures for the HTML report (matplotlib's SVG backend, no display).

Each function takes the :func:`kg.analyze.analyze` dict and returns an SVG document as
text, or None when there is nothing to draw. Figures are drawn on private
``Figure`` objects (no pyplot state) with a fixed SVG hash salt and no date, so the
same analysis gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from kg.escape import xml_text

__all__ = ["annual_production_plot", "top_concepts_plot", "community_sizes_plot", "thematic_map_plot", "degree_plot", "trends_plot",
           "evolution_plot", "all_plots"]

_STYLE = {"svg.hashsalt": "kg", "svg.fonttype": "path", "font.size": 9, "axes.spines.top": False,
          "axes.spines.right": False}


def _figure(draw, size: tuple[float, float] = (7.0, 4.0)):
    import matplotlib  # matplotlib is heavy (a second): only the HTML report's figures need it

    from matplotlib.backends.backend_svg import FigureCanvasSVG  # see above
    from matplotlib.figure import Figure  # see above

    with matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=size, dpi=100)
        FigureCanvasSVG(figure)
        figure.set_layout_engine("tight")
        draw(figure)
    return figure


def _svg(draw, size: tuple[float, float] = (7.0, 4.0)) -> str:
    import matplotlib  # see _figure

    figure = _figure(draw, size)
    with matplotlib.rc_context(_STYLE):
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def annual_production_plot(analysis: Mapping) -> str | None:
    """Bars: papers per year (the descriptive section's annual production)."""
    rows = (analysis.get("descriptive") or {}).get("annual_production") or []
    if not rows:
        return None

    def draw(figure):
        ax = figure.add_subplot()
        ax.bar([y for y, _ in rows], [n for _, n in rows], color="#4c72b0")
        ax.set_xlabel("year")
        ax.set_ylabel("papers")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_title("Annual production")

    return _svg(draw)


def top_concepts_plot(analysis: Mapping) -> str | None:
    """Horizontal bars: the most frequent concepts and their number of papers, top down in the table's order."""
    rows = analysis.get("top_concepts") or []
    if not rows:
        return None

    def draw(figure):
        ax = figure.add_subplot()
        names = [_short(r["name"]) for r in rows][::-1]
        ax.barh(range(len(rows)), [r["papers"] for r in rows][::-1], color="#4c72b0")
        ax.set_yticks(range(len(rows)), names)
        ax.set_xlabel("papers")
        ax.set_title("Top concepts")

    return _svg(draw)


def community_sizes_plot(analysis: Mapping, *, top: int = 30) -> str | None:
    """Bars: the number of papers in each of the ``top`` largest communities."""
    rows = sorted((c for c in analysis.get("communities") or [] if c["size"] > 1),
                  key=lambda c: (-c["size"], c["id"]))[:top]  # numbers need not follow size after an update
    if not rows:
        return None

    def draw(figure):
        ax = figure.add_subplot()
        ax.bar([str(c["id"]) for c in rows], [c["size"] for c in rows], color="#55a868")
        ax.set_xlabel("community")
        ax.set_ylabel("papers")
        ax.set_title("Community sizes")

    return _svg(draw)


def thematic_map_figure(analysis: Mapping):
    """The thematic map as a matplotlib ``Figure`` (drawn, labels placed): see :func:`thematic_map_plot`."""
    rows = analysis.get("thematic_map") or []
    if not rows:
        return None
    import statistics

    def draw(figure):
        ax = figure.add_subplot()
        xs = [r["centrality"] for r in rows]
        ys = [r["density"] for r in rows]
        most = max(max(q["papers"] for q in rows), 1)
        sizes = [30 + 400 * r["papers"] / most for r in rows]
        colours = [_PALETTE[i % len(_PALETTE)] for i in range(len(rows))]
        ax.scatter(xs, ys, s=sizes, alpha=0.55, color=colours, edgecolors="white", linewidths=0.5)
        mid_x, mid_y = statistics.median(xs), statistics.median(ys)
        ax.axvline(mid_x, color="grey", lw=0.8, ls="--")
        ax.axhline(mid_y, color="grey", lw=0.8, ls="--")
        ax.margins(0.25)
        ax.set_xlabel("Callon centrality (links to other themes)")
        ax.set_ylabel("Callon density (links inside the theme)")
        ax.set_title("Thematic map (one theme per community)")
        corners = []
        for text, (hx, vy) in {"motor themes": ("right", "top"), "niche themes": ("left", "top"),
                               "emerging or declining": ("left", "bottom"),
                               "basic themes": ("right", "bottom")}.items():
            corners.append(ax.text(0.99 if hx == "right" else 0.01, 0.99 if vy == "top" else 0.01, text,
                                   transform=ax.transAxes, ha=hx, va=vy, color="grey", fontsize=8,
                                   fontstyle="italic"))
        labels = [f"{r['id']}: {_short(r['label'] or '(no shared concept)', 44)}" for r in rows]
        _place_labels(figure, ax, list(zip(xs, ys, labels, sizes)), corners)
        figure.set_layout_engine("none")  # placed for this layout: keep it when saving

    return _figure(draw, (8.0, 6.0))


def _place_labels(figure, ax, points, obstacles) -> None:
    """Label each point near it where the label overlaps no other label, quadrant name or disc centre.

    Largest discs first; candidate spots around the point at growing distances (in points),
    the first free one wins, with a thin line back to the disc once the label has moved away.
    A label that finds no free spot inside the axes keeps its last candidate (drawn, not
    lost). Deterministic: the same points give the same placement.
    """
    from matplotlib.transforms import Bbox  # matplotlib is heavy: see _figure

    figure.draw_without_rendering()  # the layout, so that extents are final
    renderer = figure._get_renderer()  # the one draw_without_rendering used (SVG canvases have no public getter)
    frame = ax.get_window_extent(renderer)
    taken = [t.get_window_extent(renderer).expanded(1.05, 1.2) for t in obstacles]
    centres = [ax.transData.transform((x, y)) for x, y, _, _ in points]
    order = sorted(range(len(points)), key=lambda i: (-points[i][3], i))
    pixels = figure.dpi / 72.0  # offset points to display pixels
    directions = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
                  (2, 1), (-2, 1), (2, -1), (-2, -1), (1, 2), (-1, 2), (1, -2), (-1, -2)]

    def extent(text: str) -> tuple[float, float]:
        """The label's width and height in pixels, measured once (candidate spots are arithmetic)."""
        probe = ax.text(0, 0, text, fontsize=7)
        box = probe.get_window_extent(renderer)
        probe.remove()
        return box.width, box.height

    def attempt(i: int, text: str):
        x, y, _, size = points[i]
        cx, cy = centres[i]
        width, height = extent(text)
        radius = (size ** 0.5) / 2 + 2
        for step in range(20):
            distance = radius + 6 * step
            for dx, dy in directions:
                norm = (dx * dx + dy * dy) ** 0.5
                ox, oy = cx + dx / norm * distance * pixels, cy + dy / norm * distance * pixels
                x0 = ox if dx > 0 else ox - width if dx < 0 else ox - width / 2
                y0 = oy if dy > 0 else oy - height if dy < 0 else oy - height / 2
                box = Bbox.from_bounds(x0, y0, width, height)
                if step:  # the line back to the disc is part of what the label covers
                    box = Bbox.union([box, Bbox.from_bounds(cx, cy, 0, 0)])
                inside = (box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0 and box.y1 <= frame.y1)
                if inside and not any(box.overlaps(other) for other in taken) and not any(
                        box.contains(px, py) for j, (px, py) in enumerate(centres) if j != i):
                    ha = "left" if dx > 0 else "right" if dx < 0 else "center"
                    va = "bottom" if dy > 0 else "top" if dy < 0 else "center"
                    ax.annotate(text, (x, y), xytext=(dx / norm * distance, dy / norm * distance),
                                textcoords="offset points", ha=ha, va=va, fontsize=7,
                                arrowprops=None if step == 0 else {"arrowstyle": "-", "color": "grey", "lw": 0.5})
                    return box
        return None

    for i in order:
        text = points[i][2]
        # crowded: the number alone (the table beside the figure names it), else drawn on its disc
        placed = attempt(i, text) or attempt(i, text.split(":")[0])
        if placed is None:
            label = ax.annotate(text.split(":")[0], (points[i][0], points[i][1]), ha="center", va="center",
                                fontsize=7)
            placed = label.get_window_extent(renderer)
        taken.append(placed)


def thematic_map_plot(analysis: Mapping) -> str | None:
    """Scatter: one theme per community by Callon centrality and density, split at the medians; each disc
    labelled with its number and multi-word label, no label over another or over a quadrant's name."""
    import matplotlib

    figure = thematic_map_figure(analysis)
    if figure is None:
        return None
    with matplotlib.rc_context(_STYLE):
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def degree_plot(analysis: Mapping) -> str | None:
    """Log–log degree distributions of the paper (related) and concept (co-occurrence) graphs."""
    dist = analysis.get("degree_distribution") or {}
    series = {name: [(d, n) for d, n in rows if d > 0] for name, rows in dist.items()}
    if not any(series.values()):
        return None

    def draw(figure):
        ax = figure.add_subplot()
        for (name, rows), marker in zip(sorted(series.items()), "os"):
            if rows:
                ax.scatter([d for d, _ in rows], [n for _, n in rows], s=10, marker=marker, alpha=0.7, label=name)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("degree")
        ax.set_ylabel("nodes")
        ax.legend()
        ax.set_title("Degree distribution")

    return _svg(draw)


def trends_plot(analysis: Mapping, *, min_share: float = 0.02) -> str | None:
    """Lines: share of each year's papers that mention each of the top concepts.

    The years the analysis hides (``trends["hidden_years"]``: fewer papers than its
    minimum) are left out, and so are years with fewer papers than ``min_share`` of the
    busiest year's: a share of a handful of papers is noise.
    """
    trends = analysis.get("trends")
    if not trends:
        return None
    floor = min_share * max(trends["papers"], default=0)
    hidden = set(trends.get("hidden_years") or ())
    keep = [i for i, n in enumerate(trends["papers"]) if n >= floor and trends["years"][i] not in hidden]
    if len(keep) < 2:
        return None

    def draw(figure):
        ax = figure.add_subplot()
        years = [trends["years"][i] for i in keep]
        for row in trends["concepts"]:
            ax.plot(years, [100 * row["counts"][i] / trends["papers"][i] for i in keep], marker=".",
                    label=_short(row.get("name", row["id"]), 30))
        ax.set_xlabel("year")
        ax.set_ylabel("% of the year's papers")
        if hidden:
            ax.set_title(f"Concept trends (years with fewer than {trends.get('min_papers')} papers left out)")
        ax.legend(fontsize=7)
        if not hidden:
            ax.set_title("Concept trends")

    return _svg(draw)


def evolution_plot(analysis: Mapping, *, width: int = 900, height: int = 420) -> str | None:
    """Alluvial diagram of the thematic evolution: a column per slice, a bar per theme (height:
    papers), a band per link (width: inclusion index). Hand-written SVG, every label escaped."""
    import html

    evolution = analysis.get("evolution") or {}
    slices = [s for s in evolution.get("slices") or [] if s.get("themes")]
    if not slices:
        return None

    def esc(text: object) -> str:
        return html.escape(xml_text(str(text)), quote=True)

    top, bottom, gap, bar = 30.0, 20.0, 6.0, 14.0
    total = max(sum(t["size"] for t in s["themes"]) for s in slices)
    most = max(len(s["themes"]) for s in slices)
    scale = (height - top - bottom - gap * (most - 1)) / max(total, 1)
    step = (width - 230.0) / max(len(slices) - 1, 1)  # room for the last column's labels
    boxes = {}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">']
    for i, s in enumerate(slices):
        x = 20.0 + i * step
        out.append(f'<text x="{x:.1f}" y="16" font-weight="bold">{esc(s["start"])}–{esc(s["end"])} '
                   f'({esc(s["papers"])} papers)</text>')
        y = top
        for t in s["themes"]:
            h = max(t["size"] * scale, 2.0)
            boxes[t["id"]] = (x, y, h)
            colour = _PALETTE[int(str(t["id"]).split(".")[1]) % len(_PALETTE)]
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar}" height="{h:.1f}" fill="{colour}">'
                       f'<title>{esc(t["id"])} · {esc(t["label"])} · {esc(t["size"])} papers · '
                       f'{esc(t["status"])}</title></rect>')
            out.append(f'<text x="{x + bar + 3:.1f}" y="{y + min(h, 20) / 2 + 3:.1f}">{esc(t["id"])} '
                       f'{esc(_short(t["label"] or "(no label)", 28))}</text>')
            y += h + gap
    for link in evolution.get("links") or []:
        if link["source"] not in boxes or link["target"] not in boxes:
            continue
        (x0, y0, h0), (x1, y1, h1) = boxes[link["source"]], boxes[link["target"]]
        w = max(1.0, float(link["inclusion"]) * min(h0, h1))
        a, b = x0 + bar, x1
        ya, yb = y0 + h0 / 2, y1 + h1 / 2
        mid = (a + b) / 2
        out.append(f'<path d="M{a:.1f},{ya:.1f} C{mid:.1f},{ya:.1f} {mid:.1f},{yb:.1f} {b:.1f},{yb:.1f}" '
                   f'fill="none" stroke="#888" stroke-opacity="0.45" stroke-width="{w:.1f}">'
                   f'<title>{esc(link["source"])} → {esc(link["target"])}: {esc(link["kind"])}, '
                   f'inclusion {esc(link["inclusion"])}</title></path>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


_PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
            "#bab0ac")


def all_plots(analysis: Mapping) -> dict[str, str]:
    """Every figure that has data, by name."""
    makers = {"annual_production": annual_production_plot, "top_concepts": top_concepts_plot, "community_sizes": community_sizes_plot,
              "thematic_map": thematic_map_plot, "trends": trends_plot, "degree": degree_plot,
              "evolution": evolution_plot}
    plots = {name: make(analysis) for name, make in makers.items()}
    return {name: xml_text(svg) for name, svg in plots.items() if svg}  # valid XML whatever the labels hold
