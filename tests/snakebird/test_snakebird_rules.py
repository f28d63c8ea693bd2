"""The Snakebird rules move by move (eating, stepping, pushing, falling, hazards, teleports, exits),
canonical states and thread-count independence of the expansion."""

from __future__ import annotations

import numpy as np
from snakebird_support import (
    DATA,
    after,
    domain_of,
    picture,
)


def test_eating_grows_at_the_head():
    level = """
        .......
        .  *  .
        .     .
        .>RO  .
        .......
    """
    assert after(level, "RR") == picture("""
        .......
        .  *  .
        .     .
        .>>R  .
        .......
    """)


def test_head_never_steps_onto_its_own_tail():
    level = """
        ......
        .  * .
        . >v .
        . R< .
        ......
    """
    assert after(level, "RU") is None  # the tail cell would be freed, but stepping there is not allowed
    assert after(level, "RL") is not None


def test_push_chain_and_blocked_by_fruit_or_wall():
    level = """
        ..........
        .      * .
        .>R01    .
        ..........
    """
    assert after(level, "RR") == picture("""
        ..........
        .      * .
        . >R01   .
        ..........
    """)
    assert after(level, "RR", "RR", "RR", "RR") == picture("""
        ..........
        .      * .
        .    >R01.
        ..........
    """)
    assert after(level, "RR", "RR", "RR", "RR", "RR") is None  # the chain would enter the wall
    assert after(level.replace("01    ", "01O   "), "RR") is None  # fruit blocks pushes


def test_push_may_fill_the_movers_tail_cell():
    level = """
        .......
        .   * .
        . R<  .
        . 0^  .
        . >^  .
        .......
    """
    assert after(level, "RD") == picture("""
        .......
        .   * .
        . v<  .
        . R^  .
        . 0^  .
        .......
    """)


def test_snake_cannot_push_itself_through_an_object():
    level = """
        .......
        .    *.
        . v0R .
        . v0^ .
        . >>^ .
        .......
    """
    assert after(level, "RL") is None
    assert after(level, "RU") is not None


def test_falling_onto_spikes_or_into_water_kills_and_spikes_hold_gadgets():
    level = """
        ..........
        .       *.
        .>R  0   .
        ...##.....
        ~~~~~~~~~~
    """
    assert after(level, "RR") is not None  # the tail still rests on ground
    assert after(level, "RR", "RR") is None  # both cells over spikes: the snake falls onto them
    spikes = """
        ..........
        .       *.
        .>R0     .
        ...##.....
        ~~~~~~~~~~
    """
    # the gadget is pushed over the spikes and stays there: spikes hold gadgets up
    assert after(spikes, "RR") == picture("""
        ..........
        .       *.
        . >R0    .
        ...##.....
        ~~~~~~~~~~
    """)
    water = """
        .........
        .      *.
        .>R0    .
        ....~....
        ~~~~~~~~~
    """
    assert after(water, "RR") == picture("""
        .........
        .      *.
        . >R    .
        ....~....
        ~~~~~~~~~
    """)  # the gadget fell into the water and is gone


def test_snake_falls_until_supported():
    level = """
        ........
        .   *  .
        .>R    .
        ..  ....
        .      .
        ........
    """
    assert after(level, "RR") == picture("""
        ........
        .   *  .
        .      .
        ..  ....
        . >R   .
        ........
    """)


def test_teleporter_moves_the_whole_snake():
    level = """
        ..........
        .  *     .
        .  T     .
        . ...    .
        .>R  T   .
        ..........
    """
    assert after(level, "RR", "RR", "RR") == picture("""
        ..........
        .  *     .
        . >R     .
        . ...    .
        .    T   .
        ..........
    """)


def test_exit_opens_only_when_all_fruit_is_eaten():
    from puzzlelab.snakebird.play import is_won, parse_moves, replay

    level = """
        ........
        .      .
        .>R*  O.
        ........
    """
    dom = domain_of(level)
    positions, error = replay(dom, parse_moves("RR", ["R"]))
    assert error is None and not is_won(positions[-1])  # head on the closed exit: nothing happens
    moves = "RR,RR,RR,RR,RU,RL,RL,RL"
    positions, error = replay(dom, parse_moves(moves, ["R"]))
    assert error is None and is_won(positions[-1])
    assert [bool(is_won(p)) for p in positions].index(True) == 8


def test_canonical_state_ignores_which_snake_is_which():
    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    dom = SnakebirdDomain(load_level(DATA / "two-birds.txt"))
    st = dom.unpack(dom.start_row)
    assert np.array_equal(dom.pack(st), dom.start_row)  # pack/unpack round trip
    swapped = st.copy()
    swapped.cells[[0, 1]] = swapped.cells[[1, 0]]
    swapped.slen[[0, 1]] = swapped.slen[[1, 0]]
    dom.canonicalize(swapped)
    assert np.array_equal(dom.pack(swapped), dom.start_row)


def test_expand_is_independent_of_thread_count(monkeypatch):
    import numba

    from puzzlelab.bfs.keys import row_hash8
    from puzzlelab.snakebird import domain as sbdomain
    from puzzlelab.snakebird.domain import SnakebirdDomain
    from puzzlelab.snakebird.level import load_level

    dom = SnakebirdDomain(load_level(DATA / "two-birds.txt"))
    frontier = dom.start
    for _ in range(6):
        children, _, _ = dom.expand(frontier)
        frontier = np.unique(children, axis=0)
    monkeypatch.setattr(sbdomain, "PIECE", 37)  # many pieces, shared out over the threads
    results = []
    saved = numba.get_num_threads()
    try:
        for threads in (1, numba.config.NUMBA_NUM_THREADS, 1):
            numba.set_num_threads(threads)
            results.append(dom.expand(frontier))
            # expand_into: the same children in the same order, each with its parent's hash byte
            phash = row_hash8(frontier)
            out = np.full((frontier.shape[0] * dom.max_children, dom.width), 255, dtype=np.uint8)
            tags = np.zeros(out.shape[0], dtype=np.uint8)
            m = dom.expand_into(frontier, phash, out, tags)
            children, parent, _ = results[-1]
            assert m == children.shape[0]
            assert np.array_equal(out[:m], children) and np.array_equal(tags[:m], phash[parent])
    finally:
        numba.set_num_threads(saved)
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)
    assert len(results[0][0]) > 100 and frontier.shape[0] > 2 * 37
