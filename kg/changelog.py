"""What ``kg build --update`` changed, as ``changelog.json`` (everything) and ``changelog.md``.

Papers added and merged; concepts new, gone (and the concept that carries their name now)
and renamed; communities continued, renumbered (a number the range ``0 .. k-1`` lost, or
another took), new and gone; every earlier paper that changed community; the counts before
and after; how many texts the model embedded (:func:`changelog`, :func:`write_changelog`).
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from kg._version import __version__
from kg.analyze.result import paper_community
from kg.atomic import atomic_write
from kg.buildfolder import PreviousBuild
from kg.escape import clean_tree, markdown_text
from kg.graph import node_label
from kg.models import Paper
from kg.report import md_table

__all__ = ["changelog", "summary_lines", "changelog_markdown", "write_changelog", "CHANGELOG_FILES"]

CHANGELOG_FILES = ("changelog.json", "changelog.md")
_MD_ROWS = 50  # rows of each list in changelog.md (changelog.json has them all)


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
    graph, analysis = result.graph, result.analysis
    before = {p.id: p for p in previous.papers}
    now = {p.id: p for p in result.corpus.papers}
    added = sorted(set(now) - set(before))
    updated = sorted(pid for pid in set(now) & set(before)
                     if now[pid] != before[pid] or now[pid].ids != before[pid].ids
                     or now[pid].extra.get("aliases", []) != before[pid].extra.get("aliases", []))
    member = paper_community(analysis)
    old_member = paper_community(previous.analysis) if previous.analysis else {}
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
        "kg_version": __version__,
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
    lines = [md_table(header, [["" if v is None else v for v in row] for row in rows[:_MD_ROWS]])]
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
    folder = os.fspath(folder)
    paths = [os.path.join(folder, name) for name in CHANGELOG_FILES]
    atomic_write(paths[0], json.dumps(clean_tree(log), ensure_ascii=False, sort_keys=True, indent=1,
                                      allow_nan=False) + "\n")
    atomic_write(paths[1], changelog_markdown(log))
    return paths
