"""Do kg's links find the papers a paper really cites? ACM-CR's reference lists as the answer.

48 ACM-CR papers carry their reference lists (757 citations to papers with an abstract in
the set). For each of those papers present in a kg build, every method ranks all the other
papers of the build; recall@20 is the share of its in-build citations among its 20
strongest links (micro: summed over the citing papers), MRR the mean reciprocal rank of the
first cited paper among them (0 when none is). Methods, all on the same papers:

* ``kg concepts``: shared concepts from the build's ``mentions`` edges, ``Σ ln((N+1)/df)``
  (``kg related`` before document vectors; no citation bonus: the references are the answer);
* ``kg links``: the library's own ``related`` links (:func:`kg.links.related_edges`) with the
  build's concepts and the papers' document vectors, a paper's kept links by weight;
* ``tf-idf``: cosine over title + abstract (scikit-learn, English stop words, sublinear tf);
* ``minilm``: cosine of kg's document vectors (title + abstract, all-MiniLM-L6-v2 as kg embeds);
* ``keywords``: the records' author keywords (lower-cased) as concepts, with kg's weighting;
* ``variants`` (``--variants``): other combinations, scored exactly for the citing papers.

Then the ratio of ``kg links``' recall@20 to the best baseline's, and how many kept links
rest only on generic concepts (every shared concept in more than 5% of the papers), for
concept-only links and for ``kg links``.

Document vectors of every record of the data file are computed once with kg's embedder and
kept in ``--cache-dir`` (about 5 minutes for ACM-CR on 2 cores).

Run::

    .venv/bin/python bench/bench_related.py --graph OUT/graph.json [--data PAPERS.jsonl]
        [--cache-dir /tmp/rel/cache] [--top 20] [--variants]

Build the graph from the records without their references (e.g. ``jq -c '.references=null'``),
or the citation edges would leak the answer into the concepts' neighbours.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy import sparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "acm_cr" / "papers.jsonl"

from kg.links import AUTHOR_WEIGHT, SIMILARITY_WEIGHT, related_edges  # noqa: E402
from kg.identity import author_id  # noqa: E402
from kg.vectors import load_paper_vectors, save_paper_vectors  # noqa: E402

GENERIC_DF = 0.05


def _records(path: Path) -> dict[str, dict]:
    with open(path, encoding="utf-8") as handle:
        return {r["id"]: r for r in (json.loads(line) for line in handle if line.strip())}


def document_vectors(data: Path, cache_dir: Path) -> tuple[list[str], np.ndarray]:
    """kg's document vector of every paper kg reads from ``data``, computed once and cached."""
    from kg.extract import document_text, load_embedder
    from kg.ingest import load_corpus

    embedder = load_embedder()
    digest = hashlib.sha256(data.read_bytes()).hexdigest()[:16]
    tag = hashlib.sha256(f"{digest}\x00{embedder.signature}".encode()).hexdigest()[:16]
    target = cache_dir / f"doc_vectors-{tag}.npy"
    found = load_paper_vectors(target)
    if found is not None:
        return found
    start = time.perf_counter()
    papers = sorted(load_corpus([str(data)]).papers, key=lambda p: p.id)
    texts = [document_text(p) for p in papers]
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths batch well
    matrix = np.empty((len(texts), 0), np.float32)
    for begin in range(0, len(order), 2048):
        rows = order[begin : begin + 2048]
        part = np.asarray(embedder.embed([texts[i] for i in rows]), np.float32)
        if matrix.shape[1] == 0:
            matrix = np.empty((len(texts), part.shape[1]), np.float32)
        matrix[rows] = part
        print(f"  embedded {min(begin + 2048, len(order))}/{len(order)} documents "
              f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    save_paper_vectors(target, [p.id for p in papers], matrix)
    return load_paper_vectors(target)  # type: ignore[return-value]  # float16 round trip, as a build keeps them


def _incidence(rows: list[list[str]]) -> tuple[sparse.csr_matrix, list[str]]:
    vocabulary = sorted({c for row in rows for c in row})
    col = {c: j for j, c in enumerate(vocabulary)}
    r = [i for i, row in enumerate(rows) for c in set(row)]
    c = [col[c] for row in rows for c in set(row)]
    x = sparse.csr_matrix((np.ones(len(r)), (r, c)), shape=(len(rows), len(vocabulary)))
    x.sum_duplicates()
    x.sort_indices()
    return x, vocabulary


def _idf_scores(x: sparse.csr_matrix, rows: list[int]) -> np.ndarray:
    n = x.shape[0]
    idf = np.log((n + 1) / np.maximum(np.asarray(x.sum(axis=0)).ravel(), 1))
    return np.asarray(((x[rows] @ sparse.diags(idf)) @ x.T).todense())


def _top(scores: np.ndarray, i: int, top: int) -> list[int]:
    """Best ``top`` columns of one row, excluding ``i`` and zero scores; ties by index (= by id)."""
    s = scores.astype(np.float64).copy()
    s[i] = -np.inf
    order = np.lexsort((np.arange(len(s)), -s))[:top]
    return [j for j in order.tolist() if s[j] > 0]


def _evaluate(ranked: dict[int, list[int]], answers: dict[int, set[int]], top: int) -> tuple[float, float]:
    hits = total = 0
    rr = []
    for i, gold in answers.items():
        links = ranked.get(i, [])[:top]
        hits += len(gold.intersection(links))
        total += len(gold)
        first = next((rank for rank, j in enumerate(links, start=1) if j in gold), None)
        rr.append(1.0 / first if first else 0.0)
    return hits / max(total, 1), float(np.mean(rr)) if rr else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graph", help="graph.json of a kg build (built without references)")
    parser.add_argument("--data", type=Path, default=DATA, help="the records (their references are the answer)")
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/rel/cache"))
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--variants", action="store_true", help="also score other combinations")
    parser.add_argument("--similarity-weight", type=float, default=SIMILARITY_WEIGHT)
    parser.add_argument("--author-weight", type=float, default=AUTHOR_WEIGHT)
    parser.add_argument("--min-shared", type=int, default=0)
    parser.add_argument("--candidates", type=int, default=None, help="kg links: candidates a paper (default kg's)")
    parser.add_argument("--candidate-df", type=int, default=None, help="kg links: see related_edges")
    parser.add_argument("--scale", help="instead: time the link stage at these sizes (e.g. 5000,25000,54000)")
    args = parser.parse_args()
    if args.scale:
        return _scale([int(v) for v in args.scale.split(",")], args)

    clock = time.perf_counter()
    with open(args.graph, encoding="utf-8") as handle:  # plain JSON: faster than a NetworkX graph
        data = json.load(handle)
    nodes = {d["id"]: d for d in data["nodes"]}
    ids = sorted(n for n, d in nodes.items() if d.get("kind") == "paper")
    index = {p: i for i, p in enumerate(ids)}
    n = len(ids)
    records = _records(args.data)
    answers = {index[p]: {index[q] for q in records[p]["references"] if q in index and q != p}
               for p in ids if p in records and records[p].get("references")}
    answers = {i: gold for i, gold in answers.items() if gold}
    rows = sorted(answers)
    print(f"{n} papers, {len(rows)} citing papers, {sum(map(len, answers.values()))} citations inside "
          f"({time.perf_counter() - clock:.0f} s to load)", flush=True)

    vec_ids, vec_matrix = document_vectors(args.data, args.cache_dir)
    where = {p: i for i, p in enumerate(vec_ids)}
    missing = [p for p in ids if p not in where]
    if missing:
        sys.exit(f"{len(missing)} papers of the graph have no vector (e.g. {missing[0]}); wrong --data?")
    vectors = vec_matrix[[where[p] for p in ids]]

    concepts_of = [[] for _ in ids]
    for edge in data["edges"]:
        if edge.get("kind", edge.get("key")) == "mentions":
            concepts_of[index[edge["source"]]].append(edge["target"])
    del data
    x, concept_ids = _incidence(concepts_of)
    authors, _ = _incidence([sorted({a for a in map(author_id, nodes[p].get("authors") or []) if a})
                             for p in ids])
    keywords, _ = _incidence([[k.strip().casefold() for k in nodes[p].get("keyphrases") or [] if k.strip()]
                              for p in ids])
    from sklearn.feature_extraction.text import TfidfVectorizer

    # the records' own texts: graph.json keeps abstracts in corpus.jsonl beside it
    texts = [f"{records.get(p, nodes[p]).get('title') or ''}. {records.get(p, nodes[p]).get('abstract') or ''}"
             for p in ids]
    tfidf = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit_transform(texts)

    scores = {
        "kg concepts": _idf_scores(x, rows),
        "tf-idf": np.asarray((tfidf[rows] @ tfidf.T).todense()),
        "minilm": vectors[rows] @ vectors.T,
        "keywords": _idf_scores(keywords, rows),
    }
    if args.variants:
        scores.update(_variants(x, authors, rows, scores))
    ranked = {name: {i: _top(s[r], i, args.top) for r, i in enumerate(rows)} for name, s in scores.items()}

    start = time.perf_counter()
    links = list(related_edges(ids, concept_ids, x, top_k=args.top, doc_vectors=vectors, authors=authors,
                               similarity_weight=args.similarity_weight, author_weight=args.author_weight,
                               min_shared=args.min_shared, **_tuning(args)))
    seconds = time.perf_counter() - start
    kept: dict[int, list[tuple[float, int]]] = {}
    for p, q, weight, _ in links:
        kept.setdefault(index[p], []).append((-weight, index[q]))
        kept.setdefault(index[q], []).append((-weight, index[p]))
    ranked["kg links"] = {i: [j for _, j in sorted(kept.get(i, []))] for i in rows}

    print(f"\n| method | recall@{args.top} | MRR |\n|---|---:|---:|")
    results = {name: _evaluate(r, answers, args.top) for name, r in ranked.items()}
    for name, (recall, mrr) in results.items():
        print(f"| {name} | {100 * recall:.1f}% | {mrr:.3f} |")
    baselines = ("tf-idf", "minilm", "keywords", "kg concepts")
    best = max(baselines, key=lambda b: results[b][0])
    print(f"\nkg links / best baseline ({best}) recall@{args.top}: "
          f"{results['kg links'][0] / max(results[best][0], 1e-9):.2f}x")
    print(f"kg links: {len(links)} links for {n} papers in {seconds:.1f} s")

    df = np.asarray(x.sum(axis=0)).ravel()
    generic = {concept_ids[j] for j in np.flatnonzero(df > GENERIC_DF * n)}
    start = time.perf_counter()
    before = list(related_edges(ids, concept_ids, x, top_k=args.top, candidate_df=n))  # no cap: as before
    print(f"concept-only links, every concept finding candidates: {time.perf_counter() - start:.1f} s")
    capped = list(related_edges(ids, concept_ids, x, top_k=args.top))
    for name, found in (("concept-only links (before)", before), ("concept-only links, capped", capped),
                        ("kg links", links)):
        only = sum(1 for *_, shared in found if shared and set(shared) <= generic)
        none = sum(1 for *_, shared in found if not shared)
        print(f"{name}: {len(found)} kept, {only} ({100 * only / max(len(found), 1):.1f}%) rest only on "
              f"generic concepts (df > {GENERIC_DF:.0%}: {len(generic)} concepts), {none} share none")


def _tuning(args) -> dict:
    return {k: v for k, v in (("candidates", args.candidates), ("candidate_df", args.candidate_df)) if v is not None}


def _scale(sizes: list[int], args) -> None:
    """Seconds of :func:`nearest_neighbours` (exact and HNSW) and of :func:`related_edges` per size.

    With ``--graph``: its papers' concepts and authors, and ACM-CR's vectors for them; a size
    below the graph's takes a seeded sample of its papers, one above adds copies of them with
    their own concepts and authors (a second field, as hep-th beside ACM-CR) and random unit
    vectors. Without: 30 concepts a paper drawn from a Zipf law (the most frequent in nearly
    every paper), 3 authors a paper over n / 2 names, ACM-CR's vectors then random ones."""
    from kg.vectors import nearest_neighbours

    vec_ids, acm = document_vectors(args.data, args.cache_dir)
    rng = np.random.default_rng(0)
    base = _graph_rows(args.graph, vec_ids, acm) if args.graph else None
    print("| papers | kNN exact s | kNN HNSW s | HNSW recall@100 | links s | links | concepts in > 1,000 |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    previous = None
    for n in sizes:
        if base is not None:
            concepts, people, vectors = base
            rows = [int(i) for i in np.sort(rng.choice(len(concepts), size=min(n, len(concepts)), replace=False))]
            x_rows = [concepts[i] for i in rows]
            y_rows = [people[i] for i in rows]
            vectors = vectors[rows]
            copy = 1
            while len(x_rows) < n:
                more = min(n - len(x_rows), len(concepts))
                x_rows += [[f"{c}#{copy}" for c in row] for row in concepts[:more]]
                y_rows += [[f"{a}#{copy}" for a in row] for row in people[:more]]
                copy += 1
        else:
            ranks = rng.zipf(1.3, size=(n, 30)) % (40 * n)
            x_rows = [[f"c{r}" for r in row] for row in ranks]
            y_rows = [[f"a{r}" for r in row] for row in rng.integers(0, n // 2, size=(n, 3))]
            vectors = acm[:n]
        extra = rng.standard_normal((max(0, n - len(vectors)), acm.shape[1])).astype(np.float32)
        extra /= np.linalg.norm(extra, axis=1, keepdims=True)
        vectors = np.vstack([vectors, extra])
        x, concept_ids = _incidence(x_rows)
        y, _ = _incidence(y_rows)
        start = time.perf_counter()
        exact = nearest_neighbours(vectors, 100, exact_up_to=n) if n <= 30000 else None
        t_exact = time.perf_counter() - start
        start = time.perf_counter()
        approx = nearest_neighbours(vectors, 100, exact_up_to=0)
        t_hnsw = time.perf_counter() - start
        found = (np.mean([len(set(a) & set(b)) / 100 for a, b in zip(approx, exact)])
                 if exact is not None else float("nan"))
        ids = [f"p{i:06d}" for i in range(n)]
        start = time.perf_counter()
        links = sum(1 for _ in related_edges(ids, concept_ids, x, doc_vectors=vectors, authors=y))
        t_links = time.perf_counter() - start
        frequent = int((np.asarray(x.sum(axis=0)).ravel() > 1000).sum())
        print(f"| {n} | {t_exact:.1f} | {t_hnsw:.1f} | {found:.3f} | {t_links:.1f} | {links} | {frequent} |",
              flush=True)
        if previous:
            m, t = previous
            print(f"|   ×{n / m:.1f} papers: links ×{t_links / t:.1f} "
                  f"(n log n ×{n * np.log(n) / (m * np.log(m)):.1f}) |", flush=True)
        previous = (n, t_links)


def _graph_rows(path: str, vec_ids: list[str], matrix: np.ndarray):
    """Each paper's concepts and authors in a build, and its vector, papers in id order."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    nodes = {d["id"]: d for d in data["nodes"]}
    ids = sorted(p for p, d in nodes.items() if d.get("kind") == "paper")
    index = {p: i for i, p in enumerate(ids)}
    concepts = [[] for _ in ids]
    for edge in data["edges"]:
        if edge.get("kind", edge.get("key")) == "mentions":
            concepts[index[edge["source"]]].append(edge["target"])
    people = [sorted({a for a in map(author_id, nodes[p].get("authors") or []) if a}) for p in ids]
    where = {p: i for i, p in enumerate(vec_ids)}
    return concepts, people, matrix[[where[p] for p in ids]]


def _variants(x, authors, rows, base) -> dict[str, np.ndarray]:
    """``cos + b · Σ idf(concepts) / ln(N+1) + a · Σ idf(authors)``, with and without requiring
    a shared concept; ``kg links`` is the first form times ``ln(N+1) / b``."""
    n = x.shape[0]
    cosine, concept = base["minilm"], base["kg concepts"]
    by_author = _idf_scores(authors, rows)
    scale = np.log(n + 1)
    out = {"authors": by_author, "minilm + 0.02 authors": cosine + 0.02 * by_author}
    for b in (0.03, 0.05, 0.1):
        for a in (0.0, 0.01, 0.02, 0.03):
            score = cosine + b * concept / scale + a * by_author
            out[f"cos + {b} C/ln(N+1) + {a} A"] = score
            out[f"cos + {b} C/ln(N+1) + {a} A, a shared concept"] = np.where(concept > 0, score, 0.0)
    return out


if __name__ == "__main__":
    main()
