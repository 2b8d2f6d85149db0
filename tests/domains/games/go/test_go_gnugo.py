"""GNU Go as an oracle for the reference rules of Go (``domains/games/go/__init__.py``).

On seeded random games (5x5, 7x7, 9x9, several komis) played with eye-avoiding random moves
(:meth:`GoState.playout_actions`) until both players pass:

* **legality**: at every ply, the legal points of *both* colours agree with GNU Go's
  ``all_legal`` (ours: ``legal_actions`` of the position with that colour to move, basic ko
  only: ``superko="simple"``, which is what GNU Go checks); every point our rules forbid (the
  ko point, suicides) is also asked of GNU Go's ``is_legal`` one by one;
* **score**: the final area score agrees with GNU Go's ``final_score`` under
  ``--chinese-rules`` with the same komi (such games end with no dead stones on the board: every
  group left has two eyes, since a group with one eye is captured and a seki's shared liberty
  is filled).

One GNU Go process per test, reset with ``clear_board`` between games, each game's commands
sent at once (pipelined). GNU Go missing: the tests fail in CI (``CI=true``) and skip
elsewhere, saying so. ``scripts/test-deps.sh`` installs it (Debian package ``gnugo``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from needs import gnugo_program

from searchlab.agents.gtp_client import GtpEngine
from searchlab.domains.games.go import (
    BLACK,
    WHITE,
    Go,
    GoState,
    handicap_points,
    max_handicap,
    point_to_vertex,
    vertex_to_point,
)

KOMIS = (7.5, 0.5, 0.0, 5.5, 6.0)
# 2,400 games: about 50 s of CPU (ours ~30 s, GNU Go ~20 s, overlapped: each game is played
# while GNU Go checks the one before), so about 30-35 s on two free cores
GAMES = {5: 2000, 7: 300, 9: 100}


@pytest.fixture
def gnugo() -> Iterator[GtpEngine]:
    engine = GtpEngine(f"{gnugo_program()} --mode gtp --chinese-rules --level 0", timeout=120)
    try:
        assert engine.send("version").startswith("3.")
        yield engine
    finally:
        engine.close()


def colour_name(player: int) -> str:
    return "bw"[player]


def as_turn(state: GoState, player: int) -> GoState:
    """The position of ``state`` with ``player`` to move and no ko (a pass in between when it
    is the other player's turn; a hand-built position when a pass would end the game)."""
    if state.to_move == player:
        return state
    if state.passes == 0:
        return state.apply(state.game.pass_action)
    size = state.game.size
    black = [p for p in range(size * size) if state.board[p] == BLACK]
    white = [p for p in range(size * size) if state.board[p] == WHITE]
    return state.game.position(black=black, white=white, to_move=player)


@dataclass
class Check:
    """A question to GNU Go and what our rules answer."""

    ply: int
    command: str
    ours: object


@dataclass
class Game:
    """One random game, the commands replaying it to GNU Go and the checks along the way."""

    size: int
    komi: float
    seed: int
    state: GoState
    commands: list[str] = field(default_factory=list)
    checks: dict[int, Check] = field(default_factory=dict)  # index in commands -> check

    def ask(self, ply: int, command: str, ours: object) -> None:
        self.checks[len(self.commands)] = Check(ply, command, ours)
        self.commands.append(command)


def random_game(size: int, komi: float, seed: int, counts: dict[str, int]) -> Game:
    """Play a seeded eye-avoiding random game to two passes, with the checks of every ply."""
    go = Go(size, komi=komi, superko="simple", max_moves=20 * size * size)
    rng = random.Random(seed)
    state = go.initial_state()
    game = Game(size, komi, seed, state, ["clear_board", f"komi {komi:g}"])
    ply = 0
    while not state.is_terminal():
        empty = {p for p in range(size * size) if state.board[p] == 0}
        for player in (0, 1):
            turn = as_turn(state, player)
            legal = set(turn.legal_actions())
            legal.discard(go.pass_action)
            game.ask(ply, f"all_legal {colour_name(player)}", legal)
            for p in sorted(empty - legal):  # the empty points our rules forbid: ko, suicide
                counts["ko" if p == turn.ko_point else "suicide"] += 1
                game.ask(ply, f"is_legal {colour_name(player)} {point_to_vertex(p, size)}", 0)
        action = rng.choice(state.playout_actions())
        game.commands.append(f"play {colour_name(state.to_move)} {point_to_vertex(action, size)}")
        state = state.apply(action)
        ply += 1
    assert state.passes == 2, f"seed {seed}: the game hit the move limit, not two passes"
    game.state = state
    game.ask(ply, "final_score", state.area_score())
    return game


def parse(command: str, answer: str, size: int) -> object:
    """GNU Go's answer as our rules would say it."""
    if command.startswith("all_legal"):
        return {vertex_to_point(word, size) for word in answer.split()}
    if command.startswith("is_legal"):
        return int(answer)
    if answer == "0":
        return 0.0
    winner, _, points = answer.partition("+")
    assert winner in ("B", "W"), answer
    return float(points) * (1 if winner == "B" else -1)


def describe(game: Game, check: Check, theirs: object) -> str:
    """What disagreed, with the moves up to the ply and the board there."""
    size = game.size
    state = Go(size, komi=game.komi, superko="simple").initial_state()
    for action in game.state.moves[: check.ply]:
        state = state.apply(action)
    line = " ".join(state.action_to_string(a) for a in state.moves) or "(start)"
    if isinstance(theirs, set) and isinstance(check.ours, set):
        ours_only = sorted(point_to_vertex(p, size) for p in check.ours - theirs)
        theirs_only = sorted(point_to_vertex(p, size) for p in theirs - check.ours)
        diff = f"legal only for us: {ours_only}; only for GNU Go: {theirs_only}"
    else:
        diff = f"ours {check.ours!r}, GNU Go {theirs!r}"
    return (
        f"{size}x{size} komi {game.komi:g} seed {game.seed}, ply {check.ply}, "
        f"{check.command!r}: {diff}\nmoves: {line}\n{state}"
    )


@pytest.mark.parametrize("size", sorted(GAMES))
def test_legality_and_final_score_agree_with_gnugo(gnugo: GtpEngine, size: int) -> None:
    gnugo.send(f"boardsize {size}")
    counts = {"ko": 0, "suicide": 0}
    checked = {"all_legal": 0, "is_legal": 0, "final_score": 0}
    scores = set()

    def check(game: Game, answers: list[str]) -> None:
        for index, question in game.checks.items():
            theirs = parse(question.command, answers[index], size)
            assert theirs == question.ours, describe(game, question, theirs)
            checked[question.command.split()[0]] += 1
        scores.add(game.state.area_score())

    sent: Game | None = None
    for number in range(GAMES[size]):
        game = random_game(size, KOMIS[number % len(KOMIS)], 1000 * size + number, counts)
        if sent is not None:  # GNU Go answered the last game while this one was played
            check(sent, gnugo.collect())
        gnugo.submit(game.commands)
        sent = game
    assert sent is not None
    check(sent, gnugo.collect())
    # the checks reached what they are for: ko points, suicides, every ply, varied scores
    assert checked["final_score"] == GAMES[size]
    assert checked["all_legal"] > 2 * 10 * GAMES[size]
    assert counts["suicide"] > 0 and checked["is_legal"] == counts["ko"] + counts["suicide"]
    if size == 5:
        assert counts["ko"] > 0
        assert 0.0 in scores or any(s < 0 for s in scores)
    assert len(scores) > 3


def test_handicap_stones_are_gnugo_fixed_handicap(gnugo: GtpEngine) -> None:
    checked = 0
    for size in range(7, 20):
        gnugo.send(f"boardsize {size}")
        for stones in range(2, max_handicap(size) + 1):
            gnugo.send("clear_board")
            theirs = {
                vertex_to_point(v, size) for v in gnugo.send(f"fixed_handicap {stones}").split()
            }
            assert set(handicap_points(size, stones)) == theirs, (size, stones)
            checked += 1
    assert checked > 50
