// Whether Neo4j holds any relationship (:{source})-[:{type}]->(:{target}) at all.
OPTIONAL MATCH (:{source})-[r:{type}]->(:{target})
WITH r LIMIT 1
RETURN r IS NOT NULL AS present
