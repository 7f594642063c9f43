"""NetworkX's backend dispatch for the NetworkX algorithms kg calls itself.

NetworkX (3.2+) can hand an algorithm to another implementation installed as a *backend*
(``nx-parallel``: joblib processes; ``nx-rustworkx``: rustworkx's Rust kernels; ``nx-cugraph``:
a GPU). kg's analysis takes ``backend=NAME`` (``kg build``/``kg report --nx-backend NAME``) and
passes it to each NetworkX call of its own that dispatches: :func:`networkx.pagerank` (every
centrality table, the citation table, the concept table), :func:`networkx.community.louvain_communities`
and :func:`networkx.community.modularity` (Louvain below :data:`kg.fastgraph.FAST_PATH_EDGES` edges,
every modularity), and :func:`networkx.betweenness_centrality` / ``betweenness_centrality_subset``
where betweenness takes the NetworkX path (``fast=False``; by default it runs in igraph, as does
Louvain on large graphs, which no NetworkX backend sees).

A backend implements only some algorithms, some only for some arguments (nx-rustworkx's
betweenness is unweighted only), and may fail where NetworkX does not (nx-rustworkx's PageRank
stops at ``max_iter`` without converging to ``tol=1e-10`` on graphs where NetworkX's converges,
e.g. a 5,000-paper ACM build's): :func:`call` then runs NetworkX's own, so a backend never changes
what is computed, only where. :func:`tally` counts which calls ran where.

Examples
--------
>>> import networkx as nx
>>> check_backend(None), check_backend("networkx")
(None, None)
>>> call(nx.pagerank, nx.path_graph(3), backend=None)[1] > 0.4
True
"""

from __future__ import annotations

import contextlib
import contextvars
from collections import Counter
from collections.abc import Iterator

import networkx as nx

from kg.errors import OptionError

__all__ = ["installed_backends", "check_backend", "call", "tally"]

_TALLY: contextvars.ContextVar[Counter | None] = contextvars.ContextVar("kg_nx_backend_tally", default=None)
_HINT = ("pip install 'kg[parallel]' (nx-parallel; Python 3.12+) or pip install nx-rustworkx")


def installed_backends() -> list[str]:
    """Names of the NetworkX backends installed (their ``networkx.backends`` entry points)."""
    from networkx.utils import backends

    return sorted(name for name in backends.backends if name != "networkx")


def check_backend(backend: str | None) -> str | None:
    """``backend`` as :func:`call` takes it (None for NetworkX's own), checked before any work.

    Raises
    ------
    OptionError
        When no installed backend has that name, or the one installed does not load with this
        NetworkX (e.g. nx-parallel 0.3, written for NetworkX 3.5, under NetworkX 3.6).
    """
    if backend is None or backend == "networkx":
        return None
    names = installed_backends()
    if not isinstance(backend, str) or backend not in names:
        have = f"installed: {', '.join(names)}" if names else "none is installed"
        raise OptionError("backend", f"unknown NetworkX backend {backend!r} ({have}; {_HINT})")
    from importlib.metadata import entry_points

    try:
        for point in entry_points(group="networkx.backends", name=backend):
            point.load()
    except Exception as exc:  # an import error of the backend's own code: one line, not a traceback
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise OptionError("backend", f"the NetworkX backend {backend!r} is installed but does not load with "
                                     f"NetworkX {nx.__version__} ({reason[:200]})") from None
    return backend


def _implements(func, backend: str) -> bool:
    return backend in (getattr(func, "backends", None) or ())


def call(func, *args, backend: str | None = None, **kwargs):
    """``func(*args, **kwargs)`` run by ``backend`` when it implements ``func`` for these arguments.

    Otherwise (no backend, the backend lacks the algorithm, refuses these arguments, or fails
    with a NetworkX error such as :class:`networkx.PowerIterationFailedConvergence`) NetworkX
    runs it; an error of NetworkX's own run is raised as usual. Converted graphs are not cached on the NetworkX graph (kg's projections are used
    once), which also keeps NetworkX's caching warning away.
    """
    counts = _TALLY.get()
    name = getattr(func, "name", getattr(func, "__name__", str(func)))
    if backend is not None and _implements(func, backend):
        try:
            with nx.config(cache_converted_graphs=False):
                result = func(*args, backend=backend, **kwargs)
        except (NotImplementedError, nx.NetworkXException):  # refused, or failed where NetworkX may not
            pass
        else:
            if counts is not None:
                counts[(name, backend)] += 1
            return result
    if counts is not None and backend is not None:
        counts[(name, "networkx")] += 1
    return func(*args, **kwargs)


@contextlib.contextmanager
def tally() -> Iterator[Counter]:
    """Count, while inside, each call of :func:`call` that named a backend: ``(algorithm, where ran)``.

    >>> with tally() as counts:
    ...     _ = call(nx.pagerank, nx.path_graph(3), backend="no-such")
    >>> dict(counts)
    {('pagerank', 'networkx'): 1}
    """
    counts: Counter = Counter()
    token = _TALLY.set(counts)
    try:
        yield counts
    finally:
        _TALLY.reset(token)
