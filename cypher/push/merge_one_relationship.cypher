// The naive way, kept only as the baseline of bench/bench_neo4j.py: one MERGE per relationship.
// Parameters: $source, $target, $props.
MATCH (a:{source} {id: $source})
MATCH (b:{target} {id: $target})
MERGE (a)-[r:{type}]->(b)
SET r = $props
