"""The nonogram solver against an independent, obviously correct enumerator, and against known facts."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from conftest import REPO, corpus
from puzzlelab.nonogram.formats import load, load_one
from puzzlelab.nonogram.generate import generate
from puzzlelab.nonogram.linesolve import LineWork, solve_line, windows
from puzzlelab.nonogram.model import Puzzle, clues_of, runs, satisfies
from puzzlelab.nonogram.solver import Options, solve

DATA = REPO / "data" / "nonogram"


# --- an independent checker: enumerate every placement of every row, then rows one by one -------------

def line_arrangements(clue, n):
    """Every line of length n whose runs are exactly `clue` (colour-aware, by brute force)."""
    colours = sorted({c for _, c in clue}) or [1]
    return [np.array(v) for v in itertools.product([0] + colours, repeat=n) if runs(np.array(v)) == list(clue)]


def count_solutions(p: Puzzle, limit: int = 2) -> list[np.ndarray]:
    """Up to `limit` solutions: rows from their full arrangement lists, columns checked at the end."""
    options = [line_arrangements(c, p.width) for c in p.rows]
    found = []
    for combo in itertools.product(*options):
        g = np.array(combo)
        if satisfies(p, g):
            found.append(g)
            if len(found) >= limit:
                break
    return found


def random_puzzle(rng: random.Random, w: int, h: int, colours: int, density: float) -> Puzzle:
    img = np.array([[rng.randint(1, colours) if rng.random() < density else 0 for _ in range(w)] for _ in range(h)])
    r, c = clues_of(img)
    palette = ["#ffffff", "#000000", "#ff0000", "#00ff00"][: colours + 1]
    return Puzzle("random", r, c, palette=palette, goal=img)


@pytest.mark.parametrize("seed", range(6))
def test_uniqueness_agrees_with_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(12):
        colours = rng.choice([1, 1, 2, 3])
        p = random_puzzle(rng, rng.randint(2, 4), rng.randint(2, 4), colours, rng.choice([0.4, 0.6]))
        truth = count_solutions(p)
        res = solve(p)
        assert res.status == ("unique" if len(truth) == 1 else "multiple"), (p.rows, p.cols)
        assert all(satisfies(p, s) for s in res.solutions)
        if len(truth) == 1:
            assert np.array_equal(res.solutions[0], truth[0])
        else:
            assert len(res.solutions) == 2 and not np.array_equal(res.solutions[0], res.solutions[1])


def test_line_solver_matches_enumeration():
    rng = random.Random(7)
    for _ in range(400):
        ncol = rng.choice([2, 3, 4])
        n = rng.randint(1, 7)
        line = [rng.choice([0, 0] + list(range(1, ncol))) for _ in range(n)]
        clue = runs(np.array(line))
        full = (1 << ncol) - 1
        cells = np.array([full if rng.random() < 0.6 else rng.randint(1, full) for _ in range(n)], dtype=np.int64)
        k = len(clue)
        mk = max(1, k)
        slots = sorted({c for _, c in clue})
        lo, hi = windows(clue, n)
        def arr(xs, mk=mk):
            xs = list(xs)
            return np.array(xs + [0] * (mk - len(xs)), dtype=np.int64)

        expected_ok, expected = False, [0] * n
        for v in itertools.product(range(ncol), repeat=n):
            if all(cells[i] >> v[i] & 1 for i in range(n)) and runs(np.array(v)) == clue:
                expected_ok = True
                for i in range(n):
                    expected[i] |= 1 << v[i]
        for naive in (False, True):
            out = np.zeros(n + 1, dtype=np.int64)
            ok = solve_line(cells, n, arr(b[0] for b in clue), arr(b[1] for b in clue),
                            arr(slots.index(b[1]) for b in clue), arr(lo), arr(hi), k,
                            np.array(slots or [0], dtype=np.int64), len(slots),
                            LineWork(np.zeros((mk + 1, n + 2), np.uint8), np.zeros((mk + 1, n + 2), np.uint8),
                                     np.zeros((max(1, len(slots)), n + 2), np.int32),
                                     np.zeros((max(1, len(slots)), n + 2), np.int32), np.zeros((2, mk), np.int64)),
                            out, naive)
            assert ok == expected_ok, (clue, cells.tolist())
            if ok:
                assert out[:n].tolist() == expected, (clue, cells.tolist(), naive)


def test_articles_two_by_two_has_two_solutions():
    res = solve(load_one(str(DATA / "checker.nin")))
    assert res.status == "multiple" and not res.line_solvable
    assert sorted(s.tolist() for s in res.solutions) == [[[0, 1], [1, 0]], [[1, 0], [0, 1]]]


def test_contradictions_are_reported():
    assert solve(load_one(str(DATA / "contradiction.txt"))).status == "contradiction"
    # Sums agree (4 cells each way) but no picture fits: rows 2,2 need adjacent pairs the columns forbid.
    p = Puzzle("x", rows=[[(2, 1)], [(2, 1)], []], cols=[[(1, 1), (1, 1)], [(1, 1)], [(1, 1)]])
    assert count_solutions(p) == []
    res = solve(p)
    assert res.status == "contradiction" and res.solutions == []
    # A block longer than its line.
    assert solve(Puzzle("y", rows=[[(3, 1)]], cols=[[(1, 1)], [(1, 1)]])).status == "contradiction"


def test_shipped_puzzles_solve_to_their_pictures():
    for name in ("heart.non", "mushroom.xml", "tree.g", "arrow.pzl", "smiley.txt"):
        p = load_one(str(DATA / name))
        res = solve(p)
        assert res.status == "unique", name
        assert satisfies(p, res.solutions[0])
        if p.goal is not None:
            assert np.array_equal(res.solutions[0], p.goal)


def test_options_change_speed_not_answers():
    puzzles = generate(12, 12, 0.55, 1, 4, seed=5) + generate(10, 10, 0.6, 3, 3, seed=6)
    for p in puzzles:
        base = solve(p)
        for opts in (Options(naive=True), Options(sweep=True), Options(probing=False), Options(cache_mb=0),
                     Options(balanced=False)):
            other = solve(p, opts)
            assert other.status == base.status
            assert other.line_solvable == base.line_solvable
            assert all(satisfies(p, s) for s in other.solutions)
            if base.status == "unique":
                assert np.array_equal(other.solutions[0], base.solutions[0])


def test_max_solutions_and_limits():
    p = load_one(str(DATA / "checker.nin"))
    one = solve(p, Options(max_solutions=1))
    assert one.status == "solved" and len(one.solutions) == 1
    # A line-solvable puzzle is unique even when the search stops at one solution.
    assert solve(load_one(str(DATA / "heart.non")), Options(max_solutions=1)).status == "unique"
    # A tiny work budget ends in `timeout`, reproducibly.
    big = generate(30, 30, 0.5, 1, 1, seed=2)[0]
    a = solve(big, Options(work_limit=5000))
    b = solve(big, Options(work_limit=5000))
    assert a.status == b.status == "timeout"
    assert a.stats == b.stats


def test_solving_is_deterministic():
    p = generate(25, 25, 0.5, 1, 1, seed=3)[0]
    a, b = solve(p), solve(p)
    assert a.status == b.status and a.stats == b.stats
    assert all(np.array_equal(x, y) for x, y in zip(a.solutions, b.solutions, strict=True))


# --- facts stated by the corpora ---------------------------------------------------------------------

WEBPBN_SURVEY = {  # picross-solver's PERF.md (LINE/BRANCH = unique, MULT = multiple) and pbnsolve
    "webpbn-00001-dancer": ("unique", True), "webpbn-00006-cat": ("unique", True),
    "webpbn-00016-knot": ("unique", True), "webpbn-00021-skid": ("unique", True),
    "webpbn-00023-edge": ("unique", False), "webpbn-00027-bucks": ("unique", False),
    "webpbn-00065-mum": ("unique", False), "webpbn-00436-petroglyph": ("unique", False),
    "webpbn-00529-swing": ("unique", True), "webpbn-02413-smoke": ("unique", False),
    "webpbn-04645-marilyn": ("unique", False), "webpbn-06574-forever": ("unique", False),
    "webpbn-10810-centerpiece": ("multiple", False), "webpbn-35105-wild": ("unique", False),
}


@pytest.mark.parametrize("stem", sorted(WEBPBN_SURVEY))
def test_webpbn_survey_answers(stem):
    path = corpus("nonogram", "picross_solver_inputs", "webpbn", f"{stem}.non")
    p = load_one(str(path))
    res = solve(p, Options(timeout=120))
    status, line = WEBPBN_SURVEY[stem]
    assert res.status == status
    assert res.line_solvable == line
    assert all(satisfies(p, s) for s in res.solutions)
    if status == "unique":
        assert np.array_equal(res.solutions[0], p.goal)


@pytest.mark.slow
def test_webpbn_mozaic_is_unique():
    p = load_one(str(corpus("nonogram", "picross_solver_inputs", "webpbn", "webpbn-29723-mozaic.non")))
    res = solve(p, Options(timeout=300))
    assert res.status == "unique" and np.array_equal(res.solutions[0], p.goal)


def test_mikix_database_is_unique_and_line_solvable():
    # Its README: "only ship puzzles that have a unique solution that can be solved via logic".
    root = corpus("nonogram", "mikix_nonogram_db", "db")
    files = sorted(root.rglob("*.non"))
    assert len(files) >= 30
    for f in files:
        p = load_one(str(f))
        res = solve(p)
        assert res.status == "unique", f
        assert np.array_equal(res.solutions[0], p.goal), f


def test_pbnsolve_examples_are_unique():
    # The corpus README: "All unique & line-solvable per pbnsolve" (alladin.g uses triangles: unreadable).
    root = corpus("nonogram", "pbnsolve_examples")
    for f in sorted(root.iterdir()):
        if f.name == "alladin.g" or f.suffix not in (".g", ".mk"):
            continue
        p = load_one(str(f))
        res = solve(p)
        assert res.status == "unique", f
        assert satisfies(p, res.solutions[0])


def test_tournament_solutions_agree_with_the_given_ones():
    path = corpus("nonogram", "tournament_25x25", "question", "taai2011.txt")
    puzzles = load(str(path))
    assert len(puzzles) == 1000 and all(p.goal is not None for p in puzzles)
    for p in puzzles[:12]:
        assert satisfies(p, p.goal)
        res = solve(p, Options(timeout=60))
        assert res.status in ("unique", "multiple")
        assert all(satisfies(p, s) for s in res.solutions)
        if res.status == "unique":
            assert np.array_equal(res.solutions[0], p.goal)
        else:
            assert any(not np.array_equal(s, p.goal) for s in res.solutions)


def test_puzzlekit_solutions_agree_with_the_given_ones():
    path = corpus("nonogram", "puzzlekit_janko", "Nonogram_dataset.json")
    puzzles = load(str(path))
    assert len(puzzles) == 2338
    for p in puzzles[::97]:
        res = solve(p, Options(timeout=60))
        assert res.status in ("unique", "multiple")
        assert all(satisfies(p, s) for s in res.solutions)
        if res.status == "unique" and p.goal is not None:
            assert np.array_equal(res.solutions[0], p.goal)


def test_colour_survey_puzzle_matches_its_goal():
    p = load_one(str(corpus("nonogram", "webpbn_survey_xml", "webpbn-color-00047.xml")))
    res = solve(p)
    # Its <note>: "definitely unique, definitely line/color solvable".
    assert res.status == "unique" and res.line_solvable
    assert np.array_equal(res.solutions[0], p.goal)


def test_keen_karate_has_several_solutions():
    # picross-solver's PERF.md marks Karate (#6739) MULT; the solver must find two distinct valid pictures.
    p = load_one(str(corpus("nonogram", "webpbn_survey_keen", "karate.txt")))
    res = solve(p, Options(timeout=120))
    assert res.status == "multiple"
    assert all(satisfies(p, s) for s in res.solutions)


# --- the bit-parallel line solver, the SAT back-end and the portfolio ---------------------------------

def test_bit_line_solver_matches_enumeration():
    from puzzlelab.nonogram.bitline import solve_bits

    rng = random.Random(11)
    tab = np.zeros((4, 64), dtype=np.int64)
    for _ in range(1500):
        n = rng.randint(1, 11)
        img = [1 if rng.random() < 0.55 else 0 for _ in range(n)]
        clue = [length for length, _ in runs(np.array(img))]
        o = z = 0
        for c in range(n):
            r = rng.random()
            o |= (1 << c) if r >= 0.15 else 0  # 15%: known white
            z |= (1 << c) if r < 0.15 or r >= 0.3 else 0  # 15%: known black
        exp_o = exp_z = 0
        feasible = False
        for v in itertools.product((0, 1), repeat=n):
            if all((o if v[c] else z) >> c & 1 for c in range(n)) and [x for x, _ in runs(np.array(v))] == clue:
                feasible = True
                for c in range(n):
                    exp_o |= v[c] << c
                    exp_z |= (1 - v[c]) << c
        ok, o2, z2 = solve_bits(np.int64(o), np.int64(z), n, np.array(clue + [0], dtype=np.int64), len(clue), tab)
        assert ok == feasible, (clue, bin(o), bin(z))
        if ok:
            assert (o2, z2) == (exp_o, exp_z), (clue, bin(o), bin(z))


@pytest.mark.parametrize("seed", range(3))
def test_sat_back_end_agrees_with_brute_force(seed):
    from puzzlelab.nonogram import sat
    from puzzlelab.nonogram.satenc import Lines
    from puzzlelab.nonogram.solver import layout

    rng = random.Random(100 + seed)
    for _ in range(12):
        colours = rng.choice([1, 1, 2, 3])
        p = random_puzzle(rng, rng.randint(2, 4), rng.randint(2, 4), colours, rng.choice([0.4, 0.6]))
        truth = count_solutions(p)
        laid = layout(p)
        grid = np.full(p.height * p.width, (1 << p.ncolors) - 1, dtype=np.int64)
        search = sat.SatSearch(grid, p.ncolors, Lines(*laid[0][:3]), (p.height, p.width), 2)
        while not search.step(100):
            pass
        search.close()
        assert len(search.solutions) == len(truth) and search.complete == (len(truth) < 2)
        assert all(satisfies(p, s) for s in search.solutions)
        if len(truth) == 1:
            assert np.array_equal(search.solutions[0], truth[0])


@pytest.mark.parametrize("seed", range(3))
def test_sat_encoding_of_a_partly_decided_state_has_exactly_its_solutions(seed):
    # The CNF of a state where some cells are already narrowed (to one value, or to two colours) has as
    # models exactly the pictures that satisfy the clues and fit those cells: all of them, counted by
    # brute force (the SAT side enumerates up to 8 with blocking clauses).
    from puzzlelab.nonogram import sat
    from puzzlelab.nonogram.satenc import Lines
    from puzzlelab.nonogram.solver import layout

    rng = random.Random(300 + seed)
    for _ in range(12):
        colours = rng.choice([1, 2, 3])
        p = random_puzzle(rng, rng.randint(2, 4), rng.randint(2, 4), colours, rng.choice([0.3, 0.5, 0.7]))
        full = (1 << p.ncolors) - 1
        grid = np.full(p.height * p.width, full, dtype=np.int64)
        for cell in rng.sample(range(len(grid)), len(grid) // 3):
            value = int(p.goal.ravel()[cell]) if rng.random() < 0.8 else rng.randrange(p.ncolors)
            grid[cell] = 1 << value
            if p.ncolors > 2 and rng.random() < 0.5:
                grid[cell] |= 1 << rng.randrange(p.ncolors)
        fits = [g for g in count_solutions(p, limit=10**6) if all(grid[i] >> int(v) & 1 for i, v in
                                                                enumerate(g.ravel()))]
        search = sat.SatSearch(grid, p.ncolors, Lines(*layout(p)[0][:3]), (p.height, p.width), 8)
        while not search.step(100):
            pass
        search.close()
        assert len(search.solutions) == min(len(fits), 8) and search.complete == (len(fits) < 8)
        assert {s.astype(np.int8).tobytes() for s in search.solutions} <= {g.astype(np.int8).tobytes() for g in fits}


def test_engines_and_portfolio_agree_on_random_puzzles():
    # Random 20x20 puzzles (the tournament's kind, smaller): the bit engine, the colour-mask engine and the
    # line search handing over to SAT at once give the same statuses and valid solutions.
    puzzles = generate(20, 20, 0.45, 1, 4, seed=17)
    for p in puzzles:
        answers = []
        for opts in (Options(), Options(bits=False), Options(sat_after=0), Options(sat=False)):
            res = solve(p, opts)
            assert all(satisfies(p, s) for s in res.solutions)
            answers.append(res.status)
            if res.status == "unique":
                assert np.array_equal(res.solutions[0], p.goal) or not satisfies(p, p.goal)
        assert len(set(answers)) == 1, answers
        one = solve(p, Options(max_solutions=1, sat_after=0))
        assert one.status in ("solved", "unique") and satisfies(p, one.solutions[0])


def test_sat_turns_are_reproducible_under_a_work_limit():
    # The SAT back-end's turns double (100, 200, 400, ... conflicts, the line search as long each time);
    # under a work limit (no clock) two runs take the same turns and stop at the same point.
    p = generate(25, 25, 0.4, 1, 10, seed=0)[5]  # a hard random one: neither engine decides it in this budget
    runs = [solve(p, Options(sat_after=0, work_limit=500_000_000)) for _ in range(2)]
    assert runs[0].stats == runs[1].stats and runs[0].status == runs[1].status == "timeout"
    conflicts = runs[0].stats["sat_conflicts"]
    assert runs[0].stats["sat"] == 1 and conflicts in range(1500, 3100)  # 100 + 200 + 400 + 800 (+ 1600)


def test_sat_back_end_leads_each_round_unless_told_otherwise():
    # With the SAT back-end first in each round, a work limit that cuts a round leaves it more conflicts
    # (and the line-based search less work) than the other order; both stop at the same kind of point.
    p = generate(25, 25, 0.4, 1, 10, seed=0)[5]
    lead, follow = (solve(p, Options(sat_after=0, work_limit=500_000_000, sat_first=first)) for first in (True, False))
    assert lead.status == follow.status == "timeout"
    assert lead.stats["sat_conflicts"] > follow.stats["sat_conflicts"]
    assert lead.stats["work"] < follow.stats["work"]


def test_sat_affordable_follows_the_measured_rate():
    from puzzlelab.nonogram import sat

    search = sat.SatSearch.__new__(sat.SatSearch)
    search.conflicts, search.seconds = 0, 0.0
    assert search.affordable(1.0) >= 1 << 40  # no rate yet: the turn is not cut
    search.conflicts, search.seconds = 5000, 2.0
    assert search.affordable(4.0) == 10000 and search.affordable(0.0) == 1


def _dp_bw_line(o: int, z: int, n: int, clue: list[int]):
    """The colour-mask line solver on a black-and-white line given as bit sets: (ok, o', z')."""
    cells = np.array([(2 if o >> c & 1 else 0) | (1 if z >> c & 1 else 0) for c in range(n)], dtype=np.int64)
    k, mk = len(clue), max(1, len(clue))
    lo, hi = windows([(b, 1) for b in clue], n)

    def arr(xs):
        xs = list(xs)
        return np.array(xs + [0] * (mk - len(xs)), dtype=np.int64)

    out = np.zeros(n + 1, dtype=np.int64)
    ok = solve_line(cells, n, arr(clue), arr([1] * k), arr([0] * k), arr(lo), arr(hi), k, np.array([1], np.int64), 1,
                    LineWork(np.zeros((mk + 1, n + 2), np.uint8), np.zeros((mk + 1, n + 2), np.uint8),
                             np.zeros((1, n + 2), np.int32), np.zeros((1, n + 2), np.int32),
                             np.zeros((2, mk), np.int64)),
                    out, False)
    o2 = sum(1 << c for c in range(n) if out[c] & 2)
    z2 = sum(1 << c for c in range(n) if out[c] & 1)
    return ok, o2, z2


def test_word_line_solver_matches_the_one_word_and_the_dp_solvers():
    # Lines of any length as arrays of 62-bit words: the same answers as the one-word solver (up to 62
    # cells, so across the first word boundary) and as the colour-mask dynamic programme (longer lines).
    from puzzlelab.nonogram.bitline import WORD_BITS, solve_bits, solve_words, words_for

    rng = random.Random(12)
    tab1 = np.zeros((4, 128), dtype=np.int64)
    for trial in range(1200):
        n = rng.randint(1, 62) if trial % 2 else rng.randint(55, 260)
        img = [1 if rng.random() < rng.choice([0.3, 0.55, 0.8]) else 0 for _ in range(n)]
        clue = [length for length, _ in runs(np.array(img))]
        o = z = 0
        known = rng.choice([0.0, 0.1, 0.3])
        for c in range(n):
            r = rng.random()
            if r < known / 2:  # known white (at random: often against the clue, a contradiction)
                z |= 1 << c
                o |= (1 << c) if rng.random() < 0.1 else 0
            elif r < known:
                o |= 1 << c
            else:
                o |= 1 << c
                z |= 1 << c
        if n <= 62:
            expected = solve_bits(np.int64(o), np.int64(z), n, np.array(clue + [0], dtype=np.int64), len(clue), tab1)
            expected = (bool(expected[0]), int(expected[1]), int(expected[2]))
        else:
            expected = _dp_bw_line(o, z, n, clue)
        nw = words_for(n)
        ow = np.array([(o >> (WORD_BITS * i)) & ((1 << WORD_BITS) - 1) for i in range(nw)], dtype=np.int64)
        zw = np.array([(z >> (WORD_BITS * i)) & ((1 << WORD_BITS) - 1) for i in range(nw)], dtype=np.int64)
        ok = solve_words(ow, zw, n, np.array(clue + [0], dtype=np.int64), len(clue),
                         np.zeros((3, len(clue) + 1, nw), np.int64), np.zeros((5, nw), np.int64))
        assert ok == expected[0], (n, clue, bin(o), bin(z))
        if ok:
            got_o = sum(int(w) << (WORD_BITS * i) for i, w in enumerate(ow))
            got_z = sum(int(w) << (WORD_BITS * i) for i, w in enumerate(zw))
            assert (got_o, got_z) == expected[1:], (n, clue, bin(o), bin(z))


def test_word_lines_change_nothing_but_speed():
    # Black and white beyond 62 cells: the colour-mask engine with bit-parallel lines takes the very same
    # steps (line solves, work, branches) to the same answers as with its dynamic programme.
    noise = generate(70, 66, 0.55, 1, 3, seed=5)  # [1] needs 10 s of search: left out
    for p in [noise[0], noise[2]] + generate(90, 40, 0.6, 1, 2, seed=6, style="blocks"):
        words, dp = solve(p, Options()), solve(p, Options(bits=False))
        assert words.stats["engine"] == dp.stats["engine"] == "dp"
        assert words.status == dp.status and words.stats == dp.stats
        assert all(np.array_equal(a, b) for a, b in zip(words.solutions, dp.solutions, strict=True))
        assert all(satisfies(p, s) for s in words.solutions)


def _colour_line_answers(cells: np.ndarray, clue: list[tuple[int, int]], n: int):
    """(ok, out) of the dynamic programme and of the bit-parallel colour solver on one line (one word up
    to 62 cells, two up to 123)."""
    from puzzlelab.nonogram.bitline import MAX_CELLS, solve_colour_bits, solve_colour_pair

    k, mk = len(clue), max(1, len(clue))
    slots = sorted({c for _, c in clue})
    lo, hi = windows(clue, n)

    def arr(xs):
        xs = list(xs)
        return np.array(xs + [0] * (mk - len(xs)), dtype=np.int32)

    blen, bcol, bslot = arr(b[0] for b in clue), arr(b[1] for b in clue), arr(slots.index(b[1]) for b in clue)
    slotcol = np.array(slots or [0], dtype=np.int64)
    work = LineWork(np.zeros((mk + 1, n + 2), np.uint8), np.zeros((mk + 1, n + 2), np.uint8),
                    np.zeros((mk, n + 2), np.int32), np.zeros((mk, n + 2), np.int32), np.zeros((2, mk), np.int64))
    dp, bits = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    ok_dp = solve_line(cells, n, blen, bcol, bslot, arr(lo), arr(hi), k, slotcol, len(slots), work, dp, False)
    solver = solve_colour_bits if n <= MAX_CELLS else solve_colour_pair
    ok_bits = solver(cells, n, blen, bcol, bslot, k, slotcol, len(slots), np.zeros((4, mk + 1, 2), np.int64), bits)
    return (ok_dp, dp[:n].tolist()), (ok_bits, bits[:n].tolist())


def test_colour_bit_line_solver_matches_the_dp():
    # Colour lines of up to 123 cells, one or two words per colour: the answers of the dynamic programme (itself
    # checked against enumeration above), on lines from pictures with cells partly decided, often
    # against the clue, and on clues with one block changed (often no placement at all).
    rng = random.Random(13)
    seen = set()
    for trial in range(3000):
        n, ncol = rng.randint(1, 62) if trial % 2 else rng.randint(63, 123), rng.randint(2, 7)
        line = [rng.choice([0] * 3 + list(range(1, ncol))) for _ in range(n)]
        clue = runs(np.array(line))
        if clue and trial % 5 == 0:
            clue[rng.randrange(len(clue))] = (rng.randint(1, 6), rng.randint(1, ncol - 1))
        full = (1 << ncol) - 1
        cells = np.array([full if rng.random() < 0.6 else (1 << line[i]) | rng.choice([0, rng.randint(0, full)])
                          for i in range(n)] + [0], dtype=np.int64)
        dp, bits = _colour_line_answers(cells, clue, n)
        assert bits == dp, (n, clue, cells.tolist())
        seen.add(dp[0])
    assert seen == {True, False}


def test_colour_bit_lines_change_nothing_but_speed():
    # Colour puzzles: the colour-mask engine with bit-parallel colour lines (up to 123 cells; the dynamic
    # programme beyond) takes the very same steps to the same answers as with its dynamic programme alone.
    puzzles = generate(30, 24, 0.6, 3, 3, seed=7) + generate(70, 40, 0.6, 5, 2, seed=8, style="blocks")
    for p in puzzles + generate(130, 64, 0.7, 4, 1, seed=9, style="blocks"):
        bits, dp = solve(p, Options()), solve(p, Options(bits=False))
        assert bits.status == dp.status and bits.stats == dp.stats
        assert all(np.array_equal(a, b) for a, b in zip(bits.solutions, dp.solutions, strict=True))
        assert all(satisfies(p, s) for s in bits.solutions)


def _same(a, b):
    assert (a.status, a.line_solvable, a.stats) == (b.status, b.line_solvable, b.stats)
    assert all(np.array_equal(x, y) for x, y in zip(a.solutions, b.solutions, strict=True))


@pytest.mark.parametrize("chunk", [None, 3000])
def test_batch_path_takes_the_steps_of_solve(monkeypatch, chunk):
    # Many puzzles per kernel call (solve_many) give what one call each gives: statuses, solutions and
    # every counter, also for puzzles the batch hands on to solve after their first step (a small
    # BIT_CHUNK hands on most of them), under a work limit, and for a clue longer than its line.
    from puzzlelab.nonogram import solver

    if chunk:
        monkeypatch.setattr(solver, "BIT_CHUNK", chunk)
    rng = random.Random(7)
    puzzles = [random_puzzle(rng, rng.randint(1, 12), rng.randint(1, 12), 1, rng.choice([0.4, 0.6]))
               for _ in range(40)]
    puzzles += generate(25, 25, 0.5, 1, 6, seed=3) + generate(62, 40, 0.6, 1, 2, seed=4)
    puzzles.insert(5, Puzzle("overfull", [[(3, 1)], []], [[(1, 1)], [(1, 1)]]))
    for opts in (Options(), Options(max_solutions=1), Options(work_limit=20_000, sat=False)):
        batched = list(solver.solve_many(puzzles, opts))
        assert len(batched) == len(puzzles)
        for p, got in zip(puzzles, batched, strict=True):
            _same(solve(p, opts), got)
            assert got.cpu_s >= 0 and got.time_s >= 0
    assert batched[5].status == "contradiction"
    if chunk:  # some puzzles did go on in solve after the batch
        assert sum(r.stats["work"] > chunk for r in batched) > 5


def test_caches_made_ready_before_the_clock_change_no_answer_or_counter():
    """`bench` writes its line caches before timing: they start empty, so hits, the work counters and the
    answers are those of tables made during the solve."""
    from puzzlelab.nonogram import linecache
    from puzzlelab.nonogram.solver import cache_shape, ready_caches

    puzzles = generate(40, 40, 0.65, 3, 3, seed=7) + generate(20, 20, 0.6, 2, 2, seed=6)
    linecache._pool.clear()
    fresh = [solve(p) for p in puzzles]
    assert any(r.stats["probes"] for r in fresh)  # the search ran, so the caches were used
    linecache._pool.clear()
    ready_caches(puzzles, Options())
    shapes = {cache_shape(p, Options().cache_mb) for p in puzzles}
    assert set(linecache._pool) == shapes and not any(t[:-1].any() for t in linecache._pool.values())
    again = [solve(p) for p in puzzles]
    for a, b in zip(fresh, again, strict=True):
        assert (a.status, a.stats) == (b.status, b.stats)
        assert all(np.array_equal(x, y) for x, y in zip(a.solutions, b.solutions, strict=True))
    ready_caches(puzzles, Options(cache_mb=0))  # no cache, nothing to make ready
