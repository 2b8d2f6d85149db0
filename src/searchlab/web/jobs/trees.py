"""The Trees lab's job: minimax or alpha-beta on a tree, stepped from the observer's events."""

from __future__ import annotations

from typing import Any

from searchlab.algorithms.adversarial.alphabeta import alphabeta, pruned_leaves
from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game_events import Backup, Prune, Visit
from searchlab.core.observer import TraceRecorder
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.web.jobs.common import json_number

__all__ = ["parse_tree", "tree_job"]


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
