"""The random numbers of the compiled MCTS: xorshift64* (Vigna, 2016), seeded by splitmix64.

A generator is one ``uint64`` word that the kernels carry in a local variable and hand back,
so a search that pauses (for the clock, or to grow its arrays) and resumes draws the same
numbers as one that never paused: same seed, same tree. It lives in core so that a game's
compiled rules (``domains/games/GAME/compiled.py``) and the search loop (algorithms) draw from
the one generator.

>>> import numpy as np
>>> seed_state(7) == seed_state(7), seed_state(7) != seed_state(8)
(True, True)
>>> state = np.uint64(seed_state(7))  # the kernels keep it in a uint64 array
>>> state, a = next_below(state, 10)
>>> state, b = next_below(state, 10)
>>> 0 <= a < 10 and 0 <= b < 10
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["next_below", "next_u64", "seed_state"]

_MASK64 = (1 << 64) - 1
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S32 = np.uint64(32)
_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)


def seed_state(seed: int) -> int:
    """A non-zero generator word from any integer ``seed`` (splitmix64 of it)."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return z or 0x9E3779B97F4A7C15


@njit(cache=True, inline="always")
def next_u64(state):  # pragma: no cover - compiled
    """``(new state, 64 random bits)``: one xorshift64* step."""
    x = state
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    return x, x * _MULTIPLIER


@njit(cache=True, inline="always")
def next_below(state, n):  # pragma: no cover - compiled
    """``(new state, an int uniform in [0, n))`` for ``0 < n < 2**32``, by Lemire's
    multiply-shift on the high 32 bits (bias below ``n / 2**32``: nil for board games)."""
    state, bits = next_u64(state)
    return state, np.int64(((bits >> _S32) * np.uint64(n)) >> _S32)
