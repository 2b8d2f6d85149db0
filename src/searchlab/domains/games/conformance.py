"""The conformance harness: seeded random playouts that check a game keeps the protocol's
invariants. Every registered game passes it; run it on your own game the same way.

Checked at every state of every playout:

* the game's :class:`~searchlab.core.game.GameInfo` asks for what the algorithms need (two
  players, zero-sum, deterministic, perfect information);
* ``current_player()`` is 0 or 1; ``legal_actions()`` are distinct non-negative ints, non-empty
  exactly when the state is not terminal;
* ``returns()`` has one entry per player, sums to 0 at terminal states, is all zero before;
* ``key()`` is hashable, and equal keys (met anywhere in the playouts) have the same player to
  move, terminal flag and legal actions;
* ``str(state)`` is a non-empty string; ``action_to_string`` and ``string_to_action`` round-trip
  every legal action; ``string_to_action`` rejects garbage with ``IllegalMoveError``;
* ``apply`` leaves the state it was called on unchanged, is deterministic (the same action twice
  gives equal keys), and raises ``IllegalMoveError`` for an illegal action and on a terminal
  state;
* a playout ends within ``info.max_game_length`` plies (when declared) or ``max_plies``.

>>> from searchlab.domains.games.nim import Nim
>>> report = check_game(Nim((2, 3)), num_playouts=5, seed=1)
>>> report.ok, report.playouts, report.failures
(True, 5, [])
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from searchlab.core.errors import IllegalMoveError, SearchlabError
from searchlab.core.game import Game, GameInfo, State

__all__ = ["ConformanceError", "ConformanceReport", "assert_conforms", "check_game"]


class ConformanceError(SearchlabError, AssertionError):
    """A game broke the protocol; the message lists the failures."""


@dataclass(slots=True)
class ConformanceReport:
    """What the harness saw: playouts run, states checked, failures (empty when conforming)."""

    game: str
    playouts: int = 0
    states: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no invariant was broken."""
        return not self.failures


def assert_conforms(game: Game, *, num_playouts: int = 20, seed: int = 0) -> ConformanceReport:
    """Run :func:`check_game` and raise :class:`ConformanceError` listing the failures."""
    report = check_game(game, num_playouts=num_playouts, seed=seed)
    if not report.ok:
        shown = "; ".join(report.failures[:5])
        more = f" (and {len(report.failures) - 5} more)" if len(report.failures) > 5 else ""
        raise ConformanceError(f"{report.game} breaks the game protocol: {shown}{more}")
    return report


def check_game(
    game: Game,
    *,
    num_playouts: int = 20,
    seed: int = 0,
    max_plies: int = 10_000,
    max_failures: int = 20,
) -> ConformanceReport:
    """Play ``num_playouts`` random games (``random.Random(seed)``) and check every state.

    Stops collecting after ``max_failures`` failures. Never raises for a broken game (see
    :func:`assert_conforms`); exceptions the game raises become failures.
    """
    info = getattr(game, "info", None)
    report = ConformanceReport(game=getattr(info, "name", type(game).__name__))
    if not isinstance(info, GameInfo):
        report.failures.append("game.info is not a GameInfo")
        return report
    for flag in ("zero_sum", "deterministic", "perfect_information"):
        if not getattr(info, flag):
            report.failures.append(f"info.{flag} is False")
    if info.num_players != 2:
        report.failures.append(f"info.num_players is {info.num_players}, not 2")
    limit = info.max_game_length if info.max_game_length is not None else max_plies
    rng = random.Random(seed)
    seen: dict[Hashable, tuple[Any, ...]] = {}
    for playout in range(num_playouts):
        report.playouts += 1
        try:
            _playout(game, rng, limit, seen, report, f"playout {playout}")
        except Exception as error:  # a broken game may raise anything: report, don't crash
            report.failures.append(f"playout {playout}: {type(error).__name__}: {error}")
        if len(report.failures) >= max_failures:
            break
    return report


def _playout(
    game: Game,
    rng: random.Random,
    limit: int,
    seen: dict[Hashable, tuple[Any, ...]],
    report: ConformanceReport,
    where: str,
) -> None:
    state = game.initial_state()
    if not isinstance(state, State):
        report.failures.append(f"{where}: the initial state lacks State protocol methods")
        return
    history: list[int] = []
    for ply in range(limit + 1):
        report.states += 1
        here = f"{where} after {history}"
        actions = _check_state(state, here, seen, report)
        if state.is_terminal():
            _check_terminal_apply(state, here, report)
            return
        if ply == limit:
            break
        action = rng.choice(actions)
        before_key, before_text = state.key(), str(state)
        child = state.apply(action)
        if state.key() != before_key or str(state) != before_text:
            report.failures.append(f"{here}: apply({action}) changed the state it was called on")
        if state.apply(action).key() != child.key():
            report.failures.append(f"{here}: apply({action}) is not deterministic")
        _check_illegal(state, actions, here, report)
        history.append(action)
        state = child
    report.failures.append(f"{where}: no end after {limit} plies (max_game_length)")


def _check_state(
    state: State, here: str, seen: dict[Hashable, tuple[Any, ...]], report: ConformanceReport
) -> list[int]:
    fail = report.failures.append
    player = state.current_player()
    if player not in (0, 1):
        fail(f"{here}: current_player() is {player!r}")
    actions = list(state.legal_actions())
    terminal = state.is_terminal()
    if any(isinstance(a, bool) or not isinstance(a, int) or a < 0 for a in actions):
        fail(f"{here}: legal_actions() are not all non-negative ints: {actions}")
    if len(set(actions)) != len(actions):
        fail(f"{here}: legal_actions() repeats an action: {actions}")
    if terminal == bool(actions):
        fail(f"{here}: is_terminal() is {terminal} but legal_actions() is {actions}")
    returns = tuple(state.returns())
    if len(returns) != 2:
        fail(f"{here}: returns() has {len(returns)} entries, not 2")
    elif terminal and abs(sum(returns)) > 1e-9:
        fail(f"{here}: returns() {returns} do not sum to 0")
    elif not terminal and any(returns):
        fail(f"{here}: returns() {returns} before the end of the game")
    key = state.key()
    hash(key)
    signature = (player, terminal, tuple(sorted(actions)))
    if seen.setdefault(key, signature) != signature:
        fail(f"{here}: key {key!r} also names a position with different moves or player")
    text = str(state)
    if not isinstance(text, str) or not text:
        fail(f"{here}: str(state) is empty")
    for action in actions:
        notation = state.action_to_string(action)
        if not isinstance(notation, str) or state.string_to_action(notation) != action:
            fail(f"{here}: action {action} -> {notation!r} does not parse back")
    try:
        state.string_to_action("#not a move#")
        fail(f"{here}: string_to_action('#not a move#') did not raise")
    except IllegalMoveError:
        pass
    return actions


def _check_illegal(state: State, actions: list[int], here: str, report: ConformanceReport) -> None:
    illegal = max(actions) + 1
    while illegal in actions:  # pragma: no cover - max + 1 is never legal
        illegal += 1
    for action in (-1, illegal):
        if action in actions:
            continue
        try:
            state.apply(action)
        except IllegalMoveError:
            continue
        report.failures.append(f"{here}: apply({action}) of an illegal action did not raise")


def _check_terminal_apply(state: State, here: str, report: ConformanceReport) -> None:
    try:
        state.apply(0)
    except IllegalMoveError:
        return
    report.failures.append(f"{here}: apply(0) on a terminal state did not raise")
