"""The explorer as an ASGI app (Starlette): the page, its static files and a read-only JSON API.

Routes (GET and HEAD only; anything else is 405, any other path 404):

* ``/`` — the page; the view is in the query string (``?paper=ID``, ``?concept=ID``,
  ``?community=N``, ``from``/``to`` for years), so every view is a link and the browser's
  back and forward buttons work.
* ``/static/NAME`` — the page's script, style and vis-network (:mod:`kg.serve.page`).
* ``/api/meta``, ``/api/search?q=``, ``/api/paper?id=``, ``/api/concept?id=``,
  ``/api/communities``, ``/api/community?id=`` — :mod:`kg.serve.views`, each with the optional
  year range ``from``/``to``.

A bad argument is a 400 and an unknown id a 404, both as ``{"error": "…"}``. Requests whose
``Host`` is not the address the server listens on are refused (400), so a web page elsewhere
cannot read the build through DNS rebinding. The index is used from the event loop's thread only
(the handlers are ``async`` and call it directly): each answer takes milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable

from kg.errors import NodeNotFoundError, OptionError
from kg.escape import clean_tree
from kg.serve import views
from kg.serve.page import SECURITY_HEADERS, page_html, static_assets

__all__ = ["create_app", "BadRequest", "LOOPBACK_NAMES"]

_MAX_ID = 2000


class BadRequest(ValueError):
    """An argument of the query string that the API cannot use."""


def _year(request, name: str) -> int | None:
    value = request.query_params.get(name, "").strip()
    if not value:
        return None
    try:
        year = int(value)
    except ValueError:
        raise BadRequest(f"{name}: a year is a whole number, not {value[:40]!r}") from None
    if not -9999 <= year <= 9999:
        raise BadRequest(f"{name}: {year} is not a year")
    return year


def _text(request, name: str, *, required: bool = True) -> str:
    value = request.query_params.get(name, "")
    if required and not value.strip():
        raise BadRequest(f"{name}: missing")
    if len(value) > _MAX_ID:
        raise BadRequest(f"{name}: longer than {_MAX_ID} characters")
    return value


def _community_number(request) -> int:
    value = _text(request, "id")
    try:
        return int(value)
    except ValueError:
        raise BadRequest(f"id: a community is a number, not {value[:40]!r}") from None


def _limit(request) -> int:
    value = request.query_params.get("limit", "8")
    try:
        return max(1, min(int(value), 50))
    except ValueError:
        raise BadRequest(f"limit: a number, not {value[:40]!r}") from None


def _range(request) -> dict:
    low, high = _year(request, "from"), _year(request, "to")
    if low is not None and high is not None and low > high:
        low, high = high, low
    return {"year_from": low, "year_to": high}


class _HostCheck:
    """ASGI middleware: a request whose ``Host`` names none of ``hosts`` gets a 400 (``hosts=None``: any)."""

    def __init__(self, app, hosts: Iterable[str] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and self.hosts is not None:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").strip().lower()
            name = host[:host.index("]") + 1] if host.startswith("[") and "]" in host else host.partition(":")[0]
            if name not in self.hosts:
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
                await send({"type": "http.response.body", "body": b"unknown host"})
                return
        await self.app(scope, receive, send)


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def create_app(index, *, build: str, hosts: Iterable[str] | None = LOOPBACK_NAMES):
    """The explorer over one build's ``index`` (read only; the answers are :mod:`kg.serve.views`).

    Parameters
    ----------
    index : kg.index.read.BuildIndex
        The build's index, opened by the caller; the app only reads it.
    build : str
        The build's name, shown as the page's title.
    hosts : iterable of str, optional
        The ``Host`` names requests may carry (the addresses the server listens on); None: any
        (a server asked to listen beyond this machine).

    Returns
    -------
    starlette.applications.Starlette
        The ASGI app.
    """
    # Starlette loads only when a server starts (kg's other commands start faster without it).
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    def _json(data: object, status: int = 200) -> Response:
        return JSONResponse(clean_tree(data), status_code=status,
                            headers={**SECURITY_HEADERS, "Cache-Control": "no-store"})

    assets = static_assets()
    meta = views.meta(index, build=build)  # the index is read-only: the build's sizes never change
    page = page_html(f"kg · {build}", meta).encode("utf-8")

    async def home(request: Request) -> Response:
        return HTMLResponse(page, headers={**SECURITY_HEADERS, "Cache-Control": "no-store"})

    async def static(request: Request) -> Response:
        asset = assets.get(request.path_params["name"])
        if asset is None:
            return Response("not found", status_code=404, media_type="text/plain", headers=SECURITY_HEADERS)
        return Response(asset.body, media_type=asset.media_type,
                        headers={**SECURITY_HEADERS, "Cache-Control": "max-age=3600"})

    def api(answer):
        async def endpoint(request: Request) -> Response:
            try:
                return _json(answer(request))
            except (BadRequest, OptionError) as exc:
                return _json({"error": str(exc)}, 400)
            except NodeNotFoundError as exc:
                return _json({"error": str(exc)}, 404)
        return endpoint

    routes = [
        Route("/", home, methods=["GET"]),
        Route("/static/{name}", static, methods=["GET"]),
        Route("/api/meta", api(lambda r: meta), methods=["GET"]),
        Route("/api/search", api(lambda r: views.search(index, _text(r, "q", required=False), limit=_limit(r),
                                                        **_range(r))), methods=["GET"]),
        Route("/api/paper", api(lambda r: views.paper(index, _text(r, "id"), **_range(r))), methods=["GET"]),
        Route("/api/concept", api(lambda r: views.concept(index, _text(r, "id"), **_range(r))), methods=["GET"]),
        Route("/api/communities", api(lambda r: views.communities(index, **_range(r))), methods=["GET"]),
        Route("/api/community", api(lambda r: views.community(index, _community_number(r), **_range(r))),
              methods=["GET"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(_HostCheck, hosts=hosts)])
