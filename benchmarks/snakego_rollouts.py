"""Snake Go rollouts side by side: searchlab's compiled tier, its reference tier, and a
textbook Python rollout.

All rollouts play one whole half of the full game (16 x 16, 512 rounds, 4 snakes, items from
the rules' generator with ``--seed``) from the initial position to the end:

* **compiled random**: :func:`searchlab.domains.games.snakego.arrays.rollout` (numba; the
  position is one ``int32`` array copied before each rollout), run in batches from a small
  ``@njit`` driver so that Python's call overhead is not measured;
* **compiled informed**: :func:`~searchlab.domains.games.snakego.arrays.informed_rollout`,
  the notes' policy (never a deadly move when a safe one exists, eat, avoid a shorter
  opponent's head), in the same driver;
* **reference random**: :func:`searchlab.algorithms.mcts.rollout.playout` with
  ``random_policy`` on :class:`~searchlab.domains.games.snakego.SnakeGoState` (immutable states);
* **reference informed**: ``playout`` with
  :func:`searchlab.domains.games.snakego.policy.informed_action`;
* **textbook random**: what a student writes first, defined in this file: the state is a
  dict of plain lists (snakes as lists of ``[x, y]`` cells, walls as a list of rows), every
  ply makes a ``copy.deepcopy`` of the state and changes the copy, items are found by
  scanning the whole item list, ``random.choice`` picks the action. Before timing, it is
  checked against the reference tier on ``--check`` seeded random games (same actions, same
  legal actions and final scores at every ply), so all three random rollouts play the same
  game with the same distribution.

A random rollout of Snake Go is short (random snakes soon move off the board or into each
other, and the half ends when neither player has a snake); an informed one usually lasts the
512 rounds. So the table gives rollouts per second and plies per second; the ratios compare
the random rollouts (same game, same policy). Each measurement runs for about ``--seconds``
(wall clock, one core); the whole run stays under two minutes with the default.

Usage: python benchmarks/snakego_rollouts.py [--seconds S] [--seed N] [--check G]
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from searchlab.algorithms.mcts.rollout import playout, random_policy
from searchlab.core.compiled_rng import next_below, seed_state
from searchlab.domains.games.snakego import SnakeGo, SnakeGoState
from searchlab.domains.games.snakego import arrays as A
from searchlab.domains.games.snakego.layout import H_PLY
from searchlab.domains.games.snakego.policy import informed_action

UP, DOWN, LEFT, RIGHT, SPLIT, RAY = 0, 1, 2, 3, 4, 5
DELTAS = [(0, 1), (0, -1), (-1, 0), (1, 0)]


# -- the textbook rollout ---------------------------------------------------------------------
def tb_initial(game: SnakeGo) -> dict[str, Any]:
    size = game.size
    state = {
        "round": 1,
        "player": 0,
        "snakes": [
            [{"id": 0, "cells": [[0, size - 1]], "bank": 0, "ray": False, "initial": True}],
            [{"id": 0, "cells": [[size - 1, 0]], "bank": 0, "ray": False, "initial": True}],
        ],
        "pending": [0],
        "walls": [[-1] * size for _ in range(size)],
        "eaten": set(),
        "ply": 0,
    }
    tb_start_round(game, state)
    return state


def tb_present(game: SnakeGo, state: dict[str, Any], index: int) -> bool:
    time_ = game.items[index][2]
    return time_ <= state["round"] <= time_ + 15 and index not in state["eaten"]


def tb_eat(game: SnakeGo, state: dict[str, Any], snake: dict[str, Any], index: int) -> None:
    item = game.items[index]
    if item[3] == 0:
        snake["bank"] += item[4]
    else:
        snake["ray"] = True
    state["eaten"].add(index)


def tb_start_round(game: SnakeGo, state: dict[str, Any]) -> None:
    for index, item in enumerate(game.items):
        if tb_present(game, state, index):
            for player in (0, 1):
                for snake in state["snakes"][player]:
                    if [item[0], item[1]] in snake["cells"]:
                        tb_eat(game, state, snake, index)


def tb_acting(state: dict[str, Any]) -> dict[str, Any]:
    for snake in state["snakes"][state["player"]]:
        if snake["id"] == state["pending"][0]:
            return snake
    raise AssertionError("no acting snake")


def tb_legal(game: SnakeGo, state: dict[str, Any]) -> list[int]:
    if not state["pending"]:
        return []
    snake = tb_acting(state)
    cells = snake["cells"]
    growth = 1 if snake["initial"] and state["round"] <= game.growth_rounds else 0
    actions = []
    for action in range(4):
        dx, dy = DELTAS[action]
        back = len(cells) >= 2 and [cells[0][0] + dx, cells[0][1] + dy] == cells[1]
        if back and (len(cells) >= 3 or snake["bank"] + growth > 0):
            continue
        actions.append(action)
    if len(cells) >= 2 and len(state["snakes"][state["player"]]) < game.max_snakes:
        actions.append(SPLIT)
    if len(cells) >= 2 and snake["ray"]:
        actions.append(RAY)
    return actions


def tb_enclosed(loop: list[list[int]], size: int) -> list[list[int]]:
    outside = [[False] * size for _ in range(size)]
    todo = []
    for x in range(size):
        for y in range(size):
            if (x in (0, size - 1) or y in (0, size - 1)) and [x, y] not in loop:
                outside[y][x] = True
                todo.append([x, y])
    while todo:
        x, y = todo.pop()
        for dx, dy in DELTAS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < size and 0 <= ny < size and not outside[ny][nx] and [nx, ny] not in loop:
                outside[ny][nx] = True
                todo.append([nx, ny])
    return [[x, y] for y in range(size) for x in range(size) if not outside[y][x]]


def tb_apply(game: SnakeGo, state: dict[str, Any], action: int) -> dict[str, Any]:
    state = copy.deepcopy(state)
    size = game.size
    me = state["player"]
    mine = state["snakes"][me]
    snake = tb_acting(state)
    cells = snake["cells"]
    if action == SPLIT:
        half = (len(cells) + 1) // 2
        used = [s["id"] for s in mine]
        new_id = min(i for i in range(game.max_snakes) if i not in used)
        tail = {"id": new_id, "cells": cells[half:][::-1], "bank": snake["bank"], "ray": False}
        tail["initial"] = False
        snake["cells"] = cells[:half]
        snake["bank"] = 0
        mine.insert(mine.index(snake) + 1, tail)
    elif action == RAY:
        dx, dy = cells[0][0] - cells[1][0], cells[0][1] - cells[1][1]
        x, y = cells[0][0] + dx, cells[0][1] + dy
        while 0 <= x < size and 0 <= y < size:
            state["walls"][y][x] = -1
            x, y = x + dx, y + dy
        snake["ray"] = False
    else:
        dx, dy = DELTAS[action]
        target = [cells[0][0] + dx, cells[0][1] + dy]
        if snake["initial"] and state["round"] <= game.growth_rounds:
            snake["bank"] += 1
        body = cells if snake["bank"] > 0 else cells[:-1]
        others = [
            c for p in (0, 1) for s in state["snakes"][p] if s is not snake for c in s["cells"]
        ]
        x, y = target
        if not (0 <= x < size and 0 <= y < size) or state["walls"][y][x] != -1 or target in others:
            mine.remove(snake)
        elif target in body:
            mine.remove(snake)
            if len(cells) >= 5:
                region = tb_enclosed(cells[: cells.index(target) + 1], size)
                for rx, ry in region:
                    state["walls"][ry][rx] = me
                for p in (0, 1):
                    for other in list(state["snakes"][p]):
                        if any(c in region for c in other["cells"]):
                            state["snakes"][p].remove(other)
        else:
            cells.insert(0, target)
            if snake["bank"] > 0:
                snake["bank"] -= 1
            else:
                cells.pop()
            for index, item in enumerate(game.items):
                if [item[0], item[1]] == target and tb_present(game, state, index):
                    tb_eat(game, state, snake, index)
    alive = [s["id"] for s in mine]
    state["pending"] = [i for i in state["pending"][1:] if i in alive]
    state["ply"] += 1
    if state["pending"]:
        return state
    if not state["snakes"][0] and not state["snakes"][1]:
        state["player"] = 1 - state["player"]
        return state
    while True:
        if state["player"] == 0:
            state["player"] = 1
        else:
            state["player"] = 0
            state["round"] += 1
            if state["round"] > game.rounds:
                return state
            tb_start_round(game, state)
        if state["snakes"][state["player"]]:
            state["pending"] = [s["id"] for s in state["snakes"][state["player"]]]
            return state


def tb_scores(state: dict[str, Any]) -> tuple[int, int]:
    walls = [owner for row in state["walls"] for owner in row]
    return tuple(  # type: ignore[return-value]
        sum(len(s["cells"]) for s in state["snakes"][p]) + walls.count(p) for p in (0, 1)
    )


def tb_rollout(game: SnakeGo, state: dict[str, Any], rng: random.Random) -> tuple[float, int]:
    """A textbook random rollout: ``(value for player 0, plies)``."""
    actions = tb_legal(game, state)
    while actions:
        state = tb_apply(game, state, rng.choice(actions))
        actions = tb_legal(game, state)
    first, second = tb_scores(state)
    return (1.0 if first > second else -1.0), state["ply"]


def check_textbook(games: int) -> None:
    """The textbook rules agree with the reference tier on seeded random games (same legal
    actions and scores after every ply)."""
    for seed in range(games):
        r = random.Random(seed)
        game = SnakeGo(seed=seed, size=r.choice([6, 8, 16]), rounds=r.choice([10, 60]))
        state, textbook = game.initial_state(), tb_initial(game)
        while True:
            assert tuple(tb_legal(game, textbook)) == state.legal_actions(), seed
            assert tb_scores(textbook) == state.scores(), seed
            if state.is_terminal():
                break
            safe = [a for a in state.legal_actions() if a >= 4 or a in _safe_moves(state)]
            action = (
                r.choice(safe) if safe and r.random() < 0.9 else r.choice(state.legal_actions())
            )
            state, textbook = state.apply(action), tb_apply(game, textbook, action)


def _safe_moves(state: SnakeGoState) -> list[int]:
    from searchlab.domains.games.snakego.policy import safe_actions

    return safe_actions(state)


# -- the compiled driver ----------------------------------------------------------------------
@njit
def compiled_batch(root, items, scratch, rng, scoring, count, informed):  # pragma: no cover
    """``count`` rollouts from ``root``: ``(sum of values, sum of plies, rng)``."""
    total = 0.0
    plies = 0
    start = root[H_PLY]
    for _ in range(count):
        scratch[:] = root
        if informed:
            value, rng = A.informed_rollout(scratch, items, rng, scoring, next_below)
        else:
            value, rng = A.rollout(scratch, items, rng, scoring, next_below)
        total += value
        plies += scratch[H_PLY] - start
    return total, plies, rng


def time_compiled(state: SnakeGoState, seconds: float, informed: bool) -> tuple[int, int, float]:
    root, items = A.encode(state)
    scratch = root.copy()
    rng = np.uint64(seed_state(1))
    scoring = A.scoring_code(state.game.scoring)
    compiled_batch(root, items, scratch, rng, scoring, 1, informed)  # compile, not timed
    rollouts = plies = 0
    batch = 16
    began = time.perf_counter()
    while True:
        _, n_plies, rng = compiled_batch(root, items, scratch, rng, scoring, batch, informed)
        rng = np.uint64(rng)
        rollouts += batch
        plies += n_plies
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return rollouts, plies, elapsed
        batch = min(batch * 2, 1 << 16)


def time_python(rollout: Callable[[random.Random], int], seconds: float) -> tuple[int, int, float]:
    rng = random.Random(1)
    rollouts = plies = 0
    began = time.perf_counter()
    while True:
        plies += rollout(rng)
        rollouts += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return rollouts, plies, elapsed


def reference_plies(
    state: SnakeGoState, policy: Callable[..., int]
) -> Callable[[random.Random], int]:
    """A rollout through ``playout`` with ``policy``, returning its number of plies:
    ``playout`` returns only the returns, so a wrapper keeps the last state the policy saw
    (the rollout's length is its ply plus one)."""
    seen = [state]

    def counting(s: SnakeGoState, rng: random.Random) -> int:
        seen[0] = s
        return policy(s, rng)

    def run(rng: random.Random) -> int:
        seen[0] = state
        playout(state, counting, rng)
        return seen[0].ply + 1 - state.ply

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=0, help="item generator seed")
    parser.add_argument("--check", type=int, default=20, help="textbook check games (0: none)")
    args = parser.parse_args()

    game = SnakeGo(seed=args.seed)
    state = game.initial_state()
    print(f"Snake Go rollouts: {game!r}, {len(game.items)} items")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    if args.check:
        began = time.perf_counter()
        check_textbook(args.check)
        print(f"textbook rules = reference rules on {args.check} games "
              f"({time.perf_counter() - began:.1f} s)")  # fmt: skip

    rows: dict[str, tuple[int, int, float]] = {}
    rows["compiled random"] = time_compiled(state, args.seconds, informed=False)
    rows["compiled informed"] = time_compiled(state, args.seconds, informed=True)

    def reference_random(rng: random.Random) -> int:
        playout(state, random_policy, rng)
        return 0

    rows["reference random"] = time_python(reference_random, args.seconds)
    # the ply count of the inlined random playout: the same distribution, counted apart
    counted = time_python(reference_plies(state, random_policy), min(args.seconds, 2.0))
    rollouts, _, elapsed = rows["reference random"]
    rows["reference random"] = (rollouts, round(rollouts * counted[1] / counted[0]), elapsed)
    rows["reference informed"] = time_python(reference_plies(state, informed_action), args.seconds)
    textbook_root = tb_initial(game)
    rows["textbook random"] = time_python(
        lambda rng: tb_rollout(game, textbook_root, rng)[1], args.seconds
    )

    header = f"{'rollouts/s':>12} {'plies/rollout':>14} {'plies/s':>12}"
    print(f"\n{'rollouts of a whole half':<22} {header}")
    for name, (rollouts, plies, elapsed) in rows.items():
        print(
            f"{name:<22} {rollouts / elapsed:>12,.0f} {plies / rollouts:>14.1f} "
            f"{plies / elapsed:>12,.0f}"
        )
    rate = {name: rollouts / elapsed for name, (rollouts, _, elapsed) in rows.items()}
    print("\nratios (random rollouts per second):")
    print(f"  compiled / reference: {rate['compiled random'] / rate['reference random']:,.0f}x")
    print(f"  compiled / textbook:  {rate['compiled random'] / rate['textbook random']:,.0f}x")
    print(f"  reference / textbook: {rate['reference random'] / rate['textbook random']:,.1f}x")
    informed = rows["compiled informed"][1] / rows["compiled informed"][2]
    reference = rows["reference informed"][1] / rows["reference informed"][2]
    print(f"  informed plies/s, compiled / reference: {informed / reference:,.0f}x")


if __name__ == "__main__":
    main()
