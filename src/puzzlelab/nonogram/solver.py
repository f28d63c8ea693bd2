"""Solve one puzzle: lay its clues out as arrays, run the search kernel in budgeted chunks, report.

`solve(puzzle)` returns a `Result`: status `unique` | `multiple` | `contradiction` | `timeout` (or
`solved` when `max_solutions=1` stopped the search at its first solution), whether propagation
alone solved it (`line_solvable`), up to `max_solutions` solutions and the search counters.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter

import numpy as np

from ..lab.errors import InputError
from ..lab.sizes import format_size
from .model import MAX_COLORS, MAX_SIDE, Puzzle

STAT_KEYS = ("line_solves", "work", "probes", "branches", "backtracks", "max_depth", "cache_hits", "sat_conflicts")
CHUNK = 1 << 21  # work units per call of the colour-mask kernel (a few ms) between clock checks
BIT_CHUNK = 1 << 24  # the same for the bit-parallel kernel (about as long)
SAT_SLICE = 100  # conflicts of the SAT back-end's first turn (about 20 ms); each later turn is twice the last
SAT_GROWTH = 2  # CaDiCaL restarts its search schedule at every call: equal 100-conflict turns cost it 7.5x
ROOT_UNKNOWN, ROOT_SOLVED, ROOT_CONTRADICTION, ROOT_STALLED = 0, 1, 2, 3  # the engines' shared codes


@dataclass
class Options:
    max_solutions: int = 2
    memory_budget: int | None = 4 << 30  # bytes the search state may take; a bigger puzzle is refused
    timeout: float | None = None  # wall-clock seconds (not reproducible near the limit)
    work_limit: int | None = None  # line-solver work units (reproducible)
    probing: bool = True
    naive: bool = False  # O(n) segment checks instead of prefix sums (ablation)
    sweep: bool = False  # full sweeps instead of the dirty-line queue (ablation)
    balanced: bool = True  # branch on the cell whose worst colour decides most (else the best single probe)
    cache_mb: float = 32.0  # line-solver cache size; 0 turns it off
    # Adaptive probing: after `window` probed nodes of which at least `fail_pct`% learnt nothing, branch
    # `sprint` nodes without probing (window 0 = always probe).
    portfolio: bool = True  # after propagation stalls, run both branching rules in turn (see _Generic)
    bits: bool = True  # bit-parallel lines: the bit engine for b/w up to 62x62, words for longer b/w lines, one
    # or two words per colour for colour lines up to 123 cells (else the dynamic programme everywhere)
    sat: bool = True  # hand hard puzzles to the SAT back-end after `sat_after` work units
    sat_after: int = 200_000_000  # about a quarter of a second of the bit-parallel engine
    sat_first: bool = True  # the SAT back-end takes the first turn of each round (else the line-based search)
    window: int = 40
    fail_pct: int = 50
    sprint: int = 1000


@dataclass
class Result:
    status: str
    line_solvable: bool
    solutions: list[np.ndarray]
    time_s: float
    cpu_s: float
    stats: dict = field(default_factory=dict)


def clue_arrays(p: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """The parsed clues as two flat arrays: blocks per line (rows, then columns) and (length, colour) per block.

    This is the parser's output in array form (pbnsolve's reader likewise builds its clue arrays
    before its clock starts); `prepare` keeps it on the puzzle so that a benchmark can build it
    while loading. `solve` builds it itself (inside its time) when it is not there.
    """
    cached = p.__dict__.get("_clue_arrays")
    if cached is not None:
        return cached
    lines = list(p.rows) + list(p.cols)
    if not 1 <= min(p.height, p.width) <= max(p.height, p.width) <= MAX_SIDE:
        raise InputError(f"puzzle is {p.width}x{p.height}; each side must be from 1 to {MAX_SIDE} cells",
                         p.source or None)
    counts = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    # fromiter over a flat chain is 2-3x faster than np.array over the list of tuples
    try:
        flat = np.fromiter(chain.from_iterable(chain.from_iterable(lines)), dtype=np.int64,
                           count=2 * int(counts.sum())).reshape(-1, 2)
    except (OverflowError, TypeError, ValueError):
        raise InputError("clues must be (length, colour) pairs of whole numbers", p.source or None) from None
    # The kernels trust their inputs: lengths and colours are checked here, once per puzzle.
    if len(flat) and not (1 <= flat[:, 0].min() and flat[:, 0].max() <= MAX_SIDE
                          and 1 <= flat[:, 1].min() and flat[:, 1].max() < min(p.ncolors, MAX_COLORS)):
        raise InputError(f"block lengths must be from 1 to {MAX_SIDE} and colours from 1 to {p.ncolors - 1}",
                         p.source or None)
    return counts, flat


def prepare(p: Puzzle) -> Puzzle:
    """Keep the clue arrays on the (loaded, no longer edited) puzzle."""
    p.__dict__["_clue_arrays"] = clue_arrays(p)
    return p


def layout(p: Puzzle):
    """The puzzle's clues as the arrays the kernels read (lines 0..R-1 are rows, then columns).

    None when some line's clue cannot fit it (no picture satisfies the puzzle): decided from the
    clue arrays alone, before any per-line array is sized by the longest clue.
    """
    from .bitline import words_for
    from .search import fill_layout

    R, C = p.height, p.width
    nlines = R + C
    counts, flat = clue_arrays(p)
    maxk = max(1, int(counts.max()))
    if maxk > max(R, C):
        return None  # more blocks than cells in some line
    maxslot = max(1, min(maxk, p.ncolors - 1))
    meta = np.zeros((nlines, 5), dtype=np.int64)
    # One entry per block, the lines' blocks one after the other (a line's are meta[line, 4] onwards): padded
    # to the longest clue, these were 2.3 MB of fresh pages to fault in on a 384x216 puzzle with up to 192
    # blocks in a line, about 0.6 ms of its 6 ms.
    blen, bcol, bslot, blo, bhi = (np.zeros(max(1, len(flat)), dtype=np.int32) for _ in range(5))
    nslot = np.zeros(nlines, dtype=np.int64)
    slotcol = np.zeros((nlines, maxslot), dtype=np.int64)
    if fill_layout(R, C, counts, flat, meta, blen, bcol, bslot, blo, bhi, nslot, slotcol) >= 0:
        return None  # a clue needs more cells than its line has
    maxn = max(R, C)
    ws = (
        np.zeros(maxn + 1, dtype=np.int64),  # cells
        np.zeros(maxn + 1, dtype=np.int64),  # out
        np.zeros((maxk + 1, maxn + 2), dtype=np.uint8),  # P
        np.zeros((maxk + 1, maxn + 2), dtype=np.uint8),  # S
        np.zeros((maxslot, maxn + 2), dtype=np.int32),  # prefix counts
        np.zeros((maxslot, maxn + 2), dtype=np.int32),  # difference arrays
        np.zeros(maxn + 1, dtype=np.int64),  # packed line key for the cache
        np.zeros((2, maxk), dtype=np.int64),  # block windows of the line being solved
        np.zeros((4, maxk + 1, words_for(maxn)), dtype=np.int64),  # bit-parallel solvers: position sets per block
        np.zeros((9, words_for(maxn)), dtype=np.int64),  # its scratch words; the line's o, z (5, 6) and before (7, 8)
    )
    return (meta, blen, bcol, bslot, nslot, slotcol, blo, bhi), ws


def memory_needed(p: Puzzle, opts: Options) -> int:
    """Bytes the search state of `solve` will allocate (an estimate from above, for the budget check)."""
    ncell, nlines, maxn = p.height * p.width, p.height + p.width, max(p.height, p.width)
    maxk = (maxn + 1) // 2 if p.is_bw else maxn
    trail = 16 * (ncell * (p.ncolors + 1) + 16)
    per_cell = 8 * 12 + opts.max_solutions  # the twelve int64 arrays of a cell in initial_state, and the solutions
    blocks = sum(len(c) for c in p.rows) + sum(len(c) for c in p.cols)
    tables = 2 * (maxk + 1) * (maxn + 2) + 8 * (maxk + 4) * (maxn + 2) + 4 * 5 * blocks + 8 * 5 * nlines
    searches = 2 if opts.portfolio and opts.probing else 1
    return searches * (trail + per_cell * ncell + tables) + int(opts.cache_mb * (1 << 20))


def initial_state(p: Puzzle, max_solutions: int, flags: int, cache_rows: int = 1):
    from . import linecache
    from . import search as K

    R, C = p.height, p.width
    ncell = R * C
    nlines = R + C
    full = (1 << p.ncolors) - 1
    grid = np.full(ncell, full, dtype=np.int64)
    cap = ncell * (p.ncolors + 1) + 16
    ctr = np.zeros(K.NCTR, dtype=np.int64)
    ctr[K.R_], ctr[K.C_] = R, C
    ctr[K.UNKNOWN] = ncell
    ctr[K.MAXSOL] = max_solutions
    ctr[K.FLAGS] = flags
    ctr[K.STAMP] = 1
    ctr[K.BITS] = p.ncolors
    ctr[K.MODE] = K.M_PROP
    q = np.arange(nlines, dtype=np.int64)
    ctr[K.QLEN] = nlines
    st = (
        grid, q, np.ones(nlines, dtype=np.uint8),
        # The trail (cell, old mask) is only read below its top or where a probe just wrote it: no need
        # to zero its ncell x (colours + 1) entries (0.3 ms per puzzle on a 200x200 with 17 colours).
        np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64), ctr,
        np.zeros(ncell + 1, dtype=np.int64), np.zeros(ncell + 1, dtype=np.int64), np.zeros(ncell + 1, dtype=np.int64),
        np.zeros((max(1, max_solutions), ncell), dtype=np.int8),
        np.zeros(ncell, dtype=np.int64), np.zeros(ncell, dtype=np.int64),
        np.zeros(ncell, dtype=np.int64), np.zeros(ncell, dtype=np.int64),
        linecache.table(cache_rows, linecache.words_for(max(R, C), p.ncolors)),
        np.zeros(ncell, dtype=np.int64), np.zeros(ncell, dtype=np.int64),  # probe pad
        np.zeros(ncell, dtype=np.int64),  # the grid after probing at the root
        np.zeros(ncell, dtype=np.int64),  # probe pad: fewest cells left by a probe that decided the cell
    )
    return st


def cache_shape(p: Puzzle, cache_mb: float) -> tuple[int, int]:
    """(rows, words) of the puzzle's line cache: sized to `cache_mb`, rows a power of two, at most
    4096 per line of the puzzle."""
    from .linecache import HEAD, words_for

    words = words_for(max(p.height, p.width), p.ncolors)
    budget = int(cache_mb * (1 << 20)) // (8 * (HEAD + 2 * words))
    want = 4096 * (p.height + p.width)
    return 1 << max(4, min(budget, want).bit_length() - 1), words


def cache_table(p: Puzzle, cache_mb: float) -> np.ndarray:
    """The line cache, reused from the last puzzle of the same shape (see linecache)."""
    from .linecache import reused

    return reused(*cache_shape(p, cache_mb))


def ready_caches(puzzles, opts: Options) -> None:
    """The line caches of the first shapes these puzzles need, allocated and written before the clock
    starts (`bench`): like the kernels' loading, a one-off cost of the process, not of its first puzzle."""
    from .linecache import POOL_TABLES, ready

    if opts.cache_mb <= 0:
        return
    shapes: list[tuple[int, int]] = []
    for p in puzzles:
        shape = cache_shape(p, opts.cache_mb)
        if shape not in shapes:
            shapes.append(shape)
            if len(shapes) == POOL_TABLES:
                break
    for shape in reversed(shapes):  # the first puzzle's shape last: the pool's freshest, kept longest
        ready(*shape)


class _Search:
    """One state of the generic (colour-mask) search kernel and its chunking."""

    def __init__(self, st, pz, ws):
        self.st, self.pz, self.ws = st, pz, ws
        self.chunk = CHUNK

    @property
    def ctr(self):
        return self.st[5]

    def step(self, K, work_limit: int | None) -> int:
        ctr = self.ctr
        progress = itemgetter(K.SOLVES, K.PROBES, K.NODES, K.BACKTRACKS, K.TPOS, K.QLEN, K.PROBE_CUR)
        before = progress(ctr.tolist())
        limit = int(ctr[K.WORK]) + self.chunk
        if work_limit is not None:
            limit = min(limit, work_limit)
        ctr[K.LIMIT] = limit
        code = K.run(self.pz, self.ws, self.st)
        # A single probe bigger than the chunk restarts from scratch: give the next call more room.
        if code == K.INTERRUPTED and progress(ctr.tolist()) == before:
            self.chunk *= 2
        else:
            self.chunk = CHUNK
        return code


class _Generic:
    """The colour-mask engine (`search.py`): any palette, any size.

    Propagation runs once; if it stalls, two complete searches share the line cache and take turns
    (equal work each): one branches on the cell whose worst colour decides most (good at proving
    uniqueness), the other on the single probe that decides most (good at finding solutions). The
    first to finish answers, so the cost is at most twice that of the better one on each puzzle.
    """

    name = "dp"
    work_per_conflict = 20_000  # one SAT conflict takes about as long as this many work units here

    def __init__(self, p: Puzzle, laid, opts: Options):
        from . import search as K

        self.K, self.p, self.opts = K, p, opts
        flags = (K.F_PROBING if opts.probing else 0) | (K.F_NAIVE if opts.naive else 0) \
            | (K.F_SWEEP if opts.sweep else 0) | (K.F_BALANCED if opts.balanced else 0) \
            | (K.F_WORDS if p.is_bw and opts.bits and not opts.naive else 0) \
            | (K.F_COLOUR_BITS if not p.is_bw and opts.bits and not opts.naive else 0)
        pz, ws = laid
        self.pz = pz
        first = _Search(initial_state(p, opts.max_solutions, flags), pz, ws)
        ctr = first.ctr
        ctr[K.WINDOW], ctr[K.FAIL_PCT], ctr[K.SPRINT_LEN] = opts.window, opts.fail_pct, opts.sprint
        self.first = first
        self.searches = [first]
        self.winner = first
        self.share = None

    def step(self, limit: int | None) -> int:
        """One round: every search advances by a chunk. DONE / LIMIT_REACHED when one finished, else INTERRUPTED."""
        K, opts = self.K, self.opts
        for srch in self.searches:
            budget = limit if self.share is None else (self.share if limit is None else min(limit, self.share))
            code = srch.step(K, budget)
            if code == K.STALLED:
                # Line logic alone stalled: the search starts, and the line cache begins to pay off.
                if opts.cache_mb > 0:
                    srch.st = srch.st[:14] + (cache_table(self.p, opts.cache_mb),) + srch.st[15:]
                    srch.ctr[K.FLAGS] |= K.F_CACHE
                if opts.probing and opts.portfolio:
                    other = _Search(tuple(a if k == 14 else a.copy() for k, a in enumerate(srch.st)), self.pz,
                                    tuple(a.copy() for a in srch.ws))
                    other.ctr[K.FLAGS] ^= K.F_BALANCED
                    self.searches.append(other)
                    if opts.work_limit is not None:
                        self.share = int(srch.ctr[K.WORK]) + (opts.work_limit - int(srch.ctr[K.WORK])) // 2
                        other.ctr[K.WORK] = 0  # the shared root propagation is counted once
                return K.INTERRUPTED
            if code != K.INTERRUPTED:
                self.winner = srch
                return K.DONE if code == K.DONE else K.LIMIT_REACHED
        return K.INTERRUPTED

    @property
    def work(self) -> int:
        return sum(int(s.ctr[self.K.WORK]) for s in self.searches)

    def exhausted(self, limit: int) -> bool:
        return all(s.ctr[self.K.WORK] >= (self.share or limit) for s in self.searches)

    def root_status(self) -> int:
        return {self.K.ROOT_SOLVED: ROOT_SOLVED, self.K.ROOT_CONTRADICTION: ROOT_CONTRADICTION}.get(
            int(self.first.ctr[self.K.ROOT]), ROOT_STALLED)

    def solutions(self, best: bool = False) -> list[np.ndarray]:
        R, C = self.p.height, self.p.width
        pool = self.searches if best else [self.winner]
        return max(([s.st[9][k].reshape(R, C).copy() for k in range(int(s.ctr[self.K.NSOL]))] for s in pool), key=len)

    def root_grid(self) -> np.ndarray | None:
        """Colour masks after probing at the root (None before probing has finished there)."""
        K = self.K
        for s in self.searches:
            if s.ctr[K.HAVE_ROOT]:
                return s.st[17].copy()
        return None

    def sat_lines(self):
        from .satenc import Lines

        return Lines(self.pz[0], self.pz[1], self.pz[2])

    def stats(self) -> dict:
        K = self.K
        counters = [s.ctr.tolist() for s in self.searches]

        def total(slot):
            return sum(c[slot] for c in counters)

        return {"line_solves": total(K.SOLVES), "work": total(K.WORK), "probes": total(K.PROBES),
                "branches": total(K.NODES), "backtracks": total(K.BACKTRACKS),
                "max_depth": max(c[K.MAXDEPTH] for c in counters), "cache_hits": total(K.HITS)}


class _Bits:
    """The bit-parallel engine (`bitsearch.py`) for black-and-white puzzles of at most 62x62."""

    name = "bits"
    work_per_conflict = 150_000

    def __init__(self, p: Puzzle, opts: Options):
        from . import bitsearch as K

        self.K, self.p = K, p
        R, C = p.height, p.width
        counts, flat = clue_arrays(p)
        nl = R + C
        maxk = max(1, int(counts.max()))
        blen = np.zeros((nl, maxk + 1), np.int64)
        starts = np.zeros(nl + 1, np.int64)
        np.cumsum(counts, out=starts[1:])
        self.bad = K.fill_lengths(counts, flat, starts, blen, R, C)
        self.tb = K.Tables(blen, counts, K.log_table(R * C))
        nb, ncell = 2 * nl, R * C
        board = np.empty(nb, np.int64)
        board[:2 * R] = (1 << C) - 1
        board[2 * R:] = (1 << R) - 1
        self.wk = K.Work(board, np.zeros(nb, np.int64), np.zeros(nb, np.int64), np.zeros((ncell + 1, nb), np.int64),
                         np.zeros(ncell + 1, np.int64), np.zeros(nb, np.int64), np.zeros((4, maxk + 2), np.int64),
                         np.zeros(nl, np.int64), np.full(ncell, -1, np.int64), np.zeros((ncell, 2), np.int64),
                         np.zeros((ncell, 2), np.int64), np.zeros(2, np.int64),
                         np.zeros((opts.max_solutions, ncell), np.int8))
        self.ctr = ctr = np.zeros(K.NCTR, np.int64)
        ctr[K.R_], ctr[K.C_], ctr[K.MAXSOL] = R, C, opts.max_solutions

    def overfull(self) -> bool:
        return self.bad >= 0

    def step(self, limit: int | None) -> int:
        K, ctr = self.K, self.ctr
        chunk = int(ctr[K.WORK]) + BIT_CHUNK
        ctr[K.LIMIT] = chunk if limit is None else min(chunk, limit)
        return K.run(self.tb, self.wk, ctr)

    @staticmethod
    def first_limit(opts: Options) -> int:
        """The work limit of `solve`'s first step (the batch path's limit per puzzle)."""
        stop = _line_stop(opts, 0)
        return BIT_CHUNK if stop is None else min(BIT_CHUNK, stop)

    @classmethod
    def taken_over(cls, p: Puzzle, opts: Options, bt, sc, i: int) -> _Bits:
        """The engine of puzzle i of a batch that stopped after its first step: its state copied out of
        the batch's scratch buffers (views of the same shapes as this engine's arrays) and outputs."""
        engine = cls(p, opts)
        for name in engine.wk._fields:
            mine = getattr(engine.wk, name)
            src = bt.sols[bt.sol0[i]:] if name == "sols" else getattr(sc, name)
            mine[...] = src[: mine.size].reshape(mine.shape)
        engine.ctr[:] = bt.ctr[i]
        return engine

    @property
    def work(self) -> int:
        return int(self.ctr[self.K.WORK])

    def exhausted(self, limit: int) -> bool:
        return self.work >= limit

    def root_status(self) -> int:
        return int(self.ctr[self.K.ROOT])

    def solutions(self, best: bool = False) -> list[np.ndarray]:
        R, C = self.p.height, self.p.width
        return [self.wk.sols[k].reshape(R, C).copy() for k in range(int(self.ctr[self.K.NSOL]))]

    def root_grid(self) -> np.ndarray | None:
        if not self.ctr[self.K.HAVE_ROOT]:
            return None
        R, C = self.p.height, self.p.width
        b = self.wk.root
        cols = np.arange(C)
        o = (b[:R, None] >> cols) & 1
        z = (b[R:2 * R, None] >> cols) & 1
        return (2 * o + z).ravel().astype(np.int64)

    def sat_lines(self):
        from .satenc import Lines

        laid = layout(self.p)
        return Lines(laid[0][0], laid[0][1], laid[0][2])

    def stats(self) -> dict:
        return _bit_stats(self.K, self.ctr.tolist())


def uses_bits(p: Puzzle, opts: Options) -> bool:
    from .bitline import MAX_CELLS

    return opts.bits and p.is_bw and max(p.height, p.width) <= MAX_CELLS and not (opts.naive or opts.sweep)


def solve(p: Puzzle, opts: Options | None = None, _resume: tuple | None = None) -> Result:
    """Solve a puzzle; the time counts array setup and search (not parsing, not numba compilation;
    not the flat clue arrays either when `prepare` built them beforehand).

    Black-and-white puzzles up to 62x62 go to the bit-parallel engine, the others to the colour-mask
    engine. When the line-based search has not finished after `sat_after` work units, the state it
    reached by probing at the root goes to the SAT back-end (`sat.py`) and the two take turns, equal
    time each (a conflict counts as the engine's `work_per_conflict` units), sharing the solutions
    they find, until one of them decides: the cost is at most about twice the better one's. Turns
    double in length, because CaDiCaL starts its restart and rephasing schedule again at every call
    (equal 100-conflict turns needed 7.5x the conflicts of one call on a hard 25x25 puzzle). The SAT
    back-end takes the first turn of each round (`sat_first`), so that when it decides in its k-th
    turn the line-based search has had k-1 turns, not k (half the other's time, since turns double):
    SAT decides the hardest puzzles (a 1000-puzzle tournament set took 9% less CPU in all).
    """
    from . import search as K

    opts = opts or Options()
    if opts.max_solutions < 1:
        raise ValueError("max_solutions must be at least 1")
    if opts.memory_budget is not None and memory_needed(p, opts) > opts.memory_budget:
        raise InputError(f"a {p.width}x{p.height} puzzle with {p.ncolors} colours needs about "
                         f"{format_size(memory_needed(p, opts))}, more than the memory budget of "
                         f"{format_size(opts.memory_budget)} (--memory-budget)", p.source or None)
    t0 = time.perf_counter()
    c0 = time.process_time()
    first = None  # the result of the engine's first step, when the batch path took it (solve_many)
    if _resume is not None:  # (engine, wall and CPU seconds its first step took)
        engine, spent_t, spent_c = _resume
        t0 -= spent_t
        c0 -= spent_c
        first = engine.K.INTERRUPTED
    elif uses_bits(p, opts):
        engine = _Bits(p, opts)
        if engine.overfull():
            engine = None
    else:
        laid = layout(p)
        engine = None if laid is None else _Generic(p, laid, opts)
    if engine is None:
        return _no_picture(t0, c0)
    deadline = None if opts.timeout is None else t0 + opts.timeout
    limit = opts.work_limit
    solver = None  # the SAT back-end, once it has joined
    turn = SAT_SLICE  # conflicts of the SAT back-end's next turn; the line-based search gets as long
    decided = False
    code = K.INTERRUPTED
    try:
        while True:
            if first is not None:
                code, first = first, None
            elif solver is None:
                code = engine.step(_line_stop(opts, engine.work))
            else:
                if opts.sat_first and _sat_turn(solver, turn, engine, limit, deadline):
                    break
                stop = engine.work + turn * engine.work_per_conflict
                if limit is not None:
                    stop = min(stop, engine.work + max(0, limit - _spent(engine, solver)))
                code = _turn(engine, stop, deadline)
                for sol in engine.solutions():
                    solver.add(sol)
            if code != K.INTERRUPTED:
                decided = True
                break
            if solver is not None:
                if solver.decided or not opts.sat_first and _sat_turn(solver, turn, engine, limit, deadline):
                    break
                turn *= SAT_GROWTH
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if limit is not None and _spent(engine, solver) >= limit:
                break
            if solver is None and opts.sat and engine.work >= opts.sat_after and engine.root_grid() is not None:
                from . import sat

                solver = sat.SatSearch(engine.root_grid(), p.ncolors, engine.sat_lines(), (p.height, p.width),
                                       opts.max_solutions)
                for sol in engine.solutions():
                    solver.add(sol)
        if decided:  # the line-based search finished: its answer stands (it knows every solution it needs)
            solutions = engine.solutions()
        elif solver is not None and solver.decided:
            decided = True
            solutions = solver.solutions[: opts.max_solutions]
            code = K.DONE if solver.complete else K.LIMIT_REACHED
        else:
            solutions = engine.solutions(best=True) if solver is None else solver.solutions
    finally:
        if solver is not None:
            solver.close()
    root = engine.root_status()
    stats = engine.stats() | {"engine": engine.name, "sat": 0 if solver is None else 1,
                              "sat_conflicts": 0 if solver is None else solver.conflicts}
    return Result(status=_status(decided, solutions, code == K.DONE, root), line_solvable=root == ROOT_SOLVED,
                  solutions=solutions, time_s=time.perf_counter() - t0, cpu_s=time.process_time() - c0, stats=stats)


def _line_stop(opts: Options, work: int) -> int | None:
    """Where the line-based search's next step must stop before the SAT back-end joins: the work
    limit, or `sat_after` while the search has done less (None: no limit)."""
    stop = opts.work_limit
    if opts.sat and work < opts.sat_after:
        stop = opts.sat_after if stop is None else min(stop, opts.sat_after)
    return stop


def _status(decided: bool, solutions: list, complete: bool, root: int) -> str:
    if not decided:
        return "timeout"
    if not solutions:
        return "contradiction"
    if len(solutions) >= 2:
        return "multiple"
    if complete or root == ROOT_SOLVED:
        return "unique"
    return "solved"  # max_solutions=1 stopped the search; uniqueness not decided


def _no_picture(t0: float, c0: float) -> Result:
    """Some clue cannot fit its line."""
    return Result(status="contradiction", line_solvable=False, solutions=[], time_s=time.perf_counter() - t0,
                  cpu_s=time.process_time() - c0, stats=dict.fromkeys(STAT_KEYS, 0) | {"engine": "", "sat": 0})


def batchable(p: Puzzle, opts: Options) -> bool:
    """The batch path takes it: the bit-parallel engine's puzzles within the memory budget."""
    return uses_bits(p, opts) and (opts.memory_budget is None or memory_needed(p, opts) <= opts.memory_budget)


def solve_many(puzzles: list[Puzzle], opts: Options | None = None) -> Iterator[Result]:
    """The batch path: the first kernel step of every `batchable` puzzle, many puzzles per kernel call;
    a puzzle that needs more steps goes on in `solve` from the state the batch left. The steps are
    those of `solve`, so are the answers and counters. Results come in order, as they are known.

    This takes the fixed cost of a call (arrays, kernel dispatch) off each small puzzle. A kernel
    call's time is shared between its puzzles in proportion to the CPU cycles each took (the cycle
    counter); a puzzle that went on in `solve` adds its time there.
    """
    from . import bitsearch as K

    opts = opts or Options()
    if opts.max_solutions < 1:
        raise ValueError("max_solutions must be at least 1")
    if not puzzles:
        return
    seg_t, seg_c = time.perf_counter(), time.process_time()
    n = len(puzzles)
    arrays = [clue_arrays(p) for p in puzzles]
    counts = np.concatenate([a[0] for a in arrays])
    lens = np.concatenate([a[1][:, 0] for a in arrays]).astype(np.int64)
    dims = np.array([(p.height, p.width) for p in puzzles], dtype=np.int64).reshape(n, 2)
    cells = dims[:, 0] * dims[:, 1]
    line0, block0, sol0 = (np.zeros(n + 1, np.int64) for _ in range(3))
    np.cumsum([len(a[0]) for a in arrays], out=line0[1:])
    np.cumsum([len(a[1]) for a in arrays], out=block0[1:])
    np.cumsum(opts.max_solutions * cells, out=sol0[1:])
    bt = K.Batch(counts, lens, line0, block0, dims, np.full(n, _Bits.first_limit(opts), np.int64),
                 np.full(n, K.UNTRIED, np.int64), np.zeros((n, K.NCTR), np.int64),
                 np.zeros(int(sol0[-1]), np.int8), sol0, np.zeros(n, np.int64))
    sc = K.scratch(int((dims[:, 0] + dims[:, 1]).max()), max(1, int(counts.max(initial=0))), int(cells.max()))
    logt = K.log_table(int(cells.max()))
    i = 0
    while i < n:
        j = K.solve_batch(bt, sc, logt, opts.max_solutions, i)
        done = [_batch_result(K, bt, p, k, opts.max_solutions) for k, p in enumerate(puzzles[i:j], start=i)]
        engine = _Bits.taken_over(puzzles[j], opts, bt, sc, j) if j < n else None
        wall, cpu = time.perf_counter() - seg_t, time.process_time() - seg_c
        ticks = bt.ticks[i: min(j, n - 1) + 1].astype(np.float64)
        share = ticks / ticks.sum() if ticks.sum() > 0 else np.full(len(ticks), 1 / len(ticks))
        for res, w in zip(done, share):
            res.time_s, res.cpu_s = float(wall * w), float(cpu * w)
            yield res
        if engine is not None:
            yield solve(puzzles[j], opts, _resume=(engine, float(wall * share[-1]), float(cpu * share[-1])))
        i = j + 1
        seg_t, seg_c = time.perf_counter(), time.process_time()


def _bit_stats(K, c: list) -> dict:
    """The search counters of the bit-parallel engine (its ctr array as a list)."""
    return {"line_solves": c[K.SOLVES], "work": c[K.WORK], "probes": c[K.PROBES], "branches": c[K.NODES],
            "backtracks": c[K.BACKTRACKS], "max_depth": c[K.MAXDEPTH], "cache_hits": 0}


def _batch_result(K, bt, p: Puzzle, i: int, maxsol: int) -> Result:
    """Puzzle i of a batch, finished in its first step (time filled in by the caller)."""
    code = int(bt.code[i])
    if code == K.OVERFULL:
        res = _no_picture(time.perf_counter(), time.process_time())
        res.time_s = res.cpu_s = 0.0
        return res
    c = bt.ctr[i].tolist()
    R, C = p.height, p.width
    sols = bt.sols[bt.sol0[i]: bt.sol0[i + 1]].reshape(maxsol, R * C)
    solutions = [sols[k].reshape(R, C).copy() for k in range(c[K.NSOL])]
    stats = _bit_stats(K, c) | {"engine": _Bits.name, "sat": 0, "sat_conflicts": 0}
    return Result(status=_status(True, solutions, code == K.DONE, c[K.ROOT]), line_solvable=c[K.ROOT] == ROOT_SOLVED,
                  solutions=solutions, time_s=0.0, cpu_s=0.0, stats=stats)


def _turn(engine, stop: int, deadline: float | None) -> int:
    """The line-based search's turn: kernel calls until `stop` work units, an answer, or the deadline."""
    while True:
        code = engine.step(stop)
        if code != engine.K.INTERRUPTED or engine.work >= stop:
            return code
        if deadline is not None and time.perf_counter() >= deadline:
            return code


def _sat_turn(solver, turn: int, engine, limit: int | None, deadline: float | None) -> bool:
    """The SAT back-end's turn of `turn` conflicts (less near the work limit or the deadline); True when decided."""
    budget = turn
    if limit is not None:
        budget = min(budget, max(1, (limit - _spent(engine, solver)) // engine.work_per_conflict))
    if deadline is not None:
        budget = min(budget, solver.affordable(deadline - time.perf_counter()))
    return solver.step(budget)


def _spent(engine, solver) -> int:
    """Work units used so far: the line-based engine's, and the SAT back-end's conflicts converted."""
    return engine.work + (0 if solver is None else solver.conflicts * engine.work_per_conflict)


def warm_up() -> None:
    """Compile (or load from the cache) every kernel variant, so that timings exclude numba's start-up."""
    from . import sat
    from .model import Puzzle as _P

    tiny = _P(name="warm-up", rows=[[(1, 1)], [(1, 1)]], cols=[[(1, 1)], [(1, 1)]])
    colour = _P(name="warm-up", rows=[[(1, 1), (1, 2)]], cols=[[(1, 1)], [(1, 2)]],
                palette=["#ffffff", "#000000", "#ff0000"])
    for naive in (False, True):
        for sweep in (False, True):
            for probing in (False, True):
                solve(tiny, Options(probing=probing, naive=naive, sweep=sweep, bits=False))
    solve(tiny)
    list(solve_many([tiny, tiny]))
    solve(colour)
    for p in (tiny, colour):
        laid = layout(p)
        from .satenc import Lines

        grid = np.full(p.height * p.width, (1 << p.ncolors) - 1, dtype=np.int64)
        sat.build(grid, p.ncolors, Lines(laid[0][0], laid[0][1], laid[0][2]), max(p.height, p.width))
