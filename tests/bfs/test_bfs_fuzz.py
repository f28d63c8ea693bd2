"""Fuzzing the BFS command line: domain strings, start states (`solve --from`), the reference file.

Real inputs (every bundled domain string, states of every domain, the shared reference file)
mutated as in `tests/fuzz_support.py` and run through `puzzlelab bfs ...` in a forked child: exit 0
with a valid result, or exit 2 with one located line; never a traceback, a signal or a hang.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import CORPORA
from fuzz_support import Scratch, assert_clean, fuzz_settings, mutated, run_forked
from puzzlelab.bfs.published import A089484

DOMAINS = ["sliding:3x3", "sliding:3x3:center", "sliding:4x4", "sliding:2x5:edge", "sliding:5x5", "cube2:htm",
           "cube2:qtm", "pancake:10", "pancake:16", "hanoi4:12", "hanoi4:32"]
# (domain, a state of it): reachable states, scrambles, corner lists, peg strings
STATES = [("sliding:3x3", "8,6,7,2,5,4,3,0,1"), ("sliding:3x3", "1,0,2,3,4,5,6,7,8"),
          ("sliding:4x4", "1,2,3,0,4,5,6,7,8,9,10,11,12,13,14,15"), ("sliding:2x5:edge", "1 2 _ 3 4 5 6 7 8 9"),
          ("cube2:htm", "R U F2"), ("cube2:qtm", "URF0 UFL0 ULB0 UBR0 DFR0 DLF0 DRB0"), ("cube2:qtm", "R' U2 F"),
          ("pancake:6", "3,1,2,6,5,4"), ("pancake:10", "2 1 3 4 5 6 7 8 9 10"), ("hanoi4:5", "AABDC"),
          ("hanoi4:3", "DDD")]
MAX_DEPTH = "4"
tally: Counter = Counter()


def text(data: bytes) -> str:
    """Bytes as a command-line argument arrives in Python (undecodable bytes as surrogates)."""
    return data.decode("utf-8", "surrogateescape")


@pytest.fixture(scope="module", autouse=True)
def warm_kernels():
    """Load every kernel once in this process, so that the forked cases only run them."""
    from puzzlelab.bfs.engine import search
    from puzzlelab.domains import make_domain

    for spec in DOMAINS:
        with search(make_domain(spec), max_depth=2, memory_budget="64M", progress=False):
            pass
    for spec, state in STATES:
        dom = make_domain(spec)
        dom.parse_state(state)
    import puzzlelab.bfs.report  # noqa: F401  (pandas and the table writers, for the reference-file cases)

    yield
    print(f"\nbfs fuzz outcomes: {dict(tally)}")


def check_layers(outcome) -> None:
    kind = assert_clean(outcome)
    tally["layers " + kind] += 1
    if kind == "ok":
        data = json.loads(outcome.stdout)
        assert sum(data["layers"]) == data["states"] and data["layers"][0] >= 1
        assert data["max_depth"] <= int(MAX_DEPTH) and len(data["layers"]) == data["max_depth"] + 1
        if data["domain"] == "sliding:4x4":
            assert data["layers"] == list(A089484[: len(data["layers"])])


@fuzz_settings()
@given(data=mutated([d.encode() for d in DOMAINS]))
def test_domain_strings(data):
    check_layers(run_forked(["bfs", "layers", text(data), "--max-depth", MAX_DEPTH, "--memory-budget", "64M",
                             "--json"]))


@fuzz_settings()
@given(pick=st.integers(0, len(STATES) - 1), data=st.data(), glued=st.booleans())
def test_start_states(pick, data, glued):
    spec, state = STATES[pick]
    mutant = text(data.draw(mutated([state.encode()])))
    option = [f"--from={mutant}"] if glued else ["--from", mutant]
    outcome = run_forked(["bfs", "solve", spec, *option, "--max-depth", MAX_DEPTH, "--memory-budget", "64M",
                          "--json"])
    kind = assert_clean(outcome)
    tally["solve " + kind] += 1
    if kind == "ok":
        result = json.loads(outcome.stdout)
        if result["found"]:
            assert result["path"]["verified"] and result["length"] == len(result["path"]["moves"])
            assert result["length"] <= int(MAX_DEPTH)
        else:
            assert result["searched_depth"] == int(MAX_DEPTH) and not result["complete"]


@pytest.mark.parametrize("state", ["-1,2,3,4,5,6,7,8,0", "-3", "-,1", "--", "", " ", "0" * 100_000,
                                   "9" * 5000 + ",1,2,3,4,5,6,7,8"])
def test_hostile_states_are_one_line_errors(state):
    outcome = run_forked(["bfs", "solve", "sliding:3x3", "--from", state, "--max-depth", MAX_DEPTH])
    assert assert_clean(outcome) == "error"


@pytest.mark.parametrize("args", [
    ["layers", "pancake:5", "--memory-budget", "1" + "0" * 400],
    ["layers", "pancake:5", "--memory-budget", "0"],
    ["layers", "pancake:5", "--workdir", "bad\x00name"],
    ["layers", "pancake:5", "--chunk-states", str(10**18)],
    ["layers", "sliding:3x" + "9" * 100_000],
    ["layers", "hanoi4:" + "1" * 5000],
    ["solve", "cube2:htm", "--from", "R " * 200_000],
    ["codecs", "pancake:5", "--codecs", ",,"],
    ["layers", "pancake:5", "--max-depth", "-1"],
    ["layers", "pancake:5", "--max-depth", "al" + "l" * 100_000],
    ["layers", "pancake:5", "--dedup", "hash2"],
    ["solve", "pancake:5", "--dedup", "hash"],
    ["solve", "sliding:3x3", "--from"],
])
def test_hostile_options_are_one_line_errors(args):
    assert assert_clean(run_forked(["bfs", *args])) == "error"


@pytest.fixture(scope="module")
def report_run(tmp_path_factory):
    """A finished run for the report's reference-file reader."""
    folder = tmp_path_factory.mktemp("bfs-report")
    out = folder / "run.json"
    outcome = run_forked(["bfs", "layers", "pancake:6", "--out", str(out), "--timing", str(folder / "run.timing.json")],
                         timeout=600)
    assert outcome.code == 0, outcome.stderr
    return out


def reference_seeds() -> list[bytes]:
    path = CORPORA / "bfs" / "reference_layer_counts.txt"
    if not path.exists():
        pytest.skip(f"shared corpus not available: {path}")
    return [path.read_bytes()]


@fuzz_settings()
@given(data=st.data())
def test_reference_file(report_run, data):
    scratch = Scratch()
    try:
        ref = scratch.write("reference.txt", data.draw(mutated(reference_seeds())))
        outcome = run_forked(["bfs", "report", "layers", str(report_run), "--reference", str(ref),
                              "--csv", str(scratch.root / "t.csv"), "--html", str(scratch.root / "t.html")])
        kind = assert_clean(outcome, path=ref)
        tally["reference " + kind] += 1
        if kind == "ok":
            assert (scratch.root / "t.csv").read_text().count("\n") == 2  # header and the one run
    finally:
        scratch.close()


def test_reference_file_errors_name_their_line(report_run, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_bytes(b"# comment\npancake_n6 | OEIS | 1,5,x\n")
    outcome = run_forked(["bfs", "report", "layers", str(report_run), "--reference", str(ref),
                          "--csv", str(tmp_path / "t.csv"), "--html", str(tmp_path / "t.html")])
    assert assert_clean(outcome, path=ref) == "error"
    assert outcome.stderr.decode().startswith(f"{ref}:2: ")
    ref.write_bytes(b"pancake_n6 | OEIS | 1,5\n\xff\n")
    outcome = run_forked(["bfs", "report", "layers", str(report_run), "--reference", str(ref),
                          "--csv", str(tmp_path / "t.csv"), "--html", str(tmp_path / "t.html")])
    assert outcome.stderr.decode().startswith(f"{ref}:2: ")


def test_states_round_trip_through_their_text_form():
    """Every state the fuzz seeds start from is read back exactly from its printed form."""
    from puzzlelab.domains import make_domain

    for spec, state in STATES:
        dom = make_domain(spec)
        row = dom.parse_state(state)
        assert np.array_equal(dom.parse_state(dom.format_state(row)), row), spec
