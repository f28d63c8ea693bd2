"""The SAT back-end of band proofs: the same optima as brute force and the meet-in-the-middle ratchet."""

from __future__ import annotations

import json

import numpy as np
import pytest
from mitm_support import band_files, brute_force, cleared, scrambled

from puzzlelab.edgematch.board import board_from_json
from puzzlelab.edgematch.generate import generate
from puzzlelab.edgematch.hints import Hint
from puzzlelab.edgematch.mitm.band import Band, build
from puzzlelab.edgematch.mitm.sat import solve_sat
from puzzlelab.edgematch.mitm.solve import band_mismatches, solve_band
from puzzlelab.edgematch.score import check_board, score_board
from puzzlelab.lab import canonical
from puzzlelab.lab.results import split_volatile


def sat(puzzle, board, band, hints=(), **kwargs) -> dict:
    return solve_sat(build(puzzle, board, band, list(hints)), **kwargs)


@pytest.mark.parametrize("size,rows", [(6, 2), (7, 3), (8, 4)])
def test_planted_band_is_proven_zero(size, rows):
    puzzle, solution = generate(size, seed=size + rows)
    band = Band(size - rows, size, 0, size)
    res = sat(puzzle, cleared(solution, band), band)
    assert res["method"] == "sat" and res["proven"] is True
    assert res["mismatches"] == 0 and res["lower_bound"] == 0
    board = board_from_json(res["board"])
    assert score_board(puzzle, board) == puzzle.max_score
    assert check_board(puzzle, board).valid


@pytest.mark.parametrize("size,seed,band", [
    (5, 1, Band(3, 5, 0, 3)),  # bottom-left corner block
    (5, 3, Band(1, 3, 1, 4)),  # interior block, fixed all round
    (6, 4, Band(2, 4, 1, 4)),
    (5, 5, Band(4, 5, 0, 5)),  # one row
    (6, 6, Band(0, 3, 2, 4)),  # top edge, three rows
])
def test_optimum_equals_brute_force(size, seed, band):
    puzzle, board = scrambled(size, seed)
    want = brute_force(puzzle, board, band)
    res = sat(puzzle, board, band)
    assert res["proven"] and res["mismatches"] == want == res["lower_bound"]
    out = board_from_json(res["board"])
    assert band_mismatches(puzzle, out, band) == want
    assert check_board(puzzle, out).valid
    mask = np.ones((size, size), bool)
    mask[band.r0:band.r1, band.c0:band.c1] = False
    assert np.array_equal(out.piece[mask], board.piece[mask]) and np.array_equal(out.rot[mask], board.rot[mask])


@pytest.mark.parametrize("size,seed,rows", [(8, 21, 2), (7, 22, 3), (10, 23, 2)])
def test_optimum_equals_the_ratchet(size, seed, rows):
    """Bands too large for brute force: the two exact methods, built on different ideas, agree."""
    puzzle, board = scrambled(size, seed)
    band = Band(size - rows, size, 0, size)
    mitm = solve_band(puzzle, board, band)
    res = sat(puzzle, board, band)
    assert mitm["proven"] and res["proven"]
    assert res["mismatches"] == mitm["mismatches"]
    assert res["before"] == mitm["before"] and res["mismatches"] < res["before"]


def test_a_hint_inside_the_band_stays():
    puzzle, board = scrambled(6, 9)
    hint = Hint(3, 2, int(board.piece[3, 2]), int(board.rot[3, 2]))
    band = Band(2, 4, 1, 4)
    want = brute_force(puzzle, board, band, [hint])
    res = sat(puzzle, cleared(board, band), band, [hint])
    assert res["proven"] and res["mismatches"] == want and res["source"] in ("greedy", "sat")
    out = board_from_json(res["board"])
    assert (out.piece[3, 2], out.rot[3, 2] % 4) == (hint.piece, hint.rot)


def test_every_bound_asked_is_recorded():
    puzzle, board = scrambled(8, 12)
    band = Band(6, 8, 0, 8)
    res = sat(puzzle, board, band)
    answers = [r["answer"] for r in res["rounds"]]
    assert answers[-1] == "unsat" and set(answers[:-1]) <= {"sat"}
    budgets = [r["budget"] for r in res["rounds"]]
    assert budgets == sorted(budgets, reverse=True) and budgets[-1] == res["mismatches"] - 1
    found = [r["mismatches"] for r in res["rounds"][:-1]]
    assert all(f <= b for f, b in zip(found, budgets, strict=False)) and found[-1] == res["mismatches"]
    assert res["nodes"] == sum(r["conflicts"] for r in res["rounds"])


def test_conflict_limit_gives_an_honest_not_proven_and_the_same_bytes():
    puzzle, board = scrambled(8, 31)
    band = Band(6, 8, 0, 8)
    full = sat(puzzle, board, band)
    assert full["proven"] and full["nodes"] > 200
    runs = [sat(puzzle, board, band, node_limit=100) for _ in range(2)]
    cut = runs[0]
    assert cut["proven"] is False and cut["stopped_by"] == "nodes"
    assert cut["lower_bound"] <= full["mismatches"] <= cut["mismatches"] <= cut["before"]
    assert cut["nodes"] >= 100 or cut["rounds"][-1]["answer"] == "stopped"
    stable = [canonical.dumps(split_volatile(r)[0]) for r in runs]
    assert stable[0] == stable[1]


def test_memory_limit_stops_before_solving():
    puzzle, board = scrambled(6, 12)
    band = Band(4, 6, 0, 6)
    res = sat(puzzle, board, band, memory_limit=1000)
    assert res["proven"] is False and res["stopped_by"] == "memory" and res["rounds"] == []
    assert res["mismatches"] == res["before"] and res["lower_bound"] == 0


@pytest.fixture
def files(tmp_path):
    return band_files(tmp_path)


def test_cli_method_sat(files, run_cli):
    code, out, err = run_cli("edgematch", "mitm", files / "p.txt", "--board", files / "b.json", "--band", "4:6",
                             "--method", "sat", "--hints", "all", "--hints-file", files / "h.txt",
                             "--out", files / "r.json", "--timing", files / "t.json")
    assert code == 0, err
    assert "proven optimal" in out and "bounds asked" in out
    art = json.loads((files / "r.json").read_text())
    assert art["method"] == "sat" and art["proven"] and art["mismatches"] == 0
    assert "time_s" not in art and "cpu_time_s" not in art
    assert "cpu_time_s" in json.loads((files / "t.json").read_text())


@pytest.mark.parametrize("option", [["--split", "1"], ["--max-budget", "3"], ["--sweep-budget", "4"]])
def test_cli_mitm_options_are_refused_with_sat(files, run_cli, option):
    code, out, err = run_cli("edgematch", "mitm", files / "p.txt", "--board", files / "b.json", "--band", "4:6",
                             "--method", "sat", *option)
    assert code == 2 and f"{option[0]} belongs to --method mitm" in err and "Traceback" not in err
