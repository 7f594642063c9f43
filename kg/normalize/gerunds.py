"""Phrases that are a verb and its object: "modeling user behavior" is no concept, "user behavior" is.

A gerund before a noun is either part of a compound noun ("learning algorithm", "ranking function",
"browsing behavior") or a verb taking the noun as its object ("modeling user behavior", "recommending
items", "building test collections"). The tagger cannot tell them apart: titles write both in
capitals, and a sentence may start with either. The corpus can. A compound is a noun phrase, so
somewhere a determiner stands before it ("the learning algorithm"); a verb phrase never follows one
("the recommending items" is no English). And a gerund used as a verb takes objects with determiners
("modeling the", "building a"), often, where a gerund that names an activity ("ranking", "training",
"clustering") mostly follows one ("the ranking of"). :func:`gerund_objects` reads both from the texts.
Such a gerund with its object ("ranking documents", "mining patterns") names the activity the field
writes as a compound ("document ranking", "pattern mining"), and where papers write the compound (two at least,
half as many as the gerund's), that is the concept.

A verb's base form before its object is the same case: "to train word embeddings", "we rank nodes by"
give the candidates "train word embedding" and "rank node", which a tagger reads as compounds (English
has the noun "train" and the noun "rank"). :func:`verb_objects` maps them to the object where the corpus
uses the word as a verb more often than as a noun and writes the pair only where a verb goes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping

from kg.extract.candidates import COMPOUND_ADJECTIVES, manner_adverb, verb_capable, word_class
from kg.extract.multiword import FUNCTION_WORDS
from kg.normalize.keys import singularize

__all__ = ["gerund_objects", "verb_objects", "MIN_VERB_USES"]

_WORDS = re.compile(r"[a-z][a-z'\-]*|[.;:!?,()]")
_DETERMINERS = frozenset("a an the this that these those our their its his her each every such any no some "
                         "which whose".split())
_OBJECTS = _DETERMINERS | frozenset("them it him us me".split())  # "modeling the", "building them"
# Determiners that also start a clause, whose verb may follow: "we show that modeling user behavior helps"
_CLAUSE_STARTS = frozenset(("that", "which"))
MIN_VERB_USES = 3  # a gerund the corpus uses as a verb this often at least (with a determined object)
# Heads a gerund names an activity before, in compounds too rare to have met a determiner:
# "forecasting model", "indexing process", "matching problem".
_COMPOUND_HEADS = frozenset("""algorithm method model system framework approach technique tool process problem task
    function strategy scheme pipeline engine platform service module component mechanism procedure operation
    performance accuracy quality cost time efficiency result outcome session stage step phase data set loss
    objective criterion paradigm architecture environment application activity material experience agent policy
    technology infrastructure language interface format schema error window budget capability ability behavior
    analytics management theory equation condition effect mode scale regime amplitude constant rate parameter
    matrix network layer unit device station program software library toolkit kit platform site community
    behaviour pattern solution""".split())


def _contexts(texts: Iterable[str], wanted: Collection[str]):
    """``(word, the word before, the word after)`` for every use of a word of ``wanted`` in ``texts`` (lower case; "."
    where a text starts or ends)."""
    for text in texts:
        words = _WORDS.findall(text.lower())
        for i, word in enumerate(words):
            if word in wanted:
                yield word, words[i - 1] if i else ".", words[i + 1] if i + 1 < len(words) else "."


_COMPOUND_PAPERS = 2  # papers at least that write the compound a gerund and its object name


def _named_as_compound(df: Mapping[str, int], compound: str, key: str) -> bool:
    """Whether the corpus names the activity of ``key`` (a gerund or a verb and its object) as ``compound``: in two
    papers at least and in half as many as the key's at least ("author ranking" of 2 papers for "ranking authors" of
    3; "document ranking" of 74 for "rank documents").

    >>> _named_as_compound({"author ranking": 2, "ranking author": 3}, "author ranking", "ranking author")
    True
    >>> _named_as_compound({"user ranking": 1, "ranking user": 1}, "user ranking", "ranking user")
    False
    """
    return df.get(compound, 0) >= max(_COMPOUND_PAPERS, (df.get(key, 0) + 1) // 2)


def gerund_objects(texts: Iterable[str], keys: Collection[str], *,
                   min_verb_uses: int = MIN_VERB_USES, df: Mapping[str, int] | None = None) -> dict[str, str]:
    """Keys that are a gerund and its object, mapped to the compound that names the activity, or else to the object.

    A key "G R..." is a gerund and its object when the texts write "G R" at least once and never
    after a determiner, and either

    * the corpus names the same activity as a compound noun, "R... G", in enough papers (``df``, key ->
      papers; :func:`_named_as_compound`; "ranking documents" is "document ranking", "mining patterns" "pattern
      mining"): mapped to
      that compound. Compounds with a gerund first that a determiner precedes ("the ranking system",
      "the embedding vectors", "the coupling constant") stay, whatever the other order's count; or
    * the corpus uses the gerund G as a verb (G before a determiner or a pronoun ``min_verb_uses``
      times at least, and at least as often as a determiner stands before G) and R is no head a gerund
      names an activity before in compounds (:data:`_COMPOUND_HEADS`: "forecasting model"): mapped to
      the object R.

    Parameters
    ----------
    texts : iterable of str
        The corpus's titles and abstracts.
    keys : collection of str
        Concept keys (lower case, words split by spaces, the head singular).
    df : mapping, optional
        Key -> the papers that have it: the compounds "R... G" are looked up there.

    Examples
    --------
    >>> texts = ["We focus on modeling user behavior.", "Modeling the clicks helps.", "Modeling a user is hard.",
    ...          "By modeling them we learn.", "The learning algorithm is fast.", "Learning the weights works.",
    ...          "Learning algorithm design.", "the learning rate"]
    >>> gerund_objects(texts, {"modeling user behavior", "learning algorithm", "learning rate", "user behavior",
    ...                        "learning to rank algorithm"})
    {'modeling user behavior': 'user behavior'}
    >>> texts = ["Ranking documents by relevance.", "Document ranking is old.", "The ranking system.",
    ...          "Ranking systems differ.", "We study system ranking."]
    >>> df = {"ranking document": 1, "document ranking": 4, "ranking system": 2, "system ranking": 3}
    >>> gerund_objects(texts, set(df), df=df)
    {'ranking document': 'document ranking'}
    """
    firsts = {key.partition(" ")[0] for key in keys if " " in key}
    gerunds = {word for word in firsts if len(word) > 4 and word.endswith("ing") and word.isalpha()}
    if not gerunds:
        return {}
    verb, after_determiner = Counter(), Counter()
    written, determined = Counter(), Counter()  # (gerund, next word): in the texts, after a determiner
    for word, before, after in _contexts(texts, gerunds):
        if after in _OBJECTS:
            verb[word] += 1
        pair = (word, singularize(after))
        written[pair] += 1
        if before in _DETERMINERS:
            after_determiner[word] += 1
            if before not in _CLAUSE_STARTS:  # "we show that modeling user behavior helps": no "the modeling user"
                determined[pair] += 1
    verbs = {g for g in gerunds if verb[g] >= min_verb_uses and verb[g] >= after_determiner[g]}
    out = {}
    for key in keys:
        gerund, _, rest = key.partition(" ")
        if gerund not in gerunds or not rest:
            continue
        second = singularize(rest.partition(" ")[0])
        pair = (gerund, second)
        if not written[pair] or determined[pair] or second in FUNCTION_WORDS:  # "learning-to-rank algorithms"
            # is a term, not "learning" and its object
            continue
        compound = f"{rest} {gerund}"
        if df is not None and _named_as_compound(df, compound, key):
            out[key] = compound
        elif gerund in verbs and second not in _COMPOUND_HEADS:
            out[key] = rest
    return out


# Words a verb's base form follows, and never a noun's: "to train", "we rank", "can support", "and then map"
_VERBAL = frozenset("to we they you can could will would may might must should shall cannot".split())
_VERB_SHARE = 0.5  # of the pair's uses at least, after one of :data:`_VERBAL` or a manner adverb
_VERBAL_PAIR = 0.75  # of the pair's uses, so written, make it a verb and its object whatever its first word's uses
_DETERMINED_AT_MOST = 10  # and one use in this many at most after a determiner ("the rank items")
# Second parts of compound adjectives: "rank based measure" is a rank-based measure, not "to rank based on"; but "to
# cluster retrieved documents"
_COMPOUND_PARTICIPLES = frozenset(ending.lstrip("-") for ending in COMPOUND_ADJECTIVES)
_NO_VERBS = frozenset({"JJ", "RB", "IN", "DT", "VBN", "VBD"})  # "reliable subgraph discovery", "walk through tour",
# "spontaneously broken supersymmetry"
_RELATIVES = frozenset(("which", "that"))  # determiners that may be a relative clause's subject before a verb
_PARTICLES = frozenset("up out down off forward back away over".split())  # a phrasal verb's: "pick up point"


def verb_objects(texts: Iterable[str], keys: Collection[str], *, min_verb_uses: int = MIN_VERB_USES,
                 df: Mapping[str, int] | None = None) -> dict[str, str]:
    """Keys that are a verb's base form and its object, mapped to the object: "train word embedding" (of "an approach
    to train word embeddings") is "word embedding"; or to the compound that names the activity, where papers (``df``)
    write it (:func:`_named_as_compound`): "rank document" (of "to rank documents") is "document ranking", whether
    or not the corpus writes "rank" more often as a verb than as a noun.

    A key "V R..." is a verb and its object when the corpus uses V as a verb (V after "to", a modal or a
    person and before a determiner or a pronoun ``min_verb_uses`` times at least, and more often than a
    determiner stands before V: "to train the", not "the train"), the texts write "V R" after one of those
    words in half of its uses at least, and never after a determiner ("the support vector" keeps "support
    vector machine", "the rank aggregation" keeps "rank aggregation"; "approaches to query expansion" is no
    verb, "the query" is far more common than "to query the").

    Examples
    --------
    >>> texts = ["We propose an approach to train word embeddings.", "It is easy to train the model.",
    ...          "We train a classifier.", "You can train them fast.", "We train classifiers on labels.",
    ...          "The rank aggregation is old.", "We rank nodes.", "To rank the nodes, we walk.",
    ...          "We rank the pages.", "We rank a list.", "The query expansion helps.", "to query expansion"]
    >>> verb_objects(texts, {"train word embedding", "train classifier", "rank node", "rank aggregation",
    ...                      "query expansion"})
    {'rank node': 'node', 'train classifier': 'classifier', 'train word embedding': 'word embedding'}
    >>> verb_objects(["the rank of a page", "The rank is", "we rank documents", "the rank", "to rank documents"],
    ...              {"rank document", "document ranking"}, df={"rank document": 2, "document ranking": 9})
    {'rank document': 'document ranking'}

    A pair nearly always written as a verb and its object is one, however often its first word is a noun ("the
    model" is far more common than "to model the"): three uses after "to", a modal or a person at least, and three in
    four after those or a manner adverb ("to better model user preferences").

    >>> verb_objects(["The model is.", "The model works.", "A model.", "The model fits.", "to model user preferences",
    ...               "we model user preferences", "can model user preferences", "the reliable subgraph discovery"],
    ...              {"model user preference", "model"})
    {'model user preference': 'user preference'}
    """
    firsts = {key.partition(" ")[0] for key in keys if " " in key}
    bases = {word for word in firsts if len(word) > 2 and word.isalpha() and not word.endswith(("ing", "ed", "s"))}
    if not bases:
        return {}
    verb, after_determiner = Counter(), Counter()
    written, verbal, determined, marked = Counter(), Counter(), Counter(), Counter()  # (base, next word)
    for word, before, after in _contexts(texts, bases):
        if before in _VERBAL and after in _OBJECTS:
            verb[word] += 1
        if before in _DETERMINERS:
            after_determiner[word] += 1
        pair = (word, singularize(after))
        written[pair] += 1
        verbal[pair] += before in _VERBAL or manner_adverb(before)
        marked[pair] += before in _VERBAL
        determined[pair] += before in _DETERMINERS - _RELATIVES  # "models which break supersymmetry"
    verbs = {b for b in bases if verb[b] >= min_verb_uses and verb[b] > after_determiner[b]}
    out = {}
    for key in sorted(keys):
        base, _, rest = key.partition(" ")
        if base not in bases or not rest:
            continue
        following = rest.partition(" ")[0]
        pair = (base, singularize(following))
        if not written[pair] or pair[1] in FUNCTION_WORDS | _PARTICLES:
            continue
        plain = not determined[pair] and verbal[pair] >= _VERB_SHARE * written[pair]
        # a pair the texts write as a verb and its object nearly always, whatever "model" or "rank" is more often
        # alone: "to model user preferences" (58 of 76 uses), "to rank items" (9 of 11; "the rank items" once)
        verbal_pair = marked[pair] >= min_verb_uses and verbal[pair] >= _VERBAL_PAIR * written[pair] \
            and determined[pair] * _DETERMINED_AT_MOST <= written[pair] and verb_capable(base) \
            and word_class(base) not in _NO_VERBS \
            and word_class(following) not in _NO_VERBS and not following.endswith("ing") \
            and following not in _COMPOUND_PARTICIPLES
        if not (plain or verbal_pair):
            continue
        compound = max((f"{rest} {ing}" for ing in _gerunds_of(base)), key=lambda k: (df or {}).get(k, 0))
        if df is not None and _named_as_compound(df, compound, key):
            out[key] = compound
        elif (plain and base in verbs) or verbal_pair:
            out[key] = rest
    return out


def _gerunds_of(base: str) -> tuple[str, ...]:
    """The -ing forms a verb's base form may have: "rank" "ranking", "rate" "rating", "map" "mapping"."""
    return base + "ing", base[:-1] + "ing", base + base[-1] + "ing"
