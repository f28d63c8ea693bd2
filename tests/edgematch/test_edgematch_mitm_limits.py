"""Meet-in-the-middle stops: the node limit holds across the two racing halves, the timeout is recorded."""

from __future__ import annotations

import json

import pytest
from mitm_support import band_files, cleared, scrambled

from puzzlelab.edgematch.mitm.band import Band
from puzzlelab.edgematch.mitm.solve import solve_band


def _round_nodes(res: dict) -> int:
    return sum((r["upper_nodes"] or 0) + (r["lower_nodes"] or 0) + r["race_nodes"] for r in res["rounds"])


def test_node_limit_holds_while_the_halves_race():
    puzzle, board = scrambled(6, 12)
    band = Band(3, 6, 0, 6)
    free = solve_band(puzzle, cleared(board, band), band)
    raced = [r for r in free["rounds"] if r["race_nodes"]]
    assert raced, "the band must have a round where both halves walk"
    before = sum((r["upper_nodes"] or 0) + (r["lower_nodes"] or 0) + r["race_nodes"]
                 for r in free["rounds"][:free["rounds"].index(raced[0])])
    for extra in (1, 7, raced[0]["race_nodes"] // 2 + 1, raced[0]["race_nodes"] + 3):
        limit = before + extra
        res = solve_band(puzzle, cleared(board, band), band, node_limit=limit)
        if res["proven"] and res["mismatches"] == free["mismatches"] and res["stopped_by"] is None:
            assert res["nodes"] == free["nodes"] <= limit
            continue
        assert res["stopped_by"] == "nodes"
        assert res["nodes"] == _round_nodes(res) <= limit


def test_timeout_stops_and_is_recorded():
    puzzle, board = scrambled(6, 12)
    band = Band(3, 6, 0, 6)
    free = solve_band(puzzle, cleared(board, band), band)
    assert "timeout" not in free and "timed_out" not in free
    roomy = solve_band(puzzle, cleared(board, band), band, timeout=3600.0)
    assert (roomy["timeout"], roomy["timed_out"]) == (3600.0, False)
    assert roomy["board"] == free["board"] and roomy["rounds"][-1]["status"] == free["rounds"][-1]["status"]
    res = solve_band(puzzle, cleared(board, band), band, timeout=1e-9)
    assert res["timed_out"] is True and res["proven"] is False and res["stopped_by"] == "timeout"
    assert res["rounds"][-1]["status"] == "timeout"
    assert res["lower_bound"] <= free["mismatches"] <= res["mismatches"]


@pytest.fixture
def files(tmp_path):
    return band_files(tmp_path)


def test_cli_timeout_flag(files, run_cli):
    args = ["edgematch", "mitm", files / "p.txt", "--board", files / "b.json", "--band", "4:6", "--json"]
    code, out, err = run_cli(*args, "--timeout", "1e-9")
    assert code == 0, err
    res = json.loads(out)
    assert res["timed_out"] is True and res["stopped_by"] == "timeout" and res["proven"] is False
    code, out, err = run_cli(*args, "--timeout", "0")
    assert code == 2 and "--timeout" in err


def test_repair_band_on_a_complete_board():
    from puzzlelab.edgematch.hints import Hint
    from puzzlelab.edgematch.mitm.solve import repair_band
    from puzzlelab.edgematch.score import check_board, score_board
    from puzzlelab.lab.errors import InputError

    puzzle, board = scrambled(6, 12)
    hint = Hint(5, 2, int(board.piece[5, 2]), int(board.rot[5, 2]))
    fix = repair_band(puzzle, board, (4, 6), hints=[hint], node_limit=10**8)
    assert fix.proven and fix.mismatches <= fix.before and fix.lower_bound == fix.mismatches
    assert check_board(puzzle, fix.board).valid and score_board(puzzle, fix.board) >= score_board(puzzle, board)
    assert (fix.board.piece[5, 2], fix.board.rot[5, 2] % 4) == (hint.piece, hint.rot % 4)
    assert (fix.board.piece[:4] == board.piece[:4]).all()
    again = repair_band(puzzle, board, (4, 6), hints=[hint], node_limit=10**8)
    assert again.board.same_placement(fix.board) and again.nodes == fix.nodes
    short = repair_band(puzzle, board, (3, 6), node_limit=50)  # stopped early: keeps the input band
    assert not short.proven and short.nodes <= 50 and short.mismatches <= short.before
    with pytest.raises(InputError, match="not inside"):
        repair_band(puzzle, board, (5, 7))


def test_wall_note_says_where_each_height_stops():
    import pandas as pd

    from puzzlelab.edgematch.mitm.report import _where_rows_stop

    base = {"instance": "g16a", "proven": "yes", "stopped by": "", "lower bound": 3, "best found": 3, "last budget": 3,
            "table MiB": 1.0}
    df = pd.DataFrame([{**base, "rows": 3, "width": 4}, {**base, "rows": 3, "width": 6},
                       {**base, "rows": 3, "width": 8, "proven": "no", "stopped by": "memory", "lower bound": 7,
                        "best found": 9, "last budget": 7, "table MiB": 1900.0},
                       {**base, "rows": 3, "width": 10, "proven": "no", "stopped by": "nodes"},
                       {**base, "rows": 4, "width": 4, "proven": "no", "stopped by": "timeout", "lower bound": 5,
                        "best found": 6, "last budget": 5}])
    assert _where_rows_stop(df) == [
        "3-row bands: proven up to width 6, width 8 stopped by memory (the tables) at budget 7 "
        "(optimum between 7 and 9; largest table 1,900 MiB)",
        "4-row bands: none proven, width 4 stopped by the timeout (time) at budget 5 (optimum between 5 and 6; "
        "largest table 1 MiB)"]
