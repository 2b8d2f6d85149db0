"""Go's dead stones settled before the count, by play-outs or by an engine playing them out:
the rule of ``searchlab play go --settle``.

Area scoring counts the stones on the board, so stones that are dead but not yet captured
would count for their owner. At the end of a game (two passes, or the move limit) ``play``
settles them in one of two ways (:class:`GoSettler`, from ``--settle``):

* ``playouts`` (the default): Monte Carlo play-outs from the final position, the eye-avoiding
  random games of the engine's rollouts
  (:func:`~searchlab.domains.games.go.score.settle_by_playouts`, the library's count, which the
  browser lab uses too); a chain that ends as the opponent's area in most of them is dead and
  removed before the count. Quick (about a second on 9x9) and the same for every engine; a
  seki may be judged either way.
* an agent spec: that engine's own search plays both sides from the final position, scored by
  area, until two passes (:func:`settle_by_engine`); the stones captured in the play-out were
  dead. As good as the engine: a weak budget can misplay the play-out (fill its own eyes), a
  strong one takes its time per move for every move of the play-out.

Either way the score is Tromp-Taylor area (with komi) of the settled board, and the report
(:class:`~searchlab.domains.games.go.score.Settlement`) says which stones were dead.

>>> from searchlab.domains.games.go import Go
>>> class Script:  # plays both sides from a list of moves
...     def __init__(self, moves): self.moves = iter(moves)
...     def reset(self): pass
...     def act(self, state, limits=None): return state.string_to_action(next(self.moves))
>>> final = Go(5, komi=0.5).position(black=["C1", "C2", "C3", "C4", "C5"], white=["D3"])
>>> moves = "D2 pass D4 pass E3 pass pass".split()
>>> report = settle_by_engine(final, lambda game: Script(moves), "me")
>>> report.dead, report.moves[-3:], report.settled.result()
(([], ['D3']), ('E3', 'pass', 'pass'), 'B+24.5')
>>> for line in report.lines(): print(line)
dead stones settled by playing out: me played both sides from the final position until two \
passes (7 moves: D2 pass D4 pass E3 pass pass)
dead: black none; white D3
score (Tromp-Taylor area): black 25, white 0, komi 0.5: B+24.5
>>> as_it_stands = GoSettler.from_option("none", final.game, seed=0).settle(final)
>>> as_it_stands.score  # black 5 stones + 10 points, white 1 stone, the D and E columns dame
13.5
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from searchlab.agents.human import HumanAgent
from searchlab.agents.registry import make_agent
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.score import Settlement, settle_by_playouts

__all__ = ["PLAYOUTS", "GoSettler", "settle_by_engine"]

PLAYOUTS = "playouts"
"""``--settle playouts``: dead stones judged by random play-outs (the default)."""


def settle_by_engine(
    final: GoState,
    make_player: Callable[[Go], Any] | None,
    settler: str = "",
    *,
    on_move: Callable[[GoState, int], None] | None = None,
) -> Settlement:
    """Settle the dead stones of ``final`` by playing out (see the module docstring).

    ``make_player(game)`` builds the agent that plays both sides of ``game`` (the same rules
    scored by area); ``None`` scores the board as it stands. ``on_move(state, action)`` sees
    every play-out move. Ends at two passes or after ``size * size * 3`` plies (the game's
    move limit).
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


@dataclass(frozen=True, slots=True)
class GoSettler:
    """How a game's dead stones are settled: ``spec`` is ``None`` (the board as it stands),
    :data:`PLAYOUTS` or an agent spec (that engine plays them out); ``seed`` seeds the
    play-outs or the engine."""

    spec: str | None
    seed: int

    @classmethod
    def from_option(cls, text: str | None, game: Go, seed: int) -> GoSettler:
        """From ``--settle``'s text (``None``: the default, play-outs; ``none``: as it stands;
        ``playouts``; else an agent spec, checked now, before the game starts: a search agent,
        not ``human``)."""
        spec: str | None = PLAYOUTS
        if text is not None:
            word = text.strip().lower()
            spec = None if word == "none" else PLAYOUTS if word == PLAYOUTS else text
        if spec not in (None, PLAYOUTS):
            settler = make_agent(spec, Go(game.size, game.komi, scoring="area"), seed=0)
            if isinstance(settler, HumanAgent):
                raise InvalidParameterError(
                    "--settle needs a search agent (it plays both sides), not 'human'"
                )
        return cls(spec, seed)

    @property
    def by_engine(self) -> bool:
        """Whether an engine plays the dead stones out (it takes its time per move)."""
        return self.spec not in (None, PLAYOUTS)

    def settle(self, final: GoState) -> Settlement:
        """The final position scored, its dead stones settled as :attr:`spec` says."""
        spec = self.spec
        if spec is None:
            return settle_by_engine(final, None)
        if spec == PLAYOUTS:
            return settle_by_playouts(final, seed=self.seed)
        return settle_by_engine(final, lambda game: make_agent(spec, game, seed=self.seed), spec)
