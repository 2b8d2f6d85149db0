"""When a Go engine passes or resigns instead of playing the move its search chose: one rule,
written once here, for ``searchlab play go`` and the GTP engine (``searchlab gtp``).

Why a rule outside the search: a search values a finished game by who wins it, so once the
game is won every move that keeps the win is worth the same +1, and the search cannot tell
ending the game (a pass after the opponent's pass) from filling its own territory; it went on
filling until its eyes were all it had left, while the person at the board passed again and
again. The search itself is left as it is; :meth:`GoEndgame.act` runs it and decides, as GNU Go
and Pachi do:

* **the opponent has just passed and the game scored now is a win**: pass, which ends the
  game; no search is run (``last_result`` is ``None``).
* **passing is as good as the search's move and the game is over on the board**: no empty
  point is neutral (every empty region touches one colour only: nothing is left to fill for a
  point), the game scored now is a win, and the value of passing is within :data:`TOLERANCE`
  of the value of the move the search chose: pass. The value of passing is measured by the
  same search, with the same budget, from the position after the pass (the opponent to move;
  its value negated): the tree rarely tries the pass at the root (Go's priors rank it last),
  so its own statistics say little about it. This second search runs only when the board
  already wins and has no neutral point, in the last moves of a game; under a clock (a
  ``limits.time``, GTP's time control) each of the two searches gets half the move's time.
* **resign** (an option, off by default: ``resign_below``): the search's value of the position
  (``last_result.value``: -1 lost, +1 won) was below ``resign_below`` at the engine's last two
  moves in a row: :class:`~searchlab.agents.human.Resign` is raised, which ``play`` reports
  as the engine's resignation and GTP answers ``resign``.

"The game scored now is a win" means by every count the game may be scored with: Tromp-Taylor
area of the board as it stands (the rules' own final score, GTP's ``final_score``) and, unless
``settle=False`` (``play --settle none``), that count with the dead stones settled by random
play-outs (:func:`~searchlab.domains.games.go.score.settle_by_playouts`, ``play``'s own
default count at the end, with the same seed, so that ``play`` scores the game the rule ended
as the rule saw it). An engine never ends a game that the count it will be scored by calls
lost; dead stones of the opponent inside its area it captures first (they keep the board's
count from winning).

Only search agents (``mcts`` and the network searches, ``flatmc``, ``alphabeta``) follow the
rule: a person, ``random``, ``greedy`` and an external GTP engine play as they are. ``play go``
and ``gtp`` call :meth:`GoEndgame.act`; the browser lab's search job, which runs the search
itself to stream its analysis, calls the two rules' parts (:meth:`GoEndgame.pass_now`,
:meth:`GoEndgame.closed_and_ahead`, :meth:`GoEndgame.share`, :meth:`GoEndgame.pass_instead`).

>>> from searchlab.agents import make_agent
>>> from searchlab.domains.games.go import Go
>>> game = Go(5, komi=0.5)  # black's B column against white's C column: white is 5.5 ahead
>>> won = game.position(black=[f"B{row}" for row in range(1, 6)],
...                     white=[f"C{row}" for row in range(1, 6)], to_move=0)
>>> after_pass = won.apply(game.pass_action)  # black passed; white to move
>>> engine = make_agent("mcts:simulations=200", game, seed=1)
>>> action, why = GoEndgame().act(engine, after_pass)
>>> after_pass.action_to_string(action), why
('pass', 'black passed and white wins the game scored now (W+5.5): passing ends it')
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from searchlab.agents.human import Resign
from searchlab.agents.search import AlphaBetaAgent, FlatMonteCarloAgent, MCTSAgent
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.go import GoState, area
from searchlab.domains.games.go.score import result_of_score, settle_by_playouts

__all__ = ["RESIGN_MOVES", "SEARCH_AGENTS", "TOLERANCE", "GoEndgame", "resign_threshold"]

TOLERANCE = 0.05
"""How much less than the chosen move's value the pass may be worth and still count as as
good (values run from -1, lost, to +1, won)."""

RESIGN_MOVES = 2
"""The engine's moves in a row whose value must be below ``resign_below`` before it
resigns (one bad estimate is not enough)."""

SEARCH_AGENTS = (AlphaBetaAgent, FlatMonteCarloAgent, MCTSAgent)
"""The agents the rule speaks for."""

_COLOURS = ("black", "white")


def resign_threshold(text: Any, option: str = "--resign-below") -> float:
    """The value below which the engine resigns, checked: a number from -1 to 1 (the search's
    value scale); one line naming ``option`` otherwise.

    >>> resign_threshold("-0.9")
    -0.9
    >>> resign_threshold("90%")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: --resign-below takes the search's value \
below which the engine resigns, a number from -1 (lost) to 1 (won) such as -0.9; got '90%'
    """
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if not -1.0 <= value <= 1.0:  # NaN fails too
        raise InvalidParameterError(
            f"{option} takes the search's value below which the engine resigns, a number "
            f"from -1 (lost) to 1 (won) such as -0.9; got {text!r}"
        )
    return value


class GoEndgame:
    """The rule (see the module docstring) for the engines of one game or session.

    Args:
        resign_below: resign when the search's value was below this at the engine's last
            :data:`RESIGN_MOVES` moves; ``None`` (the default): never resign.
        settle: also require the count with the dead stones settled by play-outs to win
            (``False``: the board as it stands only, ``play --settle none``).
        seed: seeds the settling play-outs (``play`` gives the seed of its own final count).
    """

    def __init__(
        self, *, resign_below: float | None = None, settle: bool = True, seed: int = 0
    ) -> None:
        self.resign_below = None if resign_below is None else resign_threshold(resign_below)
        self.settle = settle
        self.seed = seed
        self._low = [0, 0]  # per colour: the engine's last moves in a row valued below

    def reset(self) -> None:
        """Forget the values of the moves before (a new game, or moves taken back)."""
        self._low = [0, 0]

    def act(self, agent: Any, state: GoState, limits: Limits | None = None) -> tuple[int, str]:
        """The move of ``agent`` in ``state`` with the rule applied, and why the rule chose it
        (``""`` when the move is the agent's own). Raises
        :class:`~searchlab.agents.human.Resign` (its message says why) when the engine
        resigns."""
        if not isinstance(agent, SEARCH_AGENTS):
            return agent.act(state, limits), ""
        player = state.to_move
        game = state.game
        why = self.pass_now(state)
        if why:
            agent.last_result = None  # no search behind this move
            return game.pass_action, why
        closed = self.closed_and_ahead(state)
        if closed:
            limits = self.share(limits)
        action = agent.act(state, limits)
        searched = agent.last_result
        if searched is None:
            return action, ""
        self._check_resign(player, searched)
        if closed and action != game.pass_action:
            why = self.pass_instead(agent, state, action, searched.value, limits)
            agent.last_result = searched  # the search behind the move, not the pass's
            if why:
                return game.pass_action, why
        return action, ""

    def pass_now(self, state: GoState) -> str:
        """The first rule: why the player to move passes now without a search (the opponent
        has just passed and the game scored now is a win), else ``""``."""
        if state.passes != 1:
            return ""
        player = state.to_move
        result = self.winning_result(state.apply(state.game.pass_action), player)
        if result is None:
            return ""
        return (
            f"{_COLOURS[1 - player]} passed and {_COLOURS[player]} wins the game "
            f"scored now ({result}): passing ends it"
        )

    @staticmethod
    def share(limits: Limits | None) -> Limits | None:
        """A clock's share for each of the second rule's two searches (half its time)."""
        if limits is not None and limits.time is not None:
            return replace(limits, time=limits.time / 2)
        return limits

    def winning_result(self, final: GoState, player: int) -> str | None:
        """The result (``"W+5.5"``) when ``player`` wins the game ended at ``final`` by every
        count it may be scored with (see the module docstring), else ``None``."""
        sign = 1 if player == 0 else -1
        score = final.area_score()
        if score * sign <= 0:
            return None
        if self.settle:
            score = settle_by_playouts(final, seed=self.seed).score
            if score * sign <= 0:
                return None
        return result_of_score(score)

    @staticmethod
    def closed_and_ahead(state: GoState) -> bool:
        """No empty point of ``state`` is neutral, and the board as it stands wins for the
        player to move: the second rule may apply (checked before the search, which then
        gets half of a clock's time)."""
        game = state.game
        black, white = area(state.board, game.size)
        if black + white != game.size * game.size:  # a neutral point is left to fill
            return False
        return state.area_score() * (1 if state.to_move == 0 else -1) > 0

    def pass_instead(
        self, agent: Any, state: GoState, action: int, chosen: float, limits: Limits | None
    ) -> str:
        """The second rule: why the pass replaces ``action``, the move ``agent``'s search chose
        with value ``chosen`` in a position :meth:`closed_and_ahead`, else ``""``. Runs the
        agent's search once more, from the position after the pass (``agent.last_result`` is
        then that search's)."""
        game = state.game
        result = self.winning_result(state, state.to_move)
        if result is None:
            return ""
        agent.act(state.apply(game.pass_action), limits)  # the opponent's best after a pass
        reply = agent.last_result
        if reply is None:  # pragma: no cover - the search agents always leave a result
            return ""
        passing = -reply.value
        if passing < chosen - TOLERANCE:
            return ""
        move = state.action_to_string(action)
        return (
            f"passes instead of {move}: passing is worth as much ({passing:+.3f} against "
            f"{chosen:+.3f}), no neutral point is left and {_COLOURS[state.to_move]} wins the "
            f"game scored now ({result})"
        )

    def _check_resign(self, player: int, searched: SearchResult) -> None:
        if self.resign_below is None:
            return
        if searched.value < self.resign_below:
            self._low[player] += 1
        else:
            self._low[player] = 0
        if self._low[player] >= RESIGN_MOVES:
            raise Resign(
                f"the search's value {searched.value:+.3f} was below {self.resign_below:g} "
                f"at {RESIGN_MOVES} moves in a row"
            )
