"""An arena game of Go as an SGF record: what ``searchlab arena --sgf DIR`` writes for each
game, to replay in any SGF viewer (Sabaki, GoGui) or to load with ``play --load``.

The record holds the opening and the moves, the agents as ``PB``/``PW``, the rules (``RU``:
area scoring, Tromp-Taylor, with komi), the date, and the result as SGF writes it.
"""

from __future__ import annotations

from typing import Any

from searchlab.domains.games.go.sgf import write_sgf
from searchlab.domains.games.record import GO_RULES, today

__all__ = ["arena_sgf"]


def arena_sgf(record: Any, job: Any) -> tuple[str, str]:
    """The file name and SGF text of a finished arena game (``record``, a
    :class:`~searchlab.arena.worker.GameRecord`, of ``job``): the opening and the moves, the
    agents as ``PB``/``PW``, ``RE`` the area score of a game played to its end (``B+F`` /
    ``W+F`` for a forfeit, ``+R`` for a resignation, ``+T`` for a loss on time; the error as
    the root comment), ``DT`` today."""
    import hashlib

    from searchlab.domains.games import make

    game = make(job.game, **dict(job.game_params))
    state: Any = game.initial_state()
    for move in (*record.opening, *record.moves):
        state = state.apply(state.string_to_action(move))
    termination = str(record.termination)
    winner = "B" if record.result == "1-0" else "W" if record.result == "0-1" else ""
    if termination == "end" or not winner:
        result = state.result() if state.is_terminal() else "0" if not winner else f"{winner}+"
    elif "resign" in termination:
        result = f"{winner}+R"
    elif "time" in termination:
        result = f"{winner}+T"
    else:
        result = f"{winner}+F"
    metadata = {
        "PB": record.first,
        "PW": record.second,
        "DT": today(),
        "RE": result,
        "RU": GO_RULES,
        "EV": "searchlab arena",
        "GN": f"{record.game} game {job.index}",
    }
    comments = {0: f"{termination}: {record.error}"} if record.error else {}
    digest = hashlib.sha1(record.key.encode()).hexdigest()[:8]
    name = f"{_safe(record.first)}_vs_{_safe(record.second)}_game{job.index}_{digest}.sgf"
    return name, write_sgf(state, metadata=metadata, comments=comments)


def _safe(text: str) -> str:
    """``text`` with only letters, digits and ``.=-`` (others become ``-``), for file names."""
    return "".join(c if c.isascii() and (c.isalnum() or c in ".=-") else "-" for c in text)
