"""Embeddings in Neo4j: the build's vectors as ``embedding`` properties, and cosine vector indexes on them.

``kg push`` gives every ``Paper`` and ``Concept`` node the vector the build stored for it
(:mod:`kg.vectors`: the paper's title and abstract, the concept's most used surface form,
float16 on disk, written as a list of floats) and creates one vector index per label:

=============  ========================  ===============================
label          index                     query
=============  ========================  ===============================
``Paper``      ``kg_paper_embedding``    ``cypher/semantic_search.cypher``
``Concept``    ``kg_concept_embedding``  ``cypher/semantic_concepts.cypher``
=============  ========================  ===============================

Each index is ``CREATE VECTOR INDEX … OPTIONS {indexConfig: {`vector.dimensions`: D,
`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}`` with
``D`` the vectors' length (384 for MiniLM); one left by an earlier push with other
dimensions (another model) or quantized is dropped and made again. Quantization (Neo4j's
default since 5.23) is off so that scores are the exact ``(1 + cosine) / 2`` and Neo4j
ranks as ``kg search`` does: quantized, scores on the example corpus moved by up to 0.024
and neighbours swapped places. The property travels with the node's other properties, so the push stays
idempotent: a node whose vector did not change is not written.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from kg.export.cypher import load_statement
from kg.neo4j_errors import driver_errors
from kg.export.neo4j_tables import NodeTable
from kg.vectors import load_concept_vectors, load_paper_vectors

__all__ = ["VECTOR_INDEXES", "load_embeddings", "with_embeddings", "ensure_vector_indexes"]

#: Label -> name of its vector index.
VECTOR_INDEXES = {"Paper": "kg_paper_embedding", "Concept": "kg_concept_embedding"}
PROPERTY = "embedding"

Vectors = tuple[Sequence[str], np.ndarray]


def load_embeddings(folder: str | os.PathLike[str]) -> dict[str, Vectors]:
    """The vectors a build stored in ``folder``, by label: ``{"Paper": (ids, matrix), "Concept": …}``.

    A label whose files are missing (an older build) is left out.
    """
    found = {"Paper": load_paper_vectors(folder), "Concept": load_concept_vectors(folder)}
    return {label: vectors for label, vectors in found.items() if vectors is not None}


def with_embeddings(node_tables: list, embeddings: Mapping[str, Vectors]) -> list:
    """``node_tables`` (:func:`kg.export.neo4j.graph_tables`) with an ``embedding`` property on each
    node of a label in ``embeddings`` that has a vector (others unchanged)."""
    out = []
    for table in node_tables:
        vectors = embeddings.get(table.label)
        if vectors is None:
            out.append(table)
            continue
        ids, matrix = vectors
        row_of = {str(node): i for i, node in enumerate(ids)}
        rows = []
        for row in table.rows:
            i = row_of.get(str(row["id"]))
            if i is None:
                rows.append(row)
            else:
                values = np.asarray(matrix[i], dtype=np.float32).tolist()  # exact floats: equal pushes compare equal
                rows.append({**row, "props": {**row["props"], PROPERTY: values}})
        out.append(NodeTable(table.label, rows))
    return out


def ensure_vector_indexes(driver, embeddings: Mapping[str, Vectors], *, database: str | None = None,
                          wait: float = 300.0) -> dict[str, int]:
    """Create the vector index of each label in ``embeddings`` (see the module docstring); wait until online.

    Returns
    -------
    dict
        Index name -> dimensions.
    """
    made = {}
    with driver_errors(), driver.session(database=database) as session:
        for label, (ids, matrix) in sorted(embeddings.items()):
            if label not in VECTOR_INDEXES or len(ids) == 0:
                continue
            name, dimensions = VECTOR_INDEXES[label], int(matrix.shape[1])
            existing = session.execute_read(lambda tx: [(r["dimensions"], r["quantized"]) for r in tx.run(
                load_statement("vector_index_dimensions"), name=name)])
            if existing and existing[0] != (dimensions, False):
                session.execute_write(lambda tx: tx.run(load_statement("drop_index"), name=name).consume())
            session.execute_write(lambda tx: tx.run(load_statement("vector_index", label=label),
                                                    name=name, dimensions=dimensions).consume())
            session.run(load_statement("await_index"), name=name, seconds=float(wait)).consume()
            made[name] = dimensions
    return made
