"""The arena's SQLite file: every finished game, committed as soon as it ends.

Schema (version 1)::

    PRAGMA application_id = 0x534C4152   -- "SLAR": a searchlab arena file
    PRAGMA user_version   = 1            -- the schema version
    meta(key TEXT PRIMARY KEY, value TEXT)   -- ('format', 'searchlab-arena'), ('created', ...)
    games(id INTEGER PRIMARY KEY, job_key TEXT UNIQUE, game, first, second, seed, opening,
          moves, movers, move_times, result, plies, termination, error, created)

``opening``, ``moves`` and ``move_times`` are JSON lists (notation strings; seconds),
``movers`` a string of ``0``/``1`` (who made each move), ``result`` is ``1-0``, ``0-1`` or
``1/2-1/2`` from the first player's side.

Matches (games played in halves with a match rule, such as Snake Go; arena/matches.py) add
two tables to the same schema version (older versions ignore them)::

    halves(job_key TEXT PRIMARY KEY -> games, match_key, half (1, 2; 0: not a half),
           game_seed, final)             -- final: the half as its match rule summarises it
    matches(id INTEGER PRIMARY KEY, match_key TEXT UNIQUE, game, first, second, first_half,
            second_half, winner, reason, halves_won, total_scores, created)

A game with a seed of its own or a match rule gets a ``halves`` row in the transaction that
stores it; the second half of a match also gets its ``matches`` row there (decided by
:func:`~searchlab.arena.matches.decide_records`), so a match is stored exactly when both its
halves are. A file written before these tables existed gets them with its first such game.

Opening a file that exists checks, read-only and before anything is written, that it is a
searchlab arena file of a schema this version knows and that SQLite finds it intact; any other
file (not SQLite, another program's database, a newer schema, a truncated or damaged file)
raises :class:`ArenaDatabaseError` naming the file and what is wrong, and is never written to.
An empty (0-byte) file counts as new. Only the parent process writes; each game is its own
transaction, so a killed tournament loses at most the games still being played, and the unique
job key keeps a game from being stored twice.

>>> from searchlab.arena.worker import GameRecord
>>> record = GameRecord("k1", "nim", "random", "greedy", 5, (), ("1:3",), (0,), (0.001,),
...                     "1-0", "end")
>>> with ArenaStore.open(":memory:") as store:
...     store.add(record), store.add(record), store.keys(), store.records()[0] == record
(True, False, {'k1'}, True)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from searchlab.arena.matches import MatchRecord, decide_records
from searchlab.arena.worker import RESULTS, GameRecord
from searchlab.core.closing import Closing
from searchlab.core.errors import InvalidParameterError, SearchlabError

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "ArenaDatabaseError", "ArenaStore"]

APPLICATION_ID = 0x534C4152  # "SLAR"
SCHEMA_VERSION = 1
FORMAT = "searchlab-arena"
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    job_key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    seed INTEGER NOT NULL,
    opening TEXT NOT NULL,
    moves TEXT NOT NULL,
    movers TEXT NOT NULL,
    move_times TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    plies INTEGER NOT NULL,
    termination TEXT NOT NULL,
    error TEXT,
    created TEXT NOT NULL
);
CREATE INDEX games_by_game ON games (game);
"""

# The tables of matches (games played as halves of matches, see arena/matches.py). Added to
# schema version 1 without changing it: older versions ignore them (and never store a game
# that has a match rule), so files stay readable both ways. New files get them at creation,
# older files when their first half is stored (never before: an old file is left as it was).
_MATCH_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS halves (
    job_key TEXT PRIMARY KEY REFERENCES games (job_key),
    match_key TEXT,
    half INTEGER NOT NULL CHECK (half IN (0, 1, 2)),
    game_seed INTEGER,
    final TEXT
)""",
    "CREATE INDEX IF NOT EXISTS halves_by_match ON halves (match_key)",
    """CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    match_key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    first_half TEXT NOT NULL REFERENCES games (job_key),
    second_half TEXT NOT NULL REFERENCES games (job_key),
    winner TEXT NOT NULL,
    reason TEXT NOT NULL,
    halves_won TEXT NOT NULL,
    total_scores TEXT NOT NULL,
    created TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS matches_by_game ON matches (game)",
)

_HALF_COLUMNS = "match_key, half, game_seed, final"
_MATCH_COLUMNS = (  # MatchRecord's fields in order (its tuples stored as JSON lists)
    "match_key, game, first, second, first_half, second_half, winner, reason, halves_won, "
    "total_scores"
)

_COLUMNS = (
    "job_key, game, first, second, seed, opening, moves, movers, move_times, result, plies, "
    "termination, error, created"
)


class ArenaDatabaseError(SearchlabError, ValueError):
    """A file given as the arena database is not one this version can use (left unchanged)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ArenaStore(Closing):
    """The games of one arena file. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._connection = connection
        self.path = path
        self._has_match_tables = _has_table(connection, "halves")

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> ArenaStore:
        """Open (or create) the arena file at ``path``; ``":memory:"`` keeps it in memory.

        Raises :class:`ArenaDatabaseError` for a file that is not a searchlab arena database
        of a known schema, or that is damaged; the file is not written to.
        """
        name = str(path)
        if name == ":memory:":
            return cls._create(sqlite3.connect(":memory:"), name)
        file = Path(path)
        if file.is_dir():
            raise ArenaDatabaseError(f"arena database {name}: is a directory, not a file")
        if file.exists() and not file.is_file():
            raise ArenaDatabaseError(
                f"arena database {name}: not a regular file (a device, a pipe or a socket)"
            )
        if file.exists() and file.stat().st_size > 0:
            _check_existing(file)
            return cls(_connect(file), name)
        if not file.parent.is_dir():
            raise ArenaDatabaseError(
                f"arena database {name}: folder {str(file.parent)!r} does not exist"
            )
        return cls._create(_connect(file), name)

    @classmethod
    def _create(cls, connection: sqlite3.Connection, name: str) -> ArenaStore:
        """Write the schema to a new (or empty) file; a file SQLite cannot write (read-only,
        on a read-only file system, such as an empty file of ``/proc``) is one line."""
        try:
            with connection:
                connection.executescript(_SCHEMA)
                for statement in _MATCH_SCHEMA:
                    connection.execute(statement)
                connection.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [("format", FORMAT), ("created", _now())],
                )
        except sqlite3.Error as error:
            connection.close()
            raise ArenaDatabaseError(
                f"arena database {name}: cannot create it ({_one_line(error)})"
            ) from None
        return cls(connection, name)

    # -- writing -----------------------------------------------------------------------------
    def add(self, record: GameRecord) -> bool:
        """Store ``record`` and commit; ``False`` (nothing written) when its key is stored."""
        row = (
            record.key,
            record.game,
            record.first,
            record.second,
            record.seed,
            json.dumps(list(record.opening)),
            json.dumps(list(record.moves)),
            "".join(str(mover) for mover in record.movers),
            json.dumps(list(record.move_times)),
            record.result,
            record.plies,
            record.termination,
            record.error,
            _now(),
        )
        extras = record.match_key is not None or record.game_seed is not None
        if extras and not self._has_match_tables:
            with self._damage_reported(), self._connection:
                for statement in _MATCH_SCHEMA:
                    self._connection.execute(statement)
            self._has_match_tables = True
        with self._damage_reported(), self._connection:
            cursor = self._connection.execute(
                f"INSERT OR IGNORE INTO games ({_COLUMNS}) VALUES ({', '.join('?' * 14)})", row
            )
            added = cursor.rowcount == 1
            if added and extras:
                self._connection.execute(
                    f"INSERT INTO halves (job_key, {_HALF_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                    (record.key, record.match_key, record.half, record.game_seed, record.final),
                )
                if record.match_key is not None:
                    self._complete_match(record.match_key)
        return added

    def _complete_match(self, key: str) -> None:
        """Decide and store match ``key`` when both its halves are stored (in the caller's
        transaction, so a match is stored exactly when its second half is)."""
        halves = self._select_records(" WHERE h.match_key = ? ORDER BY h.half", (key,))
        if [half.half for half in halves] != [1, 2]:
            return
        try:
            match = decide_records(halves[0], halves[1])
        except InvalidParameterError as problem:
            raise ArenaDatabaseError(f"arena database {self.path}: {problem}") from None
        row = [json.dumps(list(v)) if isinstance(v, tuple) else v for v in astuple(match)]
        self._connection.execute(
            f"INSERT OR IGNORE INTO matches ({_MATCH_COLUMNS}, created) "
            f"VALUES ({', '.join('?' * 11)})",
            (*row, _now()),
        )

    # -- reading -----------------------------------------------------------------------------
    def keys(self) -> set[str]:
        """The job keys of every stored game."""
        with self._damage_reported():
            return {key for (key,) in self._connection.execute("SELECT job_key FROM games")}

    def count(self, game: str | None = None) -> int:
        """How many games are stored (of ``game`` only, when given)."""
        with self._damage_reported():
            if game is None:
                (n,) = self._connection.execute("SELECT COUNT(*) FROM games").fetchone()
            else:
                (n,) = self._connection.execute(
                    "SELECT COUNT(*) FROM games WHERE game = ?", (game,)
                ).fetchone()
        return int(n)

    def records(self, game: str | None = None) -> list[GameRecord]:
        """The stored games (of ``game`` only, when given), in the order they were stored."""
        with self._damage_reported():
            if game is None:
                return self._select_records(" ORDER BY g.id", ())
            return self._select_records(" WHERE g.game = ? ORDER BY g.id", (game,))

    def _select_records(self, where: str, values: tuple) -> list[GameRecord]:
        columns = ", ".join(f"g.{name.strip()}" for name in _COLUMNS.split(","))
        if self._has_match_tables:
            extra = ", ".join(f"h.{name.strip()}" for name in _HALF_COLUMNS.split(","))
            query = (
                f"SELECT {columns}, {extra} FROM games g "
                f"LEFT JOIN halves h ON h.job_key = g.job_key{where}"
            )
        else:
            query = f"SELECT {columns}, NULL, 0, NULL, NULL FROM games g{where}"
        return [self._record(row) for row in self._connection.execute(query, values)]

    def matches(self, game: str | None = None) -> list[MatchRecord]:
        """The stored matches (of ``game`` only, when given), in the order they were decided."""
        if not self._has_match_tables:
            return []
        query = f"SELECT {_MATCH_COLUMNS} FROM matches"
        with self._damage_reported():
            rows = (
                self._connection.execute(query + " ORDER BY id")
                if game is None
                else self._connection.execute(query + " WHERE game = ? ORDER BY id", (game,))
            )
            return [self._match(row) for row in rows]

    def _match(self, row: tuple) -> MatchRecord:
        key, halves, scores = row[0], row[8], row[9]
        try:
            halves_won = tuple(int(n) for n in json.loads(halves))
            total_scores = tuple(int(n) for n in json.loads(scores))
            if len(halves_won) != 2 or len(total_scores) != 2:
                raise ValueError("two agents")
        except (TypeError, ValueError) as problem:
            raise ArenaDatabaseError(
                f"arena database {self.path}: match {key!r} is damaged ({problem})"
            ) from None
        pairs = (halves_won[0], halves_won[1]), (total_scores[0], total_scores[1])
        return MatchRecord(*row[:8] + pairs)  # the columns are its fields, in order

    @contextmanager
    def _damage_reported(self) -> Iterator[None]:
        """SQLite finding damage while reading or writing (undecodable text, a bad page):
        one ``ArenaDatabaseError`` line, not a traceback."""
        try:
            yield
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            raise ArenaDatabaseError(
                f"arena database {self.path}: damaged SQLite file ({_one_line(error)})"
            ) from None

    def _record(self, row: tuple) -> GameRecord:
        key, game, first, second, seed, opening, moves, movers, times, result, *_ = row
        termination, error = row[11], row[12]
        match_key, half, game_seed, final = row[14:18]
        try:
            record = GameRecord(
                key=key,
                game=game,
                first=first,
                second=second,
                seed=int(seed),
                opening=tuple(json.loads(opening)),
                moves=tuple(json.loads(moves)),
                movers=tuple(int(mover) for mover in movers),
                move_times=tuple(float(t) for t in json.loads(times)),
                result=result,
                termination=termination,
                error=error,
                game_seed=None if game_seed is None else int(game_seed),
                match_key=match_key,
                half=int(half or 0),
                final=final,
            )
        except (TypeError, ValueError) as problem:
            raise ArenaDatabaseError(
                f"arena database {self.path}: game {key!r} is damaged ({problem})"
            ) from None
        if result not in RESULTS:  # pragma: no cover - the CHECK constraint forbids it
            raise ArenaDatabaseError(f"arena database {self.path}: game {key!r}: bad result")
        return record

    # -- closing -----------------------------------------------------------------------------
    def close(self) -> None:
        """Close the file (every game is already committed)."""
        self._connection.close()


def _connect(file: Path) -> sqlite3.Connection:
    try:
        connection = sqlite3.connect(file)
        # A killed process loses no committed game at NORMAL; only a power cut could.
        connection.execute("PRAGMA synchronous = NORMAL")
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise ArenaDatabaseError(
            f"arena database {file}: cannot open ({_one_line(error)})"
        ) from None
    return connection


def _check_existing(file: Path) -> None:
    """Raise ``ArenaDatabaseError`` unless ``file`` is an intact searchlab arena database of a
    schema version this code reads. Reads only (SQLite may roll back a hot journal that a
    killed arena left in its own file)."""
    where = f"arena database {file}"
    with open(file, "rb") as handle:
        header = handle.read(100)
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise ArenaDatabaseError(f"{where}: not an SQLite file (left unchanged)")
    # The header holds the application id (offset 68) and user_version (60): read them raw,
    # so that another program's file is never opened for writing.
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise ArenaDatabaseError(
            f"{where}: an SQLite database of another program, not a searchlab arena file "
            f"({_table_names(file)}; left unchanged)"
        )
    version = int.from_bytes(header[60:64], "big")
    if version > SCHEMA_VERSION:
        raise ArenaDatabaseError(
            f"{where}: written by a newer searchlab (schema version {version}; this version "
            f"reads up to {SCHEMA_VERSION}; left unchanged)"
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    header_size_valid = header[24:28] == header[92:96] and pages > 0
    size = file.stat().st_size
    if page_size < 512 or size % page_size or (header_size_valid and size < pages * page_size):
        raise ArenaDatabaseError(
            f"{where}: damaged SQLite file (truncated: {size} bytes; left unchanged)"
        )
    journal = file.with_name(file.name + "-journal")
    has_hot_journal = journal.exists() and journal.stat().st_size > 0
    try:
        connection = (
            sqlite3.connect(file)  # our own file: let SQLite roll back the killed transaction
            if has_hot_journal
            else sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro", uri=True)
        )
        try:
            _check_schema(connection, where, version)
            # integrity_check, not quick_check: it also finds an index that disagrees with its
            # table (job keys missing from the index, found by fuzzing)
            verdicts = [row[0] for row in connection.execute("PRAGMA integrity_check(3)")]
        finally:
            connection.close()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
        raise ArenaDatabaseError(
            f"{where}: damaged SQLite file ({_one_line(error)}; left unchanged)"
        ) from None
    if verdicts != ["ok"]:
        raise ArenaDatabaseError(
            f"{where}: damaged SQLite file ({_one_line('; '.join(map(str, verdicts)))}; "
            "left unchanged)"
        )


def _one_line(text: object) -> str:
    """``text`` on one line (SQLite's integrity reports span several)."""
    return " ".join(str(text).split())


def _table_names(file: Path) -> str:
    """The first tables of another program's database, read-only, for the error message."""
    try:
        connection = sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro", uri=True)
        try:
            names = [name for (name,) in connection.execute("SELECT name FROM sqlite_master")]
        finally:
            connection.close()
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return "unreadable"
    return "tables: " + ", ".join(names[:5]) if names else "no tables"


def _has_table(connection: sqlite3.Connection, name: str) -> bool:
    try:
        row = connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
    except sqlite3.DatabaseError:
        return False
    return row is not None


def _check_schema(connection: sqlite3.Connection, where: str, version: int) -> None:
    try:
        row = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        connection.execute(f"SELECT {_COLUMNS} FROM games LIMIT 0")
        if _has_table(connection, "halves") or _has_table(connection, "matches"):
            connection.execute(f"SELECT job_key, {_HALF_COLUMNS} FROM halves LIMIT 0")
            connection.execute(f"SELECT {_MATCH_COLUMNS} FROM matches LIMIT 0")
    except sqlite3.OperationalError as error:
        raise ArenaDatabaseError(
            f"{where}: a searchlab arena file with a damaged schema ({error}; left unchanged)"
        ) from None
    if version < 1 or row is None or row[0] != FORMAT:
        raise ArenaDatabaseError(
            f"{where}: a searchlab arena file with a damaged schema (version {version}, "
            f"format {row[0] if row else None!r}; left unchanged)"
        )
