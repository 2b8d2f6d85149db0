"""The Gomoku line-pattern evaluation: pattern counts against a string-based oracle on lines
walked out of a plain grid, antisymmetry under swapping colours and invariance under the 8
board symmetries (property tests), local gain against whole-board differences, and negamax
tactics with the evaluation on small hand-made positions."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.limits import Limits
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.gomoku import Gomoku, GomokuState
from searchlab.domains.games.gomoku.eval import (
    PATTERNS,
    PatternEvaluation,
    PatternWeights,
    evaluate,
    line_patterns,
    pattern_counts,
    search_game,
)

# --- the oracle: pattern counts of a line written as a string ----------------------------------


def oracle_line(text: str) -> dict[str, int]:
    """Patterns of the X stones in a line such as 'O.XXX..'; by the documented definition."""
    counts = dict.fromkeys(PATTERNS, 0)
    for match in re.finditer("X+", text):
        start, end = match.span()
        run = end - start
        if run >= 5:
            counts["five"] += 1
            continue
        if run < 2:
            continue
        room_left = text.rfind("O", 0, start) + 1
        room_right = text.find("O", end)
        room_right = len(text) if room_right < 0 else room_right
        if room_right - room_left < 5:
            continue  # can never become five
        ends = (start > 0 and text[start - 1] == ".") + (end < len(text) and text[end] == ".")
        if ends:
            name = {2: "two", 3: "three", 4: "four"}[run]
            counts[("open_" if ends == 2 else "closed_") + name] += 1
    return counts


def grid_lines(grid: list[list[str]]) -> list[str]:
    """Every row, column, diagonal and anti-diagonal of at least 5 cells, as strings."""
    size, lines = len(grid), []
    starts = {
        (1, 0): [(0, r) for r in range(size)],
        (0, 1): [(c, 0) for c in range(size)],
        (1, 1): [(0, r) for r in range(size)] + [(c, 0) for c in range(1, size)],
        (1, -1): [(0, r) for r in range(size)] + [(c, size - 1) for c in range(1, size)],
    }
    for (dc, dr), cells in starts.items():
        for c, r in cells:
            text = ""
            while 0 <= c < size and 0 <= r < size:
                text += grid[r][c]
                c, r = c + dc, r + dr
            if len(text) >= 5:
                lines.append(text)
    return lines


def oracle_counts(grid: list[list[str]]) -> tuple[dict[str, int], dict[str, int]]:
    black, white = dict.fromkeys(PATTERNS, 0), dict.fromkeys(PATTERNS, 0)
    swap = str.maketrans("XO", "OX")
    for text in grid_lines(grid):
        for totals, line in ((black, text), (white, text.translate(swap))):
            for name, count in oracle_line(line).items():
                totals[name] += count
    return black, white


def weighted(counts: dict[str, int], weights: PatternWeights) -> int:
    return sum(getattr(weights, name) * count for name, count in counts.items())


# --- positions ---------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn, sizes: tuple[int, ...] = (7, 9, 15)) -> tuple[int, dict, int]:
    """(size, {cell: 'X' or 'O'}, player to move) with a dense local cluster of stones."""
    size = draw(st.sampled_from(sizes))
    cells = draw(
        st.dictionaries(
            st.integers(0, size * size - 1), st.sampled_from("XO"), min_size=0, max_size=45
        )
    )
    return size, cells, draw(st.integers(0, 1))


def build(size: int, cells: dict[int, str], player: int, game: Gomoku | None = None):
    """The position, or ``None`` when it is none: both colours have a five (checked by the
    oracle, so that no other failure can pass for it)."""
    game = game or Gomoku(size=size)
    black = [cell for cell, stone in cells.items() if stone == "X"]
    white = [cell for cell, stone in cells.items() if stone == "O"]
    try:
        return game.position(black=black, white=white, player=player)
    except InvalidStateError as error:
        assert "both colours have five in a row" in str(error), error
        black_counts, white_counts = oracle_counts(as_grid(size, cells))
        assert black_counts["five"] and white_counts["five"], (size, cells)
        return None


def as_grid(size: int, cells: dict[int, str]) -> list[list[str]]:
    grid = [["."] * size for _ in range(size)]
    for cell, stone in cells.items():
        grid[cell // size][cell % size] = stone
    return grid


SYMMETRIES = [
    lambda r, c, n: (r, c),
    lambda r, c, n: (c, n - 1 - r),
    lambda r, c, n: (n - 1 - r, n - 1 - c),
    lambda r, c, n: (n - 1 - c, r),
    lambda r, c, n: (r, n - 1 - c),
    lambda r, c, n: (n - 1 - r, c),
    lambda r, c, n: (c, r),
    lambda r, c, n: (n - 1 - c, n - 1 - r),
]


# --- pattern counts ----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="XO.", min_size=5, max_size=15))
def test_line_patterns_match_the_string_oracle(text: str) -> None:
    mine = sum(1 << t for t, ch in enumerate(text) if ch == "X")
    theirs = sum(1 << t for t, ch in enumerate(text) if ch == "O")
    expected = oracle_line(text)
    assert line_patterns(mine, theirs, len(text)) == tuple(expected[name] for name in PATTERNS)


def test_line_patterns_by_hand() -> None:
    def counts(text: str) -> dict[str, int]:
        mine = sum(1 << t for t, ch in enumerate(text) if ch == "X")
        theirs = sum(1 << t for t, ch in enumerate(text) if ch == "O")
        found = line_patterns(mine, theirs, len(text))
        return {name: n for name, n in zip(PATTERNS, found, strict=True) if n}

    assert counts("..XXXX..") == {"open_four": 1}
    assert counts("OXXXX...") == {"closed_four": 1}
    assert counts("XXXX....") == {"closed_four": 1}  # the edge closes it
    assert counts("OXXXXO..") == {}  # dead
    assert counts(".XXX.O..") == {"open_three": 1}  # room: 5 cells free of O
    assert counts("O.XXX.O.") == {"open_three": 1}  # exactly 5 cells of room: enough
    assert counts("OXXX.O..") == {}  # 4 cells of room: can never be five
    assert counts("XXXXXX..") == {"five": 1}  # an overline is a five
    assert counts(".XX.XX..") == {"open_two": 2}  # split shapes count as their runs
    assert counts(".X.X.X..") == {}


@settings(max_examples=60, deadline=None)
@given(positions())
def test_pattern_counts_match_the_oracle_on_whole_boards(position: tuple) -> None:
    size, cells, player = position
    state = build(size, cells, player)
    if state is None:
        return  # both colours have a five: build checked it with the oracle
    black, white = oracle_counts(as_grid(size, cells))
    assert pattern_counts(state) == (black, white)
    weights = PatternWeights()
    assert evaluate.score(state, 0) == weighted(black, weights) - weighted(white, weights)


# --- symmetry ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(positions())
def test_evaluation_is_antisymmetric_in_colours_and_invariant_under_board_symmetries(
    position: tuple,
) -> None:
    size, cells, player = position
    state = build(size, cells, player)
    if state is None:
        return  # both colours have a five: build checked it with the oracle
    value = evaluate(state)
    assert -1 < value < 1
    swapped = build(size, {c: "O" if s == "X" else "X" for c, s in cells.items()}, player)
    assert swapped is not None
    assert evaluate(swapped) == -value  # same player to move, colours exchanged
    assert evaluate.score(swapped, 0) == -evaluate.score(state, 0)
    # Exchanging the colours and the player to move changes nothing for the mover.
    assert (
        evaluate(build(size, {c: "O" if s == "X" else "X" for c, s in cells.items()}, 1 - player))
        == value
    )
    for symmetry in SYMMETRIES:
        moved = {}
        for cell, stone in cells.items():
            r, c = symmetry(cell // size, cell % size, size)
            moved[r * size + c] = stone
        image = build(size, moved, player)
        assert evaluate(image) == value
        assert pattern_counts(image) == pattern_counts(state)


# --- local gain and ordering -------------------------------------------------------------------


def test_local_gain_equals_the_change_of_the_whole_board_score() -> None:
    rng = random.Random(4)
    game = Gomoku(size=11)
    fresh = PatternEvaluation()
    for _ in range(15):
        state = game.initial_state()
        for _ in range(rng.randrange(4, 40)):
            state = state.apply(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        base = fresh.black_score(state)
        for action in state.legal_actions()[::7]:
            as_black = game.position(
                black=[*_cells(state, 1), action], white=_cells(state, 2), player=0
            )
            as_white = game.position(
                black=_cells(state, 1), white=[*_cells(state, 2), action], player=0
            )
            whole = (fresh.black_score(as_black) - base) - (fresh.black_score(as_white) - base)
            assert evaluate.gain(state, action) == whole


def _cells(state: GomokuState, colour: int) -> list[int]:
    return [a for a in range(state.game.size**2) if state.colour_at(a) == colour]


def test_search_game_orders_candidates_by_gain() -> None:
    game = search_game(size=9)
    state = game.position(black=["d5", "e5", "f5"], white=["d4", "e4"], player=1)
    actions = state.legal_actions()
    assert sorted(actions) == sorted(
        Gomoku(size=9, candidate_radius=2)
        .position(black=["d5", "e5", "f5"], white=["d4", "e4"], player=1)
        .legal_actions()
    )
    gains = [evaluate.gain(state, a) for a in actions]
    assert gains == sorted(gains, reverse=True)
    # Blocking black's open three at either end comes first (c5 or g5).
    assert state.action_to_string(actions[0]) in {"c5", "g5"}


def test_search_game_conforms() -> None:
    # Ordered candidate lists must still be distinct legal actions that parse back, etc.
    assert_conforms(search_game(size=7), num_playouts=6, seed=9)


def test_weights_are_checked() -> None:
    with pytest.raises(InvalidParameterError, match="open_three must be a number >= 0, got -1"):
        PatternWeights(open_three=-1)
    with pytest.raises(InvalidParameterError, match="scale must be > 0, got 0"):
        PatternWeights(scale=0)
    with pytest.raises(InvalidParameterError, match="five must be a number >= 0, got True"):
        PatternWeights(five=True)


def test_custom_weights_change_the_score() -> None:
    state = Gomoku().position(black=["h8", "i8", "j8"], white=["a1", "o15"], player=1)
    assert PatternEvaluation(PatternWeights(open_three=7)).score(state, 0) == 7
    assert PatternEvaluation().score(state, 0) == 1000


# --- negamax with the evaluation ---------------------------------------------------------------


def test_negamax_completes_an_open_four() -> None:
    # Black (to move) has the open four f8 g8 h8 i8; white has one too on row 3, so anything
    # but e8 or j8 (five now) loses. Win in 1 ply: value +1, one ply to the end.
    game = search_game()
    state = game.position(black=["f8", "g8", "h8", "i8"], white=["f3", "g3", "h3", "i3"])
    result = negamax(game, state, limits=Limits(depth=2), evaluate=evaluate)
    assert state.action_to_string(result.action) in {"e8", "j8"}
    assert result.value == 1.0 and result.plies_to_end == 1


def test_negamax_blocks_a_four() -> None:
    # Black threatens h8 (c8 is white, so d8..g8 is a closed four with one winning cell).
    # White to move has no four of its own: every move but h8 lets black make five at ply 2,
    # so a depth-2 search must play h8 and see no forced loss.
    game = search_game(size=11)
    state = game.position(black=["d8", "e8", "f8", "g8", "j2"], white=["c8", "h3", "i3", "c2"])
    assert state.current_player() == 1
    result = negamax(game, state, limits=Limits(depth=2), evaluate=evaluate)
    assert state.action_to_string(result.action) == "h8"
    assert result.value > -1.0 and result.plies_to_end is None


def test_negamax_wins_in_3_from_an_open_three() -> None:
    # Black (to move) has the open three d5 e5 f5 on a 9x9 board with room on both sides;
    # white's three stones are scattered and threaten nothing. c5 or g5 makes an open four
    # (b5-c5-...-g5 or c5-...-h5 has two winning ends); white blocks one, black plays the
    # other: a win at ply 3. Any other move lets white block the three (b5 d5 e5 f5 . is
    # only a four with one end, and white blocks it). So: +1 in 3 plies, by c5 or g5.
    game = search_game(size=9)
    state = game.position(black=["d5", "e5", "f5"], white=["a1", "i9", "a9"])
    result = negamax(game, state, limits=Limits(depth=3), evaluate=evaluate)
    assert state.action_to_string(result.action) in {"c5", "g5"}
    assert result.value == 1.0 and result.plies_to_end == 3
    # Two plies are not enough to see it.
    shallow = negamax(game, state, limits=Limits(depth=2), evaluate=evaluate)
    assert shallow.plies_to_end is None and -1 < shallow.value < 1
