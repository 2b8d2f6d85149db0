"""Snake Go: two players steer snakes on a grid, eat items, and close loops into walls.

The reference rules of searchlab's Snake Go (the rules page and the decisions of
``docs/games/snakego.md``). Cells are ``(x, y)``, origin bottom-left, x right, y up; player 0
starts with one snake of length 1 at ``(0, size - 1)``, player 1 at ``(size - 1, 0)``. A round
is player 0's turn then player 1's; on a turn each of the mover's snakes acts once, in order,
so a turn is a run of consecutive plies by the same player (``pending`` lists the snakes still
to act, the first acts now). Actions: :data:`UP`, :data:`DOWN`, :data:`LEFT`, :data:`RIGHT`
(move one cell), :data:`SPLIT`, :data:`RAY` (fire the melt ray), written ``up``, ``down``,
``left``, ``right`` (or ``u``, ``d``, ``l``, ``r``), ``split``, ``ray``.

The board (:meth:`SnakeGoState.render`, also ``str(state)``): y from ``size - 1`` (top) down
to 0, x from 0 (left); a snake's head is its letter (player 0: ``A`` .. ``H``, player 1:
``a`` .. ``h``, by snake id), its body ``o`` (player 0) or ``x`` (player 1); walls ``#``
(player 0) and ``%`` (player 1); items ``+`` (length) and ``*`` (ray) on free cells.

>>> game = SnakeGo(items="2 2 1 0 3", size=5, rounds=10)
>>> state = game.initial_state()
>>> [state.action_to_string(a) for a in state.legal_actions()]
['up', 'down', 'left', 'right']
>>> from searchlab.core.game import play
>>> state = play(state, "right left right left")
>>> print(state)
 4 o o A . .
 3 . . . . .
 2 . . + . .
 1 . . . . .
 0 . . a x x
   0 1 2 3 4
round 3 of 10: player 0 to move, snake A
player 0: score 3 (snakes 3, walls 0); A at (2, 4) length 3 bank 0 growing
player 1: score 3 (snakes 3, walls 0); a at (2, 0) length 3 bank 0 growing
items: + (2, 2) length 3, 14 rounds left
legend: A-H / a-h heads of player 0 / 1, o / x their bodies, # / % their walls, + length item, \
* ray item
>>> state.scores(), state.acting_snake().cells
((3, 3), ((2, 4), (1, 4), (0, 4)))

This package is Snake Go's place: these rules here, and beside them the items and their file
format (:mod:`.items`), the informed policy (:mod:`.policy`), the evaluation (:mod:`.eval`), the
match rule (:mod:`.match`), and the compiled tier: the flat position (:mod:`.layout`), the rules
in numba (:mod:`.board`, :mod:`.informed`), the converters (:mod:`.arrays`) and the rules of the
compiled MCTS (:mod:`.compiled`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import choice, integer
from searchlab.domains.games.snakego.items import (
    ITEM_LIFETIME,
    LENGTH,
    Item,
    format_items,
    generate_items,
    parse_items,
    validate_items,
)

__all__ = [
    "ACTION_NAMES",
    "DOWN",
    "LEFT",
    "RAY",
    "RIGHT",
    "SPLIT",
    "UP",
    "Item",
    "Snake",
    "SnakeGo",
    "SnakeGoState",
    "format_items",
    "generate_items",
    "parse_items",
    "snake_name",
]

UP, DOWN, LEFT, RIGHT, SPLIT, RAY = 0, 1, 2, 3, 4, 5
ACTION_NAMES = ("up", "down", "left", "right", "split", "ray")
"""The notation of actions 0..5."""
_DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))
_PARSE = {name: action for action, name in enumerate(ACTION_NAMES)} | {
    "u": UP,
    "d": DOWN,
    "l": LEFT,
    "r": RIGHT,
}
MAX_SIZE = 32
MAX_ROUNDS = 100_000
MAX_SEED = 2**63 - 1

Cell = tuple[int, int]


def snake_name(player: int, snake_id: int) -> str:
    """The letter of a snake: ``A``.. for player 0, ``a``.. for player 1 (by id).

    >>> snake_name(0, 0), snake_name(1, 2)
    ('A', 'c')
    """
    return chr((ord("A") if player == 0 else ord("a")) + snake_id)


@dataclass(frozen=True, slots=True)
class Snake:
    """One snake: ``id`` (unique among its player's snakes, ``0 .. max_snakes - 1``),
    ``cells`` from head to tail, its length ``bank``, whether it holds a ``ray``, and whether
    it is the player's ``initial`` snake (the one that gets the growth bonus)."""

    id: int
    cells: tuple[Cell, ...]
    bank: int = 0
    ray: bool = False
    initial: bool = False

    @property
    def head(self) -> Cell:
        """The head cell."""
        return self.cells[0]

    @property
    def length(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def heading(self) -> Cell | None:
        """``(dx, dy)`` from the second cell to the head; ``None`` for length 1.

        >>> Snake(0, ((2, 3), (2, 2))).heading()
        (0, 1)
        """
        if len(self.cells) < 2:
            return None
        (hx, hy), (nx, ny) = self.cells[0], self.cells[1]
        return (hx - nx, hy - ny)


class SnakeGo:
    """The game of Snake Go (one half). Every bad parameter is one ``InvalidParameterError``.

    Args:
        seed: seed of the item generator (used when ``items`` is None).
        items: the item list instead of the generator's: text (see
            :func:`~searchlab.domains.games.snakego.items.parse_items`) or a sequence of
            ``(x, y, time, type, param)``.
        size: the board is ``size`` x ``size`` (5..32).
        rounds: rounds in a half (1..100000); a round is player 0's turn then player 1's.
        max_snakes: most snakes a player may have (1..8).
        growth_rounds: the initial snake grows by 1 on each move in rounds
            ``1..growth_rounds``.
        scoring: ``"win_loss"`` (+1/-1, a tie goes to player 1) or ``"score_difference"``.

    >>> SnakeGo(size=3)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: snakego: size must be an integer in 5..32, got 3
    """

    def __init__(
        self,
        seed: int = 0,
        items: str | Sequence[Sequence[int]] | None = None,
        size: int = 16,
        rounds: int = 512,
        max_snakes: int = 4,
        growth_rounds: int = 8,
        scoring: Literal["win_loss", "score_difference"] = "win_loss",
    ) -> None:
        self.seed = integer("snakego", "seed", seed, 0, MAX_SEED)
        self.size = integer("snakego", "size", size, 5, MAX_SIZE)
        self.rounds = integer("snakego", "rounds", rounds, 1, MAX_ROUNDS)
        self.max_snakes = integer("snakego", "max_snakes", max_snakes, 1, 8)
        self.growth_rounds = integer("snakego", "growth_rounds", growth_rounds, 0, MAX_ROUNDS)
        self.scoring = choice("snakego", "scoring", scoring, ("win_loss", "score_difference"))
        self.items: tuple[Item, ...] = self._read_items(items)
        self.generated = items is None
        self.info = GameInfo(
            name="snakego",
            max_game_length=2 * self.rounds * self.max_snakes,
            max_utility=1.0 if self.scoring == "win_loss" else float(self.size * self.size),
        )
        # item index by cell index, per round (index 0 and rounds + 1 stay empty)
        self._items_at: list[dict[int, int]] = [{} for _ in range(self.rounds + 2)]
        for index, item in enumerate(self.items):
            for round_number in range(item.time, min(item.last_round(), self.rounds) + 1):
                self._items_at[round_number][item.y * self.size + item.x] = index

    def _read_items(self, items: object) -> tuple[Item, ...]:
        if items is None:
            return generate_items(self.seed, self.size, self.rounds)
        wording = (
            "snakego: items must be lines 'x y time type param' or a list of "
            "(x, y, time, type, param)"
        )
        if isinstance(items, str):
            try:
                return parse_items(items, self.size, self.rounds)
            except InvalidParameterError as error:
                raise InvalidParameterError(f"{wording}; {error}") from None
        if isinstance(items, Sequence):
            try:
                return validate_items(items, self.size, self.rounds)
            except InvalidParameterError as error:
                shown = repr(items) if len(repr(items)) <= 60 else repr(items)[:57] + "..."
                raise InvalidParameterError(f"{wording}; {error}; got {shown}") from None
        raise InvalidParameterError(f"{wording}, got {items!r}")

    # -- states ------------------------------------------------------------------------------
    def initial_state(self) -> SnakeGoState:
        """Round 1, player 0 to move; one snake of length 1 each, in the corners (items of
        round 1 under them are eaten at once)."""
        snakes: tuple[tuple[Snake, ...], tuple[Snake, ...]] = (
            (Snake(0, ((0, self.size - 1),), initial=True),),
            (Snake(0, ((self.size - 1, 0),), initial=True),),
        )
        snakes, eaten, first_eat = self._start_round(1, snakes, frozenset(), (None, None), 0)
        walls = (-1,) * (self.size * self.size)
        return SnakeGoState(self, 1, 0, snakes, (0,), walls, eaten, first_eat, 0)

    def state_from(
        self,
        snakes: Sequence[Sequence[Snake | Sequence[Cell]]] = ((), ()),
        walls: Mapping[Cell, int] | Sequence[int] | None = None,
        round: int = 1,
        player: int = 0,
        pending: Sequence[int] | None = None,
        eaten: Iterable[int] = (),
        first_eat: tuple[int | None, int | None] = (None, None),
        ply: int = 0,
    ) -> SnakeGoState:
        """A position built by hand (for tests and exercises), checked.

        ``snakes`` gives each player's snakes in acting order, each a :class:`Snake` or just
        its cells from head to tail (then its id is its position in the list, bank 0, no ray,
        not initial). ``walls`` maps cells to owners (0 or 1), or lists the owner (-1, 0, 1)
        of every cell index ``y * size + x``. ``pending`` defaults to all of ``player``'s
        snakes. Items are not eaten by building the position: a present, uneaten item under a
        snake is an error.

        Raises ``InvalidStateError`` in one line naming the problem: a cell off the board, a
        snake that is not a chain of adjacent cells, snakes or walls overlapping, repeated
        ids, too many snakes, a pending id that is not a snake of ``player``, a player to
        move without snakes, a round outside ``1..rounds``.

        >>> game = SnakeGo(items=(), size=5)
        >>> state = game.state_from(snakes=([[(1, 1), (1, 2)]], [[(3, 3)]]), walls={(0, 0): 1})
        >>> state.scores()
        (2, 2)
        >>> game.state_from(snakes=([[(1, 1), (1, 3)]], []))
        Traceback (most recent call last):
        ...
        searchlab.core.errors.InvalidStateError: snake A: cells (1, 1) and (1, 3) are not \
adjacent
        """
        size = self.size
        if not isinstance(snakes, Sequence) or len(snakes) != 2:
            raise InvalidStateError("snakes must be two sequences, one per player")
        built: list[tuple[Snake, ...]] = []
        occupied: dict[Cell, str] = {}
        for owner in (0, 1):
            if len(snakes[owner]) > self.max_snakes:
                raise InvalidStateError(
                    f"player {owner} has {len(snakes[owner])} snakes (max_snakes {self.max_snakes})"
                )
            mine: list[Snake] = []
            for position, entry in enumerate(snakes[owner]):
                snake = (
                    entry
                    if isinstance(entry, Snake)
                    else Snake(position, tuple((int(x), int(y)) for x, y in entry))
                )
                name = f"snake {snake_name(owner, snake.id)}"
                if not 0 <= snake.id < self.max_snakes:
                    raise InvalidStateError(
                        f"player {owner}'s snake id {snake.id} is not in 0..{self.max_snakes - 1}"
                    )
                if any(other.id == snake.id for other in mine):
                    raise InvalidStateError(f"{name}: id {snake.id} used twice by player {owner}")
                if not snake.cells:
                    raise InvalidStateError(f"{name} has no cells")
                if snake.bank < 0:
                    raise InvalidStateError(f"{name}: negative bank {snake.bank}")
                for index, cell in enumerate(snake.cells):
                    if not (0 <= cell[0] < size and 0 <= cell[1] < size):
                        raise InvalidStateError(f"{name}: cell {cell} is off the board")
                    if cell in occupied:
                        raise InvalidStateError(f"{name}: cell {cell} is also {occupied[cell]}")
                    occupied[cell] = name
                    if index:
                        before = snake.cells[index - 1]
                        if abs(before[0] - cell[0]) + abs(before[1] - cell[1]) != 1:
                            raise InvalidStateError(
                                f"{name}: cells {before} and {cell} are not adjacent"
                            )
                mine.append(snake)
            built.append(tuple(mine))
        board = self._wall_list(walls)
        for cell, name in occupied.items():
            if board[cell[1] * size + cell[0]] >= 0:
                raise InvalidStateError(f"{name}: cell {cell} is a wall")
        if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= self.rounds:
            raise InvalidStateError(f"round {round!r} is not in 1..{self.rounds}")
        if player not in (0, 1):
            raise InvalidStateError(f"player {player!r} is not 0 or 1")
        eaten_set = frozenset(eaten)
        if not all(isinstance(i, int) and 0 <= i < len(self.items) for i in eaten_set):
            raise InvalidStateError(f"eaten {sorted(eaten_set)} are not all item indices")
        for cell in occupied:
            item = self._items_at[round].get(cell[1] * size + cell[0])
            if item is not None and item not in eaten_set:
                raise InvalidStateError(
                    f"item {item} {tuple(self.items[item])} lies under {occupied[cell]}: "
                    "mark it eaten"
                )
        snakes_pair = (built[0], built[1])
        ids = [snake.id for snake in snakes_pair[player]]
        if pending is None:
            pending = ids
        if not snakes_pair[0] and not snakes_pair[1]:
            pending = ()
        elif not pending:
            raise InvalidStateError(f"player {player} is to move but has no snake to act")
        for snake_id in pending:
            if snake_id not in ids:
                raise InvalidStateError(f"pending id {snake_id} is not a snake of player {player}")
        if len(set(pending)) != len(pending):
            raise InvalidStateError(f"pending {tuple(pending)} repeats a snake")
        return SnakeGoState(
            self,
            round,
            player,
            snakes_pair,
            tuple(pending),
            tuple(board),
            eaten_set,
            (first_eat[0], first_eat[1]),
            ply,
        )

    def _wall_list(self, walls: Mapping[Cell, int] | Sequence[int] | None) -> list[int]:
        size = self.size
        board = [-1] * (size * size)
        if walls is None:
            return board
        if isinstance(walls, Mapping):
            for cell, owner in walls.items():
                x, y = cell
                if not (0 <= x < size and 0 <= y < size):
                    raise InvalidStateError(f"wall cell {cell} is off the board")
                if owner not in (0, 1):
                    raise InvalidStateError(f"wall {cell}: owner {owner!r} is not 0 or 1")
                board[y * size + x] = owner
            return board
        if len(walls) != size * size or any(owner not in (-1, 0, 1) for owner in walls):
            raise InvalidStateError(
                f"walls must list {size * size} owners (-1, 0 or 1), one per cell index"
            )
        return list(walls)

    # -- rules shared by the states -----------------------------------------------------------
    def _start_round(
        self,
        round_number: int,
        snakes: tuple[tuple[Snake, ...], tuple[Snake, ...]],
        eaten: frozenset[int],
        first_eat: tuple[int | None, int | None],
        ply: int,
    ) -> tuple[
        tuple[tuple[Snake, ...], tuple[Snake, ...]], frozenset[int], tuple[int | None, int | None]
    ]:
        """Start of round ``round_number``: every present, uneaten item under a snake cell is
        eaten by that snake (a length item into its bank, a ray held)."""
        present = self._items_at[round_number]
        if not present:
            return snakes, eaten, first_eat
        size = self.size
        pair = [list(snakes[0]), list(snakes[1])]
        eat = list(first_eat)
        for cell, index in present.items():
            if index in eaten:
                continue
            cell_xy = (cell % size, cell // size)
            for owner in (0, 1):
                for position, snake in enumerate(pair[owner]):
                    if cell_xy in snake.cells:
                        pair[owner][position] = _eat(snake, self.items[index])
                        eaten = eaten | {index}
                        if eat[owner] is None:
                            eat[owner] = ply
        return (tuple(pair[0]), tuple(pair[1])), eaten, (eat[0], eat[1])

    def __repr__(self) -> str:
        items = "generated" if self.generated else f"{len(self.items)} given"
        return (
            f"SnakeGo(seed={self.seed}, items={items}, size={self.size}, rounds={self.rounds}, "
            f"max_snakes={self.max_snakes}, growth_rounds={self.growth_rounds}, "
            f"scoring={self.scoring!r})"
        )


def _eat(snake: Snake, item: Item) -> Snake:
    if item.type == LENGTH:
        return Snake(snake.id, snake.cells, snake.bank + item.param, snake.ray, snake.initial)
    return Snake(snake.id, snake.cells, snake.bank, True, snake.initial)


@dataclass(slots=True, eq=False, repr=False)
class SnakeGoState:
    """A position of Snake Go. Immutable; the legal actions and the key are computed once.
    Made unchecked: use :meth:`SnakeGo.initial_state` or :meth:`SnakeGo.state_from`.

    Attributes:
        game: the :class:`SnakeGo` (parameters, items).
        round: the round, 1-based (``rounds + 1`` once the round limit ended the game).
        player: the player to move (on a terminal state: who would move next).
        snakes: per player, their snakes in acting order.
        pending: ids of the mover's snakes still to act this turn, the acting one first
            (empty on a terminal state).
        walls: the owner of every cell index ``y * size + x``: -1 none, 0 or 1.
        eaten: indices into ``game.items`` of the items eaten so far.
        first_eat: per player, the ply (0-based, over the whole game) at which they first ate
            an item (an item eaten at the start of a round counts at the next ply's number),
            or None.
        ply: the number of plies played so far.
    """

    game: SnakeGo
    round: int
    player: int
    snakes: tuple[tuple[Snake, ...], tuple[Snake, ...]]
    pending: tuple[int, ...]
    walls: tuple[int, ...]
    eaten: frozenset[int]
    first_eat: tuple[int | None, int | None]
    ply: int
    _actions: tuple[int, ...] | None = field(default=None, init=False)
    _key: Hashable | None = field(default=None, init=False)

    # -- queries -----------------------------------------------------------------------------
    def acting_snake(self) -> Snake:
        """The snake that acts now (the first of ``pending``); raises ``InvalidStateError`` on
        a terminal state."""
        if not self.pending:
            raise InvalidStateError("the game is over: no snake acts")
        wanted = self.pending[0]
        for snake in self.snakes[self.player]:
            if snake.id == wanted:
                return snake
        raise InvalidStateError(f"pending id {wanted} is not a snake of player {self.player}")

    def scores(self) -> tuple[int, int]:
        """Per player: cells of their snakes plus wall cells they own."""
        return (
            sum(len(s.cells) for s in self.snakes[0]) + self.walls.count(0),
            sum(len(s.cells) for s in self.snakes[1]) + self.walls.count(1),
        )

    def growth(self, snake: Snake) -> int:
        """The growth bonus ``snake`` gets if it moves now: 1 for the initial snake in rounds
        ``1..growth_rounds``, else 0."""
        return 1 if snake.initial and self.round <= self.game.growth_rounds else 0

    def present_items(self) -> list[tuple[int, Item]]:
        """``(index, item)`` of the items on the board now (appeared, not expired, not
        eaten), by cell index; some may lie in walls."""
        at = self.game._items_at[min(self.round, self.game.rounds + 1)]
        return sorted(
            ((index, self.game.items[index]) for index in at.values() if index not in self.eaten),
            key=lambda pair: (pair[1].y, pair[1].x),
        )

    def item_at(self, cell: Cell) -> int | None:
        """The index of the item on ``cell`` now (present, uneaten), or None."""
        at = self.game._items_at[min(self.round, self.game.rounds + 1)]
        index = at.get(cell[1] * self.game.size + cell[0])
        return None if index is None or index in self.eaten else index

    # -- the State protocol ------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to move (on a terminal state: who would move next)."""
        return self.player

    def is_terminal(self) -> bool:
        """True after the round limit, or when neither player has a snake."""
        return not self.pending

    def legal_actions(self) -> tuple[int, ...]:
        """The acting snake's legal actions in increasing order: the moves except straight
        back into its second cell (all four for length 1, or length 2 with an empty bank after
        the growth bonus), moves that kill it included; ``SPLIT`` at length >= 2 with fewer
        than ``max_snakes`` snakes; ``RAY`` at length >= 2 holding a ray. Empty when over."""
        if self._actions is None:
            self._actions = self._compute_actions()
        return self._actions

    def _compute_actions(self) -> tuple[int, ...]:
        if not self.pending:
            return ()
        snake = self.acting_snake()
        cells = snake.cells
        length = len(cells)
        actions: list[int] = []
        forbid_back = length >= 3 or (length == 2 and snake.bank + self.growth(snake) > 0)
        hx, hy = cells[0]
        for action, (dx, dy) in enumerate(_DELTAS):
            if forbid_back and (hx + dx, hy + dy) == cells[1]:
                continue
            actions.append(action)
        if length >= 2 and len(self.snakes[self.player]) < self.game.max_snakes:
            actions.append(SPLIT)
        if length >= 2 and snake.ray:
            actions.append(RAY)
        return tuple(actions)

    def apply(self, action: int) -> SnakeGoState:
        """The state after the acting snake does ``action``; raises ``IllegalMoveError`` when
        it is not legal here (the game is over, a move straight back, a split or ray whose
        conditions fail)."""
        if action not in self.legal_actions() or isinstance(action, bool):
            raise IllegalMoveError(f"illegal action {action!r}: {self._why_illegal(action)}")
        game = self.game
        size = game.size
        me = self.player
        mine = list(self.snakes[me])
        theirs = self.snakes[1 - me]
        position = next(i for i, s in enumerate(mine) if s.id == self.pending[0])
        snake = mine[position]
        cells = snake.cells
        walls = self.walls
        eaten = self.eaten
        first_eat = self.first_eat
        if action == SPLIT:
            half = (len(cells) + 1) // 2
            used = {s.id for s in mine}
            new_id = next(i for i in range(game.max_snakes) if i not in used)
            mine[position : position + 1] = [
                Snake(snake.id, cells[:half], 0, snake.ray, snake.initial),
                Snake(new_id, cells[half:][::-1], snake.bank, False, False),
            ]
        elif action == RAY:
            (hx, hy), (nx, ny) = cells[0], cells[1]
            dx, dy = hx - nx, hy - ny
            x, y = hx + dx, hy + dy
            board = list(walls)
            while 0 <= x < size and 0 <= y < size:
                board[y * size + x] = -1
                x, y = x + dx, y + dy
            walls = tuple(board)
            mine[position] = Snake(snake.id, cells, snake.bank, False, snake.initial)
        else:
            dx, dy = _DELTAS[action]
            target = (cells[0][0] + dx, cells[0][1] + dy)
            tx, ty = target
            bank = snake.bank + self.growth(snake)
            body = cells if bank > 0 else cells[:-1]
            if (
                not (0 <= tx < size and 0 <= ty < size)
                or walls[ty * size + tx] >= 0
                or any(target in s.cells for s in theirs)
                or any(target in s.cells for s in mine if s is not snake)
            ):
                del mine[position]  # dies
            elif target in body:
                if len(cells) >= 5:
                    region = _enclosed(cells[: cells.index(target) + 1], size)
                    board = list(walls)
                    for index in region:
                        board[index] = me
                    walls = tuple(board)
                    del mine[position]  # solidified: the rest of its body is gone
                    mine = [s for s in mine if not _touches(s, region, size)]
                    theirs = tuple(s for s in theirs if not _touches(s, region, size))
                else:
                    del mine[position]  # dies on its own body
            else:
                if bank > 0:
                    moved = Snake(snake.id, (target, *cells), bank - 1, snake.ray, snake.initial)
                else:
                    moved = Snake(snake.id, (target, *cells[:-1]), 0, snake.ray, snake.initial)
                item = game._items_at[self.round].get(ty * size + tx)
                if item is not None and item not in eaten:
                    moved = _eat(moved, game.items[item])
                    eaten = eaten | {item}
                    if first_eat[me] is None:
                        first_eat = (
                            (self.ply, first_eat[1]) if me == 0 else (first_eat[0], self.ply)
                        )
                mine[position] = moved
        alive = {s.id for s in mine}
        pending = tuple(i for i in self.pending[1:] if i in alive)
        snakes = (tuple(mine), theirs) if me == 0 else (theirs, tuple(mine))
        if pending:
            return SnakeGoState(
                game, self.round, me, snakes, pending, walls, eaten, first_eat, self.ply + 1
            )
        return self._next_turn(snakes, walls, eaten, first_eat)

    def _next_turn(
        self,
        snakes: tuple[tuple[Snake, ...], tuple[Snake, ...]],
        walls: tuple[int, ...],
        eaten: frozenset[int],
        first_eat: tuple[int | None, int | None],
    ) -> SnakeGoState:
        """The state after the mover's turn ended: the next player with snakes moves
        (turns of a player without snakes are skipped; a new round starts with its items)."""
        game = self.game
        ply = self.ply + 1
        player, round_number = self.player, self.round
        if not snakes[0] and not snakes[1]:
            return SnakeGoState(
                game, round_number, 1 - player, snakes, (), walls, eaten, first_eat, ply
            )
        while True:
            if player == 0:
                player = 1
            else:
                player, round_number = 0, round_number + 1
                if round_number > game.rounds:
                    return SnakeGoState(
                        game, round_number, 0, snakes, (), walls, eaten, first_eat, ply
                    )
                snakes, eaten, first_eat = game._start_round(
                    round_number, snakes, eaten, first_eat, ply
                )
            if snakes[player]:
                pending = tuple(s.id for s in snakes[player])
                return SnakeGoState(
                    game, round_number, player, snakes, pending, walls, eaten, first_eat, ply
                )

    def _why_illegal(self, action: object) -> str:
        if not self.pending:
            return "the game is over"
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action <= RAY:
            return "not an action 0..5 (up, down, left, right, split, ray)"
        snake = self.acting_snake()
        name = f"snake {snake_name(self.player, snake.id)}"
        if action == SPLIT:
            if snake.length < 2:
                return f"{name} has length 1 (a split needs length >= 2)"
            return (
                f"player {self.player} already has {len(self.snakes[self.player])} snakes "
                f"(max_snakes {self.game.max_snakes})"
            )
        if action == RAY:
            if snake.length < 2:
                return f"{name} has length 1 (a ray needs length >= 2)"
            return f"{name} holds no ray"
        return (
            f"{name} cannot move straight back into its own body "
            f"(length {snake.length}, bank {snake.bank + self.growth(snake)})"
        )

    def returns(self) -> tuple[float, float]:
        """``win_loss``: +1 to the higher score, a tie to player 1; ``score_difference``:
        ``(s0 - s1, s1 - s0)``. Zeros before the end."""
        if self.pending:
            return (0.0, 0.0)
        first, second = self.scores()
        if self.game.scoring == "score_difference":
            return (float(first - second), float(second - first))
        return (1.0, -1.0) if first > second else (-1.0, 1.0)

    def key(self) -> Hashable:
        """``(round, player, pending, snakes, walls, eaten items still in their window)``:
        everything the rest of the game depends on."""
        if self._key is None:
            last = self.round - ITEM_LIFETIME
            items = self.game.items
            relevant = frozenset(i for i in self.eaten if items[i].time > last)
            self._key = (
                self.round,
                self.player,
                self.pending,
                self.snakes,
                self.walls,
                relevant,
            )
        return self._key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SnakeGoState):
            return NotImplemented
        return self.game is other.game and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def action_to_string(self, action: int) -> str:
        """``up``, ``down``, ``left``, ``right``, ``split``, ``ray``."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action <= RAY:
            raise IllegalMoveError(f"unknown action {action!r}: expected 0..5")
        return ACTION_NAMES[action]

    def string_to_action(self, text: str) -> int:
        """Parse an action (case-insensitive; ``u``, ``d``, ``l``, ``r`` for the moves);
        raises ``IllegalMoveError`` when unknown or illegal here, saying why."""
        action = _PARSE.get(str(text).strip().lower())
        if action is None:
            raise IllegalMoveError(
                f"unknown move {text!r}: expected up, down, left, right (or u, d, l, r), "
                "split or ray"
            )
        if action not in self.legal_actions():
            raise IllegalMoveError(f"illegal move {text!r}: {self._why_illegal(action)}")
        return action

    # -- text --------------------------------------------------------------------------------
    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        """The board (see the module docstring) followed by the round and who acts, each
        player's score and snakes (head, length, bank, ray, growth bonus), the items on the
        board with their rounds left, and a legend."""
        game = self.game
        size = game.size
        grid = [["." for _ in range(size)] for _ in range(size)]
        for index, owner in enumerate(self.walls):
            if owner >= 0:
                grid[index // size][index % size] = "#%"[owner]
        items = self.present_items()
        for _, item in items:
            if self.walls[item.y * size + item.x] < 0:
                grid[item.y][item.x] = "+" if item.type == LENGTH else "*"
        for owner in (0, 1):
            for snake in self.snakes[owner]:
                for x, y in snake.cells[1:]:
                    grid[y][x] = "ox"[owner]
                x, y = snake.cells[0]
                grid[y][x] = snake_name(owner, snake.id)
        lines = [f"{y:2d} " + " ".join(grid[y]) for y in range(size - 1, -1, -1)]
        if size > 10:
            lines.append("   " + " ".join(str(x // 10) if x >= 10 else " " for x in range(size)))
        lines.append("   " + " ".join(str(x % 10) for x in range(size)))
        if self.pending:
            acting = [snake_name(self.player, i) for i in self.pending]
            then = f" (then {' '.join(acting[1:])})" if len(acting) > 1 else ""
            lines.append(
                f"round {self.round} of {game.rounds}: player {self.player} to move, "
                f"snake {acting[0]}{then}"
            )
        else:
            first, second = self.scores()
            if first == second and game.scoring == "score_difference":
                outcome = "a draw"
            else:  # win_loss: a tie goes to player 1
                outcome = f"player {0 if first > second else 1} wins"
            lines.append(
                f"game over after round {min(self.round, game.rounds)} of {game.rounds}: {outcome}"
            )
        scores = self.scores()
        for owner in (0, 1):
            snakes = self.snakes[owner]
            walls = self.walls.count(owner)
            parts = []
            for snake in snakes:
                text = (
                    f"{snake_name(owner, snake.id)} at {snake.cells[0]} length {snake.length} "
                    f"bank {snake.bank}"
                )
                if snake.ray:
                    text += " ray"
                if snake.initial and self.round <= game.growth_rounds:
                    text += " growing"
                parts.append(text)
            lines.append(
                f"player {owner}: score {scores[owner]} (snakes {scores[owner] - walls}, "
                f"walls {walls}); " + (", ".join(parts) if parts else "no snakes")
            )
        if items:
            shown = []
            for _, item in items:
                left = item.last_round() - self.round + 1
                what = f"+ {(item.x, item.y)} length {item.param}"
                if item.type != LENGTH:
                    what = f"* {(item.x, item.y)} ray"
                if self.walls[item.y * size + item.x] >= 0:
                    what += " (in a wall)"
                shown.append(f"{what}, {left} round{'s' if left != 1 else ''} left")
            lines.append("items: " + "; ".join(shown))
        lines.append(
            "legend: A-H / a-h heads of player 0 / 1, o / x their bodies, # / % their walls, "
            "+ length item, * ray item"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<SnakeGoState round {self.round} player {self.player} pending {self.pending} "
            f"scores {self.scores()}>"
        )


def _touches(snake: Snake, region: set[int], size: int) -> bool:
    return any(y * size + x in region for x, y in snake.cells)


def _enclosed(loop: Sequence[Cell], size: int) -> set[int]:
    """Cell indices of the loop plus every cell that cannot reach the border of the board by
    4-connected steps avoiding the loop (flood fill from the border cells off the loop)."""
    blocked = {y * size + x for x, y in loop}
    outside: set[int] = set()
    stack = [
        index
        for index in range(size * size)
        if (index % size in (0, size - 1) or index // size in (0, size - 1))
        and index not in blocked
    ]
    outside.update(stack)
    while stack:
        index = stack.pop()
        x, y = index % size, index // size
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < size and 0 <= ny < size:
                neighbour = ny * size + nx
                if neighbour not in blocked and neighbour not in outside:
                    outside.add(neighbour)
                    stack.append(neighbour)
    return {index for index in range(size * size) if index not in outside}
