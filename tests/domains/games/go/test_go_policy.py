"""Go's informed rollout policy: the reference (``go.policy``) and the compiled twin
(``go.informed``) pick from the same candidates, on thousands of positions of seeded games
and on hand-built positions whose candidates are worked out by hand from the rules; the 3x3
pattern table against its own symmetries."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from searchlab.core.compiled_rng import next_below, seed_state
from searchlab.domains.games.go import Go, GoState, vertex_to_point
from searchlab.domains.games.go import board as B
from searchlab.domains.games.go import policy as P
from searchlab.domains.games.go.arrays import encode
from searchlab.domains.games.go.informed import informed_candidates, informed_move


def compiled_candidates(state: GoState) -> tuple[int, list[int]]:
    """The compiled policy's ``(stage, candidates)`` in the reference's terms."""
    pos = encode(state)
    n_points = state.game.size * state.game.size
    out = np.zeros(n_points + 1, dtype=np.int64)
    stage, n = informed_candidates(pos, out)
    if n > 0:
        return int(stage), out[:n].tolist()
    assert stage == P.RANDOM
    n = B.playout_points(pos, out)
    return (P.RANDOM, out[:n].tolist()) if n else (P.PASS_ONLY, [n_points])


def vertices(size: int, text: str) -> list[int]:
    return sorted(vertex_to_point(v, size) for v in text.split())


# -- the same candidates --------------------------------------------------------------------
def test_candidates_agree_on_seeded_games() -> None:
    """Games played by the informed policy itself (so the atari and pattern stages come up
    often), now and then a random legal move; both tiers' candidates after every ply."""
    stages: Counter[int] = Counter()
    for seed in range(160):
        r = random.Random(seed)
        game = Go(r.choice([5, 6, 7, 9, 9, 13]), superko="simple")
        state = game.initial_state()
        while not state.is_terminal():
            expected = P.informed_candidates(state)
            assert compiled_candidates(state) == expected, f"seed {seed}\n{state}"
            stages[expected[0]] += 1
            if r.random() < 0.1:
                action = r.choice(state.legal_actions())
            else:
                action = P.informed_action(state, r)
            state = state.apply(action)
    assert stages[P.ATARI] > 300 and stages[P.PATTERN] > 1000 and stages[P.RANDOM] > 1000


def test_compiled_informed_playouts_are_legal_games() -> None:
    """Informed playouts in the compiled tier, every move checked by the reference rules."""
    for seed in range(30):
        game = Go((5, 7, 9, 19)[seed % 4], superko="simple")
        state = game.initial_state()
        pos = encode(state)
        rng = np.uint64(seed_state(seed))
        while not state.is_terminal():
            p, rng = informed_move(pos, rng, next_below)
            rng = np.uint64(rng)  # numba hands a uint64 back as a Python int
            stage, pool = P.informed_candidates(state)
            assert int(p) in pool, f"seed {seed}: {p} not among stage {stage}'s {pool}"
            state = state.apply(int(p))
            B.play(pos, p)
        assert B.is_over(pos) and B.area_score(pos) == state.area_score()


# -- hand-built positions -------------------------------------------------------------------
def test_capture_the_last_move_in_atari() -> None:
    """White C3 into black C2, B3, D3: its only liberty is C4; black's answer is C4."""
    game = Go(5, superko="simple")
    state = game.position(black=["C2", "B3", "D3"], to_move="white").apply(vertex_to_point("C3", 5))
    expected = (P.ATARI, vertices(5, "C4"))
    assert P.informed_candidates(state) == expected == compiled_candidates(state)


def test_save_only_by_an_extension_with_two_liberties() -> None:
    """White B2 puts black A2 in atari (liberty A1): extending to A1 leaves one liberty (B1),
    so no atari move. White D3 puts black C3 in atari: extending to C2 gives B2, D2, C1."""
    game = Go(5, superko="simple")
    state = game.position(black=["A2"], white=["A3"], to_move="white").apply(
        vertex_to_point("B2", 5)
    )
    assert P.informed_candidates(state)[0] != P.ATARI
    assert compiled_candidates(state) == P.informed_candidates(state)
    state = game.position(black=["C3"], white=["B3", "C4"], to_move="white").apply(
        vertex_to_point("D3", 5)
    )
    expected = (P.ATARI, vertices(5, "C2"))
    assert P.informed_candidates(state) == expected == compiled_candidates(state)


def test_save_by_an_extension_that_captures() -> None:
    """White C3 leaves black C2 one liberty, C1. Black C1 takes white B1-B2 (whose only
    liberty is C1 too): the chain C1-C2 then has D1, B1 and B2, three liberties (one
    without the captured squares), so C1 is the atari move."""
    game = Go(5, superko="simple")
    state = game.position(black=["A1", "A2", "B3", "C2"], white=["B1", "B2", "D2"], to_move=1)
    state = state.apply(vertex_to_point("C3", 5))
    expected = (P.ATARI, vertices(5, "C1"))
    assert P.informed_candidates(state) == expected == compiled_candidates(state)
    assert P.liberties_after(state, vertex_to_point("C1", 5)) == 3


def test_hane_patterns_around_the_last_move() -> None:
    """White E5 beside black D5 on 9x9: the hane shape ``XO. / ... / ?.?`` (and its mirror,
    its flips) holds below and above the two stones, at D4, E4, D6 and E6; the other points
    around E5 see one stone only, which no pattern matches."""
    game = Go(9, superko="simple")
    state = game.position(black=["D5"], to_move="white").apply(vertex_to_point("E5", 9))
    expected = (P.PATTERN, vertices(9, "D4 E4 D6 E6"))
    assert P.informed_candidates(state) == expected == compiled_candidates(state)


def test_first_move_and_after_a_pass_are_random() -> None:
    game = Go(5, superko="simple")
    state = game.initial_state()
    assert P.informed_candidates(state) == (P.RANDOM, list(range(25)))
    assert compiled_candidates(state) == (P.RANDOM, list(range(25)))
    state = game.position(black=["C2", "B3", "D3"], white=["C3"]).apply(game.pass_action)
    assert P.informed_candidates(state)[0] == P.RANDOM == compiled_candidates(state)[0]


def test_both_tiers_draw_uniformly_from_the_candidates() -> None:
    game = Go(9, superko="simple")
    state = game.position(black=["D5"], to_move="white").apply(vertex_to_point("E5", 9))
    pool = vertices(9, "D4 E4 D6 E6")
    r = random.Random(1)
    reference = Counter(P.informed_action(state, r) for _ in range(4000))
    pos = encode(state)
    rng = np.uint64(seed_state(1))
    compiled: Counter[int] = Counter()
    for _ in range(4000):
        p, rng = informed_move(pos, rng, next_below)
        rng = np.uint64(rng)  # numba hands a uint64 back as a Python int
        compiled[int(p)] += 1
    for counts in (reference, compiled):
        assert sorted(counts) == pool
        assert all(850 < c < 1150 for c in counts.values())


# -- the pattern table ----------------------------------------------------------------------
def _permute(code: int, order: list[int]) -> int:
    cells = [(code >> (2 * i)) & 3 for i in range(8)]
    return sum(cells[order[i]] << (2 * i) for i in range(8))


def test_pattern_table_is_closed_under_symmetry_and_colour_swap() -> None:
    offsets = P.NEIGHBOURHOOD
    index = {offset: i for i, offset in enumerate(offsets)}
    rotate = [index[(-dc, dr)] for dr, dc in offsets]  # (dr, dc) takes the cell at (-dc, dr)
    mirror = [index[(dr, -dc)] for dr, dc in offsets]
    table = P.PATTERN_TABLE
    matched = np.flatnonzero(table)
    assert 0 < len(matched) < 1 << 15
    for code in matched.tolist():
        assert table[_permute(code, rotate)] and table[_permute(code, mirror)]
        cells = [(code >> (2 * i)) & 3 for i in range(8)]
        swapped = sum(({1: 2, 2: 1}.get(v, v)) << (2 * i) for i, v in enumerate(cells))
        assert table[swapped]


def test_pattern_table_on_hand_drawn_shapes() -> None:
    """Codes of drawn neighbourhoods (``X`` black, ``O`` white, ``.`` empty, ``#`` off the
    board; the centre is the move): matched or not, by reading PATTERNS by hand."""

    def code(rows: str) -> int:
        cells = rows.split()
        drawn = [cells[1 - dr][1 + dc] for dr, dc in P.NEIGHBOURHOOD]
        return sum(".XO#".index(c) << (2 * i) for i, c in enumerate(drawn))

    assert P.PATTERN_TABLE[code("XOX ... ...")]  # enclosing hane
    assert P.PATTERN_TABLE[code("... ... XOX")]  # the same, upside down
    assert P.PATTERN_TABLE[code("OXO ... ...")]  # colours swapped
    assert P.PATTERN_TABLE[code("XO. O.. ...")]  # unprotected cut (x, o cells empty)
    assert P.PATTERN_TABLE[code("X.. O.. ###")]  # edge: chase
    assert P.PATTERN_TABLE[code("X.. O.. ...")]  # non-cutting hane, turned
    # every pattern holds stones of both colours: one colour alone never matches
    for rows in ("... ... ...", "X.. ... ...", "XXX X.X XXX", "OO. ... ###", "O.O ... O.O"):
        assert not P.PATTERN_TABLE[code(rows)], rows
