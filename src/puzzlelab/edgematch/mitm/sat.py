"""A band's exact optimum by SAT: the band as CNF, its mismatches bounded by a totalizer, CaDiCaL asked
again and again for a filling with fewer mismatches than the best in hand, until it proves there is none.

The CNF: one variable per cell and candidate (`band.whole`: piece and turn, border sides grey, hints
kept), exactly one candidate a cell and each piece at most once (exactly once when the band uses every
piece it may); one variable per edge of the band that can mismatch, forced true by every pair of
colours that differ across it (per colour, through one indicator per cell side); a totalizer over
those variables, whose outputs bound the count from above under an assumption. Clause learning
shares what each bound taught with the next one, where the meet-in-the-middle ratchet (`solve.py`)
rebuilds both half tables per budget and is stopped on 16-wide bands by their join.

The result has the keys of `solve.solve` (`method` "sat"; `nodes` counts CaDiCaL's conflicts and
`node_limit` caps them). CaDiCaL is deterministic: the same band and conflict limit give the same
board on any machine; only `timeout` (wall clock) makes where a run stops depend on the machine.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ...lab.cadical import new_solver
from ...lab.errors import InputError
from ...lab.jit import WorkClock
from ...lab.progress import Progress
from ..board import Board, board_to_json
from ..score import score_board
from .band import BandProblem, Half, whole
from .solve import band_mismatches, completion_in_hand

ILLEGAL = 255  # the static cost `band.whole` gives a hint that cannot face the border


class BandCnf(NamedTuple):
    """The band as clauses: `x[k]` is candidate k of `half` (cells `half.board_cells`), `mism` the
    literals of the edges that can mismatch (their count is the band's mismatches)."""

    half: Half
    clauses: list
    x: np.ndarray
    mism: list
    top: int  # the largest variable used


def encode(problem: BandProblem) -> BandCnf:
    """The CNF of the band (see the module's docstring)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    half, fixed = whole(problem)
    pool = IDPool()
    n = len(half.cand_bit)
    x = np.array([pool.id(("x", k)) for k in range(n)], np.int64)
    clauses: list = []
    ptr = half.cand_ptr

    def at_most_one(lits: list, also_at_least_one: bool) -> None:
        if also_at_least_one:
            clauses.append(lits)
        clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses)

    for t, (r, c) in enumerate(half.board_cells):
        # only a hint cell can hold an illegal candidate, and then it is the cell's only one
        ks = [k for k in range(ptr[t], ptr[t + 1]) if half.static[k] != ILLEGAL]
        if not ks:
            raise InputError(f"cell ({r}, {c}) of the band has no legal piece (a hint that cannot face the border)")
        at_most_one([int(x[k]) for k in ks], True)
    every_piece = len(problem.pieces) == half.n
    for bit in np.unique(half.cand_bit):
        at_most_one([int(v) for v in x[half.cand_bit == bit]], every_piece)

    sides = np.stack([half.cand_u, half.cand_r, half.cand_d, half.cand_l], axis=1)

    def colours(t: int, s: int) -> dict:
        """Colour -> indicator variable 'cell t shows this colour on side s' (defined both ways)."""
        ks = np.arange(ptr[t], ptr[t + 1])
        out = {}
        for col in np.unique(sides[ks, s]).tolist():
            y = pool.id(("y", t, s, col))
            chosen = [int(v) for v in x[ks[sides[ks, s] == col]]]
            clauses.extend([-v, y] for v in chosen)
            clauses.append([-y] + chosen)
            out[col] = y
        return out

    mism = []
    where = {rc: t for t, rc in enumerate(half.board_cells)}
    for t, (r, c) in enumerate(half.board_cells):
        for s, (dr, dc) in ((1, (0, 1)), (2, (1, 0))):  # each edge inside the band once: right, down
            u = where.get((r + dr, c + dc))
            if u is None:
                continue
            m = pool.id(("m", t, s))
            a, b = colours(t, s), colours(u, (s + 2) % 4)
            for col in sorted(set(a) | set(b)):
                ya, yb = a.get(col), b.get(col)
                if col == 0 or ya is None or yb is None:  # grey, or a colour the other side never shows
                    clauses.extend([-y, m] for y in (ya, yb) if y is not None)
                else:
                    clauses.append([-ya, yb, m])
                    clauses.append([-yb, ya, m])
            mism.append(m)
        for s, col in fixed[t]:
            m = pool.id(("m", t, s))
            ks = np.arange(ptr[t], ptr[t + 1])
            bad = ks[(sides[ks, s] != col) | (col == 0)]
            clauses.extend([-int(v), m] for v in x[bad])
            mism.append(m)
    return BandCnf(half, clauses, x, mism, pool.top)


def _decode(problem: BandProblem, cnf: BandCnf, model: list[int]) -> Board:
    true = np.zeros(max(cnf.top, len(model)) + 1, bool)
    lits = np.asarray(model, np.int64)
    true[lits[lits > 0]] = True
    board = problem.board.copy()
    h = cnf.half
    for t, (r, c) in enumerate(h.board_cells):
        ks = np.arange(h.cand_ptr[t], h.cand_ptr[t + 1])
        k = int(ks[true[cnf.x[ks]]][0])
        board.piece[r, c], board.rot[r, c] = int(h.cand_piece[k]), int(h.cand_rot[k])
    return board


def _phases(cnf: BandCnf, board: Board) -> list[int]:
    """Literals saying 'this filling' (the solver starts its search there)."""
    h = cnf.half
    out = []
    for t, (r, c) in enumerate(h.board_cells):
        for k in range(h.cand_ptr[t], h.cand_ptr[t + 1]):
            same = h.cand_piece[k] == board.piece[r, c] and h.cand_rot[k] == board.rot[r, c] % 4
            out.append(int(cnf.x[k]) if same else -int(cnf.x[k]))
    return out


def cnf_bytes(cnf: BandCnf, extra_clauses: int) -> int:
    """Memory CaDiCaL will need for this CNF, roughly (as `nonogram.sat.clause_bytes` counts it)."""
    literals = sum(len(c) for c in cnf.clauses) + 3 * extra_clauses
    return literals * 40 + cnf.top * 200


def solve_sat(problem: BandProblem, node_limit: int | None = None, memory_limit: int | None = None,
              progress: Progress | None = None, timeout: float | None = None) -> dict:
    """Lower the band's mismatches bound by bound until CaDiCaL proves the last bound infeasible; the result
    dict of `puzzlelab edgematch mitm --method sat`. `node_limit`: CaDiCaL conflicts over all calls;
    `memory_limit`: the CNF (counted from its size, deterministically) must fit, or nothing is solved."""
    with WorkClock() as clock:
        return _descend(problem, node_limit, memory_limit, progress or Progress(None, "mitm", enabled=False),
                        timeout, clock)


@dataclass
class _Descent:
    """Where the descent stands: the best filling in hand, the bound proven, the calls made."""

    board: Board
    best: int
    source: str
    lower_bound: int = 0
    stop: str | None = None  # "nodes", "timeout" or "memory" when it stopped before a proof
    conflicts: int = 0
    timed_out: bool = False
    rounds: list = field(default_factory=list)


def _descend(problem: BandProblem, node_limit: int | None, memory_limit: int | None, progress: Progress,
             timeout: float | None, clock: WorkClock) -> dict:
    from pysat.card import ITotalizer

    puzzle, band = problem.puzzle, problem.band
    board, source, before, best = completion_in_hand(problem)
    state = _Descent(board, best, source)
    cnf = encode(problem)
    totalizer = ITotalizer(lits=cnf.mism, ubound=max(state.best, 1), top_id=cnf.top)
    stats = {"sat_vars": int(totalizer.top_id), "sat_clauses": len(cnf.clauses) + len(totalizer.cnf.clauses),
             "sat_bytes": cnf_bytes(cnf, len(totalizer.cnf.clauses))}
    progress.line(f"{len(cnf.mism)} edges can mismatch; {stats['sat_vars']:,} variables, "
                  f"{stats['sat_clauses']:,} clauses; {state.best} mismatches in hand ({source})")
    if memory_limit is not None and stats["sat_bytes"] > memory_limit:
        state.stop = "memory"
    elif state.best > 0:
        _ask_bounds(problem, cnf, totalizer, state, node_limit, timeout, clock, progress)
    proven = state.stop is None and state.lower_bound >= state.best
    out = {
        "method": "sat",
        "proven": proven,
        "mismatches": state.best,
        "lower_bound": state.best if proven else state.lower_bound,
        "relaxed_bound": None,
        "before": before,
        "source": state.source,
        "stopped_by": None if proven else state.stop,
        "band": band.as_json(),
        "split": None,
        "pieces": len(problem.pieces),
        "score": score_board(puzzle, state.board),
        "rounds": state.rounds,
        "memory_limit": memory_limit,
        "node_limit": node_limit,
        "nodes": state.conflicts,
        **stats,
        "board": board_to_json(state.board),
    }
    out["time_s"], out["cpu_time_s"] = clock.since()
    if timeout is not None:
        out.update(timeout=timeout, timed_out=state.timed_out)
    return out


def _ask_bounds(problem: BandProblem, cnf: BandCnf, totalizer, state: _Descent, node_limit: int | None,
                timeout: float | None, clock: WorkClock, progress: Progress) -> None:
    """Ask for a filling with fewer mismatches than the best in hand until the answer is no (the proof),
    the conflict limit or the timeout."""
    puzzle, band = problem.puzzle, problem.band
    with new_solver() as solver:
        solver.append_formula(cnf.clauses)
        solver.append_formula(totalizer.cnf.clauses)
        solver.set_phases(_phases(cnf, state.board))  # start the search at the filling in hand
        timer = None
        if timeout is not None:
            timer = threading.Timer(max(0.0, timeout - clock.since()[0]), solver.interrupt)
            timer.start()
        try:
            while state.lower_bound < state.best:
                if node_limit is not None:
                    if state.conflicts >= node_limit:
                        state.stop = "nodes"
                        return
                    solver.conf_budget(node_limit - state.conflicts)
                b = state.best - 1
                mark = clock.mark()
                answer = solver.solve_limited(assumptions=[-totalizer.rhs[b]], expect_interrupt=timeout is not None)
                used = int(solver.accum_stats().get("conflicts", 0)) - state.conflicts
                state.conflicts += used
                rec = {"budget": b, "answer": {True: "sat", False: "unsat", None: "stopped"}[answer],
                       "mismatches": None, "conflicts": used}
                rec["time_s"], rec["cpu_time_s"] = clock.since(mark)
                state.rounds.append(rec)
                if answer is True:
                    state.board = _decode(problem, cnf, solver.get_model())
                    found = band_mismatches(puzzle, state.board, band)
                    if found > b:
                        raise RuntimeError(f"the SAT model has {found} mismatches, above its bound {b}")
                    state.best, state.source, rec["mismatches"] = found, "sat", found
                elif answer is False:
                    state.lower_bound = b + 1
                else:
                    state.timed_out = timeout is not None and clock.since()[0] >= timeout
                    state.stop = "timeout" if state.timed_out else "nodes"
                progress.line(f"at most {b} mismatches: {rec['answer']}"
                              + (f" ({state.best})" if answer else "") + f", {used:,} conflicts")
                if answer is None:
                    return
        finally:
            if timer is not None:
                timer.cancel()


__all__ = ["encode", "solve_sat", "BandCnf"]
