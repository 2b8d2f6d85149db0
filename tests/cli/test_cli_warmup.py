"""Compiling before the clock starts (issue 28): the compile notice (at once on a cold kernel,
after a while on a slow load), a search's clock starting after its kernels are ready, and
``searchlab warmup`` compiling ahead; the runs on an empty cache are in test_cold_cache.py."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.algorithms.mcts import compile_notice
from searchlab.algorithms.mcts.compile_notice import compile_message, compiling


class _Kernel:
    """A stand-in for a numba dispatcher whose disk cache holds nothing."""

    class _File:
        @staticmethod
        def _load_index() -> dict[Any, str]:
            return {}

    class _Cache:
        _cache_file: Any = None

        @staticmethod
        def _index_key(sig: Any, codegen: Any) -> tuple[Any, ...]:
            return (sig, "machine", ("code", ""))

    class _Context:
        @staticmethod
        def codegen() -> None:
            return None

    def __init__(self) -> None:
        self._cache = self._Cache()
        self._cache._cache_file = self._File()
        self.targetctx = self._Context()


def test_a_cold_kernel_is_said_at_once_and_a_slow_load_after_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines: list[str] = []
    with compiling("go", _Kernel(), say=lines.append):
        assert lines == [compile_message("go", cached=True)]  # before the work
    monkeypatch.setattr(compile_notice, "SLOW_SECONDS", 0.05)
    slow: list[str] = []
    said = threading.Event()
    with compiling("mygame", object(), say=lambda line: (slow.append(line), said.set())):
        said.wait(5)  # a load that takes long: said once it has
    assert slow == [compile_message("mygame", cached=False)]
    assert "once" not in slow[0]
    fast: list[str] = []
    with compiling("mygame", object(), say=fast.append):
        pass
    time.sleep(0.1)
    assert fast == []


def test_warmup_compiles_each_game_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "warmup", "tictactoe", "nim")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["tictactoe", "nim"]
    assert all(" ready in " in line and line.endswith("(rules)") for line in lines)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [(("nosuch",), "unknown game 'nosuch'"), (("tictactoe", "no/file.py:Game"), "no/file.py")],
)
def test_warmup_names_a_bad_game_in_one_line_before_compiling(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, out, err = run_main(capsys, "warmup", *argv)
    assert_one_line_error(code, err, fragment)
    assert out == ""  # nothing warmed before the bad name was found


def test_a_searchs_clock_starts_after_its_kernels_are_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from searchlab.algorithms.mcts import compiled, slices
    from searchlab.algorithms.mcts.options import MCTSOptions
    from searchlab.core.limits import Limits
    from searchlab.games import make

    readied: list[str] = []
    hour = 3600.0
    passed = [0.0]  # what the compile adds to the module's clock: no real sleep, no timing

    def slow_ready(kernel: Any, *args: Any) -> None:  # a first compile that takes an hour
        passed[0] += hour
        readied.append(kernel.name)

    monkeypatch.setattr(compiled, "_make_ready", slow_ready)
    clock = SimpleNamespace(perf_counter=lambda: time.perf_counter() + passed[0])
    monkeypatch.setattr(compiled, "time", clock)  # the search's clock, and its slices'
    monkeypatch.setattr(slices, "time", clock)
    game = make("connect4")
    result = compiled.compiled_mcts(
        game, state=game.initial_state(), limits=Limits(time=0.2), options=MCTSOptions(), seed=1
    )
    assert result is not None and readied == ["connect4"] and passed == [hour]
    # the hour is outside the search's clock: counted in, it would be in elapsed, and the
    # 0.2 s budget would be spent before the first simulation
    assert result.elapsed < hour and result.stopped_by == "time"
    assert result.stats["simulations"] > 0
