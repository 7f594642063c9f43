// Top concepts: the concepts mentioned by the most papers, with their co-occurrence PageRank.
// Ties: by concept id.
// param limit = 20  rows to return
MATCH (c:Concept)
OPTIONAL MATCH (c)<-[:MENTIONS]-(p:Paper)
WITH c, count(p) AS papers
RETURN c.id AS concept, c.name AS name, papers, c.pagerank AS pagerank
ORDER BY papers DESC, concept
LIMIT $limit
