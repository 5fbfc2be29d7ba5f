"""numba kernels' shared pieces: a counter-based random stream, a cache prefetch hint, and
the thread count a kernel runs on.

The first two are inlined into the kernels that use them (GloVe's fit, SSKIP's training): a
call between numba functions would pass every array with reference counting.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

log = logging.getLogger(__name__)

# splitmix64's constants (Steele, Lea and Flood 2014).
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def splitmix64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The next state of a splitmix64 stream and its 64 random bits."""
    state = state + GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return state, z ^ (z >> np.uint64(31))


@intrinsic
def prefetch(typingctx: object, array: types.Array, index: types.Integer) -> tuple:
    """Hint the CPU to fetch the cache line of array.flat[index] (no load, never faults)."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        address = builder.gep(data, [args[1]])
        if getattr(address.type, "is_opaque", False):  # LLVM 15+, as llvmlite >= 0.45 builds it
            name = "llvm.prefetch.p0"
        else:  # typed pointers (older llvmlite): the intrinsic takes an i8*
            name = "llvm.prefetch.p0i8"
            address = builder.bitcast(address, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32])
        prefetch = cgutils.get_or_insert_function(builder.module, function_type, name)
        builder.call(prefetch, [address, i32(1), i32(3), i32(1)])  # for writing, keep close, data
        return context.get_dummy_value()

    return types.void(array, index), codegen


@contextlib.contextmanager
def numba_threads(threads: int, who: str) -> Iterator[int]:
    """numba's thread count set to `threads` (at most its pool's size), the caller's restored;
    `who` names the step in the warning when the pool is smaller."""
    previous, usable = numba.get_num_threads(), min(threads, numba.config.NUMBA_NUM_THREADS)
    if usable < threads:
        log.warning("%s: %d threads asked, numba has %d", who, threads, usable)
    numba.set_num_threads(usable)
    try:
        yield usable
    finally:
        numba.set_num_threads(previous)
