"""Snake Go's evaluation: territory against a per-cell shortest-path count, material by hand,
the player to move's view, symmetric positions, bounds in both scorings, and its registration
as the game's default evaluation."""

from __future__ import annotations

import math
from collections import deque

import pytest
from snakego_support import played_positions

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.snakego import DOWN, UP, SnakeGo, SnakeGoState
from searchlab.domains.games.snakego.eval import SnakeGoEvaluation, material, territory


def random_positions(
    count: int, seed: int, size: int, rounds: int, **params: object
) -> list[SnakeGoState]:
    return played_positions(count, seed, size, rounds, random_share=0.1, **params)


def distances(state: SnakeGoState, player: int) -> dict[tuple[int, int], int]:
    """Shortest 4-connected steps over empty cells from any head of ``player``'s snakes."""
    size = state.game.size
    blocked = {(i % size, i // size) for i, owner in enumerate(state.walls) if owner != -1}
    for snakes in state.snakes:
        for snake in snakes:
            blocked.update(snake.cells)
    queue = deque((snake.cells[0], 0) for snake in state.snakes[player])
    found: dict[tuple[int, int], int] = {}
    while queue:
        (x, y), d = queue.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            cell = (nx, ny)
            if 0 <= nx < size and 0 <= ny < size and cell not in blocked and cell not in found:
                found[cell] = d + 1
                queue.append((cell, d + 1))
    return found


def test_territory_is_the_cells_each_player_reaches_strictly_first() -> None:
    for state in random_positions(150, 1, 8, 60):
        mine, theirs = distances(state, 0), distances(state, 1)
        first0 = sum(1 for c, d in mine.items() if d < theirs.get(c, math.inf))
        first1 = sum(1 for c, d in theirs.items() if d < mine.get(c, math.inf))
        assert territory(state) == (first0, first1)


def test_material_by_hand() -> None:
    for state in random_positions(100, 2, 8, 60):
        for player in (0, 1):
            walls = sum(1 for owner in state.walls if owner == player)
            snakes = state.snakes[player]
            expected = walls + sum(len(s.cells) + 2 * s.bank + 3 * s.ray for s in snakes)
            assert material(state, bank=2, ray=3)[player] == expected


def test_value_is_the_formula_for_the_player_to_move() -> None:
    evaluate = SnakeGoEvaluation(territory=0.5, bank=1, ray=2)
    for state in random_positions(150, 3, 8, 60):
        me, you = state.player, 1 - state.player
        own, reach = material(state), territory(state)
        left = state.game.rounds - state.round + 1
        margin = own[me] - own[you] + 0.5 * min(1, left / 8) * (reach[me] - reach[you])
        tie = 0.5 if me == 1 else -0.5
        assert evaluate(state) == pytest.approx(0.99 * math.tanh((margin + tie) / 4))
        assert -1 < evaluate(state) < 1


def test_score_difference_values_are_about_the_margin_and_inside_the_bounds() -> None:
    evaluate = SnakeGoEvaluation()
    for state in random_positions(100, 4, 8, 60, scoring="score_difference"):
        margin = evaluate.margin(state)
        value = evaluate(state)
        assert -64 < value < 64
        assert value == pytest.approx(0.99 * 64 * math.tanh(margin / 64))
        if margin:
            assert math.copysign(1, value) == math.copysign(1, margin)


def test_symmetric_positions_are_even() -> None:
    for scoring in ("win_loss", "score_difference"):
        game = SnakeGo(seed=0, items=(), size=8, rounds=30, scoring=scoring)  # type: ignore[arg-type]
        state = game.initial_state()
        # the mirror moves (180-degree rotation) keep the position symmetric
        for action in (DOWN, UP, DOWN, UP):
            state = state.apply(action)
            if state.player == 0:
                assert SnakeGoEvaluation().margin(state) == 0
        value = SnakeGoEvaluation()(state)
        if scoring == "score_difference":
            assert value == 0
        else:  # only the tie rule: an equal score is player 1's win
            assert value == pytest.approx(0.99 * math.tanh(-0.5 / 4))


def test_more_territory_is_better() -> None:
    game = SnakeGo(items=(), size=8, rounds=30)
    corner = game.state_from(snakes=([[(0, 7)]], [[(7, 0)]]))
    centre = game.state_from(snakes=([[(3, 4)]], [[(7, 0)]]))
    assert territory(centre)[0] > territory(corner)[0]
    assert SnakeGoEvaluation()(centre) > SnakeGoEvaluation()(corner)
    # the same from player 1's side: the centre is worse for them
    assert SnakeGoEvaluation()(game.state_from(snakes=([[(3, 4)]], [[(7, 0)]]), player=1)) < (
        SnakeGoEvaluation()(game.state_from(snakes=([[(0, 7)]], [[(7, 0)]]), player=1))
    )


def test_bad_weights_are_one_clear_error() -> None:
    with pytest.raises(InvalidParameterError, match="weights must be numbers >= 0"):
        SnakeGoEvaluation(territory=-1)
    with pytest.raises(InvalidParameterError, match="scale must be a number > 0"):
        SnakeGoEvaluation(scale=0)
