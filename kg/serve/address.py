"""Where the explorer listens: loopback unless asked otherwise, and the socket bound before serving.

The explorer shows a whole build (abstracts included) to anyone who can reach its port, so it
listens on 127.0.0.1 by default and refuses any other address unless the caller says so
(``allow_remote=True``: ``kg serve`` passes it only when ``--host`` is on its command line).
The socket is bound here, before the server starts, so a port in use or an address that is not
this machine's is one clear error and the port actually bound (``port=0``: any free one) is known.

Examples
--------
>>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
(True, True, True, False)
"""

from __future__ import annotations

import errno
import ipaddress
import socket

from kg.errors import KgError, OptionError

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "is_loopback", "check_host", "bind", "url_of"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def is_loopback(host: str) -> bool:
    """True when ``host`` is a loopback address (127.0.0.0/8, ::1) or ``localhost``."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_host(host: str, *, allow_remote: bool = False) -> str:
    """``host`` checked: any loopback address, any other only with ``allow_remote``.

    Raises
    ------
    kg.errors.OptionError
        ``host`` is empty, or not a loopback address and ``allow_remote`` is false.
    """
    name = str(host or "").strip()
    if not name:
        raise OptionError("host", "is empty; give an address such as 127.0.0.1")
    if not allow_remote and not is_loopback(name):
        raise OptionError("host", f"{name} is not a loopback address: the explorer would show the whole "
                                  "build to anyone who can reach it; ask for it explicitly to listen there")
    return name


def bind(host: str, port: int, *, allow_remote: bool = False) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (``port=0``: a free port), checked by :func:`check_host`.

    Raises
    ------
    kg.errors.OptionError
        The host is refused (see :func:`check_host`) or the port is out of range.
    kg.errors.KgError
        The port is in use, or the address is not one of this machine's.
    """
    host = check_host(host, allow_remote=allow_remote)
    if not 0 <= int(port) <= 65535:
        raise OptionError("port", f"must be 0-65535 (0: any free port), not {port}")
    try:
        infos = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise KgError(f"cannot listen on {host}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise KgError(f"port {port} on {host} is in use; choose another port (0: any free one)") from None
        raise KgError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The ``http://`` address a browser opens for the listening ``sock``.

    Examples
    --------
    >>> s = bind("127.0.0.1", 0); url_of(s).startswith("http://127.0.0.1:"); s.close()
    True
    """
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    if host in ("0.0.0.0", "[::]"):
        host = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
    return f"http://{host}:{port}/"
