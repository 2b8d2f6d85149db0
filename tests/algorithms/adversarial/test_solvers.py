"""Exact solver and Sprague-Grundy values against the XOR / misere rules and published tables."""

from __future__ import annotations

import csv
from functools import reduce
from operator import xor
from pathlib import Path

import pytest
from hang_guard import hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.adversarial.solver import Solver, solve
from searchlab.algorithms.adversarial.sprague_grundy import (
    grundy_value,
    heap_grundy_values,
    mex,
    nim_mover_wins,
    nim_winning_move,
    winning_moves,
)
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.domains.games.heap_games import GrundysGame, OctalGame, dawsons_chess, kayles
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.tictactoe import MNKGame, TicTacToe

piles_strategy = st.lists(st.integers(0, 5), min_size=1, max_size=4)


def misere_mover_wins(piles: list[int]) -> bool:
    """Bouton's misere rule: with a pile > 1, play as in normal Nim (win iff XOR != 0);
    with all piles <= 1, the mover wins iff the number of 1-piles is even (XOR == 0)."""
    nim_sum = reduce(xor, piles, 0)
    if any(pile > 1 for pile in piles):
        return nim_sum != 0
    return nim_sum == 0


@settings(max_examples=60, deadline=None)
@given(piles_strategy)
def test_nim_solver_and_grundy_follow_the_xor_rule(piles: list[int]) -> None:
    game = Nim(piles)
    nim_sum = reduce(xor, piles, 0)
    result = solve(game)
    assert result.value == (1.0 if nim_sum else -1.0)
    assert grundy_value(game) == nim_sum
    # every winning move leaves XOR 0, and they are exactly the solver's winning moves
    root = game.initial_state()
    expected = {a for a in root.legal_actions() if reduce(xor, root.apply(a).piles, 0) == 0}
    assert set(winning_moves(game)) == expected
    assert {a for a, v in result.stats["action_values"].items() if v > 0} == expected


@settings(max_examples=60, deadline=None)
@given(piles_strategy)
def test_misere_nim_solver_follows_the_misere_rule(piles: list[int]) -> None:
    result = solve(Nim(piles, misere=True))
    assert result.value == (1.0 if misere_mover_wins(piles) else -1.0)


def test_grundy_needs_normal_play_and_an_impartial_game() -> None:
    with pytest.raises(InvalidParameterError, match="normal play"):
        grundy_value(Nim((1, 2), misere=True))
    with pytest.raises(InvalidParameterError, match="impartial"):
        grundy_value(TicTacToe())
    with pytest.raises(InvalidParameterError, match="not a heap game"):
        heap_grundy_values(Nim((3,)), 3)


def _table(shared_data: Path) -> list[dict[str, str]]:
    path = shared_data / "small_game_facts" / "grundy_values.tsv"
    with path.open() as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.parametrize(
    ("column", "game"),
    [("kayles", kayles()), ("dawsons_chess", dawsons_chess()), ("grundys_game", GrundysGame())],
)
def test_heap_grundy_values_match_the_published_table(
    shared_data: Path, column: str, game: object
) -> None:
    expected = [int(row[column]) for row in _table(shared_data) if row[column] != ""]
    assert len(expected) > 100
    assert heap_grundy_values(game, len(expected) - 1) == expected  # type: ignore[arg-type]


def test_dawsons_kayles_is_dawsons_chess_shifted(shared_data: Path) -> None:
    chess = [int(row["dawsons_chess"]) for row in _table(shared_data)]
    values = heap_grundy_values(OctalGame(".07"), len(chess))
    assert values[1:] == chess


@pytest.mark.parametrize("heaps", [(3, 4), (5, 2, 1), (7,), (2, 2, 6)])
def test_heap_xor_agrees_with_the_exact_solver(heaps: tuple[int, ...]) -> None:
    for game in (kayles(heaps), dawsons_chess(heaps), GrundysGame(heaps)):
        won = solve(game).value > 0
        assert won == (grundy_value(game) != 0), (game.info.name, heaps)


def test_mex() -> None:
    assert mex(iter([2, 0, 1, 4])) == 3


def test_tictactoe_draws_and_every_first_move_draws() -> None:
    result = solve(TicTacToe())
    assert result.outcome == "draw" and result.is_proven
    values = result.stats["action_values"]
    assert sorted(values) == list(range(9)) and set(values.values()) == {0.0}


def test_solver_prefers_the_fastest_win_and_the_slowest_loss() -> None:
    # B (listed first) wins for MAX in 3 plies: A -> B -> C -> leaf 1; w wins at once.
    fast = ExplicitTreeGame(ExplicitTree.from_text("max A: B w=1\nmin B: C\nmax C: 1"))
    result = solve(fast)
    assert result.value == 1 and result.plies_to_end == 1
    assert fast.initial_state().action_to_string(result.action) == "w"
    # Both moves lose; the loss through B takes 3 plies, l at once: delay with B.
    slow = ExplicitTreeGame(ExplicitTree.from_text("max A: l=-1 B\nmin B: C\nmax C: -1"))
    result = solve(slow)
    assert result.value == -1 and result.plies_to_end == 3
    assert slow.initial_state().action_to_string(result.action) == "B"


def test_solver_shares_its_table_and_checks_capabilities() -> None:
    solver = Solver(MNKGame(3, 3, 3))
    solver.value(MNKGame(3, 3, 3).initial_state())
    assert len(solver.table) == 5478  # the distinct reachable positions (published)

    class Chance:
        from searchlab.core.game import GameInfo

        info = GameInfo(name="dice", deterministic=False)

    with pytest.raises(InvalidParameterError, match="deterministic"):
        solve(Chance())  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(piles_strategy, st.booleans())
def test_nim_rule_helpers_agree_with_the_exact_solver(piles: list[int], misere: bool) -> None:
    game = Nim(piles, misere=misere)
    solver = Solver(game)
    root = game.initial_state()
    wins = solver.value(root)[0] > 0
    assert nim_mover_wins(piles, misere=misere) == wins
    move = nim_winning_move(piles, misere=misere)
    if not wins or root.is_terminal():  # misere: no counters left means the mover has won
        assert move is None
    else:
        assert move is not None
        index, take = move
        action = index * game.stride + take - 1
        assert solver.action_values(root)[action][0] > 0


def test_nim_winning_move_is_computed_whatever_the_pile_sizes() -> None:
    """The first pile that works, as little as works (as a search over every move finds it),
    for every position of up to 3 piles of up to 7; and piles of 10**30 at once (``solve nim``
    took time linear in the pile before)."""
    import itertools

    def searched(piles: list[int], misere: bool) -> tuple[int, int] | None:
        if not nim_mover_wins(piles, misere=misere):
            return None
        for index, size in enumerate(piles):
            for take in range(1, size + 1):
                after = [*piles[:index], size - take, *piles[index + 1 :]]
                if not nim_mover_wins(after, misere=misere):
                    return index, take
        return None

    for count in (1, 2, 3):
        for piles in itertools.product(range(8), repeat=count):
            for misere in (False, True):
                expected = searched(list(piles), misere)
                assert nim_winning_move(piles, misere=misere) == expected, (piles, misere)
    # no timing: a search over the moves would never end on these piles (the guard fails it)
    with hang_guard("nim's winning move on huge piles"):
        assert nim_winning_move([10**7, 3]) == (0, 10**7 - 3)  # leave 3 3
        assert nim_winning_move([10**7, 1], misere=True) == (0, 10**7)  # leave 1
        huge = 10**30
        assert nim_winning_move([huge, 3]) == (0, huge - 3)
    assert nim_winning_move([huge, huge, 1], misere=True) == (2, 1)  # leave huge huge
    assert nim_winning_move([huge, 1, 1], misere=True) == (0, huge - 1)  # leave 1 1 1


def test_reference_solver_limits_stop_before_a_new_position_and_can_be_lifted() -> None:
    """``Solver(game, limits)``: the nodes limit counts distinct positions entered (the
    unlimited solve of tic-tac-toe enters 5,478), a spent time limit stops at once, positions
    already solved are answered, and ``limits = None`` lifts them."""
    from searchlab.algorithms.adversarial.solver import Solver
    from searchlab.core.errors import SearchStopped
    from searchlab.core.limits import Limits
    from searchlab.domains.games.tictactoe import TicTacToe

    game = TicTacToe()
    root = game.initial_state()
    full = Solver(game)
    expected = full.value(root)
    for nodes, solves in ((full.nodes - 1, False), (full.nodes, True)):
        solver = Solver(game, Limits(nodes=nodes))
        if solves:
            assert solver.value(root) == expected and solver.nodes == full.nodes
        else:
            with pytest.raises(SearchStopped) as stopped:
                solver.value(root)
            assert stopped.value.limit == "nodes" and solver.nodes == nodes
    timed = Solver(game, Limits(time=1e-9))
    with pytest.raises(SearchStopped) as stopped:
        timed.value(root)
    assert stopped.value.limit == "time" and timed.nodes == 0
    timed.limits = None
    assert timed.value(root) == expected
