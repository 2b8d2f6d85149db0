"""Position files (``domains/games/position_files.py``): Pons' Connect Four test sets and the
position lists of ``analyse --positions``, checked against Pons' own files."""

from __future__ import annotations

from pathlib import Path

import pytest

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.move_list import position_from_moves
from searchlab.domains.games.position_files import parse_positions, read_pons_positions


def test_every_line_of_a_pons_file_is_read_with_its_score(shared_data: Path) -> None:
    path = shared_data / "connect4_pons" / "Test_L3_R1"
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    positions = read_pons_positions(path)
    assert [(p.moves, p.expected) for p in positions] == [(m, int(s)) for m, s in lines]
    game = Connect4()
    for position in positions[:50]:  # the digits read as the generic move list reads them
        spaced = " ".join(position.moves)
        assert position.state.key() == position_from_moves(game, spaced).key()
        assert position.state.num_moves == len(position.moves)


def test_limit_reads_only_the_first_lines(shared_data: Path) -> None:
    path = shared_data / "connect4_pons" / "Test_L2_R1"
    first = path.read_text().split("\n", 3)[:3]
    assert [p.moves for p in read_pons_positions(path, limit=3)] == [
        line.split()[0] for line in first
    ]


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("4455 18\n4455\n", InvalidParameterError, ":2: expected '<moves> <score>'"),
        ("4455 x\n", InvalidParameterError, ":1: the score 'x' is not an integer"),
        ("4458 1\n", IllegalMoveError, ":1:"),
        ("1212121 0\n", InvalidStateError, "the game is already over (X won)"),
        ("\n\n", InvalidParameterError, "no positions"),
    ],
)
def test_a_bad_pons_line_is_one_error_naming_file_and_line(
    tmp_path: Path, text: str, error: type[Exception], words: str
) -> None:
    path = tmp_path / "pons.txt"
    path.write_text(text)
    with pytest.raises(error) as raised:
        read_pons_positions(path)
    assert words in str(raised.value)
    assert str(path) in str(raised.value) or words == "no positions"


def test_auto_format_reads_pons_lines_and_move_strings(shared_data: Path) -> None:
    pons = (shared_data / "connect4_pons" / "Test_L3_R1").read_text().splitlines()[0]
    moves, score = pons.split()
    text = f"{pons}\n# a comment\n\n4453\n"
    rows = parse_positions(Connect4(), text, "list.txt")
    assert [(line, m, s) for line, m, s, _ in rows] == [(1, moves, int(score)), (4, "4453", None)]
    assert rows[0][3].key() == position_from_moves(Connect4(), moves).key()


def test_moves_format_reads_the_whole_line_as_moves() -> None:
    # "4455 18": with form "moves" the score is read as a move, and column 18 does not exist
    with pytest.raises(IllegalMoveError, match=r"list\.txt:1:"):
        parse_positions(Connect4(), "4455 18\n", "list.txt", "moves")
    with pytest.raises(InvalidParameterError, match="expected 'MOVES SCORE'"):
        parse_positions(Connect4(), "4455\n", "list.txt", "pons")
    with pytest.raises(InvalidParameterError, match="must be one of auto, pons, moves"):
        parse_positions(Connect4(), "4455\n", "list.txt", "pgn")
