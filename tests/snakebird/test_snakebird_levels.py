"""Snakebird level files: parsing, derived sizes against the published ones, located errors."""

from __future__ import annotations

import pytest
from snakebird_support import (
    DATA,
    level_of,
)

from conftest import corpus
from puzzlelab.lab.errors import InputError
from puzzlelab.snakebird.level import parse_level


def test_parse_project_level():
    lv = parse_level((DATA / "crate.txt").read_text(), path="crate.txt")
    assert (lv.height, lv.width) == (8, 12)
    assert lv.snake_letters == ["R"]
    assert [lv.rc(c) for c in lv.snakes[0]] == [(5, 3), (5, 2), (5, 1)]
    assert [lv.rc(c) for c in lv.fruit] == [(5, 9)]
    assert lv.gadgets == [[5 * 12 + 5]]
    assert lv.rc(lv.exit) == (2, 7)
    assert lv.snake_max_len == 4  # longest snake 3 + 1 fruit
    # docs/snakebird.md §8: 2*(4-1) shape bits + 7 head bits + 3 length bits, 1 fruit bit, 7 gadget bits = 24 bits
    assert (lv.state_bits, lv.state_bytes) == (24, 3)


def test_snake_rebuilt_through_turns_and_metadata():
    lv = level_of("""
        ; name: hook
        ; snake_max_len: 9
        ; moves: 7
        .......
        .   * .
        . v<  .
        . R^  .
        . 0^  .
        .......
    """)
    assert lv.name == "hook" and lv.snake_max_len == 9 and lv.expected_moves == 7
    assert [lv.rc(c) for c in lv.snakes[0]] == [(3, 2), (2, 2), (2, 3), (3, 3), (4, 3)]
    assert lv.map_line == 4


def test_corpus_levels_parse_with_published_state_sizes():
    folder = corpus("snakebird", "levels")
    files = sorted(folder.glob("*.txt"))
    assert len(files) == 53
    sizes = {}
    for f in files:
        lv = parse_level(f.read_text(), path=str(f))
        sizes[lv.name] = lv.state_bytes
        # every body cell reached exactly once, gadgets at most 8 cells
        cells = [c for s in lv.snakes for c in s]
        assert len(cells) == len(set(cells))
    # §8: 3 bytes for these levels, 12 for star2, 8-9 for the hard star levels
    assert {n for n, b in sizes.items() if b == 3} == {
        "level00", "level01", "level02", "level03", "level04", "level05", "level06", "level10", "level22",
        "level30", "level31", "level33", "level35"}
    assert sizes["levelstar2"] == 12 and max(sizes.values()) == 12
    assert sizes["levelstar1"] == 8 and sizes["levelstar3"] == 8 and sizes["levelstar6"] == 9


def test_disconnected_gadget_is_one_object():
    lv = parse_level(corpus("snakebird", "levels", "levelstar4.txt").read_text(), path="levelstar4.txt")
    assert [len(g) for g in lv.gadgets] == [2, 2, 2]
    assert lv.gadget_shape(0) == (0, 4)  # two blocks four columns apart, moving together


@pytest.mark.parametrize("text, line, message", [
    ("....\n.R<.\n....\n", 1, "no exit"),
    ("......\n.*R<*.\n......\n", 2, "2 exits"),
    ("......\n.*R< .\n.....\n", 3, "ragged map: row 2 is 5 characters wide"),
    ("......\n.*R<  \n......\n", 2, "border is open"),
    ("......\n.*R< .\n.  > .\n......\n", 3, "cannot be reached from any head"),
    ("......\n.*R<1.\n......\n", 2, "digit 1 is used but 0 is not"),
    ("......\n.*R<x.\n......\n", 2, "unknown map symbol 'x'"),
    ("......\n.*   .\n......\n", 1, "no snake"),
    ("......\n.*R<T.\n......\n", 2, "1 teleporter cells"),
    ("......\n.*R<T.\n.TT  .\n......\n", 3, "3 teleporter cells"),
    ("; snake_max_len: 2\n......\n.*R<O.\n......\n", 1, "snake_max_len 2 is too small"),
    ("; moves: many\n......\n.*R< .\n......\n", 1, "'moves' must be an integer"),
    ("; oops\n......\n.*R< .\n......\n", 1, "metadata line must be"),
    ("; name: x\n", 2, "no map rows"),
    (".........\n.*R<    .\n.0000 00.\n.000    .\n.........\n", 4, "gadget 0 has 9 cells"),
    ("........\n.*R<R< .\n........\n", 2, "snake head R appears twice"),
    ("......\n.*R< .\n.  G .\n......\n", 3, "snake G at row 2, column 3 is a head alone"),
    ("; snake_max_len: 20\n........\n.*R<G< .\n.B<    .\n........\n", 2, "needs 147 bits"),
])
def test_bad_levels_are_rejected_with_path_and_line(text, line, message):
    with pytest.raises(InputError) as err:
        parse_level(text, path="bad.txt")
    assert str(err.value).startswith(f"bad.txt:{line}: ")
    assert message in str(err.value)


def test_cli_bad_level_exit_2(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("; name: bad\n......\n.*R< .\n.....\n")
    code, out, err = run_cli("snakebird", "show", bad)
    assert code == 2 and out == ""
    assert err.strip() == (f"{bad}:4: ragged map: row 2 is 5 characters wide, row 0 is 6 "
                           "(trailing spaces are part of the map)")
    code, _, err = run_cli("snakebird", "solve", tmp_path / "missing.txt")
    assert code == 2 and "missing.txt: no such level file" in err
    assert "Traceback" not in err


def test_reference_run_is_timed_in_cpu_and_its_memory_read(tmp_path):
    # A stand-in for a reference executable: spends 0.3 s of CPU holding 40 MB, prints its counts
    # in the reference's format. Its CPU comes from the child's rusage, its peak from its own
    # high-water mark (not ours); a solver that never ends is stopped at the timeout.
    import sys

    import pytest

    from puzzlelab.lab.errors import InputError
    from puzzlelab.snakebird.reference import run_reference

    exe = tmp_path / "snakebird.99"
    exe.write_text(f"#!{sys.executable}\n"
                   "import time\nheld = bytearray(40 << 20)\nheld[::4096] = b'x' * len(held[::4096])\n"
                   "t = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
                   "print('depth: 1')\nprint('    new unique: 4')\nprint('depth: 2')\nprint('    new unique: 2')\n"
                   "print('Move 2')\nprint('Move 1')\n")
    exe.chmod(0o755)
    rec = run_reference(str(exe), "level99")
    assert rec["moves"] == 2 and rec["layers_before_last"] == [1, 4]
    assert 0.3 <= rec["cpu_s"] < rec["time_s"] + 0.1
    assert 40 << 20 <= rec["peak_rss_bytes"] < 200 << 20
    spin = tmp_path / "snakebird.98"
    spin.write_text("#!/bin/sh\nwhile :; do :; done\n")
    spin.chmod(0o755)
    with pytest.raises(InputError, match="did not finish within 0.5 s"):
        run_reference(str(spin), "level98", timeout_s=0.5)


def test_reference_past_its_cpu_limit_is_stopped_and_recorded(run_cli, tmp_path):
    """A reference run that passes --cpu-limit is stopped; its record keeps the depths it finished."""
    import json
    import sys

    exe = tmp_path / "snakebird.crate"  # the executable of the level named crate
    exe.write_text(f"#!{sys.executable} -u\n"
                   "print('depth: 1')\nprint('    new unique: 4')\nprint('depth: 2')\nprint('    new unique: 9')\n"
                   "while True:\n    pass\n")
    exe.chmod(0o755)
    code, out, err = run_cli("snakebird", "reference", DATA / "crate.txt", "--binary", tmp_path / "snakebird",
                             "--cpu-limit", "0.8", "--out", tmp_path / "r.json", "--timing", tmp_path / "r.timing.json")
    assert code == 0 and "stopped (CPU limit of 0.8 s reached) after depth 2" in out, err
    rec = json.loads((tmp_path / "r.json").read_text())
    assert rec["moves"] is None and rec["layers_finished"] == [1, 4, 9] and rec["stopped"].startswith("CPU limit")
    assert json.loads((tmp_path / "r.timing.json").read_text())["cpu_s"] >= 0.8
