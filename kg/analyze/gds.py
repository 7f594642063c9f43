"""The graph algorithms of :func:`kg.analyze.analyze` run in Neo4j, with the Graph Data Science library.

``kg report DIR --engine gds`` (or ``analyze(graph, engine=GdsEngine(driver))``): where the graph
of DIR lives in Neo4j (``kg push DIR``), PageRank, betweenness, degrees, the paper communities (Leiden)
and the citation PageRank are computed by the database through the
``graphdatascience`` client (``pip install 'kg[gds]'``), on GDS in-memory projections that exist
only while one algorithm family runs and are dropped afterwards, also when it fails. Everything
else of the report (labels, thematic map, trends, citation maps) is computed from the build
folder as the default engine does, so the files have the same shape and sections.

One projection per question, each a Cypher projection of what ``kg push`` wrote:

==========  ===================================  ===========  ==================================
kg kind     Neo4j                                orientation  relationship properties
==========  ===================================  ===========  ==================================
related     (:Paper)-[:RELATED_TO]->(:Paper)     undirected   ``weight``, ``length`` = 1/weight
co_occurs   (:Concept)-[:CO_OCCURS_WITH]->(...)  undirected   ``weight``, ``length``
mentions    (:Paper)-[:MENTIONS]->(:Concept)     undirected   ``weight``, ``length``
cites       (:Paper)-[:CITES]->(:Paper)          directed     (none)
==========  ===================================  ===========  ==================================

Every node of the label(s) is projected, isolated ones included, as :func:`kg.graph.projection`
does. What agrees with the default engine, and how closely (``tests/test_gds.py`` checks it on a
real server):

* degree, weighted degree: equal.
* PageRank (divided by the sum of the scores, which then sum to 1 as NetworkX's do): equal up to the
  tolerance on a graph without isolated or dangling nodes; GDS gives dangling nodes' rank to no
  one where NetworkX spreads it over all nodes. On the paper and concept graphs every score is
  within 1e-3 of NetworkX's (tested; 7e-6 and 5e-4 on a 5,000-paper ACM build, Spearman
  0.99999999); on the citation graph (papers that cite nothing in the corpus) the scores differ
  and the ranking nearly agrees (Spearman > 0.9, tested).
* betweenness: exact up to ``exact_limit`` nodes, Brandes with ``length`` as the distance, scaled
  as kg scales (``2 / ((n-1)(n-2))`` undirected): equal to igraph's and NetworkX's. Above the
  limit, ``samples`` sources drawn by GDS from ``seed`` (not the sources kg would draw), scaled by
  ``n / samples``: an estimate of the same quantity.
* eigenvector: kg's own, computed here (:func:`kg.analyze.centrality.edge_eigenvector`, a sparse
  matrix made from the graph's edges, no NetworkX projection): equal. GDS's eigenvector agrees
  with kg's unweighted (to 1e-11 in a test), but weighted it divides each node's link weights by
  their sum first, another measure (Spearman 0.36 against kg's on the example's concepts), and on
  the bipartite mentions graph its power iteration does not settle. ``eigenvector=None`` in
  :meth:`GdsEngine.centrality_table` takes GDS's all the same.
* communities: GDS's Leiden (``gamma`` = resolution, ``randomSeed`` = seed, weights) against
  leidenalg's or Louvain's: not the same partition; modularity (computed by kg, Newman's, on the
  same ``related`` graph) within 5 % (tested; equal on the example corpus, 0.6528 against
  leidenalg's 0.6595 and Louvain's 0.6444 on the 5,000-paper build).

Every algorithm runs with ``concurrency`` threads, 1 by default: the same seed then gives the same
communities and sampled betweenness (with more threads GDS's Leiden is not reproducible), and on
small graphs one thread is also the fastest (eigenvector on 273 concepts: 0.08 s on one thread,
5 s on four, on 2 cores). On a large graph on a large server, raise it.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterator, Mapping

import networkx as nx

from kg.defaults import SEED
from kg.analyze.centrality import EXACT_LIMIT, SAMPLES, betweenness_method
from kg.analyze.communities import ordered_communities
from kg.errors import KgError, Neo4jError, OptionError
from kg.neo4j_errors import driver_errors

__all__ = ["ENGINES", "GdsEngine", "PROJECTION_PREFIX"]

ENGINES = ("networkx", "gds")
PROJECTION_PREFIX = "kg-report-"  # every in-memory projection kg makes is named kg-report-KIND-RANDOM

_LENGTH = "CASE WHEN w > 0 THEN 1.0 / w ELSE 1.0e300 END"
_WEIGHTED = ("RETURN gds.graph.project($name, a, b, "
             "{relationshipProperties: CASE WHEN b IS NULL THEN null ELSE {weight: w, length: " + _LENGTH + "} END}, "
             "{undirectedRelationshipTypes: ['*']}) AS projected")
_QUERIES = {
    "related": ("MATCH (a:Paper) OPTIONAL MATCH (a)-[r:RELATED_TO]->(b:Paper) "
                "WITH a, b, coalesce(toFloat(r.weight), 1.0) AS w " + _WEIGHTED),
    "co_occurs": ("MATCH (a:Concept) OPTIONAL MATCH (a)-[r:CO_OCCURS_WITH]->(b:Concept) "
                  "WITH a, b, coalesce(toFloat(r.weight), 1.0) AS w " + _WEIGHTED),
    "mentions": ("MATCH (a) WHERE a:Paper OR a:Concept OPTIONAL MATCH (a:Paper)-[r:MENTIONS]->(b:Concept) "
                 "WITH a, b, coalesce(toFloat(r.weight), 1.0) AS w " + _WEIGHTED),
    "cites": ("MATCH (a:Paper) OPTIONAL MATCH (a)-[:CITES]->(b:Paper) "
              "RETURN gds.graph.project($name, a, b) AS projected"),
}
_LABELS = {"related": ("Paper",), "co_occurs": ("Concept",), "mentions": ("Paper", "Concept"), "cites": ("Paper",)}
_COUNTS = ("RETURN COUNT { MATCH (:Paper) } AS paper, COUNT { MATCH (:Concept) } AS concept, "
           "COUNT { MATCH (:Paper)-[:RELATED_TO]->(:Paper) } AS related, "
           "COUNT { MATCH (:Concept)-[:CO_OCCURS_WITH]->(:Concept) } AS co_occurs, "
           "COUNT { MATCH (:Paper)-[:MENTIONS]->(:Concept) } AS mentions, "
           "COUNT { MATCH (:Paper)-[:CITES]->(:Paper) } AS cites")
_PAGERANK = {"damping_factor": 0.85, "max_iterations": 500, "tolerance": 1e-10}  # scores divided by their sum here
# GDS's own eigenvector (only when no eigenvector is handed in): GDS normalizes every iteration to
# length 1 already; its L2Norm scaler cost 70 ms an iteration here.
_EIGENVECTOR = {"max_iterations": 200, "tolerance": 1e-10}


def _one_line(exc: BaseException) -> str:
    text = " ".join((getattr(exc, "message", None) or str(exc) or type(exc).__name__).split())
    return text if len(text) <= 240 else text[:237] + "..."


@contextlib.contextmanager
def _gds_errors(what: str) -> Iterator[None]:
    """The driver's and the server's errors as :class:`~kg.errors.Neo4jError` (one line each)."""
    from neo4j import exceptions as ex  # the driver loads only where Neo4j is used

    try:
        with driver_errors():
            yield
    except ex.ClientError as exc:
        message = exc.message or ""
        if (exc.code or "").endswith("ProcedureNotFound") or ("nknown function 'gds." in message):
            raise Neo4jError("the Neo4j server has no Graph Data Science library (" + message.split(" (line")[0]
                             + "): install the GDS plugin and allow dbms.security.procedures.unrestricted=gds.*, "
                             "or leave out --engine gds") from None
        raise Neo4jError(f"Graph Data Science failed on {what}: {exc.code}: {_one_line(exc)}") from None
    except ex.Neo4jError as exc:  # a database error inside a GDS procedure (out of memory, ...)
        raise Neo4jError(f"Graph Data Science failed on {what}: {_one_line(exc)}") from None


class GdsEngine:
    """kg's graph algorithms in a Neo4j database with the Graph Data Science library.

    Parameters
    ----------
    driver : neo4j.Driver
        As :func:`kg.export.neo4j.open_driver` makes it (the caller closes it).
    database : str, optional
        Default: the server's.
    concurrency : int
        Threads of every GDS algorithm: 1 (the default) makes Leiden and sampled betweenness
        reproducible; more is faster on large graphs.

    Raises
    ------
    Neo4jError
        When the server is unreachable, refuses the login, or has no GDS.
    """

    name = "gds"

    def __init__(self, driver, *, database: str | None = None, concurrency: int = 1) -> None:
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise OptionError("concurrency", f"must be a whole number >= 1, not {concurrency!r}")
        try:
            from graphdatascience import GraphDataScience  # optional extra kg[gds]: only --engine gds needs it
        except ImportError:
            raise KgError("the gds engine needs the graphdatascience client: pip install 'kg[gds]'") from None
        logging.getLogger("graphdatascience").setLevel(logging.ERROR)
        self.concurrency = concurrency
        self.database = database
        self.driver = driver
        with _gds_errors("connecting"):
            # Asked here first: the client wraps a refused login or a missing GDS in errors of its own
            # (and closes the driver it was handed when GDS is missing).
            self.version = str(driver.execute_query("RETURN gds.version() AS version", database_=database,
                                                    routing_="r").records[0]["version"])
            self.gds = GraphDataScience(driver, database=database, arrow=False, show_progress=False)
        self._ids: dict[str, dict[int, str]] = {}

    def __repr__(self) -> str:
        return f"<GdsEngine: Graph Data Science {self.version}>"

    @property
    def description(self) -> str:
        """What the report says ran where."""
        return f"gds (Neo4j Graph Data Science {self.version})"

    # --- the graph in the database -------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """Papers, concepts and the four relationship types the analysis reads, as Neo4j holds them."""
        with _gds_errors("counting the graph"):
            row = self.gds.run_cypher(_COUNTS).iloc[0]
        return {key: int(row[key]) for key in ("paper", "concept", "related", "co_occurs", "mentions", "cites")}

    def check_graph(self, graph: nx.MultiDiGraph) -> None:
        """Refuse a database that does not hold ``graph`` (``kg push`` it first).

        Compares the counts of papers, concepts and the relationships the analysis reads, then
        the paper and concept ids.

        Raises
        ------
        Neo4jError
        """
        kinds = {"paper": 0, "concept": 0}
        for _, data in graph.nodes(data=True):
            if data.get("kind") in kinds:
                kinds[data["kind"]] += 1
        edges = dict.fromkeys(("related", "co_occurs", "mentions", "cites"), 0)
        for _, _, key in graph.edges(keys=True):
            if key in edges:
                edges[key] += 1
        local = {**kinds, **edges}
        found = self.counts()
        wrong = [f"{k}: {found[k]} in Neo4j, {n} in the graph" for k, n in local.items() if found[k] != n]
        if not wrong:
            for label, kind in (("Paper", "paper"), ("Concept", "concept")):
                held = set(self._node_ids(label).values())
                mine = {n for n, d in graph.nodes(data=True) if d.get("kind") == kind}
                if held != mine:
                    extra = sorted(held - mine)
                    wrong.append(f"{label} ids differ (e.g. {(extra or sorted(mine - held))[0]!r})")
        if wrong:
            raise Neo4jError("Neo4j does not hold this graph (" + "; ".join(wrong) + "): run kg push on the "
                             "build folder first")

    def _node_ids(self, label: str) -> dict[int, str]:
        """GDS node id (the Neo4j node id) -> kg id, for every node labeled ``label``."""
        if label not in self._ids:
            # id() is the id GDS streams back; Neo4j 5 marks it deprecated, a notice not shown here.
            with _gds_errors(f"reading the {label} ids"), \
                    self.driver.session(database=self.database, notifications_min_severity="OFF") as session:
                rows = session.run(f"MATCH (n:{label}) RETURN id(n) AS node, n.id AS id").values()
            self._ids[label] = {int(node): str(key) for node, key in rows}
        return self._ids[label]

    def _ids_of(self, kind: str) -> dict[int, str]:
        out: dict[int, str] = {}
        for label in _LABELS[kind]:
            out.update(self._node_ids(label))
        return out

    @contextlib.contextmanager
    def projected(self, kind: str) -> Iterator[object]:
        """The in-memory projection of ``kind`` (see the module docstring), dropped on leaving,
        also on an error or an interrupt."""
        if kind not in _QUERIES:
            raise ValueError(f"unknown projection {kind!r}; choose from {', '.join(_QUERIES)}")
        name = f"{PROJECTION_PREFIX}{kind}-{uuid.uuid4().hex[:12]}"
        try:
            with _gds_errors(f"projecting {kind}"):
                projected = self.gds.graph.project.cypher(_QUERIES[kind], name=name).graph
            yield projected
        finally:
            self.drop(name)

    def drop(self, name: str) -> None:
        """Drop the projection ``name`` if it exists; a failure to do so is logged, not raised (a
        projection lives in the server's memory only and goes with a restart)."""
        try:
            self.gds.graph.drop(name, fail_if_missing=False)
        except Exception as exc:  # the connection may be what failed: keep the first error
            logging.getLogger("kg").warning("could not drop the GDS projection %s: %s", name, _one_line(exc))

    def projections(self) -> list[str]:
        """Names of kg's projections that the server holds now (none once a report has finished)."""
        with _gds_errors("listing projections"):
            frame = self.gds.run_cypher("CALL gds.graph.list() YIELD graphName RETURN graphName")
        return sorted(str(n) for n in frame["graphName"] if str(n).startswith(PROJECTION_PREFIX))

    # --- the algorithms ------------------------------------------------------------------

    def _scores(self, frame, ids: Mapping[int, str], column: str = "score") -> dict[str, float]:
        return {ids[int(node)]: float(value) for node, value in zip(frame["nodeId"], frame[column])}

    def _pagerank(self, G, **config) -> Mapping:
        frame = self.gds.page_rank.stream(G, concurrency=self.concurrency, **_PAGERANK, **config)
        total = float(frame["score"].sum())
        if total > 0:
            frame["score"] = frame["score"] / total
        return frame

    def centrality_table(self, kind: str, *, seed: int = SEED, exact_limit: int = EXACT_LIMIT,
                         samples: int = SAMPLES, eigenvector: Mapping[str, float] | None = None,
                         hops: bool = False) -> list[dict]:
        """:func:`kg.analyze.centrality.centrality_table` of the ``kind`` projection, computed by GDS
        (``hops``: betweenness counts links, as kg's does for the paper–concept graph).

        ``eigenvector`` (node -> score, e.g. :func:`kg.analyze.centrality.edge_eigenvector`) fills
        that column; without it GDS's own eigenvector does (see the module docstring).
        """
        ids = self._ids_of(kind)
        if not ids:
            return []
        with self.projected(kind) as G, _gds_errors(f"the centralities of {kind}"):
            n = int(G.node_count())
            threads = {"concurrency": self.concurrency}
            degree = self._scores(self.gds.degree.stream(G, **threads), ids)
            strength = self._scores(self.gds.degree.stream(G, relationship_weight_property="weight", **threads), ids)
            ranks = self._scores(self._pagerank(G, relationship_weight_property="weight"), ids)
            eigen = dict(eigenvector) if eigenvector is not None else self._scores(
                self.gds.eigenvector.stream(G, relationship_weight_property="weight", **_EIGENVECTOR, **threads), ids)
            if n < 3:
                between = dict.fromkeys(ids.values(), 0.0)
            else:
                exact = betweenness_method(n, exact_limit=exact_limit, samples=samples) == "exact"
                sampling = {} if exact else {"sampling_size": samples, "sampling_seed": seed}
                lengths = {} if hops else {"relationship_weight_property": "length"}
                raw = self._scores(self.gds.betweenness.stream(G, **lengths, **sampling, **threads), ids)
                scale = 2 * (1.0 if exact else n / samples) / ((n - 1) * (n - 2))
                between = {node: value * scale for node, value in raw.items()}
        rows = [{"id": node, "degree": int(degree[node]), "weighted_degree": strength[node], "pagerank": ranks[node],
                 "betweenness": between[node], "eigenvector": eigen[node]} for node in ids.values()]
        return sorted(rows, key=lambda r: (-r["pagerank"], str(r["id"])))

    def citation_table(self) -> list[dict]:
        """:func:`kg.analyze.centrality.citation_table`, computed by GDS (empty without citations)."""
        if self.counts()["cites"] == 0:
            return []
        ids = self._ids_of("cites")
        with self.projected("cites") as G, _gds_errors("the citation PageRank"):
            ranks = self._scores(self._pagerank(G), ids)
            cited_by = self._scores(self.gds.degree.stream(G, orientation="REVERSE", concurrency=self.concurrency), ids)
            cites = self._scores(self.gds.degree.stream(G, orientation="NATURAL", concurrency=self.concurrency), ids)
        rows = [{"id": n, "cited_by": int(cited_by[n]), "cites": int(cites[n]), "pagerank": ranks[n]}
                for n in ids.values()]
        return sorted(rows, key=lambda r: (-r["pagerank"], -r["cited_by"], r["id"]))

    def communities(self, *, method: str = "leiden", seed: int = SEED, resolution: float = 1.0) -> list[set]:
        """Paper communities on ``related`` by GDS's Leiden, ordered as
        :func:`kg.analyze.communities.detect_communities` orders them (largest first, ties by smallest id)."""
        if method != "leiden":
            raise OptionError("method", f"the gds engine finds communities with Leiden, not {method!r} "
                                        "(GDS's Louvain takes neither a seed nor a resolution)")
        ids = self._ids_of("related")
        if not ids:
            return []
        with self.projected("related") as G, _gds_errors("Leiden"):
            if int(G.relationship_count()) == 0:
                return ordered_communities({node} for node in ids.values())
            frame = self.gds.leiden.stream(G, relationship_weight_property="weight", gamma=float(resolution),
                                           random_seed=int(seed), concurrency=self.concurrency)
        groups: dict[int, set] = {}
        for node, community in zip(frame["nodeId"], frame["communityId"]):
            groups.setdefault(int(community), set()).add(ids[int(node)])
        return ordered_communities(groups.values())
