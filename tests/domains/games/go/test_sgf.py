"""SGF records of Go: hand-written records read as the FF[4] standard says (variations, escapes,
handicap, passes, set-up), exact round trips of our own output, every malformed case one line
with its place, and records read and written by two outside programs: sgfmill (an independent
SGF library) and GNU Go (``printsgf`` and ``loadsgf`` over GTP)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from needs import gnugo_program, require_module

from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.sgf import SgfFormatError, load_sgf, read_sgf, write_sgf


def vertices(state: GoState, actions: tuple[int, ...] | list[int]) -> list[str]:
    return [state.action_to_string(action) for action in actions]


def stones(state: GoState, colour: int) -> set[int]:
    return {point for point, value in enumerate(state.board) if value == colour}


def random_game(game: Go, seed: int, plies: int) -> GoState:
    """Eye-avoiding random play (captures happen), ending early with two passes sometimes."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        options = state.playout_actions()
        if rng.random() < 0.03:
            options = [game.pass_action]
        state = state.apply(rng.choice(options))
    return state


# -- reading hand-written records -------------------------------------------------------------
def test_moves_points_are_column_then_row_from_the_top() -> None:
    record = read_sgf("(;GM[1]FF[4]SZ[9];B[aa];W[ai];B[ia];W[ii];B[ee])")
    # aa is the top left corner: A9 in GTP notation; ai the bottom left: A1.
    assert vertices(record.final, record.moves) == ["A9", "A1", "J9", "J1", "E5"]
    assert record.game.size == 9 and record.game.komi == 0.0  # no KM: no komi
    assert len(record.states) == 6 and record.states[0] == record.start
    assert record.states[2].to_move == 0 and stones(record.states[2], 2) == {0}


def test_size_defaults_to_19_and_komi_is_read() -> None:
    record = read_sgf("(;FF[4]KM[6.5];B[pd])")
    assert record.game.size == 19 and record.game.komi == 6.5
    assert vertices(record.final, record.moves) == ["Q16"]


def test_the_main_line_is_the_first_variation_at_every_branch() -> None:
    text = """(;GM[1]FF[4]SZ[9]
        ;B[ee]
        (;W[cc] (;B[gg];W[gc]) (;B[cg]))
        (;W[gg];B[cc])
    )"""
    record = read_sgf(text)
    assert vertices(record.final, record.moves) == ["E5", "C7", "G3", "G7"]


def test_passes_are_empty_values_and_tt_up_to_19x19() -> None:
    record = read_sgf("(;SZ[9];B[ee];W[];B[cc];W[tt])")
    game = record.game
    assert record.moves == (4 * 9 + 4, game.pass_action, 6 * 9 + 2, game.pass_action)
    assert record.final.passes == 1 and not record.final.is_terminal()


def test_two_passes_end_the_game() -> None:
    record = read_sgf("(;SZ[9];B[ee];W[];B[])")
    assert record.final.is_terminal() and record.final.passes == 2


def test_escapes_in_text_values() -> None:
    text = (
        "(;SZ[9]PB[Ann \\] \\\\ Lee]PW[two\nlines]GN[soft\\\nbreak]"
        "C[a \\] would not end it: \\]\nsecond line\\\\]"
        ";B[ee]C[tab\there])"
    )
    record = read_sgf(text)
    assert record.metadata["PB"] == "Ann ] \\ Lee"
    assert record.metadata["PW"] == "two lines"  # SimpleText: a line break is a space
    assert record.metadata["GN"] == "softbreak"  # an escaped line break is removed
    assert record.comments == {0: "a ] would not end it: ]\nsecond line\\", 1: "tab here"}
    again = read_sgf(write_sgf(record.final, metadata=record.metadata, comments=record.comments))
    assert again.metadata == record.metadata and again.comments == record.comments


def test_metadata_keeps_the_root_properties_in_order() -> None:
    record = read_sgf(
        "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[B. Lack]PW[W. Hite]DT[2026-11-23]RE[W+R]EV[x])"
    )
    assert list(record.metadata) == ["RU", "PB", "PW", "DT", "RE", "EV"]
    assert record.metadata["RE"] == "W+R" and record.moves == ()


def test_fixed_handicap_is_the_games_handicap() -> None:
    handicap = Go(9, 0.5, handicap=3)
    points = "".join(
        f"[{'abcdefghi'[p % 9]}{'abcdefghi'[8 - p // 9]}]"
        for p in sorted(stones(handicap.initial_state(), 1))
    )
    record = read_sgf(f"(;GM[1]SZ[9]KM[0.5]HA[3]AB{points};W[ee])")
    assert record.game.handicap == 3
    assert record.start == handicap.initial_state()
    assert vertices(record.final, record.moves) == ["E5"]


def test_free_handicap_and_set_up_stones_are_a_position() -> None:
    text = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[0]HA[2]AB[bb][aa]PL[W]\n;W[cc]\n)\n"
    record = read_sgf(text)  # not GTP's fixed points: a free handicap
    assert record.game.handicap == 0 and record.metadata == {"HA": "2"}
    assert write_sgf(record.final, start=record.start, metadata=record.metadata) == text
    assert stones(record.start, 1) == {8 * 9 + 0, 7 * 9 + 1} and record.start.to_move == 1
    record = read_sgf("(;SZ[9]AB[aa:ab]AW[ii]AE[ab]PL[W])")  # compressed list, then removed
    assert stones(record.final, 1) == {8 * 9 + 0} and stones(record.final, 2) == {8}
    assert record.final.to_move == 1


def test_the_side_to_move_comes_from_the_first_move_without_pl() -> None:
    record = read_sgf("(;SZ[9]AB[ee];W[cc])")
    assert record.start.to_move == 1 and record.final.to_move == 0


KO = "(;SZ[5]AB[ba][ab][cb][bc]AW[ca][db][cc]PL[W];W[bb]"  # W takes the B stone at C4


def test_a_ko_capture_then_the_retake_after_a_move_elsewhere() -> None:
    record = read_sgf(KO + ";B[ee];W[ed];B[cb])")
    assert record.states[1].captures == (0, 1) and record.final.captures == (1, 1)
    assert record.states[1].ko_point == 3 * 5 + 2  # C4, the point of the taken stone
    assert record.final.board[3 * 5 + 1] == 0  # the white stone at B4 is taken back


def test_a_capture_in_the_record() -> None:
    record = read_sgf("(;SZ[5]AW[aa]AB[ba]PL[B];B[ab])")
    assert record.final.board[4 * 5 + 0] == 0  # the white corner stone (A5) is gone
    assert record.final.captures == (1, 0)


def test_state_at_a_move_number() -> None:
    record = read_sgf("(;SZ[9];B[ee];W[cc];B[gg])")
    assert record.state_at(0) == record.start and record.state_at(3) == record.final
    assert vertices(record.state_at(2), record.state_at(2).moves) == ["E5", "C7"]
    with pytest.raises(InvalidParameterError, match=r"move 4 is not in the record: .* 0\.\.3"):
        record.state_at(4)


def test_only_the_first_game_of_a_collection_is_read() -> None:
    record = read_sgf("(;SZ[9];B[ee]) (;SZ[13];B[aa])")
    assert record.game.size == 9


def test_node_properties_other_than_moves_are_left_out() -> None:
    record = read_sgf("(;SZ[9];B[ee]BL[30.5]OB[2]LB[cc:x]TR[dd][ff];W[cc]WL[20])")
    assert len(record.moves) == 2


def test_load_sgf_reads_a_latin_1_file(tmp_path: Path) -> None:
    path = tmp_path / "old.sgf"
    path.write_bytes("(;CA[ISO-8859-1]SZ[9]PB[Andr\xe9];B[ee])".encode("iso-8859-1"))
    assert load_sgf(path).metadata["PB"] == "Andr\xe9"
    path.write_bytes("(;SZ[9]PB[J\xfcrgen])".encode())
    assert load_sgf(path).metadata["PB"] == "J\xfcrgen"
    with pytest.raises(FileNotFoundError):
        load_sgf(tmp_path / "missing.sgf")


# -- writing, and exact round trips -------------------------------------------------------------
def test_written_record_is_the_expected_text() -> None:
    game = Go(9, 7.5)
    state = game.initial_state()
    for move in ("E5", "C3", "pass"):
        state = state.apply(state.string_to_action(move))
    text = write_sgf(state, metadata={"PB": "me", "PW": "mcts:time=1", "RE": "W+R"})
    assert text == (
        "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]PB[me]PW[mcts:time=1]RE[W+R]\n;B[ee];W[cg];B[]\n)\n"
    )


@pytest.mark.parametrize(
    ("size", "handicap", "seed"), [(5, 0, 1), (9, 0, 2), (9, 4, 3), (13, 0, 4), (19, 9, 5)]
)
def test_round_trip_of_random_games_is_exact(size: int, handicap: int, seed: int) -> None:
    game = Go(size, 6.5, handicap=handicap)
    state = random_game(game, seed, plies=3 * size * size // 2)
    comments = {0: "start [here]", 3: "a\\b", len(state.moves): "the end"}
    text = write_sgf(state, metadata={"PB": "a", "PW": "b", "RE": "B+0.5"}, comments=comments)
    record = read_sgf(text)
    assert record.game.handicap == handicap and record.final == state
    assert record.moves == state.moves and record.comments == comments
    again = write_sgf(
        record.final, start=record.start, metadata=record.metadata, comments=record.comments
    )
    assert again == text


def test_round_trip_of_a_set_up_position() -> None:
    game = Go(9, 7.5)
    start = game.position(black=["C3", "D4"], white=["E5"], to_move=1)
    state = start.apply(start.string_to_action("F6")).apply(start.game.pass_action)
    text = write_sgf(state, start=start)
    assert "AB[cg][df]AW[ee]PL[W]" in text
    record = read_sgf(text)
    assert record.start == start and record.final == state
    assert write_sgf(record.final, start=record.start) == text


def test_write_checks_its_arguments() -> None:
    game = Go(9, 7.5)
    state = game.initial_state().apply(40)
    with pytest.raises(InvalidParameterError, match="from the game"):
        write_sgf(state, metadata={"SZ": "13"})
    with pytest.raises(InvalidParameterError, match="bad property identifier"):
        write_sgf(state, metadata={"pb": "x"})
    with pytest.raises(InvalidParameterError, match=r"comments for moves \[5\]"):
        write_sgf(state, comments={5: "x"})
    other = Go(9, 7.5).initial_state().apply(41)
    with pytest.raises(InvalidParameterError, match="does not follow from start"):
        write_sgf(state, start=other)


# -- malformed records: one line naming the place ----------------------------------------------
MALFORMED = [
    ("(;SZ[9];B[ee]", "SGF:1:14", "unbalanced parentheses"),
    ("(;SZ[9];B[ee]))", "SGF:1:15", "unbalanced parentheses: ')' closes nothing"),
    ("(;SZ[9]\n;B[ee];b[cc])", "SGF:2:8", "bad property identifier 'b[cc])'"),
    ("(;SZ[9];B[ee]1[cc])", "SGF:1:14", "bad property identifier"),
    ("(;SZ[9];B[ee];W[cc)", "SGF:1:16", "unterminated value: 'W[cc)'"),
    ("(;SZ[9];B[ee];W)", "SGF:1:15", "property W has no value"),
    ("(;SZ[9];B[ej])", "SGF:1:10", "bad point 'ej' in B[ej]"),
    ("(;SZ[9];B[e])", "SGF:1:10", "bad point 'e'"),
    ("(;SZ[9]AB[zz])", "SGF:1:10", "bad point 'zz' in AB[zz]"),
    ("(;SZ[9];B[ee];W[ee])", "SGF:1:15", "move 2 W[ee] (E5) is illegal: occupied"),
    ("(;SZ[5]AW[ab][ba]PL[B];B[aa])", "SGF:1:24", "move 1 B[aa] (A5) is illegal: suicide"),
    ("(;SZ[9];B[ee];B[cc])", "SGF:1:15", "move 2 B[cc]: White is to play"),
    ("(;SZ[9];B[];W[];B[ee])", "SGF:1:17", "move 3 B[ee]: the game is already over"),
    ("(;GM[2]SZ[8])", "SGF:1:5", "GM[2] is not a Go record"),
    ("(;SZ[4])", "SGF:1:5", "SZ[4]: board size out of range"),
    ("(;SZ[21])", "SGF:1:5", "SZ[21]: board size out of range"),
    ("(;SZ[9:13])", "SGF:1:5", "SZ[9:13]: the board is not square"),
    ("(;SZ[nine])", "SGF:1:5", "SZ[nine]: expected a board size"),
    ("(;SZ[9]KM[seven])", "SGF:1:10", "KM[seven]: expected a number"),
    ("(;SZ[9]KM[7.3])", "SGF:1:8", "komi"),
    ("(;SZ[9]PL[X])", "SGF:1:10", "PL[X]: expected B or W"),
    ("(;SZ[9]B[ee]B[cc])", "SGF:1:13", "property B appears twice"),
    ("(;SZ[9];B[ee]W[cc])", "SGF:1:8", "one node holds both B and W"),
    ("(;SZ[9];B[ee];AB[cc])", "SGF:1:15", "AB after the first move"),
    ("(;SZ[9]AB[ee]AW[ee])", "SGF:1:14", "set up for both colours"),
    ("SZ[9]", "SGF:1:1", "not SGF"),
    ("", "SGF:1:1", "empty record"),
    ("()", "SGF:1:1", "empty game tree"),
    ("(;SZ[9]);B[ee]", "SGF:1:9", "unexpected text after the game"),
    ("(;SZ[9](;B[ee]);W[cc])", "SGF:1:16", "a node after a variation"),
]


@pytest.mark.parametrize(("text", "where", "problem"), MALFORMED)
def test_malformed_records_are_one_line_with_the_place(text: str, where: str, problem: str) -> None:
    with pytest.raises(SgfFormatError) as caught:
        read_sgf(text)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(where + ": "), message
    assert problem in message, message
    assert isinstance(caught.value, SearchlabError) and isinstance(caught.value, ValueError)


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.sgf"
    path.write_text("(;GM[1]FF[4]\nSZ[9]\n;B[ee]\n;W[ee])\n")
    with pytest.raises(
        SgfFormatError, match=r"^.*broken\.sgf:4:2: move 2 W\[ee\] \(E5\) is illegal"
    ):
        load_sgf(path)


def test_the_ko_retake_at_once_is_illegal_and_the_rule_is_passed_on() -> None:
    with pytest.raises(SgfFormatError, match=r"^SGF:1:52: move 2 B\[cb\] \(C4\) is illegal: ko$"):
        read_sgf(KO + ";B[cb])")
    assert read_sgf(KO + ")", superko="simple").game.superko == "simple"


# -- outside programs -----------------------------------------------------------------------------
def test_sgfmill_reads_our_records_the_same() -> None:
    sgf = require_module("sgfmill.sgf", "test")

    for seed, (size, handicap) in enumerate([(9, 0), (13, 3), (19, 0), (7, 0)]):
        game = Go(size, 7.5, handicap=handicap)
        state = random_game(game, seed, plies=size * size)
        text = write_sgf(state, metadata={"PB": "x ] y"})
        parsed = sgf.Sgf_game.from_string(text)
        assert parsed.get_size() == size and parsed.get_komi() == 7.5
        assert parsed.root.get("PB") == "x ] y"
        if handicap:
            assert parsed.get_handicap() == handicap
        black, white, _ = parsed.root.get_setup_stones()
        assert {r * size + c for r, c in black} == stones(game.initial_state(), 1)
        assert not white
        moves = []
        for node in parsed.get_main_sequence()[1:]:
            colour, point = node.get_move()
            moves.append(
                (colour, game.pass_action if point is None else point[0] * size + point[1])
            )
        assert moves == [("bw"[c], action) for c, action in _colours(game, state.moves)]


def test_records_sgfmill_writes_are_read() -> None:
    sgf = require_module("sgfmill.sgf", "test")

    game = Go(9, 7.5)
    state = random_game(game, 11, plies=60)
    record = sgf.Sgf_game(size=9)
    record.root.set("KM", 7.5)
    record.root.set("PB", "Lee [9p]")
    for index, action in enumerate(state.moves):
        node = record.extend_main_sequence()
        point = None if action == game.pass_action else divmod(action, 9)
        node.set_move("bw"[index % 2], point)
    ours = read_sgf(record.serialise().decode())
    assert ours.final == state and ours.metadata["PB"] == "Lee [9p]"


def _gtp(program: str, commands: list[str]) -> list[str]:
    """Run GNU Go on ``commands``; the answers (``= ...`` without the ``= ``), checked."""
    done = subprocess.run(
        [program, "--mode", "gtp"],
        input="\n".join([*commands, "quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [block for block in done.stdout.split("\n\n") if block.strip()]
    assert len(answers) == len(commands) + 1, done.stdout
    for command, answer in zip(commands, answers, strict=False):
        assert answer.startswith("="), f"{command}: {answer}"
    return [answer[1:].strip() for answer in answers[:-1]]


def _gtp_stones(answer: str, size: int) -> set[int]:
    return {Go(size).initial_state().string_to_action(vertex) for vertex in answer.split()}


@pytest.mark.parametrize(("size", "handicap", "seed"), [(9, 0, 21), (13, 2, 22), (19, 4, 23)])
def test_gnugo_printsgf_records_are_read(size: int, handicap: int, seed: int) -> None:
    program = gnugo_program()
    game = Go(size, 6.5, handicap=handicap)
    state = random_game(game, seed, plies=size * size)
    if state.is_terminal():  # GNU Go's record is of the position, the game may go on
        state = random_game(game, seed + 100, plies=size * size // 2)
    setup = [f"boardsize {size}", "komi 6.5"]
    if handicap:
        setup.append(f"fixed_handicap {handicap}")
    plays = [
        f"play {'bw'[colour]} {game.initial_state().action_to_string(action)}"
        for colour, action in _colours(game, state.moves)
    ]
    answers = _gtp(program, [*setup, *plays, "printsgf", "list_stones black", "list_stones white"])
    record = read_sgf(answers[-3])
    assert "GNU Go" in record.metadata["AP"]
    # GNU Go records the position without its prisoners, so (counting the Japanese way) it
    # moves the difference of the captures into the komi.
    black_took, white_took = state.captures
    assert record.game.size == size and record.game.komi == 6.5 + white_took - black_took
    assert stones(record.final, 1) == stones(state, 1) == _gtp_stones(answers[-2], size)
    assert stones(record.final, 2) == stones(state, 2) == _gtp_stones(answers[-1], size)
    assert record.final.to_move == state.to_move


def _colours(game: Go, moves: tuple[int, ...]) -> list[tuple[int, int]]:
    state = game.initial_state()
    pairs = []
    for action in moves:
        pairs.append((state.to_move, action))
        state = state.apply(action)
    return pairs


@pytest.mark.parametrize(("size", "handicap", "seed"), [(9, 0, 31), (13, 3, 32)])
def test_gnugo_loads_our_records_to_the_same_position(
    size: int, handicap: int, seed: int, tmp_path: Path
) -> None:
    program = gnugo_program()
    game = Go(size, 7.5, handicap=handicap)
    state = random_game(game, seed, plies=size * size)
    path = tmp_path / "game.sgf"
    path.write_text(write_sgf(state, metadata={"PB": "a", "PW": "b"}))
    answers = _gtp(program, [f"loadsgf {path}", "list_stones black", "list_stones white"])
    assert _gtp_stones(answers[1], size) == stones(state, 1)
    assert _gtp_stones(answers[2], size) == stones(state, 2)
    assert answers[0] == ("black", "white")[state.to_move]
