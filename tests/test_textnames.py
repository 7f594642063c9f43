"""Which concepts a paper's text names, linked or not (kg.analyze.textnames): whole words, any case, every written
form of a concept; read from a real graph."""

from __future__ import annotations

import json

from kg.analyze.textnames import named_in_text, text_names

from _example_graphs import keyphrase_graph


def test_forms_are_found_as_whole_words_in_any_case():
    forms = {"c:cf": ["collaborative filtering", "CF"], "c:mf": ["matrix factorization", "matrix factorizations"],
             "c:su2": ["SU(2)"], "c:ym": ["Yang-Mills theory"], "c:lda": ["LDA"]}
    texts = {
        "p1": "Matrix Factorizations beat COLLABORATIVE filtering?",  # case aside, the plural is its own form
        "p2": "CFD solvers and a CFG: neither is CF.",  # CF as a word, not inside CFD or CFG
        "p3": "The SU(2) Yang-Mills theory on a lattice.",  # brackets and hyphens inside names
        "p4": "Yang Mills without the hyphen, and an LDAP server.",  # another spelling, a longer word: not named
        "p5": "Nothing here.",
    }
    assert named_in_text(texts, forms) == {"p1": ("c:cf", "c:mf"), "p2": ("c:cf",), "p3": ("c:su2", "c:ym")}


def test_one_form_can_name_two_concepts_and_a_form_is_found_anywhere_in_a_longer_phrase():
    forms = {"c:rank": ["learning to rank"], "c:learning": ["learning"], "c:a": ["graph"], "c:b": ["graph"]}
    found = named_in_text({"p": "We study learning to rank on a graph."}, forms)
    assert found == {"p": ("c:a", "c:b", "c:learning", "c:rank")}


def test_text_names_reads_titles_abstracts_and_every_written_form_of_a_concept(tmp_path):
    records = [
        {"id": "p1", "title": "Collaborative Filtering at scale", "abstract": "Matrix factorization of ratings.",
         "year": 2010, "keyphrases": ["collaborative filtering", "matrix factorization"]},
        {"id": "p2", "title": "Implicit feedback", "abstract": "Matrix factorizations for collaborative filtering.",
         "year": 2011, "keyphrases": ["implicit feedback"]},
        {"id": "p3", "title": "Matrix factorizations", "abstract": "Nothing else is named here.",
         "year": 2012, "keyphrases": ["matrix factorizations"]},
    ]
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    graph = keyphrase_graph(path)
    concept = {graph.nodes[c]["name"]: c for c in graph if graph.nodes[c].get("kind") == "concept"}
    cf, mf, feedback = (concept[n] for n in ("collaborative filtering", "matrix factorization", "implicit feedback"))
    named = text_names(graph)
    # p2 links only "implicit feedback"; its abstract names the other two, one in the plural p3 was found as
    assert named["p2"] == tuple(sorted((cf, mf, feedback)))
    assert named["p3"] == (mf,) and named["p1"] == tuple(sorted((cf, mf)))
    # a concept linked to fewer papers than min_papers is not looked for
    assert text_names(graph, min_papers=2) == {"p1": (mf,), "p2": (mf,), "p3": (mf,)}
