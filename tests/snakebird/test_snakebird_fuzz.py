"""Fuzzing the Snakebird command line: level files and move strings.

Real inputs (the project's levels, small corpus levels when the shared folder is there, a real
solution's moves) mutated as in `tests/fuzz_support.py` and run through `puzzlelab snakebird ...` in
a forked child: a valid result, or exit 2 with one line naming the file; never a traceback, a
signal or a hang.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import CORPORA, REPO
from fuzz_support import EXAMPLES, Scratch, assert_clean, fuzz_settings, mutated, run_forked

DATA = REPO / "data" / "snakebird"
SMALL_CORPUS = ["level01", "level05", "level31"]  # a teleporter-free start, gadgets, two snakes
PORTAL_WIN = "RR,RR,RR,RR,RR,RR,RU,RL,RL"
MAX_DEPTH = "3"
tally: Counter = Counter()


def level_seeds() -> list[bytes]:
    files = sorted(DATA.glob("*.txt"))
    folder = CORPORA / "snakebird" / "levels"
    files += [folder / f"{name}.txt" for name in SMALL_CORPUS if (folder / f"{name}.txt").is_file()]
    return [p.read_bytes() for p in files]


SEEDS = level_seeds()


def text(data: bytes) -> str:
    """Bytes as a command-line argument arrives in Python (undecodable bytes as surrogates)."""
    return data.decode("utf-8", "surrogateescape")


@pytest.fixture(scope="module")
def scratch():
    s = Scratch()
    yield s
    s.close()


@pytest.fixture(scope="module", autouse=True)
def warm_kernels():
    """Compile and load every kernel once in this process, so that the forked cases only run them."""
    from puzzlelab.snakebird.solve import solve

    solve(DATA / "portal.txt", memory_budget="64M", progress=False)
    yield
    print(f"\nsnakebird fuzz outcomes: {dict(tally)}")


@fuzz_settings()
@given(data=mutated(SEEDS))
def test_level_files_show(scratch, data):
    path = scratch.write("level.txt", data)
    outcome = run_forked(["snakebird", "show", str(path), "--json"])
    kind = assert_clean(outcome, path=path, data=data)
    tally["show " + kind] += 1
    if kind == "ok":
        info = json.loads(outcome.stdout)
        assert len(info["map"]) >= 3 and info["state_bits"] >= 1
        assert len(info["snake_letters"]) == len(set(info["snake_letters"])) >= 1


@fuzz_settings(max(EXAMPLES // 4, 10))
@given(data=mutated(SEEDS))
def test_level_files_solve(scratch, data):
    path = scratch.write("level.txt", data)
    outcome = run_forked(["snakebird", "solve", str(path), "--max-depth", MAX_DEPTH, "--memory-budget", "64M",
                          "--json"])
    if outcome.code == 1:  # a valid level with no win within MAX_DEPTH moves
        assert not outcome.stderr.count(b"Traceback"), outcome.stderr[-2000:]
        result = json.loads(outcome.stdout)
        assert not result["solved"] and result["max_depth"] <= int(MAX_DEPTH)
        tally["solve unsolved"] += 1
        return
    kind = assert_clean(outcome, path=path, data=data)
    tally["solve " + kind] += 1
    if kind == "ok":
        result = json.loads(outcome.stdout)
        assert result["solved"] and result["replay_won"] and result["moves"] <= int(MAX_DEPTH)
        assert sum(result["layers"]) == result["states"]


@fuzz_settings(max(EXAMPLES // 4, 10))
@given(data=mutated(SEEDS))
def test_parse_step_marks_a_bad_level(scratch, data):
    """`snakebird parse LEVEL --unreadable CSV` (the pipeline's parse step) exits 0 on any level: a
    readable one is written canonically and reads back the same; a bad one gives a marked instance
    and one located row, and `solve --unreadable-ok` of that instance is a record saying so."""
    import csv

    path = scratch.write("level.txt", data)
    out, bad = scratch.root / "level.parsed.txt", scratch.root / "bad.csv"
    outcome = run_forked(["snakebird", "parse", str(path), "--out", str(out), "--unreadable", str(bad)])
    assert assert_clean(outcome, path=path, data=data) == "ok", outcome.stderr[-500:]
    rows = list(csv.DictReader(bad.open(encoding="utf-8")))
    assert len(rows) <= 1
    tally["parse " + ("unreadable" if rows else "ok")] += 1
    if rows:
        assert rows[0]["path"] == str(path) and rows[0]["reason"] and "\n" not in rows[0]["reason"]
        outcome = run_forked(["snakebird", "solve", str(out), "--unreadable-ok", "--memory-budget", "64M",
                              "--json"])
        assert outcome.code == 0 and "Traceback" not in outcome.stderr.decode("utf-8", "replace")
    else:  # canonical: parsing the written instance again gives the same bytes
        again = scratch.root / "again.txt"
        assert run_forked(["snakebird", "parse", str(out), "--out", str(again)]).code == 0
        assert again.read_bytes() == out.read_bytes()


@fuzz_settings()
@given(data=mutated([PORTAL_WIN.encode(), PORTAL_WIN.replace(",", "").encode()]), glued=st.booleans())
def test_move_strings(data, glued):
    moves = text(data)
    level = str(DATA / "portal.txt")
    option = [f"--moves={moves}"] if glued else ["--moves", moves]
    outcome = run_forked(["snakebird", "replay", level, *option, "--quiet", "--json"])
    if outcome.code == 1:  # well-formed moves that do not win (or hit an impossible move)
        assert outcome.stderr == b"", outcome.stderr[-2000:]
        result = json.loads(outcome.stdout)
        assert not result["won"] and result["played"] <= len(result["moves"])
        tally["replay not won"] += 1
        return
    kind = assert_clean(outcome, data=data)
    tally["replay " + kind] += 1
    if kind == "ok":
        assert json.loads(outcome.stdout)["won"]


@pytest.mark.parametrize("args", [
    ["solve", "data/snakebird/portal.txt", "--max-depth", "-1"],
    ["solve", "data/snakebird/portal.txt", "--max-depth", "9" * 400],
    ["solve", "data/snakebird/portal.txt", "--memory-budget", "0"],
    ["solve", "data/snakebird/portal.txt", "--memory-budget", "1" + "0" * 400],
    ["solve", "data/snakebird/portal.txt", "--workdir", "bad\x00name"],
    ["solve", "no/such/level.txt"],
    ["replay", "data/snakebird/portal.txt", "--moves", "R" * 100_001],
    ["replay", "data/snakebird/portal.txt", "--moves", "ZU"],
    ["replay", "data/snakebird/portal.txt", "--moves", "RX"],
    ["show", "data/snakebird"],
    ["reference", "data/snakebird/portal.txt", "--binary", "no-such-solver", "--timeout", "-3"],
])
def test_hostile_options_are_one_line_errors(args, monkeypatch):
    monkeypatch.chdir(REPO)
    assert assert_clean(run_forked(["snakebird", *args])) == "error"


@pytest.mark.parametrize("moves", ["", ",,,", " "])
def test_empty_move_lists_replay_nothing(moves, monkeypatch):
    monkeypatch.chdir(REPO)
    outcome = run_forked(["snakebird", "replay", "data/snakebird/portal.txt", "--moves", moves, "--json"])
    if outcome.code == 2:  # a blank is not a move
        assert assert_clean(outcome) == "error"
        return
    assert outcome.code == 1 and outcome.stderr == b""
    result = json.loads(outcome.stdout)
    assert result["played"] == 0 and result["moves"] == [] and not result["won"]
