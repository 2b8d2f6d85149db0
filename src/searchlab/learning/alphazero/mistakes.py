"""The Connect Four mistake rate: how often an agent's move gives away a better game-theoretic
outcome, on Pascal Pons' test positions, judged by the exact solver.

The definition is AlphaZero.jl's (``games/connect-four/scripts/pons_benchmark.jl``, so the
figures compare side by side): in a position, a move is a **mistake** when another legal move
has a strictly better outcome for the player to move, outcomes ordered win > draw > loss. Only
the sign of a score counts: winning more slowly is not a mistake, and nothing is a mistake in a
lost position.

How a move is judged, cheaply:

* the best outcome of the position is the sign of its score, given by Pons' file (ground truth
  that no one here wrote);
* the outcome of the chosen move is the game's own result if it ends the game, else minus the
  sign of the child position's score from searchlab's exact solver
  (:class:`~searchlab.algorithms.adversarial.connect4_solver.Connect4Solver`, a weak solve);
* in a lost position no solve is needed. A chosen move judged *better* than the file's best is
  a disagreement between the file and the solver: it is counted apart (``disagreements``) and
  never as a mistake; there should be none.

The children's outcomes are kept in an :class:`OutcomeCache` (a small JSON file), so a rerun,
or another agent choosing the same moves, needs no solver: the Begin-Hard positions cost
seconds each to solve.

The six files and their names (stage: stones already played; difficulty: moves left):

>>> [name for _, name in PONS_SETS]
['End-Easy', 'Middle-Easy', 'Middle-Medium', 'Begin-Easy', 'Begin-Medium', 'Begin-Hard']
>>> entry = PonsEntry("4455", 18)  # the mover wins at once with a 3 or a 6 (bottom row)
>>> judge = MistakeJudge(OutcomeCache())
>>> judge.outcome(entry, 2), judge.outcome(entry, 5), judge.is_mistake(entry, 0)
(1, 1, True)
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4State, parse_moves

__all__ = [
    "AZJL_ALPHAZERO",
    "AZJL_MINIMAX",
    "PONS_SETS",
    "MistakeJudge",
    "MistakeReport",
    "OutcomeCache",
    "PonsEntry",
    "chooser",
    "mistake_rate",
    "mistake_rates",
    "published_key",
    "read_pons_file",
    "wilson_interval",
]

PONS_SETS: tuple[tuple[str, str], ...] = (
    ("Test_L3_R1", "End-Easy"),
    ("Test_L2_R1", "Middle-Easy"),
    ("Test_L2_R2", "Middle-Medium"),
    ("Test_L1_R1", "Begin-Easy"),
    ("Test_L1_R2", "Begin-Medium"),
    ("Test_L1_R3", "Begin-Hard"),
)
"""Pons' six test files (``Test_L{stage}_R{difficulty}``) and their names, easiest first."""

AZJL_MINIMAX: dict[str, float] = {
    "Easy": 1.7,
    "Begin-Medium": 7.3,
    "Middle-Medium": 9.2,
    "Begin-Hard": 23.5,
}
"""AlphaZero.jl's published mistake rates (%) of its depth-5 minimax baseline, as issue 9
quotes them (the three Easy sets share one figure there)."""

AZJL_ALPHAZERO: dict[str, str] = {
    "Easy": "~0",
    "Begin-Medium": "~2",
    "Middle-Medium": "2.5-3",
    "Begin-Hard": "~7",
}
"""AlphaZero.jl's published rates (%) after 15 iterations (5x128 ResNet, about 15-30 GPU-hours
on an RTX 2070), as issue 9 quotes them."""


def published_key(set_name: str) -> str:
    """The key of :data:`AZJL_MINIMAX` for a set: ``"Easy"`` for the three Easy sets."""
    return "Easy" if set_name.endswith("-Easy") else set_name


@dataclass(frozen=True, slots=True)
class PonsEntry:
    """One line of a Pons file: the moves (Pons' digits, 1-based columns) and the exact score
    for the player to move (> 0 a win, 0 a draw, < 0 a loss)."""

    moves: str
    score: int

    @property
    def best(self) -> int:
        """The best outcome for the player to move: +1, 0 or -1."""
        return (self.score > 0) - (self.score < 0)

    def state(self) -> Connect4State:
        """The position."""
        return parse_moves(self.moves)


def read_pons_file(path: str | os.PathLike[str], limit: int | None = None) -> list[PonsEntry]:
    """The first ``limit`` lines (all when ``None``) of a Pons file: ``MOVES SCORE`` per line.
    A malformed line, or a position already over, is one ``InvalidParameterError`` naming the
    file and line."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidParameterError(
            f"cannot read Pons file {source}: {error.strerror or error}"
        ) from None
    entries: list[PonsEntry] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if limit is not None and len(entries) >= limit:
            break
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError("expected 'MOVES SCORE'")
            entry = PonsEntry(parts[0], int(parts[1]))
            if entry.state().is_terminal():
                raise ValueError("the game is already over")
        except (ValueError, InvalidParameterError) as error:  # IllegalMoveError is a ValueError
            raise InvalidParameterError(f"{source}:{number}: {line.strip()!r}: {error}") from None
        entries.append(entry)
    return entries


class OutcomeCache:
    """Solved outcomes of positions (Pons' move strings -> +1/0/-1 for the player to move),
    kept in a JSON file when ``path`` is given: read at once if it exists, written
    atomically by :meth:`save`. A file that is not such a cache is one ``InvalidParameterError``.

    >>> cache = OutcomeCache()
    >>> cache.put("4455", 1); cache.get("4455"), cache.get("44"), len(cache)
    (1, None, 1)
    """

    FORMAT = "searchlab connect4 outcomes 1"

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._outcomes: dict[str, int] = {}
        self._dirty = False
        if self.path is not None and self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if data.get("format") != self.FORMAT:
                    raise ValueError("not a searchlab Connect Four outcome cache")
                outcomes = data["outcomes"]
                if not all(value in (-1, 0, 1) for value in outcomes.values()):
                    raise ValueError("an outcome is not -1, 0 or 1")
            except (OSError, ValueError, KeyError, AttributeError, TypeError) as error:
                raise InvalidParameterError(f"outcome cache {self.path}: {error}") from None
            self._outcomes = {str(key): int(value) for key, value in outcomes.items()}

    def get(self, moves: str) -> int | None:
        """The cached outcome of the position after ``moves``, or ``None``."""
        return self._outcomes.get(moves)

    def put(self, moves: str, outcome: int) -> None:
        """Remember an outcome."""
        self._outcomes[moves] = outcome
        self._dirty = True

    def __len__(self) -> int:
        return len(self._outcomes)

    def save(self) -> None:
        """Write the file (temporary file, then rename) if anything was added."""
        if self.path is None or not self._dirty:
            return
        data = {
            "format": self.FORMAT,
            "about": "exact outcomes (+1 win, 0 draw, -1 loss for the player to move) of "
            "Connect Four positions (Pons' move strings), from searchlab's solver",
            "outcomes": dict(sorted(self._outcomes.items())),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, indent=0, separators=(",", ":")) + "\n"
        write_atomically(self.path, text.encode("utf-8"))
        self._dirty = False


class MistakeJudge:
    """Judges moves in Pons positions (see the module): the outcome of a move, and whether it
    is a mistake. The solver is made on first need (its table takes ``2**table_log2`` slots of
    8 bytes)."""

    def __init__(self, cache: OutcomeCache, *, table_log2: int = 22) -> None:
        self.cache = cache
        self._table_log2 = table_log2
        self._solver: Any = None
        self.solves = 0
        """Positions the solver was asked about (cache misses)."""
        self.solver_seconds = 0.0

    def _solve(self, state: Connect4State) -> int:
        """The outcome of the non-terminal ``state`` for its player to move."""
        cached = self.cache.get(state.moves)
        if cached is not None:
            return cached
        if self._solver is None:
            from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver

            self._solver = Connect4Solver(table_log2=self._table_log2)
        start = time.perf_counter()
        outcome = int(self._solver.score(state, weak=True))
        self.solver_seconds += time.perf_counter() - start
        self.solves += 1
        self.cache.put(state.moves, outcome)
        return outcome

    def outcome(self, entry: PonsEntry, column: int) -> int:
        """The outcome (+1/0/-1) for the player to move in ``entry`` of playing ``column``
        (0-based) with best play after it."""
        state = entry.state()
        if column not in state.legal_actions():
            raise InvalidParameterError(
                f"position {entry.moves}: column {column + 1} is not a legal move"
            )
        child = state.apply(column)
        if child.is_terminal():
            mover_return = child.returns()[state.current_player()]
            return (mover_return > 0) - (mover_return < 0)
        return -self._solve(child)

    def is_mistake(self, entry: PonsEntry, column: int) -> bool:
        """Whether ``column`` is a mistake: its outcome is worse than the position's best."""
        if entry.best < 0:
            return False  # every move loses: none is worse than another
        return self.outcome(entry, column) < entry.best


@dataclass(slots=True)
class MistakeReport:
    """The mistakes of one agent on one set."""

    set_name: str
    positions: int = 0
    mistakes: int = 0
    disagreements: int = 0
    agent_seconds: float = 0.0
    mistaken: list[str] = field(default_factory=list)
    """The positions (move strings) where the agent erred."""

    @property
    def rate(self) -> float:
        """Mistakes per position (0 with no positions)."""
        return self.mistakes / self.positions if self.positions else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of :attr:`rate`."""
        return wilson_interval(self.mistakes, self.positions)


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` with no trials); ``successes``
    may be fractional (a match score, draws as half points).

    >>> low, high = wilson_interval(0, 50)
    >>> low, round(high, 4)
    (0.0, 0.0713)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mistake_rate(
    choose: Callable[[Connect4State], int],
    entries: Sequence[PonsEntry] | Iterable[PonsEntry],
    judge: MistakeJudge,
    *,
    set_name: str = "",
    progress: Callable[[int], None] | None = None,
) -> MistakeReport:
    """Ask ``choose(state) -> column`` for a move in every entry's position and count the
    mistakes (see the module). ``progress(i)`` is called after each position."""
    report = MistakeReport(set_name)
    for index, entry in enumerate(entries):
        state = entry.state()
        start = time.perf_counter()
        column = int(choose(state))
        report.agent_seconds += time.perf_counter() - start
        report.positions += 1
        if entry.best >= 0:
            outcome = judge.outcome(entry, column)
            if outcome > entry.best:
                report.disagreements += 1
            elif outcome < entry.best:
                report.mistakes += 1
                report.mistaken.append(entry.moves)
        if progress is not None:
            progress(index + 1)
    return report


def chooser(agent: Any) -> Callable[[Connect4State], int]:
    """``choose(state)`` for :func:`mistake_rate` from an agent: reset, then ``act`` (each
    position a fresh game)."""

    def choose(state: Connect4State) -> int:
        agent.reset()
        return int(agent.act(state))

    return choose


def mistake_rates(
    choose: Callable[[Connect4State], int],
    folder: str | os.PathLike[str],
    judge: MistakeJudge,
    *,
    limit: int | None = None,
    sets: Sequence[tuple[str, str]] = PONS_SETS,
) -> list[MistakeReport]:
    """:func:`mistake_rate` on each of ``sets`` (Pons' files in ``folder``, their first
    ``limit`` lines), the judge's cache saved after each set (a training loop's measure).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "Test_L3_R1").write_text("121212 18\\n")
    >>> [report] = mistake_rates(lambda state: 0, folder, MistakeJudge(OutcomeCache()),
    ...                          sets=PONS_SETS[:1])
    >>> report.set_name, report.positions, report.mistakes
    ('End-Easy', 1, 0)
    """
    reports = []
    for file, name in sets:
        entries = read_pons_file(Path(folder) / file, limit)
        reports.append(mistake_rate(choose, entries, judge, set_name=name))
        judge.cache.save()
    return reports
