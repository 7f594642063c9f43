// Upsert one batch of nodes with the label {label} (filled in by kg from its fixed list of labels).
// Parameters: $rows — list of {id, props}; props is the node's full property map, id included.
// A node is written only when its properties differ, so a second identical push writes nothing;
// `written` counts the nodes created or changed (the summary's nodes_created tells which were new).
UNWIND $rows AS row
MERGE (n:{label} {id: row.id})
WITH n, row, properties(n) <> row.props AS changed
FOREACH (_ IN CASE WHEN changed THEN [1] ELSE [] END | SET n = row.props)
RETURN sum(CASE WHEN changed THEN 1 ELSE 0 END) AS written
