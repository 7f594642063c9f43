// A community's papers and labels: the community's label and most distinctive concepts (as kg
// build's report lists them), then its papers by PageRank. Community ids are 0, 1, … by size.
// param community = 0  community id
// param limit = 50  papers to return
MATCH (k:Community {id: $community})
MATCH (p:Paper {community: $community})
RETURN k.id AS community, k.label AS label, k.size AS size, p.id AS paper, p.title AS title,
       p.pagerank AS pagerank
ORDER BY pagerank DESC, paper
LIMIT $limit
