"""Bad input, one minimal case per class: located one-line errors, contradictions decided before any kernel,
escaped output, and the tournament sets' empty clue lines."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import REPO
from puzzlelab.lab.errors import InputError
from puzzlelab.nonogram.formats import load, load_one, non
from puzzlelab.nonogram.model import Puzzle, satisfies
from puzzlelab.nonogram.solver import Options, solve

DATA = REPO / "data" / "nonogram"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(p)


def one_line_error(run_cli, *args):
    code, out, err = run_cli(*args)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 1024, err
    return err.strip()


# A number no puzzle can have, in every format that writes numbers: an error at its line, before any array.
HUGE = "1000000000000000000"
HUGE_CASES = [
    ("keen.txt", f"{HUGE}\n\n1\n1\n", 1),
    ("k.nin", f"2 2\n{HUGE}\n1\n1\n1\n", 2),
    ("k.mk", f"2 2\n1\n{HUGE}\n#\n1\n1\n", 3),
    ("k.non", f"width 2\nheight 1\nrows\n{HUGE}\ncolumns\n1\n0\n", 4),
    ("k.g", f"#d\n  r:r  red\n: rows\n{HUGE}r\n: columns\n1r\n:\n", 4),
    ("k.pzl", f"1 1\n1 {HUGE}\n1 1\n", 2),
    ("k.xml", f'<puzzleset><puzzle><clues type="rows"><line><count>{HUGE}</count></line></clues>\n'
              '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>', 1),
    ("t.txt", f"$1\n{HUGE}\n1\n", 2),
    ("s.txt", f"1\n1 1\n{HUGE} 0\n1 0\n", 3),
    ("k.json", '{"data": {"1_1x1": {"problem": "1 1\\n' + HUGE + '\\n1"}}}', 1),
    ("p.txt", f"[clues]\ncolumns = 1\nrows = {HUGE}\n", 3),
]


@pytest.mark.parametrize("name,text,line", HUGE_CASES, ids=[c[0] for c in HUGE_CASES])
def test_huge_numbers_are_located_errors(tmp_path, run_cli, name, text, line):
    path = write(tmp_path, name, text)
    fmt = {"t.txt": "tournament", "s.txt": "spoj", "p.txt": "pynogram"}.get(name)
    err = one_line_error(run_cli, "nonogram", "solve", path, *(["--format", fmt] if fmt else []))
    assert err.startswith(f"{path}:{line}: "), err
    assert "more than 10000" in err


@pytest.mark.parametrize("number", ["9223372036854775808", "18446744073709551616", "9" * 5000])
def test_numbers_past_int64_are_located_errors(tmp_path, run_cli, number):
    path = write(tmp_path, "big.nin", f"2 2\n1\n{number}\n1\n1\n")
    err = one_line_error(run_cli, "nonogram", "solve", path)
    assert err.startswith(f"{path}:3: ") and len(err) < 300


@pytest.mark.parametrize("text", ["10001 1\n" + "1\n" * 10002, "1 20000\n1\n", "4294967296 2\n1\n1\n1\n"])
def test_sizes_past_the_maximum_are_errors_before_allocation(tmp_path, run_cli, text):
    path = write(tmp_path, "wide.nin", text)
    err = one_line_error(run_cli, "nonogram", "solve", path)
    assert err.startswith(f"{path}:1: ") and "10000" in err


def test_too_many_lines_for_any_side(tmp_path, run_cli):
    path = write(tmp_path, "long.txt", "1\n" * 10001 + "\n1\n")
    err = one_line_error(run_cli, "nonogram", "solve", path)
    assert err.startswith(f"{path}:10001: ") and "10000" in err


def test_clue_longer_than_its_line_is_a_contradiction(tmp_path, run_cli):
    # Sane numbers that do not fit: no picture satisfies the clues, decided before the search starts.
    path = write(tmp_path, "over.txt", "5000\n\n1\n1\n")
    code, out, _ = run_cli("nonogram", "solve", path, "--json")
    assert code == 0 and json.loads(out)["status"] == "contradiction" and json.loads(out)["solutions"] == []
    many = Puzzle("many", rows=[[(1, 1)] * 30], cols=[[(1, 1)]] * 3)
    assert solve(many).status == "contradiction"
    colours = Puzzle("c", rows=[[(2, 1), (2, 2)]], cols=[[(1, 1)]] * 3, palette=["#fff", "#000", "#f00"])
    assert solve(colours).status == "contradiction"
    fits = Puzzle("f", rows=[[(1, 1), (2, 2)]], cols=[[(1, 1)], [(1, 2)], [(1, 2)]], palette=["#fff", "#000", "#f00"])
    assert solve(fits).status == "unique"


def test_undeclared_default_colour_is_a_located_error(tmp_path, run_cli):
    text = ('<?xml version="1.0"?>\n<puzzleset>\n<puzzle defaultcolor="ink">\n'
            '<clues type="rows"><line><count>1</count></line></clues>\n'
            '<clues type="columns"><line><count>1</count></line></clues>\n</puzzle></puzzleset>\n')
    path = write(tmp_path, "ink.xml", text)
    err = one_line_error(run_cli, "nonogram", "solve", path)
    assert err.startswith(f"{path}:3: ") and "defaultcolor 'ink' is not declared" in err


def test_messages_quote_at_most_about_80_characters(tmp_path, run_cli):
    path = write(tmp_path, "x.non", "width 2\nheight 1\nrows\n" + "z" * 100_000 + "\ncolumns\n1\n1\n")
    err = one_line_error(run_cli, "nonogram", "solve", path)
    assert err.startswith(f"{path}:4: ") and len(err) < len(path) + 250


def test_invalid_utf8_falls_back_to_latin1_for_old_files(tmp_path):
    # Old .non files are Latin-1: the title's byte 0xe9 is read as é, not rejected.
    path = write(tmp_path, "old.non", b'title "caf\xe9"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n')
    assert load_one(path).title == "café"


def test_binary_files_and_folders_are_located_errors(tmp_path, run_cli):
    path = write(tmp_path, "bin.nin", b"1 1\n1\n\x00\n")
    assert one_line_error(run_cli, "nonogram", "solve", path).startswith(f"{path}:3: ")
    assert one_line_error(run_cli, "nonogram", "solve", str(tmp_path)).startswith(str(tmp_path))
    many = str(DATA / "tournament.txt") + "#" + "9" * 5000
    assert "no puzzle '#" in one_line_error(run_cli, "nonogram", "solve", many)


def test_memory_budget_refuses_puzzles_it_cannot_hold(tmp_path, run_cli):
    path = write(tmp_path, "big.nin", "3000 3000\n" + "0\n" * 6000)
    err = one_line_error(run_cli, "nonogram", "solve", path, "--memory-budget", "64M")
    assert err.startswith(path) and "memory budget" in err


# --- writing: every text escaped ---------------------------------------------------------------------

def test_xml_round_trips_a_title_that_needs_escaping(tmp_path, run_cli):
    p = load_one(str(DATA / "heart.non"))
    p.title = "a&b<c>"
    src = write(tmp_path, "t.non", non.write(p))
    assert load_one(src).title == "a&b<c>"
    out = tmp_path / "t.xml"
    assert run_cli("nonogram", "convert", src, "--to", "xml", "--out", out)[0] == 0
    assert "<title>a&amp;b&lt;c&gt;</title>" in out.read_text()
    back = load_one(str(out))
    assert back.title == "a&b<c>" and (back.rows, back.cols) == (p.rows, p.cols)
    code, text, _ = run_cli("nonogram", "convert", str(out), "--to", "non")
    assert code == 0 and load_one(write(tmp_path, "again.non", text)).title == "a&b<c>"


# --- the tournament sets: an empty line is an empty clue ---------------------------------------------

def test_tournament_empty_lines_are_empty_clues(tmp_path):
    puzzles = load(str(DATA / "tournament.txt"))
    assert [p.name for p in puzzles] == ["tournament#1", "tournament#2", "tournament#3"]
    third = puzzles[2]
    assert third.cols[0] == [] and third.rows[0] == [] and third.rows[3] == []
    res = solve(third)
    assert res.status == "unique" and satisfies(third, res.solutions[0])


def test_tournament_blank_separators_and_a_last_empty_clue(tmp_path):
    # Puzzle $1's last row is empty (its last line is blank) and a blank line also separates the puzzles.
    body1 = "1\n1\n\n1\n1\n\n"  # columns 1 / 1 / empty; rows 1 / 1 / empty
    body2 = "2\n2\n2\n2\n"
    path = write(tmp_path, "sets.txt", f"$1\n{body1}\n$2\n{body2}\n\n")
    first, second = load(path, "tournament")
    assert (first.width, first.height) == (3, 3) and first.rows[2] == [] and first.cols[2] == []
    assert (second.width, second.height) == (2, 2)
    assert solve(first).status == "multiple" and solve(second).status == "unique"
    odd = write(tmp_path, "odd.txt", "$1\n1\n1\n1\n")
    with pytest.raises(InputError, match="3 clue lines"):
        load(odd, "tournament")


def test_real_tournament_set_with_empty_lines_solves_like_the_zero_version(tmp_path):
    # The same puzzles with `0` and with empty lines read alike.
    text = (DATA / "tournament.txt").read_text()
    zeros = "\n".join("0" if not t.strip() and not t.startswith("$") else t for t in text.split("\n")[:-1]) + "\n"
    a = load(write(tmp_path, "blank.txt", text), "tournament")
    b = load(write(tmp_path, "zero.txt", zeros), "tournament")
    assert [(p.rows, p.cols) for p in a] == [(p.rows, p.cols) for p in b]
    for p in a:
        res = solve(p, Options(max_solutions=1))
        assert res.solutions and np.all([satisfies(p, s) for s in res.solutions])
