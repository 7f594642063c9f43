"""Concepts an expert would write: notation and names survive, generic words and restatements go.

Each case is a failure reviewers found on random papers of ACM-CR and hep-th.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from kg.extract import CachedEmbedder, extract
from kg.extract.candidates import candidate_phrases, find_candidates
from kg.extract.multiword import joinable_terms
from kg.ingest._latex import decode_latex
from kg.models import Keyphrase, Paper
from kg.normalize import concept_key, normalize_concepts
from kg.normalize.acronyms import _Acronyms, _expand
from kg.normalize.cohesion import cohesion
from kg.normalize.concepts import _acronym_form, _shown_acronym
from kg.normalize.containment import _text_keys
from kg.normalize.generic import generic_phrase, generic_words, incidental_modifiers, trim_filler
from kg.normalize.gerunds import gerund_objects, verb_objects
from kg.normalize.keys import misspellings
from kg.normalize.names import _display_name, proper_names, truecase_counts, word_shapes
from kg.normalize.synonyms import _needed, near_synonyms


def _kp(*phrases):
    return [Keyphrase(p, round(1 - i / 100, 4)) for i, p in enumerate(phrases)]


@pytest.mark.parametrize("text, wanted", [
    ("We study N=1 supersymmetric gauge theory with SU(2) symmetry.", ["N=1 supersymmetric gauge theory", "SU(2) symmetry"]),
    ("Gravity in 2+1 dimensions and the 1/N expansion of QED(0+1).", ["2+1 dimensions", "1/N expansion", "QED(0+1)"]),
    ("Black holes in de Sitter space saturate the Bogomol'nyi-Prasad-Sommerfield limit.",
     ["de Sitter space", "Bogomol'nyi-Prasad-Sommerfield limit"]),
    ("We study p-branes and D-branes under T-duality.", ["p-branes", "D-branes", "T-duality"]),
    ("The OPE of two 1/2 BPS operators. Spin 3/2 multiplets and massive spin 1/2 particles in 1/4 supersymmetric vacua.",
     ["1/2 BPS operators", "Spin 3/2 multiplets", "massive spin 1/2 particles", "1/4 supersymmetric vacua"]),
    ("Chern-Simons theory on Calabi-Yau manifolds with a Z_2 orbifold.", ["Chern-Simons theory", "Calabi-Yau manifolds", "Z_2 orbifold"]),
])
def test_notation_and_names_are_candidates_whole(text, wanted):
    found = candidate_phrases(text)
    for phrase in wanted:
        assert phrase in found


def test_notation_alone_that_only_qualifies_is_no_candidate():
    assert "N=1" not in candidate_phrases("The theory has N=1 and more.")


def test_a_fraction_that_counts_is_no_part_of_a_term():
    found = candidate_phrases("Branes that preserve 1/4 supersymmetry and the c = 1/2 minimal model.")
    assert "supersymmetry" in found and "minimal model" in found
    assert not any(phrase.startswith(("1/4", "1/2", "1 4", "1 2")) for phrase in found), found


@pytest.mark.parametrize("text, junk", [
    ("As shown by A.Zabrodin in Proc.R.Soc the bound holds w.r.t. the norm.", ["A.Zabrodin", "Proc.R.Soc"]),
    ("See ref.[1,2] for the space AdS_{p+2} and groups H^k(s|d) here.", ["ref.[1,2", "AdS_{p+2", "groups H^k(s|d"]),
])
def test_damaged_tokens_are_no_words(text, junk):
    found = " | ".join(candidate_phrases(text))
    for piece in junk:
        assert piece not in found


def test_verbs_that_look_like_nouns_end_a_phrase():
    found = candidate_phrases("We conduct an empirical comparison and propose to access social media.")
    assert "social media" in found and not any(p.startswith(("conduct", "access")) for p in found)
    found = candidate_phrases("Experiments on the TREC Microblog track show that our ranking helps.")
    assert "TREC Microblog track" in found and not any("show" in p for p in found)


@pytest.mark.parametrize("phrase, key", [
    ("Yang–Mills", "yang mills"), ("Chern-Simons", "chern simons"), ("Navier-Stokes equations", "navier stokes equation"),
    ("Rotary Position-Embeddings", "rotary position embedding"), ("movies", "movie"), ("biases", "bias"),
    ("knowledge bases", "knowledge base"), ("online ads", "online ad"),
])
def test_a_plural_rule_never_eats_a_name(phrase, key):
    assert concept_key(phrase) == key


@pytest.mark.parametrize("key, surfaces, truecase, name", [
    ("yang mills theory", {"Yang–Mills theories": 2, "Yang-Mills Theory": 1}, {}, "Yang–Mills theory"),
    ("su 2 gauge theory", {"SU(2) gauge theories": 2}, {}, "SU(2) gauge theory"),
    ("n 1 supersymmetry", {"N=1 supersymmetry": 1}, {}, "N=1 supersymmetry"),
    ("1 2 bps operator", {"1/2 BPS operators": 3, "1/2-BPS operator": 1}, {}, "1/2 BPS operator"),
    ("scatter gather model", {"Scatter/Gather model": 2}, {"scatter": (5, 0), "gather": (0, 9)}, "Scatter/Gather model"),
    ("t duality", {"T-duality": 3, "T-Duality": 1}, {}, "T-duality"),
    ("hilbert space", {"Hilbert space": 1, "Hilbert spaces": 1}, {"hilbert": (12, 0), "space": (0, 40)}, "Hilbert space"),
    ("brans dicke theory", {"brans-Dicke theory": 1, "Brans-Dicke theory": 1}, {"dicke": (5, 0)}, "Brans-Dicke theory"),
    ("graph neural network", {"Graph neural networks": 2, "graph neural networks": 1}, {"graph": (1, 30)}, "graph neural network"),
    # short words in capitals are acronyms, not a title shouting ("OWL FA: A Metamodeling Extension of OWL DL")
    ("owl dl", {"OWL DL": 3, "Owl Dl": 1}, {}, "OWL DL"),
    ("deep learning", {"DEEP LEARNING": 1}, {"deep": (0, 50)}, "deep learning"),
    ("data set", {"DATA SET": 1}, {"data": (0, 50)}, "data set"),
])
def test_a_name_is_written_as_the_corpus_writes_it(key, surfaces, truecase, name):
    assert _display_name(key, Counter(surfaces), truecase=truecase) == name


def test_truecase_counts_skip_sentence_starts():
    counts = truecase_counts(["Lie algebras are studied. The Lie algebra of a group; lie groups lie flat."], {"lie"})
    assert counts == {"lie": (1, 2)}


def test_generic_concepts_are_common_lower_case_words_and_padded_phrases():
    keys = {"feature", "theory", "query", "symmetry", "entropy", "netflix", "brane", "crowdsourcing",
            "supersymmetry", "explicit expression", "empirical comparison", "probabilistic framework",
            "retrieval performance", "2+1 dimension", "sentiment analysis", "social medium", "extra dimension"}
    assert generic_words(keys, names={"netflix"}) == {"feature", "theory", "query", "symmetry", "entropy",
                                                      "explicit expression", "empirical comparison",
                                                      "probabilistic framework", "retrieval performance", "2+1 dimension"}


def test_names_ending_in_s_stay_whole_and_capital_plural_acronyms_expand():
    assert concept_key("multinomial Naive Bayes") == "multinomial naive bayes"
    assert concept_key("Navier-Stokes equations") == "navier stokes equation"
    assert concept_key("paper mills") == "paper mill"
    table = _Acronyms({"MOOC": "massive open online course"})
    assert _expand("MOOCS", table) == _expand("MOOCs", table) == "massive open online course"


def test_a_papers_top_concepts_hold_one_concept_per_idea():
    papers = [Paper("a", "Networked team recommendation: team recommendation algorithms recommend teams.", "A"),
              Paper("b", "Team recommendation for experts.", "B")]
    keyphrases = {"a": _kp("networked team recommendation", "team recommendation algorithm", "team recommendation",
                           "team recommendation result", "expert finding", "theory"),
                  "b": _kp("team recommendation", "expert")}
    concepts, mentions = normalize_concepts(papers, keyphrases, top_n=10)
    ranked = [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == "a"]
    # the filler words go, "theory" is generic, and of the family "(networked) team recommendation"
    # the form another paper shares stands for it, in the family's place
    assert ranked == ["c:team recommendation", "c:expert finding"]
    assert [m.concept_id for m in mentions if m.paper_id == "b"] == ["c:team recommendation"]


def test_a_two_letter_acronym_inside_a_phrase_is_not_expanded_from_other_papers():
    papers = [Paper("el1", "Entity linking (EL) maps mentions to entities.", "A"),
              Paper("el2", "We study entity linking (EL) on tweets.", "B"),
              Paper("owl", "Reasoning in OWL EL ontologies is tractable.", "C")]
    keyphrases = {"el1": _kp("EL"), "el2": _kp("EL"), "owl": _kp("OWL EL ontologies")}
    concepts, mentions = normalize_concepts(papers, keyphrases)
    assert {m.concept_id for m in mentions if m.paper_id == "owl"} == {"c:owl el ontology"}


def test_an_abbreviation_beside_its_spelled_out_form_is_one_concept():
    papers = [Paper("a", "Renormalization group flows of Calabi-Yau manifolds; the RG flow and CY manifolds.", "A"),
              Paper("b", "The RG flow of a sigma model.", "B"),
              Paper("c", "Display ads and ad delivery; the DFS and its dataset file system.", "C"),
              Paper("d", "DFS of a graph.", "D")]
    keyphrases = {"a": _kp("renormalization group flows", "Calabi-Yau manifolds", "RG flow", "CY manifolds"),
                  "b": _kp("RG flow", "sigma model"),
                  "c": _kp("display ads", "ad delivery", "dataset file system", "DFS"),
                  "d": _kp("DFS", "graph traversal")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    linked = {p: [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == p] for p in "abcd"}
    assert linked["a"] == ["c:renormalization group flow", "c:calabi yau manifold"]
    # a phrase of two words or more is spelled out in every paper; a lone initialism only beside its long form
    assert linked["b"][0] == "c:renormalization group flow"
    assert linked["c"] == ["c:display ad", "c:ad delivery", "c:dataset file system"]
    assert "c:dfs" in linked["d"]


def test_a_misspelt_word_joins_the_concept_spelled_right():
    papers = [Paper(f"p{i}", "Noncommutative field theory and gauge symmetry.", str(i)) for i in range(10)]
    papers.append(Paper("typo", "Noncomutative field theory and the gauge symmmetry; dilaton fields.", "T"))
    keyphrases = {p.id: _kp("noncommutative field theory", "gauge symmetry", "dilation") for p in papers[:10]}
    keyphrases["typo"] = _kp("noncomutative field theory", "gauge symmmetry", "dilaton")
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    linked = sorted(m.concept_id for m in mentions if m.paper_id == "typo")
    # a doubled letter lost or typed twice is a typo; "dilaton" is a word of its own one letter from "dilation"
    assert linked == ["c:dilaton", "c:gauge symmetry", "c:noncommutative field theory"]


def test_a_word_swapped_for_a_synonym_is_no_second_concept_of_the_paper(real_embedder):
    papers = [Paper("a", "Text classification and text categorization; open strings and closed strings.", "A"),
              Paper("b", "Text categorization of news.", "B"), Paper("c", "Closed strings scatter.", "C")]
    keyphrases = {"a": _kp("text classification", "open strings", "text categorization", "closed strings"),
                  "b": _kp("text categorization"), "c": _kp("closed strings")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10, contain=False, embedder=real_embedder)
    linked = [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == "a"]
    # the model puts both pairs' words close; "open" and "closed" say opposite things
    assert linked == ["c:text classification", "c:open string", "c:closed string"]


def test_the_most_specific_shared_member_stands_for_its_family():
    papers = [Paper("a", "Extremal charged black holes emit Hawking radiation; charged black holes and black holes.", "A"),
              Paper("b", "Black holes evaporate.", "B"), Paper("c", "Charged black holes are stable.", "C")]
    keyphrases = {"a": _kp("extremal charged black holes", "Hawking radiation", "charged black holes", "black holes"),
                  "b": _kp("black holes"), "c": _kp("charged black holes")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=3, contain=False)
    a = sorted((m for m in mentions if m.paper_id == "a"), key=lambda m: m.rank)
    assert [m.concept_id for m in a] == ["c:charged black hole", "c:hawking radiation"]
    assert a[0].score == 1.0  # in the family's place, with its best score


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("We study learning deterministic regular expressions.", "deterministic regular expressions",
     "learning deterministic regular expressions"),
    ("Tools summarise XML documents.", "XML documents", "summarise XML documents"),
    ("Search engines-which rank pages-are popular. We study link analysis.", "link analysis", "engines-which"),
    ("Diversity—the coherence of lists.", "coherence", "Diversity—the coherence"),
])
def test_a_verb_or_a_dash_is_no_part_of_a_concept(text, wanted, unwanted):
    found = candidate_phrases(text)
    assert wanted in found and not any(unwanted in p for p in found)


def test_padding_goes_and_a_name_inside_a_phrase_keeps_its_capitals():
    assert generic_words({"small number", "primary concern", "case study"}) >= {"small number", "primary concern"}
    assert trim_filler("re-finding tasks") == "re-finding"
    name = _display_name("virginia tech department", Counter({"Virginia Tech department": 2}),
                         truecase={"tech": (3, 4), "virginia": (5, 0)})
    assert name == "Virginia Tech department"
    # but not a word the corpus writes in lower case: a field's name capitalized in passing
    name = _display_name("information retrieval research", Counter({"Information Retrieval research": 2}),
                         truecase={"information": (2, 90), "retrieval": (3, 60)})
    assert name == "information retrieval research"


def test_protected_notation_never_leaks_a_placeholder():
    found = candidate_phrases("The coset manifold SU(n+1)/SU(n) and the SU(2)/U(1) model; Bogomol'nyi/BPS states.")
    assert "coset manifold SU(n+1)/SU(n)" in found and not any("Kgnotq" in p for p in found)


def test_an_indexed_variable_and_a_verbal_gerund_start_no_concept():
    found = candidate_phrases("The mass M_c of the Z_2 orbifold grows. Managing vehicle data is hard.")
    assert "M_c" not in found and "Z_2 orbifold" in found and "vehicle data" in found


def test_a_one_word_concept_most_papers_have_is_the_field_itself():
    papers = [Paper(f"p{i}", f"The Web and topic {i} on the Web.", "T") for i in range(40)]
    keyphrases = {p.id: _kp("Web", f"topic {i} model", "graph drawing") for i, p in enumerate(papers)}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert "c:web" not in concepts and "c:graph drawing" in concepts


def test_a_concept_met_as_an_acronym_is_named_as_its_definition_writes_it():
    papers = [Paper("a", "The Bogomol'nyi-Prasad-Sommerfield (BPS) bound holds.", "A"),
              Paper("b", "BPS states saturate the BPS bound.", "B")]
    keyphrases = {"a": _kp("BPS"), "b": _kp("BPS")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert concepts["c:bogomol nyi prasad sommerfield"].name == "Bogomol'nyi-Prasad-Sommerfield"


def test_prefixed_adjectives_alone_and_symmetry_breaking():
    found = candidate_phrases("Spontaneous symmetry breaking is non-perturbative; self-dual solutions exist.")
    assert "Spontaneous symmetry breaking" in found and "self-dual solutions" in found
    assert "non-perturbative" not in found


def test_a_phrase_with_an_acronym_keeps_its_key_spelled_out_and_its_name_as_written():
    # one concept with every spelling ("Becchi-Rouet-Stora-Tyutin operator" would join it), named as
    # the texts write it: no text writes the long form of "BRST operator", physicists never do
    papers = [Paper("a", "The Becchi-Rouet-Stora-Tyutin (BRST) symmetry is exact.", "A"),
              Paper("b", "The BRST operator is nilpotent.", "B"), Paper("c", "A BRST operator.", "C")]
    keyphrases = {"a": _kp("BRST symmetry"), "b": _kp("BRST operator"), "c": _kp("BRST operator")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert concepts["c:becchi rouet stora tyutin operator"].name == "BRST operator"
    papers.append(Paper("d", "The Becchi-Rouet-Stora-Tyutin operator acts.", "D"))
    keyphrases["d"] = _kp("Becchi-Rouet-Stora-Tyutin operator")
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert concepts["c:becchi rouet stora tyutin operator"].name == "Becchi-Rouet-Stora-Tyutin operator"


@pytest.mark.parametrize("text, wanted", [
    ("The (2+1)-dimensional Georgi-Glashow model is confining.", "(2+1)-dimensional Georgi-Glashow model"),
    ("We study the 't Hooft large-N limit.", "'t Hooft large-N limit"),
])
def test_dimensions_and_particles_stay_in_the_name(text, wanted):
    assert wanted in candidate_phrases(text)


@pytest.mark.parametrize("phrase, key", [("vortices", "vortex"), ("tori", "torus"), ("Chern-Simons Higgs", "chern simons higgs")])
def test_irregular_plurals_and_higgs(phrase, key):
    assert concept_key(phrase) == key


def _topic_corpus(n: int = 20, shared: int = 20):
    """``n`` papers on four topics (orthogonal document vectors per topic); "user study" is used
    by the first ``shared`` papers, of every topic, "query expansion" by the retrieval papers
    among them; the others have keyphrases of their own."""
    topics = ["retrieval", "vision", "graphs", "crypto"]
    papers, keyphrases, rows = [], {}, []
    for i in range(n):
        topic = topics[i % 4]
        pid = f"p{i}"
        own = ["query expansion"] if topic == "retrieval" and i < shared else [f"{topic} method {i}"]
        papers.append(Paper(pid, f"A paper on {topic}.", f"On {topic} {i}"))
        keyphrases[pid] = _kp(*own, *(["user study"] if i < shared else []))
        v = np.zeros(8, dtype=np.float32)
        v[i % 4], v[4 + i % 4] = 1.0, 0.2 * (i // 4)
        rows.append(v / np.linalg.norm(v))
    return papers, keyphrases, np.array(rows)


def test_cohesion_separates_a_topic_from_a_word_papers_about_anything_use():
    papers, keyphrases, vectors = _topic_corpus()
    rows = {key: [i for i, p in enumerate(papers) if any(concept_key(k.phrase) == key for k in keyphrases[p.id])]
            for key in ("query expansion", "user study")}
    found = cohesion(rows, vectors, min_papers=5)
    assert found["query expansion"] > 0.5
    assert found["user study"] < 0.05
    # the same papers drawn at random from the corpus: near 0 whatever their number
    assert abs(cohesion({"all": list(range(20))}, vectors, min_papers=5)["all"]) < 1e-6


def test_a_concept_whose_papers_share_nothing_else_is_dropped():
    papers, keyphrases, vectors = _topic_corpus(n=240, shared=24)
    with_vectors, _ = normalize_concepts(papers, keyphrases, doc_vectors=vectors)
    without, _ = normalize_concepts(papers, keyphrases)
    assert "c:user study" in without and "c:user study" not in with_vectors
    assert "c:query expansion" in with_vectors
    # a thesaurus entry keeps it: the user's word wins over every automatic rule
    kept, _ = normalize_concepts(papers, keyphrases, doc_vectors=vectors, thesaurus={"user study": "user study"})
    assert "c:user study" in kept


def test_containment_links_a_concept_only_where_it_heads_the_noun_phrase():
    from kg.normalize.containment import _text_keys

    text = "Spectator is an open source document viewer. Video diffusion models outperform GANs."
    found = _text_keys(text, {"source document", "open source", "diffusion model"}, {"document", "source", "model"})
    assert found == {"diffusion model": "diffusion models"}


def test_a_filler_word_after_an_expanded_acronym_goes_too():
    papers = [Paper("a", "Natural language processing (NLP) tasks need NLP tasks.", "T1"),
              Paper("b", "We study natural language processing.", "T2")]
    concepts, _ = normalize_concepts(papers, {"a": _kp("NLP tasks"), "b": _kp("natural language processing")})
    assert set(concepts) == {"c:natural language processing"}


def test_a_papers_text_links_no_acronym_it_defines_as_a_second_concept():
    # ACM-CR: a paper that applies "the Expectation-Maximization (EM) algorithm" listed "expectation-maximization (EM)"
    # and "EM algorithm", the second linked because its text writes the words other papers hold: near-duplicates
    papers = [Paper("a", "Applying the Expectation-Maximization (EM) algorithm to text classification. The EM "
                         "algorithm and naive Bayes.", "Parallel learning"),
              Paper("b", "We run the EM algorithm on mixtures.", "B"), Paper("c", "An EM algorithm for clicks.", "C")]
    keyphrases = {"a": _kp("Expectation-Maximization", "text classification"), "b": _kp("EM algorithm", "mixture"),
                  "c": _kp("EM algorithm", "click")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10)
    assert sorted(m.concept_id for m in mentions if m.paper_id == "a") == ["c:expectation maximization",
                                                                            "c:text classification"]
    assert "c:em algorithm" in {m.concept_id for m in mentions if m.paper_id == "b"}


def test_the_leading_words_of_a_higher_ranked_name_are_no_second_concept_of_the_paper():
    papers = [Paper(p, "Text.", "T") for p in "ab"]
    keyphrases = {"a": _kp("query intent prediction", "query intent", "relevance judgment"),
                  "b": _kp("query intent", "relevance judgment")}
    _, mentions = normalize_concepts(papers, keyphrases)
    order = [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == "a"]
    assert order == ["c:query intent prediction", "c:relevance judgment"]
    assert [m.concept_id for m in mentions if m.paper_id == "b"][0] == "c:query intent"


def test_what_an_adverb_qualifies_is_no_part_of_the_concept():
    found = candidate_phrases("We study asymptotically flat black holes and strongly coupled gauge theories.")
    assert "black holes" in found and "gauge theories" in found
    assert not any(p.startswith(("flat", "coupled")) for p in found)


@pytest.mark.parametrize("phrase, key", [("Chern Simons", "chern simons"), ("Chern Simons theory", "chern simons theory"),
                                         ("Neural Networks", "neural network"), ("Amazon Reviews", "amazon review")])
def test_a_two_word_name_written_with_a_space_is_no_plural(phrase, key):
    assert concept_key(phrase) == key


def test_formulas_and_one_letter_symbols_are_no_part_of_a_concept():
    found = candidate_phrases("The tachyon potential V(T) on the state space W(p) with q=0,1,2,3 "
                              "for each stationary state ψ_q∈ W(2) of the U(1) gauge theory.")
    assert found == ["tachyon potential", "state space", "stationary state", "U(1) gauge theory"]


def test_a_person_of_the_corpus_is_no_concept_but_an_idea_named_after_one_is():
    papers = [Paper("a", "Maldacena showed the Maldacena conjecture. Joseph Bonneau taught Bitcoin.", "T",
                    authors=("J. Maldacena",)),
              Paper("b", "Maldacena conjecture and Bitcoin, after Maldacena.", "U", authors=("Joseph Bonneau",))]
    keyphrases = {"a": _kp("Maldacena", "Maldacena conjecture", "Joseph Bonneau", "Bitcoin"),
                  "b": _kp("Maldacena conjecture", "Bitcoin", "Maldacena")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert {"c:maldacena conjecture", "c:bitcoin"} <= set(concepts)
    assert not {"c:maldacena", "c:joseph bonneau"} & set(concepts)


def test_an_author_whose_name_ends_in_s_is_no_concept_either():
    # "Connes" keys as "conne": the corpus never writes that word, but writes "Connes" as a name
    papers = [Paper("a", "We follow Connes and the approach of Connes to spectral triples.", "T", authors=("A. Connes",)),
              Paper("b", "In the spectral triples of Connes, after Connes.", "U", authors=("B. Other",))]
    keyphrases = {"a": _kp("Connes", "spectral triples"), "b": _kp("spectral triples", "Connes")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert "c:spectral triple" in concepts and "c:conne" not in concepts


@pytest.mark.parametrize("title, wanted, unwanted", [
    ("Incorporating User Preferences into Click Models", ["User Preferences", "Click Models"], "Incorporating User Preferences"),
    ("Exploiting Click-through Data for Entity Retrieval", ["Click-through Data", "Entity Retrieval"], "Exploiting Click-through Data"),
    ("String Theory on Tori", ["String Theory"], None),
])
def test_a_title_that_starts_with_a_verb_gives_its_object(title, wanted, unwanted):
    found = [c.phrase for c in find_candidates("Nothing here.", title=title) if c.in_title]
    assert all(p in found for p in wanted) and unwanted not in found


def test_keyphrases_of_little_relevance_are_no_concepts_after_the_first_few():
    papers = [Paper(f"p{i}", "Text.", "T") for i in range(200)]
    scores = [0.8, 0.5, 0.25, 0.2, 0.1]
    names = ["alpha topic", "beta topic", "gamma topic", "delta topic", "epsilon topic"]
    keyphrases = {p.id: [Keyphrase(n, s) for n, s in zip(names, scores)] for p in papers}
    _, mentions = normalize_concepts(papers, keyphrases, min_relevance=0.3, min_concepts=3)
    assert sorted(m.concept_id for m in mentions if m.paper_id == "p0") == ["c:alpha topic", "c:beta topic", "c:gamma topic"]
    _, every = normalize_concepts(papers, keyphrases, min_relevance=None)
    assert len([m for m in every if m.paper_id == "p0"]) == 5
    # a reading list keeps every link
    _, few = normalize_concepts(papers[:20], {p.id: keyphrases[p.id] for p in papers[:20]}, min_relevance=0.3)
    assert len([m for m in few if m.paper_id == "p0"]) == 5


def test_an_adjective_alone_is_no_concept():
    keys = {"isomorphic", "covariant", "tachyonic", "integrable", "soliton", "instanton", "orbifold"}
    assert generic_words(keys) == {"isomorphic", "covariant", "tachyonic", "integrable"}


def test_a_link_by_containment_must_be_relevant_to_the_paper():
    # three papers hold "query expansion"; two others only write it in their text: one is about
    # it (its document vector is the phrase's), one mentions it in passing (orthogonal)
    papers = [Paper(f"p{i}", f"We study topic {i} in depth.", f"Topic {i}") for i in range(200)]
    papers[150] = Paper("p150", "We improve query expansion for short queries.", "Short queries")
    papers[151] = Paper("p151", "Unlike query expansion, we index music scores.", "Music scores")
    keyphrases = {p.id: [Keyphrase(f"topic{i} study", 0.7)] for i, p in enumerate(papers)}
    for i in range(3):
        keyphrases[f"p{i}"] = [Keyphrase("query expansion", 0.7)]
    eye = np.eye(4, dtype=np.float32)
    docs = np.tile(eye[2], (200, 1))
    docs[:3] = docs[150] = eye[0]
    docs[151] = eye[1]
    vectors = {"query expansion": eye[0], **{f"topic{i} study": eye[2] for i in range(200)}}

    def linked(**judge):
        _, mentions = normalize_concepts(papers, keyphrases, top_n=10, vectors=vectors, **judge)
        return {m.paper_id for m in mentions if m.concept_id == "c:query expansion"}

    assert {"p150", "p151"} <= linked()  # nothing to judge by: every containment link stays
    assert linked(doc_vectors=docs, min_relevance=0.4, min_cohesion=-1.0) == {"p0", "p1", "p2", "p150"}


def test_a_paper_lists_no_second_wording_of_an_idea_with_another_head():
    papers = [Paper(f"p{i}", "We recognise toponyms in streaming news.", "Toponyms") for i in range(3)]
    names = ["multifaceted toponym recognition", "toponym recognition system", "streaming news",
             "rotary position embedding", "relative position embedding"]
    keyphrases = {p.id: [Keyphrase(n, 0.9 - 0.1 * i) for i, n in enumerate(names)] for p in papers}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10)
    linked = [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == "p0"]
    assert "c:toponym recognition system" not in linked
    assert {"c:multifaceted toponym recognition", "c:streaming news", "c:rotary position embedding",
            "c:relative position embedding"} <= set(linked)


@pytest.mark.parametrize("text, wanted", [
    ("We study (2+1) dimensional gauge theory.", "(2+1)-dimensional gauge theory"),
    ("The (d+1) dimensional bulk is smooth.", "(d+1)-dimensional bulk"),
    ("The (d-1)-dimensional boundary theory is local.", "(d-1)-dimensional boundary theory"),
    ("Black holes of 5 dimensional KK theory rotate.", "5-dimensional KK theory"),
    ("The 11 dimensional membrane wraps a cycle.", "11-dimensional membrane"),
    ("A dimensional analysis suffices.", "dimensional analysis"),
])
def test_a_dimension_count_stays_with_dimensional(text, wanted):
    assert wanted in candidate_phrases(text)


def test_the_events_of_scholarly_life_are_no_concepts():
    keys = {"1st workshop", "invited talk", "plenary session", "keynote", "online community",
            "conversational interaction system", "tutorial"}
    assert generic_words(keys) == {"1st workshop", "invited talk", "plenary session", "keynote", "tutorial"}


@pytest.mark.parametrize("title, expected", [
    ("Mining Heterogeneous Information Networks: The next Frontier", ["Heterogeneous Information Networks", "next Frontier"]),
    ("MONIC: Modeling and Monitoring Cluster Transitions", ["Modeling", "Cluster Transitions"]),
    ("Models for Learning Sentence Representation with Context", ["Models", "Sentence Representation", "Context"]),
    ("Probabilistic Models for Recommender Systems with Rich Contextual and Content Information",
     ["Probabilistic Models", "Recommender Systems", "Content Information"]),
    ("Bias in Conversational Search", ["Bias", "Conversational Search"]),
    ("String Theory on Calabi-Yau Manifolds", ["String Theory", "Calabi-Yau Manifolds"]),
    ("Training Data Selection for Machine Translation", ["Training Data Selection", "Machine Translation"]),
])
def test_title_case_hides_no_verb_or_adjective(title, expected):
    found = [c.phrase for c in find_candidates("", title=title)]
    assert found == expected


def test_a_gerund_that_opens_a_clause_is_no_part_of_the_concept():
    found = candidate_phrases("Recall improves by mining frequent patterns, with training data for learning "
                              "sentence representations. The Ising model and privacy-preserving methods.")
    assert found == ["frequent patterns", "training data", "sentence representations", "Ising model",
                     "privacy-preserving methods"]
    assert candidate_phrases("It is privacy-preserving; fine-tuning helps.") == ["fine-tuning"]


def test_an_acronym_a_corpus_capitalizes_keeps_its_capitals():
    assert _display_name("conversational ai system", Counter({"Conversational AI systems": 1}),
                         truecase={"ai": (50, 0)}) == "conversational AI system"


def test_number_words_and_symbols_stay_in_physics_names():
    found = candidate_phrases("the O(3) nonlinear σ-model, T-duality of p-branes and eleven dimensional supergravity")
    assert found == ["O(3) nonlinear σ-model", "T-duality", "p-branes", "eleven-dimensional supergravity"]


def test_possessive_names_plural_after_of_and_participles_in_titles():
    assert candidate_phrases("the two-graviton Green's function and the paper's results") == [
        "two-graviton Green's function", "paper", "results"]
    assert concept_key("bag of visual words") == "bag of visual words"
    assert concept_key("elliptic genera") == "elliptic genus"
    assert [c.phrase for c in find_candidates("", title="Matrix Factorization Revisited")] == ["Matrix Factorization"]
    assert candidate_phrases("We discover comparable entities.") == ["comparable entities"]
    assert candidate_phrases("A unified probabilistic model and an information theoretic view, unified probabilistic.") == [
        "unified probabilistic model", "information theoretic view"]


def test_praise_and_incidental_modifiers_leave_the_name():
    assert candidate_phrases("A successful dictionary attack on a rich scientific knowledge base, "
                             "an original email and a commercial search engine.") == [
        "dictionary attack", "scientific knowledge base", "email", "search engine"]


def test_a_capitalized_adverb_after_a_lost_full_stop_ends_the_phrase():
    found = candidate_phrases("We generalize the second Randall-Sundrum scenario Explicitly, we take the bulk. "
                              "Recently Proposed Methods fail.")
    assert "second Randall-Sundrum scenario" in found
    assert not any("Explicitly" in p or "Recently" in p for p in found)


def test_an_adverb_before_a_name_particle_leaves_the_name_whole():
    found = candidate_phrases("We consider asymptotically anti-de Sitter black holes and asymptotically flat black holes.")
    assert "anti-de Sitter black holes" in found and "Sitter black holes" not in found


def test_an_incidental_modifier_on_one_papers_phrase_joins_the_shared_concept():
    papers = [Paper(id=f"p{i}", title="", abstract="matrix factorization models") for i in range(4)]
    keyphrases = {"p0": _kp("standard matrix factorization models"), "p1": _kp("matrix factorization model"),
                  "p2": _kp("matrix factorization models"), "p3": _kp("standard model", "general relativity")}
    concepts, mentions = normalize_concepts(papers, keyphrases, stoplist=(), contain=False)
    assert "c:standard matrix factorization model" not in concepts
    assert {m.paper_id for m in mentions if m.concept_id == "c:matrix factorization model"} == {"p0", "p1", "p2"}
    assert {"c:standard model", "c:general relativity"} <= set(concepts)  # terms keep their modifier


def test_sheaves_are_sheaf_not_sheave():
    assert concept_key("coherent sheaves") == "coherent sheaf"


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("A distance metric is learned with a heuristic.", ["distance metric", "heuristic"], ["distance"]),
    ("We study the Fisher information metric.", ["Fisher information metric"], ["Fisher information"]),
    ("It is an integral ontology-based. Routing is automata based. States are quantum optical.",
     [], ["integral ontology-based", "automata based", "quantum optical"]),
    ("We propose a graph based semi-supervised. It is a weakly-supervised.", [],
     ["graph based semi-supervised", "weakly-supervised"]),
    ("The solutions are in general anisotropic. It describes the minimal bosonic, massless truncation of the "
     "D=4 heterotic. An infographic helps.", ["infographic"], ["general anisotropic", "minimal bosonic", "heterotic"]),
])
def test_adjectives_end_no_phrase_and_ic_nouns_are_nouns(text, wanted, unwanted):
    found = candidate_phrases(text)
    assert all(p in found for p in wanted) and not any(p in found for p in unwanted), found


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("Such a diversity of intents can influence user satisfaction.", ["user satisfaction"], ["influence user satisfaction"]),
    ("We study how social networks influence user behavior.", ["social networks", "user behavior"],
     ["social networks influence", "influence user behavior"]),
    ("Online services use cookies to track users.", ["cookies", "users"], ["track users"]),
    ("Quality is measured on a Twitter-dataset consisting of links.", ["links"], ["Twitter-dataset consisting"]),
    ("A theory of self-dual world-volumes living in a target space.", ["self-dual world-volumes", "target space"],
     ["self-dual world-volumes living"]),
    ("Social influence and influence maximization are studied with large-scale data mining.",
     ["Social influence", "influence maximization", "large-scale data mining"], []),
])
def test_a_verb_read_as_a_noun_and_a_clause_participle_end_a_phrase(text, wanted, unwanted):
    found = candidate_phrases(text)
    assert all(p in found for p in wanted) and not any(p in found for p in unwanted), found


def test_an_incidental_modifier_goes_from_a_longer_phrase_one_or_two_papers_write():
    df = {"pure content-based recommender system": 1, "multiple social network": 2, "social network": 40,
          "special black hole": 1, "standard model": 9, "large language model": 2, "large language": 1,
          "effective field theory": 3}
    assert incidental_modifiers(df) == {"pure content-based recommender system": "content-based recommender system",
                                        "multiple social network": "social network", "special black hole": "black hole"}


def test_kind_nouns_after_one_modifier_are_one_idea_of_the_paper():
    papers = [Paper(p, "XQuery programs.", "T") for p in "abc"]
    keyphrases = {"a": _kp("XQuery program", "query expansion", "XQuery language", "query suggestion", "XQuery processor"),
                  "b": _kp("XQuery language", "query suggestion"), "c": _kp("XQuery processor", "query expansion")}
    _, mentions = normalize_concepts(papers, keyphrases, stoplist=(), contain=False)
    order = [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == "a"]
    assert order == ["c:xquery program", "c:query expansion", "c:query suggestion"]
    assert [m.concept_id for m in mentions if m.paper_id == "b"][0] == "c:xquery language"  # its own idea there


@pytest.mark.parametrize("key, surfaces, truecase, name", [
    ("resource description framework data", {"Resource Description Framework data": 10, "RDF data": 10},
     {"resource": (3, 16), "description": (5, 8), "framework": (5, 106)}, "resource description framework data"),
    ("markov chain monte carlo method", {"Markov Chain Monte Carlo methods": 2},
     {"markov": (9, 0), "chain": (1, 30), "monte": (4, 0), "carlo": (4, 0)}, "Markov Chain Monte Carlo method"),
    ("eisenstein series", {"Eisenstein series": 1}, {"eisenstein": (1, 0)}, "Eisenstein series"),
    ("supersymmetry breaking", {"Supersymmetry breaking": 1}, {"supersymmetry": (1, 40)}, "supersymmetry breaking"),
    ("system design", {"System design": 1}, {"system": (1, 0)}, "system design"),
    ("taipei city", {"Taipei City": 1}, {"taipei": (2, 0), "city": (3, 20)}, "Taipei city"),
])
def test_a_name_is_one_case_and_a_rare_word_the_corpus_capitalizes_is_a_name(key, surfaces, truecase, name):
    assert _display_name(key, Counter(surfaces), truecase=truecase) == name


def test_papers_linked_by_containment_name_the_concept_as_they_write_it():
    texts = ["Rdf Data", "Indexing RDF data.", "Storing RDF data in tables.", "RDF data on the Web."]
    papers = [Paper(f"p{i}", t, "T") for i, t in enumerate(texts)]
    keyphrases = {"p0": _kp("Rdf Data"), "p1": _kp("index structure"), "p2": _kp("relational table"), "p3": _kp("Web page")}
    concepts, mentions = normalize_concepts(papers, keyphrases, stoplist=(), top_n=10)
    assert {m.paper_id for m in mentions if m.concept_id == "c:rdf data"} == {"p0", "p1", "p2", "p3"}
    assert concepts["c:rdf data"].name == "RDF data"  # as three papers write it, not as the one keyphrase


def test_one_word_before_a_vague_head_is_a_generic_phrase():
    found = generic_words({"contextual information", "xml information", "video content", "supergravity solution",
                           "mutual information", "fisher information", "information extraction", "content analysis"})
    assert found == {"contextual information", "xml information", "video content", "supergravity solution"}


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("The model exploits document structure.", ["document structure"], ["exploits document structure"]),
    ("When search engines return results, users behavior analysis helps.", ["search engines", "behavior analysis"],
     ["search engines return", "users behavior analysis"]),
    ("News articles feed materials science and time series models.", ["News articles", "materials science",
                                                                       "time series models"], []),
])
def test_a_plural_before_another_noun_is_a_subject_and_its_verb_no_part_of_the_concept(text, wanted, unwanted):
    found = candidate_phrases(text)
    assert all(p in found for p in wanted) and not any(p in found for p in unwanted), found


def test_forms_found_by_containment_case_the_words_but_never_drop_the_names_dashes():
    evidence = Counter({"Yang Baxter equation": 4, "RDF data": 9})
    assert _display_name("yang baxter equation", Counter({"Yang-Baxter equation": 1}), evidence=evidence) == "Yang-Baxter equation"
    assert _display_name("rdf data", Counter({"Rdf Data": 2}), evidence=evidence) == "RDF data"


@pytest.mark.parametrize("phrase, key", [("complex inviscid Burgers", "complex inviscid burgers"),
                                         ("digital humanities", "digital humanities")])
def test_a_name_or_field_ending_in_s_is_no_plural(phrase, key):
    assert concept_key(phrase) == key


def test_multiple_before_one_word_names_no_kind_of_it():
    from kg.normalize.generic import incidental_modifiers

    assert incidental_modifiers({"multiple timeline": 1, "multiple sclerosis": 6, "several query": 2}) == {
        "multiple timeline": "timeline", "several query": "query"}


def test_a_titles_verb_after_to_and_a_verb_after_to_in_the_text_start_no_concept():
    found = [c.phrase for c in find_candidates("We propose an approach to measure similarities among papers.",
                                               title="Using Data Mining Techniques to Analyze RFID Data")]
    assert "RFID Data" in found and "Analyze RFID Data" not in found
    assert "similarities" in found and "measure similarities" not in found
    assert "Model Compression" in [c.phrase for c in find_candidates("x", title="From Data to Model Compression")]


def test_a_filler_head_after_an_adjective_stays_so_no_bare_adjective_is_left():
    assert trim_filler("privacy-aware techniques") == "privacy-aware techniques"
    assert "privacy-aware technique" in generic_words({"privacy-aware technique", "query-based method"})
    assert trim_filler("team recommendation algorithm") == "team recommendation"
    assert trim_filler("1/4 BPS solutions") == "1/4 BPS solutions"  # BPS qualifies, like an adjective
    assert trim_filler("non-BPS states") == "non-BPS states"
    # the lexicon knows "supervised" and "ranked" as past tenses: the participle qualifies all the same
    assert trim_filler("semi-supervised framework") == "semi-supervised framework"
    assert trim_filler("top-ranked results") == "top-ranked results"
    assert trim_filler("1/4 Bogomol'nyi-Prasad-Sommerfield solutions").endswith("solutions")  # BPS spelled out


def test_a_name_some_form_joins_with_a_dash_keeps_the_dash():
    surfaces = Counter({"non-supersymmetric Yang Mills theory": 2, "Non-Supersymmetric Yang-Mills Theory": 1})
    assert _display_name("non supersymmetric yang mills theory", surfaces) == "non-supersymmetric Yang-Mills theory"
    assert _display_name("p brane action", Counter({"p brane actions": 2, "effective p-brane action": 1})) == "p-brane action"


def test_no_key_starts_inside_a_hyphenated_word_with_a_stop_word():
    from kg.normalize.containment import _text_keys

    text = "We handle out-of-vocabulary words and state-of-the-art methods for vocabulary words."
    assert _text_keys(text, {"vocabulary word", "art method"}, {"word", "method"}) == {"vocabulary word": "vocabulary words"}


def test_a_word_after_an_article_is_no_verb():
    assert "reverse engineering attack" in candidate_phrases("We describe a reverse engineering attack on the model.")


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("Web searchers often exhibit directed search behaviors.", ["directed search behaviors"],
     ["exhibit directed search behaviors"]),
    ("We first compare and contrast search behaviors along many dimensions.", ["search behaviors"],
     ["contrast search behaviors"]),
    ("Human assessors manually mapping timeline items is costly.", ["timeline items"], ["mapping timeline items"]),
    ("There are many companies offering opinion mining services.", ["opinion mining services"],
     ["offering opinion mining services"]),
    ("Spatial Compactness Meets Topical Consistency", ["Spatial Compactness", "Topical Consistency"],
     ["Spatial Compactness Meets Topical Consistency"]),
    ("The mentioned graph structures have grown.", ["graph structures"], ["mentioned graph structures"]),
    ("Applications to BV-quantization and BFV-BRST quantization are reviewed.",
     ["BV-quantization", "BFV-BRST quantization"], ["BV-quantization quantization"]),
])
def test_a_verb_after_its_adverb_subject_or_partner_starts_no_concept(text, wanted, unwanted):
    found = candidate_phrases(text)
    assert all(p in found for p in wanted) and not any(p in found for p in unwanted), found


def test_counted_plurals_objects_of_prepositions_and_lone_acronyms_keep_their_form():
    assert concept_key("four dimensions") == "four dimensions" and concept_key("extra dimensions") == "extra dimension"
    assert concept_key("conference proceedings") == "conference proceedings"  # a plural-only noun
    assert concept_key("3-manifolds") == "3 manifold" and concept_key("10 dimensions") == "10 dimensions"
    assert concept_key("Bidirectional Encoder Representations from Transformers").endswith("from transformers")
    assert _display_name("mems application", Counter({"MEMS applications": 1})) == "MEMS application"
    assert _display_name("n 2 sym", Counter({"N=2 SYM": 1})) == "N=2 SYM"
    assert _display_name("data mining", Counter({"DATA MINING": 1, "data mining": 1})) == "data mining"


def test_an_adjective_left_by_a_filler_head_is_no_concept():
    assert trim_filler("non-supersymmetric case") == "non-supersymmetric case"
    assert "non supersymmetric case" in generic_words({"non supersymmetric case", "supersymmetric gauge theory"})


def test_a_compound_adjective_keeps_its_modifier_and_people_plurals_keep_the_head():
    assert incidental_modifiers({"large scale geographical visualization": 1, "small scale server": 1,
                                 "pure content based recommender system": 1}) == {
        "pure content based recommender system": "content based recommender system"}
    assert concept_key("Large-Scale Geographical Visualization") == "large scale geographical visualization"
    assert concept_key("women students") == "women students" and concept_key("female students") == "female student"


def test_spellings_of_one_compound_number_or_dimension_are_one_concept_named_as_most_write_it():
    papers = [Paper("a", "Multi-task learning shares layers; two-dimensional gravity.", "A"),
              Paper("b", "Multi-task learning for ranking in 2D gravity.", "B"),
              Paper("c", "Multitask learning again, and 2D gravity.", "C"),
              Paper("d", "Multi-task learning and e-commerce.", "D"), Paper("e", "Electronic commerce sites.", "E")]
    keyphrases = {"a": _kp("multi-task learning", "two-dimensional gravity"), "b": _kp("multi-task learning", "2D gravity"),
                  "c": _kp("multitask learning", "2D gravity"), "d": _kp("multi-task learning", "e-commerce"),
                  "e": _kp("electronic commerce")}
    concepts, mentions = normalize_concepts(papers, keyphrases)
    linked = {(m.paper_id, m.concept_id) for m in mentions}
    assert {("c", "c:multi task learning"), ("a", "c:2d gravity"), ("d", "c:e commerce")} <= linked, linked
    assert concepts["c:multi task learning"].name == "multi-task learning"
    assert concepts["c:2d gravity"].name == "2D gravity"
    assert not {"c:multitask learning", "c:two dimensional gravity"} & set(concepts)


def test_british_spelling_and_greek_letters_are_spellings_of_one_concept():
    papers = [Paper("a", "The O(3) sigma model on a lattice and free field realization.", "Sigma models"),
              Paper("b", "The nonlinear σ-model and a free field realisation.", "σ-models"),
              Paper("c", "A sigma model in two dimensions; free field realization.", "C")]
    keyphrases = {"a": _kp("sigma model", "free field realization"), "b": _kp("σ-model", "free field realisation"),
                  "c": _kp("sigma model", "free field realization")}
    concepts, mentions = normalize_concepts(papers, keyphrases)
    linked = {(m.paper_id, m.concept_id) for m in mentions}
    assert {("b", "c:sigma model"), ("b", "c:free field realization")} <= linked, linked
    assert concepts["c:sigma model"].name == "sigma model"
    assert not {"c:σ model", "c:free field realisation"} & set(concepts)


def test_a_modifier_written_as_notation_or_a_number_stays_in_an_acronyms_name():
    papers = [Paper("a", "We study N=2 QCD with quarks.", "A"), Paper("b", "Four-dimensional QCD confines.", "B"),
              Paper("c", "Quantum chromodynamics (QCD) is the theory of quarks.", "C")]
    keyphrases = {"a": _kp("N=2 QCD"), "b": _kp("four-dimensional QCD"), "c": _kp("QCD")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    names = {c.name for c in concepts.values()}
    assert {"N=2 QCD", "four-dimensional QCD"} <= names, names


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("Past work shows that people exhibit different conversational styles.", ["conversational styles"],
     ["people exhibit different conversational styles"]),
    ("These users are hard to profile new users.", [], ["profile new users"]),
    ("A hybrid system which combined metadata and content-based indexing.", ["hybrid system"], ["combined metadata"]),
    ("Given a dynamic biological graph modeling a given disease progression.", ["dynamic biological graph"],
     ["dynamic biological graph modeling"]),
    ("Skylines matter in multi-criteria decision making applications.",
     ["multi-criteria decision making applications"], ["multi-criteria decision"]),
    ("How Do People Interact in Conversational Search Tasks", [], ["People Interact"]),
    ("When Do Data Mining Results Violate Privacy?", ["Data Mining Results", "Privacy"],
     ["Data Mining Results Violate Privacy"]),
    ("Semantic Components Enhance Retrieval of Domain-Specific Documents", ["Semantic Components"],
     ["Semantic Components Enhance Retrieval"]),
    ("Mind the Data Skew: Distributed Inferencing", ["Data Skew"], []),
    ("We estimate the a priori relevance of documents.", ["a priori relevance"], ["priori relevance"]),
])
def test_a_verb_after_a_subject_to_which_or_before_an_article_ends_the_concept(text, wanted, unwanted):
    found = candidate_phrases(text)
    assert all(p in found for p in wanted) and not any(p in found for p in unwanted), found


def test_an_acronym_defined_by_an_apposition_joins_its_long_form():
    papers = [Paper("a", "This paper proposes HNN, a holistic neural network structure for CTR prediction.", "A"),
              Paper("b", "A holistic neural network for ads.", "B")]
    keyphrases = {"a": _kp("holistic neural network", "HNN"), "b": _kp("holistic neural network")}
    concepts, mentions = normalize_concepts(papers, keyphrases)
    assert [m.concept_id for m in mentions if m.paper_id == "a"] == ["c:holistic neural network"]
    assert concepts["c:holistic neural network"].acronym == "HNN"


def test_a_reworded_concept_below_the_same_words_is_left_out():
    papers = [Paper("a", "Effective query expansion: the expanded query and trust-based, trust-aware recommendation.", "A")]
    keyphrases = {"a": _kp("query expansion", "expanded query", "trust-based recommendation", "trust-aware recommendation")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10)
    assert [m.concept_id for m in mentions] == ["c:query expansion", "c:trust based recommendation"]


def test_a_phrase_the_corpus_writes_capitalized_is_named_as_a_proper_name():
    texts = ["We publish on the Semantic Web.", "Search the Semantic Web and the World Wide Web.",
             "Ontologies for the Semantic Web, a hidden Markov model.", "A semantic web of links.",
             "Crawling the Semantic Web; a Hidden Markov Model.", "A hidden Markov model and hidden Markov models.",
             "On semantic parsing, semantic roles, semantic similarity and semantic search.",
             "More semantic parsing with semantic roles, semantic frames and semantic search."]
    papers = [Paper(str(i), text, f"Paper {i}") for i, text in enumerate(texts)]
    keyphrases = {"0": _kp("semantic web"), "3": _kp("semantic web"), "2": _kp("hidden Markov model"),
                  "5": _kp("hidden Markov models")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    # "semantic" alone is a common word these texts write in lower case: the phrase makes the name
    assert concepts["c:semantic web"].name == "Semantic Web"
    assert concepts["c:hidden markov model"].name == "hidden Markov model"


def test_a_name_half_its_papers_define_with_an_acronym_is_still_a_proper_name():
    # ACM-CR: "Linked Open Data" is written so in 50 of its 60 places, 24 of them "Linked Open Data (LOD)"; counting
    # those definitions as lower case named the concept "linked open data" (29 papers)
    texts = ["We publish Linked Open Data (LOD) for museums.", "Linked Open Data (LOD) links datasets.",
             "A crawler for Linked Open Data (LOD).", "Querying the Linked Open Data at scale.",
             "Quality of Linked Open Data sources.", "We rank the Linked Open Data cloud.",
             "Browsing linked open data.", "We fit a Hidden Markov Model (HMM).", "A Hidden Markov Model (HMM) here.",
             "The Hidden Markov Model (HMM) we use.", "A hidden Markov model of clicks.", "Our Hidden Markov Model.",
             "Hidden Markov models, a hidden Markov model and a Hidden Markov Model.", "A further Hidden Markov Model."]
    named = proper_names(texts, {"c:lod": "linked open data", "c:hmm": "hidden Markov model"})
    assert named == {"c:lod"}  # 3 of 4 places but the definitions; "Hidden Markov Model" 3 of 6


def test_a_count_of_dimensions_written_two_ways_is_one_idea_of_a_paper():
    # hep-th: "three-dimensional QED" and "(2+1)-dimensional QED" are one theory; "10-" and "ten-dimensional" one count
    papers = [Paper("a", "Screening in three-dimensional massive QED, that is (2+1)-dimensional QED.", "A"),
              Paper("b", "Ten-dimensional IIA supergravity and its massive form.", "B")]
    keyphrases = {"a": _kp("three-dimensional massive quantum electrodynamics", "(2+1)-dimensional quantum electrodynamics",
                           "screening"),
                  "b": _kp("10-dimensional massive IIA supergravity", "ten-dimensional IIA supergravity")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10)
    first = {m.paper_id: m.concept_id for m in mentions if m.rank == 1}
    assert first == {"a": "c:three dimensional massive quantum electrodynamics",
                     "b": "c:10 dimensional massive iia supergravity"}
    second = {m.paper_id: m.concept_id for m in mentions if m.rank == 2}  # restatements move down, or go
    assert second.get("a") != "c:2+1 dimensional quantum electrodynamics"
    assert second.get("b") != "c:ten dimensional iia supergravity"


def test_the_words_of_one_name_take_the_case_the_papers_write_them_in():
    # ACM-CR: per-word casing over the corpus gave "digital Humanities community" and "LinkedIn economic graph"
    texts = ["Open access has been debated in the Digital Libraries and Digital Humanities communities.",
             "Leadership in systems design for LinkedIn Economic Graph, Google Search and Google Research.",
             "Most digital libraries hold digital images and digital maps; digital preservation is costly.",
             "Economic growth, graph theory and economic models; a graph of economic data.",
             "We decode a hidden Markov model; a Hidden Markov Model in one paper is no name."]
    papers = [Paper(str(i), text, f"Paper {i}") for i, text in enumerate(texts)]
    keyphrases = {"0": _kp("Digital Humanities communities"), "1": _kp("LinkedIn Economic Graph"),
                  "2": _kp("digital libraries", "digital images"), "3": _kp("economic growth", "graph theory"),
                  "4": _kp("hidden Markov model")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert concepts["c:digital humanities community"].name == "Digital Humanities community"
    assert concepts["c:linkedin economic graph"].name == "LinkedIn Economic Graph"
    assert concepts["c:hidden markov model"].name == "hidden Markov model"  # the papers write it both ways
    assert [concepts[cid].name for cid in ("c:digital library", "c:economic growth", "c:graph theory")] == \
        ["digital library", "economic growth", "graph theory"]  # where the papers write the words in lower case


def test_a_term_the_field_writes_in_lower_case_after_names_stays_so_where_one_paper_capitalizes_it():
    # hep-th: one paper's "non-trivial Schur Multipliers" and "the Haldane Shastry Model" gave the names
    # "Schur Multiplier" and "Haldane Shastry Model"; physicists write "Lagrange multipliers", "Ising model"
    names = ["Lagrange", "Dirac", "Poisson", "Schwinger", "Wheeler"]
    texts = [f"We impose {name} multipliers and solve the {name} model of motion." for name in names * 2]
    texts += ["SU(3)-orbifolds which have non-trivial Schur Multipliers are listed.",
              "We solve the Haldane Shastry Model on the circle.",
              "Leadership in systems design for LinkedIn Economic Graph, Google Search and Google Research."]
    papers = [Paper(str(i), text, f"Paper {i}") for i, text in enumerate(texts)]
    keyphrases = {"10": _kp("Schur multipliers"), "11": _kp("Haldane Shastry Model"),
                  "12": _kp("LinkedIn Economic Graph")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    assert concepts["c:schur multiplier"].name == "Schur multiplier"
    assert concepts["c:haldane shastry model"].name == "Haldane Shastry model"
    assert concepts["c:linkedin economic graph"].name == "LinkedIn Economic Graph"  # no field term: a name


def test_a_word_with_a_letter_left_out_joins_the_phrase_spelled_right():
    # hep-th: "Hagedorn temperaure" and "link plynomials" were concepts of their own, shown misspelt
    texts = [f"The Hagedorn temperature of string {i} and link polynomials of knots." for i in range(12)]
    texts += ["Above the Hagedorn temperaure strings condense; link plynomials follow."]
    papers = [Paper(str(i), text, f"Paper {i}") for i, text in enumerate(texts)]
    keyphrases = {str(i): _kp("Hagedorn temperature", "link polynomials") for i in range(12)}
    keyphrases["12"] = _kp("Hagedorn temperaure", "link plynomials")
    concepts, mentions = normalize_concepts(papers, keyphrases)
    assert {m.concept_id for m in mentions if m.paper_id == "12"} == {"c:hagedorn temperature", "c:link polynomial"}
    assert "c:hagedorn temperaure" not in concepts


def test_an_ordinary_word_written_with_odd_capitals_is_shown_in_lower_case_beside_lower_case_words():
    # ACM-CR: sources spell an acronym into a phrase; reviewers judged "interactive TExt management system" broken
    papers = [Paper("a", "We present an interactive TExt management system (ITMS) for archives.", "A"),
              Paper("b", "Timely cyberbullying detectiON on social media.", "B"),
              Paper("c", "The CoIL challenge and PostScript documents over WiFi networks.", "C")]
    keyphrases = {"a": _kp("interactive TExt management system"), "b": _kp("cyberbullying detectiON"),
                  "c": _kp("CoIL challenge", "PostScript documents", "WiFi networks")}
    concepts, _ = normalize_concepts(papers, keyphrases)
    names = {c.name for c in concepts.values()}
    assert {"interactive text management system", "cyberbullying detection"} <= names
    assert {"CoIL challenge", "PostScript document", "WiFi network"} <= names  # a name's own capitals


def test_a_capital_s_after_lower_case_letters_is_no_plural():
    # hep-th: "Kerr-AdS" was cut to the concept "Kerr-ad"
    papers = [Paper("a", "Kerr-AdS black holes rotate; we study Kerr-AdS and AdS.", "A")]
    concepts, _ = normalize_concepts(papers, {"a": _kp("Kerr-AdS")})
    assert concepts["c:kerr ads"].name == "Kerr-AdS"


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("We study Compton scattering and compute string scattering amplitudes.",
     {"Compton scattering", "string scattering amplitudes"}, {"Compton", "string", "amplitudes"}),
    ("The gauge coupling runs. The Yukawa coupling is small.", {"gauge coupling", "Yukawa coupling"},
     {"gauge", "Yukawa"}),
    ("Electron tunneling and protein folding are processes.", {"Electron tunneling", "protein folding"},
     {"Electron", "protein"}),
    ("It is often convenient to view Hawking radiation as quantum tunneling near the Killing horizon.",
     {"Hawking radiation", "quantum tunneling", "Killing horizon"}, {"view Hawking", "radiation", "quantum"}),
    ("Radiation, e.g. Hawking radiation, matters.", {"Hawking radiation"}, set()),
    ("We monitor climate warning systems, etc. Removing redundancy in the data is a problem.", {"redundancy"},
     {"Removing redundancy"}),
])
def test_a_process_noun_heads_its_compound_and_a_name_in_a_sentence_is_no_gerund(text, wanted, unwanted):
    found = {c.phrase for c in find_candidates(text)}
    assert wanted <= found and not unwanted & found


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("We model long-term online reputation of sellers.", {"long-term online reputation"},
     {"model long-term online reputation"}),
    ("They train ranking models on clicks.", {"ranking models"}, {"train ranking models"}),
])
def test_what_we_or_they_do_starts_no_concept(text, wanted, unwanted):
    found = {c.phrase for c in find_candidates(text)}
    assert wanted <= found and not unwanted & found


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("New excitations in the massless Thirring and Schwinger models are discussed.",
     {"massless Thirring models", "Schwinger models"}, {"massless Thirring"}),
    ("We study spontaneous Lorentz and CPT violation.", {"spontaneous Lorentz violation", "CPT violation"},
     {"spontaneous Lorentz"}),
    ("Special attention is devoted to conformal and anti-de Sitter algebras.",
     {"conformal algebras", "anti-de Sitter algebras"}, {"conformal Sitter algebras"}),
    ("We use Google Scholar and Microsoft Academic data.", {"Google Scholar", "Microsoft Academic data"},
     {"Google Scholar data"}),
    ("We test the Standard Model and Higgs boson physics.", {"Standard Model", "Higgs boson physics"},
     {"Standard Model boson physics"}),
    ("Assistants such as Amazon Alexa, Microsoft Cortana and Apple Siri are popular.", {"Microsoft Cortana", "Apple Siri"},
     {"Microsoft Cortana Siri"}),
    # the name qualifies the relation the second phrase ends in: no "manifest Lorentz" (hep-th)
    ("The manifest Lorentz and general coordinate invariant formulation of the models is achieved.", set(),
     {"manifest Lorentz"}),
    ("Radiatively Induced Lorentz and CPT Violations in QED.", {"CPT Violations"}, {"Radiatively Induced Lorentz"}),
    ("We study pure Yang-Mills and QCD at finite temperature.", {"pure Yang-Mills", "QCD"}, set()),
    ("The induced Lorentz and CPT-violating Chern-Simons term coincides.", {"CPT-violating Chern-Simons term"},
     {"induced Lorentz"}),
])
def test_a_name_before_and_shares_the_next_phrases_noun(text, wanted, unwanted):
    found = {c.phrase for c in find_candidates(text)}
    assert wanted <= found and not unwanted & found


@pytest.mark.parametrize("text, title, wanted, unwanted", [
    ("We improve search by automatically generating labels from clicks.", "", {"labels", "clicks"},
     {"generating labels"}),
    ("We present a method for efficiently incorporating topic level estimation into retrieval.", "",
     {"topic level estimation"}, {"incorporating topic level estimation"}),
    ("x", "Learning to Rank: Incorporating Clicks", {"Clicks"}, {"Incorporating Clicks"}),
    ("This is labor-intensive. Automatically Generating labels from clicks helps.", "", {"labels"},
     {"Generating labels"}),
])
def test_a_gerund_past_an_adverb_or_opening_a_subtitle_heads_a_clause(text, title, wanted, unwanted):
    found = {c.phrase for c in find_candidates(text, title=title)}
    assert wanted <= found and not unwanted & found


def test_a_letter_that_counts_after_large_or_finite_is_part_of_the_term():
    found = {c.phrase for c in find_candidates("In the large N limit and the large N expansion, finite N corrections "
                                               "vanish. We take N large.")}
    assert {"large N limit", "large N expansion", "finite N corrections"} <= found
    assert not {"limit", "N expansion", "N large"} & found


def test_a_gerund_the_corpus_uses_as_a_verb_gives_its_object():
    papers = [Paper("a", "We focus on modeling user intent in search; the learning curve is fast.",
                    "Modeling user intent"),
              Paper("b", "Modeling the clicks helps, as does modeling a session and modeling them.", "Clicks"),
              Paper("c", "The learning curve and the learning rate; learning the weights.", "Rates"),
              Paper("d", "User intent in search is varied.", "Intent")]
    keyphrases = {"a": _kp("modeling user intent", "learning curve"), "b": _kp("clicks"),
                  "c": _kp("learning curve", "learning rate"), "d": _kp("user intent")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    linked = {p: [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == p] for p in "ac"}
    # "modeling" takes objects ("modeling the clicks") and no text writes "the modeling user"; "the learning curve"
    # (not "learning algorithm": the algorithm of an act is the act, generic since round thirty-five; nor "learning
    # model", a paradigm's model, generic since round thirty-seven)
    assert linked["a"] == ["c:user intent", "c:learning curve"]
    assert linked["c"] == ["c:learning curve", "c:learning rate"]


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("We discuss solutions in three-dimensional Minkowski space-time annihilated by half of the supersymmetries.",
     {"three-dimensional Minkowski space-time"}, {"three-dimensional Minkowski"}),
    ("We find the Higgs potential obtained from the model.", {"Higgs potential"}, {"Higgs"}),
    # a count of thousands or millions says how many (ACM-CR: "537K answer", "3k Web site" judged ungrammatical)
    ("We collected 537K answers from 3k Web sites.", {"answers", "Web sites"}, {"537K answers", "collected 537K answers"}),
    ("We study type 0B string theory.", {"type 0B string theory"}, {"string theory"}),  # a name's letter, no count
    # and "in fact" is no noun: "fact pure gauge transformation" (hep-th)
    ("These transformations are in fact pure gauge transformations.", {"pure gauge transformations"},
     {"fact pure gauge transformations"}),
])
def test_a_phrase_ends_on_its_noun_and_starts_past_a_count_or_an_idiom(text, wanted, unwanted):
    found = {c.phrase for c in find_candidates(text)}
    assert wanted <= found and not unwanted & found


def test_a_verb_after_to_gives_its_object():
    papers = [Paper("a", "We propose an approach to train word embeddings from clicks.", "Word embeddings"),
              Paper("b", "It is easy to train the model; we train a ranker and can train them fast.", "Training"),
              Paper("c", "We train the network on word embeddings.", "Embeddings"),
              Paper("d", "Support vector machines and the support vector machine are fine; we support the user.", "SVM"),
              Paper("e", "To support the search, we support a log.", "Logs")]
    keyphrases = {"a": _kp("train word embeddings", "clicks"), "b": _kp("model"), "c": _kp("word embeddings"),
                  "d": _kp("support vector machines"), "e": _kp("search")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    linked = {p: [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == p] for p in "acd"}
    # "train" takes objects after "to" and "we" ("to train the", "we train a") and no text writes "the train word";
    # "support" too, but "the support vector" is written: "support vector machine" stays
    assert linked["a"][0] == "c:word embedding" and linked["c"] == ["c:word embedding"]
    assert linked["d"] == ["c:support vector machine"]


@pytest.mark.parametrize("texts, keys, wanted", [
    (["We rank nodes.", "To rank the pages, we rank a list and can rank them."], {"rank node"}, {"rank node": "node"}),
    (["We pick up points.", "To pick the items, we pick a list and can pick them."], {"pick up point"}, {}),
    (["The query expansion helps.", "Approaches to query expansion.", "We query the index, to query a log."],
     {"query expansion"}, {}),
])
def test_a_verbs_object_needs_the_corpus_to_use_the_word_as_a_verb(texts, keys, wanted):
    assert verb_objects(texts, keys) == wanted


def test_a_gerund_and_its_object_become_the_compound_more_papers_write():
    papers = [Paper("a", "We study ranking documents by relevance with a ranking system.", "Ranking documents"),
              Paper("b", "Document ranking is old; the ranking system is new.", "Document ranking"),
              Paper("c", "Neural document ranking and system ranking.", "Rankers"),
              Paper("d", "Ranking systems and system ranking in evaluation campaigns.", "Evaluation")]
    keyphrases = {"a": _kp("ranking documents", "ranking system"), "b": _kp("document ranking", "ranking system"),
                  "c": _kp("document ranking", "system ranking"), "d": _kp("ranking systems", "system ranking")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    linked = {p: [m.concept_id for m in sorted(mentions, key=lambda m: m.rank) if m.paper_id == p] for p in "acd"}
    # "ranking documents" is document ranking (2 papers write that); "the ranking system" is a compound, which
    # stays itself though "system ranking" (another idea) has as many papers
    assert linked["a"] == ["c:document ranking", "c:ranking system"]
    assert linked["c"] == ["c:document ranking", "c:system ranking"]
    assert linked["d"][0] == "c:ranking system"


def test_a_conference_a_law_or_an_organization_keeps_its_capitals():
    papers = [Paper("a", "Under the General Data Protection Regulation (GDPR), users decide.", "Privacy"),
              Paper("b", "Recommenders compliant with the General Data Protection Regulation.", "Compliance"),
              Paper("c", "A retrieval conference and a Retrieval Conference; the Digital Public Library of America.",
                    "Venues")]
    keyphrases = {"a": _kp("General Data Protection Regulation"), "b": _kp("General Data Protection Regulation"),
                  "c": _kp("retrieval conference", "Digital Public Library of America")}
    concepts, _ = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    names = {c.name for c in concepts.values()}
    # written in capitals wherever a sentence does not start, and a name's head: one thing, named as it is written
    assert names == {"General Data Protection Regulation", "retrieval conference", "Digital Public Library of America"}


def test_a_collection_or_a_shared_task_keeps_its_capitals():
    papers = [Paper("a", "The Climate Change Collection is a thematic collection. Reviews of the Climate Change "
                         "Collection helped, as did a test collection.", "Reviewing a digital library collection"),
              Paper("b", "We adopt the 2019 TREC Conversational Assistance Track data.", "Conversational search")]
    keyphrases = {"a": _kp("Climate Change Collection", "test collection"),
                  "b": _kp("TREC Conversational Assistance Track")}
    concepts, _ = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    names = {c.name for c in concepts.values()}
    assert {"Climate Change Collection", "TREC Conversational Assistance Track", "test collection"} <= names, names


@pytest.mark.parametrize("text, wanted", [
    ("Automatic methods that index documents accurately.", ["Automatic methods", "documents"]),
    ("Models did not take into account bidirectional latent relations.", ["Models", "bidirectional latent relations"]),
    ("Cities today have become dense; we show that index documents are big.", ["Cities", "index documents"]),
    ("Results on real graphs show that graph convolutional networks underperform.",
     ["Results", "real graphs", "graph convolutional networks"]),
])
def test_a_relative_clauses_verb_an_idiom_and_today_are_no_part_of_a_concept(text, wanted):
    assert candidate_phrases(text) == wanted


def test_a_concept_shows_an_acronym_the_corpus_uses_not_one_a_paper_coined():
    papers = [Paper("coin", "We study Yang-Mills theory (YMT) and supersymmetric Yang-Mills theory (SYM).", "C"),
              Paper("mist", "The Missing Person Intelligence Synthesis Toolkit (MIST) finds people.", "M")]
    papers += [Paper(f"p{i}", "Yang-Mills theory and N=4 SYM at strong coupling.", str(i)) for i in range(12)]
    keyphrases = {"coin": _kp("supersymmetric Yang-Mills theory", "Yang-Mills theory"),
                  "mist": _kp("Missing Person Intelligence Synthesis Toolkit")}
    keyphrases |= {f"p{i}": _kp("Yang-Mills theory", "SYM") for i in range(12)}
    concepts, _ = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    acronyms = {key[2:]: c.acronym for key, c in concepts.items()}
    # YMT: one definition among 13 papers that never write it; SYM: written by 13; MIST: its only paper's
    assert acronyms["yang mills theory"] is None
    assert acronyms["supersymmetric yang mills theory"] == "SYM"
    assert acronyms["missing person intelligence synthesis toolkit"] == "MIST"


def test_a_concept_shows_no_acronym_its_words_do_not_spell_unless_its_papers_write_it():
    # ACM-CR: "deep recommender system (DEERS) framework" gave 5 papers' "deep recommender system" the acronym DEERS;
    # "Forum for Information Retrieval Evaluation (FIRE)" gave FIRE to "information retrieval evaluation" (37 papers)
    papers = [Paper("deers", "We propose the deep recommender system (DEERS) framework with negative feedback.", "D"),
              Paper("fire", "The Forum for Information Retrieval Evaluation (FIRE) runs tracks.", "F"),
              Paper("gat", "A graph attention network (GAT) learns from neighbours.", "G")]
    papers += [Paper(f"d{i}", "Deep recommender systems and information retrieval evaluation.", str(i)) for i in range(4)]
    papers += [Paper(f"g{i}", "GAT, a graph attention network, on citation graphs.", f"g{i}") for i in range(3)]
    keyphrases = {"deers": _kp("deep recommender system"), "fire": _kp("information retrieval evaluation"),
                  "gat": _kp("graph attention network")}
    keyphrases |= {f"d{i}": _kp("deep recommender system", "information retrieval evaluation") for i in range(4)}
    keyphrases |= {f"g{i}": _kp("graph attention network") for i in range(3)}
    concepts, _ = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    acronyms = {key[2:]: c.acronym for key, c in concepts.items()}
    assert acronyms["deep recommender system"] is None and acronyms["information retrieval evaluation"] is None
    assert acronyms["graph attention network"] == "GAT"  # its words spell it, the last head left out


@pytest.mark.parametrize("phrase, key", [
    ("end-to-end models", "end to end model"), ("Point-of-Interest Recommendations", "point of interest recommendation"),
    ("bag-of-words representations", "bag of words representation"), ("state-of-the-art methods", "state of the art method"),
    ("bag-of-words", "bag of words"), ("learning with noisy labels", "learning with noisy labels"),
    ("superstrings with/without pure spinors", "superstrings with without pure spinors"),
])
def test_a_dashed_modifier_with_a_preposition_leaves_the_head_singular(phrase, key):
    # "of" or "to" inside a dashed modifier heads nothing: the last word does ("learning-to-rank models" and
    # "learning-to-rank model" were two concepts); a preposition on its own or dashed to the last word still does
    assert concept_key(phrase) == key


def test_a_name_that_ends_in_s_is_shown_whole():
    # reviewers marked "MovieLen" and "Berkovit" broken: the key's singular rule cut a name
    assert _display_name("movielen", Counter({"MovieLens": 3, "Movielens": 1})) == "MovieLens"
    assert _display_name("convnet", Counter({"ConvNets": 2})) == "ConvNet"
    assert _display_name("superkdv", Counter({"SuperKdVs": 1})) == "SuperKdV"
    assert _display_name("berkovit", Counter({"Berkovits": 2}), truecase={"berkovits": (3, 0)}) == "Berkovits"
    assert _display_name("supersolution", Counter({"Supersolutions": 1}), truecase={}) == "supersolution"  # a title's
    assert _display_name("network", Counter({"Networks": 2}), truecase={}) == "network"
    assert _display_name("hypergraph", Counter({"Hypergraphs": 1, "hypergraphs": 2}), truecase={}) == "hypergraph"


def test_praise_written_in_other_ways_leaves_the_name():
    found = candidate_phrases("We use state-of-art meta-level features and cutting-edge retrieval models.")
    assert found == ["meta-level features", "retrieval models"]
    assert candidate_phrases("They read publicly-available health information.") == ["health information"]


@pytest.mark.parametrize("text, wanted", [
    ("The Jacobian for infinitesimal BRST transformations of path integrals.",
     ["Jacobian", "infinitesimal BRST transformations", "path integrals"]),
    ("A set of Feynman amplitudes evaluated at zero momentum.", ["Feynman amplitudes", "momentum"]),
    ("The method degrades and the series converges.", ["method", "series"]),
])
def test_an_unknown_plural_with_a_nouns_ending_is_no_verb(text, wanted):
    # the tagger guessed a verb (VBZ) for plurals its lexicon lacks, cutting the head off: "infinitesimal BRST"
    assert candidate_phrases(text) == wanted


def test_a_papers_number_in_a_series_is_no_part_of_a_term():
    found = [c.phrase for c in find_candidates("We study type II strings and the Painleve III equation.",
                                               title="Combinatorics of the Modular Group II: the Kontsevich integrals")]
    assert {"Modular Group", "type II strings", "Painleve III equation"} <= set(found)
    assert "Modular Group II" not in found
    assert "Higgs mechanism" in candidate_phrases("Gauge theories and the Higgs mechanism IV")


@pytest.mark.parametrize("text, wanted", [
    ("This request rules out the definition.", ["request", "definition"]),
    ("At this temperature the continuum string picture breaks down.", ["temperature", "continuum string picture"]),
    ("We show that self-gravity causes a typical string state to shrink.", ["self-gravity", "string state"]),
    ("Contexts are used to re-rank results for the current query.", ["Contexts", "results", "query"]),
    ("We study the near horizon limit of extreme black holes.", ["near horizon limit", "extreme black holes"]),
    ("Nutrition support systems lack personalization.", ["Nutrition support systems", "personalization"]),
    ("We compute the graviton self-energy and the on-shell amplitudes.", ["graviton self-energy", "on-shell amplitudes"]),
])
def test_a_phrasal_verb_a_prefix_or_a_preposition_made_adjective_keeps_concepts_whole(text, wanted):
    # reviewers judged "request rule", "string picture break", "self-gravity cause", "horizon limit" (of "the near
    # horizon limit") and "invariant on-shell" ungrammatical or broken
    assert candidate_phrases(text) == wanted


def test_a_questions_verb_a_list_and_a_repeated_modifier_end_no_concept():
    assert [c.phrase for c in find_candidates("x.", title="What Can Quantum Theory Bring to Information Retrieval")
            ][:2] == ["Quantum Theory", "Information Retrieval"]
    found = [c.phrase for c in find_candidates("x.", title="Inconsistencies of Massive Charged Gravitating Higher Spins")]
    assert "Massive Charged Gravitating Higher Spins" in found
    found = candidate_phrases("The (NS5,D5,D3) bound state and a chiral or twisted chiral scalar superfield of an "
                              "ℓ2,1-norm loss.")
    assert found == ["bound state", "chiral scalar superfield", "twisted chiral scalar superfield", "ℓ2,1-norm loss"]
    assert [trim_filler(p) for p in ["multi-agent framework", "in-memory schemes", "top-k results", "multi-instanton solutions",
                                     "cross-validation method"]] == [
        "multi-agent framework", "in-memory schemes", "top-k results", "multi-instanton", "cross-validation"]


def test_a_verb_after_to_or_these_in_a_title_or_sentence_starts_no_concept():
    found = [c.phrase for c in find_candidates("These include Yang-Mills and associated field theories.",
                                               title="A Framework to Predict Query Performance")]
    assert found == ["Framework", "Query Performance", "Yang-Mills field theories", "field theories"]
    found = [c.phrase for c in find_candidates("x.", title="Using the Cross-Entropy Method to Re-Rank Search Results")]
    assert found == ["Cross-Entropy Method", "Search Results"]
    # the lexicon knows "rank" as a noun; after "Learning to" it is the verb ("rank entity" was a concept)
    found = [c.phrase for c in find_candidates("x.", title="Learning to Rank Networked Entities")]
    assert found == ["Learning", "Networked Entities"]
    found = [c.phrase for c in find_candidates("x.", title="Approaches to Rank Aggregation in Web Search")]
    assert found == ["Approaches", "Rank Aggregation", "Web Search"]


def test_praise_of_speed_or_reach_is_no_concept_and_leaves_the_term_it_praises():
    df = {"fast matrix factorization": 1, "matrix factorization": 12, "scalable vector graphics": 2,
          "fast fourier transform": 4, "fourier transform": 3}
    assert incidental_modifiers(df) == {"fast matrix factorization": "matrix factorization"}
    assert generic_words({"fast mining", "scalable clustering", "effective action", "fast fourier transform"}) == {
        "fast mining", "scalable clustering"}


@pytest.mark.parametrize("text, wanted", [
    ("One loop nonlocal effective action at finite temperature is computed.",
     ["One loop nonlocal effective action", "finite temperature"]),
    ("We compute the two point function and 2 loop corrections to the one instanton contribution.",
     ["two point function", "2 loop corrections", "one instanton contribution"]),
    ("We construct the stable codimension 1 solitons of the Randall-Sundrum two branes model.",
     ["solitons", "model"]),
    ("One approach uses one model at one loop for the two form.", ["approach", "model", "loop", "two form"]),
])
def test_a_number_inside_a_term_stays_in_it_or_leaves_no_piece(text, wanted):
    # reviewers judged "loop nonlocal effective action" (of "one loop ..."), "stable codimension" (of "stable
    # codimension 1 solitons") and "radius stabilized Randall-Sundrum" (of "... Randall-Sundrum two branes model")
    # ungrammatical; a count before a noun alone ("one approach", "one loop") is no term
    assert candidate_phrases(text) == wanted


def test_multiple_before_a_plural_counts_unless_it_names_a_term():
    found = candidate_phrases("We use multiple evaluation sets from multiple search engines and multiple choice "
                              "questions to test multiple kernel learning.")
    assert found == ["evaluation sets", "search engines", "multiple choice questions", "multiple kernel learning"]


def test_an_incidental_modifier_of_a_few_papers_leaves_the_term_a_term_keeps_it():
    df = {"standard collaborative filtering": 9, "collaborative filtering": 400, "multiple search engine": 3,
          "search engine": 300, "standard model gauge group": 1, "standard model": 30, "high energy physics": 1,
          "high energy": 5, "real web page": 2, "web page": 90, "exact renormalization group": 30,
          "renormalization group": 800, "precise structured query": 1, "structured query": 26}
    assert incidental_modifiers(df) == {"standard collaborative filtering": "collaborative filtering",
                                        "multiple search engine": "search engine", "real web page": "web page",
                                        "precise structured query": "structured query"}


def test_a_long_term_with_a_letter_left_out_is_the_term():
    df = {"nonperturbative effect": 40, "nonpertubative effect": 1, "nonperturbative": 30, "supergravity": 300,
          "supergravit": 1}
    assert misspellings(df) == {"nonpertubative effect": "nonperturbative effect"}


def test_a_quoted_paper_title_leaves_its_number_in_a_series():
    assert candidate_phrases("To appear in “Essays on Mirror Manifolds II”.") == ["Essays", "Mirror Manifolds"]


def test_an_adjective_before_a_broad_kind_is_generic_unless_it_names_the_kind():
    keys = {"supersymmetric theory", "integrable equation", "probabilistic model", "greedy algorithm",
            "covariant generalization", "spontaneous breaking", "standard model", "genetic algorithm",
            "yang mills theory", "sigma model", "symplectic structure"}
    assert generic_words(keys) == {"supersymmetric theory", "integrable equation", "probabilistic model",
                                   "greedy algorithm", "covariant generalization", "spontaneous breaking"}


@pytest.mark.parametrize("text, wanted", [
    ("Dialogue interpretation aims to associate semantic labels to utterances.",
     ["Dialogue interpretation", "semantic labels", "utterances"]),
    ("We are able to cluster patients and in order to train sentiment classifiers we use tweets.",
     ["patients", "sentiment classifiers", "tweets"]),
    ("The action reduces to total derivative terms.", ["action", "total derivative terms"]),
])
def test_an_infinitive_of_purpose_is_a_verb(text, wanted):
    # reviewers judged "associate semantic label" and "complement machine learning" ungrammatical
    assert candidate_phrases(text) == wanted


def test_a_kind_of_approach_a_plural_in_a_list_and_a_relation_of_groups_make_no_concept():
    assert generic_words({"graph based approach", "rsa based solution", "community aware strategy",
                          "content based recommendation"}) == {"graph based approach", "rsa based solution",
                                                               "community aware strategy"}
    found = [c.phrase for c in find_candidates("x.", title="Relating Superembeddings and Non-linear Realisations")]
    assert found == ["Superembeddings", "Non-linear Realisations"]
    assert candidate_phrases("The isomorphism Sp(4)∼SO(3,2), the P(3,1)xGauge group and the AdS_5×S^5 background.") == [
        "isomorphism", "group", "AdS_5×S^5 background"]
    assert candidate_phrases("A configuration with one brane and a two form.") == ["configuration", "brane", "two form"]


def test_a_broad_kind_the_corpus_names_stays_and_a_prefixed_adjective_alone_goes():
    keys = {"superconformal theory", "pseudoclassical model", "chiral model", "supersymmetric theory",
            "relativistic theory", "non commutative", "self dual", "self energy"}
    assert generic_words(keys) == {"supersymmetric theory", "relativistic theory", "non commutative", "self dual"}
    assert generic_words(keys, abbreviated={"supersymmetric theory"}) == {"relativistic theory", "non commutative",
                                                                          "self dual"}
    assert candidate_phrases("An easy search and a difficult search with better results.") == ["search", "results"]


@pytest.mark.parametrize("text, wanted", [
    ("These applications need to automatically associate good descriptive keywords with papers.",
     ["applications", "descriptive keywords", "papers"]),
    ("NLP technologies are used to discover and display related content from the Web.",
     ["NLP technologies", "content", "Web"]),
    ("We design systems that display digital images and a display resolution.",
     ["systems", "digital images", "display resolution"]),
])
def test_a_verb_after_an_adverb_a_coordinated_verb_or_a_relative_pronoun_is_a_verb(text, wanted):
    # reviewers judged "associate keyword", "display related content" and "display digital image" ungrammatical
    assert candidate_phrases(text) == wanted


def test_a_corpus_name_inside_a_longer_concept_keeps_the_names_capitals():
    abstracts = ["We link the Semantic Web to data.", "Ontologies of the Semantic Web grow.",
                 "Reasoning on the Semantic Web is hard.", "Agents on the Semantic Web.",
                 "We build semantic web technologies.", "Search with Semantic Web technologies.",
                 "We measure semantic similarity.", "A semantic parser and semantic similarity.",
                 "Deep semantic matching."]
    papers = [Paper(str(i), text, "Linked data") for i, text in enumerate(abstracts)]
    keyphrases = {"0": _kp("Semantic Web"), "1": _kp("Semantic Web"), "2": _kp("Semantic Web"),
                  "3": _kp("Semantic Web"), "4": _kp("semantic web technologies"), "5": _kp("Semantic Web technologies")}
    concepts, _ = normalize_concepts(papers, keyphrases, top_n=10, contain=False)
    names = {c.name for c in concepts.values()}
    # each word's own case wrote "semantic Web technology" beside the corpus's name "Semantic Web" (32 ACM-CR papers)
    assert names == {"Semantic Web", "Semantic Web technology"}, names


def test_a_part_or_guise_after_an_adjective_is_generic_after_a_noun_it_may_name_a_term():
    keys = {"noncommutative version", "non perturbative aspect", "bosonic part", "gauge invariant way",
            "parity invariant case", "chiral type", "query aspect", "bianchi type", "document version",
            "differential form"}
    # "the noncommutative version of ...": an adjective and a part of something else, which the "of" names
    assert generic_words(keys) == {"noncommutative version", "non perturbative aspect", "bosonic part",
                                   "gauge invariant way", "parity invariant case", "chiral type"}


def test_a_size_or_scope_before_one_noun_is_generic_unless_the_two_are_notation_or_a_compound():
    keys = {"large graph", "individual searcher", "single brane", "enhanced recommendation", "large n",
            "large margin", "small instanton", "large graph partitioning", "individual fairness metric"}
    # how much of a thing, not which: judged good twice in 104 labels
    assert generic_words(keys) == {"large graph", "individual searcher", "single brane", "enhanced recommendation"}


def test_data_about_a_thing_is_generic_a_named_or_kind_of_body_of_data_is_not():
    keys = {"news corpus", "movie dataset", "recommendation dataset", "twitter corpus", "parallel corpus",
            "annotated corpus", "movielens dataset", "news recommendation dataset"}
    assert generic_words(keys, names={"twitter", "movielens"}) == {"news corpus", "movie dataset",
                                                                    "recommendation dataset"}


def test_the_process_of_an_act_is_generic_a_named_or_kind_of_process_is_not():
    keys = {"recommendation process", "search process", "tagging process", "retrieval process", "business process",
            "markov process", "hawking process", "stochastic process", "decay process"}
    assert generic_words(keys, names={"markov", "hawking"}) == {"recommendation process", "search process",
                                                                 "tagging process", "retrieval process"}


def test_a_letter_a_dash_joins_to_the_word_before_is_not_joined_to_the_next_too():
    forms = Counter({"top-N recommendations": 10, "Top-N Recommendation": 8, "top N-recommendation": 1})
    # one form's "N-recommendation" had made the name "top-N-recommendation" (58 ACM-CR papers)
    assert _display_name("top n recommendation", forms) == "top-N recommendation"
    assert _display_name("p brane action", Counter({"p brane actions": 3, "effective p-brane action": 1})) == \
        "p-brane action"


def test_a_prefixed_participle_alone_or_a_participle_before_a_guise_is_generic():
    keys = {"self gravitating", "non interacting", "non hermitian", "pre filtering", "multi lagrangian",
            "weak supervised manner", "u 1 gauged version", "self gravitating string state"}
    # "self-gravitating" stood alone for "self-gravitating string states" (10 hep-th papers)
    assert generic_words(keys) == {"self gravitating", "non interacting", "non hermitian", "weak supervised manner",
                                   "u 1 gauged version"}


def test_the_kind_a_thing_is_of_is_no_concept_the_types_of_a_thing_are():
    # "solutions of plane-wave type", "operators of Laplace type": 2 of 36 labelled "... type" concepts were good
    phrases = candidate_phrases("We find operators of Laplace type and systems of the KdV Type, a string background "
                                "of plane-wave type and D-branes in type IIB; we count edge types.")
    assert "Laplace" in phrases and "KdV" in phrases
    assert not any(p.lower().endswith("type") for p in phrases)
    assert "type IIB" in phrases and "edge types" in phrases


def test_a_measure_after_an_adjective_a_number_or_a_prefix_is_no_concept_alone():
    # "a two-scale scheme" and "a multi-time approach" gave the concepts "two-scale" and "multi-time"
    assert [trim_filler(p) for p in ("two-scale scheme", "Multi-time Approach", "real-time approaches",
                                     "space-time approach", "two-step approach")] == [
        "two-scale scheme", "Multi-time Approach", "real-time approaches", "space-time", "two-step"]


def test_a_titles_word_after_its_subject_is_its_verb():
    title = [c.phrase for c in find_candidates("", title="How We Produced Searchable PDFs for 7 Million Documents")]
    assert "Searchable PDFs" in title and not any("Produced" in p for p in title)
    vacuum = [c.phrase for c in find_candidates("", title="A Chiral N=1 Type I Vacuum in Four Dimensions")]
    assert any(p.endswith("Vacuum") for p in vacuum)  # "I" of "Type I" is a numeral, no subject


@pytest.mark.parametrize("title, wanted, unwanted", [
    # ACM-CR titles whose concept was the whole clause ("semantic components enhance retrieval", "discover breaking
    # event"): a verb the lexicon knows only as one, after a plural subject or opening the title
    ("Semantic Components Enhance Retrieval of Domain-Specific Documents", "Semantic Components", "Enhance"),
    ("Query Logs Help Search", "Query Logs", "Help"),
    ("Discover Breaking Events with Popular Hashtags in Twitter", "Hashtags", "Discover"),
])
def test_a_titles_verb_after_a_plural_subject_or_at_its_start_is_no_part_of_a_concept(title, wanted, unwanted):
    found = [c.phrase for c in find_candidates("", title=title)]
    assert wanted in found and not any(unwanted in p for p in found)
    assert [c.phrase for c in find_candidates("", title="Graph Embed: Conversational Search")] == [
        "Graph Embed", "Conversational Search"]  # a singular noun's verb-like word stays a title's noun


def test_a_month_is_no_concept():
    # "a talk given in June 1997": 4 hep-th concepts were months
    papers = [Paper(f"p{i}", "Lectures given in June 1997 on matrix theory.", str(i)) for i in range(3)]
    concepts, _ = normalize_concepts(papers, {f"p{i}": _kp("June", "matrix theory") for i in range(3)}, top_n=10,
                                     contain=False)
    assert [c.name for c in concepts.values()] == ["matrix theory"]


def test_a_suspended_hyphen_and_alternatives_make_no_fragment():
    phrases = candidate_phrases("The free Abelian- and self-interacting non-Abelian gauge theories and D3- and "
                                "D7-branes. We model entities/topics, input/output pairs and AdS/CFT.")
    assert "free Abelian" not in phrases and "D3" not in phrases and "non-Abelian gauge theories" in phrases
    assert "entities/topics" not in phrases and "input/output pairs" in phrases and "AdS/CFT" in phrases
    assert candidate_phrases("a familiar anomaly-cancelling mechanism") == ["anomaly-cancelling mechanism"]


def test_a_names_plural_looking_part_stays_whatever_its_case():
    # "of Yang-mills type" gave a concept "Yang-Mill" (24 hep-th papers)
    assert concept_key("Yang-mills") == concept_key("Yang-Mills") == "yang mills"
    assert concept_key("chern-simons") == "chern simons" and concept_key("paper mills") == "paper mill"
    # with the two forms one concept, the name is written as the corpus writes the name, not as 2 papers do
    forms = Counter({"Yang-Mills": 8, "Yang-mills": 2})
    assert _display_name("yang mills", forms, truecase={"yang": (400, 0), "mills": (400, 3)}) == "Yang-Mills"
    titled = Counter({"AS-Index": 3, "AS-index": 1})  # a title's capital is no name's
    assert _display_name("as index", titled, truecase={"index": (2, 300)}) == "AS-index"


def test_a_term_the_corpus_hyphenates_is_one_candidate_where_a_text_writes_it_with_spaces(hash_embedder, tmp_path):
    papers = [Paper("a", "We study learning-to-rank for web search with click logs.", "Click models"),
              Paper("b", "Learning-to-rank models read content-and-structure queries.", "Rankers"),
              Paper("c", "Learning to rank algorithms are trained on click logs.", "Training rankers"),
              Paper("d", "Structured retrieval with content-and-structure queries.", "Structured retrieval"),
              Paper("e", "We compare the content and structure of documents.", "Documents")]
    found = extract(papers, hash_embedder, top_n=10).keyphrases
    phrases = {p: {k.phrase for k in found[p]} for p in found}
    # two papers hyphenate "learning-to-rank": the third one's spaced term is one candidate (written as the text
    # writes it), not "rank algorithms"
    assert "Learning to rank algorithms" in phrases["c"] and "rank algorithms" not in phrases["c"]
    assert "learning-to-rank" in phrases["a"]  # a hyphenated term that ends a phrase is its noun
    # "and" joins two words far more often than a term: "content and structure" stays two words
    assert "content-and-structure" not in " ".join(phrases["e"])
    assert papers[2].abstract == "Learning to rank algorithms are trained on click logs."  # the text stays as written
    alone = {k.phrase for k in extract(papers, hash_embedder, top_n=10, joined=False).keyphrases["c"]}
    assert "Learning to rank algorithms" not in alone
    # a cache filled without joining gives no stale shortlist: it keeps shortlists by the text candidates are found in
    cached = CachedEmbedder(hash_embedder, tmp_path / "cache.sqlite")
    extract(papers, cached, top_n=10, joined=False)
    assert {p: {k.phrase for k in ks} for p, ks in extract(papers, cached, top_n=10).keyphrases.items()} == phrases


def test_an_idiom_with_a_function_word_inside_is_no_concept():
    found = set(candidate_phrases("From a mathematical point-of-view the series converges order-by-order, and the "
                                  "method is state-of-the-art; we use the roots-of-unity of the equations-of-motion."))
    # no "point-of-view", "order-by-order", "state-of-the-art", nor "mathematical" cut from its idiom
    assert found == {"series", "method", "roots-of-unity", "equations-of-motion"}


def test_a_verb_after_how_to_or_a_way_to_is_no_part_of_a_concept():
    found = set(candidate_phrases("We show how to rank documents and give the ability to query RDF datasets; "
                                  "this allows us to count triangles. We apply the approach to query expansion."))
    assert found == {"documents", "ability", "RDF datasets", "triangles", "approach", "query expansion"}


def test_a_gerund_joined_to_a_term_by_to_is_no_gerund_and_its_object():
    texts = ["Learning the weights works.", "Learning them is easy.", "By learning a model we rank.",
             "We compare learning to rank algorithms.", "Learning user models is hard.", "Learning these models."]
    keys = {"learning to rank algorithm", "learning user model", "user model"}
    # "learning" is a verb here, so "learning user model" is its object; "learning-to-rank algorithm" is a term
    assert gerund_objects(texts, keys, min_verb_uses=2) == {"learning user model": "user model"}


def test_a_term_the_corpus_hyphenates_holds_no_concept_after_its_joining_word():
    papers = [Paper("a", "We study learning-to-rank algorithms for search.", "Rankers"),
              Paper("b", "Learning-to-rank models are trained on clicks.", "Clicks"),
              Paper("c", "Stable rank algorithms estimate the rank of a matrix.", "Matrix rank"),
              Paper("d", "We compare rank algorithms for sparse matrices.", "Sparse matrices"),
              Paper("e", "Classic learning to rank algorithms are trained on labeled documents.", "Labels")]
    keyphrases = {"a": _kp("learning-to-rank algorithms", "search"), "b": _kp("Learning-to-rank models", "clicks"),
                  "c": _kp("stable rank algorithms", "rank algorithms", "matrix"),
                  "d": _kp("rank algorithms", "sparse matrices"), "e": _kp("labeled documents")}
    _, mentions = normalize_concepts(papers, keyphrases, top_n=10)
    # "rank algorithms" is a concept of c and d; e writes it only inside the term "learning to rank algorithms"
    assert "c:rank algorithm" not in {m.concept_id for m in mentions if m.paper_id == "e"}


def test_alternatives_in_parentheses_define_no_acronym():
    # hep-th/9707186 writes "maps Type IIA (IIB) to Type IIA (IIB)": read as a definition, "IIB" became
    # "IIB to Type IIA" in every paper, and 121 hep-th concepts had ids such as "c:iib to type iia matrix model"
    papers = [Paper(id="m", title="Mirror maps", abstract="The second maps Type IIA (IIB) to Type IIA (IIB) on the "
                                                         "mirror manifold.")]
    papers += [Paper(id=f"p{i}", title=f"Matrix model {i}", abstract="The IIB matrix model and its vacua.")
               for i in range(3)]
    keyphrases = {p.id: [Keyphrase("IIB matrix model", 0.9)] for p in papers[1:]}
    concepts, mentions = normalize_concepts(papers, keyphrases, stoplist=())
    assert set(concepts) == {"c:iib matrix model"} and concepts["c:iib matrix model"].name == "IIB matrix model"
    assert len(mentions) == 3


def test_concepts_that_differ_in_a_roman_numeral_never_merge():
    # "type II superstring" embeds at 0.97 to "type IIB superstring"; once IIB was no longer expanded to a wrong long
    # form the two merged, and reviewers called "type IIB superstring" wrong in papers about type II strings
    assert _needed("type ii superstring", "type iib superstring", 0.85) > 1
    assert _needed("type iia supergravity", "type iib supergravity", 0.85) > 1
    assert _needed("recommender system", "recommendation system", 0.85) == 0.85


@pytest.mark.parametrize("name", ["Korteweg-de Vries", "generalized Korteweg-de Vries", "quantum Korteweg de Vries"])
def test_a_name_that_ends_like_a_plural_keeps_its_last_letters(name):
    # "Korteweg-de Vries (KdV)" was the concept "Korteweg-de vry" of hep-th, "generalized Korteweg-de Vry" another
    assert concept_key(name).endswith("de vries")


def test_a_proper_name_keeps_its_number_and_a_common_word_stays_singular():
    # ACM-CR listed "Google Map", "Google Book", "Medical Subject Heading": a key is singular to group the forms,
    # but a name is written as the corpus writes it
    abstract = ("We geocode places with the Google Maps API and index them with Medical Subject Headings. "
                "Google Maps and Medical Subject Headings help.")
    papers = [Paper(id=f"p{i}", title=f"Places {i}", abstract=abstract) for i in range(3)]
    keyphrases = {p.id: _kp("Google Maps", "Medical Subject Headings", "search engines") for p in papers}
    concepts, _ = normalize_concepts(papers, keyphrases, stoplist=())
    names = {c.name for c in concepts.values()}
    assert {"Google Maps", "Medical Subject Headings", "search engine"} <= names


def test_a_long_word_with_a_letter_changed_is_the_frequent_word_but_an_english_word_stays():
    df = {"four dimentional space time": 1, "four dimensional space time": 90, "schwarzchild black hole": 3,
          "schwarzschild black hole": 250, "sypersymmetric attractor": 1, "supersymmetric attractor": 40,
          "notional machine": 1, "national machine": 30, "wikimedia commons": 2, "wikipedia commons": 30,
          "sommerfeld expansion": 3, "sommerfield expansion": 40}
    assert misspellings(df) == {"four dimentional space time": "four dimensional space time",
                                "schwarzchild black hole": "schwarzschild black hole",
                                "sypersymmetric attractor": "supersymmetric attractor"}


def test_a_names_head_word_is_no_name_alone_but_stays_one_after_a_name():
    # ACM-CR listed "University archive", "ugandan University", "TREC enterprise Track collection": the corpus
    # capitalizes "University" and "Track" inside names ("Stanford University", "TREC Web Track"), never alone
    abstract = ("Students of Stanford University, the University of Otago and Peking University use a university "
                "archive. The TREC Web Track and the Microblog Track ran. A university archive and an enterprise "
                "track collection of the Peking University library. Twitter posts form the Twitter dataset.")
    papers = [Paper(id=f"p{i}", title=f"Archives {i}", abstract=abstract) for i in range(3)]
    keyphrases = {p.id: _kp("university archive", "enterprise track collection", "Peking University library",
                            "Twitter dataset") for p in papers}
    concepts, _ = normalize_concepts(papers, keyphrases, stoplist=())
    assert {c.name for c in concepts.values()} == {"university archive", "enterprise track collection",
                                                   "Peking University library", "Twitter dataset"}


def test_a_kinds_roman_numeral_keeps_the_name_whole():
    # hep-th writes "type I string" 399 times: the tagger read "I" as the pronoun and kept "type" and "string theory";
    # after "to" it read "type" as the verb, and 18 papers listed "II string theory"
    found = candidate_phrases("Dualities of type I string theory are studied, and type I toroidal orientifolds are "
                              "built. D-branes are intrinsic to type II string theory. In Bianchi I cosmology, I show "
                              "that I think.")
    assert {"type I string theory", "type I toroidal orientifolds", "type II string theory",
            "Bianchi I cosmology"} <= set(found)
    assert not {"type", "II string theory", "string theory"} & set(found)
    # the numeral's kind shares the head after "and", and a slash joins it to another name
    assert candidate_phrases("the type I and type IIB theories") == ["type I theories", "type IIB theories"]
    assert candidate_phrases("We test heterotic/type I duality.") == ["heterotic/type I duality"]


def test_a_title_questions_verb_is_no_part_of_its_subject():
    assert [c.phrase for c in find_candidates("", title="Do Authors Deposit on Time? Tracking Open Access "
                                                          "Policy Compliance")] == ["Authors", "Time",
                                                                                    "Open Access Policy Compliance"]
    assert [c.phrase for c in find_candidates("", title="Do Summaries Help?")] == ["Summaries"]


def test_a_verb_before_its_objects_determiner_or_a_relations_adjective_ends_no_concept():
    found = set(candidate_phrases(
        "The latter Hamiltonian exhibits a two-particle bound state. The closed string spectrum exhibits also some "
        "novel features. Is large-N QCD equivalent to a string theory? The instantons have instanton number equal to "
        "one half. Experiments on a Twitter dataset show promising results. The dual to the gauge theory is a TV show."))
    assert {"latter Hamiltonian", "string spectrum", "large-N QCD", "instanton number", "Twitter dataset",
            "two-particle bound state", "TV show"} <= found
    assert not {w for w in found if w.endswith(("exhibits", "equivalent", "equal", "show promising results"))}


def test_a_persons_first_name_written_only_where_a_sentence_starts_stays_capitalized():
    # Inspec: "Lawrie Holmes looks at how the Internet is driving change" was shown as "lawrie Holmes"
    papers = [Paper("a", "Lawrie Holmes looks at how the Internet is driving change for brokers.", "Brokers online"),
              Paper("b", "Wavelet transforms compress images; the wavelet transform is fast.", "Image coding")]
    keyphrases = {"a": _kp("Lawrie Holmes", "brokers"), "b": _kp("Wavelet transforms", "images")}
    concepts, _ = normalize_concepts(papers, keyphrases, stoplist=())
    names = {c.name for c in concepts.values()}
    assert "Lawrie Holmes" in names and "wavelet transform" in names


def test_a_names_particle_stays_before_a_name_joined_to_another_word():
    # hep-th listed "Sitter/conformal field theory correspondence" and "Sitter-tunneling picture"
    found = candidate_phrases("We investigate de Sitter/conformal field theory correspondence. We verify this de "
                              "Sitter-tunneling picture. We study de Sitter-invariant vacua.")
    assert {"de Sitter/conformal field theory correspondence", "de Sitter-tunneling picture",
            "de Sitter-invariant vacua"} <= set(found)
    assert not [p for p in found if p.startswith("Sitter")]


def test_a_text_holds_no_concept_that_starts_after_an_adverb_or_a_names_particle():
    # hep-th linked 8 papers that write "axially symmetric monopoles" to "symmetric monopole" (judged ungrammatical)
    # and papers on "de Sitter space-times" to "Sitter space-time"
    wanted = {"symmetric monopole", "sitter space time", "de sitter space time", "bps monopole"}
    heads = {"monopole", "time"}
    assert _text_keys("We study axially symmetric monopoles in de Sitter space-times.", wanted, heads) == {
        "de sitter space time": "de Sitter space-times"}
    assert _text_keys("Symmetric monopoles and spherically symmetric BPS monopoles.", wanted, heads) == {
        "symmetric monopole": "Symmetric monopoles", "bps monopole": "BPS monopoles"}


def test_a_verb_after_an_adverb_or_a_relative_pronoun_and_its_object_is_the_object():
    # hep-th listed "break supersymmetry" in 16 papers ("models that break supersymmetry dynamically")
    texts = ["Models that spontaneously break supersymmetry.", "We show how to break supersymmetry.",
             "Effects dynamically break supersymmetry.", "Effects can break the symmetry.", "To break the symmetry.",
             "We break them.", "Theories which break supersymmetry.", "Branes break supersymmetry."]
    assert verb_objects(texts, {"break supersymmetry"}) == {"break supersymmetry": "supersymmetry"}
    assert verb_objects(texts + ["The break supersymmetry gives."], {"break supersymmetry"}) == {}


def test_a_count_of_dimensions_with_a_symbol_is_where_a_theory_lives():
    assert [generic_phrase(k) for k in ["2+ε dimension", "d+1 dimension", "4 ε dimension", "2n+1 dimension",
                                        "extra dimension", "anomalous dimension"]] == [True] * 4 + [False] * 2


def test_a_plural_that_is_part_of_a_name_stays_plural():
    assert _display_name("coincident d3 brane", Counter({"coincident D3-branes": 6, "coincident D3-brane": 1}),
                         truecase={"brane": (0, 30)}) == "coincident D3-branes"
    assert _display_name("maxwell s equation", Counter({"Maxwell's equations": 6, "Maxwell's Equations": 1}),
                         truecase={"maxwell": (40, 0)}) == "Maxwell's equations"
    assert _display_name("dirac equation", Counter({"Dirac equation": 20, "Dirac equations": 3}),
                         truecase={"dirac": (90, 0)}) == "Dirac equation"
    assert _display_name("identical particle", Counter({"identical particles": 4})) == "identical particles"
    assert _display_name("multiple instance learning", Counter({"multiple instance learning": 9})) == \
        "multiple instance learning"


def test_hermitian_is_a_name_and_a_letter_after_a_slash_stays_apart_from_the_next_word():
    assert _display_name("non hermitian quantum field theory", Counter({"non-hermitian quantum field theory": 2}),
                         truecase={"hermitian": (3, 10)}) == "non-Hermitian quantum field theory"
    assert _display_name("hermitian symmetric space", Counter({"hermitian symmetric spaces": 3}),
                         truecase={"hermitian": (3, 10)}) == "Hermitian symmetric space"
    # ACM-CR showed "A/B-testing", one form of 17 ("A/B testing" 12)
    assert _display_name("a b testing", Counter({"A/B testing": 12, "A/B Testing": 4, "A/B-testing": 1})) == \
        "A/B testing"


def test_plurals_of_nouns_in_ic_are_singular_names_of_fields_stay():
    assert [concept_key(p) for p in ["controversial topics", "evaluation metrics", "null geodesics",
                                     "particle physics", "learning analytics", "altmetrics"]] == [
        "controversial topic", "evaluation metric", "null geodesic", "particle physics", "learning analytics",
        "altmetrics"]


def test_an_acronym_that_is_an_english_word_is_shown_only_where_papers_write_it():
    # ACM-CR showed "word embedding (WE)" in 63 papers' lists: four papers define "WE", no other writes it
    assert not _shown_acronym("word embedding", {"word embedding": 4}, 4, 63, "WE")
    assert _shown_acronym("word embedding", {"word embedding": 4}, 40, 63, "WE")
    assert _shown_acronym("large language model", {"large language model": 4}, 12, 63, "LLM")


def test_a_common_terms_acronym_is_shown_only_where_its_papers_write_it():
    # ACM-CR showed "social network (SN)" in 207 papers' lists (3 write "SN"), "e-commerce (E-Com)" in 31 (2 write it;
    # reviewers called it a broken name 7 times of 10)
    assert not _shown_acronym("social network", {"social network": 3}, 3, 207, "SN")
    assert not _shown_acronym("large language model", {"large language model": 4}, 4, 63, "LLM")
    assert _shown_acronym("collaborative filtering", {"collaborative filtering": 90}, 140, 420, "CF")
    assert _shown_acronym("pseudo relevance feedback", {"pseudo relevance feedback": 20}, 35, 78, "PRF")
    assert _shown_acronym("graph neural network", {"graph neural network": 3}, 3, 12, "GNN")  # a small corpus
    # an acronym many papers write is the field's, whatever the share: hep-th's "SCFT", 80 papers of 700
    assert _shown_acronym("superconformal field theory", {"superconformal field theory": 2}, 80, 700, "SCFT")
    # and its plural counts as it: hep-th defines "SCFTs" more often than "SCFT" (a first version hid it)
    papers = [Paper(f"p{i}", "Fixed points", f"Superconformal field theories (SCFTs) in {i} dimensions flow.")
              for i in range(4)]
    papers += [Paper(f"q{i}", "Flows", f"The superconformal field theory flows; the SCFT is {i}-dimensional.")
               for i in range(20)]
    papers += [Paper(f"r{i}", "Theories", f"A superconformal field theory of rank {i}.") for i in range(120)]
    keyphrases = {p.id: _kp("superconformal field theory") for p in papers}
    concepts, _ = normalize_concepts(papers, keyphrases, stoplist=())
    assert concepts["c:superconformal field theory"].acronym == "SCFT"


def test_a_name_an_acronym_spells_keeps_its_last_word():
    # ACM-CR's "RDF" was the concept "resource description" (the filler "framework" trimmed after expansion)
    papers = [Paper("a", "Linked data", "We publish the Resource Description Framework (RDF) graphs of a museum."),
              Paper("b", "Triple stores", "The Resource Description Framework (RDF) stores triples; RDF scales."),
              Paper("c", "Queries", "We query RDF with SPARQL. The RDF model is simple.")]
    keyphrases = {"a": _kp("Resource Description Framework", "museum"), "b": _kp("RDF", "triples"),
                  "c": _kp("RDF", "SPARQL")}
    concepts, _ = normalize_concepts(papers, keyphrases, stoplist=())
    assert "c:resource description framework" in concepts and "c:resource description" not in concepts
    assert trim_filler("exact string solutions") == "exact string solutions"
    assert trim_filler("AdS-Schwarzschild solutions") == "AdS-Schwarzschild solutions"
    assert trim_filler("team recommendation solutions") == "team recommendation"


def test_a_superlative_that_names_a_thing_stays_and_a_subjects_verb_is_no_part_of_a_concept():
    # ACM-CR listed "neighbor search" (of "approximate nearest neighbor search") in 7 papers, "advertisers bid" in 8,
    # "rerank" in 10 ("We rerank the results")
    found = set(candidate_phrases(
        "We find the shortest path with nearest neighbor queries. We construct highest weight representations in the "
        "lowest Landau level. We rerank the results. Search engines have become common. "
        "We report the best results."))
    assert {"shortest path", "nearest neighbor queries", "highest weight representations", "lowest Landau level",
            "Search engines"} <= found
    assert not {"rerank", "best results", "path", "neighbor queries", "engines"} & found


def test_a_titles_verb_after_a_modal_is_no_part_of_a_concept():
    # ACM-CR listed "share common interest" of "People of Opposing Views Can Share Common Interests"
    phrases = [c.phrase for c in find_candidates("", title="People of Opposing Views Can Share Common Interests")]
    assert "Common Interests" in phrases and not [p for p in phrases if p.startswith("Share")]
    assert [c.phrase for c in find_candidates("", title="Can Twitter Predict Election Results?")] == [
        "Twitter", "Election Results"]


def test_a_titles_adverb_and_a_titles_prefixed_gerund_end_no_concept():
    # ACM-CR listed "misinformation objectively" and "debiasing crowdsourced batch"
    assert "Misinformation" in [c.phrase for c in find_candidates(
        "", title="Can The Crowd Identify Misinformation Objectively? The Effect of Judgment Scale")]
    assert [c.phrase for c in find_candidates("", title="Debiasing Crowdsourced Batches")] == ["Crowdsourced Batches"]
    # a name's particle whose name the run lost is no concept; a title's adverb before its adjective starts a name
    assert "de" not in candidate_phrases("This propagator possess the de Sitter-invariance and causality properties.")
    assert [c.phrase for c in find_candidates("", title="Decoupling of Translational Modes")] == [
        "Decoupling", "Translational Modes"]


def test_a_potential_or_a_functional_before_and_ends_its_phrase():
    # hep-th lost "effective potential" wherever "and" followed it (230 abstracts write "<word> potential and"), and
    # "generating functional" everywhere (276 abstracts)
    found = set(candidate_phrases(
        "We compute the effective potential and the vacuum energy. The energy functional and its minima are found. "
        "The generating functional for hard processes is derived, by automatically generating labels."))
    assert {"effective potential", "vacuum energy", "energy functional", "generating functional", "labels"} <= found
    assert not {"effective", "energy", "generating labels", "functional"} & found


def test_what_people_do_is_no_part_of_a_concept():
    # ACM-CR listed "advertisers bid" in 8 papers and "rerank" in 10; "filter document" of "trained to filter documents"
    found = set(candidate_phrases(
        "Advertisers bid on keywords. Searchers struggle with formulating queries. A network is trained to filter "
        "documents. We then use it to rerank the rest unseen documents. It then reranks these passages. The search "
        "engine results page for each query is shown. This is related to model selection. People search for "
        "answers. We count solutions modulo gauge transformations."))
    assert {"Advertisers", "keywords", "Searchers", "documents", "rest unseen documents", "passages",
            "search engine results page", "model selection", "People", "answers", "gauge transformations"} <= found
    assert not {"Advertisers bid", "struggle", "filter documents", "rerank", "reranks", "People search",
                "modulo gauge transformations"} & found


def test_two_title_gerunds_of_one_object_are_verbs_and_a_titles_plural_shares_no_head():
    # ACM-CR listed "classifying" of "Using Web Structure for Classifying and Describing Web Pages"
    assert [c.phrase for c in find_candidates("", title="Using Web Structure for Classifying and Describing Web Pages")
            ] == ["Web Structure", "Web Pages"]
    assert [c.phrase for c in find_candidates("", title="Blogs and Social Media Analysis")] == [
        "Blogs", "Social Media Analysis"]


def test_the_experiment_and_the_accuracy_of_an_act_are_generic():
    # reviewers judged 1 of 10 labelled ACM-CR concepts of such shape good; an act's model or metric is an authors'
    # keyword ("retrieval models", "evaluation metrics")
    keys = {"retrieval model", "evaluation metric", "retrieval experiment", "prediction accuracy", "topic model",
            "recommendation problem", "recommender problem", "recommendation system", "recommender system"}
    assert generic_words(keys) & keys == {"retrieval experiment", "prediction accuracy", "recommendation problem"}
    assert generic_phrase("n 2 supersymmetric extension") and not generic_phrase("n 2 superconformal algebra")


def test_an_activity_after_its_object_ends_the_phrase_on_it():
    # "ranking" is an adjective to the lexicon: "document ranking" was "document" before a comma or a full stop in
    # 56 ACM-CR abstracts, "relevance ranking" "relevance" in 33
    found = set(candidate_phrases("We study document ranking, which is hard. Relevance ranking helps."))
    assert {"document ranking", "Relevance ranking"} <= found and not {"document", "Relevance"} & found


def test_a_name_and_a_noun_under_that_name_is_one_idea():
    # ACM-CR listed "Airbnb", "Airbnb demand" and "Airbnb listing" in one paper's top 10
    papers = [Paper("a", "Airbnb hosts", "We study Airbnb listings in Paris. Airbnb grows; hotels compete with it."),
              Paper("b", "Pricing on Airbnb", "Airbnb listings are priced by hosts. We model Airbnb prices."),
              Paper("c", "Hotels", "Hotels compete with Airbnb listings and Airbnb hosts.")]
    keyphrases = {"a": _kp("Airbnb", "Airbnb listings", "hotels"), "b": _kp("Airbnb listings", "Airbnb", "hosts"),
                  "c": _kp("hotels", "Airbnb listings", "Airbnb")}
    concepts, mentions = normalize_concepts(papers, keyphrases, stoplist=())
    assert concepts["c:airbnb listing"].name == "Airbnb listing"
    linked = {(m.paper_id, m.concept_id) for m in mentions}
    assert ("a", "c:airbnb") in linked and ("a", "c:airbnb listing") not in linked  # the name ranks above
    assert {("b", "c:airbnb listing"), ("b", "c:airbnb")} <= linked  # the thing of the name ranks above the name
    # a name the corpus writes mostly before its noun is the noun's modifier: "Ising" in 4 hep-th papers, "Ising model"
    # in 38 (a first version lost "Ising model" where "Ising" ranked above it)
    papers = [Paper(p, "Spin models", "The Ising model is solved. Ising spins order.") for p in "def"]
    keyphrases = {"d": _kp("Ising", "Ising model"), "e": _kp("Ising model", "spins"), "f": _kp("Ising model")}
    _, mentions = normalize_concepts(papers, keyphrases, stoplist=())
    assert ("d", "c:ising model") in {(m.paper_id, m.concept_id) for m in mentions}


def test_a_noun_the_lexicon_knows_as_a_verb_ends_a_phrase_after_its_adjective():
    # "coordinate" is a verb to the lexicon: "the radial coordinate is" lost its phrase (hep-th writes "radial",
    # "spatial", "collective coordinate" before a verb or a stop some 200 times)
    found = set(candidate_phrases("The radial coordinate is compactified. We use a collective coordinate. "
                                  "The agents then jointly coordinate their plans."))
    assert {"radial coordinate", "collective coordinate", "agents", "plans"} <= found
    assert not {"coordinate", "coordinate their plans"} & found


def test_a_name_written_mostly_before_its_noun_is_no_concept_alone():
    # hep-th listed "Dirac", "Ising", "Schwarzschild", "Hamiltonian" alone (76 top-10 slots); their compounds have five
    # times the papers and more, and reviewers judged 1 of 24 such labelled names good
    papers = [Paper(f"p{i}", "Spectra", f"The Dirac operator on the torus {i} has a spectrum.") for i in range(6)]
    papers.append(Paper("q", "Dirac", "We study Dirac and the Dirac operator."))
    keyphrases = {f"p{i}": _kp("Dirac operator", "spectrum") for i in range(6)}
    keyphrases["q"] = _kp("Dirac", "Dirac operator")
    concepts, mentions = normalize_concepts(papers, keyphrases)
    assert "c:dirac operator" in concepts and "c:dirac" not in concepts


def test_what_authors_and_people_did_is_no_part_of_a_phrase():
    # ACM-CR listed "developed exponential family embedding", "trained NLP tool", "retrieval aim", "semi-automatically
    # label document" and "conducted experiments" (in 28 papers' candidates)
    found = set(candidate_phrases(
        "Recently, Rudolph et al. developed exponential family embeddings. We trained NLP tools to detect conflicts. "
        "Models of retrieval aim to model human notions of relevance. Selective labeling was developed to "
        "semi-automatically label documents. We conducted experiments on news."))
    assert {"exponential family embeddings", "NLP tools", "retrieval", "human notions", "documents", "experiments"} \
        <= found
    assert not {"developed exponential family embeddings", "trained NLP tools", "retrieval aim",
                "semi-automatically label documents", "conducted experiments"} & found
    # a participle after a noun stays the noun's modifier, and an aim a noun ("the aim to")
    assert {"trained models", "aim"} <= set(candidate_phrases("The trained models help. The aim to model it fails."))


def test_a_relation_an_owner_and_a_count_are_no_part_of_a_term():
    found = set(candidate_phrases(
        "They capture document similarity relative to a query. It extends Karger and Ruhl's expansion dimension. "
        "We add N_f flavours of quarks to N D3-branes."))
    assert {"document similarity", "Ruhl's expansion dimension", "flavours", "D3-branes"} <= found
    assert not {"document similarity relative", "Karger expansion dimension", "N_f flavours", "N D3-branes"} & found


def test_type_i_prime_is_a_name_of_its_own():
    # hep-th writes "type I'" (the T-dual of type I string theory) in 33 abstracts; the prime was read as a quote and
    # the theory merged with type I
    found = set(candidate_phrases("We revisit the duality between type I' string theory and type I strings."))
    assert {"type I' string theory", "type I strings"} <= found
    assert concept_key("type I' string theory") != concept_key("type I string theory")
    # and the name shows it (a first version showed the key, "type i prime string theory")
    key = concept_key("type I' string theory")
    assert _display_name(key, Counter({"Type I' String Theory": 2, "type I' string theories": 1})) == \
        "type I' string theory"


def test_a_singular_subjects_verb_before_its_object_ends_the_phrase():
    # ACM-CR listed "non-redundant clustering address" ("non-redundant clustering addresses this class of problems")
    found = set(candidate_phrases("Non-redundant clustering addresses this class of problems. Query expansion "
                                  "improves the recall. We store IP addresses."))
    assert {"Non-redundant clustering", "Query expansion", "IP addresses"} <= found
    assert not {"Non-redundant clustering addresses", "Query expansion improves"} & found


def test_an_atlas_is_no_plural():
    # ACM-CR listed "digital atla" (the Digital Atlas of American Religion)
    assert concept_key("Digital Atlas") == "digital atlas" and concept_key("digital atlases") == "digital atlas"
    assert concept_key("uses") == "use" and concept_key("biases") == "bias"


def test_greek_and_latin_plurals_keep_their_singular():
    # ACM-CR listed "fixed-space synopse" and "financial crise", hep-th "alpha helice" (judged broken names)
    assert concept_key("fixed-space synopses") == "fixed space synopsis"
    assert concept_key("financial crises") == "financial crisis" == concept_key("financial crisis")
    assert concept_key("alpha helices") == "alpha helix" and concept_key("online quizzes") == "online quiz"
    assert concept_key("knowledge bases") == "knowledge base" and concept_key("service prices") == "service price"
    assert concept_key("cosmos") == "cosmos" and concept_key("suffices") == "suffice"  # no "cosmo"; the verb


def test_a_verb_and_its_object_are_the_activity_the_field_names():
    # ACM-CR listed "modeling user behavior" in 9 papers (one abstract's "we show that modeling user behavior ..." read
    # as a determiner before the gerund) and "rank document" in 11 ("to rank documents"; "the rank" is more common
    # than "to rank the", so "rank" was no verb), where 40 papers write "document ranking"
    texts = ["We show that modeling user behavior helps.", "Modeling user behavior is hard.", "Modeling the clicks.",
             "By modeling them we learn.", "Modeling a user works.", "The rank of a page.", "The rank is high.",
             "We rank documents by relevance.", "To rank documents, we learn.", "Document ranking is old."]
    assert gerund_objects(texts, {"modeling user behavior", "user behavior"}) == {
        "modeling user behavior": "user behavior"}
    assert verb_objects(texts, {"rank document", "document ranking"},
                        df={"rank document": 2, "document ranking": 9}) == {"rank document": "document ranking"}
    assert verb_objects(texts, {"rank document"}) == {}  # without the compound "rank" stays a noun


def test_what_breaks_a_symmetry_is_no_part_of_the_symmetrys_name():
    # hep-th listed "tree-level superpotential break supersymmetry", "symmetry break supersymmetry"
    found = set(candidate_phrases("Models with an appropriate tree-level superpotential break supersymmetry. "
                                  "The SU(N) symmetry break supersymmetry dynamically. A symmetry breaks parity."))
    assert {"tree-level superpotential", "supersymmetry", "parity"} <= found
    assert not any(" break" in phrase for phrase in found)


def test_a_names_noun_comes_after_the_acronym_it_defines():
    # hep-th listed "Kerr-Newman (KN)", "Yang-Mills (YM)", "Calabi-Yau (CY)" (48 concepts of a name and its acronym
    # alone, judged ungrammatical): the names are a modifier, their noun comes after the parenthesis
    found = set(candidate_phrases(
        "We study the Kerr-Newman (KN) black holes. For the Yang-Mills (YM) fields. We use the "
        "Expectation-Maximization (EM) algorithm and a Latent Dirichlet Allocation (LDA) model."))
    assert {"Kerr-Newman black holes", "Yang-Mills fields", "Expectation-Maximization algorithm",
            "Latent Dirichlet Allocation"} <= found
    assert not {"Kerr-Newman", "Yang-Mills", "Expectation-Maximization", "KN", "YM", "EM"} & found


def test_an_adverb_before_a_clauses_gerund_starts_no_phrase():
    # ACM-CR listed "first defining simple atomic mapping" ("by first defining simple atomic mappings")
    found = set(candidate_phrases("We do this by first defining simple atomic mappings. This is done by first order "
                                  "perturbation theory."))
    assert {"atomic mappings", "first order perturbation theory"} <= found
    assert not any("defining" in phrase for phrase in found)


def test_a_name_written_only_in_the_plural_keeps_its_s():
    # ACM-CR showed "AspecTile", "HypTrail", "CluWord" (systems named AspecTiles, HypTrails, CluWords) and hep-th
    # "superHigg"; "ConvNets" are ConvNets where a text writes "ConvNet"
    texts = ["AspecTiles show aspects. We compare AspecTiles with ConvNets.", "A ConvNet and superHiggs fields."]
    words = {"aspectile", "aspectiles", "convnet", "convnets", "superhigg", "superhiggs", "field", "fields"}
    shaped = word_shapes(texts, words, truecase_counts(texts, words))
    assert _display_name(concept_key("AspecTiles"), Counter({"AspecTiles": 2}), shaped=shaped) == "AspecTiles"
    assert _display_name(concept_key("superHiggs"), Counter({"superHiggs": 1}), shaped=shaped) == "superHiggs"
    assert _display_name(concept_key("ConvNets"), Counter({"ConvNets": 1}), shaped=shaped) == "ConvNet"


def test_a_name_after_its_particle_keeps_its_capital():
    # hep-th showed "de sitter quantum field theory" of a title's "de Sitter Quantum Field Theory" ("sitter" is an
    # English word, so the title's run of capitals was put in lower case)
    truecase = {"sitter": (900, 0), "quantum": (5, 900), "field": (3, 900), "theory": (10, 900), "de": (50, 900)}
    assert _display_name("de sitter quantum field theory", Counter({"de Sitter Quantum Field Theory": 1}),
                         truecase=truecase) == "de Sitter quantum field theory"


def test_a_pair_written_as_a_verb_and_its_object_is_one_whatever_its_first_word():
    # ACM-CR listed "model user preference" (6 papers), "rank item", "test change": "model" and "rank" are more often
    # nouns, so no base form was read as a verb; but "model user" follows "to", a modal or a person 48 times of 76
    texts = ["The model works.", "A model of it.", "The model is big.", "The model fits.",
             "We try to model user preferences.", "We model user preferences.", "It can model user preferences.",
             "to better model user preferences", "The user model.", "to rank items", "we rank items", "to rank items",
             "The rank is low.", "The rank of it.", "the rank", "Item ranking is old.",
             "It is sensitive to quantum noise.", "due to quantum noise", "to quantum noise"]
    keys = {"model user preference", "rank item", "item ranking", "quantum noise", "model"}
    assert verb_objects(texts, keys, df={"model user preference": 6, "rank item": 3, "item ranking": 9,
                                         "quantum noise": 3}) == {
        "model user preference": "user preference", "rank item": "item ranking"}


def test_a_names_own_spelling_absorbs_its_misspelling():
    # hep-th showed "Chern Simon" (3 papers): texts writing "Chern-Simon" made a key "chern simon" that had more papers
    # than "chern simons" and absorbed it
    same = np.array([1.0, 0.0])
    probes = {"chern simon": "Chern-Simon", "chern simons": "Chern-Simons"}
    merged = near_synonyms(probes, {"chern simon": 4, "chern simons": 3}, vectors={"Chern-Simon": same,
                                                                                  "Chern-Simons": same})
    assert merged == {"chern simon": "chern simons"}


def test_a_part_s_acronym_stays_in_the_name_most_texts_write():
    # hep-th showed "Becchi-Rouet-Stora-Tyutin cohomology" for 54 papers' "BRST cohomology" once one text wrote
    # "Becchi-Rouet-Stora-Tyutin (BRST) cohomology"; the acronym names the part, so no label shows it
    forms = Counter({"BRST cohomology": 60, "Becchi-Rouet-Stora-Tyutin cohomology": 1})
    key = "becchi rouet stora tyutin cohomology"
    brst = {"BRST": "Becchi-Rouet-Stora-Tyutin"}
    assert _acronym_form(key, forms, None, None, own_acronym=False, expansions=brst) == "BRST cohomology"
    # a form that merged in with another acronym is no spelling of the key (hep-th's 115 papers of "type IIA/IIB string
    # theory" were shown "type II string theory" by a first version)
    assert _acronym_form("type iia iib string theory", Counter({"type II string theory": 9, "type IIA/IIB string "
                                                                 "theory": 2}), None, None, own_acronym=False,
                         expansions=brst) is None
    # a concept with an acronym of its own is named spelled out; its label adds the acronym ("... (LDA)")
    assert _acronym_form(key, forms, None, None, own_acronym=True) is None
    # an acronym alone is the whole concept's: "TSVM" is named "transductive support vector machine"
    assert _acronym_form("transductive support vector machine", Counter({"TSVM": 8, "transductive SVM": 1}),
                         Counter({"transductive support vector machine": 1}), None, own_acronym=False) is None
    # and where many texts spell it out, so is the name
    assert _acronym_form(key, Counter({"BRST cohomology": 6, "Becchi-Rouet-Stora-Tyutin cohomology": 3}), None, None,
                         own_acronym=False) is None


def test_a_known_term_with_of_inside_is_one_phrase():
    # ACM-CR wrote "the curse of dimensionality" in 30 abstracts (lists held "curse" and "dimensionality"), "Twitter's
    # terms of service" ("Twitter's term"); hep-th "separation of variables" in 74
    terms = joinable_terms(["no text hyphenates them"])
    found = {c.phrase for c in find_candidates("We beat the curse of dimensionality. Twitter's terms of service forbid "
                                               "it. We use the separation of variables.", terms=terms)}
    assert {"curse of dimensionality", "separation of variables"} <= found
    assert not {"curse", "dimensionality", "Twitter's terms", "variables"} & found


def _phrases(text: str, title: str = "") -> set[str]:
    return {c.phrase for c in find_candidates(text, title=title)}


def test_a_gerund_before_its_subjects_verb_heads_the_compound():
    # hep-th wrote "gauge fixing is" 21 times and lists held "gauge"; ACM-CR's "trust-aware peer grading is missing"
    # gave "trust-aware peer" (judged broken)
    assert "trust-aware peer grading" in _phrases("Theoretical analysis for trust-aware peer grading is missing.")
    assert "gauge fixing" in _phrases("In this case the gauge fixing is subtle.")
    # a clause's participle stays a verb: "the geometry arising has" is no "geometry arising"
    found = _phrases("The geometry arising has a conical singularity.")
    assert "geometry" in found and not any("arising" in p for p in found)


def test_a_plurals_verb_before_its_preposition_ends_the_phrase():
    # ACM-CR listed "Applications range", "Users flock", "users rate" (judged ungrammatical), hep-th "5-branes cluster"
    assert not any(p.endswith(("range", "flock", "cluster")) for p in _phrases(
        "Applications range from search to ads. Users flock to social media. We need the 5-branes cluster near the "
        "second orbifold plane."))
    assert not any("rate" in p.split() for p in _phrases("Users rate items on a five-point scale."))
    # compounds whose plural is no subject stay ("search results page", "Potts model") and a "to" after a verb of
    # motion or limit is a preposition ("states contract to plane waves" keeps "plane waves")
    found = _phrases("The search results page for each query. The Potts model for three states. Localized states "
                     "contract to plane waves as the curvature goes to zero.")
    assert {"search results page", "Potts model", "plane waves"} <= found


def test_verbs_read_as_nouns_start_no_concept():
    # ACM-CR listed "rerank" (7 papers: "and then rerank the results"), "out-performs collaborative filtering", and
    # "art diversification" of "state-of-the art diversification" (all judged ungrammatical)
    found = _phrases("We retrieve documents with a standard retrieval method and then rerank the results. Our method "
                     "out-performs collaborative filtering. The state-of-the art diversification methods fail.")
    assert "rerank" not in found and "collaborative filtering" in found
    assert not any(p.startswith(("art", "method out")) for p in found)
    # "N_c-2 quarks" counts quarks as "N_f quarks" does
    assert _phrases("We find that N_c-2 quarks remain massless.") == {"quarks"}


def test_title_verbs_and_their_objects():
    # "Using Search Engine APIs" gave "engine API" (judged ungrammatical): the participle's object is a noun;
    # "by Jointly Embedding Instances" gave "embedding instance"; "Confinement and Novel non-abelian Solutions" gave
    # "confinement non-abelian solution" (no "Confinement Solutions" was meant)
    assert "Search Engine APIs" in _phrases("", title="Augmenting Repository Holdings Using Search Engine APIs")
    found = _phrases("", title="Representation Learning of Knowledge Bases by Jointly Embedding Instances and "
                               "Ontological Concepts")
    assert "Embedding Instances" not in found and "Ontological Concepts" in found
    found = _phrases("", title="QCD2-Screening, Confinement and Novel non-abelian Solutions")
    assert "Confinement" in found and not any(p.startswith("Confinement ") for p in found)
    # an adverb's participle after an article is an adjective of the noun phrase
    assert "Rotating String" in _phrases("", title="Solution for a Rigidly Rotating String")


def test_a_gerund_and_its_object_join_the_compound_a_few_papers_write():
    # ACM-CR listed "ranking author" (3 papers, judged ungrammatical) beside "author ranking" (2 papers): the compound
    # that names the activity needs no more papers than the gerund's phrase, only two and half as many
    texts = ["Ranking authors by citations.", "We study author ranking.", "Author ranking is old.",
             "Ranking authors is hard.", "ranking authors fairly", "The ranking function is fixed."]
    df = {"ranking author": 3, "author ranking": 2, "ranking function": 4, "function ranking": 2}
    assert gerund_objects(texts, set(df), df=df) == {"ranking author": "author ranking"}


def test_a_words_tex_dash_before_its_number_is_a_hyphen():
    # hep-th listed "massive spin--0 field" and "2--component KP hierarchy" (judged broken): TeX's "--" between a word
    # and a number is the hyphen the texts write elsewhere; a range of numbers stays as written
    assert decode_latex("massive spin--0 fields and the 2--component KP hierarchy, eqs. 10--12") == \
        "massive spin-0 fields and the 2-component KP hierarchy, eqs. 10--12"
    # after a prefix a name's capital takes a hyphen too ("super–Toda model" was judged broken twice), between names an
    # en dash
    assert decode_latex("the super--Toda model of non--Abelian Weyl--Wigner maps") == \
        "the super-Toda model of non-Abelian Weyl–Wigner maps"


def test_a_plurals_verb_after_its_modifier_ends_the_phrase():
    # ACM-CR's candidates held "struggle" of "Many organizations struggle to adapt" and "point" of "many studies point
    # to" (a plural's verb read as the plural's head noun); a name's plural is no subject ("Core Recommendations team
    # at")
    assert _phrases("Many organizations struggle to adapt their infrastructure.") == {"organizations",
                                                                                     "infrastructure"}
    assert {"studies", "strong influence"} <= _phrases("In this sense, many studies point to the strong influence.")
    assert "Core Recommendations team" in _phrases("He leads the Core Recommendations team at a store.")


def test_which_results_are_no_kind_of_search():
    # ACM-CR listed "old search" of "presented old search results" (judged ungrammatical)
    assert trim_filler("old search results") == "old search results"
    assert trim_filler("personalized search results") == "personalized search"


def test_a_singular_subjects_verb_ends_its_phrase():
    # ACM-CR listed "user clicks" of "a user clicks on a result" (6 papers) and hep-th "cosmic string contract" of "a
    # cosmic string contracts under its own tension" (judged ungrammatical): no plural heads a phrase "a" or "each"
    # opens, so the plural after a singular noun there is the noun's verb
    assert _phrases("In our model a user clicks on a result only if it is relevant.") == {"model", "user", "result"}
    assert "cosmic string" in _phrases("We describe what happens when a cosmic string contracts under its tension.")
    # a count before the plural makes it the head: "a few case studies", "a dozen case studies"
    assert "case studies" in _phrases("We present a few case studies of exhibitions.")
    assert "dozen case studies" in _phrases("They describe a dozen case studies from hospitals.")
    # "experiments on a Twitter dataset show promising and interesting results" gave "Twitter dataset show"
    assert "Twitter dataset" in _phrases("Evaluations on a Twitter dataset show promising and interesting results.")


def test_what_a_names_owner_does_is_no_concept():
    # ACM-CR listed "Microsoft's approach", "Hadoop's impact", "Amazon's business" (judged generic or ungrammatical)
    assert generic_phrase("microsoft s approach") and generic_phrase("hadoop s impact")
    assert generic_phrase("amazon s business") and generic_phrase("world s knowledge")
    assert not generic_phrase("coleman s theorem") and not generic_phrase("benford s law")
    assert not generic_phrase("green s function") and not generic_phrase("jaccard s index")
    # a person's named result stays ("Maldacena's conjecture", 5 hep-th papers; "Tate's algorithm", "Hirota's method")
    assert not any(generic_phrase(k) for k in ("maldacena s conjecture", "tate s algorithm", "hirota s method",
                                               "zeno s effect", "witten s formulation"))
    assert generic_phrase("feynman s approach") and generic_phrase("john bell s observation")
    # nor an occasion ("Stephen Hawking's 60th birthday party", "late 100th birthday": hep-th)
    assert generic_phrase("stephen hawking s 60th birthday party") and generic_phrase("late 100th birthday")
    assert not generic_phrase("birthday paradox")


def test_physics_bases_are_plurals_of_basis():
    # hep-th listed "fusion base" of "Fusion bases as facets of polytopes" (judged broken) beside "spinon base" and
    # "spinon basis": a key only ever written "... bases" means "basis" where the corpus writes those words with
    # "basis"; ACM-CR's "knowledge bases" stay knowledge bases
    papers = [Paper("p1", "We construct fusion bases of representations.", "Fusion bases as facets of polytopes"),
              Paper("p2", "The spinon bases of the model are new.", "Spinon bases"),
              Paper("p3", "A spinon basis and a fusion-basis defining inequality.", "Spinon basis"),
              Paper("p4", "We complete knowledge bases from text.", "Knowledge bases"),
              Paper("p5", "A knowledge base holds facts and a knowledge basis.", "Knowledge base completion")]
    keyphrases = {"p1": _kp("fusion bases"), "p2": _kp("spinon bases"),
                  "p3": _kp("spinon basis", "fusion-basis defining inequality"), "p4": _kp("knowledge bases"),
                  "p5": _kp("knowledge base", "knowledge basis")}
    _, mentions = normalize_concepts(papers, keyphrases, contain=False)
    keys = {m.concept_id for m in mentions}
    assert {"c:fusion basis", "c:spinon basis", "c:knowledge base"} <= keys
    assert not {"c:fusion base", "c:spinon base"} & keys


def test_a_names_folds_head_its_phrase():
    # hep-th listed "Calabi-Yau (CY)" of "F-theory on a Calabi-Yau (n+1)-fold" (judged ungrammatical): the fold in
    # brackets is one token, and a fold after a name with no noun after it is the phrase's noun
    found = _phrases("We show how F-theory on a Calabi-Yau (n+1)-fold is type IIB string theory on a Calabi-Yau "
                     "n-fold, and on a CY 3-fold with fluxes.")
    assert {"Calabi-Yau (n+1)-fold", "Calabi-Yau n-fold", "CY 3-fold"} <= found and "Calabi-Yau" not in found
    assert {"N-fold supersymmetry", "3-fold degeneracy"} <= _phrases("N-fold supersymmetry has a 3-fold degeneracy.")


def test_a_titles_branes_and_fields_share_no_head():
    # hep-th listed "superbranes Born-Infeld theory" of "Superbranes and Super Born-Infeld Theories" (ungrammatical)
    found = _phrases("", title="Superbranes and Super Born-Infeld Theories as Nonlinear Realizations")
    assert {"Superbranes", "Super Born-Infeld Theories"} <= found
    assert not any(p.startswith("Superbranes ") for p in found)
    # nor a field's name: "Unruh Radiation, Holography and Boundary Cosmology" gave "holography cosmology" (judged
    # broken)
    found = _phrases("", title="Unruh Radiation, Holography and Boundary Cosmology")
    assert {"Holography", "Boundary Cosmology"} <= found and "Holography Cosmology" not in found
    assert _phrases("", title="Holography and Black Hole Entropy") == {"Holography", "Black Hole Entropy"}


def test_peoples_names_alone_are_no_concept():
    # hep-th listed "Kaluza-Klein (KK)" (11 papers), "Yang-Mills (YM)", "Kerr-Newman (KN)": the modifier of a theory or
    # a black hole without its noun (reviewers judged 23 of 114 such labelled concepts good); a modifier before the
    # names makes a phrase, and a system's name of English words stays
    papers = [Paper(f"p{i}", "Kaluza-Klein modes of pure Yang-Mills and the Kaluza-Klein theory.", "KK")
              for i in range(3)] + [Paper("q", "We reduce Kaluza-Klein (KK) on a circle.", "Reduction"),
                                    Paper("r", "Fact-Finder finds facts.", "Fact-Finder")]
    keyphrases = {**{f"p{i}": _kp("Kaluza-Klein modes", "Kaluza-Klein theory", "pure Yang-Mills") for i in range(3)},
                  "q": _kp("Kaluza-Klein", "KK", "Kaluza Klein", "circle"), "r": _kp("Fact-Finder", "facts")}
    papers += [Paper("s", "A co-ranking scheme ranks authors.", "Co-Ranking Authors"),
               Paper("t", "The co-ranking scheme is new.", "Co-Ranking")]
    keyphrases.update({"s": _kp("Co-Ranking", "co-ranking scheme"), "t": _kp("Co-Ranking", "co-ranking scheme")})
    _, mentions = normalize_concepts(papers, keyphrases, contain=False)
    keys = {m.concept_id for m in mentions}
    assert "c:kaluza klein" not in keys and {"c:kaluza klein mode", "c:pure yang mills", "c:fact finder"} <= keys
    assert "c:co ranking" in keys  # a title's capitals make no name: the texts write "co-ranking"


def test_verbs_before_to_and_that_end_their_subjects_phrase():
    # hep-th listed "particle act" of "the mass of the particle acts to flip the spin" and "Shimura-Taniyama conjecture
    # state" of "The Shimura-Taniyama conjecture states that" (a plural read where the subject's verb is)
    assert "particle" in _phrases("The mass of the particle acts to flip the multi-component wave function.")
    assert "Shimura-Taniyama conjecture" in _phrases("The Shimura-Taniyama conjecture states that the transform is "
                                                     "modular.")
    assert "user reviews" in _phrases("We rank user reviews that mention the product.")
    # a title's participle after a plural: "Systems Impacting Human Quality of Life" gave "systems impacting human
    # quality of life"; "Linked Data Interlinking" and "Systems Engineering Methods" stay
    assert "Systems" in _phrases("", title="Knowledge-Driven Analytics and Systems Impacting Human Quality of Life")
    assert "Authoritative Linked Data Interlinking Approach" in _phrases(
        "", title="An Authoritative Linked Data Interlinking Approach")
    assert "Systems Engineering Methods" in _phrases("", title="Systems Engineering Methods for Data Mining Tools")
    assert "W3C Web Payments Working Group" in _phrases("We joined the W3C Web Payments Working Group in 2016.")
    # hep-th listed "super-Hamiltonians realizing dynamical OSp(2|2) supersymmetry" (judged ungrammatical)
    assert {"super-Hamiltonians", "dynamical OSp(2|2) supersymmetry"} <= _phrases(
        "A wide class of super-Hamiltonians realizing dynamical OSp(2|2) supersymmetry are free super-oscillators.")


def test_a_pair_and_its_anti_pair_modify_a_noun():
    # hep-th listed "brane-antibrane" (7 papers; judged ungrammatical): the corpus writes "brane-antibrane system",
    # "brane-antibrane pair" far more often than the pair alone
    papers = [Paper(f"p{i}", "The brane-antibrane system decays.", "Brane-antibrane systems") for i in range(5)] + [
        Paper("q", "Decay of Brane-Antibrane and Dielectric Brane.", "Decay")]
    keyphrases = {**{f"p{i}": _kp("brane-antibrane system", "decay") for i in range(5)},
                  "q": _kp("Brane-Antibrane", "dielectric brane")}
    _, mentions = normalize_concepts(papers, keyphrases, contain=False)
    keys = {m.concept_id for m in mentions}
    assert "c:brane antibrane" not in keys and {"c:brane antibrane system", "c:dielectric brane"} <= keys


def test_a_fields_core_word_before_a_broad_head_makes_no_kind():
    # ACM-CR listed "search engine" (119 papers' top ten; 4 of 30 labels good), "retrieval model", "recommendation
    # model", "document collection"; hep-th "gauge field", "gauge model": a word more than a tenth of the corpus
    # writes, before a head of no kind; a rarer modifier names one ("topic model", "translation model"), and so does a
    # kind the corpus gives an acronym
    papers = [Paper(f"p{i}", f"Search engines rank pages {i} for a user's recommendation. A search engine and "
                    + ("a translation model help." if i < 5 else "a crawler help."), f"T{i}") for i in range(30)]
    papers += [Paper(f"q{i}", f"Topic models and user interfaces (UI) of collection {i}.", f"U{i}") for i in range(3)]
    papers += [Paper(f"r{i}", f"Gravity in case {i}.", f"V{i}") for i in range(210)]
    keyphrases = {p.id: _kp("search engines", "translation model" if i < 5 else "crawler")
                  for i, p in enumerate(papers[:30])}
    keyphrases.update({p.id: _kp("topic models", "user interfaces", "UI") for p in papers[30:33]})
    keyphrases.update({p.id: _kp("gravity") for p in papers[33:]})
    # a variant more papers have that is no core kind keeps its group: "recommendation system" of "recommender system"
    for i, p in enumerate(papers[33:39]):
        keyphrases[p.id] = _kp("recommender systems" if i < 4 else "recommendation system")
    _, mentions = normalize_concepts(papers, keyphrases, contain=False)
    keys = {m.concept_id for m in mentions}
    assert "c:search engine" not in keys
    assert {"c:translation model", "c:topic model", "c:user interface", "c:recommendation system"} <= keys
    # a small corpus's shares say little: its search engines stay
    few = papers[:40]
    _, mentions = normalize_concepts(few, {p.id: keyphrases[p.id] for p in few}, contain=False)
    assert "c:search engine" in {m.concept_id for m in mentions}


def test_groups_of_twice_n_are_notation_whole():
    # hep-th wrote "Sp(2N)", "SO(2N+1)", "USp(2k)", "osp(4|2N)" 269 times; the tagger cut them, and "superalgebra
    # osp" of "the Lie superalgebra osp(4|2N)" was a concept in 11 papers (judged broken)
    found = _phrases("We study the Sp(2N) gauge theory, SO(2N+1) groups and the Lie superalgebra osp(4|2N) on "
                     "USp(2k) orientifolds.")
    assert {"Sp(2N) gauge theory", "SO(2N+1) groups", "Lie superalgebra osp(4|2N)", "USp(2k) orientifolds"} <= found


def test_a_letter_another_form_joins_to_the_word_before_stays_apart_from_the_next():
    # hep-th showed "large N-limit" (judged broken) for 350 places' "large N limit", 107 "large-N limit" and 8
    # "large N-limit"; "D-brane" and "p-brane" keep their dash
    assert _display_name("large n limit", Counter({"large N limit": 8, "large-N limit": 6, "large N-limit": 1})) \
        == "large N limit"
    assert _display_name("d brane probe", Counter({"D brane probes": 3, "D-brane probe": 1})) == "D-brane probe"


def test_a_fields_everyday_act_alone_is_no_concept():
    # hep-th listed "compactification" (4.2% of the papers; 7 of 48 labels good), ACM-CR "summarization" and
    # "annotation": an act more than 1.5% of the papers write; a rarer one is a topic ("bosonization", 12 of 12)
    papers = [Paper(f"p{i}", f"Compactifications of model {i}." if i < 5 else f"Bosonization {i}." if i < 7
                    else f"Gravity in case {i}.", f"T{i}") for i in range(240)]
    keyphrases = {p.id: _kp("compactification" if i < 5 else "bosonization" if i < 7 else "gravity")
                  for i, p in enumerate(papers)}
    _, mentions = normalize_concepts(papers, keyphrases, contain=False)
    keys = {m.concept_id for m in mentions}
    assert "c:bosonization" in keys and "c:compactification" not in keys


def test_a_learned_plural_after_a_prefix_keeps_its_singular():
    # hep-th listed "supermatrice" of "supermatrices" (judged broken); "submatrices", "supertori" too
    assert [concept_key(p) for p in ("supermatrices", "random submatrices", "flat supertori", "superalgebras")] == [
        "supermatrix", "random submatrix", "flat supertorus", "superalgebra"]


def test_a_measure_a_unit_or_a_state_of_a_fields_core_word_is_no_kind():
    # labelled concepts of these heads after a word more than a tenth of the corpus writes were 27% good: ACM-CR's
    # "query term" (0 of 24), "evaluation measure", "Web page"; hep-th's "quantum state" (0 of 12), "quantum
    # correction"; a rarer modifier names a kind ("relevance score" where a twentieth write "relevance")
    papers = [Paper(f"p{i}", f"Quantum states and quantum corrections of a quantum model {i}."
                    + (" Relevance scores." if i < 10 else ""), f"T{i}") for i in range(40)]
    papers += [Paper(f"r{i}", f"Gravity in case {i}.", f"V{i}") for i in range(200)]
    keyphrases = {p.id: _kp("quantum states", "quantum correction", *(["relevance scores"] if i < 10 else []))
                  for i, p in enumerate(papers[:40])}
    keyphrases.update({p.id: _kp("gravity") for p in papers[40:]})
    _, mentions = normalize_concepts(papers, keyphrases, contain=False)
    keys = {m.concept_id for m in mentions}
    assert not {"c:quantum state", "c:quantum correction"} & keys and "c:relevance score" in keys


def test_a_conjecture_a_baseline_or_a_measurement_opens_no_term():
    found = _phrases("The conjectured S-duality is tested on retrieved documents, limited resources and "
                     "measured spectra against a baseline retrieval model.")
    assert {"S-duality", "documents", "resources", "spectra", "retrieval model"} <= found
    assert not {p for p in found if p.split()[0] in ("conjectured", "retrieved", "limited", "measured", "baseline")}


def test_a_name_written_almost_only_in_capitals_to_define_its_acronym_is_a_proper_name():
    # ACM-CR wrote "Resource Description Framework" 17 times in capitals of 20 away from a sentence's start, 13 of them
    # to define "RDF", and listed "resource description framework (RDF)" (judged broken); a method its texts define in
    # lower case as often as not stays in lower case
    texts = [f"Data in the Resource Description Framework (RDF) of source {i}." for i in range(8)]
    texts += ["Exposed as RDF (Resource Description Framework) data.", "A resource description framework (RDF) store."]
    texts += [f"We fit latent Dirichlet allocation (LDA) to corpus {i}." for i in range(5)]
    texts += [f"We fit Latent Dirichlet Allocation (LDA) to corpus {i}." for i in range(5)]
    names = {"c:rdf": "resource description framework", "c:lda": "latent Dirichlet allocation"}
    assert proper_names(texts, names) == {"c:rdf"}
    # a capital a sentence's start gives says nothing
    assert proper_names(["Latent Dirichlet allocation (LDA) fits.", "Latent Dirichlet Allocation is old.",
                         "Latent Dirichlet Allocation works.", "Latent Dirichlet Allocation (LDA) again."],
                        names) == set()
