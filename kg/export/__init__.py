"""Writers: graph files (JSON, GraphML, GEXF, CSV), the pyvis HTML page, and Neo4j."""
