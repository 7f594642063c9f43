// Relationships (:{source})-[:{type}]->(:{target}) that kg wrote (the `kg` marker), and how many distinct endpoint pairs they join
// (equal unless some pair is joined twice).
MATCH (a:{source})-[r:{type}]->(b:{target})
WHERE r.kg = true
RETURN count(r) AS total, count(DISTINCT [a.id, b.id]) AS distinct_pairs
