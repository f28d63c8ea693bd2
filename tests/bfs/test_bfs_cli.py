"""`puzzlelab bfs` commands: documented JSON fields, byte-identical artifacts, bad input, the domain
interface and registry, the pipeline helpers."""

from __future__ import annotations

import json

import pytest
from bfs_support import A092113_ROWS

from puzzlelab.bfs.domain import Rooted
from puzzlelab.bfs.pipeline import entries, missing_entries, slug
from puzzlelab.domains import make_domain, register_domain
from puzzlelab.lab.errors import InputError


def test_layers_json_has_the_documented_fields(run_cli):
    code, out, err = run_cli("bfs", "layers", "pancake:6", "--json")
    assert code == 0, err
    data = json.loads(out)
    for key in ("domain", "layers", "states", "max_depth", "visited_bytes", "bits_per_state", "parent_bytes",
                "peak_rss_bytes", "time_s"):
        assert key in data
    assert data["layers"] == A092113_ROWS[6] and data["states"] == 720 and data["max_depth"] == 7
    assert (data["dedup"], data["tags"], data["codec"]) == ("frontier", "move", "gap-zstd")
    # flips of 2..6 pancakes: 4 bits a state, and a byte saying so in every block (one a layer here)
    assert data["parent_bytes"] == sum(1 + (n + 1) // 2 for n in A092113_ROWS[6][1:])
    assert "depth 7" in err  # one progress line per depth
    code, out, err = run_cli("bfs", "layers", "pancake:6", "--dedup", "sortmerge", "--tags", "parent-hash",
                             "--codec", "rowfilter-zstd", "--json")
    data = json.loads(out)
    assert data["layers"] == A092113_ROWS[6] and (data["dedup"], data["tags"]) == ("sortmerge", "parent-hash")
    assert data["parent_bytes"] == 719  # one byte a state but the start


def test_hash_dedup_cli(run_cli):
    code, out, err = run_cli("bfs", "layers", "pancake:5", "--dedup", "hash", "--json")
    assert code == 0 and json.loads(out)["layers"] == A092113_ROWS[5]


def test_artifacts_are_byte_identical(run_cli, tmp_path):
    outs = []
    for i, budget in enumerate(["1G", "1G"]):
        out = tmp_path / f"a{i}.json"
        code, _, err = run_cli("bfs", "layers", "sliding:2x5", "--memory-budget", budget, "--out", out,
                               "--timing", tmp_path / f"a{i}.timing.json")
        assert code == 0, err
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert "time_s" not in json.loads(outs[0]) and "time_s" in json.loads((tmp_path / "a0.timing.json").read_text())


@pytest.mark.parametrize("args, message", [
    (["layers", "sliding:3"], "expected sliding:RxC"),
    (["layers", "rubik:3"], "unknown domain"),
    (["layers", "pancake:x"], "must be an integer"),
    (["layers", "pancake:40"], "between 2 and 16"),
    (["layers", "cube2:stm"], "cube2:htm or cube2:qtm"),
    (["layers", "pancake:5", "--memory-budget", "lots"], "cannot read size"),
    (["solve", "sliding:3x3", "--from", "1,2,3"], "expected 9 tiles"),
    (["solve", "sliding:3x3", "--from", "1,2,3,4,5,6,7,8,8"], "each exactly once"),
    (["solve", "sliding:3x3", "--from", "1,0,2,3,4,5,6,8,7"], "not reachable"),
    (["solve", "cube2:htm", "--from", "URF1 UFL0 ULB0 UBR0 DFR0 DLF0 DRB0"], "twists must sum"),
    (["solve", "cube2:htm", "--from", "L D"], "expected a scramble"),
    (["solve", "hanoi4:3", "--from", "ABE"], "peg letters"),
    (["solve", "pancake:4", "--from", "1,2,2,4"], "exactly once"),
])
def test_bad_input_exits_2_with_a_message(run_cli, args, message):
    code, out, err = run_cli("bfs", *args)
    assert code == 2, (out, err)
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("spec, width", [("sliding:3x3", 3), ("sliding:3x3:packed", 5)])
def test_domain_interface(spec, width):
    """Ranked boards take ceil(log2(9!) / 8) = 3 bytes, packed ones two cells a byte."""
    dom = make_domain(spec)
    assert (dom.width, dom.max_children, dom.start.shape) == (width, 4, (1, width))
    assert dom.reversible and dom.bipartite and dom.name == spec
    children, parent, move = dom.expand(dom.start)
    assert children.shape == (2, width) and parent.tolist() == [0, 0]
    assert sorted(dom.format_move(m) for m in move) == ["D", "R"]
    assert dom.format_state(dom.parse_state("0 1 2 3 4 5 6 7 8")) == "0,1,2,3,4,5,6,7,8"
    assert dom.format_state(dom.start[0]) == "0,1,2,3,4,5,6,7,8"
    rooted = Rooted(dom, dom.parse_state("1,0,2,3,4,5,6,7,8"))
    assert rooted.name == dom.name and rooted.start.shape == (1, width) and rooted.reversible
    with pytest.raises(InputError, match="module is not available|snakebird"):
        register_domain("nosuch", "puzzlelab.bfs.nosuch:make")
        make_domain("nosuch:1")


def test_pipeline_entries_and_slugs():
    got = entries({"domains": ["sliding:3x3", {"domain": "sliding:4x4", "max_depth": 15},
                               "snakebird:data/snakebird/level01.txt"]})
    assert list(got) == ["sliding-3x3", "sliding-4x4-d15", "snakebird-data-snakebird-level01.txt"]
    assert got["sliding-4x4-d15"] == {"domain": "sliding:4x4", "max_depth": 15}
    assert slug("sliding:3x3:center") == "sliding-3x3-center"


def test_pipeline_entries_name_corpus_files_portably(tmp_path):
    """`{corpora}` in a domain is resolved against corpora_dir; absent files are dropped and listed."""
    (tmp_path / "snakebird" / "levels").mkdir(parents=True)
    (tmp_path / "snakebird" / "levels" / "level09.txt").write_text("; stub\n")
    section = {"domains": [{"domain": "snakebird:{corpora}/snakebird/levels/level09.txt", "max_depth": 3},
                           "snakebird:{corpora}/snakebird/levels/nosuch.txt", "sliding:3x3"]}
    got = entries(section, corpora=tmp_path)
    assert list(got) == ["snakebird-snakebird-levels-level09.txt-d3", "sliding-3x3"]
    assert got["snakebird-snakebird-levels-level09.txt-d3"]["domain"] == (
        f"snakebird:{tmp_path}/snakebird/levels/level09.txt")
    assert missing_entries(section, tmp_path) == ["snakebird:{corpora}/snakebird/levels/nosuch.txt"]
    assert list(entries(section, corpora=None)) == ["sliding-3x3"]
