"""The bit intrinsics of the `jit` kernels (numba): LLVM's ctpop, cttz and cycle counter; and the
small mask loops that several kernels share (inlined where they are called)."""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of bits set (LLVM ctpop)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def cycles(typingctx):
    """The processor's cycle counter (LLVM readcyclecounter: rdtsc on x86, 0 where there is
    none), for the time of each grid of a batch without a clock call."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@intrinsic
def low_index(typingctx, x):
    """Index of the lowest bit set (LLVM cttz)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def full_mask(n):
    """The mask of n bits set: every bit of the int64 (-1) at n = 64, where 1 << n overflows."""
    return -1 if n >= 64 else (1 << n) - 1


@njit(cache=True, inline="always")
def strike_masks(st, start, step, count, skip, bits):
    """`bits` struck from the masks st[start + i * step] but the skip-th; the masks changed, bit
    start + i * step each."""
    changed = 0
    for i in range(count):
        k = start + i * step
        if i != skip and st[k] & bits:
            st[k] &= ~bits
            changed |= 1 << k
    return changed


@njit(cache=True, inline="always")
def first_holding(values, start, step, count, p):
    """The first i whose mask values[start + i * step] holds bit p (count: none does)."""
    for i in range(count):
        if values[start + i * step] >> p & 1:
            return i
    return count


@njit(cache=True, inline="always")
def lone_cells(st, start, step, count, open_cells):
    """Of `open_cells`, those that one mask alone of st[start + i * step] holds (one digit left);
    -1 when one of them none holds."""
    if not open_cells:
        return 0
    once = 0
    twice = 0  # the bits set in two masks or more
    for i in range(count):
        m = st[start + i * step]
        twice |= once & m
        once |= m
    return -1 if open_cells & ~once else open_cells & ~twice
