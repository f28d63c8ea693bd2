"""Nonogram formats, the command line, malformed input and the benchmark output."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from conftest import REPO, corpus
from puzzlelab.nonogram.formats import FORMATS, load, load_one, non, pbnxml, sniff
from puzzlelab.nonogram.model import satisfies
from puzzlelab.nonogram.solver import solve

DATA = REPO / "data" / "nonogram"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


# --- every format, on the real files of the shared corpora --------------------------------------------

REAL = [
    ("non", ("picross_solver_inputs", "webpbn", "webpbn-00016-knot.non")),
    ("non", ("mikix_nonogram_db", "db", "gnonograms", "42.non")),
    ("xml", ("webpbn_survey_xml", "webpbn-color-00047.xml")),
    ("pzl", ("izaron_nonograms", "emoji.pzl")),
    ("pzl", ("izaron_nonograms", "kolobok.pzl")),
    ("nin", ("jwilk_nin", "data007.nin")),
    ("g", ("pbnsolve_examples", "acorn.g")),
    ("g", ("pbnsolve_examples", "rose.g")),
    ("mk", ("pbnsolve_examples", "c++.mk")),
    ("keen", ("webpbn_survey_keen", "cat6.txt")),
    ("keen", ("webpbn_survey_keen", "swing529.txt")),
    ("pynogram", ("pynogram_examples", "uk.txt")),
    ("pynogram", ("pynogram_examples", "apples.txt")),
    ("toml", ("nonogrid_examples", "UK.toml")),
    ("puzzlekit", ("puzzlekit_janko", "Nonogram_dataset.json")),
    ("tournament", ("tournament_25x25", "question", "taai2011.txt")),
    ("spoj", ("nonogrid_examples", "spoj_puzzles.txt")),
]


@pytest.mark.parametrize("fmt,parts", REAL, ids=[p[-1] for _, p in REAL])
def test_real_files_in_every_format(fmt, parts):
    path = corpus("nonogram", *parts)
    puzzles = load(str(path))
    assert puzzles and all(p.format == fmt for p in puzzles)
    assert sniff(path.read_text(encoding="utf-8", errors="replace"), str(path)) == fmt
    for p in puzzles[:3]:
        res = solve(p)
        assert res.status in ("unique", "multiple"), p.name
        assert res.solutions and all(satisfies(p, s) for s in res.solutions)
        if p.goal is not None and res.status == "unique":
            assert np.array_equal(res.solutions[0], p.goal)


def test_same_puzzle_in_three_formats_has_the_same_clues():
    a = load_one(str(corpus("nonogram", "webpbn_survey_keen", "mm.txt")))
    b = load_one(str(corpus("nonogram", "picross_solver_inputs", "webpbn", "webpbn-04645-marilyn.non")))
    c = load_one(str(corpus("nonogram", "jwilk_nin", "data007.nin")))
    d = load_one(str(corpus("nonogram", "picross_solver_inputs", "jwilk", "jwilk-007-vulture.non")))
    assert (a.rows, a.cols) == (b.rows, b.cols)
    assert (c.rows, c.cols) == (d.rows, d.cols)


def test_forced_format_and_collection_index(tmp_path):
    text = (DATA / "heart.non").read_text()
    path = write(tmp_path, "heart.dat", text)
    assert load_one(path, "non").name == "heart"
    bundle = write(tmp_path, "two.nonpack", text + "====\n" + (DATA / "heart.non").read_text())
    assert [p.name for p in load(bundle)] == ["two#1", "two#2"]
    assert load_one(bundle + "#2").name == "two#2"
    tour = write(tmp_path, "t.txt", "$1\n1\n1\n1\n1\n$2\n1\n1\n0\n2\n")
    assert [p.name for p in load(tour)] == ["t#1", "t#2"]
    p2 = load_one(tour + "#2")
    assert solve(p2).status == "unique" and solve(p2).solutions[0].tolist() == [[0, 0], [1, 1]]


def test_round_trip_through_writers(tmp_path):
    for name in ("heart.non", "mushroom.xml", "tree.g", "arrow.pzl"):
        p = load_one(str(DATA / name))
        for fmt, writer in (("non", non.write), ("xml", pbnxml.write)):
            q = load_one(write(tmp_path, f"x.{fmt}", writer(p)))
            assert (q.rows, q.cols, q.palette) == (p.rows, p.cols, p.palette), (name, fmt)


# --- malformed input: PATH:LINE: reason, exit 2 -------------------------------------------------------

MALFORMED = [
    ("bad.non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\nx1\n", 8, "bad clue"),
    ("short.non", "width 2\nheight 2\nrows\n1\ncolumns\n1\n1\n", 5, "expected 2 rows clues"),
    ("bad.xml", "<puzzleset><puzzle>\n<clues type=\"rows\"><line><count>3</count></line>\n</puzzle>", 3,
     "not well-formed"),
    ("bad.pzl", "1\n#ff0000\n1 1\n1 1 255 0 0\n1 1 0 255 0\n", 5, "not in the palette"),
    ("bad.nin", "2 2\n1\n1\n1\n", 4, "expected 2 row and 2 column lines"),
    ("bad.g", "#d\n  r:r  red\n:\n1r\n2q\n:\n1r\n1r\n", 5, "not declared"),
    ("bad.txt", "1\n1 x\n\n1\n1\n", 2, "block length"),
    ("bad.mk", "2 2\n1\n1\n#\n1\n", 5, "expected 2 column lines"),
]


@pytest.mark.parametrize("name,text,line,reason", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_files_exit_2_with_line(tmp_path, run_cli, name, text, line, reason):
    path = write(tmp_path, name, text)
    code, out, err = run_cli("nonogram", "solve", path)
    assert code == 2
    assert err.strip().startswith(f"{path}:{line}:"), err
    assert reason in err
    assert "Traceback" not in err


def test_real_malformed_file_points_at_its_line(run_cli):
    # jwilk's data142.nin repeats its clues after the puzzle; line 47 is the first extra line.
    path = corpus("nonogram", "jwilk_nin", "data142.nin")
    code, _, err = run_cli("nonogram", "solve", str(path))
    assert code == 2 and err.startswith(f"{path}:47: unexpected data")


def test_usage_errors(tmp_path, run_cli):
    code, _, err = run_cli("nonogram", "solve", str(tmp_path / "missing.non"))
    assert code == 2 and "no such" in err
    bundle = write(tmp_path, "b.nonpack", (DATA / "heart.non").read_text() * 1 + "====\n" +
                   (DATA / "heart.non").read_text())
    code, _, err = run_cli("nonogram", "solve", bundle)
    assert code == 2 and "#N" in err
    code, _, err = run_cli("nonogram", "solve", bundle + "#7")
    assert code == 2 and "no puzzle '#7'" in err
    code, _, err = run_cli("nonogram", "solve", str(DATA / "heart.non"), "--format", "nope")
    assert code == 2


# --- solve, bench, generate -------------------------------------------------------------------------

def test_solve_json_has_exactly_the_documented_keys(run_cli):
    code, out, _ = run_cli("nonogram", "solve", str(DATA / "mushroom.xml"), "--json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"status", "line_solvable", "rows", "cols", "colors", "solutions", "time_s"}
    assert doc["status"] == "unique" and doc["line_solvable"] is True
    assert (doc["rows"], doc["cols"]) == (9, 10)
    assert doc["colors"][0] == "#ffffff" and len(doc["colors"]) == 4
    p = load_one(str(DATA / "mushroom.xml"))
    assert doc["solutions"] == [p.goal.tolist()]


def test_solve_draws_the_picture(run_cli):
    code, out, _ = run_cli("nonogram", "solve", str(DATA / "heart.non"))
    assert code == 0
    lines = out.splitlines()
    assert "unique" in lines[0]
    assert lines[-1].replace("·", "").strip() == "██"  # the heart's tip
    code, out, _ = run_cli("nonogram", "solve", str(DATA / "checker.nin"), "--json")
    assert json.loads(out)["status"] == "multiple" and len(json.loads(out)["solutions"]) == 2


def test_solve_out_is_reproducible_and_timing_separate(tmp_path, run_cli):
    outs = []
    for k in range(2):
        out, timing = tmp_path / f"r{k}.json", tmp_path / f"t{k}.json"
        assert run_cli("nonogram", "solve", str(DATA / "tree.g"), "--out", out, "--timing", timing)[0] == 0
        outs.append(out.read_bytes())
        assert "time_s" in json.loads(timing.read_text())
    assert outs[0] == outs[1] and b"time_s" not in outs[0]


def test_bench_rows_and_summary(tmp_path, run_cli):
    out, timing = tmp_path / "b.csv", tmp_path / "t.csv"
    code, text, _ = run_cli("nonogram", "bench", str(DATA), "--out", out, "--timing", timing, "--corpus", "ours")
    assert code == 0
    assert "Median time" in text and "heaviest" in text
    rows = list(csv.DictReader(out.open()))
    by_name = {r["name"]: r for r in rows}
    assert by_name["checker"]["status"] == "multiple"
    assert by_name["contradiction"]["status"] == "contradiction"
    assert by_name["heart"]["status"] == "unique" and by_name["heart"]["line_solvable"] == "True"
    assert all(r["corpus"] == "ours" for r in rows) and len(rows) == 17
    assert "time_s" not in rows[0] and "time_s" in next(csv.DictReader(timing.open()))
    # Without --timing the rows carry the columns, time included.
    code, _, _ = run_cli("nonogram", "bench", str(DATA / "heart.non"), "--out", tmp_path / "c.csv")
    header = next(csv.reader((tmp_path / "c.csv").open()))
    for col in ("corpus", "name", "size", "colors", "status", "line_solvable", "time_s"):
        assert col in header
    # Same input, same artifact bytes.
    code, _, _ = run_cli("nonogram", "bench", str(DATA), "--out", tmp_path / "b2.csv", "--timing", tmp_path / "t2.csv",
                         "--corpus", "ours")
    assert (tmp_path / "b2.csv").read_bytes() == out.read_bytes()


def test_bench_batch_path_changes_no_result(tmp_path, run_cli):
    # The shipped puzzles and a generated corpus (batches of black-and-white puzzles, the colour ones
    # one by one between them): the same rows as one kernel call per puzzle, and times for every row.
    gen = tmp_path / "g.nonpack"
    assert run_cli("nonogram", "generate", "--size", "20x15", "--count", "30", "--seed", 9, "--out", gen)[0] == 0
    outs = []
    for flag in ([], ["--no-batch"]):
        out, timing = tmp_path / f"b{len(outs)}.csv", tmp_path / f"t{len(outs)}.csv"
        assert run_cli("nonogram", "bench", str(DATA), str(gen), "--out", out, "--timing", timing, *flag)[0] == 0
        outs.append(out.read_bytes())
        assert all(float(r["cpu_s"]) >= 0 for r in csv.DictReader(timing.open()))
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 48


def test_bench_repeats_quick_puzzles_without_changing_a_result(tmp_path, run_cli):
    # Repeats (of every puzzle here, or of none with a tiny --repeat-below) change no result byte and
    # time every row.
    outs, cpus = [], []
    for args in (["--repeats", "1"], ["--repeats", "4"], ["--repeats", "4", "--repeat-below", "0.000001"]):
        out, timing = tmp_path / f"b{len(outs)}.csv", tmp_path / f"t{len(outs)}.csv"
        assert run_cli("nonogram", "bench", str(DATA), "--out", out, "--timing", timing, *args)[0] == 0
        outs.append(out.read_bytes())
        cpus.append([float(r["cpu_s"]) for r in csv.DictReader(timing.open()) if r["cpu_s"]])
    assert outs[0] == outs[1] == outs[2] and len(cpus[1]) == 17


def test_a_repeated_solve_keeps_the_median_run_and_must_give_the_same_answer():
    from puzzlelab.lab.cputime import median_run
    from puzzlelab.nonogram.experiments import COLUMNS, same_answer

    row = dict.fromkeys(COLUMNS, 0) | {"corpus": "c", "name": "p", "status": "unique", "cpu_s": 0.2}
    runs = [row, same_answer(row, row | {"cpu_s": 0.01}), same_answer(row, row | {"cpu_s": 0.3})]
    assert median_run(runs, key=lambda r: r["cpu_s"])["cpu_s"] == 0.2  # a glitch-low 0.01 is not kept
    assert median_run(runs[1:], key=lambda r: r["cpu_s"])["cpu_s"] == 0.3
    with pytest.raises(RuntimeError, match="c/p: a repeated solve differs in status"):
        same_answer(row, row | {"status": "multiple"})


def test_reference_repeats_quick_puzzles_and_keeps_the_median_run(tmp_path, run_cli):
    # A fake pbnsolve whose own clock reads 0.03, 0.02, 0.01 s on its 1st, 2nd, 3rd run: three runs, the
    # median (0.02) kept; one that reads 0.5 s (above --repeat-below) runs once.
    import os

    for first, prefix, runs, kept in (("3", "0.0", 3, "0.02"), ("50", "0.", 1, "0.5")):
        count = tmp_path / f"count{first}"
        count.write_text(first)
        fake = tmp_path / f"pbn{first}"
        fake.write_text(f"#!/bin/sh\nn=$(cat {count})\necho $((n - 1)) > {count}\n"
                        f"echo 'unique'\necho \"Processing Time: {prefix}$n\"\n")
        os.chmod(fake, 0o755)
        out = tmp_path / f"r{first}.csv"
        code, _, err = run_cli("nonogram", "reference", str(DATA / "heart.non"), "--solver", str(fake), "--out", out)
        row = next(csv.DictReader(out.open()))
        assert code == 0, err
        assert row["status"] == "unique" and float(row["time_s"]) == float(kept)
        assert int(count.read_text()) == int(first) - runs


def test_bench_reports_unreadable_files_as_rows(tmp_path, run_cli):
    write(tmp_path, "ok.non", (DATA / "heart.non").read_text())
    write(tmp_path, "broken.nin", "2 2\n1\n")
    code, _, _ = run_cli("nonogram", "bench", str(tmp_path), "--out", tmp_path / "o.csv")
    rows = {r["name"]: r for r in csv.DictReader((tmp_path / "o.csv").open())}
    assert code == 0 and rows["broken"]["status"] == "error" and "broken.nin:" in rows["broken"]["error"]
    code, _, err = run_cli("nonogram", "bench", str(tmp_path), "--out", tmp_path / "o.csv", "--strict")
    assert code == 2 and "broken.nin:" in err
    (tmp_path / "ok.non").unlink()
    code, out, _ = run_cli("nonogram", "bench", str(tmp_path), "--out", tmp_path / "o.csv")
    assert code == 0 and "1 unreadable" in out and "no times" in out and "nan" not in out


def test_generate_is_seeded(tmp_path, run_cli):
    a, b, c = tmp_path / "a.nonpack", tmp_path / "b.nonpack", tmp_path / "c.nonpack"
    for path, seed in ((a, 4), (b, 4), (c, 5)):
        assert run_cli("nonogram", "generate", "--size", "12x8", "--colors", "3", "--count", "3", "--seed", seed,
                       "--out", path)[0] == 0
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    puzzles = load(str(a))
    assert len(puzzles) == 3 and all(p.width == 12 and p.height == 8 and p.ncolors == 4 for p in puzzles)
    assert all(satisfies(p, p.goal) for p in puzzles)
    code, _, err = run_cli("nonogram", "generate", "--size", "0x5", "--out", tmp_path / "x")
    assert code == 2 and "size" in err


def test_every_registered_format_is_documented():
    assert set(FORMATS) >= {"non", "xml", "pzl", "nin", "g", "keen", "pynogram", "puzzlekit", "tournament"}
    page = (REPO / "docs" / "nonogram.md").read_text()
    for name in FORMATS:
        assert f"`{name}`" in page, name


def test_reference_timeout_is_cpu_time(tmp_path, run_cli):
    # A peer that never answers is stopped by its CPU limit (status timeout), not left to the wall clock.
    import os
    import time

    fake = tmp_path / "spin"
    fake.write_text("#!/bin/sh\nwhile :; do :; done\n")
    os.chmod(fake, 0o755)
    t0 = time.perf_counter()
    code, _, _ = run_cli("nonogram", "reference", str(DATA / "heart.non"), "--solver", str(fake), "--timeout", "1",
                         "--out", tmp_path / "r.csv")
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert code == 0 and rows[0]["status"] == "timeout"
    assert 0.9 <= float(rows[0]["cpu_s"]) and time.perf_counter() - t0 < 20


def test_gallery_reads_every_chunk_of_a_corpus(tmp_path, run_cli):
    # The pipeline benches a big corpus in chunks; the gallery picks from all of them at once.
    whole, parts = tmp_path / "all.csv", [tmp_path / "c1.csv", tmp_path / "c2.csv"]
    assert run_cli("nonogram", "bench", DATA, "--out", whole, "--corpus", "ours")[0] == 0
    for i, part in enumerate(parts, 1):
        assert run_cli("nonogram", "bench", DATA, "--out", part, "--corpus", "ours", "--chunk", f"{i}/2")[0] == 0
    svgs = []
    for csvs in ([whole], parts[::-1]):
        svg = tmp_path / f"g{len(svgs)}.svg"
        code, _, err = run_cli("nonogram", "gallery", *csvs, "--paths", DATA, "--count", 3, "--svg", svg)
        assert code == 0, err
        svgs.append(svg.read_bytes())
    assert svgs[0] == svgs[1] and b"<svg" in svgs[0]  # the same picks, whatever the chunking
    # and the picks (unique first, then the largest) come from both chunks, so neither alone gives them
    rows = [r for r in csv.DictReader(whole.open()) if r["status"] in ("unique", "multiple")]
    rows.sort(key=lambda r: (r["status"] != "unique", -int(r["width"]) * int(r["height"]), r["name"]))
    in_part = [{r["name"] for r in csv.DictReader(p.open())} for p in parts]
    picks = [r["name"] for r in rows[:3]]
    assert any(n in in_part[0] for n in picks) and any(n in in_part[1] for n in picks)


def test_gallery_and_report_refuse_a_csv_that_is_not_a_bench_table(tmp_path, run_cli):
    bad = tmp_path / "bad.csv"
    bad.write_text("corpus,name\nours,heart\n")
    (tmp_path / "bad.timing.csv").write_text("name\nheart\n")
    for args in (("gallery", bad, "--paths", DATA, "--svg", tmp_path / "g.svg"),
                 ("report", "summary", bad, "--csv", tmp_path / "s.csv", "--html", tmp_path / "s.html")):
        code, out, err = run_cli("nonogram", *args)
        assert code == 2 and "Traceback" not in err
        assert err.strip().endswith(f"{bad}:1: not the expected table: no column " + (
            "status, width, height" if args[0] == "gallery" else "status, line_solvable"))
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\x00\xff\xfe")
    code, _, err = run_cli("nonogram", "gallery", binary, "--paths", DATA, "--svg", tmp_path / "g.svg")
    assert code == 2 and f"{binary}: not a readable CSV table" in err
