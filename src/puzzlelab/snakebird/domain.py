"""A Snakebird level as a search domain for the compressed BFS (`puzzlelab.bfs`).

States are the canonical packed bit strings of shared/docs/snakebird-rules.md §9.4 (`width`
bytes each); `expand` is the numba batch kernel of `kernels.py`; a move byte is
`4 * snake slot + direction` in the parent's canonical snake order (turned into the head letter
of the level's snake by `play.solution_moves`, which tracks identities).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import kernels as K
from .level import DIRECTIONS, Level, level_arrays, load_level

__all__ = ["SnakebirdDomain", "make_domain"]


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
        self.gadget_order = arrays["gadget_order"]  # slot -> gadget digit
        self.width = level.state_bytes
        self.nsnakes = len(level.snakes)
        self.max_children = 4 * self.nsnakes
        self.space_size = None
        self._words = np.zeros((self.width + 7) // 8 + 1, dtype=np.uint64)
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
        K.pack(self.params, st.cells, st.slen, st.fruit, st.gpos, self._words, out)
        return out

    def unpack(self, state: np.ndarray) -> Decoded:
        st = self.empty()
        K.unpack(self.params, np.asarray(state, dtype=np.uint8), self._words, st.cells, st.slen, st.fruit, st.gpos)
        return st

    def play(self, st: Decoded, snake: int, direction: int) -> Decoded | None:
        """The decoded successor (slots in the parent's order, not yet canonical), or None if invalid."""
        child = st.copy()
        scratch = K.make_scratch(self.params)
        ok = K.apply_move(self.params, self.terrain, self.fruit_at, self.gad_off, self.gad_n, self.tele,
                          child.cells, child.slen, child.fruit, child.gpos, snake, direction, *scratch)
        return child if ok else None

    # --- the BFS interface ---
    def expand(self, states: np.ndarray):
        """(children, parent_index, move) for a batch of packed states (n x width uint8)."""
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        return K.expand_all(self.params, self.terrain, self.fruit_at, self.gad_off, self.gad_n, self.gad_class,
                            self.tele, states)

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        states = np.ascontiguousarray(states, dtype=np.uint8).reshape(-1, self.width)
        return K.goal_mask(self.params, states)

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
