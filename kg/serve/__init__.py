"""``kg serve``: a local web explorer over one build, answered from the build's index.

:mod:`~kg.serve.address` (loopback unless asked, the socket bound first), :mod:`~kg.serve.views`
(each view's JSON from the index, :mod:`kg.index.read`),
:mod:`~kg.serve.page` (the page and its static files, from the package), :mod:`~kg.serve.app`
(the Starlette routes, read-only) and :mod:`~kg.serve.run` (uvicorn on the bound socket).
"""

from kg.serve.run import serve_build

__all__ = ["serve_build"]
