// Every endpoint pair of (:{source})-[:{type}]->(:{target}) (used to find relationships the local
// graph no longer has).
MATCH (a:{source})-[r:{type}]->(b:{target})
WHERE r.kg = true
RETURN a.id AS source, b.id AS target
