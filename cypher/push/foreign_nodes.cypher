// Nodes with the label {label} whose id is among $ids but that kg did not write (no `kg` marker: added
// by hand, or by another program): a push would take them over, so it stops first and names them.
// Parameters: $ids — list of node ids.
UNWIND $ids AS id
MATCH (n:{label} {id: id})
WHERE n.kg IS NULL OR n.kg <> true
RETURN n.id AS id, elementId(n) AS element, keys(n) AS keys
LIMIT 3
