"""The sequential probability ratio test (SPRT): stop a match as soon as it is decided.

Two hypotheses about the Elo difference ``d`` of the first agent over the second: H0:
``d = elo0`` and H1: ``d = elo1`` (``elo0 < elo1``). After each game the log-likelihood ratio
(LLR) of H1 against H0 is compared with Wald's bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)``: below the lower bound H0 is accepted, above the upper one H1,
in between the match goes on. ``alpha`` is the chance of accepting H1 when H0 holds and
``beta`` that of accepting H0 when H1 holds (both 0.05 by default: bounds ±2.94).

The LLR is the generalised SPRT on wins, draws and losses in its normal approximation
(M. Van den Bergh, as fishtest and cutechess use it): with ``N`` games, mean score ``s`` and
per-game score variance ``v``, and ``s0``, ``s1`` the scores that ``elo0`` and ``elo1``
predict under the logistic model,

    LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v).

The score and its variance are estimated with half a virtual win, draw and loss added, so
neither is degenerate after a few games of one kind (a match of only wins would otherwise
have ``v = 0``); ``N`` is the real number of games, so no games give ``LLR = 0``.

>>> test = SPRT(elo0=0, elo1=50)
>>> round(test.upper, 3), round(test.lower, 3)
(2.944, -2.944)
>>> test.test(wins=150, draws=50, losses=60).decision
'H1'
>>> test.test(wins=100, draws=80, losses=100).decision
'H0'
>>> test.test(wins=6, draws=5, losses=5).decision is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from searchlab.arena.elo import expected_score
from searchlab.arena.worker import GameRecord
from searchlab.core.errors import InvalidParameterError

__all__ = ["SPRT", "SPRTMonitor", "SPRTResult"]

Decision = Literal["H0", "H1"]


@dataclass(frozen=True, slots=True)
class SPRTResult:
    """Where a match stands: its LLR, the bounds, and the decision (``None``: go on)."""

    llr: float
    lower: float
    upper: float
    decision: Decision | None

    def describe(self, test: SPRT) -> str:
        """One line for people: ``SPRT elo0=0 elo1=10: LLR 1.23 [-2.94, 2.94], continue``."""
        verdict = {
            None: "no decision yet",
            "H0": f"H0 accepted (not {test.elo1:g} Elo better)",
            "H1": f"H1 accepted (at least {test.elo1:g} Elo better)",
        }[self.decision]
        return (
            f"SPRT elo0={test.elo0:g} elo1={test.elo1:g} alpha={test.alpha:g} "
            f"beta={test.beta:g}: LLR {self.llr:.2f} [{self.lower:.2f}, {self.upper:.2f}], "
            f"{verdict}"
        )


@dataclass(frozen=True, slots=True)
class SPRT:
    """The test for ``elo0`` against ``elo1`` at error rates ``alpha`` and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise InvalidParameterError(
                f"SPRT needs elo0 < elo1, got elo0={self.elo0:g}, elo1={self.elo1:g}"
            )
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise InvalidParameterError(f"SPRT {name} must be in (0, 0.5), got {value!r}")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """``"ELO0,ELO1"`` or ``"ELO0,ELO1,ALPHA,BETA"``.

        >>> SPRT.parse("0,10")
        SPRT(elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05)
        """
        parts = text.split(",")
        try:
            if len(parts) not in (2, 4):
                raise ValueError
            numbers = [float(part) for part in parts]
        except ValueError:
            raise InvalidParameterError(
                f"--sprt expects ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (numbers), got {text!r}"
            ) from None
        if not all(math.isfinite(number) for number in numbers):
            raise InvalidParameterError(f"--sprt expects finite numbers, got {text!r}")
        return cls(*numbers)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio of H1 against H0 after these results (module docstring)."""
        games = wins + draws + losses
        if games == 0:
            return 0.0
        w, d, l = wins + 0.5, draws + 0.5, losses + 0.5  # noqa: E741 (wins, draws, losses)
        total = w + d + l
        score = (w + 0.5 * d) / total
        variance = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score**2) / total
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return games * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)

    def test(self, wins: int, draws: int, losses: int) -> SPRTResult:
        """The LLR and the decision after these results (``decision`` is ``None``: go on)."""
        llr = self.llr(wins, draws, losses)
        lower, upper = self.lower, self.upper
        decision: Decision | None = "H1" if llr >= upper else "H0" if llr <= lower else None
        return SPRTResult(llr, lower, upper, decision)


class SPRTMonitor:
    """The SPRT of one agent against one opponent, kept up to date game by game.

    ``agent`` is the one whose Elo advantage over ``opponent`` the hypotheses are about.
    Games between other agents are ignored.

    >>> from searchlab.arena.worker import GameRecord
    >>> monitor = SPRTMonitor(SPRT(0, 200), "a", "b")
    >>> for n in range(40):
    ...     first, second = ("a", "b") if n % 2 == 0 else ("b", "a")
    ...     monitor.add(GameRecord("", "g", first, second, 0, (), (), (), (), "1-0", "end"))
    >>> monitor.counts, monitor.result.decision
    ((20, 0, 20), 'H0')
    """

    def __init__(self, test: SPRT, agent: str, opponent: str) -> None:
        self.test = test
        self.agent = agent
        self.opponent = opponent
        self._counts = [0, 0, 0]

    def add(self, record: GameRecord) -> None:
        """Count ``record`` if it is a game between the two agents."""
        if {record.first, record.second} != {self.agent, self.opponent}:
            return
        score = record.first_score if record.first == self.agent else 1.0 - record.first_score
        self._counts[0 if score == 1.0 else 1 if score == 0.5 else 2] += 1

    @property
    def counts(self) -> tuple[int, int, int]:
        """The agent's wins, draws and losses so far."""
        wins, draws, losses = self._counts
        return wins, draws, losses

    @property
    def result(self) -> SPRTResult:
        """The test on the games counted so far."""
        return self.test.test(*self.counts)

    @property
    def is_decided(self) -> bool:
        """True once H0 or H1 is accepted: schedule no more games."""
        return self.result.decision is not None
