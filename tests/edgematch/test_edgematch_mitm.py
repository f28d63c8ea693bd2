"""Meet-in-the-middle bands (BANDSAW): proven optima checked against planted solutions and brute force."""

from __future__ import annotations

import json

import numpy as np
import pytest
from mitm_support import band_files, brute_force, cleared, scrambled

from puzzlelab.edgematch.board import board_from_json, save_board
from puzzlelab.edgematch.generate import generate
from puzzlelab.edgematch.hints import Hint, e2_hint_cells, hints_from_board
from puzzlelab.edgematch.mitm.band import Band, build, parse_range
from puzzlelab.edgematch.mitm.solve import band_mismatches, solve_band
from puzzlelab.edgematch.score import check_board, score_board
from puzzlelab.lab.errors import InputError

# --- planted bands: the optimum is 0 and it is proven ----------------------------------------------

@pytest.mark.parametrize("size,rows", [(6, 2), (6, 3), (7, 4)])
def test_planted_bottom_band_is_proven_zero(size, rows):
    puzzle, solution = generate(size, seed=size + rows)
    band = Band(size - rows, size, 0, size)
    res = solve_band(puzzle, cleared(solution, band), band)
    assert res["proven"] is True
    assert res["mismatches"] == 0 and res["lower_bound"] == 0
    assert res["rounds"][-1]["budget"] == 0 and res["rounds"][-1]["joins"] >= 1
    board = board_from_json(res["board"])
    assert band_mismatches(puzzle, board, band) == 0
    assert score_board(puzzle, board) == puzzle.max_score
    assert check_board(puzzle, board).valid


def test_planted_band_with_hints_keeps_them():
    puzzle, solution = generate(8, seed=3)
    hints = hints_from_board(solution, e2_hint_cells(8, 8))
    band = Band(4, 8, 0, 8)  # holds the start cell (4, 3) and the clue cells (5, 2), (5, 5)
    assert sum(band.contains(h.row, h.col) for h in hints) == 3
    res = solve_band(puzzle, cleared(solution, band), band, hints=hints)
    assert res["proven"] and res["mismatches"] == 0
    board = board_from_json(res["board"])
    assert check_board(puzzle, board, hints).valid


def test_middle_band_and_column_range():
    puzzle, solution = generate(7, seed=11)
    for band in (Band(2, 5, 0, 7), Band(1, 4, 2, 6), Band(0, 2, 0, 7)):
        res = solve_band(puzzle, cleared(solution, band), band)
        assert res["proven"] and res["mismatches"] == 0, band


# --- brute force agreement on scrambled boards ----------------------------------------------------

@pytest.mark.parametrize("size,seed,band", [
    (5, 1, Band(3, 5, 0, 3)),  # bottom-left corner block, 2x3
    (5, 2, Band(3, 5, 2, 5)),  # bottom-right corner block
    (5, 3, Band(1, 3, 1, 4)),  # interior block, fixed all round
    (6, 4, Band(2, 4, 1, 4)),
    (5, 5, Band(4, 5, 0, 5)),  # one row: no middle seam, a single half
    (6, 6, Band(0, 3, 2, 4)),  # top edge, three rows, split 1 + 2
])
def test_optimum_equals_brute_force(size, seed, band):
    puzzle, board = scrambled(size, seed)
    want = brute_force(puzzle, board, band)
    before = band_mismatches(puzzle, board, band)
    res = solve_band(puzzle, board, band)
    assert res["proven"]
    assert res["mismatches"] == want
    assert res["mismatches"] <= before
    out = board_from_json(res["board"])
    assert band_mismatches(puzzle, out, band) == want
    assert check_board(puzzle, out).valid
    # outside the band nothing moved
    mask = np.ones((size, size), bool)
    mask[band.r0:band.r1, band.c0:band.c1] = False
    assert np.array_equal(out.piece[mask], board.piece[mask])


@pytest.mark.parametrize("split", [1, 2])
def test_split_does_not_change_the_optimum(split):
    puzzle, board = scrambled(6, 8)
    band = Band(3, 6, 1, 3)
    want = brute_force(puzzle, board, band)
    res = solve_band(puzzle, cleared(board, band), band, split=split)
    assert res["proven"] and res["mismatches"] == want


def test_brute_force_with_a_hint_inside():
    puzzle, board = scrambled(6, 9)
    hint = Hint(3, 2, int(board.piece[3, 2]), int(board.rot[3, 2]))
    band = Band(2, 4, 1, 4)
    want = brute_force(puzzle, board, band, [hint])
    res = solve_band(puzzle, cleared(board, band), band, hints=[hint])
    assert res["proven"] and res["mismatches"] == want
    out = board_from_json(res["board"])
    assert (out.piece[3, 2], out.rot[3, 2] % 4) == (hint.piece, hint.rot)


# --- the ratchet record, stops and labels --------------------------------------------------------

def test_rounds_record_every_budget_up_to_the_optimum():
    puzzle, board = scrambled(6, 12)
    band = Band(4, 6, 0, 6)
    res = solve_band(puzzle, cleared(board, band), band)
    assert res["proven"]
    budgets = [r["budget"] for r in res["rounds"]]
    assert budgets == list(range(len(budgets)))
    assert [r["found"] for r in res["rounds"]] == [False] * (len(budgets) - 1) + [True]
    assert budgets[-1] == res["mismatches"]
    for r in res["rounds"]:
        assert {"upper_partials", "lower_partials", "joins", "join_candidates", "pruned", "time_s",
                "peak_rss_bytes"} <= set(r)


def test_max_budget_gives_an_honest_not_proven():
    puzzle, board = scrambled(6, 12)
    band = Band(4, 6, 0, 6)
    full = solve_band(puzzle, cleared(board, band), band)
    assert full["mismatches"] >= 2
    cut = solve_band(puzzle, cleared(board, band), band, max_budget=full["mismatches"] - 2)
    assert cut["proven"] is False
    assert cut["lower_bound"] == full["mismatches"] - 1
    assert cut["mismatches"] >= full["mismatches"]
    assert cut["stopped_by"] == "max-budget"


def test_memory_limit_gives_an_honest_not_proven():
    from puzzlelab.edgematch.mitm.solve import BASE_ALLOWANCE

    # planted band: round 0 proves 0 and fits; the sweep then meets the wall
    puzzle, solution = generate(8, seed=5)
    band = Band(5, 8, 0, 8)
    free = solve_band(puzzle, cleared(solution, band), band, sweep=3)
    sizes = [r["table_bytes"] for r in free["rounds"]]
    assert sizes == sorted(sizes) and sizes[2] > sizes[1]
    res = solve_band(puzzle, cleared(solution, band), band, sweep=3, memory_limit=BASE_ALLOWANCE + sizes[1])
    assert res["proven"] and res["mismatches"] == 0
    assert [r["status"] for r in res["rounds"]] == ["found", "sweep", "memory"]
    # scrambled band: the wall comes before the proof
    puzzle, board = scrambled(6, 12)
    band = Band(3, 6, 0, 6)
    free = solve_band(puzzle, cleared(board, band), band)
    opt = free["mismatches"]
    sizes = [r["table_bytes"] for r in free["rounds"]]
    fixed = min(sizes)  # the bound tables alone: a round that recorded nothing
    wall = next(r["budget"] for r in free["rounds"] if r["table_bytes"] > fixed + 1000)
    assert wall <= opt
    res = solve_band(puzzle, cleared(board, band), band, memory_limit=BASE_ALLOWANCE + fixed + 1000)
    assert res["proven"] is False and res["stopped_by"] == "memory"
    assert res["lower_bound"] == wall and res["mismatches"] >= opt
    assert res["rounds"][-1]["status"] == "memory" and res["rounds"][-1]["budget"] == wall


def test_node_limit_gives_an_honest_not_proven():
    puzzle, board = scrambled(6, 12)
    band = Band(3, 6, 0, 6)
    free = solve_band(puzzle, cleared(board, band), band)
    opt = free["mismatches"]
    spent = sum(r["upper_nodes"] + r["lower_nodes"] + r["race_nodes"] for r in free["rounds"][:-1])
    assert spent + 1 < free["nodes"]
    res = solve_band(puzzle, cleared(board, band), band, node_limit=spent + 1)
    assert res["proven"] is False and res["stopped_by"] == "nodes"
    assert res["lower_bound"] == opt and res["rounds"][-1]["status"] == "nodes"


def test_resolved_band_never_scores_below_the_input():
    for seed in range(3):
        puzzle, board = scrambled(6, 30 + seed)
        band = Band(4, 6, 0, 6)
        before = score_board(puzzle, board)
        res = solve_band(puzzle, board, band, max_budget=1)  # too small to prove: keeps the input
        assert res["score"] >= before
        assert board_from_json(res["board"]).same_placement(board) or res["proven"]
        res = solve_band(puzzle, board, band)
        assert res["proven"] and res["score"] >= before


def test_identical_results_on_rerun():
    from puzzlelab.lab.canonical import dumps
    from puzzlelab.lab.results import split_volatile

    puzzle, board = scrambled(6, 12)
    band = Band(3, 6, 0, 6)
    a = split_volatile(solve_band(puzzle, cleared(board, band), band, sweep=3))[0]
    b = split_volatile(solve_band(puzzle, cleared(board, band), band, sweep=3))[0]
    assert dumps(a) == dumps(b)


# --- input checking ------------------------------------------------------------------------------

def test_parse_range():
    assert parse_range("8:10", 10, "row band") == (8, 10)
    assert parse_range("-2:", 10, "row band") == (8, 10)
    assert parse_range(":3", 10, "row band") == (0, 3)
    for bad in ("5:5", "9:8", "10:12", "a:b", "3", "-11:"):
        with pytest.raises(InputError):
            parse_range(bad, 10, "row band")


def test_piece_used_twice_outside_is_rejected():
    puzzle, solution = generate(6, seed=1)
    board = solution.copy()
    board.piece[0, 1] = board.piece[0, 2]
    with pytest.raises(InputError, match="used twice"):
        build(puzzle, board, Band(4, 6, 0, 6))


def test_empty_cell_outside_the_band_is_rejected():
    puzzle, solution = generate(6, seed=1)
    board = solution.copy()
    board.piece[1, 1] = -1
    with pytest.raises(InputError, match="outside the band"):
        build(puzzle, board, Band(4, 6, 0, 6))


@pytest.fixture
def files(tmp_path):
    return band_files(tmp_path)


def test_cli_solves_and_writes(files, run_cli):
    code, out, err = run_cli("edgematch", "mitm", files / "p.txt", "--board", files / "b.json", "--band", "4:6",
                             "--json", "--out", files / "r.json", "--timing", files / "t.json",
                             "--board-out", files / "solved.json")
    assert code == 0, err
    res = json.loads(out)
    assert res["proven"] is True and res["mismatches"] == 0 and res["lower_bound"] == 0
    assert {"proven", "mismatches", "lower_bound", "rounds", "board", "time_s"} <= set(res)
    art = json.loads((files / "r.json").read_text())
    assert "time_s" not in art and "time_s" not in art["rounds"][0]
    assert "time_s" in json.loads((files / "t.json").read_text())
    solved = json.loads((files / "solved.json").read_text())
    assert solved == res["board"]


@pytest.mark.parametrize("args,message", [
    (["--band", "6:7"], "outside 0:6"),
    (["--band", "5:4"], "empty"),
    (["--band", "x"], "START:STOP"),
    (["--band", "4:6", "--max-budget", "-1"], "--max-budget"),
    (["--band", "4:6", "--memory-budget", "lots"], "cannot read size"),
    (["--band", "4:6", "--split", "2"], "--split"),
])
def test_cli_bad_arguments(files, run_cli, args, message):
    code, out, err = run_cli("edgematch", "mitm", files / "p.txt", "--board", files / "b.json", *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_cli_board_that_does_not_fit(files, run_cli, tmp_path):
    puzzle, solution = generate(5, seed=2)
    save_board(tmp_path / "small.json", solution)
    code, out, err = run_cli("edgematch", "mitm", files / "p.txt", "--board", tmp_path / "small.json",
                             "--band", "3:5")
    assert code == 2 and "5x5" in err and "6x6" in err
    bad = json.loads((files / "b.json").read_text())
    bad["cells"][0] = bad["cells"][1]
    (tmp_path / "twice.json").write_text(json.dumps(bad))
    code, out, err = run_cli("edgematch", "mitm", files / "p.txt", "--board", tmp_path / "twice.json",
                             "--band", "4:6")
    assert code == 2 and "twice.json" in err and "used twice" in err
