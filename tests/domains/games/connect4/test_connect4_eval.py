"""The threat evaluation: range, symmetry, forced cases, and agreement with Pons' exact scores."""

from __future__ import annotations

from pathlib import Path

from game_positions import random_positions

from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4, Connect4State, has_four, parse_moves
from searchlab.domains.games.connect4.eval import ThreatEvaluation, threat_evaluation


def pons_lines(shared_data: Path, name: str) -> list[tuple[str, int]]:
    lines = (shared_data / "connect4_pons" / name).read_text().split("\n")
    return [(m, int(s)) for m, s in (line.split() for line in lines if line)]


def mirror(moves: str) -> str:
    return "".join(str(8 - int(c)) for c in moves)


def random_states(count: int, seed: int) -> list[Connect4State]:
    return random_positions(Connect4(), count, seed, range(35))


def test_range_and_mirror_symmetry() -> None:
    for state in random_states(300, seed=4):
        value = threat_evaluation(state)
        assert -1.0 < value < 1.0
        assert threat_evaluation(parse_moves(mirror(state.moves))) == value


def test_forced_cases() -> None:
    assert threat_evaluation(parse_moves("445566")) == 0.99  # X to move plays c1 or g1
    assert threat_evaluation(parse_moves("44556")) == -0.99  # O cannot block c1 and g1
    assert ThreatEvaluation(win_value=0.5)(parse_moves("445566")) == 0.5
    assert threat_evaluation(Connect4().initial_state()) == 0.0


def test_parity_term_counts_good_row_threats() -> None:
    """X's good threats are on rows 1, 3, 5 (from the bottom), O's on rows 2, 4, 6: the parity
    term alone has the sign of (mover's good threats - opponent's good threats), counted here
    cell by cell."""
    parity_only = ThreatEvaluation(threat_weight=0, centre_weight=0)
    seen = 0
    for state in random_states(400, seed=8):
        mover = state.current_player()
        good = {0: {1, 3, 5}, 1: {2, 4, 6}}
        counts = {0: 0, 1: 0}
        playable_mine, playable_theirs = 0, 0
        for column in range(7):
            height = sum(1 for r in range(6) if state.mask >> (7 * column + r) & 1)
            for row in range(height, 6):
                bit = 1 << (7 * column + row)
                for player in (0, 1):
                    if has_four(state.stones(player) | bit):
                        counts[player] += row + 1 in good[player]
                        if row == height:
                            if player == mover:
                                playable_mine += 1
                            else:
                                playable_theirs += 1
        if playable_mine or playable_theirs >= 2:
            continue  # the forced cases
        difference = counts[mover] - counts[1 - mover]
        value = parity_only(state)
        assert (value > 0) - (value < 0) == (difference > 0) - (difference < 0), state.moves
        seen += difference != 0
    assert seen > 10


def test_sign_agrees_with_exact_scores(shared_data: Path) -> None:
    """On decisive positions of Pons' End-Easy and Middle-Easy sets, the sign of the threat
    evaluation predicts the winner far more often than centre stones alone."""
    lines = pons_lines(shared_data, "Test_L3_R1") + pons_lines(shared_data, "Test_L2_R1")
    centre_only = ThreatEvaluation(threat_weight=0, parity_weight=0)
    decisive = [(m, s) for m, s in lines if s != 0]
    agree = baseline = 0
    for moves, score in decisive:
        state = parse_moves(moves)
        agree += threat_evaluation(state) * score > 0
        baseline += centre_only(state) * score > 0
    assert agree / len(decisive) >= 0.62
    assert agree > baseline + 0.15 * len(decisive)


def test_pluggable_in_depth_limited_negamax(shared_data: Path) -> None:
    calls = []

    def counting(state: Connect4State) -> float:
        calls.append(state.moves)
        return threat_evaluation(state)

    # quick wins from Pons' files (win with the mover's next stone or the one after)
    quick = [
        (m, s) for m, s in pons_lines(shared_data, "Test_L2_R1") if s == (43 - len(m)) // 2 - 1
    ]
    assert quick
    for moves, _ in quick[:5]:
        result = negamax(Connect4(), parse_moves(moves), limits=Limits(depth=4), evaluate=counting)
        assert result.value == 1.0 and result.plies_to_end == 3, moves  # a win in 3 plies
        after = parse_moves(moves).apply(result.action)
        assert not after.is_terminal()  # no win in 1 exists (Pons: the win needs 2 stones)
    assert calls
