"""Concept audit: random samples of a build for reviewers, automatic counts, and label scores.

Four modes.

**Sample a build** (``BUILD_DIR`` is the output folder of ``kg build``): draw a seeded random
sample among the papers that have an abstract, write a reviewer packet and print automatic
counts over the sample and over the whole build::

    .venv/bin/python bench/audit_concepts.py out/acm --sample 35 [--seed N] [--top 10] [--out DIR] [--differ OTHER]

The seed is printed; without ``--seed`` it comes from the clock, so every judging round is a
fresh sample (give the printed seed to draw the same one again). With ``--differ OTHER`` (another build
of the same corpus) the sample is drawn only among the papers whose top concepts the two builds list
differently, the same papers from either build with one seed: a change that touches 1% of the papers
leaves a random sample of 35 the same, and this measures what it changed. ``DIR`` (default
``concept-audit-<build folder>-<seed>``) receives

* ``sample.md`` / ``sample.json``: the packet reviewers see, for each paper only a number, the
  title, the abstract and its top concepts in rank order, numbered from 1 (no scores, no ids);
* ``labels_template.json``: ``[{"paper": i, "concept": j, "name": ..., "label": ""}, ...]``, one
  row per concept, for each reviewer to fill with one of good / generic / near-duplicate /
  ungrammatical / broken-name / wrong (the rubric is ``../shared/docs/CONCEPTS.md``);
* ``auto.json``: the automatic counts (below), the seed and the sampled paper ids.

The automatic counts, for the sample and for the whole build, over each paper's top concepts:
(a) tokenization junk: names with a letter on both sides of a full stop ("graphs.DeepWalk"; the
raw count, with "e.g"-, "Node.js"-like forms counted apart but not removed) and names with markup
(``< > $ \\ { }`` or an HTML entity such as ``&amp;``); (b) near-duplicate pairs in one paper's
top list: the same head word, and one's words a subset of the other's (lower case, hyphens and
dashes as spaces, every word singularized); (c) single-word concepts mentioned by more than 2% of
the build's papers and the share of top slots they fill; (d) the share of top slots holding a
single word; (e) the mean number of top concepts per paper.

**Score filled label files** (one per reviewer, for the same sample)::

    .venv/bin/python bench/audit_concepts.py --score labels_ann.json labels_bob.json

prints the count and share of each label per file and their mean, and for every two files the
agreement on good / not good (percent and Cohen's kappa). Labels are read leniently: case,
spaces, underscores and hyphens do not matter ("Near duplicate", "broken_name").

**The corpus's own keyphrases** (the rubric's ceiling: how human-assigned keyphrases fare)::

    .venv/bin/python bench/audit_concepts.py --gold CORPUS.jsonl --sample 35 [--seed N] [--out DIR]

draws the same kind of seeded sample among the records of a JSONL corpus that have an abstract
and keyphrases (``keyphrases``: a list, or its text as ACM-CR stores it) and writes the same
packet, the keyphrases in the order the record lists them (the first ``--top``), so reviewers
judge authors' or indexers' keyphrases exactly as they judge kg's concepts.

**The seed abstracts** (the earlier audit; also when no ``BUILD_DIR`` is given)::

    .venv/bin/python bench/audit_concepts.py --seeds [--top 10] [--json audit.json] [--cache FILE]

builds ``../shared/seeds/*.txt`` with the real model and prints each paper's top concepts, the
concepts shared by two or more papers and, per method family, what its members share.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from kg.models import concept_label

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT.parent / "shared" / "seeds").glob("*.txt"))
LABELS = ("good", "generic", "near-duplicate", "ungrammatical", "broken-name", "wrong")

# Method families: a paper belongs when its abstract matches the pattern.
FAMILIES = {
    "diffusion models": r"\bdiffusion (?:probabilistic )?models?\b|\bscore-based\b|Stable Diffusion",
    "RL from reward": r"\breinforcement learning\b.*\breward|\breward\b.*\breinforcement learning\b",
    "position embeddings / long context": r"\bcontext window\b|\bposition(?:al)? (?:embedding|encoding)s?\b",
    "causal inference": r"\bcausal (?:effect|inference|discovery|model|representation)s?\b",
}

_FULL_STOP = re.compile(r"[^\W\d_]\.[^\W\d_]")
# Dotted forms that are written so on purpose: Latin abbreviations and names such as Node.js, ASP.NET.
_KNOWN_DOTTED = re.compile(r"(?:^|\W)(?:e\.g|i\.e|et\.? al|cf|vs|a\.k\.a)(?:\W|$)|\.(?:js|net|io|ai|com|org)\b",
                           re.IGNORECASE)
_MARKUP = re.compile(r"[<>$\\{}]|&(?:[a-z]+|#\d+|#x[0-9a-f]+);", re.IGNORECASE)
_DASHES = re.compile(r"[-\u2010-\u2015\u2212]")
_LABEL_ALIASES = {"good": "good", "generic": "generic", "nearduplicate": "near-duplicate",
                  "duplicate": "near-duplicate", "neardup": "near-duplicate", "ungrammatical": "ungrammatical",
                  "brokenname": "broken-name", "broken": "broken-name", "wrong": "wrong"}


# ---------------------------------------------------------------------------------------------
# Pure functions: graph in, plain data out


def ranked_concepts(graph, *, top: int | None = 10) -> dict[str, list[str]]:
    """Every paper's concept ids by mention rank (the first ``top``; all when ``top`` is None).

    Papers without a mention get an empty list. ``graph`` is kg's MultiDiGraph: ``mentions``
    edges (key ``"mentions"``, attribute ``rank``) run from a paper to a concept.
    """
    linked: dict[str, list[tuple[int, str]]] = {n: [] for n, d in graph.nodes(data=True) if d.get("kind") == "paper"}
    for paper, concept, key, data in graph.edges(keys=True, data=True):
        if key == "mentions":
            linked.setdefault(paper, []).append((data.get("rank", 0), concept))
    return {p: [c for _, c in sorted(rows)][:top] for p, rows in linked.items()}


def concept_papers(graph) -> Counter:
    """Concept id -> number of papers that mention it (at any rank)."""
    return Counter(v for u, v, key in graph.edges(keys=True) if key == "mentions")


def lemma_words(name: str) -> tuple[str, ...]:
    """The words of a concept name, lower case, hyphens and dashes as spaces, each singularized.

    >>> lemma_words("Graph Neural-Networks")
    ('graph', 'neural', 'network')
    """
    from kg.normalize.keys import singularize

    return tuple(singularize(w) for w in _DASHES.sub(" ", name.lower()).split())


def is_single_word(name: str) -> bool:
    """A name without a space (a hyphenated compound such as "self-attention" is one word)."""
    return len(name.split()) == 1


def junk_kind(name: str) -> str | None:
    """``"full-stop"`` for a letter on both sides of a full stop, ``"markup"`` for markup, else None."""
    if _MARKUP.search(name):
        return "markup"
    if _FULL_STOP.search(name):
        return "full-stop"
    return None


def is_known_dotted(name: str) -> bool:
    """A dotted form written so on purpose ("e.g", "i.e", "Node.js", "ASP.NET")."""
    return bool(_KNOWN_DOTTED.search(name))


def near_duplicate_pairs(names: list[str]) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)``, ``i < j``, of names with the same head word and nested words.

    Both are compared as :func:`lemma_words`: the last words are equal and one's set of words
    is a subset of the other's ("graph neural network" and "neural networks").

    >>> near_duplicate_pairs(["graph neural networks", "neural network", "graph", "network model"])
    [(0, 1)]
    """
    words = [lemma_words(n) for n in names]
    return [(i, j) for i, j in itertools.combinations(range(len(names)), 2)
            if words[i] and words[j] and words[i][-1] == words[j][-1]
            and (set(words[i]) <= set(words[j]) or set(words[j]) <= set(words[i]))]


def auto_counts(graph, papers, *, top: int = 10, share: float = 0.02, ranked: dict | None = None,
                df: Counter | None = None, examples: int | None = None) -> dict:
    """The automatic counts over the top ``top`` concepts of ``papers`` (plain data).

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A kg graph (papers, concepts with a ``name``, ``mentions`` edges with a ``rank``).
    papers : iterable of str
        The paper ids to count over (a sample, or every paper).
    top : int
        How many of each paper's concepts count (its top slots).
    share : float
        A single-word concept is *frequent* when more than this share of the graph's papers
        mention it (at any rank).
    ranked, df : optional
        :func:`ranked_concepts` and :func:`concept_papers` of ``graph``, when already computed.
    examples : int, optional
        At most this many near-duplicate examples are listed (all when None).

    Returns
    -------
    dict
        ``papers``, ``slots``, ``mean_concepts``; ``single_word_slots`` and ``single_word_share``;
        ``full_stop`` and ``markup`` (the distinct names, sorted, and ``*_slots``), with
        ``full_stop_known`` (those of them that are "e.g"- or "Node.js"-like); ``near_duplicates``
        (``pairs``, ``papers``, ``examples`` as name pairs); ``frequent_single_words`` (name ->
        share of the graph's papers, for those in these slots), ``frequent_single_word_slots``
        and ``frequent_single_word_share``.
    """
    ranked = ranked_concepts(graph, top=None) if ranked is None else ranked
    df = concept_papers(graph) if df is None else df
    n_all = sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "paper")
    frequent = {c for c, n in df.items() if n > share * n_all and is_single_word(graph.nodes[c]["name"])}
    papers = list(papers)
    slots = single = dup_pairs = freq_slots = 0
    junk: dict[str, set[str]] = {"full-stop": set(), "markup": set()}
    junk_slots: Counter = Counter()
    dup_papers, dup_examples, freq_seen = 0, [], {}
    for p in papers:
        concepts = ranked.get(p, [])[:top]
        names = [graph.nodes[c]["name"] for c in concepts]
        slots += len(names)
        single += sum(1 for n in names if is_single_word(n))
        for name in names:
            kind = junk_kind(name)
            if kind:
                junk[kind].add(name)
                junk_slots[kind] += 1
        pairs = near_duplicate_pairs(names)
        dup_pairs += len(pairs)
        dup_papers += bool(pairs)
        dup_examples.extend((names[i], names[j]) for i, j in pairs)
        for c in concepts:
            if c in frequent:
                freq_slots += 1
                freq_seen[graph.nodes[c]["name"]] = round(df[c] / n_all, 4)
    return {
        "papers": len(papers), "slots": slots, "mean_concepts": _ratio(slots, len(papers)),
        "single_word_slots": single, "single_word_share": _ratio(single, slots),
        "full_stop": sorted(junk["full-stop"]), "full_stop_slots": junk_slots["full-stop"],
        "full_stop_known": sorted(n for n in junk["full-stop"] if is_known_dotted(n)),
        "markup": sorted(junk["markup"]), "markup_slots": junk_slots["markup"],
        "near_duplicates": {"pairs": dup_pairs, "papers": dup_papers,
                            "examples": dup_examples[:examples] if examples is not None else dup_examples},
        "frequent_single_words": dict(sorted(freq_seen.items(), key=lambda kv: (-kv[1], kv[0]))),
        "frequent_single_word_slots": freq_slots, "frequent_single_word_share": _ratio(freq_slots, slots),
    }


def build_counts(graph, *, top: int = 10, share: float = 0.02, ranked: dict | None = None,
                 df: Counter | None = None) -> dict:
    """:func:`auto_counts` over every paper of ``graph``, plus what holds for all its concepts.

    Adds ``concepts`` (how many), ``all_full_stop`` and ``all_markup`` (every concept name of
    the graph that is junk, at any rank) and ``frequent_single_word_concepts`` (how many single
    words more than ``share`` of the papers mention, whether or not in a top list).
    """
    ranked = ranked_concepts(graph, top=None) if ranked is None else ranked
    df = concept_papers(graph) if df is None else df
    counts = auto_counts(graph, sorted(ranked), top=top, share=share, ranked=ranked, df=df, examples=50)
    names = [d["name"] for _, d in graph.nodes(data=True) if d.get("kind") == "concept"]
    n_all = len(ranked)
    counts.update({
        "concepts": len(names),
        "all_full_stop": sorted(n for n in names if junk_kind(n) == "full-stop"),
        "all_markup": sorted(n for n in names if junk_kind(n) == "markup"),
        "frequent_single_word_concepts": sum(1 for c, n in df.items()
                                             if n > share * n_all and is_single_word(graph.nodes[c]["name"])),
    })
    return counts


def draw_sample(graph, size: int, *, seed: int, among: set[str] | None = None) -> list[str]:
    """``size`` paper ids drawn at random (``seed``) among the papers with a non-empty abstract (and in
    ``among``, when given)."""
    eligible = sorted(n for n, d in graph.nodes(data=True)
                      if d.get("kind") == "paper" and str(d.get("abstract") or "").strip()
                      and (among is None or n in among))
    return random.Random(seed).sample(eligible, min(size, len(eligible)))


def differing_papers(graph, other, *, top: int = 10) -> set[str]:
    """Papers whose first ``top`` concepts (as reviewers see them, name and acronym, in rank order) differ
    between two builds' graphs."""
    def names(g) -> dict[str, list[str]]:
        return {p: [concept_label(str(g.nodes[c].get("name", c)), g.nodes[c].get("acronym")) for c in ids]
                for p, ids in ranked_concepts(g, top=top).items()}

    mine, theirs = names(graph), names(other)
    return {p for p in set(mine) | set(theirs) if mine.get(p, []) != theirs.get(p, [])}


def packet(graph, sample: list[str], ranked: dict[str, list[str]], *, top: int = 10) -> list[dict]:
    """What reviewers see of each sampled paper: number, title, abstract, concepts in rank order, each
    as the map and the report show it (its label: the name, and its acronym in brackets)."""
    return [{"paper": i, "title": str(graph.nodes[p].get("title") or ""),
             "abstract": " ".join(str(graph.nodes[p].get("abstract") or "").split()),
             "concepts": [concept_label(graph.nodes[c]["name"], graph.nodes[c].get("acronym"))
                          for c in ranked.get(p, [])[:top]]}
            for i, p in enumerate(sample, start=1)]


def labels_template(rows: list[dict]) -> list[dict]:
    """One row to label per concept of the packet: ``paper``, ``concept`` (both from 1), ``name``, ``label``."""
    return [{"paper": row["paper"], "concept": j, "name": name, "label": ""}
            for row in rows for j, name in enumerate(row["concepts"], start=1)]


def packet_markdown(rows: list[dict]) -> str:
    """The packet as Markdown; corpus text is escaped so it renders literally."""
    from kg.escape import markdown_text

    lines = [f"# Concepts of {len(rows)} papers", "",
             "Label each numbered concept in labels_template.json: " + ", ".join(LABELS) + ".", ""]
    for row in rows:
        lines += [f"## {row['paper']}. {markdown_text(row['title'])}", "", markdown_text(row["abstract"]), ""]
        lines += [f"{j}. {markdown_text(name)}" for j, name in enumerate(row["concepts"], start=1)]
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Scoring filled label files


def normalize_label(value: object) -> str | None:
    """One of :data:`LABELS` for a reviewer's spelling of it, or None when empty or unknown.

    >>> [normalize_label(v) for v in ["Good", "near duplicate", "Broken_Name", " wrong ", "", "meh"]]
    ['good', 'near-duplicate', 'broken-name', 'wrong', None, None]
    """
    key = re.sub(r"[^a-z]", "", str(value or "").lower())
    return _LABEL_ALIASES.get(key)


def read_labels(path: str | Path) -> list[dict]:
    """The rows of a label file: a list of objects (or ``{"labels": [...]}``) as the template has them."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        data = data.get("labels", [])
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ValueError(f"{path}: not a label file (a list of objects with paper, concept, label)")
    return data


def label_counts(rows: list[dict]) -> dict:
    """Counts and shares (of the labelled rows) per label, and the rows left empty or unreadable."""
    counts: Counter = Counter()
    empty, unknown = 0, []
    for row in rows:
        label = normalize_label(row.get("label"))
        if label:
            counts[label] += 1
        elif str(row.get("label") or "").strip():
            unknown.append(str(row.get("label")))
        else:
            empty += 1
    n = sum(counts.values())
    return {"labelled": n, "empty": empty, "unknown": unknown,
            "counts": {k: counts[k] for k in LABELS}, "shares": {k: _ratio(counts[k], n) for k in LABELS}}


def _keyed(rows: list[dict]) -> dict[tuple[int, int], str]:
    out = {}
    for row in rows:
        label = normalize_label(row.get("label"))
        try:
            key = (int(row.get("paper")), int(row.get("concept")))
        except (TypeError, ValueError):
            continue
        if label:
            out[key] = label
    return out


def agreement(a: list[dict], b: list[dict]) -> dict:
    """Agreement of two reviewers on good / not good over the concepts both labelled.

    Returns ``n``, ``agree``, ``percent`` and Cohen's ``kappa`` (None when chance agreement
    is already 1, e.g. when both call everything good).

    >>> a = [{"paper": 1, "concept": j, "label": l} for j, l in enumerate(["good", "good", "wrong", "generic"], 1)]
    >>> b = [{"paper": 1, "concept": j, "label": l} for j, l in enumerate(["Good", "generic", "wrong", "generic"], 1)]
    >>> agreement(a, b)
    {'n': 4, 'agree': 3, 'percent': 75.0, 'kappa': 0.5}
    """
    ka, kb = _keyed(a), _keyed(b)
    both = sorted(set(ka) & set(kb))
    n = len(both)
    if not n:
        return {"n": 0, "agree": 0, "percent": None, "kappa": None}
    ga = [ka[k] == "good" for k in both]
    gb = [kb[k] == "good" for k in both]
    agree = sum(x == y for x, y in zip(ga, gb))
    po, pa, pb = agree / n, sum(ga) / n, sum(gb) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    kappa = None if pe >= 1 else round((po - pe) / (1 - pe), 4)
    return {"n": n, "agree": agree, "percent": round(100 * po, 1), "kappa": kappa}


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


# ---------------------------------------------------------------------------------------------
# The seed audit (the earlier mode)


def audit(graph, *, top: int = 10) -> dict:
    """Plain data of the seed audit: per paper its top concepts, shared counts, family checks."""
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


def _seed_mode(args) -> None:
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


# ---------------------------------------------------------------------------------------------
# Printing


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _listing(names, limit: int = 15) -> str:
    from kg.escape import terminal_text

    names = list(names)
    shown = ", ".join(terminal_text(n) for n in names[:limit])
    return (shown + (f", … (+{len(names) - limit})" if len(names) > limit else "")) or "-"


def _print_counts(title: str, c: dict) -> None:
    print(f"\n== {title}: {c['papers']} papers, {c['slots']} top slots, "
          f"{c['mean_concepts'] or 0:.2f} concepts per paper (e)")
    known = len(c["full_stop_known"])
    print(f"(a) full stop inside a name: {len(c['full_stop'])} names in {c['full_stop_slots']} slots "
          f"({known} of them e.g/Node.js-like): {_listing(c['full_stop'])}")
    print(f"(a) markup: {len(c['markup'])} names in {c['markup_slots']} slots: {_listing(c['markup'])}")
    if "all_full_stop" in c:
        print(f"    at any rank, of {c['concepts']} concepts: full stop {len(c['all_full_stop'])}, "
              f"markup {len(c['all_markup'])}: {_listing(c['all_markup'], 10)}")
    nd = c["near_duplicates"]
    print(f"(b) near-duplicate pairs: {nd['pairs']} in {nd['papers']} papers: "
          f"{_listing([f'{a} ~ {b}' for a, b in nd['examples']], 10)}")
    freq = c["frequent_single_words"]
    total = f"{c['frequent_single_word_concepts']} in the build, " if "frequent_single_word_concepts" in c else ""
    print(f"(c) single words in > 2% of papers: {total}{len(freq)} in these top slots, filling "
          f"{c['frequent_single_word_slots']} slots ({_pct(c['frequent_single_word_share'])}): "
          f"{_listing([f'{n} {100 * s:.1f}%' for n, s in freq.items()], 20)}")
    print(f"(d) single-word slots: {c['single_word_slots']} ({_pct(c['single_word_share'])})")


def _sample_mode(args) -> None:
    from kg.errors import KgError
    from kg.graphfile import load_graph

    try:
        graph = load_graph(args.build)
    except KgError as exc:
        sys.exit(f"Error: {exc}")
    seed = args.seed if args.seed is not None else int(time.time())
    print(f"seed: {seed}   (again: --seed {seed})")
    ranked, df = ranked_concepts(graph, top=None), concept_papers(graph)
    among = None
    if args.differ:  # only papers whose lists another build gives otherwise: what a change changed
        try:
            among = differing_papers(graph, load_graph(args.differ), top=args.top)
        except KgError as exc:
            sys.exit(f"Error: {exc}")
        print(f"{len(among)} papers' top {args.top} differ from {args.differ}")
    sample = draw_sample(graph, args.sample, seed=seed, among=among)
    out = Path(args.out or f"concept-audit-{Path(args.build).resolve().name}-{seed}")
    out.mkdir(parents=True, exist_ok=True)
    rows = packet(graph, sample, ranked, top=args.top)
    (out / "sample.md").write_text(packet_markdown(rows), encoding="utf-8")
    _write_json(out / "sample.json", rows)
    _write_json(out / "labels_template.json", labels_template(rows))
    with_abstract = sum(1 for n, d in graph.nodes(data=True)
                        if d.get("kind") == "paper" and str(d.get("abstract") or "").strip())
    result = {"build": str(Path(args.build).resolve()), "seed": seed, "top": args.top,
              "papers_with_abstract": with_abstract, "sample_ids": sample,
              "sample": auto_counts(graph, sample, top=args.top, ranked=ranked, df=df),
              "build_counts": build_counts(graph, top=args.top, ranked=ranked, df=df)}
    _write_json(out / "auto.json", result)
    print(f"{len(sample)} of {with_abstract} papers with an abstract ({len(ranked)} papers in the build); "
          f"top {args.top}")
    _print_counts("sample", result["sample"])
    _print_counts("whole build", result["build_counts"])
    print(f"\nwrote {out}/sample.md, sample.json, labels_template.json, auto.json")


def gold_keyphrases(record: dict) -> list[str]:
    """A corpus record's own keyphrases: a list, or a list written as text (ACM-CR's field).

    >>> gold_keyphrases({"keyphrases": "['Query Prediction', 'Multi-Stage Retrieval']"})
    ['Query Prediction', 'Multi-Stage Retrieval']
    >>> gold_keyphrases({"keyphrases": ["wavelength services"]}), gold_keyphrases({"keyphrases": None})
    (['wavelength services'], [])
    """
    value = record.get("keyphrases")
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            value = [part.strip() for part in value.split(";")]
    return [str(k).strip() for k in value or [] if str(k).strip()]


def _gold_mode(args) -> None:
    seed = args.seed if args.seed is not None else int(time.time())
    print(f"seed: {seed}   (again: --seed {seed})")
    records = []
    with open(args.gold, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line) if line.strip() else {}
            if str(record.get("abstract") or "").strip() and gold_keyphrases(record):
                records.append(record)
    records.sort(key=lambda r: str(r.get("id")))
    sample = random.Random(seed).sample(records, min(args.sample, len(records)))
    rows = [{"paper": i, "title": str(r.get("title") or ""), "abstract": " ".join(str(r["abstract"]).split()),
             "concepts": gold_keyphrases(r)[:args.top]} for i, r in enumerate(sample, start=1)]
    out = Path(args.out or f"gold-audit-{Path(args.gold).stem}-{seed}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "sample.md").write_text(packet_markdown(rows), encoding="utf-8")
    _write_json(out / "sample.json", rows)
    _write_json(out / "labels_template.json", labels_template(rows))
    _write_json(out / "auto.json", {"corpus": str(Path(args.gold).resolve()), "seed": seed, "top": args.top,
                                    "records_with_keyphrases": len(records),
                                    "sample_ids": [str(r.get("id")) for r in sample]})
    print(f"{len(sample)} of {len(records)} records with an abstract and keyphrases; "
          f"{sum(len(r['concepts']) for r in rows)} keyphrases")
    print(f"wrote {out}/sample.md, sample.json, labels_template.json, auto.json")


def _score_mode(args) -> None:
    files = [Path(p) for p in args.score]
    try:
        data = [read_labels(p) for p in files]
    except (OSError, ValueError) as exc:
        sys.exit(f"Error: {exc}")
    results = [label_counts(rows) for rows in data]
    width = max(len(p.name) for p in files)
    print(f"{'':{width}}  labelled  " + "  ".join(f"{k:>16}" for k in LABELS))
    for path, r in zip(files, results):
        cells = "  ".join(f"{r['counts'][k]:>6} {_pct(r['shares'][k]):>9}" for k in LABELS)
        print(f"{path.name:{width}}  {r['labelled']:>8}  {cells}")
        if r["empty"] or r["unknown"]:
            print(f"{'':{width}}  empty: {r['empty']}; not a label: {_listing(r['unknown'], 10)}")
    if len(results) > 1:
        means = {k: [r["shares"][k] for r in results if r["shares"][k] is not None] for k in LABELS}
        cells = "  ".join(f"{'':>6} {_pct(sum(v) / len(v) if v else None):>9}" for v in means.values())
        print(f"{'mean':{width}}  {'':>8}  {cells}")
    for (i, a), (j, b) in itertools.combinations(enumerate(data), 2):
        agr = agreement(a, b)
        kappa = "-" if agr["kappa"] is None else f"{agr['kappa']:.2f}"
        percent = "-" if agr["percent"] is None else f"{agr['percent']:.1f}%"
        print(f"good / not good, {files[i].name} vs {files[j].name}: {agr['agree']} of {agr['n']} agree "
              f"({percent}), Cohen's kappa {kappa}")


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", help="output folder of kg build (sample mode)")
    parser.add_argument("--sample", type=int, default=None, help="papers to sample (default 35)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    parser.add_argument("--top", type=int, default=10, help="concepts per paper (default 10)")
    parser.add_argument("--out", default=None, help="folder for the packet (default concept-audit-BUILD-SEED)")
    parser.add_argument("--differ", default=None, metavar="BUILD",
                        help="sample mode: draw only among the papers whose top concepts differ in BUILD")
    parser.add_argument("--score", nargs="+", metavar="LABELS", help="score filled label files")
    parser.add_argument("--gold", default=None, metavar="CORPUS",
                        help="sample a JSONL corpus's own keyphrases instead of a build's concepts")
    parser.add_argument("--seeds", action="store_true", help="audit the seed abstracts (built with the model)")
    parser.add_argument("--json", default=None, help="seed mode: also write the audit as JSON")
    parser.add_argument("--cache", default=None, help="seed mode: embedding cache file")
    args = parser.parse_args(argv)
    if args.top < 1 or (args.sample is not None and args.sample < 1):
        parser.error("--top and --sample must be at least 1")
    if not args.score and not args.gold and (not args.build or args.seeds) and (args.sample or args.seed is not None or args.out):
        parser.error("--sample, --seed and --out draw from a build: give its folder (BUILD_DIR)")
    args.sample = args.sample or 35
    if args.score:
        _score_mode(args)
    elif args.gold:
        _gold_mode(args)
    elif args.build and not args.seeds:
        _sample_mode(args)
    else:
        _seed_mode(args)


if __name__ == "__main__":
    main()
