"""The compiled MCTS tier (numba kernels for Connect Four and Othello) against the reference
tier and against ground truth.

The two tiers run the same algorithm with different random numbers, so they are compared in
distribution: the mean share of the root's visits each action gets, over many seeds, must
agree within a few standard errors (see :func:`assert_same_distribution`), and a deliberately
different search (another ``c``) must fail that same check. Everything else is exact: legal
actions at every node of the compiled tree, forced wins and blocks, proofs against Pons' and
the endgame solver's values, seeded reproducibility, budgets.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from compiled_tree import grown, walk

from searchlab.algorithms.adversarial.solver import solve
from searchlab.algorithms.kernels import KERNELS
from searchlab.algorithms.mcts import compiled as compiled_module
from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.compiled import _kernel_for, _Search, compiled_mcts
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.rollout import playout, random_policy
from searchlab.algorithms.mcts.value_scale import returns_scale
from searchlab.core.compiled_rng import seed_state
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.domains.games.connect4.compiled import rollout as connect4_rollout
from searchlab.domains.games.othello import PASS, Othello, OthelloState
from searchlab.domains.games.othello.compiled import NORMALISED, OUTCOME
from searchlab.domains.games.othello.compiled import rollout as othello_rollout
from searchlab.domains.games.tictactoe import TicTacToe

CONNECT4 = Connect4()
OTHELLO = Othello()
OTHELLO_WL = Othello(scoring="win_loss")
PLAIN = MCTSOptions()
# FFO #1 (14 empties, black to move; ../shared/data/othello_ffo)
FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
# Random games (random.Random(seed) from the start): white to move, exactly one winning move
# (the exact values come from the endgame solver in the test)
ONE_WIN_OTHELLO = [
    "--XXXX-XX-OOX-X-XOOXXXOOXOXXXOXXXOOOXXXXXOXOOX-OXOOOXXX-XOOXXXX-",
    "OOOO-XO-OOOOXOOXOOOXOOOOOOXOOOO-OOOXXOO--OXXXX-OOOOXXXX-XXXXXX--",
]
# black to move, 4 empties; a forced pass follows two plies later on some lines
PASS_AHEAD = "--XXXXOXX-OOX-OXXOOOXXOXXOXXOXOXXOOOXOOXXOXOOXOXXOOOOOXXXOOXXXXX"


def run(tier: str, game: Any, state: Any, simulations: int, seed: int, **options: Any) -> Any:
    return mcts(
        game, state, limits=Limits(simulations=simulations), seed=seed, tier=tier, **options
    )


def visit_shares(result: SearchResult) -> dict[int, float]:
    total = sum(child["visits"] for child in result.stats["children"])
    return {child["action"]: child["visits"] / total for child in result.stats["children"]}


# --- the compiled tree against the reference game -------------------------------------


@pytest.mark.parametrize(
    ("game", "state"),
    [
        (CONNECT4, CONNECT4.initial_state()),
        (CONNECT4, parse_moves("4453")),
        (CONNECT4, parse_moves("2252576253462244111563")),
        (OTHELLO, OTHELLO.initial_state()),
        (OTHELLO_WL, OTHELLO_WL.state_from_board(FFO_1, "X")),
        (OTHELLO, OTHELLO.state_from_board(PASS_AHEAD, "X")),
    ],
    ids=["c4-empty", "c4-4453", "c4-22-plies", "othello-start", "othello-ffo1", "othello-pass"],
)
@pytest.mark.parametrize("value_scale", ["outcome", "normalised"])
def test_every_node_has_the_reference_games_legal_actions_and_value(
    game, state, value_scale
) -> None:
    options = MCTSOptions(value_scale=value_scale)
    scale = returns_scale(game, value_scale, "test")
    search, nodes = grown(game, state, options, 3000, 5)
    tree = search.tree
    saw_pass = False
    saw_values = set()
    for node, reference in nodes:
        assert bool(tree.is_proven[node]) == reference.is_terminal()
        if reference.is_terminal():
            mover = 1 - reference.current_player()
            assert tree.proven[node] == scale(reference.returns())[mover]
            saw_values.add(float(tree.proven[node]))
        first = int(tree.first[node])
        if first >= 0:
            block = tree.action[first : first + int(tree.n_children[node])]
            assert sorted(block.tolist()) == list(reference.legal_actions())
            saw_pass |= PASS in block.tolist()
    if isinstance(state, OthelloState) and state.empties() == 4:
        assert saw_pass
    assert all(-1.0 <= value <= 1.0 for value in saw_values)
    if game is OTHELLO and saw_values and value_scale == "normalised":
        assert saw_values - {-1.0, 0.0, 1.0}  # disc differences, not only their sign


def test_rollouts_match_the_reference_playouts_in_distribution() -> None:
    """Mean value of uniformly random playouts from the start, compiled vs plain Python (on
    the same value scale), within 4 standard errors of the difference."""
    outcome, normalised = (returns_scale(OTHELLO, s, "test") for s in ("outcome", "normalised"))
    cases = [
        (CONNECT4.initial_state(), connect4_rollout, (0, 0), np.int64, 0, 1500, 60_000, outcome),
        (OTHELLO.initial_state(), othello_rollout, None, np.uint64, NORMALISED, 400, 20_000,
         normalised),
        (OTHELLO.initial_state(), othello_rollout, None, np.uint64, OUTCOME, 400, 20_000, outcome),
    ]  # fmt: skip
    for state, rollout, words, dtype, scoring, n_reference, n_compiled, scale in cases:
        words = words or state.mover_bits()
        w0, w1 = dtype(words[0]), dtype(words[1])
        rng = np.uint64(seed_state(11))
        compiled = np.empty(n_compiled)
        for i in range(n_compiled):
            compiled[i], rng = rollout(w0, w1, np.uint64(rng), scoring)
        python_rng = random.Random(11)
        player = state.current_player()
        reference = np.array(
            [scale(playout(state, random_policy, python_rng))[player] for _ in range(n_reference)]
        )
        difference = compiled.mean() - reference.mean()
        error = math.sqrt(compiled.var() / n_compiled + reference.var() / n_reference)
        assert abs(difference) < 4 * error, (type(state).__name__, difference, error)


# --- agreement in distribution with the reference tier ----------------------------------


def mean_shares(tier: str, game: Any, state: Any, simulations: int, seeds: range, **options: Any):
    shares = [visit_shares(run(tier, game, state, simulations, s, **options)) for s in seeds]
    actions = sorted(shares[0])
    table = np.array([[share[a] for a in actions] for share in shares])
    return actions, table.mean(axis=0), table.std(axis=0, ddof=1) / math.sqrt(len(shares))


def assert_same_distribution(first: tuple, second: tuple) -> None:
    """Per root action, the mean visit shares differ by less than 4 standard errors of the
    difference (+0.01 for actions whose share hardly varies). Over the <= 8 actions of a
    position, equal distributions fail this with probability < 1e-3 (normal means over >= 16
    seeds); the test below checks that a search with another ``c`` does fail it."""
    actions, mean_a, error_a = first
    actions_b, mean_b, error_b = second
    assert actions == actions_b
    bound = 4 * np.sqrt(error_a**2 + error_b**2) + 0.01
    gaps = np.abs(mean_a - mean_b)
    assert (gaps < bound).all(), dict(
        zip(actions, zip(mean_a, mean_b, bound, strict=True), strict=True)
    )


AGREEMENT_CASES = [
    pytest.param(CONNECT4, parse_moves("4453"), 600, 10.0, id="connect4-4453"),
    pytest.param(OTHELLO_WL, OTHELLO_WL.state_from_board(FFO_1, "X"), 400, 3.0, id="othello-ffo1"),
]


@pytest.mark.parametrize(("game", "state", "simulations", "other_c"), AGREEMENT_CASES)
def test_root_visit_shares_agree_with_the_reference_tier(game, state, simulations, other_c):
    reference = mean_shares("reference", game, state, simulations, range(16))
    compiled = mean_shares("compiled", game, state, simulations, range(200))
    assert_same_distribution(compiled, reference)
    # the check has power: the compiled search with a larger exploration constant fails it
    # (measured: gaps of 1.6 and 2.5 times the bound on the worst action)
    other = mean_shares("compiled", game, state, simulations, range(200), c=other_c)
    with pytest.raises(AssertionError):
        assert_same_distribution(other, reference)


# --- forced wins, blocks and proofs --------------------------------------------------


@pytest.mark.parametrize("tier", ["compiled", "reference"])
def test_both_tiers_take_a_win_and_block_a_loss_in_connect4(tier: str) -> None:
    win_now = parse_moves("121314")  # X has three in column 1: playing it wins
    must_block = parse_moves("12131")  # O must stop X's three in column 1
    for state in (win_now, must_block):
        assert run(tier, CONNECT4, state, 1000, 3).action == 0
    proven = run(tier, CONNECT4, win_now, 1000, 3, solver=True)
    assert (proven.is_proven, proven.value, proven.outcome) == (True, 1.0, "win")


@pytest.mark.parametrize("board", ONE_WIN_OTHELLO)
def test_both_tiers_prove_the_only_winning_othello_move(board: str) -> None:
    state = OTHELLO_WL.state_from_board(board, "O")
    exact = solve(OTHELLO_WL, state).stats["action_values"]
    wins = [action for action, value in exact.items() if value > 0]
    assert len(wins) == 1
    for tier, simulations in (("compiled", 50_000), ("reference", 4000)):
        result = run(tier, OTHELLO_WL, state, simulations, 1, solver=True)
        assert (result.action, result.is_proven, result.outcome) == (wins[0], True, "win"), tier
        proven = {child["action"]: child["proven"] for child in result.stats["children"]}
        assert proven[wins[0]] == "win"
        assert all(proven[a] in (None, "loss", "draw") for a in exact if a != wins[0])


def test_the_solver_proves_pons_end_game_outcomes(shared_data: Path) -> None:
    """First 30 End-Easy positions (18 decisive): every decisive one is proven with Pons'
    sign (draws need the whole tree and may stay open); a proof is never wrong. The first five
    decisive ones also through the reference tier."""
    lines = (shared_data / "connect4_pons" / "Test_L3_R1").read_text().split("\n")[:30]
    decisive = 0
    for line in lines:
        moves, score_text = line.split()
        score = int(score_text)
        sign = (score > 0) - (score < 0)
        state = parse_moves(moves)
        tiers = [("compiled", 300_000)]
        if sign and decisive < 5:
            tiers.append(("reference", 3000))
        for tier, simulations in tiers:
            result = run(tier, CONNECT4, state, simulations, 0, solver=True)
            if result.is_proven:
                assert result.outcome == {1: "win", 0: "draw", -1: "loss"}[sign], (moves, tier)
            else:
                assert sign == 0, (moves, tier, result)
        decisive += sign != 0
    assert decisive >= 15


def test_values_are_for_the_player_to_move_on_both_sides() -> None:
    x_wins = run("compiled", CONNECT4, parse_moves("121314"), 2000, 1)  # X to move, wins
    o_wins = run("compiled", CONNECT4, parse_moves("1213147"), 2000, 1)  # O to move, wins
    assert x_wins.value > 0.5 and o_wins.value > 0.5
    assert x_wins.action == 0 and o_wins.action == 4  # X: column 1; O: 2-3-4 and 5


# --- the result, seeds and budgets --------------------------------------------------


def test_result_has_the_reference_tiers_shape() -> None:
    state = parse_moves("4453")
    compiled = run("compiled", CONNECT4, state, 500, 2)
    reference = run("reference", CONNECT4, state, 500, 2)
    assert (compiled.tier, compiled.algorithm) == ("compiled", "mcts")
    assert set(compiled.stats) == set(reference.stats)
    assert [set(child) for child in compiled.stats["children"]] == [
        set(child) for child in reference.stats["children"]
    ]
    children = compiled.stats["children"]
    assert sorted(child["action"] for child in children) == list(state.legal_actions())
    assert [child["visits"] for child in children] == sorted(
        (child["visits"] for child in children), reverse=True
    )
    assert sum(child["visits"] for child in children) == 500
    assert compiled.stats["simulations"] == 500 and compiled.stopped_by == "simulations"
    assert compiled.nodes <= 501 and compiled.depth >= 2
    chosen = max(children, key=lambda child: child["visits"])
    assert compiled.action == chosen["action"] == compiled.principal_variation[0]
    assert compiled.value == chosen["value"]
    line = state
    for action in compiled.principal_variation:
        line = line.apply(action)  # legal all along


def test_same_seed_same_search_different_seed_different_statistics() -> None:
    state = OTHELLO.initial_state()
    first, again, other = (run("compiled", OTHELLO, state, 3000, s) for s in (4, 4, 5))
    for field in ("action", "value", "principal_variation", "nodes", "depth"):
        assert getattr(first, field) == getattr(again, field)
    assert first.stats == again.stats
    assert first.stats["children"] != other.stats["children"]


def test_pausing_to_grow_or_for_the_clock_does_not_change_the_search(monkeypatch) -> None:
    state = parse_moves("44")
    plain = _Search(_kernel_for(CONNECT4, state, PLAIN), Limits(simulations=4000), PLAIN, 9)
    plain.run(4000, None)
    sliced = _Search(_kernel_for(CONNECT4, state, PLAIN), Limits(simulations=4000), PLAIN, 9)
    for _ in range(40):
        sliced.run(100, None)

    def made(search: _Search) -> list[tuple[int, int, float, int]]:
        tree = search.tree
        return sorted(
            (node, int(tree.visits[node]), float(tree.value[node]), int(tree.action[node]))
            for node, _ in walk(search, state)
        )

    assert made(plain) == made(sliced)
    assert np.array_equal(plain.tree.counters, sliced.tree.counters)
    whole = run("compiled", CONNECT4, state, 4000, 9)
    monkeypatch.setattr(compiled_module, "_MAX_INITIAL_SLOTS", 16)  # grows 10 times
    grown = run("compiled", CONNECT4, state, 4000, 9)
    assert grown.stats == whole.stats and grown.principal_variation == whole.principal_variation


def test_time_budget_stops_the_search() -> None:
    result = mcts(OTHELLO, limits=Limits(time=0.3), seed=1, tier="compiled")
    assert result.stopped_by == "time"
    assert result.stats["simulations"] > 64  # more than the first slice
    assert 0.3 <= result.elapsed < 30  # no tight timing: the machine may be loaded
    both = mcts(CONNECT4, limits=Limits(time=60, simulations=2000), seed=1, tier="compiled")
    assert both.stopped_by == "simulations" and both.stats["simulations"] == 2000


def test_node_limit_caps_the_tree_in_both_tiers() -> None:
    for tier in ("compiled", "reference"):
        limits = Limits(simulations=5000, nodes=300)
        result = mcts(CONNECT4, limits=limits, seed=1, tier=tier)
        assert (result.stopped_by, result.nodes) == ("nodes", 300), tier
    # a limit of one node (the root) allows no simulation: no move, as in the reference tier
    first, second = (
        mcts(CONNECT4, limits=Limits(simulations=10, nodes=1), seed=1, tier=tier)
        for tier in ("compiled", "reference")
    )
    for result in (first, second):
        assert (result.action, result.principal_variation, result.stopped_by) == (None, (), "nodes")
    assert first.stats["children"] == second.stats["children"]


def test_final_move_rules_pick_the_child_they_name() -> None:
    state = OTHELLO_WL.state_from_board(FFO_1, "X")
    for seed in range(5):
        by_value = run("compiled", OTHELLO_WL, state, 300, seed, final_move="best_value")
        children = by_value.stats["children"]
        best = max(children, key=lambda child: (child["value"], child["visits"], -child["action"]))
        assert by_value.action == best["action"]
        robust = run("compiled", OTHELLO_WL, state, 300, seed, final_move="robust")
        children = robust.stats["children"]
        assert 300 <= robust.stats["simulations"] <= 450
        most = max(children, key=lambda child: (child["visits"], child["value"], -child["action"]))
        assert robust.action == most["action"]
        if robust.stats["simulations"] < 450:  # it stopped because the two rules agree
            best = max(children, key=lambda c: (c["value"], c["visits"], -c["action"]))
            assert best["action"] == most["action"]


def test_terminal_root_gives_its_exact_value_and_no_action() -> None:
    state = parse_moves("1212121")  # X made four in column 1; O to move has lost
    result = mcts(CONNECT4, state, limits=Limits(simulations=10), tier="compiled")
    assert (result.action, result.value, result.is_proven, result.tier) == (
        None,
        -1.0,
        True,
        "compiled",
    )


def test_only_the_built_in_games_have_a_kernel() -> None:
    class MyConnect4(Connect4):
        pass

    limits = Limits(simulations=10)
    request = {"limits": limits, "options": PLAIN, "seed": 0}
    tictactoe = TicTacToe()
    assert compiled_mcts(tictactoe, state=tictactoe.initial_state(), **request) is None
    assert KERNELS.find("mcts", CONNECT4) is compiled_mcts is KERNELS.find("mcts", OTHELLO_WL)
    assert KERNELS.find("mcts", MyConnect4()) is None and KERNELS.find("mcts", tictactoe) is None
    assert mcts(MyConnect4(), limits=limits, seed=0).tier == "reference"
    assert mcts(CONNECT4, limits=limits, seed=0).tier == "compiled"  # tier="auto"
    assert mcts(OTHELLO, limits=limits, seed=0, solver=True).tier == "compiled"
    # options a kernel does not have: the kernel declines, and "auto" runs the reference tier
    informed = MCTSOptions(rollout="informed")
    assert compiled_mcts(CONNECT4, state=CONNECT4.initial_state(), **{**request,
                         "options": informed}) is None  # fmt: skip
    assert mcts(CONNECT4, limits=limits, seed=0, options=informed).tier == "reference"
