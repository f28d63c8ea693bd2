"""How a search runs (`SearchOptions`, read as it is by the search kernel) and the named variants
the experiments compare."""

from __future__ import annotations

from typing import NamedTuple

NO_NODE_LIMIT = 1 << 62


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


def variant_options(name: str, slack: int = 0, endgame: int = 6, node_limit: int | None = None) -> SearchOptions:
    """The options of a named variant with the pruning parameters and node budget filled in."""
    return VARIANTS[name]._replace(slack=slack, endgame=endgame,
                                   node_limit=NO_NODE_LIMIT if node_limit is None else node_limit)
