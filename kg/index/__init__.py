"""A build's read index: what the read commands, ``kg.load`` and ``kg serve`` open instead of the graph.

* :mod:`kg.index.schema`: the file (``index.sqlite``), its tables, version and errors;
* :mod:`kg.index.write`: :func:`~kg.index.write.write_index`, called inside the staged folder
  by ``kg build``, ``kg build --update`` and ``kg report``;
* :mod:`kg.index.read`: :func:`open_index` and :class:`BuildIndex`, every answer as plain data;
* :mod:`kg.index.views`: the part of the graph a page view draws, read from the index.

Importing this package loads neither NetworkX nor the writer.
"""

from kg.index.read import BuildIndex, open_index
from kg.index.schema import INDEX_FILE, IndexDamagedError, IndexMissingError, index_hint

__all__ = ["BuildIndex", "open_index", "INDEX_FILE", "IndexMissingError", "IndexDamagedError", "index_hint"]
