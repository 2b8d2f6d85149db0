"""Inputs the fuzzing found that once gave a traceback or a wrong answer, each now one clear
error (library and command line): a map header wider than numpy allows, scenario lengths
that are not finite, JSON trees nested past Python's recursion limit or with leaves too large
for a float, trees too deep to search, OBF scores out of range, moves written with digits
that are not ASCII, a negative seed, and arena files damaged inside (text that is not UTF-8,
an index that disagrees with its table)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from fuzz_targets import _arena_seed_bytes

from searchlab.agents import make_agent
from searchlab.arena.store import ArenaDatabaseError, ArenaStore
from searchlab.core.errors import (
    IllegalMoveError,
    InvalidParameterError,
    MapFormatError,
    ScenarioFormatError,
)
from searchlab.domains.games.explicit_tree import (
    MAX_HEIGHT,
    ExplicitTree,
    ExplicitTreeGame,
    TreeFormatError,
)
from searchlab.domains.games.othello.obf import ObfFormatError, parse_obf_line
from searchlab.domains.path.movingai import parse_map, parse_scenarios

# --- Moving AI ---------------------------------------------------------------------------------


@pytest.mark.parametrize("width", ["18446744073709551616", "182147483648", "9" * 400])
def test_a_map_header_wider_than_memory_is_a_format_error(width: str) -> None:
    # was: ValueError 'Maximum allowed dimension exceeded' / MemoryError from numpy, before
    # any row was read
    text = f"type octile\nheight 2\nwidth {width}\nmap\n...\n...\n"
    with pytest.raises(MapFormatError, match=r"fuzz.map:5: expected \d+ characters"):
        parse_map(text, source="fuzz.map")


def test_a_map_still_reads_every_row() -> None:
    grid = parse_map("type octile\nheight 2\nwidth 3\nmap\n.@.\n..T\n")
    assert grid.passable.tolist() == [[True, False, True], [True, True, False]]


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ("0 m.map 3 2 0 0 2 1 nan", "finite number >= 0, got 'nan'"),
        ("0 m.map 3 2 0 0 2 1 inf", "finite number >= 0, got 'inf'"),
        ("0 m.map 3 2 0 0 2 1 1e309", "finite number >= 0, got '1e309'"),
        ("0 m.map 3 2 0 0 2 1 -2.5", "finite number >= 0, got '-2.5'"),
        ("0 m.map 3 2 -1 0 2 1 2.5", "coordinates must be >= 0"),
        ("0 m.map 0 2 0 0 2 1 2.5", "map size must be positive, got 0x2"),
    ],
)
def test_scenario_numbers_are_checked(fields: str, fragment: str) -> None:
    with pytest.raises(ScenarioFormatError, match=r"s\.scen:2: ") as caught:
        parse_scenarios(f"version 1\n{fields}\n", source="s.scen")
    assert fragment in str(caught.value)


# --- explicit trees --------------------------------------------------------------------------


def nested_json(depth: int) -> str:
    return '{"type": "max", "children": [' * depth + "1" + "]}" * depth


@pytest.mark.parametrize("depth", [MAX_HEIGHT + 1, 600, 5000])
def test_json_trees_nested_too_deeply_are_refused(depth: int) -> None:
    # was: RecursionError from json.loads (5000) or from the node builder
    with pytest.raises(TreeFormatError, match="nested too deeply"):
        ExplicitTree.from_json(nested_json(depth), source="deep.json")


def test_a_json_tree_of_the_largest_height_is_read_and_searched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ExplicitTree.from_json(nested_json(MAX_HEIGHT)).height() == MAX_HEIGHT
    path = tmp_path / "deepest.json"
    path.write_text(nested_json(MAX_HEIGHT))
    code, out, err = run_main(capsys, "tree", path, "--alphabeta")
    assert code == 0 and err == "" and "value 1" in out


@pytest.mark.parametrize(
    ("leaf", "fragment"),
    [
        ("1e999", "value must be a finite number, got inf"),
        ("-1e999", "value must be a finite number, got -inf"),
        ("NaN", "value must be a finite number, got nan"),
        ("1" + "0" * 400, "an integer too large for a float"),  # was: OverflowError
        ("1" * 5000, "a number with too many digits"),  # was: ValueError from json
    ],
)
def test_json_leaf_values_must_be_finite_numbers(leaf: str, fragment: str) -> None:
    with pytest.raises(TreeFormatError, match=fragment):
        ExplicitTree.from_json(f'{{"type": "max", "children": [2, {leaf}]}}', source="t.json")


def test_a_node_name_with_a_newline_is_refused_on_one_line() -> None:
    # was: accepted ('$' matched before the newline), then a two-line message about its child
    text = json.dumps({"type": "max", "name": "a\n", "children": [1]})
    with pytest.raises(TreeFormatError, match=r"bad node name 'a\\n'") as caught:
        ExplicitTree.from_json(text)
    assert "\n" not in str(caught.value)


def chain(plies: int) -> str:
    lines = [f"max n{i}: n{i + 1} 1" for i in range(plies - 1)]
    return "\n".join([*lines, f"max n{plies - 1}: 1"])


def test_text_trees_deeper_than_the_searches_recurse_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was: read, then RecursionError in minimax (a traceback from `searchlab tree`)
    with pytest.raises(TreeFormatError, match=f"is {MAX_HEIGHT + 1} plies deep; at most"):
        ExplicitTree.from_text(chain(MAX_HEIGHT + 1), source="deep.tree")
    path = tmp_path / "deep.tree"
    path.write_text(chain(1000))
    for extra in ((), ("--alphabeta",)):
        code, _, err = run_main(capsys, "tree", path, *extra)
        assert_one_line_error(code, err, "1000 plies deep")
    path.write_text(chain(MAX_HEIGHT))
    code, _, err = run_main(capsys, "tree", path)
    assert code == 0 and err == "" and ExplicitTree.from_text(chain(MAX_HEIGHT)).height() == 200


# --- OBF ---------------------------------------------------------------------------------------

BOARD = "X" * 61 + "-OX X"


@pytest.mark.parametrize("score", ["+66", "-65", "+99999999999999999999"])
def test_obf_scores_outside_the_disc_range_are_refused(score: str) -> None:
    with pytest.raises(ObfFormatError, match=r"is outside -64\.\.\+64"):
        parse_obf_line(f"{BOARD}; F8:{score};")
    assert parse_obf_line(f"{BOARD}; F8:+64;").move_scores == ((61, 64),)


# --- move notation and seeds ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["h１3⑻", "a⑻", "a²", "b٣"])
def test_cells_written_with_digits_that_are_not_ascii_are_malformed_moves(text: str) -> None:
    # was: ValueError from int() ('⑻'.isdigit() is true, int('⑻') fails) in Gomoku and m,n,k
    from searchlab.games import make

    for game in (make("gomoku"), make("tictactoe"), make("mnk", m=4, n=4, k=3)):
        with pytest.raises(IllegalMoveError, match="malformed move"):
            game.initial_state().string_to_action(text)


def test_a_tree_child_index_written_with_other_digits_is_an_illegal_move() -> None:
    # was: ValueError from int('⑴') in ExplicitTreeState.string_to_action
    state = ExplicitTreeGame(ExplicitTree.from_text("max A: 1 2 3")).initial_state()
    assert state.string_to_action("2") == 2
    with pytest.raises(IllegalMoveError, match="children are"):
        state.string_to_action("⑴")


def test_a_negative_seed_is_refused_before_the_agent_is_built(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # was: numpy's ValueError 'expected non-negative integer' from `analyse --seed -5`
    from searchlab.games import make

    with pytest.raises(InvalidParameterError, match="seed must be an integer >= 0, got -5"):
        make_agent("random", make("nim"), seed=-5)
    code, _, err = run_main(capsys, "analyse", "nim", "1:1", "--agent", "random", "--seed=-5")
    assert_one_line_error(code, err, "seed must be an integer >= 0")


# --- the arena database ----------------------------------------------------------------------


def arena_copy(tmp_path: Path) -> Path:
    path = tmp_path / "arena.sqlite"
    path.write_bytes(_arena_seed_bytes())
    return path


def test_text_that_is_not_utf8_inside_a_game_is_a_damaged_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was: sqlite3.OperationalError 'Could not decode to UTF-8 column ...' from records()
    path = arena_copy(tmp_path)
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE games SET moves = CAST(X'ff22' AS TEXT) WHERE id = 2")
    raw.close()
    with ArenaStore.open(path) as store:
        assert len(store.keys()) == 4  # the damage is in a column not read here
        with pytest.raises(ArenaDatabaseError, match=r"damaged SQLite file .*UTF-8") as caught:
            store.records()
    assert "\n" not in str(caught.value)
    code, _, err = run_main(capsys, "arena", "tictactoe", "random", "greedy", "--games", "1",
                            "--db", path)  # fmt: skip
    assert_one_line_error(code, err, "damaged SQLite file")


def test_a_schema_that_is_not_utf8_is_a_damaged_file(tmp_path: Path) -> None:
    # was: UnicodeDecodeError (SQLite's error message quotes the bad schema text) from open
    path = arena_copy(tmp_path)
    data = bytearray(path.read_bytes())
    where = data.find(b"CREATE TABLE meta (")
    data[where + len("CREATE TABLE meta ")] = 0x94  # not UTF-8
    path.write_bytes(bytes(data))
    with pytest.raises(ArenaDatabaseError, match=r"damaged SQLite file \('utf-8' codec"):
        ArenaStore.open(path)


def test_an_index_that_disagrees_with_its_table_is_a_damaged_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was: opened (quick_check does not compare indexes with tables); keys() then missed games
    path = arena_copy(tmp_path)
    with sqlite3.connect(path) as raw:
        page_size = raw.execute("PRAGMA page_size").fetchone()[0]
        (root,) = raw.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_games_1'"
        ).fetchone()
        key = raw.execute("SELECT job_key FROM games ORDER BY id").fetchone()[0]
    raw.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * page_size
    where = data.find(key.encode(), start, start + page_size)
    assert where >= 0
    data[where + len(key) - 1] ^= 1  # one bit of the key's copy in the index
    path.write_bytes(bytes(data))
    with pytest.raises(ArenaDatabaseError, match="missing from index") as caught:
        ArenaStore.open(path)
    assert "\n" not in str(caught.value)
    code, _, err = run_main(capsys, "arena", "nim", "random", "greedy", "--games", "1",
                            "--db", path)  # fmt: skip
    assert_one_line_error(code, err, "missing from index")


def test_another_programs_database_with_a_schema_that_is_not_utf8(tmp_path: Path) -> None:
    # was: UnicodeDecodeError while listing the other program's tables for the message
    # (SQLite's syntax error quotes the bad bytes: near "T\xa5BLE")
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE qwertyuiop (x)")
    raw.close()
    data = path.read_bytes().replace(b"CREATE TABLE qwertyuiop", b"CREATE T\xa5BLE qwertyuiop")
    path.write_bytes(data)
    with pytest.raises(ArenaDatabaseError, match=r"another program.*\(unreadable; left unchanged"):
        ArenaStore.open(path)


def test_a_check_constraint_that_is_not_utf8_is_refused_when_opened(tmp_path: Path) -> None:
    # was: UnicodeDecodeError from the first statement of the writable connection (the
    # read-only checks do not compile the CHECK constraint; SQLite's error quotes the bytes)
    path = arena_copy(tmp_path)
    data = path.read_bytes().replace(b"CHECK (result IN", b"CHECK (res\x9blt IN")
    path.write_bytes(data)
    with pytest.raises(ArenaDatabaseError, match=r"cannot open .*'utf-8' codec") as caught:
        ArenaStore.open(path)
    assert "\n" not in str(caught.value)
