"""Go's final count: the dead stones settled by play-outs, then Tromp-Taylor area with komi.

Area scoring counts the stones on the board, so stones that are dead but not yet captured
would count for their owner. At the end of a game (two passes, or the move limit)
:func:`settle_by_playouts` settles them: Monte Carlo play-outs from the final position, the
eye-avoiding random games of the engine's rollouts; a chain that ends as the opponent's area in
most of them is dead and removed before the count. Quick (about a second on 9x9) and the same
for every engine; a seki may be judged either way. ``searchlab play go`` scores its games so by
default, and so does the browser lab's Play page; :class:`Settlement` is the report (the dead
stones, the settled board, the score) either way, also when ``play --settle SPEC`` lets an
engine play the settling moves (:func:`searchlab.agents.go_settle.settle_by_engine`).

>>> from searchlab.domains.games.go import Go
>>> final = Go(5, komi=0.5).position(black=["C1", "C2", "C3", "C4", "C5"], white=["D3"])
>>> report = settle_by_playouts(final, playouts=40)
>>> report.dead, report.score, result_of_score(report.score)
(([], ['D3']), 24.5, 'B+24.5')
"""

from __future__ import annotations

from dataclasses import dataclass

from searchlab.domains.games.go import GoState, area, chains, empty_regions

__all__ = ["Settlement", "default_playouts", "owners", "result_of_score", "settle_by_playouts"]


def result_of_score(score: float) -> str:
    """SGF's ``RE`` of an area score (black - white - komi): ``B+3.5``, ``W+0.5``, ``0``.

    >>> result_of_score(3.5), result_of_score(-0.5), result_of_score(0.0)
    ('B+3.5', 'W+0.5', '0')
    """
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):g}"


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a game scored with its dead stones settled.

    Attributes:
        final: the game's last position.
        settled: the position after the play-out (of a game with ``scoring="area"``).
        moves: the play-out's moves in notation (both sides; empty without a play-out).
        dead: the vertices of the black and of the white stones judged dead (captured in the
            play-out, or removed by the play-outs' verdict).
        settler: who settled them: an agent spec, ``"N random play-outs"``, ``""`` for none.
    """

    final: GoState
    settled: GoState
    moves: tuple[str, ...]
    dead: tuple[list[str], list[str]]
    settler: str

    @property
    def score(self) -> float:
        """Area score of the settled board: black - white - komi."""
        return self.settled.area_score()

    def lines(self) -> list[str]:
        """What was settled and the score, for people."""
        size = self.final.game.size
        black, white = area(self.settled.board, size)
        komi = self.final.game.komi
        out = []
        if not self.settler:
            out.append("dead stones not settled: the board is scored as it stands")
        elif self.moves:
            shown = " ".join(self.moves[:30]) + (" ..." if len(self.moves) > 30 else "")
            out.append(
                f"dead stones settled by playing out: {self.settler} played both sides from "
                f"the final position until two passes ({len(self.moves)} moves: {shown})"
            )
        else:
            out.append(f"dead stones settled by {self.settler} from the final position")
        if self.settler:
            dead_black = " ".join(self.dead[0]) or "none"
            dead_white = " ".join(self.dead[1]) or "none"
            out.append(f"dead: black {dead_black}; white {dead_white}")
        out.append(
            f"score (Tromp-Taylor area): black {black}, white {white}, komi {komi:g}: "
            f"{result_of_score(self.score)}"
        )
        return out


def default_playouts(size: int) -> int:
    """Play-outs that judge the dead stones on a ``size`` board: 100 up to 9x9, 50 up to
    13x13, 25 above (a 19x19 play-out on the reference rules takes a third of a second)."""
    return 100 if size <= 9 else 50 if size <= 13 else 25


def settle_by_playouts(final: GoState, playouts: int | None = None, seed: int = 0) -> Settlement:
    """Settle the dead stones of ``final`` by Monte Carlo play-outs: from the final position,
    ``playouts`` games of eye-avoiding random moves (the rollouts of the engine's search,
    :meth:`~searchlab.domains.games.go.GoState.playout_actions`) are played to the end; a chain
    whose points end up as the opponent's area in more than half of them is dead and removed.
    The score is Tromp-Taylor area of the board without the dead chains.

    >>> from searchlab.domains.games.go import Go
    >>> final = Go(5, komi=0.5).position(black=["C1", "C2", "C3", "C4", "C5"], white=["D3"])
    >>> report = settle_by_playouts(final, playouts=40)
    >>> report.dead, report.settled.result(), report.settler
    (([], ['D3']), 'B+24.5', '40 random play-outs')
    """
    import random

    game = final.game
    size = game.size
    if playouts is None:
        playouts = default_playouts(size)
    rng = random.Random(seed)
    black = [p for p, colour in enumerate(final.board) if colour == 1]
    white = [p for p, colour in enumerate(final.board) if colour == 2]
    lost = [0] * (size * size)  # play-outs in which the stone's point ended as the opponent's
    for _ in range(playouts):
        state = game.position(black=black, white=white, to_move=final.to_move)
        while not state.is_terminal():
            state = state.apply(rng.choice(state.playout_actions()))
        owner = owners(state.board, size)
        for p, colour in enumerate(final.board):
            if colour and owner[p] == 3 - colour:
                lost[p] += 1
    board = bytearray(final.board)
    dead: tuple[list[str], list[str]] = ([], [])
    for _, chain, _ in chains(final.board, size):
        colour = final.board[chain[0]]
        if sum(lost[p] for p in chain) * 2 > playouts * len(chain):
            for p in chain:
                board[p] = 0
    for p, colour in enumerate(final.board):
        if colour and not board[p]:
            dead[colour - 1].append(final.action_to_string(p))
    settled = game.position(
        black=[p for p, c in enumerate(board) if c == 1],
        white=[p for p, c in enumerate(board) if c == 2],
        to_move=final.to_move,
    )
    return Settlement(final, settled, (), dead, f"{playouts} random play-outs")


def owners(board: bytes, size: int) -> list[int]:
    """Each point's owner by Tromp-Taylor: its stone, or the one colour its empty region
    reaches (0: none); 1 black, 2 white, as :attr:`~searchlab.domains.games.go.GoState.board`.

    >>> owners(bytes([1, 0, 1,  1, 1, 2,  0, 2, 0]), 3)  # the point 6 reaches both colours
    [1, 1, 1, 1, 1, 2, 0, 2, 2]
    """
    owners = list(board)
    for points, touches in empty_regions(board, size):
        if touches in (1, 2):  # one colour only
            for p in points:
                owners[p] = touches
    return owners
