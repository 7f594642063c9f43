// Wait until the index $name is online (populated), at most $seconds.
CALL db.awaitIndex($name, $seconds)
