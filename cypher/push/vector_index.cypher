// A cosine vector index on the `embedding` of the nodes labeled {label}, for db.index.vector.queryNodes
// (cypher/semantic_search.cypher). Parameters: $name (the index name), $dimensions (the vectors' length).
// IF NOT EXISTS: a second push changes nothing; an index of other dimensions is dropped first by kg.
// Quantization (on by default since Neo4j 5.23) is off: scores are then the exact (1 + cosine) / 2,
// so Neo4j ranks as `kg search` does (quantized, scores moved by up to 0.02 and swapped neighbours).
CREATE VECTOR INDEX $name IF NOT EXISTS FOR (n:{label}) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}}
