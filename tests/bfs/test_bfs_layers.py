"""Layer counts of every bundled domain against the published sequences (OEIS), and the engine
against the hash-set baseline on directed and wide-state test graphs."""

from __future__ import annotations

import math

import pytest
from bfs_support import (
    A007664,
    A079761,
    A089473,
    A089474,
    A089483,
    A089484,
    A090164,
    A090165,
    A092113_ROWS,
    Collatz,
    collatz_layers,
    eight_puzzle_search,
    layers,
)

from conftest import corpus
from puzzlelab.bfs.codec import CODECS
from puzzlelab.bfs.engine import search
from puzzlelab.bfs.hashset import search_hash
from puzzlelab.bfs.published import read_reference_file, reference_for
from puzzlelab.domains import make_domain, register_domain


@pytest.fixture(scope="module")
def eight_puzzle():
    res = eight_puzzle_search()
    yield res
    res.close()


def test_eight_puzzle_corner_is_a089473(eight_puzzle):
    assert eight_puzzle.layers == A089473
    assert eight_puzzle.complete and eight_puzzle.states == math.factorial(9) // 2


@pytest.mark.parametrize("spec, expected", [("sliding:3x3:center", A089474), ("sliding:3x3:edge", A089483)])
def test_eight_puzzle_other_blanks(spec, expected):
    assert layers(spec) == expected


def test_cube2_htm_is_a079761():
    assert layers("cube2:htm") == A079761


@pytest.mark.parametrize("n", sorted(A092113_ROWS))
def test_pancakes_are_a092113(n):
    assert layers(f"pancake:{n}") == A092113_ROWS[n]


@pytest.mark.parametrize("n", range(1, 9))
def test_hanoi4_space_and_goal_distance(n):
    with search(make_domain(f"hanoi4:{n}"), progress=False) as res:
        assert res.states == 4**n and res.complete
        assert res.goal_depth == A007664[n]


@pytest.mark.parametrize("spec, expected", [("sliding:4x4", A089484), ("sliding:4x4:center", A090164),
                                            ("sliding:4x4:edge", A090165)])
def test_fifteen_puzzle_prefix(spec, expected):
    expected = expected[:14]
    assert layers(spec, max_depth=len(expected) - 1) == expected


def test_against_the_shared_reference_file():
    refs = read_reference_file(corpus("bfs", "reference_layer_counts.txt"))
    checked = 0
    for spec in ["sliding:3x3", "sliding:3x3:center", "sliding:3x3:edge", "cube2:qtm", "pancake:8", "pancake:9"]:
        ref = reference_for(spec, refs)
        assert ref is not None and ref.kind == "layers", spec
        assert layers(spec) == list(ref.values), spec
        checked += 1
    hanoi = reference_for("hanoi4:9", refs)
    assert hanoi.kind == "goal_depth"
    with search(make_domain("hanoi4:9"), progress=False, memory_budget="256M") as res:
        assert res.goal_depth == hanoi.values[9] == 41
    assert checked == 6


@pytest.mark.parametrize("spec, depth", [("pancake:7", None), ("hanoi4:6", None), ("sliding:2x5", None),
                                         ("sliding:3x6", 14), ("sliding:5x5:center", 11)])
def test_sortmerge_equals_hash_baseline(spec, depth):
    dom = make_domain(spec)
    assert layers(spec, max_depth=depth) == search_hash(dom, max_depth=depth, progress=False).layers


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("order", ["le", "be"])
def test_codecs_and_orders_give_the_same_layers(codec, order):
    assert layers("sliding:3x3:edge", codec=codec, order=order, chunk_states=5000) == A089483


def test_directed_domain_registered_at_run_time():
    n = 100_003
    register_domain("collatz", lambda arg: Collatz(int(arg)))
    dom = make_domain(f"collatz:{n}")
    with search(dom, progress=False, chunk_states=777, memory_budget="64M") as res:
        assert res.layers == collatz_layers(n)
        assert res.runs > len(res.layers)


@pytest.mark.parametrize("width, at", [(8, (0, 3, 7)), (9, (0, 4, 8)), (12, (0, 1, 11)), (16, (2, 9, 15)),
                                       (20, (0, 10, 19))])
@pytest.mark.parametrize("order", ["le", "be"])
def test_wide_states_two_word_keys(width, at, order):
    """States of 8 to 20 bytes: one- to three-word keys, the row filter on keys, bucketed sorts
    of up to 72 significant bits, the multi-word merge (with and without codec threads)."""
    n = 20_011
    dom = Collatz(n, width, at)
    dom.name = f"collatz:{n}:{width}"
    for threads in (1, 2):
        with search(dom, progress=False, chunk_states=997, memory_budget="64M", order=order,
                    threads=threads) as res:
            assert res.layers == collatz_layers(n), threads


@pytest.mark.slow
def test_cube2_qtm_and_pancake_10():
    assert sum(layers("cube2:qtm")) == 3674160
    got = layers("pancake:10")
    assert sum(got) == math.factorial(10) and len(got) - 1 == 11 and got[:4] == [1, 9, 72, 575]


def test_embedded_sequences_are_whole_and_agree_with_the_corpus():
    """A089484 has all 81 terms (every state once: 16!/2); each row sums to its space; the corpus agrees."""
    from puzzlelab.bfs import published

    assert len(published.A089484) == 81 and sum(published.A089484) == math.factorial(16) // 2
    for seq in (published.A089473, published.A089474, published.A089483):
        assert sum(seq) == math.factorial(9) // 2
    assert sum(published.A079761) == sum(published.A079762) == 3674160
    assert all(sum(row) == math.factorial(n) for n, row in published.A092113.items())
    refs = read_reference_file(corpus("bfs", "reference_layer_counts.txt"))
    for spec, ref in published.EMBEDDED.items():
        if ref.name in refs:
            assert refs[ref.name].values == ref.values, spec
    assert refs["hanoi4_frame_stewart_moves"].values == published.A007664
    assert reference_for("sliding:3x3:packed", None).values == published.A089473
