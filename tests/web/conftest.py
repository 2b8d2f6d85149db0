"""Fixtures of the browser tests: a real ``searchlab serve`` and Debian's Chromium.

* ``server``: ``searchlab serve --port <free port>`` started as a subprocess (the venv's console
  script, else ``python -m searchlab``) in its own process group, waited for until ``/``
  answers, and stopped at the end (SIGTERM to the group, then SIGKILL to whatever is left). Its
  output goes to a log file; a test fails when the server logs a traceback or answers a request
  with a 5xx status while the test runs (its log, and the ``errors_500`` of ``/api/status``).
* ``browser_context``: Chromium from Debian (``/usr/bin/chromium``, never a downloaded browser)
  driven by Playwright for Python, headless, with a fresh user data directory per test. Any
  request to a host other than the server is aborted and counted as an error (the pages must
  work offline: no CDN, no external URL).
* ``lab``: a page with every console error, page error (uncaught exception) and failed or
  external request collected; ``lab.check()`` asserts there were none and every test calls it
  (the fixture checks again at teardown).
* ``screenshot``: saves a PNG of the page under the run's temporary directory and, when the
  environment variable ``SEARCHLAB_SCREENSHOTS`` names a directory (``docs/web`` to refresh
  the committed pictures), there too.

Missing Chromium or Playwright: in CI (``CI=true``) the tests FAIL with the reason, never skip;
elsewhere they are skipped with the reason (``needs.missing``; ``scripts/test-deps.sh`` installs
Chromium).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from needs import missing
from recipe_files import OWN_GAME, write_files

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 860}
SERVER_START_SECONDS = 120.0  # importing numba and the library on a loaded 2-core machine
SERVER_WARM_SECONDS = 600.0  # the workers' warm-up after the server answers
SERVER_STOP_SECONDS = 15.0
PAGE_TIMEOUT_MS = 30_000
SCREENSHOTS_ENV = "SEARCHLAB_SCREENSHOTS"


@pytest.fixture
def browser_requirements() -> Any:
    """What the browser tests need, for the tests of the setup itself (``CHROMIUM``)."""
    import types

    return types.SimpleNamespace(CHROMIUM=CHROMIUM)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _serve_command(port: int, *extra: str) -> list[str]:
    script = Path(sys.executable).parent / "searchlab"
    if script.exists():
        return [str(script), "serve", "--port", str(port), *extra]
    return [sys.executable, "-m", "searchlab", "serve", "--port", str(port), *extra]


@dataclass
class Server:
    """A running ``searchlab serve``: its base URL, process and log file."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self, start: int = 0) -> str:
        """The server's output from byte ``start`` on."""
        with self.log_path.open("rb") as handle:
            handle.seek(start)
            return handle.read().decode("utf-8", "replace")

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    def status(self) -> dict[str, Any] | None:
        """GET /api/status (workers, errors answered with 500, ...); ``None`` without one."""
        try:
            with urllib.request.urlopen(self.url + "/api/status", timeout=10) as response:
                data: dict[str, Any] = json.load(response)
                return data
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError, ValueError):
            return None

    def problems_since(self, start: int) -> list[str]:
        """Tracebacks and 5xx answers the server logged since byte ``start``."""
        text = self.log(start)
        found = []
        if "Traceback (most recent call last)" in text:
            found.append("the server logged a traceback:\n" + text[-4000:])
        found += [line for line in text.splitlines() if re.search(r'HTTP/1\.[01]" 5\d\d', line)]
        return found


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server (it closes its pool: its workers end with their pipes), wait, then
    SIGKILL whatever is left of its process group. (A SIGTERM to the whole group killed the
    workers and the forkserver under the running server, which logged each lost pipe and a
    traceback from starting a worker without its forkserver.)"""
    try:
        process.send_signal(signal.SIGTERM)
    except ProcessLookupError:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=SERVER_STOP_SECONDS)
    # Workers share the server's process group: kill the group whether or not the server
    # went quietly, so no worker outlives the test run.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=SERVER_STOP_SECONDS)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``searchlab serve`` on a free local port, stopped at the end of the session."""
    for module in ("fastapi", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            missing(f"{module} is not installed: pip install -e '.[web]'")
    port = _free_port()
    log_path = tmp_path_factory.mktemp("server") / "serve.log"
    own = tmp_path_factory.mktemp("own-game")
    write_files(own)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            _serve_command(port, "--game", f"{own / OWN_GAME}.py:Notakto"),
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, workers included
        )
    running = Server(f"http://127.0.0.1:{port}", process, log_path)
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while not _answers(running.url + "/"):
            if process.poll() is not None:
                pytest.fail(
                    f"searchlab serve exited with code {process.returncode} before answering:\n"
                    + running.log()[-4000:],
                    pytrace=False,
                )
            if time.monotonic() > deadline:
                pytest.fail(
                    f"searchlab serve did not answer on {running.url}/ within "
                    f"{SERVER_START_SECONDS:.0f} s:\n" + running.log()[-4000:],
                    pytrace=False,
                )
            time.sleep(0.25)
        # Let the search workers warm up (import the library, load or, on a fresh clone's
        # empty cache, compile every game's kernels: minutes on 2 busy cores) so that the
        # first test's timeouts measure the page, not the server's start.
        warm_deadline = time.monotonic() + SERVER_WARM_SECONDS
        while True:
            status = running.status()
            if status is None or status.get("ready", True):
                break
            if time.monotonic() > warm_deadline:
                pytest.fail(
                    f"searchlab serve's workers were not ready within {SERVER_WARM_SECONDS:.0f} "
                    "s:\n" + running.log()[-4000:],
                    pytrace=False,
                )
            time.sleep(0.25)
        yield running
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def playwright_instance() -> Iterator[Any]:
    """Playwright for Python (sync API), started once per test file and stopped after it: its
    event loop runs in the main thread while it lives, where ``asyncio.run`` then refuses to
    start (``cannot be called from a running event loop``), so a test process that goes on to
    other files (``pytest -n 2``: the browser files first, then test_abuse's load, say) must
    not keep it."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        missing(f"{CHROMIUM} not found: run scripts/test-deps.sh (installs Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed: pip install playwright (no browser download)")
    with sync_playwright() as instance:
        yield instance


@pytest.fixture
def browser_context(playwright_instance: Any, tmp_path: Path) -> Iterator[Any]:
    """Debian's Chromium, headless, with a fresh user data directory."""
    context = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=VIEWPORT,
    )
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()


@dataclass
class Lab:
    """A page of the lab with the errors it produced (console, uncaught, requests, server)."""

    page: Any
    server: Server
    log_start: int
    errors_500_start: int | None = None
    errors: list[str] = field(default_factory=list)
    checked: bool = False

    def open(self, path: str) -> Any:
        """Go to ``path`` on the server and wait for the page's status line."""
        response = self.page.goto(self.server.url + path)
        assert response is not None and response.status == 200, (
            f"GET {path}: {None if response is None else response.status}"
        )
        self.page.wait_for_selector("[data-testid=status]", state="attached")
        return self.page

    def new_game(self, game: str, second: str, first: str = "human") -> tuple[Any, list[Any]]:
        """Open the Play lab and start ``game`` between the agents ``first`` and ``second``
        (specs; ``human`` is the person); returns the page and the list that collects every
        websocket frame the page receives from then on (decoded JSON)."""
        frames: list[Any] = []

        def on_socket(socket: Any) -> None:
            socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

        page = self.open("/play")
        page.on("websocket", on_socket)
        page.wait_for_selector(f"[data-testid=game] option[value={game}]", state="attached")
        self.testid("game").select_option(game)
        self.testid("agent-first").fill(first)
        self.testid("agent-second").fill(second)
        self.testid("agent-second").press("Tab")  # commits the spec (change event)
        self.testid("new-game").click()
        return page, frames

    def wait_for_sim_count(self, simulations: int, timeout: float | None = None) -> None:
        """Wait until the MCTS lab's simulation counter shows ``simulations`` (``timeout`` in
        milliseconds, else the page's default)."""
        self.page.wait_for_function(
            "n => document.querySelector('[data-testid=sim-count]').textContent.trim() === "
            "String(n)",
            arg=simulations,
            timeout=timeout,
        )

    def testid(self, name: str) -> Any:
        """The locator of the element with ``data-testid=name``."""
        return self.page.get_by_test_id(name)

    def all_errors(self) -> list[str]:
        found = self.errors + self.server.problems_since(self.log_start)
        status = self.server.status() if self.errors_500_start is not None else None
        if status is not None and status.get("errors_500", 0) > self.errors_500_start:
            found.append(
                f"the server answered {status['errors_500'] - self.errors_500_start} "
                "request(s) with a 500 error (GET /api/status: errors_500)"
            )
        return found

    def check(self) -> None:
        """Assert no console error, page error, failed request or server error so far."""
        self.checked = True
        errors = self.all_errors()
        assert not errors, "errors while the page ran:\n" + "\n".join(errors)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test item (the ``lab`` fixture reads it at teardown)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def lab(
    browser_context: Any, server: Server, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Lab]:
    """A fresh page that records console errors, page errors and failed or external requests.
    When the test fails, the page's screenshot and status line are kept for the report."""
    page = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
    status = server.status()
    result = Lab(page, server, server.log_size(), None if status is None else status["errors_500"])
    origin = server.url

    def on_console(message: Any) -> None:
        if message.type == "error":
            result.errors.append(f"console error: {message.text} ({message.location})")

    def on_page_error(error: Any) -> None:
        result.errors.append(f"page error: {error}")

    def on_request_failed(request: Any) -> None:
        if request.url.startswith(origin):
            result.errors.append(f"request failed: {request.method} {request.url}")

    def on_route(route: Any) -> None:
        url = route.request.url
        if url.startswith((origin, "data:", "blob:")):
            route.continue_()
        else:
            result.errors.append(f"external request (the lab must work offline): {url}")
            route.abort()

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    page.on("requestfailed", on_request_failed)
    browser_context.route("**/*", on_route)
    yield result
    call = getattr(request.node, "report_call", None)
    if call is not None and call.failed:
        shot = tmp_path / "failure.png"
        with contextlib.suppress(Exception):
            page.screenshot(path=str(shot), full_page=True)
            status = page.get_by_test_id("status").inner_text(timeout=2000)
            call.sections.append(("browser", f"status line: {status!r}\nscreenshot: {shot}"))
    errors = result.all_errors()
    if errors:
        pytest.fail("errors while the page ran:\n" + "\n".join(errors), pytrace=False)


_SHOTS: list[Path] = []


@pytest.fixture(scope="session")
def screenshot_dirs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Where screenshots go: the run's temporary directory, and $SEARCHLAB_SCREENSHOTS if set."""
    dirs = [tmp_path_factory.mktemp("screenshots")]
    extra = os.environ.get(SCREENSHOTS_ENV)
    if extra:
        target = Path(extra)
        if not target.is_absolute():
            target = REPO_ROOT / target
        target.mkdir(parents=True, exist_ok=True)
        dirs.append(target)
    return dirs


@pytest.fixture
def screenshot(screenshot_dirs: list[Path]) -> Any:
    """``screenshot(page, "play")`` saves ``play.png`` (full page) in the run's screenshot
    directory and, unless ``docs=False``, in ``$SEARCHLAB_SCREENSHOTS`` too."""

    def save(page: Any, name: str, *, docs: bool = True) -> Path:
        first = screenshot_dirs[0] / f"{name}.png"
        page.screenshot(path=str(first), full_page=True)
        for directory in screenshot_dirs[1:] if docs else []:
            shutil.copyfile(first, directory / f"{name}.png")
        _SHOTS.append(first)
        return first

    return save


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say where the screenshots of this run are, so a person can look at them."""
    if _SHOTS:
        where = sorted({str(path.parent) for path in _SHOTS})
        terminalreporter.write_line(f"browser screenshots: {', '.join(where)}")
