// Relationship types the database knows (asked before any_relationship.cypher, which would warn
// about a type that does not exist yet).
CALL db.relationshipTypes() YIELD relationshipType
RETURN relationshipType
