"""Encoders: what a network sees of a position, and what its policy output means.

An :class:`Encoder` turns a state into **feature planes** ``float32 [C, H, W]`` from the point of
view of **the player to move** (plane 0 the mover's stones, plane 1 the opponent's, then planes
of the game's own), numbers the game's actions with a **fixed-size index** ``0..num_actions-1``
(a policy head has one output per index; the legal ones are :meth:`~Encoder.legal_mask`), and
lists the board's **symmetries** (:class:`Symmetry`): maps of the planes and of the policy
vector that send a position and its policy to an equivalent position and its policy. Because
the planes are the mover's, a network's value is always for the player to move.

A game of your own needs an encoder to be learned. Subclass :class:`BaseEncoder`: name the game,
give the plane shape and the number of action indices, write ``encode``; ``action_to_index``
and ``index_to_action`` default to the identity, ``legal_mask`` follows ``legal_actions()``, and
the only symmetry is the identity. The subtraction game (take 1 to 3 counters; whoever takes the
last one wins), encoded as one plane that marks how many counters are left, with actions 1..3
at indices 0..2:

>>> import numpy as np
>>> class Pile:
...     def __init__(self, left): self.left = left
...     def current_player(self): return 0
...     def legal_actions(self): return [t for t in (1, 2, 3) if t <= self.left]
>>> class SubtractionEncoder(BaseEncoder):
...     game_name, shape, num_actions = "subtraction", (1, 1, 22), 3
...     def encode(self, state):
...         planes = np.zeros(self.shape, dtype=np.float32)
...         planes[0, 0, state.left] = 1.0
...         return planes
...     def action_to_index(self, state, action): return action - 1
...     def index_to_action(self, state, index): return index + 1
>>> encoder = SubtractionEncoder()
>>> isinstance(encoder, Encoder), encoder.legal_mask(Pile(2)).tolist()
(True, [True, True, False])
>>> int(encoder.encode(Pile(5)).argmax()), encoder.index_to_action(Pile(5), 2)
(5, 3)

Board symmetries come from :func:`board_symmetries`; the 8 symmetries of the square, with the
actions numbered like the cells (``row * width + column``) and one extra action (a pass) that
every symmetry keeps in place:

>>> symmetries = board_symmetries(3, 3, "dihedral", extra_actions=1)
>>> [s.name for s in symmetries][:4]
['identity', 'rotate90', 'rotate180', 'rotate270']
>>> flip = symmetries[4]  # flip_horizontal: column c goes to column 2 - c
>>> flip.name, flip.map_index(0), flip.map_index(9)
('flip_horizontal', 2, 9)
>>> flip.apply_policy(np.arange(10.0)).tolist()
[2.0, 1.0, 0.0, 5.0, 4.0, 3.0, 8.0, 7.0, 6.0, 9.0]

:func:`~searchlab.learning.networks.encoders.encoder_for` finds the encoder of a game (the built-in
games, games registered with :func:`~searchlab.learning.networks.encoders.register_encoder`, or a
game object with an ``encoder()`` method).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from searchlab.core.errors import IllegalMoveError, InvalidParameterError

__all__ = [
    "GROUPS",
    "BaseEncoder",
    "Encoder",
    "Symmetry",
    "board_symmetries",
    "identity_symmetry",
    "input_features",
]


class Symmetry:
    """One symmetry of a board: where every cell and every action index goes.

    ``cell_source[j]`` is the cell (``row * width + column``) whose plane values land on cell
    ``j``; ``action_source[j]`` the action index whose policy probability lands on index ``j``.
    For a position ``s`` and its image ``g(s)``: ``apply_planes(encode(s)) == encode(g(s))``, and
    ``apply_policy(p)`` is the policy ``p`` of ``s`` carried to ``g(s)`` (legal to legal).
    Both work on a batch too (the last axes are the board, or the actions).

    Raises ``InvalidParameterError`` when a source is not a permutation.

    >>> mirror = Symmetry("mirror", 1, 3, cell_source=[2, 1, 0], action_source=[2, 1, 0])
    >>> mirror.apply_planes(np.array([[[1.0, 2.0, 3.0]]])).tolist()
    [[[3.0, 2.0, 1.0]]]
    >>> Symmetry("bad", 1, 2, cell_source=[0, 0], action_source=[0])
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: symmetry 'bad': cell_source must be a \
permutation of 0..1, got [0, 0]
    """

    __slots__ = ("action_image", "action_source", "cell_source", "height", "name", "width")

    def __init__(
        self,
        name: str,
        height: int,
        width: int,
        *,
        cell_source: Sequence[int] | np.ndarray,
        action_source: Sequence[int] | np.ndarray,
    ) -> None:
        self.name = name
        self.height, self.width = int(height), int(width)
        self.cell_source = _permutation(name, "cell_source", cell_source, self.height * self.width)
        self.action_source = _permutation(name, "action_source", action_source, len(action_source))
        image = np.empty_like(self.action_source)
        image[self.action_source] = np.arange(len(image))
        self.action_image = image

    def apply_planes(self, planes: np.ndarray) -> np.ndarray:
        """The planes ``[..., C, H, W]`` of the image position (a new array)."""
        shape = planes.shape
        if shape[-2:] != (self.height, self.width):
            raise InvalidParameterError(
                f"symmetry {self.name!r}: planes of shape {tuple(shape)} are not "
                f"[..., {self.height}, {self.width}]"
            )
        flat = planes.reshape(*shape[:-2], self.height * self.width)
        return flat[..., self.cell_source].reshape(shape)

    def apply_policy(self, policy: np.ndarray) -> np.ndarray:
        """The policy (or legal mask) ``[..., num_actions]`` of the image position."""
        if policy.shape[-1] != len(self.action_source):
            raise InvalidParameterError(
                f"symmetry {self.name!r}: a policy of {policy.shape[-1]} entries, expected "
                f"{len(self.action_source)}"
            )
        return policy[..., self.action_source]

    def map_index(self, index: int) -> int:
        """The index that action index ``index`` becomes in the image position."""
        return int(self.action_image[index])

    def __repr__(self) -> str:
        return f"Symmetry({self.name!r}, {self.height}x{self.width})"


def _permutation(name: str, label: str, values: Sequence[int] | np.ndarray, size: int) -> Any:
    array = np.asarray(values, dtype=np.int64)
    if array.shape != (size,) or not np.array_equal(np.sort(array), np.arange(size)):
        raise InvalidParameterError(
            f"symmetry {name!r}: {label} must be a permutation of 0..{size - 1}, "
            f"got {np.asarray(values).tolist()}"
        )
    return array


CellMap = Callable[[int, int, int, int], tuple[int, int]]

# (row, column, height, width) -> the cell's image; the square's group in the usual order
_MAPS: dict[str, CellMap] = {
    "identity": lambda r, c, h, w: (r, c),
    "rotate90": lambda r, c, h, w: (c, h - 1 - r),
    "rotate180": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "rotate270": lambda r, c, h, w: (w - 1 - c, r),
    "flip_horizontal": lambda r, c, h, w: (r, w - 1 - c),
    "flip_vertical": lambda r, c, h, w: (h - 1 - r, c),
    "transpose": lambda r, c, h, w: (c, r),
    "antitranspose": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
}

GROUPS: dict[str, tuple[str, ...]] = {
    "identity": ("identity",),
    "mirror": ("identity", "flip_horizontal"),
    "rectangle": ("identity", "flip_horizontal", "flip_vertical", "rotate180"),
    "dihedral": tuple(_MAPS),
}
"""The symmetry groups :func:`board_symmetries` knows: ``"dihedral"`` (the 8 of the square),
``"rectangle"`` (the 4 of a rectangle), ``"mirror"`` (left-right), ``"identity"``."""


def board_symmetries(
    height: int, width: int, group: str, *, actions: str = "cells", extra_actions: int = 0
) -> list[Symmetry]:
    """The symmetries of a ``height`` x ``width`` board in ``group`` (see :data:`GROUPS`),
    identity first.

    ``actions="cells"``: action index ``row * width + column`` is that cell; ``"columns"``:
    index ``column`` is a column (Connect Four's drops). ``extra_actions`` more indices (a pass)
    follow and stay in place. Raises ``InvalidParameterError`` for an unknown group, a group
    that does not fit the board (the square's 8 on a rectangle) or column actions under a
    symmetry that moves cells between rows.

    >>> [s.name for s in board_symmetries(6, 7, "mirror", actions="columns")]
    ['identity', 'flip_horizontal']
    >>> board_symmetries(6, 7, "dihedral")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: symmetry group 'dihedral' needs a square \
board, got 6x7
    """
    if group not in GROUPS:
        raise InvalidParameterError(f"unknown symmetry group {group!r}; known: {', '.join(GROUPS)}")
    if group == "dihedral" and height != width:
        raise InvalidParameterError(
            f"symmetry group 'dihedral' needs a square board, got {height}x{width}"
        )
    if actions not in ("cells", "columns"):
        raise InvalidParameterError(f"actions must be 'cells' or 'columns', got {actions!r}")
    result = []
    for name in GROUPS[group]:
        cell_map = _MAPS[name]
        cells = height * width
        cell_source = np.empty(cells, dtype=np.int64)
        column_image = list(range(width))
        keeps_rows = True
        for row in range(height):
            for column in range(width):
                image_row, image_column = cell_map(row, column, height, width)
                cell_source[image_row * width + image_column] = row * width + column
                column_image[column] = image_column
                keeps_rows = keeps_rows and image_row == row
        if actions == "cells":
            moved = cell_source
        else:
            if not keeps_rows:
                raise InvalidParameterError(
                    f"symmetry {name!r} moves cells between rows: not a symmetry of column actions"
                )
            moved = np.empty(width, dtype=np.int64)
            moved[column_image] = np.arange(width)
        extra = np.arange(len(moved), len(moved) + extra_actions, dtype=np.int64)
        action_source = np.concatenate([moved, extra])
        result.append(
            Symmetry(name, height, width, cell_source=cell_source, action_source=action_source)
        )
    return result


def identity_symmetry(height: int, width: int, num_actions: int) -> Symmetry:
    """The symmetry that moves nothing."""
    return Symmetry(
        "identity",
        height,
        width,
        cell_source=np.arange(height * width),
        action_source=np.arange(num_actions),
    )


@runtime_checkable
class Encoder(Protocol):
    """Planes, action indices and symmetries of one game (see the module docstring).

    Attributes:
        game_name: the game's ``info.name``; a checkpoint records it.
        version: bumped whenever the planes or the action indices change meaning; a checkpoint
            of another version refuses to load.
        shape: ``(C, H, W)`` of :meth:`encode`.
        num_actions: the size of the policy vector.
        game_params: the game's parameters that change the planes or the action indices (board
            size), recorded by a checkpoint; ``{}`` for most games.
    """

    game_name: str
    version: int
    shape: tuple[int, int, int]
    num_actions: int
    game_params: Mapping[str, Any]

    def encode(self, state: Any) -> np.ndarray:
        """``float32 [C, H, W]`` planes, from the point of view of the player to move."""
        ...

    def encode_batch(self, states: Sequence[Any]) -> np.ndarray:
        """``float32 [B, C, H, W]``: :meth:`encode` of every state."""
        ...

    def action_to_index(self, state: Any, action: int) -> int:
        """The policy index of the game's ``action`` in ``state``."""
        ...

    def index_to_action(self, state: Any, index: int) -> int:
        """The game's action of policy index ``index`` in ``state``."""
        ...

    def legal_mask(self, state: Any) -> np.ndarray:
        """``bool [num_actions]``: true at the indices of ``state.legal_actions()``."""
        ...

    def symmetries(self) -> list[Symmetry]:
        """The board's symmetries, identity first."""
        ...


def input_features(encoder: Any) -> tuple[str | None, str | None]:
    """``(features, default)`` of an encoder that offers a choice of input planes (a
    ``features`` name among its ``FEATURES``, the first being the default, and
    ``with_features(name)``, as Connect Four's), else ``(None, None)``. A checkpoint records
    the name and loads with it; it is not part of :class:`Encoder`, which games without a
    choice need not know of.

    >>> from searchlab.learning.networks.encoders import Connect4Encoder
    >>> input_features(Connect4Encoder(features="threats")), input_features(object())
    (('threats', 'stones'), (None, None))
    """
    features = getattr(encoder, "features", None)
    choices = getattr(encoder, "FEATURES", ())
    if not isinstance(features, str) or not choices:
        return None, None
    return features, str(choices[0])


class BaseEncoder:
    """The common parts of an encoder: subclass it, set ``game_name``, ``shape`` and
    ``num_actions`` (class attributes or in ``__init__``), and write :meth:`encode`.

    Defaults: ``version`` 1, ``game_params`` ``{}``, action index = action (checked against
    ``num_actions``), ``legal_mask`` from ``state.legal_actions()``, ``encode_batch`` stacks
    ``encode``, and the identity as the only symmetry.
    """

    game_name: str
    shape: tuple[int, int, int]
    num_actions: int
    version: int = 1
    game_params: Mapping[str, Any] = {}  # read-only by convention

    def encode(self, state: Any) -> np.ndarray:
        """``float32 [C, H, W]`` planes of ``state`` for its player to move."""
        raise NotImplementedError(f"{type(self).__name__} must define encode(state)")

    def encode_batch(self, states: Sequence[Any]) -> np.ndarray:
        """``float32 [B, C, H, W]``: the planes of every state (an empty batch has B = 0)."""
        if not states:
            return np.zeros((0, *self.shape), dtype=np.float32)
        return np.stack([self.encode(state) for state in states])

    @property
    def actions_are_indices(self) -> bool:
        """The index of every action is the action itself (this class's
        :meth:`action_to_index`, not overridden): a search may skip the call per action."""
        return type(self).action_to_index is BaseEncoder.action_to_index

    def action_to_index(self, state: Any, action: int) -> int:
        """The action itself; ``IllegalMoveError`` outside ``0..num_actions-1``."""
        if not 0 <= action < self.num_actions:
            raise IllegalMoveError(
                f"{self.game_name}: action {action!r} has no policy index "
                f"(0..{self.num_actions - 1})"
            )
        return int(action)

    def index_to_action(self, state: Any, index: int) -> int:
        """The index itself; ``InvalidParameterError`` outside ``0..num_actions-1``."""
        if not 0 <= index < self.num_actions:
            raise InvalidParameterError(
                f"{self.game_name}: policy index {index!r} is outside 0..{self.num_actions - 1}"
            )
        return int(index)

    def legal_mask(self, state: Any) -> np.ndarray:
        """``bool [num_actions]``, true at the index of every legal action."""
        mask = np.zeros(self.num_actions, dtype=bool)
        for action in state.legal_actions():
            mask[self.action_to_index(state, action)] = True
        return mask

    def symmetries(self) -> list[Symmetry]:
        """The identity only (override for a board with symmetries)."""
        return [identity_symmetry(self.shape[1], self.shape[2], self.num_actions)]

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.game_params.items())
        return f"{type(self).__name__}({self.game_name!r}{params}, shape={self.shape})"
