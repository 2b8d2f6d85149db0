"""Expert games of Go that no one here wrote: a folder of SGF records read, checked and split.

The folder is any collection of SGF files (``*.sgf``, not its subfolders): the games that
``searchlab expert go`` has GNU Go play (:mod:`~searchlab.learning.alphago.go_expert`), or a
person's own collection of human games. :func:`load_expert_games` reads every record through
:mod:`~searchlab.domains.games.go.sgf` (each move replayed by searchlab's Go rules) and returns an
:class:`ExpertSplit`: the games to learn from (``train``) and a part held out for measuring
(``held_out``).

**Bad input is one line naming the file.** A record that is not SGF, or whose moves are illegal
(:class:`~searchlab.domains.games.go.sgf.SgfFormatError`: ``FILE:LINE:COLUMN``), or that is a game
on another board size than asked (:class:`ExpertGameError`), stops the reading with that line
(``skip_bad=False``, the default: a folder of data should not be quietly smaller than it looks);
``skip_bad=True`` leaves such files out and reports each one's line in ``ExpertSplit.skipped``.

**The split is by the game, not by the file's place.** A game's :func:`game_key` is a SHA-256 of
its board size and its moves (the same game in two files has the same key); it is held out when
the first eight bytes of SHA-256 of ``seed`` and the key, read as a fraction of 2^64, fall below
``holdout``. So the split is the same on every machine, whatever the files are called or the
order they are listed in; a game added later does not move any other game between the parts;
and a game stored twice is in one part only. The parts are disjoint and, with ``holdout`` 0.1,
about a tenth of the games are held out (exactly, as the folder grows).

>>> import tempfile
>>> from pathlib import Path
>>> from searchlab.domains.games.go import Go
>>> from searchlab.domains.games.go.sgf import write_sgf
>>> folder = Path(tempfile.mkdtemp())
>>> state = Go(9, komi=7.5).initial_state()
>>> for vertex in ["E5", "C3", "pass", "pass"]:
...     state = state.apply(state.string_to_action(vertex))
>>> _ = (folder / "one.sgf").write_text(write_sgf(state, metadata={"RE": "B+74.5"}))
>>> split = load_expert_games(folder, holdout=0.0)
>>> len(split.train), len(split.held_out), split.train[0].winner
(1, 0, 0)
>>> [(s.current_player(), s.action_to_string(m), z) for s, m, z in split.train[0].positions()][:2]
[(0, 'E5', 1), (1, 'C3', -1)]
>>> _ = (folder / "big.sgf").write_text("(;GM[1]SZ[13];B[aa])")
>>> load_expert_games(folder)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.learning.alphago.expert_games.ExpertGameError: .../big.sgf: a 13x13 game, not 9x9 (...)
>>> len(load_expert_games(folder, skip_bad=True, holdout=0.0).skipped)
1
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from searchlab.core.checks import check_number
from searchlab.core.errors import SearchlabError
from searchlab.domains.games.go.sgf import SgfFormatError, load_sgf

if TYPE_CHECKING:
    from searchlab.domains.games.go import GoState
    from searchlab.domains.games.go.sgf import SgfGame

__all__ = [
    "ExpertGame",
    "ExpertGameError",
    "ExpertSplit",
    "game_key",
    "is_held_out",
    "load_expert_games",
    "read_expert_game",
    "winner_of",
]


_RANDOM_OPENING = re.compile(r"^searchlab expert go: .*\bopening=(\d+)\b")


class ExpertGameError(SearchlabError, ValueError):
    """A record of the expert folder that cannot be used (one line naming the file)."""


def game_key(size: int, moves: Sequence[str]) -> str:
    """The game's identity: SHA-256 (hex) of the board size and the moves in GTP notation
    (``pass`` for a pass). The generator names its files by it, so a game is stored once.

    >>> game_key(9, ["E5", "pass"]) == hashlib.sha256(b"9:E5 PASS").hexdigest()
    True
    >>> game_key(9, ["E5", "pass"]) == game_key(9, ["e5", "PASS"])
    True
    """
    text = f"{size}:" + " ".join(move.upper() for move in moves)
    return hashlib.sha256(text.encode()).hexdigest()


def is_held_out(key: str, holdout: float, seed: int = 0) -> bool:
    """Whether the game with ``key`` is held out for measuring (see the module docstring).

    >>> is_held_out("abc", 0.0), is_held_out("abc", 1.0)
    (False, True)
    """
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < holdout * 2.0**64


def winner_of(result: str) -> int | None:
    """The winner an SGF ``RE`` value names: 0 (black, ``B+...``), 1 (white, ``W+...``), or
    ``None`` (a draw ``0``, a void or unknown result, none at all).

    >>> winner_of("B+R"), winner_of("W+0.5"), winner_of("0"), winner_of("?")
    (0, 1, None, None)
    """
    text = result.strip().upper()
    if text.startswith("B+"):
        return 0
    if text.startswith("W+"):
        return 1
    return None


@dataclass(frozen=True, slots=True)
class ExpertGame:
    """One expert game: ``name`` (the file's name), ``record`` (the game as read, every state
    of its main line), ``key`` (:func:`game_key`), ``winner`` (0 black, 1 white, ``None``: no
    winner given, see :func:`winner_of`), ``opening`` (how many first moves were drawn at
    random, not chosen by the expert: the ``opening=N`` of the ``SO`` that ``searchlab expert
    go`` writes; 0 for any other record)."""

    name: str
    record: SgfGame
    key: str
    winner: int | None
    opening: int = 0

    @property
    def moves(self) -> tuple[int, ...]:
        """The game's actions (a pass is the game's ``pass_action``)."""
        return self.record.moves

    def positions(self) -> Iterator[tuple[GoState, int, int]]:
        """``(state, move, outcome)`` for each move the expert chose (the random ``opening``
        left out): the position, the expert's move there and the game's outcome for the player
        to move (+1 won, -1 lost, 0 no winner)."""
        pairs = zip(self.record.states, self.moves, strict=False)
        for state, move in itertools.islice(pairs, self.opening, None):
            mover = state.current_player()
            outcome = 0 if self.winner is None else (1 if self.winner == mover else -1)
            yield state, move, outcome


@dataclass(frozen=True, slots=True)
class ExpertSplit:
    """The games of an expert folder: ``train`` and ``held_out`` (disjoint, each in file-name
    order), and ``skipped``: one line for each file left out (``skip_bad=True``)."""

    train: tuple[ExpertGame, ...]
    held_out: tuple[ExpertGame, ...]
    skipped: tuple[str, ...] = ()


def read_expert_game(path: str | Path, *, size: int = 9) -> ExpertGame:
    """The expert game in the SGF file ``path``. A malformed record or illegal move raises
    :class:`~searchlab.domains.games.go.sgf.SgfFormatError`, a game on another board than
    ``size`` x ``size`` :class:`ExpertGameError`: each one line naming the file."""
    record = load_sgf(path)
    found = record.game.size
    if found != size:
        raise ExpertGameError(
            f"{path}: a {found}x{found} game, not {size}x{size} (the size the games are read "
            "for; move it out of the folder, or skip such files)"
        )
    final = record.final
    notation = [final.action_to_string(action) for action in record.moves]
    key = game_key(size, notation)
    winner = winner_of(record.metadata.get("RE", ""))
    random = _RANDOM_OPENING.match(record.metadata.get("SO", ""))
    opening = min(int(random.group(1)), len(notation)) if random is not None else 0
    return ExpertGame(Path(path).name, record, key, winner, opening)


def load_expert_games(
    folder: str | Path,
    *,
    size: int = 9,
    holdout: float = 0.1,
    seed: int = 0,
    skip_bad: bool = False,
) -> ExpertSplit:
    """Read every ``*.sgf`` file of ``folder`` and split the games into ``train`` and
    ``held_out`` (see the module docstring). A folder that does not exist, or holds no SGF
    file, is one line (:class:`ExpertGameError`)."""
    check_number(holdout, "holdout", owner="load_expert_games", low=0.0, high=1.0)
    where = Path(folder)
    if not where.is_dir():
        raise ExpertGameError(f"{where}: no such folder of expert games")
    paths = sorted(path for path in where.glob("*.sgf") if path.is_file())
    if not paths:
        raise ExpertGameError(f"{where}: no SGF file (*.sgf) in the folder")
    train: list[ExpertGame] = []
    held_out: list[ExpertGame] = []
    skipped: list[str] = []
    for path in paths:
        try:
            game = read_expert_game(path, size=size)
        except (SgfFormatError, ExpertGameError) as error:
            if not skip_bad:
                raise
            skipped.append(str(error))
            continue
        (held_out if is_held_out(game.key, holdout, seed) else train).append(game)
    return ExpertSplit(tuple(train), tuple(held_out), tuple(skipped))
