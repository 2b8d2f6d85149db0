"""The compiled tier of Snake Go (``snakego.arrays``, ``snakego.informed``) against the
reference tier (``snakego``, ``snakego.policy``).

Differential tests play seeded games ply by ply in both tiers (actions chosen in Python) and
compare, after every ply, the legal actions, the decoded state (its key, eaten items, first-eat
plies and ply count), the player to move, the terminal flag and the value of a finished game.
Hand-built positions check solidification, split, ray and the items' rounds against values
worked out by hand from the rules (not from either tier's output).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from snakego_support import small_game as small

from searchlab.core.compiled_rng import next_below, seed_state
from searchlab.domains.games.snakego import (
    DOWN,
    RAY,
    RIGHT,
    SPLIT,
    UP,
    Snake,
    SnakeGo,
    SnakeGoState,
)
from searchlab.domains.games.snakego import arrays as A
from searchlab.domains.games.snakego import informed as I
from searchlab.domains.games.snakego import layout as L
from searchlab.domains.games.snakego import policy as P

FAR = Snake(1, ((6, 0),))
"""A player-1 snake in the bottom-right corner, out of the way."""


def same(decoded: SnakeGoState, state: SnakeGoState) -> None:
    """The decoded compiled position is the reference state, field by field."""
    assert decoded == state, f"\n{decoded}\n!=\n{state}"
    assert decoded.key() == state.key()
    assert decoded.eaten == state.eaten
    assert decoded.first_eat == state.first_eat
    assert decoded.ply == state.ply


def compare(pos: np.ndarray, items: np.ndarray, state: SnakeGoState) -> None:
    """Both tiers agree on this position: state, actions, mover, terminal flag and value."""
    game = state.game
    same(A.decode(pos, game), state)
    out = np.full(A.MAX_BRANCHING, -1, dtype=np.int16)
    n = A.actions(pos, items, out, 0)
    assert tuple(out[:n].tolist()) == state.legal_actions()
    assert A.to_move(pos) == state.current_player()
    over, value = A.status(pos, items, A.scoring_code(game.scoring))
    assert over == state.is_terminal()
    expected = state.returns()[state.player] / game.info.max_utility if over else 0.0
    assert value == pytest.approx(expected, abs=1e-12)


def play_both(state: SnakeGoState, action: int, pos: np.ndarray, items: np.ndarray) -> SnakeGoState:
    after = state.apply(action)
    A.play(pos, items, action)
    compare(pos, items, after)
    return after


def random_game(seed: int) -> SnakeGo:
    r = random.Random(seed)
    return SnakeGo(
        seed=seed,
        size=r.choice([5, 6, 8, 11, 16, 32]),
        rounds=r.choice([3, 10, 40, 200]),
        max_snakes=r.choice([1, 2, 4, 8]),
        growth_rounds=r.choice([0, 3, 8]),
        scoring=r.choice(["win_loss", "score_difference"]),
    )


def differential(seed: int, careful: float) -> int:
    """Play one seeded game in both tiers, comparing after every ply: with probability
    ``careful`` a safe action (a solidifying one half the time when there is one), else any
    legal action; now and then the compiled position is encoded afresh from the reference
    state. Returns the number of plies."""
    r = random.Random(seed)
    game = random_game(seed)
    state = game.initial_state()
    pos, items = A.encode(state)
    compare(pos, items, state)
    while not state.is_terminal():
        kinds = P.action_kinds(state)
        safe = [a for a, kind in kinds if kind != P.DEADLY]
        solidify = [a for a, kind in kinds if kind == P.SOLIDIFY]
        if solidify and r.random() < 0.5:
            action = r.choice(solidify)
        elif safe and r.random() < careful:
            action = r.choice(safe)
        else:
            action = r.choice(state.legal_actions())
        state = play_both(state, action, pos, items)
        if r.random() < 0.05:
            pos, items = A.encode(state)
            compare(pos, items, state)
    return state.ply


# -- differential ---------------------------------------------------------------------------
def test_uniformly_random_games_agree() -> None:
    plies = sum(differential(seed, careful=0.0) for seed in range(1000))
    assert plies > 5000  # the games were played, not skipped


@pytest.mark.slow
def test_long_careful_games_agree() -> None:
    """Games where snakes mostly survive: long snakes, splits, rays, solidifications, the
    round limit."""
    plies = sum(
        differential(seed, careful=r)
        for seed, r in zip(range(1000, 1120), [0.9, 0.97] * 60, strict=True)
    )
    assert plies > 15000


def test_encode_decode_round_trip_mid_game() -> None:
    game = SnakeGo(seed=5, size=8, rounds=60)
    state = game.initial_state()
    r = random.Random(5)
    while not state.is_terminal():
        pos, _ = A.encode(state)
        same(A.decode(pos, game), state)
        safe = P.safe_actions(state)
        state = state.apply(r.choice(safe or list(state.legal_actions())))
    same(A.decode(A.encode(state)[0], game), state)


# -- hand-built positions -------------------------------------------------------------------
def test_solidification_encloses_walls_and_kills_inside() -> None:
    """Player 0's snake A (11 cells) closes the ring around (2, 2) and (2, 3) by moving down
    from (1, 2) onto its own cell (1, 1) (index 9). The region is the 10 ring cells plus the 2
    inside: 12 walls of player 0 (player 1's wall at (2, 2) changes owner); player 1's snake
    at (2, 3) dies, its snake at (6, 0) lives; A's last cell (0, 1) disappears with A."""
    ring = [(1, 2), (1, 3), (1, 4), (2, 4), (3, 4), (3, 3), (3, 2), (3, 1), (2, 1), (1, 1)]
    game = small()
    state = game.state_from(
        snakes=([Snake(0, (*ring, (0, 1)))], [Snake(0, ((2, 3),)), FAR]),
        walls={(2, 2): 1},
    )
    pos, items = A.encode(state)
    after = play_both(state, DOWN, pos, items)
    size = game.size
    walls0 = {(i % size, i // size) for i, owner in enumerate(after.walls) if owner == 0}
    assert walls0 == {*ring, (2, 2), (2, 3)}
    assert 1 not in after.walls
    assert after.snakes == ((), (FAR,))
    assert after.scores() == (12, 1)
    assert (after.player, after.pending) == (1, (1,))


def test_short_snake_dies_on_its_body_and_tail_moves_on() -> None:
    """A 4-cell snake in a square: moving onto its tail is a plain move with an empty bank
    (the tail moves on), and kills it with a bank (the tail stays; 4 cells cannot solidify)."""
    body = ((1, 1), (1, 2), (2, 2), (2, 1))
    for bank, alive in ((0, True), (1, False)):
        state = small().state_from(snakes=([Snake(0, body, bank)], [FAR]))
        pos, items = A.encode(state)
        after = play_both(state, RIGHT, pos, items)  # onto the tail (2, 1)
        assert bool(after.snakes[0]) is alive


def test_split_gives_the_smallest_free_id_and_does_not_act_this_turn() -> None:
    """A (id 0, 5 cells, bank 2, ray) splits: it keeps (3,3) (3,4) (3,5) and the ray; the tail
    half (1,5) (2,5) gets the bank and id 1 (ids 0 and 2 are taken), right after A; the snake
    to act next is id 2, not the new one."""
    game = small()
    a = Snake(0, ((3, 3), (3, 4), (3, 5), (2, 5), (1, 5)), bank=2, ray=True)
    c = Snake(2, ((5, 5),))
    state = game.state_from(snakes=([a, c], [FAR]))
    pos, items = A.encode(state)
    after = play_both(state, SPLIT, pos, items)
    assert after.snakes[0] == (
        Snake(0, ((3, 3), (3, 4), (3, 5)), 0, True, False),
        Snake(1, ((1, 5), (2, 5)), 2, False, False),
        c,
    )
    assert after.pending == (2,)
    after = play_both(after, UP, pos, items)  # snake 2 ends the turn; player 1 moves
    assert after.player == 1


def test_ray_melts_the_walls_ahead_only() -> None:
    """Heading up from (3, 3): the walls at (3, 4) and (3, 6) melt, (2, 4) and (3, 1) stay;
    the ray is spent and the snake stays where it is."""
    game = small()
    walls = {(3, 4): 1, (3, 6): 0, (2, 4): 0, (3, 1): 1}
    state = game.state_from(snakes=([Snake(0, ((3, 3), (3, 2)), ray=True)], [FAR]), walls=walls)
    pos, items = A.encode(state)
    assert RAY in state.legal_actions()
    after = play_both(state, RAY, pos, items)
    size = game.size
    left = {(i % size, i // size): o for i, o in enumerate(after.walls) if o >= 0}
    assert left == {(2, 4): 0, (3, 1): 1}
    assert after.snakes[0] == (Snake(0, ((3, 3), (3, 2)), 0, False, False),)


def test_items_appear_are_eaten_at_round_start_and_expire() -> None:
    """Player 0 eats the ray at (0, 5) by moving onto it at ply 0. Player 1 moves up onto
    (6, 1) in round 1, before its item (time 2) appears; the item appears under it at the
    start of round 2 and is eaten then, counted at the next ply's number, 2."""
    items = ((0, 5, 1, 2, 512), (6, 1, 2, 0, 3))
    game = small(items=items)
    state = game.state_from(snakes=([Snake(0, ((0, 6),))], [Snake(0, ((6, 0),))]))
    pos, arrays = A.encode(state)
    state = play_both(state, DOWN, pos, arrays)
    assert state.snakes[0][0].ray and state.first_eat == (0, None)
    state = play_both(state, UP, pos, arrays)
    assert state.round == 2 and state.snakes[1][0].bank == 3
    assert state.first_eat == (0, 2) and state.eaten == {0, 1}


def test_items_under_the_starting_snakes_are_eaten_at_once() -> None:
    """Items of round 1 under both corners are eaten in the initial state, counted at ply 0.
    Then player 0 moves down (bank 2 -> 1, the tail stays), right in round 2 (bank 1 -> 0),
    and up in round 3 onto (1, 6), where the length-5 item of round 2 lies: bank 5."""
    items = ((0, 6, 1, 0, 2), (6, 0, 1, 2, 512), (1, 6, 2, 0, 5))
    state = small(items=items).initial_state()
    pos, arrays = A.encode(state)
    compare(pos, arrays, state)
    assert state.first_eat == (0, 0) and state.eaten == {0, 1}
    assert state.snakes[0][0].bank == 2 and state.snakes[1][0].ray
    for action in (DOWN, UP, RIGHT, UP, UP):  # player 0, 1, 0, 1, 0
        state = play_both(state, action, pos, arrays)
    assert state.snakes[0][0] == Snake(0, ((1, 6), (1, 5), (0, 5)), 5, False, True)
    assert state.eaten == {0, 1, 2} and state.round == 3


@pytest.mark.parametrize(("round_number", "bank"), [(16, 4), (17, 0)])
def test_an_item_lasts_sixteen_rounds(round_number: int, bank: int) -> None:
    """A length item of time 1 is on the board in rounds 1..16: moving onto it in round 16
    eats it (bank 4), in round 17 it is gone."""
    game = small(items=((3, 3, 1, 0, 4),))
    state = game.state_from(snakes=([Snake(0, ((3, 4),))], [FAR]), round=round_number)
    pos, items = A.encode(state)
    after = play_both(state, DOWN, pos, items)
    assert after.snakes[0][0].bank == bank


def test_game_over_when_no_snake_is_left_and_at_the_round_limit() -> None:
    game = small(rounds=2)
    state = game.state_from(snakes=([Snake(0, ((0, 6),))], []))
    pos, items = A.encode(state)
    after = play_both(state, UP, pos, items)  # off the board: nobody has a snake
    assert after.is_terminal() and after.returns() == (-1.0, 1.0)  # 0-0: player 1's tie
    state = game.state_from(snakes=([], [Snake(0, ((6, 0),))]), player=1, round=2)
    pos, items = A.encode(state)
    after = play_both(state, UP, pos, items)  # player 1 alone ends round 2 of 2
    assert after.is_terminal() and after.round == 3


# -- rollouts ---------------------------------------------------------------------------------
def replay_rollout(
    state: SnakeGoState, seed: int, informed: bool
) -> tuple[float, SnakeGoState, int]:
    """The kernel's rollout replayed ply by ply from Python with the same generator: its
    value, the reference state after the same actions, and the final generator word."""
    pos, items = A.encode(state)
    rng = np.uint64(seed_state(seed))
    while not state.is_terminal():
        if informed:
            action, rng = I.informed_action(pos, items, rng, next_below)
        else:
            mask = A.legal_mask(pos)
            rng, r = next_below(rng, L.bit_count(mask))
            action = L.pick(mask, r)
        rng = np.uint64(rng)
        state = state.apply(int(action))
        A.play(pos, items, action)
    value = state.returns()[0] / state.game.info.max_utility
    return value, state, int(rng)


@pytest.mark.parametrize("informed", [False, True])
@pytest.mark.parametrize("scoring", ["win_loss", "score_difference"])
def test_rollout_plays_to_the_end_deterministically(informed: bool, scoring: str) -> None:
    """Same seed, same rollout: the value equals the reference value of the same actions
    (player 0 to move at the start), and different seeds do not all give one value."""
    kernel = A.informed_rollout if informed else A.rollout
    state = SnakeGo(seed=3, size=16, rounds=60, scoring=scoring).initial_state()
    code = A.scoring_code(scoring)
    values = set()
    for seed in range(12):
        pos, items = A.encode(state)
        value, rng = kernel(pos, items, np.uint64(seed_state(seed)), code, next_below)
        again, rng_again = kernel(
            A.encode(state)[0], items, np.uint64(seed_state(seed)), code, next_below
        )
        assert (value, rng) == (again, rng_again)
        expected, final, final_rng = replay_rollout(state, seed, informed)
        assert value == pytest.approx(expected, abs=1e-12)
        assert int(rng) == final_rng
        same(A.decode(pos, state.game), final)
        values.add(value)
    assert len(values) > 1


def test_rollout_value_is_for_the_player_to_move() -> None:
    """From a position with player 1 to move, the rollout's value is player 1's return."""
    game = small(rounds=3, scoring="score_difference")
    state = game.state_from(snakes=([Snake(0, ((0, 6),))], [Snake(0, ((6, 0),))]), player=1)
    pos, items = A.encode(state)
    value, _ = A.rollout(pos, items, np.uint64(seed_state(1)), A.SCORE_DIFFERENCE, next_below)
    final = A.decode(pos, game)
    assert final.is_terminal()
    assert value == pytest.approx(final.returns()[1] / 49)


# -- the informed policy --------------------------------------------------------------------
def reference_pool(state: SnakeGoState) -> list[int]:
    """The informed policy's pool by the rules of snakego.policy's docstring, built from its
    :func:`action_kinds` and :func:`contested_cells`."""
    kinds = dict(P.action_kinds(state))
    pool = [a for a, kind in kinds.items() if kind != P.DEADLY]
    if not pool:
        return sorted(kinds)
    eating = [a for a, kind in kinds.items() if kind == P.EAT]
    pool = eating or pool
    avoid = P.contested_cells(state)
    hx, hy = state.acting_snake().cells[0]
    deltas = {0: (0, 1), 1: (0, -1), 2: (-1, 0), 3: (1, 0)}
    free = [
        a
        for a in pool
        if kinds[a] not in (P.MOVE, P.EAT) or (hx + deltas[a][0], hy + deltas[a][1]) not in avoid
    ]
    return sorted(free or pool)


def test_informed_policy_matches_the_reference_and_never_kills_when_safe() -> None:
    """Over informed-policy games, at every position: the compiled kinds equal the reference
    kinds, the compiled pool equals the reference pool, the reference policy's choices fall
    in it, and the compiled choice is never deadly when a safe action exists."""
    positions = killing_avoided = 0
    for seed in range(40):
        r = random.Random(seed)
        game = SnakeGo(seed=seed, size=r.choice([5, 8, 16]), rounds=r.choice([20, 100]),
                       max_snakes=r.choice([1, 2, 4]))  # fmt: skip
        state = game.initial_state()
        rng = np.uint64(seed_state(seed))
        while not state.is_terminal():
            pos, items = A.encode(state)
            kinds = P.action_kinds(state)
            slot = L.acting_slot(pos)
            assert [I.kind(pos, slot, a) for a, _ in kinds] == [kind for _, kind in kinds]
            mask = I.informed_mask(pos, items)
            assert [a for a in range(6) if mask >> a & 1] == reference_pool(state)
            choices = {P.informed_action(state, random.Random(k)) for k in range(8)}
            assert choices <= {a for a in range(6) if mask >> a & 1}
            action, rng = I.informed_action(pos, items, rng, next_below)
            rng = np.uint64(rng)
            deadly = {a for a, kind in kinds if kind == P.DEADLY}
            if len(deadly) < len(kinds):
                assert action not in deadly
                killing_avoided += bool(deadly)
            positions += 1
            state = state.apply(
                int(action) if r.random() < 0.9 else r.choice(state.legal_actions())
            )
    assert positions > 1000 and killing_avoided > 100


def test_informed_choice_is_uniform_over_the_pool() -> None:
    """At the start (top-left corner) the pool is {down, right}: each about half the time."""
    pos, items = A.encode(SnakeGo(seed=0).initial_state())
    rng = np.uint64(seed_state(0))
    counts = {DOWN: 0, RIGHT: 0}
    for _ in range(4000):
        action, rng = I.informed_action(pos, items, rng, next_below)
        rng = np.uint64(rng)
        counts[int(action)] += 1
    assert set(counts) == {DOWN, RIGHT} and abs(counts[DOWN] - 2000) < 200
