"""Go's one chain-finding routine (``go.chains``, ``go.chain_at``: the rules, the play-out
settlement and the playout policy share it) and the settlement's empty-region owners, checked
against definitions written here from coordinates: a chain is a maximal set of same-coloured
stones connected along the lines, its liberties the empty points next to it; Tromp-Taylor area
counts a colour's stones and the empty regions only it reaches."""

from __future__ import annotations

import random

import pytest

from searchlab.domains.games.go import area, chain_at, chains
from searchlab.domains.games.go.score import owners


def _adjacent(p: int, size: int) -> list[int]:
    row, col = divmod(p, size)
    steps = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return [r * size + c for r, c in steps if 0 <= r < size and 0 <= c < size]


def _boards(size: int, count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [bytes(rng.choice((0, 0, 1, 2)) for _ in range(size * size)) for _ in range(count)]


@pytest.mark.parametrize("size", [5, 9])
def test_chains_are_the_connected_same_coloured_stones(size: int) -> None:
    for board in _boards(size, 40, seed=size):
        found = chains(board, size)
        stones_seen = sorted(p for _, stones, _ in found for p in stones)
        assert stones_seen == [p for p in range(size * size) if board[p]]  # a partition
        for colour, stones, liberties in found:
            members = set(stones)
            assert {board[p] for p in members} == {colour}
            # maximal: no same-coloured neighbour outside; connected: one flood from any stone
            assert all(
                board[q] != colour or q in members for p in members for q in _adjacent(p, size)
            )
            reached, todo = {stones[0]}, [stones[0]]
            while todo:
                for q in _adjacent(todo.pop(), size):
                    if q in members and q not in reached:
                        reached.add(q)
                        todo.append(q)
            assert reached == members
            assert liberties == {q for p in members for q in _adjacent(p, size) if not board[q]}
            for p in members:  # the chain of any of its stones is this chain
                at_stones, at_liberties = chain_at(board, size, p)
                assert at_stones[0] == p and set(at_stones) == members
                assert at_liberties == liberties


@pytest.mark.parametrize("size", [5, 9])
def test_owners_add_up_to_the_area_count(size: int) -> None:
    for board in _boards(size, 40, seed=100 + size):
        owner = owners(board, size)
        assert all(owner[p] == board[p] for p in range(size * size) if board[p])
        assert (owner.count(1), owner.count(2)) == area(board, size)
