"""The bit intrinsics of the `jit` kernels (numba): LLVM's ctpop, cttz and cycle counter."""

from __future__ import annotations

from llvmlite import ir
from numba import types
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
