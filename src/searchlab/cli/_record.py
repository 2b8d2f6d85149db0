"""Game records on the command line: ``play --save FILE``, ``play --load FILE`` and
``analyse --load FILE``, one mechanism for every game (the format is
:mod:`searchlab.domains.games.record`'s: SGF for Go, the text record for the others).
Reading a record runs nothing it names: a game of your own is imported only when GAME names it
too, and only the players of :data:`REUSED_KINDS` are taken from it.

``--sgf FILE`` is Go's older spelling of the same options (``play go --sgf`` saves,
``analyse go --sgf`` loads). With ``--load``, GAME may be left out; given, it must be the
record's game, and each ``-p`` must agree with the record's parameters (Go: an SGF record gives
the size, komi and handicap; ``-p superko=...`` chooses the superko rule, which SGF does not
record). Every problem is one line naming the file (and the line).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.record import GameRecord, is_sgf_file, load_record, record_of_sgf

__all__ = ["REUSED_KINDS", "load_game", "recorded_player", "which_file"]


def which_file(load: str | None, sgf: str | None, option: str) -> tuple[str | None, str]:
    """The file of ``--load``/``--save`` (``option``) or of ``--sgf``, and the option that named
    it; one line when both are given."""
    if load is not None and sgf is not None:
        raise InvalidParameterError(f"{option} and --sgf are one option: give one of them")
    return (sgf, "--sgf") if sgf is not None else (load, option)


def load_game(
    path: str, game: str | None, params: Mapping[str, Any], option: str, command: str
) -> GameRecord:
    """The game recorded in ``path`` (SGF or a text record), checked against the command's
    GAME (``None``: any) and ``-p`` parameters."""
    if is_sgf_file(path):
        from searchlab.cli._go_play import load_record as load_go

        if game not in (None, "go"):
            raise InvalidParameterError(
                f"{option} reads a Go game: use '{command} go', not {game!r} ({path} is SGF)"
            )
        return record_of_sgf(load_go(path, params, option), path)
    record = load_record(path, own_game=game)
    record.check(game, params)
    return record


REUSED_KINDS = frozenset({"human", "random", "greedy", "alphabeta", "flatmc", "mcts"})
"""The agent kinds ``--load`` takes from a record: those that run nothing but searchlab. A
``gtp`` engine (a command) or a network's checkpoint (a file) named in a record is never
started or loaded by reading it; ``--first``/``--second`` name them."""


def recorded_player(record: GameRecord | None, player: int) -> tuple[str, str]:
    """The record's ``player`` (0: first, 1: second) when it is an agent of
    :data:`REUSED_KINDS` (``human``, ``mcts:time=1``), else ``""``; and, when the record names
    someone else, a line saying why they are not taken (a person's name in an SGF ``PB``, a
    ``gtp`` engine)."""
    if record is None or not record.players[player]:
        return "", ""
    from searchlab.agents.spec import parse_spec

    name = record.players[player]
    try:
        kind = parse_spec(name).kind
    except InvalidParameterError:
        kind = ""
    if kind in REUSED_KINDS:
        return name, ""
    which = ("first", "second")[player]
    why = "runs outside searchlab" if kind in ("gtp", "az", "policy", "alphago") else "is no agent"
    return "", f"the record's {which} player {name!r} {why}: --{which} names who plays"
