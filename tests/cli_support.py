"""Running the real ``searchlab`` command line in tests (every subcommand registered)."""

from __future__ import annotations

import io

import pytest

from searchlab.cli.main import main


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``searchlab ARGV...``; returns (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def play_typed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, *argv: str
) -> tuple[str, str]:
    """Run ``searchlab ARGV...`` with ``typed`` as what the person types (then the end of
    input); asserts exit code 0; returns (stdout, stderr)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code, out, err = run_main(capsys, *argv)
    assert code == 0, err
    return out, err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Bad input: exit code 2, one line ``searchlab: error: ...`` on stderr, no traceback."""
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("searchlab"), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


# Games of your own gone wrong, as a newcomer's file would hold them: ``Broken`` raises once its
# pile falls below 5 (line GAMES_APPLY_LINE, in ``apply``), ``Endless`` never ends although it
# says no game lasts over 30 plies.
GAMES = """\
from searchlab.core.game import GameInfo, parse_int_action


class Broken:
    def __init__(self, counters: int = 10) -> None:
        self.counters = counters
        self.info = GameInfo(name="broken", max_game_length=counters)

    def initial_state(self):
        return Pile(self.counters, 0)


class Pile:
    def __init__(self, left, player):
        self.left, self.player = left, player
    def apply(self, action):
        if self.left - action < 5:
            raise KeyError("the pile fell below 5")
        return Pile(self.left - action, 1 - self.player)
    def current_player(self): return self.player
    def legal_actions(self): return [t for t in (1, 2, 3) if t <= self.left]
    def is_terminal(self): return self.left == 0
    def returns(self): return (0.0, 0.0)
    def key(self): return (self.left, self.player)
    def action_to_string(self, action): return str(action)
    def string_to_action(self, text): return parse_int_action(text, self)
    def __str__(self): return f"{self.left} counters"


class Endless:
    def __init__(self) -> None:
        self.info = GameInfo(name="endless", max_game_length=30)

    def initial_state(self):
        return Loop(0, 0)


class Loop:
    def __init__(self, ply, player): self.ply, self.player = ply, player
    def current_player(self): return self.player
    def legal_actions(self): return [1, 2]
    def apply(self, action): return Loop(self.ply + 1, 1 - self.player)
    def is_terminal(self): return False
    def returns(self): return (0.0, 0.0)
    def key(self): return (self.ply % 2, self.player)
    def action_to_string(self, action): return str(action)
    def string_to_action(self, text): return parse_int_action(text, self)
    def __str__(self): return f"ply {self.ply}"
"""
GAMES_APPLY_LINE = 18
"""The line of :data:`GAMES` that raises."""
