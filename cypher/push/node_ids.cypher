// Every id of the nodes with the label {label} that kg wrote (used to find nodes the local graph no longer has).
MATCH (n:{label})
WHERE n.kg = true
RETURN n.id AS id
