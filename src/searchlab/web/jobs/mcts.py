"""The Monte Carlo lab's job: one MCTS run cut into its simulations and their four phases."""

from __future__ import annotations

import math
from typing import Any

from searchlab.algorithms.mcts import MCTS, UniformEvaluator
from searchlab.algorithms.mcts.tree import Node
from searchlab.core.errors import InvalidStateError
from searchlab.core.game import State
from searchlab.core.game_events import Backup, Playout, Select, Visit
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.web.jobs.common import json_number, position

__all__ = ["mcts_steps_job"]


def _walk(state: State, path: tuple[int, ...]) -> State:
    for action in path:
        state = state.apply(action)
    return state


def mcts_steps_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/mcts/steps: one reference-tier MCTS run recorded by a TraceRecorder, cut into
    its simulations and their four phases."""
    game, root_state = position(payload)
    if root_state.is_terminal():
        raise InvalidStateError("the game is already over: there is nothing to search")
    puct = bool(payload.get("puct", False))
    c = float(payload["c"])
    options: dict[str, Any] = {"tier": "reference"}
    if puct:
        options.update(evaluator=UniformEvaluator(), c_puct=c, lambda_=1.0)
    else:
        options["c"] = c
    recorder = TraceRecorder()
    searcher = MCTS(game, seed=int(payload["seed"]), observer=recorder, **options)
    result = searcher.search(root_state, Limits(simulations=int(payload["simulations"])))
    return {
        "simulations": _simulations(root_state, recorder.events, c, puct),
        "tree": _tree_to(searcher.root, root_state, 3),
        "events": dict(recorder.counts()),
        "action": None if result.action is None else root_state.action_to_string(result.action),
        "value": json_number(round(result.value, 4)),
        "algorithm": result.algorithm,
    }


def _simulations(root: State, events: list[Any], c: float, puct: bool) -> list[dict[str, Any]]:
    """The events of each simulation, as its four phases, with every child's UCB1 (or PUCT)
    score at each selection step computed from the statistics the events reported so far."""
    visits: dict[tuple[int, ...], int] = {}
    means: dict[tuple[int, ...], float] = {}  # player 0's view, as Backup reports it
    states: dict[tuple[int, ...], State] = {(): root}
    simulations: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None

    def state_at(path: tuple[int, ...]) -> State:
        if path not in states:
            states[path] = state_at(path[:-1]).apply(path[-1])
        return states[path]

    def labels(path: tuple[int, ...]) -> list[str]:
        return [state_at(path[:i]).action_to_string(a) for i, a in enumerate(path)]

    def score(parent: tuple[int, ...], action: int, count: int) -> dict[str, Any]:
        child = (*parent, action)
        n = visits.get(child, 0)
        player = state_at(parent).current_player()
        mean = means.get(child, 0.0)
        mean = mean if player == 0 else -mean
        big_n = visits.get(parent, 0)
        if puct:
            prior = 1.0 / count
            ucb = (mean if n else 0.0) + c * prior * math.sqrt(max(big_n, 1)) / (1 + n)
        elif n == 0:
            ucb = math.inf
        else:
            explore = c * math.sqrt(2.0 * math.log(big_n)) if big_n > 1 else 0.0
            ucb = mean + explore / math.sqrt(n)
        return {
            "action": action,
            "label": state_at(parent).action_to_string(action),
            "visits": n,
            "mean": json_number(round(mean, 4)),
            "ucb": json_number(round(ucb, 4) if math.isfinite(ucb) else ucb),
        }

    for event in events:
        if isinstance(event, Visit) and event.path == ():
            current = {"select": [], "expand": None, "playout": None, "backup": []}
            simulations.append(current)
        elif current is None:
            continue
        elif isinstance(event, Select):
            actions = list(state_at(event.path).legal_actions())
            chosen = score(event.path, event.action, len(actions))
            chosen["path"] = labels(event.path)
            chosen["children"] = [score(event.path, a, len(actions)) for a in actions]
            current["select"].append(chosen)
        elif isinstance(event, Visit):
            if event.path not in visits:
                current["expand"] = {"path": labels(event.path), "label": labels(event.path)[-1]}
        elif isinstance(event, Playout):
            current["playout"] = {
                "path": labels(event.path),
                "value": json_number(event.returns[0]),
                "returns": [json_number(r) for r in event.returns],
                "plies": None,
            }
        elif isinstance(event, Backup):
            visits[event.path] = visits.get(event.path, 0) + 1
            means[event.path] = float(event.value)
            current["backup"].append(
                {
                    "path": labels(event.path),
                    "visits": visits[event.path],
                    "value": json_number(round(float(event.value), 4)),
                }
            )
    return simulations


def _tree_to(node: Node | None, state: State, depth: int, label: str = "root") -> dict[str, Any]:
    if node is None:
        return {"label": label, "visits": 0, "value": 0, "children": []}
    value = node.value_sum / node.visits if node.visits else 0.0
    out: dict[str, Any] = {
        "label": label,
        "visits": node.visits,
        "value": json_number(round(value, 4)),
        "player": node.player,
        "children": [],
    }
    if depth > 0:
        for action, child in zip(node.actions, node.children, strict=False):
            if child is not None:
                out["children"].append(
                    _tree_to(child, child.state, depth - 1, state.action_to_string(action))
                )
    return out
