// Most cited papers: papers by the number of papers in the corpus that cite them (CITES).
// Papers nobody in the corpus cites are left out. Ties: by paper id.
// param limit = 20  rows to return
MATCH (p:Paper)<-[:CITES]-(citing:Paper)
RETURN p.id AS paper, p.title AS title, p.year AS year, count(citing) AS citations
ORDER BY citations DESC, paper
LIMIT $limit
