"""Snake Go's informed rollout policy: every classification checked against the game's own
``apply`` over many random positions, the filters (safe, eat, uncontested) by hand, the seed,
and the rollout hook that makes ``rollout="informed"`` use it."""

from __future__ import annotations

import random

import pytest
from snakego_support import played_positions

from searchlab.algorithms.mcts.rollout import domain_policy, informed_policy, playout
from searchlab.domains.games.snakego import DOWN, LEFT, RIGHT, UP, SnakeGo, SnakeGoState
from searchlab.domains.games.snakego.policy import (
    DEADLY,
    EAT,
    MOVE,
    OTHER,
    SOLIDIFY,
    action_kinds,
    contested_cells,
    informed_action,
    safe_actions,
)

STEP = {UP: (0, 1), DOWN: (0, -1), LEFT: (-1, 0), RIGHT: (1, 0)}


def random_positions(count: int, seed: int, size: int, rounds: int) -> list[SnakeGoState]:
    return played_positions(count, seed, size, rounds, random_share=0.15)


def present_items_at(state: SnakeGoState, cell: tuple[int, int]) -> set[int]:
    return {
        index
        for index, item in enumerate(state.game.items)
        if (item.x, item.y) == cell
        and item.time <= state.round <= item.time + 15
        and index not in state.eaten
    }


def own_walls(state: SnakeGoState, player: int) -> int:
    return sum(1 for owner in state.walls if owner == player)


def outcome_by_apply(state: SnakeGoState, action: int) -> int:
    """The kind of ``action`` read off the game's own ``apply``: deadly iff the acting snake
    is gone and its player owns no new wall; solidify iff gone with new walls; eat iff an item
    present at the target is eaten; else a plain move (split and ray: other)."""
    player, snake = state.player, state.acting_snake()
    after = state.apply(action)
    if action not in STEP:
        return OTHER
    alive = any(other.id == snake.id for other in after.snakes[player])
    if not alive:
        return SOLIDIFY if own_walls(after, player) > own_walls(state, player) else DEADLY
    dx, dy = STEP[action]
    target = (snake.cells[0][0] + dx, snake.cells[0][1] + dy)
    if present_items_at(state, target) & after.eaten:
        return EAT
    return MOVE


@pytest.mark.parametrize(("size", "rounds", "seed"), [(6, 40, 1), (8, 60, 2), (16, 120, 3)])
def test_every_kind_agrees_with_the_games_apply(size: int, rounds: int, seed: int) -> None:
    seen = set()
    for state in random_positions(400, seed, size, rounds):
        for action, kind in action_kinds(state):
            assert kind == outcome_by_apply(state, action), (action, str(state))
            seen.add(kind)
        assert [a for a, _ in action_kinds(state)] == list(state.legal_actions())
    assert {DEADLY, MOVE, EAT, OTHER} <= seen  # the positions exercise the rules


def test_solidify_moves_are_classified_against_apply() -> None:
    found = 0
    for seed in range(1, 40):
        for state in random_positions(200, seed, 8, 80):
            for action, kind in action_kinds(state):
                if kind == SOLIDIFY:
                    assert outcome_by_apply(state, action) == SOLIDIFY
                    found += 1
        if found >= 5:
            break
    assert found >= 5


def test_never_a_deadly_move_while_a_safe_one_exists() -> None:
    for state in random_positions(300, 7, 8, 60):
        safe = safe_actions(state)
        for seed in range(5):
            action = informed_action(state, random.Random(seed))
            assert action in state.legal_actions()
            if safe:
                assert action in safe
                assert outcome_by_apply(state, action) != DEADLY


def test_all_deadly_plays_uniformly_among_the_legal_actions() -> None:
    # player 0's one-cell snake in the corner (0, 5), walled in: every move kills it
    game = SnakeGo(items=(), size=6, rounds=20)
    state = game.state_from(snakes=([[(0, 5)]], [[(5, 0)]]), walls={(0, 4): 1, (1, 5): 1})
    assert state.legal_actions() == (UP, DOWN, LEFT, RIGHT)
    assert safe_actions(state) == []
    chosen = {informed_action(state, random.Random(seed)) for seed in range(40)}
    assert chosen == set(state.legal_actions())


def test_eating_is_preferred() -> None:
    items = "1 5 1 0 3\n"  # a length item right of player 0's start (0, 5) on a 6x6 board
    state = SnakeGo(items=items, size=6, rounds=20).initial_state()
    assert present_items_at(state, (1, 5))
    assert {informed_action(state, random.Random(seed)) for seed in range(30)} == {RIGHT}
    # without the item both safe moves are played
    plain = SnakeGo(items=(), size=6, rounds=20).initial_state()
    assert {informed_action(plain, random.Random(seed)) for seed in range(30)} == {DOWN, RIGHT}


def test_contested_cells_are_avoided_when_something_else_is_left() -> None:
    checked = 0
    for state in random_positions(1500, 11, 6, 60):
        length = len(state.acting_snake().cells)
        heads = [s.cells[0] for s in state.snakes[1 - state.player] if len(s.cells) < length]
        expected = {(x + dx, y + dy) for x, y in heads for dx, dy in STEP.values()}
        assert contested_cells(state) == expected
        kinds = dict(action_kinds(state))
        hx, hy = state.acting_snake().cells[0]
        is_contested = {
            action: kind in (MOVE, EAT) and (hx + STEP[action][0], hy + STEP[action][1]) in expected
            for action, kind in kinds.items()
        }
        safe = [a for a, k in kinds.items() if k != DEADLY]
        eating = [a for a in safe if kinds[a] == EAT]
        pool = eating or safe
        if any(is_contested[a] for a in pool) and not all(is_contested[a] for a in pool):
            chosen = {informed_action(state, random.Random(seed)) for seed in range(30)}
            assert chosen == {a for a in pool if not is_contested[a]}
            checked += 1
    assert checked >= 3


def test_the_policy_is_deterministic_with_a_seed() -> None:
    state = SnakeGo(seed=5, size=8, rounds=40).initial_state()

    def game_of(seed: int) -> list[int]:
        rng, current, moves = random.Random(seed), state, []
        while not current.is_terminal():
            moves.append(informed_action(current, rng))
            current = current.apply(moves[-1])
        return moves

    assert game_of(3) == game_of(3)
    assert game_of(3) != game_of(4)


def test_informed_rollouts_use_the_snake_go_policy() -> None:
    state = SnakeGo(seed=2, size=8, rounds=30).initial_state()
    assert domain_policy(state) is informed_action
    assert informed_policy(state, random.Random(9)) == informed_action(state, random.Random(9))
    rng, current = random.Random(1), state
    while not current.is_terminal():
        current = current.apply(informed_action(current, rng))
    assert playout(state, informed_policy, random.Random(1)) == current.returns()
