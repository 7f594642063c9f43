"""Analysis results -> a Markdown report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["render_markdown"]


def _escape(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_escape(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(analysis: Mapping, *, title: str = "kg report", names: Mapping[str, str] | None = None) -> str:
    """Render :func:`kg.analyze.analyze` output as Markdown.

    Parameters
    ----------
    analysis : dict
        As returned by :func:`kg.analyze.analyze`.
    title : str
        The report's heading.
    names : dict, optional
        Node id -> display name for ids inside community tables.
    """
    names = dict(names or {})
    s = analysis["summary"]
    edges = s["edges"]
    out = [f"# {title}", "", "## Corpus", ""]
    out.append(_table(["measure", "value"], [
        ["papers", s["papers"]],
        ["concepts", s["concepts"]],
        ["concepts shared by 2+ papers", s["shared_concepts"]],
        ["mentions (paper → concept)", edges.get("mentions", 0)],
        ["related (paper — paper)", edges.get("related", 0)],
        ["co-occurrences (concept — concept)", edges.get("co_occurs", 0)],
        ["citations inside the corpus", edges.get("cites", 0)],
        ["unresolved references", s.get("unresolved_references", 0)],
        ["years", f"{s['years'][0]}–{s['years'][1]}" if s.get("years") else "unknown"],
    ]))
    out += ["", "## Top concepts (by number of papers)", ""]
    out.append(_table(["concept", "papers", "id"],
                      [[c["name"], c["papers"], c["id"]] for c in analysis["top_concepts"]]))
    out += ["", "## Most central papers (PageRank on related papers)", ""]
    out.append(_table(["paper", "pagerank", "id"],
                      [[p["title"], p["pagerank"], p["id"]] for p in analysis["central_papers"]]))
    out += ["", "## Most central concepts (PageRank on co-occurrence)", ""]
    out.append(_table(["concept", "pagerank", "id"],
                      [[c["name"], c["pagerank"], c["id"]] for c in analysis["central_concepts"]]))
    out += ["", "## Communities of papers", ""]
    rows = []
    for com in analysis["communities"]:
        papers = ", ".join(names.get(p, p) for p in com["papers"][:3])
        rows.append([com["id"], com["size"], com["label"] or "(no shared concept)", papers])
    out.append(_table(["#", "papers", "label (distinctive concepts)", "most central papers"], rows))
    return "\n".join(out) + "\n"
