"""Rebuilding a path through the 1-byte parent hashes, and checking it by replaying it forward.

For a state S at depth D+1 with parent hash h, scan depth D in order, skip states whose hash is
not h, re-expand the rest (about 1/256 of them) and take the first that produces S. Without the
hash (``use_hash=False``) every state of depth D is re-expanded until one produces S.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .keys import row_hash8, rows_to_keys


@dataclass
class SolutionPath:
    """A path from a start state: `moves[i]` turns `states[i]` into `states[i + 1]`."""

    states: list[np.ndarray]
    moves: list[int]
    verified: bool = False

    def __len__(self) -> int:
        return len(self.moves)


def path_json(domain, path: SolutionPath) -> dict:
    """The CLI's object of a path: moves and states in the domain's text forms."""
    return {
        "length": len(path.moves),
        "moves": [domain.format_move(m, s) for m, s in zip(path.moves, path.states, strict=False)],
        "states": [domain.format_state(s) for s in path.states],
        "verified": path.verified,
    }


@dataclass
class RebuildStats:
    scanned: int = 0  # states read from the layers
    expanded: int = 0  # states re-expanded


def find_parent(domain, store, target: np.ndarray, h: int | None, stats: RebuildStats):
    """(parent row, move id, parent's own tag) of target within one layer store, or None."""
    for i in range(len(store.blocks)):
        rows, tags = store.decode(i)
        stats.scanned += rows.shape[0]
        if h is None:
            cand = np.arange(rows.shape[0])
        else:
            cand = np.flatnonzero(row_hash8(rows) == h)
        if cand.size == 0:
            continue
        stats.expanded += cand.size
        children, parent_index, moves = domain.expand(np.ascontiguousarray(rows[cand]))
        hit = np.flatnonzero((np.asarray(children) == target[None, :]).all(axis=1))
        if hit.size:
            j = hit[np.argmin(np.asarray(parent_index)[hit])]
            p = cand[int(parent_index[j])]
            return rows[p].copy(), int(moves[j]), int(tags[p])
    return None


def rebuild_path(domain, layer_stores, depth: int, goal_row: np.ndarray, goal_tag: int, use_hash: bool = True,
                 stats: RebuildStats | None = None):
    """The path from a start state to goal_row (found at `depth`), verified by replaying it."""
    stats = stats if stats is not None else RebuildStats()
    states = [np.asarray(goal_row, dtype=np.uint8).copy()]
    moves: list[int] = []
    target, h = states[0], goal_tag
    for d in range(depth - 1, -1, -1):
        found = find_parent(domain, layer_stores[d], target, h if use_hash else None, stats)
        if found is None:
            raise RuntimeError(f"path rebuild failed: no state at depth {d} of {domain.name} produces "
                               f"{domain.format_state(target)}")
        target, move, h = found
        states.append(target)
        moves.append(move)
    path = SolutionPath(states=states[::-1], moves=moves[::-1])
    path.verified = replay(domain, path, goal_row)
    if not path.verified:
        raise RuntimeError(f"the rebuilt path of {domain.name} does not replay to the goal")
    return path


def rebuild_path_by_moves(domain, layer_stores, depth: int, goal_row: np.ndarray, goal_tag: int, le: bool):
    """The path to goal_row through move tags: each state's parent is the state its move undoes.

    The parent's own tag is looked up in the layer before (one block decoded per depth); the path
    is verified by replaying it."""
    states = [np.asarray(goal_row, dtype=np.uint8).copy()]
    moves: list[int] = []
    target, move = states[0], goal_tag
    for d in range(depth - 1, -1, -1):
        parent = apply_move(domain, target, int(domain.inverse_moves[move]))
        tag = None if parent is None else layer_stores[d].find(_key(parent, le), le)
        if tag is None:
            raise RuntimeError(f"path rebuild failed: undoing move {domain.format_move(move, target)} of "
                               f"{domain.format_state(target)} gives no state of depth {d} of {domain.name}")
        states.append(parent)
        moves.append(move)
        target, move = parent, tag
    path = SolutionPath(states=states[::-1], moves=moves[::-1])
    path.verified = replay(domain, path, goal_row)
    if not path.verified:
        raise RuntimeError(f"the rebuilt path of {domain.name} does not replay to the goal")
    return path


def _key(row: np.ndarray, le: bool) -> tuple:
    return tuple(int(w) for w in rows_to_keys(np.ascontiguousarray(row[None, :]), le)[0])


def apply_move(domain, row: np.ndarray, move: int) -> np.ndarray | None:
    """The child of row produced by move id `move` (None if the move is not legal there)."""
    children, _, moves = domain.expand(np.ascontiguousarray(row[None, :]))
    hit = np.flatnonzero(np.asarray(moves) == move)
    return None if hit.size == 0 else np.asarray(children)[hit[0]].copy()


def replay(domain, path, goal_row: np.ndarray | None = None) -> bool:
    """The path starts at a start state, each move is legal and gives the next state, and it ends at goal_row.

    Every state of the path but the last is expanded in one batch; move i must be among the children
    of state i, and its first child with that move must be state i + 1 (what `apply_move` gives)."""
    starts = {bytes(r) for r in np.asarray(domain.start)}
    if bytes(path.states[0]) not in starts:
        return False
    if path.moves:
        states = np.ascontiguousarray(np.stack(path.states), dtype=np.uint8)
        children, parent_index, moves = domain.expand(states[:-1])
        children, parent_index, moves = np.asarray(children), np.asarray(parent_index), np.asarray(moves)
        hits = np.flatnonzero(moves == np.asarray(path.moves)[parent_index])
        steps, first = np.unique(parent_index[hits], return_index=True)  # each step's first child with its move
        if steps.shape[0] != len(path.moves):
            return False
        if not np.array_equal(children[hits[first]], states[1:]):
            return False
    return goal_row is None or np.array_equal(path.states[-1], goal_row)
