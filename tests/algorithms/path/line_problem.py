"""A forward-only search problem on the integers, shared by the path-search tests: no
heuristic, no ``goal_state``, no predecessors (what a search must do without them)."""

from __future__ import annotations


class Line:
    """From 0, each of ``steps`` (``(step, cost)`` pairs) leads from ``state`` to
    ``state + step`` at ``cost``; the goal is ``goal`` (``None``: no goal, an endless
    problem), past which there are no moves.

    >>> Line(((1, 1.0), (2, 3.0)), goal=3).successors(1)
    [(2, 1.0), (3, 3.0)]
    """

    def __init__(self, steps: tuple[tuple[int, float], ...], goal: int | None = None) -> None:
        self.steps, self.goal = steps, goal

    def initial_state(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def successors(self, state: int) -> list[tuple[int, float]]:
        if self.goal is not None and state >= self.goal:
            return []
        return [(state + step, cost) for step, cost in self.steps]
