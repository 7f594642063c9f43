"""The merges kg made, written as a VOSviewer thesaurus a user can edit and pass back."""

from __future__ import annotations

from collections.abc import Mapping

from kg.models import Concept
from kg.normalize.keys import CONCEPT_PREFIX, concept_key

__all__ = ["thesaurus_text"]

def thesaurus_text(concepts: Mapping[str, Concept]) -> str:
    """The merges kg made, as a VOSviewer thesaurus (``label<TAB>replace by``).

    One line per alias whose own concept key differs from its concept's, so a user
    can see every merge (plural, acronym, synonym) and edit or delete it.

    Examples
    --------
    >>> c = {"c:large language model": Concept("c:large language model", "large language model",
    ...                                         ("LLM", "LLMs", "large language models"))}
    >>> thesaurus_text(c).splitlines()
    ['label\\treplace by', 'LLM\\tlarge language model', 'LLMs\\tlarge language model']
    """
    lines = ["label\treplace by"]
    for cid in sorted(concepts):
        concept = concepts[cid]
        key = cid[len(CONCEPT_PREFIX):]
        for alias in concept.aliases:
            if concept_key(alias) != key and "\t" not in alias:
                lines.append(f"{alias}\t{key}")
    return "\n".join(lines) + "\n"
