"""Turning a chunk of parents into the sorted, deduplicated keys of their children (one run).

Three ways, chosen once per search by what the domain offers (see `puzzlelab.bfs.domain`):

- `PackedChunk` (`expand_packed`, move tags, states of at most 7 bytes, key order le): parents
  go in as integers straight from the decoded keys, children come out as `child << 8 | move`
  words that one numpy sort orders and deduplicates; no row is ever built.
- `TaggedChunk` (`expand_moves` with move tags, or `expand_into` with parent hashes): children
  are written as rows with a tag each into buffers reused from chunk to chunk.
- `RowChunk` (`expand` only): children, parent index and moves come back as new arrays; each
  child is tagged with its parent's hash.

Each keeps one chunk of parents (`add`), expands it (`children`) and is told the bytes it may use
by the engine's plan; the results are the same whichever way a domain is expanded.
"""

from __future__ import annotations

import numpy as np

from .keys import PACKED_MAX_WIDTH, nwords, row_hash8, sort_unique_children, sort_unique_rows, unpack_sorted


class RowChunk:
    """Parents as rows; `domain.expand` builds the children; tags = the parents' hashes."""

    @staticmethod
    def bytes_per_parent(width: int, max_children: int) -> int:
        """Bytes one parent of a chunk takes: its row and tag, and its children's arrays while sorted."""
        k = nwords(width)
        return width + 1 + max_children * (width + 8 + 1 + 2 * (8 * k + 1))

    def __init__(self, domain, plan, capacity: int):
        self.domain = domain
        self.plan = plan
        self.parents = np.empty((capacity, plan.width), dtype=np.uint8)
        self.tags = np.empty(capacity, dtype=np.uint8)
        self.scratch = np.empty((plan.block, plan.width), dtype=np.uint8)
        self.filled = 0

    @property
    def capacity(self) -> int:
        return self.parents.shape[0]

    def read(self, layer, i: int):
        """Block i of the layer as (parents in this chunk's form, their tags)."""
        return layer.decode(i, self.scratch)

    def add(self, items, tags, off: int, take: int) -> None:
        self.parents[self.filled:self.filled + take] = items[off:off + take]
        self.tags[self.filled:self.filled + take] = tags[off:off + take]
        self.filled += take

    def children(self):
        """(sorted distinct child keys, their smallest tags, children generated); empties the chunk."""
        batch = self.parents[:self.filled]
        self.filled = 0
        children, parent_index, _moves = self.domain.expand(batch)
        m = children.shape[0]
        if m == 0:
            return None, None, 0
        keys, tags = sort_unique_children(np.ascontiguousarray(children), parent_index, row_hash8(batch),
                                          self.plan.le)
        return keys, tags, m


class TaggedChunk(RowChunk):
    """Parents as rows; children and their tags land in reused buffers (expand_moves or expand_into)."""

    @staticmethod
    def bytes_per_parent(width: int, max_children: int) -> int:
        sort = 8 + 8 + 1 if width <= PACKED_MAX_WIDTH else 2 * (8 * nwords(width) + 1) + 8
        return width + 1 + max_children * (width + 1 + sort)

    def __init__(self, domain, plan, capacity: int):
        super().__init__(domain, plan, capacity)
        self.into = domain.expand_moves if plan.move_tags else domain.expand_into
        self.child_rows = np.empty((capacity * int(domain.max_children), plan.width), dtype=np.uint8)
        self.child_tags = np.empty(self.child_rows.shape[0], dtype=np.uint8)

    def children(self):
        batch = self.parents[:self.filled]
        # move tags: each parent's own move (not to be undone); parent hashes: each parent's hash
        given = self.tags[:self.filled] if self.plan.move_tags else row_hash8(batch)
        self.filled = 0
        m = self.into(batch, given, self.child_rows, self.child_tags)
        if m == 0:
            return None, None, 0
        keys, tags = sort_unique_rows(self.child_rows[:m], self.child_tags[:m], self.plan.le)
        return keys, tags, m


class PackedChunk(RowChunk):
    """Parents as the integers of their keys; children as `child << 8 | move` words (expand_packed)."""

    @staticmethod
    def bytes_per_parent(width: int, max_children: int) -> int:
        return 8 + 1 + max_children * (8 + 8 + 1)

    def __init__(self, domain, plan, capacity: int):
        self.domain = domain
        self.plan = plan
        self.parents = np.empty(capacity, dtype=np.uint64)
        self.tags = np.empty(capacity, dtype=np.uint8)
        self.keys = np.empty((plan.block, 1), dtype=np.uint64)
        self.packed = np.empty(capacity * int(domain.max_children), dtype=np.uint64)
        self.out_keys = np.empty((self.packed.shape[0], 1), dtype=np.uint64)
        self.out_tags = np.empty(self.packed.shape[0], dtype=np.uint8)
        self.pad = np.uint64(8 * (8 - plan.width))
        self.filled = 0

    def read(self, layer, i: int):
        keys = layer.decode_keys(i, True, self.keys)
        return keys[:, 0] >> self.pad, layer.tags_of(i)

    def children(self):
        n = self.filled
        self.filled = 0
        m = self.domain.expand_packed(self.parents[:n], self.tags[:n], self.packed)
        if m == 0:
            return None, None, 0
        packed = self.packed[:m]
        packed.sort()
        u = unpack_sorted(packed, self.plan.width, self.out_keys, self.out_tags)
        return self.out_keys[:u], self.out_tags[:u], m


def chunk_class(domain, move_tags: bool, le: bool) -> type[RowChunk]:
    """The fastest way this domain can be expanded with these tags and key order."""
    if move_tags and le and int(domain.width) <= PACKED_MAX_WIDTH and getattr(domain, "expand_packed", None):
        return PackedChunk
    if move_tags or getattr(domain, "expand_into", None) is not None:
        return TaggedChunk
    return RowChunk
