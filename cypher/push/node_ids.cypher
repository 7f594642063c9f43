// Every id of the nodes with the label {label} (used to find nodes the local graph no longer has).
MATCH (n:{label})
RETURN n.id AS id
