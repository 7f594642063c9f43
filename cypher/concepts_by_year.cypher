// Concepts by year: for each publication year, the concepts mentioned by the most papers of that
// year (papers without a year are left out). Ties: by concept id.
// param per_year = 5  concepts per year
MATCH (p:Paper)-[:MENTIONS]->(c:Concept)
WHERE p.year IS NOT NULL
WITH p.year AS year, c, count(DISTINCT p) AS papers
ORDER BY year, papers DESC, c.id
WITH year, collect({id: c.id, name: c.name, acronym: c.acronym, papers: papers})[..$per_year] AS top
UNWIND range(0, size(top) - 1) AS i
RETURN year, i + 1 AS rank, top[i].id AS concept, top[i].name AS name, top[i].acronym AS acronym,
       top[i].papers AS papers
ORDER BY year, rank
