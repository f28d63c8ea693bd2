"""What the Snakebird kernels take, built in numpy alone: a level's `Tables`, a thread's `Work`, the
per-batch `Children` outputs, and the codes of the occupancy grid (see `kernels`).

Kept apart from the kernels (numpy only, no numba) so that building a level's tables costs no
compilation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# occupancy codes (Work.occ): FREE, an object o + 1 (1..63), FRUIT, or terrain (>= TERRAIN)
FREE = 0
FRUIT = 64  # an uneaten fruit
TERRAIN = 0x80  # every code at or above it is terrain that objects never enter
WALL = 0x81
SPIKES = 0x82
WATER = 0x84

_TERRAIN_CODES = {".": WALL, "#": SPIKES, "~": WATER}


class Tables(NamedTuple):
    """Everything about a level that no move changes (`make_tables`)."""

    w: int  # map width: up is -w
    ns: int  # snakes
    nf: int  # fruit
    ng: int  # gadgets
    ib: int  # bits of a cell index (docs/snakebird.md §8)
    lb: int  # bits of a snake length
    tail_bits: int  # 2 * (snake_max_len - 1)
    nbytes: int  # bytes of a packed state
    exit: int  # exit cell
    tele_a: int  # teleporter halves (0 when the level has none)
    tele_b: int
    base: np.ndarray  # uint8 per cell: FREE or the terrain code (fruit lifted off)
    fruit_cell: np.ndarray  # int64 per fruit
    fruit_at: np.ndarray  # int64 per cell: fruit index or -1
    gad_off: np.ndarray  # int64 (ng, 8): cell offsets of each gadget slot from its first cell
    gad_n: np.ndarray  # int64 per gadget slot: its cells
    gad_class: np.ndarray  # int64 per gadget slot: slots with one shape share a class (§7)


class Work(NamedTuple):
    """Scratch memory of one thread: the parent (`*0`) and child decoded states, the occupancy grid and
    a stack of objects. A decoded state is `cells[s, j]` (segment j of snake s, head first), `slen[s]`
    (0 = left the map), `shape[s]` (its links, 2 bits each, newest lowest: the §8 field), `fruit[f]`
    (1 = still there) and `gpos[g]` (first cell of gadget slot g, 0 = destroyed)."""

    cells0: np.ndarray
    slen0: np.ndarray
    shape0: np.ndarray
    fruit0: np.ndarray
    gpos0: np.ndarray
    cells: np.ndarray
    slen: np.ndarray
    shape: np.ndarray
    fruit: np.ndarray
    gpos: np.ndarray
    occ: np.ndarray  # uint8 per cell
    stack: np.ndarray  # int64 per object: objects still to visit
    perm_s: np.ndarray  # int64 per snake: canonical slot -> the parent's slot
    perm_g: np.ndarray  # int64 per gadget slot


class Children(NamedTuple):
    """Where `expand_range` writes: canonical packed rows and, for the arrays that are not empty, each
    child's parent row, move (4 * snake slot + direction U R D L), parent hash byte and slot permutation
    (canonical snake slots, then gadget slots, each naming the parent's slot)."""

    rows: np.ndarray  # uint8 (n, nbytes)
    parent: np.ndarray  # int64 (n) or empty
    move: np.ndarray  # uint8 (n) or empty
    tags: np.ndarray  # uint8 (n) or empty
    perms: np.ndarray  # int8 (n, ns + ng) or empty


def terrain_codes(terrain: str) -> np.ndarray:
    """The occupancy code of every cell's terrain character ('.', '#', '~' or ' ')."""
    return np.array([_TERRAIN_CODES.get(ch, FREE) for ch in terrain], dtype=np.uint8)


def make_tables(level) -> Tables:
    """The `Tables` of a parsed level (`level.Level`, whose sizes the parser has checked)."""
    from .level import level_arrays

    arrays = level_arrays(level)
    fruit_cell = np.zeros(max(len(level.fruit), 1), dtype=np.int64)
    fruit_cell[: len(level.fruit)] = level.fruit
    tele = level.teleporters[0] if level.teleporters else (0, 0)
    return Tables(w=level.width, ns=len(level.snakes), nf=len(level.fruit), ng=len(level.gadgets),
                  ib=level.index_bits, lb=level.len_bits, tail_bits=2 * (level.snake_max_len - 1),
                  nbytes=level.state_bytes, exit=level.exit, tele_a=int(tele[0]), tele_b=int(tele[1]),
                  base=terrain_codes(level.terrain), fruit_cell=fruit_cell,
                  fruit_at=arrays["fruit_at"].astype(np.int64),
                  gad_off=arrays["gad_off"].astype(np.int64), gad_n=arrays["gad_n"].astype(np.int64),
                  gad_class=arrays["gad_class"].astype(np.int64))


def make_work(tables: Tables, snake_max_len: int) -> Work:
    """Scratch buffers for one thread."""
    ns, nf, ng = tables.ns, max(tables.nf, 1), max(tables.ng, 1)

    def decoded():
        return (np.zeros((ns, snake_max_len + 1), dtype=np.int64), np.zeros(ns, dtype=np.int64),
                np.zeros(ns, dtype=np.uint64), np.zeros(nf, dtype=np.uint8), np.zeros(ng, dtype=np.int64))

    return Work(*decoded(), *decoded(), occ=tables.base.copy(), stack=np.zeros(ns + ng, dtype=np.int64),
                perm_s=np.zeros(ns, dtype=np.int64), perm_g=np.zeros(ng, dtype=np.int64))


def no_children(ns: int, ng: int) -> Children:
    """Empty optional outputs, to fill in with `Children._replace`."""
    return Children(rows=np.empty((0, 1), dtype=np.uint8), parent=np.empty(0, dtype=np.int64),
                    move=np.empty(0, dtype=np.uint8), tags=np.empty(0, dtype=np.uint8),
                    perms=np.empty((0, max(ns + ng, 1)), dtype=np.int8))
