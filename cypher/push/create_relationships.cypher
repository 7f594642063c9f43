// Create one batch of relationships (:{source})-[:{type}]->(:{target}) (labels and type filled in by kg).
// Used only while Neo4j holds no relationship of this type between these labels (a first push), so
// CREATE cannot duplicate anything and skips MERGE's lookup of existing relationships. A push that
// stops half way leaves some of them behind; the rerun then sees them and uses relationships.cypher.
// Parameters: $rows — list of {source, rows: [{target, props}]}, grouped by source node as in
// relationships.cypher.
UNWIND $rows AS group
MATCH (a:{source} {id: group.source})
UNWIND group.rows AS row
MATCH (b:{target} {id: row.target})
CREATE (a)-[r:{type}]->(b)
SET r = row.props
RETURN count(r) AS written
