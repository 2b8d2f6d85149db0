"""Go at the terminal and in files, for ``play``, ``arena`` and ``analyse``: the rule for ``-p``
with an SGF record loaded (``--load``, ``--sgf``; the record files themselves are
:mod:`searchlab.cli._record`'s, as for every game), the arena's games as SGF, and the score at
the end with the dead stones settled by playing out.

Settling dead stones: area scoring counts the stones on the board, so stones that are dead but
not yet captured would count for their owner. At the end of a game (two passes, or the move
limit) ``play`` settles them in one of two ways (``--settle``):

* ``playouts`` (the default): Monte Carlo play-outs from the final position, the eye-avoiding
  random games of the engine's rollouts
  (:func:`~searchlab.domains.games.go_score.settle_by_playouts`, the library's count, which the
  browser lab uses too); a chain that ends as the opponent's area in most of them is dead and
  removed before the count. Quick (about a second on 9x9) and the same for every engine; a
  seki may be judged either way.
* an agent spec: that engine's own search plays both sides from the final position, scored by
  area, until two passes (:func:`settle`); the stones captured in the play-out were dead. As
  good as the engine: a weak budget can misplay the play-out (fill its own eyes), a strong one
  takes its time per move for every move of the play-out.

Either way the score is Tromp-Taylor area (with komi) of the settled board, and the report says
which stones were dead.

>>> from searchlab.domains.games.go import Go
>>> class Script:  # plays both sides from a list of moves
...     def __init__(self, moves): self.moves = iter(moves)
...     def reset(self): pass
...     def act(self, state, limits=None): return state.string_to_action(next(self.moves))
>>> final = Go(5, komi=0.5).position(black=["C1", "C2", "C3", "C4", "C5"], white=["D3"])
>>> report = settle(final, lambda game: Script("D2 pass D4 pass E3 pass pass".split()), "me")
>>> report.dead, report.moves[-3:], report.settled.result()
(([], ['D3']), ('E3', 'pass', 'pass'), 'B+24.5')
>>> for line in report.lines(): print(line)
dead stones settled by playing out: me played both sides from the final position until two \
passes (7 moves: D2 pass D4 pass E3 pass pass)
dead: black none; white D3
score (Tromp-Taylor area): black 25, white 0, komi 0.5: B+24.5
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go_score import Settlement, result_of_score, settle_by_playouts
from searchlab.domains.games.record import GO_RULES, today
from searchlab.domains.games.sgf import SgfGame, load_sgf, write_sgf

__all__ = [
    "Settlement",
    "is_go",
    "load_record",
    "result_of_score",
    "settle",
    "settle_by_playouts",
    "today",
]

RULES = GO_RULES
"""The ``RU`` written to records: area scoring (Tromp-Taylor) with komi."""

PLAYOUTS = "playouts"
"""``--settle playouts``: dead stones judged by random play-outs (the default)."""


def is_go(game: Any) -> bool:
    """True for the game of Go (any size, komi, handicap)."""
    return isinstance(game, Go)


def load_record(path: str, params: Mapping[str, Any], option: str) -> SgfGame:
    """The Go game saved in the SGF file ``path``; ``params`` (``-p``) may only choose the
    superko rule: the size, komi and handicap come from the file."""
    others = sorted(set(params) - {"superko"})
    if others:
        raise InvalidParameterError(
            f"{option} takes the board size, komi and handicap from the file; drop "
            + ", ".join(f"-p {name}" for name in others)
            + " (only -p superko=... applies)"
        )
    superko = params.get("superko", "positional")
    if superko not in ("positional", "situational", "simple"):
        raise InvalidParameterError(
            f"go: superko must be one of 'positional', 'situational', 'simple', got {superko!r}"
        )
    return load_sgf(path, superko=superko)




def settle(
    final: GoState,
    make_player: Callable[[Go], Any] | None,
    settler: str = "",
    *,
    on_move: Callable[[GoState, int], None] | None = None,
) -> Settlement:
    """Settle the dead stones of ``final`` by playing out (see the module docstring).

    ``make_player(game)`` builds the agent that plays both sides of ``game`` (the same rules
    scored by area); ``None`` scores the board as it stands. ``on_move(state, action)`` sees
    every play-out move. Ends at two passes or after ``size * size * 3`` plies.
    """
    rules = final.game
    if make_player is None:
        return Settlement(final, final, (), ([], []), "")
    if not settler:
        settler = "the engine"
    game = Go(rules.size, rules.komi, superko=rules.superko, scoring="area")  # type: ignore[arg-type]
    state = game.position(
        black=[p for p, colour in enumerate(final.board) if colour == 1],
        white=[p for p, colour in enumerate(final.board) if colour == 2],
        to_move=final.to_move,
    )
    player = make_player(game)
    player.reset()
    moves = []
    while not state.is_terminal():
        action = player.act(state)
        if on_move is not None:
            on_move(state, action)
        moves.append(state.action_to_string(action))
        state = state.apply(action)
    dead: tuple[list[str], list[str]] = ([], [])
    for point, colour in enumerate(final.board):
        if colour and state.board[point] != colour:
            dead[colour - 1].append(final.action_to_string(point))
    return Settlement(final, state, tuple(moves), dead, settler)


@dataclass(slots=True)
class GoExtras:
    """What ``searchlab play go`` adds to a game: the settled score at the end (the record
    file is ``play``'s, :mod:`searchlab.cli._record`, as for every game)."""

    settle_spec: str | None
    seed: int

    @classmethod
    def build(cls, args: Any, game: Go) -> GoExtras:
        """From ``play``'s options: check ``--settle`` before the game starts."""
        from searchlab.agents import HumanAgent, make_agent

        spec: str | None = PLAYOUTS
        if args.settle is not None:
            word = args.settle.strip().lower()
            spec = None if word == "none" else PLAYOUTS if word == PLAYOUTS else args.settle
        if spec not in (None, PLAYOUTS):
            settler = make_agent(spec, Go(game.size, game.komi, scoring="area"), seed=0)
            if isinstance(settler, HumanAgent):
                raise InvalidParameterError(
                    "--settle needs a search agent (it plays both sides), not 'human'"
                )
        return cls(spec, args.seed + 2)

    def settle(self, final: GoState) -> Settlement:
        """The final position scored, dead stones settled by the ``--settle`` agent."""
        if self.settle_spec is None:
            return settle(final, None)
        if self.settle_spec == PLAYOUTS:
            return settle_by_playouts(final, seed=self.seed)
        from searchlab.agents import make_agent

        spec = self.settle_spec
        return settle(final, lambda game: make_agent(spec, game, seed=self.seed), spec)


# -- the arena's games as SGF ---------------------------------------------------------------------
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
        "RU": RULES,
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


def sgf_folder(text: str) -> Path:
    """The folder of ``--sgf DIR``, created when its parent exists; one line otherwise."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise InvalidParameterError(f"--sgf: {text!r} is a file, not a folder")
    if not path.parent.is_dir():
        raise InvalidParameterError(f"--sgf: no such folder {str(path.parent)!r} (for {text!r})")
    path.mkdir(exist_ok=True)
    if not os.access(path, os.W_OK | os.X_OK):
        raise InvalidParameterError(f"--sgf: permission denied, cannot write in {text!r}")
    return path


def save_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed over it)."""
    write_atomically(path, text.encode("utf-8"))
