// Papers sharing the most concepts with a given paper, and which concepts they share.
// Ties: by paper id. `shared` lists concept names in concept-id order.
// param paper  the paper's id
// param limit = 10  rows to return
MATCH (p:Paper {id: $paper})-[:MENTIONS]->(c:Concept)<-[:MENTIONS]-(q:Paper)
WHERE q <> p
WITH q, c
ORDER BY c.id
WITH q, collect(c.name) AS shared
RETURN q.id AS paper, q.title AS title, size(shared) AS n_shared, shared
ORDER BY n_shared DESC, paper
LIMIT $limit
