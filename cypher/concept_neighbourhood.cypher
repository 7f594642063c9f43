// Co-occurrence neighbourhood of a concept: the concepts that appear in the same papers, by the
// number of papers they share with it. The concept is given by id, or case-insensitively by its
// name ("collaborative filtering"), its label ("collaborative filtering (CF)"), its acronym ("CF")
// or any alias (a surface form the corpus uses). When several concepts answer, the best match
// wins: id, then name or label, then acronym, then alias; among equals the one of most papers.
// The lookup reads every Concept node (toLower cannot use the kg_concept_name index): about
// 0.1 s for 50,000 concepts.
// param concept  the concept: id (c:...), name, acronym or alias
// param limit = 20  rows to return
MATCH (c:Concept)
WITH c, toLower($concept) AS wanted
WITH c, CASE
  WHEN c.id = $concept THEN 0
  WHEN toLower(c.name) = wanted OR toLower(c.label) = wanted THEN 1
  WHEN toLower(c.acronym) = wanted THEN 2
  WHEN any(alias IN c.aliases WHERE toLower(alias) = wanted) THEN 3
END AS how
WHERE how IS NOT NULL
WITH c ORDER BY how, c.papers DESC, c.id LIMIT 1
MATCH (c)-[r:CO_OCCURS_WITH]-(other:Concept)
RETURN other.id AS concept, other.name AS name, other.acronym AS acronym, r.count AS papers
ORDER BY papers DESC, concept
LIMIT $limit
