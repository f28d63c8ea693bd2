"""BANDSAW: the exact best completion of a band of rows, by meeting in the middle, with a proof.

For budgets b = 0, 1, 2, ... (the ratchet) both halves of the band are enumerated up to b
mismatches (`enum`, pruned by the suffix bounds of `bounds`), indexed by (piece set,
seam row) and joined (`join`). The first round whose join finds a completion proves it
optimal: every earlier round enumerated, completely, every completion that could have scored
lower. A completion already in hand (the band as given, or a greedy fill) caps the ratchet: when
every round below its cost comes back empty, that completion is the proven optimum.

`--max-budget` and `--memory-limit` stop the ratchet early; the result then carries the best
completion in hand, labelled not proven, and the lower bound the finished rounds establish.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ...lab.errors import InputError
from ...lab.progress import Progress
from ...lab.sizes import format_size, peak_rss_bytes
from ..board import Board, board_to_json
from ..score import mismatch_edges, score_board
from .band import Band, BandProblem, Half, build
from .bounds import INF, start_bound, suffix_bounds, table_bytes
from .cross import build_cross
from .enum import DONE, FOUND, FULL, QUOTA, WalkState, advance, prepare
from .join import index, join
from .partner import Partners, partners_for

BASE_ALLOWANCE = 256 << 20  # bytes the memory limit sets aside for the interpreter, numba and the board
JOIN_OVERHEAD = 40  # bytes per record for hashing, sorting and indexing during the join
NODE_QUOTA = 20_000_000  # nodes per kernel call between progress lines
FIRST_CAPACITY = 1 << 14
RACE_SLICE = 1 << 20  # nodes per turn when the two halves race to build their table first
PROGRESS_EVERY_S = 10.0  # seconds between progress lines inside a round


class MemoryWall(Exception):
    """A half's table would not fit in the memory limit."""


@dataclass
class HalfRun:
    records: int
    nodes: int
    pruned: int
    entries: dict | None  # the index (None when the walk was stopped)
    stop: str | None = None  # "memory" or "nodes" when the walk was stopped


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


class _HalfWalk:
    """One half's enumeration within a budget, advanced in slices of nodes, then indexed.

    It stops (entries=None) when the records would pass `cap_limit` or the nodes `node_limit`;
    both limits are counts, so where a walk stops does not depend on the machine.
    """

    def __init__(self, half: Half, order: tuple, lb: np.ndarray, cross, partners, ncol: int, words: int,
                 budget: int, cap_limit: int | None, node_limit: int | None, progress: Progress, label: str):
        self.half, self.order, self.lb, self.cross, self.partners = half, order, lb, cross, partners
        self.ncol, self.words, self.budget = ncol, words, budget
        self.cap_limit, self.node_limit, self.progress, self.label = cap_limit, node_limit, progress, label
        self.seam_w = half.width if half.seam else 0
        self.result: HalfRun | None = None
        if half.n == 0 or budget < 0:
            self.result = HalfRun(0, 0, 0, index(np.zeros((0, words), np.uint64),
                                                 np.zeros((0, self.seam_w), np.uint8), np.zeros(0, np.uint8)))
            return
        self.state = WalkState(half.n, words, half.width, ncol, partners.size)
        self.cap = FIRST_CAPACITY if cap_limit is None else min(FIRST_CAPACITY, cap_limit)
        self.bits = np.zeros((self.cap, words), np.uint64)
        self.seam = np.zeros((self.cap, self.seam_w), np.uint8)
        self.cost = np.zeros(self.cap, np.uint8)
        self.last_line = time.perf_counter()

    @property
    def nodes(self) -> int:
        return self.result.nodes if self.result is not None else self.state.nodes

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
            status = advance(self.half, self.order, self.lb, self.cross, self.partners, self.ncol, self.budget,
                             state, self.bits, self.seam, self.cost, min(NODE_QUOTA, room, goal - state.nodes))
            if status == DONE:
                break
            if status == QUOTA:
                if time.perf_counter() - self.last_line > PROGRESS_EVERY_S:
                    self.last_line = time.perf_counter()
                    self.progress.line(f"{self.label}: {state.nodes:,} nodes, {state.recorded:,} fillings")
                continue
            assert status == FULL
            new_cap = 2 * self.cap if self.cap_limit is None else min(2 * self.cap, self.cap_limit)
            if new_cap <= self.cap:
                self.result = HalfRun(state.recorded, state.nodes, state.pruned, None, "memory")
                return self.result
            grow = new_cap - self.cap
            self.bits = np.concatenate([self.bits, np.zeros((grow, self.words), np.uint64)])
            self.seam = np.concatenate([self.seam, np.zeros((grow, self.seam_w), np.uint8)])
            self.cost = np.concatenate([self.cost, np.zeros(grow, np.uint8)])
            self.cap = new_cap
        n = state.recorded
        bits, seam, cost = self.bits[:n], self.seam[:n], self.cost[:n]
        if self.half.turned and self.seam_w:
            seam = np.ascontiguousarray(seam[:, ::-1])  # read right to left: lines up with the upper half
        self.bits = self.seam = self.cost = None
        self.result = HalfRun(n, state.nodes, state.pruned, index(bits, seam, cost))
        return self.result


def _replay(half: Half, order: tuple, lb: np.ndarray, cross, partners, ncol: int, words: int, budget: int,
            leaf: int) -> list:
    """The filling reached at leaf number `leaf` of the walk with this budget: [(r, c, piece, rot)]."""
    if half.n == 0:
        return []
    state = WalkState(half.n, words, half.width, ncol, partners.size)
    empty = (np.zeros((0, words), np.uint64), np.zeros((0, half.width), np.uint8), np.zeros(0, np.uint8))
    while True:
        status = advance(half, order, lb, cross, partners, ncol, budget, state, *empty, NODE_QUOTA, leaf)
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


def _respects_hints(problem: BandProblem, board: Board) -> bool:
    return all(board.piece[h.row, h.col] == h.piece and board.rot[h.row, h.col] % 4 == h.rot % 4
               for h in problem.hints)


def _bound_tables(problem: BandProblem, upper_cost: int):
    """Per half: its suffix bound table, candidate orderings and cross bound; and the band's bound.

    `upper_cost`, the cost of the completion in hand, is the target of the piece-price fit.
    """
    halves = [problem.upper] + ([problem.lower] if problem.lower is not None else [])
    ncol = problem.ncol
    tables = [suffix_bounds(h.rows, h.width, ncol, h.cand_ptr, h.cand_u, h.cand_r, h.cand_d, h.cand_l,
                            h.static) for h in halves]
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


def solve(problem: BandProblem, max_budget: int | None = None, memory_limit: int | None = None,
          node_limit: int | None = None, sweep: int | None = None, progress: Progress | None = None) -> dict:
    """Run the budget ratchet on a band; the result dict of `puzzlelab edgematch mitm`.

    node_limit: stop when the walks of all rounds together have visited this many nodes.
    sweep: keep enumerating the halves (without joining) up to this budget after the optimum is
    proven, to measure how the tables grow per extra mismatch.
    """
    start = time.perf_counter()
    cpu_start = time.process_time()
    progress = progress or Progress(None, "mitm", enabled=False)
    puzzle, band = problem.puzzle, problem.band
    # the completion in hand: the band as given (when complete and true to the hints), else a greedy fill
    if problem.incumbent is not None and _respects_hints(problem, problem.incumbent):
        best_board, source = problem.incumbent.copy(), "input"
    else:
        best_board, source = greedy_fill(problem), "greedy"
    before = band_mismatches(puzzle, problem.incumbent, band) if problem.incumbent is not None else None
    best = band_mismatches(puzzle, best_board, band)
    halves, tables, orders, crosses, relaxed = _bound_tables(problem, best)
    fixed_bytes = sum(table_bytes(h.rows, h.width, problem.ncol) for h in halves) + sum(c.nbytes for c in crosses)
    budget_mem = _Budget(memory_limit, fixed_bytes, _record_bytes(problem))
    progress.line(f"band rows {band.r0}:{band.r1} cols {band.c0}:{band.c1}, {len(problem.pieces)} pieces, "
                  f"halves {problem.upper.rows}+{problem.lower.rows if problem.lower else 0} rows; "
                  f"relaxed bound {relaxed}, {source} completion {best}")

    no_partners = Partners.off(band.width, problem.words)
    round_cross: dict = {}
    rounds: list[dict] = []
    proven = False
    lower_bound = relaxed  # every completion costs at least this much
    stop = None
    nodes_left = node_limit
    b = 0
    last = best - 1 if max_budget is None else min(best - 1, max_budget)
    while b <= (sweep if proven and sweep is not None else (-1 if proven else last)):
        t0 = time.perf_counter()
        c0 = time.process_time()
        rec = {"budget": b, "phase": "sweep" if proven else "ratchet", "first": None, "race_nodes": 0,
               "second_skipped": False}
        runs: list[HalfRun | None] = [None] * len(halves)
        used_cross = list(crosses)
        used_partners = [no_partners] * len(halves)
        records = 0
        partner_records = 0  # memory of the partner lists, in records
        if b < relaxed and not proven:
            # the bound tables already exclude every completion this cheap: nothing to enumerate
            empty = index(np.zeros((0, problem.words), np.uint64), np.zeros((0, band.width), np.uint8),
                          np.zeros(0, np.uint8))
            runs = [HalfRun(0, 0, 0, empty) for _ in halves]
        walks = {}

        def walk_of(k, partners=None):
            return _HalfWalk(halves[k], orders[k], tables[k], used_cross[k], partners or no_partners, problem.ncol,
                             problem.words, b, budget_mem.capacity(records + partner_records), nodes_left, progress,
                             f"b={b} {'upper' if k == 0 else 'lower'}")

        def spend(n):
            nonlocal nodes_left
            if nodes_left is not None:
                nodes_left -= n

        if len(halves) == 1 and runs[0] is None:
            runs[0] = walk_of(0).step()
            records += runs[0].records
            spend(runs[0].nodes)
        elif runs[0] is None and proven:  # a sweep measures both halves alone
            for k in (0, 1):
                runs[k] = walk_of(k).step()
                records += runs[k].records
                spend(runs[k].nodes)
                if runs[k].stop:
                    break
        elif runs[0] is None:
            # race: both halves walk slice by slice; the first to finish builds its table first
            walks = {0: walk_of(0), 1: walk_of(1)}
            first = None
            while first is None:
                for k in (0, 1):
                    if walks[k].step(RACE_SLICE) is not None:
                        first = k
                        break
            done = walks[first].result
            runs[first] = done
            records += done.records
            spend(done.nodes)
            other = 1 - first
            probe = walks[other].nodes  # work spent on the other half before the race ended
            spend(probe)
            rec["race_nodes"] = probe
            rec["first"] = "upper" if first == 0 else "lower"
            if not done.stop and done.records == 0:
                runs[other] = HalfRun(0, 0, 0, done.entries)  # nothing to pair with: the round is over
                rec["second_skipped"] = True
            elif not done.stop:
                # the other half now knows what this one costs at least, and meets its actual table
                low = int(done.entries["cost"].min())
                if low > crosses[other].other_min:
                    used_cross[other] = replace(crosses[other], other_min=low)
                need = Partners.state_bytes(len(done.entries["cost"]), band.width)
                cap = budget_mem.capacity(records)
                if cap is None or cap * budget_mem.record_bytes >= need:
                    used_partners[other] = partners_for(done.entries, halves[other].turned, problem.words)
                    partner_records = -(-need // budget_mem.record_bytes)
                runs[other] = walk_of(other, used_partners[other]).step()
                records += runs[other].records
                spend(runs[other].nodes)
            else:
                runs[other] = HalfRun(0, probe, 0, None, done.stop)
        round_cross[b] = (used_cross, used_partners)
        runs = [r for r in runs if r is not None]
        for k, name in enumerate(("upper", "lower")):
            run = runs[k] if k < len(runs) else None
            rec[f"{name}_partials"] = None if run is None else run.records
            rec[f"{name}_entries"] = None if run is None or run.entries is None else len(run.entries["cost"])
            rec[f"{name}_nodes"] = None if run is None else run.nodes
            rec[f"{name}_pruned"] = None if run is None else run.pruned
        rec["pruned"] = sum(r.pruned for r in runs)
        rec["table_bytes"] = budget_mem.record_bytes * (records + partner_records) + fixed_bytes
        halted = next((r.stop for r in runs if r.stop), None)
        found = None
        if b < relaxed and not proven:
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
        rec["time_s"] = time.perf_counter() - t0
        rec["cpu_time_s"] = time.process_time() - c0
        rec["peak_rss_bytes"] = peak_rss_bytes()
        rounds.append(rec)
        progress.line(f"b={b}: upper {rec['upper_partials']} lower {rec['lower_partials']} "
                      f"joins {rec['joins']} ({rec['status']}, {rec['time_s']:.2f} s, "
                      f"peak {format_size(rec['peak_rss_bytes'])})")
        if halted:
            if not proven:
                stop = halted
                lower_bound = max(lower_bound, b)
            break
        if found is not None:
            total, leaf_u, leaf_l = found
            board = problem.board.copy()
            for k, half in enumerate(halves):
                leaf = leaf_u if k == 0 else leaf_l
                cross_b, partners_b = round_cross[b]
                for r, c, p, rho in _replay(half, orders[k], tables[k], cross_b[k], partners_b[k], problem.ncol,
                                            problem.words, b, leaf):
                    board.piece[r, c], board.rot[r, c] = p, rho
            got = band_mismatches(puzzle, board, band)
            if got != total:  # pragma: no cover - the kernels and the scorer must agree
                raise RuntimeError(f"band re-scored {got} mismatches, the join said {total}")
            best_board, best, source = board, total, "mitm"
            proven = True
            lower_bound = total
        elif not proven:
            lower_bound = max(lower_bound, b + 1)
        b += 1
    if not proven:
        if lower_bound >= best:
            proven, lower_bound = True, best  # every cheaper budget came back empty
        elif stop is None:
            stop = "max-budget"
    return {
        "proven": proven,
        "mismatches": best,
        "lower_bound": lower_bound,
        "relaxed_bound": relaxed,
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
        "time_s": time.perf_counter() - start,
        "cpu_time_s": time.process_time() - cpu_start,
    }


def solve_band(puzzle, board: Board, band: Band, hints=(), split: int | None = None, board_path=None,
               **kwargs) -> dict:
    """Build the band problem (checking the inputs) and solve it."""
    if kwargs.get("max_budget") is not None and kwargs["max_budget"] < 0:
        raise InputError(f"--max-budget must be >= 0, not {kwargs['max_budget']}")
    problem = build(puzzle, board, band, hints, split, board_path)
    return solve(problem, **kwargs)


__all__ = ["solve", "solve_band", "band_mismatches", "greedy_fill"]
