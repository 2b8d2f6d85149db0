"""The Play lab's jobs: a position's view, and an agent's move searched with live analysis."""

from __future__ import annotations

import dataclasses
import time
from typing import Any, cast

from searchlab.agents import make_agent
from searchlab.agents.evaluations import default_evaluation, search_position
from searchlab.agents.go_endgame import SEARCH_AGENTS, GoEndgame
from searchlab.agents.human import HumanAgent
from searchlab.agents.search import AlphaBetaAgent, MCTSAgent
from searchlab.algorithms.adversarial.negamax import iterative_deepening
from searchlab.algorithms.mcts import MCTS
from searchlab.algorithms.mcts.searchers import compiled_searcher
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.game import Game, State, line_notation
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.go import Go, GoState
from searchlab.web.caps import ServerCaps
from searchlab.web.jobs.common import json_number, position
from searchlab.web.views import build_view

__all__ = ["search_job", "view_job"]


def view_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/play/state."""
    _, state = position(payload)
    return build_view(payload["game"], state, list(payload.get("moves", [])))


def _moves_rows(state: State, children: list[dict[str, Any]]) -> list[dict[str, Any]]:
    total = sum(int(child["visits"]) for child in children) or 1
    return [
        {
            "label": state.action_to_string(int(child["action"])),
            "action": int(child["action"]),
            "visits": int(child["visits"]),
            "value": json_number(round(float(child["value"]), 4)),
            "share": round(int(child["visits"]) / total, 4),
            "proven": child.get("proven"),
        }
        for child in children
    ]


def _analysis(
    state: State,
    algorithm: str,
    elapsed: float,
    *,
    children: list[dict[str, Any]] | None = None,
    result: SearchResult | None = None,
    simulations: int | None = None,
) -> dict[str, Any]:
    moves = _moves_rows(state, children or [])
    pv = [] if result is None else line_notation(state, result.principal_variation)
    if not pv and moves and moves[0]["visits"]:
        pv = [moves[0]["label"]]
    return {
        "elapsed": round(elapsed, 4),
        "algorithm": algorithm,
        "moves": moves,
        "pv": pv,
        "value": None if result is None else json_number(round(result.value, 4)),
        "depth": None if result is None else result.depth,
        "nodes": None if result is None else result.nodes,
        "simulations": simulations,
    }


def search_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """WS /ws/search: one move of an agent, with live analysis events, under the agent's own
    budget bounded by the server's caps (``payload["caps"]``:
    :meth:`~searchlab.web.caps.ServerCaps.budget`); the answer's ``limits`` is the budget the
    search ran under and ``notes`` says which cap changed it."""
    game, state = position(payload)
    if state.is_terminal():
        raise InvalidStateError("the game is already over: there is no move to search")
    seed = int(payload.get("seed", 0))
    agent = make_agent(payload["agent"], game, seed=seed)
    if isinstance(agent, HumanAgent):
        raise InvalidParameterError("'human' is a person at the board, not a search agent")
    own = getattr(agent, "limits", None)  # the search agents' own budget
    budget = ServerCaps(**payload["caps"]).budget(own if isinstance(own, Limits) else None)
    limits = budget.limits
    started = time.perf_counter()
    result: SearchResult | None
    endgame = GoEndgame() if isinstance(game, Go) and isinstance(agent, SEARCH_AGENTS) else None
    closed = endgame is not None and endgame.closed_and_ahead(cast(GoState, state))
    passing = endgame.pass_now(cast(GoState, state)) if endgame is not None else ""
    searched_limits = cast(Limits, GoEndgame.share(limits)) if closed else limits
    chosen: int | None
    if passing:  # Go: the opponent passed and the count wins: pass, no search
        result, chosen = None, cast(Go, game).pass_action
    elif isinstance(agent, AlphaBetaAgent):
        result = _alphabeta_live(game, state, searched_limits, context)
        chosen = result.action
    elif isinstance(agent, MCTSAgent) and agent.evaluator is None:  # UCT: live snapshots
        result = _mcts_live(game, state, agent, searched_limits, seed, context)
        chosen = result.action
    else:
        context.progress = lambda: _analysis(state, agent.name, context.elapsed)
        chosen = agent.act(state, searched_limits)
        result = agent.last_result
    action = state.legal_actions()[0] if chosen is None else int(chosen)
    if closed and endgame and result is not None and action != cast(Go, game).pass_action:
        # Go: passing as good as the move and nothing left to fill: pass (the second rule)
        passing = endgame.pass_instead(
            agent, cast(GoState, state), action, result.value, searched_limits
        )
        if passing:
            action = cast(Go, game).pass_action
    seconds = time.perf_counter() - started
    after = state.apply(action)
    moves = [*payload.get("moves", []), state.action_to_string(action)]
    children = list(result.stats.get("children", ())) if result is not None else []
    stats: dict[str, Any] = {"elapsed": round(seconds, 4)}
    if result is not None:
        stats.update(
            algorithm=result.algorithm,
            tier=result.tier,
            nodes=result.nodes,
            depth=result.depth,
            simulations=result.stats.get("simulations"),
            stopped_by=result.stopped_by,
            is_proven=result.is_proven,
            outcome=result.outcome,
        )
    stopped = budget.stop_note(None if result is None else result.stopped_by)
    return {
        "action": int(action),
        "label": state.action_to_string(action),
        "value": None if result is None else json_number(round(result.value, 4)),
        "pv": [] if result is None else line_notation(state, result.principal_variation),
        "moves": _moves_rows(state, children),
        "stats": stats,
        "limits": {
            field.name: getattr(limits, field.name)
            for field in dataclasses.fields(limits)
            if getattr(limits, field.name) is not None
        },
        "notes": [*budget.notes, *([stopped] if stopped else []), *([passing] if passing else [])],
        "view": build_view(payload["game"], after, moves),
    }


def _alphabeta_live(game: Game, state: State, limits: Limits, context: Any) -> SearchResult:
    """The alpha-beta agent's search (iterative-deepening negamax with the game's evaluation),
    one analysis event per completed iteration; the last one's ``stopped_by`` says which
    limit ended it (``"depth"`` when the iterations reached ``limits.depth`` unproven)."""
    searched_game, root = search_position(game, state)
    last: SearchResult | None = None
    for result in iterative_deepening(
        searched_game, root, limits=limits, evaluate=default_evaluation(game)
    ):
        last = result
        context.emit("analysis", _analysis(state, "alphabeta", context.elapsed, result=result))
    if last is None:  # stopped before depth 1 completed
        actions = state.legal_actions()
        return SearchResult(action=actions[0], value=0.0, algorithm="negamax")
    if last.is_proven:
        return last
    if limits.depth is not None and last.depth >= limits.depth:
        return dataclasses.replace(last, stopped_by="depth")
    # cut short by a limit: the clock if it ran out, else the node count
    ran_out = limits.time is not None and context.elapsed >= limits.time
    return dataclasses.replace(last, stopped_by="time" if ran_out else "nodes")


def _mcts_live(
    game: Game, state: State, agent: MCTSAgent, limits: Limits, seed: int, context: Any
) -> SearchResult:
    """The MCTS agent's search with its options, in the tier the engine chooses (the
    compiled searcher of a game with compiled rules, else the reference tier's), with the
    live root statistics of its snapshot every 0.2 s in either."""
    options = agent.options
    searcher: Any = compiled_searcher(game, options, seed)
    if searcher is None:
        searcher = MCTS(game, seed=seed, options=options)
    algorithm = options.algorithm

    def snapshot() -> dict[str, Any]:
        now = searcher.snapshot()
        return _analysis(
            state, algorithm, context.elapsed, children=list(now.children),
            simulations=now.simulations,
        )  # fmt: skip

    context.progress = snapshot
    return cast(SearchResult, searcher.search(state, limits))
