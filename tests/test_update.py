"""kg build --update: the union of a build and new papers equals a fresh build of it, up to community numbers.

The stand-in embedder (``HashEmbedder``) is batch-invariant, so these tests compare bytes: an update
and a fresh build of the union write the same graph.json, corpus.jsonl and vectors, and analyses that
differ only in how the communities are numbered. With the real model the same holds when both read
the same vectors (the cache); a cold build embeds in other batches (see the last test).
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import kg
from kg.analyze.result import check_analysis, load_analysis, paper_community
from kg.cli import app
from kg.errors import GraphFileError, InputError, OptionError
from kg.export.staging import KG_OUTPUTS, OutputFolderError
from kg.extract import document_text
from kg.graphfile import load_graph
from kg.analyze.numbering import stable_numbers
from kg.buildfolder import read_build
from kg.ingest import load_corpus
from kg.pipeline import BuildOptions, build, update

from conftest import EXAMPLE, SEEDS, SHARED, HashEmbedder

ACM = SHARED / "data" / "acm_cr" / "papers.jsonl"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ingest"
runner = CliRunner()


class Recording(HashEmbedder):
    """The stand-in embedder, keeping every text it was asked to embed."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts.extend(texts)
        return super().embed(texts)


def _cache(out: Path) -> str:
    return str(out / ".kg-cache" / "embeddings.sqlite")


def _lines(path: Path, start: int, stop: int, to: Path) -> Path:
    with open(path, encoding="utf-8") as handle:
        to.write_text("".join(line for i, line in enumerate(handle) if start <= i < stop), encoding="utf-8")
    return to


def _rows(analysis: dict, key: str = "communities") -> dict:
    """Community rows by their members, without their numbers: what must equal up to numbering."""
    return {frozenset(r["papers"]): {k: v for k, v in r.items() if k != "id"} for r in analysis[key]}


def _without_numbers(analysis: dict) -> dict:
    out = {k: v for k, v in analysis.items() if k not in ("communities", "citation_maps")}
    out["communities"] = _rows(analysis)
    out["citation_maps"] = {name: {**m, "clusters": _rows(m, "clusters")}
                            for name, m in (analysis.get("citation_maps") or {}).items()}
    return out


def _update_and_fresh(tmp_path: Path, first: list[Path], more: list[Path], *, cache: bool = True,
                      options: BuildOptions = BuildOptions(html=False)):
    """Build ``first`` into up/, update it with ``more``; build ``first + more`` into fresh/."""
    up, fresh = tmp_path / "up", tmp_path / "fresh"
    before = build(first, up, options, embedder=HashEmbedder(), cache=_cache(up) if cache else None)
    changes = {"html": options.html}
    result = update(more, up, changes, embedder=HashEmbedder(), cache=_cache(up) if cache else None)
    whole = build([*first, *more], fresh, options, embedder=HashEmbedder(), cache=_cache(fresh) if cache else None)
    return before, result, whole, up, fresh


def _assert_same_build(up: Path, fresh: Path, result, whole, *, vectors: float = 0.0) -> None:
    """The two folders hold the same build; ``vectors``: how far stored vectors may differ (0: bytes)."""
    for name in ("graph.json", "corpus.jsonl", "paper_vectors.json", "concept_vectors.json", "concepts.csv",
                 "mentions.csv", *(() if vectors else ("paper_vectors.npy", "concept_vectors.npy"))):
        assert (up / name).read_bytes() == (fresh / name).read_bytes(), name
    for name in ("paper_vectors.npy", "concept_vectors.npy"):
        x, y = np.load(up / name).astype(np.float32), np.load(fresh / name).astype(np.float32)
        assert x.shape == y.shape and np.abs(x - y).max() <= vectors, name
    assert sorted(sorted(c) for c in _rows(result.analysis)) == sorted(sorted(c) for c in _rows(whole.analysis))
    assert _without_numbers(result.analysis) == _without_numbers(whole.analysis)
    saved = load_analysis(up)
    assert saved == json.loads(json.dumps(result.analysis))
    check_analysis(load_graph(up), saved)  # numbered 0..k-1, every paper once


@pytest.fixture
def example_halves(tmp_path):
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(lines[:20]), encoding="utf-8")
    b.write_text("".join(lines[20:]), encoding="utf-8")
    return a, b


# --- the result equals a fresh build of the union ---------------------------------------------


def test_update_of_the_example_equals_a_fresh_build_of_the_union(tmp_path, example_halves):
    a, b = example_halves
    before, result, whole, up, fresh = _update_and_fresh(tmp_path, [a], [b])
    _assert_same_build(up, fresh, result, whole)
    log = result.changelog
    assert [p["id"] for p in log["papers"]["added"]] == sorted(set(paper_community(whole.analysis))
                                                               - set(paper_community(before.analysis)))
    assert sorted(os.listdir(up)) == sorted([*os.listdir(fresh), "changelog.json", "changelog.md"])


def test_update_of_the_seed_abstracts_equals_a_fresh_build(tmp_path, seeds):
    if len(seeds) < 2:
        pytest.skip("needs two seed files")
    _, result, whole, up, fresh = _update_and_fresh(tmp_path, seeds[:1], seeds[1:])
    _assert_same_build(up, fresh, result, whole)


@pytest.mark.slow
def test_update_of_acm_papers_equals_a_fresh_build_and_numbers_communities_as_before(tmp_path):
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    a = _lines(ACM, 0, 250, tmp_path / "a.jsonl")
    b = _lines(ACM, 250, 400, tmp_path / "b.jsonl")
    before, result, whole, up, fresh = _update_and_fresh(tmp_path, [a], [b])
    _assert_same_build(up, fresh, result, whole)
    # numbered as before: the earlier papers keep their number as far as any numbering allows
    old = paper_community(before.analysis)
    kept = sum(paper_community(result.analysis)[p] == k for p, k in old.items())
    assert kept >= sum(paper_community(whole.analysis)[p] == k for p, k in old.items())
    log = result.changelog
    assert len(log["moved"]) == len(old) - kept
    assert {r["id"] for r in log["moved"]} == {p for p, k in old.items() if paper_community(result.analysis)[p] != k}
    continued = [r for r in log["communities"] if r["status"] == "continued"]
    assert continued and all(r["kept"] > 0 and r["previous_size"] == len(before.analysis["communities"][r["id"]]
                                                                         ["papers"]) for r in continued)
    renumbered = [r for r in log["communities"] if r["status"] == "renumbered"]
    assert all(r["kept"] > 0 and r["previous"] != r["id"] for r in renumbered)
    gone = {r["id"] for r in log["communities_gone"]}
    assert gone == (set(range(len(before.analysis["communities"]))) - {r["id"] for r in continued}
                    - {r["previous"] for r in renumbered})
    assert all(r["status"] == "new" and r["previous"] is None for r in log["communities"]
               if r not in continued and r not in renumbered)
    graph, old_graph = result.graph, before.graph
    concepts = {n for n, d in graph.nodes(data=True) if d["kind"] == "concept"}
    old_concepts = {n for n, d in old_graph.nodes(data=True) if d["kind"] == "concept"}
    assert {c["id"] for c in log["concepts"]["added"]} == concepts - old_concepts
    assert {c["id"] for c in log["concepts"]["gone"]} == old_concepts - concepts
    assert all(c["now"] is None or c["now"] in concepts for c in log["concepts"]["gone"])
    assert log["counts"]["papers"] == [len(old), len(paper_community(result.analysis))]


def test_only_new_texts_are_embedded(tmp_path, example_halves):
    a, b = example_halves
    out = tmp_path / "up"
    first = Recording()
    build([a], out, BuildOptions(html=False), embedder=first, cache=_cache(out))
    second = Recording()
    result = update([b], out, embedder=second, cache=_cache(out))
    assert not set(second.texts) & set(first.texts)  # nothing the build embedded is embedded again
    old = load_corpus([a]).papers
    new = [p for p in result.corpus.papers if p.id not in {q.id for q in old}]
    assert {document_text(p) for p in new} <= set(second.texts)
    assert result.embedded == {"embedded": len(set(second.texts)), "cached": result.embedded["cached"]}
    assert result.embedded["cached"] > 0 and result.changelog["embedding"] == result.embedded


def test_without_a_cache_everything_is_embedded_again_and_the_result_is_the_same(tmp_path, example_halves):
    a, b = example_halves
    up, fresh = tmp_path / "up", tmp_path / "fresh"
    build([a], up, BuildOptions(html=False), embedder=HashEmbedder())
    said = []
    recording = Recording()
    result = update([b], up, embedder=recording, cache=None, on_warning=said.append)
    assert said and said[0].startswith("no embedding cache: every paper is embedded again")
    assert result.changelog["warnings"] == said
    assert {document_text(p) for p in result.corpus.papers} <= set(recording.texts)
    whole = build([a, b], fresh, BuildOptions(html=False), embedder=HashEmbedder())
    _assert_same_build(up, fresh, result, whole)
    # a build made with --no-cache, updated with the folder's cache (the default): said, then filled
    said.clear()
    again = tmp_path / "again"
    build([a], again, BuildOptions(html=False), embedder=HashEmbedder())
    update([b], again, embedder=HashEmbedder(), on_warning=said.append)
    assert said[0].startswith(f"no embedding cache at {_cache(again)}") and os.path.isfile(_cache(again))


def test_new_records_of_papers_already_in_the_build_merge_as_in_a_build_of_both(tmp_path, example_halves):
    a, b = example_halves
    records = [json.loads(line) for line in a.read_text(encoding="utf-8").splitlines()]
    same_id = dict(records[0], keyphrases=["an author keyword"], references=[records[1]["id"]])
    same_title = dict(records[2], id="another-id-of-it")
    repeated = b.read_text(encoding="utf-8").splitlines()[0]
    more = tmp_path / "more.jsonl"
    more.write_text(b.read_text(encoding="utf-8") + json.dumps(same_id) + "\n" + json.dumps(same_title) + "\n"
                    + repeated + "\n", encoding="utf-8")
    _, result, whole, up, fresh = _update_and_fresh(tmp_path, [a], [more])
    _assert_same_build(up, fresh, result, whole)
    papers = result.changelog["papers"]
    assert papers["records_merged"] == 2 and papers["records_skipped"] == 1  # the repeated line: a duplicate
    assert {p["id"] for p in papers["merged"]} == {records[0]["id"], records[2]["id"]}
    graph = load_graph(up)
    assert graph.has_edge(records[0]["id"], records[1]["id"], key="cites")
    assert "alias:another-id-of-it" in graph.nodes[records[2]["id"]]["ids"]
    assert graph.graph["records_merged"] == whole.graph.graph["records_merged"] == 2


def test_an_update_reads_any_input_format(tmp_path, example_halves):
    a, _ = example_halves
    bib = tmp_path / "new.bib"
    shutil.copy(FIXTURES / "sample.bib", bib)
    _, result, whole, up, fresh = _update_and_fresh(tmp_path, [a], [bib])
    _assert_same_build(up, fresh, result, whole)
    assert len(result.changelog["papers"]["added"]) == len(load_corpus([bib]).papers)


def test_updates_add_up(tmp_path, example_halves):
    """Two updates in a row equal one build of the three inputs (and the recorded inputs say so)."""
    a, b = example_halves
    lines = b.read_text(encoding="utf-8").splitlines(keepends=True)
    b1, b2 = tmp_path / "b1.jsonl", tmp_path / "b2.jsonl"
    b1.write_text("".join(lines[:6]), encoding="utf-8")
    b2.write_text("".join(lines[6:]), encoding="utf-8")
    up, fresh = tmp_path / "up", tmp_path / "fresh"
    build([a], up, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(up))
    update([b1], up, embedder=HashEmbedder(), cache=_cache(up))
    result = update([b2], up, embedder=HashEmbedder(), cache=_cache(up))
    whole = build([a, b1, b2], fresh, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(fresh))
    _assert_same_build(up, fresh, result, whole)
    assert [i["path"] for i in json.loads(load_graph(up).graph["inputs"])] == ["a.jsonl", "b1.jsonl", "b2.jsonl"]


def test_papers_read_back_from_a_build_equal_the_papers_it_read(tmp_path):
    """corpus.jsonl gives back every paper as ingested (what an update rebuilds from), ids and aliases too."""
    inputs = [EXAMPLE, FIXTURES / "sample.bib", FIXTURES / "sample.ris", FIXTURES / "openalex_page.json",
              FIXTURES / "s2_papers.jsonl", FIXTURES / "wos_plain.txt", *SEEDS]
    dup = tmp_path / "dup.jsonl"  # merged records: ids of the duplicates become aliases
    first = json.loads(EXAMPLE.read_text(encoding="utf-8").splitlines()[0])
    dup.write_text(json.dumps(dict(first, id="dup-1", abstract=first["abstract"] + " More.")) + "\n",
                   encoding="utf-8")
    inputs.append(dup)
    out = tmp_path / "out"
    result = build(inputs, out, BuildOptions(html=False), embedder=HashEmbedder())
    back = {p.id: p for p in read_build(out).papers}
    assert len(back) == len(result.corpus.papers)
    for paper in result.corpus.papers:
        again = back[paper.id]
        assert again == paper and again.ids == paper.ids
        assert again.extra.get("aliases", []) == paper.extra.get("aliases", [])
    assert back[first["id"]].extra["aliases"] == ["dup-1"]


# --- stable numbers ------------------------------------------------------------------------------


def test_stable_numbers_are_dense_and_keep_as_many_papers_as_any_numbering():
    import itertools

    rng = random.Random(7)
    for _ in range(200):
        k = rng.randint(1, 6)
        papers = [f"p{i}" for i in range(rng.randint(1, 30))]
        groups = [[] for _ in range(k)]
        for p in papers:
            groups[rng.randrange(k)].append(p)
        groups = [g for g in groups if g] or [papers]
        previous = {p: rng.randrange(rng.randint(1, 7)) for p in papers if rng.random() < 0.8}
        numbers = stable_numbers(groups, previous)
        assert sorted(numbers) == list(range(len(groups)))

        def kept(assignment):
            return sum(previous.get(p) == n for g, n in zip(groups, assignment) for p in g)

        best = max(kept(perm) for perm in itertools.permutations(range(len(groups))))
        assert kept(numbers) == best


def test_an_unmatched_community_takes_the_lowest_free_number_largest_first():
    groups = [["n1", "n2", "n3"], ["a", "b"], ["n4"], ["c"]]
    assert stable_numbers(groups, {"a": 2, "b": 2, "c": 0}) == [1, 2, 3, 0]


# --- refusals, before any work ---------------------------------------------------------------------


def test_a_folder_that_is_not_a_build_is_refused_in_one_line(tmp_path, example_halves):
    _, b = example_halves
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "graph.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "graph.json").write_text(json.dumps({"directed": True, "multigraph": True, "graph": {},
                                                              "nodes": [], "edges": []}), encoding="utf-8")
    for folder, why in (("missing", "no such folder"), ("empty", "no graph.json in it"),
                        ("bad", "its graph.json cannot be read"), ("bare", "records no build parameters")):
        recording = Recording()
        with pytest.raises(GraphFileError, match=why) as caught:
            update([b], tmp_path / folder, embedder=recording)
        assert "not a kg build" in str(caught.value) and "\n" not in str(caught.value)
        assert recording.texts == []
        result = runner.invoke(app, ["build", "--update", str(tmp_path / folder), str(b)])
        assert result.exit_code == 1 and result.output.count("\n") == 1
        assert result.output.startswith(f"Error: {tmp_path / folder}: not a kg build")
    assert not (tmp_path / "missing").exists()


def test_options_that_contradict_the_build_are_refused_before_any_work(tmp_path, example_halves):
    a, b = example_halves
    out = tmp_path / "up"
    build([a], out, BuildOptions(html=False, top_n=8), embedder=HashEmbedder(), cache=_cache(out))
    before = sorted(os.listdir(out))
    recording = Recording()
    with pytest.raises(OptionError, match="contradicts the build") as caught:
        update([b], out, {"top_n": 10}, embedder=recording, cache=_cache(out))
    assert caught.value.argument == "top_n" and recording.texts == []
    with pytest.raises(OptionError, match="unknown option"):
        update([b], out, {"topn": 8}, embedder=recording, cache=_cache(out))
    assert sorted(os.listdir(out)) == before and recording.texts == []
    # the recorded value, or how the new files are read, is fine
    result = update([b], out, {"top_n": 8, "format": "jsonl", "html": False}, embedder=HashEmbedder(),
                    cache=_cache(out))
    assert json.loads(result.graph.graph["parameters"])["top_n"] == 8


def test_cli_refuses_contradicting_options_and_a_second_folder(tmp_path, example_halves):
    a, b = example_halves
    out = tmp_path / "up"
    build([a], out, BuildOptions(html=False), embedder=HashEmbedder())
    result = runner.invoke(app, ["build", "--update", str(out), str(b), "--resolution", "2"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: --resolution: 2.0 contradicts the build in")
    result = runner.invoke(app, ["build", "--update", str(out), str(b), "--out", str(tmp_path / "other")])
    assert result.exit_code == 1 and "name two folders" in result.output
    assert not (tmp_path / "other").exists()


def test_a_thesaurus_that_moved_is_named_before_any_work(tmp_path, example_halves):
    a, b = example_halves
    thesaurus = tmp_path / "thesaurus.txt"
    thesaurus.write_text("label\treplace by\ngraph neural networks\tGNN\n", encoding="utf-8")
    out = tmp_path / "up"
    build([a], out, BuildOptions(html=False, thesaurus=str(thesaurus)), embedder=HashEmbedder())
    moved = thesaurus.rename(tmp_path / "moved.txt")
    with pytest.raises(OptionError, match="which is not there now") as caught:
        update([b], out, embedder=Recording())
    assert caught.value.argument == "thesaurus"
    result = update([b], out, {"thesaurus": str(moved)}, embedder=HashEmbedder())
    assert json.loads(result.graph.graph["parameters"])["thesaurus"] == str(moved)


def test_an_input_inside_the_folder_and_empty_inputs_are_refused(tmp_path, example_halves):
    a, _ = example_halves
    out = tmp_path / "up"
    build([a], out, BuildOptions(html=False), embedder=HashEmbedder())
    with pytest.raises(OutputFolderError, match="in the output folder"):
        update([out / "corpus.jsonl"], out, embedder=HashEmbedder())
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"id": "x", "title": "no abstract"}\n', encoding="utf-8")
    before = (out / "graph.json").read_bytes()
    with pytest.raises(InputError, match="no papers with an abstract"):
        update([empty], out, embedder=HashEmbedder())
    assert (out / "graph.json").read_bytes() == before


# --- what the folder shows afterwards ---------------------------------------------------------------


def test_the_changelog_files_and_a_later_plain_build(tmp_path, example_halves):
    a, b = example_halves
    _, result, _, up, _ = _update_and_fresh(tmp_path, [a], [b])
    assert {"changelog.json", "changelog.md"} <= KG_OUTPUTS
    log = json.loads((up / "changelog.json").read_text(encoding="utf-8"))
    assert log == json.loads(json.dumps(result.changelog))
    text = (up / "changelog.md").read_text(encoding="utf-8")
    assert text.startswith("# Update changelog") and "b.jsonl" in text
    assert f"- papers: {log['counts']['papers'][0]} → {log['counts']['papers'][1]}: " in text
    for section in ("## Communities", "## New papers", "## New concepts"):
        assert section in text
    build([a, b], up, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(up))
    assert not {"changelog.json", "changelog.md"} & set(os.listdir(up))  # it described the update


def test_views_show_the_updated_numbers(tmp_path, example_halves):
    a, b = example_halves
    _, result, _, up, _ = _update_and_fresh(tmp_path, [a], [b], options=BuildOptions())
    rows = result.analysis["communities"]
    for row in rows[:3]:
        shown = runner.invoke(app, ["concepts", str(up), "--community", str(row["id"])])
        assert shown.exit_code == 0, shown.output
        assert f"community {row['id']}: {row['size']} papers" in shown.output
    report = (up / "report.md").read_text(encoding="utf-8")
    report = report[report.index("## Communities of papers"):]
    listed = [c for c in rows if c["size"] > 1]
    order = sorted(listed, key=lambda c: (-c["size"], c["id"]))
    assert report.index(f"| {order[0]['id']} | {order[0]['size']} |") < report.index(
        f"| {order[-1]['id']} | {order[-1]['size']} |")
    assert '"community":' in (up / "graph.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_analyzing_the_updated_graph_again_keeps_its_numbers_while_the_communities_are_the_same(tmp_path):
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    a = _lines(ACM, 0, 250, tmp_path / "a.jsonl")
    b = _lines(ACM, 250, 400, tmp_path / "b.jsonl")
    _, result, whole, up, _ = _update_and_fresh(tmp_path, [a], [b])
    numbers = paper_community(result.analysis)
    assert numbers != paper_community(whole.analysis)  # the update's numbers are not by size here
    built = kg.load(up)
    again = built.reanalyze(scoring="loglik")  # kg report --labels loglik: the same communities
    assert paper_community(again.analysis) == numbers
    finer = built.reanalyze(resolution=3.0)  # other communities: numbered largest first, as ever
    sizes = [len(r["papers"]) for r in finer.analysis["communities"]]
    assert sizes == sorted(sizes, reverse=True)


def test_an_update_keeps_the_folders_analysis_settings_and_evolution(tmp_path, example_halves):
    a, b = example_halves
    up, fresh = tmp_path / "up", tmp_path / "fresh"
    build([a], up, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(up))
    kg.load(up).reanalyze(resolution=2.0).evolution(equal=2).write_analysis(up, page=False)
    result = update([b], up, embedder=HashEmbedder(), cache=_cache(up))
    assert result.analysis["parameters"]["resolution"] == 2.0
    assert result.analysis["evolution"]["parameters"]["equal"] == 2
    whole = build([a, b], fresh, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(fresh))
    again = kg.KnowledgeGraph(whole.graph, whole.analysis).reanalyze(resolution=2.0).evolution(equal=2)
    assert _without_numbers(result.analysis) == _without_numbers(again.analysis)


def test_python_api_update_writes_what_the_command_writes(tmp_path, example_halves):
    a, b = example_halves
    one, two = tmp_path / "one", tmp_path / "two"
    for out in (one, two):
        build([a], out, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(out))
    update([b], one, {"html": False}, embedder=HashEmbedder(), cache=_cache(one))
    records = [json.loads(line) for line in b.read_text(encoding="utf-8").splitlines()]
    updated = kg.update(two, records, embedder=HashEmbedder(), html=False)
    assert updated.changelog["counts"] == json.loads((one / "changelog.json").read_text())["counts"]
    assert not (two / "changelog.json").exists()  # nothing written until asked
    updated.write(two, html=False)
    assert (one / "graph.json").read_text() != ""
    one_graph = json.loads((one / "graph.json").read_text())
    two_graph = json.loads((two / "graph.json").read_text())
    one_graph["graph"].pop("inputs"), two_graph["graph"].pop("inputs")  # a file, or records given in Python
    assert one_graph == two_graph
    assert load_analysis(one) == load_analysis(two)
    assert np.array_equal(np.load(one / "paper_vectors.npy"), np.load(two / "paper_vectors.npy"))
    assert (two / "changelog.md").exists()


# --- the real model ---------------------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.slow
def test_real_model_update_equals_a_build_from_the_same_vectors_and_a_cold_build(tmp_path, real_embedder):
    """With the real model, an update equals a build of the union that reads the same vectors (the
    folder's cache) byte for byte, and a cold build too: the int8 model quantizes activations with
    fixed scales, so a text's vector does not depend on the texts embedded with it (it did by up to
    about 0.03 a component with one scale per batch, and a cold build then had other concepts)."""
    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    a = _lines(ACM, 0, 150, tmp_path / "a.jsonl")
    b = _lines(ACM, 150, 250, tmp_path / "b.jsonl")
    up, same, cold = tmp_path / "up", tmp_path / "same", tmp_path / "cold"
    options = BuildOptions(html=False)
    build([a], up, options, embedder=real_embedder, cache=_cache(up))
    result = update([b], up, {"html": False}, embedder=real_embedder, cache=_cache(up))
    (same / ".kg-cache").mkdir(parents=True)
    shutil.copy(_cache(up), _cache(same))
    whole = build([a, b], same, options, embedder=real_embedder, cache=_cache(same))
    _assert_same_build(up, same, result, whole)
    fresh = build([a, b], cold, options, embedder=real_embedder, cache=_cache(cold))
    _assert_same_build(up, cold, result, fresh, vectors=2 ** -10)  # one float16 step at 1


@pytest.mark.model
@pytest.mark.slow
def test_with_fp32_vectors_an_update_equals_even_a_cold_build(tmp_path):
    """fp32 vectors depend on their batch only in the last bits of a float, so an update at --precision
    fp32 equals a build of the union into an empty folder: the same graph, and stored (float16) vectors
    at most one rounding step apart."""
    from kg.extract import load_embedder

    if not ACM.exists():
        pytest.skip("../shared/data/acm_cr is not present")
    a = _lines(ACM, 0, 40, tmp_path / "a.jsonl")
    b = _lines(ACM, 40, 65, tmp_path / "b.jsonl")
    up, cold = tmp_path / "up", tmp_path / "cold"
    options = BuildOptions(html=False, precision="fp32")
    build([a], up, options, embedder=load_embedder(precision="fp32"), cache=_cache(up))
    result = update([b], up, {"html": False}, embedder=load_embedder(precision="fp32"), cache=_cache(up))
    whole = build([a, b], cold, options, embedder=load_embedder(precision="fp32"), cache=_cache(cold))
    _assert_same_build(up, cold, result, whole, vectors=2 ** -10)  # one float16 step at 1


@pytest.mark.model
def test_cli_update_prints_the_changelog_and_embeds_only_the_new_papers(tmp_path, example_halves):
    a, b = example_halves
    out = tmp_path / "out"
    first = runner.invoke(app, ["build", str(a), "--out", str(out), "--no-html"])
    assert first.exit_code == 0, first.output
    result = runner.invoke(app, ["build", "--update", str(out), str(b), "--no-html", "--top-n", "10"])
    assert result.exit_code == 0, result.output
    log = json.loads((out / "changelog.json").read_text(encoding="utf-8"))
    added = len(log["papers"]["added"])
    assert added == len(load_corpus([b]).papers)
    assert f"papers: {log['counts']['papers'][0]} → {log['counts']['papers'][1]}: {added} added" in result.output
    assert "communities: " in result.output and f"changelog: {out / 'changelog.md'}" in result.output
    assert log["embedding"]["cached"] > 0 and "Warning" not in result.output
    assert not (out / "graph.html").exists()
    assert json.loads(load_graph(out).graph["inputs"])[-1]["path"] == "b.jsonl"


def test_an_update_reads_acronyms_and_a_build_from_before_them_shows_no_renames(tmp_path, example_halves):
    a, b = example_halves
    up = tmp_path / "up"
    build([a], up, BuildOptions(html=False), embedder=HashEmbedder(), cache=_cache(up))
    concepts = read_build(up).concepts
    gcn = concepts["c:graph convolutional network"]
    assert (gcn["name"], gcn["acronym"], gcn["label"]) == ("graph convolutional network", "GCN",
                                                           "graph convolutional network (GCN)")
    # graph.json as kg wrote it before concepts had an acronym: "name (ACR)" as the name
    lines = (up / "graph.json").read_text(encoding="utf-8").splitlines(keepends=True)
    old = []
    for line in lines:
        node = json.loads(line.rstrip(",\n")) if line.startswith('{"acronym"') else None
        if node is not None:
            node["name"] = f"{node.get('name', node['id'][2:])} ({node.pop('acronym')})"  # a name the id says is left out
            line = json.dumps(node, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + line[len(line.rstrip(",\n")):]
        old.append(line)
    assert old != lines
    (up / "graph.json").write_text("".join(old), encoding="utf-8")
    before = read_build(up).concepts["c:graph convolutional network"]
    assert (before["name"], before["acronym"], before["label"]) == ("graph convolutional network (GCN)", None,
                                                                    "graph convolutional network (GCN)")
    result = update([b], up, {"html": False}, embedder=HashEmbedder(), cache=_cache(up))
    assert not [r for r in result.changelog["concepts"]["renamed"] if r["id"] in concepts and concepts[r["id"]]["acronym"]]
    assert load_graph(up).nodes["c:graph convolutional network"]["name"] == "graph convolutional network"
