"""The Connect Four mistake rate (AlphaZero.jl's definition) on hand-checked positions: an
immediate win is never a mistake and a move that lets the opponent win at once is one; nothing
is a mistake in a lost position (and nothing is solved there); a move judged better than the
file says is a disagreement, not a mistake; the judge agrees with Pons' scores (ground truth no
one here wrote); the outcome cache round-trips and refuses other files in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphazero.mistakes import (
    PONS_SETS,
    MistakeJudge,
    OutcomeCache,
    PonsEntry,
    mistake_rate,
    read_pons_file,
    wilson_interval,
)

# X has three stones up column 1, O three up column 2; X to move. X wins at once in column 1
# (with its 4th stone: score 22 - 4 = 18); column 2 blocks O; any other column lets O win.
THREATS = PonsEntry("121212", 18)


def test_an_immediate_win_is_no_mistake_and_letting_the_opponent_win_is_one() -> None:
    judge = MistakeJudge(OutcomeCache())
    assert judge.outcome(THREATS, 0) == 1  # the game ends: no solver
    assert judge.solves == 0
    for column in (2, 3, 4, 5, 6):  # O completes column 2 next move
        assert judge.outcome(THREATS, column) == -1
        assert judge.is_mistake(THREATS, column)
    assert not judge.is_mistake(THREATS, 0)
    assert judge.is_mistake(THREATS, 1) == (judge.outcome(THREATS, 1) < 1)


def test_nothing_is_a_mistake_in_a_lost_position_and_nothing_is_solved() -> None:
    # O to move; X's open three on the bottom row (3-4-5) threatens 2 and 6 at once: X wins
    # with its 4th stone whatever O plays (Pons' score 4 - 22)
    lost = PonsEntry("44553", -18)
    judge = MistakeJudge(OutcomeCache())
    report = mistake_rate(lambda state: state.legal_actions()[0], [lost] * 3, judge)
    assert (report.positions, report.mistakes, judge.solves) == (3, 0, 0)


def test_a_move_better_than_the_files_best_is_a_disagreement_not_a_mistake() -> None:
    wrong = PonsEntry(THREATS.moves, 0)  # the file would say a draw; column 1 wins
    judge = MistakeJudge(OutcomeCache())
    report = mistake_rate(lambda state: 0, [wrong, THREATS], judge)
    assert (report.mistakes, report.disagreements) == (0, 1)
    report = mistake_rate(lambda state: 4, [THREATS], judge, set_name="x")
    assert (report.mistakes, report.mistaken, report.rate) == (1, ["121212"], 1.0)


def test_an_illegal_column_is_one_line() -> None:
    full = PonsEntry("111111", 0)
    with pytest.raises(InvalidParameterError, match="column 1 is not a legal move"):
        MistakeJudge(OutcomeCache()).outcome(full, 0)


@pytest.mark.parametrize("file", ["Test_L3_R1", "Test_L2_R1"])
def test_the_best_move_outcome_is_the_sign_of_pons_score(
    file: str, tmp_path: Path, shared_data: Path
) -> None:
    judge = MistakeJudge(OutcomeCache(tmp_path / "cache.json"), table_log2=16)
    for entry in read_pons_file(shared_data / "connect4_pons" / file, limit=15):
        outcomes = [judge.outcome(entry, c) for c in entry.state().legal_actions()]
        assert max(outcomes) == entry.best, entry
        legal = entry.state().legal_actions()
        best_moves = [c for c, o in zip(legal, outcomes, strict=True) if o == entry.best]
        assert all(not judge.is_mistake(entry, c) for c in best_moves)


def test_the_cache_round_trips_and_spares_the_solver(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.json"
    judge = MistakeJudge(OutcomeCache(path))
    first = [judge.outcome(THREATS, column) for column in range(7)]
    judge.cache.save()
    assert judge.solves > 0
    again = MistakeJudge(OutcomeCache(path))
    assert [again.outcome(THREATS, column) for column in range(7)] == first
    assert again.solves == 0
    data = json.loads(path.read_text())
    assert data["format"] == OutcomeCache.FORMAT and len(data["outcomes"]) == judge.solves


def test_a_file_that_is_not_a_cache_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}')
    with pytest.raises(InvalidParameterError, match="not a searchlab Connect Four outcome cache"):
        OutcomeCache(path)
    path.write_text("{not json")
    with pytest.raises(InvalidParameterError, match=r"outcome cache .*x\.json"):
        OutcomeCache(path)


def test_a_bad_pons_line_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "Test"
    path.write_text("4455 18\n\n12 x\n")
    with pytest.raises(InvalidParameterError, match=r"Test:3: '12 x'"):
        read_pons_file(path)
    assert read_pons_file(path, limit=1) == [PonsEntry("4455", 18)]
    path.write_text("1212121 5\n")  # X has four in column 1: over
    with pytest.raises(InvalidParameterError, match="already over"):
        read_pons_file(path)


def test_the_sets_and_the_interval() -> None:
    assert len(PONS_SETS) == 6 and PONS_SETS[-1] == ("Test_L1_R3", "Begin-Hard")
    low, high = wilson_interval(12, 50)
    assert low < 12 / 50 < high and 0.13 < low < 0.15 and 0.36 < high < 0.39
