"""What a worker process runs: one function per job kind, payload in, JSON-ready dict out.

Every function takes the payload the server checked (:mod:`searchlab.web.models`) and a
:class:`~searchlab.web.workers.JobContext`, calls the library's public functions with an
observer where it needs the events, and returns the answer of its route. Errors the library
raises (an illegal move, an unknown name, a bad parameter) travel back as one line and HTTP
400. The forkserver imports this module once, and each worker runs :func:`warm_up` before its
first job, so every search starts warm.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import math
import sys
import time
from collections.abc import Callable
from typing import Any, cast

from searchlab.agents import make_agent
from searchlab.agents.evaluations import default_evaluation, search_position
from searchlab.agents.go_endgame import SEARCH_AGENTS, GoEndgame
from searchlab.agents.human import HumanAgent
from searchlab.agents.search import AlphaBetaAgent, MCTSAgent
from searchlab.algorithms.adversarial.alphabeta import alphabeta, pruned_leaves
from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.algorithms.adversarial.negamax import iterative_deepening
from searchlab.algorithms.mcts import MCTS, UniformEvaluator
from searchlab.algorithms.mcts.searchers import compiled_searcher
from searchlab.algorithms.mcts.tree import Node
from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.jps import jump_point_search
from searchlab.algorithms.path.registry import PATH_ALGORITHMS
from searchlab.algorithms.warmup import warm_up_game
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.game import Game, State, line_notation, play
from searchlab.core.game_events import Backup, Playout, Prune, Select, Visit
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.core.problem import zero_heuristic
from searchlab.core.search_result import SearchResult
from searchlab.domains.games import GAMES, make
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.path.grid import GridMap, GridProblem, manhattan_distance, octile_distance
from searchlab.domains.path.movingai import load_map, load_scenarios
from searchlab.learning.shipped import shipped_games
from searchlab.web.caps import ServerCaps
from searchlab.web.views import build_view

__all__ = ["JOBS", "MAX_EVENTS", "json_number", "warm_up"]

MAX_EVENTS = 500_000
"""The most events a path search sends (about 6 MB of JSON); the counters stay exact, the
animation stops there (``events_truncated``)."""

JobFunction = Callable[[dict[str, Any], Any], dict[str, Any]]


def json_number(value: float | None) -> float | int | str | None:
    """A number as JSON can hold it: infinities as ``"inf"``/``"-inf"``, NaN as ``None``,
    whole floats as ints.

    >>> json_number(float("-inf")), json_number(3.0), json_number(0.25)
    ('-inf', 3, 0.25)
    """
    if value is None:
        return None
    value = float(value)
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


# --- positions ------------------------------------------------------------------------------


def position(payload: dict[str, Any]) -> tuple[Game, State]:
    """The game (registered name and parameters) and the state after the payload's moves."""
    game = make(payload["game"], **payload.get("params", {}))
    state = play(game.initial_state(), list(payload.get("moves", [])))
    return game, state


def view_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/play/state."""
    _, state = position(payload)
    return build_view(payload["game"], state, list(payload.get("moves", [])))


# --- a move of the Play lab -----------------------------------------------------------------


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


# --- the Path lab -----------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _cached_map(path: str) -> GridMap:
    return load_map(path)


def map_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """GET /api/maps/{name}: the rows and the first scenarios."""
    grid = _cached_map(payload["file"])
    scenarios = []
    scen = payload.get("scen")
    if scen:
        for scenario in load_scenarios(scen)[:50]:
            scenarios.append(
                {
                    "start": list(scenario.start),
                    "goal": list(scenario.goal),
                    "optimal": scenario.optimal_length,
                }
            )
    return {
        "name": payload["name"],
        "width": grid.width,
        "height": grid.height,
        "rows": grid.to_strings(),
        "scenarios": scenarios,
    }


_HEURISTICS: dict[str, Callable[[Any, Any], float]] = {
    "octile": octile_distance,
    "manhattan": manhattan_distance,
    "euclidean": lambda a, b: math.dist(a, b),
}


def _heuristic(name: str, problem: GridProblem) -> Callable[[Any], float] | None:
    """``None`` for the grid's own heuristic (octile on 8, Manhattan on 4 neighbours: what the
    command line searches with, compiled), else a function of the cell."""
    own = "octile" if problem.connectivity == 8 else "manhattan"
    if name == own:
        return None
    if name == "zero":
        return zero_heuristic
    distance = _HEURISTICS[name]
    goal = problem.goal
    return lambda cell: distance(cell, goal)


def path_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/path: one search, with its events, by the algorithm of the registry that
    ``searchlab path`` runs (:data:`~searchlab.algorithms.path.registry.PATH_ALGORITHMS`; the
    server checked the name)."""
    if payload.get("file"):
        grid = _cached_map(payload["file"])
    else:
        grid = GridMap.from_strings(payload["rows"], name="<drawn>")
    problem = GridProblem(
        grid, tuple(payload["start"]), tuple(payload["goal"]), connectivity=payload["connectivity"]
    )
    algorithm = payload["algorithm"]
    heuristic = _heuristic(payload["heuristic"], problem)
    limits = Limits(expansions=payload["expansions"], time=context.seconds)
    record = payload.get("events", True)
    events: list[list[Any]] = []

    def observe(event: Any) -> None:
        if len(events) >= MAX_EVENTS:
            return
        kind = event.kind
        if kind == "expand":
            x, y = event.state
            events.append(["expand", x, y, json_number(event.g), json_number(event.h)])
        elif kind == "generate":
            x, y = event.state
            events.append(["generate", x, y])
        elif kind == "reopen":
            x, y = event.state
            events.append(["reopen", x, y])

    observer = observe if record else None
    result = PATH_ALGORITHMS[algorithm].run(
        problem, heuristic=heuristic, weight=payload["weight"], limits=limits, observer=observer
    )
    return {
        "algorithm": algorithm,
        "status": result.status,
        "events": events if record else None,
        "events_truncated": len(events) >= MAX_EVENTS,
        "path": None if result.path is None else [list(cell) for cell in result.path],
        "cost": result.cost,
        "length": result.length,
        "expanded": result.expanded,
        "generated": result.generated,
        "reopened": result.reopened,
        "max_open": result.max_open,
        "elapsed": result.elapsed,
    }


# --- the Trees lab ----------------------------------------------------------------------------


def parse_tree(text: str) -> ExplicitTree:
    """A tree in the text format of ``searchlab tree`` (or its JSON format)."""
    if text.lstrip().startswith("{"):
        return ExplicitTree.from_json(text, source="tree")
    return ExplicitTree.from_text(text, source="tree")


def _tree_dict(tree: ExplicitTree, name: str, player: str) -> dict[str, Any]:
    kind = tree.kind(name)
    node: dict[str, Any] = {
        "name": name,
        "player": player if kind == "leaf" else kind,
        "leaf": kind == "leaf",
        "value": json_number(tree.value(name)) if kind == "leaf" else None,
        "children": [],
    }
    if kind != "leaf":
        other = "min" if kind == "max" else "max"
        node["children"] = [_tree_dict(tree, child, other) for child in tree.children(name)]
    return node


def tree_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/tree: minimax or alpha-beta stepped from the library's observer events."""
    tree = parse_tree(payload["tree"])
    leaves = len(tree.leaves())
    if leaves > payload["max_leaves"]:
        raise InvalidParameterError(
            f"the tree has {leaves} leaves, over the server's cap of {payload['max_leaves']}"
        )
    game = ExplicitTreeGame(tree)
    root = game.initial_state()
    recorder = TraceRecorder()
    search = alphabeta if payload["algorithm"] == "alphabeta" else minimax
    result = search(game, observer=recorder)

    def names(path: tuple[int, ...]) -> list[str]:
        state, line = root, [root.name]
        for action in path:
            state = state.apply(action)
            line.append(state.name)
        return line

    steps: list[dict[str, Any]] = []
    pruned: list[str] = []
    for event in recorder.events:
        line = names(event.path)
        if isinstance(event, Visit):
            steps.append(
                {
                    "kind": "visit",
                    "node": line[-1],
                    "path": line,
                    "alpha": json_number(event.alpha),
                    "beta": json_number(event.beta),
                    "depth": event.depth,
                }
            )
        elif isinstance(event, Prune):
            node = tree.children(line[-1])
            cut = [node[action] for action in event.pruned]
            pruned.extend(cut)
            steps.append(
                {
                    "kind": "prune",
                    "node": line[-1],
                    "path": line,
                    "alpha": json_number(event.alpha),
                    "beta": json_number(event.beta),
                    "pruned": cut,
                    "reason": f"alpha {json_number(event.alpha)} >= beta {json_number(event.beta)}",
                }
            )
        elif isinstance(event, Backup):
            best = None if event.action is None else tree.children(line[-1])[event.action]
            steps.append(
                {
                    "kind": "backup",
                    "node": line[-1],
                    "path": line,
                    "value": json_number(event.value),
                    "best": best,
                }
            )
    best_child = None
    if result.principal_variation:
        best_child = root.action_to_string(result.principal_variation[0])
    return {
        "algorithm": payload["algorithm"],
        "root": _tree_dict(tree, tree.root, "max"),
        "steps": steps,
        "value": json_number(result.stats["max_value"]),
        "best": best_child,
        "pruned": pruned,
        "pruned_leaves": pruned_leaves(game) if payload["algorithm"] == "alphabeta" else [],
        "nodes": result.nodes,
        "tree_nodes": len(tree),
    }


# --- the Monte Carlo lab --------------------------------------------------------------------


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


# --- exercises (W1's generators) ------------------------------------------------------------


def exercise_alphabeta_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """GET /api/exercise/alphabeta: a generated exercise and its answer key."""
    from searchlab.exercises.alphabeta_exercise import generate_alphabeta

    return generate_alphabeta(**payload["settings"]).to_dict()


def exercise_grade_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/exercise/alphabeta/grade: the student's marks against the key of the
    exercise the same settings and seed make."""
    from searchlab.exercises.alphabeta_exercise import generate_alphabeta
    from searchlab.exercises.alphabeta_grading import grade, marks_from_dict

    exercise = generate_alphabeta(**payload["settings"])
    return grade(exercise, marks_from_dict(payload["marks"])).to_dict()


def exercise_astar_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """GET /api/exercise/astar: an A* exercise and its answer key."""
    from searchlab.exercises.astar_exercise import generate_astar

    return generate_astar(**payload["settings"]).to_dict()


JOBS: dict[str, JobFunction] = {
    "view": view_job,
    "search": search_job,
    "map": map_job,
    "path": path_job,
    "tree": tree_job,
    "mcts_steps": mcts_steps_job,
    "exercise_alphabeta": exercise_alphabeta_job,
    "exercise_grade": exercise_grade_job,
    "exercise_astar": exercise_astar_job,
}
"""Every job kind a worker runs."""


def warm_up() -> None:
    """Make a worker ready for the labs' first searches, before it takes a job (so that no
    search pays for this within its time budget): load (or, on an empty numba cache, compile)
    the kernels of every game the Play lab offers (:func:`~searchlab.algorithms.warmup.
    warm_up_game`: the compiled MCTS, with and without the MCTS-Solver, of Connect Four,
    Othello, Snake Go and Go; the exact solvers; each game's rules) and of the path searches;
    with PyTorch (the ``learn`` extra), run torch on one thread and load each network shipped
    for a game and search with it once (``az``'s PUCT kernels). A part that fails says so in
    one line on stderr; the worker still serves."""
    for name in sorted(GAMES):
        _warm(name, functools.partial(_warm_game, name))

    def paths() -> None:
        tiny = GridMap.from_strings(["...", "...", "..."])
        for search in (best_first.astar, best_first.dijkstra, jump_point_search):
            search(GridProblem(tiny, (0, 0), (2, 2)))
            search(GridProblem(tiny, (0, 0), (2, 2)), observer=lambda event: None)

    _warm("path searches", paths)
    if importlib.util.find_spec("torch") is None:  # no learn extra: no network to load
        return
    import torch

    # One thread per worker: the server runs one search per worker process, and torch's
    # thread pool beside numba's slowed az's 800 simulations from 0.4 s to 3-9 s on a busy
    # 2-core machine (measured after this warm-up).
    torch.set_num_threads(1)
    for name in shipped_games():
        if name in GAMES:
            _warm(f"the network shipped for {name}", functools.partial(_warm_network, name))


def _warm_game(name: str) -> None:
    """Load the kernels of game ``name``'s searches and rules."""
    warm_up_game(make(name))


def _warm_network(name: str) -> None:
    """Load the network shipped for game ``name`` and search with it once."""
    game = make(name)
    make_agent("az:simulations=8", game, seed=0).act(game.initial_state())


def _warm(what: str, function: Callable[[], object]) -> None:
    """Run one part of :func:`warm_up`; a failure is one line on stderr, not the worker's end."""
    try:
        function()
    except Exception as error:  # the searches that need it will report it themselves
        print(f"searchlab serve: could not warm up {what}: {error}", file=sys.stderr, flush=True)
