"""The nonogram kernels' decorator: the project's one (`puzzlelab.lab.jit`)."""

from __future__ import annotations

from ..lab.jit import kernel

__all__ = ["kernel"]
