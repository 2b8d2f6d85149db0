"""examples/custom_game.py runs every algorithm on a user-defined game, with the known theory:
in the take-1-to-3 subtraction game the mover loses iff the pile is a multiple of 4, the
Grundy value of a pile of n is n mod 4, and the winning move leaves a multiple of 4."""

from __future__ import annotations

import runpy
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "custom_game.py"


def test_custom_game_example(capsys) -> None:  # type: ignore[no-untyped-def]
    module = runpy.run_path(str(EXAMPLE))
    found = module["main"]()
    assert found["perft_3"] == 27  # 3 * 3 * 3 move sequences from 21 counters
    assert found["minimax_10"] == found["alphabeta_10"] == 1.0  # 10 % 4 != 0: mover wins
    assert found["alphabeta_10_action"] == 2  # 10 - 2 = 8, a multiple of 4
    assert found["negamax_21"] == found["solve_21"] == 1.0
    assert found["negamax_21_action"] == 1  # 21 - 1 = 20
    assert found["grundy_21"] == 21 % 4
    assert "grundy_21" in capsys.readouterr().out
