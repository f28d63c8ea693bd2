"""The snakebird_levels report: reproducible tables apart from the timed ones, scorecard rows of seed 000."""

from __future__ import annotations

import csv
import json

import pytest
from snakebird_support import DATA

# table -> its outputs, as rules/snakebird.smk names them
OUTPUTS = {"levels": {"csv": "levels.csv", "html": "levels.html", "svg": "bits_vs_states.svg",
                      "scorecard": "scorecard.csv"},
           "levels-time": {"csv": "levels.timing.csv", "html": "levels.timing.html",
                           "svg": "states_vs_time.timing.svg"},
           "layers": {"csv": "layers.csv", "html": "layers.html"},
           "solutions": {"csv": "solutions.csv", "html": "solutions.html", "svg": "levels.svg"}}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Solve results of two project levels, with a reference result (as `snakebird reference` writes it)."""
    from puzzlelab.cli import main

    folder = tmp_path_factory.mktemp("sb-report")
    paths = []
    for name in ("portal", "crate"):
        out = folder / "project" / f"{name}.json"
        out.parent.mkdir(exist_ok=True)
        assert main(["snakebird", "solve", str(DATA / f"{name}.txt"), "--memory-budget", "64M", "--out", str(out),
                     "--timing", str(out.with_suffix(".timing.json"))]) == 0
        paths.append(out)
    solved = json.loads(paths[1].read_text())
    ref = folder / "reference" / "crate.peer.json"
    ref.parent.mkdir()
    ref.write_text(json.dumps({"level": "crate", "moves": solved["moves"],
                               "layers_before_last": solved["layers"][:-1]}))
    ref.with_suffix(".timing.json").write_text(json.dumps({"time_s": 0.5, "peak_rss_bytes": 8 << 20}))
    return folder, paths, ref


def report(folder, paths, ref, into):
    from puzzlelab.cli import main

    into.mkdir()
    for table, outputs in OUTPUTS.items():
        flags = [f"--{k}={into / v}" for k, v in outputs.items()]
        if table == "levels":
            flags.append(f"--times-link={into / OUTPUTS['levels-time']['html']}")
        refs = [] if table == "solutions" else ["--reference", str(ref)]
        assert main(["snakebird", "report", table, *map(str, paths), *refs, *flags]) == 0
    return into


def rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_report_keeps_times_apart_and_is_reproducible(runs):
    folder, paths, ref = runs
    a = report(folder, paths, ref, folder / "a")
    b = report(folder, paths, ref, folder / "b")
    levels = rows(a / "levels.csv")
    assert [r["level"] for r in levels] == ["crate", "portal"]
    assert levels[0]["moves"] == "13" and levels[1]["moves"] == "9"
    assert levels[0]["moves = published"] == "—"
    assert not any("time" in c or "MiB" in c or "reference" in c for c in levels[0])
    assert not any("reference" in c for c in rows(a / "layers.csv")[0])
    times = rows(a / "levels.timing.csv")
    assert times[0]["layers = reference"] == "yes" and times[0]["moves = reference"] == "yes"
    assert times[1]["moves = reference"] == "—"
    assert float(times[0]["reference time s"]) == 0.5 and float(times[0]["time / reference"]) > 0
    assert times[1]["reference time s"] == ""
    for name in (name for outputs in OUTPUTS.values() for name in outputs.values()):
        if ".timing." not in name and name != "scorecard.csv":
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_level_pictures():
    from puzzlelab.snakebird.level import load_level
    from puzzlelab.snakebird.picture import EXIT, GADGET, SNAKE, TELEPORTER, cell_codes

    portal = cell_codes(load_level(DATA / "portal.txt"))
    assert (portal == TELEPORTER).sum() == 2 and (portal == EXIT).sum() == 1
    assert (portal == SNAKE["R"][1]).sum() == 1  # one head
    crate = load_level(DATA / "crate.txt")
    assert (cell_codes(crate) == GADGET).sum() == sum(len(g) for g in crate.gadgets)


def test_scorecard_rows_of_seed_000(runs):
    folder, paths, ref = runs
    out = report(folder, paths, ref, folder / "c")
    card = {r["figure"]: r for r in rows(out / "scorecard.csv")}
    assert all(r["seed"] == "000" for r in card.values())
    levels = card["corpus levels solved at the published optimal length"]
    assert levels["verdict"] == "not run here"  # no corpus level among these runs
    bits = card["visited set, bits per state (row filter + zstd)"]
    assert "crate" in bits["ours"] and bits["article"].startswith("3.36")
    assert bits["verdict"] == "not run here"  # 748 states: far sparser than the article's 14.6 M
    timed = card["wall time against the reference C++ solver (worst level)"]
    assert "crate" in timed["ours"] and timed["peer"] == "0.5 s"
    assert timed["link"].endswith("levels.timing.html")


def test_deep_scorecard_rows_judge_the_largest_search(runs):
    """--scorecard-rows deep: the article's largest search (4.6 G states, 0.7 bits), judged on our largest."""
    from puzzlelab.cli import main

    folder, paths, ref = runs
    out = folder / "deep"
    out.mkdir()
    assert main(["snakebird", "report", "levels", *map(str, paths), "--csv", str(out / "l.csv"),
                 "--html", str(out / "l.html"), "--scorecard", str(out / "s.csv"), "--scorecard-rows", "deep"]) == 0
    card = {r["figure"]: r for r in rows(out / "s.csv")}
    states = card["visited states of the largest search"]
    biggest = max(paths, key=lambda p: json.loads(p.read_text())["states"])
    assert biggest.stem in states["ours"] and f"{json.loads(biggest.read_text())['states']:,} states" in states["ours"]
    assert states["verdict"] == "missed"  # hundreds of states against 4.6 billion
    bits = card["visited set of the largest search, bits per state"]
    assert bits["article"] == "0.7 bits/state" and bits["verdict"] in {"missed", "beaten", "reproduced"}
    assert "corpus levels solved at the published optimal length" not in card


def test_deep_scorecard_rows_without_runs_say_not_run_here():
    import pandas as pd

    from puzzlelab.snakebird.report import deep_scorecard_rows

    got = deep_scorecard_rows(pd.DataFrame(), {"levels": "l.html", "bits": "b.svg"})
    assert [r.verdict for r in got] == ["not run here"] * 3 and got[0].article == "4.6 billion states"


def test_report_tables_are_the_cli_tables_and_refuse_a_figure_they_lack(runs, capsys):
    from puzzlelab.cli import main
    from puzzlelab.snakebird.cli import REPORT_TABLES
    from puzzlelab.snakebird.report import MAKERS, PLOTS

    assert set(MAKERS) == set(REPORT_TABLES) and set(PLOTS) < set(MAKERS)
    folder, paths, ref = runs
    out = folder / "d"
    out.mkdir()
    base = ["snakebird", "report", "layers", *map(str, paths), "--csv", str(out / "l.csv"),
            "--html", str(out / "l.html")]
    assert main([*base, "--svg", str(out / "l.svg")]) == 2
    assert "layers table has no figure" in capsys.readouterr().err
    assert main([*base, "--scorecard", str(out / "s.csv")]) == 2
    assert "--scorecard is written by the levels table" in capsys.readouterr().err
    assert not any(out.iterdir())
