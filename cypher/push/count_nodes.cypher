// Nodes with the label {label}, and how many distinct ids they carry (equal unless duplicated).
MATCH (n:{label})
RETURN count(n) AS total, count(DISTINCT n.id) AS distinct_ids
