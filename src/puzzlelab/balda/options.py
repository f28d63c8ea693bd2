"""How a search runs (`SearchOptions`, read as it is by the search kernel) and the named variants
the experiments compare."""

from __future__ import annotations

from typing import NamedTuple

from ..lab.errors import InputError

NO_NODE_LIMIT = 1 << 62  # a budget this large (or larger) is no budget
MAX_DEPTH = 62  # plies a search may look ahead (the kernel's ply stack, passes included)
MAX_WORD = 64  # letters of the longest word any board holds (8 x 8 cells)


class SearchOptions(NamedTuple):
    """Alpha-beta or plain minimax, ordering by word length, the article's long-word pruning,
    incremental pages, a transposition table and a node budget."""

    alphabeta: bool = True
    order: bool = True
    prune: bool = False
    slack: int = 0  # pruning keeps, per cell, the words at most this much shorter than its longest
    endgame: int = 6  # pruning stops when this many empty cells or fewer remain
    incremental: bool = True
    tt: bool = False  # transposition table (alpha-beta only; it never changes the value)
    node_limit: int = NO_NODE_LIMIT  # stop once this many nodes were entered


VARIANTS = {
    "minimax": SearchOptions(alphabeta=False, order=False),
    "alphabeta": SearchOptions(order=False),
    "ordered": SearchOptions(),
    "ordered_tt": SearchOptions(tt=True),
    "pruned": SearchOptions(prune=True),
    "pruned_tt": SearchOptions(prune=True, tt=True),
    "pruned_full_regen": SearchOptions(prune=True, incremental=False),
}


def checked(options: SearchOptions) -> SearchOptions:
    """The options with their numbers checked before the kernel sees them (it holds them as int64)."""
    for name in ("slack", "endgame"):
        value = getattr(options, name)
        if not 0 <= value <= MAX_WORD:
            raise InputError(f"--{name} {value} is out of range: use 0..{MAX_WORD} (no word is longer)")
    if options.node_limit < 1:
        raise InputError(f"--node-limit {options.node_limit} is out of range: use a positive number")
    return options._replace(node_limit=min(options.node_limit, NO_NODE_LIMIT))


def check_depth(depth: int, what: str = "search depth") -> int:
    if not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"{what} {depth} is not supported: use 1..{MAX_DEPTH}")
    return depth


def variant_options(name: str, slack: int = 0, endgame: int = 6, node_limit: int | None = None) -> SearchOptions:
    """The options of a named variant with the pruning parameters and node budget filled in."""
    return checked(VARIANTS[name]._replace(slack=slack, endgame=endgame,
                                           node_limit=NO_NODE_LIMIT if node_limit is None else node_limit))
