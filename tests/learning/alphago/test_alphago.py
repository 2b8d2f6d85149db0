"""The AlphaGo pipeline on Connect Four: every stage beats its starting point on held-out
positions (solver-labelled), the search mixes value network and rollouts by lambda, the run
resumes stage by stage, bad input is one line.

The pipeline runs once per module on tiny settings (``AlphaGoConfig.tiny()``: a few hundred
positions, a small MLP; tens of seconds); the checks read its record and its networks."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from hang_guard import hang_guard

from searchlab.agents.kinds import BUILTIN_KINDS
from searchlab.agents.spec import AgentRegistry
from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphago.agent import ALPHAGO_KIND
from searchlab.learning.alphago.data import (
    ILLEGAL,
    ExpertPositions,
    generate_expert_positions,
    move_outcomes,
)
from searchlab.learning.alphago.fit import fit_policy, policy_accuracy
from searchlab.learning.alphago.pipeline import AlphaGoConfig, load_alphago, run_alphago
from searchlab.learning.alphago.rl import EachState, NetPolicy, match, reinforce
from searchlab.learning.alphago.rollout_policy import FEATURE_NAMES, RolloutPolicy
from searchlab.learning.alphago.search import AlphaGoSearch
from searchlab.learning.networks.encoders import Connect4Encoder
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)

ENCODER = Connect4Encoder()
SMALL = NetworkConfig(kind="mlp", blocks=1, hidden=32)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("alphago")
    record = run_alphago(folder, AlphaGoConfig.tiny(seed=0))
    return folder, record


# --- expert labels ---------------------------------------------------------------------------


def test_move_outcomes_agree_with_pons_scores(shared_data: Path) -> None:
    """The best move's outcome is the sign of Pons' score of the position (his data, not
    ours); the number of winning moves is consistent with it."""
    solver = Connect4Solver(table_log2=18)
    lines = (shared_data / "connect4_pons" / "Test_L3_R1").read_text().split("\n")[:25]
    for line in lines:
        moves, score = line.split()
        outcomes = move_outcomes(parse_moves(moves), solver)
        assert outcomes is not None
        assert int(outcomes.max()) == int(np.sign(int(score))), line
        legal = parse_moves(moves).legal_actions()
        assert [c for c in range(7) if outcomes[c] != ILLEGAL] == legal


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    """One exact solver for the module's hand-picked positions: its table carries over from
    test to test (the answers are exact either way), so "17273", whose children take seconds
    each, is solved once, not in each test that uses it (15-25 s each with a fresh table of
    2**16 slots)."""
    return Connect4Solver(table_log2=20)


def _outcomes(moves: str, solver: Connect4Solver) -> list[int]:
    outcomes = move_outcomes(parse_moves(moves), solver)
    assert outcomes is not None
    return [int(x) for x in outcomes]


def test_move_outcomes_of_hand_checked_positions(solver: Connect4Solver) -> None:
    # X has 4, 5, 6 on the bottom row with both ends open: 3 and 7 win at once, anything
    # else lets O block one end, and X wins at the other next move: every move wins
    assert _outcomes("445566", solver) == [1] * 7
    # O to move faces that double threat: every move loses
    assert _outcomes("44556", solver) == [-1] * 7
    # X threatens the bottom of column 4 only; O must block there
    outcomes = move_outcomes(parse_moves("17273"), solver)
    assert outcomes is not None and outcomes[3] == outcomes.max()
    assert all(outcomes[c] == -1 for c in (0, 1, 2, 4, 5))
    # an opening is not settled in 1,000 nodes (a fresh table: nothing known yet)
    assert move_outcomes(parse_moves("44"), Connect4Solver(table_log2=16), node_budget=1000) is None


def test_expert_positions_are_seeded_and_round_trip(tmp_path: Path) -> None:
    first = generate_expert_positions(6, seed=11, min_ply=18)
    again = generate_expert_positions(6, seed=11, min_ply=18)
    other = generate_expert_positions(6, seed=12, min_ply=18)
    assert first.moves == again.moves and np.array_equal(first.outcomes, again.outcomes)
    assert first.moves != other.moves
    assert all(len(m) >= 18 for m in first.moves)
    loaded = ExpertPositions.load(first.save(tmp_path / "set.npz"))
    assert loaded.moves == first.moves and np.array_equal(loaded.outcomes, first.outcomes)
    targets = first.targets()
    assert np.allclose(targets.sum(axis=1), 1) and not (targets[~first.optimal_mask()]).any()
    (tmp_path / "bad.npz").write_text("no")
    with pytest.raises(InvalidParameterError, match="cannot be read"):
        ExpertPositions.load(tmp_path / "bad.npz")


# --- rollout policy --------------------------------------------------------------------------


def test_rollout_features_of_hand_built_positions() -> None:
    features = RolloutPolicy.features(parse_moves("17273"))  # O to move, X threatens d1
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    assert features[3, index["block"]] == 1 and features[:, index["block"]].sum() == 1
    assert features[:, index["win"]].sum() == 0
    # X to move in 445566 wins in column 3 or 7
    wins = RolloutPolicy.features(parse_moves("445566"))[:, index["win"]]
    assert wins.tolist() == [0, 0, 1, 0, 0, 0, 1]
    # X to move; O holds b2 c2 d2 (and c1): a2 and e2 would win for O, so a drop into column
    # 1 or 5 is a gift (it fills the cell under O's winning cell)
    gift = RolloutPolicy.features(parse_moves("23427374"))[:, index["gift"]]
    assert gift.tolist() == [1, 0, 0, 0, 1, 0, 0]
    full = RolloutPolicy.features(parse_moves("444444"))
    assert not full[3].any()


def test_rollouts_are_seeded_and_scored_for_the_mover() -> None:
    policy = RolloutPolicy.heuristic()
    starts = [Connect4().initial_state(), parse_moves("4455"), parse_moves("44556")] * 20
    first = policy.rollout_values(starts, seed=5)
    assert np.array_equal(first, policy.rollout_values(starts, seed=5))
    assert not np.array_equal(first, policy.rollout_values(starts, seed=6))
    assert set(np.unique(first)) <= {-1.0, 0.0, 1.0}
    # O to move against a double threat: a policy that takes wins loses every rollout
    assert (policy.rollout_values([parse_moves("44556")] * 30, seed=1) == -1).all()
    # finished games: the mover has lost, or it is a draw
    assert policy.rollout_values([parse_moves("4455667")], seed=1).tolist() == [-1.0]


def test_rollout_policy_is_seeded_and_better_than_uniform(
    run: tuple[Path, dict[str, Any]],
) -> None:
    folder, record = run
    fitted = RolloutPolicy.load(folder / "rollout-policy.json")
    stage = record["stages"]["rollout"]
    assert stage["accuracy"] > record["stages"]["data"]["uniform_accuracy"] + 0.2
    result = match(EachState(fitted), EachState(RolloutPolicy.uniform()), games=60, seed=3)
    assert result.score > 0.8, result
    # one value per game, a game's result for the mover, the same for the same seed (its speed
    # is measured by benchmarks, not asserted here)
    states = [Connect4().initial_state()] * 200
    values = fitted.rollout_values(states, seed=1)
    assert values.shape == (200,) and set(values.tolist()) <= {-1.0, 0.0, 1.0}
    assert np.array_equal(values, fitted.rollout_values(states, seed=1))


def test_rollout_policy_files(tmp_path: Path) -> None:
    path = RolloutPolicy.heuristic().save(tmp_path / "r.json")
    assert np.array_equal(RolloutPolicy.load(path).weights, RolloutPolicy.heuristic().weights)
    data = json.loads(path.read_text())
    del data["weights"]["win"]
    (tmp_path / "broken.json").write_text(json.dumps(data))
    with pytest.raises(InvalidParameterError, match="cannot be read"):
        RolloutPolicy.load(tmp_path / "broken.json")
    with pytest.raises(InvalidParameterError, match="13 finite numbers"):
        RolloutPolicy([1.0, 2.0])


# --- the stages against their starting points ------------------------------------------------


def test_sl_policy_beats_the_uniform_baseline(run: tuple[Path, dict[str, Any]]) -> None:
    folder, record = run
    stages = record["stages"]
    baseline = stages["data"]["uniform_accuracy"]
    assert stages["sl"]["accuracy"] > baseline + 0.08, stages
    assert stages["sl"]["accuracy"] > stages["sl"]["accuracy_before"] + 0.08
    # the figure is the network's: recomputed from the checkpoint on the held-out set
    pipeline = load_alphago(folder)
    test = ExpertPositions.load(folder / "expert" / "test.npz")
    test = test.subset(test.informative())
    assert policy_accuracy(pipeline.sl_policy, ENCODER, test) == pytest.approx(
        stages["sl"]["accuracy"], abs=1e-4
    )


def test_rl_policy_does_not_lose_to_the_sl_policy(run: tuple[Path, dict[str, Any]]) -> None:
    folder, record = run
    rl = record["stages"]["rl"]
    assert rl["score_vs_sl"] >= 0.5, rl
    pipeline = load_alphago(folder)
    again = match(
        NetPolicy(pipeline.rl_policy, ENCODER),
        NetPolicy(pipeline.sl_policy, ENCODER),
        games=100,
        seed=99,
    )
    assert again.score >= 0.5, again
    assert not torch.equal(
        next(pipeline.rl_policy.parameters()), next(pipeline.sl_policy.parameters())
    )


def test_value_network_correlates_with_the_solver(run: tuple[Path, dict[str, Any]]) -> None:
    value = run[1]["stages"]["value"]
    assert value["held_out"] >= 30
    assert value["correlation"] > 0.15, value
    assert value["correlation"] > value["correlation_before"] + 0.1, value


def test_reinforce_is_seeded_and_grows_its_pool() -> None:
    def trained(seed: int) -> tuple[PolicyValueNet, Any]:
        net = PolicyValueNet(ENCODER.shape, 7, SMALL, seed=0)
        report = reinforce(
            net, ENCODER, iterations=4, games_per_iteration=8, pool_every=2, seed=seed
        )
        return net, report

    a, report = trained(1)
    b, _ = trained(1)
    c, _ = trained(2)
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters(), strict=True))
    assert not all(torch.equal(x, y) for x, y in zip(a.parameters(), c.parameters(), strict=True))
    assert len(report.pool) == 3 and report.games == 32 and len(report.mean_results) == 4


def test_fit_policy_learns_a_fixed_batch_deterministically(solver: Connect4Solver) -> None:
    moves = ("17273", "445566", "23427374")
    outcomes = np.array([_outcomes(m, solver) for m in moves], dtype=np.int8)
    data = ExpertPositions(moves, outcomes)
    nets = [PolicyValueNet(ENCODER.shape, 7, SMALL, seed=3) for _ in range(2)]
    losses = [fit_policy(net, ENCODER, data, epochs=30, batch_size=4, seed=1) for net in nets]
    # the targets' own entropy bounds the loss from below (445566: all 7 moves win)
    assert losses[0] == losses[1] and losses[0][-1] < losses[0][0] - 0.3
    assert policy_accuracy(nets[0], ENCODER, data) == 1.0


def test_child_values_teach_the_value_head_the_positions_after_each_move(
    solver: Connect4Solver,
) -> None:
    """``extra_values`` (here every child of three labelled positions, valued by the labels)
    join the value term: after the same fit, the value head is far closer to the children's
    exact values than a network fitted on the positions alone, and the policy learns as
    before (the children carry no policy target)."""
    from searchlab.learning.alphago.fit import fit_policy_value, values

    moves = ("17273", "23427374", "4455")
    data = ExpertPositions(moves, np.array([_outcomes(m, solver) for m in moves], np.int8))
    children, truth = data.child_values()
    for state, value in zip(children, truth, strict=True):  # the labels are the solver's
        # (the table kept from labelling them answers: the exact value either way)
        score = solver.solve(state, weak=True, find_move=False, reset=False).score
        assert value == np.sign(score)
    errors = []
    for extra in (None, (children, truth)):
        net = PolicyValueNet(ENCODER.shape, 7, SMALL, seed=3)
        fit_policy_value(net, ENCODER, data, epochs=100, batch_size=8, seed=1, extra_values=extra)
        errors.append(float(np.mean((values(net, ENCODER, children) - truth) ** 2)))
        assert policy_accuracy(net, ENCODER, data) == 1.0
    assert errors[1] < 0.25 * errors[0]  # without them, about as far as a guess of 0
    with pytest.raises(InvalidParameterError, match="a value in"):
        fit_policy_value(net, ENCODER, data, epochs=1, extra_values=(children, truth[:2]))


# --- the search ------------------------------------------------------------------------------


@pytest.mark.parametrize("lambda_", [0.0, 0.5, 1.0])
def test_search_runs_for_every_lambda_and_is_seeded(
    run: tuple[Path, dict[str, Any]], lambda_: float
) -> None:
    pipeline = load_alphago(run[0])
    state = parse_moves("4433")
    first = pipeline.search(simulations=80, lambda_=lambda_, seed=4).search(state)
    again = pipeline.search(simulations=80, lambda_=lambda_, seed=4).search(state)
    assert int(first.visits.sum()) == 80 and first.simulations == 80
    assert np.array_equal(first.visits, again.visits)
    assert np.allclose(first.values, again.values)
    # a win in one: every lambda finds it (the terminal child is scored by the rules)
    assert pipeline.search(simulations=60, lambda_=lambda_, seed=0).choose(
        parse_moves("445566")
    ) in (2, 6)


def test_lambda_decides_what_values_the_leaves() -> None:
    """lambda=0 is the value network alone, lambda=1 the rollouts alone."""
    policy = PolicyValueNet(ENCODER.shape, 7, SMALL, seed=0)
    value = PolicyValueNet(ENCODER.shape, 7, SMALL, seed=1)
    rollout = RolloutPolicy.heuristic()
    states = [parse_moves("44556"), parse_moves("4433")]
    network_only = AlphaGoSearch(policy, value, rollout, ENCODER, lambda_=0.0).evaluator
    rollouts_only = AlphaGoSearch(policy, None, rollout, ENCODER, lambda_=1.0).evaluator
    half = AlphaGoSearch(policy, value, rollout, ENCODER, lambda_=0.5, seed=0).evaluator
    from searchlab.learning.alphago.fit import values

    v = values(value, ENCODER, states)
    assert np.allclose(network_only.evaluate_batch(states)[1], v, atol=1e-6)
    assert rollouts_only.evaluate_batch(states)[1][0] == -1.0  # the double threat is lost
    mixed = half.evaluate_batch(states)[1]
    z = RolloutPolicy.heuristic().rollout_values(
        states, seed=int(np.random.default_rng(0).integers(2**62))
    )
    assert np.allclose(mixed, 0.5 * v + 0.5 * z, atol=1e-6)
    with pytest.raises(InvalidParameterError, match="needs a value network"):
        AlphaGoSearch(policy, None, rollout, ENCODER, lambda_=0.5)
    with pytest.raises(InvalidParameterError, match=r"lambda must be a number in 0\.\.1"):
        AlphaGoSearch(policy, value, rollout, ENCODER, lambda_=1.5)


def test_search_under_a_time_limit(run: tuple[Path, dict[str, Any]]) -> None:
    search = load_alphago(run[0]).search(lambda_=0.5)
    # Given ample time, a budget in simulations stops the search exactly (this first search
    # also compiles what the search runs, which must not count against the time budget).
    capped = search.search(Connect4().initial_state(), simulations=7, seconds=600)
    assert capped.simulations == 7
    # The time budget is what this tests: with no simulation budget only the clock (checked
    # between batches) ends a 0.2 s search; one that ignored it would run on until the guard.
    with hang_guard("a search with a 0.2 s budget"):
        outcome = search.search(Connect4().initial_state(), seconds=0.2)
    assert outcome.simulations >= 1


# --- the run directory, the agent, bad input -------------------------------------------------


def test_a_finished_run_is_not_redone_and_a_missing_stage_is(
    run: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    folder, record = run
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    assert run_alphago(copy, AlphaGoConfig.tiny(seed=0)) == record  # nothing runs again
    partial = json.loads((copy / "alphago.json").read_text())
    del partial["stages"]["value"]
    (copy / "alphago.json").write_text(json.dumps(partial))
    (copy / "value.ckpt").unlink()
    with pytest.raises(InvalidParameterError, match="missing: value"):
        load_alphago(copy)
    redone = run_alphago(copy, AlphaGoConfig.tiny(seed=0))["stages"]["value"]
    same = {k: v for k, v in redone.items() if k != "seconds"}
    assert same == {k: v for k, v in record["stages"]["value"].items() if k != "seconds"}
    with pytest.raises(InvalidParameterError, match="another config"):
        run_alphago(copy, AlphaGoConfig.tiny(seed=1))


def test_rl_stopped_between_chunks_resumes_to_the_same_network(
    run: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    folder, record = run
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    partial = json.loads((copy / "alphago.json").read_text())
    for stage in ("rl", "rl_progress", "value"):
        partial["stages"].pop(stage, None)
    (copy / "alphago.json").write_text(json.dumps(partial))
    for name in ("rl-policy.ckpt", "value.ckpt"):
        (copy / name).unlink()

    def after_first_chunk() -> bool:
        stages = json.loads((copy / "alphago.json").read_text())["stages"]
        return bool(stages.get("rl_progress", {}).get("iterations", 0) >= 5)

    stopped = run_alphago(copy, AlphaGoConfig.tiny(seed=0), should_stop=after_first_chunk)
    assert "rl" not in stopped["stages"] and stopped["stages"]["rl_progress"]["iterations"] == 5
    resumed = run_alphago(copy, AlphaGoConfig.tiny(seed=0))
    assert resumed["stages"]["rl_progress"] == record["stages"]["rl_progress"]
    original, again = load_alphago(folder).rl_policy, load_alphago(copy).rl_policy
    assert all(
        torch.equal(a, b) for a, b in zip(original.parameters(), again.parameters(), strict=True)
    )


def test_training_entry_resumes_and_stops_between_stages(
    run: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from searchlab.learning.alphago.pipeline import run_training

    copy = tmp_path / "copy"
    shutil.copytree(run[0], copy)
    summary = run_training(Connect4(), copy, None)  # the run's own config, all stages done
    assert (summary.generation, summary.stopped) == (5, "finished")
    assert summary.games == run[1]["stages"]["rl"]["games"]
    fresh = tmp_path / "fresh"
    past = time.monotonic() - 1
    stopped = run_training(Connect4(), fresh, {"alphago": {"rl_games": 4}}, deadline=past)
    assert (stopped.generation, stopped.stopped) == (0, "time")
    record = json.loads((fresh / "alphago.json").read_text())
    assert record["stages"] == {} and record["config"]["rl_games"] == 4
    with pytest.raises(InvalidParameterError, match="trains connect4 and go, not"):
        run_training(TicTacToe(), tmp_path / "t", None)
    with pytest.raises(InvalidParameterError, match="unknown key simulations"):
        run_training(Connect4(), tmp_path / "u", {"simulations": 3})
    with pytest.raises(InvalidParameterError, match="runs on the CPU") as caught:
        run_training(Connect4(), tmp_path / "g", None, device="cuda")
    assert "\n" not in str(caught.value) and not (tmp_path / "g").exists()
    assert run_training(Connect4(), copy, None, device="cpu").stopped == "finished"


def test_agent_kind_plays_connect4(run: tuple[Path, dict[str, Any]]) -> None:
    registry = AgentRegistry((*BUILTIN_KINDS, ALPHAGO_KIND))
    game = Connect4()
    agent = registry.make(f"alphago:checkpoint={run[0]},simulations=40,lambda=0.5", game, seed=2)
    state = parse_moves("4433")
    assert agent.act(state) in state.legal_actions()
    # the one result of the mcts agent with a network: simulations in stats (the alphago
    # agent of its own put them in ``nodes``), nodes the tree's, the evaluator's lambda
    result = agent.last_result
    assert result is not None and result.stats["simulations"] == 40
    assert result.algorithm == "alphago" and result.stats["lambda"] == 0.5
    assert result.nodes > 40  # every child of an expanded node is a node
    children = agent.last_result.stats["children"]
    assert sum(child["visits"] for child in children) == 40
    assert agent.act(state, Limits(time=0.1)) in state.legal_actions()
    full = parse_moves("444444")  # column 4 is full: six actions, six priors
    assert agent.act(full) in full.legal_actions()
    assert agent.last_result is not None
    priors = [child["prior"] for child in agent.last_result.stats["children"]]
    assert len(priors) == 6 and sum(priors) == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(SearchlabError, match=r"lambda must be a number in 0\.\.1"):
        registry.make(f"alphago:checkpoint={run[0]},lambda=3", game)
    from searchlab.agents.registry import make_agent  # the default registry: a lazy kind

    default = make_agent(f"alphago:checkpoint={run[0]},simulations=20", game, seed=1)
    assert default.act(state) in state.legal_actions()
    with pytest.raises(InvalidParameterError, match="needs checkpoint=DIR"):
        registry.make("alphago", game)
    with pytest.raises(InvalidParameterError, match="plays connect4 and go only"):
        registry.make(f"alphago:checkpoint={run[0]}", TicTacToe())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"lambda": 0.5}, "unknown key lambda"),
        ({"rl_iterations": 0}, "rl_iterations must be an integer >= 1"),
        ({"value_labels": "oracle"}, "value_labels must be outcome or solver"),
        ({"sl_learning_rate": 2}, "sl_learning_rate must be in"),
        ({"network": {"kind": "transformer"}}, "kind must be one of"),
    ],
)
def test_bad_config_is_one_line(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message) as error:
        AlphaGoConfig.from_dict(data)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"random_share": 1.5}, r"random_share must be in \[0, 1\]"),
        ({"positions_per_game": 0}, "positions_per_game must be an integer >= 1"),
        ({"sl_final_lr_fraction": 0}, r"sl_final_lr_fraction must be in \(0, 1\]"),
        ({"sl_value_weight": -1}, r"sl_value_weight must be in \[0, 100\]"),
        ({"chunk_positions": 0}, "chunk_positions must be an integer >= 1"),
        ({"sl_child_values": -1}, "sl_child_values must be an integer >= 0"),
        ({"sl_child_values": 1.5}, "sl_child_values must be an integer >= 0"),
        ({"blocks": 0}, "blocks"),
    ],
)
def test_bad_new_config_keys_are_one_line(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message) as error:
        AlphaGoConfig.from_dict(data)
    assert "\n" not in str(error.value)


def test_flat_network_keys_set_the_network() -> None:
    config = AlphaGoConfig.from_dict({"network_kind": "resnet", "blocks": 3, "channels": 16})
    assert (config.network_config.kind, config.network_config.blocks) == ("resnet", 3)
    assert config.network_config.channels == 16


def test_sl_stopped_between_epochs_resumes_to_the_same_network(
    run: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """The SL fit stopped after epoch 3 and started again ends on the very weights of the
    unbroken run (same minibatches, Adam's state carried over); every epoch is kept."""
    folder, record = run
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    partial = json.loads((copy / "alphago.json").read_text())
    for stage in ("sl", "sl_progress", "rollout", "rl", "rl_progress", "value"):
        partial["stages"].pop(stage, None)
    (copy / "alphago.json").write_text(json.dumps(partial))
    for path in copy.glob("sl-*.ckpt"):
        path.unlink()

    def after_epoch_three() -> bool:
        stages = json.loads((copy / "alphago.json").read_text())["stages"]
        return bool(stages.get("sl_progress", {}).get("epochs", 0) >= 3)

    stopped = run_alphago(
        copy, AlphaGoConfig.tiny(seed=0), should_stop=after_epoch_three, stop_after="sl"
    )
    assert "sl" not in stopped["stages"] and stopped["stages"]["sl_progress"]["epochs"] == 3
    assert not (copy / "sl-policy.ckpt").exists()
    resumed = run_alphago(copy, AlphaGoConfig.tiny(seed=0), stop_after="sl")
    assert resumed["stages"]["sl_progress"]["losses"] == record["stages"]["sl_progress"]["losses"]
    from searchlab.learning.networks.checkpoint import load_checkpoint

    original = load_checkpoint(folder / "sl-policy.ckpt").net
    again = load_checkpoint(copy / "sl-policy.ckpt").net
    assert all(
        torch.equal(a, b) for a, b in zip(original.parameters(), again.parameters(), strict=True)
    )
    epochs = sorted(p.name for p in copy.glob("sl-epoch-*.ckpt"))
    assert len(epochs) == AlphaGoConfig.tiny().sl_epochs
    cpu = [load_checkpoint(copy / name).extra["cpu_seconds"] for name in epochs]
    assert cpu == sorted(cpu) and cpu[0] > 0
    assert not list(copy.glob(".sl-optimiser-*"))  # the last Adam state is removed at the end


def test_the_sl_network_is_an_az_network(run: tuple[Path, dict[str, Any]]) -> None:
    """The SL network's value head learned the solver's values (it correlates with them on
    all held-out positions; an untrained head does not), and ``az:checkpoint=DIR`` plays it
    (the run's ``latest.pt``)."""
    from searchlab.agents.registry import make_agent

    folder, record = run
    assert record["stages"]["sl"]["value_correlation"] > 0.3
    agent = make_agent(f"az:checkpoint={folder},simulations=30", Connect4(), seed=0)
    state = parse_moves("4455")
    assert agent.act(state) in state.legal_actions()


def test_threat_features_and_child_values_reach_the_sl_network(
    run: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """``input_features = "threats"`` trains the SL network on the eight planes (its
    checkpoint records them, and ``az:checkpoint=DIR`` plays it with them); with
    ``sl_child_values`` the value head learns the children too: its error on them is below
    the same fit's without them."""
    from searchlab.agents.registry import make_agent
    from searchlab.learning.alphago.fit import values
    from searchlab.learning.networks.checkpoint import load_checkpoint

    folder, record = run
    train = ExpertPositions.load(folder / "expert-train.npz")
    children, truth = train.child_values()
    errors = []
    for child_values in (0, 41):
        copy = tmp_path / f"children-{child_values}"
        (copy / "expert").mkdir(parents=True)
        for name in ("expert-train.npz", "expert/test.npz"):
            shutil.copy(folder / name, copy / name)
        config = AlphaGoConfig.from_dict(
            {**AlphaGoConfig.tiny().to_dict(), "input_features": "threats", "sl_epochs": 4,
             "sl_child_values": child_values}
        )  # fmt: skip
        partial = {"game": "connect4", "config": config.to_dict(),
                   "stages": {"data": record["stages"]["data"]}}  # fmt: skip
        (copy / "alphago.json").write_text(json.dumps(partial))
        run_alphago(copy, config, stop_after="sl")
        checkpoint = load_checkpoint(copy / "sl-policy.ckpt", Connect4())
        assert checkpoint.encoder.shape == (8, 6, 7)
        errors.append(
            float(np.mean((values(checkpoint.net, checkpoint.encoder, children) - truth) ** 2))
        )
    assert errors[1] < errors[0]
    agent = make_agent(f"az:checkpoint={copy},simulations=30", Connect4(), seed=0)
    state = parse_moves("4455")
    assert agent.act(state) in state.legal_actions()
    with pytest.raises(InvalidParameterError, match="input_features must be one of stones"):
        AlphaGoConfig.from_dict({"input_features": "patterns"})


def test_positions_per_game_draws_distinct_plies_of_a_game() -> None:
    one = generate_expert_positions(12, seed=5, min_ply=18, positions_per_game=1)
    four = generate_expert_positions(12, seed=5, min_ply=18, positions_per_game=4)
    assert len(four) == len(one) == 12 and len(set(four.moves)) == 12
    # four a game: positions share their openings (one game's prefixes)
    prefixes = sum(a != b and b.startswith(a) for a in four.moves for b in four.moves)
    assert prefixes > sum(a != b and b.startswith(a) for a in one.moves for b in one.moves)
    with pytest.raises(InvalidParameterError, match="positions_per_game"):
        generate_expert_positions(3, seed=0, positions_per_game=0)


def test_max_ply_keeps_openings_only() -> None:
    openings = generate_expert_positions(10, seed=3, min_ply=4, max_ply=9, node_budget=2_000_000)
    assert len(openings) == 10
    assert all(4 <= len(line) <= 9 for line in openings.moves)
    with pytest.raises(InvalidParameterError, match=r"max_ply must be .* \(10\.\.41\), got 9"):
        generate_expert_positions(3, seed=0, min_ply=10, max_ply=9)


def test_hard_budget_keeps_only_positions_a_small_budget_does_not_settle() -> None:
    """With ``hard_budget`` every kept position needs more than that many solver nodes a
    move (a fresh solver does not settle it within them), while the same draw without it
    keeps some that it does settle; the kept ones are still labelled exactly."""

    def settled(line: str, budget: int) -> bool:
        solver = Connect4Solver(table_log2=16)
        return move_outcomes(parse_moves(line), solver, node_budget=budget) is not None

    plain = generate_expert_positions(8, seed=4, min_ply=14, max_ply=20)
    hard = generate_expert_positions(8, seed=4, min_ply=14, max_ply=20, hard_budget=300)
    assert len(hard) == 8
    assert any(settled(line, 300) for line in plain.moves)
    assert not any(settled(line, 300) for line in hard.moves)
    exact = Connect4Solver(table_log2=18)
    for line, labels in zip(hard.moves, hard.outcomes, strict=True):
        assert move_outcomes(parse_moves(line), exact).tolist() == labels.tolist()
    with pytest.raises(InvalidParameterError, match="hard_budget must be an integer >= 0"):
        generate_expert_positions(3, seed=0, hard_budget=-5)


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ({"positions": 5}, "expert_groups must be a list of tables"),
        ([{"min_ply": 20}], r"expert_groups\[0\] needs positions"),
        ([{"positions": 5, "depth": 3}], r"expert_groups\[0\]: unknown key depth"),
        ([{"positions": 5}, {"positions": 0}], r"expert_groups\[1\].positions must be an integer"),
        ([{"positions": 5, "min_ply": 20, "max_ply": 10}], r"max_ply must be an integer >= 20"),
        ([{"positions": 5, "max_ply": 42}], "max_ply must be at most 41"),
        ([{"positions": 5, "random_share": -0.1}], r"random_share must be in \[0, 1\]"),
        ([{"positions": 5, "chunk_positions": 0}], "chunk_positions must be an integer >= 1"),
        (["late"], r"expert_groups\[0\] must be a table"),
        ([{"positions": 5, "repeat": 0}], r"expert_groups\[0\].repeat must be an integer >= 1"),
        ([{"positions": 5, "repeat": 1.5}], r"repeat must be an integer >= 1, got 1.5"),
        ([{"positions": 5, "hard_budget": -1}], r"hard_budget must be an integer >= 0"),
        ([{"positions": 5, "hard_budget": True}], r"hard_budget must be an integer >= 0"),
    ],
)
def test_bad_expert_groups_are_one_line(groups: Any, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message) as error:
        AlphaGoConfig.from_dict({"expert_groups": groups})
    assert "\n" not in str(error.value)


def test_expert_groups_add_chunks_after_the_main_ones(tmp_path: Path) -> None:
    """A group's chunks follow the main group's, numbered on and drawn its own way, so the
    chunks of a run without the group are the first chunks of a run with it; a record written
    before the key existed still matches its config."""
    from searchlab.learning.alphago.pipeline import _data_jobs

    base = AlphaGoConfig.tiny()
    grown = AlphaGoConfig.from_dict(
        {
            **base.to_dict(),
            "expert_groups": [{"positions": 150, "min_ply": 30, "chunk_positions": 100}],
        }
    )
    assert grown.expert_groups[0]["node_budget"] == base.node_budget  # filled from the main keys
    (tmp_path / "a").mkdir()
    old = _data_jobs(tmp_path / "a", base)  # the held-out set, then the main group's chunk 0
    new = _data_jobs(tmp_path / "a", grown)
    assert [job.index for job in old] == [-1, 0] and new[:2] == old
    added = new[2:]
    assert [(job.index, job.count) for job in added] == [(1, 100), (2, 50)]
    assert all(job.min_ply == 30 and job.max_ply == 41 for job in added)
    assert len({job.seed for job in new}) == len(new)
    record = {"config": {k: v for k, v in base.to_dict().items() if k != "expert_groups"}}
    from searchlab.learning.alphago.pipeline import _recorded_config

    assert _recorded_config(record) == base.to_dict() != grown.to_dict()


def test_a_groups_hard_budget_and_repeat_reach_its_chunks(tmp_path: Path) -> None:
    """``hard_budget`` and ``repeat`` of a group travel to its chunks only (the main group's
    keep 0 and 1), and the merged training set counts a repeated chunk's positions that many
    times."""
    from searchlab.learning.alphago.labelling import label_chunks, merge_chunks
    from searchlab.learning.alphago.pipeline import _data_jobs

    config = AlphaGoConfig.from_dict(
        {
            **AlphaGoConfig.tiny().to_dict(),
            "expert_positions": 4,
            "test_positions": 2,
            "min_ply": 26,
            "expert_groups": [
                {"positions": 3, "min_ply": 24, "hard_budget": 50, "repeat": 4},
            ],
        }
    )
    jobs = _data_jobs(tmp_path, config)
    assert [(job.hard_budget, job.repeat) for job in jobs] == [(0, 1), (0, 1), (50, 4)]
    assert label_chunks(jobs)
    merged = merge_chunks([job.path for job in jobs[1:]], [job.repeat for job in jobs[1:]])
    assert len(merged) == 4 + 3 * 4
    assert merged.moves[4:8] == (merged.moves[4],) * 4
    with pytest.raises(ValueError, match="one repeat >= 1 per chunk"):
        merge_chunks([job.path for job in jobs[1:]], [1])


def test_sl_init_fine_tunes_an_earlier_network(
    run: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """With ``sl_init`` the SL fit starts from that checkpoint's weights (its held-out accuracy
    before the first epoch is the checkpoint's, not a random network's) and moves them; a
    checkpoint that is missing or of another architecture is refused in one line before any
    position is labelled."""
    from searchlab.learning.networks.checkpoint import CheckpointError, load_checkpoint

    folder, record = run
    start = load_checkpoint(folder / "sl-policy.ckpt").net
    init = {"sl_init": str(folder / "sl-policy.ckpt"), "sl_epochs": 1}
    config = AlphaGoConfig.from_dict({**AlphaGoConfig.tiny().to_dict(), **init})
    copy = tmp_path / "finetune"
    copy.mkdir()
    (copy / "expert").mkdir()
    for name in ("expert-train.npz", "expert/test.npz"):
        shutil.copy(folder / name, copy / name)
    partial = {"game": "connect4", "config": config.to_dict(),
               "stages": {"data": record["stages"]["data"]}}  # fmt: skip
    (copy / "alphago.json").write_text(json.dumps(partial))
    tuned = run_alphago(copy, config, stop_after="sl")["stages"]
    test = ExpertPositions.load(folder / "expert" / "test.npz")
    test = test.subset(test.informative())
    before = tuned["sl_progress"]["accuracy_before"]
    assert before == round(policy_accuracy(start, ENCODER, test), 4)
    assert before > record["stages"]["sl"]["accuracy_before"]
    after = load_checkpoint(copy / "sl-policy.ckpt").net
    assert not all(
        torch.equal(a, b) for a, b in zip(start.parameters(), after.parameters(), strict=True)
    )
    for init, network, message in (
        (str(tmp_path / "nowhere.ckpt"), None, "nowhere.ckpt"),
        (str(folder / "sl-policy.ckpt"), {"kind": "resnet", "blocks": 1, "channels": 8},
         "not the resnet"),
    ):  # fmt: skip
        data = {**AlphaGoConfig.tiny().to_dict(), "sl_init": init}
        if network is not None:
            data["network"] = network
        fresh = tmp_path / f"refused-{message.split()[0]}"
        with pytest.raises(CheckpointError, match=message) as error:
            run_alphago(fresh, AlphaGoConfig.from_dict(data))
        assert "\n" not in str(error.value)
        assert not fresh.exists()
    with pytest.raises(InvalidParameterError, match="sl_init must be a checkpoint's path"):
        AlphaGoConfig.from_dict({"sl_init": 3})


def test_held_out_positions_and_their_mirrors_are_never_trained_on(tmp_path: Path) -> None:
    """With ``held_out`` (Pons' format or bare move strings, a file or a folder, whose README
    is not read) a labelled
    position met there, or met there mirrored, is dropped from the SL training set and
    counted; the others stay. A path that cannot be read, a line that is no move string, or a
    held_out that is no string is one line, before anything is labelled."""
    from searchlab.learning.alphago.data import ExpertPositions

    base = AlphaGoConfig.from_dict(
        {**AlphaGoConfig.tiny().to_dict(), "expert_positions": 30, "test_positions": 4}
    )
    run_alphago(tmp_path / "plain", base, stop_after="data")
    plain = ExpertPositions.load(tmp_path / "plain" / "expert-train.npz").moves
    mirror = str.maketrans("1234567", "7654321")
    (tmp_path / "pons").mkdir()
    (tmp_path / "pons" / "a").write_text(f"{plain[0]} 3\n{plain[1].translate(mirror)}\n")
    (tmp_path / "pons" / "b").write_text(f"\n{plain[2]} -1\n")
    (tmp_path / "pons" / "README.md").write_text("# Pons' sets: not positions\n")
    config = AlphaGoConfig.from_dict({**base.to_dict(), "held_out": str(tmp_path / "pons")})
    record = run_alphago(tmp_path / "held", config, stop_after="data")
    held = ExpertPositions.load(tmp_path / "held" / "expert-train.npz").moves
    assert record["stages"]["data"]["held_out_dropped"] == 3
    assert held == tuple(line for line in plain if line not in plain[:3])

    (tmp_path / "bad").write_text("4455 1\n44x5 2\n")
    for held_out, message in [
        (str(tmp_path / "missing"), "held-out positions: cannot read"),
        (str(tmp_path / "bad"), r"bad line 2: move 3 'x'"),
    ]:
        wrong = AlphaGoConfig.from_dict({**base.to_dict(), "held_out": held_out})
        with pytest.raises(InvalidParameterError, match=message) as error:
            run_alphago(tmp_path / "never", wrong)
        assert "\n" not in str(error.value) and not (tmp_path / "never").exists()
    with pytest.raises(InvalidParameterError, match="held_out must be a path"):
        AlphaGoConfig.from_dict({"held_out": 5})
