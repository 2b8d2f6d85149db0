"""The game registry: every parameter of every registered game checked with one clear error,
unknown parameters listed with the known ones, and games of your own as ``module:Class``."""

from __future__ import annotations

import inspect
import sys
import textwrap
from pathlib import Path

import pytest

from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import Game, State
from searchlab.domains.games.registry import GAMES, game_names, game_parameters, make

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "custom_game.py"

BAD_VALUES = [0, -1, 10**20, "abc", 1.5, None, True, (), "3,-2", [1, "x"]]
"""Values that are wrong for most parameters (0 is a legal pile or heap size)."""

ACCEPTED = {
    ("nim", "piles", 0),  # one empty pile: a finished game, but a legal one
    ("nim", "misere", True),
    ("kayles", "heaps", 0),
    ("dawsons_chess", "heaps", 0),
    ("grundys_game", "heaps", 0),
    ("gomoku", "candidate_radius", None),  # None: the real game (no restriction)
    ("snakego", "seed", 0),
    ("snakego", "growth_rounds", 0),  # no growth bonus
    ("snakego", "items", None),  # None: the generator's items for the seed
    ("snakego", "items", ()),  # no items at all
    ("go", "komi", 0),  # no komi (handicap games)
    ("go", "komi", -1),  # reverse komi
    ("go", "komi", 1.5),
    ("go", "handicap", 0),  # no handicap
    ("go", "max_moves", None),  # None: the default, 3 * size * size
}

CASES = [
    (name, parameter, value)
    for name in game_names()
    for parameter in game_parameters(name)
    for value in BAD_VALUES
]


def test_every_registered_game_has_cases_or_no_parameters() -> None:
    covered = {name for name, _, _ in CASES}
    without = {name for name in game_names() if not game_parameters(name)}
    assert covered | without == set(game_names())
    assert {"nim", "mnk", "gomoku", "othello", "kayles"} <= covered
    assert {"connect4", "tictactoe"} <= without


@pytest.mark.parametrize(("name", "parameter", "value"), CASES)
def test_each_bad_value_is_one_clear_error(name: str, parameter: str, value: object) -> None:
    try:
        game = make(name, **{parameter: value})
    except InvalidParameterError as error:
        message = str(error)
        assert "\n" not in message
        assert parameter in message, message  # names the parameter ...
        assert "must be" in message, message  # ... and what it may be
        assert repr(value) in message or str(value) in message, message  # quotes the value
        return
    # no error: only the listed in-range values may pass, and they must build a real game
    assert (name, parameter, value) in ACCEPTED, f"{name} accepted {parameter}={value!r}"
    assert isinstance(game, Game) and isinstance(game.initial_state(), State)


@pytest.mark.parametrize("name", game_names())
def test_unknown_parameter_lists_the_known_ones(name: str) -> None:
    with pytest.raises(InvalidParameterError) as info:
        make(name, rows=0)
    message = str(info.value)
    assert "rows" in message and name in message
    known = list(game_parameters(name))
    if known:
        assert all(parameter in message for parameter in known), message
    else:
        assert "takes no parameters" in message


def test_command_line_values_are_accepted() -> None:
    """What ``-p`` hands over: ints, tuples of ints, text, true/false."""
    assert make("nim", piles=5).initial_state().piles == (5,)  # type: ignore[attr-defined]
    assert make("nim", piles="3,4").initial_state().piles == (3, 4)  # type: ignore[attr-defined]
    assert make("nim", piles=(1, 2), misere=True).misere  # type: ignore[attr-defined]
    assert make("kayles", heaps=4).heaps == (4,)  # type: ignore[attr-defined]
    assert make("mnk", m=4, n=4, k=3).info.max_game_length == 16
    assert make("gomoku", size=9).size == 9  # type: ignore[attr-defined]
    assert make("othello", scoring="win_loss").scoring == "win_loss"  # type: ignore[attr-defined]


def test_registered_factories_show_their_parameters() -> None:
    for name, factory in GAMES.items():
        signature = inspect.signature(factory)
        assert not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()), name


def test_unknown_game_lists_the_games_and_the_own_game_form() -> None:
    with pytest.raises(UnknownNameError) as info:
        make("chess")
    assert "connect4" in str(info.value) and "MODULE:CLASS" in str(info.value)


# -- games of your own --------------------------------------------------------------------------
def test_game_from_a_file() -> None:
    game = make(f"{EXAMPLE}:Subtraction", counters=5)
    assert game.info.name == "subtraction"
    state = game.initial_state()
    assert list(state.legal_actions()) == [1, 2, 3]
    assert make(f"{EXAMPLE}:Subtraction").initial_state().left == 21  # type: ignore[attr-defined]


def test_game_from_a_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_games_for_test.py").write_text(EXAMPLE.read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    game = make("my_games_for_test:Subtraction", counters=7)
    assert game.initial_state().left == 7  # type: ignore[attr-defined]
    with pytest.raises(InvalidParameterError, match="unknown parameter colour; known: counters"):
        make("my_games_for_test:Subtraction", colour=1)
    sys.modules.pop("my_games_for_test", None)


def _module(tmp_path: Path, text: str, name: str = "user_game.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


@pytest.mark.parametrize(
    ("source", "attribute", "fragments"),
    [
        (None, "Nope", ["has no 'Nope'", "it defines Pile, Subtraction"]),
        (None, "Pile", ["Pile", "needs the parameters left, player"]),
        ("class NotAGame:\n    pass\n", "NotAGame", ["not a game", "info, initial_state"]),
        ("X = 3\n", "X", ["'X' is a int, not a class"]),
        ("import no_such_module_anywhere\n", "G", ["cannot import", "no_such_module_anywhere"]),
        ("def broken(:\n", "G", ["cannot import", "SyntaxError"]),
        ("raise RuntimeError('boom')\n", "G", ["cannot import", "RuntimeError: boom"]),
        (
            "from searchlab.core.game import GameInfo\n"
            "class G:\n"
            "    info = GameInfo('g')\n"
            "    def initial_state(self):\n"
            "        return object()\n",
            "G",
            ["initial state", "is not a State", "legal_actions"],
        ),
    ],
)
def test_a_bad_game_of_your_own_is_one_clear_line(
    tmp_path: Path, source: str | None, attribute: str, fragments: list[str]
) -> None:
    path = str(EXAMPLE) if source is None else _module(tmp_path, source)
    with pytest.raises(InvalidParameterError) as info:
        make(f"{path}:{attribute}")
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"game '{path}:{attribute}'"), message
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("no/such/file.py:Game", "no such file no/such/file.py"),
        ("no_such_module_for_searchlab:Game", "No module named 'no_such_module_for_searchlab'"),
        (":Game", "expected MODULE:CLASS or FILE.py:CLASS"),
        ("json:", "expected MODULE:CLASS or FILE.py:CLASS"),
        ("json:JSONDecoder", "a JSONDecoder is not a game"),
    ],
)
def test_bad_specs(spec: str, fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=None) as info:
        make(spec)
    assert fragment in str(info.value), str(info.value)
