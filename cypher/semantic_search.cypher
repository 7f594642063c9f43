// Papers nearest in meaning to a query, through the vector index kg push creates on Paper.embedding.
// The query vector comes from: kg query --file cypher/semantic_search.cypher --embed "your words"
// (embedded with the build's model; --build OUT picks a build's model settings). `score` is Neo4j's
// cosine score, (1 + cosine) / 2; `concepts` the paper's top-ranked concepts; ties by paper id.
// param embedding  the query vector (--embed TEXT computes it)
// param limit = 10  rows to return
// The index is approximate (HNSW): it is asked for ten times the rows, and the best $limit are kept.
CALL db.index.vector.queryNodes('kg_paper_embedding', 10 * $limit, $embedding) YIELD node AS p, score
OPTIONAL MATCH (p)-[m:MENTIONS]->(c:Concept)
WITH p, score, c ORDER BY m.rank
WITH p, score, collect(c.name)[..3] AS concepts
OPTIONAL MATCH (k:Community {id: p.community})
RETURN p.id AS paper, p.title AS title, p.year AS year, round(score, 4) AS score,
       p.community AS community, k.label AS community_label, concepts
ORDER BY score DESC, paper
LIMIT $limit
