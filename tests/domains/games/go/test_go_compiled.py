"""Go's compiled board (``go.board``, ``go.arrays``) against the reference rules (``go``).

Differential tests play seeded games ply by ply in both tiers (moves chosen in Python, mostly
playout moves so that games reach their natural end, now and then any legal move, so suicide
points, ko fights and passes come up) and compare after every ply: the board, the player to
move, the ko point, passes, captures, the legal points, the playout points, ``is_legal`` of
every action, the Zobrist hash against ``board_hash`` and the area score. The reference uses
``superko="simple"``: the compiled board checks the basic ko only (superko is the caller's).
Hand-built positions check captures, ko, suicide and the eye test against values worked out
by hand from the rules.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from searchlab.core.compiled_rng import next_below, seed_state
from searchlab.core.errors import InvalidStateError
from searchlab.domains.games.go import Go, GoState, tiny_go, vertex_to_point
from searchlab.domains.games.go import arrays as A
from searchlab.domains.games.go import board as B
from searchlab.domains.games.go.zobrist import board_hash


def compare(pos: np.ndarray, state: GoState) -> None:
    """Both tiers agree on this position."""
    game = state.game
    n = game.size * game.size
    decoded = A.decode(pos, game, moves=state.moves, history=state.history)
    assert decoded == state, f"\n{decoded}\n!=\n{state}"
    assert decoded.key() == state.key()
    assert int(B.hash_of(pos)) == board_hash(state.board) == state.board_hash
    assert B.to_move(pos) == state.current_player()
    assert B.passes(pos) == state.passes
    assert B.ko_point(pos) == state.ko_point
    assert (B.captures(pos, 0), B.captures(pos, 1)) == state.captures
    assert B.is_over(pos) == state.is_terminal()
    assert B.area_score(pos) == state.area_score()
    if state.is_terminal():
        return
    out = np.zeros(n + 1, dtype=np.int64)
    k = B.legal_points(pos, out)
    assert [*out[:k].tolist(), n] == state.legal_actions()
    k = B.playout_points(pos, out)
    assert (out[:k].tolist() or [n]) == state.playout_actions()
    legal = set(state.legal_actions())
    assert [B.is_legal(pos, p) for p in range(-1, n + 2)] == [p in legal for p in range(-1, n + 2)]


def play_both(state: GoState, action: int, pos: np.ndarray) -> GoState:
    after = state.apply(action)
    B.play(pos, action)
    compare(pos, after)
    return after


def differential(seed: int, sizes: tuple[int, ...]) -> int:
    """One seeded game in both tiers, compared after every ply; returns the plies played."""
    r = random.Random(seed)
    size = r.choice(sizes)
    game = (Go if size >= 5 else tiny_go)(
        size, komi=r.choice([0.0, 0.5, 5.5, 7.5, -3.0]), superko="simple"
    )
    state = game.initial_state()
    pos = A.encode(state)
    compare(pos, state)
    wild = r.choice([0.02, 0.1, 0.3])
    while not state.is_terminal():
        moves = state.legal_actions() if r.random() < wild else state.playout_actions()
        state = play_both(state, r.choice(moves), pos)
        if r.random() < 0.03:
            pos = A.encode(state)
            compare(pos, state)
    return len(state.moves)


# -- differential ---------------------------------------------------------------------------
def test_random_games_agree_on_small_boards() -> None:
    plies = sum(differential(seed, (5, 6, 7)) for seed in range(400))
    assert plies > 15000  # the games were played to their end


def test_random_games_agree_on_9x9_and_tiny_boards() -> None:
    plies = sum(differential(seed, (2, 3, 4, 9)) for seed in range(1000, 1150))
    assert plies > 5000


@pytest.mark.slow
def test_random_games_agree_on_large_boards() -> None:
    plies = sum(differential(seed, (11, 13, 19)) for seed in range(2000, 2012))
    assert plies > 3000


def test_a_19x19_game_agrees() -> None:
    assert differential(7, (19,)) > 300


def test_encode_decode_round_trip() -> None:
    """Mid-game positions of every size survive encode / decode, handicap included."""
    for size in range(5, 20, 2):
        game = Go(size, handicap=2 if size >= 7 else 0)
        state = game.initial_state()
        r = random.Random(size)
        for _ in range(size * 4):
            state = state.apply(r.choice(state.playout_actions()))
            if state.is_terminal():
                break
        back = A.decode(A.encode(state), game, moves=state.moves, history=state.history)
        assert back == state
    pos = A.encode(Go(9).initial_state())
    with pytest.raises(InvalidStateError, match="9x9 position for a 7x7 game"):
        A.decode(pos, Go(7))


# -- hand-built positions -------------------------------------------------------------------
def points(game: Go, vertices: str) -> list[int]:
    return [vertex_to_point(v, game.size) for v in vertices.split()]


def test_capture_of_two_chains_at_once() -> None:
    """White's A2 and B1 are separate single stones, each with one liberty left at A1 once
    black holds A3, B2 and C1; black A1 takes both: 2 captures, A2 and B1 empty, black to
    have 3 liberties at A1's chain (A2, B1 ... )."""
    game = Go(5, superko="simple")
    state = game.position(black=["A3", "B2", "C1"], white=["A2", "B1", "E5"])
    pos = A.encode(state)
    a1 = vertex_to_point("A1", 5)
    assert B.is_legal(pos, a1)  # no liberty of its own, but it captures
    after = play_both(state, a1, pos)
    assert after.captures == (2, 0)
    board = after.board
    assert board[vertex_to_point("A2", 5)] == 0 and board[vertex_to_point("B1", 5)] == 0
    assert B.ko_point(pos) == -1  # two stones taken: no ko


def test_suicide_is_illegal_unless_it_captures() -> None:
    """Black A1 inside white A2, B1 (each with more liberties) is suicide; once white's B1
    has only A1 left (black C1, B2), black A1 captures it and is legal."""
    game = Go(5, superko="simple")
    a1 = vertex_to_point("A1", 5)
    pos = A.encode(game.position(black=["E5"], white=["A2", "B1"]))
    assert not B.is_legal(pos, a1)
    pos = A.encode(game.position(black=["C1", "B2"], white=["A2", "B1", "A3"]))
    assert B.is_legal(pos, a1)  # takes B1 (A2-A3 keep liberties)
    # a multi-stone own chain with its last liberty at the point: suicide too
    pos = A.encode(game.position(black=["A2", "A3"], white=["A4", "B3", "B2", "B1"]))
    assert not B.is_legal(pos, a1)


def test_ko_forbids_the_immediate_retake_only() -> None:
    """Black C1 takes white B1 (black A1, B2; white C2, D1): a ko at B1 for white; white
    plays elsewhere, black plays elsewhere, then white may retake."""
    game = Go(5, superko="simple")
    state = game.position(black=["A1", "B2"], white=["B1", "C2", "D1"], to_move=0)
    pos = A.encode(state)
    c1, b1 = points(game, "C1 B1")
    state = play_both(state, c1, pos)
    assert B.ko_point(pos) == b1 and not B.is_legal(pos, b1)
    state = play_both(state, vertex_to_point("E5", 5), pos)
    state = play_both(state, vertex_to_point("E4", 5), pos)
    assert B.ko_point(pos) == -1 and B.is_legal(pos, b1)
    state = play_both(state, b1, pos)  # white retakes C1: a ko the other way
    assert B.ko_point(pos) == c1 and state.captures == (1, 1)


def test_pass_clears_the_ko_and_two_passes_end_the_game() -> None:
    game = Go(5, superko="simple")
    state = game.position(black=["A1", "B2"], white=["B1", "C2", "D1"])
    pos = A.encode(state)
    state = play_both(state, vertex_to_point("C1", 5), pos)
    state = play_both(state, game.pass_action, pos)
    assert B.ko_point(pos) == -1 and B.passes(pos) == 1 and not B.is_over(pos)
    state = play_both(state, game.pass_action, pos)
    assert B.is_over(pos) and state.is_terminal()


def test_eye_test() -> None:
    """Black's own eyes (black to move): corners A1, E1 and edge C1 with no white diagonal;
    D2 (no white diagonal) and B2 (one: A3) in the centre. Not eyes: C3 (two white
    diagonals, B4 and D4), C5 (on the edge with a white diagonal), E3 and A5 (an empty
    neighbour). A1 is no eye for white."""
    game = Go(5)
    black = ["A2", "B1", "B3", "C2", "C4", "D3", "E2", "D1", "D5", "B5"]
    state = game.position(black=black, white=["B4", "D4", "A3"])
    pos = A.encode(state)
    expected = {
        "A1": True, "E1": True, "C1": True, "D2": True, "B2": True,
        "C3": False, "C5": False, "E3": False, "A5": False,
    }  # fmt: skip
    for vertex, eye in expected.items():
        p = vertex_to_point(vertex, 5)
        assert B.is_own_eye(pos, pos[B.P2Q, p], B.BLACK) == eye, vertex
        assert state.fills_own_eye(p) == eye, vertex
    assert not B.is_own_eye(pos, pos[B.P2Q, 0], B.WHITE)
    # on the edge, one white diagonal (B2) is enough to spoil C1
    edge = game.position(black=["B1", "D1", "C2"], white=["B2"])
    c1 = vertex_to_point("C1", 5)
    assert not B.is_own_eye(A.encode(edge), A.encode(edge)[B.P2Q, c1], B.BLACK)
    assert not edge.fills_own_eye(c1)
    out = np.zeros(26, dtype=np.int64)
    n = B.playout_points(pos, out)
    assert not {vertex_to_point(v, 5) for v, eye in expected.items() if eye} & set(out[:n].tolist())


def test_area_score_counts_regions_reaching_one_colour() -> None:
    """Black wall on column B, white wall on column D (5x5): black owns A and B (10),
    white D and E (10), column C touches both (neutral): 10 - 10 - komi 0.5."""
    game = Go(5, komi=0.5)
    state = game.position(
        black=[f"B{r}" for r in range(1, 6)], white=[f"D{r}" for r in range(1, 6)]
    )
    assert B.area_score(A.encode(state)) == -0.5


def test_random_move_is_uniform_over_playout_points() -> None:
    """On a position with few playout points, random_move draws each about equally often and
    nothing else; with none it passes."""
    game = Go(5)
    rows = [f"{c}{r}" for c in "ABCDE" for r in (1, 2, 3)]
    black = [v for v in rows if v not in ("A1", "C1", "E1")]
    white = [f"{c}5" for c in "ABCDE"] + ["A4", "C4"]
    pos = A.encode(game.position(black=black, white=white))
    out = np.zeros(26, dtype=np.int64)
    n = B.playout_points(pos, out)
    allowed = set(out[:n].tolist())
    assert allowed == set(points(game, "B4 D4 E4"))  # A1 C1 E1 are black's eyes
    rng = np.uint64(seed_state(3))
    counts: Counter[int] = Counter()
    for _ in range(6000):
        p, rng = B.random_move(pos, rng, next_below)
        rng = np.uint64(rng)  # numba hands a uint64 back as a Python int
        counts[int(p)] += 1
    assert set(counts) == allowed
    assert all(1700 < c < 2300 for c in counts.values())
    every = [f"{c}{r}" for c in "ABCDE" for r in range(1, 6)]
    full = game.position(black=[v for v in every if v not in ("A1", "C3", "E5")])  # 3 eyes
    pos = A.encode(full)
    p, _ = B.random_move(pos, rng, next_below)
    assert p == game.pass_action and B.playout_points(pos, out) == 0
