"""The compiled-game protocol: a game of your own joins the compiled MCTS through
``register_compiled_game`` (UCT and MCTS-Solver, agreeing with the reference tier and the
game's theory), and every way to break the protocol is one clear line.

The game is the subtraction game of ``examples/custom_game.py`` (take 1..3, the last counter
wins: the player to move loses exactly on a multiple of 4), its rules written again here in
numba, as a user would.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numba import njit

from searchlab.algorithms import kernels
from searchlab.algorithms.kernels import KERNELS, compiled_game_for, register_compiled_game
from searchlab.algorithms.mcts import CompiledGame, CompiledGameError, mcts
from searchlab.cli.main import main
from searchlab.core.limits import Limits

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "custom_game.py"


def _load_example() -> Any:
    spec = importlib.util.spec_from_file_location("custom_game_for_compiled_tests", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


EXAMPLE_MODULE = _load_example()


@njit(cache=True)
def actions(left, unused, out, offset):  # pragma: no cover - compiled
    n = 0
    for take in range(1, 4):
        if take <= left:
            out[offset + n] = take
            n += 1
    return n


@njit(cache=True)
def play(left, unused, take):  # pragma: no cover - compiled
    return left - take, unused


@njit(cache=True)
def status(left, unused, config):  # pragma: no cover - compiled
    if left == 0:
        return True, -1.0  # the previous player took the last counter
    return False, 0.0


@njit(cache=True)
def endless_status(left, unused, config):  # pragma: no cover - compiled
    return False, 0.0


@njit(cache=True)
def wrong_actions(left, unused, out, offset):  # pragma: no cover - compiled
    out[offset] = 1
    return 1


@njit(cache=True)
def too_big_status(left, unused, config):  # pragma: no cover - compiled
    return left == 0, 2.0


@njit(cache=True)
def single_play(left, unused, take):  # pragma: no cover - compiled
    return left - take


def encode(state: Any) -> tuple[np.int64, np.int64]:
    return np.int64(state.left), np.int64(0)


RULES = CompiledGame(
    name="subtraction", actions=actions, play=play, status=status, encode=encode,
    max_branching=3,
)  # fmt: skip


@pytest.fixture
def game_type(monkeypatch: pytest.MonkeyPatch) -> type:
    """A fresh subclass of the example's game (compiled rules go by exact type), registered
    only for the test: the registries are restored afterwards."""
    monkeypatch.setattr(kernels, "_COMPILED_GAMES", dict(kernels._COMPILED_GAMES))
    monkeypatch.setattr(kernels, "_RESOLVED", dict(kernels._RESOLVED))
    monkeypatch.setitem(KERNELS._entries, "mcts", list(KERNELS._entries["mcts"]))

    class Subtraction(EXAMPLE_MODULE.Subtraction):  # type: ignore[name-defined,misc]
        pass

    return Subtraction


def exact(left: int) -> int:
    """+1 / -1 for the player to move (the theory: a multiple of 4 is lost)."""
    return -1 if left % 4 == 0 else 1


@pytest.mark.parametrize("counters", [5, 6, 7, 9])
def test_compiled_uct_on_your_own_game_takes_the_winning_move(game_type, counters) -> None:
    register_compiled_game(game_type, RULES)
    game = game_type(counters)
    result = mcts(game, limits=Limits(simulations=20_000), seed=3, tier="compiled", c=0.5)
    assert result.tier == "compiled"
    assert result.action == counters % 4  # leaves a multiple of 4
    assert result.stats["simulations"] == 20_000
    assert sum(child["visits"] for child in result.stats["children"]) == 20_000


@pytest.mark.parametrize("counters", range(1, 11))
def test_compiled_solver_on_your_own_game_proves_its_value(game_type, counters) -> None:
    register_compiled_game(game_type, RULES)
    game = game_type(counters)
    result = mcts(game, limits=Limits(simulations=200_000), seed=1, solver=True, tier="compiled")
    assert result.is_proven
    assert result.value == exact(counters)
    if exact(counters) > 0:
        assert result.action == counters % 4
    reference = mcts(
        game, limits=Limits(simulations=200_000), seed=1, solver=True, tier="reference"
    )
    assert (reference.is_proven, reference.value) == (True, result.value)


def test_a_game_without_compiled_rules_runs_the_reference_tier(game_type) -> None:
    result = mcts(game_type(6), limits=Limits(simulations=50), seed=0)
    assert result.tier == "reference"
    assert compiled_game_for(game_type(6)) is None


def test_a_function_a_rollout_and_a_next_player_are_taken_from_the_rules(game_type) -> None:
    register_compiled_game(game_type, lambda game: RULES)
    assert compiled_game_for(game_type(6)) is RULES
    assert kernels.mcts_rollouts(game_type(6)) == ("random",)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"status": None}, "subtraction: compiled game: status is missing (an @njit function)"),
        (
            {"play": play.py_func},
            "subtraction: compiled game: play must be a numba @njit function, got a plain "
            "Python function",
        ),
        (
            {"rollout": "random"},
            "subtraction: compiled game: rollout must be a numba @njit function, got 'random'",
        ),
        (
            {"max_branching": 0},
            "subtraction: compiled game: max_branching must be an integer in [1, 32767], got 0",
        ),
    ],
)
def test_a_malformed_description_is_refused_at_registration(game_type, change, message) -> None:
    fields = {
        name: getattr(RULES, name)
        for name in ("name", "actions", "play", "status", "encode", "max_branching")
    }
    with pytest.raises(CompiledGameError) as error:
        register_compiled_game(game_type, CompiledGame(**{**fields, **change}))
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"status": endless_status},
            "subtraction: compiled game: status says the game is not over at ply",
        ),
        ({"actions": wrong_actions}, "subtraction: compiled game: actions at ply 0 are [1]"),
        (
            {"status": too_big_status},
            "subtraction: compiled game: status must value a position in [-1, 1], got 2.0",
        ),
        (
            {"play": single_play},
            "subtraction: compiled game: play must return a pair (a, b), got",
        ),
        ({"encode": lambda state: state.counters}, "subtraction: compiled game: encode failed"),
    ],
)
def test_rules_that_break_the_protocol_are_one_line_at_the_first_search(
    game_type, change, message
) -> None:
    register_compiled_game(game_type, CompiledGame(**{**_fields(), **change}))
    with pytest.raises(CompiledGameError) as error:
        mcts(game_type(6), limits=Limits(simulations=50), seed=0)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def _fields() -> dict[str, Any]:
    return {
        name: getattr(RULES, name)
        for name in ("name", "actions", "play", "status", "encode", "max_branching")
    }


def test_a_game_that_never_ends_stops_the_search_with_one_line(game_type) -> None:
    # unchecked rules (as the built-in games register theirs): the kernel's own guard
    rules = CompiledGame(**{**_fields(), "status": endless_status, "actions": _take_one_back()})
    register_compiled_game(game_type, rules, check_reference=False)
    with pytest.raises(CompiledGameError, match="did not end within"):
        mcts(game_type(6), limits=Limits(simulations=50), seed=0)


def _take_one_back() -> Any:
    @njit
    def actions_forever(left, unused, out, offset):  # pragma: no cover - compiled
        out[offset] = 0  # "take nothing": the pile never empties
        return 1

    return actions_forever


def test_bad_compiled_rules_on_the_command_line_are_one_line(tmp_path, capsys) -> None:
    game_file = tmp_path / "brokengame.py"
    game_file.write_text(
        EXAMPLE.read_text()
        + "\n\nfrom numba import njit as _njit\n"
        + "from searchlab.algorithms.mcts import CompiledGame, register_compiled_game\n"
        + "@_njit\ndef _actions(a, b, out, offset):\n    return 0\n"
        + "@_njit\ndef _play(a, b, action):\n    return a, b\n"
        + "@_njit\ndef _status(a, b, config):\n    return False, 0.0\n"
        + "register_compiled_game(Subtraction, CompiledGame(name='subtraction', "
        + "actions=_actions, play=_play, status=_status, "
        + "encode=lambda state: (state.left, 0), max_branching=3))\n"
    )
    code = main(["analyse", f"{game_file}:Subtraction", "--agent", "mcts:simulations=100"])
    err = capsys.readouterr().err
    assert code == 2
    assert "compiled game: actions must return the count of legal actions" in err
    assert "Traceback" not in err


# --- the bound loop of a game of your own is cached on disk -------------------------------------

_CHILD = """
import json, sys
from searchlab.games import make
from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts._kernel_bind import _BOUND
from searchlab.core.limits import Limits
game = make(sys.argv[1] + ":Breakthrough", size=5)
result = mcts(game, limits=Limits(simulations=200), seed=1, tier="compiled")
(kernel,) = _BOUND.values()
stats = kernel.stats
print(json.dumps({"action": result.action, "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


def _child(game_file: Path, folder: Path) -> dict[str, Any]:
    import json
    import os
    import subprocess

    env = {**os.environ, "SEARCHLAB_KERNEL_DIR": str(folder)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(game_file)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_a_new_process_loads_your_games_bound_loop_from_numbas_cache(tmp_path: Path) -> None:
    game_file = tmp_path / "breakthrough.py"
    game_file.write_text((EXAMPLE.parent / "breakthrough.py").read_text())
    folder = tmp_path / "kernels"
    first = _child(game_file, folder)
    second = _child(game_file, folder)
    assert first["misses"] >= 1 and first["hits"] == 0  # compiled, then written to the cache
    assert second["hits"] >= 1 and second["misses"] == 0  # loaded: nothing compiled
    assert first["action"] == second["action"]
    assert len(list(folder.glob("searchlab_bound_*.py"))) == 1
    # a change to the rules' source makes another bound module (never a stale kernel)
    game_file.write_text(game_file.read_text() + "\n# changed\n")
    third = _child(game_file, folder)
    assert third["misses"] >= 1 and third["hits"] == 0
    assert len(list(folder.glob("searchlab_bound_*.py"))) == 2


# --- a game's own rollout must end ---------------------------------------------------------------


@njit(cache=True)
def endless_rollout(left, unused, rng, config):  # pragma: no cover - compiled
    n = left
    while n >= 0:  # never negative: a rollout that never ends
        n = (n * 1103515245 + 12345) % 2147483648
    return 1.0, rng


@njit(cache=True)
def out_of_range_rollout(left, unused, rng, config):  # pragma: no cover - compiled
    return 3.0, rng


def test_a_rollout_that_never_ends_is_one_line_not_a_hang(game_type, monkeypatch) -> None:
    from searchlab.core import compiled_game

    monkeypatch.setattr(compiled_game, "ROLLOUT_SECONDS", 1.0)
    register_compiled_game(game_type, CompiledGame(**{**_fields(), "rollout": endless_rollout}))
    with pytest.raises(CompiledGameError) as error:
        mcts(game_type(6), limits=Limits(simulations=50), seed=0)
    assert str(error.value) == (
        "subtraction: compiled game: rollout did not end within 1 s from the initial position "
        "(a playout must reach the end of the game)"
    )


def test_a_rollout_value_out_of_range_is_one_line(game_type) -> None:
    register_compiled_game(
        game_type, CompiledGame(**{**_fields(), "rollout": out_of_range_rollout})
    )
    with pytest.raises(CompiledGameError, match=r"rollout must return \(value in \[-1, 1\]"):
        mcts(game_type(6), limits=Limits(simulations=50), seed=0)


def test_actions_the_tree_cannot_hold_are_one_line(game_type) -> None:
    class Wide(game_type):  # type: ignore[misc,valid-type]
        def initial_state(self) -> Any:
            state = super().initial_state()
            legal = state.legal_actions

            class Shifted(type(state)):  # type: ignore[misc]
                def legal_actions(self) -> list[int]:
                    return [a + 40_000 for a in legal()]

            state.__class__ = Shifted
            return state

    register_compiled_game(Wide, RULES)
    with pytest.raises(CompiledGameError, match=r"actions must be in 0\.\.32767 .* got 40003 at"):
        kernels.compiled_game_for(Wide(6))
