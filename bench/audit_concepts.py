"""Junk audit on the seed abstracts: what a user sees after ``kg build ../shared/seeds/*.txt``.

Builds the seeds with the real model and the build's defaults, then prints each paper's
(derived) title and its top concepts by mention rank, the number of concepts shared by
two or more papers, and for each method family (papers picked by a pattern on their
abstract) the concepts its members share and the members that share none with another
member. Judging which concepts are generic or ungrammatical is left to the reader; the
printout is meant to be diffed before and after a change.

Usage::

    .venv/bin/python bench/audit_concepts.py [--top 10] [--json audit.json] [--cache FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT.parent / "shared" / "seeds").glob("*.txt"))

# Method families: a paper belongs when its abstract matches the pattern.
FAMILIES = {
    "diffusion models": r"\bdiffusion (?:probabilistic )?models?\b|\bscore-based\b|Stable Diffusion",
    "RL from reward": r"\breinforcement learning\b.*\breward|\breward\b.*\breinforcement learning\b",
    "position embeddings / long context": r"\bcontext window\b|\bposition(?:al)? (?:embedding|encoding)s?\b",
    "causal inference": r"\bcausal (?:effect|inference|discovery|model|representation)s?\b",
}


def audit(graph, *, top: int = 10) -> dict:
    """Plain data of the audit: per paper its top concepts, shared counts, family checks."""
    papers = sorted(n for n, d in graph.nodes(data=True) if d.get("kind") == "paper")
    linked: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for paper, concept, key, data in graph.edges(keys=True, data=True):
        if key == "mentions":
            linked[paper].append((data["rank"], concept))
    df = Counter(c for rows in linked.values() for _, c in rows)
    rows = []
    for p in papers:
        ranked = [c for _, c in sorted(linked[p])]
        rows.append({"id": p, "title": graph.nodes[p].get("title"),
                     "derived": bool(graph.nodes[p].get("title_derived")),
                     "concepts": [graph.nodes[c]["name"] for c in ranked[:top]],
                     "shared": [graph.nodes[c]["name"] for c in ranked if df[c] >= 2]})
    families = {}
    for family, pattern in FAMILIES.items():
        members = [p for p in papers if re.search(pattern, graph.nodes[p].get("abstract", ""), re.S)]
        counts = Counter(c for p in members for c in {c for _, c in linked[p]})
        shared = sorted(graph.nodes[c]["name"] for c, n in counts.items() if n >= 2)
        alone = [p for p in members if not any(counts[c] >= 2 for _, c in linked[p])]
        families[family] = {"papers": len(members), "shared": shared,
                            "isolated": [graph.nodes[p].get("title") for p in alone]}
    # Related links and the concepts they rest on: a concept is generic when more than 5% of the
    # papers (and more than 2) have it; a link "rests only on generic concepts" when it shares
    # concepts and all of them are generic.
    generic = {c for c, n in df.items() if n > max(2, 0.05 * len(papers))}
    links = [d.get("shared") or [] for _, _, k, d in graph.edges(keys=True, data=True) if k == "related"]
    sharing = [set(s) for s in links if s]
    return {"papers": rows, "concepts": len(df), "shared_2plus": sum(1 for n in df.values() if n >= 2),
            "families": families, "related_links": len(links), "links_sharing_concepts": len(sharing),
            "links_only_generic": sum(1 for s in sharing if s <= generic),
            "generic_concepts": sorted(f"{graph.nodes[c]['name']} ({df[c]})" for c in generic)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--json", default=None, help="also write the audit as JSON")
    parser.add_argument("--cache", default=None, help="embedding cache file")
    args = parser.parse_args()

    from kg.pipeline import BuildOptions, build

    with tempfile.TemporaryDirectory() as out:
        graph = build([str(p) for p in SEEDS], out, BuildOptions(html=False), cache=args.cache).graph
    result = audit(graph, top=args.top)
    for row in result["papers"]:
        mark = " (derived)" if row["derived"] else ""
        print(f"\n{row['title']}{mark}")
        print("   " + " | ".join(row["concepts"]))
    print(f"\nconcepts: {result['concepts']}, shared by >= 2 papers: {result['shared_2plus']}")
    print(f"related links: {result['related_links']}, sharing a concept: {result['links_sharing_concepts']}, "
          f"resting only on generic concepts (in > 5% and > 2 papers): {result['links_only_generic']}")
    print("generic concepts: " + ", ".join(result["generic_concepts"]))
    for family, found in result["families"].items():
        print(f"{family}: {found['papers']} papers; shared: {', '.join(found['shared']) or '-'}; "
              f"isolated: {found['isolated'] or '-'}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
