// The dimensions and quantization of the vector index $name, when it exists (no row when it does not).
SHOW VECTOR INDEXES YIELD name, options
WHERE name = $name
RETURN options.indexConfig['vector.dimensions'] AS dimensions,
       coalesce(options.indexConfig['vector.quantization.enabled'], false) AS quantized
