"""Edge-matching model: formats, rotation convention, boards, hints, the scorer, the generator, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import corpus
from puzzlelab.edgematch.board import (
    Board,
    board_from_json,
    board_to_json,
    format_board_text,
    load_board,
    load_boards,
    parse_board_text,
)
from puzzlelab.edgematch.generate import _canonical, default_colors, generate
from puzzlelab.edgematch.hints import (
    e2_hint_cells,
    hints_from_board,
    is_official,
    load_hints,
    official_hints,
    resolve_hints,
    write_hints,
)
from puzzlelab.edgematch.puzzle import format_brendan, format_e2pieces, load_puzzle, parse_puzzle
from puzzlelab.edgematch.score import check_board, mismatch_cells, score_board
from puzzlelab.lab.errors import InputError


def recount(puzzle, board) -> int:
    """Independent recount of matched inner edges, straight from the file orientation (no rotated table)."""
    def side(r, c, s):
        p, q = int(board.piece[r, c]), int(board.rot[r, c])
        return int(puzzle.edges[p][(s - q) % 4])

    total = 0
    for r in range(board.rows):
        for c in range(board.cols):
            if board.piece[r, c] < 0:
                continue
            if c + 1 < board.cols and board.piece[r, c + 1] >= 0 and side(r, c, 1) == side(r, c + 1, 3) != 0:
                total += 1
            if r + 1 < board.rows and board.piece[r + 1, c] >= 0 and side(r, c, 2) == side(r + 1, c, 0) != 0:
                total += 1
    return total


# --- formats and rotations ---------------------------------------------------------------------

def test_official_set_loads_with_known_hint_colours():
    puzzle = load_puzzle(corpus("e2", "e2pieces.txt"))
    assert (puzzle.rows, puzzle.cols, puzzle.n_pieces, puzzle.max_score) == (16, 16, 256, 480)
    assert puzzle.fmt == "e2pieces"
    # README: I8 piece 139 rot 2 -> N,E,S,W = 8,9,9,12; C3 piece 208 rot 3 -> 22,11,12,13; N14 piece 249 rot 0.
    assert puzzle.sides(138, 2) == (8, 9, 9, 12)
    assert puzzle.sides(207, 3) == (22, 11, 12, 13)
    assert puzzle.sides(248, 0) == (16, 21, 15, 17)
    assert is_official(puzzle)
    # first line "0 0 1 3" is bottom left top right -> up right down left = 1 3 0 0
    assert puzzle.edges[0].tolist() == [1, 3, 0, 0]
    assert int((puzzle.kind == 2).sum()) == 4 and int((puzzle.kind == 1).sum()) == 56


def test_rotation_table_is_clockwise():
    puzzle = parse_puzzle("2 2\n0 0 1 2\n0 0 3 4\n0 0 5 6\n0 0 7 8\n")
    assert puzzle.fmt == "brendan"
    for r in range(4):
        for s in range(4):
            assert puzzle.rotated[0, r, s] == puzzle.edges[0, (s - r) % 4]
    # a quarter turn clockwise moves the left side to the top
    assert puzzle.sides(0, 1) == (2, 0, 0, 1)


def test_formats_round_trip_and_clue_sizes(tmp_path):
    puzzle = load_puzzle(corpus("e2", "e2pieces.txt"))
    again = parse_puzzle(format_e2pieces(puzzle), fmt="e2pieces")
    assert np.array_equal(again.edges, puzzle.edges)
    brendan = parse_puzzle(format_brendan(puzzle))
    assert brendan.fmt == "brendan" and np.array_equal(brendan.edges, puzzle.edges)
    assert (load_puzzle(corpus("e2", "clues", "clue2.txt")).rows,
            load_puzzle(corpus("e2", "clues", "clue2.txt")).cols) == (6, 12)
    b10 = load_puzzle(corpus("e2", "brendan_set1_pieces_10x10.txt"))
    assert (b10.rows, b10.cols, b10.fmt, b10.edges[0].tolist()) == (10, 10, "brendan", [0, 0, 1, 1])


@pytest.mark.parametrize("text, fmt, line, message", [
    ("", None, 1, "empty puzzle file"),
    ("1 2 3\n", None, 1, "cannot tell the format"),
    ("2 2\n0 0 1 2\n0 0 3 4\n0 0 5 6\n", None, 5, "needs 4 pieces, the file has 3"),
    ("2 2\n0 0 1 2\n0 0 3 x\n0 0 5 6\n0 0 7 8\n", None, 3, "expected integers"),
    ("2 2\n0 0 1 2\n0 0 3\n0 0 5 6\n0 0 7 8\n", None, 3, "4 colours"),
    ("2 2\n0 0 1 2\n0 1 0 3\n0 0 5 6\n0 0 7 8\n", None, 3, "grey sides up, down"),
    ("2 2\n0 0 1 2\n0 0 3 999\n0 0 5 6\n0 0 7 8\n", None, 3, "out of range"),
    ("0 0 1 2\n0 0 1 2\n0 0 1 2\n", "e2pieces", None, "cannot infer the board size"),
])
def test_malformed_puzzles_name_the_line(tmp_path, text, fmt, line, message):
    path = tmp_path / "p.txt"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_puzzle(path, fmt)
    assert message in err.value.message
    assert err.value.path == str(path) and err.value.line == line


# --- boards ----------------------------------------------------------------------------------

def test_board_json_and_text_round_trip(tmp_path):
    piece = np.array([[0, -1], [3, 2]], np.int32)
    rot = np.array([[1, 0], [3, 2]], np.int8)
    board = Board(piece, rot)
    obj = board_to_json(board)
    assert obj == {"rows": 2, "cols": 2, "cells": [[1, 1], None, [4, 3], [3, 2]]}
    assert board_from_json(json.loads(json.dumps(obj))).same_placement(board)
    assert board_from_json({"board": obj, "score": 3}).same_placement(board)  # a search result
    text = format_board_text(board, "b", score=1)
    assert text == "BOARD b score=1\n1/1 .\n4/3 3/2\n"
    [back] = parse_board_text(text)
    assert back.same_placement(board) and back.name == "b" and back.meta == {"score": "1"}


@pytest.mark.parametrize("content, message", [
    ('{"rows": 2, "cols": 2, "cells": [null]}', "must list 4 cells"),
    ('{"rows": 1, "cols": 1, "cells": [[0, 1]]}', "piece numbers start at 1"),
    ('{"rows": 1, "cols": 1, "cells": [[1]]}', "expected [piece, rot] or null"),
    ('{"rows": 1, "cols": 1, "cells": ', "invalid JSON"),
    ("1/0 2/0\n3/0\n", "row has 1 cells"),
    ("1/0 2-0\n", "expected piece/rot"),
])
def test_malformed_boards(tmp_path, content, message):
    path = tmp_path / "b.json"
    path.write_text(content)
    with pytest.raises(InputError) as err:
        load_boards(path)
    assert message in err.value.message and err.value.path == str(path)


# --- scorer ----------------------------------------------------------------------------------

def test_record_boards_score_exactly():
    puzzle = load_puzzle(corpus("e2", "e2pieces.txt"))
    boards = load_boards(corpus("e2", "record_boards.txt"))
    assert [b.name for b in boards][:2] == ["Joshua_Blackwood_470", "JBlackwood+Jef_470"]
    expected = [470, 470, 469, 468, 467]
    start, everything = official_hints()[:1], official_hints()
    for board, want in zip(boards, expected, strict=True):
        assert score_board(puzzle, board) == want == int(board.meta["score"]) == recount(puzzle, board)
        check = check_board(puzzle, board, start)
        assert check.valid and check.complete, check.problems
        # README: none of the record boards has the four clue pieces at their clue cells
        assert not check_board(puzzle, board, everything).valid
        assert int(mismatch_cells(puzzle, board).sum()) == 2 * (480 - want)


def test_brendan_solutions_are_perfect():
    for n in (10, 16):
        puzzle = load_puzzle(corpus("e2", f"brendan_set1_pieces_{n}x{n}.txt"))
        board = load_board(corpus("e2", f"brendan_set1_solutions_{n}x{n}.txt"))
        assert score_board(puzzle, board) == puzzle.max_score == recount(puzzle, board)


def test_validity_problems_are_reported():
    puzzle, solution = generate(6, seed=2)
    bad = solution.copy()
    bad.piece[0, 0] = bad.piece[0, 1]  # a piece twice
    bad.rot[1, 1] = 5
    hints = hints_from_board(solution, [(3, 2)])
    bad.piece[3, 2] = -1
    check = check_board(puzzle, bad, hints)
    assert not check.valid and not check.complete
    text = " | ".join(check.problems)
    assert "is placed 2 times" in text and "rotation 5" in text and "not respected (found empty)" in text
    with pytest.raises(InputError, match="only 36 pieces"):
        board = solution.copy()
        board.piece[0, 0] = 40
        check_board(puzzle, board)


def test_scorer_matches_recount_on_random_boards():
    puzzle, _ = generate(7, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(20):
        perm = rng.permutation(puzzle.n_pieces).reshape(7, 7).astype(np.int32)
        perm[rng.random((7, 7)) < 0.2] = -1
        board = Board(perm, rng.integers(0, 4, (7, 7)).astype(np.int8))
        assert score_board(puzzle, board) == recount(puzzle, board)


# --- generator and hints ---------------------------------------------------------------------

def test_generator_follows_e2_statistics_and_is_deterministic():
    assert default_colors(16) == (5, 17)
    puzzle, solution = generate(16, seed=1)
    counts = np.bincount(puzzle.edges.ravel())
    assert counts[0] == 64 and counts[1:6].tolist() == [24] * 5
    assert sorted(counts[6:].tolist()) == [48] * 5 + [50] * 12  # E2: 5 inner colours x 48, 12 x 50
    assert score_board(puzzle, solution) == 480 == recount(puzzle, solution)
    assert len(np.unique(_canonical(puzzle.edges))) == 256  # no two pieces equal up to rotation
    assert (puzzle.kind[:4] == 2).all() and (puzzle.kind[4:60] == 1).all()
    again, sol2 = generate(16, seed=1)
    assert np.array_equal(again.edges, puzzle.edges) and sol2.same_placement(solution)
    other, _ = generate(16, seed=2)
    assert not np.array_equal(other.edges, puzzle.edges)


def test_hints_file_round_trip_and_resolution(tmp_path):
    puzzle, solution = generate(10, seed=4)
    cells = e2_hint_cells(10, 10)
    assert cells == [(5, 4), (2, 2), (2, 7), (7, 2), (7, 7)]
    hints = hints_from_board(solution, cells)
    path = tmp_path / "h.txt"
    write_hints(path, hints)
    assert load_hints(path) == hints
    assert resolve_hints(puzzle, "start", path) == hints[:1]
    assert resolve_hints(puzzle, "all", path) == hints
    assert resolve_hints(puzzle, "none") == []
    with pytest.raises(InputError, match="needs --hints-file"):
        resolve_hints(puzzle, "start")
    path.write_text("1 1 3 0\n1 1 4 0\n")
    with pytest.raises(InputError, match="two hints for cell") as err:
        load_hints(path)
    assert err.value.line == 2


# --- command line ----------------------------------------------------------------------------

def test_cli_generate_score_show(tmp_path, run_cli):
    puz, sol, hints = tmp_path / "p.txt", tmp_path / "s.json", tmp_path / "h.txt"
    code, out, err = run_cli("edgematch", "generate", "--size", "6", "--seed", "7", "--puzzle-out", puz,
                             "--solution-out", sol, "--hints-out", hints)
    assert code == 0, err
    code, out, err = run_cli("edgematch", "score", puz, sol, "--hints", "all", "--hints-file", hints, "--json")
    assert code == 0, err
    rec = json.loads(out)
    assert (rec["score"], rec["max_score"], rec["valid"], rec["complete"]) == (60, 60, True, True)
    png = tmp_path / "b.png"
    code, out, err = run_cli("edgematch", "show", puz, sol, "--png", png)
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    first = png.read_bytes()
    run_cli("edgematch", "show", puz, sol, "--png", png)
    assert png.read_bytes() == first


def test_cli_bad_input_exits_2_with_location(tmp_path, run_cli):
    puz = tmp_path / "p.txt"
    puz.write_text("2 2\n0 0 1 2\n0 0 3\n")
    code, out, err = run_cli("edgematch", "score", puz, puz)
    assert code == 2 and err.startswith(f"{puz}:3: ") and "Traceback" not in err


def test_cli_scores_record_boards(run_cli):
    code, out, err = run_cli("edgematch", "score", corpus("e2", "e2pieces.txt"), corpus("e2", "record_boards.txt"),
                             "--hints", "start", "--json")
    assert code == 0, err
    rows = json.loads(out)["boards"]
    assert [r["score"] for r in rows] == [r["stated_score"] for r in rows] == [470, 470, 469, 468, 467]
    assert all(r["valid"] for r in rows)


@pytest.mark.parametrize("name", ["gen6.txt", "gen6.e2pieces.txt"])
def test_parse_step_instance_is_the_same_puzzle_to_every_command(tmp_path, run_cli, name):
    """The parse step's canonical instance keeps the format and the name of the file it was made from,
    so a beam sweep over it writes the very bytes a sweep over the original writes."""
    from conftest import REPO

    original = REPO / "data" / "edgematch" / name
    canonical, hints = tmp_path / "instance.txt", tmp_path / "hints.txt"
    code, _, err = run_cli("edgematch", "parse", original, "--puzzle-out", canonical, "--hints-out", hints)
    assert code == 0, err
    assert canonical.read_text().startswith(f"# puzzle: {original.stem}\n")
    outs = []
    for source in (original, canonical):
        out = tmp_path / f"sweep-{len(outs)}.json"
        code, _, err = run_cli("edgematch", "sweep", source, "--algo", "beam", "--seeds", "0-1", "--width", "16",
                               "--out", out)
        assert code == 0, err
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and b'"puzzle": "' + original.stem.encode() in outs[0]
