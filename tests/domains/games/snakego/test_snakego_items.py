"""Snake Go's items: the seeded generator against the rules page (squares, rates, type ratios,
no two items on one cell at once, the documented draw order), and the item-list format (every
malformed case one clear line)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.snakego.items import (
    LENGTH,
    RAY,
    Item,
    format_items,
    generate_items,
    parse_items,
    validate_items,
)

SEEDS = range(200)


@pytest.fixture(scope="module")
def many() -> list[tuple[Item, ...]]:
    return [generate_items(seed) for seed in SEEDS]


# -- the generator --------------------------------------------------------------------------
def test_same_seed_same_items_other_seed_other_items() -> None:
    assert generate_items(11) == generate_items(11)
    assert generate_items(11) != generate_items(12)
    assert generate_items(11, size=8, rounds=100) == generate_items(11, size=8, rounds=100)


def test_items_lie_in_the_centred_square_of_their_round(many: list[tuple[Item, ...]]) -> None:
    # rules: 4x4 in rounds 1-20 (cells 6..9 on 16x16), 6x6 in 21-40 (5..10), ... whole board
    # from round 121 (side 16)
    bounds = {0: (6, 9), 1: (5, 10), 2: (4, 11), 3: (3, 12), 4: (2, 13), 5: (1, 14)}
    outside_first_square = 0
    for items in many:
        for item in items:
            block = (item.time - 1) // 20
            low, high = bounds.get(block, (0, 15))
            assert low <= item.x <= high and low <= item.y <= high, item
            if block == 1 and not (6 <= item.x <= 9 and 6 <= item.y <= 9):
                outside_first_square += 1
    assert outside_first_square > 0  # the square does grow


def test_square_is_capped_by_a_small_board() -> None:
    for seed in range(30):
        for item in generate_items(seed, size=5, rounds=200):
            assert 0 <= item.x < 5 and 0 <= item.y < 5
            if item.time <= 20:  # side 4 on a 5x5 board: lowest corner (0, 0)
                assert item.x <= 3 and item.y <= 3


def test_one_item_per_round_at_most_at_rate_a_quarter(many: list[tuple[Item, ...]]) -> None:
    total = 0
    for items in many:
        times = [item.time for item in items]
        assert times == sorted(set(times))
        assert all(1 <= t <= 512 for t in times)
        total += len(items)
    rate = total / (len(many) * 512)
    assert abs(rate - 0.25) < 0.01  # standard deviation about 0.0014


def test_type_ratios_by_round(many: list[tuple[Item, ...]]) -> None:
    counts = {period: Counter[int]() for period in ("early", "middle", "late")}
    for items in many:
        for item in items:
            period = "early" if item.time <= 64 else "middle" if item.time <= 384 else "late"
            counts[period][item.type] += 1
    expected = {"early": 5 / 6, "middle": 5 / 7, "late": 4 / 7}  # length : ray 5:1, 5:2, 4:3
    for period, share in expected.items():
        count = counts[period]
        assert set(count) <= {LENGTH, RAY}
        observed = count[LENGTH] / (count[LENGTH] + count[RAY])
        assert abs(observed - share) < 0.035, (period, observed)  # > 4 standard deviations


def test_params_length_uniform_ray_512(many: list[tuple[Item, ...]]) -> None:
    params: Counter[int] = Counter()
    for items in many:
        for item in items:
            if item.type == RAY:
                assert item.param == 512
            else:
                params[item.param] += 1
    assert set(params) == {1, 2, 3, 4, 5}
    total = sum(params.values())
    assert all(abs(params[p] / total - 0.2) < 0.02 for p in range(1, 6)), params


def test_no_two_items_on_one_cell_at_the_same_time(many: list[tuple[Item, ...]]) -> None:
    for items in many:
        by_cell: dict[tuple[int, int], list[int]] = {}
        for item in items:
            by_cell.setdefault((item.x, item.y), []).append(item.time)
        for times in by_cell.values():  # sorted: generated round by round
            assert all(later - earlier >= 16 for earlier, later in itertools.pairwise(times))
    # the rule is exercised: some round has 6 or more items in the 16 cells of the 4x4 square
    crowded = max(
        sum(1 for i in items if i.time <= r <= i.time + 15) for items in many for r in range(1, 21)
    )
    assert crowded >= 6


def test_the_documented_draw_order() -> None:
    """A second implementation written from the module docstring's recipe."""
    for seed in (0, 1, 99):
        rng = np.random.default_rng(seed)
        expected: list[Item] = []
        for r in range(1, 513):
            if rng.random() >= 0.25:
                continue
            side = min(4 + 2 * ((r - 1) // 20), 16)
            low = (16 - side) // 2
            busy = {(i.x, i.y) for i in expected if r - 15 <= i.time}
            free = [
                (x, y)
                for y in range(low, low + side)
                for x in range(low, low + side)
                if (x, y) not in busy
            ]
            x, y = free[int(rng.integers(len(free)))]
            share = 5 / 6 if r <= 64 else 5 / 7 if r <= 384 else 4 / 7
            if rng.random() < share:
                expected.append(Item(x, y, r, 0, int(rng.integers(1, 6))))
            else:
                expected.append(Item(x, y, r, 2, 512))
        assert generate_items(seed) == tuple(expected)


# -- the format -----------------------------------------------------------------------------
def test_format_and_parse_round_trip() -> None:
    items = generate_items(4)
    assert parse_items(format_items(items), 16, 512) == items
    assert parse_items(format_items(items).replace("\n", "; "), 16, 512) == items


def test_parse_lines_comments_blank_lines_commas_and_json() -> None:
    text = "# x y time type param\n\n1 2 3 0 4   # a length item\n5,6,7,2,512\n"
    expected = (Item(1, 2, 3, 0, 4), Item(5, 6, 7, 2, 512))
    assert parse_items(text, 16, 512) == expected
    assert parse_items("[[1, 2, 3, 0, 4], [5, 6, 7, 2, 512]]", 16, 512) == expected
    assert parse_items("", 16, 512) == ()
    assert parse_items("1 2 3 2 0", 16, 512) == (Item(1, 2, 3, 2, 0),)  # a ray's param: any


def test_items_on_one_cell_far_enough_apart_in_time_are_fine() -> None:
    assert len(parse_items("1 1 1 0 1\n1 1 17 0 1", 16, 512)) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3 0", "items line 1 '1 2 3 0': expected 5 integers (x y time type param), got 4"),
        ("1 2 3 0 4 5", "items line 1 '1 2 3 0 4 5': expected 5 integers"),
        ("\n1 2 x 0 4", "items line 2 '1 2 x 0 4': time 'x' is not an integer"),
        ("1 2 3 0 4\n16 2 3 0 4", "items line 2 '16 2 3 0 4': cell (16, 2) is off the 16x16"),
        ("-1 2 3 0 4", "items line 1 '-1 2 3 0 4': cell (-1, 2) is off the 16x16 board"),
        ("1 2 0 0 4", "items line 1 '1 2 0 0 4': time 0 is not in 1..512"),
        ("1 2 513 0 4", "items line 1 '1 2 513 0 4': time 513 is not in 1..512"),
        ("1 2 3 1 4", "items line 1 '1 2 3 1 4': type 1 is not 0 (length) or 2 (ray)"),
        ("1 2 3 0 0", "items line 1 '1 2 3 0 0': a length item's param must be in 1..5, got 0"),
        ("1 2 3 0 6", "items line 1 '1 2 3 0 6': a length item's param must be in 1..5, got 6"),
        (
            "1 2 3 0 1\n1 2 18 0 1",
            "items line 2 '1 2 18 0 1': cell (1, 2) already holds the item of time 3 in round 18",
        ),
        ("[[1, 2, 3, 0]]", "items entry 1 [1, 2, 3, 0]: expected 5 integers"),
        ("[[1, 2, 3, 0, 4], 7]", "items entry 2 7: expected 5 integers"),
        ('[[1, 2, "3", 0, 4]]', "items entry 1 [1, 2, '3', 0, 4]: time '3' is not an integer"),
        ("[[1, 2, 3.5, 0, 4]]", "items entry 1 [1, 2, 3.5, 0, 4]: time 3.5 is not an integer"),
        ("[[1, 2", "items: not a valid JSON list of 5-lists"),
    ],
)
def test_each_malformed_list_is_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(InvalidParameterError) as info:
        parse_items(text, 16, 512)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_parse_respects_the_game_size_and_rounds() -> None:
    with pytest.raises(InvalidParameterError, match=r"cell \(5, 0\) is off the 5x5 board"):
        parse_items("5 0 1 0 1", 5, 10)
    with pytest.raises(InvalidParameterError, match=r"time 11 is not in 1\.\.10"):
        parse_items("0 0 11 0 1", 5, 10)


def test_validate_sequences() -> None:
    assert validate_items([Item(1, 1, 1, 0, 1), (2, 2, 2, 2, 512)]) == (
        Item(1, 1, 1, 0, 1),
        Item(2, 2, 2, 2, 512),
    )
    with pytest.raises(InvalidParameterError, match="items entry 1 True: expected 5 integers"):
        validate_items([True])
    with pytest.raises(InvalidParameterError, match="x True is not an integer"):
        validate_items([(True, 1, 1, 0, 1)])
    with pytest.raises(InvalidParameterError, match="items must be a sequence"):
        validate_items(5)  # type: ignore[arg-type]


def test_item_window() -> None:
    item = Item(3, 3, 5, LENGTH, 2)
    assert [r for r in range(1, 30) if item.present(r)] == list(range(5, 21))
    assert item.last_round() == 20
