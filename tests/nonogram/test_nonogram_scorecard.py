"""Seed 002's scorecard rows and the bench report, computed from CSVs written here (no solving)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from puzzlelab.lab.scorecard import COLUMNS, VERDICTS
from puzzlelab.nonogram.scorecard import bench_scorecard

LINKS = {"summary": "results/x/summary.html", "heaviest": "results/x/heaviest.html",
         "reference": "results/x/reference.html"}


def bench_files(tmp_path, rows, stem="bench"):
    """A bench result CSV and its timing CSV from (corpus, name, status, seconds) tuples."""
    res, tim = tmp_path / f"{stem}.csv", tmp_path / f"{stem}.timing.csv"
    pd.DataFrame([{"corpus": c, "name": n, "status": s, "line_solvable": False} for c, n, s, _ in rows]).to_csv(
        res, index=False)
    pd.DataFrame([{"corpus": c, "name": n, "time_s": t, "cpu_s": t} for c, n, _, t in rows]).to_csv(tim, index=False)
    return [str(res)], [str(tim)]


def reference_file(tmp_path, rows):
    path = tmp_path / "reference.csv"
    pd.DataFrame([{"corpus": c, "name": n, "status": s, "time_s": t, "cpu_s": t, "wall_s": t}
                  for c, n, s, t in rows]).to_csv(path, index=False)
    return [str(path)]


def scorecard(tmp_path, results, timings, references, unavailable=""):
    out = tmp_path / "scorecard.csv"
    bench_scorecard(results, references, "pbnsolve", unavailable, LINKS, str(out))
    df = pd.read_csv(out, keep_default_na=False, dtype=str)
    assert list(df.columns) == COLUMNS
    assert set(df["seed"]) == {"002"} and set(df["verdict"]) <= set(VERDICTS)
    return {r.figure: r for r in df.itertuples(index=False)}


OURS = [
    ("izaron", "emoji", "unique", 0.001), ("izaron", "taiga", "unique", 0.002), ("izaron", "kolobok", "unique", 0.5),
    ("nonograms_org", "nonograms-org-19510-dragon", "unique", 1.0),
    ("nonograms_org", "nonograms-org-05114-rachmaninoff", "timeout", 60.0),
    ("nonograms_org", "nonograms-org-17403-raccoon", "unique", 0.010),
    ("keen", "cat6", "unique", 0.004), ("keen", "gettys", "multiple", 2.0),
    ("webpbn", "webpbn-00001-dancer", "unique", 0.002),
]


def test_rows_compare_the_article_and_the_peer(tmp_path):
    results, timings = bench_files(tmp_path, OURS)
    ref = reference_file(tmp_path, [
        ("izaron", "emoji", "unique", 0.002), ("izaron", "taiga", "unique", 0.002),
        ("izaron", "kolobok", "unique", 2.0),
        ("keen", "cat6", "multiple", 0.004), ("keen", "gettys", "timeout", 60.0),
        ("webpbn", "webpbn-00001-dancer", "unique", 0.002)])
    rows = scorecard(tmp_path, results, timings, ref)

    median = rows["colour puzzles: median time per puzzle (ours: Izaron's own colour puzzles)"]
    assert (median.article, median.ours, median.verdict) == ("3.03 ms", "2 ms (3 puzzles)", "beaten")
    heaviest = rows["colour puzzles: heaviest puzzle (ours: Izaron's own colour puzzles)"]
    assert (heaviest.ours, heaviest.verdict, heaviest.link) == ("500 ms (kolobok)", "missed", LINKS["summary"])

    named = {f.split("#")[1].split(":")[0]: r for f, r in rows.items() if f.startswith("b/w nonograms.org #")}
    assert set(named) == {"19510", "5114", "17403", "12771"}
    assert (named["19510"].article, named["19510"].ours, named["19510"].verdict) == ("459 ms", "1 s (unique)", "missed")
    assert (named["5114"].ours, named["5114"].verdict) == ("timeout", "missed")
    assert named["17403"].verdict == "beaten" and named["17403"].link == LINKS["heaviest"]
    assert named["12771"].verdict == "not run here"

    survey = rows["Wolter's survey: puzzles decided (unique / multiple / contradiction)"]
    assert (survey.ours, survey.peer, survey.verdict) == ("3 of 3", "pbnsolve: 2 of 3", "reproduced")

    # cat6 is unique for us and multiple for the peer: one disagreement among the five both decided.
    status = rows["statuses equal to pbnsolve's"]
    assert status.ours == "1 different in 5 decided by both (keen/cat6)" and status.verdict == "missed"
    izaron = rows["CPU time beside pbnsolve: izaron (3 puzzles both decided)"]
    assert (izaron.ours, izaron.peer, izaron.verdict) == ("503 ms (pbnsolve / ours 3.98)", "pbnsolve: 2 s", "beaten")
    keen = rows["CPU time beside pbnsolve: keen (1 puzzles both decided)"]
    assert keen.verdict == "reproduced" and keen.link == LINKS["reference"]
    assert rows["CPU time beside pbnsolve: webpbn (1 puzzles both decided)"].verdict == "reproduced"


def test_an_undecided_colour_puzzle_misses_the_heaviest_figure(tmp_path):
    results, timings = bench_files(tmp_path, [("izaron", "emoji", "unique", 0.001),
                                              ("izaron", "taiga", "timeout", 60.0)])
    rows = scorecard(tmp_path, results, timings, [])
    heaviest = rows["colour puzzles: heaviest puzzle (ours: Izaron's own colour puzzles)"]
    assert (heaviest.ours, heaviest.verdict) == ("1 ms (emoji); 1 not decided", "missed")


def test_rows_say_not_run_here_without_corpora_or_peer(tmp_path):
    results, timings = bench_files(tmp_path, [("gen-c3-12", "gen-c3-12-001", "unique", 0.001)])
    rows = scorecard(tmp_path, results, timings, [], unavailable="pbnsolve executable not found")
    assert len(rows) >= 4
    assert {r.verdict for r in rows.values()} == {"not run here"}
    assert rows["statuses equal to pbnsolve's"].peer == "not run: pbnsolve executable not found"
    assert rows["colour puzzles: median time per puzzle (ours: Izaron's own colour puzzles)"].article == "3.03 ms"


def test_cli_writes_the_rows(tmp_path, run_cli):
    """`report reference --scorecard`: the rows point to the summary and heaviest tables and to its own page."""
    results, timings = bench_files(tmp_path, OURS)
    out, html = tmp_path / "sc.csv", tmp_path / "r.html"
    code, _, err = run_cli("nonogram", "report", "reference", *results, "--reference", "--link", "s.html", "h.html",
                           "--csv", tmp_path / "r.csv", "--html", html, "--scorecard", out)
    assert code == 0, err
    df = pd.read_csv(out, keep_default_na=False, dtype=str)
    assert len(df) >= 4 and set(df["link"]) == {"s.html", "h.html", str(html)}
    peer = df[df["figure"].str.contains("pbnsolve")]
    assert len(peer) == 2 and set(peer["verdict"]) == {"not run here"}
    code, _, err = run_cli("nonogram", "report", "reference", *results, "--reference", "--csv", tmp_path / "x.csv",
                           "--html", tmp_path / "x.html", "--scorecard", out)
    assert code == 2 and "--link SUMMARY HEAVIEST" in err
    code, _, err = run_cli("nonogram", "report", "summary", *results, "--csv", tmp_path / "x.csv",
                           "--html", tmp_path / "x.html", "--scorecard", out)
    assert code == 2 and "decides no scorecard rows" in err


def test_report_bench_writes_tables_and_the_svg_figure(tmp_path, run_cli):
    res, tim = tmp_path / "b.csv", tmp_path / "b.timing.csv"
    pd.DataFrame([{"corpus": "c", "name": f"p{i}", "size": "5x5", "width": 5, "height": 5, "colors": 2, "status": s,
                   "line_solvable": i == 0, "valid": True} for i, s in enumerate(["unique", "multiple", "timeout"])]
                 ).to_csv(res, index=False)
    pd.DataFrame([{"corpus": "c", "name": f"p{i}", "time_s": t, "cpu_s": t} for i, t in enumerate([0.001, 0.003, 1.0])]
                 ).to_csv(tim, index=False)
    out = {k: tmp_path / k for k in ("s.csv", "s.html", "h.csv", "h.html", "t.svg")}
    code, _, err = run_cli("nonogram", "report", "summary", res, "--csv", out["s.csv"], "--html", out["s.html"],
                           "--svg", out["t.svg"])
    assert code == 0, err
    assert "3 puzzles in 1 corpus." in out["s.html"].read_text()
    code, _, err = run_cli("nonogram", "report", "heaviest", res, "--csv", out["h.csv"], "--html", out["h.html"])
    assert code == 0, err
    row = pd.read_csv(out["s.csv"]).iloc[0]
    assert (row["puzzles"], row["solved"], row["unique"], row["multiple"], row["timeout"]) == (3, 2, 1, 1, 1)
    assert list(pd.read_csv(out["h.csv"])["name"]) == ["p2", "p1", "p0"]
    assert out["t.svg"].read_text().startswith("<?xml") and "<svg" in out["t.svg"].read_text()


def test_report_needs_the_timing_file_beside_each_run(tmp_path, run_cli):
    (results, _) = bench_files(tmp_path, [("c", "p", "unique", 0.001)])
    Path(results[0].replace(".csv", ".timing.csv")).unlink()
    code, _, err = run_cli("nonogram", "report", "summary", *results, "--csv", tmp_path / "a.csv",
                           "--html", tmp_path / "a.html")
    assert code == 2 and err == f"{results[0]}: no timing file 'bench.timing.csv' beside this bench result\n"


def test_ablation_reads_the_variant_from_the_folder(tmp_path, run_cli):
    runs = []
    for variant, t in (("base", 0.01), ("naive", 0.04)):
        folder = tmp_path / variant
        folder.mkdir()
        runs += bench_files(folder, [("c", "p1", "unique", t), ("c", "p2", "unique", t)])[0]
    code, _, err = run_cli("nonogram", "report", "ablation", *runs, "--csv", tmp_path / "ab.csv",
                           "--html", tmp_path / "ab.html", "--svg", tmp_path / "ab.svg")
    assert code == 0, err
    row = pd.read_csv(tmp_path / "ab.csv").iloc[0]
    assert row["speed-up (total)"] == pytest.approx(4.0) and row["n"] == 2


def test_tournament_rows_give_both_modes_and_the_champion(tmp_path):
    from puzzlelab.nonogram.scorecard import tournament_scorecard

    first, _ = bench_files(tmp_path, [("tournament", "t#1", "solved", 1.0), ("tournament", "t#2", "timeout", 10.0)],
                           stem="first")
    decided, _ = bench_files(tmp_path, [("tournament", "t#1", "unique", 2.0), ("tournament", "t#2", "multiple", 3.0)],
                             stem="decided")
    ref = reference_file(tmp_path, [("tournament", "t#1", "solved", 4.0), ("tournament", "t#2", "solved", 18.0)])
    out = tmp_path / "t.csv"
    tournament_scorecard(first, decided, ref, "LalaFrogKK", "", "results/x/t.html", str(out))
    rows = list(pd.read_csv(out, keep_default_na=False, dtype=str).itertuples(index=False))
    assert [r.verdict for r in rows] == ["missed", "reproduced", "beaten"]
    assert rows[0].ours == "1 of 2 (slowest 10 s; 1 stopped at the run's work limit)"
    assert rows[2].ours == "11 s for 2 puzzles (LalaFrogKK / ours 2.00)"
    tournament_scorecard(first, decided, [], "LalaFrogKK", "LalaFrogKK not found", "l", str(out))
    last = pd.read_csv(out, keep_default_na=False, dtype=str).iloc[-1]
    assert (last["peer"], last["verdict"]) == ("not run: LalaFrogKK not found", "not run here")


FAKE_LALAFROG = r'''#!/usr/bin/env python3
"""Stands in for LalaFrogKK: reads ./input.txt (1000 puzzles), answers the first two (#2 wrongly)."""
import re
text = open("input.txt").read()
assert len(re.findall(r"^\$\d+$", text, re.M)) == 1000
with open("solution.txt", "w") as sol, open("log.txt", "w") as log:
    for k, grid in ((1, [[1] * 25] + [[0] * 25] * 24), (2, [[0] * 25] * 25)):
        sol.write(f"${k}\n" + "\n".join("\t".join(map(str, row)) for row in grid) + "\n")
        log.write(f"#{k}\t0.5\n")
    log.write("total time: 1.0\n")
'''


def test_lalafrog_runner_checks_every_grid_and_skips_other_sizes(tmp_path):
    import os

    from puzzlelab.nonogram.reference import parse_lalafrog, run_lalafrog

    exe = tmp_path / "LalaFrogKK"
    exe.write_text(FAKE_LALAFROG)
    os.chmod(exe, 0o755)
    top = "\n".join(["1"] * 25 + ["25"] + ["0"] * 24)  # columns 1 each, then rows: the top row full
    puzzles = tmp_path / "set.txt"
    puzzles.write_text(f"$1\n{top}\n$2\n{top}\n$3\n{top}\n")
    small = tmp_path / "small.non"
    small.write_text("width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n")
    rows = run_lalafrog(str(exe), [str(puzzles), str(small)], 10.0, corpus="c", progress=False)
    assert [(r["name"], r["status"]) for r in rows] == [("set#1", "solved"), ("set#2", "wrong"),
                                                        ("set#3", "unknown"), ("small", "skipped")]
    assert rows[0]["time_s"] == 0.5
    times, grids = parse_lalafrog("#7\t1.25\ntotal time: 1.25\n", "$7\n1\t0\n0\t1\n")
    assert times == {7: 1.25} and grids == {7: [[1, 0], [0, 1]]}
