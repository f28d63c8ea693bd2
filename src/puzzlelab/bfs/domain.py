"""What a search domain provides to the compressed BFS engine.

The engine (`puzzlelab.bfs.engine.search`) knows nothing about a puzzle beyond this interface;
which object a domain string such as ``sliding:3x3`` names is decided by the registry of the
composition root, :mod:`puzzlelab.domains`.

A **domain** is any object with these attributes (subclass :class:`Domain` for the defaults):

``name: str``
    The domain string it was made from, e.g. ``"sliding:3x3:center"``.
``width: int``
    Bytes per packed state. States travel as C-contiguous ``uint8`` arrays of shape ``(n, width)``;
    two states are the same state exactly when their rows are equal byte for byte (so the packing
    must be canonical: no padding bits left undefined, symmetry reduction, if any, done by `expand`).
``start: np.ndarray``
    ``uint8 (k, width)``: the start state(s), depth 0 (distinct rows).
``max_children: int``
    An upper bound on the children of one state (the engine sizes its buffers with it).
``expand(states) -> (children, parent_index, move)``
    A numba kernel, or a thin Python wrapper around one: ``states`` is ``uint8 (n, width)``;
    returns ``children uint8 (m, width)``, ``parent_index int64 (m)`` (row of ``states`` each child
    comes from) and ``move uint8 (m)`` (the move that produced it), ``m <= n * max_children``. The
    output must depend only on the input rows (deterministic, thread-count independent); children may
    repeat and may include states seen before: the engine deduplicates. The move id is how a path is
    reported: replaying a path applies, at each step, the child with that move id.
``expand_into(states, parent_hash, out, tags) -> m`` (optional)
    The children of ``expand``, in the same order, written as rows into ``out[:m]`` with
    ``tags[j] = parent_hash[parent of child j]``; both buffers hold ``n * max_children`` entries.
    The engine then reuses its buffers from chunk to chunk and never builds the parent index.
``reversible: bool`` (optional, default False)
    Every move can be undone by a move: the graph is undirected, and a child of depth D lies at
    depth D-1, D or D+1. The engine then searches with frontier layers (no visited set).
``bipartite: bool`` (optional, default False)
    Every cycle has even length (with ``reversible``: a child of depth D lies at D-1 or D+1), so
    the frontier search compares new states with one layer instead of two.
``expand_moves(states, came_by, out, moves) -> m`` (optional, with ``inverse_moves``)
    For reversible domains: the children of ``expand``, in the same order, without the child that
    undoes ``came_by[i]`` (the move that produced ``states[i]``; ``NO_MOVE`` for a start state),
    written as rows into ``out[:m]`` with ``moves[j]`` the move that produced child j; it may also
    leave out other children that are never deeper than their parent. The engine then tags each
    state with the move that produced it (instead of its parent's hash): paths are rebuilt by
    undoing moves, and no state is expanded back into its parent.
``inverse_moves: uint8 array``
    ``inverse_moves[m]`` is the move that undoes move ``m``.
``expand_packed(values, came_by, out) -> m`` (optional, with ``expand_moves``; states of at most 7 bytes)
    ``expand_moves`` on integers: ``values[i]`` (uint64) is state i read as a little-endian
    integer, and child j is written as ``out[j] = (its integer << 8) | move`` (uint64). The engine
    then sorts children as single words and never builds a row.
``codec: str`` (optional)
    The block codec that suits the domain's states (e.g. ``gap-zstd`` for dense ranks), used when
    the caller asks for ``auto``.
``search_fused(cap, max_depth, stop_at_goal) -> bfs.fused.FusedRun | None`` (optional)
    The whole search in one kernel call while it fits ``cap`` states, for ``search(fused=True)``;
    see :mod:`puzzlelab.bfs.fused` for what it must return.
``load_kernels(fused: bool)`` (optional)
    Called before the search's clock starts: call each kernel the search will use once (numba's
    cache load and first-call typing are start-up, not search time).
``is_goal(states) -> bool[n]`` (optional, ``None`` when absent)
    A goal test over a batch, used by ``search(..., stop_at_goal=True)``.
``format_state(row) -> str``, ``parse_state(text) -> row``
    Text form of one state for the CLI. ``parse_state`` raises
    :class:`puzzlelab.lab.errors.InputError` on text it cannot read.
``format_move(move_id, parent_row) -> str``
    Text form of a move, given the state it is applied to.
``space_size: int | None`` (optional)
    Number of reachable states when known (e.g. 9!/2); only used in reports.

**Using the engine**::

    from puzzlelab.domains import make_domain
    from puzzlelab.bfs.engine import search

    result = search(make_domain("sliding:3x3"), max_depth=None, memory_budget="512M",
                    workdir="/tmp", codec="rowfilter-zstd", stop_at_goal=False, progress=False)
    result.layers          # [1, 2, 4, 8, ...]: new states at each exact depth
    result.to_json()       # the CLI's `bfs layers --json` object
    result.path            # with stop_at_goal=True and a goal found: a verified shortest Path
    result.close()         # removes the spill files (also done by `with search(...) as result:`)

See :mod:`puzzlelab.bfs.engine` for every keyword of ``search`` and the fields of its result.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from puzzlelab.lab.errors import InputError, quote

__all__ = ["Domain", "Rooted", "check_domain", "parse_int", "NO_MOVE", "uses_move_tags"]

NO_MOVE = 255  # the move tag of a start state (no move produced it)


def uses_move_tags(domain) -> bool:
    """True when the domain's states are tagged with the move that produced them (see expand_moves)."""
    return (bool(getattr(domain, "reversible", False)) and getattr(domain, "expand_moves", None) is not None
            and getattr(domain, "inverse_moves", None) is not None)


class Domain:
    """Base class with the optional parts of the interface filled in; subclasses set the rest."""

    name: str = ""
    width: int = 0
    max_children: int = 0
    start: np.ndarray
    is_goal: Callable | None = None
    space_size: int | None = None
    reversible: bool = False
    bipartite: bool = False

    def expand(self, states: np.ndarray):  # pragma: no cover - every domain overrides it
        raise NotImplementedError

    def format_state(self, row: np.ndarray) -> str:
        return " ".join(f"{int(b):02x}" for b in np.asarray(row, dtype=np.uint8))

    def parse_state(self, text: str) -> np.ndarray:
        try:
            row = np.array([int(t, 16) for t in text.replace(",", " ").split()], dtype=np.uint8)
        except ValueError:
            raise InputError(f"cannot read state {quote(text)}: expected {self.width} hex bytes") from None
        if row.size != self.width:
            raise InputError(f"cannot read state {quote(text)}: expected {self.width} hex bytes, got {row.size}")
        return row

    def format_move(self, move_id: int, parent_row: np.ndarray) -> str:
        return str(int(move_id))

    def __repr__(self) -> str:
        return f"<domain {self.name} width={self.width} max_children={self.max_children}>"


def check_domain(domain) -> None:
    """Validate the static parts of a domain object (a programming error, not user input, if wrong)."""
    width = int(domain.width)
    start = np.asarray(domain.start)
    if width < 1:
        raise ValueError(f"{domain.name}: width must be >= 1")
    if start.dtype != np.uint8 or start.ndim != 2 or start.shape[1] != width or start.shape[0] < 1:
        raise ValueError(f"{domain.name}: start must be uint8 (k, {width}), got {start.dtype} {start.shape}")
    if int(domain.max_children) < 1:
        raise ValueError(f"{domain.name}: max_children must be >= 1")


def parse_int(text: str, what: str, spec: str, lo: int, hi: int) -> int:
    """An integer parameter of a domain string, with a clear message when it is not one."""
    try:
        if len(text.strip()) > 30:  # int() of a very long digit string is slow, then fails
            raise ValueError
        value = int(text)
    except ValueError:
        raise InputError(f"domain {quote(spec)}: {what} must be an integer, got {quote(text)}") from None
    if not lo <= value <= hi:
        raise InputError(f"domain {quote(spec)}: {what} must be between {lo} and {hi}, got {value}")
    return value


class Rooted(Domain):
    """The same puzzle searched from other start states (used by `bfs solve --from STATE`)."""

    def __init__(self, inner, start: np.ndarray):
        self.inner = inner
        self.name = inner.name
        self.width = inner.width
        self.max_children = inner.max_children
        self.space_size = getattr(inner, "space_size", None)
        self.start = np.ascontiguousarray(np.atleast_2d(start), dtype=np.uint8)
        self.is_goal = getattr(inner, "is_goal", None)
        self.reversible = bool(getattr(inner, "reversible", False))
        self.bipartite = bool(getattr(inner, "bipartite", False))
        for name in ("expand_into", "expand_moves", "expand_packed", "inverse_moves", "codec"):
            value = getattr(inner, name, None)
            if value is not None:
                setattr(self, name, value)

    def expand(self, states):
        return self.inner.expand(states)

    def format_state(self, row) -> str:
        return self.inner.format_state(row)

    def parse_state(self, text: str):
        return self.inner.parse_state(text)

    def format_move(self, move_id: int, parent_row=None) -> str:
        return self.inner.format_move(move_id, parent_row)
