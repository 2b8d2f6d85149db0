"""Agents: specs, the built-in kinds, and what each promises."""

from __future__ import annotations

import pytest

from searchlab.agents import (
    AGENT_KINDS,
    Agent,
    HumanAgent,
    Resign,
    Undo,
    make_agent,
    parse_spec,
    register_agent,
)
from searchlab.agents.simple import RandomAgent
from searchlab.algorithms.adversarial.solver import solve
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.domains.games.connect4 import parse_moves
from searchlab.games import make


def test_spec_parsing_keeps_names_and_order() -> None:
    spec = parse_spec(" mcts:simulations=2000, c=1.4 ")
    assert spec.kind == "mcts"
    assert list(spec.params.items()) == [("simulations", "2000"), ("c", "1.4")]
    assert str(spec) == "mcts:simulations=2000,c=1.4"
    assert parse_spec("random").params == {}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "non-empty"),
        (":depth=3", "missing the agent kind"),
        ("alphabeta:depth", "expected NAME=VALUE"),
        ("alphabeta:depth=3,depth=4", "depth given twice"),
        ("alphabeta:", "nothing after ':'"),
        ("alphabeta:=3", "expected NAME=VALUE"),
    ],
)
def test_malformed_specs_are_one_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=fragment):
        parse_spec(text)


@pytest.mark.parametrize(
    ("spec", "error", "fragment"),
    [
        ("minimax", UnknownNameError, "unknown agent 'minimax'; known agents: alphabeta"),
        ("alphabeta:dept=3", UnknownNameError, "unknown parameter 'dept' for alphabeta"),
        ("alphabeta:depth=x", InvalidParameterError, "depth must be a whole number, got 'x'"),
        ("alphabeta:depth=0", InvalidParameterError, "depth must be > 0, got '0'"),
        ("mcts:time=fast", InvalidParameterError, "time must be a number, got 'fast'"),
        ("mcts:solver=maybe", InvalidParameterError, "solver must be true or false"),
        ("mcts:rollout=smart", InvalidParameterError, "rollout must be one of random, informed"),
        ("random:seed=-1", InvalidParameterError, "seed must be >= 0"),
    ],
)
def test_bad_agent_specs(spec: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec, make("tictactoe"))


def test_every_builtin_kind_builds_and_is_an_agent() -> None:
    game = make("tictactoe")
    for kind in ("random", "greedy", "alphabeta", "flatmc", "mcts", "human"):
        agent = make_agent(kind, game, seed=1)
        assert isinstance(agent, Agent)
        assert agent.name == kind


def test_random_agent_is_legal_and_seeded() -> None:
    game = make("connect4")
    state = game.initial_state()
    picks = [RandomAgent(seed=7).act(state) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in state.legal_actions()
    many = {make_agent(f"random:seed={seed}", game).act(state) for seed in range(40)}
    assert len(many) > 3  # different seeds do differ


def _winning_moves(state) -> list[int]:
    mover = state.current_player()
    return [
        a
        for a in state.legal_actions()
        if state.apply(a).is_terminal() and state.apply(a).returns()[mover] > 0
    ]


@pytest.mark.parametrize("moves", ["112233", "2121213", "121212", "445566"])
def test_greedy_takes_an_immediate_connect4_win(moves: str) -> None:
    state = parse_moves(moves)
    wins = _winning_moves(state)
    assert wins, "the test position must offer a win"
    for seed in range(3):
        assert make_agent("greedy", make("connect4"), seed=seed).act(state) in wins


def test_alphabeta_agent_agrees_with_the_exact_solver_on_tictactoe() -> None:
    game = make("tictactoe")
    agent = make_agent("alphabeta:depth=9", game)
    state = game.initial_state()
    for move in ("a1", "b2", "c3"):
        state = state.apply(state.string_to_action(move))
    exact = solve(game, state)
    action = agent.act(state)
    assert agent.last_result is not None and agent.last_result.is_proven
    assert agent.last_result.value == exact.value
    # the chosen move keeps the exact value (the opponent's value after it is the negation)
    assert -solve(game, state.apply(action)).value == exact.value


@pytest.mark.parametrize("seed", range(4))
def test_alphabeta_never_loses_tictactoe_to_random(seed: int) -> None:
    game = make("tictactoe")
    for first in (0, 1):
        agents = [make_agent("random", game, seed=seed), make_agent("random", game, seed=seed)]
        agents[first] = make_agent("alphabeta:depth=9", game)
        state = game.initial_state()
        while not state.is_terminal():
            state = state.apply(agents[state.current_player()].act(state))
        assert state.returns()[first] >= 0


def test_alphabeta_time_budget_answers_with_a_legal_move() -> None:
    game = make("othello")
    agent = make_agent("alphabeta:time=0.2", game)
    state = game.initial_state()
    assert agent.act(state) in state.legal_actions()
    assert agent.last_result is not None and agent.last_result.depth >= 1


def test_alphabeta_on_gomoku_searches_the_candidate_variant() -> None:
    game = make("gomoku")
    state = game.initial_state()
    for move in ("h8", "a1", "i8", "a2", "j8", "a3"):  # black has three in a row, open
        state = state.apply(state.string_to_action(move))
    state = state.apply(state.string_to_action("k8"))  # four: white must block g8 or l8
    action = make_agent("alphabeta:depth=2", game).act(state)
    assert state.action_to_string(action) in ("g8", "l8")


def test_human_agent_commands() -> None:
    state = make("tictactoe").initial_state()
    said: list[str] = []

    def agent_for(*lines: str) -> HumanAgent:
        feed = iter(lines)
        return HumanAgent(read=lambda prompt: next(feed), write=said.append)

    assert agent_for("", "help", "a9", "c3").act(state) == state.string_to_action("c3")
    assert any("undo" in line for line in said) and any("a9" in line for line in said)
    with pytest.raises(Undo):
        agent_for("undo").act(state)
    with pytest.raises(Resign):
        agent_for("resign").act(state)

    def closed(prompt: str) -> str:
        raise EOFError

    with pytest.raises(Resign):
        HumanAgent(read=closed).act(state)


def test_register_a_custom_kind() -> None:
    from searchlab.agents import Param

    def factory(game, *, name, seed, pick):
        agent = RandomAgent(name, seed=seed)
        agent.act = lambda state, limits=None: sorted(state.legal_actions())[pick]
        return agent

    register_agent("nth", factory, {"pick": Param(int, 0, positive=False)})
    try:
        state = make("tictactoe").initial_state()
        assert make_agent("nth:pick=2", None).act(state) == sorted(state.legal_actions())[2]
        with pytest.raises(InvalidParameterError):
            register_agent("bad:name", factory)
    finally:
        del AGENT_KINDS["nth"]


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:simulations=3000",
        "flatmc:simulations=3000",
        "mcts:simulations=3000,tier=reference,rollout=informed",
    ],
)
def test_monte_carlo_agents_take_an_immediate_connect4_win(spec: str) -> None:
    state = parse_moves("445566")
    wins = _winning_moves(state)
    agent = make_agent(spec, make("connect4"), seed=3)
    assert agent.act(state) in wins
    assert agent.last_result is not None and agent.last_result.stats["simulations"] > 0


def test_mcts_agent_seeded_moves_repeat_and_seeds_differ() -> None:
    game = make("othello")
    state = game.initial_state()

    def visits(seed: int) -> list[int]:
        agent = make_agent("mcts:simulations=400", game, seed=seed)
        agent.act(state)
        return [child["visits"] for child in agent.last_result.stats["children"]]

    assert visits(1) == visits(1)
    assert any(visits(1) != visits(seed) for seed in (2, 3, 4))


def test_mcts_agent_reuses_its_tree_between_moves() -> None:
    game = make("tictactoe")
    agent = make_agent("mcts:simulations=2000,reuse=true", game, seed=0)
    state = game.initial_state()
    first = agent.act(state)
    state = state.apply(first)
    state = state.apply(state.legal_actions()[0])  # the opponent's reply
    agent.act(state)
    assert agent.last_result.stats["reused_visits"] > 0
    agent.reset()
    agent.act(state)
    assert agent.last_result.stats["reused_visits"] == 0


def test_the_callers_limits_override_the_agent_budget() -> None:
    from searchlab.core.limits import Limits

    game = make("connect4")
    agent = make_agent("mcts:simulations=50000", game, seed=0)
    agent.act(game.initial_state(), Limits(simulations=300))
    assert agent.last_result.stats["simulations"] == 300


def test_greedy_reports_its_one_ply_value() -> None:
    from searchlab.domains.games.connect4.eval import ThreatEvaluation

    game = make("connect4")
    agent = make_agent("greedy", game, seed=0)
    winning = parse_moves("445566")
    agent.act(winning)
    assert agent.last_result.outcome == "win" and agent.last_result.plies_to_end == 1
    quiet = parse_moves("44")
    action = agent.act(quiet)
    child = quiet.apply(action)
    assert not agent.last_result.is_proven
    assert agent.last_result.value == pytest.approx(-ThreatEvaluation()(child))
    assert agent.last_result.nodes == len(quiet.legal_actions())


def test_monte_carlo_agents_take_a_value_scale() -> None:
    game = make("othello")
    state = game.initial_state()
    for spec in (
        "mcts:simulations=300,scale=normalised",
        "flatmc:simulations=100,scale=normalised",
    ):
        agent = make_agent(spec, game, seed=1)
        assert agent.act(state) in state.legal_actions()
        children = agent.last_result.stats["children"]
        # normalised disc differences: finer than outcomes, inside [-1, 1]
        assert all(-1 <= child["value"] <= 1 for child in children)
    assert make_agent("mcts:scale=normalised", game).options.value_scale == "normalised"
    assert make_agent("mcts", game).options.value_scale == "outcome"
    with pytest.raises(InvalidParameterError, match="scale must be one of outcome, normalised"):
        make_agent("flatmc:scale=discs", game)
