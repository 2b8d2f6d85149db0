"""The shared loop of the compiled MCTS (``_kernel_loop``) on its own: players taken from the
positions, positions in arrays, and, where players alternate, exactly the sign-flipping loop
it replaced.

Two oracles, both written here independently of the loop:

* **TurnNim**, a tiny game of our own in both tiers: a heap of counters; a turn of player
  ``p`` is ``PLIES[p]`` plies in a row (two for player 0, three for player 1), each taking 1
  or 2 counters; the one who takes the last counter wins. The compiled version keeps its
  position in an array (changed in place, as Snake Go's) with the player to move in it. The
  tree is checked node by node against the Python game, proofs against the exact values of a
  recursion, and root visit shares against the reference tier in distribution.
* **The alternating loop in Python**: the textbook negamax loop (flip the sign at every ply),
  run on Connect Four's and Othello's compiled game functions with the same random numbers;
  the compiled trees must equal its trees node for node (visits, value sums, proofs).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from functools import cache
from typing import Any

import numpy as np
import pytest
from compiled_tree import walk
from numba import njit

from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts._kernel_bind import bind
from searchlab.algorithms.mcts.compiled import _Kernel, _kernel_for, _Search
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.compiled_game import CompiledGame
from searchlab.core.compiled_rng import next_below, seed_state
from searchlab.core.game import GameInfo
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.domains.games.connect4 import compiled as K4
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.othello import compiled as KO

# --- TurnNim: consecutive plies, array positions ----------------------------------------

HEAP, PLAYER, LEFT, LAST = 0, 1, 2, 3
"""``pos``: counters left, player to move, plies left in the turn, who took last (-1)."""
PLIES = (2, 3)
"""Plies per turn of player 0 and player 1 (the read-only ``b`` of the position)."""
TAKE = 2
"""A ply takes 1 to ``TAKE`` counters (action ``i`` takes ``i + 1``)."""


@njit
def nim_actions(pos, plies, out, offset):  # pragma: no cover - compiled
    n = min(TAKE, pos[HEAP])
    for i in range(n):
        out[offset + i] = i  # action i takes i + 1 counters
    return n


@njit
def nim_play(pos, plies, action):  # pragma: no cover - compiled
    pos[HEAP] -= action + 1
    pos[LAST] = pos[PLAYER]
    pos[LEFT] -= 1
    if pos[LEFT] == 0:  # the turn passes, even after the last counter
        pos[PLAYER] = 1 - pos[PLAYER]
        pos[LEFT] = plies[pos[PLAYER]]
    return pos, plies


@njit
def nim_status(pos, plies, config):  # pragma: no cover - compiled
    if pos[HEAP] > 0:
        return False, 0.0
    return True, 1.0 if pos[LAST] == pos[PLAYER] else -1.0


@njit
def nim_rollout(pos, plies, rng, config):  # pragma: no cover - compiled
    player = pos[PLAYER]
    while pos[HEAP] > 0:
        rng, r = next_below(rng, min(TAKE, pos[HEAP]))
        nim_play(pos, plies, r)
    return (1.0 if pos[LAST] == player else -1.0), rng


@njit
def nim_next_player(pos, plies, before):  # pragma: no cover - compiled
    return pos[PLAYER]


NIM_RULES = CompiledGame(
    name="turnnim", actions=nim_actions, play=nim_play, status=nim_status, rollout=nim_rollout,
    next_player=nim_next_player, encode=lambda state: (state.heap, PLIES), max_branching=TAKE,
)  # fmt: skip
nim_search = bind(NIM_RULES, True)


class TurnNimState:
    """The reference tier's TurnNim (the same rules, in Python)."""

    def __init__(self, heap: int, player: int = 0, left: int = PLIES[0], last: int = -1) -> None:
        self.heap, self.player, self.left, self.last = heap, player, left, last

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> tuple[int, ...]:
        return tuple(range(min(TAKE, self.heap)))

    def apply(self, action: int) -> TurnNimState:
        assert action in self.legal_actions()
        left, player = self.left - 1, self.player
        if left == 0:
            player = 1 - player
            left = PLIES[player]
        return TurnNimState(self.heap - action - 1, player, left, self.player)

    def is_terminal(self) -> bool:
        return self.heap == 0

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        return (1.0, -1.0) if self.last == 0 else (-1.0, 1.0)

    def key(self) -> Hashable:
        return (self.heap, self.player, self.left)

    def action_to_string(self, action: int) -> str:
        return str(action + 1)


class TurnNim:
    info = GameInfo(name="turnnim", max_game_length=100, max_utility=1.0)

    def __init__(self, heap: int) -> None:
        self.heap = heap

    def initial_state(self) -> TurnNimState:
        return TurnNimState(self.heap)


@cache
def exact(heap: int, player: int, left: int) -> int:
    """+1 / -1: the value of a TurnNim position for the player to move (a plain recursion over
    the rules, not through any search of the library)."""
    best = -1
    for take in range(1, min(TAKE, heap) + 1):
        if take == heap:
            return 1
        if left > 1:
            value = exact(heap - take, player, left - 1)
        else:
            value = -exact(heap - take, 1 - player, PLIES[1 - player])
        best = max(best, value)
    return best


def nim_search_of(state: TurnNimState, simulations: int, seed: int, **options: Any) -> _Search:
    pos = np.array([state.heap, state.player, state.left, state.last], dtype=np.int32)
    kernel = _Kernel(nim_search, 0, pos, np.array(PLIES, dtype=np.int32), TAKE, state.player)
    mcts_options = MCTSOptions(**options)
    search = _Search(kernel, Limits(simulations=simulations), mcts_options, seed)
    search.run(simulations, None)
    return search


@pytest.mark.parametrize("solver", [False, True])
def test_every_node_has_its_mover_actions_and_exact_value(solver: bool) -> None:
    root = TurnNimState(9)
    search = nim_search_of(root, 3000, 3, solver=solver)
    tree = search.tree
    nodes = walk(search, root)
    assert len(nodes) == int(tree.counters[2])
    same_mover = 0
    for node, state in nodes:
        first = int(tree.first[node])
        if first >= 0:
            block = tree.action[first : first + int(tree.n_children[node])]
            assert sorted(block.tolist()) == list(state.legal_actions())
            for child in range(first, first + int(tree.n_expanded[node])):
                assert tree.mover[child] == state.current_player()
                same_mover += node > 0 and tree.mover[child] == tree.mover[node]
        assert bool(tree.is_proven[node]) == state.is_terminal() or solver
        if tree.is_proven[node]:
            mover = int(tree.mover[node])
            if state.is_terminal():
                assert tree.proven[node] == state.returns()[mover]
            else:  # proven by the solver: the exact value, for the player who moved into it
                value = exact(state.heap, state.player, state.left)
                assert tree.proven[node] == (value if mover == state.player else -value)
    assert same_mover > 20  # runs of plies by one player were searched


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("heap", range(1, 15))
def test_the_solver_proves_the_exact_value_with_consecutive_plies(heap: int, player: int):
    root = TurnNimState(heap, player, PLIES[player])
    search = nim_search_of(root, 20_000, heap, solver=True)
    tree = search.tree
    assert tree.is_proven[0], heap
    assert -tree.proven[0] == exact(heap, player, PLIES[player])  # for the player to move
    first = int(tree.first[0])
    proven = 0
    for child in range(first, first + int(tree.n_expanded[0])):
        if tree.is_proven[child]:
            after = root.apply(int(tree.action[child]))
            if after.is_terminal():
                want = 1
            else:
                want = exact(after.heap, after.player, after.left)
                want = want if after.player == player else -want
            assert tree.proven[child] == want
            proven += 1
    assert proven >= 1


def test_values_are_backed_up_for_each_nodes_mover() -> None:
    """At every node, the value sum (for its mover) is its own rollout's return plus its
    children's sums, each with the sign changed only where the mover changes (and the visits
    add up the same way)."""
    search = nim_search_of(TurnNimState(14), 4000, 1)
    tree = search.tree
    checked = same = 0
    for node, _ in walk(search, TurnNimState(14)):
        first, made = int(tree.first[node]), int(tree.n_expanded[node])
        if first < 0 or made == 0 or tree.is_proven[node]:
            continue
        total = 0.0
        for child in range(first, first + made):
            sign = 1.0 if tree.mover[child] == tree.mover[node] else -1.0
            total += sign * tree.value[child]
            same += sign > 0
        # a node's own first visit (its rollout, when it was made) is the one in no child;
        # the root has none
        own = tree.value[node] - total
        assert own in ((0.0,) if node == 0 else (-1.0, 1.0)), (node, own)
        assert int(tree.visits[node]) == (node > 0) + sum(
            int(tree.visits[child]) for child in range(first, first + made)
        )
        checked += 1
    assert checked > 100 and same > 100


def test_root_visit_shares_agree_with_the_reference_tier() -> None:
    """Heap 11, player 0 to move (two plies): only taking 2 now wins (the exact recursion
    says so). Both tiers put most visits on it, in the same proportions (mean shares over
    seeds within 4 standard errors), and a search with another ``c`` differs."""
    state = TurnNimState(11)
    assert exact(10, 0, 1) == -1 and exact(9, 0, 1) == 1  # take 1 loses, take 2 wins

    def shares(tier: str, seeds: range, c: float = 1.0) -> np.ndarray:
        rows = []
        for seed in seeds:
            if tier == "reference":
                result = mcts(TurnNim(11), state, limits=Limits(simulations=300), seed=seed,
                              tier="reference", c=c)  # fmt: skip
                visits = {child["action"]: child["visits"] for child in result.stats["children"]}
            else:
                tree = nim_search_of(state, 300, seed, c=c).tree
                first = int(tree.first[0])
                visits = {
                    int(tree.action[child]): int(tree.visits[child])
                    for child in range(first, first + int(tree.n_expanded[0]))
                }
            rows.append([visits.get(a, 0) / 300 for a in range(TAKE)])
        return np.array(rows)

    reference = shares("reference", range(40))
    compiled = shares("compiled", range(400))
    assert reference.mean(axis=0).argmax() == compiled.mean(axis=0).argmax() == 1

    def agree(a: np.ndarray, b: np.ndarray) -> bool:
        error = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
        return bool((np.abs(a.mean(axis=0) - b.mean(axis=0)) < 4 * error + 0.01).all())

    assert agree(compiled, reference)
    assert not agree(shares("compiled", range(400), c=6.0), reference)


# --- where players alternate: the sign-flipping loop, bit for bit -----------------------


def alternating_loop(
    game: Any, root: tuple[Any, Any], config: Any, seed: int, simulations: int, solver: bool
) -> dict[str, list[Any]]:
    """The textbook alternating-player UCT (negamax: a value changes sign at every ply), on
    ``game``'s compiled functions (called from Python), in the kernel's node order."""
    parent, first, count, made, action = [-1], [-1], [0], [0], [-1]
    visits, value, is_proven, proven = [0], [0.0], [False], [0.0]
    rng = np.uint64(seed_state(seed))
    out = np.zeros(64, dtype=np.int16)
    word = type(root[0])  # numba hands words back as Python ints: keep the game's dtype

    def play(a: Any, b: Any, act: int) -> tuple[Any, Any]:
        a, b = game.play(a, b, act)
        return word(a), word(b)

    for _ in range(simulations):
        if solver and is_proven[0]:
            break
        node, (a, b) = 0, root
        while not is_proven[node]:
            if first[node] < 0:
                n = game.actions(a, b, out, 0)
                block = out[:n].tolist()
                for i in range(n - 1, 0, -1):
                    rng, j = next_below(np.uint64(rng), i + 1)  # (numba hands back an int)
                    block[i], block[j] = block[j], block[i]
                first[node], count[node] = len(action), n
                for act in block:
                    for column, initial in ((parent, -1), (first, -1), (count, 0), (made, 0),
                                            (visits, 0), (value, 0.0), (is_proven, False),
                                            (proven, 0.0)):  # fmt: skip
                        column.append(initial)
                    action.append(act)
            if made[node] < count[node]:
                child = first[node] + made[node]
                made[node] += 1
                parent[child] = node
                a, b = play(a, b, action[child])
                over, result = game.status(a, b, config)
                is_proven[child], proven[child] = bool(over), -result
                node = child
                break
            explore = math.sqrt(2.0 * math.log(visits[node]))
            best, best_score = -1, -math.inf
            for child in range(first[node], first[node] + count[node]):
                mean = value[child] / visits[child]
                if solver and is_proven[child]:
                    if proven[child] > 0:
                        best = child
                        break
                    if proven[child] < 0:
                        continue
                    mean = 0.0
                score = mean + explore / math.sqrt(visits[child])
                if score > best_score:
                    best, best_score = child, score
            node = best
            a, b = play(a, b, action[node])
        if is_proven[node]:
            result = -proven[node]
        else:
            result, rng = game.rollout(a, b, np.uint64(rng), config)
        reward, below = -result, -1
        while node >= 0:
            visits[node] += 1
            value[node] += reward
            reward = -reward
            if solver and below >= 0 and is_proven[below] and not is_proven[node]:
                block = range(first[node], first[node] + made[node])
                done = all(is_proven[c] for c in block) and made[node] == count[node]
                wins = [proven[c] for c in block if is_proven[c] and proven[c] > 0]
                if wins:
                    is_proven[node], proven[node] = True, -wins[0]
                elif done:
                    is_proven[node], proven[node] = True, -max(proven[c] for c in block)
            below, node = node, parent[node]
    return {"visits": visits, "value": value, "is_proven": is_proven, "proven": proven,
            "action": action, "parent": parent}  # fmt: skip


PASS_AHEAD = "--XXXXOXX-OOX-OXXOOOXXOXXOXXOXOXXOOOXOOXXOXOOXOXXOOOOOXXXOOXXXXX"
"""Black to move, 4 empties; a forced pass follows on some lines."""


@pytest.mark.parametrize(
    ("game", "module", "state"),
    [
        (Connect4(), K4, parse_moves("4453")),
        (Connect4(), K4, parse_moves("2252576253462244111563")),
        (Othello(), KO, Othello().initial_state()),
        (Othello(), KO, Othello().state_from_board(PASS_AHEAD, "X")),
    ],
    ids=["c4-4453", "c4-22-plies", "othello-start", "othello-pass"],
)
@pytest.mark.parametrize("solver", [False, True])
def test_alternating_games_build_the_sign_flipping_loops_tree(game, module, state, solver):
    options = MCTSOptions(solver=solver)
    kernel = _kernel_for(game, state, options)
    simulations = 300
    search = _Search(kernel, Limits(simulations=simulations), options, 11)
    search.run(simulations, None)
    tree = search.tree
    config = kernel.config
    expected = alternating_loop(module, (kernel.a, kernel.b), config, 11, simulations, solver)
    slots = len(expected["visits"])
    assert int(tree.counters[1]) == slots
    for name, column in expected.items():
        got = getattr(tree, name)[:slots].tolist()
        if name in ("visits", "value", "is_proven", "proven", "parent"):
            # slots reserved but not made hold no statistics yet: compare the made ones
            made = [i for i in range(slots) if i == 0 or expected["parent"][i] >= 0]
            got = [got[i] for i in made]
            column = [column[i] for i in made]
        assert [type(column[0])(x) for x in got] == column, name
