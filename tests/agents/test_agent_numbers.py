"""Numbers in agent specs are checked where they enter: one clear line quoting the bad value,
never a numba overflow or a search that never ends."""

from __future__ import annotations

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.agents import make_agent
from searchlab.agents.search import MCTSAgent
from searchlab.algorithms.mcts import MCTSOptions
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.games import make

BAD_NUMBERS = [
    ("mcts:simulations=100000000000000000000", "Limits.simulations must be at most"),
    ("mcts:time=nan", "Limits.time must be a finite number of seconds, got nan"),
    ("mcts:time=inf", "Limits.time must be a finite number of seconds, got inf"),
    ("alphabeta:time=nan", "Limits.time must be a finite number of seconds, got nan"),
    ("alphabeta:depth=100000000000000000000", "Limits.depth must be at most"),
    ("alphabeta:nodes=9223372036854775808", "Limits.nodes must be at most"),
    ("flatmc:time=nan", "Limits.time must be a finite number of seconds, got nan"),
    ("mcts:c=nan", "c must be a finite number >= 0, got nan"),
    ("mcts:c=1e999", "c must be a finite number >= 0, got inf"),
]


@pytest.mark.parametrize(("spec", "message"), BAD_NUMBERS)
def test_bad_numbers_in_a_spec_are_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises(InvalidParameterError) as raised:
        make_agent(spec, make("connect4"))
    assert message in str(raised.value)
    assert repr(spec) in str(raised.value)  # the message names the spec it came from


@pytest.mark.parametrize(("spec", "message"), BAD_NUMBERS)
def test_analyse_answers_a_bad_number_with_one_line(
    capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    code, out, err = run_main(capsys, "analyse", "connect4", "--agent", spec)
    assert_one_line_error(code, err, message)
    assert out == ""


def test_the_largest_simulation_budget_is_accepted_and_honoured() -> None:
    """2**63 - 1 simulations fit the kernel's counters; the caller's smaller budget runs."""
    game = make("connect4")
    agent = make_agent("mcts:simulations=9223372036854775807", game, seed=1)
    agent.act(game.initial_state(), Limits(simulations=200))
    assert agent.last_result.stats["simulations"] == 200
    both = make_agent("mcts:simulations=9223372036854775807,time=0.05", game, seed=1)
    both.act(game.initial_state())
    assert both.last_result.stopped_by == "time" and both.last_result.tier == "compiled"


def test_the_mcts_agent_builds_its_options_once_and_passes_them_down(monkeypatch) -> None:
    from searchlab.algorithms.mcts import search as search_module

    game = make("tictactoe")
    agent = make_agent("mcts:simulations=50,c=0.5,final=robust", game, seed=1)
    assert isinstance(agent, MCTSAgent) and isinstance(agent.options, MCTSOptions)
    assert (agent.options.c, agent.options.final_move) == (0.5, "robust")
    seen = []
    real = search_module._run_tiers

    def spy(game, root, limits, options, seed, searcher):
        seen.append(options)
        return real(game, root, limits, options, seed, searcher)

    monkeypatch.setattr(search_module, "_run_tiers", spy)
    state = game.initial_state()
    for _ in range(3):
        state = state.apply(agent.act(state))
    assert len(seen) == 3 and all(options is agent.options for options in seen)
