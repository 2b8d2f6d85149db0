"""``searchlab gtp``: driven as a GTP controller drives an engine (a child process, commands
on its stdin, answers on its stdout), against our rules and against GNU Go; and the arena
playing GNU Go through the ``gtp`` agent kind."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from needs import gnugo_program

from searchlab.agents.gtp_client import GtpEngine, GtpError
from searchlab.agents.gtp_engine import COMMANDS, GtpServer
from searchlab.core.game import play
from searchlab.domains.games.go import Go, point_to_vertex, vertex_to_point

SEARCHLAB = f"{sys.executable} -m searchlab"
REQUIRED = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
            "boardsize", "clear_board", "komi", "play", "genmove")  # fmt: skip


class Controller:
    """A GTP controller's side of the pipe: one command, one answer (read to its blank line)."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "searchlab", "gtp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def raw(self, text: str) -> str:
        """Write ``text`` (one or more lines) and read one answer, blank line excluded."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            assert line, f"the engine closed its output; stderr: {self.stderr()}"
            if line == "\n" and lines:
                return "".join(lines).rstrip()
            lines.append(line)

    def ask(self, command: str) -> str:
        return self.raw(command + "\n")

    def stderr(self) -> str:
        if self.process.poll() is None:
            self.process.kill()
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def close(self) -> int:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
        return self.process.wait(timeout=30)


@pytest.fixture
def engine() -> Iterator[Controller]:
    controller = Controller("--agent", "random", "--size", "5", "--komi", "0.5")
    try:
        yield controller
    finally:
        controller.close()


def test_protocol_ids_comments_and_errors(engine: Controller) -> None:
    assert engine.ask("protocol_version") == "= 2"
    assert engine.ask("7 name") == "=7 searchlab"
    assert engine.ask("8 version").startswith("=8 ")
    listed = engine.ask("list_commands").removeprefix("= ").split("\n")
    assert set(REQUIRED) <= set(listed) and listed == list(COMMANDS)
    assert engine.ask("known_command genmove") == "= true"
    assert engine.ask("known_command teleport") == "= false"
    # comments, empty lines, tabs and control characters are dropped before the command
    assert engine.raw("\n# a comment line\n\n  9\tname  # trailing comment\n") == "=9 searchlab"
    assert engine.ask("10 na\x01me") == "=10 searchlab"
    assert engine.ask("11 frobnicate") == "?11 unknown command"
    assert engine.ask("12") == "?12 syntax error"
    assert engine.ask("boardsize") == "? syntax error"
    assert engine.ask("boardsize nine") == "? syntax error"
    assert engine.ask("13 boardsize 4") == "?13 unacceptable size"
    assert engine.ask("boardsize 20") == "? unacceptable size"
    assert engine.ask("komi lots") == "? syntax error"
    assert engine.ask("play purple C3") == "? syntax error (invalid color)"
    assert engine.ask("play b Z9") == "? syntax error (invalid coordinate)"
    assert engine.ask("play b I3") == "? syntax error (invalid coordinate)"  # no I column
    assert engine.ask("genmove") == "? syntax error"
    assert engine.ask("undo") == "? cannot undo"
    assert engine.ask("time_settings 1 2") == "? syntax error"
    assert engine.ask("14 quit") == "=14"
    assert engine.close() == 0


def test_a_game_as_a_controller_plays_it(engine: Controller) -> None:
    game = Go(5, komi=0.5)
    state = game.initial_state()
    assert engine.ask("clear_board") == "="
    for vertex in ["B1", "C1", "A2", "B2", "pass", "A1"]:
        colour = "bw"[state.to_move]
        assert engine.ask(f"play {colour} {vertex}") == "="
        state = play(state, vertex)
    assert engine.ask("play b A1") == "? illegal move (occupied)"
    assert engine.ask("play w A1") == "? illegal move (occupied)"
    board = engine.ask("showboard")
    assert board.startswith("= \n") and str(state).split("\n")[0] in board
    rng = random.Random(3)
    refused = {"suicide": 0, "ko": 0, "superko": 0}
    for _ in range(200):
        if state.is_terminal():
            break
        colour = "bw"[state.to_move]
        for point in range(25):  # what the engine refuses is what our rules refuse
            reason = state.illegal_reason(point)
            if reason in ("suicide", "ko", "superko"):
                refused[reason] += 1
                vertex = _vertex(point)
                assert engine.ask(f"play {colour} {vertex}") == f"? illegal move ({reason})"
        if rng.random() < 0.5:
            answer = engine.ask(f"genmove {colour}").removeprefix("= ")
            assert answer != "resign"
            action = vertex_to_point(answer, 5)
            assert state.is_legal(action), (answer, str(state))
        else:
            action = rng.choice(state.playout_actions())
            vertex = state.action_to_string(action)
            assert engine.ask(f"play {colour} {vertex}") == "="
        state = state.apply(action)
    assert refused["suicide"] > 0
    score = state.area_score()
    expected = "0" if score == 0 else f"{'B' if score > 0 else 'W'}+{abs(score):.1f}"
    assert engine.ask("final_score") == f"= {expected}"
    # undo walks back; the board follows
    moves = len(state.moves)
    for _ in range(3):
        assert engine.ask("undo") == "="
    back = game.initial_state()
    for action in state.moves[: moves - 3]:
        back = back.apply(action)
    assert str(back).split("\n")[:7] == engine.ask("showboard").split("\n")[1:8]


def _vertex(point: int) -> str:
    return point_to_vertex(point, 5)


def test_setup_commands(engine: Controller) -> None:
    assert engine.ask("boardsize 9") == "="
    assert engine.ask("komi 6.5") == "="
    assert engine.ask("fixed_handicap 10") == "? invalid number of stones"
    stones = engine.ask("fixed_handicap 4").removeprefix("= ").split()
    assert sorted(stones) == sorted(
        _vertex9(p) for p in Go(9, handicap=4).initial_state().game.handicap_stones
    )
    assert engine.ask("fixed_handicap 2") == "? board not empty"
    # white moves first after a handicap; a move for the colour not to move is accepted
    assert engine.ask("play b E5") == "="
    assert engine.ask("final_score") == f"= B+{81 - 6.5:.1f}"
    assert engine.ask("komi 0") == "="
    assert engine.ask("final_score") == "= B+81.0"
    assert engine.ask("clear_board") == "="
    assert engine.ask("final_score") == "= 0"
    # time: the agent is asked for a move within the time left
    assert engine.ask("time_settings 0 1 1") == "="
    assert engine.ask("time_left b 1 1") == "="
    assert engine.ask("genmove b").startswith("= ")
    assert engine.ask("reg_genmove w").startswith("= ")  # not played:
    assert engine.ask("undo") == "="
    assert engine.ask("undo") == "? cannot undo"


def _vertex9(point: int) -> str:
    return point_to_vertex(point, 9)


def test_loadsgf(engine: Controller, tmp_path: Path) -> None:
    record = tmp_path / "game.sgf"
    record.write_text("(;GM[1]FF[4]SZ[7]KM[5.5];B[dd];W[cc];B[ee])")
    assert engine.ask(f"loadsgf {record}") == "="
    board = engine.ask("showboard")
    assert "A B C D E F G" in board and "komi 5.5" in board and "white (O) to move" in board
    assert engine.ask(f"loadsgf {record} 2") == "="  # the position before move 2
    assert "white (O) to move" in engine.ask("showboard")
    assert engine.ask("undo") == "="
    assert engine.ask("undo") == "? cannot undo"
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[7];B[dd];W[dd])")
    answer = engine.ask(f"loadsgf {bad}")
    assert answer.startswith("? cannot load file") and "occupied" in answer
    assert engine.ask(f"loadsgf {tmp_path / 'missing.sgf'}").startswith("? cannot load file")


def test_server_in_process_agent_failure_is_one_line() -> None:
    class Broken:
        name = "broken"

        def act(self, state: object, limits: object = None) -> int:
            raise RuntimeError("the search\nfell over")

        def reset(self) -> None:
            pass

    server = GtpServer("broken", size=5, make_agent=lambda spec, game, seed: Broken())
    assert server.handle("3 genmove b") == "?3 the search fell over\n\n"
    assert server.handle("4 name") == "=4 searchlab\n\n"


def test_bad_command_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "gtp", "--agent", "minimax")
    assert_one_line_error(code, err, "unknown agent 'minimax'")
    code, _, err = run_main(capsys, "gtp", "--agent", "random", "--size", "3")
    assert_one_line_error(code, err, "size must be an integer in 5..19, got 3")
    code, _, err = run_main(capsys, "gtp", "--agent", "random", "--komi", "0.3")
    assert_one_line_error(code, err, "komi")


def test_gnugo_plays_searchlab_gtp_to_the_end() -> None:
    """GNU Go (level 0) and ``searchlab gtp --agent random`` play a 7x7 game, a controller
    relaying each move: each accepts every move of the other, and both count the same moves."""
    gnugo = GtpEngine(f"{gnugo_program()} --mode gtp --level 0 --chinese-rules", timeout=60)
    ours = GtpEngine(f"{SEARCHLAB} gtp --agent random --size 7", timeout=60)
    state = Go(7, komi=7.5).initial_state()
    try:
        for engine in (gnugo, ours):
            engine.send_many(["boardsize 7", "komi 7.5", "clear_board"])
        players = (gnugo, ours)
        while not state.is_terminal():
            colour = "bw"[state.to_move]
            mover, other = players[state.to_move], players[1 - state.to_move]
            answer = mover.send(f"genmove {colour}")
            if answer.lower() == "resign":
                break
            action = vertex_to_point(answer, 7)
            assert state.is_legal(action), (answer, str(state))
            other.send(f"play {colour} {answer}")
            state = state.apply(action)
        assert len(state.moves) > 10
        score = state.area_score()
        expected = "0" if score == 0 else f"{'B' if score > 0 else 'W'}+{abs(score):.1f}"
        assert ours.send("final_score") == expected
        occupied = next(p for p in range(49) if state.board[p])
        with pytest.raises(GtpError, match=r"illegal move \(occupied\)"):
            ours.send(f"play b {point_to_vertex(occupied, 7)}")
    finally:
        gnugo.close()
        ours.close()


@pytest.mark.usefixtures("gtp_registered")
def test_arena_against_gnugo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from searchlab.arena.store import ArenaStore

    db = tmp_path / "go.sqlite"
    gnugo = f"gtp:command={gnugo_program()} --mode gtp --level 0"
    code, out, err = run_main(
        capsys, "arena", "go", "random", gnugo, "--games", "2", "-p", "size=5",
        "--db", db, "--move-time", "1",
    )  # fmt: skip
    assert code == 0, err
    assert "played 2 of 2 scheduled games" in out
    with ArenaStore.open(str(db)) as store:
        records = store.records(game="go(size=5)")
    assert len(records) == 2
    for record in records:
        assert record.termination in ("end", "resign"), record
        replay = Go(5).initial_state()
        for move in (*record.opening, *record.moves):
            replay = replay.apply(replay.string_to_action(move))
    # a missing engine is one line before any game
    code, _, err = run_main(
        capsys,
        "arena",
        "go",
        "random",
        "gtp:command=no-such-gnugo --mode gtp",
        "--games",
        "2",
        "--db",
        db,
    )
    assert_one_line_error(code, err, "no program 'no-such-gnugo' on PATH")


def test_time_settings_give_each_move_a_share() -> None:
    seen: list[object] = []

    class Recorder:
        name = "recorder"

        def act(self, state: object, limits: object = None) -> int:
            seen.append(None if limits is None else limits.time)  # type: ignore[attr-defined]
            return state.game.pass_action  # type: ignore[attr-defined]

        def reset(self) -> None:
            pass

    server = GtpServer("recorder", size=5, make_agent=lambda spec, game, seed: Recorder())
    commands = [
        "genmove b",  # no time settings: the agent's own budget
        "time_settings 0 5 1",  # byo-yomi: 5 s per move
        "genmove w",
        "time_settings 60 0 0",  # absolute: 60 s, then a twentieth of the time left
        "genmove b",
        "time_left b 30 0",
        "genmove b",
        "time_settings 0 10 0",  # byo-yomi with no stones: no limit, as GTP says
        "genmove w",
        "time_settings 10 30 5",  # main time, then 30 s per 5 stones
        "time_left w 10 5",  # in byo-yomi: 10 s for 5 stones
        "genmove w",
    ]
    for command in commands:
        answer = server.handle(command)
        assert answer is not None and answer.startswith("= "), (command, answer)
    # each share is used for 90 % less 0.05 s (the pipe, the controller's clock)
    expected = [None, 5 * 0.9 - 0.05, 3 * 0.9 - 0.05, 1.5 * 0.9 - 0.05, None, 2 * 0.9 - 0.05]
    assert seen == pytest.approx(expected)


def test_the_human_agent_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "gtp", "--agent", "human")
    assert_one_line_error(code, err, "the human agent cannot play here")


# -- passing when passing keeps the win, resigning below --resign-below (agents/go_endgame.py) -----
def _position(server: GtpServer, black: list[str], white: list[str]) -> None:
    """Place the stones with ``play`` (each colour may play out of turn), black to move."""
    for colour, vertices in (("b", black), ("w", white)):
        for vertex in vertices:
            assert server.handle(f"play {colour} {vertex}") == "= \n\n"
    if white:
        assert server.state.to_move == 0


COLUMNS = ([f"B{row}" for row in range(1, 6)], [f"C{row}" for row in range(1, 6)])
WHITE_BOARD = [f"{col}{row}" for col in "BC" for row in range(1, 6)] + ["A1", "A3", "A5"]


def test_genmove_passes_after_the_opponent_passes_when_the_count_wins() -> None:
    server = GtpServer("mcts:simulations=300", size=5, komi=0.5)
    _position(server, *COLUMNS)  # white's C column against black's B column: W+5.5
    assert server.handle("play b pass") == "= \n\n"
    # the compiled search's tree ranks the pass last: before the rule it filled its own area
    assert server.handle("genmove w") == "= pass\n\n"
    assert server.state.is_terminal() and server.handle("final_score") == "= W+5.5\n\n"


def test_genmove_resigns_below_resign_below_and_never_without_it() -> None:
    answers: dict[float | None, tuple[str | None, str | None]] = {}
    for resign_below in (-0.5, None):
        server = GtpServer("mcts:simulations=300", size=5, komi=0.5, resign_below=resign_below)
        _position(server, [], WHITE_BOARD)  # black can take at most D and E: lost
        first = server.handle("genmove b")
        server.handle("play w pass")
        answers[resign_below] = (first, server.handle("genmove b"))
    first, second = answers[-0.5]
    assert first not in ("= resign\n\n", "= pass\n\n")  # one bad move is not enough
    assert second == "= resign\n\n"
    assert "resign" not in str(answers[None])


def test_under_a_clock_the_search_and_the_pass_search_share_the_move_time() -> None:
    from searchlab.agents.search import MCTSAgent
    from searchlab.core.limits import Limits

    seen: list[object] = []

    class Recording(MCTSAgent):
        def act(self, state: object, limits: Limits | None = None) -> int:
            seen.append(None if limits is None else limits.time)
            return super().act(state, limits)  # type: ignore[arg-type]

    def make(spec: object, game: Go, seed: int) -> Recording:
        return Recording("recording", game, limits=Limits(simulations=300), seed=seed)

    server = GtpServer("recording", size=5, komi=0.5, make_agent=make)
    _position(server, [], [*WHITE_BOARD, *(f"D{row}" for row in range(1, 6))])
    assert server.handle("time_settings 0 0.5 1") == "= \n\n"  # 0.5 s a move, 0.4 s used
    # no neutral point, white ahead: the move's search and the search after a pass, each half
    assert server.handle("genmove w") == "= pass\n\n"
    assert seen == pytest.approx([0.2, 0.2])


def test_resign_below_must_be_a_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "gtp", "--agent", "random", "--resign-below", "2")
    assert_one_line_error(code, err, "--resign-below takes", "got '2'")
