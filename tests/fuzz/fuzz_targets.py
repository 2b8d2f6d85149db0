"""Fuzz targets: every parser and boundary of searchlab that reads outside input, each with the
valid inputs that mutation starts from and (for those the command line reads) the command
that reads it.

Used by ``tests/fuzz/test_fuzz_parsers.py`` (hypothesis, in CI) and by
``benchmarks/fuzz_campaign.py`` (a long random and mutation-based campaign). The contract
checked for every input: the parser returns a valid result (each target checks what came
back), or raises a :class:`~searchlab.core.errors.SearchlabError` whose message is one
non-empty line. Any other exception is a defect. On the command line, bad input is one line
``searchlab...: error: ...`` on stderr and exit code 2.

>>> sorted(TARGETS)[:3]
['agent_spec', 'arena_db', 'cli_numbers']
>>> outcome(TARGETS["puzzle"], "0 1 2 3")
'ok'
>>> outcome(TARGETS["puzzle"], "1 2 x")
'rejected'
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from searchlab.core.errors import SearchlabError

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
EXAMPLES = REPO_ROOT / "examples"

Data = str | bytes


@dataclass(frozen=True)
class Target:
    """One parser or boundary under fuzzing.

    ``run(data, workdir)`` feeds one input and checks the result when it is accepted (an
    ``AssertionError`` there is a wrong answer); ``seeds()`` are valid inputs; ``alphabet``
    the characters random inputs are drawn from; ``cli(data, workdir)``, when given, is the
    ``searchlab`` argument list that reads the same input (run only for rejected inputs;
    ``None`` where the command line reads that input differently).
    """

    name: str
    run: Callable[[Any, Path], None]
    seeds: Callable[[], list[Any]]
    alphabet: str
    binary: bool = False
    cli: Callable[[Any, Path], list[str] | None] | None = None
    tokens: tuple[str, ...] = field(default=())


class WrongAnswer(AssertionError):
    """An accepted input gave a result that breaks the parser's own contract."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise WrongAnswer(message)


def _check_message(error: BaseException) -> None:
    message = str(error)
    _expect(bool(message.strip()) and "\n" not in message, f"message not one line: {message!r}")


def outcome(target: Target, data: Data, workdir: Path | None = None) -> str:
    """``"ok"`` (accepted and checked), ``"rejected"`` (a one-line ``SearchlabError``); any
    other exception propagates: it is the defect the fuzzing looks for."""
    if workdir is None:
        with tempfile.TemporaryDirectory() as tmp:
            return outcome(target, data, Path(tmp))
    try:
        target.run(data, workdir)
    except SearchlabError as error:
        message = str(error)
        if not message.strip() or "\n" in message or "\r" in message:
            raise WrongAnswer(f"error message is not one line: {message!r}") from error
        return "rejected"
    return "ok"


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """``searchlab ARGV`` in this process: (exit code, stdout, stderr)."""
    from searchlab.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(arg) for arg in argv])
        except SystemExit as stop:  # argparse's own exits (--help, usage errors)
            code = stop.code if isinstance(stop.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def check_cli_error(target: Target, data: Data, workdir: Path) -> None:
    """A rejected input given to the command line: one line on stderr, exit code 2."""
    argv = target.cli(data, workdir) if target.cli is not None else None
    if argv is None:
        return
    code, _, err = run_cli(argv)
    if code != 2 or err.count("\n") != 1 or not err.startswith("searchlab"):
        raise WrongAnswer(f"command line: exit {code}, stderr {err!r}")
    _expect("Traceback" not in err, f"command line printed a traceback: {err!r}")


# --- helpers -------------------------------------------------------------------------------


def _write(workdir: Path, name: str, data: Data) -> Path:
    path = workdir / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8", errors="surrogatepass")
    return path


def _read_lines(path: Path, count: int) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n") for _, line in zip(range(count), handle, strict=False)]


def _crop_map(text: str, rows: int) -> str:
    """A valid map of the first ``rows`` rows of a Moving AI map."""
    lines = text.splitlines()
    return "\n".join(["type octile", f"height {rows}", lines[2], "map", *lines[4 : 4 + rows]])


# --- Moving AI maps and scenarios ----------------------------------------------------------


@cache
def _small_grid() -> Any:
    from searchlab.domains.path.movingai import parse_map

    return parse_map(_map_seeds()[0], source="arena.map")


@cache
def _map_seeds() -> list[str]:
    seeds = [(EXAMPLES / "maps" / "arena.map").read_text(encoding="utf-8")]
    for path in sorted((SHARED_DATA / "grid_movingai" / "maps").rglob("*.map"))[:6]:
        seeds.append(_crop_map(path.read_text(encoding="utf-8"), 6))
    seeds.append("type octile\nheight 2\nwidth 3\nmap\n.G@\nSWT\n")
    return seeds


def _run_map(text: str, workdir: Path) -> None:
    from searchlab.domains.path.movingai import parse_map

    grid = parse_map(text, source="fuzz.map")
    lines = text.splitlines()
    height, width = int(lines[1].split()[1]), int(lines[2].split()[1])
    _expect(grid.passable.shape == (height, width), f"shape {grid.passable.shape}")


def _scen_seeds() -> list[str]:
    seeds = ["\n".join(_read_lines(EXAMPLES / "maps" / "arena.map.scen", 6)) + "\n"]
    for path in sorted((SHARED_DATA / "grid_movingai" / "scenarios").rglob("*.scen"))[:4]:
        seeds.append("\n".join(_read_lines(path, 4)) + "\n")
    return seeds


def _run_scen(text: str, workdir: Path) -> None:
    from searchlab.domains.path.movingai import check_scenarios, parse_scenarios

    scenarios = parse_scenarios(text, source="fuzz.scen")
    _expect(len(scenarios) == sum(1 for line in text.splitlines()[1:] if line.strip()), "count")
    for scenario in scenarios:
        _expect(scenario.optimal_length >= 0, f"negative length {scenario}")
    if scenarios and all(s.width == 49 and s.height == 49 for s in scenarios):
        check_scenarios(_small_grid(), scenarios)


def _cli_scen(text: str, workdir: Path) -> list[str]:
    return ["path", EXAMPLES / "maps" / "arena.map", "--scen", _write(workdir, "f.scen", text)]


def _cli_map(text: str, workdir: Path) -> list[str]:
    return ["path", _write(workdir, "f.map", text), "--from", "1,1", "--to", "1,1"]


# --- sliding-tile puzzle strings -------------------------------------------------------------


def _puzzle_seeds() -> list[str]:
    seeds = ["0 1 2 3", "8 6 7 2 5 4 3 0 1", "1,2,3,4,5,6,7,8,0", "3,1,2,0"]
    for name, column in (("eight_puzzle.tsv", 1), ("korf100_15puzzle.tsv", 2)):
        for line in _read_lines(SHARED_DATA / "sliding_tile" / name, 4)[1:]:
            seeds.append(line.split("\t")[column])
    return seeds


def _run_puzzle(text: str, workdir: Path) -> None:
    from searchlab.domains.path.sliding_tile import SlidingTilePuzzle, parse_tiles

    tiles = parse_tiles(text)
    puzzle = SlidingTilePuzzle(tiles, goal=_puzzle_goal(text))
    _expect(sorted(puzzle.tiles) == list(range(len(tiles))), f"not a permutation: {tiles}")
    _expect(puzzle.size**2 == len(tiles), "size")


def _puzzle_goal(text: str) -> str:
    return "blank-last" if "," in text else "blank-first"


def _cli_puzzle(text: str, workdir: Path) -> list[str]:
    return ["puzzle", "--goal", _puzzle_goal(text), "--", text]


# --- Connect Four: Pons' move strings and test-file lines -----------------------------------


def _pons_seeds() -> list[str]:
    seeds = ["4455 18\n44455554221 -15\n", "\n 1 0\n"]
    for name in ("Test_L3_R1", "Test_L2_R2", "Test_L1_R3"):
        seeds.append("\n".join(_read_lines(SHARED_DATA / "connect4_pons" / name, 3)) + "\n")
    return seeds


def _run_pons(text: str, workdir: Path) -> None:
    from searchlab.domains.games.position_files import read_pons_positions

    positions = read_pons_positions(_write(workdir, "pons.txt", text))
    for position in positions:
        _expect(position.state.moves == position.moves, f"moves {position.moves!r}")
        _expect(not position.state.is_terminal(), "a finished game accepted")


def _cli_pons(text: str, workdir: Path) -> list[str]:
    return ["solve", "connect4", "--positions", _write(workdir, "pons.txt", text)]


def _connect4_seeds() -> list[str]:
    return ["", "4453", "44455554221", "2252576253462244111563365343671351441"]


def _run_connect4(text: str, workdir: Path) -> None:
    from searchlab.domains.games.connect4 import parse_moves

    state = parse_moves(text)
    _expect(state.moves == text and state.num_moves == len(text), "moves")


def _cli_connect4(text: str, workdir: Path) -> list[str] | None:
    if not text.isdigit():
        return None  # the command line reads other move lists in column notation
    return ["analyse", "connect4", "--agent", "random", "--", text]


# --- Othello OBF ---------------------------------------------------------------------------


def _obf_seeds() -> list[str]:
    lines = _read_lines(SHARED_DATA / "othello_ffo" / "ffo_endgame.obf", 40)
    return [*lines[::5], "X" * 61 + "-OX X; f8:64", "-" * 27 + "OX------XO" + "-" * 27 + " X"]


def _run_obf(text: str, workdir: Path) -> None:
    from searchlab.domains.games.othello.obf import parse_obf_line

    position = parse_obf_line(text)
    again = parse_obf_line(position.to_line())
    _expect(again.move_scores == position.move_scores, "round trip: moves")
    _expect(again.state().key() == position.state().key(), "round trip: position")


def _cli_obf(text: str, workdir: Path) -> list[str] | None:
    if "\n" in text or "\r" in text or not text.split("%", 1)[0].strip():
        return None  # a file of several lines, or a comment line the file reader skips
    return ["solve", "othello", "--obf", _write(workdir, "f.obf", text)]


# --- explicit game trees -------------------------------------------------------------------


def _tree_text_seeds() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((EXAMPLES / "trees").glob("*.tree"))]


def _tree_json_seeds() -> list[str]:
    seeds = [p.read_text(encoding="utf-8") for p in sorted((EXAMPLES / "trees").glob("*.json"))]
    deep: Any = 1
    for _ in range(30):
        deep = {"type": "max", "children": [deep, 2]}
    return [*seeds, json.dumps(deep), '{"type": "min", "children": [1, {"name": "x", "value": 2}]}']


def _check_tree(tree: Any) -> None:
    names = tree.names()
    _expect(len(names) == len(tree) and names[0] == tree.root, "every node reachable once")
    for leaf in tree.leaves():
        value = tree.value(leaf)
        _expect(value == value and abs(value) != float("inf"), f"leaf {leaf!r} = {value}")
    tree.height()


def _run_tree_text(text: str, workdir: Path) -> None:
    from searchlab.domains.games.explicit_tree import ExplicitTree

    _check_tree(ExplicitTree.from_text(text, source="fuzz.tree"))


def _run_tree_json(text: str, workdir: Path) -> None:
    from searchlab.domains.games.explicit_tree import ExplicitTree

    _check_tree(ExplicitTree.from_json(text, source="fuzz.json"))


def _cli_tree_text(text: str, workdir: Path) -> list[str]:
    return ["tree", _write(workdir, "f.tree", text)]


def _cli_tree_json(text: str, workdir: Path) -> list[str]:
    return ["tree", _write(workdir, "f.json", text)]


# --- agent specs -----------------------------------------------------------------------------

_SPEC_GAMES = ("tictactoe", "nim", "connect4", "othello")


@cache
def _game(name: str) -> Any:
    from searchlab.games import make

    return make(name)


def _spec_seeds() -> list[str]:
    return [
        "random",
        "greedy",
        "alphabeta:depth=4",
        "alphabeta:time=0.2",
        "mcts:simulations=2000",
        "mcts:simulations=200,solver=true,c=1.4",
        "mcts:time=0.5,seed=3",
        "flatmc:simulations=100",
        "random:seed=7",
    ]


def _run_spec(text: str, workdir: Path) -> None:
    from searchlab.agents import make_agent

    agent = make_agent(text, _game(_SPEC_GAMES[0]), seed=1)  # the game the command line uses
    _expect(isinstance(agent.name, str) and bool(agent.name), "an agent has a name")
    if _cheap(text):  # small budgets: play one move where few are left
        state = _near_end()
        _expect(agent.act(state) in state.legal_actions(), f"{text!r}: an illegal move")
    for game in _SPEC_GAMES[1:]:
        try:
            make_agent(text, _game(game), seed=1)
        except SearchlabError as error:
            _check_message(error)


def _cheap(text: str) -> bool:
    """Every number of the spec but its seed is small (acting on it takes milliseconds)."""
    from searchlab.agents import parse_spec

    for name, value in parse_spec(text).params.items():
        try:
            number = float(value)
        except ValueError:
            continue
        limit = 0.02 if name in ("time", "move_time") else 64
        if name != "seed" and not abs(number) <= limit:
            return False
    return True


@cache
def _near_end() -> Any:
    from searchlab.core.game import play

    return play(_game("tictactoe").initial_state(), "a1 b2 c3 a3 c1")


def _cli_spec(text: str, workdir: Path) -> list[str]:
    return ["analyse", "tictactoe", "a1 b2 c3 a3 c1", "--agent", text]


# --- the arena database --------------------------------------------------------------------


@cache
def _arena_seed_bytes() -> bytes:
    from searchlab.arena.schedule import round_robin
    from searchlab.arena.store import ArenaStore
    from searchlab.arena.worker import play_game

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "arena.sqlite"
        with ArenaStore.open(path) as store:
            for job in round_robin("tictactoe", ["random", "greedy"], 4, seed=3, openings=1):
                store.add(play_game(job))
        return path.read_bytes()


def _arena_seeds() -> list[bytes]:
    return [_arena_seed_bytes()]


def _run_arena(data: bytes, workdir: Path) -> None:
    from searchlab.arena.store import ArenaStore

    path = _write(workdir, "arena.sqlite", data)
    with ArenaStore.open(path) as store:
        keys, records = store.keys(), store.records()
        _expect({record.key for record in records} == keys, "keys")
        _expect(store.count() == len(records), "count")
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    for suffix in ("-journal", "-wal", "-shm"):
        (workdir / f"arena.sqlite{suffix}").unlink(missing_ok=True)


def _cli_arena(data: bytes, workdir: Path) -> list[str] | None:
    from searchlab.arena.store import ArenaDatabaseError, ArenaStore

    db = _write(workdir, "cli.sqlite", data)
    try:
        ArenaStore.open(db).close()
    except ArenaDatabaseError:  # refused as a whole: the command line must refuse it too
        return ["arena", "nim", "random", "greedy", "--games", "1", "--db", db]
    return None  # damage inside: found only where the games are read (other games here)


# --- game-move notation and move lists ------------------------------------------------------


@cache
def _notation_states() -> list[Any]:
    from searchlab.games import game_names

    rng = random.Random(5)
    states = []
    for name in game_names():
        state = _game(name).initial_state()
        states.append(state)
        for _ in range(6):
            if state.is_terminal():
                break
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    from searchlab.domains.games.explicit_tree import ExplicitTreeGame, load_tree

    tree = ExplicitTreeGame(load_tree(EXAMPLES / "trees" / "aima_fig5_2.tree"))
    states += [tree.initial_state(), tree.initial_state().apply(1)]
    return states


def _notation_seeds() -> list[str]:
    seeds = {"a1", "h8", "o15", "1:3", "4"}
    for state in _notation_states():
        for action in state.legal_actions()[:3]:
            seeds.add(state.action_to_string(action))
    return sorted(seeds)


def _run_notation(text: str, workdir: Path) -> None:
    refusal: SearchlabError | None = None
    accepted = False
    for state in _notation_states():
        if state.is_terminal():
            continue
        try:
            action = state.string_to_action(text)
            state.apply(action)
        except SearchlabError as error:
            _check_message(error)
            refusal = error
            continue
        accepted = True
        _expect(action in state.legal_actions(), f"{text!r} -> {action}: not a legal move")
        again = state.string_to_action(state.action_to_string(action))
        _expect(again == action, f"{text!r} -> {action}: notation does not round-trip")
    if not accepted and refusal is not None:
        raise refusal  # no game reads it as a move


def _movelist_seeds() -> list[str]:
    return ["", "a1 b2 c3", "1:3,2:1", "4453", "f5d6c3", "f5 d6 c3 d3", "h8 i8 h9"]


def _run_movelist(text: str, workdir: Path) -> None:
    from searchlab.domains.games.move_list import position_from_moves
    from searchlab.games import game_names

    cli_game = _movelist_game(text)
    for name in game_names():
        if name != cli_game:
            try:
                position_from_moves(_game(name), text)
            except SearchlabError as error:
                _check_message(error)
    position_from_moves(_game(cli_game), text)  # the game the command line reads it for


def _movelist_game(text: str) -> str:
    if ":" in text:
        return "nim"
    if text.isdigit():
        return "connect4"
    if any("i" <= char <= "o" for char in text):
        return "gomoku"
    return "othello" if any("d" <= char <= "h" for char in text) else "tictactoe"


def _cli_movelist(text: str, workdir: Path) -> list[str]:
    return ["analyse", _movelist_game(text), "--agent", "random", "--", text]


# --- game parameters (-p NAME=VALUE) --------------------------------------------------------


def _param_seeds() -> list[str]:
    return ["piles=3,4,5", "m=4 n=4 k=3", "size=9", "heaps=10", "misere=true", "scoring=discs"]


def _run_params(text: str, workdir: Path) -> None:
    from searchlab.cli._common import parse_param
    from searchlab.games import game_names, make

    params = dict(parse_param(item) for item in text.split() or [text])
    cli_game = _params_game(text)
    for name in [*(n for n in game_names() if n != cli_game), cli_game]:
        try:
            game = make(name, **params)
        except SearchlabError as error:
            if name == cli_game:
                raise  # the game the command line builds
            _check_message(error)
            continue
        state = game.initial_state()
        _expect(state.is_terminal() or bool(state.legal_actions()), "no moves in an open game")


def _params_game(text: str) -> str:
    for word, game in (("piles", "nim"), ("heaps", "kayles"), ("scoring", "othello")):
        if word in text:
            return game
    if "size" in text or "radius" in text:
        return "gomoku"
    return "mnk" if any(f"{p}=" in text for p in "mnk") else "nim"


def _cli_params(text: str, workdir: Path) -> list[str]:
    argv = ["perft", _params_game(text), "--depth", "1"]
    for item in text.split() or [text]:
        argv += ["-p", item]
    return argv


# --- numbers at the command line's boundary --------------------------------------------------

_NUMBER_OPTIONS = (
    ("puzzle", "1 2 3 0", "--time"),
    ("puzzle", "1 2 3 0", "--max-expansions"),
    ("path", EXAMPLES / "maps" / "arena.map", "--weight"),
    ("path", EXAMPLES / "maps" / "arena.map", "--limit"),
    ("path", EXAMPLES / "maps" / "arena.map", "--from"),
    ("perft", "nim", "--depth"),
    ("analyse", "nim", "--seed"),
)


def _number_argv(text: str) -> list[str]:
    command, subject, option = _NUMBER_OPTIONS[len(text) % len(_NUMBER_OPTIONS)]
    argv: list[str] = [command, str(subject)]
    if command == "path":
        argv += ["--from", "1,1", "--to", "2,2"]
    if command == "perft":
        argv += ["-p", "piles=1,2"]
    if command == "analyse":
        argv += ["1:1", "--agent", "random"]
    return [*argv, f"{option}={text}"]


def _run_numbers(text: str, workdir: Path) -> None:
    argv = _number_argv(text)
    code, _, err = run_cli(argv)
    _expect("Traceback" not in err, f"traceback: {err!r}")
    if code == 0:
        return
    if code != 2 or err.count("\n") != 1 or not err.startswith("searchlab"):
        raise WrongAnswer(f"{argv}: exit {code}, stderr {err!r}")
    raise _CommandLineRefused(err.strip())


class _CommandLineRefused(SearchlabError):
    """The command line refused the input with one line (the expected rejection)."""


def _number_seeds() -> list[str]:
    return ["1", "0.5", "3", "20", "1,1", "7"]


# --- the table -------------------------------------------------------------------------------

_NUMBERS = "0123456789"
_SPACE = " \t\n"
_TARGETS = [
    Target("movingai_map", _run_map, _map_seeds, ".@GSWTO" + _NUMBERS + _SPACE + "typeoctilhwdmap-",
           cli=_cli_map, tokens=("type octile", "height ", "width ", "map", "\r\n")),
    Target("movingai_scen", _run_scen, _scen_seeds, _NUMBERS + _SPACE + ".-eEversion/map",
           cli=_cli_scen, tokens=("version 1", "version 1.0", "nan", "inf", "1e309", "-1")),
    Target("puzzle", _run_puzzle, _puzzle_seeds, _NUMBERS + " ,-+\t\n", cli=_cli_puzzle),
    Target("pons_lines", _run_pons, _pons_seeds, "01234567789 \n\t-+", cli=_cli_pons),
    Target("connect4_moves", _run_connect4, _connect4_seeds, "012345678", cli=_cli_connect4),
    Target("obf", _run_obf, _obf_seeds, "XO-xo*.;:+ 0123456789ABCDEFGHabcdefghPS%", cli=_cli_obf,
           tokens=("pass", "PS", "; ", ":+64", ":-99999999999999999999")),
    Target("tree_text", _run_tree_text, _tree_text_seeds, "maxin :=#.-_'AB" + _NUMBERS + _SPACE,
           cli=_cli_tree_text, tokens=("max ", "min ", "nan", "inf", "1e309", "=")),
    Target("tree_json", _run_tree_json, _tree_json_seeds, '{}[]":,-. ' + _NUMBERS + "eE",
           cli=_cli_tree_json, tokens=('"type"', '"max"', '"children"', '"value"', '"name"',
                                       "NaN", "Infinity", "1e999", "[" * 50, "true", "null")),
    Target("agent_spec", _run_spec, _spec_seeds, "abcdeghilmnoprstx:=,.-_ " + _NUMBERS,
           cli=_cli_spec, tokens=("nan", "inf", "1e309", "100000000000000000000", "true", "-1")),
    Target("arena_db", _run_arena, _arena_seeds, "", binary=True, cli=_cli_arena),
    Target("notation", _run_notation, _notation_seeds, "abcdefghijklmnop:pasPS-+ " + _NUMBERS,
           tokens=("pass", "PS", "PASS", "-1:1", "0:0")),
    Target("move_list", _run_movelist, _movelist_seeds, "abcdefghijop:, " + _NUMBERS,
           cli=_cli_movelist),
    Target("game_params", _run_params, _param_seeds, "pilesmnkhzcoraudt=,-_ " + _NUMBERS,
           cli=_cli_params, tokens=("piles=", "size=", "m=", "n=", "k=", "heaps=", "misere=",
                                    "scoring=", "candidate_radius=", "99999999999", "-1")),
    Target("cli_numbers", _run_numbers, _number_seeds, "0123456789.,-+eE_ xnaif",
           tokens=("nan", "inf", "-inf", "1e309", "100000000000000000000", "0x10", "1_000")),
]  # fmt: skip

TARGETS: dict[str, Target] = {target.name: target for target in _TARGETS}
"""Every target by name."""

_BOUNDARY_NUMBERS = (
    "0", "-0", "-1", "1", "2147483647", "2147483648", "-2147483649", "9223372036854775808",
    "18446744073709551616", "100000000000000000000", "1" + "0" * 400, "1e309", "-1e309", "nan",
    "inf", "-inf", "1.5", "0.0001", "1e-320", "٣", "１", "0x10", "1_0",
)  # fmt: skip


def mutate(data: Data, rng: random.Random, target: Target, seeds: Sequence[Data]) -> Data:
    """One to four random edits of ``data``: flip, insert, delete, duplicate or splice
    slices, swap a number for a boundary value, insert a target token, truncate."""
    if isinstance(data, bytes):
        return _mutate_bytes(data, rng)
    text = data
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(9)
        position = rng.randint(0, len(text))
        if choice == 0 and text:  # replace a character
            i = rng.randrange(len(text))
            text = text[:i] + _random_char(rng, target) + text[i + 1 :]
        elif choice == 1:  # insert characters
            text = text[:position] + _random_text(rng, target, rng.randint(1, 4)) + text[position:]
        elif choice == 2 and text:  # delete a slice
            end = min(len(text), position + rng.randint(1, 16))
            text = text[:position] + text[end:]
        elif choice == 3 and text:  # duplicate a slice
            start = rng.randrange(len(text))
            piece = text[start : start + rng.randint(1, 32)]
            text = text[:position] + piece * rng.randint(1, 3) + text[position:]
        elif choice == 4:  # splice another seed in
            other = seeds[rng.randrange(len(seeds))]
            assert isinstance(other, str)
            cut = rng.randint(0, len(other))
            text = text[:position] + other[cut:] if rng.random() < 0.5 else other[:cut] + text
        elif choice == 5:  # a number -> a boundary value
            digits = [i for i, char in enumerate(text) if char.isdigit()]
            if digits:
                i = rng.choice(digits)
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                text = text[:i] + rng.choice(_BOUNDARY_NUMBERS) + text[j:]
        elif choice == 6 and target.tokens:
            text = text[:position] + rng.choice(target.tokens) + text[position:]
        elif choice == 7 and text:  # truncate
            text = text[:position]
        elif choice == 8 and text:  # swap two lines
            lines = text.split("\n")
            if len(lines) > 1:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
                text = "\n".join(lines)
    return text


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    buffer = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4, 16))):
        choice = rng.randrange(5)
        position = rng.randrange(len(buffer)) if buffer else 0
        if choice == 0 and buffer:  # flip bits
            buffer[position] ^= 1 << rng.randrange(8)
        elif choice == 1 and buffer:  # a random byte, more often in the header and first pages
            where = rng.randrange(min(len(buffer), rng.choice((100, 4096, len(buffer)))))
            buffer[where] = rng.randrange(256)
        elif choice == 2:  # truncate
            del buffer[rng.randint(0, len(buffer)) :]
        elif choice == 3 and buffer:  # overwrite a run
            length = rng.randint(1, 64)
            buffer[position : position + length] = bytes(rng.randrange(256) for _ in range(length))
        elif choice == 4:  # insert bytes
            buffer[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(buffer)


_ODD_CHARS = "\x00\x7f\u00a0\u2028\ufeff\u0663\uff11é€\U0001f600\\'\"%#"


def _random_char(rng: random.Random, target: Target) -> str:
    if target.alphabet and rng.random() < 0.9:
        return rng.choice(target.alphabet)
    return rng.choice(_ODD_CHARS) if rng.random() < 0.7 else chr(rng.randrange(32, 0x3000))


def _random_text(rng: random.Random, target: Target, length: int) -> str:
    return "".join(_random_char(rng, target) for _ in range(length))


def random_input(rng: random.Random, target: Target, seeds: Sequence[Data]) -> Data:
    """A fresh random input: characters of the target's alphabet and its tokens (or random
    bytes, possibly behind a valid SQLite header, for a binary target)."""
    if target.binary:
        header = seeds[0][:100] if rng.random() < 0.5 else b""
        assert isinstance(header, bytes)
        return header + bytes(rng.randrange(256) for _ in range(rng.choice((0, 50, 600, 5000))))
    pieces = []
    for _ in range(rng.randint(0, 12)):
        if target.tokens and rng.random() < 0.2:
            pieces.append(rng.choice(target.tokens))
        else:
            pieces.append(_random_text(rng, target, rng.randint(1, 6)))
    return "".join(pieces)


def cleanup(workdir: Path) -> None:
    """Remove what one input left in ``workdir``."""
    for path in workdir.iterdir():
        if path.is_file():
            path.unlink()


def sqlite_is_sane() -> bool:
    """The sqlite3 module works at all (a sanity check for the arena target)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as connection:
        return connection.execute("SELECT 1").fetchone() == (1,)
