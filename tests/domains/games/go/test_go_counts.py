"""John Tromp's counts of legal Go positions, reached through the move generator.

A legal position is a board on which every chain has a liberty; OEIS A094777 gives their
number on the n x n board: 1, 57, 12675, 24318165, ... (Tromp and Farnebäck, "Combinatorics
of Go", 2006). Here they are *reached*: breadth-first from the empty board through
``legal_actions()`` and ``apply()`` (moves and passes, both players, the basic ko in force),
counting the distinct boards met. A move generator that forgets a capture, allows suicide or
loses a legal move cannot meet exactly these numbers.
"""

from __future__ import annotations

from collections import deque

import pytest

from searchlab.domains.games.go import tiny_go

A094777 = {1: 1, 2: 57, 3: 12675}
"""Legal positions on the n x n board (OEIS A094777)."""


def boards_reached(size: int) -> set[bytes]:
    game = tiny_go(size, superko="simple", max_moves=10**6)
    start = game.initial_state()
    seen = {start.key()}
    boards = {start.board}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for action in state.legal_actions():
            child = state.apply(action)
            key = child.key()
            if key in seen:
                continue
            seen.add(key)
            boards.add(child.board)
            if not child.is_terminal():
                queue.append(child)
    return boards


@pytest.mark.parametrize("size", [1, 2, 3])
def test_legal_positions_reached_match_oeis_a094777(size: int) -> None:
    boards = boards_reached(size)
    assert len(boards) == A094777[size]


def test_every_board_reached_is_legal() -> None:
    # a 2x2 board is legal when each chain touches an empty point; checked by hand here
    neighbours = {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
    for board in boards_reached(2):
        for p, colour in enumerate(board):
            if not colour:
                continue
            chain, frontier = {p}, [p]
            while frontier:
                q = frontier.pop()
                for r in neighbours[q]:
                    if board[r] == colour and r not in chain:
                        chain.add(r)
                        frontier.append(r)
            assert any(board[r] == 0 for q in chain for r in neighbours[q]), board
