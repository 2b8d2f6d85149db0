"""Golden Monte Carlo searches: one seeded search per case, summarised node count by node count.

Every case builds a game and a position a few plies in (fixed move strings), runs **one** search
with a fixed seed and a simulation budget (never a clock), and returns a JSON-able summary: the
move, the value, nodes, simulations, depth and, per root child, its visits, mean value, prior
and proof (``stats["children"]``; for the array PUCT the ``SearchOutcome`` arrays). The summaries
recorded from the code before the MCTS engines were merged into one are in
``golden/mcts_golden.json``; ``test_golden_trees.py`` runs every case again and asks for the
same summary, so a refactor of the engines must leave every search unchanged, visit for visit.

Record (only from the code the summaries must describe; see the commit that added the file)::

    python tests/algorithms/mcts/golden_cases.py --write

Cases whose numbers pass through a PyTorch network are listed in :data:`TORCH_CASES`.

Changed on purpose since the recording (each with the reason; every other field as recorded):

* ``az_agent_connect4_shipped*``: ``depth`` and ``principal_variation``. The ``az`` agent
  reported depth 1 and its move alone; it now reports the deepest visited node and the most
  visited line of its tree (issue 27). Its visits, values and move are unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

GOLDEN = Path(__file__).resolve().parent / "golden" / "mcts_golden.json"
PONS_L3_R1 = Path(__file__).resolve().parents[3].parent / "shared/data/connect4_pons/Test_L3_R1"

Summary = dict[str, Any]
CASES: dict[str, Callable[[], Summary]] = {}
TORCH_CASES: set[str] = set()


def case(
    name: str, *, torch: bool = False
) -> Callable[[Callable[[], Summary]], Callable[[], Summary]]:
    """Register a case under ``name`` (``torch``: its numbers pass through a network)."""

    def register(function: Callable[[], Summary]) -> Callable[[], Summary]:
        assert name not in CASES, name
        CASES[name] = function
        if torch:
            TORCH_CASES.add(name)
        return function

    return register


def run_case(name: str) -> Summary:
    """The summary of case ``name`` as JSON gives it back (tuples as lists, and so on)."""
    return json.loads(json.dumps(CASES[name]()))


# --- summaries ---------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """``value`` with numpy scalars and tuples made plain Python (exact floats kept)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, np.integer | np.bool_):
        return value.item()
    if isinstance(value, np.floating):
        return float(value)
    return value


def summarise(result: Any, state: Any) -> Summary:
    """A ``SearchResult`` of ``mcts``, ``GoSearcher`` or an agent; counts and floats as they are."""
    stats = result.stats
    children = [
        {
            "action": entry["action"],
            "move": state.action_to_string(entry["action"]),
            "visits": entry["visits"],
            "value": entry["value"],
            "prior": entry.get("prior"),
            "proven": entry.get("proven"),
        }
        for entry in stats["children"]
    ]
    summary = {
        "action": result.action,
        "move": None if result.action is None else state.action_to_string(result.action),
        "value": result.value,
        "nodes": result.nodes,
        "depth": result.depth,
        "simulations": stats["simulations"],
        "reused_visits": stats.get("reused_visits"),
        "is_proven": result.is_proven,
        "stopped_by": result.stopped_by,
        "algorithm": result.algorithm,
        "tier": result.tier,
        "principal_variation": list(result.principal_variation),
        "children": children,
    }
    for key in ("root_value", "network_value", "positions_evaluated", "endgame_proofs"):
        if key in stats:
            summary[key] = stats[key]
    return _plain(summary)


def summarise_outcome(outcome: Any, state: Any) -> Summary:
    """A ``puct.SearchOutcome``: its arrays, aligned with its actions."""
    return _plain(
        {
            "best_action": outcome.best_action(),
            "move": state.action_to_string(outcome.best_action()),
            "best_value": outcome.best_value(),
            "root_value": outcome.root_value,
            "network_value": outcome.network_value,
            "simulations": outcome.simulations,
            "player": outcome.player,
            "actions": list(outcome.actions),
            "visits": [int(v) for v in outcome.visits],
            "values": [float(v) for v in outcome.values],
            "priors": [float(p) for p in outcome.priors],
        }
    )


# --- UCT through mcts(), both tiers ---------------------------------------------------------


def _mcts(game: Any, moves: str, simulations: int, seed: int, **options: Any) -> Summary:
    from searchlab.algorithms.mcts import mcts
    from searchlab.core.game import play
    from searchlab.core.limits import Limits

    state = play(game.initial_state(), moves)
    result = mcts(game, state, limits=Limits(simulations=simulations), seed=seed, **options)
    assert result.tier == options.get("tier", result.tier)
    return summarise(result, state)


def _connect4() -> Any:
    from searchlab.domains.games.connect4 import Connect4

    return Connect4()


def _othello(**params: Any) -> Any:
    from searchlab.domains.games.othello import Othello

    return Othello(**params)


def _snakego(**params: Any) -> Any:
    from searchlab.domains.games.snakego import SnakeGo

    return SnakeGo(**params)


def _go(size: int, **params: Any) -> Any:
    from searchlab.domains.games.go import Go

    return Go(size, **params)


def _tictactoe() -> Any:
    from searchlab.domains.games.tictactoe import TicTacToe

    return TicTacToe()


C4_MOVES = "4 4 5 3"
OTHELLO_MOVES = "f5 d6 c3 d3 c4"
SNAKE_MOVES = "down up right left down up right left"
GO9_MOVES = "E5 C3 G7 C7 D4"
GO7_MOVES = "D4 C3 E3"


# compiled tier: Connect Four, Othello, Snake Go (compiled.py, _kernel_loop.py, _kernel_*.py)


@case("uct_compiled_connect4")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 2000, 1, tier="compiled")


@case("uct_compiled_connect4_c0.5_seed7")
def _() -> Summary:
    return _mcts(_connect4(), "4", 1500, 7, c=0.5, tier="compiled")


@case("uct_compiled_connect4_best_value")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 1000, 2, final_move="best_value", tier="compiled")


@case("uct_compiled_connect4_robust")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 1000, 3, final_move="robust", tier="compiled")


@case("uct_compiled_connect4_node_limit")
def _() -> Summary:
    from searchlab.algorithms.mcts import mcts
    from searchlab.core.game import play
    from searchlab.core.limits import Limits

    game = _connect4()
    state = play(game.initial_state(), C4_MOVES)
    limits = Limits(simulations=2000, nodes=300)
    return summarise(mcts(game, state, limits=limits, seed=4, tier="compiled"), state)


@case("uct_compiled_othello")
def _() -> Summary:
    return _mcts(_othello(), OTHELLO_MOVES, 1000, 1, tier="compiled")


@case("uct_compiled_othello_normalised")
def _() -> Summary:
    return _mcts(_othello(), OTHELLO_MOVES, 800, 2, value_scale="normalised", tier="compiled")


@case("uct_compiled_snakego_random")
def _() -> Summary:
    game = _snakego(seed=1, size=8, rounds=20)
    return _mcts(game, SNAKE_MOVES, 1000, 1, tier="compiled")


@case("uct_compiled_snakego_informed")
def _() -> Summary:
    game = _snakego(seed=1, size=8, rounds=20)
    return _mcts(game, SNAKE_MOVES, 1000, 1, rollout="informed", tier="compiled")


@case("uct_compiled_snakego_split_score_difference")
def _() -> Summary:
    # player 0 has just split: two snakes, two plies in a row for the same player
    game = _snakego(seed=1, size=8, rounds=20, scoring="score_difference")
    return _mcts(game, SNAKE_MOVES + " split", 800, 5, value_scale="normalised", tier="compiled")


@case("uct_compiled_snakego_informed_solver")
def _() -> Summary:
    game = _snakego(seed=2, size=6, rounds=6)
    return _mcts(
        game, "down up right left", 1500, 3, rollout="informed", solver=True, tier="compiled"
    )


# compiled tier: Go (go_compiled.py, go/compiled.py); heuristic priors are on by default


@case("uct_compiled_go9")
def _() -> Summary:
    return _mcts(_go(9), GO9_MOVES, 2000, 1, tier="compiled")


@case("uct_compiled_go9_rave1000")
def _() -> Summary:
    return _mcts(_go(9), GO9_MOVES, 2000, 1, rave=1000, tier="compiled")


@case("uct_compiled_go9_rave1000_c0.3_informed")
def _() -> Summary:
    return _mcts(_go(9), GO9_MOVES, 1500, 2, rave=1000, c=0.3, rollout="informed", tier="compiled")


@case("uct_compiled_go7")
def _() -> Summary:
    return _mcts(_go(7), GO7_MOVES, 1500, 3, tier="compiled")


@case("uct_compiled_go7_rave1000")
def _() -> Summary:
    return _mcts(_go(7), GO7_MOVES, 1500, 3, rave=1000, tier="compiled")


@case("uct_compiled_go7_rave300_robust_normalised")
def _() -> Summary:
    game = _go(7, komi=0.5)
    return _mcts(
        game, GO7_MOVES, 1000, 4, rave=300, final_move="robust", value_scale="normalised",
        tier="compiled",
    )  # fmt: skip


@case("uct_compiled_go7_situational_superko_best_value")
def _() -> Summary:
    game = _go(7, superko="situational")
    return _mcts(game, GO7_MOVES, 1000, 5, final_move="best_value", tier="compiled")


def _go_searcher(
    game: Any, moves: str, seed: int, simulations: int, *, priors: bool = True, **options: Any
) -> tuple[Any, Any]:
    from searchlab.algorithms.mcts.go_compiled import GoSearcher
    from searchlab.algorithms.mcts.options import MCTSOptions
    from searchlab.core.game import play

    state = play(game.initial_state(), moves)
    return GoSearcher(game, MCTSOptions(**options), seed, priors=priors), state


def _reuse_two_plies_down(searcher: Any, state: Any, first: int, second: int) -> Summary:
    """A search of ``first`` simulations, then one of ``second`` from the position two plies
    down its principal variation, on the subtree the searcher kept."""
    from searchlab.core.limits import Limits

    one = searcher.search(state, Limits(simulations=first))
    assert one.action is not None
    after = state.apply(one.action).apply(one.principal_variation[1])
    two = searcher.search(after, Limits(simulations=second))
    assert two.stats["reused_visits"] > 0
    return {"first": summarise(one, state), "second": summarise(two, after)}


@case("uct_compiled_go7_searcher_no_priors")
def _() -> Summary:
    # priors off and rave=0: the compiled Go search is plain UCT
    from searchlab.core.limits import Limits

    searcher, state = _go_searcher(_go(7), GO7_MOVES, 6, 1500, priors=False)
    return summarise(searcher.search(state, Limits(simulations=1500)), state)


@case("uct_compiled_go7_searcher_reuse")
def _() -> Summary:
    # tree reuse across moves: the first search, then the position one ply below it (the
    # chosen move: most of the tree kept), then one more ply below that, each searched on with
    # the kept subtree
    from searchlab.core.limits import Limits

    searcher, state = _go_searcher(_go(7), GO7_MOVES, 2, 2000, rave=1000)
    first = searcher.search(state, Limits(simulations=2000))
    assert first.action is not None
    after = state.apply(first.action)
    second = searcher.search(after, Limits(simulations=1000))
    assert second.action is not None
    later = after.apply(second.action)
    third = searcher.search(later, Limits(simulations=1000))
    assert second.stats["reused_visits"] > 0 and third.stats["reused_visits"] > 0
    return {
        "first": summarise(first, state),
        "second": summarise(second, after),
        "third": summarise(third, later),
    }


@case("uct_compiled_go9_searcher_reuse_informed")
def _() -> Summary:

    searcher, state = _go_searcher(_go(9), GO9_MOVES, 3, 1500, rave=1000, rollout="informed")
    return _reuse_two_plies_down(searcher, state, 1500, 800)


# reference tier (search.py, selection.py, final_move.py, rave.py, tree.py)


@case("uct_reference_nim")
def _() -> Summary:
    from searchlab.domains.games.nim import Nim

    return _mcts(Nim((3, 4, 5)), "1:1", 1000, 1, tier="reference")


@case("uct_reference_tictactoe")
def _() -> Summary:
    return _mcts(_tictactoe(), "b2 a1", 1000, 1, tier="reference")


@case("uct_reference_tictactoe_best_value")
def _() -> Summary:
    return _mcts(_tictactoe(), "b2 a1", 600, 2, final_move="best_value", tier="reference")


@case("uct_reference_tictactoe_robust")
def _() -> Summary:
    return _mcts(_tictactoe(), "b2 a1", 600, 3, final_move="robust", tier="reference")


@case("uct_reference_tictactoe_transpositions")
def _() -> Summary:
    return _mcts(_tictactoe(), "b2", 800, 4, transpositions=True, tier="reference")


@case("uct_reference_connect4")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 500, 1, tier="reference")


@case("uct_reference_connect4_exact_endgame")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 300, 2, exact_endgame=3, tier="reference")


@case("uct_reference_othello")
def _() -> Summary:
    return _mcts(_othello(), OTHELLO_MOVES, 200, 1, tier="reference")


@case("uct_reference_gomoku7")
def _() -> Summary:
    from searchlab.domains.games.gomoku import Gomoku

    return _mcts(Gomoku(7), "d4 c3 e4", 200, 1, tier="reference")


@case("uct_reference_snakego")
def _() -> Summary:
    game = _snakego(seed=2, size=6, rounds=10)
    return _mcts(game, "down up right left", 300, 1, tier="reference")


@case("uct_reference_snakego_informed")
def _() -> Summary:
    game = _snakego(seed=2, size=6, rounds=10)
    return _mcts(game, "down up right left", 200, 2, rollout="informed", tier="reference")


@case("uct_reference_go5")
def _() -> Summary:
    return _mcts(_go(5), "C3 B2", 200, 1, tier="reference")


@case("uct_reference_tictactoe_reuse")
def _() -> Summary:
    # the reference MCTS class keeps its tree: the second search starts from a grandchild
    from searchlab.algorithms.mcts import MCTS
    from searchlab.core.game import play

    game = _tictactoe()
    return _reuse_two_plies_down(MCTS(game, seed=3), play(game.initial_state(), "b2"), 600, 400)


# RAVE


@case("rave_reference_tictactoe")
def _() -> Summary:
    return _mcts(_tictactoe(), "b2", 800, 1, rave=300, tier="reference")


@case("rave_reference_connect4")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 400, 2, rave=1000, tier="reference")


@case("rave_reference_go5")
def _() -> Summary:
    return _mcts(_go(5), "C3 B2", 150, 3, rave=1000, tier="reference")


# MCTS-Solver


def _pons_first_line() -> str:
    return PONS_L3_R1.read_text().splitlines()[0].split()[0]


@case("solver_compiled_connect4_pons_l3_r1")
def _() -> Summary:
    from searchlab.domains.games.connect4 import parse_moves

    game = _connect4()
    state = parse_moves(_pons_first_line())
    from searchlab.algorithms.mcts import mcts
    from searchlab.core.limits import Limits

    result = mcts(
        game, state, limits=Limits(simulations=2000), seed=1, solver=True, tier="compiled"
    )
    return summarise(result, state)


@case("solver_compiled_connect4_pons_l3_r1_minus14")
def _() -> Summary:
    # the same game fourteen plies earlier: a longer proof (about a hundred simulations)
    return _mcts(
        _connect4(), " ".join(_pons_first_line()[:-14]), 2000, 3, solver=True, tier="compiled"
    )


@case("solver_compiled_connect4_midgame")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 2000, 2, solver=True, tier="compiled")


@case("solver_reference_tictactoe")
def _() -> Summary:
    return _mcts(_tictactoe(), "b2 a1", 2000, 1, solver=True, tier="reference")


@case("solver_reference_connect4_pons_l3_r1")
def _() -> Summary:
    from searchlab.algorithms.mcts import mcts
    from searchlab.core.limits import Limits
    from searchlab.domains.games.connect4 import parse_moves

    state = parse_moves(_pons_first_line())
    result = mcts(
        _connect4(), state, limits=Limits(simulations=1000), seed=2, solver=True, tier="reference"
    )
    return summarise(result, state)


# PUCT, reference tier, with a stand-in evaluator


class KeyedEvaluator:
    """Priors and a value from a generator seeded by a hash of the position: the same position
    always gets the same numbers. ``evaluate`` for the reference PUCT, ``evaluate_batch`` (and an
    ``encoder`` whose action index is the action) for the array PUCT."""

    def __init__(self, num_actions: int) -> None:
        self.num_actions = num_actions
        self.encoder = self

    def action_to_index(self, state: Any, action: int) -> int:
        return action

    def _row(self, state: Any) -> tuple[np.ndarray, float]:
        rng = np.random.default_rng(zlib.crc32(repr(state.key()).encode()))
        raw = rng.random(self.num_actions) + 0.05
        value = float(rng.uniform(-0.9, 0.9))
        mask = np.zeros(self.num_actions)
        mask[list(state.legal_actions())] = 1.0
        priors = raw * mask
        return priors / priors.sum(), value

    def evaluate(self, state: Any) -> tuple[dict[int, float], float]:
        priors, value = self._row(state)
        return {a: float(priors[a]) for a in state.legal_actions()}, value

    def evaluate_batch(self, states: Any) -> tuple[np.ndarray, np.ndarray]:
        rows = [self._row(state) for state in states]
        return (
            np.array([row[0] for row in rows]).reshape(len(rows), self.num_actions),
            np.array([row[1] for row in rows]),
        )


@case("puct_reference_tictactoe")
def _() -> Summary:
    return _mcts(
        _tictactoe(), "b2 a1", 400, 1, evaluator=KeyedEvaluator(9), lambda_=0.0, tier="reference"
    )


@case("puct_reference_tictactoe_lambda0.5_dirichlet")
def _() -> Summary:
    return _mcts(
        _tictactoe(), "b2", 400, 5, evaluator=KeyedEvaluator(9), lambda_=0.5, c_puct=2.0,
        dirichlet_alpha=0.3, tier="reference",
    )  # fmt: skip


@case("puct_reference_connect4_lambda1")
def _() -> Summary:
    return _mcts(_connect4(), C4_MOVES, 300, 2, evaluator=KeyedEvaluator(7), tier="reference")


# PUCT on arrays (algorithms/mcts/puct.py; learning/puct_arrays.py when recorded)


def _arrays(game: Any, moves: str, evaluator: Any, **config: Any) -> Summary:
    from searchlab.algorithms.mcts.puct import search
    from searchlab.core.game import play

    state = play(game.initial_state(), moves)
    outcome = search(state, evaluator, **config)
    return summarise_outcome(outcome, state)


@case("puct_arrays_tictactoe_keyed_batch1")
def _() -> Summary:
    return _arrays(_tictactoe(), "b2 a1", KeyedEvaluator(9), num_simulations=400, search_batch=1)


@case("puct_arrays_connect4_keyed_batch8_dirichlet")
def _() -> Summary:
    return _arrays(
        _connect4(), C4_MOVES, KeyedEvaluator(7), num_simulations=400, search_batch=8,
        dirichlet_alpha=1.0, rng=11,
    )  # fmt: skip


def _torch_ready() -> None:
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)


def _network_evaluator(game: Any, seed: int = 0) -> Any:
    """A small untrained residual network for ``game``'s encoder, built deterministically."""
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator
    from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

    _torch_ready()
    encoder = encoder_for(game)
    config = NetworkConfig(kind="resnet", blocks=1, channels=8, hidden=16)
    net = PolicyValueNet(encoder.shape, encoder.num_actions, config, seed=seed)
    return NetworkEvaluator(net, encoder)


ARRAY_VARIANTS: dict[str, dict[str, Any]] = {
    "batch1": {"search_batch": 1},
    "batch8": {"search_batch": 8},
    "batch8_fpu_reduction": {"search_batch": 8, "fpu": 0.25, "fpu_mode": "reduction"},
    "batch8_fpu_absolute": {"search_batch": 8, "fpu": -0.5},
    "batch8_virtual_loss3": {"search_batch": 8, "virtual_loss": 3.0},
    "batch8_virtual_loss0": {"search_batch": 8, "virtual_loss": 0.0},
}


def _network_case(game_name: str, variant: str) -> Callable[[], Summary]:
    def run() -> Summary:
        game = _tictactoe() if game_name == "tictactoe" else _connect4()
        moves = "b2 a1" if game_name == "tictactoe" else C4_MOVES
        simulations = 300 if game_name == "tictactoe" else 400
        evaluator = _network_evaluator(game)
        return _arrays(
            game, moves, evaluator, num_simulations=simulations, **ARRAY_VARIANTS[variant]
        )

    return run


for _game_name in ("tictactoe", "connect4"):
    for _variant in ARRAY_VARIANTS:
        case(f"puct_arrays_{_game_name}_net_{_variant}", torch=True)(
            _network_case(_game_name, _variant)
        )


@case("puct_arrays_connect4_net_dirichlet_c_puct1", torch=True)
def _() -> Summary:
    evaluator = _network_evaluator(_connect4(), seed=3)
    return _arrays(
        _connect4(), "4", evaluator, num_simulations=300, search_batch=4, c_puct=1.0,
        dirichlet_alpha=0.5, dirichlet_epsilon=0.25, rng=7,
    )  # fmt: skip


@case("puct_arrays_lockstep_two_trees", torch=True)
def _() -> Summary:
    # self-play's lock step: two trees, one evaluate_batch call per step for both
    from searchlab.algorithms.mcts.options import MCTSOptions
    from searchlab.algorithms.mcts.puct import PUCTTree, evaluate_step
    from searchlab.core.game import play

    game = _connect4()
    evaluator = _network_evaluator(game, seed=1)
    options = MCTSOptions(search_batch=8)
    states = [play(game.initial_state(), moves) for moves in ("4", C4_MOVES)]
    trees = [PUCTTree(state, options, evaluator.encoder, budget=200) for state in states]
    steps = evaluated = 0
    while not all(tree.done for tree in trees):
        evaluated += evaluate_step(trees, evaluator)
        steps += 1
    return {
        "steps": steps,
        "evaluated": evaluated,
        "nodes": [tree.nodes for tree in trees],
        "outcomes": [
            summarise_outcome(tree.outcome(), state)
            for tree, state in zip(trees, states, strict=True)
        ],
    }


@case("az_agent_connect4_shipped", torch=True)
def _() -> Summary:
    from searchlab.agents import make_agent
    from searchlab.core.game import play

    _torch_ready()
    game = _connect4()
    state = play(game.initial_state(), C4_MOVES)
    agent = make_agent("az:simulations=200", game, seed=1)
    agent.act(state)
    return summarise(agent.last_result, state)


@case("az_agent_connect4_shipped_batch1_temperature", torch=True)
def _() -> Summary:
    from searchlab.agents import make_agent
    from searchlab.core.game import play

    _torch_ready()
    game = _connect4()
    state = play(game.initial_state(), "4")
    agent = make_agent("az:simulations=150,batch=1,temperature=1", game, seed=2)
    agent.act(state)
    return summarise(agent.last_result, state)


# AlphaGo's value / rollout mix (learning/alphago/search.py)


def _alphago(lambda_: float, moves: str, simulations: int, seed: int) -> Summary:
    from searchlab.core.game import play
    from searchlab.learning.alphago.rollout_policy import RolloutPolicy
    from searchlab.learning.alphago.search import AlphaGoSearch
    from searchlab.learning.networks.encoders import Connect4Encoder
    from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

    _torch_ready()
    encoder = Connect4Encoder()
    config = NetworkConfig(kind="mlp", blocks=1, hidden=32)
    policy = PolicyValueNet(encoder.shape, 7, config, seed=0)
    value = PolicyValueNet(encoder.shape, 7, config, seed=1) if lambda_ < 1 else None
    rollout = RolloutPolicy.heuristic() if lambda_ > 0 else None
    search = AlphaGoSearch(
        policy, value, rollout, encoder, simulations=simulations, lambda_=lambda_, seed=seed
    )
    state = play(_connect4().initial_state(), moves)
    summary = summarise_outcome(search.search(state), state)
    summary["positions"] = search.evaluator.positions
    return summary


@case("alphago_connect4_lambda0.5", torch=True)
def _() -> Summary:
    return _alphago(0.5, C4_MOVES, 300, 0)


@case("alphago_connect4_lambda0", torch=True)
def _() -> Summary:
    return _alphago(0.0, C4_MOVES, 200, 0)


@case("alphago_connect4_lambda1", torch=True)
def _() -> Summary:
    return _alphago(1.0, C4_MOVES, 200, 3)


# --- recording -----------------------------------------------------------------------------------


def record(names: list[str] | None = None) -> dict[str, Summary]:
    """Every case's summary (or those named), by name."""
    return {name: run_case(name) for name in (names or list(CASES))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN}")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    parser.add_argument(
        "--expect-src", type=Path, help="refuse to run unless searchlab is imported from here"
    )
    args = parser.parse_args(argv)
    import searchlab

    origin = Path(searchlab.__file__).resolve()
    print(f"searchlab from {origin}", file=sys.stderr)
    if args.expect_src is not None and not origin.is_relative_to(args.expect_src.resolve()):
        parser.error(f"searchlab is imported from {origin}, not from {args.expect_src}")
    summaries = record(args.case)
    text = json.dumps(summaries, sort_keys=True, indent=1) + "\n"
    if args.write:
        if args.case:
            parser.error("--write records every case: leave out --case")
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text)
        print(f"wrote {len(summaries)} cases to {GOLDEN}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
