"""The ``gtp`` agent kind: syncing an engine to the game, its answers, its failures, and the
arena recording a resigned, crashed or hung engine's game as lost by it."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from hang_guard import hang_guard
from needs import gnugo_program

from searchlab.agents import AgentRegistry, Resign
from searchlab.agents.gtp_agent import GTP_KIND, GtpAgent
from searchlab.agents.gtp_client import (
    EngineCrashed,
    EngineNotFound,
    EngineProtocolError,
    EngineTimeout,
)
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.go import Go, vertex_to_point
from searchlab.domains.games.tictactoe import TicTacToe

# A GTP engine that writes every command it gets to LOG and answers `genmove` with the next
# of its ANSWERS (cycling): a vertex, "pass", "resign", or "!hang" (never answers), "!die"
# (exits), "!babble" (not GTP). Every other command succeeds with an empty answer, except
# fixed_handicap (the vertices in env FAKE_HANDICAP) and list_commands.
FAKE = r"""
import os, sys, time
log = open(sys.argv[1], "a")
answers = sys.argv[2].split("+")
turn = 0
for raw in sys.stdin:
    parts = raw.split()
    if not parts:
        continue
    ident, command = parts[0], parts[1:]
    log.write(" ".join(command) + "\n"); log.flush()
    text = ""
    if command[0] == "genmove":
        text = answers[turn % len(answers)]
        turn += 1
        if text == "!hang":
            time.sleep(600)
        if text == "!die":
            sys.exit(5)
        if text == "!babble":
            sys.stdout.write("what?\n\n"); sys.stdout.flush(); continue
    elif command[0] == "fixed_handicap":
        text = os.environ.get("FAKE_HANDICAP", "")
    elif command[0] == "list_commands":
        text = "\n".join(["boardsize", "komi", "clear_board", "play", "genmove",
                          "time_settings", "time_left", "fixed_handicap", "quit"])
    elif command[0] == "quit":
        sys.stdout.write("=" + ident + "\n\n"); sys.stdout.flush(); break
    sys.stdout.write("=" + ident + " " + text + "\n\n")
    sys.stdout.flush()
"""


class Fake:
    """A fake engine's command line and the commands it received."""

    def __init__(self, tmp_path: Path, answers: str) -> None:
        script = tmp_path / "fake_engine.py"
        script.write_text(FAKE)
        self.log = tmp_path / "commands.log"
        self.command = f"{sys.executable} {script} {self.log} {answers}"

    def commands(self) -> list[str]:
        if not self.log.exists():
            return []
        return self.log.read_text().splitlines()

    def clear(self) -> None:
        self.log.write_text("")


def registry() -> AgentRegistry:
    return AgentRegistry([GTP_KIND])


def test_spec_checks() -> None:
    go = Go(5)
    with pytest.raises(InvalidParameterError, match="needs command="):
        registry().make("gtp", go)
    with pytest.raises(InvalidParameterError, match=r"plays Go only \(GTP\), not 'tictactoe'"):
        registry().make("gtp:command=cat", TicTacToe())
    with pytest.raises(EngineNotFound, match="no program 'nonexistent-engine' on PATH"):
        registry().make("gtp:command=nonexistent-engine --mode gtp", go)
    with pytest.raises(InvalidParameterError, match="timeout must be > 0"):
        registry().make("gtp:command=cat,timeout=0", go)
    with pytest.raises(UnknownNameError, match="unknown parameter 'level'"):
        registry().make("gtp:command=cat,level=3", go)
    agent = registry().make("gtp:command=cat,timeout=2.5,clock=false,label=kitty", go)
    assert isinstance(agent, GtpAgent)
    assert (agent.timeout, agent.clock, agent.engine.name) == (2.5, False, "kitty")
    assert not agent.engine.is_running  # started by the first move only


def test_sync_is_incremental_and_restarts_when_the_game_changes(tmp_path: Path) -> None:
    fake = Fake(tmp_path, "C3+pass+D4")
    game = Go(5, komi=0.5)
    agent = GtpAgent("gtp", fake.command, timeout=20, clock=False)
    state = game.initial_state()
    action = agent.act(state)
    assert state.action_to_string(action) == "C3"
    # a fresh engine is first asked for its protocol version (the handshake)
    assert fake.commands() == ["protocol_version", "boardsize 5", "komi 0.5", "clear_board",
                               "genmove b"]  # fmt: skip
    fake.clear()
    state = play(state, "C3 B2")
    assert state.action_to_string(agent.act(state)) == "pass"  # the engine's own C3 is known
    assert fake.commands() == ["play w B2", "genmove b"]
    fake.clear()
    # another line from the start: the engine is set up again, every move sent
    other = play(game.initial_state(), "A1 E5 B1")
    assert other.action_to_string(agent.act(other)) == "D4"
    assert fake.commands() == ["boardsize 5", "komi 0.5", "clear_board", "play b A1",
                               "play w E5", "play b B1", "genmove w"]  # fmt: skip
    fake.clear()
    # a new game (reset) stops the engine; the next move starts a fresh one
    pid = agent.engine.pid
    agent.reset()
    assert not agent.engine.is_running and pid is not None
    assert fake.commands() == ["quit"]  # asked to quit before it is killed
    fake.clear()
    agent.act(game.initial_state())
    assert fake.commands()[:4] == ["protocol_version", "boardsize 5", "komi 0.5", "clear_board"]
    agent.close()
    assert not agent.engine.is_running


def test_handicap_komi_time_and_hand_built_positions(tmp_path: Path) -> None:
    game = Go(9, komi=0, handicap=2)
    stones = sorted(
        game.initial_state().action_to_string(p)
        for p, colour in enumerate(game.initial_state().board)
        if colour == 1
    )
    os.environ["FAKE_HANDICAP"] = " ".join(stones)
    try:
        fake = Fake(tmp_path, "E5")
        agent = GtpAgent("gtp", fake.command, timeout=20)
        agent.act(game.initial_state(), Limits(time=0.3))
        assert fake.commands() == ["protocol_version", "list_commands", "boardsize 9", "komi 0",
                                   "clear_board", "fixed_handicap 2", "time_settings 0 1 1",
                                   "time_left w 1 1", "genmove w"]  # fmt: skip
        agent.close()
        # an engine that places other handicap stones is caught
        os.environ["FAKE_HANDICAP"] = "A1 B1"
        agent = GtpAgent("gtp", fake.command, timeout=20)
        with pytest.raises(EngineProtocolError, match="not the game's handicap stones"):
            agent.act(game.initial_state())
        agent.close()
    finally:
        del os.environ["FAKE_HANDICAP"]
    # a hand-built position (no moves) is set up stone by stone
    fake.clear()
    position = Go(5).position(black=["A1", "C3"], white=["B2"], to_move="white")
    agent = GtpAgent("gtp", fake.command, timeout=20, clock=False)
    agent.act(position)
    assert fake.commands()[-4:] == ["play b A1", "play b C3", "play w B2", "genmove w"]
    agent.close()


def test_resign_pass_and_superko(tmp_path: Path) -> None:
    fake = Fake(tmp_path, "resign")
    agent = GtpAgent("gtp", fake.command, timeout=20)
    with pytest.raises(Resign, match="the engine answered resign"):
        agent.act(Go(5).initial_state())
    agent.close()
    # a move the engine's basic ko allows but positional superko forbids becomes a pass
    # (a line found by random play: B5 for black would repeat an earlier whole board)
    game = Go(5, superko="positional")
    state = play(game.initial_state(), "D3 C3 D5 E4 B5 B4 C2 A3 C4 C1 B3 E3 B2 E1 D2 A4 A5 C5")
    vertex = "B5"
    assert state.illegal_reason(vertex_to_point(vertex, 5)) == "superko"
    fake = Fake(tmp_path, vertex)
    agent = GtpAgent("gtp", fake.command, timeout=20, clock=False)
    assert agent.act(state) == game.pass_action
    fake.clear()
    agent.act(state)  # set up again from the start
    assert fake.commands()[:3] == ["boardsize 5", "komi 7.5", "clear_board"]
    agent.close()


@pytest.mark.parametrize(
    ("answer", "error", "pattern"),
    [
        ("Z9", EngineProtocolError, r"answered 'genmove b' with 'Z9', not a move on the 5x5"),
        ("!babble", EngineProtocolError, r"with 'what\?', not a GTP response"),
        ("!die", EngineCrashed, r"exited with code 5 during 'genmove b'"),
        ("!hang", EngineTimeout, r"did not answer 'genmove b' within 1.5 s"),
    ],
)
def test_broken_engines_raise_one_clear_error(
    tmp_path: Path, answer: str, error: type[Exception], pattern: str
) -> None:
    fake = Fake(tmp_path, answer)
    agent = GtpAgent("gtp", fake.command, timeout=1.5)
    # "!hang" sleeps 600 s: only the 1.5 s timeout ends it (the message names that budget)
    with hang_guard("a broken engine"), pytest.raises(error, match=pattern):
        agent.act(Go(5).initial_state())
    agent.close()
    assert not agent.engine.is_running


def test_gnugo_plays_a_legal_game() -> None:
    gnugo = gnugo_program()
    game = Go(5, komi=0.5, superko="simple")
    agent = GtpAgent("gnugo", f"{gnugo} --mode gtp --level 0", timeout=30)
    from searchlab.agents.simple import RandomAgent

    other = RandomAgent("random", seed=4)
    state = game.initial_state()
    try:
        while not state.is_terminal():
            mover = agent if state.current_player() == 0 else other
            try:
                action = mover.act(state)
            except Resign:
                break
            assert state.is_legal(action), state.action_to_string(action)
            state = state.apply(action)
        pid = agent.engine.pid
        assert pid is not None and len(state.moves) > 4
    finally:
        agent.close()
    assert not agent.engine.is_running


@pytest.mark.usefixtures("gtp_registered")
@pytest.mark.parametrize(
    ("answers", "termination", "pattern"),
    [
        ("resign", "resign", r"resigned \(the engine answered resign\)$"),
        # "!die" at the first genmove: the random side's moves follow a seed drawn from the job
        # key, which holds the fake's temporary path, so a scripted first vertex (C3) could be
        # one it has already taken (an illegal move, not a crash) in one run in 25
        ("!die", "error", r": EngineCrashed: GTP engine .* exited with code 5 during"),
        ("!hang", "error", r": EngineTimeout: GTP engine .* did not answer 'genmove [bw]' within"),
        ("!babble", "error", r": EngineProtocolError: .* not a GTP response"),
        ("E5+E5+E5", "illegal move", r"answered 24, not legal after"),
    ],
)
def test_arena_records_a_failing_engine_as_its_loss(
    tmp_path: Path, answers: str, termination: str, pattern: str
) -> None:
    from searchlab.arena.runner import run_tournament
    from searchlab.arena.schedule import round_robin
    from searchlab.arena.store import ArenaStore

    fake = Fake(tmp_path, answers)
    spec = f"gtp:command={fake.command},timeout=1"
    jobs = round_robin("go", ["random", spec], 2, seed=1, openings=0, game_params={"size": 5})
    # "!hang" sleeps 600 s: only the 1 s timeout ends each game (the error names it)
    guard = hang_guard("a tournament against a failing engine")
    with guard, ArenaStore.open(str(tmp_path / "arena.sqlite")) as store:
        summary = run_tournament(jobs, store)
        records = store.records(game=jobs[0].game_id)
    assert summary.played == 2 and len(records) == 2
    # a resignation is a result; every other failure is a forfeit
    assert summary.forfeits == (0 if termination == "resign" else 2)
    for record in records:
        assert record.termination == termination, record
        assert re.search(pattern, record.error or ""), record.error
        gtp_first = record.first.startswith("gtp")
        assert record.result == ("0-1" if gtp_first else "1-0")  # the engine's side lost
        assert set(record.movers) <= {0, 1}
    # no engine process is left behind by the games
    assert not [line for line in _processes() if str(fake.log) in line]


def _processes() -> list[str]:
    lines = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    command = handle.read().replace(b"\0", b" ").decode(errors="replace")
                with open(f"/proc/{entry}/stat") as handle:
                    zombie = handle.read().split(")")[-1].split()[0] == "Z"
            except OSError:
                continue
            if not zombie:
                lines.append(command)
    return lines


# Engines that cannot play: a typo in the options (two lines on stderr, exit 1), a program that
# echoes (not GTP), one that never answers, one that refuses the board size.
BROKEN = {
    "typo": "import sys; sys.stderr.write('engine: unrecognized option --levle\\nTry --help\\n');"
    " sys.exit(1)",
    "echo": "import sys\nfor line in sys.stdin: print(line, end='', flush=True)",
    "mute": "import time; time.sleep(60)",
    "small": "import sys\nfor line in sys.stdin:\n ident, word = line.split()[:2]\n"
    " ok = '?' if word == 'boardsize' else '='\n"
    " print(ok + ident + (' unacceptable size' if ok == '?' else ''), end='\\n\\n', flush=True)",
}


def broken_engine(tmp_path: Path, kind: str) -> str:
    script = tmp_path / f"{kind}.py"
    script.write_text(BROKEN[kind])
    return f"{sys.executable} {script}"


@pytest.mark.usefixtures("gtp_registered")
@pytest.mark.parametrize(
    ("kind", "pattern"),
    [
        ("typo", r"exited with code 1 during 'protocol_version': engine: unrecognized option "
                 r"--levle / Try --help \(at its start, before any move\)$"),
        ("echo", r"answered 'protocol_version' with '1 protocol_version', not a GTP response"),
        ("mute", r"did not answer 'protocol_version' within 1 s"),
    ],
)  # fmt: skip
def test_an_engine_that_fails_its_handshake_is_a_setup_error_not_a_lost_game(
    tmp_path: Path, kind: str, pattern: str
) -> None:
    from searchlab.agents.gtp_client import EngineSetupError
    from searchlab.arena.runner import run_tournament
    from searchlab.arena.schedule import round_robin
    from searchlab.arena.store import ArenaStore
    from searchlab.core.errors import AgentSetupError

    command = broken_engine(tmp_path, kind)
    agent = GtpAgent("gtp", command, timeout=1)
    with pytest.raises(EngineSetupError, match=pattern):
        agent.act(Go(5).initial_state())
    assert not agent.engine.is_running
    with pytest.raises(EngineSetupError, match=pattern):
        agent.check_ready(Go(5))
    # in a tournament (the library's, without the command line's check): no game is stored
    spec = f"gtp:command={command},timeout=1"
    jobs = round_robin("go", ["random", spec], 2, seed=1, openings=0, game_params={"size": 5})
    with ArenaStore.open(":memory:") as store:
        with pytest.raises(AgentSetupError, match=pattern):
            run_tournament(jobs, store)
        assert store.count() == 0
    assert not [line for line in _processes() if str(tmp_path) in line]


def test_check_ready_shakes_hands_and_asks_for_the_board_size(tmp_path: Path) -> None:
    from searchlab.agents.gtp_client import EngineSetupError

    fake = Fake(tmp_path, "C3")
    agent = GtpAgent("gtp", fake.command, timeout=20)
    agent.check_ready(Go(7))
    assert fake.commands() == ["protocol_version", "boardsize 7", "quit"]
    assert not agent.engine.is_running  # stopped: the first move starts it afresh
    agent = GtpAgent("gtp", broken_engine(tmp_path, "small"), timeout=20)
    with pytest.raises(EngineSetupError, match=r"refused 'boardsize 5': unacceptable size"):
        agent.check_ready(Go(5))
    assert not agent.engine.is_running
