"""Every paper's keyphrases merged into shared concepts: keys, acronyms, the thesaurus,
containment links, near-synonyms and display names, in that order."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from itertools import chain

import numpy as np

from kg.english import is_word
from kg.extract.candidates import word_class
from kg.models import Concept, Keyphrase, Mention, Paper
from kg.normalize.abbreviations import abbreviated_keys
from kg.normalize.acronyms import (_Acronyms, _corpus_acronyms, _expand, acronym_spellings, acronym_uses,
                                   find_acronyms, respell, spells)
from kg.normalize.cohesion import MIN_PAPERS, cohesion
from kg.normalize.containment import _MIN_CONTAIN_DF, _contained_keys
from kg.normalize.keys import (CONCEPT_PREFIX, bases_of_basis, concept_key, generic_phrases, misspellings,
                              singularize, spelled_form, spelling_variants)
from kg.normalize.generic import FILLER_HEADS, generic_words, incidental_modifiers, trim_filler
from kg.normalize.gerunds import gerund_objects, verb_objects
from kg.normalize.fieldwords import NAMED_KIND, bare_field_words, core_kinds, everyday_words
from kg.normalize.fragments import fragment_keys
from kg.normalize.quality import QualityModel, corpus_features, keep_each
from kg.normalize.names import (_NAME_FORM, _display_name, capitalized, cases_after_names, cut_name, entity_name,
                                institution_after_name, named_entities, names_inside, one_case_per_run, phrase_cases,
                                proper_names, proper_plural, run_phrases, title_evidence, truecase_counts,
                                word_shapes)
from kg.normalize.restatements import CLOSE_WORDS, one_idea_each, restatements, word_swaps
from kg.normalize.synonyms import MERGE_THRESHOLD, _apply_merges, _probe, near_synonyms

__all__ = ["normalize_concepts", "MIN_COHESION", "MIN_CONCEPTS"]

# Concepts whose papers have less in common than this are generic words of the corpus; see
# kg.normalize.cohesion and README, "Concepts".
MIN_COHESION = 0.02
MIN_CONCEPTS = 3  # a paper's concepts whatever their score (see min_relevance)


def normalize_concepts(
    papers: Iterable[Paper],
    keyphrases: Mapping[str, list[Keyphrase]],
    *,
    stoplist: Iterable[str] | None = None,
    thesaurus: Mapping[str, str] | None = None,
    embedder=None,
    vectors: Mapping[str, np.ndarray] | None = None,
    merge_threshold: float = MERGE_THRESHOLD,
    top_n: int | None = None,
    contain: bool = True,
    contain_df: float = 0.05,
    doc_vectors: np.ndarray | None = None,
    min_cohesion: float = MIN_COHESION,
    min_relevance: float | None = None,
    min_concepts: int = MIN_CONCEPTS,
    quality: QualityModel | None = None,
) -> tuple[dict[str, Concept], list[Mention]]:
    """Merge every paper's keyphrases into shared concepts.

    Parameters
    ----------
    papers : iterable of Paper
        The corpus (abstracts and titles are scanned for acronym definitions).
    keyphrases : dict
        Paper id -> keyphrases in rank order, as extraction returns them.
    stoplist : iterable of str, optional
        Generic phrases to drop; default :func:`generic_phrases`.
    thesaurus : dict, optional
        Label -> replacement, as :func:`kg.ingest.thesaurus.load_thesaurus` reads it.
        Labels and replacements are compared by concept key; an empty replacement
        drops the term. The thesaurus wins over every automatic rule.
    embedder : Embedder, optional
        When given, concepts whose names embed within ``merge_threshold`` cosine are
        merged (see :func:`near_synonyms`).
    vectors : mapping, optional
        Phrase -> vector already computed (extraction's); the embedder runs only for
        the concept names it lacks.
    merge_threshold : float
        Cosine similarity at or above which two concepts count as near-synonyms.
    top_n : int, optional
        When given, each paper's first ``top_n`` (non-generic) keyphrases are its
        concepts, and a keyphrase further down its list is kept only when it names a
        concept that another paper has in its first ``top_n``: a paper links to the
        corpus's concepts it really mentions, without adding concepts nobody else has.
    contain : bool
        With ``top_n``, a paper also links to a multi-word concept that its text contains
        inside a longer noun phrase ("denoising diffusion model" contains "diffusion model";
        "diffusion probabilistic model" does not), when another paper has that concept among its keyphrases
        (see :func:`_contained_keys`). Such links rank after the paper's own concepts.
    contain_df : float
        Concepts that the texts of more than this share of the papers (and more than
        ``_MIN_CONTAIN_DF`` papers) contain are too generic to be linked by containment.
    doc_vectors : ndarray, shape (n_papers, d), optional
        The papers' unit document vectors, rows in the order of ``papers``. With the default
        stoplist, a concept that at least :data:`~kg.normalize.cohesion.MIN_PAPERS` papers have
        among their keyphrases and whose papers have less in common than ``min_cohesion``
        (:func:`~kg.normalize.cohesion.cohesion`) is a generic word of this corpus, and dropped.
    min_cohesion : float
        See ``doc_vectors``.
    min_relevance : float or None
        A paper links to its own keyphrases that score at least this (the extraction's score:
        similarity to the paper plus its position and title bonuses), and to its ``min_concepts``
        best whatever their score; None (the default) keeps every one. Links by containment are
        kept, and so is every link in a corpus of fewer than 200 papers (a reading list needs
        all its links for a map). Scores depend on the model: the floor for all-MiniLM-L6-v2 is its embedder's
        ``relevance_floor`` (:data:`kg.extract.embedder.RELEVANCE_FLOOR`).
    min_concepts : int
        See ``min_relevance``.
    quality : QualityModel, optional
        The learned filter of :mod:`kg.normalize.quality` (for the model that made ``vectors``):
        a paper's mention it judges unlikely to be one an expert would list is dropped, and a
        concept left without mentions with it. None keeps every mention. A concept no extracted
        phrase names as such (its head trimmed off "cancer therapy literature", a link by containment)
        is judged by its name's vector from ``embedder``; without an embedder it stays.

    Returns
    -------
    concepts : dict
        Concept id -> :class:`~kg.models.Concept`, sorted by id.
    mentions : list of Mention
        One per (paper, concept), ranked 1.. within each paper by score.
    """
    stop = {concept_key(s) for s in stoplist} if stoplist is not None else generic_phrases()
    replace = {concept_key(label): (concept_key(new) if new.strip() else None, new.strip())
               for label, new in (thesaurus or {}).items() if concept_key(label)}
    papers = list(papers)
    local: dict[str, dict[str, str]] = {}
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    definers: Counter[str] = Counter()
    for paper in papers:
        found = find_acronyms(f"{paper.title}. {paper.abstract}")
        local[paper.id] = found
        for acronym, long_form in found.items():
            votes[acronym][long_form] += 1
            definers[acronym] += 1
    table = _Acronyms(_corpus_acronyms(votes, definers))
    # The acronym shown with a concept: the one defined most often for its long form.
    acronym_votes: dict[str, Counter[str]] = defaultdict(Counter)
    for acronym, long_forms in votes.items():
        for long_form, n in long_forms.items():
            acronym_votes[concept_key(long_form)][acronym] += n
    acronym_of = {key: min(c.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0]
                  for key, c in acronym_votes.items()}
    long_keys: dict[str, Counter[str]] = defaultdict(Counter)  # acronym -> the keys of its long forms -> papers
    for key, found in acronym_votes.items():
        for acronym, n in found.items():
            long_keys[acronym][key] += n
    numbers = {acronym: _other_number(acronym) for acronym in acronym_of.values()}  # "SCFTs" of "SCFT"
    uses = acronym_uses((f"{p.title} {p.abstract}" for p in papers), set(acronym_of.values()) | set(numbers.values()))
    # how the papers write the long forms they define: a name for concepts met as acronyms ("BPS")
    defined: dict[str, Counter[str]] = defaultdict(Counter)
    for long_forms in votes.values():
        for long_form, n in long_forms.items():
            defined[concept_key(long_form)][long_form] += n
    spelled = {acronym: min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0] for acronym, forms in votes.items()}
    spellings = acronym_spellings(votes)  # "Customer LifeTime Value (CLTV)": no name's capitals

    # long forms whose last word is a system's filler the acronym spells: "Resource Description Framework (RDF)"
    # keeps it ("hierarchical clustering algorithm (HCA)" is hierarchical clustering)
    spelled_fillers = {key for acronym, long_forms in votes.items() for key in map(concept_key, long_forms)
                       if key.rsplit(" ", 1)[-1] in _SYSTEM_FILLERS and spells(acronym, key)
                       and not spells(acronym, concept_key(trim_filler(key)))}

    def trimmed(phrase: str) -> str:
        return phrase if spelled_fillers and concept_key(phrase) in spelled_fillers else trim_filler(phrase)

    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    preferred: dict[str, str] = {}  # key -> display name the thesaurus asks for
    best: dict[tuple[str, str], tuple[float, str]] = {}
    found_keys: dict[str, list[tuple[str, Keyphrase]]] = {}
    shared_keys: dict[str, str | None] = {}  # surface -> key, in papers that define no acronym
    for paper in papers:
        acronyms = table.for_paper(local[paper.id])
        rows = found_keys[paper.id] = []
        for phrase in keyphrases.get(paper.id, []):
            surface = trimmed(phrase.phrase)  # the key's; the mention keeps what the paper wrote
            if local[paper.id]:  # the paper's own definitions may change its keys
                key = _key_of(surface, acronyms, replace, preferred, trimmed)
            elif surface in shared_keys:
                key = shared_keys[surface]
            else:
                key = shared_keys[surface] = _key_of(surface, acronyms, replace, preferred, trimmed)
            if key and key not in stop:
                rows.append((key, phrase))
    incidental = incidental_modifiers(_papers_per_key(found_keys))
    for pid, rows in found_keys.items():  # "standard matrix factorization model" is the matrix factorization model
        found_keys[pid] = [(key if key in preferred else incidental.get(key, key), phrase) for key, phrase in rows]
    df = _papers_per_key(found_keys)
    bodies = [text for p in papers for text in (p.title or "", p.abstract or "")]
    unpinned = set(df) - set(preferred)
    objects, verbs = gerund_objects(bodies, unpinned, df=df), verb_objects(bodies, unpinned, df=df)
    for pid, rows in found_keys.items():  # "modeling user behavior" is a verb and its object, "user behavior";
        # "ranking documents" is "document ranking" where more papers write that; "train word embeddings" (after
        # "to") is "word embedding"
        found_keys[pid] = [(objects[key] if key in objects and _GERUND_FIRST.match(trimmed(phrase.phrase))
                            else verbs.get(key, key), phrase) for key, phrase in rows]
    df = _papers_per_key(found_keys)
    variants, typos = spelling_variants(df, pinned=preferred), misspellings(df, pinned=preferred)
    written: dict[str, set[str]] = defaultdict(set)
    for rows in found_keys.values():
        for key, phrase in rows:
            written[key].add(phrase.phrase)
    typos |= {key: basis for key, basis in bases_of_basis(written, df).items() if key not in preferred}
    for pid, rows in found_keys.items():  # "multitask learning" is "multi-task learning", "2D gravity" two-dimensional;
        # "spinon bases" are spinon basis's
        found_keys[pid] = [(variants.get(typos.get(key, key), typos.get(key, key)), phrase) for key, phrase in rows]
    everywhere, per_paper = abbreviated_keys(
        {pid: [(key, phrase.phrase) for key, phrase in rows] for pid, rows in found_keys.items()},
        {key for rows in found_keys.values() for key, _ in rows},
        defined={acronym.lower(): concept_key(long_form) for acronym, long_form in table.corpus.items()})
    everywhere = {key: spelled for key, spelled in everywhere.items() if key not in preferred and spelled not in everywhere}
    for pid, rows in found_keys.items():  # "RG flow" is the renormalization group flow
        own = {key: spelled for key, spelled in per_paper.get(pid, {}).items() if key not in preferred}
        found_keys[pid] = [(own.get(key) or everywhere.get(key, key), phrase) for key, phrase in rows]
    every = {key for rows in found_keys.values() for key, _ in rows}
    # how the corpus writes each word away from sentence starts: names for the generic check and display
    # (and titles written as sentences: "The Malaysian model", whose abstract never writes "Malaysian")
    texts = [*chain((p.abstract for p in papers),
                    (title_evidence(p.title) for p in papers if p.title and not p.title_derived))]
    words = {w for key in every for w in key.split() if w.isalpha()} | {
        key.rsplit(" ", 1)[-1] + "s" for key in every}  # and "Berkovits" of "berkovit"
    truecase = truecase_counts(texts, words)
    shapes = word_shapes(texts, words, truecase)  # "SVM" of a title's "Svms"
    if stoplist is None:  # the default stoplist comes with the corpus's generic words
        names = _one_word_names(found_keys, truecase)
        named = {key for key, found in acronym_votes.items() if sum(found.values()) >= NAMED_KIND}  # "SCFT"
        generic = generic_words(every, names=names, abbreviated=named) | bare_field_words(found_keys)
        generic |= everyday_words(papers, {key for key in every if " " not in key}, names)
        defining = {key: sum(found.values()) for key, found in acronym_votes.items()}
        generic |= core_kinds(papers, _papers_per_key(found_keys), names, defining)
        generic |= _name_modifiers(found_keys, {key for key in names if key.isalpha() and key not in shapes})
        generic |= fragment_keys([key for key, _ in rows] for rows in found_keys.values())
        generic |= _names_alone(found_keys, truecase)
        generic |= _pair_modifiers(found_keys)
        stop = stop | ((generic | _people(papers, every, names)) - set(preferred))
        if doc_vectors is not None:
            stop = stop | (_diffuse(papers, found_keys, doc_vectors, min_cohesion) - set(preferred))
    keyed: dict[str, list[tuple[str, Keyphrase]]] = {}
    primary: dict[str, set[str]] = defaultdict(set)  # concept key -> papers with it in their top_n
    for paper in papers:
        rows = keyed[paper.id] = [(key, phrase) for key, phrase in found_keys.pop(paper.id) if key not in stop]
        ideas: list[str] = []  # the paper's top_n keys, none restating another
        for key, phrase in rows:
            if top_n is None or key in ideas:
                primary[key].add(paper.id)
            elif len(ideas) < top_n and not restatements(ideas + [key]):
                primary[key].add(paper.id)
                ideas.append(key)
    contained: dict[str, dict[str, str]] = {}  # paper id -> concept key -> the words its text has
    written_in: dict[str, Counter[str]] = defaultdict(Counter)  # concept key -> words of papers linked by containment
    if top_n is not None and contain:
        contained = _contained_keys(papers, keyed, primary, max_df=max(_MIN_CONTAIN_DF, contain_df * len(papers)),
                                    per_paper=max(1, top_n // 2))
        for pid, keys in contained.items():  # "EM algorithm" in a paper that defines EM is its expectation maximization
            if local[pid]:
                own, acronyms = {key for key, _ in keyed[pid]}, table.for_paper(local[pid])
                for key in [k for k, words in keys.items() if k not in own and _key_of(
                        words or k, acronyms, {}, {}) in own - {k}]:
                    del keys[key]
    for paper in papers:
        for key, phrase in keyed[paper.id]:
            if not primary[key] - {paper.id} and paper.id not in primary[key] and not (
                    key in contained.get(paper.id, ())):
                continue
            surfaces[key][trimmed(phrase.phrase)] += 1
            previous = best.get((paper.id, key))
            if previous is None or phrase.score > previous[0]:
                best[(paper.id, key)] = (phrase.score, phrase.phrase)
    if min_relevance is not None and len(papers) >= _MIN_CORPUS:  # keyphrases of little relevance are no concepts
        best = _relevant(best, min_relevance, min_concepts)
        alive = {key for _, key in best}
        surfaces = defaultdict(Counter, {key: n for key, n in surfaces.items() if key in alive})
    if contained:
        judged = (min_relevance is not None and doc_vectors is not None and vectors is not None
                  and len(papers) >= _MIN_CORPUS)
        relevance = (_containment_relevance(papers, keyed, contained, doc_vectors, vectors) if judged else {})
        lowest: dict[str, float] = {}
        for (pid, _), (score, _) in best.items():
            lowest[pid] = min(score, lowest.get(pid, score))
        for pid, found in contained.items():
            for key, words in sorted(found.items()):
                if (pid, key) in best:
                    continue
                if judged:  # a link by containment must be as relevant to the paper as its own concepts
                    score = relevance.get((pid, key))
                    if score is None or score < min_relevance:
                        continue
                else:  # no vectors to judge by: such links rank after the paper's own concepts
                    score = round(0.9 * lowest.get(pid, 0.0), 4)
                surfaces[key]  # noqa: B018 - the concept exists even if only containment links it
                best[(pid, key)] = (score, words)
                written_in[key][words] += 1  # how those papers write it: evidence for the name, not an alias

    if embedder is not None and surfaces:
        df = Counter(key for _, key in best)
        pinned = set(preferred)
        merged = near_synonyms({k: _probe(k, surfaces[k]) for k in surfaces}, df, embedder, vectors=vectors,
                               threshold=merge_threshold, pinned=pinned)
        if merged:
            surfaces, best = _apply_merges(merged, surfaces, best)

    concepts: dict[str, Concept] = {}
    spelled_out: dict[str, str] = {}  # concept id -> its spelled-out name, where its name keeps an acronym
    linked = Counter(key for _, key in best)
    for key in sorted(surfaces):
        cid = CONCEPT_PREFIX + key
        acronym = acronym_of.get(key)
        if acronym and not _shown_acronym(key, long_keys[acronym], uses[acronym] + uses[numbers[acronym]], linked[key],
                                          acronym):
            acronym = None  # a paper's coinage for a common term
        aliases = set(surfaces[key])
        if acronym:
            aliases.add(acronym)
        own, long_forms = respell(surfaces[key], spellings), respell(defined.get(key, Counter()), spellings)
        written = own + long_forms + respell(_spelled_out(key, surfaces[key], spelled), spellings)
        name = preferred.get(key)
        if not name:
            short = _acronym_form(key, own, long_forms or None, truecase, shapes,  # as texts write it, acronym and all
                                  own_acronym=key in acronym_of, expansions=spelled)
            name = _display_name(key, written, truecase=truecase, evidence=written_in.get(key), shaped=shapes)
            if short is not None:
                spelled_out[cid], name = name, short  # spelled out where another concept has that name
        if acronym and len(acronym) > 2 and acronym.endswith("s") and acronym[-2].isupper():
            acronym = acronym[:-1]  # LLMs -> LLM, SciKGs -> SciKG
        if acronym and acronym.casefold() == name.casefold():
            acronym = None  # the name is the acronym ("BERT")
        concepts[cid] = Concept(cid, name, tuple(sorted(aliases)), acronym)
    _tell_apart(concepts, spelled_out, {CONCEPT_PREFIX + key: n for key, n in linked.items()})

    by_paper: dict[str, list[tuple[float, str, str]]] = defaultdict(list)
    for (pid, key), (score, surface) in best.items():
        by_paper[pid].append((score, CONCEPT_PREFIX + key, surface))
    holders = Counter(key for _, key in best)  # papers linked to a concept (own keyphrase or containment)
    mentions: list[Mention] = []

    concept_vector: dict[str, np.ndarray | None] = {}

    def vector_of(name: str, cid: str) -> np.ndarray | None:  # the name's vector, else its surfaces'
        if cid not in concept_vector:
            phrases = (name, *(s for s, _ in surfaces[cid[len(CONCEPT_PREFIX):]].most_common()))
            concept_vector[cid] = next((vectors[p] for p in phrases if p in vectors), None)
        return concept_vector[cid]

    ranked_of = {paper.id: sorted(by_paper.pop(paper.id, []), key=lambda t: (-t[0], t[1])) for paper in papers}
    tops = ([cid[len(CONCEPT_PREFIX):] for _, cid, _ in ranked[:_SWAP_DEPTH]] for ranked in ranked_of.values())
    close = _close_words(tops, embedder, vectors) if embedder is not None else set()
    shown_names = _shown_as_names(concepts)
    lists = []
    for paper in papers:
        ranked = ranked_of.pop(paper.id)
        rows = {cid[len(CONCEPT_PREFIX):]: (score, cid, surface) for score, cid, surface in ranked}
        shared = {key for key in rows if holders[key] > 1}
        order, moved = one_idea_each(list(rows), shared=shared, close=close, named=shown_names, papers=holders)
        scores = {key: row[0] for key, row in rows.items()}
        for key, head in moved.items():  # a key in another's place takes its score
            scores[key], scores[head] = scores[head], scores[key]
        lists.append([(scores[key], rows[key][1], rows[key][2]) for key in order])
    if quality is not None and vectors is not None:  # the filter judges every paper's mentions at once
        rows_of: dict[str, list[int]] = defaultdict(list)  # concept id -> the papers it would stay in
        for row, ranked in enumerate(lists):
            for _, cid, _ in ranked:
                rows_of[cid].append(row)
        if embedder is not None:  # a concept no extracted phrase wrote as such is judged by its name's vector
            unseen = sorted(cid for cid in rows_of if vector_of(concepts[cid].name, cid) is None)
            unseen_names = [concepts[cid].name for cid in unseen]
            if unseen_names:
                concept_vector.update(zip(unseen, np.asarray(embedder.embed(unseen_names), dtype=np.float32)))
        flags = keep_each([[(concepts[cid].name, cid) for _, cid, _ in ranked] for ranked in lists], quality,
                          vector_of, keep=lambda cid: cid[len(CONCEPT_PREFIX):] in preferred,
                          corpus=corpus_features(rows_of, doc_vectors, len(papers)))
        lists = [[row for row, flag in zip(ranked, kept) if flag] for ranked, kept in zip(lists, flags)]
    for paper, ranked in zip(papers, lists):
        for rank, (score, cid, surface) in enumerate(ranked, start=1):
            mentions.append(Mention(paper.id, cid, round(score, 4), rank, surface))
    if quality is not None:  # a concept whose every mention the filter dropped is no concept
        linked = {m.concept_id for m in mentions}
        concepts = {cid: c for cid, c in concepts.items() if cid in linked or holders[cid[len(CONCEPT_PREFIX):]] == 0}
    names = {cid: c.name for cid, c in concepts.items() if cid[len(CONCEPT_PREFIX):] not in preferred}
    named = proper_names([p.abstract for p in papers], names)
    for cid in named:  # "Semantic Web", "World Wide Web"
        concept = concepts[cid]
        concepts[cid] = Concept(cid, capitalized(concept.name), concept.aliases, concept.acronym)
    texts = chain((p.abstract for p in papers),
                  (title_evidence(p.title) for p in papers if p.title and not p.title_derived))
    entities = named_entities(texts, names)
    for cid in entities:  # "General Data Protection Regulation", "Text Retrieval Conference"
        concept = concepts[cid]
        concepts[cid] = Concept(cid, entity_name(concept.name), concept.aliases, concept.acronym)
    abstract = {p.id: p.abstract for p in papers}
    texts_of: dict[str, list[str]] = defaultdict(list)  # a concept's papers' abstracts
    for m in mentions:
        texts_of[m.concept_id].append(abstract[m.paper_id])
    phrases = run_phrases(concepts[cid].name for cid in names)
    cases = phrase_cases(abstract.values(), phrases)
    after_names = cases_after_names(abstract.values(), {word for phrase in phrases for word in phrase})
    for cid in names.keys() - entities:  # "Digital Humanities community", not "digital Humanities community"; an
        # entity's words are capitalized wherever the texts write it ("Open Citation Corpus")
        concept = concepts[cid]
        name = one_case_per_run(concept.name, texts_of.get(cid, ()), cases, truecase, after_names)
        if name != concept.name:
            concepts[cid] = Concept(cid, name, concept.aliases, concept.acronym)
    inside = {tuple(w.casefold() for w in concepts[cid].name.split(" ")): concepts[cid].name
              for cid in sorted(named | entities)}  # sorted: one name a run, whatever the hash seed
    for cid in names.keys() - named - entities:  # "Semantic Web technology", as the name "Semantic Web" is shown
        concept = concepts[cid]
        name = names_inside(concept.name, inside)
        if name != concept.name:
            concepts[cid] = Concept(cid, name, concept.aliases, concept.acronym)
    written: dict[str, Counter[str]] = defaultdict(Counter)
    for m in mentions:
        written[m.concept_id][m.surface] += 1
    for cid in names:  # "Google Maps", a name, keeps its number; "Peking University library"
        concept = concepts[cid]
        name = institution_after_name(proper_plural(concept.name, written[cid]))
        if name != concept.name:
            concepts[cid] = Concept(cid, name, concept.aliases, concept.acronym)
    return concepts, mentions


def _papers_per_key(found_keys: Mapping[str, list[tuple[str, Keyphrase]]]) -> Counter[str]:
    """Key -> the papers whose keyphrases have it (paper id -> its (key, keyphrase) rows)."""
    return Counter(key for rows in found_keys.values() for key in {k for k, _ in rows})


_GERUND_FIRST = re.compile(r"[^\W\d_]+ing\s", re.IGNORECASE)  # a phrase's first word a gerund, not "mining-based"
_ACRONYM_TOKEN = re.compile(r"(?:(?<![\w-])|(?<=\d-))[A-Z][A-Z0-9]+s?(?![\w-])")  # "1/4-BPS" holds one


_SWAP_DEPTH = 15  # the keys of a paper's ranking compared for words swapped (a top 10 and those that may move in)


def _close_words(rankings: Iterable[list[str]], embedder,
                 vectors: Mapping[str, np.ndarray] | None) -> set[tuple[str, str]]:
    """The pairs of words (sorted) that two keys of one ranking differ by (:func:`word_swaps`) and that are
    close in meaning (:data:`CLOSE_WORDS`, the cosine of the model's vectors)."""
    pairs = set().union(*(word_swaps(keys) for keys in rankings))
    words = sorted({w for pair in pairs for w in pair})
    if not words:
        return set()
    missing = [w for w in words if vectors is None or w not in vectors]
    found = dict(zip(missing, np.asarray(embedder.embed(missing), dtype=np.float32))) if missing else {}
    unit = {w: v / (np.linalg.norm(v) or 1.0) for w in words
            for v in [np.asarray(found[w] if w in found else vectors[w], dtype=np.float32)]}
    return {(a, b) for a, b in pairs if float(unit[a] @ unit[b]) >= CLOSE_WORDS}


_USED_SHARE = 10  # an acronym defined once is shown where a tenth of its concept's papers write it at least
_COMMON_HOLDERS = 20  # a concept of this many papers shows an acronym only where an eighth of them write it, or
_COMMON_SHARE = 8  # this many papers at least
_COMMON_WRITERS = 20
# fillers (:func:`~kg.normalize.generic.trim_filler`) that end the name of a system an acronym spells
_SYSTEM_FILLERS = frozenset(("framework", "platform"))
# the lexicon's classes of English function words: an acronym spelled like one ("WE", "IT", "OR") reads as the word
_FUNCTION_CLASSES = frozenset("PRP PRP$ CC IN DT TO MD VBZ VBP WDT WP".split())


def _shown_acronym(key: str, long_keys: Mapping[str, int], papers: int, holders: int, acronym: str = "") -> bool:
    """Whether the concept ``key`` shows the acronym its long form was defined with, the acronym's definitions
    being ``long_keys`` (the key of each long form -> papers; forms with fewer or more words of the key count as
    the key's: "supersymmetric Yang-Mills" for "supersymmetric Yang-Mills theory"): when two papers define it
    so, or one does and the corpus uses it for this concept: a third of the acronym's definitions at least are
    this concept's ("SSB" is spontaneous symmetry breaking, defined so 8 times, not the supersymmetry breaking
    one paper abbreviates so), and ``papers`` that write it are a tenth of the ``holders`` of the concept at least
    (a system one paper names: "MIST"; "CF" in a reading list of eight). Not "Yang-Mills theory (YMT)", defined
    once among 243 papers that never write it, though "SYM" is written by 180 of 272.

    An ``acronym`` the concept's own words do not spell (:func:`~kg.normalize.acronyms.spells`) is a longer name's
    ("FIRE", the Forum for Information Retrieval Evaluation, for "information retrieval evaluation") or one paper's
    coinage ("DEERS" for "deep recommender system"): shown only where the papers writing it are half the concept's
    holders at least, and never where it spells the concept's first words ("collaborative filtering (CF)
    recommender": the papers write "CF" for collaborative filtering).

    A concept of :data:`_COMMON_HOLDERS` papers or more shows an acronym only where an eighth of them or
    :data:`_COMMON_WRITERS` papers write it: two papers' definitions do not make "search engine (SE)" the field's name.

    Examples
    --------
    >>> _shown_acronym("n 4 sym theory", {"sym theory": 1, "super yang mills": 2}, 180, 272)
    True
    >>> _shown_acronym("yang mills theory", {"yang mills theory": 1}, 1, 243)  # YMT
    False
    >>> _shown_acronym("supersymmetry breaking", {"supersymmetry breaking": 1, "spontaneous symmetry breaking": 8},
    ...                40, 123)
    False
    >>> _shown_acronym("missing person toolkit", {"missing person toolkit": 1}, 1, 2, "MIST")
    True
    >>> _shown_acronym("information retrieval evaluation", {"forum information retrieval evaluation": 6}, 9, 37, "FIRE")
    False
    >>> _shown_acronym("collaborative filtering recommender", {"collaborative filtering": 30}, 20, 25, "CF")
    False
    >>> _shown_acronym("co citation proximity analysis", {"citation proximity analysis": 2}, 2, 3, "CPA")
    True
    >>> _shown_acronym("bibliographic record", {"bibliographic record": 3}, 6, 8, "FRBR")
    False
    >>> _shown_acronym("web ontology language", {"web ontology language": 5}, 6, 8, "OWL")
    True
    >>> _shown_acronym("word embedding", {"word embedding": 4}, 4, 63, "WE")
    False
    >>> _shown_acronym("social network", {"social network": 9}, 3, 207, "SN")
    False
    >>> _shown_acronym("collaborative filtering", {"collaborative filtering": 90}, 140, 420, "CF")
    True
    >>> _shown_acronym("superconformal field theory", {"superconformal field theory": 2}, 80, 700, "SCFT")
    True
    """
    words = set(key.split())
    if acronym[:1].isupper() and acronym[0].lower() not in {w[0] for w in words}:
        return False  # a longer name's, whose first word the concept lacks: "bibliographic record (FRBR)", the
        # Functional Requirements for Bibliographic Records; "sentiment unification model (ASUM)" (not "OWL")
    if acronym and not spells(acronym, key) and (
            2 * papers < holders or any(key.startswith(k + " ") and spells(acronym, k) for k in long_keys)):
        return False  # nor one of the concept's first words': "collaborative filtering (CF) recommender"
    if holders >= _COMMON_HOLDERS and papers < _COMMON_WRITERS and _COMMON_SHARE * papers < holders:
        return False  # a common term's acronym few of its papers write is some papers' shorthand: "social network
        # (SN)", written by 3 of ACM-CR's 207 papers, "search engine (SE)" by 14; "e-commerce (E-Com)"; not
        # "collaborative filtering (CF)", 140 of 420, nor "superconformal field theory (SCFT)", 80 hep-th papers
    mine = sum(n for k, n in long_keys.items() if set(k.split()) <= words or words <= set(k.split()))
    if mine >= 2 and not (acronym.isupper() and word_class(acronym.lower()) in _FUNCTION_CLASSES):
        return True  # a function word in capitals must be written by the papers too: not "word embedding (WE)"
    return 3 * mine >= sum(long_keys.values()) and _USED_SHARE * papers >= holders


def _other_number(acronym: str) -> str:
    """The acronym's plural, or its singular where it is one: "SCFT" and "SCFTs", "GNNs" and "GNN".

    >>> _other_number("SCFT"), _other_number("GNNs")
    ('SCFTs', 'GNN')
    """
    if len(acronym) > 2 and acronym.endswith("s") and acronym[-2].isupper():
        return acronym[:-1]
    return acronym + "s"


def _tell_apart(concepts: dict[str, Concept], spelled_out: Mapping[str, str], papers: Mapping[str, int]) -> None:
    """Give two concepts shown under one name (case aside) their spelled-out names where their names keep
    an acronym: "RNN query" is a reverse nearest neighbor query in one paper and a recurrent neural
    network query in another; a user searching by name must be able to tell them apart. The one of
    more ``papers`` (id -> count) than any other keeps the name: "BPS soliton" of 16 papers stays, the
    "Fluxons BPS Solitons" of one title is spelled out.

    Examples
    --------
    >>> concepts = {"c:a": Concept("c:a", "RNN query", (), None), "c:b": Concept("c:b", "RNN query", (), None)}
    >>> spelled = {"c:a": "reverse nearest neighbor query", "c:b": "recurrent neural network query"}
    >>> _tell_apart(concepts, spelled, {"c:a": 1, "c:b": 1})
    >>> [c.name for c in concepts.values()]
    ['reverse nearest neighbor query', 'recurrent neural network query']
    >>> concepts = {"c:a": Concept("c:a", "RNN query", (), None), "c:b": Concept("c:b", "RNN query", (), None)}
    >>> _tell_apart(concepts, spelled, {"c:a": 1, "c:b": 5})
    >>> [c.name for c in concepts.values()]
    ['reverse nearest neighbor query', 'RNN query']
    """
    shown: dict[str, list[str]] = defaultdict(list)
    for cid, concept in concepts.items():
        shown[concept.name.casefold()].append(cid)
    for cids in shown.values():
        if len(cids) < 2:
            continue
        most = sorted(cids, key=lambda cid: -papers.get(cid, 0))
        if papers.get(most[0], 0) > papers.get(most[1], 0):
            cids.remove(most[0])  # the name is its own
        for cid in cids:
            if cid in spelled_out:
                concept = concepts[cid]
                concepts[cid] = Concept(cid, spelled_out[cid], concept.aliases, concept.acronym)


_SHORT_FORM_SHARE = 4  # times as many forms with the acronym as spelled out keep a part's acronym in the name


def _acronym_form(key: str, surfaces: Counter[str], defined: Counter[str] | None,
                  truecase: Mapping[str, tuple[int, int]] | None, shapes: Mapping[str, str] | None = None,
                  *, own_acronym: bool = True, expansions: Mapping[str, str] | None = None) -> str | None:
    """The name of a concept whose key spells out an acronym that no text of it spells out: as the
    texts write it, acronym and all ("RDBMS concept", "parallel NMF", "search engine API"; not
    "relational database management system concept"). None when a surface or a definition writes
    the long form, or no surface holds an acronym. A concept whose acronym names only a part of it
    (``own_acronym`` false: "BRST" of "BRST cohomology"), which its label cannot show, keeps the acronym's
    form where its texts write that :data:`_SHORT_FORM_SHARE` times as often as the long one: "BRST cohomology"
    (54 hep-th papers), though one writes "Becchi-Rouet-Stora-Tyutin (BRST) cohomology", if the form with its
    acronym spelled out (``expansions``, acronym -> long form) is the key (not "type II string theory" of a concept
    "type IIA/IIB string theory" that merged it).

    Examples
    --------
    >>> _acronym_form("parallel nonnegative matrix factorization", Counter({"parallel NMF": 2}), None, None)
    'parallel NMF'
    >>> _acronym_form("factoid question answering benchmark", Counter({"standard factoid QA benchmark": 1}), None, None)
    'factoid QA benchmark'
    >>> _acronym_form("latent dirichlet allocation", Counter({"LDA": 3, "latent Dirichlet allocation": 1}), None, None)
    >>> _acronym_form("n 2 quantum chromodynamics", Counter({"N=2 QCD": 1}), None, None)
    'N=2 QCD'
    >>> _acronym_form("four dimensional quantum chromodynamics", Counter({"4-dimensional QCD": 2}), None, None)
    '4-dimensional QCD'
    >>> _acronym_form("1 4 bogomol nyi prasad sommerfield state", Counter({"1/4-BPS states": 2}), None, None)
    '1/4-BPS state'
    >>> forms = Counter({"BRST cohomology": 60, "Becchi-Rouet-Stora-Tyutin cohomology": 1})
    >>> brst = {"BRST": "Becchi-Rouet-Stora-Tyutin"}
    >>> _acronym_form("becchi rouet stora tyutin cohomology", forms, None, None, own_acronym=False, expansions=brst)
    'BRST cohomology'
    >>> merged = Counter({"type II string theory": 9, "type IIA/IIB string theory": 2})
    >>> _acronym_form("type iia iib string theory", merged, None, None, own_acronym=False, expansions=brst)
    >>> _acronym_form("transductive support vector machine", Counter({"TSVM": 8, "transductive SVM": 1}), Counter(
    ...     {"transductive support vector machine": 1}), None, own_acronym=False)
    """
    spelled = sum(n for s, n in surfaces.items() if concept_key(s) == key) + sum((defined or Counter()).values())
    written, n = min(surfaces.items(), key=lambda kv: (-kv[1], kv[0])) if surfaces else ("", 0)
    if not surfaces or (spelled and (own_acronym or " " not in written.strip()
                                     or _SHORT_FORM_SHARE * spelled > sum(surfaces.values())
                                     or not _spelled_out(key, Counter({written: n}), expansions or {}))):
        return None  # an acronym alone ("TSVM") is the concept's own, named spelled out
    if not _ACRONYM_TOKEN.search(written):
        return None
    words, kept = written.split(), {spelled_form(w) for w in key.split()}
    while (len(words) > 1 and not _ACRONYM_TOKEN.search(words[0])
           and not {spelled_form(w) for w in concept_key(words[0]).split()} <= kept):
        words.pop(0)  # a modifier the key leaves out ("standard factoid QA benchmark"), not "N=2" of "N=2 QCD"
    surface = " ".join(words)
    own = concept_key(surface)
    forms = Counter({s: m for s, m in surfaces.items() if concept_key(s) == own}) + Counter({surface: n})
    return _display_name(own, forms, truecase=truecase, shaped=shapes)


def _spelled_out(key: str, surfaces: Counter[str], spelled: Mapping[str, str]) -> Counter[str]:
    """The surfaces of a concept written with an acronym ("BRST operator"), the acronym spelled
    out as its definitions write it ("Becchi-Rouet-Stora-Tyutin operator"): names for the concept.

    Examples
    --------
    >>> _spelled_out("becchi rouet stora tyutin operator", Counter({"BRST operators": 2}),
    ...              {"BRST": "Becchi-Rouet-Stora-Tyutin"})
    Counter({'Becchi-Rouet-Stora-Tyutin operators': 2})
    """
    out: Counter[str] = Counter()
    for surface, n in surfaces.items():
        if concept_key(surface) == key:
            continue
        words = [spelled.get(w) or (spelled.get(w[:-1]) if w.endswith("s") else None) or w for w in surface.split()]
        text = " ".join(words)
        if text != surface and concept_key(text) == key:
            out[text] += n
    return out


# Cohesion compares a concept's papers with the corpus, so it tells nothing about a concept most of
# the papers have, nor in a corpus too small to hold several topics (a focused reading list); such a
# corpus keeps every keyphrase link too (min_relevance).
_MIN_CORPUS = 200
_MAX_COHESION_SHARE = 0.1


def _diffuse(papers: list[Paper], found_keys: Mapping[str, list[tuple[str, Keyphrase]]],
             doc_vectors: np.ndarray, min_cohesion: float) -> set[str]:
    """Keys whose papers (those with the key among their keyphrases) have less in common than
    ``min_cohesion``: words that papers about anything use. Judged in corpora of at least
    :data:`_MIN_CORPUS` papers, for concepts that at most :data:`_MAX_COHESION_SHARE` of
    them have."""
    if len(papers) < _MIN_CORPUS:
        return set()
    holders: dict[str, list[int]] = defaultdict(list)
    for row, paper in enumerate(papers):
        for key in {key for key, _ in found_keys.get(paper.id, ())}:
            holders[key].append(row)
    most = _MAX_COHESION_SHARE * len(papers)
    found = cohesion({k: rows for k, rows in holders.items() if len(rows) <= most}, doc_vectors, min_papers=MIN_PAPERS)
    return {key for key, value in found.items() if value < min_cohesion}


def _containment_relevance(papers: list[Paper], keyed: Mapping[str, list[tuple[str, Keyphrase]]],
                           contained: Mapping[str, Mapping[str, str]], doc_vectors: np.ndarray,
                           vectors: Mapping[str, np.ndarray]) -> dict[tuple[str, str], float]:
    """(paper, key) -> cosine between the paper's document vector and the key's (the vector of a
    keyphrase some paper holds it by), for the links by containment; a key with no such vector
    is left out. "data mining" inside "...for data mining purposes" is barely about a paper on
    protein structures (0.23); "mobile app usage data" in a study of app usage is (0.59)."""
    phrase_of: dict[str, str] = {}
    for rows in keyed.values():
        for key, phrase in rows:
            phrase_of.setdefault(key, phrase.phrase)
    row = {paper.id: i for i, paper in enumerate(papers)}
    out: dict[tuple[str, str], float] = {}
    for pid, found in contained.items():
        doc = np.asarray(doc_vectors[row[pid]], dtype=np.float32)
        for key in found:
            phrase = phrase_of.get(key)
            try:
                vector = vectors[phrase] if phrase is not None else None
            except KeyError:
                vector = None
            if vector is not None:
                out[(pid, key)] = round(float(np.asarray(vector, dtype=np.float32) @ doc), 4)
    return out


def _relevant(best: dict[tuple[str, str], tuple[float, str]], floor: float,
              keep: int) -> dict[tuple[str, str], tuple[float, str]]:
    """``best`` (paper, key) -> (score, surface) without the links that score below ``floor``,
    except each paper's ``keep`` best."""
    by_paper: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for (pid, key), (score, _) in best.items():
        by_paper[pid].append((score, key))
    out = {}
    for pid, rows in by_paper.items():
        for i, (score, key) in enumerate(sorted(rows, key=lambda r: (-r[0], r[1]))):
            if i < keep or score >= floor:
                out[(pid, key)] = best[(pid, key)]
    return out


_INITIALS = re.compile(r"[.\s\-]+")


def _people(papers: list[Paper], keys: Collection[str], names: Collection[str]) -> set[str]:
    """Keys that name a person of the corpus: an author's full name ("Joseph Bonneau"), or the
    surname of an author that the texts write as a name ("Maldacena", not "price" for Price).
    A person is no concept: the ideas named after one ("Maldacena conjecture") are.

    Examples
    --------
    >>> papers = [Paper("a", "x", "t", authors=("J. Maldacena", "Bonneau, Joseph", "D. Price", "J.-B. Zuber"))]
    >>> sorted(_people(papers, {"maldacena", "joseph bonneau", "price", "maldacena conjecture", "zuber", "joseph"},
    ...                {"maldacena", "zuber", "joseph"}))
    ['joseph bonneau', 'maldacena', 'zuber']
    """
    surnames: set[str] = set()
    full: set[str] = set()
    for paper in papers:
        for author in paper.authors:
            last, comma, first = author.partition(",")  # "Liu, Yiqun" as well as "Yiqun Liu"
            parts = [w for w in _INITIALS.split(f"{first} {last}" if comma else author) if len(w) > 1]
            if parts:
                surnames.add(concept_key(parts[-1]))
            if len(parts) >= 2:
                full.add(concept_key(" ".join(parts)))
    return {key for key in keys if key in full or (key in names and key in surnames)}


def _shown_as_names(concepts: Mapping[str, Concept]) -> set[str]:
    """Keys shown as one capitalized word ("Airbnb", "XQuery") or as such a word and a lower-case noun ("Airbnb
    listing"; not "Google Scholar", "Web search")."""
    out = set()
    for cid, concept in concepts.items():
        key, words = cid[len(CONCEPT_PREFIX):], concept.name.split()
        if len(words) == len(key.split()) <= 2 and words[0][:1].isupper() and words[0][1:2].isalpha() \
                and key.split()[0] == words[0].lower() and (len(words) == 1 or words[1][:1].islower()):
            out.add(key)
    return out


_MODIFIER_RATIO = 5  # a name whose compounds more papers have than this many times the name alone modifies them


def _name_modifiers(found_keys: Mapping[str, list[tuple[str, Keyphrase]]], names: Collection[str]) -> set[str]:
    """One-word names (capitalized words, ``names``) that the corpus writes before a noun at least
    :data:`_MODIFIER_RATIO` times as often as alone, counted in papers: the modifier of a name, cut from its head
    ("Dirac" of "Dirac operator", "Ising" of "Ising model", "Schwarzschild", "Hamiltonian", "Google"). Two reviewers
    judged 1 of 24 such labelled concepts good (hep-th and ACM-CR), and 87% of those written alone at least half as
    often as in compounds ("Wikipedia", "Twitter", "Airbnb").

    Examples
    --------
    >>> rows = {f"p{i}": [("ising model", Keyphrase("Ising model", 1.0))] for i in range(10)}
    >>> rows["p0"].append(("ising", Keyphrase("Ising", 0.5)))
    >>> rows["p1"].append(("twitter", Keyphrase("Twitter", 0.5)))
    >>> sorted(_name_modifiers(rows, {"ising", "twitter"}))
    ['ising']
    """
    df = _papers_per_key(found_keys)
    compounds = _compound_papers(df, set(names))
    return {key for key in names if key in df and compounds[key] >= _MODIFIER_RATIO * df[key]}


def _compound_papers(df: Mapping[str, int], heads: Collection[str]) -> Counter[str]:
    """For each key of ``heads``, the papers of the longer keys that start with it (``df``: key -> papers): how often
    the corpus writes a name or a modifier before a noun ("ising" of "ising model", "kaluza klein" of "kaluza klein
    theory").

    >>> _compound_papers({"ising": 2, "ising model": 9, "ising model spin": 1, "model": 4}, {"ising", "ising model"})
    Counter({'ising': 10, 'ising model': 1})
    """
    longest = max((head.count(" ") + 1 for head in heads), default=0)
    compounds: Counter[str] = Counter()
    for key, n in df.items():
        words = key.split(" ")
        for cut in range(1, min(longest, len(words) - 1) + 1):
            if (head := " ".join(words[:cut])) in heads:
                compounds[head] += n
    return compounds


_NAMES_ALONE = re.compile(r"[A-Z][a-z]+(?:[-–‐][A-Z][a-z]+)+")  # "Kaluza-Klein", "Kerr–Newman" (not "Google News")
_SHORT_ACRONYM = re.compile(r"[A-Z]{2,6}")
_SPELLING = re.compile(r"[-–‐ ]+")


def _names_alone(found_keys: Mapping[str, list[tuple[str, Keyphrase]]],
                 truecase: Mapping[str, tuple[int, int]]) -> set[str]:
    """Keys the texts only ever write as people's names joined by dashes, or as those names' acronym: "Kaluza-Klein"
    and "KK", "Yang-Mills", "Kerr-Newman" (the modifier of a "Kaluza-Klein theory", "Kerr-Newman black hole", cut from
    its noun, or the acronym of a "KK method" whose head a filler was). Two reviewers judged 23 of 114 labelled such
    concepts good, "Yang-Mills (YM)", "Nielsen-Rohrlich (NR)", "Friedmann-Robertson-Walker" ungrammatical. Half the
    names at least are no English words ("Born-Infeld" is a name, "Fact-Finder" a system's), every one of them the
    corpus capitalizes more often than not away from a sentence's start (``truecase``, :func:`truecase_counts`: a
    title's "Dense Subgraph", "Co-Ranking" are no names), none in capitals ("Taub-NUT" is a spacetime's own name), and
    the corpus writes them before a noun at least as often as alone, counted in papers ("Kaluza-Klein theory",
    "Kaluza-Klein modes"; a system a title names, "Geo-Teaser", stays); a modifier makes a phrase ("pure Yang-Mills",
    "super Yang-Mills" stay).

    Examples
    --------
    >>> rows = {"p1": [("kaluza klein", Keyphrase("Kaluza-Klein", 1.0)), ("kaluza klein", Keyphrase("KK Method", 0.5)),
    ...                ("kaluza klein", Keyphrase("Kaluza Klein", 0.5)), ("taub nut", Keyphrase("Taub-NUT", 0.5)),
    ...                ("taub nut", Keyphrase("Taub-Nut", 0.5)), ("taub nut metric", Keyphrase("Taub-NUT metric", 0.5)),
    ...                ("kaluza klein mode", Keyphrase("Kaluza-Klein modes", 0.4))],
    ...         "p2": [("fact finder", Keyphrase("Fact-Finder", 1.0)), ("geo teaser", Keyphrase("Geo-Teaser", 1.0)),
    ...                ("pure yang mills", Keyphrase("pure Yang-Mills", 1.0))]}
    >>> sorted(_names_alone(rows, {"kaluza": (9, 0), "klein": (9, 1), "fact": (0, 9), "finder": (1, 2), "taub": (9, 0),
    ...                            "nut": (9, 0)}))
    ['kaluza klein']
    """
    forms: dict[str, set[str]] = defaultdict(set)
    for rows in found_keys.values():
        for key, phrase in rows:
            forms[key].add(phrase.phrase)
    alone = set()
    for key, written in forms.items():
        named = [form for form in written if _NAMES_ALONE.fullmatch(form)]
        spellings = {_SPELLING.sub(" ", form.lower()) for form in named}
        if not named or not all(_SPELLING.sub(" ", form.lower()) in spellings or (
                _SHORT_ACRONYM.fullmatch(form.split(" ")[0]) and all(
                    singularize(word.lower()) in FILLER_HEADS for word in form.split(" ")[1:])) for form in written):
            continue  # (the names spelled otherwise, "Kaluza Klein", "Yang-mills"; or the acronym before a filler its
            # key dropped: "LSZ Method")
        if any(part.isupper() and len(part) > 1 for form in written if _SPELLING.sub(" ", form.lower()) in spellings
               for part in _SPELLING.split(form)):
            continue  # a name with a part in capitals is a thing's own name: "Taub-NUT" (a title's "Taub-Nut")
        parts = [part.lower() for part in _SPELLING.split(named[0])]
        if 2 * sum(not is_word(part) for part in parts) >= len(parts) and all(
                truecase.get(part, (0, 0))[0] > truecase.get(part, (0, 0))[1] for part in parts):
            alone.add(key)
    if not alone:
        return set()
    df = _papers_per_key(found_keys)
    compounds = _compound_papers(df, alone)
    return {key for key in alone if compounds[key] >= df[key]}


_ANTI_PAIR = re.compile(r"(\w+) anti ?\1")  # "brane antibrane", "quark antiquark", "instanton anti instanton"


def _pair_modifiers(found_keys: Mapping[str, list[tuple[str, Keyphrase]]]) -> set[str]:
    """A thing and its anti-thing ("brane-antibrane", "quark-antiquark") that the corpus writes before a noun at least
    :data:`_MODIFIER_RATIO` times as often as alone, counted in papers: the modifier of a "brane-antibrane system" or
    a "quark-antiquark pair" (hep-th listed "brane-antibrane" in 7 papers, judged ungrammatical).

    >>> rows = {f"p{i}": [("brane antibrane system", Keyphrase("brane-antibrane systems", 1.0))] for i in range(5)}
    >>> rows["p0"].append(("brane antibrane", Keyphrase("Brane-Antibrane", 0.5)))
    >>> _pair_modifiers(rows)
    {'brane antibrane'}
    """
    df = _papers_per_key(found_keys)
    pairs = {key for key in df if _ANTI_PAIR.fullmatch(key)}
    compounds = _compound_papers(df, pairs)
    return {key for key in pairs if compounds[key] >= _MODIFIER_RATIO * df[key]}


def _one_word_names(found_keys: Mapping[str, list[tuple[str, Keyphrase]]],
                    truecase: Mapping[str, tuple[int, int]]) -> set[str]:
    """One-word keys the corpus writes as names: capitalized away from sentence starts more often
    than not ("Netflix"), or in mixed case or capitals in most of the papers that have them ("XML",
    "AutoRec"; not "search" because a title shouts "SEARCH").

    Examples
    --------
    >>> rows = {"a": [("xml", Keyphrase("XML", 1.0)), ("search", Keyphrase("SEARCH", 1.0))],
    ...         "b": [("xml", Keyphrase("XML", 1.0)), ("search", Keyphrase("search", 1.0))],
    ...         "c": [("search", Keyphrase("search", 1.0))]}
    >>> sorted(_one_word_names(rows, {"netflix": (5, 1), "connes": (4, 0)}))
    ['conne', 'connes', 'netflix', 'xml']
    """
    names = {key for key, (capital, lower) in truecase.items() if 2 * capital > capital + lower}
    # and the keys of names the singular rule cut: "conne" of "Connes"
    names |= {word[:-1] for word in truecase if word.endswith("s") and cut_name(word[:-1], truecase)}
    written: dict[str, list[int]] = {}  # one-word key -> [surfaces in mixed case or capitals, all surfaces]
    for rows in found_keys.values():
        for key, phrase in rows:
            if " " not in key:
                row = written.setdefault(key, [0, 0])
                row[0] += _NAME_FORM.search(phrase.phrase) is not None
                row[1] += 1
    return names | {key for key, (named, total) in written.items() if 2 * named > total}


def _key_of(surface: str, acronyms: _Acronyms, replace: Mapping[str, tuple[str | None, str]],
            preferred: dict[str, str], trim: Callable[[str], str] = trim_filler) -> str | None:
    """The concept key of one surface form: thesaurus first, then acronym expansion (``trim``: the filler it
    drops)."""
    expanded = concept_key(trim(_expand(surface, acronyms)))  # "IR tasks": information retrieval
    for key in (concept_key(surface), expanded):
        if key in replace:
            new_key, name = replace[key]
            if new_key:
                preferred.setdefault(new_key, name)
            return new_key
    return expanded
