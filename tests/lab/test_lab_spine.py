"""The spine's own pieces: config checking, locks, manifests, cost plans, scorecards, input reading."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given

from conftest import REPO
from fuzz_support import Scratch, assert_clean, fuzz_settings, mutated, run_forked, seed_files
from puzzlelab.lab import configcheck, cost, locks, manifest, scorecard
from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.textio import read_text

SCHEMA = REPO / "config" / "schema.yaml"
BASE = str(REPO / "config" / "config.yaml")


# ---------------------------------------------------------------- config


def _overlay(tmp_path, text: str) -> str:
    p = tmp_path / "overlay.yaml"
    p.write_text(text)
    return str(p)


def test_shipped_configs_are_valid():
    for overlay in ("quick.yaml", "test.yaml"):
        assert configcheck.check([BASE, str(REPO / "config" / overlay)], SCHEMA) == []
    assert configcheck.check([BASE], SCHEMA) == []


def test_misspelled_key_in_a_section_is_named_with_its_line(tmp_path):
    f = _overlay(tmp_path, "label: x\nnonogram_bench:\n  timeuot: 10\n")
    assert configcheck.check([BASE, f], SCHEMA) == [
        f"{f}:3: unknown key 'timeuot' in section nonogram_bench (did you mean 'timeout'?)"]


def test_misspelled_section_and_missing_section(tmp_path):
    f = _overlay(tmp_path, "nonogram_bnech: {timeout: 5}\n")
    problems = configcheck.check([BASE, f], SCHEMA)
    assert problems == [f"{f}:1: unknown section 'nonogram_bnech' (did you mean 'nonogram_bench'?)"]
    base = tmp_path / "base.yaml"
    base.write_text(Path(BASE).read_text().replace("\nsnakebird_levels:", "\nsnakebird_levelz:"))
    problems = configcheck.check([str(base)], SCHEMA)
    assert any("unknown section 'snakebird_levelz'" in p for p in problems)
    assert f"{base}: missing required section 'snakebird_levels'" in problems


def test_wrong_type_is_located_in_the_file_that_set_it(tmp_path):
    f = _overlay(tmp_path, "determinism:\n  sample: many\n")
    (problem,) = configcheck.check([BASE, f], SCHEMA)
    assert problem.startswith(f"{f}:2: determinism.sample: ")
    assert "integer" in problem


def test_broken_yaml_is_located(tmp_path):
    f = _overlay(tmp_path, "label: [unclosed\n")
    (problem,) = configcheck.check([BASE, f], SCHEMA)
    assert problem.startswith(f"{f}:") and "not valid YAML" in problem


def test_snakemake_dry_run_names_a_misspelled_key(tmp_path):
    import subprocess
    import sys

    f = _overlay(tmp_path, "nonogram_bench:\n  timeuot: 10\n")
    done = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--configfile", f], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "unknown key 'timeuot' in section nonogram_bench" in done.stderr
    assert f"{f}:2:" in done.stderr
    assert "Traceback" not in done.stderr


CONFIG_SEEDS = [p.read_bytes() for p in sorted((REPO / "config").glob("*.yaml")) if p.name != "schema.yaml"]


@fuzz_settings()
@given(mutated(CONFIG_SEEDS))
def test_fuzz_config_files(data):
    scratch = Scratch()
    try:
        f = scratch.write("overlay.yaml", data)
        outcome = run_forked(["lab", "check-config", BASE, str(f), "--schema", str(SCHEMA)])
        assert_clean(outcome, None, data)
    finally:
        scratch.close()


# ---------------------------------------------------------------- locks


def _lock(root: Path, owner: dict | None):
    d = root / locks.LOCK_DIR
    d.mkdir(parents=True)
    (d / "0.input.lock").write_text("a\n")
    if owner is not None:
        (root / locks.OWNER).write_text(json.dumps(owner))


def test_lock_of_a_dead_process_is_cleared(tmp_path):
    _lock(tmp_path, {"host": socket.gethostname(), "boot_id": locks._boot_id(), "pid": 2**22 + 12345,
                     "start": "1"})
    assert locks.lock_is_stale(tmp_path) is True
    assert locks.clear_stale_locks(tmp_path, log=open(os.devnull, "w"))
    assert not list((tmp_path / locks.LOCK_DIR).glob("*.lock"))


def test_lock_of_a_live_process_or_another_host_is_kept(tmp_path):
    me = {"host": socket.gethostname(), "boot_id": locks._boot_id(), "pid": os.getpid(),
          "start": locks._start_ticks(os.getpid())}
    _lock(tmp_path / "a", me)
    assert locks.lock_is_stale(tmp_path / "a") is False
    _lock(tmp_path / "b", {**me, "host": "elsewhere", "pid": 1})
    assert locks.lock_is_stale(tmp_path / "b") is False
    assert not locks.clear_stale_locks(tmp_path / "b")
    assert locks.lock_is_stale(tmp_path / "c") is None


def test_lock_without_owner_record_asks_the_process_table(tmp_path):
    _lock(tmp_path, None)
    assert locks.lock_is_stale(tmp_path) is True  # no Snakemake runs in this fresh folder


# ---------------------------------------------------------------- manifest


def _results(root: Path):
    for rel, text in {"exp/runs/a.json": "1", "exp/runs/a.timing.json": "9", "exp/table.csv": "x",
                      "exp/scorecard.csv": "s", "logs/exp/a.log": "l", "report/scorecard.csv": "r",
                      "benchmarks/exp/r/a.tsv": "b", ".config/effective.json": "{}", "determinism/exp.json": "d",
                      "exp/checkpoints/set/level/depth-000003/layer-0.blk": "c", "exp/spill/run-1.bin": "w",
                      "exp/reference/a.peer.json": "p", "exp/reference/a.peer.timing.json": "t",
                      }.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_manifest_covers_artifacts_only_and_compares(tmp_path):
    _results(tmp_path)
    m = manifest.build(tmp_path, "t")
    assert {p for files in m["experiments"].values() for p in files} == {
        "exp/runs/a.json", "exp/table.csv", "determinism/exp.json"}
    assert manifest.compare(m, tmp_path)["different"] == []
    (tmp_path / "exp/table.csv").write_text("y")
    (tmp_path / "exp/runs/a.json").unlink()
    (tmp_path / "exp/runs/a.timing.json").write_text("changed")
    diff = manifest.compare(m, tmp_path)
    assert diff["different"] == ["exp/table.csv"] and diff["missing"] == ["exp/runs/a.json"]


# ---------------------------------------------------------------- cost


DRY_RUN = """\
rule mk:
    output: results/exp/a1.txt, results/exp/a1.timing.txt
    jobid: 1
    benchmark: results/benchmarks/exp/mk/1.tsv
    wildcards: n=1
    threads: 2
    resources: tmpdir=/tmp
Shell command: puzzlelab x --seeds 4 --width 256 --out results/exp/a1.txt

localrule table:
    output: results/exp/t.csv
    jobid: 2
Shell command: puzzlelab y
"""


def test_dry_run_jobs_and_their_price(tmp_path):
    jobs = cost.parse_dry_run(DRY_RUN)
    assert [(j.rule, j.threads, j.experiment, j.key, j.scale) for j in jobs] == [
        ("mk", 2, "exp", "results/benchmarks/exp/mk/1.tsv", 1024.0),
        ("table", 1, "exp", "results/exp/t.csv", 1.0)]
    table = pd.DataFrame([["full", "mk", "exp", "results/benchmarks/exp/mk/1.tsv", "", 2, 1024, 100.0, 60.0, 500.0,
                           1.0]], columns=cost.COST_COLUMNS)
    assert cost.Pricer(table, "full").price(jobs[0]).source == "measured"
    # measured at 2 threads, planned at 4: same CPU time, wall time by Amdahl's law
    table.loc[0, "threads"] = 2
    jobs[0].threads = 4
    at4 = cost.Pricer(table, "full").price(jobs[0])
    p = cost.PARALLEL_FRACTION
    assert at4.cpu_s == 100.0 and at4.wall_s == pytest.approx(60.0 * (1 - p + p / 4) / (1 - p + p / 2))
    jobs[0].threads = 2
    assert cost.Pricer(table, "full").price(jobs[0]).wall_s == pytest.approx(60.0)
    other = cost.Pricer(table, "quick").price(jobs[0])
    assert other.source == "rule" and other.cpu_s == pytest.approx(100.0)
    assert cost.Pricer(table, "full").price(jobs[1]).source == "default"
    # the same command line measured under another config is a measurement of this job
    table.loc[0, ["label", "job", "command"]] = ["quick", "elsewhere.tsv", jobs[0].command]
    assert cost.Pricer(table, "full").price(jobs[0]).source == "measured"


def test_size_flags_count_ranges_and_lists():
    assert cost.size_scale("x --seeds 64-71 --width 16384") == 8 * 16384
    assert cost.size_scale("x --seeds 0,1,5-6 --node-limit 1000") == 4
    assert cost.size_scale("x --seed 3 --memory-budget 2G") == 1
    assert cost.size_scale("x --count 12 --limit 3") == 36


def test_a_rule_that_runs_to_its_limit_is_priced_by_it():
    text = DRY_RUN.replace("resources: tmpdir=/tmp", "resources: tmpdir=/tmp, runs_to_limit=1, mem_mb=9")
    text = text.replace("--width 256", "--width 256 --node-limit 1000")
    job = cost.parse_dry_run(text)[0]
    assert job.runs_to_limit and job.scale == 4 * 256 * 1000
    assert cost.size_scale("x --node-limit 1000 --work-limit 7", runs_to_limit=True) == 7000
    # a committed row's size follows the model: rescaled from a dry run of the same job
    table = pd.DataFrame([["full", "mk", "exp", job.key, "", 2, 1024, 100.0, 60.0, 500.0, 1.0],
                          ["quick", "mk", "exp", job.key, "", 2, 1024, 1.0, 1.0, 5.0, 1.0]], columns=cost.COST_COLUMNS)
    out = cost.rescale(table, [job], "full")
    assert list(out["scale"]) == [4 * 256 * 1000, 1024]
    # a job of ten times the limit is priced at ten times the work above the rule's start-up
    bigger = cost.parse_dry_run(text.replace("--node-limit 1000", "--node-limit 10000"))[0]
    start_up = cost.START_UP_S
    assert cost.Pricer(out.iloc[:1], "other").price(bigger).cpu_s == pytest.approx(start_up + (100 - start_up) * 10)


def test_a_job_is_scaled_from_the_measurement_nearest_in_size():
    # start-up 1 s (the cheapest job); work above it linear in the size, from the nearest size
    seen = [(1.0, 1.0, 100.0, 0.0, 1.0), (11.0, 11.0, 100.0, 0.0, 100.0), (101.0, 101.0, 300.0, 0.0, 1000.0)]
    assert cost.scaled(seen, 2000.0)[0] == pytest.approx(1 + 100 * 2)
    assert cost.scaled(seen, 200.0)[0] == pytest.approx(1 + 10 * 2)
    assert cost.scaled(seen, 1000.0)[2] == 300.0


def test_makespan_packs_jobs_on_cores():
    assert cost.makespan([(10, 1), (10, 1), (10, 1), (10, 1)], 2) == 20
    assert cost.makespan([(30, 1), (10, 1), (10, 1), (10, 1)], 2) == 30
    assert cost.makespan([(10, 2), (10, 1)], 2) == 20


def test_benchmark_file_is_read(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_text("s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
                 "2.5\t0:00:02\t120.5\t200\t1\t1\t0\t0\t90\t2.25\n")
    assert cost.read_benchmark(p) == {"wall_s": 2.5, "cpu_s": 2.25, "max_rss_mb": 120.5}


# ---------------------------------------------------------------- scorecard, errors, text


def test_verdicts():
    assert scorecard.verdict(455, 455) == "reproduced"
    assert scorecard.verdict(461, 460) == "beaten"
    assert scorecard.verdict(1.2, 1.0, better="lower") == "missed"
    assert scorecard.verdict(89, 90, better="equal") == "missed"
    assert scorecard.verdict(None, 3) == "not run here"
    with pytest.raises(ValueError):
        scorecard.Row("009", "x", "1", "1")


def test_scorecard_html_escapes_and_links(tmp_path):
    rows = [scorecard.Row("002", "a&b<c>", "1", "2", verdict="beaten", link="results/x/summary.html")]
    scorecard.write_rows(rows, tmp_path / "s.csv")
    html = scorecard.to_html(scorecard.read_rows([tmp_path / "s.csv"]))
    assert "a&amp;b&lt;c&gt;" in html and "a&b<c>" not in html
    assert "app.showResultInfo('results%2Fx%2Fsummary.html')" in html


def test_quote_and_one_line_messages():
    long = "9" * 10_000_000
    q = quote(long)
    assert len(q) < 120 and "10000000 characters" in q
    assert str(InputError("a\nb\tc", "p", 3)) == "p:3: a b c"


def test_read_text_locates_the_first_bad_byte(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes(b"ok\n# comment \xff\n")
    with pytest.raises(InputError) as err:
        read_text(p)
    assert str(err.value).startswith(f"{p}:2: not UTF-8 text: byte 0xff at column 11")
    with pytest.raises(InputError, match="is a directory"):
        read_text(tmp_path)
    with pytest.raises(InputError, match="no such"):
        read_text(tmp_path / "missing")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(InputError) as err:
        read_text(loop)
    assert str(err.value).startswith(str(loop))
    p.write_bytes(b"a\x00b")
    with pytest.raises(InputError, match="binary"):
        read_text(p)


def test_fuzz_harness_accepts_a_located_error():
    """The harness itself: a missing file is exit 2 with one located line."""
    outcome = run_forked(["lab", "check-config", "/nonexistent/config.yaml"])
    assert assert_clean(outcome) == "error"
    assert seed_files("config/*.yaml")


def test_readme_measured_figures_are_generated():
    """README.md's measured table is exactly what reference/ says (`puzzlelab lab readme`)."""
    from puzzlelab.lab import readme

    assert readme.current(REPO / "README.md") == readme.block(REPO / "reference")
    assert len((REPO / "README.md").read_text().splitlines()) < 400


def test_config_text_that_could_break_the_report_is_refused(tmp_path):
    f = _overlay(tmp_path, 'corpora_dir: "</script><b>x"\n')
    (problem,) = configcheck.check([BASE, f], SCHEMA)
    assert problem.startswith(f"{f}:1: corpora_dir: ") and "HTML report" in problem


def test_usage_errors_are_one_line():
    outcome = run_forked(["bfs", "layers", "sliding:3x3", "--no-such-option"])
    assert outcome.code == 2
    assert outcome.stderr.decode().count("\n") == 1 and "--no-such-option" in outcome.stderr.decode()


def test_a_run_made_in_parts_is_charged_its_busy_time_only():
    from puzzlelab.lab.readme import busy_hours

    hour = 3600.0
    # two overlapping jobs, then a pause of a day, then one more job
    assert busy_hours([(0, hour), (0.5 * hour, 1.5 * hour), (30 * hour, 31 * hour)]) == pytest.approx(2.5)
    assert busy_hours([]) == 0


def test_every_job_rule_measures_its_cost():
    """Every rule that runs a job on a worker (not a local aggregation rule) has a `benchmark:` file:
    the cost tables and the report's cost table read them."""
    import re

    missing = []
    for smk in sorted((REPO / "rules").glob("*.smk")):
        text = smk.read_text()
        local = {name.strip().rstrip(",") for block in re.findall(r"^localrules:\n((?:    .*\n)+)", text, flags=re.M)
                 for name in block.splitlines()}
        for block in re.split(r"^(?=rule )", text, flags=re.M)[1:]:
            name = block.split()[1].rstrip(":")
            body = block.split("\n\n\n")[0]
            if "shell:" in body and "benchmark:" not in body and name not in local and "localrule: True" not in body:
                missing.append(f"{smk.name}: {name}")
    assert not missing


def test_helpers_build_no_result_path():
    """Paths under results/ are spelled once, in the rule that writes them: the Snakemake helpers in
    src/ return jobs and wildcards (or fill a pattern they are handed), never a `results/...` path."""
    import re

    helpers = sorted((REPO / "src" / "puzzlelab").rglob("pipeline.py"))
    assert len(helpers) >= 5
    spelled = [f"{p.relative_to(REPO)}:{n}" for p in helpers
               for n, line in enumerate(p.read_text().splitlines(), 1)
               if re.search(r"""["'](results/|\{[^}]*\}/(solve|runs|instances|corpus)/)""", line)]
    assert not spelled


def test_readme_test_row_says_what_else_the_machine_did(tmp_path):
    """A timing of `make test` made on a loaded machine says so (the load average it recorded)."""
    from puzzlelab.lab import canonical, readme

    canonical.write_json(tmp_path / "tests.json", {"tests": 3, "minutes": 1.5, "machine": "2 cores", "load": [4.2, 5]})
    assert "| `make test` | 3 tests | 1.5 min wall on 2 cores (load average 4.2 at the start, 5 at the end) |" in \
        readme.block(tmp_path)
    canonical.write_json(tmp_path / "tests.json", {"tests": 3, "minutes": 1.5, "machine": "2 cores"})
    assert "| `make test` | 3 tests | 1.5 min wall on 2 cores |" in readme.block(tmp_path)


def test_readme_lists_every_dependency():
    """Each package `pip install -e .` brings has its line (and its reason) in README's dependency list."""
    import re
    import tomllib

    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=\[ ;]", d, maxsplit=1)[0].lower() for d in deps}
    text = (REPO / "README.md").read_text()
    section = text.split("## Dependencies", 1)[1].split("\n## ", 1)[0]
    listed = {m.lower() for m in re.findall(r"`([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?`", section)}
    assert names <= listed, sorted(names - listed)
