"""Read a build's index (:mod:`kg.index.schema`): answers in milliseconds, without the graph.

:func:`open_index` opens ``index.sqlite`` read-only and memory-maps the vectors beside it;
the :class:`BuildIndex` it returns answers every read the commands and ``kg serve`` make,
as plain data (dicts, lists, JSON scalars). One connection is shared, guarded by a lock, so
one reader may serve several threads. Nothing here imports NetworkX.

Two kinds of answers:

* lookups for browsing: :meth:`~BuildIndex.search` (words and prefixes of titles, ids, DOIs,
  concept names and aliases), :meth:`~BuildIndex.paper`, :meth:`~BuildIndex.concept`,
  :meth:`~BuildIndex.related`, :meth:`~BuildIndex.neighbourhood`,
  :meth:`~BuildIndex.communities`, :meth:`~BuildIndex.community`, :meth:`~BuildIndex.years`;
  every list takes ``year_from`` and ``year_to`` (inclusive; papers without a year are left
  out when a bound is given);
* the commands' answers, equal to what they compute from the whole graph:
  :meth:`~BuildIndex.semantic_search` (:func:`kg.search.search`),
  :meth:`~BuildIndex.related_by` (:func:`kg.analyze.related.related_by`),
  :meth:`~BuildIndex.concept_rows` and :meth:`~BuildIndex.community_concepts`
  (:func:`kg.analyze.concept_rows`, :func:`kg.analyze.community_concepts`).
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from kg.errors import NodeNotFoundError, OptionError
from kg.index.schema import INDEX_FILE, INDEX_VERSION, RANKED_CONCEPTS, IndexDamagedError, IndexMissingError
from kg.linkweight import AUTHOR_WEIGHT, CANDIDATE_DF, SIMILARITY_WEIGHT, citation, cosines, link_weight, score_related
from kg.vectors import CONCEPT_VECTORS_FILE, VECTORS_FILE

__all__ = ["BuildIndex", "open_index"]

_WORD = re.compile(r"\w+", re.UNICODE)
_CHUNK = 16384  # vector rows scored at once (float32 copies stay small)


def open_index(folder: str | os.PathLike[str]) -> "BuildIndex":
    """The index of the build in ``folder``, opened read-only.

    Raises
    ------
    IndexMissingError
        When the folder has no ``index.sqlite`` (a build by an older kg: ``kg report FOLDER``
        writes it).
    IndexDamagedError
        When it cannot be read, is of another index version, or is out of step with the
        vectors beside it.
    """
    folder = os.fspath(folder)
    path = os.path.join(folder, INDEX_FILE)
    if not os.path.isfile(path):
        raise IndexMissingError(f"{folder}: no {INDEX_FILE} (a build by an older kg); kg report {folder} writes it")
    db = None
    try:
        db = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True, check_same_thread=False)
        meta = {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM meta")}
    except (sqlite3.Error, ValueError) as exc:
        if db is not None:
            db.close()
        raise IndexDamagedError(f"{path}: cannot read it ({exc}); kg report {folder} writes it again") from None
    if meta.get("version") != INDEX_VERSION:
        db.close()
        raise IndexDamagedError(f"{path}: index version {meta.get('version')!r}, this kg reads {INDEX_VERSION}; "
                                f"kg report {folder} writes it again")
    return BuildIndex(folder, db, meta)


def _uri_path(path: str) -> str:
    """``path`` as the path of a ``file:`` URI (every byte but letters, digits and ``/._-~`` escaped)."""
    out = []
    for c in os.path.abspath(path):
        if c.isascii() and (c.isalnum() or c in "/._-~"):
            out.append(c)
        else:
            out.extend(f"%{b:02X}" for b in c.encode("utf-8", "surrogateescape"))
    return "".join(out)


def _years(year_from: int | None, year_to: int | None, column: str = "p.year") -> tuple[str, list]:
    sql, args = "", []
    for bound, op, name in ((year_from, ">=", "year_from"), (year_to, "<=", "year_to")):
        if bound is None:
            continue
        if isinstance(bound, bool) or not isinstance(bound, int):
            raise OptionError(name, f"must be a whole year, not {bound!r}")
        sql += f" AND {column} {op} ?"
        args.append(bound)
    return sql, args


def _top(top: int, name: str = "top") -> int:
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise OptionError(name, f"must be a whole number >= 1, not {top!r}")
    return top


class BuildIndex:
    """A build's read index (:func:`open_index`): lookups and the commands' answers, as plain data.

    Attributes
    ----------
    folder : str
        The build folder.
    meta : dict
        ``version``, ``kg_version``, ``embedding`` (the model settings the vectors came from),
        ``settings`` (``seed``, ``resolution``, ``method``, ``scoring`` of the analysis),
        ``papers``, ``concepts``, ``communities`` (counts), ``related_parameters``, ``graph``
        (the graph's scalar metadata).
    """

    def __init__(self, folder: str, db: sqlite3.Connection, meta: dict):
        self.folder = folder
        self.meta = meta
        self._db = db
        self._lock = threading.Lock()
        self._vectors: dict[str, np.ndarray | None] = {}

    def __repr__(self) -> str:
        return f"<BuildIndex {self.folder}: {self.meta.get('papers')} papers, {self.meta.get('concepts')} concepts>"

    def close(self) -> None:
        """Close the connection (the object answers nothing afterwards)."""
        self._db.close()

    def __enter__(self) -> "BuildIndex":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- plumbing ----------------------------------------------------------------------

    def _rows(self, sql: str, args: Sequence = ()) -> list[tuple]:
        try:
            with self._lock:
                return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise IndexDamagedError(f"{os.path.join(self.folder, INDEX_FILE)}: cannot read it ({exc}); "
                                    f"kg report {self.folder} writes it again") from None

    def _attrs(self, node: str) -> dict | None:
        found = self._rows("SELECT attrs FROM nodes WHERE id = ?", (node,))
        return json.loads(found[0][0]) if found else None

    def _node_of_kind(self, node: str, kind: str) -> dict:
        """The attributes of ``node``, a ``kind`` (else :class:`~kg.errors.NodeNotFoundError`)."""
        data = self._attrs(node)
        if data is None or data.get("kind") != kind:
            raise NodeNotFoundError(f"no {kind} with id {node!r}")
        return data

    def _with_community(self, table: str, columns: Sequence[str], node: str) -> tuple:
        """``columns`` of ``node``'s row of ``table`` (``papers`` or ``concepts``), then its community's label."""
        return self._rows(f"SELECT {', '.join(f't.{c}' for c in columns)}, m.label FROM {table} t "
                          "LEFT JOIN communities m ON m.id = t.community WHERE t.id = ?", (node,))[0]

    def nodes(self, ids: Iterable[str]) -> dict[str, dict]:
        """Node id -> its attributes (as in ``graph.json``) for the ids the build has, in the graph's order."""
        return {n: json.loads(a) for n, a in self._rows(
            "SELECT id, attrs FROM nodes WHERE id IN (SELECT value FROM json_each(?)) ORDER BY rowid",
            (json.dumps(list(ids)),))}

    def labels(self, ids: Iterable[str]) -> dict[str, str]:
        """Node id -> how listings name it: a concept's name with its acronym, a paper's title, else the
        node's name (ids the build lacks are left out)."""
        out = {}
        for node, kind, title, name, label in self._rows(
                "SELECT n.id, n.kind, p.title, json_extract(n.attrs, '$.name'), c.label FROM nodes n "
                "LEFT JOIN papers p ON p.id = n.id LEFT JOIN concepts c ON c.id = n.id "
                "WHERE n.id IN (SELECT value FROM json_each(?))", (json.dumps(list(ids)),)):
            out[node] = label if kind == "concept" else str(name or title or node)
        return out

    def _paper_rows(self, where: str, args: Sequence, order: str, limit: int | None = None) -> list[dict]:
        sql = f"SELECT p.id, p.title, p.year, p.community FROM papers p WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [{"id": i, "title": t, "year": y, "community": c} for i, t, y, c in self._rows(sql, args)]

    def _vector_matrix(self, kind: str) -> np.ndarray | None:
        """The memory-mapped float16 matrix of ``kind``'s vectors (checked against the index), else None."""
        if kind not in self._vectors:
            name, count = ((VECTORS_FILE, "paper_vectors") if kind == "paper"
                           else (CONCEPT_VECTORS_FILE, "concept_vectors"))
            rows = self.meta.get(count)
            matrix = None
            if rows is not None:
                path = os.path.join(self.folder, name)
                try:
                    matrix = np.load(path, mmap_mode="r", allow_pickle=False)
                except (OSError, ValueError) as exc:
                    raise IndexDamagedError(f"{path}: cannot read it ({exc}); rebuild the folder") from None
                if matrix.ndim != 2 or matrix.shape[0] != rows:
                    raise IndexDamagedError(f"{path} has {matrix.shape[0] if matrix.ndim else 0} rows, the index "
                                            f"{rows}: they are out of step; kg report {self.folder} writes it again")
            self._vectors[kind] = matrix
        return self._vectors[kind]

    def _vector_rows(self, kind: str, rows: Sequence[int] | None = None) -> dict[int, str]:
        """Vector row -> node id, for ``rows`` (default: every row that belongs to a node)."""
        table = "papers" if kind == "paper" else "concepts"
        if rows is None:
            return {row: node for node, row in self._rows(f"SELECT id, vector FROM {table} WHERE vector IS NOT NULL")}
        return {row: node for node, row in self._rows(
            f"SELECT id, vector FROM {table} WHERE vector IN (SELECT value FROM json_each(?))",
            (json.dumps([int(r) for r in rows]),))}

    # --- the build as a whole ------------------------------------------------------------

    def years(self) -> dict[int, int]:
        """Papers per year, for the whole build (years in order)."""
        return dict(self._rows("SELECT year, count(*) FROM papers WHERE year IS NOT NULL GROUP BY year ORDER BY year"))

    def year_range(self) -> tuple[int, int] | None:
        """``(first, last)`` year of the dated papers, or None when none is dated."""
        found = self._rows("SELECT min(year), max(year) FROM papers WHERE year IS NOT NULL")
        return None if not found or found[0][0] is None else (found[0][0], found[0][1])

    # --- finding things ------------------------------------------------------------------

    def search(self, text: str, *, kind: str | None = None, top: int = 10, year_from: int | None = None,
               year_to: int | None = None) -> dict:
        """Papers and concepts whose title, id, DOI, name, acronym or alias holds the words of ``text``
        (the last word may be the start of one: results as one types).

        Parameters
        ----------
        text : str
        kind : {"paper", "concept"}, optional
            Only this kind (default: both).
        top : int
            Hits of each kind.
        year_from, year_to : int, optional
            Papers of these years only (concepts: mentioned by a paper of these years).

        Returns
        -------
        dict
            ``{"papers": [{id, title, year, community}], "concepts": [{id, name, papers, community}]}``;
            an exact title, name or id first, then titles and names that start with the text,
            then by relevance (FTS5's bm25), concepts of more papers before others.
        """
        top = _top(top)
        if kind not in (None, "paper", "concept"):
            raise OptionError("kind", f"must be 'paper', 'concept' or None, not {kind!r}")
        words = _WORD.findall(text or "")
        out: dict[str, list] = {"papers": [], "concepts": []}
        if not words:
            return out
        query = " ".join('"' + w.replace('"', '""') + '"' for w in words[:-1])
        query = (query + " " if query else "") + '"' + words[-1].replace('"', '""') + '"*'
        wanted = text.casefold().strip()
        years, args = _years(year_from, year_to)
        if kind in (None, "paper"):
            hits = self._text_hits("paper", "p.id, p.title, p.year, p.community", years, args, query, wanted, top)
            out["papers"] = [{"id": i, "title": t, "year": y, "community": c} for i, t, y, c, _ in hits]
        if kind in (None, "concept"):
            dated = "" if not args else (
                " AND EXISTS (SELECT 1 FROM edges e JOIN papers p ON p.id = e.source "
                "WHERE e.target = c.id AND e.kind = 'mentions'" + years + ")")
            hits = self._text_hits("concept", "c.id, c.label, c.papers, c.community", dated, args, query, wanted, top,
                                   lambda h: (-h[2],))  # concepts of more papers first
            out["concepts"] = [{"id": i, "name": n, "papers": k, "community": c} for i, n, k, c, _ in hits]
        return out

    def _text_hits(self, kind: str, columns: str, where: str, args: list, query: str, wanted: str, top: int,
                   then=lambda hit: ()) -> list[tuple]:
        """The ``top`` best rows (``columns``: id and name first, then bm25) of the nodes of ``kind`` whose
        words match the FTS ``query`` (and ``where``, with ``args``): an exact id or name first, then names
        that start with ``wanted``, then by ``then(row)``, bm25 and id."""
        table = {"paper": "papers p", "concept": "concepts c"}[kind]
        hits = self._rows(
            f"SELECT {columns}, bm25(search_text) FROM search_text JOIN nodes n ON n.rowid = search_text.rowid "
            f"JOIN {table} ON {table[-1]}.id = n.id WHERE search_text MATCH ? AND n.kind = '{kind}'" + where +
            " ORDER BY bm25(search_text) LIMIT ?", [query, *args, top * 20])
        hits.sort(key=lambda h: (h[0].casefold() != wanted and h[1].casefold() != wanted,
                                 not h[1].casefold().startswith(wanted), *then(h), h[-1], h[0]))
        return hits[:top]

    def find_paper(self, query: str) -> str:
        """The id of the paper ``query`` names, as :func:`kg.analyze.related.find_paper` finds it: its
        id, else its exact title (any case), else the one title that contains it.

        Raises :class:`~kg.errors.NodeNotFoundError` when none or several match.
        """
        if self._rows("SELECT 1 FROM papers WHERE id = ?", (query,)):
            return query
        papers = self._rows("SELECT id, title FROM papers ORDER BY id")
        wanted = query.casefold().strip()
        exact = [p for p, t in papers if t.casefold().strip() == wanted]
        if len(exact) == 1:
            return exact[0]
        partial = exact or [p for p, t in papers if wanted and wanted in t.casefold()]
        if len(partial) == 1:
            return partial[0]
        if not partial:
            raise NodeNotFoundError(f"no paper with id or title {query!r}; see papers.csv for ids")
        titles = dict(papers)
        shown = "; ".join(f"{p} ({titles[p]})" for p in sorted(partial)[:5])
        more = f" and {len(partial) - 5} more" if len(partial) > 5 else ""
        raise NodeNotFoundError(f"{len(partial)} papers match {query!r}: {shown}{more}; give an id")

    # --- papers --------------------------------------------------------------------------

    def paper(self, paper_id: str) -> dict:
        """One paper: ``id``, ``title``, ``title_derived``, ``year``, ``venue``, ``authors``, ``doi``,
        ``ids``, ``abstract``, ``community`` (number), ``community_label`` and ``concepts``
        (``[{id, name, rank, score}]`` in the paper's rank order).

        Raises :class:`~kg.errors.NodeNotFoundError` for an id that is not a paper.
        """
        data = self._node_of_kind(paper_id, "paper")
        community = self._with_community("papers", ("community",), paper_id)
        concepts = [{"id": c, "name": n, "rank": r, "score": s} for c, n, r, s in self._rows(
            "SELECT e.target, c.label, e.rank, e.score FROM edges e "
            "JOIN concepts c ON c.id = e.target WHERE e.source = ? AND e.kind = 'mentions' "
            "ORDER BY coalesce(e.rank, 0), e.target", (paper_id,))]
        return {"id": paper_id, "title": str(data.get("title") or ""), "title_derived": bool(data.get("title_derived")),
                "year": data.get("year"), "venue": data.get("venue"), "authors": list(data.get("authors") or []),
                "doi": data.get("doi"), "ids": list(data.get("ids") or []), "abstract": data.get("abstract") or "",
                "community": community[0], "community_label": community[1], "concepts": concepts}

    def related(self, paper_id: str, *, top: int = 10, year_from: int | None = None,
                year_to: int | None = None) -> list[dict]:
        """The paper's ``related`` links as the build kept them, strongest first (ties by id):
        ``[{id, title, year, community, weight, shared (concept ids, rarest first), citation}]``;
        ``citation``: ``"cites"``, ``"cited by"``, ``"both"`` or None."""
        top = _top(top)
        self._require_paper(paper_id)
        years, args = _years(year_from, year_to)
        found = self._rows(
            "SELECT p.id, p.title, p.year, p.community, e.weight, e.shared FROM edges e "
            "JOIN papers p ON p.id = CASE WHEN e.source = ? THEN e.target ELSE e.source END "
            "WHERE e.kind = 'related' AND (e.source = ? OR e.target = ?) AND p.id != ?" + years +
            " ORDER BY e.weight DESC, p.id LIMIT ?", [paper_id, paper_id, paper_id, paper_id, *args, top])
        cites, cited_by = self._citations(paper_id)
        return [{"id": i, "title": t, "year": y, "community": c, "weight": w, "shared": json.loads(s or "[]"),
                 "citation": citation(i, cites, cited_by)} for i, t, y, c, w, s in found]

    def links_among(self, ids: Iterable[str]) -> list[dict]:
        """The ``related`` and ``cites`` links between papers of ``ids``: ``[{source, target, kind, weight}]``
        (in the build's direction; sorted)."""
        wanted = json.dumps(sorted(set(ids)))
        return [{"source": u, "target": v, "kind": k, "weight": w} for u, v, k, w in self._rows(
            "SELECT source, target, kind, weight FROM edges WHERE kind IN ('related', 'cites') "
            "AND source IN (SELECT value FROM json_each(?)) AND target IN (SELECT value FROM json_each(?)) "
            "ORDER BY source, target, kind", (wanted, wanted))]

    def neighbourhood(self, paper_id: str, *, top: int = 20, year_from: int | None = None,
                      year_to: int | None = None) -> dict:
        """A Connected-Papers-style view of one paper: ``{"paper": row, "papers": [...], "links": [...]}``:
        the paper (``{id, title, year, community}``), its ``top`` strongest related papers
        (:meth:`related` rows) and every ``related``/``cites`` link among all of them
        (:meth:`links_among`)."""
        self._require_paper(paper_id)
        centre = self._paper_rows("p.id = ?", (paper_id,), "p.id")[0]
        papers = self.related(paper_id, top=top, year_from=year_from, year_to=year_to)
        return {"paper": centre, "papers": papers, "links": self.links_among([paper_id, *(p["id"] for p in papers)])}

    def _require_paper(self, paper_id: str) -> None:
        if not self._rows("SELECT 1 FROM papers WHERE id = ?", (paper_id,)):
            raise NodeNotFoundError(f"no paper with id {paper_id!r}; see papers.csv for ids")

    def _citations(self, paper_id: str) -> tuple[set, set]:
        cites = {v for (v,) in self._rows("SELECT target FROM edges WHERE source = ? AND kind = 'cites'", (paper_id,))}
        cited_by = {u for (u,) in self._rows("SELECT source FROM edges WHERE target = ? AND kind = 'cites'",
                                             (paper_id,))}
        return cites, cited_by

    # --- concepts ------------------------------------------------------------------------

    def concept(self, concept_id: str) -> dict:
        """One concept: ``id``, ``name`` (as readers see it, acronym included), ``plain_name``,
        ``acronym``, ``aliases``, ``papers`` (count), ``community``, ``community_label``, ``years``
        (``{year: papers}``) and ``cooccurring`` (``[{id, name, count}]``, the 20 strongest).

        Raises :class:`~kg.errors.NodeNotFoundError` for an id that is not a concept.
        """
        data = self._node_of_kind(concept_id, "concept")
        row = self._with_community("concepts", ("label", "papers", "community"), concept_id)
        years = dict(self._rows(
            "SELECT p.year, count(*) FROM edges e JOIN papers p ON p.id = e.source WHERE e.target = ? "
            "AND e.kind = 'mentions' AND p.year IS NOT NULL GROUP BY p.year ORDER BY p.year", (concept_id,)))
        return {"id": concept_id, "name": row[0], "plain_name": data.get("name"), "acronym": data.get("acronym"),
                "aliases": list(data.get("aliases") or []), "papers": row[1], "community": row[2],
                "community_label": row[3], "years": years, "cooccurring": self.cooccurring(concept_id, top=20)}

    def cooccurring(self, concept_id: str, *, top: int = 20) -> list[dict]:
        """The concepts most often named with ``concept_id``: ``[{id, name, count}]`` (count: papers naming
        both), most first, ties by id."""
        counts = self._cooccurrence(concept_id)
        ranked = sorted(counts, key=lambda c: (-counts[c], c))[:_top(top)]
        names = dict(self._rows("SELECT id, label FROM concepts WHERE id IN (SELECT value FROM json_each(?))",
                                (json.dumps(ranked),)))
        return [{"id": c, "name": names.get(c, c), "count": counts[c]} for c in ranked]

    def _cooccurrence(self, concept_id: str) -> dict[str, float]:
        counts: dict[str, float] = {}
        for sql in ("SELECT target, coalesce(count, weight, 1) FROM edges "
                    "WHERE source = ? AND kind = 'co_occurs'",
                    "SELECT source, coalesce(count, weight, 1) FROM edges "
                    "WHERE target = ? AND kind = 'co_occurs'"):
            counts.update(self._rows(sql, (concept_id,)))
        return counts

    def concept_papers(self, concept_id: str, *, top: int = 50, year_from: int | None = None,
                       year_to: int | None = None) -> list[dict]:
        """The papers naming ``concept_id``, most about it first (the mention's score, then the newest,
        then id): ``[{id, title, year, community, score}]``."""
        top = _top(top)
        if not self._rows("SELECT 1 FROM concepts WHERE id = ?", (concept_id,)):
            raise NodeNotFoundError(f"no concept with id {concept_id!r}")
        years, args = _years(year_from, year_to)
        return [{"id": i, "title": t, "year": y, "community": c, "score": s} for i, t, y, c, s in self._rows(
            "SELECT p.id, p.title, p.year, p.community, e.weight FROM edges e JOIN papers p ON p.id = e.source "
            "WHERE e.target = ? AND e.kind = 'mentions'" + years +
            " ORDER BY e.weight DESC, p.year DESC, p.id LIMIT ?", [concept_id, *args, top])]

    # --- communities ---------------------------------------------------------------------

    def _community_row(self, community: int) -> dict | None:
        found = self._rows("SELECT row FROM communities WHERE id = ?", (community,))
        return json.loads(found[0][0]) if found else None

    def community_rows(self) -> list[dict]:
        """The analysis's community rows as ``analysis.json`` holds them (every member, most central first)."""
        return [json.loads(r) for (r,) in self._rows("SELECT row FROM communities ORDER BY id")]

    def communities(self, *, year_from: int | None = None, year_to: int | None = None) -> list[dict]:
        """The overview: ``[{id, label, size, papers_in_years, concepts: [{id, name}], central: [{id, title,
        year}]}]`` (5 concepts, 5 most central papers), by number; ``papers_in_years`` counts the
        members in the year range (all members without one)."""
        sizes = self.community_sizes(year_from=year_from, year_to=year_to)
        out = []
        for row in self.community_rows():
            central = row["papers"][:5]
            found = {r["id"]: r for r in self._paper_rows("p.id IN (SELECT value FROM json_each(?))",
                                                           (json.dumps(central),), "p.id")}
            out.append({"id": row["id"], "label": row.get("label") or "", "size": len(row["papers"]),
                        "papers_in_years": sizes.get(row["id"], 0),
                        "concepts": [{"id": c.get("id"), "name": c.get("name")} for c in row.get("concepts", [])[:5]],
                        "central": [{k: found[p][k] for k in ("id", "title", "year")} for p in central if p in found]})
        return out

    def community_links(self) -> list[tuple[int, int, float]]:
        """``(a, b, weight)`` for every pair of communities with links between their papers (``related``
        weight plus one per citation; what the overview page draws, before it keeps each one's
        strongest)."""
        return [tuple(r) for r in self._rows("SELECT a, b, weight FROM community_links ORDER BY a, b")]

    def community_sizes(self, *, year_from: int | None = None, year_to: int | None = None) -> dict[int, int]:
        """Community number -> its papers (in the year range when one is given)."""
        years, args = _years(year_from, year_to)
        return dict(self._rows("SELECT p.community, count(*) FROM papers p WHERE p.community IS NOT NULL" + years +
                               " GROUP BY p.community", args))

    def community(self, community: int, *, top: int = 100, year_from: int | None = None,
                  year_to: int | None = None) -> dict:
        """One community: ``{id, label, size, concepts: [{id, name, score, papers}], papers: [{id, title,
        year, community}] (the ``top`` most central, in the year range), years: {year: papers}}``.

        Raises :class:`~kg.errors.NodeNotFoundError` for an unknown number.
        """
        top = _top(top)
        row = self._community_row(community) if isinstance(community, int) and not isinstance(community, bool) \
            else None
        if row is None:
            raise NodeNotFoundError(f"no community {community!r}: communities are numbered 0 to "
                                    f"{self.meta.get('communities', 0) - 1}")
        years, args = _years(year_from, year_to)
        papers = self._paper_rows("p.community = ?" + years, [community, *args], "p.central", top)
        per_year = dict(self._rows("SELECT year, count(*) FROM papers WHERE community = ? AND year IS NOT NULL "
                                   "GROUP BY year ORDER BY year", (community,)))
        return {"id": community, "label": row.get("label") or "", "size": len(row["papers"]),
                "concepts": list(row.get("concepts") or []), "papers": papers, "years": per_year}

    # --- the commands' answers -----------------------------------------------------------

    def concept_rows(self, *, top: int = 20) -> list[dict] | None:
        """:func:`kg.analyze.concept_rows` (``kg concepts``): ``[{id, name, papers, co_occurs, pagerank}]``;
        None when ``top`` is beyond what the index ranked (500)."""
        top = _top(top)
        if top > RANKED_CONCEPTS:
            return None
        found = self._rows("SELECT r.concept, c.label, c.papers, r.co_occurs, r.pagerank FROM concept_ranking r "
                           "JOIN concepts c ON c.id = r.concept ORDER BY r.position LIMIT ?", (top,))
        found.sort(key=lambda r: (-r[2], r[0]))
        return [{"id": i, "name": n, "papers": p, "co_occurs": d, "pagerank": r} for i, n, p, d, r in found]

    def community_concepts(self, community: int, *, top: int = 20, scoring: str = "ctfidf") -> dict | None:
        """:func:`kg.analyze.community_concepts` with the analysis's communities (``kg concepts --community``):
        ``{id, size, label, concepts: [{id, name, score, papers}]}``; None when the index did not rank
        for ``scoring`` or ``top`` is beyond what it ranked.

        Raises :class:`~kg.errors.NodeNotFoundError` for an unknown number.
        """
        top = _top(top)
        if scoring not in self.meta.get("scorings", ()) or top > RANKED_CONCEPTS:
            return None
        settings, count = self.meta.get("settings") or {}, self.meta.get("communities", 0)
        if isinstance(community, bool) or not isinstance(community, int) or not 0 <= community < count:
            raise NodeNotFoundError(f"no community {community}: communities are numbered 0 to {count - 1} "
                                    f"(seed {settings.get('seed')}, resolution {settings.get('resolution')}, "
                                    f"{settings.get('method')})")
        concepts = [{"id": i, "name": n, "score": s, "papers": p} for i, n, s, p in self._rows(
            "SELECT concept, name, score, papers FROM community_concepts WHERE scoring = ? AND community = ? "
            "ORDER BY position LIMIT ?", (scoring, community, top))]
        size = self._rows("SELECT size FROM communities WHERE id = ?", (community,))[0][0]
        return {"id": community, "size": size, "label": ", ".join(c["name"] for c in concepts[:3]),
                "concepts": concepts}

    def semantic_search(self, query: np.ndarray, *, top: int = 10, context: int = 3, widen=None) -> dict:
        """:func:`kg.search.search` over the stored vectors: ``{"papers": [...], "concepts": [...]}``.

        ``query`` is a unit vector from the build's embedder (:func:`kg.search.embed_query`); ``widen``,
        a faster exact float16 -> float32 conversion of a block of rows (:func:`kg.float16.widener`), else
        NumPy's (the same scores either way). A
        paper row: ``id``, ``title``, ``year``, ``score``, ``community``, ``community_label``,
        ``concepts``; a concept row: ``id``, ``name``, ``score``, ``papers``, ``community``,
        ``community_label``, ``concepts`` (see :func:`kg.search.search`).
        """
        top = _top(top)
        query = np.asarray(query, dtype=np.float32).ravel()
        labels = dict(self._rows("SELECT id, label FROM communities"))
        paper_rows = []
        for pid, score in self._ranked("paper", query, top, widen):
            title, year, community = self._rows("SELECT title, year, community FROM papers WHERE id = ?", (pid,))[0]
            data = self._attrs(pid) or {}
            concepts = [n for (n,) in self._rows(
                "SELECT c.label FROM edges e JOIN concepts c ON c.id = e.target WHERE e.source = ? "
                "AND e.kind = 'mentions' ORDER BY coalesce(e.rank, 0), e.target LIMIT ?", (pid, context))]
            paper_rows.append({"id": pid, "title": data.get("title", ""), "year": data.get("year"), "score": score,
                               "community": community, "community_label": labels.get(community),
                               "concepts": concepts})
        concept_rows = []
        for cid, score in self._ranked("concept", query, top, widen):
            data = self._attrs(cid) or {}
            votes = Counter(dict(self._rows(
                "SELECT p.community, count(*) FROM edges e JOIN papers p ON p.id = e.source WHERE e.target = ? "
                "AND e.kind = 'mentions' AND p.community IS NOT NULL GROUP BY p.community", (cid,))))
            citing = self._rows("SELECT count(*) FROM edges WHERE target = ? AND kind = 'mentions'", (cid,))[0][0]
            community = min(votes, key=lambda c: (-votes[c], c)) if votes else None
            counts = self._cooccurrence(cid)
            strongest = sorted(counts, key=lambda c: (-counts[c], c))[:context]
            names = dict(self._rows("SELECT id, label FROM concepts WHERE id IN (SELECT value FROM json_each(?))",
                                    (json.dumps(strongest),)))
            label = self._rows("SELECT label FROM concepts WHERE id = ?", (cid,))[0][0]
            concept_rows.append({"id": cid, "name": label, "score": score, "papers": data.get("papers", citing),
                                 "community": community, "community_label": labels.get(community),
                                 "concepts": [names.get(c, c) for c in strongest]})
        return {"papers": paper_rows, "concepts": concept_rows}

    def _ranked(self, kind: str, query: np.ndarray, top: int, widen=None) -> list[tuple[str, float]]:
        """As :func:`kg.search._ranked`: rows best first (ties by stored order), those of a node of ``kind``.

        Every stored vector is scored (:func:`_scores`); only the ids of the best rows are read from the
        index."""
        matrix = self._vector_matrix(kind)
        if matrix is None or top <= 0 or not len(matrix):
            return []
        if matrix.shape[1] != query.shape[0]:
            raise OptionError("query", f"stored vectors have {matrix.shape[1]} dimensions, the query "
                                       f"{query.shape[0]}: they come from different models")
        scores = _scores(matrix, query, widen)
        out: list[tuple[str, float]] = []
        wanted = 4 * top  # rows of no node (none in a sound build) are passed over: look further then
        while True:
            order = _best_rows(scores, wanted)
            ids = self._vector_rows(kind, order.tolist())
            out = [(ids[i], round(float(scores[i]), 4)) for i in order.tolist() if i in ids][:top]
            if len(out) == top or len(order) == len(scores):
                return out
            wanted *= 4

    def related_by(self, paper_id: str, *, by: str = "concepts", top: int = 10) -> list[dict]:
        """:func:`kg.analyze.related.related_by` for ``by`` = ``"concepts"`` (the ``related`` link weight
        of any pair, with the stored vectors) or ``"embedding"`` (their cosine alone):
        ``[{id, title, score, shared, citation}]``, best first (ties by id).

        Raises
        ------
        OptionError
            For another ``by`` (the citation relations need the whole graph: :func:`kg.analyze.related.related_by`)
            or ``embedding`` in a build without vectors.
        NodeNotFoundError
            For an id that is not a paper.
        """
        if by not in ("concepts", "embedding"):
            raise OptionError("by", f"the index ranks by 'concepts' or 'embedding', not {by!r}")
        top = _top(top)
        self._require_paper(paper_id)
        return self._by_concepts(paper_id, top) if by == "concepts" else self._by_embedding(paper_id, top)

    def _mentions(self, paper_id: str) -> list[tuple[str, int]]:
        """(concept, its papers) of each concept ``paper_id`` mentions, in stored order."""
        return self._rows("SELECT e.target, coalesce(c.papers, 1) FROM edges e JOIN concepts c ON c.id = e.target "
                          "WHERE e.source = ? AND e.kind = 'mentions' ORDER BY e.rowid", (paper_id,))

    def _by_concepts(self, paper: str, top: int) -> list[dict]:
        n_papers = int(self.meta.get("papers") or 0)
        params = self.meta.get("related_parameters") or {}
        weight = float(params.get("similarity_weight", SIMILARITY_WEIGHT))
        by_author = float(params.get("author_weight", AUTHOR_WEIGHT))
        min_shared = int(params.get("min_shared", 0))
        matrix = None if params.get("vectors") is False else self._vector_matrix("paper")
        idf = {}
        candidates: dict[str, list[str]] = {}
        for concept, df in self._mentions(paper):
            idf[concept] = math.log((n_papers + 1) / (df or 1))
            for (other,) in self._rows("SELECT source FROM edges WHERE target = ? AND kind = 'mentions'", (concept,)):
                if other != paper:
                    candidates.setdefault(other, []).append(concept)
        cites, cited_by = self._citations(paper)
        for other in cites | cited_by:
            candidates.setdefault(other, [])
        row: dict[str, int] = {}
        by_text = weight > 0 and min_shared <= 0  # every paper with a vector is a candidate (its text alone)
        if matrix is not None:
            row = {pid: i for i, pid in sorted(self._vector_rows("paper").items())}
        cosine: dict[str, float] = {}
        if weight > 0 and matrix is not None and paper in row:
            others = [o for o in row if o != paper] if by_text else [o for o in candidates if o in row]
            cosine = dict(zip(others, cosines(matrix, row[paper], [row[o] for o in others]).tolist()))
        authors = self._shared_authors(paper, n_papers) if cosine and by_author > 0 else {}
        if by_text:  # a shared author adds weight: score those exactly (the text alone ranks the rest below)
            for other in authors:
                if other in row:
                    candidates.setdefault(other, [])
        scored = [(-score, other, shared, link) for score, other, shared, link in score_related(
            candidates, idf, n_papers, cites=cites, cited_by=cited_by, cosine=cosine, shared_authors=authors,
            min_shared=min_shared, similarity_weight=weight, author_weight=by_author)]
        if by_text and cosine:  # text alone: only those near the best can be among them (exactly scored then)
            scored.sort()
            floor = -scored[top - 1][0] if len(scored) >= top else -math.inf
            bonus = math.log(n_papers + 1) * weight
            for other, cos in cosine.items():
                if other not in candidates and bonus * cos > floor - 1e-3:
                    score = link_weight([], n_papers, cosine=cos, similarity_weight=weight, author_weight=by_author)
                    if score > 0:
                        scored.append((-score, other, [], None))
        scored.sort()
        titles = dict(self._rows("SELECT id, title FROM papers WHERE id IN (SELECT value FROM json_each(?))",
                                 (json.dumps([s[1] for s in scored[:top]]),)))
        return [{"id": other, "title": titles.get(other, ""), "score": -score, "shared": shared, "citation": link}
                for score, other, shared, link in scored[:top]]

    def _shared_authors(self, paper: str, n_papers: int) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        for author, count in self._rows("SELECT e.source, coalesce(a.papers, 1) FROM edges e JOIN authors a "
                                        "ON a.id = e.source WHERE e.target = ? AND e.kind = 'wrote'", (paper,)):
            count = count or 1
            if count > CANDIDATE_DF:
                continue
            for (other,) in self._rows("SELECT target FROM edges WHERE source = ? AND kind = 'wrote'", (author,)):
                if other != paper:
                    out.setdefault(other, []).append(math.log((n_papers + 1) / count))
        return out

    def _by_embedding(self, paper: str, top: int) -> list[dict]:
        matrix = self._vector_matrix("paper")
        if matrix is None:
            raise OptionError("vectors", "ranking by embedding needs the build's document vectors "
                                         "(paper_vectors.npy, written by kg build); rebuild to get them")
        ids: list = [None] * len(matrix)
        for i, pid in self._vector_rows("paper").items():
            ids[i] = pid
        row = {pid: i for i, pid in enumerate(ids) if pid is not None}
        if paper not in row:
            raise NodeNotFoundError(f"paper {paper!r} has no document vector in this build; rebuild to get one")
        full = np.asarray(matrix, dtype=np.float32).astype(np.float64)
        scores = full @ full[row[paper]]
        del full
        ranked = sorted((-round(score, 6), other) for other, score in zip(ids, scores.tolist())
                        if other is not None and other != paper)
        mine = {c for c, _ in self._mentions(paper)}
        cites, cited_by = self._citations(paper)
        titles = dict(self._rows("SELECT id, title FROM papers"))
        rows = []
        for score, other in ranked[:top]:
            shared = [(df or 1, c) for c, df in self._mentions(other) if c in mine]
            rows.append({"id": other, "title": titles.get(other, ""), "score": -score,
                         "shared": [c for _, c in sorted(shared)], "citation": citation(other, cites, cited_by)})
        rows.sort(key=lambda r: (-r["score"], r["id"]))
        return rows


def _scores(matrix: np.ndarray, query: np.ndarray, widen=None) -> np.ndarray:
    """``matrix @ query`` in float32, :data:`_CHUNK` rows at a time, each chunk of float16 rows widened
    (exactly) into a float32 buffer first: the same products in the same chunks whatever the order or the
    widening. ``widen(buffer, rows)`` (:func:`kg.float16.widener`) does it with the CPU's F16C instructions;
    without it NumPy's ``copyto`` does (no SIMD path on x86-64: 3.5 ns an element and more, 0.1-0.3 s for
    the 89,845 concept vectors of ACM-CR), and with two cores two chunks are widened and scored at once
    (NumPy's cast and the BLAS call release the GIL); ONNX Runtime's cast is fast enough that a second
    thread only contends with the first (measured on ACM-CR: 0.09-0.18 s on one, 0.13-0.35 s on two)."""
    workers = min(2, os.cpu_count() or 1, -(-matrix.shape[0] // _CHUNK)) if widen is None else 1
    widen = np.copyto if widen is None else widen
    scores = np.empty(matrix.shape[0], dtype=np.float32)
    starts = range(0, matrix.shape[0], _CHUNK)

    def score(mine: range) -> None:
        buffer = np.empty((min(_CHUNK, matrix.shape[0]), matrix.shape[1]), dtype=np.float32)
        for start in mine:
            rows = matrix[start:start + _CHUNK]
            chunk = buffer[:len(rows)]
            widen(chunk, rows)
            np.matmul(chunk, query, out=scores[start:start + len(chunk)])

    if workers < 2:
        score(starts)
    else:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(score, [starts[k::workers] for k in range(workers)]))
    return scores


def _best_rows(scores: np.ndarray, count: int) -> np.ndarray:
    """The rows of the ``count`` highest ``scores``, best first, equal scores in row order (as a stable sort
    of all of them would give), found without sorting them all."""
    if count >= len(scores):
        return np.lexsort((np.arange(len(scores)), -scores))
    floor = -np.partition(-scores, count - 1)[count - 1]
    rows = np.flatnonzero(scores >= floor)  # the best ``count`` and any that tie with the last of them
    return rows[np.lexsort((rows, -scores[rows]))][:count]
