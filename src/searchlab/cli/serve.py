"""``searchlab serve [--port P] [--host H] [--open] [--workers N] [--max-time S] ...``: the browser
lab, a local web server to play the games and watch every search (path, trees, alpha-beta, MCTS)
as it runs.

  searchlab serve                      (http://127.0.0.1:8765/, this machine only)
  searchlab serve --port 9000 --open   (and open it in the web browser)
  searchlab serve --host 0.0.0.0       (every network interface: prints a warning)
  searchlab serve --max-time 30        (searches may run up to 30 s)
  searchlab serve --game notakto.py:Notakto   (a game of your own in the Play lab too)

Serves the Play, Path, Trees and Monte Carlo labs (FastAPI on uvicorn, from the ``web``
extra). Every search runs in one of ``--workers`` processes, which warm up in the background
at start (a search sent meanwhile waits), under its agent's own budget bounded by the
server's caps (``--max-time``, ``--max-simulations``, ``--max-nodes``, ``--max-depth``; see
:class:`searchlab.web.caps.ServerCaps`). Ctrl-C stops the server: one line, exit code 130.
A missing ``web`` extra, a bad option or a port already in use is one line and exit code 2.
"""

from __future__ import annotations

import argparse
import errno
import math
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from typing import Any

from searchlab.cli._common import worker_count
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.web.caps import BUDGET_CAPS, ServerCaps

__all__ = ["DEFAULT_PORT", "LOCAL_HOSTS", "caps_from_args", "register", "run"]

DEFAULT_PORT = 8765
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
WEB_HINT = "pip install 'searchlab[web]'"


def register(subparsers: Any) -> None:
    """Add ``serve`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "serve",
        help="the browser lab: play, path, trees and Monte Carlo, on a local web server",
        description=" ".join(__doc__.split("\n\n", 1)[0].split(": ", 1)[1].split()),
        epilog="examples:\n" + "\n".join(__doc__.split("\n\n")[1].splitlines()) + "\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--port", default=str(DEFAULT_PORT), metavar="P", help="TCP port (default %(default)s)"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="address to listen on (default %(default)s: this machine only)",
    )
    parser.add_argument("--open", action="store_true", help="open the lab in the web browser")
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="[NAME=]FILE.py:CLASS",
        help="a game of your own in the labs (repeatable; NAME defaults to its info.name)",
    )
    parser.add_argument(
        "--workers",
        type=worker_count,
        metavar="N",
        help="search worker processes (default: the number of cores)",
    )
    defaults = ServerCaps()
    for name, option in BUDGET_CAPS.items():
        default = getattr(defaults, name)
        shown = f"{default:g} s" if name == "time" else f"{default:,}"
        parser.add_argument(
            option,
            metavar="S" if name == "time" else "N",
            help=f"{_CAP_HELP[name]} (default {shown})",
        )
    parser.set_defaults(func=run)


_CAP_HELP = {
    "time": "most seconds one search may run: a ceiling over the agent's own budget",
    "simulations": "most simulations a spec's simulation budget may ask",
    "nodes": "most tree nodes of a search (its memory) or expansions of a path search",
    "depth": "most plies of a depth-limited search",
}


def caps_from_args(args: argparse.Namespace) -> ServerCaps:
    """The server's caps: the defaults with those the ``--max-*`` options give; one
    ``InvalidParameterError`` line naming the option for a bad value.

    >>> caps_from_args(argparse.Namespace(max_time="2.5", max_nodes="1000")).nodes
    1000
    >>> caps_from_args(argparse.Namespace(max_depth="deep"))
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: --max-depth expects a whole number >= 1, got 'deep'
    """
    given: dict[str, Any] = {}
    for name, option in BUDGET_CAPS.items():
        text = getattr(args, option[2:].replace("-", "_"), None)
        if text is None:
            continue
        convert = float if name == "time" else int
        noun = "a number of seconds > 0" if name == "time" else "a whole number >= 1"
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not (math.isfinite(value) and value > 0):
            raise InvalidParameterError(f"{option} expects {noun}, got {text!r}")
        given[name] = value
    return ServerCaps(**given)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise InvalidParameterError(f"--port expects a number in 0..65535, got {text!r}")
    return port


def _workers(chosen: int | None) -> int:
    """``--workers`` (checked by :func:`~searchlab.cli._common.worker_count`), else the
    number of cores."""
    return max(1, os.cpu_count() or 1) if chosen is None else chosen


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (one line naming the problem when it cannot be)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise InvalidParameterError(f"--host {host!r}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise SearchlabError(
                f"port {port} on {host} is already in use: stop the other server or pick "
                "another with --port"
            ) from None
        if error.errno == errno.EACCES:
            raise SearchlabError(
                f"no permission to listen on port {port} (ports below 1024 need root): "
                "pick another with --port"
            ) from None
        raise SearchlabError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Check the options, bind the port, serve until Ctrl-C."""
    port = _port(args.port)
    workers = _workers(args.workers)
    caps = caps_from_args(args)
    try:
        import uvicorn

        from searchlab.web.app import create_app
        from searchlab.web.own_games import parse_game_option
    except ImportError as error:
        module = (error.name or "fastapi").split(".")[0]
        raise SearchlabError(
            f"'searchlab serve' needs the web extra ({module} is not installed): {WEB_HINT}"
        ) from None
    games = dict(parse_game_option(text) for text in getattr(args, "game", []))
    host = args.host
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if host not in LOCAL_HOSTS:
        print(
            f"searchlab serve: warning: listening on {host}: anyone who can reach this "
            "machine can use the lab and run searches on it",
            file=sys.stderr,
        )
    app = create_app(caps, workers=workers, games=games)
    config = uvicorn.Config(
        app,
        log_level="warning",
        timeout_graceful_shutdown=1,
        # longer than a client waits between two requests while a search of its runs, so a
        # kept-alive connection is not closed just as the client sends on it
        timeout_keep_alive=75,
        ws_ping_interval=20.0,
    )

    def ready() -> None:
        print(f"searchlab serve: {url} ({workers} workers; Ctrl-C stops)", flush=True)
        if args.open:
            threading.Timer(0.5, webbrowser.open, args=(url,)).start()

    server = _ready_server(config, ready)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _ready_server(config: Any, on_ready: Callable[[], None]) -> Any:
    """A uvicorn server that calls ``on_ready`` (prints the URL) once it has started: by then
    it handles Ctrl-C itself (a graceful stop, then exit 130), so a Ctrl-C sent on seeing the
    URL never lands in its start-up, where an interrupted server could hang on its way out."""
    import uvicorn

    class ReadyServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and not self.should_exit:
                on_ready()

    return ReadyServer(config)
