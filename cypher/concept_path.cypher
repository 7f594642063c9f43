// Shortest path between two concepts through concept co-occurrence (CO_OCCURS_WITH, either
// direction, at most 8 hops): how two ideas connect. Each concept is given by id, or
// case-insensitively by its name, label, acronym or any alias; when several concepts answer, the
// best match wins (id, then name or label, then acronym, then alias; among equals the one of most
// papers). The lookups read every Concept node (toLower cannot use the kg_concept_name index:
// about 0.1 s each for 50,000 concepts).
// One row per hop; no rows when they are not connected.
// param source  first concept: id (c:...), name, acronym or alias
// param target  second concept: id (c:...), name, acronym or alias
MATCH (a:Concept)
WITH a, toLower($source) AS wanted
WITH a, CASE
  WHEN a.id = $source THEN 0
  WHEN toLower(a.name) = wanted OR toLower(a.label) = wanted THEN 1
  WHEN toLower(a.acronym) = wanted THEN 2
  WHEN any(alias IN a.aliases WHERE toLower(alias) = wanted) THEN 3
END AS how
WHERE how IS NOT NULL
WITH a ORDER BY how, a.papers DESC, a.id LIMIT 1
MATCH (b:Concept)
WITH a, b, toLower($target) AS wanted
WITH a, b, CASE
  WHEN b.id = $target THEN 0
  WHEN toLower(b.name) = wanted OR toLower(b.label) = wanted THEN 1
  WHEN toLower(b.acronym) = wanted THEN 2
  WHEN any(alias IN b.aliases WHERE toLower(alias) = wanted) THEN 3
END AS how
WHERE how IS NOT NULL
WITH a, b ORDER BY how, b.papers DESC, b.id LIMIT 1
MATCH path = shortestPath((a)-[:CO_OCCURS_WITH*..8]-(b))
WITH path ORDER BY length(path), [n IN nodes(path) | n.id] LIMIT 1
UNWIND range(0, length(path)) AS step
RETURN step, nodes(path)[step].id AS concept, nodes(path)[step].name AS name,
       nodes(path)[step].acronym AS acronym, length(path) AS hops
ORDER BY step
