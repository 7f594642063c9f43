"""``kg build --update``: papers added to a build, its communities numbered as before, and a changelog.

An update is a build of the union: the papers of the previous build, read back exactly from
its folder (``corpus.jsonl`` holds every field of every paper as the build read it,
:func:`~kg.graphfile.read_corpus_jsonl`), plus the new inputs' papers, merged as a build
merges several inputs (a new record of a paper already in the build merges into it and is
counted, a duplicate inside one input is skipped). The union then goes through the whole
pipeline with the options the build recorded, so concept normalization, idf weights,
links and communities are those a fresh build of the union would compute; the embedding
cache in the folder (``.kg-cache/embeddings.sqlite``) makes the old papers free of model
work (their vectors and shortlists are found there), so only new texts are embedded.

What the update adds to a fresh build:

* **stable community numbers** (:func:`stable_numbers`): the new communities are matched to
  the previous ones by the papers they share (a maximum-weight assignment on the overlap
  counts, :func:`scipy.optimize.linear_sum_assignment`), a matched community keeps the
  previous number, and the others take the free numbers, largest community first. Numbers
  stay dense (``0 .. k-1``, as :func:`kg.analysis.check_analysis` requires), so when there are
  fewer communities than before, the assignment keeps as many papers as it can on their number
  within that range. The co-citation and coupling clusters are renumbered the same way;
* **a changelog** (:func:`changelog`, written as ``changelog.json`` and ``changelog.md``):
  papers added and merged, concepts new, gone (and the concept that carries their name now)
  and renamed, communities continued, renumbered (a number the range ``0 .. k-1`` lost, or
  another took), new and gone, every earlier paper that changed community, the counts before
  and after, and how many texts the model embedded.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields

import numpy as np

from kg.errors import GraphFileError, OptionError
from kg.models import Paper, concept_label

__all__ = ["PreviousBuild", "read_build", "update_options", "stable_numbers", "renumber_rows", "stable_analysis",
           "keep_numbers", "changelog", "summary_lines", "changelog_markdown", "write_changelog", "CHANGELOG_FILES",
           "UPDATE_OPTIONS"]

CHANGELOG_FILES = ("changelog.json", "changelog.md")
# Options an update takes as given rather than from the build: how the new files are read
# (their format, strictness, CSV columns), what is written, and where the thesaurus and model are now.
UPDATE_OPTIONS = ("format", "strict", "mapping", "html", "write_thesaurus", "thesaurus", "model")
_MD_ROWS = 50  # rows of each list in changelog.md (changelog.json has them all)


@dataclass
class PreviousBuild:
    """What an update needs from the build in a folder (:func:`read_build`).

    Attributes
    ----------
    folder : str
    attrs : dict
        ``graph.json``'s graph attributes (kg version, model, ``parameters``, ``inputs``, …).
    parameters : dict
        The build's recorded options (``attrs["parameters"]``, decoded).
    papers : list of Paper
        Every paper of the build, as the build read it (duplicates merged).
    concepts : dict
        Concept id -> ``{"name", "acronym", "label", "aliases", "papers"}`` (``label``: how the
        build showed it, :func:`kg.models.concept_label`; a build made before concepts had an
        ``acronym`` has it in its names, "collaborative filtering (CF)", and the same label).
    analysis : dict or None
        Its ``analysis.json`` (None when missing or not this graph's).
    """

    folder: str
    attrs: dict
    parameters: dict
    papers: list[Paper]
    concepts: dict[str, dict] = field(default_factory=dict)
    analysis: dict | None = None

    @property
    def inputs(self) -> list:
        try:
            value = json.loads(self.attrs.get("inputs") or "[]")
        except (TypeError, ValueError):
            return []
        return value if isinstance(value, list) else []

    def count(self, name: str) -> int:
        value = self.attrs.get(name, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _not_a_build(folder: str, why: str) -> GraphFileError:
    return GraphFileError(f"{folder}: not a kg build ({why}); --update adds papers to a folder that kg build wrote: "
                          f"kg build PAPERS --out {folder}")


def read_build(folder: str | os.PathLike[str]) -> PreviousBuild:
    """The build in ``folder``: its papers (from ``corpus.jsonl``), concepts, options and analysis.

    Raises
    ------
    GraphFileError
        When ``folder`` is not a folder that ``kg build`` wrote, or its files are damaged
        (one line naming the folder and what is missing).
    """
    from kg.analysis import load_analysis
    from kg.graphfile import paper_from_node, read_corpus_jsonl

    name = os.fspath(folder)
    if not os.path.isdir(name):
        raise _not_a_build(name, "no such folder" if not os.path.exists(name) else "a file, not a folder")
    path = os.path.join(name, "graph.json")
    if not os.path.isfile(path):
        raise _not_a_build(name, "no graph.json in it")
    try:
        attrs, nodes, mentioned = _scan_graph(path)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _not_a_build(name, f"its graph.json cannot be read: {str(exc)[:120]}") from None
    except TypeError:
        raise _not_a_build(name, "its graph.json is not a kg graph") from None
    try:
        parameters = json.loads(attrs.get("parameters") or "")
    except (TypeError, ValueError):
        parameters = None
    if not isinstance(parameters, dict):
        raise _not_a_build(name, "its graph.json records no build parameters")
    implied = attrs.get("concepts_by_id") is True
    paper_nodes: dict[str, dict] = {}
    concepts: dict[str, dict] = {}
    for node in nodes:
        if not isinstance(node, dict) or not isinstance(node.get("id"), str):
            raise _not_a_build(name, "its graph.json has a node without an id")
        kind = node.get("kind")
        if kind == "paper":
            paper_nodes[node["id"]] = node
        elif kind == "concept" or (kind is None and implied and node["id"].startswith("c:")):
            concept_name = str(node.get("name") or node["id"][2:])  # a name the id implies is left out
            acronym = node.get("acronym") if isinstance(node.get("acronym"), str) else None
            aliases = node.get("aliases")
            papers = node.get("papers")
            concepts[node["id"]] = {"name": concept_name, "acronym": acronym,
                                    "label": concept_label(concept_name, acronym),
                                    "papers": papers if isinstance(papers, int) else mentioned.get(node["id"], 0),
                                    "aliases": list(aliases) if isinstance(aliases, list) else [concept_name]}
    del nodes, mentioned
    texts = attrs.get("paper_texts_file")
    if isinstance(texts, str) and texts:
        corpus_path = os.path.join(name, os.path.basename(texts))
        if not os.path.isfile(corpus_path):
            raise GraphFileError(f"{corpus_path}: missing; an update rebuilds from the papers' texts, which this "
                                 f"file holds: rebuild the folder with kg build")
        papers = read_corpus_jsonl(corpus_path)
        if sorted(p.id for p in papers) != sorted(paper_nodes):
            raise GraphFileError(f"{corpus_path} does not hold the papers of {path} (it was changed or comes from "
                                 "another build): rebuild the folder with kg build")
    else:  # an older build: the texts are in graph.json
        papers = [paper_from_node(pid, node, source=path) for pid, node in paper_nodes.items()]
    if not papers:
        raise _not_a_build(name, "its graph has no papers")
    analysis = load_analysis(name)
    if analysis is not None:
        rows = analysis.get("communities")
        members = [p for row in rows for p in row.get("papers", ())] if isinstance(rows, list) else None
        if members is None or sorted(members) != sorted(paper_nodes) or any(
                not isinstance(r, dict) or r.get("id") != i for i, r in enumerate(rows)):
            analysis = None  # not this graph's: the update numbers its communities afresh
        else:
            analysis = _what_an_update_reads(analysis)
    return PreviousBuild(name, attrs, parameters, papers, concepts, analysis)


def _what_an_update_reads(analysis: dict) -> dict:
    """The parts of an analysis an update uses (numbers, members, labels, settings, counts): the
    PageRank of every node and the report's tables would only take memory."""

    def rows(items) -> list:
        return [{"id": r.get("id"), "papers": list(r.get("papers", ())), "label": r.get("label", "")}
                for r in items or () if isinstance(r, dict)]

    maps = analysis.get("citation_maps")
    evolution = analysis.get("evolution")
    return {
        "parameters": analysis.get("parameters") or {},
        "summary": analysis.get("summary") or {},
        "communities": rows(analysis.get("communities")),
        "citation_maps": {name: {"clusters": rows(m.get("clusters"))} for name, m in maps.items()
                          if isinstance(m, dict)} if isinstance(maps, dict) else {},
        **({"evolution": {"parameters": evolution.get("parameters")}} if isinstance(evolution, dict) else {}),
    }


def _scan_graph(path: str) -> tuple[dict, list, Counter]:
    """``graph.json``'s graph attributes, its nodes, and each node's count of ``mentions`` edges into it.

    kg writes one node or edge per line (:func:`kg.graphfile.write_graph_json`): read so, the
    edges are never held (a 25k-paper graph has a million of them); any other layout is read whole.
    """
    mentioned: Counter[str] = Counter()
    with open(path, encoding="utf-8") as handle:
        head = handle.readline()
        opening = ',"nodes":['
        if not (head.startswith('{"directed":') and head.rstrip("\n").endswith(opening)):
            handle.seek(0)
            data = json.load(handle)
            if not isinstance(data, dict) or not isinstance(data.get("graph"), dict) \
                    or not isinstance(data.get("nodes"), list) or not isinstance(data.get("edges"), list):
                raise TypeError("not a kg graph")
            mentioned.update(e.get("target") for e in data["edges"]
                             if isinstance(e, dict) and e.get("kind", e.get("key")) == "mentions")
            return data["graph"], data["nodes"], mentioned
        attrs = json.loads(head.rstrip("\n")[:-len(opening)] + "}").get("graph")
        nodes = []
        for line in handle:
            if line.startswith("],"):
                break
            nodes.append(json.loads(line.rstrip().rstrip(",")))
        else:
            raise ValueError("graph.json ends inside its nodes")
        for line in handle:
            if '"kind":"mentions"' in line or '"key":"mentions"' in line:  # kind: since every edge names it
                edge = json.loads(line.rstrip().rstrip(","))
                if edge.get("kind", edge.get("key")) == "mentions":
                    mentioned[edge.get("target")] += 1
    if not isinstance(attrs, dict):
        raise TypeError("not a kg graph")
    return attrs, nodes, mentioned


def _same(a: object, b: object) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def update_options(previous: PreviousBuild, changes: Mapping[str, object] | None = None):
    """The :class:`~kg.pipeline.BuildOptions` of an update of ``previous``.

    The build's recorded options, except those of :data:`UPDATE_OPTIONS` and the options a
    build does not record (what it writes, where it computes), taken from ``changes``
    (default: the defaults for reading files, the recorded thesaurus and model).
    Any other option in ``changes`` must equal the recorded one: an update does not change
    how the build is made (``kg build`` without ``--update`` does).

    Raises
    ------
    OptionError
        Naming the first option that contradicts the build, an unknown option, or a
        thesaurus the build used that is no longer where it was.
    """
    from kg.pipeline import _OUTPUT_ONLY, BuildOptions

    changes = dict(changes or {})
    known = {f.name for f in fields(BuildOptions)}
    for option in changes:
        if option not in known:
            raise OptionError(option, f"unknown option; options are {', '.join(sorted(known))}")
    given = set(UPDATE_OPTIONS) | set(_OUTPUT_ONLY)  # taken as given: how the update reads, writes, computes
    recorded = {k: v for k, v in previous.parameters.items()  # the thesaurus and model too, unless given
                if k in known and k not in _OUTPUT_ONLY and k not in ("format", "strict", "mapping")}
    for option, value in sorted(changes.items()):
        if option in given or option not in recorded:
            continue
        if not _same(recorded[option], value):
            raise OptionError(option, f"{value!r} contradicts the build in {previous.folder}, made with "
                                      f"{recorded[option]!r}; an update keeps the build's options (a build "
                                      "without --update changes them)")
    values = {**recorded, **{k: v for k, v in changes.items() if k in given}}
    if isinstance(values.get("mapping"), list):
        values["mapping"] = tuple(tuple(pair) for pair in values["mapping"])
    thesaurus = values.get("thesaurus")
    if "thesaurus" not in changes and isinstance(thesaurus, str) and not os.path.isfile(thesaurus):
        raise OptionError("thesaurus", f"the build used the thesaurus {thesaurus}, which is not there now; "
                                       "give its path (an update applies it to every paper again)")
    return BuildOptions(**values)  # type: ignore[arg-type]


# --- stable numbers ----------------------------------------------------------------------


def stable_numbers(groups: Sequence[Sequence[str]], previous: Mapping[str, int]) -> list[int]:
    """A number for each group (``0 .. len(groups)-1``, each once), kept from ``previous`` where it can be.

    ``groups`` are the new communities (lists of paper ids), in their own order (largest
    first); ``previous`` maps paper id -> previous number. Groups are matched to previous
    numbers by a maximum-weight assignment on the number of papers they share, among the
    numbers ``0 .. len(groups)-1`` (numbers stay dense): the papers that keep their number
    are as many as they can be. A group matched to no number it shares papers with takes
    the lowest number left, in group order.

    Examples
    --------
    >>> stable_numbers([["a", "b", "x"], ["c"], ["y"]], {"a": 1, "b": 1, "c": 0})
    [1, 0, 2]
    >>> stable_numbers([["a", "b", "c"]], {"a": 0, "b": 1, "c": 1})  # two merged: one number left
    [0]
    """
    from scipy.optimize import linear_sum_assignment

    k = len(groups)
    overlap: dict[tuple[int, int], int] = Counter()
    for i, group in enumerate(groups):
        for paper in group:
            j = previous.get(paper)
            if j is not None and 0 <= j < k:
                overlap[i, j] += 1
    numbers = [-1] * k
    if overlap:
        rows = sorted({i for i, _ in overlap})
        cols = sorted({j for _, j in overlap})
        row_at, col_at = {i: a for a, i in enumerate(rows)}, {j: b for b, j in enumerate(cols)}
        weight = np.zeros((len(rows), len(cols)))
        for (i, j), n in overlap.items():
            weight[row_at[i], col_at[j]] = n
        for a, b in zip(*linear_sum_assignment(weight, maximize=True)):
            if weight[a, b] > 0:
                numbers[rows[a]] = cols[b]
    free = iter(sorted(set(range(k)) - set(numbers)))
    return [n if n >= 0 else next(free) for n in numbers]


def renumber_rows(rows: Sequence[Mapping], previous: Mapping[str, int]) -> list[dict]:
    """``rows`` (each with ``id`` and ``papers``) numbered by :func:`stable_numbers`, in number order."""
    numbers = stable_numbers([row["papers"] for row in rows], previous)
    out = [dict(row, id=number) for row, number in zip(rows, numbers)]
    return sorted(out, key=lambda row: row["id"])


def _membership(rows) -> dict[str, int]:
    return {p: int(row["id"]) for row in rows or () for p in row.get("papers", ())}


def stable_analysis(analysis: Mapping, previous: Mapping | None) -> dict:
    """``analysis`` with its paper communities and citation-map clusters numbered as in ``previous``
    (:func:`renumber_rows`); as it is without a previous analysis."""
    out = dict(analysis)
    if previous is None:
        return out
    out["communities"] = renumber_rows(analysis["communities"], _membership(previous.get("communities")))
    maps = analysis.get("citation_maps")
    if isinstance(maps, Mapping):
        before = previous.get("citation_maps") if isinstance(previous.get("citation_maps"), Mapping) else {}
        out["citation_maps"] = {
            name: ({**result, "clusters": renumber_rows(result["clusters"], _membership(
                (before.get(name) or {}).get("clusters")))} if isinstance(result, Mapping) and result.get("clusters")
                else result)
            for name, result in maps.items()}
    return out


def keep_numbers(analysis: Mapping, previous: Mapping | None) -> dict:
    """``analysis`` with the numbers of ``previous`` for its communities (and citation-map clusters)
    where they are exactly the same groups of papers; as it is otherwise.

    An analysis numbers communities largest first; after an update they keep earlier numbers
    instead, and analyzing the same graph again with the same settings (``kg report`` for other
    labels, say) must not renumber them.
    """
    out = dict(analysis)
    if not isinstance(previous, Mapping):
        return out

    def groups(rows) -> set:
        return {frozenset(row.get("papers", ())) for row in rows or ()}

    if groups(analysis.get("communities")) == groups(previous.get("communities")):
        out["communities"] = renumber_rows(analysis["communities"], _membership(previous["communities"]))
    maps, before = analysis.get("citation_maps"), previous.get("citation_maps")
    if isinstance(maps, Mapping) and isinstance(before, Mapping):
        out["citation_maps"] = dict(maps)
        for name, result in maps.items():
            old = (before.get(name) or {}).get("clusters") if isinstance(before.get(name), Mapping) else None
            if isinstance(result, Mapping) and result.get("clusters") and groups(result["clusters"]) == groups(old):
                out["citation_maps"][name] = {**result, "clusters": renumber_rows(result["clusters"],
                                                                                  _membership(old))}
    return out


# --- the changelog -----------------------------------------------------------------------


def _title(paper: Paper | None, pid: str) -> str:
    return paper.title if paper is not None else pid


def changelog(previous: PreviousBuild, result, *, new_inputs: Sequence[dict], records: Mapping[str, int],
              warnings: Sequence[str] = ()) -> dict:
    """What an update changed: ``papers``, ``concepts``, ``communities``, ``moved``, ``counts``, ``embedding``.

    Parameters
    ----------
    previous : PreviousBuild
    result : kg.pipeline.BuildResult
        The update (its analysis numbered by :func:`stable_analysis`).
    new_inputs : list of dict
        ``{"path", "sha256"}`` of the files added.
    records : dict
        ``skipped`` and ``merged`` counts of the new records.
    warnings : list of str
        Said during the update (no cache, another model, …).
    """
    import kg
    from kg.graph import node_label

    graph, analysis = result.graph, result.analysis
    before = {p.id: p for p in previous.papers}
    now = {p.id: p for p in result.corpus.papers}
    added = sorted(set(now) - set(before))
    updated = sorted(pid for pid in set(now) & set(before)
                     if now[pid] != before[pid] or now[pid].ids != before[pid].ids
                     or now[pid].extra.get("aliases", []) != before[pid].extra.get("aliases", []))
    member = _membership(analysis.get("communities"))
    old_member = _membership((previous.analysis or {}).get("communities")) if previous.analysis else {}
    old_rows = {int(r["id"]): r for r in (previous.analysis or {}).get("communities") or ()}

    concepts_now = {n: d for n, d in graph.nodes(data=True) if d.get("kind") == "concept"}
    label_now = {cid: node_label(data, cid) for cid, data in concepts_now.items()}  # as the changelog shows them
    by_alias: dict[str, list[str]] = defaultdict(list)
    for cid, data in concepts_now.items():
        for alias in {*(data.get("aliases") or ()), data.get("name"), label_now[cid]}:
            if alias:
                by_alias[str(alias).casefold()].append(cid)
    new_concepts = sorted(set(concepts_now) - set(previous.concepts),
                          key=lambda c: (-concepts_now[c].get("papers", 0), c))
    gone = []
    for cid in sorted(set(previous.concepts) - set(concepts_now),
                      key=lambda c: (-previous.concepts[c]["papers"], c)):
        old = previous.concepts[cid]
        heirs = {h for alias in old["aliases"] + [old["name"], old["label"]]
                 for h in by_alias.get(str(alias).casefold(), ())}
        heir = min(heirs, key=lambda h: (-concepts_now[h].get("papers", 0), h)) if heirs else None
        gone.append({"id": cid, "name": old["label"], "papers": old["papers"], "now": heir,
                     "now_name": label_now[heir] if heir else None})
    renamed = [{"id": cid, "from": previous.concepts[cid]["label"], "to": label_now[cid]}
               for cid in sorted(set(previous.concepts) & set(concepts_now))
               if previous.concepts[cid]["label"] != label_now[cid]]
    grown = sorted(((cid, concepts_now[cid].get("papers", 0) - previous.concepts[cid]["papers"])
                    for cid in set(previous.concepts) & set(concepts_now)), key=lambda t: (-t[1], t[0]))

    communities, matched = [], set()
    for row in analysis.get("communities") or ():
        k = int(row["id"])
        came = Counter(old_member[p] for p in row["papers"] if p in old_member)
        kept = came.get(k, 0)
        status = "continued" if kept else "new"
        if kept:
            matched.add(k)
        communities.append({
            "id": k, "status": status, "size": row["size"], "label": row.get("label", ""),
            "new_papers": sum(1 for p in row["papers"] if p not in before),
            "earlier_papers": sum(came.values()), "previous": k if kept else None, "kept": kept,
            "previous_size": len(old_rows[k]["papers"]) if kept else None,
            "previous_label": old_rows[k].get("label", "") if kept else None,
            "from": [{"id": j, "papers": n} for j, n in sorted(came.items(), key=lambda t: (-t[1], t[0]))],
        })
    # A community of the build whose number another took (or that numbers 0..k-1 no longer reach) and
    # whose papers are mostly in one new community that mostly holds them: the same one, renumbered.
    by_id = {r["id"]: r for r in communities}
    gone_communities = []
    for k, row in sorted(old_rows.items()):
        if k in matched:
            continue
        went = Counter(member[p] for p in row["papers"] if p in member)
        heir = by_id.get(min(went, key=lambda j: (-went[j], j))) if went else None
        if heir is not None and heir["status"] == "new" and heir["from"] and heir["from"][0]["id"] == k:
            heir.update(status="renumbered", previous=k, kept=went[heir["id"]], previous_size=len(row["papers"]),
                        previous_label=row.get("label", ""))
            continue
        gone_communities.append({"id": k, "size": len(row["papers"]), "label": row.get("label", ""),
                                 "to": [{"id": j, "papers": n}
                                        for j, n in sorted(went.items(), key=lambda t: (-t[1], t[0]))]})
    renumbered = {(r["previous"], r["id"]) for r in communities if r["status"] == "renumbered"}
    moved = [{"id": pid, "title": _title(now.get(pid), pid), "from": old_member[pid], "to": member[pid],
              "renumbered": (old_member[pid], member[pid]) in renumbered}
             for pid in sorted(old_member) if pid in member and member[pid] != old_member[pid]]

    summary = analysis.get("summary") or {}
    old_summary = (previous.analysis or {}).get("summary") or {}
    counts = {
        "papers": [len(before), len(now)],
        "concepts": [len(previous.concepts), len(concepts_now)],
        "communities": [len(old_rows) if previous.analysis else None, len(analysis.get("communities") or ())],
        **{kind: [(old_summary.get("edges") or {}).get(kind), (summary.get("edges") or {}).get(kind)]
           for kind in ("mentions", "related", "co_occurs", "cites")},
    }
    embedded = dict(result.embedded) if result.embedded else None
    return {
        "kg_version": kg.__version__,
        "previous_kg_version": previous.attrs.get("kg_version"),
        "inputs": list(new_inputs),
        "counts": counts,
        "papers": {
            "added": [{"id": pid, "title": _title(now[pid], pid), "community": member.get(pid)} for pid in added],
            "merged": [{"id": pid, "title": _title(now[pid], pid)} for pid in updated],
            "records_skipped": int(records.get("skipped", 0)),
            "records_merged": int(records.get("merged", 0)),
        },
        "concepts": {
            "added": [{"id": c, "name": label_now[c], "papers": concepts_now[c].get("papers", 0)}
                      for c in new_concepts],
            "gone": gone,
            "renamed": renamed,
            "grown": [{"id": c, "name": label_now[c], "papers": concepts_now[c].get("papers", 0),
                       "added": n} for c, n in grown[:20] if n > 0],
        },
        "communities": communities,
        "communities_gone": gone_communities,
        "communities_known": previous.analysis is not None,
        "moved": moved,
        "embedding": embedded,
        "warnings": list(warnings),
    }


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    from kg.report import _md_table

    lines = [_md_table(header, [["" if v is None else v for v in row] for row in rows[:_MD_ROWS]])]
    if len(rows) > _MD_ROWS:
        lines.append(f"\n… and {len(rows) - _MD_ROWS:,} more in changelog.json")
    return lines + [""]


def _arrow(pair: Sequence) -> str:
    a, b = pair
    if a is None:
        return f"{b:,}" if isinstance(b, int) else "?"
    return f"{a:,} → {b:,}"


def summary_lines(log: Mapping) -> list[str]:
    """The changelog's headline, a line each: papers, concepts, communities, embedding (what ``kg build --update`` prints)."""
    c, p, k = log["counts"], log["papers"], log["concepts"]
    lines = [f"papers: {_arrow(c['papers'])}: {len(p['added']):,} added"
             + (f", {p['records_merged']:,} new records of papers already in the build merged into them "
                f"({len(p['merged']):,} of these papers changed)" if p["records_merged"] else "")
             + (f", {p['records_skipped']:,} new records skipped" if p["records_skipped"] else "")]
    gone_into = sum(1 for g in k["gone"] if g["now"])
    lines.append(f"concepts: {_arrow(c['concepts'])}: {len(k['added']):,} new, {len(k['gone']):,} gone"
                 + (f" ({gone_into:,} into another concept)" if gone_into else "")
                 + (f", {len(k['renamed']):,} renamed" if k["renamed"] else ""))
    rows = log["communities"]
    if log["communities_known"]:
        earlier = c["papers"][0] or 0
        share = f" ({100 * len(log['moved']) / earlier:.1f}%)" if earlier else ""
        renumbered = sum(r["status"] == "renumbered" for r in rows)
        along = sum(1 for m in log["moved"] if m.get("renumbered"))
        lines.append(f"communities: {_arrow(c['communities'])}: "
                     f"{sum(r['status'] == 'continued' for r in rows):,} continued"
                     + (f", {renumbered:,} renumbered" if renumbered else "")
                     + f", {sum(r['status'] == 'new' for r in rows):,} new, {len(log['communities_gone']):,} gone; "
                     f"{len(log['moved']):,} of {earlier:,} earlier papers changed community{share}"
                     + (f", {along:,} of them with their community renumbered" if along else ""))
    else:
        lines.append(f"communities: {len(rows):,} (the build had no analysis.json: numbered afresh)")
    emb = log.get("embedding")
    if emb:
        lines.append(f"embedding: {emb['embedded']:,} texts embedded, {emb['cached']:,} found in the cache")
    return lines


def changelog_markdown(log: Mapping) -> str:
    """``changelog.md``: the headline, then the lists (at most 50 rows each; changelog.json has them all)."""
    from kg.escape import markdown_text

    out = ["# Update changelog", ""]
    inputs = ", ".join(markdown_text(str(i.get("path"))) for i in log["inputs"]) or "papers given in Python"
    out += [f"Papers added from {inputs} with kg {log['kg_version']}"
            + (f" (the build was made with kg {log['previous_kg_version']})"
               if log.get("previous_kg_version") not in (None, log["kg_version"]) else "") + ".", ""]
    out += [f"- {line}" for line in summary_lines(log)]
    c = log["counts"]
    out += [f"- links: {_arrow(c['related'])} related, {_arrow(c['co_occurs'])} co-occurrence, "
            f"{_arrow(c['cites'])} citations; {_arrow(c['mentions'])} mentions"]
    out += [f"- warning: {markdown_text(w)}" for w in log.get("warnings") or ()] + [""]
    p, k = log["papers"], log["concepts"]
    if log["communities"]:
        out += ["## Communities", "",
                "Numbered as before where a community shares papers with one of the build's (*continued*); "
                "*renumbered*: the build's community *was* under another number that is gone or taken (numbers "
                "stay 0 to k-1); *kept*: earlier papers still in it; *from*: where its earlier papers were.", ""]
        rows = [[r["id"], r["status"], "" if r["previous"] in (None, r["id"]) else r["previous"], r["size"],
                 f"{r['previous_size']:,}" if r["previous_size"] is not None else "",
                 r["new_papers"], r["kept"], "; ".join(f"{f['id']}: {f['papers']}" for f in r["from"][:4]),
                 r["label"] or "(no shared concept)"]
                for r in sorted(log["communities"], key=lambda r: (-r["size"], r["id"]))]
        out += _table(["#", "status", "was", "papers", "before", "new papers", "kept", "from", "label"], rows)
    if log["communities_gone"]:
        out += ["## Communities gone", "", "A community of the build that no new community continues (its "
                "number may now be another's); *to* says where its papers went.", ""]
        out += _table(["#", "papers", "label", "to"],
                      [[r["id"], r["size"], r["label"], "; ".join(f"{t['id']}: {t['papers']}" for t in r["to"][:4])]
                       for r in log["communities_gone"]])
    if log["moved"]:
        out += ["## Papers that changed community", "", "Those of a renumbered community first.", ""]
        out += _table(["id", "title", "from", "to"], [[r["id"], r["title"], r["from"], r["to"]] for r in
                                                      sorted(log["moved"], key=lambda r: not r.get("renumbered"))])
    if k["added"]:
        out += ["## New concepts", "", "Most papers first.", ""]
        out += _table(["id", "name", "papers"], [[r["id"], r["name"], r["papers"]] for r in k["added"]])
    if k["grown"]:
        out += ["## Concepts that gained most papers", ""]
        out += _table(["id", "name", "papers", "added"], [[r["id"], r["name"], r["papers"], r["added"]]
                                                          for r in k["grown"]])
    if k["gone"]:
        out += ["## Concepts gone", "", "*now*: the concept that carries one of its names now (merged into it), "
                "else none (no paper keeps it among its concepts).", ""]
        out += _table(["id", "name", "papers before", "now"],
                      [[r["id"], r["name"], r["papers"], f"{r['now_name']} [{r['now']}]" if r["now"] else "—"]
                       for r in k["gone"]])
    if k["renamed"]:
        out += ["## Concepts renamed", ""] + _table(["id", "was", "now"],
                                                    [[r["id"], r["from"], r["to"]] for r in k["renamed"]])
    if p["added"]:
        out += ["## New papers", ""] + _table(["id", "title", "community"],
                                              [[r["id"], r["title"], r["community"]] for r in p["added"]])
    if p["merged"]:
        out += ["## Papers already in the build, merged with a new record of them", ""]
        out += _table(["id", "title"], [[r["id"], r["title"]] for r in p["merged"]])
    return "\n".join(out).rstrip() + "\n"


def write_changelog(log: Mapping, folder: str | os.PathLike[str]) -> list[str]:
    """Write ``changelog.json`` and ``changelog.md`` into ``folder`` (atomically); their paths."""
    from kg.escape import clean_tree
    from kg.export.files import atomic_write

    folder = os.fspath(folder)
    paths = [os.path.join(folder, name) for name in CHANGELOG_FILES]
    atomic_write(paths[0], json.dumps(clean_tree(log), ensure_ascii=False, sort_keys=True, indent=1,
                                      allow_nan=False) + "\n")
    atomic_write(paths[1], changelog_markdown(log))
    return paths
