"""Turn extracted keyphrases into shared concepts.

A concept is identified by a canonical key: NFKC, case-folded, hyphens, slashes and
underscores as spaces, other punctuation dropped, the head noun (last word) in the
singular. Acronyms defined in the text as ``long form (ACRONYM)`` are expanded to
their long form, so "Rotary Position Embeddings (RoPE)", "RoPE" and "rotary position
embedding" all become the concept ``c:rotary position embedding`` with those surface
forms as aliases. Phrases whose key is in the generic stoplist
(``kg/resources/generic_phrases.txt``) are dropped.

The package, one module per job: :mod:`~kg.normalize.keys` (canonical keys, singulars,
the generic stoplist), :mod:`~kg.normalize.acronyms`, :mod:`~kg.normalize.names` (display
names), :mod:`~kg.normalize.containment` (links by containment), :mod:`~kg.normalize.synonyms`
(near-synonym merges), :mod:`~kg.normalize.thesaurus` (the merges as a thesaurus) and
:mod:`~kg.normalize.concepts` (:func:`normalize_concepts`, which runs them in order).
"""

from kg.normalize.acronyms import find_acronyms
from kg.normalize.concepts import normalize_concepts
from kg.normalize.keys import CONCEPT_PREFIX, concept_key, generic_phrases, singularize
from kg.normalize.names import _display_name  # noqa: F401 - used as kg.normalize._display_name
from kg.normalize.synonyms import MERGE_THRESHOLD, _needed, near_synonyms  # noqa: F401 - _needed too
from kg.normalize.thesaurus import thesaurus_text

__all__ = [
    "concept_key",
    "singularize",
    "find_acronyms",
    "normalize_concepts",
    "near_synonyms",
    "thesaurus_text",
    "MERGE_THRESHOLD",
    "generic_phrases",
    "CONCEPT_PREFIX",
]
