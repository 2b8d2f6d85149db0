"""``searchlab play GAME [--first SPEC] [--second SPEC] [--save FILE] [--load FILE]``: play
against the AI in the terminal.

  searchlab play connect4                                  # you (first) against mcts:time=1
  searchlab play connect4 --second az                      # against the shipped network
  searchlab play tictactoe --first alphabeta --second human
  searchlab play othello --first mcts:time=0.5 --second alphabeta:depth=4 --analysis
  searchlab play nim -p piles=3,4,5 --second mcts:simulations=2000,solver=true
  searchlab play snakego -p size=8 -p rounds=30 -p seed=3 --second mcts:time=0.5
  searchlab play snakego -p size=8 -p items=@items.txt --first greedy --second random
  searchlab play connect4 --save game.txt                  # the game kept in game.txt
  searchlab play --load game.txt --save game.txt           # go on where it stopped
  searchlab play go -p size=13 -p handicap=2 --second mcts:time=2 --save game.sgf
  searchlab play go --load game.sgf                        # any SGF: on from its last move

Each turn shows the board. A person types a move in the game's notation (Connect Four: the
column 1..7; tic-tac-toe and Othello: a square such as b2 or d3; Nim: pile:count; Snake Go:
up, down, left, right (u, d, l, r), split or ray for the snake the prompt names), or
"moves", "undo" (take back your last move), "resign", "help". An illegal move is
rejected with the reason and asked again. End of input (Ctrl-D, or the end of piped moves)
resigns for the person to move ("... resigns (end of input): ... wins"); a finished game,
resigned or not, exits with 0. With --analysis each AI move also shows its
principal variation or the root's children (visits, values, and the network's prior for az).

--save FILE keeps the game in FILE, rewritten after every move (and after undo), so that a
Ctrl-C, the end of input or a crash loses nothing; at the end it gets the result (the end of
input leaves it unfinished, "*"). Go is saved as SGF, every other game as a text record (the
game, its parameters, the players, the result, the date, then the moves; see
docs/games/records.md). --load FILE goes on from the last move of a saved game: the game, its
parameters and the moves come from the file (GAME may be left out; -p may only repeat the
record's values), the players too unless --first or --second is given, and the moves are
numbered on from the file's, the final list having them all. --load does not write the file:
add --save FILE (the same file or another) to keep recording.

Snake Go: on a turn each of your snakes acts once, so you are asked once per snake ("snake A
to act: up/down/right/split> "); -p seed=S draws the items (-p items=@FILE reads them, one
"x y time type param" per line); the end shows both scores.

Go: --first is Black, --second White (with a handicap White moves first). A move is a point,
column letter (no I) then row from the bottom (D4, d4), or pass; undo takes back your last move
and the reply. Two passes end the game; then the dead stones are settled by playing out and
the score is Tromp-Taylor area with komi: by default random play-outs from the final position
(the engine's eye-avoiding rollouts) remove the chains that end as the opponent's in most of
them; --settle SPEC has that engine's search play both sides until two passes instead;
--settle none scores the board as it stands. --sgf FILE is --save FILE; --load reads any SGF
file (its main line; -p superko=... chooses the superko rule, the size, komi and handicap come
from the file). An engine passes when you have passed and the game scored now is its win (or
when passing is worth as much as its move and no neutral point is left); --resign-below V
makes it resign when its search's value (-1 lost, +1 won) was below V at two of its moves in a
row.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from searchlab.cli._common import (
    add_game_argument,
    add_json_argument,
    add_param_argument,
    emit_json,
)
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.domains.games.players import players

__all__ = ["register"]

DEFAULT_OPPONENT = "mcts:time=1"

OPPONENTS = {"snakego": "greedy"}
"""Games whose default opponent is another agent: on Snake Go ``greedy`` (one ply of
``SnakeGoEvaluation``) won every half against MCTS with informed rollouts at 16 and 64
simulations and at 0.25 s a move (docs/games/snakego.md, 'Against greedy')."""


def default_opponent(game: str) -> str:
    """The agent ``play GAME`` puts against you when ``--second`` is left out.

    >>> default_opponent("connect4"), default_opponent("snakego")
    ('mcts:time=1', 'greedy')
    """
    return OPPONENTS.get(game, DEFAULT_OPPONENT)


def register(subparsers: Any) -> None:
    """Add ``play`` to the ``searchlab`` command line."""
    doc = __doc__ or ""
    examples, rest = doc.split("\n\n")[1], "\n\n".join(doc.split("\n\n")[2:])
    parser = subparsers.add_parser(
        "play",
        help="play a game against the AI (or watch two agents play)",
        description="Play a game in the terminal: a person against an agent, or agent against "
        "agent.\n\n" + rest,
        epilog="examples:\n" + examples + "\n\n"
        "agents: human, random, greedy, alphabeta:depth=D|time=S, flatmc:simulations=N|time=S,\n"
        "        mcts:simulations=N|time=S[,c=C,rollout=informed,solver=true,reuse=true,...],\n"
        "        az[:checkpoint=FILE|DIR,simulations=N] (network + PUCT; no checkpoint: the\n"
        "        Connect Four network shipped in searchlab, learning/checkpoints/connect4.ckpt)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(parser)
    parser.add_argument(
        "--first",
        help="agent moving first (default: the record's with --load, else human)",
    )
    parser.add_argument(
        "--second",
        help=(
            "agent moving second (default: the record's with --load, else "
            f"{DEFAULT_OPPONENT}; greedy on Snake Go, the strongest measured there)"
        ),
    )
    add_param_argument(parser)
    parser.add_argument("--moves", default="", help="start from the position after these moves")
    parser.add_argument("--seed", type=int, default=0, help="seed of the agents (default 0)")
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="show each AI move's line or root children (visits, values; priors for az)",
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="save the game in FILE after every move (Go: SGF; other games: a text record)",
    )
    parser.add_argument("--sgf", metavar="FILE", help="Go: the same as --save")
    parser.add_argument(
        "--load",
        metavar="FILE",
        help="continue the game saved in FILE (by --save; for Go any SGF file)",
    )
    parser.add_argument(
        "--settle",
        metavar="SPEC",
        help="Go: how dead stones are settled at the end: 'playouts' (default: random "
        "play-outs judge them), an agent spec (its search plays both sides until two "
        "passes) or 'none' (score the board as it stands)",
    )
    parser.add_argument(
        "--resign-below",
        metavar="V",
        help="Go: an engine resigns when its search's value (-1 lost .. +1 won) was below V "
        "at two of its moves in a row, e.g. -0.9 (default: it never resigns)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the final position")
    add_json_argument(parser, "print the game as one JSON object at the end (implies --quiet)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play one game."""
    from searchlab.agents import HumanAgent, make_agent, parse_spec
    from searchlab.agents.human import notation_of
    from searchlab.cli._common import parse_params

    params = parse_params(args.param)
    game, state, earlier, loaded = _start(args, params)
    name = loaded.game_name if loaded is not None else args.game
    go_options = [
        option
        for option, value in (
            ("--sgf", args.sgf),
            ("--settle", args.settle),
            ("--resign-below", args.resign_below),
        )
        if value is not None
    ]
    if go_options and game.info.name != "go":
        raise InvalidParameterError(f"{go_options[0]} is for Go: use 'play go', not {name!r}")
    if state.is_terminal():
        where = f"after {args.moves!r}" if args.moves else "at the start (check -p)"
        if args.load is not None:
            where = f"in {args.load}"
        raise InvalidStateError(f"the game is already over {where}: nothing to play")
    players = _players(args, loaded, game.info.name)
    specs = [parse_spec(players[0]), parse_spec(players[1])]  # parsed once, here
    if args.json and "human" in (specs[0].kind, specs[1].kind):
        raise InvalidParameterError("--json plays agent against agent: give --first and --second")
    agents = [
        make_agent(specs[0], game, seed=args.seed),
        make_agent(specs[1], game, seed=args.seed + 1),
    ]
    recorder = _recorder(args, name, params, game, loaded, agents)
    quiet = args.quiet or args.json
    go = endgame = None
    if game.info.name == "go":
        from searchlab.agents.go_endgame import GoEndgame, resign_threshold
        from searchlab.agents.go_settle import GoSettler

        resign_below = None if args.resign_below is None else resign_threshold(args.resign_below)
        go = GoSettler.from_option(args.settle, game, args.seed + 2)
        # the engines pass when passing keeps the win, and resign below --resign-below; the
        # settling play-outs are those of the final count (same seed)
        endgame = GoEndgame(resign_below=resign_below, settle=go.spec is not None, seed=go.seed)
    session = _Session(
        state,
        agents,
        quiet=quiet,
        analysis=args.analysis,
        as_json=args.json,
        game=game,
        go=go,
        earlier=earlier,
        endgame=endgame,
        recorder=recorder,
    )
    session.record()  # the game so far, before the first move
    for index, agent in enumerate(agents):
        if isinstance(agent, HumanAgent):  # asks with the session's prompt (the acting snake)
            agents[index] = HumanAgent(agent.name, read=session.read, notation=notation_of(game))
    outcome = session.play()
    if args.json:
        emit_json(
            {
                "game": name,
                "first": agents[0].name,
                "second": agents[1].name,
                "start": args.moves,
                **outcome,
            }
        )
    return 0


def _start(args: argparse.Namespace, params: dict[str, Any]) -> tuple[Any, Any, list[str], Any]:
    """The game, the position to play from, the moves before it in notation, and the record
    of ``--load`` (or ``None``)."""
    from searchlab.cli._record import load_game
    from searchlab.domains.games import make
    from searchlab.domains.games.move_list import moves_in_notation, position_from_moves

    if args.load is not None:
        if args.moves:
            raise InvalidParameterError("--load and --moves: give one (the moves are in the file)")
        loaded = load_game(args.load, args.game, params, "--load", "play")
        return loaded.game, loaded.final, list(loaded.moves), loaded
    if args.game is None:
        raise InvalidParameterError("play needs a GAME (like 'play connect4') or --load FILE")
    game = make(args.game, **params)
    state = position_from_moves(game, args.moves)
    return game, state, moves_in_notation(game, args.moves), None


def _players(args: argparse.Namespace, loaded: Any, name: str) -> tuple[str, str]:
    """``--first`` and ``--second``; left out, a loaded record's players (the agents that run
    nothing outside searchlab, :data:`~searchlab.cli._record.REUSED_KINDS`), else a person
    against :func:`default_opponent`."""
    from searchlab.cli._record import recorded_player

    chosen = []
    second = default_opponent(name)
    for player, given, default in ((0, args.first, "human"), (1, args.second, second)):
        if given:
            chosen.append(given)
            continue
        recorded, why = recorded_player(loaded, player)
        if why and not (args.quiet or args.json):
            print(f"{why} (now: {default})")
        chosen.append(recorded or default)
    return chosen[0], chosen[1]


def _recorder(
    args: argparse.Namespace,
    name: str,
    params: dict[str, Any],
    game: Any,
    loaded: Any,
    agents: list[Any],
) -> Any:
    """The record file of ``--save`` (or Go's ``--sgf``), checked before the game starts."""
    from searchlab.cli._common import output_file
    from searchlab.cli._record import which_file
    from searchlab.domains.games.record import RecordFile, full_params

    path, option = which_file(args.save, args.sgf, "--save")
    if path is None:
        return None
    example = "game.sgf" if game.info.name == "go" else "game.txt"
    target = output_file(path, option, example)
    written = full_params(name, loaded.params if loaded is not None else params)
    return RecordFile(
        target,
        name,
        written,
        game.initial_state(),
        players=(agents[0].name, agents[1].name),
        loaded=loaded,
    )


def actor(state: Any) -> str:
    """Who acts for the player to move, in games where a player acts through several pieces
    one ply each (Snake Go: ``"snake A"``); ``""`` for other games and finished ones."""
    acting = getattr(state, "acting_snake", None)
    if not callable(acting) or state.is_terminal():
        return ""
    from searchlab.domains.games.snakego import snake_name

    return f"snake {snake_name(state.current_player(), acting().id)}"


def scores(state: Any) -> tuple[int, int] | None:
    """The two players' scores, for games that count them (Snake Go), else ``None``."""
    count = getattr(state, "scores", None)
    if not callable(count):
        return None
    first, second = count()
    return int(first), int(second)


class _Session:
    """One game: the history of states, the agents, and what to show."""

    def __init__(
        self,
        state: Any,
        agents: list[Any],
        *,
        quiet: bool,
        analysis: bool,
        as_json: bool,
        game: Any = None,
        go: Any = None,
        earlier: Sequence[str] = (),
        endgame: Any = None,
        recorder: Any = None,
    ) -> None:
        self.history = [state]
        self.earlier = tuple(earlier)  # the moves before the first one played here (--load)
        self.recorder = recorder  # --save: the record file, rewritten after every move
        self.moves: list[tuple[int, str, float]] = []  # (player, notation, seconds)
        self.actions: list[int] = []
        self.agents = agents
        self.quiet = quiet
        self.resign_reason = ""
        self.analysis = analysis
        self.as_json = as_json
        named = players(game.info.name if game is not None else "")
        self.sides, self.names = named.marks, named.names
        self.go = go  # Go: the settled score (agents/go_settle.py)
        self.endgame = endgame  # Go: when an engine passes or resigns (agents/go_endgame.py)
        self.game = game  # its max_game_length ends a game that goes on too long

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def plies(self) -> int:
        """Moves of the whole game so far: those before this session and those played here."""
        return len(self.earlier) + len(self.moves)

    def move_list(self) -> list[str]:
        """The whole game's moves in notation, the earlier ones (``--load``) first."""
        return [*self.earlier, *(notation for _, notation, _ in self.moves)]

    def record(self, result: str = "*") -> None:
        """Rewrite the ``--save`` file (when there is one) with the game so far; ``result``
        once it is over."""
        if self.recorder is not None:
            self.recorder.save(self.history[-1], self.move_list(), result)

    def read(self, prompt: str) -> str:
        """A person's input line; in a game with several acting pieces the prompt names the
        one to move and its legal actions (``snake A to act: up/down/split> ``)."""
        state = self.history[-1]
        who = actor(state)
        if who:
            names = "/".join(state.action_to_string(a) for a in state.legal_actions())
            prompt = f"{who} to act: {names}> "
        return input(prompt)

    def label(self, player: int) -> str:
        return f"{self.names[player]} ({self.agents[player].name})"

    def side(self, player: int) -> str:
        return f"{self.names[player]} ({self.sides[player]})"

    def introduce(self) -> None:
        """Who plays which side, before the first move."""
        from searchlab.agents import HumanAgent

        humans = [isinstance(agent, HumanAgent) for agent in self.agents]
        if humans == [True, True]:
            self.say(f"two people: {self.side(0)} and {self.side(1)} take turns")
        elif any(humans):
            you = humans.index(True)
            self.say(
                f"you play {self.side(you)} against {self.agents[1 - you].name} "
                f"({self.sides[1 - you]}); type help for the notation"
            )
        else:
            self.say(
                f"{self.side(0)}: {self.agents[0].name}, {self.side(1)}: {self.agents[1].name}"
            )

    def board(self, state: Any, hints: bool) -> str:
        """The position, with the last move and (for a person) the legal moves where the
        game can draw them (``state.render(last=..., hints=...)``)."""
        render = getattr(state, "render", None)
        if callable(render):
            last = self.actions[-1] if self.actions else None
            try:
                return str(render(last=last, hints=hints))
            except TypeError:  # a render() of another signature: the plain board
                pass
        return str(state)

    def play(self) -> dict[str, Any]:
        from searchlab.agents import HumanAgent, Resign, Undo
        from searchlab.agents.match import check_length

        resigned: int | None = None
        self.introduce()
        while not self.history[-1].is_terminal():
            if self.game is not None:  # a game that outlasts its max_game_length: one line
                check_length(self.game, self.plies())
            state = self.history[-1]
            player = state.current_player()
            agent = self.agents[player]
            board = self.board(state, hints=isinstance(agent, HumanAgent))
            who = actor(state)
            acting = f", {who}" if who else ""
            self.say(f"\n{board}\nmove {self.plies() + 1}: {self.label(player)} to play{acting}")
            start = time.perf_counter()
            why = ""
            try:
                if self.endgame is not None:
                    action, why = self.endgame.act(agent, state)
                else:
                    action = agent.act(state)
            except Undo:
                self.undo(player)
                continue
            except Resign as resignation:
                resigned = player
                self.resign_reason = str(resignation)
                if not isinstance(agent, HumanAgent) and str(resignation):
                    self.say(f"{agent.name} resigns: {resignation}")
                break
            seconds = time.perf_counter() - start
            notation = state.action_to_string(action)
            self.moves.append((player, notation, seconds))
            self.actions.append(action)
            self.history.append(state.apply(action))
            self.record()
            if not isinstance(agent, HumanAgent):
                self.report(agent, state, notation, seconds)
                if why:
                    self.say(f"    {why}")
        return self.finish(resigned)

    def report(self, agent: Any, state: Any, notation: str, seconds: float) -> None:
        from searchlab.cli._analysis import child_line, children_rows, summary

        result = agent.last_result
        who = actor(state)
        if who:
            notation = f"{notation} ({who})"
        if result is None:
            self.say(f"{agent.name} plays {notation} ({seconds:.2f} s)")
            return
        self.say(f"{agent.name} plays {notation}: {summary(state, result)}")
        if self.analysis:
            for row in children_rows(state, result)[:7]:
                self.say(child_line(row))

    def undo(self, player: int) -> None:
        """Take back ``player``'s last move and every move after it."""
        for index in range(len(self.moves) - 1, -1, -1):
            if self.moves[index][0] == player:
                del self.moves[index:]
                del self.actions[index:]
                del self.history[index + 1 :]
                for agent in self.agents:
                    agent.reset()
                if self.endgame is not None:
                    self.endgame.reset()
                self.record()
                self.say("took back your last move")
                return
        self.say("nothing to undo: you have not moved yet")

    def resign_text(self, resigned: int) -> str:
        """``"X resigns: O wins"``; a resignation by end of input (Ctrl-D, a closed pipe) says
        so: ``"X resigns (end of input): O wins"``."""
        from searchlab.agents.human import END_OF_INPUT

        why = f" ({END_OF_INPUT})" if self.resign_reason == END_OF_INPUT else ""
        return f"{self.label(resigned)} resigns{why}: {self.label(1 - resigned)} wins"

    def input_ended(self, resigned: int | None) -> bool:
        """Whether the game stopped at the end of a person's input (Ctrl-D, the end of piped
        moves): an interruption, which the record keeps unfinished so that --load resumes it."""
        from searchlab.agents.human import END_OF_INPUT

        return resigned is not None and self.resign_reason == END_OF_INPUT

    def result_of(self, winner: int | None, resigned: int | None) -> str:
        """The text record's result: ``1-0``, ``0-1 (first resigns)``, ``1/2-1/2``, or
        ``* (end of input)``."""
        from searchlab.domains.games.record import result_text

        if self.input_ended(resigned):
            return "* (end of input)"
        if resigned is not None:
            return result_text(winner, f"{self.names[resigned]} resigns")
        return result_text(winner)

    def say_saved(self) -> None:
        if self.recorder is not None:
            print(f"saved: {self.recorder.path}")

    def finish(self, resigned: int | None) -> dict[str, Any]:
        if self.go is not None:
            return self.finish_go(resigned)
        state = self.history[-1]
        if resigned is not None:
            winner: int | None = 1 - resigned
            text = self.resign_text(resigned)
            returns = [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        else:
            returns = [float(value) for value in state.returns()]
            if returns[0] > returns[1]:
                winner, text = 0, f"{self.label(0)} wins"
            elif returns[1] > returns[0]:
                winner, text = 1, f"{self.label(1)} wins"
            else:
                winner, text = None, "draw"
        self.record(self.result_of(winner, resigned))
        points = scores(state)
        if not self.as_json:
            print(f"\n{self.board(state, hints=False)}")
            print(f"game over after {self.plies()} moves: {text}")
            if points is not None:
                print(f"scores: {self.label(0)} {points[0]}, {self.label(1)} {points[1]}")
            self.say_saved()
        extra = {} if points is None else {"scores": list(points)}
        return self.game_over(extra, winner, returns, resigned, text)

    def game_over(
        self,
        extra: dict[str, Any],
        winner: int | None,
        returns: list[float],
        resigned: int | None,
        text: str,
    ) -> dict[str, Any]:
        """Print the move list (unless ``--quiet``); the game's JSON summary, ``extra`` first."""
        if not self.quiet:
            print(f"moves: {' '.join(self.move_list())}")
        return {
            **extra,
            "earlier_moves": list(self.earlier),
            "moves": [notation for _, notation, _ in self.moves],
            "seconds": [round(seconds, 4) for _, _, seconds in self.moves],
            "winner": winner,
            "returns": returns,
            "resigned": resigned,
            "result": text,
        }

    def finish_go(self, resigned: int | None) -> dict[str, Any]:
        """Go's end: a resignation, or the score with the dead stones settled by playing
        out; the SGF file gets the result."""
        from searchlab.domains.games.go.score import result_of_score

        state = self.history[-1]
        extra: dict[str, Any] = {}
        lines = []
        if resigned is not None:
            winner: int | None = 1 - resigned
            text = self.resign_text(resigned)
            result = f"{'BW'[1 - resigned]}+R"
        else:
            if not self.as_json:
                print(f"\n{self.board(state, hints=False)}")
            if self.go.by_engine and not self.quiet:
                print(f"settling dead stones: {self.go.spec} plays both sides ...")
            settlement = self.go.settle(state)
            score = settlement.score
            result = result_of_score(score)
            lines = settlement.lines()
            if settlement.moves:
                after = self.board(settlement.settled, hints=False)
                lines.insert(1, f"the board after the play-out:\n{after}")
            winner = None if score == 0 else (0 if score > 0 else 1)
            if winner is None:
                text = f"draw (jigo): {result}"
            else:
                text = f"{self.label(winner)} wins by {abs(score):g} points ({result})"
            extra = {
                "score": score,
                "settled_by": settlement.settler or None,
                "settle_moves": list(settlement.moves),
                "dead": {"black": settlement.dead[0], "white": settlement.dead[1]},
            }
        self.record("*" if self.input_ended(resigned) else result)
        returns = [0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        if not self.as_json:
            if resigned is not None:
                print(f"\n{self.board(state, hints=False)}")
            for line in lines:
                print(line)
            print(f"game over after {self.plies()} moves: {text}")
            self.say_saved()
        return {**self.game_over(extra, winner, returns, resigned, text), "sgf_result": result}
