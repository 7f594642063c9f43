// Drop the index $name (a vector index whose dimensions no longer match the pushed vectors).
DROP INDEX $name IF EXISTS
