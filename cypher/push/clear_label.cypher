// Delete up to $limit nodes with the label {label} and their relationships (kg push --replace
// repeats it until it returns 0, so no transaction grows with the size of the database).
// Parameters: $limit.
MATCH (n:{label})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
