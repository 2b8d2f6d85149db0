"""How pytest-xdist shares the suite between processes (``pytest -n 2 --dist loadfile``, or
``loadgroup``): a test file runs whole on one process (its module fixtures are made once, its
tests keep their order), and the files whose tests use the browser lab's ``server`` (or the
``lab`` page, which uses it) run together on one process, first, so one ``searchlab serve``
serves them all and the longest unit of work starts at once.

pytest-xdist's own ``loadgroup`` cannot do it with pytest 9.2: it renames each test
``nodeid@group`` through ``item._nodeid``, which pytest 9.2 no longer reads, so every test
went out alone and both processes started a server of their own.

>>> scope_of("tests/web/test_browser.py::test_x", frozenset({"tests/web/test_browser.py"}))
'web-server'
>>> scope_of("tests/core/test_core.py::test_y[1]", frozenset())
'tests/core/test_core.py'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SERVER_GROUP = "web-server"
SERVER_FIXTURES = frozenset({"server", "lab"})
_TEST = re.compile(r"^def test_\w+\(([^)]*)\)", re.MULTILINE)


def server_files(root: Path) -> frozenset[str]:
    """The test files under ``root/tests`` (as paths from ``root``) with a test function that
    takes one of :data:`SERVER_FIXTURES`."""
    found = set()
    for path in sorted((root / "tests").rglob("test_*.py")):
        for parameters in _TEST.findall(path.read_text(encoding="utf-8")):
            names = {part.split(":")[0].strip() for part in parameters.split(",")}
            if names & SERVER_FIXTURES:
                found.add(path.relative_to(root).as_posix())
                break
    return frozenset(found)


def scope_of(nodeid: str, server: frozenset[str]) -> str:
    """The unit of work of test ``nodeid``: :data:`SERVER_GROUP` for a test of a file in
    ``server``, else its file."""
    file = nodeid.split("::", 1)[0]
    return SERVER_GROUP if file in server else file


def make_scheduler(config: Any, log: Any) -> Any:
    """An xdist scheduler that hands out whole files, the server's files as one unit first."""
    from xdist.scheduler import LoadScopeScheduling

    server = server_files(Path(config.rootpath))

    class FileScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid, server)

        def _assign_work_unit(self, node: Any) -> None:
            if SERVER_GROUP in self.workqueue:
                self.workqueue.move_to_end(SERVER_GROUP, last=False)
            super()._assign_work_unit(node)

    return FileScheduling(config, log)
