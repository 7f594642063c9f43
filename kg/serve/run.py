"""``kg serve``: open a build's index, bind the address, serve the explorer until interrupted.

uvicorn serves the app on the socket :func:`kg.serve.address.bind` made, with its own logging
off (``on_ready`` hears the address once it listens); Ctrl-C or SIGTERM stops it cleanly.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from kg.index import open_index
from kg.serve.address import DEFAULT_HOST, DEFAULT_PORT, bind, check_host, is_loopback, url_of
from kg.serve.app import LOOPBACK_NAMES, create_app

__all__ = ["serve_build"]


def serve_build(folder: str | os.PathLike[str], *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                allow_remote: bool = False, on_ready: Callable[[str], None] | None = None) -> None:
    """Serve the explorer over the build in ``folder`` on ``host``:``port`` until interrupted.

    Parameters
    ----------
    folder : path
        A kg build folder with its index.
    host, port
        Where to listen; ``port=0`` takes any free port. Only loopback addresses unless
        ``allow_remote`` (see :func:`kg.serve.address.check_host`).
    on_ready : callable, optional
        Called with the page's address once the server listens.

    Raises
    ------
    kg.errors.KgError
        The folder is no build, the host is refused, or the port cannot be bound.
    """
    import uvicorn  # uvicorn (and its event loop) load only when a server starts

    check_host(host, allow_remote=allow_remote)  # before any work
    with open_index(folder) as index, contextlib.closing(bind(host, port, allow_remote=allow_remote)) as sock:
        app = create_app(index, build=Path(folder).resolve().name, hosts=_host_names(host))
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                               server_header=False))
        if on_ready is not None:
            on_ready(url_of(sock))
        server.run(sockets=[sock])


def _host_names(host: str) -> list[str] | None:
    """The ``Host`` names a request to ``host`` may carry: the loopback names and ``host`` itself; None
    (any) when it listens beyond loopback, where the names that reach it are not known here.

    Examples
    --------
    >>> _host_names("::1"), _host_names("0.0.0.0")
    (['127.0.0.1', '[::1]', 'localhost'], None)
    """
    name = host.strip().lower()
    if not is_loopback(name):
        return None
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return sorted({*LOOPBACK_NAMES, name})
