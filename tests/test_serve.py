"""kg serve: the explorer's API answers with the build's real values, stays read-only and on loopback.

The server is the real ``kg serve`` (a subprocess on a free loopback port, tests/_served.py) over
the example corpus plus hostile papers; expected values come from the build's own graph and
analysis, read back with :func:`kg.graphfile.load_graph`.
"""

from __future__ import annotations

import hashlib
import json
import socket
import time
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from typer.testing import CliRunner

from _served import EVIL_ID, EVIL_TITLE, Served
from kg.analyze.result import load_analysis
from kg.cli import app
from kg.errors import OptionError
from kg.graphfile import load_graph
from kg.identifiers import paper_link
from kg.serve.address import bind, check_host, is_loopback
from kg.serve.page import page_html
from kg.serve.views import LIST, RELATED


@pytest.fixture(scope="module")
def built(served_build):
    graph = load_graph(served_build)
    return graph, load_analysis(served_build)


def _papers(graph) -> dict:
    return {n: d for n, d in graph.nodes(data=True) if d.get("kind") == "paper"}


def _q(value: str) -> str:
    return quote(value, safe="")


def test_meta_counts_the_build(server, built):
    graph, analysis = built
    papers = _papers(graph)
    meta = server.json("/api/meta")
    assert meta["papers"] == len(papers) == 34
    assert meta["min_query"] == 3
    assert meta["concepts"] == sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "concept")
    assert meta["communities"] == len(analysis["communities"])
    years = Counter(d["year"] for d in papers.values() if d.get("year") is not None)
    assert meta["years"]["counts"] == [[y, years[y]] for y in sorted(years)]
    assert (meta["years"]["min"], meta["years"]["max"]) == (min(years), max(years))


def test_search_finds_a_paper_by_the_start_of_its_words_and_honours_the_years(server, built):
    graph, _ = built
    found = server.json("/api/search?q=" + _q("spectral graph convol"))
    assert found["papers"][0] == {"id": "gnn-2016-spectral", "title": graph.nodes["gnn-2016-spectral"]["title"],
                                  "year": 2016, "community": found["papers"][0]["community"]}
    assert server.json("/api/search?q=" + _q("spectral graph convol") + "&from=2017")["papers"] == []
    assert [p["id"] for p in server.json("/api/search?q=spectral&from=2016&to=2016")["papers"]] == ["gnn-2016-spectral"]
    concepts = server.json("/api/search?q=" + _q("graph neural"))["concepts"]
    assert concepts and all("graph neural" in c["name"].lower() for c in concepts[:1])
    assert server.json("/api/search?q=")["papers"] == []
    assert server.json("/api/search?q=gr") == {"query": "gr", "papers": [], "concepts": [],
                                               "hint": "type 3 characters or more"}
    # papers of the years asked for; concepts of any year (a concept's page counts its papers in them)
    ranged = server.json("/api/search?q=" + _q("graph neural") + "&from=2030")
    assert ranged["papers"] == [] and ranged["concepts"] == concepts


def test_a_paper_comes_with_its_strongest_related_papers_their_years_and_shared_concepts(server, built):
    graph, _ = built
    centre = "gnn-2016-spectral"
    answer = server.json("/api/paper?id=" + _q(centre))
    assert answer["paper"]["title"] == graph.nodes[centre]["title"]
    assert answer["paper"]["year"] == 2016
    linked = {}
    for u, v, k, d in graph.edges(keys=True, data=True):
        if k == "related" and centre in (u, v):
            linked[v if u == centre else u] = d["weight"]
    expected = sorted(linked, key=lambda p: (-linked[p], p))[:RELATED]
    assert [r["id"] for r in answer["related"]] == expected and len(expected) >= 3
    for row in answer["related"]:
        assert row["year"] == graph.nodes[row["id"]].get("year")
        assert row["title"] == graph.nodes[row["id"]]["title"]
    nodes, edges = answer["graph"]["nodes"], answer["graph"]["edges"]
    assert [n["id"] for n in nodes if n["kind"] == "paper"] == [centre, *expected]
    assert nodes[0]["centre"] is True
    drawn = {n["id"] for n in nodes if n["kind"] == "paper"}
    among = {tuple(sorted((u, v))) for u, v, k in graph.edges(keys=True) if k == "related" and u in drawn and v in drawn}
    assert {tuple(sorted((nodes[a]["id"], nodes[b]["id"]))) for a, b, _, kind in edges if kind == "related"} == among
    mentions = {(u, v) for u, v, k in graph.edges(keys=True) if k == "mentions"}
    assert any(node["kind"] == "concept" for node in nodes)
    for k, node in enumerate(nodes):
        if node["kind"] == "concept":  # shared by the paper and at least two of its neighbours
            papers = [nodes[a]["id"] for a, b, _, kind in edges if kind == "mentions" and b == k]
            assert centre in papers and len(papers) >= 3
            assert all((p, node["id"]) in mentions for p in papers)


def test_a_paper_s_doi_becomes_an_https_link_and_a_javascript_id_none(server, built):
    graph, _ = built
    evil = server.json("/api/paper?id=evil-img")["paper"]
    assert evil["link"] == paper_link("evil-img", graph.nodes["evil-img"])
    assert evil["link"].startswith("https://doi.org/10.1234/evil") and '"' not in evil["link"]
    script = server.json("/api/paper?id=" + _q(EVIL_ID))["paper"]
    assert script["title"] == EVIL_TITLE and script["link"] is None


def test_the_year_range_applies_to_a_paper_s_neighbours(server, built):
    graph, _ = built
    answer = server.json("/api/paper?id=gnn-2016-spectral&from=2019&to=2021")
    assert answer["related"]
    assert all(2019 <= r["year"] <= 2021 for r in answer["related"])


def test_a_concept_has_its_papers_per_year_and_its_companions(server, built):
    graph, _ = built
    counts = Counter(v for u, v, k in graph.edges(keys=True) if k == "mentions")
    concept = max(counts, key=lambda c: (counts[c], c))
    answer = server.json("/api/concept?id=" + _q(concept))
    assert answer["concept"]["papers"] == counts[concept]
    years = Counter(graph.nodes[u].get("year") for u, v, k in graph.edges(keys=True) if k == "mentions" and v == concept)
    assert answer["years"] == [[y, years[y]] for y in sorted(y for y in years if y is not None)]
    assert len(answer["papers"]) == min(counts[concept], LIST)
    together = {}
    for u, v, k, d in graph.edges(keys=True, data=True):
        if k == "co_occurs" and concept in (u, v):
            together[v if u == concept else u] = d.get("count", d.get("weight"))
    assert answer["cooccurring"][0]["count"] == max(together.values())
    ranged = server.json("/api/concept?id=" + _q(concept) + "&from=2020&to=2022")
    assert ranged["in_range"] == sum(n for y, n in years.items() if y is not None and 2020 <= y <= 2022)
    assert all(2020 <= p["year"] <= 2022 for p in ranged["papers"]) and len(ranged["papers"]) == ranged["in_range"]


def test_the_overview_and_a_community_match_the_analysis(server, built):
    graph, analysis = built
    overview = server.json("/api/communities")
    assert [(c["id"], c["label"], c["size"]) for c in overview["communities"]] == [
        (c["id"], c["label"], len(c["papers"])) for c in analysis["communities"]]
    assert all(c["in_range"] == c["size"] for c in overview["communities"])
    ranged = server.json("/api/communities?from=2018&to=2020")
    for row, c in zip(ranged["communities"], analysis["communities"]):
        assert row["in_range"] == sum(1 for p in c["papers"] if 2018 <= (graph.nodes[p].get("year") or 0) <= 2020)
    first = analysis["communities"][0]
    one = server.json(f"/api/community?id={first['id']}")
    assert one["community"]["label"] == first["label"]
    assert [p["id"] for p in one["papers"]] == [p for p in first["papers"] if graph.nodes[p].get("kind") == "paper"][:LIST]
    narrowed = server.json(f"/api/community?id={first['id']}&from=2019&to=2024")
    assert [p["id"] for p in narrowed["papers"]] == [
        p for p in first["papers"] if 2019 <= (graph.nodes[p].get("year") or 0) <= 2024][:LIST]


def test_bad_requests_are_answered_with_a_reason(server):
    for path, status, reason in [
        ("/api/paper?id=no-such-paper", 404, "no paper with id 'no-such-paper'"),
        ("/api/paper", 400, "id: missing"),
        ("/api/concept?id=c%3Anothing", 404, "no concept"),
        ("/api/community?id=999", 404, "no community 999"),
        ("/api/community?id=x", 400, "a community is a number"),
        ("/api/communities?from=two", 400, "from: a year is a whole number"),
    ]:
        code, _, body = server.get(path)
        assert code == status, (path, body)
        assert reason in json.loads(body)["error"]
    assert server.get("/api/nothing")[0] == 404
    assert server.get("/static/../../pyproject.toml")[0] == 404


def test_no_endpoint_writes_and_none_accepts_a_write_method(server, served_build):
    def snapshot():
        return {p.relative_to(served_build).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(served_build.rglob("*")) if p.is_file()}

    before = snapshot()
    for path in ("/", "/api/meta", "/api/search?q=graph", "/api/paper?id=gnn-2016-spectral",
                 "/api/communities", "/api/community?id=0"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert server.get(path, method=method)[0] == 405, (method, path)
        assert server.get(path)[0] == 200
    assert snapshot() == before


def test_every_answer_carries_a_policy_that_keeps_the_page_on_this_server(server):
    for path in ("/", "/api/meta", "/static/explore.js"):
        code, headers, _ = server.get(path)
        assert code == 200
        policy = headers["content-security-policy"]
        assert "default-src 'none'" in policy and "connect-src 'self'" in policy and "script-src 'self'" in policy
        assert headers["x-content-type-options"] == "nosniff"


def test_a_request_for_another_host_name_is_refused(server):
    """A page elsewhere that rebinds its name to 127.0.0.1 still cannot read the build."""
    assert server.get("/api/meta", headers={"Host": "evil.example:80"})[0] == 400
    assert server.get("/api/meta", headers={"Host": "localhost"})[0] == 200


def test_each_answer_is_quick(server):
    for path in ("/api/search?q=grap", "/api/paper?id=gnn-2016-spectral", "/api/concept?id=c%3Agraph",
                 "/api/communities", "/api/community?id=0"):
        started = time.perf_counter()
        server.get(path)
        assert time.perf_counter() - started < 0.2, path


def test_the_page_escapes_what_it_embeds():
    class Scripts(HTMLParser):
        def __init__(self):
            super().__init__()
            self.blocks, self.inside = [], False

        def handle_starttag(self, tag, attrs):
            if tag == "script":
                self.blocks.append([dict(attrs), ""])
                self.inside = True

        def handle_endtag(self, tag):
            self.inside = self.inside and tag != "script"

        def handle_data(self, data):
            if self.inside:
                self.blocks[-1][1] += data

    meta = {"build": "</script><script>alert(1)</script><!--", "years": {"min": None}}
    parser = Scripts()
    page = page_html("<img src=x onerror=alert(1)>", meta)
    parser.feed(page)
    assert "<title>&lt;img src=x onerror=alert(1)&gt;</title>" in page
    assert [b[0].get("src") for b in parser.blocks] == [None, "/static/vis-network.min.js", "/static/explore.js"]
    assert json.loads(parser.blocks[0][1]) == meta


# ---- where it listens --------------------------------------------------------------------------------

@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True),
                                            ("[::1]", True), ("localhost", True), ("0.0.0.0", False),
                                            ("::", False), ("192.168.1.20", False), ("example.org", False)])
def test_loopback_addresses(host, loopback):
    assert is_loopback(host) is loopback
    if loopback:
        assert check_host(host) == host
    else:
        with pytest.raises(OptionError, match="not a loopback address"):
            check_host(host)
        assert check_host(host, allow_remote=True) == host


def test_binding_elsewhere_than_loopback_needs_allow_remote():
    with pytest.raises(OptionError, match="0.0.0.0 is not a loopback address"):
        bind("0.0.0.0", 0)
    sock = bind("0.0.0.0", 0, allow_remote=True)
    try:
        assert sock.getsockname()[0] == "0.0.0.0"
    finally:
        sock.close()


def test_kg_serve_refuses_a_non_loopback_host_that_is_not_on_its_command_line(served_build):
    done = CliRunner().invoke(app, ["serve", str(served_build), "--port", "0"], env={"KG_SERVE_HOST": "0.0.0.0"})
    assert done.exit_code == 1
    assert "Error: --host: 0.0.0.0 is not a loopback address" in done.output


def test_kg_serve_listens_beyond_loopback_when_host_is_given_explicitly(served_build):
    served = Served(served_build, "--host", "0.0.0.0")
    try:
        assert served.url.startswith("http://127.0.0.1:")
        assert served.json("/api/meta")["papers"] == 34
    finally:
        err = served.stop()
    assert "listening on 0.0.0.0: anyone who can reach this machine can read the build" in err


def test_kg_serve_says_when_its_port_is_taken(served_build):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        done = CliRunner().invoke(app, ["serve", str(served_build), "--port", str(port)])
    finally:
        taken.close()
    assert done.exit_code == 1
    assert f"Error: port {port} on 127.0.0.1 is in use; choose another port" in done.output


def test_kg_serve_on_a_folder_without_a_build_is_one_error(tmp_path):
    done = CliRunner().invoke(app, ["serve", str(tmp_path), "--port", "0"])
    assert done.exit_code == 1
    assert done.output.startswith("Error: ") and "kg report" in done.output
