// Upsert one batch of relationships (:{source})-[:{type}]->(:{target}) (labels and type filled in by kg).
// Parameters: $rows — list of {source, rows: [{target, props}]}: the relationships grouped by their
// source node, so each source is looked up once; props is the relationship's full property map.
// Endpoints are looked up through the id constraints; a row whose endpoint is missing writes nothing
// (the count check after the push reports it).
// Undirected kinds (RELATED_TO, CO_OCCURS_WITH) are stored once, from the smaller id to the larger.
UNWIND $rows AS group
MATCH (a:{source} {id: group.source})
UNWIND group.rows AS row
MATCH (b:{target} {id: row.target})
MERGE (a)-[r:{type}]->(b)
WITH r, row, properties(r) <> row.props AS changed
FOREACH (_ IN CASE WHEN changed THEN [1] ELSE [] END | SET r = row.props)
RETURN sum(CASE WHEN changed THEN 1 ELSE 0 END) AS written
