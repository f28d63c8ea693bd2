"""The SAT back-end: the puzzle's state as CNF (`satenc`) solved by CaDiCaL (python-sat), solution by solution.

Used after propagation and probing when the line-based search has not finished within its share of
the work, taking turns with it: conflict-driven clause learning and restarts finish random puzzles
(tournament sets) and the survey's hardest ones on which chronological backtracking thrashes, while
the line-based search stays faster on many others. Each further solution is asked for with a clause
that blocks the ones known (found here or by the line-based search), so `max_solutions=2` decides
uniqueness.
CaDiCaL is deterministic: the same CNF, budgets and clause order give the same answers on any machine.
"""

from __future__ import annotations

import time

import numpy as np

from ..lab.cadical import new_solver
from .satenc import Cnf, Lines, encode, work_for


def build(grid: np.ndarray, ncolors: int, lines: Lines, maxn: int) -> tuple[Cnf, bool]:
    """The CNF of a state (colour masks per cell); False when some line already cannot fit."""
    wk = work_for(maxn)
    cnf = Cnf(np.zeros(3, np.int64), np.zeros(1, np.int32), np.zeros((grid.shape[0], ncolors), np.int32))
    if not encode(grid, ncolors, lines, wk, cnf, False):
        return cnf, False
    cnf = Cnf(np.zeros(3, np.int64), np.zeros(int(cnf.counts[2]), np.int32), cnf.cellvar)
    encode(grid, ncolors, lines, wk, cnf, True)
    return cnf, True


def clause_bytes(grid: np.ndarray, ncolors: int, lines: Lines, maxn: int) -> int:
    """Memory the solver will need for this CNF, roughly (literals and variables, CaDiCaL's own included)."""
    wk = work_for(maxn)
    cnf = Cnf(np.zeros(3, np.int64), np.zeros(1, np.int32), np.zeros((grid.shape[0], ncolors), np.int32))
    encode(grid, ncolors, lines, wk, cnf, False)
    return int(cnf.counts[2]) * 40 + int(cnf.counts[0]) * 200


def _decode(model: list[int], cellvar: np.ndarray) -> np.ndarray:
    true = np.zeros(len(model) + 1, dtype=bool)
    pos = np.asarray(model, dtype=np.int64)
    true[pos[pos > 0]] = True
    lit = cellvar.astype(np.int64)
    val = np.where(lit > 0, true[np.abs(lit)], ~true[np.abs(lit)]) & (lit != 0)
    return val.argmax(axis=1).astype(np.int8)


def _phases(solution: np.ndarray, cellvar: np.ndarray) -> list[int]:
    """Literals saying 'this picture': each cell takes its value in `solution`."""
    flat = solution.ravel().astype(np.int64)
    lits = cellvar[np.arange(len(flat)), flat].astype(np.int64)
    return lits[lits != 0].tolist()


def _blocking(solution: np.ndarray, cellvar: np.ndarray) -> list[int]:
    """The clause 'not this picture': some cell takes another value."""
    return [-lit for lit in _phases(solution, cellvar)]


class SatSearch:
    """A CaDiCaL solver on the CNF of a state, advanced by conflict budgets so that it can take turns.

    `step(conflicts)` returns True once it is decided: `max_solutions` solutions in all (with those
    `found` elsewhere and passed in with `add`), or a proof that there is no other one (`complete`).
    """

    def __init__(self, grid: np.ndarray, ncolors: int, lines: Lines, shape: tuple[int, int], max_solutions: int):
        t0 = time.process_time()
        self.shape, self.max_solutions = shape, max_solutions
        cnf, ok = build(grid, ncolors, lines, max(shape))
        self.cellvar = cnf.cellvar
        self.solutions: list[np.ndarray] = []  # every solution known, found here or added
        self.complete = not ok
        self.conflicts = 0
        self.seconds = 0.0  # wall time spent in the solver's calls (the deadline is wall time)
        self.stats = {"sat_vars": int(cnf.counts[0]), "sat_clauses": int(cnf.counts[1])}
        self.solver = None
        if ok:
            self.solver = new_solver()
            lits = cnf.lits.tolist()
            begin = 0
            for end in np.flatnonzero(cnf.lits == 0).tolist():
                self.solver.add_clause(lits[begin:end])
                begin = end + 1
        self.stats["sat_build_s"] = time.process_time() - t0

    def add(self, solution: np.ndarray) -> None:
        """A solution found elsewhere: counted, and blocked for this solver."""
        if any(np.array_equal(solution, s) for s in self.solutions):
            return
        self.solutions.append(solution)
        if self.solver is not None:
            self.solver.add_clause(_blocking(solution, self.cellvar))
            # Another solution of a random puzzle is usually a few cells away from this one: start there.
            self.solver.set_phases(_phases(solution, self.cellvar))

    @property
    def decided(self) -> bool:
        return self.complete or len(self.solutions) >= self.max_solutions

    def affordable(self, seconds: float) -> int:
        """Conflicts that fit in `seconds` at the rate measured so far (at least 1; unbounded before any)."""
        if self.conflicts < 100 or self.seconds <= 0:
            return 1 << 62
        return max(1, int(seconds * self.conflicts / self.seconds))

    def step(self, conflicts: int) -> bool:
        """Search for up to `conflicts` conflicts (at least one call); True when decided."""
        s = self.solver
        t0 = time.perf_counter()
        try:
            return self._step(s, conflicts)
        finally:
            self.seconds += time.perf_counter() - t0

    def _step(self, s, conflicts: int) -> bool:
        while not self.decided:
            before = self.conflicts
            s.conf_budget(max(1, conflicts))
            answer = s.solve_limited()
            self.conflicts = int(s.accum_stats().get("conflicts", 0))
            conflicts -= max(1, self.conflicts - before)
            if answer is None:
                return False
            if answer is False:
                self.complete = True
                break
            self.add(_decode(s.get_model(), self.cellvar).reshape(self.shape))
            if conflicts <= 0:
                break
        return self.decided

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None
