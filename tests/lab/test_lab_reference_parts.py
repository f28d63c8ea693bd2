"""A reference run made in parts: each part replaces its experiments and keeps the others."""

import pandas as pd

from puzzlelab.lab import canonical, manifest, readme, reference
from puzzlelab.lab.scorecard import COLUMNS


def _rows(*specs):
    return pd.DataFrame([{"seed": seed, "figure": fig, "article": "a", "ours": ours, "peer": "", "verdict":
                          "reproduced", "link": f"results/{exp}/t.html"} for seed, fig, ours, exp in specs],
                        columns=COLUMNS)


def test_scorecard_part_replaces_its_experiment_and_keeps_the_order_of_a_whole_run():
    old = _rows(("000", "f1", "1", "bfs_layers"), ("001", "b1", "old", "beam_width"),
                ("001", "b2", "2", "beam_factory"))
    new = reference.merge_scorecard(old, {"beam_width": _rows(("001", "b1", "new", "beam_width"),
                                                              ("001", "b3", "3", "beam_width"))})
    assert list(new["figure"]) == ["f1", "b2", "b1", "b3"]  # seed order, experiments by name within a seed
    assert list(new["ours"]) == ["1", "2", "new", "3"]
    whole = reference.merge_scorecard(None, {"bfs_layers": old.iloc[[0]], "beam_factory": old.iloc[[2]],
                                             "beam_width": _rows(("001", "b1", "new", "beam_width"),
                                                                 ("001", "b3", "3", "beam_width"))})
    assert whole.equals(new)


def test_manifest_part_replaces_its_experiments_merges_shared_folders_and_skips_unfinished_ones():
    old = {"experiments": {"beam_width": {"beam_width/a.json": "1", "beam_width/gone.json": "9"},
                           "edgematch": {"edgematch/i1.txt": "5"}, "bfs_layers": {"bfs_layers/x.csv": "7"}}}
    new = {"label": "full", "versions": {}, "artifacts": 0,
           "experiments": {"beam_width": {"beam_width/a.json": "2"}, "edgematch": {"edgematch/i2.txt": "6"},
                           "beam_factory": {"beam_factory/half.json": "3"}}}
    known = {"beam_width", "beam_factory", "bfs_layers"}
    m = reference.merge_manifest(old, new, ["beam_width"], known)
    assert m["experiments"] == {"beam_width": {"beam_width/a.json": "2"},
                                "bfs_layers": {"bfs_layers/x.csv": "7"},
                                "edgematch": {"edgematch/i1.txt": "5", "edgematch/i2.txt": "6"}}
    assert m["artifacts"] == 4


def test_a_part_records_only_what_its_jobs_made(tmp_path, monkeypatch):
    """Files another config left in results/ (its instances, its running search) stay out of the part."""
    results = tmp_path / "results"
    for rel in ("mitm_vs_beam/runs/g16a/beam_s0_r2.json", "mitm/beam/g16a_w512_s0.json",
                "mitm/beam/official_w4096_s0.json", "snakebird_deep/levels/corpus/levelstar6.txt",
                "determinism/mitm_vs_beam.json", "determinism/snakebird_deep.json", "bfs_deep/tables/d.csv"):
        (results / rel).parent.mkdir(parents=True, exist_ok=True)
        (results / rel).write_text(rel)
    made = {str(results / rel) for rel in ("mitm_vs_beam/runs/g16a/beam_s0_r2.json", "mitm/beam/g16a_w512_s0.json",
                                           "determinism/mitm_vs_beam.json", "bfs_deep/tables")}  # a folder too
    m = manifest.only(manifest.build(results, "quick"), made, results)
    assert {rel for files in m["experiments"].values() for rel in files} == {
        "mitm_vs_beam/runs/g16a/beam_s0_r2.json", "mitm/beam/g16a_w512_s0.json", "determinism/mitm_vs_beam.json",
        "bfs_deep/tables/d.csv"}
    assert m["artifacts"] == 4 and "snakebird_deep" not in m["experiments"]


def test_run_record_sums_its_parts_and_a_rerun_part_replaces_the_earlier_one():
    def part(exps, cpu, date):
        return {"label": "full", "jobs": 10, "cpu_hours": cpu, "elapsed_hours": cpu / 2, "peak_job_rss_gb": cpu,
                "machine": "m", "date": date, "experiments": exps, "commit": "c"}

    known = ["a", "b", "c"]
    run = reference.merge_run(None, part(["a"], 1.0, "2026-01-01"), known)
    run = reference.merge_run(run, part(["b"], 2.0, "2026-01-02"), known)
    assert (run["cpu_hours"], run["elapsed_hours"], run["complete"], run["missing"]) == (3.0, 1.5, False, ["c"])
    run = reference.merge_run(run, part(["a", "c"], 4.0, "2026-01-03"), known)
    assert [p["experiments"] for p in run["parts"]] == [["b"], ["a", "c"]]
    assert (run["cpu_hours"], run["jobs"], run["peak_job_rss_gb"], run["complete"]) == (6.0, 20, 4.0, True)


def test_a_part_rerun_after_a_whole_run_keeps_the_rest_of_it():
    # A run recorded whole, then two of its experiments run again as a part: the whole run stays as a
    # part over the other experiments, less the re-run experiments' jobs and CPU in its cost table.
    whole = {"label": "quick", "jobs": 310, "cpu_hours": 0.33, "elapsed_hours": 1.2, "peak_job_rss_gb": 1.28,
             "machine": "m"}
    part = {"label": "quick", "jobs": 81, "cpu_hours": 0.03, "elapsed_hours": 0.06, "peak_job_rss_gb": 0.85,
            "machine": "m", "date": "2026-12-02", "experiments": ["b", "c"], "commit": "c"}
    run = reference.merge_run(whole, part, ["a", "b", "c"], {"b": (50, 360.0), "c": (30, 180.0), "d": (9, 9.0)})
    first, second = run["parts"]
    assert first["experiments"] == ["a"] and first["rerun_later"] == ["b", "c"]
    assert (first["jobs"], first["cpu_hours"], first["elapsed_hours"]) == (230, 0.18, 0.65)
    assert second == part
    assert (run["jobs"], run["cpu_hours"], run["complete"], run["missing"]) == (311, 0.21, True, [])


def test_readme_row_of_an_unfinished_run_in_parts_says_so(tmp_path):
    run = {"label": "full", "jobs": 12, "cpu_hours": 3.5, "elapsed_hours": 2.0, "peak_job_rss_gb": 1,
           "machine": "2 cores", "complete": False, "experiments_done": 2, "experiments_total": 24,
           "missing": [], "parts": [{}]}
    canonical.write_json(tmp_path / "full" / "run.json", run)
    row = next(line for line in readme.block(tmp_path).splitlines() if "`make reproduce`" in line)
    assert "not yet measured end to end: 2 of 24 experiments so far, 12 jobs, 3.5 CPU-hours" in row
    run.update(complete=True, parts=[{}, {}, {}])
    canonical.write_json(tmp_path / "full" / "run.json", run)
    row = next(line for line in readme.block(tmp_path).splitlines() if "`make reproduce`" in line)
    assert row == "| `make reproduce` | 12 jobs, 3.5 CPU-hours | 2.0 h wall on 2 cores, in 3 parts |"


def test_a_part_that_has_not_finished_says_what_is_left():
    from puzzlelab.lab.cost import Job

    left = [Job("beam_solve"), Job("beam_solve"), Job("determinism"), Job("beam_width")]
    assert reference.unfinished_message(left, ["beam_width"]) == (
        "not finished: 4 jobs left (beam_solve, beam_width, determinism); "
        "run `snakemake --cores N beam_width` first")


def test_scorecard_links_name_their_experiment():
    assert reference.link_experiment("results/nonogram_bench/summary.html") == "nonogram_bench"
    assert reference.link_experiment("") == ""


def test_the_experiments_of_a_config_are_those_make_experiments_lists(monkeypatch):
    from conftest import REPO

    monkeypatch.chdir(REPO)
    names = reference.configured_experiments("config/test.yaml")
    assert {"beam_width", "nonogram_bench", "snakebird_levels", "bfs_deep", "balda_tournament"} <= set(names)
    assert names == sorted(names) and all(" " not in n for n in names)


def test_a_job_that_resumed_a_checkpoint_costs_its_whole_search(tmp_path):
    import json

    from puzzlelab.lab.cost import Job, measure

    bench = tmp_path / "solve.tsv"
    bench.write_text("s\th:m:s\tmax_rss\tcpu_time\n600.0\t0:10:00\t900.0\t590.0\n")
    timing = tmp_path / "level.timing.json"
    job = Job("snakebird_solve", outputs=[str(tmp_path / "level.json"), str(timing)], benchmark=str(bench))
    timing.write_text(json.dumps({"time_s": 500.0, "cpu_s": 480.0, "resumed_from_depth": None}))
    row = measure([job], "full").iloc[0]
    assert (row.cpu_s, row.wall_s, row.max_rss_mb) == (590.0, 600.0, 900.0)  # one run: its benchmark
    # resumed: the benchmark saw only the last run, the timing file counts the earlier ones too
    timing.write_text(json.dumps({"time_s": 3000.0, "cpu_s": 2900.5, "resumed_from_depth": 58}))
    row = measure([job], "full").iloc[0]
    assert (row.cpu_s, row.wall_s, row.max_rss_mb) == (2900.5, 3000.0, 900.0)


def test_a_run_that_resumed_a_checkpoint_counts_the_earlier_runs_of_that_job(tmp_path):
    import json

    from puzzlelab.lab.cost import Job, resumed_benchmarks

    bench_dir = tmp_path / "benchmarks" / "snakebird_deep" / "snakebird_solve"
    bench_dir.mkdir(parents=True)
    bench = bench_dir / "star.tsv"
    bench.write_text("s\th:m:s\tmax_rss\tcpu_time\n3600.0\t1:00:00\t900.0\t3500.0\n")
    timing = tmp_path / "star.timing.json"
    job = Job("snakebird_solve", outputs=[str(timing)], benchmark=str(bench))
    timing.write_text(json.dumps({"time_s": 3600.0, "cpu_s": 3500.0, "resumed_from_depth": None}))
    assert resumed_benchmarks([job]) == {}
    assert readme.measure_run(tmp_path / "benchmarks", "full")["cpu_hours"] == round(3500 / 3600, 2)
    timing.write_text(json.dumps({"time_s": 9000.0, "cpu_s": 8640.0, "resumed_from_depth": 67}))
    whole = resumed_benchmarks([job])
    assert whole == {str(bench): (9000.0, 8640.0)}
    run = readme.measure_run(tmp_path / "benchmarks", "full", whole=whole)
    assert (run["jobs"], run["cpu_hours"], run["elapsed_hours"]) == (1, 2.4, 2.5)
