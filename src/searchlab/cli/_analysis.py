"""Turning a search result into words and JSON, for ``play`` and ``analyse``: the text shows
the first moves of a principal variation (:func:`~searchlab.cli._common.shorten_line`), the
JSON keeps it whole.

>>> from searchlab.core.search_result import SearchResult
>>> from searchlab.games import make
>>> state = make("tictactoe").initial_state()
>>> result = SearchResult(action=4, value=0.0, principal_variation=(4, 0), nodes=9,
...                       depth=2, elapsed=0.5, algorithm="negamax")
>>> summary(state, result)
'value +0.000, line b2 a1, depth 2, 9 nodes, 0.50 s'
"""

from __future__ import annotations

from typing import Any

from searchlab.cli._common import shorten_line
from searchlab.core.game import State, line_notation
from searchlab.core.search_result import SearchResult

__all__ = ["child_line", "children_rows", "result_json", "summary"]


def children_rows(state: State, result: SearchResult) -> list[dict[str, Any]]:
    """The root's children of a Monte Carlo search (notation, visits, value, prior, proven)."""
    rows = []
    for child in result.stats.get("children", ()) or ():
        rows.append(
            {
                "move": state.action_to_string(child["action"]),
                "visits": int(child["visits"]),
                "value": round(float(child["value"]), 4),
                "prior": None if child.get("prior") is None else round(float(child["prior"]), 4),
                "proven": child.get("proven"),
            }
        )
    return rows


def child_line(row: dict[str, Any]) -> str:
    """One root child of :func:`children_rows` as ``play --analysis`` prints it: visits, value,
    the network's prior where the search has one (``az``), and a proven result.

    >>> child_line({"move": "4", "visits": 120, "value": 0.25, "prior": 0.4137, "proven": None})
    '         4  visits     120  value +0.250  prior 0.414'
    >>> child_line({"move": "a1", "visits": 3, "value": -1.0, "prior": None, "proven": "loss"})
    '        a1  visits       3  value -1.000 proven loss'
    """
    prior = "" if row["prior"] is None else f"  prior {row['prior']:.3f}"
    proven = f" proven {row['proven']}" if row["proven"] else ""
    return (
        f"    {row['move']:>6}  visits {row['visits']:>7}  value {row['value']:+.3f}{prior}{proven}"
    )


def summary(state: State, result: SearchResult) -> str:
    """One line: value (or proven outcome), the line, and the cost of the search."""
    if result.is_proven:
        head = f"proven {result.outcome}"
        if result.plies_to_end:
            plies = result.plies_to_end
            head += f" in {plies} ply" if plies == 1 else f" in {plies} plies"
    else:
        head = f"value {result.value:+.3f}"
    parts = [head]
    line = line_notation(state, result.principal_variation)
    if line:
        parts.append("line " + shorten_line(line))
    if result.depth:
        parts.append(f"depth {result.depth}")
    simulations = result.stats.get("simulations")
    if simulations is not None:
        parts.append(f"{simulations} simulations")
    else:
        parts.append(f"{result.nodes} nodes")
    parts.append(f"{result.elapsed:.2f} s")
    return ", ".join(parts)


def result_json(state: State, result: SearchResult | None, action: int, seconds: float) -> dict:
    """The analysis of one search as a JSON-ready dict (``action`` in the game's notation)."""
    data: dict[str, Any] = {
        "action": state.action_to_string(action),
        "value": None,
        "outcome": "unknown",
        "principal_variation": [],
        "children": [],
        "nodes": 0,
        "depth": 0,
        "seconds": round(seconds, 6),
    }
    if result is None:
        return data
    data.update(
        value=round(float(result.value), 6),
        outcome=result.outcome,
        is_proven=result.is_proven,
        principal_variation=line_notation(state, result.principal_variation),
        children=children_rows(state, result),
        nodes=int(result.nodes),
        depth=int(result.depth),
        algorithm=result.algorithm,
        tier=result.tier,
    )
    if "simulations" in result.stats:
        data["simulations"] = int(result.stats["simulations"])
    return data
