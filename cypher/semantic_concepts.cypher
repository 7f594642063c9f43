// Concepts nearest in meaning to a query, through the vector index kg push creates on Concept.embedding.
// The query vector comes from: kg query --file cypher/semantic_concepts.cypher --embed "your words"
// `score` is Neo4j's cosine score, (1 + cosine) / 2; `papers` how many papers mention the concept.
// param embedding  the query vector (--embed TEXT computes it)
// param limit = 10  rows to return
// The index is approximate (HNSW): it is asked for ten times the rows, and the best $limit are kept.
CALL db.index.vector.queryNodes('kg_concept_embedding', 10 * $limit, $embedding) YIELD node AS c, score
RETURN c.id AS concept, c.name AS name, c.acronym AS acronym, c.papers AS papers, round(score, 4) AS score
ORDER BY score DESC, concept
LIMIT $limit
