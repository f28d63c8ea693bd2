"""Bad input through the real CLI: puzzles, every board format and hints files, mutated and hostile.

Every case must end with exit 0 and a valid result, or exit 2 with one `PATH[:LINE]: reason` line
naming the mutated file; never a traceback, a signal, a hang or a huge allocation.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from conftest import REPO
from fuzz_support import Scratch, assert_clean, fuzz_settings, mutated, run_forked, seed_files
from puzzlelab.edgematch.puzzle import load_puzzle

DATA = REPO / "data" / "edgematch"
PUZZLE = DATA / "gen6.txt"
HINTS = DATA / "gen6.hints.txt"
PUZZLE_SEEDS = seed_files("data/edgematch/gen6.txt", "data/edgematch/gen6.e2pieces.txt")
BOARD_SEEDS = seed_files("data/edgematch/gen6.solution.json", "data/edgematch/gen6.boards.txt",
                         "data/edgematch/gen6.brendan-solution.txt")
HINT_SEEDS = seed_files("data/edgematch/gen6.hints.txt")


@pytest.fixture(scope="module", autouse=True)
def warm(tmp_path_factory):
    """Compile the scorer in this process, so the forked cases start warm."""
    from puzzlelab.cli import main

    out = tmp_path_factory.mktemp("warm") / "h.txt"
    assert main(["edgematch", "score", str(PUZZLE), str(DATA / "gen6.solution.json"), "--json"]) == 0
    assert main(["edgematch", "parse", str(PUZZLE), "--hints", "all", "--hints-file", str(HINTS),
                 "--hints-out", str(out)]) == 0


def _score(board) -> list[str]:
    return ["edgematch", "score", str(PUZZLE), str(board), "--hints", "all", "--hints-file", str(HINTS), "--json"]


@fuzz_settings()
@given(mutated(PUZZLE_SEEDS))
def test_fuzz_puzzles(data):
    scratch = Scratch()
    try:
        f, canonical = scratch.write("puzzle.txt", data), scratch.root / "canonical.txt"
        outcome = run_forked(["edgematch", "parse", str(f), "--hints", "none", "--hints-out",
                              str(scratch.root / "h.txt"), "--puzzle-out", str(canonical), "--json"])
        if assert_clean(outcome, f, data) == "ok":
            summary = json.loads(outcome.stdout)
            assert summary["rows"] * summary["cols"] == summary["pieces"]
            # the canonical instance is the same puzzle, and canonical: parsed again, the same bytes
            a, b = load_puzzle(f), load_puzzle(canonical)
            assert (a.rows, a.cols, a.name, a.fmt) == (b.rows, b.cols, b.name, b.fmt) and (a.edges == b.edges).all()
            again = scratch.root / "again.txt"
            assert run_forked(["edgematch", "parse", str(canonical), "--hints-out", str(scratch.root / "h2.txt"),
                               "--puzzle-out", str(again)]).code == 0
            assert again.read_bytes() == canonical.read_bytes()
    finally:
        scratch.close()


@fuzz_settings()
@given(mutated(BOARD_SEEDS))
def test_fuzz_boards(data):
    scratch = Scratch()
    try:
        f = scratch.write("board.txt" if not data.lstrip().startswith(b"{") else "board.json", data)
        outcome = run_forked(_score(f))
        if assert_clean(outcome, f, data) == "ok":
            result = json.loads(outcome.stdout)
            for board in result.get("boards", [result]):
                assert 0 <= board["score"] <= board["max_score"] == 60
    finally:
        scratch.close()


@fuzz_settings()
@given(mutated(HINT_SEEDS))
def test_fuzz_hints(data):
    scratch = Scratch()
    try:
        f = scratch.write("hints.txt", data)
        outcome = run_forked(["edgematch", "parse", str(PUZZLE), "--hints", "all", "--hints-file", str(f),
                              "--hints-out", str(scratch.root / "out.txt"), "--json"])
        if assert_clean(outcome, f, data) == "ok":
            assert 1 <= json.loads(outcome.stdout)["hinted"] <= 36
    finally:
        scratch.close()


# The inputs that once crashed a reader (a traceback, or an allocation of gigabytes before a check).
HOSTILE_BOARDS = [
    ("solution.txt", "6 6\n0 0 300\n", 2, "rotation 300"),
    ("solution.txt", "10 4294967296\n0 0 0\n", 1, "each must be 1..1024"),
    ("solution.txt", "20000 20000\n0 0 0\n", 1, "each must be 1..1024"),
    ("solution.txt", "6 6\n" + "0 0 0\n" * 37, 38, "more pieces listed"),
    ("layout.txt", "9223372036854775807/0 1/0\n", 1, "piece 9223372036854775807 is out of range"),
    ("layout.txt", "1/7\n", 1, "rotation 7"),
    ("layout.txt", "1/0 " * 2000 + "\n", 1, "each must be 1..1024"),
    ("board.json", '{"rows": 1, "cols": 1, "cells": [[1e23, 0]]}', None, "expected [piece, rot]"),
    ("board.json", '{"rows": 1, "cols": 1, "cells": [[37, 0]]}', None, "the puzzle has 36 pieces"),
    ("board.json", '{"rows": 4294967296, "cols": 4294967296, "cells": []}', None, "each must be 1..1024"),
    ("board.json", '{"rows": 1, "cols": 1, "cells": [[1, 1' + "0" * 5000 + "]]}", None, "invalid JSON"),
    ("board.json", '{"rows": 1, "cols": 1, "cells": ' + "[" * 100000 + "]" * 100000 + "}", None, "invalid JSON"),
]


@pytest.mark.parametrize("name, text, line, message", HOSTILE_BOARDS)
def test_hostile_boards_are_located_errors(tmp_path, name, text, line, message):
    f = tmp_path / name
    f.write_text(text)
    outcome = run_forked(_score(f))
    assert assert_clean(outcome, f) == "error"
    err = outcome.stderr.decode()
    assert message in err, err
    where = f"{f}:{line}: " if line is not None else f"{f}: "
    assert err.startswith(where), err


@pytest.mark.parametrize("text, line, message", [
    (b"# \xff comment\n3 2 29 0\n", 1, "not UTF-8"),
    (b"3 2 29 0\n3 2 29 300\n", 2, "rotation must be 0..3"),
    (b"3 2 29 0\n" + b"9" * 100000 + b" 2 29 0\n", 2, "four integers"),
    (b"3 2 29 0\n40 2 1 0\n", 2, "outside the 6x6 board"),
    (b"3 2 29 0\n1 1 99 0\n", 2, "does not exist"),
    (b"# nothing\n", None, "holds no hint"),
])
def test_hostile_hints_are_located_errors(tmp_path, text, line, message):
    f = tmp_path / "hints.txt"
    f.write_bytes(text)
    outcome = run_forked(["edgematch", "parse", str(PUZZLE), "--hints", "all", "--hints-file", str(f),
                          "--hints-out", str(tmp_path / "out.txt")])
    assert assert_clean(outcome, f) == "error"
    err = outcome.stderr.decode()
    assert message in err, err
    assert err.startswith(f"{f}:{line}: " if line is not None else f"{f}: "), err
    assert len(err) < 400


def test_hostile_puzzle_sizes(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("0 0 1 2\n" * 5000)
    outcome = run_forked(["edgematch", "parse", str(f), "--hints-out", str(tmp_path / "h.txt")])
    assert assert_clean(outcome, f) == "error" and b"more than 4096 pieces" in outcome.stderr
    f.write_text("20000 20000\n0 0 1 2\n")
    outcome = run_forked(["edgematch", "parse", str(f), "--hints-out", str(tmp_path / "h.txt")])
    assert assert_clean(outcome, f) == "error" and b"out of range" in outcome.stderr


def test_hostile_options():
    board = DATA / "gen6.solution.json"
    for argv, message in (
        (["edgematch", "beam", str(PUZZLE), "--width", "1000000000000"], "--width"),
        (["edgematch", "sweep", str(PUZZLE), "--seeds", "0-100000000000"], "at most 100000 seeds"),
        (["edgematch", "mitm", str(PUZZLE), "--board", str(board), "--band", "9" * 5000 + ":"], "row band"),
        (["edgematch", "mitm", str(PUZZLE), "--board", str(board), "--band", "0:6", "--split", "5",
          "--memory-budget", "260M"],
         "bound tables"),
    ):
        outcome = run_forked(argv)  # usage errors come with argparse's usage lines
        assert not outcome.timed_out and outcome.signal is None and b"Traceback" not in outcome.stderr
        assert outcome.code == 2 and message.encode() in outcome.stderr, (argv, outcome.stderr)
