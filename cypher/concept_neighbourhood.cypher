// Co-occurrence neighbourhood of a concept: the concepts that appear in the same papers, by the
// number of papers they share with it. The concept is given by id or by name (case-insensitive).
// param concept  the concept: id (c:...) or name
// param limit = 20  rows to return
MATCH (c:Concept) WHERE c.id = $concept OR toLower(c.name) = toLower($concept)
MATCH (c)-[r:CO_OCCURS_WITH]-(other:Concept)
RETURN other.id AS concept, other.name AS name, r.count AS papers
ORDER BY papers DESC, concept
LIMIT $limit
