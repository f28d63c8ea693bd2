"""A search in one kernel call, for domains that offer one (`domain.search_fused`), with the results
of the compressed engine: the same layers, children, goal, path, visited bytes and parent bytes.

Small searches spend most of their time between depths in Python (about a millisecond a depth), not
in kernels. A fused search keeps every layer uncompressed in arrays sized by the memory budget and
loops over depths inside the kernel. It stops when the search is done, or hands over (`HANDOVER`)
when the next layer would not fit: the engine then writes the complete layers and the visited set
into its stores, exactly as it would have them at that depth (the arrays' size is chosen so that
the engine spills nothing before it), and goes on from there. So the result never depends on
whether, or where, the fused search stopped.

Only for searches with parent-hash tags, the visited set, `le` key order, the kept layers and the
domain's own goal test (`search(fused=True)`); states of at most 8 bytes (one key word).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .keys import keys_to_rows
from .parents import SolutionPath, replay

# kernel statuses (out[0] of a domain's fused kernel)
COMPLETE = 0  # a layer came out empty: every reachable state was visited
GOAL = 1  # stopped at the first depth holding a goal
MAX_DEPTH = 2  # stopped at max_depth
HANDOVER = 3  # the next layer does not fit: the engine goes on from the last complete depth

MAX_LAYERS = 1 << 16
# bytes the arrays take per state of room (FusedArrays.allocate): layers, visited set, candidates, sort
BYTES_PER_STATE = 8 + 1 + 4 + 1 + 8 + (8 + 1 + 4 + 1) + (8 + 4) * 2
# the largest arrays a fused search allocates, whatever the budget
MAX_FUSED_BYTES = 96 << 20


class FusedArrays(NamedTuple):
    """What a fused kernel works in: every layer (keys, parent-hash tags, parent positions in the layer
    before, moves; `off[d]` = first state of depth d), the visited set, the candidates of one depth,
    sort scratch, one piece of parent rows with their hashes and goal flags."""

    keys: np.ndarray
    tags: np.ndarray
    ppos: np.ndarray
    moves: np.ndarray
    off: np.ndarray
    visited: np.ndarray
    ckey: np.ndarray
    chash: np.ndarray
    cpar: np.ndarray
    cmove: np.ndarray
    skey: np.ndarray
    sidx: np.ndarray
    tkey: np.ndarray
    tidx: np.ndarray
    counts: np.ndarray
    rows: np.ndarray
    phash: np.ndarray
    goal: np.ndarray

    @staticmethod
    def allocate(cap: int, width: int, piece: int, max_children: int) -> FusedArrays:
        sort = max(cap, piece * max_children)
        return FusedArrays(
            keys=np.empty(cap, dtype=np.uint64), tags=np.empty(cap, dtype=np.uint8),
            ppos=np.empty(cap, dtype=np.int32), moves=np.empty(cap, dtype=np.uint8),
            off=np.zeros(min(cap + 2, MAX_LAYERS), dtype=np.int64), visited=np.empty(cap, dtype=np.uint64),
            ckey=np.empty(cap, dtype=np.uint64), chash=np.empty(cap, dtype=np.uint8),
            cpar=np.empty(cap, dtype=np.int32), cmove=np.empty(cap, dtype=np.uint8),
            skey=np.empty((sort, 1), dtype=np.uint64), sidx=np.empty(sort, dtype=np.int32),
            tkey=np.empty((sort, 1), dtype=np.uint64), tidx=np.empty(sort, dtype=np.int32),
            counts=np.zeros((8, 256), dtype=np.int64), rows=np.zeros((piece, width), dtype=np.uint8),
            phash=np.zeros(piece, dtype=np.uint8), goal=np.zeros(piece, dtype=np.bool_))


@dataclass
class FusedRun:
    """A fused kernel's result: layers 0..depth complete (`off`), the visited set, children generated
    by their expansion, and the goal (depth, index in its layer) if one was met."""

    status: int
    depth: int
    arrays: FusedArrays
    nvis: int
    children: int
    goal_depth: int | None
    goal_index: int | None

    @classmethod
    def from_kernel(cls, fa: FusedArrays, out: np.ndarray) -> FusedRun:
        status, depth, nvis, children, gd, gi = (int(v) for v in out[:6])
        return cls(status, depth, fa, nvis, children, None if gd < 0 else gd, None if gi < 0 else gi)

    @property
    def off(self) -> np.ndarray:
        return self.arrays.off[:self.depth + 2]

    @property
    def visited(self) -> np.ndarray:
        return self.arrays.visited[:self.nvis]

    @property
    def keys(self) -> np.ndarray:
        return self.arrays.keys

    @property
    def tags(self) -> np.ndarray:
        return self.arrays.tags

    @property
    def layers(self) -> list[int]:
        return [int(v) for v in np.diff(self.off)]

    def layer(self, d: int) -> tuple[np.ndarray, np.ndarray]:
        """(keys as (n, 1) words, tags) of depth d, in key order."""
        lo, hi = int(self.off[d]), int(self.off[d + 1])
        return self.keys[lo:hi].reshape(-1, 1), self.tags[lo:hi]

    def row(self, d: int, i: int, width: int) -> np.ndarray:
        """State i of depth d as a row."""
        at = int(self.off[d]) + i
        return keys_to_rows(self.keys[at:at + 1].reshape(1, 1), width, True)[0]

    def goal(self, width: int) -> tuple[np.ndarray, int] | None:
        """(goal row, its tag), or None."""
        if self.goal_depth is None:
            return None
        d, i = self.goal_depth, self.goal_index
        return self.row(d, i, width), int(self.tags[int(self.off[d]) + i])

    def path(self, domain) -> SolutionPath:
        """The path to the goal through the parent positions, verified by replaying it."""
        width = int(domain.width)
        d, i = self.goal_depth, self.goal_index
        at = [int(self.off[d]) + i]
        moves = []
        while d > 0:
            moves.append(int(self.arrays.moves[at[-1]]))
            i, d = int(self.arrays.ppos[at[-1]]), d - 1
            at.append(int(self.off[d]) + i)
        rows = keys_to_rows(self.keys[np.array(at[::-1])].reshape(-1, 1), width, True)
        path = SolutionPath(states=list(rows), moves=moves[::-1])
        path.verified = replay(domain, path, rows[-1])
        if not path.verified:
            raise RuntimeError(f"the fused search's path of {domain.name} does not replay to the goal")
        return path


def usable(domain, plan, goal, keep_layers: bool) -> bool:
    """Whether this search can start fused."""
    return (getattr(domain, "search_fused", None) is not None and goal is None and keep_layers
            and plan.le and plan.nwords == 1 and not plan.frontier and not plan.move_tags)


def room(plan, capacity: int) -> int:
    """States the fused arrays may hold: within MAX_FUSED_BYTES, and few enough that the engine, given
    them as stores with its own working sets beside, would not have spilled (stores and runs counted
    at their raw size, which the codec never exceeds by more than a block header)."""
    working = plan.chunk_bytes + plan.writer_bytes + plan.block * plan.width + plan.merge_need(4, 2)
    per_state = 3 * (plan.width + 1) + 1
    fit = max(0, capacity - working) // (2 * per_state)
    return int(min(fit, plan.chunk, MAX_FUSED_BYTES // BYTES_PER_STATE))
