// The naive way, kept only as the baseline of bench/bench_neo4j.py: one MERGE per node.
// Parameters: $id, $props.
MERGE (n:{label} {id: $id})
SET n = $props
