"""MCTS (UCT, reference tier): right moves in Nim and tic-tac-toe, reproducibility, results,
final move choice, observers, bad parameters and the tier dispatch."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

from searchlab.algorithms.adversarial.solver import Solver
from searchlab.algorithms.mcts import MCTS, mcts
from searchlab.algorithms.mcts import search as search_module
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import play
from searchlab.core.game_events import Backup, Visit
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.core.search_result import SearchResult
from searchlab.core.tier import KernelRegistry
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.tictactoe import TicTacToe


def nim_winning_actions(game: Nim) -> list[int]:
    """Bouton: the moves to a position whose piles XOR to 0 (computed here, independently)."""
    total = 0
    for pile in game.piles:
        total ^= pile
    return [
        index * game.stride + (pile - (pile ^ total)) - 1
        for index, pile in enumerate(game.piles)
        if pile ^ total < pile
    ]


def unique_win_positions(max_pile: int, max_counters: int) -> list[tuple[int, ...]]:
    """Two- and three-pile Nim positions with exactly one winning move."""
    found = []
    for size in (2, 3):
        for piles in itertools.combinations_with_replacement(range(1, max_pile + 1), size):
            if sum(piles) <= max_counters and len(nim_winning_actions(Nim(piles))) == 1:
                found.append(piles)
    return found


# --- playing strength -----------------------------------------------------------------------


@pytest.mark.parametrize("piles", unique_win_positions(max_pile=5, max_counters=8))
def test_uct_finds_the_unique_winning_nim_move(piles: tuple[int, ...]) -> None:
    game = Nim(piles)
    (winning,) = nim_winning_actions(game)
    for seed in (1, 2):
        result = mcts(game, limits=Limits(simulations=3000), seed=seed, tier="reference")
        assert result.action == winning, (piles, seed, result.stats["children"][:3])
        assert result.value > 0  # the winner's mean return is positive


def test_uct_plus_solver_and_transpositions_prove_every_unique_nim_win_up_to_six() -> None:
    positions = unique_win_positions(max_pile=6, max_counters=18)
    assert len(positions) > 30
    for piles in positions:
        game = Nim(piles)
        (winning,) = nim_winning_actions(game)
        result = mcts(
            game,
            limits=Limits(simulations=5000),
            solver=True,
            transpositions=True,
            seed=3,
            tier="reference",
        )
        assert (result.action, result.is_proven, result.value) == (winning, True, 1.0), piles


def perfect_move(solver: Solver, state, rng: random.Random) -> int:
    """A move of best value, chosen at random among the equally good ones."""
    values = solver.action_values(state)
    best = max(value for value, _ in values.values())
    return rng.choice(sorted(action for action, (value, _) in values.items() if value == best))


def play_against_perfect(mcts_player: int, seed: int, **options) -> float:
    game = TicTacToe()
    solver = Solver(game)
    rng = random.Random(seed)
    state = game.initial_state()
    ply = 0
    while not state.is_terminal():
        if state.current_player() == mcts_player:
            limits = Limits(simulations=3000)
            result = mcts(game, state, limits=limits, seed=seed * 100 + ply, **options)
            action = result.action
        else:
            action = perfect_move(solver, state, rng)
        state = state.apply(action)
        ply += 1
    return state.returns()[mcts_player]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_uct_never_loses_tictactoe_to_a_perfect_player(seed: int) -> None:
    for player in (0, 1):
        assert play_against_perfect(player, seed, tier="reference") >= 0, (player, seed)


def test_informed_rollouts_never_lose_tictactoe_to_a_perfect_player() -> None:
    for seed, player in itertools.product((11, 12), (0, 1)):
        outcome = play_against_perfect(player, seed, rollout="informed", tier="reference")
        assert outcome >= 0, (player, seed)


def test_uct_takes_a_win_and_blocks_a_loss() -> None:
    game = TicTacToe()
    win = play(game.initial_state(), "a1 b1 a2 b2")  # X wins at a3
    block = play(game.initial_state(), "a1 b1 a2")  # O must block at a3
    for state in (win, block):
        result = mcts(game, state, limits=Limits(simulations=800), seed=5, tier="reference")
        assert state.action_to_string(result.action) == "a3"


# --- reproducibility and the result ---------------------------------------------------------


def test_same_seed_same_search_different_seed_different_statistics() -> None:
    game = TicTacToe()
    limits = Limits(simulations=1500)
    first = mcts(game, limits=limits, seed=42, tier="reference")
    again = mcts(game, limits=limits, seed=42, tier="reference")
    other = mcts(game, limits=limits, seed=43, tier="reference")
    assert first.stats == again.stats
    assert (first.action, first.value, first.principal_variation, first.nodes) == (
        again.action,
        again.value,
        again.principal_variation,
        again.nodes,
    )
    assert first.stats["children"] != other.stats["children"]


def test_result_fields_and_statistics_are_consistent() -> None:
    game = TicTacToe()
    state = play(game.initial_state(), "b2")
    result = mcts(game, state, limits=Limits(simulations=1200), seed=9, tier="reference")
    assert isinstance(result, SearchResult)
    assert (result.algorithm, result.tier, result.stopped_by) == (
        "mcts",
        "reference",
        "simulations",
    )
    stats = result.stats
    assert set(stats) >= {"simulations", "children", "reused_visits", "c"}
    assert stats["simulations"] == 1200 and stats["reused_visits"] == 0 and stats["c"] == 1.0
    children = stats["children"]
    assert sorted(child["action"] for child in children) == sorted(state.legal_actions())
    visits = [child["visits"] for child in children]
    assert visits == sorted(visits, reverse=True)
    # Every simulation passes through exactly one root child.
    assert sum(visits) == 1200
    assert all(set(child) == {"action", "visits", "value", "prior", "proven"} for child in children)
    assert all(child["prior"] is None and child["proven"] is None for child in children)
    # The chosen action is the most visited child, and the value is its mean.
    assert result.action == children[0]["action"]
    assert result.value == children[0]["value"]
    assert result.principal_variation[0] == result.action
    line_state = state
    for action in result.principal_variation:
        line_state = line_state.apply(action)  # a legal line
    assert 1 <= result.depth <= 8
    assert 1 < result.nodes <= 1 + 1200
    assert not result.is_proven


def test_values_are_for_the_player_to_move_on_both_sides() -> None:
    game = TicTacToe()
    x_wins = play(game.initial_state(), "a1 b1 a2 b2")  # X to move, wins at a3
    o_wins = play(game.initial_state(), "a1 b1 a2 b2 c3")  # O to move, wins at b3
    for state in (x_wins, o_wins):
        result = mcts(game, state, limits=Limits(simulations=600), seed=1, tier="reference")
        assert result.value == 1.0  # the immediate win's every simulation returns +1
        losing = [c for c in result.stats["children"] if c["action"] != result.action]
        assert all(child["value"] < 1.0 for child in losing)


def test_terminal_root_gives_its_exact_value_and_no_action() -> None:
    game = TicTacToe()
    over = play(game.initial_state(), "a1 b1 a2 b2 a3")  # X has won; O to move
    result = mcts(game, over, limits=Limits(simulations=10), seed=1, tier="reference")
    assert (result.action, result.value, result.is_proven) == (None, -1.0, True)


def test_time_budget_stops_the_search() -> None:
    result = mcts(TicTacToe(), limits=Limits(time=0.05), seed=1, tier="reference")
    assert result.stopped_by == "time"
    assert result.stats["simulations"] >= 1 and result.action is not None


def test_node_limit_caps_the_tree() -> None:
    result = mcts(TicTacToe(), limits=Limits(simulations=5000, nodes=100), seed=1)
    assert result.nodes == 100 and result.stopped_by == "nodes"


# --- final move -----------------------------------------------------------------------------


def disagreeing_seed(limits: Limits) -> int:
    """A seed whose tree's most visited root child is not its best valued one."""
    for seed in range(50):
        result = mcts(TicTacToe(), limits=limits, seed=seed, tier="reference")
        children = result.stats["children"]
        best = max(c["value"] for c in children if c["visits"])
        if max(children, key=lambda c: (c["visits"], c["value"]))["value"] < best:
            return seed
    raise AssertionError("no seed where visits and values disagree")


def test_final_move_rules_pick_the_child_they_name() -> None:
    game = TicTacToe()
    limits = Limits(simulations=40)  # few simulations: visits and means may disagree
    seed = disagreeing_seed(limits)
    by_visits = mcts(game, limits=limits, seed=seed, final_move="most_visits", tier="reference")
    by_value = mcts(game, limits=limits, seed=seed, final_move="best_value", tier="reference")
    children = by_visits.stats["children"]
    assert by_value.stats == by_visits.stats  # same seed, same tree
    assert by_visits.action == max(children, key=lambda c: (c["visits"], c["value"]))["action"]
    best = max(
        (c for c in children if c["visits"]), key=lambda c: (c["value"], c["visits"], -c["action"])
    )
    assert (by_value.action, by_value.value) == (best["action"], best["value"])
    assert by_value.action != by_visits.action


def test_robust_final_move_searches_on_until_visits_and_value_agree() -> None:
    game = TicTacToe()
    limits = Limits(simulations=40)
    seed = disagreeing_seed(limits)
    plain = mcts(game, limits=limits, seed=seed, final_move="most_visits", tier="reference")
    robust = mcts(game, limits=limits, seed=seed, final_move="robust", tier="reference")
    assert 40 < robust.stats["simulations"] <= 40 + 20  # at most half the budget again
    assert robust.stats["children"] != plain.stats["children"]
    children = robust.stats["children"]
    most = max(children, key=lambda c: (c["visits"], c["value"]))
    if robust.stats["simulations"] < 60:  # it stopped because they agreed
        assert most["value"] == max(c["value"] for c in children if c["visits"])
    assert robust.action == most["action"]


# --- observers ------------------------------------------------------------------------------


def test_observer_sees_a_selection_path_and_backups_per_simulation() -> None:
    recorder = TraceRecorder()
    result = mcts(TicTacToe(), limits=Limits(simulations=40), seed=2, observer=recorder)
    assert result.tier == "reference"  # an observer needs the reference tier
    visits = [e for e in recorder.events if isinstance(e, Visit)]
    backups = [e for e in recorder.events if isinstance(e, Backup)]
    assert sum(1 for e in visits if e.path == ()) == 40
    assert len(backups) == len(visits)  # each node selected is updated once
    root_backups = [e for e in backups if e.path == ()]
    assert len(root_backups) == 40
    assert all(e.alpha == -math.inf and e.beta == math.inf for e in visits)
    for event in backups:
        assert -1.0 <= event.value <= 1.0
        if event.action is not None:
            assert any(v.path == (*event.path, event.action) for v in visits)


def test_observer_sees_selections_and_one_playout_per_simulation() -> None:
    from searchlab.core.game_events import Playout, Select

    recorder = TraceRecorder()
    mcts(TicTacToe(), limits=Limits(simulations=60), seed=4, observer=recorder)
    selects = [e for e in recorder.events if isinstance(e, Select)]
    playouts = [e for e in recorder.events if isinstance(e, Playout)]
    assert len(playouts) == 60
    root_selects = [e for e in selects if e.path == ()]
    assert len(root_selects) == 60  # every simulation leaves the root once
    # UCT tries each of the 9 first moves once before revisiting any
    assert [e.visits for e in root_selects[:9]] == [0] * 9
    assert {e.action for e in root_selects[:9]} == set(range(9))
    assert max(e.visits for e in root_selects) > 1
    for event in playouts:
        assert len(event.returns) == 2 and event.returns[0] == -event.returns[1]


# --- bad parameters -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "error", "quoted"),
    [
        ({"c": -1.0}, InvalidParameterError, "c must be a finite number >= 0, got -1.0"),
        ({"c": math.nan}, InvalidParameterError, "got nan"),
        ({"rollout": "greedy"}, UnknownNameError, "unknown rollout 'greedy'"),
        ({"rollout": 3}, InvalidParameterError, "rollout must be a name or a callable"),
        ({"final_move": "max_child"}, UnknownNameError, "unknown final_move 'max_child'"),
        ({"limits": None}, InvalidParameterError, "needs a budget"),
        ({"limits": Limits(depth=3)}, InvalidParameterError, "got Limits(depth=3)"),
        ({"lambda_": 0.5}, InvalidParameterError, "it needs an evaluator"),
        ({"exact_endgame": -1}, InvalidParameterError, "exact_endgame must be an integer >= 0"),
        ({"dirichlet_alpha": 0.3}, InvalidParameterError, "needs an evaluator"),
        ({"tier": "gpu"}, InvalidParameterError, "got 'gpu'"),
        ({"seed": "7"}, InvalidParameterError, "seed must be an integer or None, got '7'"),
        ({"solver": "yes"}, InvalidParameterError, "solver must be True or False"),
        ({"observer": 5}, InvalidParameterError, "observer must be a callable"),
        ({"c": math.inf}, InvalidParameterError, "c must be a finite number >= 0, got inf"),
        ({"c_puct": math.nan}, InvalidParameterError, "c_puct must be a finite number >= 0"),
        ({"value_scale": "discs"}, UnknownNameError, "unknown value_scale 'discs'"),
        ({"simulations": 10}, UnknownNameError, "unknown option 'simulations'; known: c,"),
        ({"options": {"c": 1}}, InvalidParameterError, "options must be an MCTSOptions"),
        (
            {"limits": Limits(simulations=2**63 - 1), "seed": 1.5},
            InvalidParameterError,
            "seed must be an integer or None, got 1.5",
        ),
    ],
)
def test_bad_parameters_raise_one_clear_error(options, error, quoted: str) -> None:
    arguments = {"limits": Limits(simulations=10), **options}
    with pytest.raises(error) as raised:
        mcts(TicTacToe(), **arguments)
    assert quoted in str(raised.value)
    with pytest.raises(error):
        MCTS(TicTacToe(), **{k: v for k, v in arguments.items() if k != "limits"}).search(
            None, arguments["limits"]
        )


def test_options_are_made_once_and_keywords_override_them() -> None:
    base = MCTSOptions(c=0.5, solver=True)
    searcher = MCTS(TicTacToe(), options=base)
    assert searcher.options is base  # no copy, no second check
    tuned = MCTS(TicTacToe(), options=base, c=2.0).options
    assert (tuned.c, tuned.solver, base.c) == (2.0, True, 0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):  # nobody below can change them
        base.c = 3.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        MCTSOptions(0.5)  # type: ignore[misc]  # keyword-only
    result = mcts(TicTacToe(), limits=Limits(simulations=200), seed=3, options=base)
    again = mcts(TicTacToe(), limits=Limits(simulations=200), seed=3, c=0.5, solver=True)
    assert result.stats == again.stats and result.stats["c"] == 0.5


def test_a_game_without_the_capabilities_is_refused() -> None:
    class Dice:
        info = TicTacToe().info.__class__("dice", deterministic=False)

        def initial_state(self):
            return TicTacToe().initial_state()

    with pytest.raises(InvalidParameterError, match="deterministic"):
        mcts(Dice(), limits=Limits(simulations=5))


def test_a_user_rollout_callable_is_used_with_the_seeded_rng() -> None:
    calls = []

    def first_action(state, rng):
        calls.append(type(rng).__name__)
        return state.legal_actions()[0]

    result = mcts(TicTacToe(), limits=Limits(simulations=30), rollout=first_action, seed=1)
    assert calls and set(calls) == {"Random"}
    assert result.stats["simulations"] == 30


# --- tiers ----------------------------------------------------------------------------------


def test_auto_tier_calls_the_registered_kernel_with_the_options_unchanged(monkeypatch) -> None:
    seen = {}
    sentinel = SearchResult(action=4, value=0.5, algorithm="mcts", tier="compiled")

    def fake(game, *, state, limits, options, seed):
        seen.update(game=game, state=state, limits=limits, options=options, seed=seed)
        return sentinel if options.is_plain else None

    game, limits = TicTacToe(), Limits(simulations=100)
    registry = KernelRegistry()
    registry.register("mcts", type(game), fake)
    monkeypatch.setattr(search_module, "KERNELS", registry)
    result = mcts(game, limits=limits, c=0.7, seed=5, final_move="robust", solver=True)
    assert result is sentinel
    options = seen.pop("options")
    assert (options.c, options.final_move, options.solver) == (0.7, "robust", True)
    assert seen.pop("state").key() == game.initial_state().key()
    assert seen == {"game": game, "limits": limits, "seed": 5}
    # an options object goes down as it is: the same object, not a copy
    given = MCTSOptions(c=0.3)
    assert mcts(game, limits=limits, options=given) is sentinel and seen["options"] is given
    # Options the kernels do not have keep the reference tier, and so does tier="reference".
    for options in ({"transpositions": True}, {"rollout": "informed"}, {"exact_endgame": 2}):
        assert mcts(game, limits=limits, seed=5, **options).tier == "reference"
    seen.clear()
    assert mcts(game, limits=limits, seed=5, tier="reference").tier == "reference"
    assert seen == {}  # the kernel was not even asked


def test_compiled_tier_without_a_kernel_is_an_error_naming_why() -> None:
    limits = Limits(simulations=10)
    with pytest.raises(InvalidParameterError, match="no compiled tier for the game 'tictactoe'"):
        mcts(TicTacToe(), limits=limits, tier="compiled")
    with pytest.raises(InvalidParameterError, match="transpositions=True needs the reference"):
        mcts(TicTacToe(), limits=limits, tier="compiled", transpositions=True)
    with pytest.raises(InvalidParameterError, match="rollout='informed'"):
        MCTS(TicTacToe(), tier="compiled", rollout="informed")
    # With no kernel, "auto" quietly runs the reference tier.
    assert mcts(TicTacToe(), limits=limits, seed=1).tier == "reference"
