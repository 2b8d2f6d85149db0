"""Consecutive plies by the same player: every search takes the player to move from the state,
never from the parity of the depth.

In games such as Snake Go a player moves several plies in a row (each of their snakes acts
once per turn). The tests here run every search of searchlab on small games with such runs of
plies and compare its value and move with an independent brute-force minimax written below
(:func:`exact`: it asks every position whose move it is). :func:`parity_negamax`, the textbook
negamax that flips the sign at every ply, disagrees with it on these games: that is what the
tests would catch in an algorithm that assumed alternation.

The games:

* :data:`TWO_IN_A_ROW`, a hand-made tree: player 0 may move twice in a row (value +1 through
  action 0) or hand the move over (value 0); a parity-based search values the bonus move as
  player 1's and answers 0 through action 1;
* :class:`BonusNim`: take 1 or 3 counters, taking 3 earns another move, who takes the last
  counter wins; its key is ``(counters left, player to move)``, so one position is
  reached from positions of both players (a transposition whose mover differs);
* :func:`random_tree`: random trees whose every node has a random player to move.

Snake Go (a player with two snakes moves twice in a row) is tested at the end, on small boards,
the compiled MCTS (its own tree arrays) included.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest
from bonus_nim import BonusNim, BonusNimState

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.algorithms.adversarial.negamax import iterative_deepening, negamax
from searchlab.algorithms.adversarial.solver import Solver, solve
from searchlab.algorithms.mcts import MCTS, ProofSearch, UniformEvaluator, flat_monte_carlo, mcts
from searchlab.algorithms.mcts.flat import monte_carlo_evaluation
from searchlab.core.game import GameInfo
from searchlab.core.limits import Limits
from searchlab.domains.games.snakego import SPLIT, SnakeGo
from searchlab.games import make

# --- games with consecutive plies ---------------------------------------------------------

Tree = Any  # an int (player 0's utility at a leaf) or (player to move, [children...])


class TreeState:
    """A position of an explicit game tree whose nodes name their player to move."""

    def __init__(self, node: Tree, path: tuple[int, ...] = (), last: int = 1) -> None:
        self.node = node
        self.path = path
        self.last = last  # who moved last (a leaf says the other one is to move)

    def current_player(self) -> int:
        return self.node[0] if isinstance(self.node, tuple) else 1 - self.last

    def legal_actions(self) -> list[int]:
        return list(range(len(self.node[1]))) if isinstance(self.node, tuple) else []

    def apply(self, action: int) -> TreeState:
        return TreeState(self.node[1][action], (*self.path, action), self.current_player())

    def is_terminal(self) -> bool:
        return not isinstance(self.node, tuple)

    def returns(self) -> tuple[float, float]:
        if isinstance(self.node, tuple):
            return (0.0, 0.0)
        return (float(self.node), float(-self.node))

    def key(self) -> Hashable:
        return self.path

    def __repr__(self) -> str:
        return f"TreeState(path={self.path})"


class TreeGame:
    def __init__(self, tree: Tree, max_utility: int = 1) -> None:
        self.tree = tree
        self.info = GameInfo(name="turn_tree", max_utility=max_utility)

    def initial_state(self) -> TreeState:
        return TreeState(self.tree)


TWO_IN_A_ROW = (0, [(0, [-1, 1]), (1, [1, 0])])
"""Player 0 to move. Action 0: player 0 moves again and takes the +1 leaf (value +1). Action 1:
player 1 moves and takes the 0 leaf (value 0). So the value is +1, the best action 0."""


def random_tree(seed: int, depth: int = 5, utilities: Sequence[int] = (-1, 0, 1)) -> Tree:
    """A random tree: 1-3 children per node, a random player at every node, random leaves
    (some early), leaves' values drawn from ``utilities``."""
    rng = random.Random(seed)

    def node(level: int) -> Tree:
        if level == depth or (level > 1 and rng.random() < 0.2):
            return rng.choice(utilities)
        return (rng.randrange(2), [node(level + 1) for _ in range(rng.randint(1, 3))])

    return (0, [node(1) for _ in range(3)])


# --- the brute force and its parity-based foil ----------------------------------------------


def exact(state: Any, table: dict[Hashable, float] | None = None) -> float:
    """Minimax value for player 0; the player to move is asked of every position. ``table``
    (values by key, for positions of one game) may be shared between calls."""
    table = {} if table is None else table

    def value(state: Any) -> float:
        key = state.key()
        if key not in table:
            if state.is_terminal():
                table[key] = float(state.returns()[0])
            else:
                values = [value(state.apply(action)) for action in state.legal_actions()]
                table[key] = max(values) if state.current_player() == 0 else min(values)
        return table[key]

    return value(state)


def for_mover(state: Any, value_for_player0: float) -> float:
    return value_for_player0 if state.current_player() == 0 else -value_for_player0


def action_values(state: Any, table: dict[Hashable, float] | None = None) -> dict[int, float]:
    """The exact value of each action for the player to move in ``state``."""
    table = {} if table is None else table
    player = state.current_player()
    return {
        a: (1 if player == 0 else -1) * exact(state.apply(a), table) for a in state.legal_actions()
    }


def best_actions(state: Any, table: dict[Hashable, float] | None = None) -> set[int]:
    values = action_values(state, table)
    best = max(values.values())
    return {a for a, v in values.items() if v == best}


def parity_negamax(state: Any) -> tuple[float, int | None]:
    """The textbook negamax that asks the root whose move it is and then negates at every ply
    (the players assumed to alternate): (value for the root's player, best action). Wrong on
    these games."""
    return _parity(state, state.current_player())


def _parity(state: Any, assumed: int) -> tuple[float, int | None]:
    """Negamax value for ``assumed``, the player parity says is to move (never asked)."""
    if state.is_terminal():
        return float(state.returns()[assumed]), None
    best, best_action = -float("inf"), None
    for action in state.legal_actions():
        child_value, _ = _parity(state.apply(action), 1 - assumed)
        if -child_value > best:
            best, best_action = -child_value, action
    return best, best_action


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def terminal_of(state: Any, line: Sequence[int]) -> Any:
    for action in line:
        state = state.apply(action)
    return state


def games() -> list[tuple[str, Any]]:
    """Every small game of the exact tests: the hand example, Bonus Nim, random trees."""
    out: list[tuple[str, Any]] = [("two_in_a_row", TreeGame(TWO_IN_A_ROW))]
    out += [(f"bonus_nim_{n}_p{p}", BonusNim(n, p)) for n in range(1, 15) for p in (0, 1)]
    out += [(f"tree_{seed}", TreeGame(random_tree(seed))) for seed in range(30)]
    out += [
        (f"tree_utility_{seed}", TreeGame(random_tree(seed, 4, (-3, -1, 0, 2)), max_utility=3))
        for seed in range(10)
    ]
    return out


GAMES = games()
IDS = [name for name, _ in GAMES]
GAME_LIST = [game for _, game in GAMES]


# --- the brute force itself ------------------------------------------------------------------


def test_the_brute_force_reads_the_hand_example_as_its_docstring_says() -> None:
    root = TreeGame(TWO_IN_A_ROW).initial_state()
    assert exact(root) == 1.0
    assert best_actions(root) == {0}
    assert action_values(root) == {0: 1.0, 1: 0.0}


def test_the_brute_force_reads_small_bonus_nim_piles_as_worked_out_by_hand() -> None:
    """1: take it and win. 2: take 1 (the only move) and the opponent takes the last. 3: take
    all, or take 1 leaving the opponent 2. 4: take 3, move again and take the last; taking 1
    leaves the opponent 3, a win for them."""
    by_hand = {1: (1.0, {1}), 2: (-1.0, {1}), 3: (1.0, {1, 3}), 4: (1.0, {3})}
    for counters, (value, best) in by_hand.items():
        for player in (0, 1):
            state = BonusNim(counters, player).initial_state()
            assert for_mover(state, exact(state)) == value, (counters, player)
            assert best_actions(state) == best, (counters, player)


def test_a_parity_based_negamax_gets_these_games_wrong() -> None:
    """The games discriminate: negating at every ply gives other values or moves."""
    root = TreeGame(TWO_IN_A_ROW).initial_state()
    assert parity_negamax(root) == (0.0, 1)
    wrong = 0
    for _, game in GAMES:
        state = game.initial_state()
        value, action = parity_negamax(state)
        if value != for_mover(state, exact(state)) or action not in best_actions(state):
            wrong += 1
    assert wrong >= len(GAMES) // 3, wrong


def test_bonus_nim_has_transpositions_whose_mover_differs() -> None:
    """(3 left, player 0 to move) follows player 0's own move (6, take 3) and player 1's (4,
    take 1): a search that shares one node per key must keep the mover apart."""
    assert BonusNimState(6, 0).apply(3).key() == BonusNimState(4, 1).apply(1).key() == (3, 0)


# --- the exact searches ----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
@pytest.mark.parametrize(
    "search", [minimax, alphabeta, negamax], ids=["minimax", "alphabeta", "negamax"]
)
def test_minimax_alphabeta_and_negamax_agree_with_the_brute_force(search, game) -> None:
    root = game.initial_state()
    result = search(game)
    assert result.value == for_mover(root, exact(root))
    assert result.action in best_actions(root)
    assert result.is_proven
    end = terminal_of(root, result.principal_variation)
    assert end.is_terminal() and end.returns()[0] == exact(root)


@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
def test_negamax_at_every_depth_with_an_exact_horizon_evaluation(game) -> None:
    """Horizons that fall on a consecutive ply: with the exact value (halved, so in (-1, 1))
    as the evaluation, every iteration has the sign of the exact value. The table is kept
    between iterations, so its entries are read back at other depths too."""
    root = game.initial_state()
    expected = sign(for_mover(root, exact(root)))
    scale = 2.0 * game.info.max_utility

    def evaluate(state: Any) -> float:
        return for_mover(state, exact(state)) / scale

    iterations = list(iterative_deepening(game, evaluate=evaluate))
    assert iterations and iterations[-1].is_proven
    for result in iterations:
        assert sign(result.value) == expected, (result.depth, result.value)
        assert result.action in best_actions(root), (result.depth, result.action)


@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
@pytest.mark.parametrize("search", [minimax, alphabeta], ids=["minimax", "alphabeta"])
def test_depth_limited_minimax_and_alphabeta_with_an_exact_evaluation(search, game) -> None:
    root = game.initial_state()
    for depth in (1, 2, 3):
        result = search(game, depth=depth, evaluate=lambda s: for_mover(s, exact(s)))
        assert result.value == for_mover(root, exact(root)), depth
        assert result.action in best_actions(root), depth


@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
def test_the_exact_solver_agrees_with_the_brute_force(game) -> None:
    root = game.initial_state()
    result = solve(game, tier="reference")
    assert result.value == for_mover(root, exact(root))
    assert result.action in best_actions(root)
    assert result.stats["action_values"] == action_values(root)
    end = terminal_of(root, result.principal_variation)
    assert end.is_terminal() and end.returns()[0] == exact(root)
    # Every position the solver met holds the exact value for its own player to move.
    solver = Solver(game)
    solver.value(root)
    positions = [root]
    while positions:
        state = positions.pop()
        if not state.is_terminal():
            assert solver.value(state)[0] == for_mover(state, exact(state)), state
            positions.extend(state.apply(a) for a in state.legal_actions())


@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
def test_proof_search_agrees_with_the_brute_force(game) -> None:
    """ProofSearch (MCTS's exact endgame search) values on the outcome scale: the sign."""
    root = game.initial_state()
    prover = ProofSearch(depth=20)
    assert prover.prove(root) == sign(for_mover(root, exact(root)))
    for action in root.legal_actions():
        child = root.apply(action)
        assert prover.prove(child) == sign(for_mover(child, exact(child))), action


# --- the Monte Carlo searches ----------------------------------------------------------------


def random_play_value(state: Any, table: dict[Hashable, float] | None = None) -> float:
    """The expected outcome (+1 / 0 / -1) for player 0 of uniformly random play from
    ``state`` (``table``: values by key, for positions of one game)."""
    table = {} if table is None else table
    key = state.key()
    if key not in table:
        if state.is_terminal():
            table[key] = float(sign(state.returns()[0]))
        else:
            actions = state.legal_actions()
            total = sum(random_play_value(state.apply(a), table) for a in actions)
            table[key] = total / len(actions)
    return table[key]


@pytest.mark.parametrize(
    "game", [TreeGame(TWO_IN_A_ROW), BonusNim(6), BonusNim(5, 1), TreeGame(random_tree(3))]
)
def test_flat_monte_carlo_means_are_for_the_player_to_move(game) -> None:
    """Each child's mean is the expected random-play outcome for the root's player to move,
    whoever moves in the child."""
    root = game.initial_state()
    actions = root.legal_actions()
    result = flat_monte_carlo(game, limits=Limits(simulations=3000 * len(actions)), seed=5)
    for entry in result.stats["children"]:
        expected = for_mover(root, random_play_value(root.apply(entry["action"])))
        assert entry["value"] == pytest.approx(expected, abs=0.06), entry
    evaluate = monte_carlo_evaluation(3000, seed=2)
    for action in actions:
        child = root.apply(action)
        expected = for_mover(child, random_play_value(child))
        assert evaluate(child) == pytest.approx(expected, abs=0.06), action


def test_flat_monte_carlo_plays_the_bonus_move_of_the_hand_example() -> None:
    """Player 0 moves twice in a row after action 1 of this tree: a random second move is
    worth +1 on average, action 0 only 0."""
    game = TreeGame((0, [(1, [1, 0]), (0, [1, 1, 1, 0])]))
    result = flat_monte_carlo(game, limits=Limits(simulations=2000), seed=1)
    assert result.action == 1


MCTS_GAMES = [
    ("two_in_a_row", TreeGame(TWO_IN_A_ROW)),
    *[(f"bonus_nim_{n}", BonusNim(n)) for n in (4, 7, 10, 13)],
]


@pytest.mark.parametrize("transpositions", [False, True])
@pytest.mark.parametrize("game", [g for _, g in MCTS_GAMES], ids=[n for n, _ in MCTS_GAMES])
def test_mcts_plays_the_best_move(game, transpositions) -> None:
    root = game.initial_state()
    best = best_actions(root)
    assert len(best) < len(root.legal_actions())  # a wrong move exists
    result = mcts(
        game, limits=Limits(simulations=3000), seed=3, tier="reference",
        transpositions=transpositions,
    )  # fmt: skip
    assert result.action in best
    assert sign(result.value) == sign(for_mover(root, exact(root)))


@pytest.mark.parametrize("options", [{}, {"transpositions": True}, {"exact_endgame": 2}])
@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
def test_mcts_solver_proves_the_exact_value(game, options) -> None:
    root = game.initial_state()
    result = mcts(
        game, limits=Limits(simulations=20_000), seed=1, tier="reference", solver=True, **options
    )
    assert result.is_proven
    assert result.value == sign(for_mover(root, exact(root)))
    assert result.action in best_actions(root)
    for entry in result.stats["children"]:
        if entry["proven"] is not None:
            value = action_values(root)[entry["action"]]
            assert entry["proven"] == {1: "win", 0: "draw", -1: "loss"}[sign(value)], entry


class PerfectEvaluator:
    """Uniform priors and the exact outcome for the player to move."""

    def evaluate(self, state: Any) -> tuple[list[float], float]:
        count = len(state.legal_actions())
        return [1.0 / count] * count, float(sign(for_mover(state, exact(state))))


@pytest.mark.parametrize(
    "evaluator",
    [PerfectEvaluator(), UniformEvaluator(rollout=True, seed=4)],
    ids=["perfect", "uniform"],
)
@pytest.mark.parametrize("game", [g for _, g in MCTS_GAMES], ids=[n for n, _ in MCTS_GAMES])
def test_puct_plays_the_best_move(game, evaluator) -> None:
    root = game.initial_state()
    result = mcts(
        game, limits=Limits(simulations=3000), seed=2, tier="reference", evaluator=evaluator,
        lambda_=0.0,
    )  # fmt: skip
    assert result.algorithm == "puct"
    assert result.action in best_actions(root)


@pytest.mark.parametrize("transpositions", [False, True])
@pytest.mark.parametrize("game", GAME_LIST, ids=IDS)
def test_puct_solver_proves_the_exact_value(game, transpositions) -> None:
    root = game.initial_state()
    result = mcts(
        game, limits=Limits(simulations=20_000), seed=1, tier="reference", solver=True,
        evaluator=PerfectEvaluator(), lambda_=0.0, transpositions=transpositions,
    )  # fmt: skip
    assert result.is_proven
    assert result.value == sign(for_mover(root, exact(root)))
    assert result.action in best_actions(root)


def test_mcts_tree_reuse_across_a_run_of_own_plies() -> None:
    """The searcher keeps its tree from one ply to the next of the same player, and from its
    turn of two plies to its next turn after the opponent's reply (three plies below, found
    through the opponent's plies); the reused searches still find the best move and value."""
    game = BonusNim(13)
    searcher = MCTS(game, seed=1, tier="reference")
    state = game.initial_state()
    first = searcher.search(state, Limits(simulations=5000))
    assert first.action in best_actions(state)
    state = state.apply(3)  # player 0 moves again
    assert state.current_player() == 0
    second = searcher.search(state, Limits(simulations=5000))
    assert second.stats["reused_visits"] > 0
    assert second.action in best_actions(state)
    assert sign(second.value) == sign(for_mover(state, exact(state)))
    for action in (3, 1, 1):  # player 0 again, then the move passes; player 1 replies
        state = state.apply(action)
    assert state.left == 5 and state.current_player() == 0
    third = searcher.search(state, Limits(simulations=5000))
    assert third.stats["reused_visits"] > 0
    assert sign(third.value) == sign(for_mover(state, exact(state)))


# --- Snake Go ----------------------------------------------------------------------------------


def snakego_positions() -> list[tuple[str, Any, Any]]:
    """``(name, game, position)``: small Snake Go positions two or three rounds from the end,
    where a player has two snakes (so that player's turn is two plies in a row), in both
    scorings. Some are built by hand; the others are reached from a seeded game by random
    moves that split often."""
    out = []
    for scoring in ("win_loss", "score_difference"):
        game = SnakeGo(items=(), size=5, rounds=3, max_snakes=2, scoring=scoring)
        hand = {
            "two_vs_one": game.state_from(
                snakes=([[(1, 3), (1, 4), (2, 4)], [(3, 2), (3, 3)]], [[(2, 1), (2, 0), (3, 0)]]),
                round=2,
                player=0,
            ),
            "one_vs_two": game.state_from(
                snakes=([[(1, 3), (1, 4), (0, 4)]], [[(2, 1), (2, 0)], [(3, 2), (4, 2), (4, 1)]]),
                round=2,
                player=1,
            ),
            "loop_and_one": game.state_from(
                snakes=(
                    [[(2, 2), (2, 3), (1, 3), (1, 2), (1, 1), (2, 1)], [(4, 4)]],
                    [[(3, 0), (4, 0)]],
                ),
                round=3,
                player=0,
            ),
        }
        out += [(f"{name}_{scoring}", game, state) for name, state in hand.items()]
        for seed, rounds, player in ((27, 6, 0), (39, 6, 0), (17, 5, 0), (4, 5, 1)):
            game, state = seeded_snakego(seed, rounds, player, scoring)
            out.append((f"seed{seed}_r{rounds}_p{player}_{scoring}", game, state))
    return out


def seeded_snakego(seed: int, rounds: int, player: int, scoring: str) -> tuple[Any, Any]:
    """The position at the start of ``player``'s turn in round ``rounds - 1`` of the seeded
    game ``make("snakego", size=5, rounds=rounds, seed=seed, max_snakes=2)``, after random
    moves (a split with probability 1/2 when legal)."""
    game = make("snakego", size=5, rounds=rounds, seed=seed, max_snakes=2, scoring=scoring)
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.is_terminal() and not (
        state.round == rounds - 1
        and state.player == player
        and len(state.pending) == len(state.snakes[player])
    ):
        actions = state.legal_actions()
        split = SPLIT in actions and rng.random() < 0.5
        state = state.apply(SPLIT if split else rng.choice(actions))
    return game, state


SNAKEGO = snakego_positions()
SNAKEGO_IDS = [name for name, _, _ in SNAKEGO]
SNAKEGO_CASES = [(game, state) for _, game, state in SNAKEGO]


@functools.cache
def snakego_table(index: int) -> dict[Hashable, float]:
    """The brute force's table of position ``index`` of :data:`SNAKEGO` (filled once)."""
    table: dict[Hashable, float] = {}
    exact(SNAKEGO[index][2], table)
    return table


def snakego_truth(state: Any) -> tuple[float, set[int], dict[int, float], dict[Hashable, float]]:
    """(exact value for the player to move, best actions, action values, table)."""
    index = next(i for i, (_, _, position) in enumerate(SNAKEGO) if position is state)
    table = snakego_table(index)
    value = for_mover(state, exact(state, table))
    return value, best_actions(state, table), action_values(state, table), table


def test_snakego_positions_have_runs_of_plies_and_parity_gets_some_wrong() -> None:
    wrong = 0
    for name, _, state in SNAKEGO:
        assert not state.is_terminal(), name
        assert max(len(snakes) for snakes in state.snakes) == 2, name
        # a run of two plies by one player starts here or at the opponent's next turn
        if len(state.pending) == 2:
            after = state.apply(state.legal_actions()[0])
            assert after.current_player() == state.current_player(), name
        value, best, _, _ = snakego_truth(state)
        parity_value, parity_action = parity_negamax(state)
        wrong += parity_value != value or parity_action not in best
    assert wrong >= 3, wrong
    assert sum(len(snakego_truth(s)[1]) < len(s.legal_actions()) for _, _, s in SNAKEGO) >= 6


@pytest.mark.parametrize(("game", "state"), SNAKEGO_CASES, ids=SNAKEGO_IDS)
def test_snakego_exact_searches_agree_with_the_brute_force(game, state) -> None:
    value, best, values, _ = snakego_truth(state)
    for search in (minimax, alphabeta, negamax):
        result = search(game, state)
        assert (result.value, result.is_proven) == (value, True), result.algorithm
        assert result.action in best, result.algorithm
        end = terminal_of(state, result.principal_variation)
        assert end.is_terminal() and for_mover(state, end.returns()[0]) == value
    result = solve(game, state, tier="reference")
    assert result.value == value and result.action in best
    assert result.stats["action_values"] == values
    assert ProofSearch(depth=20, node_budget=100_000).prove(state) == sign(value)


@pytest.mark.parametrize(("game", "state"), SNAKEGO_CASES, ids=SNAKEGO_IDS)
def test_snakego_mcts_solver_and_puct_prove_the_exact_value(game, state) -> None:
    """On the outcome scale (proofs are of win, draw or loss): the proven value is the sign of
    the exact value and the move one that keeps it."""
    value, _, values, table = snakego_truth(state)
    keeping = {action for action, v in values.items() if sign(v) == sign(value)}

    class Perfect:
        def evaluate(self, position: Any) -> tuple[list[float], float]:
            count = len(position.legal_actions())
            return [1.0 / count] * count, float(sign(for_mover(position, exact(position, table))))

    puct = {"evaluator": Perfect(), "lambda_": 0.0}
    for options in ({}, {"transpositions": True}, {"exact_endgame": 3}, puct):
        result = mcts(
            game, state, limits=Limits(simulations=50_000), seed=1, tier="reference",
            solver=True, **options,
        )  # fmt: skip
        assert result.is_proven, options
        assert result.value == sign(value), options
        assert result.action in keeping, options


@pytest.mark.parametrize(("game", "state"), SNAKEGO_CASES, ids=SNAKEGO_IDS)
def test_snakego_mcts_and_puct_play_a_best_move(game, state) -> None:
    """Without the solver, on the outcome scale for win/loss and on the normalised returns
    for the score difference (the brute force's best moves maximise the score difference)."""
    _, best, _, table = snakego_truth(state)
    scale = "outcome" if game.scoring == "win_loss" else "normalised"

    class Perfect:
        def evaluate(self, position: Any) -> tuple[list[float], float]:
            count = len(position.legal_actions())
            value = for_mover(position, exact(position, table)) / game.info.max_utility
            return [1.0 / count] * count, value if scale == "normalised" else float(sign(value))

    uct = mcts(
        game, state, limits=Limits(simulations=5000), seed=2, tier="reference", value_scale=scale
    )
    assert uct.action in best
    puct = mcts(
        game, state, limits=Limits(simulations=3000), seed=2, tier="reference",
        value_scale=scale, evaluator=Perfect(), lambda_=0.0,
    )  # fmt: skip
    assert puct.action in best


def random_play_values(state: Any) -> dict[int, float]:
    """Per action, the expected random-play outcome for the player to move in ``state``."""
    table: dict[Hashable, float] = {}
    return {
        a: for_mover(state, random_play_value(state.apply(a), table)) for a in state.legal_actions()
    }


@pytest.mark.parametrize(("game", "state"), SNAKEGO_CASES[:7], ids=SNAKEGO_IDS[:7])
def test_snakego_flat_monte_carlo_means_are_for_the_player_to_move(game, state) -> None:
    """Each child's mean is the expected random-play outcome for the player to move at the
    root, whoever moves in the child."""
    expected = random_play_values(state)
    limits = Limits(simulations=2000 * len(expected))
    result = flat_monte_carlo(game, state, limits=limits, seed=3)
    for entry in result.stats["children"]:
        assert entry["value"] == pytest.approx(expected[entry["action"]], abs=0.07), entry


def test_snakego_flat_monte_carlo_picks_a_proven_best_move() -> None:
    """Where random play clearly prefers one move (by 0.15) and it is a proven best move,
    flat Monte Carlo plays it: checked on every such position, at least four of them."""
    checked = 0
    for game, state in SNAKEGO_CASES:
        expected = random_play_values(state)
        top = max(expected, key=lambda a: expected[a])
        clear = all(v < expected[top] - 0.15 for a, v in expected.items() if a != top)
        if not clear or top not in snakego_truth(state)[1]:
            continue
        limits = Limits(simulations=1000 * len(expected))
        assert flat_monte_carlo(game, state, limits=limits, seed=4).action == top
        checked += 1
    assert checked >= 4, checked


@pytest.mark.parametrize(("game", "state"), SNAKEGO_CASES, ids=SNAKEGO_IDS)
def test_snakego_compiled_mcts_agrees_with_the_brute_force(game, state) -> None:
    """The compiled tier (its own tree arrays, a mover per node) on the same positions: every
    root action searched, MCTS-Solver proves the sign of the exact value with a move that
    keeps it, and UCT plays a proven best move."""
    value, best, values, _ = snakego_truth(state)
    keeping = {action for action, v in values.items() if sign(v) == sign(value)}
    proof = mcts(
        game, state, limits=Limits(simulations=50_000), seed=1, tier="compiled", solver=True
    )
    assert proof.tier == "compiled"
    assert {c["action"] for c in proof.stats["children"]} == set(state.legal_actions())
    assert proof.is_proven and proof.value == sign(value)
    assert proof.action in keeping
    scale = "outcome" if game.scoring == "win_loss" else "normalised"
    uct = mcts(
        game, state, limits=Limits(simulations=5000), seed=2, tier="compiled", value_scale=scale
    )
    assert uct.action in best
