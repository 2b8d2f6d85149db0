"""Layer 0: protocols, result and limit types, events and errors. Imports nothing else."""

from searchlab.core.errors import (
    IllegalMoveError,
    InvalidParameterError,
    InvalidStateError,
    MapFormatError,
    NoPathError,
    ScenarioFormatError,
    SearchlabError,
    SearchStopped,
    UnknownNameError,
    UnsolvableError,
)
from searchlab.core.limits import Limits
from searchlab.core.observer import Expand, Generate, Observer, Reopen, SearchEvent, TraceRecorder
from searchlab.core.problem import (
    Heuristic,
    HeuristicProblem,
    Problem,
    ReversibleProblem,
    zero_heuristic,
)
from searchlab.core.results import PathResult, SearchStatus

__all__ = [
    "Expand",
    "Generate",
    "Heuristic",
    "HeuristicProblem",
    "IllegalMoveError",
    "InvalidParameterError",
    "InvalidStateError",
    "Limits",
    "MapFormatError",
    "NoPathError",
    "Observer",
    "PathResult",
    "Problem",
    "Reopen",
    "ReversibleProblem",
    "ScenarioFormatError",
    "SearchEvent",
    "SearchStatus",
    "SearchStopped",
    "SearchlabError",
    "TraceRecorder",
    "UnknownNameError",
    "UnsolvableError",
    "zero_heuristic",
]
