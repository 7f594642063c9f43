"""One concept per idea in a paper's ranking: concepts that restate a higher-ranked one of the
same paper ("team recommendation" below "networked team recommendation") move below the rest."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Sequence

from kg.normalize.keys import singularize

__all__ = ["restatements", "one_idea_each"]


def _lemmas(key: str) -> tuple[str, ...]:
    return tuple(singularize(w) for w in key.split())


def restatements(keys: Sequence[str]) -> dict[str, str]:
    """The keys of one paper's ranking (best first) that restate a higher-ranked key -> that key.

    A key restates another when both end in the same head word and the words of one
    (singular) are all among the other's: a variant wording or a trivial specialisation
    ("black hole" / "extremal black hole", "bi-Hamiltonian structure" / "Hamiltonian structure").
    Keys with different heads are different ideas ("knowledge graph" / "knowledge graph embedding").

    Examples
    --------
    >>> restatements(["networked team recommendation", "team recommendation", "team formation",
    ...               "knowledge graph embedding", "knowledge graph", "graph"])
    {'team recommendation': 'networked team recommendation', 'graph': 'knowledge graph'}
    """
    kept: list[tuple[str, tuple[str, ...], frozenset[str]]] = []
    out: dict[str, str] = {}
    for key in keys:
        words = _lemmas(key)
        if not words:
            continue
        bag = frozenset(words)
        for other, other_words, other_bag in kept:
            if words[-1] == other_words[-1] and (bag <= other_bag or other_bag <= bag):
                out[key] = other
                break
        else:
            kept.append((key, words, bag))
    return out


def one_idea_each(keys: Sequence[str], *, shared: Container[str] = (), links: Container[str] = (),
                  top_n: int | None = None) -> tuple[list[str], dict[str, str]]:
    """One paper's ranked concept keys (best first) with one concept per idea.

    Within a family of restatements (:func:`restatements`), the most specific member that other
    papers also hold (``shared``) takes the place of the family's best-ranked one, if it has more
    words ("rotary position embedding" for "position embedding": the paper's own specific idea,
    and where it meets other papers). Then a narrower restatement is dropped; a wider one (or one
    only a link by containment gives, ``links``) follows the others, and only when there are
    ``top_n`` others: it never fills the paper's top list.

    Returns
    -------
    keys : list of str
        The keys kept, in their new order.
    moved : dict
        Key that took another's place -> the key whose place it took.

    Examples
    --------
    >>> one_idea_each(["position embedding", "context window", "rotary position embedding",
    ...                "relative position embedding"], shared={"rotary position embedding"}, top_n=10)
    (['rotary position embedding', 'context window', 'relative position embedding'], {'rotary position embedding': 'position embedding'})
    >>> one_idea_each(["video diffusion model", "text prompt", "diffusion model"], top_n=2)[0]
    ['video diffusion model', 'text prompt', 'diffusion model']
    """
    keys = list(keys)
    restating = restatements(keys)
    moved: dict[str, str] = {}
    if restating:
        families: dict[str, list[str]] = defaultdict(list)
        for key, head in restating.items():
            families[head].append(key)
        for head, family in families.items():
            size = len(head.split())
            best = max((k for k in family if k in shared and len(k.split()) > size),
                       key=lambda k: len(k.split()), default=None)
            if best is not None:
                i, j = keys.index(head), keys.index(best)
                keys[i], keys[j] = best, head
                moved[best] = head
        if moved:
            restating = restatements(keys)
    wider = {k for k, other in restating.items() if set(k.split()) < set(other.split()) or k in links}
    plain = [k for k in keys if k not in restating]
    after = [k for k in keys if k in wider] if top_n is None or len(plain) >= top_n else []
    return plain + after, moved
