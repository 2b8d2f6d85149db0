"""examples/custom_evaluation.py plugs a user's evaluation into negamax. Expected values by
hand: after X's first move O has 8 - 4 = 4 open lines left against the centre, 8 - 3 = 5
against a corner, 8 - 2 = 6 against an edge, X keeps all 8; so at depth 1 X takes b2 (action
4) with (8 - 4) / 8 = 0.5. On Gomoku, an open three d5 e5 f5 with nothing against it is a win
in 3 plies by c5 or g5 (an open four), whatever the weights."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from searchlab.domains.games.tictactoe import TicTacToe

EXAMPLE = Path(__file__).resolve().parents[4] / "examples" / "custom_evaluation.py"


def test_custom_evaluation_example(capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE))
    found = module["main"]()
    assert found["tictactoe_action"] == 4 and found["tictactoe_value"] == 0.5
    assert found["gomoku_move"] in {"c5", "g5"}
    assert found["gomoku_value"] == 1.0 and found["gomoku_plies_to_end"] == 3
    assert "gomoku, depth 3" in capsys.readouterr().out


def test_open_lines_by_hand() -> None:
    open_lines = runpy.run_path(str(EXAMPLE))["open_lines"]
    root = TicTacToe().initial_state()
    # Seen by O (to move) after X's first move: corner, edge, centre.
    assert [open_lines(root.apply(cell)) for cell in (0, 1, 4)] == [-3 / 8, -2 / 8, -4 / 8]
    assert open_lines(root) == 0.0
