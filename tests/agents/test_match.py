"""The one match loop (agents/match.py): opening, turns, times, forfeits, strict mode."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from endless_game import Endless

from searchlab.agents import AgentBase, Resign
from searchlab.agents.match import PlayedGame, close_agent, play_game, result_of
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import State
from searchlab.core.limits import Limits
from searchlab.domains.games.nim import Nim

NIM = Nim(piles=(5,))  # take 1..5 from one pile; whoever takes the last stone wins


class Scripted(AgentBase):
    """Plays ``choose(state)``; records resets and the limits it was given."""

    def __init__(self, name: str, choose: Callable[[State], int]) -> None:
        super().__init__(name)
        self.choose = choose
        self.resets = 0
        self.limits: list[Limits | None] = []

    def act(self, state: State, limits: Limits | None = None) -> int:
        self.limits.append(limits)
        return self.choose(state)

    def reset(self) -> None:
        super().reset()
        self.resets += 1


def take_one(state: State) -> int:
    return 0  # "1:1": one stone


def take_all(state: State) -> int:
    return max(state.legal_actions())


def crash(state: State) -> int:
    raise RuntimeError("out of memory")


def resign(state: State) -> int:
    raise Resign("lost anyway")


def test_the_agents_move_in_turn_after_the_opening() -> None:
    first, second = Scripted("all", take_all), Scripted("one", take_one)
    played = play_game(NIM, [first, second], opening=[0])  # the opening takes one: 4 left
    assert played.opening == ("1:1",)
    assert [(m.action, m.notation, m.mover) for m in played.moves] == [(0, "1:1", 1), (2, "1:3", 0)]
    assert all(move.seconds >= 0 for move in played.moves)
    assert (played.result, played.termination, played.error) == ("1-0", "end", None)
    assert played.state.is_terminal() and played.forfeit is None
    assert (played.outcome(0), played.outcome(1), played.first_score) == (1, -1, 1.0)
    assert first.resets == second.resets == 1


def test_the_limits_reach_every_move() -> None:
    limits = Limits(time=0.5)
    first, second = Scripted("one", take_one), Scripted("one'", take_one)
    play_game(NIM, [first, second], limits=limits)
    assert first.limits == [limits] * 3 and second.limits == [limits] * 2


@pytest.mark.parametrize(
    ("choose", "termination", "error"),
    [
        (crash, "error", "crasher: RuntimeError: out of memory"),
        (lambda state: 99, "illegal move", "crasher answered 99, not legal after '1:1'"),
        (resign, "resign", "crasher resigned (lost anyway)"),
    ],
)
def test_the_agent_to_move_forfeits_the_game(
    choose: Callable[[State], int], termination: str, error: str
) -> None:
    agents = [Scripted("one", take_one), Scripted("crasher", choose)]
    played = play_game(NIM, agents, opening=[0])  # the second agent is to move first
    assert (played.result, played.termination, played.error) == ("1-0", termination, error)
    assert played.forfeit == 1 and played.moves == ()
    assert played.outcome(1) == -1
    agents.reverse()  # now the crasher moves for player 0 and loses as player 0
    played = play_game(NIM, agents)
    assert (played.result, played.termination, played.forfeit) == ("0-1", termination, 0)


def test_strict_raises_instead_of_forfeiting_but_a_resignation_still_resigns() -> None:
    with pytest.raises(RuntimeError, match="out of memory"):
        play_game(NIM, [Scripted("c", crash), Scripted("one", take_one)], strict=True)
    with pytest.raises(IllegalMoveError, match="answered 7"):
        play_game(NIM, [Scripted("i", lambda state: 7), Scripted("one", take_one)], strict=True)
    played = play_game(NIM, [Scripted("r", resign), Scripted("one", take_one)], strict=True)
    assert played.termination == "resign" and played.result == "0-1"


def test_a_draw_and_the_results_of_returns() -> None:
    assert [result_of(r) for r in ((1, -1), (0, 0), (-1, 1))] == ["1-0", "1/2-1/2", "0-1"]
    drawn = PlayedGame(NIM.initial_state(), (), (), "1/2-1/2")
    assert drawn.outcome(0) == drawn.outcome(1) == 0 and drawn.first_score == 0.5
    with pytest.raises(InvalidParameterError, match="player must be 0 or 1"):
        drawn.outcome(2)


def test_a_game_needs_two_agents() -> None:
    with pytest.raises(InvalidParameterError, match="two agents, got 1"):
        play_game(NIM, [Scripted("one", take_one)])


def test_close_agent_closes_what_has_close_and_ignores_its_failure() -> None:
    closed: list[str] = []

    class Engine(Scripted):
        def close(self) -> None:
            closed.append(self.name)
            raise OSError("already gone")

    close_agent(Engine("engine", take_one))
    close_agent(Scripted("plain", take_one))  # nothing to close
    assert closed == ["engine"]


def test_a_game_that_outlasts_its_length_is_an_error_not_a_result() -> None:
    from searchlab.core.errors import EndlessGameError

    agents = [Scripted("zero", lambda state: 0), Scripted("zero'", lambda state: 0)]
    with pytest.raises(EndlessGameError, match="'endless' is not over after 20 plies, its max_"):
        play_game(Endless(), agents)  # type: ignore[arg-type]
    with pytest.raises(EndlessGameError, match="not over after 20 plies"):
        play_game(Endless(), agents, opening=[0] * 5)  # type: ignore[arg-type]
    # without a declared length, searchlab's cap (the longest rollout) holds
    with pytest.raises(EndlessGameError, match="after 10000 plies, searchlab's cap"):
        play_game(Endless(None), agents)  # type: ignore[arg-type]


def test_a_crash_in_your_games_code_is_raised_not_counted_against_the_agent() -> None:
    def bad_search(state: State) -> int:
        state.apply(1)  # the agent looks ahead: the game's own code raises
        return 0

    agents = [Scripted("zero", lambda state: 0), Scripted("searcher", bad_search)]
    with pytest.raises(ZeroDivisionError, match="a bug in the rules"):
        play_game(Endless(bug_at=7), agents)  # type: ignore[arg-type]
    # the agent's own crash in your game still loses it the game
    agents = [Scripted("zero", lambda state: 0), Scripted("crasher", crash)]
    played = play_game(Endless(bug_at=7), agents)  # type: ignore[arg-type]
    assert (played.termination, played.error) == ("error", "crasher: RuntimeError: out of memory")


def test_an_agent_that_cannot_play_is_a_setup_error_even_when_not_strict() -> None:
    from searchlab.core.errors import AgentSetupError

    def broken(state: State) -> int:
        raise AgentSetupError("engine 'x' exited with code 1 at its start")

    with pytest.raises(AgentSetupError, match="exited with code 1"):
        play_game(NIM, [Scripted("one", take_one), Scripted("broken", broken)])


def test_check_ready_asks_the_agents_that_can_tell() -> None:
    from searchlab.agents.match import check_ready

    asked: list[object] = []

    class Engine(Scripted):
        def check_ready(self, game: object) -> None:
            asked.append(game)

    check_ready(Engine("engine", take_one), NIM)
    check_ready(Scripted("plain", take_one), NIM)  # nothing to ask
    assert asked == [NIM]
