"""Snake Go's rules, one small hand-built position per clause of the rules page and per decision
of docs/games/snakego.md. Every expected value is worked out by hand from the rules (the
comments say how), never copied from the code's output.

Boards are 7 x 7 unless said otherwise; ``Snake(id, cells head first, bank, ray, initial)``.
"""

from __future__ import annotations

import pytest
from snakego_support import small_game as game

from searchlab.core.errors import IllegalMoveError
from searchlab.core.game import play
from searchlab.domains.games.snakego import (
    DOWN,
    LEFT,
    RAY,
    RIGHT,
    SPLIT,
    UP,
    Snake,
    SnakeGo,
    SnakeGoState,
)

FAR = Snake(0, ((6, 0),))
"""A lone player-1 snake in the bottom-right corner, out of the way (it moves up)."""


def walls_of(state: SnakeGoState, owner: int) -> set[tuple[int, int]]:
    size = state.game.size
    return {(i % size, i // size) for i, o in enumerate(state.walls) if o == owner}


def only(state: SnakeGoState, player: int) -> Snake:
    (snake,) = state.snakes[player]
    return snake


# -- start, turns, legal actions ------------------------------------------------------------
def test_start_position() -> None:
    state = SnakeGo(items=()).initial_state()
    assert state.snakes == (
        (Snake(0, ((0, 15),), 0, False, True),),
        (Snake(0, ((15, 0),), 0, False, True),),
    )
    assert (state.round, state.player, state.pending, state.ply) == (1, 0, (0,), 0)
    assert set(state.walls) == {-1} and len(state.walls) == 256
    assert state.scores() == (1, 1)
    assert state.first_eat == (None, None)


def test_deadly_moves_are_legal_and_actions_increase() -> None:
    state = SnakeGo(items=()).initial_state()
    assert state.legal_actions() == (UP, DOWN, LEFT, RIGHT)  # up and left leave the board
    state = game().state_from(
        snakes=([Snake(0, ((3, 3), (2, 3), (1, 3)), ray=True), Snake(1, ((6, 6),))], [FAR])
    )
    assert state.legal_actions() == (UP, DOWN, RIGHT, SPLIT, RAY)  # not left: its neck


def test_a_move_goes_one_cell_and_the_turn_passes() -> None:
    state = game().state_from(snakes=([[(3, 3)]], [FAR]))
    for action, cell in ((UP, (3, 4)), (DOWN, (3, 2)), (LEFT, (2, 3)), (RIGHT, (4, 3))):
        after = state.apply(action)
        assert only(after, 0).cells == (cell,)
        assert (after.player, after.round, after.pending, after.ply) == (1, 1, (0,), 1)
    after = play(state, "up up")  # player 1's snake at (6, 0) moved up too
    assert only(after, 1).cells == ((6, 1),)
    assert (after.player, after.round) == (0, 2)


def test_each_snake_acts_once_in_order_in_consecutive_plies() -> None:
    state = game().state_from(snakes=([[(1, 1)], [(5, 5)]], [FAR]))
    assert state.pending == (0, 1) and state.acting_snake().cells == ((1, 1),)
    state = state.apply(UP)
    assert (state.player, state.pending) == (0, (1,))  # the same player again
    assert state.acting_snake().cells == ((5, 5),)
    state = state.apply(UP)
    assert (state.player, state.pending, state.round) == (1, (0,), 1)
    state = state.apply(UP)
    assert (state.player, state.pending, state.round) == (0, (0, 1), 2)


def test_backward_move_rule() -> None:
    g = game(growth_rounds=8)
    # length 3 heading right: left (into the neck) is not legal
    state = g.state_from(snakes=([[(3, 3), (2, 3), (1, 3)]], [FAR]), round=9)
    assert LEFT not in state.legal_actions()
    # length 2, empty bank: all four
    state = g.state_from(snakes=([[(3, 3), (2, 3)]], [FAR]), round=9)
    assert state.legal_actions() == (UP, DOWN, LEFT, RIGHT, SPLIT)
    # ... and moving back swaps head and tail (the tail cell is vacated first)
    assert only(state.apply(LEFT), 0).cells == ((2, 3), (3, 3))
    # length 2 with a bank: not back
    state = g.state_from(snakes=([Snake(0, ((3, 3), (2, 3)), bank=1)], [FAR]), round=9)
    assert LEFT not in state.legal_actions()
    # length 2, empty bank, but the growth bonus of rounds 1..8 fills it (decision 6)
    snake = Snake(0, ((3, 3), (2, 3)), initial=True)
    assert LEFT not in g.state_from(snakes=([snake], [FAR]), round=8).legal_actions()
    assert LEFT in g.state_from(snakes=([snake], [FAR]), round=9).legal_actions()
    # length 1 with a bank: all four
    state = g.state_from(snakes=([Snake(0, ((3, 3),), bank=2)], [FAR]), round=9)
    assert state.legal_actions() == (UP, DOWN, LEFT, RIGHT)


# -- death ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cell", "action"), [((0, 3), LEFT), ((3, 6), UP), ((6, 3), RIGHT)])
def test_death_by_the_edge(cell: tuple[int, int], action: int) -> None:
    state = game().state_from(snakes=([[cell]], [[(3, 0)]])).apply(action)
    assert state.snakes[0] == ()
    assert state.scores() == (0, 1)
    assert (state.player, state.round) == (1, 1)


@pytest.mark.parametrize("owner", [0, 1])
def test_death_by_a_wall_of_either_player(owner: int) -> None:
    state = game().state_from(snakes=([[(3, 3)]], [FAR]), walls={(4, 3): owner})
    after = state.apply(RIGHT)
    assert after.snakes[0] == ()
    assert walls_of(after, owner) == {(4, 3)}  # the wall stays


def test_death_by_an_opponent_snake_head_body_or_tail() -> None:
    opponent = Snake(0, ((4, 4), (4, 3), (4, 2)))
    for start, action in (((3, 4), RIGHT), ((3, 3), RIGHT), ((3, 2), RIGHT)):
        after = game().state_from(snakes=([[start]], [opponent])).apply(action)
        assert after.snakes[0] == ()
        assert after.snakes[1] == (opponent,)  # the tail did not move out of the way


def test_death_by_another_snake_of_its_own_player() -> None:
    state = game().state_from(snakes=([[(3, 3)], [(4, 3), (5, 3)]], [FAR]))
    after = state.apply(RIGHT)
    assert [s.id for s in after.snakes[0]] == [1]
    assert (after.player, after.pending) == (0, (1,))  # the other snake acts next


def test_own_body_kills_a_snake_of_length_4_or_less() -> None:
    # head (1,1), neck (2,1), then (2,2), tail (1,2); up goes onto the tail
    cells = ((1, 1), (2, 1), (2, 2), (1, 2))
    with_bank = game().state_from(snakes=([Snake(0, cells, bank=1)], [FAR]))
    died = with_bank.apply(UP)  # the tail stays: own body, length 4: dies, no walls
    assert died.snakes[0] == () and walls_of(died, 0) == set()
    without = game().state_from(snakes=([Snake(0, cells)], [FAR]))
    moved = only(without.apply(UP), 0)  # the tail leaves first: a plain move
    assert moved.cells == ((1, 2), (1, 1), (2, 1), (2, 2))


# -- solidification ---------------------------------------------------------------------------
RING = (
    (1, 2), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (5, 2),
    (5, 1), (4, 1), (3, 1), (2, 1), (1, 1), (0, 1), (0, 2),
)  # fmt: skip
"""A snake of 14 cells whose head (1, 2) moving down hits its own cell (1, 1) at index 11: the
loop is the 12 cells around the rectangle x 1..5, y 1..3, the interior (2,2) (3,2) (4,2)."""
LOOP = set(RING[:12])
INTERIOR = {(2, 2), (3, 2), (4, 2)}


def test_solidification_walls_the_region_and_kills_every_snake_inside() -> None:
    state = game().state_from(
        snakes=(
            [Snake(0, RING), Snake(1, ((4, 2),)), Snake(2, ((6, 6),))],
            [Snake(0, ((2, 2), (3, 2))), Snake(1, ((6, 0),))],
        )
    )
    after = state.apply(DOWN)
    assert walls_of(after, 0) == LOOP | INTERIOR  # 15 cells
    assert walls_of(after, 1) == set()
    # the mover is gone, (0,1) and (0,2) are empty; B (inside) died; C (outside) lives
    assert [s.id for s in after.snakes[0]] == [2]
    assert [s.id for s in after.snakes[1]] == [1]  # a (inside) died, b lives
    assert (after.player, after.pending) == (0, (2,))  # B was pending: skipped
    assert after.scores() == (15 + 1, 1)


def test_solidification_takes_over_walls_and_keeps_items_inside() -> None:
    g = game(items="2 2 1 0 3")
    state = g.state_from(snakes=([Snake(0, RING)], [FAR]), walls={(3, 2): 0, (4, 2): 1, (6, 6): 1})
    after = state.apply(DOWN)
    assert walls_of(after, 0) == LOOP | INTERIOR
    assert walls_of(after, 1) == {(6, 6)}  # outside the region: still player 1's
    assert after.snakes[0] == ()
    assert after.eaten == frozenset() and after.item_at((2, 2)) == 0  # sits in the wall
    assert after.scores() == (15, 2)


def test_smallest_loop_a_length_5_snake_walls_four_cells() -> None:
    cells = ((1, 1), (2, 1), (2, 2), (1, 2), (0, 2))  # up hits (1,2), index 3
    after = game().state_from(snakes=([cells], [FAR])).apply(UP)
    assert walls_of(after, 0) == {(1, 1), (2, 1), (2, 2), (1, 2)}
    assert after.snakes[0] == ()  # (0, 2) is gone with it


def test_tail_rule_with_a_bank_the_tail_stays_so_the_loop_closes() -> None:
    # head (1,1) going right onto the tail (2,1) of a 2x3 ring of 6 cells
    cells = ((1, 1), (1, 2), (2, 2), (3, 2), (3, 1), (2, 1))
    after = game().state_from(snakes=([Snake(0, cells, bank=1)], [FAR])).apply(RIGHT)
    assert walls_of(after, 0) == set(cells) and after.snakes[0] == ()
    # with an empty bank the tail leaves first: a plain move
    moved = only(game().state_from(snakes=([cells], [FAR])).apply(RIGHT), 0)
    assert moved.cells == ((2, 1), (1, 1), (1, 2), (2, 2), (3, 2), (3, 1))
    # the growth bonus counts as a bank (applied before the check)
    growing = Snake(0, cells, initial=True)
    after = game(growth_rounds=8).state_from(snakes=([growing], [FAR])).apply(RIGHT)
    assert walls_of(after, 0) == set(cells)


def test_a_loop_in_the_corner_walls_the_cell_it_encloses() -> None:
    # a 3x3 ring in the corner, head (0,1) going down onto its tail (0,0); with a bank the
    # tail stays, the loop closes, and (1,1) cannot reach the border: it is walled too
    cells = ((0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0))
    after = game().state_from(snakes=([Snake(0, cells, bank=2)], [FAR])).apply(DOWN)
    assert walls_of(after, 0) == set(cells) | {(1, 1)}


# -- growth and the bank ----------------------------------------------------------------------
def test_initial_snake_grows_in_the_first_8_rounds_only() -> None:
    state = SnakeGo(items=()).initial_state()
    for round_number in range(1, 11):
        state = play(state, "right left")
        # a move in round r <= 8 adds one cell: length r + 1 after round r; none after
        expected = min(round_number, 8) + 1
        assert only(state, 0).length == expected and only(state, 1).length == expected
        assert only(state, 0).bank == 0
    assert only(state, 0).cells[0] == (10, 15)


def test_growth_rounds_parameter() -> None:
    state = game(growth_rounds=3).initial_state()
    state = play(state, "right up " * 5)
    assert only(state, 0).length == 4 and only(state, 1).length == 4


def test_split_keeps_the_bonus_on_the_head_half_only() -> None:
    g = game(growth_rounds=8)
    a = Snake(0, ((3, 3), (2, 3), (1, 3)), initial=True)
    state = g.state_from(snakes=([a], [FAR]), round=3)
    state = state.apply(SPLIT)  # head half (3,3) (2,3); tail half (1,3): no growth
    assert [s.length for s in state.snakes[0]] == [2, 1]
    state = play(state, "up right down")  # player 1; then A right, B down in round 4
    head, tail = state.snakes[0]
    assert head.cells == ((4, 3), (3, 3), (2, 3)) and head.initial  # grew: the bonus
    assert tail.cells == ((1, 2),) and not tail.initial  # no bonus


def test_no_growth_on_a_split_or_a_ray_round() -> None:
    a = Snake(0, ((3, 3), (2, 3)), ray=True, initial=True)
    state = game(growth_rounds=8).state_from(snakes=([a], [FAR]))
    assert only(state.apply(RAY), 0).length == 2
    assert only(state.apply(RAY), 0).bank == 0


def test_the_bonus_dies_with_the_initial_snake_even_when_its_id_comes_back() -> None:
    # A (id 0, initial) runs off the board; B splits and its tail half takes the free id 0,
    # but it is not the initial snake: nobody grows any more
    g = game(growth_rounds=8)
    a = Snake(0, ((0, 3),), initial=True)
    b = Snake(1, ((4, 4), (4, 5)))
    state = play(g.state_from(snakes=([a, b], [FAR])), "left split up")
    assert [(s.id, s.cells, s.initial) for s in state.snakes[0]] == [
        (1, ((4, 4),), False),
        (0, ((4, 5),), False),
    ]
    state = play(state, "down up")  # round 2: B down, the new snake up; no growth
    assert [s.cells for s in state.snakes[0]] == [((4, 3),), ((4, 6),)]


def test_the_length_bank_adds_one_cell_per_move() -> None:
    state = game().state_from(snakes=([Snake(0, ((3, 3),), bank=2)], [FAR]))
    state = play(state, "right up")
    assert only(state, 0) == Snake(0, ((4, 3), (3, 3)), 1)
    state = play(state, "right up")
    assert only(state, 0) == Snake(0, ((5, 3), (4, 3), (3, 3)), 0)
    state = play(state, "up up")
    assert only(state, 0) == Snake(0, ((5, 4), (5, 3), (4, 3)), 0)


# -- split --------------------------------------------------------------------------------
def test_split_halves_order_bank_ray_and_the_new_snake_waits() -> None:
    a = Snake(0, ((4, 3), (3, 3), (2, 3), (1, 3), (0, 3)), bank=3, ray=True, initial=True)
    state = game(growth_rounds=8).state_from(snakes=([a, Snake(1, ((6, 6),))], [FAR]), round=9)
    state = state.apply(SPLIT)
    head, new, b = state.snakes[0]
    assert head == Snake(0, ((4, 3), (3, 3), (2, 3)), 0, True, True)  # ceil(5/2) = 3 cells
    assert new == Snake(2, ((0, 3), (1, 3)), 3, False, False)  # its head is the old tail
    assert b.id == 1
    assert (state.player, state.pending) == (0, (1,))  # the new snake does not act now
    state = play(state, "down up")  # B, then player 1
    assert (state.player, state.pending, state.round) == (0, (0, 2, 1), 10)
    state = play(state, "up")  # A
    assert state.acting_snake().id == 2 and RIGHT not in state.legal_actions()  # has a bank


def test_split_of_even_and_short_snakes() -> None:
    four = ((3, 3), (2, 3), (1, 3), (0, 3))
    head, tail = game().state_from(snakes=([four], [FAR])).apply(SPLIT).snakes[0]
    assert head.cells == ((3, 3), (2, 3)) and tail.cells == ((0, 3), (1, 3))
    head, tail = game().state_from(snakes=([four[:2]], [FAR])).apply(SPLIT).snakes[0]
    assert head.cells == ((3, 3),) and tail.cells == ((2, 3),)


def test_split_takes_the_smallest_free_id() -> None:
    snakes = [Snake(0, ((1, 1), (1, 2))), Snake(2, ((5, 5),))]
    state = game().state_from(snakes=(snakes, [FAR])).apply(SPLIT)
    assert [s.id for s in state.snakes[0]] == [0, 1, 2]


def test_split_needs_length_2_and_fewer_than_max_snakes() -> None:
    state = game().state_from(snakes=([[(3, 3)]], [FAR]))
    assert SPLIT not in state.legal_actions()
    with pytest.raises(IllegalMoveError, match=r"snake A has length 1 \(a split needs length"):
        state.string_to_action("split")
    four = [[(0, 0), (1, 0)], [(0, 2)], [(0, 4)], [(0, 6)]]
    state = game().state_from(snakes=(four, [FAR]))
    assert state.legal_actions() == (UP, DOWN, LEFT, RIGHT)  # a 2-cell snake: no split
    with pytest.raises(IllegalMoveError, match=r"player 0 already has 4 snakes \(max_snakes 4"):
        state.apply(SPLIT)
    two = game(max_snakes=2).state_from(snakes=(four[:2], [FAR]))
    assert SPLIT not in two.legal_actions()
    three = game().state_from(snakes=(four[:3], [FAR]))
    assert SPLIT in three.legal_actions()


# -- the ray ----------------------------------------------------------------------------------
def test_ray_melts_walls_of_both_players_ahead_only() -> None:
    a = Snake(0, ((1, 3), (0, 3)), ray=True, initial=True)  # heading right
    walls = {(2, 3): 1, (3, 3): 0, (5, 3): 1, (2, 4): 1, (6, 2): 0}
    state = game(growth_rounds=8).state_from(snakes=([a], [[(4, 3)]]), walls=walls)
    after = state.apply(RAY)
    assert walls_of(after, 0) == {(6, 2)} and walls_of(after, 1) == {(2, 4)}
    assert only(after, 0) == Snake(0, ((1, 3), (0, 3)), 0, False, True)  # used up, no growth
    assert only(after, 1).cells == ((4, 3),)  # snakes on the line are not affected


def test_ray_follows_the_heading() -> None:
    a = Snake(0, ((3, 2), (3, 3)), ray=True)  # heading down
    walls = {(3, 0): 1, (3, 5): 1, (3, 1): 0}
    after = game().state_from(snakes=([a], [FAR]), walls=walls).apply(RAY)
    assert walls_of(after, 1) == {(3, 5)} and walls_of(after, 0) == set()


def test_ray_needs_the_item_and_length_2() -> None:
    state = game().state_from(snakes=([[(3, 3), (2, 3)]], [FAR]))
    assert RAY not in state.legal_actions()
    with pytest.raises(IllegalMoveError, match="illegal move 'ray': snake A holds no ray"):
        state.string_to_action("ray")
    state = game().state_from(snakes=([Snake(0, ((3, 3),), ray=True)], [FAR]))
    with pytest.raises(IllegalMoveError, match=r"snake A has length 1 \(a ray needs length"):
        state.string_to_action("RAY")


# -- items ----------------------------------------------------------------------------------
LENGTH_ITEM = "3 3 5 0 2"
"""A length item of param 2 on (3, 3), on the board in rounds 5..20."""


def test_item_eaten_on_landing_grows_from_the_next_move() -> None:
    state = game(items=LENGTH_ITEM).state_from(snakes=([[(2, 3), (1, 3)]], [FAR]), round=5)
    state = state.apply(RIGHT)
    assert only(state, 0) == Snake(0, ((3, 3), (2, 3)), 2)  # no growth this step
    assert state.eaten == {0} and state.first_eat == (0, None)
    state = play(state, "up up")
    assert only(state, 0) == Snake(0, ((3, 4), (3, 3), (2, 3)), 1)


@pytest.mark.parametrize(("round_number", "eats"), [(4, False), (5, True), (20, True), (21, False)])
def test_item_is_on_the_board_from_time_to_time_plus_15(round_number: int, eats: bool) -> None:
    g = game(items=LENGTH_ITEM)
    state = g.state_from(snakes=([[(2, 3), (1, 3)]], [FAR]), round=round_number)
    assert (state.item_at((3, 3)) == 0) is eats
    after = state.apply(RIGHT)
    assert only(after, 0).bank == (2 if eats else 0)
    assert after.eaten == (frozenset({0}) if eats else frozenset())


def test_an_eaten_item_is_gone_for_good() -> None:
    g = game(items=LENGTH_ITEM)
    state = g.state_from(snakes=([[(2, 3), (1, 3)]], [FAR]), round=6, eaten=(0,))
    after = state.apply(RIGHT)  # lands on (3,3) within rounds 5..20, but it was eaten
    assert only(after, 0) == Snake(0, ((3, 3), (2, 3)), 0)


def test_item_appearing_under_a_snake_is_eaten_at_the_start_of_the_round() -> None:
    state = game(items=LENGTH_ITEM).state_from(snakes=([[(2, 3), (1, 3)]], [FAR]), round=4)
    state = play(state, "right up")  # round 4: A's head onto (3,3) (no item yet); player 1
    # round 5 starts: the item appears under A's head and is eaten at once
    assert state.round == 5 and state.eaten == {0}
    assert only(state, 0).bank == 2
    assert state.first_eat == (2, None)  # counted at the number of the next ply
    state = state.apply(UP)  # and it grows on this round's move
    assert only(state, 0).cells == ((3, 4), (3, 3), (2, 3))


def test_item_under_a_body_of_player_1_is_eaten_by_it() -> None:
    b = Snake(0, ((3, 4), (3, 3), (3, 2)))
    state = game(items=LENGTH_ITEM).state_from(snakes=([[(0, 0)]], [b]), round=4)
    state = play(state, "right up")  # b's head to (3,5): (3,3) is still under its body
    assert only(state, 1).cells == ((3, 5), (3, 4), (3, 3))
    assert only(state, 1).bank == 2 and state.first_eat == (None, 2)


def test_ray_eaten_at_the_start_of_the_round_can_be_fired_that_round() -> None:
    state = game(items="3 3 5 2 512").state_from(
        snakes=([[(3, 3), (2, 3)]], [FAR]), round=4, player=1
    )
    state = state.apply(UP)  # player 1; round 5 starts, the ray appears under A's head
    assert only(state, 0).ray and RAY in state.legal_actions()


def test_item_in_a_wall_waits_for_a_ray() -> None:
    a = Snake(0, ((2, 3), (1, 3)), ray=True)
    state = game(items=LENGTH_ITEM).state_from(snakes=([a], [FAR]), walls={(3, 3): 1}, round=5)
    assert state.apply(RIGHT).snakes[0] == ()  # into the wall: dies, the item stays
    state = play(state, "ray up")  # melts (3,3); the item is still there
    assert state.eaten == frozenset() and state.item_at((3, 3)) == 0
    state = state.apply(RIGHT)
    assert only(state, 0).bank == 2 and state.eaten == {0}


def test_a_ray_item_replaces_the_held_one() -> None:
    a = Snake(0, ((2, 3), (1, 3)), ray=True)
    state = game(items="3 3 5 2 512").state_from(snakes=([a], [FAR]), round=5)
    after = state.apply(RIGHT)
    assert only(after, 0).ray and after.eaten == {0}  # still one ray


def test_first_eat_keeps_the_first_ply() -> None:
    items = "3 3 5 0 2\n3 5 5 0 1"
    state = game(items=items).state_from(snakes=([[(2, 3), (1, 3)]], [FAR]), round=5, ply=40)
    # A: (3,3) at ply 40 (first item), (3,4) at ply 42, (3,5) at ply 44 (second item)
    state = play(state, "right up up up up")
    assert state.eaten == {0, 1}
    assert state.first_eat == (40, None)


# -- the end, scores and results ---------------------------------------------------------
def test_a_player_without_snakes_is_skipped() -> None:
    state = game(rounds=5).state_from(snakes=([[(3, 3)]], [FAR]))
    state = play(state, "up down")  # player 1's snake leaves the board in round 1
    assert state.snakes[1] == ()
    assert (state.round, state.player, state.ply) == (2, 0, 2)
    state = state.apply(UP)
    assert (state.round, state.player, state.ply) == (3, 0, 3)  # player 0 again
    state = play(state, "left left down")  # rounds 3, 4, 5
    assert state.is_terminal() and state.legal_actions() == ()
    assert (state.round, state.player, state.pending, state.ply) == (6, 0, (), 6)
    assert state.scores() == (1, 0) and state.returns() == (1.0, -1.0)


def test_the_game_ends_at_once_when_nobody_has_a_snake() -> None:
    for walls, expected in (({}, (-1.0, 1.0)), ({(3, 3): 0}, (1.0, -1.0))):
        state = game().state_from(snakes=([[(0, 3)]], [FAR]), walls=walls)
        state = play(state, "left down")
        assert state.is_terminal()
        assert (state.round, state.player, state.ply) == (1, 0, 2)
        assert state.returns() == expected  # 0:0 is a tie: player 1 wins


def test_a_solidification_can_end_the_game() -> None:
    state = game(scoring="score_difference").state_from(
        snakes=([Snake(0, RING)], [Snake(0, ((3, 2),))])
    )
    after = state.apply(DOWN)
    assert after.is_terminal() and after.scores() == (15, 0)
    assert after.returns() == (15.0, -15.0)


def test_the_round_limit_ends_the_game_after_player_1s_turn() -> None:
    state = game(rounds=2, growth_rounds=8).initial_state()
    state = play(state, "down up down")
    assert not state.is_terminal() and state.player == 1
    state = state.apply(UP)
    assert state.is_terminal() and state.round == 3
    assert state.scores() == (3, 3)  # length 1 + growth in rounds 1 and 2
    assert state.returns() == (-1.0, 1.0)  # a tie goes to player 1
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply(UP)


def test_scores_count_snake_cells_and_owned_walls() -> None:
    state = game(scoring="score_difference").state_from(
        snakes=([[(1, 1), (1, 2)], [(5, 5)]], [[(3, 3), (3, 4), (3, 5)]]),
        walls={(0, 0): 0, (6, 6): 1, (6, 5): 1, (6, 4): 1},
    )
    assert state.scores() == (2 + 1 + 1, 3 + 3)
    assert state.returns() == (0.0, 0.0)  # not over yet


def test_utilities() -> None:
    assert game().info.max_utility == 1.0
    assert game(scoring="score_difference").info.max_utility == 49.0
    assert game(rounds=30, max_snakes=3).info.max_game_length == 2 * 30 * 3
