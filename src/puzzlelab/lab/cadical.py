"""The one way PuzzleLab starts CaDiCaL (python-sat): the solver and the options every SAT back-end uses."""

from __future__ import annotations

# CaDiCaL's "lucky" phase tries trivial assignments again at every call, and the back-ends call it many
# times (the nonogram turns a dozen times on a hard puzzle, a band proof once per bound): without it,
# 7 hard 25x25 nonograms needed 55 s of SAT instead of 92 s.
OPTIONS: dict[str, int] = {"lucky": 0}


def new_solver():
    """A CaDiCaL 1.9.5 solver with OPTIONS set (they must be set before any clause is added)."""
    from pysat.solvers import Solver

    solver = Solver(name="cadical195")
    solver.solver.configure(OPTIONS)
    return solver
