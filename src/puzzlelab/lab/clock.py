"""The CPU's cycle counter inside kernels (LLVM readcyclecounter: rdtsc on x86), so that one kernel
call over many items can tell how its time divides between them."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def ticks(typingctx):
    """Cycle counter now (a constant-rate counter on current CPUs; 0 where the target has none)."""

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(fn, [])

    return types.int64(), codegen
