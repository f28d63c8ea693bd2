"""BANDSAW: the exact best completion of a band of rows, by meeting in the middle, with a proof.

For budgets b = 0, 1, 2, ... (the ratchet) both halves of the band are enumerated up to b
mismatches (`enum`, pruned by the suffix bounds of `bounds`), indexed by (piece set,
seam row) and joined (`join`). The first round whose join finds a completion proves it
optimal: every earlier round enumerated, completely, every completion that could have scored
lower. A completion already in hand (the band as given, or a greedy fill) caps the ratchet: when
every round below its cost comes back empty, that completion is the proven optimum.

`--max-budget`, `--memory-budget`, `--node-limit` and `--timeout` stop the ratchet early; the result then carries
the best completion in hand, labelled not proven, and the lower bound the finished rounds establish. Only the
timeout (wall clock, a safety net) makes where a run stops depend on the machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ...lab.errors import InputError
from ...lab.jit import WorkClock
from ...lab.progress import Progress
from ...lab.sizes import format_size, peak_rss_bytes
from ..board import Board, board_from_json, board_to_json
from ..score import mismatch_edges, score_board
from .band import Band, BandProblem, Half, build
from .bounds import INF, grid_of, start_bound, suffix_bounds, table_bytes
from .cross import Cross, build_cross
from .enum import DONE, FOUND, FULL, QUOTA, Groups, Records, half_arrays, new_walk, no_records, prepare, walk
from .join import index, join
from .partner import Partners, partners_for

BASE_ALLOWANCE = 256 << 20  # bytes the memory limit sets aside for the interpreter, numba and the board
JOIN_OVERHEAD = 40  # bytes per record for hashing, sorting and indexing during the join
NODE_QUOTA = 20_000_000  # nodes per kernel call between progress lines
FIRST_CAPACITY = 1 << 14
RACE_SLICE = 1 << 20  # nodes per turn when the two halves race to build their table first
PROGRESS_EVERY_S = 10.0  # seconds between progress lines inside a round


@dataclass
class HalfRun:
    records: int
    nodes: int
    pruned: int
    entries: dict | None  # the index (None when the walk was stopped)
    stop: str | None = None  # "memory", "nodes" or "timeout" when the walk was stopped


def band_mismatches(puzzle, board: Board, band: Band) -> int:
    """Unmatched inner edges with at least one side in the band (via the project's scorer)."""
    h, v = mismatch_edges(puzzle, board)
    inside = np.zeros((board.rows, board.cols), bool)
    inside[band.r0:band.r1, band.c0:band.c1] = True
    hb = h & (inside[:, :-1] | inside[:, 1:])
    vb = v & (inside[:-1, :] | inside[1:, :])
    return int(hb.sum() + vb.sum())


def _record_bytes(problem: BandProblem) -> int:
    return problem.words * 8 + problem.band.width + 1 + JOIN_OVERHEAD


class _Budget:
    """Deterministic memory accounting: records of both halves against the limit (None = no limit)."""

    def __init__(self, limit: int | None, fixed: int, record_bytes: int):
        self.limit = limit
        self.record_bytes = record_bytes
        self.free = None if limit is None else max(0, limit - BASE_ALLOWANCE - fixed)

    def capacity(self, other_records: int) -> int | None:
        if self.free is None:
            return None
        return max(0, self.free // self.record_bytes - other_records)


class Kit(NamedTuple):
    """What the walk of one half needs: the half, its candidate orderings, its cross bound and partners."""

    half: Half
    groups: Groups
    lb: np.ndarray
    cross: Cross
    partners: Partners


class _HalfWalk:
    """One half's enumeration within a budget, advanced in slices of nodes, then indexed.

    It stops (entries=None) when the records would pass `cap_limit` or the nodes `node_limit`;
    both limits are counts, so where a walk stops does not depend on the machine. `deadline`
    (a perf_counter time, checked between node slices) is the wall-clock safety net.
    """

    def __init__(self, kit: Kit, ncol: int, words: int, budget: int, cap_limit: int | None,
                 node_limit: int | None, progress: Progress, label: str, deadline: float | None = None):
        half = kit.half
        self.half, self.words, self.budget, self.deadline = half, words, budget, deadline
        self.cap_limit, self.node_limit, self.progress, self.label = cap_limit, node_limit, progress, label
        self.seam_w = half.width if half.seam else 0
        self.result: HalfRun | None = None
        if half.n == 0 or budget < 0:
            self.result = HalfRun(0, 0, 0, index(np.zeros((0, words), np.uint64),
                                                 np.zeros((0, self.seam_w), np.uint8), np.zeros(0, np.uint8)))
            return
        self.args = (half_arrays(half, kit.lb, ncol), kit.groups, kit.cross.arrays(), kit.partners)
        self.state = new_walk(half.n, words, half.width, ncol, kit.partners.size)
        self.cap = FIRST_CAPACITY if cap_limit is None else min(FIRST_CAPACITY, cap_limit)
        self.rec = Records(np.zeros((self.cap, words), np.uint64), np.zeros((self.cap, self.seam_w), np.uint8),
                           np.zeros(self.cap, np.uint8))
        self.last_line = time.perf_counter()

    @property
    def nodes(self) -> int:
        return self.result.nodes if self.result is not None else self.state.nodes

    def _grow(self) -> bool:
        """Double the record buffer within the cap; False when it cannot grow."""
        new_cap = 2 * self.cap if self.cap_limit is None else min(2 * self.cap, self.cap_limit)
        if new_cap <= self.cap:
            return False
        grow = new_cap - self.cap
        rec = self.rec
        self.rec = Records(np.concatenate([rec.bits, np.zeros((grow, self.words), np.uint64)]),
                           np.concatenate([rec.seam, np.zeros((grow, self.seam_w), np.uint8)]),
                           np.concatenate([rec.cost, np.zeros(grow, np.uint8)]))
        self.cap = new_cap
        return True

    def step(self, quota: int = 1 << 62) -> HalfRun | None:
        """Walk up to `quota` more nodes; the result once the walk is over (or stopped), else None."""
        if self.result is not None:
            return self.result
        state = self.state
        goal = state.nodes + quota
        while True:
            room = NODE_QUOTA if self.node_limit is None else self.node_limit - state.nodes
            if room <= 0:
                self.result = HalfRun(state.recorded, state.nodes, state.pruned, None, "nodes")
                return self.result
            if state.nodes >= goal:
                return None
            if self.deadline is not None and time.perf_counter() > self.deadline:
                self.result = HalfRun(state.recorded, state.nodes, state.pruned, None, "timeout")
                return self.result
            status = walk(*self.args, state, self.rec, self.budget, min(NODE_QUOTA, room, goal - state.nodes), -1)
            if status == DONE:
                break
            if status == QUOTA:
                if time.perf_counter() - self.last_line > PROGRESS_EVERY_S:
                    self.last_line = time.perf_counter()
                    self.progress.line(f"{self.label}: {state.nodes:,} nodes, {state.recorded:,} fillings")
                continue
            assert status == FULL
            if not self._grow():
                self.result = HalfRun(state.recorded, state.nodes, state.pruned, None, "memory")
                return self.result
        n = state.recorded
        bits, seam, cost = self.rec.bits[:n], self.rec.seam[:n], self.rec.cost[:n]
        if self.half.turned and self.seam_w:
            seam = np.ascontiguousarray(seam[:, ::-1])  # read right to left: lines up with the upper half
        self.rec = None
        self.result = HalfRun(n, state.nodes, state.pruned, index(bits, seam, cost))
        return self.result


def _replay(kit: Kit, ncol: int, words: int, budget: int, leaf: int) -> list:
    """The filling reached at leaf number `leaf` of the walk with this budget: [(r, c, piece, rot)]."""
    half = kit.half
    if half.n == 0:
        return []
    state = new_walk(half.n, words, half.width, ncol, kit.partners.size)
    args = (half_arrays(half, kit.lb, ncol), kit.groups, kit.cross.arrays(), kit.partners)
    while True:
        status = walk(*args, state, no_records(words, half.width), budget, NODE_QUOTA, leaf)
        if status == FOUND:
            break
        if status == DONE:  # pragma: no cover - the walk is deterministic
            raise RuntimeError("replay did not reach the recorded leaf")
    out = []
    for t, (r, c) in enumerate(half.board_cells):
        q = int(state.chosen[t])
        out.append((r, c, int(half.cand_piece[q]), int(half.cand_rot[q])))
    return out


def greedy_fill(problem: BandProblem) -> Board:
    """A quick complete band: cells in row order, each taking the free piece and turn that mismatches least."""
    puzzle, band = problem.puzzle, problem.band
    board = problem.board.copy()
    for r, c in band.cells():
        board.piece[r, c] = -1
    hint_at = {(h.row, h.col): (h.piece, h.rot % 4) for h in problem.hints}
    free = [int(p) for p in problem.pieces if int(p) not in {h.piece for h in problem.hints}]
    for r, c in band.cells():
        if (r, c) in hint_at:
            board.piece[r, c], board.rot[r, c] = hint_at[(r, c)]
            continue
        best = None
        for p in free:
            for rho in range(4):
                sides = puzzle.rotated[p, rho]
                cost = 0
                for s, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                    rr, cc = r + dr, c + dc
                    if not (0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols):
                        cost += 0 if sides[s] == 0 else 100  # the border must be grey
                        continue
                    q = board.piece[rr, cc]
                    if q < 0:
                        continue
                    other = puzzle.rotated[q, board.rot[rr, cc] % 4, (s + 2) % 4]
                    cost += 0 if (sides[s] == other and other != 0) else 1
                key = (cost, p, rho)
                if best is None or key < best:
                    best = key
        _, p, rho = best
        board.piece[r, c], board.rot[r, c] = p, rho
        free.remove(p)
    return board


def completion_in_hand(problem: BandProblem) -> tuple[Board, str, int | None, int]:
    """Where an exact solve starts: the band as given when complete and true to the hints ("input"), else
    a greedy fill ("greedy"); with the input band's mismatches (None when it was not complete) and its own."""
    puzzle, band = problem.puzzle, problem.band
    if problem.incumbent is not None and _respects_hints(problem, problem.incumbent):
        board, source = problem.incumbent.copy(), "input"
    else:
        board, source = greedy_fill(problem), "greedy"
    before = band_mismatches(puzzle, problem.incumbent, band) if problem.incumbent is not None else None
    return board, source, before, band_mismatches(puzzle, board, band)


def _respects_hints(problem: BandProblem, board: Board) -> bool:
    return all(board.piece[h.row, h.col] == h.piece and board.rot[h.row, h.col] % 4 == h.rot % 4
               for h in problem.hints)


def _bound_tables(problem: BandProblem, upper_cost: int):
    """Per half: its suffix bound table, candidate orderings and cross bound; and the band's bound.

    `upper_cost`, the cost of the completion in hand, is the target of the piece-price fit.
    """
    halves = [problem.upper] + ([problem.lower] if problem.lower is not None else [])
    ncol = problem.ncol
    tables = [suffix_bounds(grid_of(h, ncol), h.static) for h in halves]
    orders = [prepare(h, ncol) for h in halves]
    bounds = [start_bound(t) for t in tables]
    relaxed = sum(bounds)
    crosses = []
    for k, h in enumerate(halves):
        other = halves[1 - k] if len(halves) == 2 else None
        crosses.append(build_cross(h, other, bounds[1 - k] if other is not None else 0, ncol,
                                   len(problem.pieces), upper_cost))
        relaxed = max(relaxed, crosses[-1].bound)
    return halves, tables, orders, crosses, min(INF, relaxed)


def _join_round(runs: list, budget: int) -> dict:
    if len(runs) == 2:
        return join(runs[0].entries, runs[1].entries, budget)
    ent = runs[0].entries  # a one-row band: no seam, every filling is a completion
    ok = np.flatnonzero(ent["cost"].astype(np.int64) <= budget)
    out = {"candidates": len(ok), "joins": len(ok), "best": None}
    if len(ok):
        k0 = ok[np.lexsort((ent["leaf"][ok], ent["cost"][ok]))[0]]
        out["best"] = (int(ent["cost"][k0]), int(ent["leaf"][k0]), -1)
    return out


@dataclass
class _Setup:
    """What every round of one band's ratchet shares."""

    problem: BandProblem
    halves: list
    tables: list  # suffix bound table per half
    groups: list  # candidate orderings per half
    crosses: list  # cross bound per half
    relaxed: int  # the bound tables' value for the empty band
    budget_mem: _Budget
    fixed_bytes: int
    no_partners: Partners
    progress: Progress
    deadline: float | None = None  # wall-clock stop (perf_counter), None = none

    def walk(self, k: int, b: int, cross: Cross, partners: Partners, cap: int | None,
             node_limit: int | None) -> _HalfWalk:
        kit = Kit(self.halves[k], self.groups[k], self.tables[k], cross, partners)
        return _HalfWalk(kit, self.problem.ncol, self.problem.words, b, cap, node_limit, self.progress,
                         f"b={b} {'upper' if k == 0 else 'lower'}", self.deadline)


@dataclass
class _Round:
    """One budget's walks: the half runs, the cross bounds and partners they used, the nodes left after."""

    rec: dict
    runs: list
    crosses: list
    partners: list
    nodes_left: int | None
    records: int = 0
    partner_records: int = 0  # memory of the partner lists, in records

    def spend(self, n: int) -> None:
        if self.nodes_left is not None:
            self.nodes_left -= n

    def add(self, k: int, run: HalfRun) -> HalfRun:
        self.runs[k] = run
        self.records += run.records
        self.spend(run.nodes)
        return run


def _race(setup: _Setup, rnd: _Round, b: int) -> None:
    """Both halves walk slice by slice; the first to finish builds its table, the other meets it."""
    mem = setup.budget_mem
    walks = {k: setup.walk(k, b, rnd.crosses[k], setup.no_partners, mem.capacity(rnd.records + rnd.partner_records),
                           rnd.nodes_left) for k in (0, 1)}
    first = None
    while first is None:
        for k in (0, 1):
            # the two walks share the round's node allowance
            left = None if rnd.nodes_left is None else rnd.nodes_left - walks[0].nodes - walks[1].nodes
            if left is not None and left <= 0:
                walks[k].node_limit = walks[k].nodes
            if walks[k].step(RACE_SLICE if left is None else min(RACE_SLICE, max(left, 1))) is not None:
                first = k
                break
    done = rnd.add(first, walks[first].result)
    other = 1 - first
    probe = walks[other].nodes  # work spent on the other half before the race ended
    rnd.spend(probe)
    rnd.rec["race_nodes"] = probe
    rnd.rec["first"] = "upper" if first == 0 else "lower"
    if done.stop:
        rnd.runs[other] = HalfRun(0, 0, 0, None, done.stop)  # its nodes are the race's
        return
    if done.records == 0:
        rnd.runs[other] = HalfRun(0, 0, 0, done.entries)  # nothing to pair with: the round is over
        rnd.rec["second_skipped"] = True
        return
    # the other half now knows what this one costs at least, and meets its actual table
    low = int(done.entries["cost"].min())
    if low > setup.crosses[other].other_min:
        rnd.crosses[other] = replace(setup.crosses[other], other_min=low)
    need = Partners.state_bytes(len(done.entries["cost"]), setup.problem.band.width)
    cap = mem.capacity(rnd.records)
    if cap is None or cap * mem.record_bytes >= need:
        rnd.partners[other] = partners_for(done.entries, setup.halves[other].turned, setup.problem.words)
        rnd.partner_records = -(-need // mem.record_bytes)
    walk = setup.walk(other, b, rnd.crosses[other], rnd.partners[other],
                      mem.capacity(rnd.records + rnd.partner_records), rnd.nodes_left)
    rnd.add(other, walk.step())


def _walk_round(setup: _Setup, b: int, proven: bool, nodes_left: int | None) -> _Round:
    """Enumerate the halves for budget b (skipped below the bound, raced in a ratchet round, alone in a sweep)."""
    n = len(setup.halves)
    rec = {"budget": b, "phase": "sweep" if proven else "ratchet", "first": None, "race_nodes": 0,
           "second_skipped": False}
    rnd = _Round(rec, [None] * n, list(setup.crosses), [setup.no_partners] * n, nodes_left)
    mem = setup.budget_mem
    if b < setup.relaxed and not proven:
        # the bound tables already exclude every completion this cheap: nothing to enumerate
        empty = index(np.zeros((0, setup.problem.words), np.uint64),
                      np.zeros((0, setup.problem.band.width), np.uint8), np.zeros(0, np.uint8))
        rnd.runs = [HalfRun(0, 0, 0, empty) for _ in range(n)]
    elif n == 1:
        rnd.add(0, setup.walk(0, b, rnd.crosses[0], setup.no_partners, mem.capacity(rnd.records),
                              rnd.nodes_left).step())
    elif proven:  # a sweep measures both halves alone
        for k in (0, 1):
            run = rnd.add(k, setup.walk(k, b, rnd.crosses[k], setup.no_partners, mem.capacity(rnd.records),
                                        rnd.nodes_left).step())
            if run.stop:
                break
    else:
        _race(setup, rnd, b)
    rnd.runs = [r for r in rnd.runs if r is not None]
    return rnd


def _describe_round(setup: _Setup, rnd: _Round, proven: bool, clock: WorkClock, mark: tuple):
    """Fill the round's record (counts, memory, join); returns (stop reason or None, best pair found or None)."""
    rec, runs, b = rnd.rec, rnd.runs, rnd.rec["budget"]
    for k, name in enumerate(("upper", "lower")):
        run = runs[k] if k < len(runs) else None
        rec[f"{name}_partials"] = None if run is None else run.records
        rec[f"{name}_entries"] = None if run is None or run.entries is None else len(run.entries["cost"])
        rec[f"{name}_nodes"] = None if run is None else run.nodes
        rec[f"{name}_pruned"] = None if run is None else run.pruned
    rec["pruned"] = sum(r.pruned for r in runs)
    rec["table_bytes"] = setup.budget_mem.record_bytes * (rnd.records + rnd.partner_records) + setup.fixed_bytes
    halted = next((r.stop for r in runs if r.stop), None)
    found = None
    if b < setup.relaxed and not proven:
        rec.update(join_candidates=0, joins=0, found=False, status="bound")
    elif halted:
        rec.update(join_candidates=None, joins=None, found=False, status=halted)
    elif proven:
        rec.update(join_candidates=None, joins=None, found=None, status="sweep")
    else:
        j = _join_round(runs, b)
        found = j["best"]
        rec.update(join_candidates=j["candidates"], joins=j["joins"], found=found is not None,
                   status="found" if found is not None else "none")
    rec["time_s"], rec["cpu_time_s"] = clock.since(mark)
    rec["peak_rss_bytes"] = peak_rss_bytes()
    setup.progress.line(f"b={b}: upper {rec['upper_partials']} lower {rec['lower_partials']} "
                        f"joins {rec['joins']} ({rec['status']}, {rec['time_s']:.2f} s, "
                        f"peak {format_size(rec['peak_rss_bytes'])})")
    return halted, found


def _rebuild(setup: _Setup, rnd: _Round, found: tuple) -> Board:
    """The board of the pair the join found: both halves replayed to their leaves, checked by the scorer."""
    problem = setup.problem
    total, leaf_u, leaf_l = found
    b = rnd.rec["budget"]
    board = problem.board.copy()
    for k, half in enumerate(setup.halves):
        kit = Kit(half, setup.groups[k], setup.tables[k], rnd.crosses[k], rnd.partners[k])
        for r, c, p, rho in _replay(kit, problem.ncol, problem.words, b, leaf_u if k == 0 else leaf_l):
            board.piece[r, c], board.rot[r, c] = p, rho
    got = band_mismatches(problem.puzzle, board, problem.band)
    if got != total:  # pragma: no cover - the kernels and the scorer must agree
        raise RuntimeError(f"band re-scored {got} mismatches, the join said {total}")
    return board


def _check_tables_fit(problem: BandProblem, memory_limit: int | None) -> None:
    """The halves' bound tables must fit in the memory budget before they are built."""
    if memory_limit is None:
        return
    halves = [problem.upper] + ([problem.lower] if problem.lower is not None else [])
    need = sum(table_bytes(h.rows, h.width, problem.ncol) for h in halves)
    if need > max(0, memory_limit - BASE_ALLOWANCE):
        band = problem.band
        raise InputError(f"band rows {band.r0}:{band.r1} cols {band.c0}:{band.c1}: the bound tables of its halves "
                         f"({'+'.join(str(h.rows) for h in halves)} rows) need {format_size(need)}, more than the "
                         f"memory budget {format_size(memory_limit)} allows; try a smaller band or --split")


def _setup(problem: BandProblem, memory_limit: int | None, progress: Progress, best: int, source: str) -> _Setup:
    halves, tables, groups, crosses, relaxed = _bound_tables(problem, best)
    fixed_bytes = sum(table_bytes(h.rows, h.width, problem.ncol) for h in halves) + sum(c.nbytes for c in crosses)
    band = problem.band
    progress.line(f"band rows {band.r0}:{band.r1} cols {band.c0}:{band.c1}, {len(problem.pieces)} pieces, "
                  f"halves {problem.upper.rows}+{problem.lower.rows if problem.lower else 0} rows; "
                  f"relaxed bound {relaxed}, {source} completion {best}")
    return _Setup(problem, halves, tables, groups, crosses, relaxed,
                  _Budget(memory_limit, fixed_bytes, _record_bytes(problem)), fixed_bytes,
                  Partners.off(band.width, problem.words), progress)


def solve(problem: BandProblem, max_budget: int | None = None, memory_limit: int | None = None,
          node_limit: int | None = None, sweep: int | None = None, progress: Progress | None = None,
          timeout: float | None = None) -> dict:
    """Run the budget ratchet on a band; the result dict of `puzzlelab edgematch mitm`.

    node_limit: stop when the walks of all rounds together have visited this many nodes.
    timeout: also stop after this many wall-clock seconds (checked between node slices); the
    result then has `timed_out` true. Given or not, `timeout` is recorded only when set.
    sweep: keep enumerating the halves (without joining) up to this budget after the optimum is
    proven, to measure how the tables grow per extra mismatch.
    Times leave out numba's compiling or loading kernels.
    """
    with WorkClock() as clock:
        return _ratchet(problem, max_budget, memory_limit, node_limit, sweep, progress, timeout, clock)


def _ratchet(problem: BandProblem, max_budget: int | None, memory_limit: int | None, node_limit: int | None,
             sweep: int | None, progress: Progress | None, timeout: float | None, clock: WorkClock) -> dict:
    progress = progress or Progress(None, "mitm", enabled=False)
    puzzle, band = problem.puzzle, problem.band
    best_board, source, before, best = completion_in_hand(problem)
    _check_tables_fit(problem, memory_limit)
    setup = _setup(problem, memory_limit, progress, best, source)
    if timeout is not None:
        setup.deadline = clock.start[0] + timeout
    rounds: list[dict] = []
    proven = False
    lower_bound = setup.relaxed  # every completion costs at least this much
    stop = None
    nodes_left = node_limit
    b = 0
    last = best - 1 if max_budget is None else min(best - 1, max_budget)
    while b <= (sweep if proven and sweep is not None else (-1 if proven else last)):
        mark = clock.mark()
        rnd = _walk_round(setup, b, proven, nodes_left)
        nodes_left = rnd.nodes_left
        halted, found = _describe_round(setup, rnd, proven, clock, mark)
        rounds.append(rnd.rec)
        if halted:
            if not proven:
                stop = halted
                lower_bound = max(lower_bound, b)
            break
        if found is not None:
            best_board, best, source = _rebuild(setup, rnd, found), found[0], "mitm"
            proven = True
            lower_bound = best
        elif not proven:
            lower_bound = max(lower_bound, b + 1)
        b += 1
    if not proven:
        if lower_bound >= best:
            proven, lower_bound = True, best  # every cheaper budget came back empty
        elif stop is None:
            stop = "max-budget"
    out = {
        "proven": proven,
        "mismatches": best,
        "lower_bound": lower_bound,
        "relaxed_bound": setup.relaxed,
        "before": before,
        "source": source,
        "stopped_by": None if proven else stop,
        "band": band.as_json(),
        "split": problem.upper.rows,
        "pieces": len(problem.pieces),
        "score": score_board(puzzle, best_board),
        "rounds": rounds,
        "memory_limit": memory_limit,
        "node_limit": node_limit,
        "nodes": sum((r["upper_nodes"] or 0) + (r["lower_nodes"] or 0) + r["race_nodes"] for r in rounds),
        "board": board_to_json(best_board),
    }
    out["time_s"], out["cpu_time_s"] = clock.since()
    if timeout is not None:  # only then: runs without a timeout keep their bytes
        out.update(timeout=timeout, timed_out=any(r["status"] == "timeout" for r in rounds))
    return out


def solve_band(puzzle, board: Board, band: Band, hints=(), split: int | None = None, board_path=None,
               **kwargs) -> dict:
    """Build the band problem (checking the inputs) and solve it."""
    if kwargs.get("max_budget") is not None and kwargs["max_budget"] < 0:
        raise InputError(f"--max-budget must be >= 0, not {kwargs['max_budget']}")
    problem = build(puzzle, board, band, hints, split, board_path)
    return solve(problem, **kwargs)


class BandRepair(NamedTuple):
    """A band of a complete board re-solved (`repair_band`): the board with the band's best filling in hand."""

    board: Board  # the whole board; outside the band it is the input board
    mismatches: int  # inner edges touching the band that mismatch, on `board`
    before: int  # the same count on the input board
    proven: bool  # no filling of the band mismatches less
    lower_bound: int  # every filling of the band mismatches at least this much
    nodes: int  # walk nodes spent (within node_limit)


def repair_band(puzzle, board: Board, rows: tuple[int, int], hints=(), node_limit: int | None = None,
                cols: tuple[int, int] | None = None, memory_limit: int | None = None) -> BandRepair:
    """Re-solve rows R0..R1-1 (columns C0..C1-1, default all) of a complete board, hints respected.

    The repair move of a polishing loop: the band as given is the starting completion, so the result
    never mismatches more than the input; with `node_limit` it is deterministic (same inputs, same board).
    """
    band = Band(int(rows[0]), int(rows[1]), *((0, board.cols) if cols is None else (int(cols[0]), int(cols[1]))))
    if not (0 <= band.r0 < band.r1 <= board.rows and 0 <= band.c0 < band.c1 <= board.cols):
        raise InputError(f"band rows {band.r0}:{band.r1} cols {band.c0}:{band.c1} is not inside the "
                         f"{board.rows}x{board.cols} board")
    res = solve_band(puzzle, board, band, hints=list(hints), node_limit=node_limit, memory_limit=memory_limit)
    out = board_from_json(res["board"])
    out.name = board.name
    return BandRepair(out, int(res["mismatches"]), int(res["before"]) if res["before"] is not None else -1,
                      bool(res["proven"]), int(res["lower_bound"]), int(res["nodes"]))


__all__ = ["solve", "solve_band", "repair_band", "BandRepair", "band_mismatches", "greedy_fill", "completion_in_hand"]
