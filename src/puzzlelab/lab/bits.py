"""Bit tricks for the kernels of every engine: population count and lowest set bit (LLVM intrinsics,
one machine instruction each where the CPU has it)."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (of its two's-complement bits: give it a non-negative one)."""
    if not isinstance(x, types.Integer):
        return None
    t = types.unliteral(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return t(t), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero integer (of a one-bit mask: that bit's index)."""
    if not isinstance(x, types.Integer):
        return None
    t = types.unliteral(x)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return t(t), codegen
