"""Frontier search, move tags, ranked states and the gap codecs: the same layers as every other way."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from bfs_support import A079761, A089473, A092113_ROWS, Collatz

from puzzlelab.bfs import published
from puzzlelab.bfs.domain import NO_MOVE
from puzzlelab.bfs.domains.ranking import rank_of, rank_tables, unrank_into
from puzzlelab.bfs.engine import search
from puzzlelab.bfs.hashset import search_hash
from puzzlelab.bfs.parents import rebuild_path_by_moves
from puzzlelab.domains import make_domain
from puzzlelab.lab.errors import InputError
from puzzlelab.lab.jit import kernel

A079762 = list(published.A079762)  # the cube in quarter turns


@pytest.mark.parametrize("spec, depth, expected", [
    ("sliding:3x3", None, A089473), ("sliding:3x3:packed", None, A089473), ("sliding:2x4:edge", None, None),
    ("sliding:4x4", 15, None), ("sliding:3x5", 14, None), ("sliding:5x5:center", 9, None),
    ("cube2:qtm", None, A079762), ("cube2:htm:packed", 7, A079761[:8]), ("pancake:7", None, A092113_ROWS[7]),
    ("pancake:7:packed", None, A092113_ROWS[7]), ("hanoi4:6", None, None)])
def test_every_mode_gives_the_same_layers(spec, depth, expected):
    """Frontier and visited-set search, move and parent-hash tags, the hash set: one answer."""
    dom = make_domain(spec)
    want = search_hash(dom, max_depth=depth, progress=False).layers
    if expected is not None:
        assert want == expected
    for frontier, tags in itertools.product((True, False), ("auto", "parent-hash")):
        with search(dom, max_depth=depth, frontier=frontier, tags=tags, progress=False, memory_budget="256M") as res:
            assert res.layers == want, (frontier, tags)
            assert res.frontier == frontier and res.move_tags == (tags == "auto")


@pytest.mark.parametrize("spec, budget, chunk", [("pancake:8", "20M", 700), ("sliding:4x4", "24M", 3000),
                                                 ("cube2:htm", "40M", 50_000)])
def test_frontier_with_many_runs_and_spilling(spec, budget, chunk, tmp_path):
    """Small chunks: many runs, cascades, the two old layers of a non-bipartite graph, spill files."""
    dom = make_domain(spec)
    depth = 16 if spec.startswith("sliding") else None
    want = search_hash(dom, max_depth=depth, progress=False).layers
    with search(dom, max_depth=depth, memory_budget=budget, chunk_states=chunk, workdir=tmp_path, progress=False,
                keep_layers=False) as res:
        assert res.layers == want and res.runs > 2 * len(want)
        assert res.accounted_peak_bytes <= res.memory_budget


def test_frontier_needs_a_reversible_domain():
    with pytest.raises(InputError, match="moves can all be undone"):
        search(Collatz(101), frontier=True, progress=False)
    with pytest.raises(InputError, match="move tags need"):
        search(Collatz(101), tags="move", progress=False)


@pytest.mark.parametrize("spec, depth", [("sliding:4x4", 12), ("cube2:htm", 6), ("cube2:qtm", 8), ("pancake:9", 7),
                                         ("hanoi4:7", 20), ("sliding:3x5:center", 11)])
def test_move_tags_rebuild_shortest_paths(spec, depth):
    """Every path rebuilt by undoing moves is as long as its state's depth and replays to it."""
    with search(make_domain(spec), max_depth=depth, progress=False) as res:
        assert res.move_tags
        store = res.layer_stores[depth]
        for i in sorted({0, len(store.blocks) - 1}):
            rows, tags = store.decode(i)
            for j in (0, rows.shape[0] // 2, rows.shape[0] - 1):
                path = rebuild_path_by_moves(res.domain, res.layer_stores, depth, rows[j], int(tags[j]), le=True)
                assert len(path) == depth and path.verified


@pytest.mark.parametrize("spec, bits", [("pancake:9", 0.01), ("hanoi4:9", 0.01), ("cube2:qtm", 0.01),
                                        ("sliding:3x3", 0.1)])
def test_a_complete_space_costs_almost_nothing(spec, bits):
    """Ranked states of a complete space are consecutive integers: the gap codec stores about nothing."""
    with search(make_domain(spec), frontier=False, progress=False) as res:
        assert res.complete and res.codec == "gap-zstd"
        assert res.bits_per_state < bits


@kernel
def _round_trip(perms, n, weight, recip, above, ranks, back):
    for i in range(perms.shape[0]):
        ranks[i] = rank_of(perms[i], n, weight, above)
        unrank_into(ranks[i], n, weight, recip, back[i])


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 9, 12, 16, 17, 20])
def test_ranks_are_lexicographic_and_invert(n):
    weight, recip, above = rank_tables(n)
    if n <= 7:
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.uint8)
    else:
        rng = np.random.default_rng(n)
        perms = np.array([rng.permutation(n) for _ in range(3000)] + [list(range(n)), list(range(n))[::-1]],
                         dtype=np.uint8)
    ranks = np.empty(perms.shape[0], dtype=np.uint64)
    back = np.empty_like(perms)
    _round_trip(perms, n, weight, recip, above, ranks, back)
    assert np.array_equal(back, perms)
    if n <= 7:
        assert ranks.tolist() == list(range(math.factorial(n)))  # itertools yields them in lexicographic order
    else:
        assert int(ranks[-2]) == 0 and int(ranks[-1]) == math.factorial(n) - 1
        order = np.lexsort(perms.T[::-1])
        assert all(int(a) <= int(b) for a, b in zip(ranks[order][:-1], ranks[order][1:], strict=True))


@pytest.mark.parametrize("spec", ["sliding:3x3", "sliding:4x4", "sliding:2x8:edge", "sliding:4x5", "pancake:9",
                                  "cube2:htm"])
def test_ranked_and_packed_states_have_the_same_children(spec):
    """The ranked kernels (children ranked from the parent's digits) against the packed ones."""
    ranked, packed = make_domain(spec), make_domain(spec + ":packed")
    rng = np.random.default_rng(7)
    frontier = ranked.start
    for _ in range(6):  # a few random walks' worth of states
        children, _, _ = ranked.expand(frontier)
        frontier = children[rng.permutation(children.shape[0])[:500]]
    text = [ranked.format_state(r) for r in frontier]
    rows_p = np.array([packed.parse_state(t) for t in text])
    came = rng.integers(0, ranked.max_children + 1, frontier.shape[0]).astype(np.uint8)
    came[came >= len(ranked.inverse_moves)] = NO_MOVE
    out = []
    for dom, rows in ((ranked, frontier), (packed, rows_p)):
        buf = np.empty((rows.shape[0] * dom.max_children, dom.width), dtype=np.uint8)
        moves = np.empty(buf.shape[0], dtype=np.uint8)
        m = dom.expand_moves(np.ascontiguousarray(rows), came, buf, moves)
        out.append(([dom.format_state(r) for r in buf[:m]], moves[:m].tolist()))
    assert out[0] == out[1]
    if getattr(ranked, "expand_packed", None) is not None:  # children as rank << 8 | move
        values = np.array([int.from_bytes(r.tobytes(), "little") for r in frontier], dtype=np.uint64)
        words = np.empty(frontier.shape[0] * ranked.max_children, dtype=np.uint64)
        m = ranked.expand_packed(values, came, words)
        got = [(ranked.format_state(np.frombuffer(int(w >> np.uint64(8)).to_bytes(ranked.width, "little"),
                                                  dtype=np.uint8)), int(w & np.uint64(255))) for w in words[:m]]
        assert got == list(zip(*out[0], strict=True))
