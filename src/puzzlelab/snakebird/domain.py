"""A Snakebird level as a search domain for the compressed BFS (`puzzlelab.bfs`).

States are the canonical packed bit strings of shared/docs/snakebird-rules.md §9.4 (`width`
bytes each); `expand` runs the numba kernel `kernels.expand_range` on pieces of the batch, on
`expand_threads()` threads; a move byte is `4 * snake slot + direction` in the parent's
canonical snake order (turned into the head letter of the level's snake by
`play.solution_moves`, which tracks identities).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from . import kernels as K
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

    def copy(self) -> "Decoded":
        return Decoded(self.cells.copy(), self.slen.copy(), self.fruit.copy(), self.gpos.copy())


class SnakebirdDomain:
    """The search domain of one level (see the module docstring)."""

    def __init__(self, level: Level):
        self.level = level
        self.name = f"snakebird:{level.name}"
        arrays = level_arrays(level)
        self.params = arrays["params"]
        self.terrain = arrays["terrain"]
        self.fruit_at = arrays["fruit_at"]
        self.gad_off = arrays["gad_off"]
        self.gad_n = arrays["gad_n"]
        self.gad_class = arrays["gad_class"]
        self.tele = arrays["tele"]
        self.flags = K.terrain_flags(self.terrain)
        self.lv = (self.params, self.flags, self.fruit_at, self.gad_off, self.gad_n, self.gad_class, self.tele)
        self._work: list[tuple] = []  # per thread: (work tuple, parent grid, perm_s, perm_g)
        self.gadget_order = arrays["gadget_order"]  # slot -> gadget digit
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
        K.canonicalize(self.params, self.gad_class, st.cells, st.slen, st.gpos, perm_s, perm_g)
        return perm_s, perm_g

    def pack(self, st: Decoded) -> np.ndarray:
        out = np.zeros(self.width, dtype=np.uint8)
        K.pack(self.params, st.cells, st.slen, st.fruit, st.gpos, out)
        return out

    def unpack(self, state: np.ndarray) -> Decoded:
        st = self.empty()
        K.unpack(self.params, np.ascontiguousarray(state, dtype=np.uint8), st.cells, st.slen, st.fruit, st.gpos)
        return st

    def _thread_work(self, i: int) -> tuple:
        """Scratch memory of thread i: (work tuple, parent grid, perm_s, perm_g)."""
        while len(self._work) <= i:
            self._work.append((K.make_work(self.params), np.zeros(self.level.cells, dtype=np.int64),
                               np.zeros(self.nsnakes, dtype=np.int64),
                               np.zeros(max(len(self.level.gadgets), 1), dtype=np.int64)))
        return self._work[i]

    def play(self, st: Decoded, snake: int, direction: int) -> Decoded | None:
        """The decoded successor (slots in the parent's order, not yet canonical), or None if invalid."""
        wk, grid0, _, _ = self._thread_work(0)
        for dst, src in zip(wk[K.W_CELLS0:K.W_GPOS0 + 1], (st.cells, st.slen, st.fruit, st.gpos)):
            dst[...] = src
        stamp0, tele0 = K.prepare(self.lv, wk, grid0)
        if not K.try_move(self.lv, wk, int(snake), int(direction), grid0, stamp0, tele0):
            return None
        child = st.copy()
        for dst, src in zip((child.cells, child.slen, child.fruit, child.gpos), wk[K.W_CELLS:K.W_GPOS + 1]):
            dst[...] = src
        return child

    # --- the BFS interface ---
    def _run_pieces(self, states, out, parent, move, phash, tags) -> int:
        """Expand states into the buffers (n * max_children slots) on `expand_threads()` threads and
        compact the pieces in order; returns the number of children."""
        n = states.shape[0]
        nm = self.max_children
        threads = min(expand_threads(), (n + PIECE - 1) // PIECE)
        bounds = list(range(0, n, PIECE)) + [n] if threads > 1 else [0, n]
        pieces = list(zip(bounds[:-1], bounds[1:]))
        counts = [0] * len(pieces)
        empty_i, empty_u = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.uint8)

        def lane(t: int) -> None:
            # thread t takes pieces t, t + threads, ...: no two threads share scratch memory
            wk, grid0, perm_s, perm_g = self._thread_work(t)
            for p in range(t, len(pieces), max(threads, 1)):
                lo, hi = pieces[p]
                at = lo * nm
                counts[p] = K.expand_range(self.lv, wk, grid0, perm_s, perm_g, states, lo, hi, out[at:],
                                           parent[at:] if parent.shape[0] else empty_i,
                                           move[at:] if move.shape[0] else empty_u, phash,
                                           tags[at:] if tags.shape[0] else empty_u)

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
                for arr in (out, parent, move, tags):
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
        out = np.empty((slots, self.width), dtype=np.uint8)
        parent = np.empty(slots, dtype=np.int64)
        move = np.empty(slots, dtype=np.uint8)
        empty = np.empty(0, dtype=np.uint8)
        m = self._run_pieces(states, out, parent, move, empty, empty)
        return out[:m], parent[:m], move[:m]

    def expand_into(self, states: np.ndarray, parent_hash: np.ndarray, out: np.ndarray, tags: np.ndarray) -> int:
        """The children of `expand`, in the same order, into out (rows) and tags (the parent's
        parent_hash byte); both hold n * max_children entries. Returns the number of children."""
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        return self._run_pieces(states, out, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.uint8),
                                np.ascontiguousarray(parent_hash, dtype=np.uint8), tags)

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        out = np.empty(states.shape[0], dtype=np.bool_)
        K.goal_mask(self.params, states, out)
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
