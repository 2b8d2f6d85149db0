"""An atomic compare-and-swap for numba, the one atomic the tree-parallel MCTS needs
(:mod:`~searchlab.algorithms.mcts.tree_parallel`): a node's child block is published by one
thread only, even when two threads reach the node at the same instant.

numba has no atomics on the CPU; this is LLVM's ``cmpxchg`` (sequentially consistent) on an
element of a one-dimensional int32 array, as a numba intrinsic.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def swap(array, index, expected, new):
...     return compare_and_swap(array, index, expected, new)
>>> cells = np.array([-1, 5], dtype=np.int32)
>>> swap(cells, 0, -1, 7), cells.tolist()  # it was -1: now 7, the old value returned
(-1, [7, 5])
>>> swap(cells, 0, -1, 9), cells.tolist()  # it is not -1 any more: unchanged
(7, [7, 5])
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["compare_and_swap"]


@intrinsic
def compare_and_swap(typingctx: Any, array: Any, index: Any, expected: Any, new: Any) -> Any:
    """``array[index]``, and ``new`` written there if it was ``expected``, atomically
    (``array`` a C-contiguous 1-D int32 array)."""
    if not (isinstance(array, types.Array) and array.dtype == types.int32 and array.ndim == 1):
        return None
    signature = types.int32(array, index, expected, new)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array_value, index_value, expected_value, new_value = args
        array_type, index_type, expected_type, new_type = sig.args
        proxy = context.make_array(array_type)(context, builder, array_value)
        index_value = context.cast(builder, index_value, index_type, types.intp)
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, proxy, [index_value], wraparound=False
        )
        expected_value = context.cast(builder, expected_value, expected_type, types.int32)
        new_value = context.cast(builder, new_value, new_type, types.int32)
        pair = builder.cmpxchg(pointer, expected_value, new_value, "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return signature, codegen
