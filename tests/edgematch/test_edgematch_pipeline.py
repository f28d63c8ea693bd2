"""Edge-matching experiments: job tables of the beam and mitm rules, growth figures and the report commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlelab.edgematch.mitm import pipeline as mp
from puzzlelab.edgematch.mitm.report import growth, independent, parse_job

# The instance rules' output patterns (rules/edgematch.smk) and the beam boards' (rules/mitm.smk), as the
# rules pass them in.
FILES = {"generated": {"puzzle": "results/edgematch/instances/{em_name}.txt",
                       "hints": "results/edgematch/instances/{em_name}.hints.txt",
                       "solution": "results/edgematch/instances/{em_name}.solution.json"},
         "corpus": {"puzzle": "results/edgematch/corpus/{em_name}.txt",
                    "hints": "results/edgematch/corpus/{em_name}.hints.txt"}}
BOARDS = {"beam": "results/mitm/beam/{em_name}_w{beam_width}_s{beam_seed}.json",
          "solution": FILES["generated"]["solution"]}

CONFIG = {
    "mitm_instances": {"t6": {"size": 6, "seed": 1}, "g8": {"size": 8, "seed": 2}},
    "mitm_bench": {"instances": ["t6"], "bands": [2, 3], "sweep": 2, "beam_width": 16, "node_limit": 1000,
                   "timeout": 60},
    "mitm_vs_beam": {"instances": ["g8", "official"], "beam_width": 16, "beam_seeds": [0, 1], "node_limit": 2000,
                     "timeout": 60},
    "mitm_wall": {"instances": ["g8"], "rows": [2], "widths": [4, 8, 12], "beam_width": 16, "memory_budget": "1G",
                  "node_limit": 3000, "timeout": 30},
}


def _insts(have_corpora=False):
    return mp.instances(CONFIG, have_corpora, lambda *p: Path("/nonexistent").joinpath(*p), FILES)


def test_job_tables():
    insts = _insts()
    assert set(insts) == {"t6", "g8"}
    assert mp.missing(CONFIG, insts) == [("mitm_vs_beam", "official")]
    jobs = mp.jobs(CONFIG, insts)
    assert sorted(jobs["mitm_bench"]) == ["t6/beam_r2", "t6/beam_r3", "t6/planted_r2", "t6/planted_r3"]
    planted = jobs["mitm_bench"]["t6/planted_r3"]
    assert mp.board_input(planted, BOARDS) == "results/edgematch/instances/t6.solution.json"
    assert (planted["band"], planted["sweep"], planted["node_limit"]) == ("3:6", 2, 1000)  # planted: band cleared
    assert planted["timeout"] == 60.0
    assert planted["hints"] == "all"
    assert mp.instance_input(insts, "t6")["hints"] == "results/edgematch/instances/t6.hints.txt"
    assert mp.board_input(jobs["mitm_bench"]["t6/beam_r2"], BOARDS) == "results/mitm/beam/t6_w16_s0.json"
    assert sorted(jobs["mitm_vs_beam"]) == ["g8/beam_s0_r2", "g8/beam_s1_r2"]
    # widths beyond the board are dropped
    assert sorted(jobs["mitm_wall"]) == ["g8/beam_r2_w4", "g8/beam_r2_w8"]
    wall = jobs["mitm_wall"]["g8/beam_r2_w4"]
    assert (wall["band"], wall["cols"]) == ("6:8", "0:4")
    assert wall["memory_budget"] == "1G"
    assert mp.board_input(jobs["mitm_vs_beam"]["g8/beam_s1_r2"], BOARDS) == "results/mitm/beam/g8_w16_s1.json"
    assert {**mp.instance_input(insts, wall["instance"]), "board": mp.board_input(wall, BOARDS)} == {
        "puzzle": "results/edgematch/instances/g8.txt", "hints": "results/edgematch/instances/g8.hints.txt",
        "board": "results/mitm/beam/g8_w16_s0.json"}
    runs = {"planted": "results/{mitm_exp}/runs/{mitm_inst}/planted_r{mitm_rows}.json",
            "beam": "results/{mitm_exp}/runs/{mitm_inst}/beam_{mitm_variant}.json"}
    assert mp.job_files(jobs, "mitm_bench", runs) == [f"results/mitm_bench/runs/{j}.json"
                                                      for j in sorted(jobs["mitm_bench"])]


def test_sat_jobs_beside_the_ratchet():
    config = {**CONFIG, "mitm_vs_beam": {**CONFIG["mitm_vs_beam"], "sat_node_limit": 5000}}
    jobs = mp.jobs(config, _insts())["mitm_vs_beam"]
    assert sorted(jobs) == ["g8/beam_s0_r2", "g8/beam_s0_r2_sat", "g8/beam_s1_r2", "g8/beam_s1_r2_sat"]
    sat, mitm = jobs["g8/beam_s1_r2_sat"], jobs["g8/beam_s1_r2"]
    assert (sat["method"], sat["node_limit"], mitm["node_limit"]) == ("sat", 5000, 2000)
    assert "method" not in mitm and sat["band"] == mitm["band"] and sat["beam"] == mitm["beam"]
    all_jobs = mp.all_jobs({"mitm_vs_beam": jobs})
    wc = type("Wildcards", (), {"mitm_exp": "mitm_vs_beam", "mitm_inst": "g8", "mitm_variant": "s1_r2"})
    assert mp.param(all_jobs, "beam", "method", "mitm")(wc) == "mitm"
    wc.mitm_variant = "s1_r2_sat"
    assert mp.param(all_jobs, "beam", "method", "mitm")(wc) == "sat"


def test_wall_sat_jobs_beside_the_ratchet():
    config = {**CONFIG, "mitm_wall": {**CONFIG["mitm_wall"], "sat_node_limit": 700}}
    jobs = mp.jobs(config, _insts())["mitm_wall"]
    assert sorted(jobs) == ["g8/beam_r2_w4", "g8/beam_r2_w4_sat", "g8/beam_r2_w8", "g8/beam_r2_w8_sat"]
    sat, mitm = jobs["g8/beam_r2_w8_sat"], jobs["g8/beam_r2_w8"]
    assert (sat["method"], sat["node_limit"]) == ("sat", 700) and "method" not in mitm
    assert {k: v for k, v in sat.items() if k not in ("method", "node_limit")} == \
        {k: v for k, v in mitm.items() if k != "node_limit"}
    assert parse_job("g8/beam_r2_w8_sat") == {"instance": "g8", "source": "beam", "seed": None, "rows": 2,
                                              "width": 8, "method": "sat"}


def _report(run_cli, tmp_path, table: str, runs: list, timings: list) -> dict:
    """`edgematch report TABLE` of these runs into tmp_path (scorecard.csv beside): its files by kind."""
    files = {k: tmp_path / f"{k}.{k.lstrip('rm')}" for k in ("csv", "html", "rcsv", "rhtml", "svg", "msvg")}
    code, _, err = run_cli("edgematch", "report", table, *runs, "--timings", *timings,
                           "--memory-budget", "1G", "--csv", files["csv"], "--html", files["html"],
                           "--rounds-csv", files["rcsv"], "--rounds-html", files["rhtml"], "--svg", files["svg"],
                           "--memory-svg", files["msvg"], "--scorecard", tmp_path / "scorecard.csv")
    assert code == 0, err
    return files


def test_wall_report_with_both_methods(tmp_path, run_cli):
    """A narrow band the ratchet cannot finish within its node limit and SAT proves: the table, the
    note per method and the scorecard row (the wall of the tables, the SAT reach beside it)."""
    import pandas as pd
    from mitm_support import scrambled

    from puzzlelab.edgematch.board import save_board
    from puzzlelab.edgematch.puzzle import write_puzzle

    puzzle, board = scrambled(8, 3)
    write_puzzle(tmp_path / "p.txt", puzzle)
    save_board(tmp_path / "b.json", board)
    runs, timings = [], []
    for width in (4, 8):
        for method, limit in (("mitm", "2000"), ("sat", "100000")):
            label = f"s8/beam_r2_w{width}" + ("_sat" if method == "sat" else "")
            out, tim = tmp_path / f"{len(runs)}.json", tmp_path / f"{len(runs)}.t.json"
            code, _, err = run_cli("edgematch", "mitm", tmp_path / "p.txt", "--board", tmp_path / "b.json",
                                   "--method", method, "--band=6:8", "--cols", f"0:{width}", "--node-limit", limit,
                                   "--label", label, "--out", out, "--timing", tim)
            assert code == 0, err
            runs.append(str(out))
            timings.append(str(tim))
    files = _report(run_cli, tmp_path, "mitm_wall", runs, timings)
    df = pd.read_csv(files["csv"])
    assert list(df["method"]) == ["mitm", "mitm", "sat", "sat"] and list(df["width"]) == [4, 8, 4, 8]
    sat = df[df["method"] == "sat"]
    assert list(sat["proven"]) == ["yes", "yes"] and sat["CNF MiB"].notna().all() and sat["table MiB"].isna().all()
    mitm = df[df["method"] == "mitm"]
    for (_, m), (_, s) in zip(mitm.iterrows(), sat.iterrows(), strict=True):  # the same band, never better
        assert m["lower bound"] <= s["optimum"] <= m["best found"]
    assert (mitm["proven"] == "no").any()  # the ratchet's node limit is too small for the wider band
    html = files["html"].read_text()
    assert "s8, SAT (CaDiCaL): largest band proven 2x8" in html and "s8, meet in the middle: " in html
    card = pd.read_csv(tmp_path / "scorecard.csv", dtype=str, keep_default_na=False)
    assert card["ours"][0].startswith("the node limit (time) at 2x8") and card["verdict"][0] == "missed"
    assert card["ours"][0].endswith("; SAT (CaDiCaL) proves 2/2 bands (2 rows to width 8)")


def test_corpus_instances_when_present(tmp_path):
    (tmp_path / "e2").mkdir()
    (tmp_path / "e2" / "e2pieces.txt").write_text("0 0 1 1\n")
    insts = mp.instances(CONFIG, True, lambda *p: tmp_path.joinpath(*p), FILES)
    assert insts["official"]["hints"] == "start" and insts["official"]["size"] == 16
    assert "brendan16" not in insts
    jobs = mp.jobs(CONFIG, insts)
    assert "official/beam_s0_r2" in jobs["mitm_vs_beam"]
    job = jobs["mitm_vs_beam"]["official/beam_s0_r2"]
    assert {**mp.instance_input(insts, "official"), "board": mp.board_input(job, BOARDS)} == {
        "puzzle": "results/edgematch/corpus/official.txt", "hints": "results/edgematch/corpus/official.hints.txt",
        "board": "results/mitm/beam/official_w16_s0.json"}


def test_parse_job():
    assert parse_job("g16a/beam_s1_r2") == {"instance": "g16a", "source": "beam", "seed": 1, "rows": 2,
                                            "width": None, "method": "mitm"}
    assert parse_job("g16a/beam_r3_w12") == {"instance": "g16a", "source": "beam", "seed": None, "rows": 3,
                                             "width": 12, "method": "mitm"}
    assert parse_job("official/beam_s0_r2_sat") == {"instance": "official", "source": "beam", "seed": 0, "rows": 2,
                                                    "width": None, "method": "sat"}
    assert parse_job("t10a/planted_r4")["source"] == "planted"


def test_growth_uses_only_independent_counts():
    res = {"rounds": [
        {"budget": 0, "phase": "ratchet", "status": "found", "first": "lower", "upper_partials": 3,
         "lower_partials": 2},
        {"budget": 1, "phase": "sweep", "status": "sweep", "first": None, "upper_partials": 30, "lower_partials": 8},
        {"budget": 2, "phase": "sweep", "status": "sweep", "first": None, "upper_partials": 1200,
         "lower_partials": 32},
    ]}
    assert independent(res, "upper") == [(1, 30), (2, 1200)]  # round 0's upper was partner-pruned
    assert independent(res, "lower") == [(0, 2), (1, 8), (2, 32)]
    assert growth(independent(res, "upper")) == pytest.approx(40.0)
    assert growth(independent(res, "lower")) == pytest.approx(4.0)
    assert growth([(0, 5)]) is None


def test_report_from_real_runs(tmp_path, run_cli):
    from puzzlelab.edgematch.board import Board, save_board
    from puzzlelab.edgematch.generate import generate
    from puzzlelab.edgematch.puzzle import write_puzzle

    puzzle, solution = generate(6, seed=4)
    write_puzzle(tmp_path / "p.txt", puzzle)
    save_board(tmp_path / "sol.json", solution)
    board = Board(solution.piece.copy(), solution.rot.copy())
    board.piece[4, [1, 2]] = board.piece[4, [2, 1]]  # a worse band to re-solve
    save_board(tmp_path / "worse.json", board)
    runs, timings = [], []
    for label, board_file, extra in (("t6/planted_r2", "sol.json", ["--clear-band", "--sweep-budget", "2"]),
                                     ("t6/beam_r2", "worse.json", [])):
        out, tim = tmp_path / f"{len(runs)}.json", tmp_path / f"{len(runs)}.t.json"
        code, _, err = run_cli("edgematch", "mitm", tmp_path / "p.txt", "--board", tmp_path / board_file,
                               "--band", "4:6", "--label", label, "--out", out, "--timing", tim, *extra)
        assert code == 0, err
        runs.append(str(out))
        timings.append(str(tim))
    files = _report(run_cli, tmp_path, "mitm_bench", runs, timings)
    import pandas as pd

    card = pd.read_csv(tmp_path / "scorecard.csv", dtype=str, keep_default_na=False)
    assert list(card["seed"]) == ["004"] * 4 and set(card["link"]) == {str(files["html"])}
    assert card["verdict"][0] == "reproduced" and card["ours"][0] == "1/1 proven 0 (2 rows)"  # the planted band
    assert card["verdict"][1] == "reproduced" and card["ours"][1].startswith("1/1 proven (optimum ")
    assert card["ours"][2].endswith("(2-row band, planted)")  # the only band with a sweep
    assert card["verdict"][2] in {"reproduced", "missed"}
    assert card["verdict"][3] == "not run here"  # the frameless 437 board
    summary = files["csv"].read_text().splitlines()
    assert summary[0].startswith("instance,source,rows,pieces,before,optimum")
    planted = next(line for line in summary if ",planted," in line).split(",")
    assert planted[5] == "0" and planted[7] == "yes"  # optimum 0, proven
    beam = next(line for line in summary if ",beam," in line).split(",")
    assert beam[7] == "yes" and int(beam[5]) <= int(beam[4])  # never worse than the band it was given
    assert files["svg"].read_text().startswith("<?xml")
    rounds = files["rcsv"].read_text().splitlines()
    assert len(rounds) == 1 + sum(len(json.loads(Path(r).read_text())["rounds"]) for r in runs)


def test_report_rejects_foreign_files(tmp_path, run_cli):
    bad = tmp_path / "x.json"
    bad.write_text('{"score": 3}')
    out = [str(tmp_path / f"o{k}.{x}") for k, x in enumerate(("csv", "html", "csv", "html", "svg", "svg"))]
    code, _, err = run_cli("edgematch", "report", "mitm_wall", bad, "--csv", out[0], "--html", out[1],
                           "--rounds-csv", out[2], "--rounds-html", out[3], "--svg", out[4], "--memory-svg", out[5])
    assert code == 2 and "x.json" in err and "not a result" in err


def test_report_wants_svg_figures(tmp_path, run_cli):
    out = [str(tmp_path / f"o{k}.{x}") for k, x in enumerate(("csv", "html", "csv", "html", "png", "svg"))]
    code, _, err = run_cli("edgematch", "report", "mitm_wall", tmp_path / "none.json", "--csv", out[0],
                           "--html", out[1], "--rounds-csv", out[2], "--rounds-html", out[3], "--svg", out[4],
                           "--memory-svg", out[5])
    assert code == 2 and ".svg" in err


def _merged(name: str) -> dict:
    """config.yaml with the overrides of config/<name> on top (Snakemake's recursive merge)."""
    import yaml
    from snakemake.utils import update_config

    from conftest import REPO

    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config" / name).read_text()))
    return cfg


@pytest.mark.parametrize("name", ["config.yaml", "quick.yaml", "test.yaml"])
def test_beam_jobs_cover_every_seed_once(name):
    from puzzlelab.edgematch.search import pipeline

    cfg = _merged(name)
    insts = pipeline.instances(cfg, True, lambda *p: Path("/nonexistent").joinpath(*p), FILES)  # no official set here
    table = pipeline.jobs(cfg, insts)
    assert set(table) == set(pipeline.EXPERIMENTS)
    for exp, jobs in table.items():
        assert jobs, (name, exp)
        seeds = {}
        for job_id, job in jobs.items():
            assert job["label"] == job["instance"]
            key = job_id.rsplit("_s", 1)[0]
            a, b = job["seeds"].split("-")
            seeds.setdefault(key, []).extend(range(int(a), int(b) + 1))
        for key, got in seeds.items():
            assert sorted(got) == list(range(len(got))), (exp, key)  # every seed once
    assert pipeline._chunks(10, 4) == ["0-3", "4-7", "8-9"]


EDGEMATCH_TARGETS = ["beam_width", "beam_orders", "beam_ties", "beam_dedup", "beam_vs_dfs_lds", "beam_factory",
                     "mitm_bench", "mitm_vs_beam", "mitm_wall"]


@pytest.mark.parametrize("name", ["quick.yaml", "test.yaml"])
def test_pipeline_jobs_parse_as_commands(name, tmp_path):
    """Every `puzzlelab edgematch` command the rules would run (a dry run prints them) parses."""
    import shlex
    import shutil
    import subprocess
    import sys

    from conftest import CORPORA, REPO
    from puzzlelab.cli import build_parser

    for item in ("Snakefile", "rules", "config", "profiles", "report", "envs", "data"):
        src = REPO / item
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, tmp_path / item)
    done = subprocess.run([sys.executable, "-m", "snakemake", "-n", "-p", *EDGEMATCH_TARGETS, "--configfile",
                           f"config/{name}", "--config", f"corpora_dir={CORPORA}"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    commands = [line.split("puzzlelab ", 1)[1].split(" > ")[0].split(" 2> ")[0]
                for line in done.stdout.splitlines() if "puzzlelab edgematch " in line]
    kinds = {shlex.split(c)[1] for c in commands}
    assert {"generate", "sweep", "beam", "mitm", "report"} <= kinds, kinds
    for command in commands:
        args = build_parser().parse_args(shlex.split(command))
        assert args.handler is not None
