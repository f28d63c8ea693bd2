"""A Snakebird level as a search domain for the compressed BFS (`puzzlelab.bfs`).

States are the canonical packed bit strings of docs/snakebird.md §8 (`width` bytes each);
`expand` runs the kernel `expand_range` on pieces of the batch, on `expand_threads()` threads; a
move byte is `4 * snake slot + direction` in the parent's canonical snake order (turned into the
head letter of the level's snake by `play.name_moves`, which tracks identities).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from . import kernels as K
from .layout import make_tables, make_work, no_children
from .level import DIRECTIONS, Level, level_arrays, load_level

__all__ = ["SnakebirdDomain", "make_domain", "expand_threads"]

# Parents per piece when a batch is split over threads: small enough to balance uneven pieces,
# large enough that handing a piece to a thread costs nothing next to expanding it.
PIECE = 4096
_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1), thread_name_prefix="snakebird")
        return _POOL


def expand_threads() -> int:
    """Threads used by `expand`: numba's thread count (NUMBA_NUM_THREADS, numba.set_num_threads)."""
    import numba

    return max(1, int(numba.get_num_threads()))


class Decoded:
    """A decoded state: cells[s, j], slen[s] (0 = gone), fruit[f], gpos[g] (0 = destroyed)."""

    __slots__ = ("cells", "slen", "fruit", "gpos")

    def __init__(self, cells, slen, fruit, gpos):
        self.cells, self.slen, self.fruit, self.gpos = cells, slen, fruit, gpos

    def copy(self) -> Decoded:
        return Decoded(self.cells.copy(), self.slen.copy(), self.fruit.copy(), self.gpos.copy())


class SnakebirdDomain:
    """The search domain of one level (see the module docstring)."""

    def __init__(self, level: Level):
        self.level = level
        self.name = f"snakebird:{level.name}"
        self.k = K
        self.tables = make_tables(level)
        self.gad_off = self.tables.gad_off
        self.gad_n = self.tables.gad_n
        self.gadget_order = level_arrays(level)["gadget_order"]  # slot -> gadget digit
        self._work: list = []  # layout.Work per thread
        self.width = level.state_bytes
        self.nsnakes = len(level.snakes)
        self.max_children = 4 * self.nsnakes
        self.space_size = None
        start, self.start_snakes, self.start_gadgets = self.initial()
        self.start_row = self.pack(start)
        self.start = self.start_row.reshape(1, self.width)  # the engine takes (k, width)

    # --- decoded states ---
    def empty(self) -> Decoded:
        ns, nf, ng = self.nsnakes, len(self.level.fruit), len(self.level.gadgets)
        return Decoded(np.zeros((ns, self.level.snake_max_len + 1), dtype=np.int64), np.zeros(ns, dtype=np.int64),
                       np.zeros(max(nf, 1), dtype=np.uint8), np.zeros(max(ng, 1), dtype=np.int64))

    def initial(self) -> tuple[Decoded, np.ndarray, np.ndarray]:
        """The start as drawn, canonicalised; also which level snake / gadget digit sits in each slot."""
        st = self.empty()
        for s, body in enumerate(self.level.snakes):
            st.slen[s] = len(body)
            st.cells[s, : len(body)] = body
        st.fruit[: len(self.level.fruit)] = 1
        for slot, g in enumerate(self.gadget_order):
            if len(self.level.gadgets):
                st.gpos[slot] = self.level.gadgets[g][0]
        perm_s, perm_g = self.canonicalize(st)
        return st, perm_s, np.asarray(self.gadget_order)[perm_g[: len(self.level.gadgets)]]

    def canonicalize(self, st: Decoded) -> tuple[np.ndarray, np.ndarray]:
        """Sort in place; returns the permutations applied (new slot -> old slot)."""
        perm_s = np.arange(self.nsnakes, dtype=np.int64)
        perm_g = np.arange(len(st.gpos), dtype=np.int64)
        self.k.canonicalize(self.tables, st.cells, st.slen, np.zeros(self.nsnakes, dtype=np.uint64), st.gpos,
                            perm_s, perm_g)
        return perm_s, perm_g

    def pack(self, st: Decoded) -> np.ndarray:
        shape = np.zeros(self.nsnakes, dtype=np.uint64)
        self.k.shapes_of(self.tables, st.cells, st.slen, shape)
        out = np.zeros(self.width, dtype=np.uint8)
        self.k.pack(self.tables, st.cells, st.slen, shape, st.fruit, st.gpos, out)
        return out

    def unpack(self, state: np.ndarray) -> Decoded:
        st = self.empty()
        self.k.unpack(self.tables, np.ascontiguousarray(state, dtype=np.uint8), st.cells, st.slen,
                      np.zeros(self.nsnakes, dtype=np.uint64), st.fruit, st.gpos)
        return st

    def _thread_work(self, i: int):
        """Scratch memory of thread i."""
        while len(self._work) <= i:
            self._work.append(make_work(self.tables, self.level.snake_max_len))
        return self._work[i]

    def play(self, st: Decoded, snake: int, direction: int) -> tuple[Decoded, np.ndarray, np.ndarray] | None:
        """Snake slot `snake` of `st` moves in `direction` (0..3 = U R D L): the canonical successor and
        the slot permutations (new snake slot -> st's slot, new gadget slot -> st's slot), or None when
        the move is impossible or kills a snake. The one move generator is the search's (`expand`)."""
        row = self.pack(st).reshape(1, self.width)
        ns, ng = self.nsnakes, len(self.level.gadgets)
        ch = no_children(ns, ng)._replace(rows=np.empty((self.max_children, self.width), dtype=np.uint8),
                                         move=np.empty(self.max_children, dtype=np.uint8),
                                         perms=np.empty((self.max_children, max(ns + ng, 1)), dtype=np.int8))
        m = self.k.expand_range(self.tables, self._thread_work(0), row, 0, 1, np.zeros(1, dtype=np.uint8), ch, 0)
        hits = np.flatnonzero(ch.move[:m] == 4 * int(snake) + int(direction))
        if not hits.size:
            return None
        j = int(hits[0])
        child = self.unpack(ch.rows[j])
        child.fruit[len(self.level.fruit):] = 0
        perm_g = ch.perms[j, ns:ns + ng].astype(np.int64) if ng else np.zeros(1, dtype=np.int64)
        return child, ch.perms[j, :ns].astype(np.int64), perm_g

    # --- the BFS interface ---
    def _run_pieces(self, states: np.ndarray, ch, phash: np.ndarray) -> int:
        """Expand states into the `layout.Children` buffers (n * max_children rows) on `expand_threads()`
        threads and compact the pieces in order; returns the number of children."""
        n = states.shape[0]
        nm = self.max_children
        threads = min(expand_threads(), (n + PIECE - 1) // PIECE)
        bounds = list(range(0, n, PIECE)) + [n] if threads > 1 else [0, n]
        pieces = list(zip(bounds[:-1], bounds[1:]))
        counts = [0] * len(pieces)

        def lane(t: int) -> None:
            # thread t takes pieces t, t + threads, ...: no two threads share scratch memory
            wk = self._thread_work(t)
            for p in range(t, len(pieces), max(threads, 1)):
                lo, hi = pieces[p]
                counts[p] = self.k.expand_range(self.tables, wk, states, lo, hi, phash, ch, lo * nm)

        if threads <= 1:
            lane(0)
            return counts[0]
        for t in range(threads):
            self._thread_work(t)
        for f in [_pool().submit(lane, t) for t in range(threads)]:
            f.result()
        m = 0
        for (lo, _), c in zip(pieces, counts):  # close the gaps, in order (destinations never pass sources)
            at = lo * nm
            if at != m:
                for arr in ch:
                    if arr.shape[0]:
                        arr[m:m + c] = arr[at:at + c]
            m += c
        return m

    def expand(self, states: np.ndarray):
        """(children, parent_index, move) for a batch of packed states (n x width uint8).

        Children come in parent order, then snake slot, then direction (U R D L). Pieces of the
        batch go to `expand_threads()` threads, each writing its own part of the output, and the
        parts are joined in order: the result does not depend on the thread count."""
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        slots = states.shape[0] * self.max_children
        ch = no_children(self.nsnakes, len(self.level.gadgets))._replace(
            rows=np.empty((slots, self.width), dtype=np.uint8), parent=np.empty(slots, dtype=np.int64),
            move=np.empty(slots, dtype=np.uint8))
        m = self._run_pieces(states, ch, np.empty(0, dtype=np.uint8))
        return ch.rows[:m], ch.parent[:m], ch.move[:m]

    def expand_into(self, states: np.ndarray, parent_hash: np.ndarray, out: np.ndarray, tags: np.ndarray) -> int:
        """The children of `expand`, in the same order, into out (rows) and tags (the parent's
        parent_hash byte); both hold n * max_children entries. Returns the number of children."""
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        ch = no_children(self.nsnakes, len(self.level.gadgets))._replace(rows=out, tags=tags)
        return self._run_pieces(states, ch, np.ascontiguousarray(parent_hash, dtype=np.uint8))

    def load_kernels(self, fused: bool) -> None:
        """Call each kernel of a search once on the start state, before the engine's clock starts."""
        if fused:
            self.search_fused(1, 0, True)
        out = np.empty((self.max_children, self.width), dtype=np.uint8)
        self.expand_into(self.start, np.zeros(1, dtype=np.uint8), out, np.empty(self.max_children, dtype=np.uint8))
        self.expand(self.start)
        self.is_goal(self.start)

    def search_fused(self, cap: int, max_depth: int | None, stop_at_goal: bool):
        """The whole search in one kernel call while it fits `cap` states (`bfs.fused`; None: not this level)."""
        from .fused import search_fused

        return search_fused(self, cap, max_depth, stop_at_goal)

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        out = np.empty(states.shape[0], dtype=np.bool_)
        self.k.goal_mask(self.tables, states, out)
        return out

    def format_state(self, state: np.ndarray) -> str:
        return bytes(np.asarray(state, dtype=np.uint8)).hex()

    def parse_state(self, text: str) -> np.ndarray:
        from ..lab.errors import InputError

        try:
            raw = bytes.fromhex(text.strip())
        except ValueError:
            raise InputError(f"not a hex state: {text!r}") from None
        if len(raw) != self.width:
            raise InputError(f"a {self.level.name} state has {self.width} bytes, got {len(raw)}")
        return np.frombuffer(raw, dtype=np.uint8).copy()

    def format_move(self, move: int, parent_row: np.ndarray | None = None) -> str:
        """`s1U` = snake slot 1 (canonical order of the parent) moves up; with the parent row, the slot's
        head cell too (`s1@37U`). Level letters need identities: see `play.solution_moves`."""
        slot, d = int(move) // 4, DIRECTIONS[int(move) % 4]
        if parent_row is None:
            return f"s{slot}{d}"
        st = self.unpack(parent_row)
        return f"s{slot}@{int(st.cells[slot, 0])}{d}"


def make_domain(spec: str | Path) -> SnakebirdDomain:
    """`snakebird:<level path>` (or a plain path) -> its domain."""
    text = str(spec)
    if text.startswith("snakebird:"):
        text = text[len("snakebird:"):]
    return SnakebirdDomain(load_level(text))
