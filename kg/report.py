"""Analysis results -> ``report.md``, a self-contained ``report.html`` and ``report.json``.

The three share one list of sections (title, explanation, table, figure), so they
always say the same thing; every table has an ``id`` column naming the node as it
appears in ``graph.json``, ``graph.html`` and Neo4j. The HTML embeds its figures as
base64 SVG (see :mod:`kg.plots`) and loads nothing from the network.
"""

from __future__ import annotations

import base64
import html
import json
import os
from collections.abc import Mapping, Sequence

from kg.escape import clean_text, clean_tree, markdown_text, xml_text
from kg.atomic import atomic_write
from kg.plots import all_plots

__all__ = ["report_sections", "render_markdown", "render_report_html", "render_json", "write_report", "md_table",
           "REPORT_FILES"]

REPORT_FILES = ("report.md", "report.html", "report.json")
_COMMUNITY_ROWS = 30
_COMMUNITY_CONCEPTS = 5  # distinctive concepts listed per community (the analysis keeps more)


def _num(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _section(title: str, text: str = "", header: Sequence[str] = (), rows: Sequence[Sequence] = (),
             plot: str | None = None) -> dict:
    return {"title": title, "text": text, "header": list(header), "rows": [list(r) for r in rows], "plot": plot}


def _centrality_section(title: str, text: str, rows: Sequence[Mapping], *, kind: bool = False) -> dict:
    header = ["name", "id"] + (["kind"] if kind else []) + ["degree", "weighted degree", "PageRank", "betweenness",
                                                          "eigenvector"]
    body = [[r["name"], r["id"]] + ([r["kind"]] if kind else [])
            + [r["degree"], r["weighted_degree"], r["pagerank"], r["betweenness"], r["eigenvector"]] for r in rows]
    return _section(title, text, header, body)


def report_sections(analysis: Mapping) -> list[dict]:
    """The report as sections: ``{"title", "text", "header", "rows", "plot"}`` (plot: a figure name)."""
    s, p = analysis["summary"], analysis["parameters"]
    edges = s["edges"]
    corpus_rows = [
        ["papers", s["papers"]],
        ["concepts", s["concepts"]],
        ["concepts shared by 2+ papers", s["shared_concepts"]],
        *[[f"{kind} nodes", n] for kind, n in s.get("other_nodes", {}).items()],
        *[[f"{kind} edges", n] for kind, n in edges.items()],
        ["unresolved references", s.get("unresolved_references", 0)],
        ["years", f"{s['years'][0]}–{s['years'][1]} ({s['dated_papers']} dated papers)" if s.get("years")
         else "unknown"],
    ]
    between = "; ".join(f"{name}: {how}" for name, how in p["betweenness"].items())
    sections = [
        _section("Corpus", "", ["measure", "value"], corpus_rows),
        _section("Parameters", "", ["parameter", "value"], [
            ["communities", f"{p['method']} (resolution {p['resolution']}, seed {p['seed']})"],
            ["community labels", {"ctfidf": "class-based TF-IDF", "loglik": "log-likelihood ratio (G²)"}
             .get(p["scoring"], p["scoring"])],
            ["betweenness", between],
            *([["engine", p["engine"] + ": centralities and communities computed in Neo4j"]] if p.get("engine")
              else []),
        ]),
        *_descriptive_sections(analysis.get("descriptive")),
        _section("Top concepts", "Concepts by the number of papers that mention them (ties by id), the chart in "
                 "the table's order; a one-word ordinary English word (\"user\", \"query\") counts half when "
                 "choosing which concepts make the list.",
                 ["concept", "id", "papers"], [[c["name"], c["id"], c["papers"]] for c in analysis["top_concepts"]],
                 "top_concepts"),
        _centrality_section(
            "Central papers",
            "On the paper–paper graph (papers linked by shared concepts, rare concepts weighing more). "
            "Betweenness uses 1/weight as the length of a link.", analysis["central_papers"]),
        _centrality_section("Central concepts", "On the concept co-occurrence graph (weight: papers in common).",
                            analysis["central_concepts"]),
        _centrality_section("Central nodes of the paper–concept graph",
                            "On the bipartite mentions graph (weight: extraction score).", analysis["bipartite"],
                            kind=True),
    ]
    if analysis.get("citations"):
        sections.append(_section("Most cited papers", "By local citations: the times a paper is cited by papers "
                                 "of this corpus (ties by PageRank on the citation graph, shown beside).",
                                 ["paper", "id", "cited by", "cites", "PageRank"],
                                 [[r["name"], r["id"], r["cited_by"], r["cites"], r["pagerank"]]
                                  for r in analysis["citations"]]))
    communities = analysis["communities"]
    # largest first (an updated build keeps earlier numbers, so numbers need not follow size)
    shown = sorted((c for c in communities if c["size"] > 1), key=lambda c: (-c["size"], c["id"]))[:_COMMUNITY_ROWS]
    singletons = sum(1 for c in communities if c["size"] == 1)
    text = (f"{len(communities)} communities on the paper–paper graph, modularity {analysis['modularity']:.4f}"
            + (f" ({singletons} of them single papers without links, not listed)" if singletons else "")
            + (f"; the {len(shown)} largest are listed" if len(shown) < len(communities) - singletons else "")
            + ". Labels are the most distinctive concepts (score in parentheses); central papers have the "
              "strongest links inside their community.")
    rows = [[c["id"], c["size"], c["label"] or "(no shared concept)",
             "; ".join(f"{k['name']} [{k['id']}] ({k['score']:.3g})"
                       for k in c["concepts"][:_COMMUNITY_CONCEPTS]),
             "; ".join(f"{q['title']} [{q['id']}]" for q in c["central_papers"][:3])] for c in shown]
    sections.append(_section("Communities of papers", text,
                             ["#", "papers", "label", "distinctive concepts [id]", "central papers [id]"], rows,
                             "community_sizes"))
    sections += _citation_map_sections(analysis.get("citation_maps") or {})
    if analysis.get("thematic_map"):
        sections.append(_section(
            "Thematic map",
            f"One theme per community of papers ({len(analysis['thematic_map'])} themes, numbered and labelled as "
            "the communities): its distinctive concepts (each concept with the community it is most "
            "distinctive of), placed by Callon centrality (strength of the concepts' links to other themes) and "
            "density (strength of links inside, per concept); quadrants split at the medians: motor (high, "
            "high), niche (low centrality, high density), emerging or declining (low, low), basic (high, low).",
            ["#", "quadrant", "label", "concepts", "papers", "centrality", "density", "concept ids"],
            [[t["id"], t["quadrant"], t["label"], len(t["concepts"]), t["papers"], t["centrality"], t["density"],
              ", ".join(t["concepts"][:8]) + (" …" if len(t["concepts"]) > 8 else "")]
             for t in analysis["thematic_map"]],
            "thematic_map"))
    if analysis.get("trends"):
        trends = analysis["trends"]
        per_year = ", ".join(f"{y}: {n}" for y, n in zip(trends["years"], trends["papers"]))
        hidden = trends.get("hidden_years") or []
        shown = len(trends["years"]) - len(hidden)
        chart = ("" if not hidden else
                 f" The trend chart leaves out the years with fewer than {trends.get('min_papers')} papers "
                 f"({', '.join(str(y) for y in hidden)}): a share of a handful of papers is noise"
                 + ("; fewer than two years remain, so there is no chart." if shown < 2 else "."))
        sections.append(_section(
            "Trends and bursts",
            f"Papers per year: {per_year}.{chart} Bursts (Kleinberg, two states, s = 2, γ = 1): years in which a "
            "concept appears in a clearly larger share of papers than usual; weight = evidence for the burst."
            + ("" if analysis["bursts"] else " No concept had a burst."),
            ["concept", "id", "from", "to", "papers in burst", "weight"],
            [[b["name"], b["id"], b["start"], b["end"], b["papers"], b["weight"]] for b in analysis["bursts"]],
            "trends"))
    if analysis.get("evolution"):
        sections += _evolution_sections(analysis["evolution"])
    if analysis.get("forecast"):
        sections.append(_forecast_section(analysis["forecast"]))
    sections.append(_section("Degree distribution", plot="degree"))
    return sections


def _descriptive_sections(d: Mapping | None) -> list[dict]:
    """Main information, annual production, authors and venues, as bibliometrix's summary shows them."""
    if not d:
        return []
    c = d["collaboration"]
    production = d["annual_production"]
    growth = d.get("growth_rate")
    main = [
        ["timespan", f"{production[0][0]}–{production[-1][0]}" if production else "unknown"],
        ["annual growth rate", "n/a (one year)" if growth is None else f"{growth:.2f}%"],
        *([["papers without a year", d["undated"]]] if d.get("undated") else []),
        ["authors", c["authors"]],
        ["papers with authors", c["papers_with_authors"]],
        ["authors per paper", c["authors_per_paper"]],
        ["co-authors per paper", c["coauthors_per_paper"]],
        ["single-authored papers", f"{c['single_authored']} ({100 * c['single_authored_share']:.1f}%)"],
    ]
    sections = [_section("Main information", "Annual growth rate: the compound growth of papers per year from "
                         "the first year to the last.", ["measure", "value"], main)]
    if production:
        sections.append(_section("Annual production", "Papers per year (years without papers included).",
                                 ["year", "papers"], production, "annual_production"))
    for key, title, what in (("authors", "Most productive authors", "author"), ("venues", "Most relevant venues",
                                                                                 "venue")):
        if d.get(key):
            sections.append(_section(
                title, f"By papers in the corpus (ties by local citations); local citations: times the {what}'s "
                "papers are cited by papers of this corpus; local h-index: the largest h such that h of them are "
                "cited h times or more in the corpus.", [what, "id", "papers", "local citations", "local h-index"],
                [[r["name"], r["id"], r["papers"], r["citations"], r["h_index"]] for r in d[key]]))
    return sections


_MAP_TEXT = {
    "cocitation": ("Co-citation clusters",
                   "Papers cited together by corpus papers (Small 1973), clustered"),
    "coupling": ("Bibliographic coupling clusters",
                 "Papers that cite the same works (Kessler 1963), clustered"),
}


def _citation_map_sections(maps: Mapping) -> list[dict]:
    """One section per citation map with clusters, CiteSpace-style (size, cohesion, years, central papers)."""
    sections = []
    for name, (title, what) in _MAP_TEXT.items():
        result = maps.get(name)
        if not result or not result.get("clusters"):
            continue
        clusters = result["clusters"]
        shown = clusters[:_COMMUNITY_ROWS]
        text = (f"{what}: {len(clusters)} clusters of {result['papers']} linked papers ({result['links']} links), "
                f"modularity {result['modularity']:.4f}, mean silhouette {result['silhouette']:.3f}"
                + (f"; the {len(shown)} largest are listed" if len(shown) < len(clusters) else "")
                + ". Silhouette: mean over the members, distance 1 − Salton's cosine (1 for unlinked papers), "
                  "from −1 to 1, above 0 nearer their own cluster than any other; internal: the share of the "
                  "members' link weight that stays inside. Central papers have the strongest links inside; "
                  "cited: times cited in the corpus.")
        rows = [[c["id"], c["size"], c["silhouette"], c["internal"],
                 "" if c["mean_year"] is None else f"{c['mean_year']:.1f}",
                 "" if not c["years"] else f"{c['years'][0]}–{c['years'][1]}",
                 c["label"] or "(no shared concept)",
                 "; ".join(f"{q['title']} [{q['id']}] ({q.get('year') or '?'}, cited {q['cited_by']})"
                           for q in c["central_papers"][:3])] for c in shown]
        sections.append(_section(title, text, ["#", "papers", "silhouette", "internal", "mean year", "years",
                                               "label", "central papers [id]"], rows))
    return sections


def _evolution_sections(evolution: Mapping) -> list[dict]:
    """Thematic evolution: a timeline row per theme (with the alluvial figure), then the links."""
    p = evolution.get("parameters") or {}
    spans = ", ".join(f"{a}–{b}" for a, b in p.get("slices") or [])
    text = (f"Time slices {spans}. In each, the related links among its papers are clustered "
            f"(communities of {p.get('min_size')} papers or more are themes); themes of adjacent slices are "
            f"linked when they share {p.get('min_shared')} or more concepts with an inclusion index of "
            f"{p.get('min_inclusion')} or more (concepts weighed by the share of the theme's papers naming them "
            "and by idf). Status: how a theme relates to the slice before and after (emerges, continues, merges; "
            "continues, splits, disappears).")
    rows = [[t["id"], f"{s['start']}–{s['end']}", t["size"], t["label"] or "(no shared concept)",
             f"{t['mean_year']:.1f}", f"{t['first_year']}–{t['last_year']}", t["status"]]
            for s in evolution.get("slices") or [] for t in s["themes"]]
    links = [[link["source"], link["target"], link["kind"], link["inclusion"], link["shared"]]
             for link in evolution.get("links") or []]
    return [
        _section("Thematic evolution", text, ["theme", "slice", "papers", "label", "mean year", "years", "status"],
                 rows, "evolution"),
        _section("Thematic evolution: links", "Each link between themes of adjacent slices: continuation (one "
                 "to one), split (the earlier theme has several successors), merge (the later one several "
                 "predecessors).", ["from", "to", "kind", "inclusion", "shared concepts"], links),
    ]


def _forecast_section(result: Mapping) -> dict:
    """Concepts likely to meet next: the pairs of ``kg forecast``, best first, each with its evidence."""
    p = result.get("parameters") or {}
    until, horizon = p.get("until"), p.get("horizon")
    training = (result.get("counts") or {}).get("training") or {}
    window = training.get("window") or ["?", "?"]
    text = (f"Pairs of concepts no paper up to {until} mentions together, ranked by how likely a paper of "
            f"{until + 1 if isinstance(until, int) else '?'}–"
            f"{until + horizon if isinstance(until, int) and isinstance(horizon, int) else '?'} is to mention both "
            f"(concepts of {p.get('min_papers')} or more papers; a gradient-boosted model that learned from the "
            f"links made in {window[0] + 1 if isinstance(window[0], int) else '?'}–{window[1]} given the graph of "
            f"{window[0]}). Evidence: the concepts both already occur with (papers with each), each concept's "
            "papers (all, and those of the 3 years before the last 3 → the last 3), the concept clusters the "
            "link would bridge, and the paper nearest to both (it mentions one concept and the most of the "
            "other's neighbours); and the papers whose title or abstract already names both concepts (in all, in the "
            "last 3 years, the latest). kg forecast DIR --until YEAR shows how such a forecast did on past years.")
    rows = []
    for rank, pair in enumerate(result.get("pairs") or [], start=1):
        e = pair.get("evidence") or {}
        clusters = e.get("clusters") or {}
        growth = [e.get("source_growth") or {}, e.get("target_growth") or {}]
        rows.append([
            rank, pair.get("source_name"), pair.get("source"), pair.get("target_name"), pair.get("target"),
            pair.get("score"),
            "; ".join(f"{s['name']} ({s['with_source']}, {s['with_target']})" for s in e.get("shared_neighbours", [])),
            " / ".join(f"{g.get('papers')} ({g.get('before')}→{g.get('recent')})" for g in growth),
            (f"{clusters['source']['label']} ↔ {clusters['target']['label']}" if clusters.get("bridges")
             else "same cluster") if clusters else "",
            "; ".join(f"{q['title']} [{q['id']}] ({q['year']})" for q in (e.get("papers") or [])[:1]),
            _named_together(e.get("named_together")),
        ])
    return _section("Concepts likely to meet next", text,
                    ["#", "concept", "id", "concept", "id", "score", "shared neighbours (papers with each)",
                     "papers (before→recent)", "clusters bridged", "nearest paper [id]",
                     "texts naming both (recent; latest [id])"], rows)


def _named_together(named: Mapping | None) -> str:
    """The forecast evidence's papers whose text names both concepts, for a table cell ("" when not read)."""
    if not named:
        return ""
    latest = "; ".join(f"{q['title']} [{q['id']}] ({q['year']})" for q in named.get("latest", [])[:1])
    return f"{named.get('papers')} ({named.get('recent')})" + (f"; {latest}" if latest else "")


def _md_escape(value: object) -> str:
    return markdown_text(_num(value))


def md_table(header: Sequence[str], rows: Sequence[Sequence]) -> str:
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_md_escape(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(analysis: Mapping, *, title: str = "kg report", names: Mapping[str, str] | None = None) -> str:
    """The report as Markdown (figures are in the HTML report only).

    Parameters
    ----------
    analysis : dict
        As returned by :func:`kg.analyze.analyze`.
    title : str
        The report's heading.
    names : dict, optional
        Unused; kept so older callers keep working (names now come with the analysis).
    """
    out = [f"# {markdown_text(title)}", ""]
    for section in report_sections(analysis):
        if not section["text"] and not section["rows"]:
            continue  # a figure only: in the HTML report
        out += [f"## {markdown_text(section['title'])}", ""]
        if section["text"]:
            out += [markdown_text(section["text"]), ""]
        if section["rows"]:
            out += [md_table(section["header"], section["rows"]), ""]
    return "\n".join(out).rstrip("\n") + "\n"


_CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f2f2f2}td.id{font-family:monospace;font-size:.85em;color:#555}
img{max-width:100%;height:auto;display:block;margin:.5em 0}"""


def render_report_html(analysis: Mapping, *, title: str = "kg report") -> str:
    """The report as one self-contained HTML page, figures embedded as base64 SVG."""
    plots = all_plots(analysis)
    def esc(value: object) -> str:
        return html.escape(clean_text(str(value)))

    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{esc(title)}</title>",
           f"<style>{_CSS}</style></head><body>", f"<h1>{esc(title)}</h1>"]
    for section in report_sections(analysis):
        svg = plots.get(section["plot"]) if section["plot"] else None
        if not section["text"] and not section["rows"] and not svg:
            continue
        out.append(f"<h2>{esc(section['title'])}</h2>")
        if section["text"]:
            out.append(f"<p>{esc(section['text'])}</p>")
        if svg:
            data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
            out.append(f'<img alt="{esc(section["title"])}" src="data:image/svg+xml;base64,{data}">')
        if section["rows"]:
            id_cols = {i for i, h in enumerate(section["header"]) if h == "id" or h == "concept ids"}
            out.append("<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in section["header"])
                       + "</tr></thead><tbody>")
            for row in section["rows"]:
                cells = "".join(f'<td class="id">{esc(_num(v))}</td>' if i in id_cols else f"<td>{esc(_num(v))}</td>"
                                for i, v in enumerate(row))
                out.append(f"<tr>{cells}</tr>")
            out.append("</tbody></table>")
    out.append("</body></html>")
    return xml_text("\n".join(out) + "\n")  # no C0 controls anywhere in the page


def render_json(analysis: Mapping) -> str:
    """Every table of the analysis as JSON (sorted keys, so equal analyses give equal bytes).

    The per-node PageRank maps stay in ``analysis.json`` (:mod:`kg.analyze.result`).
    """
    tables = {k: v for k, v in analysis.items() if k != "pagerank"}
    return json.dumps(clean_tree(tables), ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def write_report(analysis: Mapping, out_dir: str | os.PathLike[str], *, title: str = "kg report") -> list[str]:
    """Write ``report.md``, ``report.html`` and ``report.json`` into ``out_dir`` (atomically); their paths."""
    folder = os.fspath(out_dir)
    contents = {"report.md": render_markdown(analysis, title=title),
                "report.html": render_report_html(analysis, title=title),
                "report.json": render_json(analysis)}
    paths = []
    for name in REPORT_FILES:
        path = os.path.join(folder, name)
        atomic_write(path, contents[name])
        paths.append(path)
    return paths
