// Delete the relationships (:{source})-[:{type}]->(:{target}) between the pairs in $rows.
// Parameters: $rows — list of {source, target}.
UNWIND $rows AS row
MATCH (:{source} {id: row.source})-[r:{type}]->(:{target} {id: row.target})
WHERE r.kg = true
DELETE r
