// Delete the nodes kg wrote with the label {label} whose ids are in $ids, with their relationships.
// Parameters: $ids — list of node ids.
UNWIND $ids AS id
MATCH (n:{label} {id: id})
WHERE n.kg = true
DETACH DELETE n
