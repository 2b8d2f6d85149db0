"""Snake Go as a searchlab game: the conformance harness, long playouts that keep the state's
invariants, parameters (each bad value one line), notation, keys, the text board, hand-built
positions. The rules themselves: test_snakego_rules.py; the items: test_snakego_items.py."""

from __future__ import annotations

import random

import pytest

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import play
from searchlab.domains.games import make
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.snakego import (
    DOWN,
    LEFT,
    RAY,
    RIGHT,
    SPLIT,
    UP,
    Item,
    Snake,
    SnakeGo,
    SnakeGoState,
    generate_items,
)

FAR = Snake(0, ((6, 0),))


# -- the protocol -----------------------------------------------------------------------------
def test_conformance_full_game() -> None:
    assert_conforms(make("snakego", seed=3), num_playouts=20, seed=1)


def test_conformance_small_games() -> None:
    assert_conforms(SnakeGo(seed=1, size=5, rounds=12, max_snakes=2), num_playouts=150, seed=2)
    assert_conforms(SnakeGo(seed=2, size=6, rounds=40, growth_rounds=20), num_playouts=60)
    assert_conforms(SnakeGo(seed=5, scoring="score_difference", size=5), num_playouts=40)


def careful_action(state: SnakeGoState, rng: random.Random) -> int:
    """A random action that avoids plain deaths (a playout that lasts all its rounds)."""
    snake = state.acting_snake()
    size = state.game.size
    others = {cell for side in state.snakes for s in side if s is not snake for cell in s.cells}
    bank = snake.bank + state.growth(snake)
    body = snake.cells if bank else snake.cells[:-1]
    good = []
    for action in state.legal_actions():
        if action >= SPLIT:
            good.append(action)
            continue
        dx, dy = ((0, 1), (0, -1), (-1, 0), (1, 0))[action]
        x, y = snake.cells[0][0] + dx, snake.cells[0][1] + dy
        if not (0 <= x < size and 0 <= y < size) or state.walls[y * size + x] >= 0:
            continue
        if (x, y) in others or ((x, y) in body and snake.length < 5):
            continue
        good.append(action)
    return rng.choice(good or list(state.legal_actions()))


def check_invariants(state: SnakeGoState) -> None:
    game = state.game
    size = game.size
    seen: set[tuple[int, int]] = set()
    for side in state.snakes:
        assert len(side) <= game.max_snakes
        assert len({s.id for s in side}) == len(side)
        for snake in side:
            assert snake.bank >= 0 and 0 <= snake.id < game.max_snakes
            for index, (x, y) in enumerate(snake.cells):
                assert 0 <= x < size and 0 <= y < size
                assert state.walls[y * size + x] == -1
                assert (x, y) not in seen
                seen.add((x, y))
                if index:
                    px, py = snake.cells[index - 1]
                    assert abs(px - x) + abs(py - y) == 1
    for _, item in state.present_items():
        assert (item.x, item.y) not in seen  # an item under a snake is eaten at once
    if state.pending:
        ids = [s.id for s in state.snakes[state.player]]
        assert set(state.pending) <= set(ids)
        assert list(state.pending) == [i for i in ids if i in state.pending]  # in order
    assert sum(state.scores()) == len(seen) + sum(1 for owner in state.walls if owner >= 0)


def test_long_playouts_keep_the_invariants_and_reach_the_round_limit() -> None:
    rng = random.Random(7)
    for seed in range(3):
        game = SnakeGo(seed=seed, rounds=160)
        state = game.initial_state()
        solidified = split = 0
        while not state.is_terminal():
            check_invariants(state)
            action = careful_action(state, rng)
            walls_before = state.walls.count(state.player)
            mover = state.player
            state = state.apply(action)
            solidified += state.walls.count(mover) > walls_before
            split += action == SPLIT
        assert state.round == 161
        assert solidified and split and state.eaten  # the playouts see the whole game
        assert state.ply <= game.info.max_game_length  # type: ignore[operator]


def test_a_whole_default_game_plays_to_its_last_round() -> None:
    # The default board's whole game, seeded: it ends after its 512 rounds (the round counter
    # then reads 513), within the game's own bound on plies. How fast it plays is measured by
    # benchmarks, not asserted here (no wall-clock assertions in the tests).
    game = SnakeGo(seed=11)
    rng = random.Random(0)
    state = game.initial_state()
    plies = 0
    while not state.is_terminal():
        state = state.apply(careful_action(state, rng))
        plies += 1
    assert state.round == 513 and state.ply == plies
    assert plies <= game.info.max_game_length  # type: ignore[operator]


def test_same_seed_same_game() -> None:
    first, second = SnakeGo(seed=9), SnakeGo(seed=9)
    assert first.items == second.items == generate_items(9)
    assert SnakeGo(seed=10).items != first.items
    moves = "right left down up right"
    assert play(first.initial_state(), moves).key() == play(second.initial_state(), moves).key()


# -- parameters -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"size": 3}, "snakego: size must be an integer in 5..32, got 3"),
        ({"size": 33}, "snakego: size must be an integer in 5..32, got 33"),
        ({"rounds": 0}, "snakego: rounds must be an integer in 1..100000, got 0"),
        ({"max_snakes": 0}, "snakego: max_snakes must be an integer in 1..8, got 0"),
        ({"max_snakes": 9}, "snakego: max_snakes must be an integer in 1..8, got 9"),
        ({"growth_rounds": -1}, "snakego: growth_rounds must be an integer in 0..100000, got -1"),
        ({"seed": -1}, "snakego: seed must be an integer in 0..9223372036854775807, got -1"),
        ({"scoring": "draw"}, "snakego: scoring must be one of 'win_loss', 'score_difference'"),
        ({"items": 5}, "snakego: items must be lines 'x y time type param' or a list of"),
        ({"items": "1 2 3"}, "items line 1 '1 2 3': expected 5 integers"),
        ({"items": [(1, 2, 3, 1, 1)]}, "items entry 1 (1, 2, 3, 1, 1): type 1 is not 0"),
        ({"size": 5, "items": "5 5 1 0 1"}, "cell (5, 5) is off the 5x5 board"),
        ({"rounds": 10, "items": "1 1 11 0 1"}, "time 11 is not in 1..10"),
    ],
)
def test_each_bad_parameter_is_one_line(params: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidParameterError) as info:
        make("snakego", **params)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_registry_and_items_forms() -> None:
    game = make("snakego", seed=3)
    assert isinstance(game, SnakeGo) and game.info.name == "snakego"
    assert game.items == generate_items(3)
    assert make("snakego", items="1 1 1 0 2; 2 2 2 2 512").items == (  # type: ignore[attr-defined]
        Item(1, 1, 1, 0, 2),
        Item(2, 2, 2, 2, 512),
    )
    assert SnakeGo(items="[[1, 1, 1, 0, 2]]").items == (Item(1, 1, 1, 0, 2),)
    assert SnakeGo(items=[Item(1, 1, 1, 0, 2)]).items == (Item(1, 1, 1, 0, 2),)
    assert SnakeGo(items=()).items == ()
    small = make("snakego", size=8, rounds=50, max_snakes=2, growth_rounds=3)
    assert small.info.max_game_length == 2 * 50 * 2
    assert "size=8" in repr(small) and "rounds=50" in repr(small)


# -- notation ---------------------------------------------------------------------------------
def test_notation_round_trips_and_abbreviations() -> None:
    state = SnakeGo(items=(), size=7).state_from(
        snakes=([Snake(0, ((3, 3), (2, 3)), bank=1, ray=True)], [FAR])
    )
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert names == ["up", "down", "right", "split", "ray"]
    for text, action in (("U", UP), (" d ", DOWN), ("Right", RIGHT), ("r", RIGHT)):
        assert state.string_to_action(text) == action
    assert state.string_to_action("SPLIT") == SPLIT
    assert state.string_to_action("Ray") == RAY


def test_unknown_and_illegal_moves_say_why() -> None:
    state = SnakeGo(items=(), size=7).state_from(
        snakes=([Snake(0, ((3, 3), (2, 3), (1, 3)))], [FAR])
    )
    with pytest.raises(IllegalMoveError, match="unknown move 'jump': expected up, down, left"):
        state.string_to_action("jump")
    with pytest.raises(
        IllegalMoveError,
        match=r"illegal move 'l': snake A cannot move straight back into its own body "
        r"\(length 3, bank 0\)",
    ):
        state.string_to_action("l")
    with pytest.raises(IllegalMoveError, match=r"illegal action 6: not an action 0\.\.5"):
        state.apply(6)
    with pytest.raises(IllegalMoveError, match="illegal action True"):
        state.apply(True)
    with pytest.raises(IllegalMoveError, match="illegal action -1"):
        state.apply(-1)
    state_after = play(state, "up down")  # a deadly move is legal: player 1's snake dies
    assert state_after.snakes[1] == ()


def test_player_1_snakes_are_lower_case_letters_in_messages() -> None:
    state = SnakeGo(items=(), size=7).state_from(
        snakes=([[(0, 6)]], [[(3, 3)], [(5, 5)]]), player=1, pending=(1,)
    )
    with pytest.raises(IllegalMoveError, match="snake b has length 1"):
        state.string_to_action("split")


# -- keys -------------------------------------------------------------------------------------
def test_equal_positions_have_equal_keys() -> None:
    game = SnakeGo(items=(), size=7, growth_rounds=0)
    played = play(game.initial_state(), "down up down up")  # round 3, player 0
    snakes = ([Snake(0, ((0, 4),), initial=True)], [Snake(0, ((6, 2),), initial=True)])
    built = game.state_from(snakes=snakes, round=3, ply=4)
    assert played.key() == built.key() and played == built and hash(played) == hash(built)
    assert game.state_from(snakes=snakes, round=3).key() == built.key()  # ply: not in the key
    assert game.state_from(snakes=([[(0, 4)]], [[(6, 2)]]), round=3).key() != built.key()


def test_keys_tell_positions_apart() -> None:
    game = SnakeGo(items=(), size=7)
    base = game.state_from(snakes=([[(1, 1)], [(3, 3)]], [FAR]))
    variants = [
        game.state_from(snakes=([[(1, 1)], [(3, 3)]], [FAR]), pending=(1,)),
        game.state_from(snakes=([Snake(0, ((1, 1),), bank=1), Snake(1, ((3, 3),))], [FAR])),
        game.state_from(snakes=([Snake(0, ((1, 1),), ray=True), Snake(1, ((3, 3),))], [FAR])),
        game.state_from(snakes=([Snake(0, ((1, 1),), initial=True), Snake(1, ((3, 3),))], [FAR])),
        game.state_from(snakes=([[(3, 3)], [(1, 1)]], [FAR])),  # order
        game.state_from(snakes=([[(1, 1)], [(3, 3)]], [FAR]), walls={(5, 5): 0}),
        game.state_from(snakes=([[(1, 1)], [(3, 3)]], [FAR]), walls={(5, 5): 1}),
        game.state_from(snakes=([[(1, 1)], [(3, 3)]], [FAR]), round=2),
        game.state_from(snakes=([[(1, 1)], [(3, 3)]], [FAR]), player=1),
    ]
    keys = {state.key() for state in variants}
    assert len(keys) == len(variants) and base.key() not in keys


def test_keys_ignore_eaten_items_that_have_expired() -> None:
    game = SnakeGo(items="0 0 5 0 1\n0 0 30 0 1", size=7)
    plain = game.state_from(snakes=([[(3, 3)]], [FAR]), round=30, eaten=())
    old = game.state_from(snakes=([[(3, 3)]], [FAR]), round=30, eaten=(0,))  # gone at 21
    fresh = game.state_from(snakes=([[(3, 3)]], [FAR]), round=30, eaten=(1,))
    assert plain.key() == old.key()
    assert plain.key() != fresh.key()


# -- hand-built positions -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"snakes": ([[(1, 1), (1, 3)]], [])}, "snake A: cells (1, 1) and (1, 3) are not adjacent"),
        ({"snakes": ([[(1, 7)]], [])}, "snake A: cell (1, 7) is off the board"),
        ({"snakes": ([[(1, 1)]], [[(1, 1)]])}, "snake a: cell (1, 1) is also snake A"),
        ({"snakes": ([[(1, 1), (1, 2), (1, 1)]], [])}, "cell (1, 1) is also snake A"),
        ({"snakes": ([[(1, 1)]], []), "walls": {(1, 1): 1}}, "snake A: cell (1, 1) is a wall"),
        ({"snakes": ([[(1, 1)]], []), "walls": {(1, 1): 2}}, "owner 2 is not 0 or 1"),
        ({"snakes": ([[(1, 1)]], []), "walls": [0, 1]}, "walls must list 49 owners"),
        ({"snakes": ([[(1, 1)]], []), "round": 31}, "round 31 is not in 1..30"),
        ({"snakes": ([[(1, 1)]], []), "player": 1}, "player 1 is to move but has no snake"),
        ({"snakes": ([[(1, 1)]], []), "pending": (3,)}, "pending id 3 is not a snake of player 0"),
        ({"snakes": ([[(i, 0)] for i in range(0, 7, 2)] + [[(0, 2)]], [])}, "has 5 snakes"),
        ({"snakes": ([Snake(4, ((1, 1),))], [])}, "snake id 4 is not in 0..3"),
        ({"snakes": ([Snake(0, ((1, 1),)), Snake(0, ((3, 3),))], [])}, "id 0 used twice"),
        ({"snakes": ([[(3, 3)]], [FAR]), "round": 5}, "item 0 (3, 3, 5, 0, 2) lies under snake A"),
    ],
)
def test_bad_hand_built_positions_are_one_line(kwargs: dict[str, object], message: str) -> None:
    game = SnakeGo(items="3 3 5 0 2", size=7, rounds=30)
    with pytest.raises(InvalidStateError) as info:
        game.state_from(**kwargs)  # type: ignore[arg-type]
    assert message in str(info.value) and "\n" not in str(info.value)


def test_an_item_under_a_snake_is_fine_once_eaten() -> None:
    game = SnakeGo(items="3 3 5 0 2", size=7, rounds=30)
    state = game.state_from(snakes=([[(3, 3)]], [FAR]), round=5, eaten=(0,))
    assert state.item_at((3, 3)) is None and state.present_items() == []


def test_a_position_without_snakes_is_over() -> None:
    state = SnakeGo(items=(), size=7).state_from(walls={(0, 0): 1})
    assert state.is_terminal() and state.returns() == (-1.0, 1.0)
    with pytest.raises(InvalidStateError, match="the game is over"):
        state.acting_snake()


# -- the text board -------------------------------------------------------------------------
def test_board_shows_walls_items_snakes_and_a_legend() -> None:
    game = SnakeGo(items="1 1 1 2 512\n5 5 1 0 4", size=7, rounds=30)
    state = game.state_from(
        snakes=(
            [Snake(0, ((3, 3), (3, 4)), bank=2, ray=True), [(0, 6)]],
            [Snake(1, ((6, 0), (5, 0), (4, 0)))],
        ),
        walls={(5, 5): 1, (0, 0): 0},
        round=3,
    )
    lines = str(state).splitlines()
    assert lines[:8] == [
        " 6 B . . . . . .",
        " 5 . . . . . % .",
        " 4 . . . o . . .",
        " 3 . . . A . . .",
        " 2 . . . . . . .",
        " 1 . * . . . . .",
        " 0 # . . . x x b",
        "   0 1 2 3 4 5 6",
    ]
    assert lines[8] == "round 3 of 30: player 0 to move, snake A (then B)"
    assert lines[9] == (
        "player 0: score 4 (snakes 3, walls 1); A at (3, 3) length 2 bank 2 ray, "
        "B at (0, 6) length 1 bank 0"
    )
    assert lines[10] == "player 1: score 4 (snakes 3, walls 1); b at (6, 0) length 3 bank 0"
    # items: by row; time 1, so in round 3 there are 14 rounds left (rounds 3..16)
    assert lines[11] == (
        "items: * (1, 1) ray, 14 rounds left; + (5, 5) length 4 (in a wall), 14 rounds left"
    )
    assert lines[12].startswith("legend: A-H / a-h heads of player 0 / 1")


def test_board_of_a_16x16_game_has_two_digit_labels_and_the_end() -> None:
    state = play(SnakeGo(items=()).initial_state(), "up")  # player 0 leaves the board
    state = state.apply(LEFT)
    text = str(state)
    assert text.splitlines()[0] == "15 " + " ".join(["."] * 16)
    assert "                       1 1 1 1 1 1" in text
    assert "   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5" in text
    assert "player 0: score 0 (snakes 0, walls 0); no snakes" in text
    # alone, player 1 goes up from (14, 0): y = 15 in round 16, off the board in round 17
    final = play(state, "up " * 16)
    assert final.is_terminal() and final.scores() == (0, 0)
    assert "game over after round 17 of 512: player 1 wins" in str(final)


def test_board_of_a_finished_tie() -> None:
    for scoring, outcome in (("win_loss", "player 1 wins"), ("score_difference", "a draw")):
        state = SnakeGo(items=(), size=5, rounds=1, scoring=scoring).initial_state()  # type: ignore[arg-type]
        state = play(state, "down up")  # lengths 2 and 2 (growth): a tie
        assert state.is_terminal() and state.scores() == (2, 2)
        assert f"game over after round 1 of 1: {outcome}" in str(state)
