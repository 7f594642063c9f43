// Top concepts: the concepts mentioned by the most papers, with their co-occurrence PageRank.
// `name` is the plain phrase, `acronym` the one the corpus defines for it (null when none).
// Ties: by concept id.
// param limit = 20  rows to return
MATCH (c:Concept)
OPTIONAL MATCH (c)<-[:MENTIONS]-(p:Paper)
WITH c, count(p) AS papers
RETURN c.id AS concept, c.name AS name, c.acronym AS acronym, papers, c.pagerank AS pagerank
ORDER BY papers DESC, concept
LIMIT $limit
