"""The agents play Snake Go unchanged: every kind answers legal moves (consecutive plies of one
player included), a whole small game between two of them ends with a legal result, and MCTS's
exact endgame search proves a forced win two plies from the round limit."""

from __future__ import annotations

import math

import pytest

from searchlab.agents import make_agent
from searchlab.agents.evaluations import default_evaluation
from searchlab.domains.games.snakego import DOWN, LEFT, RIGHT, SPLIT, Snake, SnakeGo, SnakeGoState
from searchlab.games import make

SPECS = [
    "random",
    "greedy",
    "alphabeta:depth=2",
    "flatmc:simulations=40",
    "mcts:simulations=40,rollout=informed,tier=reference",
]


def positions(game: SnakeGo) -> list[SnakeGoState]:
    """The start, and a later position where player 0 has two snakes to act in a row."""
    start = game.initial_state()
    later = start
    for action in (DOWN, LEFT, DOWN, LEFT, RIGHT, LEFT, SPLIT, LEFT):
        later = later.apply(action)
    assert len(later.snakes[0]) == 2 and later.player == 0 and len(later.pending) == 2
    return [start, later]


@pytest.mark.parametrize("spec", SPECS)
def test_every_agent_kind_plays_legal_moves(spec: str) -> None:
    game = SnakeGo(seed=3, size=8, rounds=20)
    agent = make_agent(spec, game, seed=1)
    for state in positions(game):
        for _ in range(3):  # the plies of one turn and the next
            action = agent.act(state)
            assert action in state.legal_actions()
            state = state.apply(action)


def test_the_default_evaluation_is_snake_gos() -> None:
    # Values from the formula in snakego.eval's docstring, worked by hand: at the start (one
    # cell each, opposite corners) material and territory are even, so win/loss scoring gives
    # 0.99 * tanh((0 - 0.5) / (8 / 2)) for player 0 (a tie is player 1's win), and score
    # difference scoring 0; a head in the centre reaches more cells first than one in a corner.
    evaluate = default_evaluation(make("snakego", size=8))
    assert evaluate is not None
    start = SnakeGo(seed=0, size=8).initial_state()
    assert evaluate(start) == pytest.approx(0.99 * math.tanh(-0.5 / 4))
    by_score = SnakeGo(seed=0, size=8, scoring="score_difference")
    by_score_evaluate = default_evaluation(by_score)
    assert by_score_evaluate is not None and by_score_evaluate(by_score.initial_state()) == 0.0
    game = SnakeGo(seed=0, size=8)
    centre = game.state_from(snakes=([[(3, 4)]], [[(7, 0)]]))
    corner = game.state_from(snakes=([[(0, 7)]], [[(7, 0)]]))
    assert evaluate(centre) > evaluate(corner)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("mcts:simulations=30,rollout=informed,tier=reference", "alphabeta:depth=2"),
        ("greedy", "flatmc:simulations=20"),
    ],
)
def test_a_whole_small_game_ends_with_a_legal_result(first: str, second: str) -> None:
    game = make("snakego", seed=4, size=8, rounds=20)
    agents = [make_agent(first, game, seed=1), make_agent(second, game, seed=2)]
    state = game.initial_state()
    plies = 0
    while not state.is_terminal():
        action = agents[state.current_player()].act(state)
        assert action in state.legal_actions()
        state = state.apply(action)
        plies += 1
        assert plies <= game.info.max_game_length
    first_score, second_score = state.scores()
    assert state.returns() == ((1.0, -1.0) if first_score > second_score else (-1.0, 1.0))
    assert state.round == game.rounds + 1 or not (state.snakes[0] or state.snakes[1])


def near_the_end() -> SnakeGoState:
    """Player 0 to move in round 5 of 6; player 1 has no snake (no plies) and 11 walls (rows 0
    and 4, and (0, 3)). Player 0's snake of 9 cells, bank 2, runs round the rectangle x 1..4,
    y 1..3 from its head (1, 2) up, right, down and left to its tail (2, 1); (1, 1) is free.
    The forced win: down to (1, 1) (10 cells), then right onto the tail, which stays (bank):
    the rectangle solidifies, 10 + 2 inner cells = 12 walls. Every other line ends with 11
    cells or walls at most: a tie, player 1's win."""
    game = SnakeGo(items=(), size=5, rounds=6)
    body = ((1, 2), (1, 3), (2, 3), (3, 3), (4, 3), (4, 2), (4, 1), (3, 1), (2, 1))
    walls = {(x, 0): 1 for x in range(5)} | {(x, 4): 1 for x in range(5)} | {(0, 3): 1}
    return game.state_from(snakes=([Snake(0, body, bank=2)], []), walls=walls, round=5)


def best_for_player_0(state: SnakeGoState) -> float:
    """Exhaustive: player 1 has no plies here, so player 0 picks every move."""
    if state.is_terminal():
        return state.returns()[0]
    assert state.player == 0
    return max(best_for_player_0(state.apply(action)) for action in state.legal_actions())


def test_the_position_near_the_end_is_what_it_says() -> None:
    state = near_the_end()
    for action in state.legal_actions():
        after = state.apply(action)
        assert not after.is_terminal()
        assert (best_for_player_0(after) > 0) == (action == DOWN), state.action_to_string(action)
    final = state.apply(DOWN).apply(RIGHT)
    assert final.is_terminal() and final.scores() == (12, 11)


def test_mcts_exact_endgame_proves_the_forced_win() -> None:
    state = near_the_end()
    exact = make_agent("mcts:simulations=30,exact=2,tier=reference", state.game, seed=1)
    assert exact.act(state) == DOWN
    result = exact.last_result
    assert result.stats["endgame_proofs"] > 0
    proven = {child["action"]: child["proven"] for child in result.stats["children"]}
    assert proven[DOWN] == "win"
    assert all(proven[action] == "loss" for action in state.legal_actions() if action != DOWN)
    plain = make_agent("mcts:simulations=30,tier=reference", state.game, seed=1)
    plain.act(state)
    assert all(child["proven"] is None for child in plain.last_result.stats["children"])
