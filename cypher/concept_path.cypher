// Shortest path between two concepts through concept co-occurrence (CO_OCCURS_WITH, either
// direction, at most 8 hops): how two ideas connect. Each concept is given by id or by name
// (case-insensitive). One row per hop; no rows when they are not connected.
// param source  first concept: id (c:...) or name
// param target  second concept: id (c:...) or name
MATCH (a:Concept) WHERE a.id = $source OR toLower(a.name) = toLower($source)
MATCH (b:Concept) WHERE b.id = $target OR toLower(b.name) = toLower($target)
MATCH path = shortestPath((a)-[:CO_OCCURS_WITH*..8]-(b))
WITH path ORDER BY length(path), [n IN nodes(path) | n.id] LIMIT 1
UNWIND range(0, length(path)) AS step
RETURN step, nodes(path)[step].id AS concept, nodes(path)[step].name AS name, length(path) AS hops
ORDER BY step
