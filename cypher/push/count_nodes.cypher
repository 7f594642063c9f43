// Nodes with the label {label} that kg wrote (the `kg` marker), and how many distinct ids they carry
// (equal unless duplicated). Nodes added by hand are not counted (nor touched).
MATCH (n:{label})
WHERE n.kg = true
RETURN count(n) AS total, count(DISTINCT n.id) AS distinct_ids
