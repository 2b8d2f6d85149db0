"""The compiled MCTS for Go (``go_compiled``, ``go.compiled``): the moves tactics decide, found
by both tiers; seeds; tree reuse; superko; the pass and the score; RAVE's strength; the
registry and the agent."""

from __future__ import annotations

import dataclasses
import random

import pytest
from random_play import random_walk

from searchlab.agents.search import MCTSAgent
from searchlab.algorithms.kernels import KERNELS, mcts_features, mcts_rollouts
from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.go_compiled import EXPAND_VISITS, GoSearcher, go_mcts
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.go import Go, GoState

COLUMNS = "ABCDEFG"


def semeai(to_move: int) -> GoState:
    """7x7, komi 0.5: a chain of the player to move on row 5 whose only liberty is D6, and an
    opponent chain on row 4 whose only liberty is D3 (walls of the other colour on rows 6 and
    3). D3 captures seven stones and wins; a move elsewhere loses the row-5 chain (and the
    game)."""
    mover = [f"{c}5" for c in COLUMNS] + [f"{c}3" for c in COLUMNS if c != "D"]
    other = [f"{c}4" for c in COLUMNS] + [f"{c}6" for c in COLUMNS if c != "D"]
    black, white = (mover, other) if to_move == 0 else (other, mover)
    return Go(7, komi=0.5).position(black=black, white=white, to_move=to_move)


@pytest.mark.parametrize("to_move", [0, 1])
def test_both_tiers_capture_the_chain_in_atari(to_move: int) -> None:
    state = semeai(to_move)
    capture = state.string_to_action("D3")
    after = state.apply(capture)
    assert after.captures[to_move] == 7  # the rules say this is the capture
    for rave in (0.0, 500.0):
        reference = mcts(state.game, state, limits=Limits(simulations=150), seed=3, rave=rave,
                         tier="reference")  # fmt: skip
        assert reference.tier == "reference" and reference.action == capture
    for options in (MCTSOptions(), MCTSOptions(rave=500)):
        for priors in (False, True):
            result = GoSearcher(state.game, options, 3, priors=priors).search(
                state, Limits(simulations=300)
            )
            assert result.tier == "compiled" and result.action == capture, (options, priors)
            assert result.value > 0.5


def test_plain_uct_without_priors_tries_every_root_move() -> None:
    game = Go(7)
    state = game.initial_state()
    result = GoSearcher(game, MCTSOptions(), 5, priors=False).search(state, Limits(simulations=200))
    children = result.stats["children"]
    assert len(children) == len(state.legal_actions()) == 50
    assert all(child["visits"] >= 1 for child in children)
    assert sum(child["visits"] for child in children) == 200


def test_same_seed_same_search_and_another_seed_another() -> None:
    game = Go(9)
    state = game.initial_state()
    options = MCTSOptions(rave=1000)

    def run(seed: int) -> tuple[object, ...]:
        result = go_mcts(game, state=state, limits=Limits(simulations=1500), options=options,
                         seed=seed)  # fmt: skip
        assert result is not None
        return (result.action, result.principal_variation, result.stats, result.nodes)

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_reuse_keeps_the_subtree_of_the_moves_played() -> None:
    game = Go(7)
    searcher = GoSearcher(game, MCTSOptions(rave=1000), 4)
    root = game.initial_state()
    first = searcher.search(root, Limits(simulations=3000))
    visits = {child["action"]: child["visits"] for child in first.stats["children"]}
    one = root.apply(first.action)
    second = searcher.search(one, Limits(simulations=500))
    assert second.stats["reused_visits"] == visits[first.action] > 0
    below = sum(child["visits"] for child in second.stats["children"])
    # every simulation of the kept root and of this search went to a child, but the ones
    # that ended at it before it had children (fewer than EXPAND_VISITS)
    assert second.stats["reused_visits"] + 500 - EXPAND_VISITS <= below
    assert below <= second.stats["reused_visits"] + 500
    reply = {child["action"]: child["visits"] for child in second.stats["children"]}
    two = one.apply(second.action)
    third = searcher.search(two, Limits(simulations=500))
    assert third.stats["reused_visits"] == reply[second.action] > 0
    # a position the tree does not hold starts afresh
    fresh = searcher.search(root, Limits(simulations=100))
    assert fresh.stats["reused_visits"] == 0


def test_reuse_ignores_a_hand_built_position_with_the_same_moves() -> None:
    game = Go(5)
    searcher = GoSearcher(game, MCTSOptions(), 1)
    searcher.search(game.initial_state(), Limits(simulations=200))
    built = game.position(black=["C3"], white=["D4"], to_move=0)  # no moves, like the root
    result = searcher.search(built, Limits(simulations=100))
    assert result.stats["reused_visits"] == 0


def test_a_move_that_repeats_the_roots_history_is_never_played() -> None:
    state = semeai(0)
    capture = state.string_to_action("D3")
    repeated = state.apply(capture).board_hash
    # the same stones, as if the position after the capture had been seen before
    barred = dataclasses.replace(state, history=state.history | {repeated})
    assert barred.illegal_reason(capture) == "superko"
    for rave in (0.0, 1000.0):
        result = go_mcts(barred.game, state=barred, limits=Limits(simulations=500),
                         options=MCTSOptions(rave=rave), seed=2)  # fmt: skip
        assert result is not None and result.action != capture
        assert capture not in [child["action"] for child in result.stats["children"]]
        assert barred.is_legal(result.action)
    free = go_mcts(state.game, state=state, limits=Limits(simulations=500),
                   options=MCTSOptions(), seed=2)  # fmt: skip
    assert free is not None and free.action == capture  # what the history alone changed


def test_every_line_of_the_tree_is_legal_under_superko() -> None:
    """Principal variations replayed by the reference rules (which raise on a superko
    repetition) from midgame positions of random 5x5 games, where captures and kos abound."""
    rng = random.Random(7)
    game = Go(5, komi=0.5)
    checked = 0
    for seed in range(12):
        state = game.initial_state()
        state = random_walk(state, rng.randrange(10, 40), rng, lambda s: s.playout_actions())
        if state.is_terminal():
            continue
        result = GoSearcher(game, MCTSOptions(rave=300), seed).search(
            state, Limits(simulations=1500)
        )
        line = state
        for action in result.principal_variation:
            if line.is_terminal():
                break
            try:
                line = line.apply(action)
            except IllegalMoveError as error:  # pragma: no cover - the failure itself
                pytest.fail(f"{error} in the line {result.principal_variation}")
        checked += len(result.principal_variation)
    assert checked > 50


def finished_5x5(komi: float) -> GoState:
    """Black walls off columns A-C (15 points), White D-E (10 points); White has just passed."""
    black = ["C1", "C2", "C3", "C4", "C5"]
    white = ["D1", "D2", "D3", "D4", "D5"]
    state = Go(5, komi=komi).position(black=black, white=white, to_move=1)
    return state.apply(state.game.pass_action)


@pytest.mark.parametrize(("komi", "value"), [(4.5, 1.0), (5.5, -1.0)])
def test_a_pass_after_a_pass_ends_the_game_with_its_area_score(komi: float, value: float) -> None:
    state = finished_5x5(komi)
    assert state.apply(state.game.pass_action).area_score() == 5 - komi
    result = GoSearcher(state.game, MCTSOptions(), 1, priors=False).search(
        state, Limits(simulations=400)
    )
    by_action = {child["action"]: child for child in result.stats["children"]}
    passing = by_action[state.game.pass_action]
    assert passing["visits"] > 0 and passing["value"] == value
    if value > 0:
        assert result.action == state.game.pass_action


def test_normalised_values_are_the_area_score_over_max_utility() -> None:
    state = finished_5x5(4.5)
    game = Go(5, komi=4.5, scoring="area")
    state = game.position(black=["C1", "C2", "C3", "C4", "C5"],
                          white=["D1", "D2", "D3", "D4", "D5"], to_move=1)  # fmt: skip
    state = state.apply(game.pass_action)
    result = GoSearcher(game, MCTSOptions(value_scale="normalised"), 1, priors=False).search(
        state, Limits(simulations=300)
    )
    by_action = {child["action"]: child for child in result.stats["children"]}
    assert by_action[game.pass_action]["value"] == pytest.approx(0.5 / (25 + 4.5))
    assert all(-1 <= child["value"] <= 1 for child in result.stats["children"])


def test_rave_beats_plain_uct_at_equal_simulations() -> None:
    """A seeded 9x9 match, colours alternated, 400 simulations a move, no priors on either
    side (Gelly and Silver 2007: RAVE's gain is largest at small budgets)."""
    game = Go(9)
    wins = 0
    games = 4
    for number in range(games):
        rave_colour = number % 2
        searchers = [
            GoSearcher(
                game, MCTSOptions(rave=1000.0 * (colour == rave_colour)), number, priors=False
            )
            for colour in (0, 1)
        ]
        state = game.initial_state()
        while not state.is_terminal():
            action = searchers[state.to_move].search(state, Limits(simulations=400)).action
            assert action is not None
            state = state.apply(action)
        score = state.area_score()
        wins += (score > 0) == (rave_colour == 0)
    assert wins >= 3, f"RAVE won {wins} of {games}"


def test_registered_for_go_with_its_rollouts_and_rave() -> None:
    game = Go(7)
    assert KERNELS.find("mcts", game) is go_mcts
    assert mcts_rollouts(game) == ("random", "informed")
    assert "rave" in mcts_features(game)
    result = mcts(game, limits=Limits(simulations=200), seed=1, rave=1000, tier="compiled")
    assert result.tier == "compiled" and result.stats["simulations"] == 200
    assert set(result.stats) == {"simulations", "children", "reused_visits", "c"}
    informed = mcts(game, limits=Limits(simulations=200), seed=1, rollout="informed")
    assert informed.tier == "compiled"


def test_time_limit_and_node_limit() -> None:
    game = Go(9)
    result = go_mcts(game, state=game.initial_state(), limits=Limits(time=0.2),
                     options=MCTSOptions(rave=1000), seed=1)  # fmt: skip
    assert result is not None and result.stopped_by == "time"
    # The time budget is what this tests: stopped by it (the reason above), not before it by
    # its own clock; no timing past it (how many simulations fit in 0.2 s depends on the
    # machine, so that is not asserted either)
    assert result.elapsed >= 0.2 and result.stats["simulations"] >= 1
    capped = go_mcts(game, state=game.initial_state(),
                     limits=Limits(simulations=10_000, nodes=1000), options=MCTSOptions(),
                     seed=1)  # fmt: skip
    assert capped is not None and capped.stopped_by == "nodes" and capped.nodes >= 1000
    assert capped.stats["simulations"] < 10_000


def test_finished_game_and_bad_input() -> None:
    state = finished_5x5(4.5).apply(Go(5, komi=4.5).pass_action)
    result = go_mcts(state.game, state=state, limits=Limits(simulations=10),
                     options=MCTSOptions(), seed=1)  # fmt: skip
    # black won by 0.5; the value is for the player to move, white
    assert result is not None and result.action is None and result.value == -1.0
    with pytest.raises(InvalidParameterError, match="a Go game is needed"):
        GoSearcher("go", MCTSOptions(), 1)  # type: ignore[arg-type]


def test_the_mcts_agent_reuses_its_compiled_tree_on_go() -> None:
    game = Go(7)
    agent = MCTSAgent("m", game, limits=Limits(simulations=800), seed=3, reuse=True, rave=1000)
    state = game.initial_state()
    state = state.apply(agent.act(state))
    assert agent.last_result is not None and agent.last_result.tier == "compiled"
    state = state.apply(agent.last_result.principal_variation[1])  # the reply it expects
    agent.act(state)
    assert agent.last_result.stats["reused_visits"] > 0
    plain = MCTSAgent("p", game, limits=Limits(simulations=100), seed=3, reuse=False)
    plain.act(game.initial_state())
    assert plain.last_result.stats["reused_visits"] == 0


def test_priors_steer_the_first_visits_to_the_capture() -> None:
    state = semeai(0)
    capture = state.string_to_action("D3")

    def share(priors: bool) -> float:
        result = GoSearcher(state.game, MCTSOptions(), 9, priors=priors).search(
            state, Limits(simulations=100)
        )
        visits = {child["action"]: child["visits"] for child in result.stats["children"]}
        return visits[capture] / 100

    with_priors, without = share(True), share(False)
    assert with_priors > 0.5 > without, (with_priors, without)
