"""Fuzzing every nonogram reader through the real CLI (`nonogram solve --timeout 2`).

Each family mutates the project's own puzzle files of one format (truncations, byte flips, hostile
numbers, deleted/duplicated/empty lines, invalid UTF-8, NUL bytes, 1 MB lines, splices) and asserts
exit 0 with a valid answer or exit 2 with one located line; never a traceback, a signal or a hang.
"""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO
from fuzz_support import Scratch, assert_clean, fuzz_settings, mutated, run_forked
from puzzlelab.nonogram.formats import load
from puzzlelab.nonogram.model import satisfies

DATA = REPO / "data" / "nonogram"
STATUSES = {"unique", "multiple", "solved", "contradiction", "timeout"}

# family -> (seed files in data/nonogram, name of the mutated file, forced format or None, collection)
FAMILIES = {
    "non": (["heart.non"], "x.non", None, False),
    "xml": (["mushroom.xml"], "x.xml", None, False),
    "pzl": (["arrow.pzl"], "x.pzl", None, False),
    "nin": (["checker.nin"], "x.nin", None, False),
    "g": (["tree.g"], "x.g", None, False),
    "mk": (["flower.mk"], "x.mk", None, False),
    "keen": (["cup.txt", "contradiction.txt"], "x.txt", None, False),  # format by content
    "pynogram": (["smiley.txt"], "x.txt", "pynogram", False),
    "toml": (["boat.toml"], "x.toml", None, False),
    "puzzlekit": (["letters.json"], "x.json", None, True),
    "tournament": (["tournament.txt"], "x.txt", "tournament", True),
    "spoj": (["jcross.txt"], "x.txt", "spoj", True),
}


@pytest.fixture(scope="module")
def scratch():
    import functools

    import puzzlelab.cli
    from puzzlelab.nonogram.model import color_from_name
    from puzzlelab.nonogram.solver import warm_up

    # Every forked case starts with the kernels compiled, the modules a command imports lazily loaded
    # and the argument parser built (most of a case's cost otherwise).
    warm_up()
    color_from_name("red")
    s = Scratch()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(puzzlelab.cli, "build_parser", functools.cache(puzzlelab.cli.build_parser))
        with contextlib.redirect_stdout(io.StringIO()):
            puzzlelab.cli.main(["nonogram", "solve", str(DATA / "heart.non"), "--json"])
        yield s
    s.close()


def check_case(scratch: Scratch, family: str, data: bytes) -> None:
    _, name, fmt, collection = FAMILIES[family]
    path = scratch.write(name, data)
    spec = f"{path}#1" if collection else str(path)
    argv = ["nonogram", "solve", spec, "--timeout", "2", "--json"] + (["--format", fmt] if fmt else [])
    outcome = run_forked(argv)
    if assert_clean(outcome, path, data) == "ok":
        doc = json.loads(outcome.stdout)
        assert doc["status"] in STATUSES
        puzzle = load(spec, fmt)[0]
        assert all(satisfies(puzzle, np.array(s)) for s in doc["solutions"]), data[:300]
        if doc["status"] == "contradiction":
            assert doc["solutions"] == []


def _family_test(family: str):
    seeds = [(DATA / f).read_bytes() for f in FAMILIES[family][0]]

    @fuzz_settings()
    @given(data=mutated(seeds))
    def run(scratch, data):
        check_case(scratch, family, data)

    return run


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_reader_survives_mutations(scratch, family):
    _family_test(family)(scratch)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_seed_files_solve(scratch, family):
    """The unmutated seeds themselves: exit 0 and a valid answer (the fuzz families start from these)."""
    for f in FAMILIES[family][0]:
        check_case(scratch, family, (DATA / f).read_bytes())


def _instance_seed() -> bytes:
    """A canonical instance file (the parse step's output) of two project puzzles, one in colour."""
    from puzzlelab.nonogram.formats import instance

    return instance.write(load(str(DATA / "heart.non")) + load(str(DATA / "mushroom.xml"))).encode()


@fuzz_settings()
@given(data=mutated([_instance_seed()]))
def test_instance_reader_survives_mutations(scratch, data):
    """The parse step's own format, read back by every solve job: a mutated .nonjson is solved or named."""
    path = scratch.write("x.nonjson", data)
    outcome = run_forked(["nonogram", "solve", f"{path}#1", "--timeout", "2", "--json"])
    if assert_clean(outcome, path, data) == "ok":
        doc = json.loads(outcome.stdout)
        assert doc["status"] in STATUSES
        puzzle = load(f"{path}#1")[0]
        assert all(satisfies(puzzle, np.array(s)) for s in doc["solutions"]), data[:300]


PARSE_SEEDS = [(family, (DATA / f).read_bytes()) for family, (files, *_rest) in sorted(FAMILIES.items())
               for f in files]


@fuzz_settings()
@given(case=st.sampled_from(PARSE_SEEDS).flatmap(
    lambda seed: mutated([seed[1]]).map(lambda data: (seed[0], data))))
def test_parse_step_turns_a_bad_file_into_a_row(scratch, case):
    """`nonogram parse FILE --unreadable CSV` (the pipeline's parse step) never fails on a bad file: it
    exits 0 with either the file's puzzles in --out (read back whole) or one located row in the CSV."""
    import csv

    family, data = case
    _, name, fmt, _ = FAMILIES[family]
    path = scratch.write(name, data)
    out, bad = scratch.root / "out.nonjson", scratch.root / "bad.csv"
    argv = ["nonogram", "parse", str(path), "--out", str(out), "--unreadable", str(bad)]
    outcome = run_forked(argv + (["--format", fmt] if fmt else []))
    assert assert_clean(outcome, path, data) == "ok", outcome.stderr[-500:]
    rows = list(csv.DictReader(bad.open(encoding="utf-8")))
    puzzles = load(str(out))
    assert len(rows) <= 1 and not (rows and puzzles), (rows, len(puzzles))  # the file, or its row
    for row in rows:
        assert row["path"] == str(path) and row["reason"] and "\n" not in row["reason"]
        assert row["line"] == "" or int(row["line"]) >= 1
