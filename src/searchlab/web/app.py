"""The browser lab's FastAPI application: :func:`create_app`.

Routes (the contract in ``docs/web.md``): the pages ``/``, ``/play``, ``/path``, ``/trees``,
``/mcts`` (Jinja2 templates in :data:`TEMPLATES` that extend one frame, ``base.html``: the head,
the top bar with the nav and the status line) and their assets under ``/static``; the JSON API
under ``/api``; the live search
websocket ``/ws/search`` (:mod:`searchlab.web.search_socket`). Every search runs in a worker
process (:class:`~searchlab.web.workers.WorkerPool`) under the caps
(:class:`~searchlab.web.caps.ServerCaps`); views and exercises run in a second, one-process
pool with a short cap, so that a click never waits behind a long search.

Every error is JSON ``{"error": "<one line>"}`` with a 4xx status: bad JSON, unknown names,
illegal moves, budgets over a cap. An unexpected exception is logged and answered with a 500
in the same shape (the tests assert that none happens).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from searchlab.algorithms.path.registry import DEFAULT_WEIGHT, PATH_ALGORITHMS
from searchlab.core.errors import SearchlabError
from searchlab.web.caps import ServerCaps
from searchlab.web.lab import LabState
from searchlab.web.maps import default_map_dirs, find_maps
from searchlab.web.models import PATH_HEURISTICS, one_line
from searchlab.web.own_games import register_own_games
from searchlab.web.routers import ROUTERS
from searchlab.web.search_socket import router as search_socket
from searchlab.web.workers import JobError, WorkerPool

__all__ = ["LABS", "OPENAPI", "PAGES", "STATIC", "TEMPLATES", "create_app", "error_response"]

log = logging.getLogger("searchlab.web")

STATIC = Path(__file__).parent / "static"
"""The pages' assets: stylesheets and scripts."""
TEMPLATES = Path(__file__).parent / "templates"
"""The pages: ``base.html``, the frame, and one template per page that extends it."""

LABS = {"play": "Play", "path": "Path", "trees": "Trees", "mcts": "Monte Carlo"}
"""The labs in the nav's order: each one's name (its path ``/<name>``, its template
``<name>.html``, its script ``/static/<name>.js``, its nav link's ``data-testid="nav-<name>"``)
and its title."""

OPENAPI = "/api/openapi.json"
"""Where the API's OpenAPI document is served (every request and answer model is in it)."""

PAGES = {"/": "index", **{f"/{name}": name for name in LABS}}
"""Each page's path and its name (its template ``<name>.html`` in :data:`TEMPLATES`)."""


def create_app(
    caps: ServerCaps | None = None,
    *,
    workers: int | None = None,
    map_dirs: list[tuple[str, Path]] | None = None,
    games: Mapping[str, str] | None = None,
) -> FastAPI:
    """The lab's application: ``caps`` (default :class:`ServerCaps`), ``workers`` search
    processes (default: the number of cores), maps from ``map_dirs`` (default
    :func:`~searchlab.web.maps.default_map_dirs`), games of your own ``games``
    (``name -> "FILE.py:CLASS"``, as :func:`~searchlab.web.own_games.parse_game_option` checks
    them: registered here and in every worker). The pools start and stop with the app's
    lifespan (uvicorn, or ``with TestClient(app)``)."""
    caps = caps or ServerCaps()
    size = workers if workers is not None else max(1, os.cpu_count() or 1)
    register_own_games(games or {})
    lab = LabState(
        caps=caps,
        searches=WorkerPool(size, caps, games=games),
        # views and exercises need no compiled kernel
        quick=WorkerPool(1, caps, name="quick", warm=False, games=games),
        map_dirs=map_dirs,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lab.maps = await asyncio.to_thread(find_maps, map_dirs or default_map_dirs())
        # The workers start and warm up in the background: the pages answer at once, and a
        # search sent meanwhile waits for a warm worker (GET /api/status: "ready").
        starting = asyncio.gather(lab.searches.start(), lab.quick.start())
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                await starting
            await asyncio.gather(lab.searches.close(), lab.quick.close())

    app = FastAPI(
        title="searchlab",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=OPENAPI,
    )
    app.state.lab = lab
    _errors(app, lab)
    _pages(app)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(search_socket)
    return app


def error_response(status: int, message: str) -> JSONResponse:
    """The contract's error: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


def _errors(app: FastAPI, lab: LabState) -> None:
    @app.exception_handler(JobError)
    async def job_error(request: Request, error: JobError) -> Response:
        if error.status >= 500:
            lab.errors_500 += 1
        return error_response(error.status, error.message)

    @app.exception_handler(SearchlabError)
    async def searchlab_error(request: Request, error: SearchlabError) -> Response:
        return error_response(400, str(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        message = error.detail if isinstance(error.detail, str) else "request failed"
        if error.status_code == 404:
            message = f"no such page or API route: {request.url.path}"
        elif error.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        return error_response(error.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> Response:
        # every model's problem is a bad request, one line (models.one_line), as JobError's
        first = error.errors()[0] if error.errors() else {}
        return error_response(400, one_line(first))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:  # the last resort
        lab.errors_500 += 1
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, f"internal error: {type(error).__name__}: {error}")


def _pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    templates = Jinja2Templates(
        env=Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(),
            trim_blocks=True,
            lstrip_blocks=True,
        )
    )

    def page(name: str) -> Any:
        context = {
            "page": name,
            "title": f"{LABS[name]} · searchlab" if name in LABS else "searchlab",
            "labs": LABS,
            "heuristics": PATH_HEURISTICS,
            "path_algorithms": [
                {"name": name, "title": entry.title, "options": list(entry.options)}
                for name, entry in PATH_ALGORITHMS.items()
            ],
            "default_weight": f"{DEFAULT_WEIGHT:g}",
        }

        async def serve_page(request: Request) -> Response:
            try:
                return templates.TemplateResponse(request, f"{name}.html", context)
            except TemplateNotFound as missing:
                return error_response(404, f"page not available: {missing.name} is missing")

        return serve_page

    for route, name in PAGES.items():
        app.add_api_route(route, page(name), methods=["GET"], include_in_schema=False)
