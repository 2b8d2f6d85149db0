"""Go's move generator against a plain one written here straight from the rules, on seeded
random games under each ko rule: every point's legality, the board after each move, the
captures, the ko point, the Zobrist history and the eye-avoiding playout moves.

The plain rules: a stone goes on an empty point; opponent chains left without a liberty are
removed; then the mover's chain must have a liberty. Ko, by repetition: under positional
superko the resulting board must not have been seen before; under situational superko the
board *with the player to move* must not have; under simple ko the move must not recreate
the board of two plies ago (when the last ply was a move)."""

from __future__ import annotations

import random

import pytest

from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.zobrist import SIDE_TO_MOVE_KEY, board_hash


def neighbours(p: int, size: int) -> list[int]:
    row, col = divmod(p, size)
    out = []
    if row > 0:
        out.append(p - size)
    if row < size - 1:
        out.append(p + size)
    if col > 0:
        out.append(p - 1)
    if col < size - 1:
        out.append(p + 1)
    return out


def chain_and_liberties(board: bytearray, p: int, size: int) -> tuple[set[int], set[int]]:
    colour = board[p]
    chain, liberties, frontier = {p}, set(), [p]
    while frontier:
        q = frontier.pop()
        for r in neighbours(q, size):
            if board[r] == 0:
                liberties.add(r)
            elif board[r] == colour and r not in chain:
                chain.add(r)
                frontier.append(r)
    return chain, liberties


def plain_move(board: bytes, p: int, colour: int, size: int) -> tuple[bytes, int] | None:
    """The board after ``colour`` plays ``p`` and the stones taken; None if occupied or
    suicide."""
    if board[p]:
        return None
    after = bytearray(board)
    after[p] = colour
    taken = 0
    for q in neighbours(p, size):
        if after[q] == 3 - colour:
            chain, liberties = chain_and_liberties(after, q, size)
            if not liberties:
                for s in chain:
                    after[s] = 0
                taken += len(chain)
    if not chain_and_liberties(after, p, size)[1]:
        return None
    return bytes(after), taken


def plain_eye(board: bytes, p: int, colour: int, size: int) -> bool:
    if board[p] or any(board[q] != colour for q in neighbours(p, size)):
        return False
    row, col = divmod(p, size)
    diagonals = [
        (r, c)
        for r, c in ((row - 1, col - 1), (row - 1, col + 1), (row + 1, col - 1), (row + 1, col + 1))
        if 0 <= r < size and 0 <= c < size
    ]
    enemies = sum(board[r * size + c] == 3 - colour for r, c in diagonals)
    return enemies == 0 if len(diagonals) < 4 else enemies <= 1


def check_game(game: Go, rng: random.Random) -> dict[str, int]:
    """Play one random game, checking every state against the plain rules; count the
    repetitions the ko rule forbade."""
    size, rule = game.size, game.superko
    state: GoState = game.initial_state()
    boards = {state.board}
    situations = {(state.board, state.to_move)}
    two_plies_ago: bytes | None = None  # the board before the last ply, if it was a move
    hashes = {board_hash(state.board)}
    captures = [0, 0]
    forbidden = 0
    while not state.is_terminal():
        colour = state.to_move + 1
        plain_legal = []
        for p in range(size * size):
            result = plain_move(state.board, p, colour, size)
            if result is None:
                continue
            after = result[0]
            if rule == "positional" and after in boards:
                forbidden += 1
                continue
            if rule == "situational" and (after, 1 - state.to_move) in situations:
                forbidden += 1
                continue
            if rule == "simple" and after == two_plies_ago:
                forbidden += 1
                continue
            plain_legal.append(p)
        assert state.legal_actions() == [*plain_legal, game.pass_action], str(state)
        plain_playout = [p for p in plain_legal if not plain_eye(state.board, p, colour, size)]
        assert state.playout_actions() == (plain_playout or [game.pass_action]), str(state)
        # the ko point is a point the plain rules forbid, and only by repetition
        if state.ko_point >= 0:
            assert state.ko_point not in plain_legal
            assert plain_move(state.board, state.ko_point, colour, size) is not None
        # mostly playout moves (long games, many captures), sometimes any legal move
        choices = state.playout_actions()
        if rng.random() < 0.2:  # any legal point, eyes included (the pass when none)
            choices = state.legal_actions()[:-1] or choices
        action = rng.choice(choices)
        child = state.apply(action)
        if action == game.pass_action:
            assert child.board == state.board and child.passes == state.passes + 1
            two_plies_ago = None
        else:
            result = plain_move(state.board, action, colour, size)
            assert result is not None
            assert child.board == result[0]
            captures[state.to_move] += result[1]
            two_plies_ago = state.board
        assert child.captures == tuple(captures)
        assert child.moves == (*state.moves, action) and child.last_move == action
        boards.add(child.board)
        situations.add((child.board, child.to_move))
        key = board_hash(child.board)
        hashes.add(key ^ SIDE_TO_MOVE_KEY if rule == "situational" and child.to_move else key)
        assert child.board_hash == key
        assert child.history == hashes
        state = child
    return {"forbidden": forbidden, "plies": len(state.moves)}


@pytest.mark.parametrize("superko", ["positional", "situational", "simple"])
def test_random_games_follow_the_plain_rules(superko: str) -> None:
    rng = random.Random(f"go-{superko}")
    totals = {"forbidden": 0, "plies": 0}
    for size, games in ((5, 60), (6, 6), (7, 3)):
        game = Go(size, komi=0.5, superko=superko, max_moves=4 * size * size)  # type: ignore[arg-type]
        for _ in range(games):
            for name, value in check_game(game, rng).items():
                totals[name] += value
    # the games were long enough to meet ko and superko repetitions
    assert totals["plies"] > 1000, totals
    assert totals["forbidden"] > 0, totals


def test_the_plain_rules_catch_a_wrong_generator() -> None:
    """The comparison fails on a generator that allows suicide (the check can fail)."""
    game = Go(5)
    state = game.position(black=["B1", "A2"], white=["D1"], to_move="white")
    colour = state.to_move + 1
    assert plain_move(state.board, 0, colour, 5) is None  # A1: suicide
    assert 0 not in state.legal_actions()
