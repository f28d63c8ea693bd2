"""The pipeline end to end on config/test.yaml, in a copy of the repository (as a clean clone would be)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO
from puzzlelab.lab import manifest

SNAKEMAKE = [sys.executable, "-m", "snakemake"]
COPY = ["Snakefile", "rules", "config", "profiles", "report", "envs", "data", "reference"]
TEST_CONFIG = ["--configfile", "config/test.yaml"]
# The experiment the interrupted-run test kills and resumes (several jobs, quick in test.yaml).
RESUMED = "bfs_layers"


def copy_workflow(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, root / name)
    return root


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A copy of the workflow files; the numba cache is shared with the checkout to save compiling."""
    return copy_workflow(tmp_path_factory.mktemp("pipeline"))


def env() -> dict:
    e = dict(os.environ)
    e["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{e['PATH']}"
    e.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))
    return e


def snakemake(workdir: Path, *args: str, config: list[str] = TEST_CONFIG) -> subprocess.CompletedProcess:
    """`snakemake ARGS... --configfile config/test.yaml`: targets first, as the README writes it."""
    return subprocess.run([*SNAKEMAKE, *args, *config], cwd=workdir, env=env(), capture_output=True, text=True)


def tree(root: Path) -> dict[str, tuple[str, int]]:
    """sha256 and mtime of every file under `root`."""
    from puzzlelab.lab.hashing import sha256_file

    return {str(p.relative_to(root)): (sha256_file(p), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def first_run(workdir):
    done = snakemake(workdir, "--cores", "2")
    assert done.returncode == 0, done.stderr[-6000:]
    return done


def test_full_run_completes_and_is_cached(workdir, first_run):
    again = snakemake(workdir, "--cores", "2", "--dry-run")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Nothing to be done" in again.stdout + again.stderr


def test_determinism_records_all_equal(workdir, first_run):
    records = sorted((workdir / "results" / "determinism").glob("*.json"))
    assert records
    for rec in records:
        data = json.loads(rec.read_text())
        assert data["all_equal"], rec
        assert data["artifacts"], rec
    summary = (workdir / "results" / "report" / "determinism.csv").read_text()
    assert "NO" not in summary.split("\n", 1)[1]


def test_parsing_writes_nothing(workdir, first_run):
    """Dry runs (with another config too), lint, target listing: results/ stays byte for byte the same."""
    before = tree(workdir / "results")
    for args, config in ((["--dry-run"], ["--configfile", "config/quick.yaml"]), (["--dry-run"], TEST_CONFIG),
                         (["--lint"], TEST_CONFIG), (["--list-target-rules"], [])):
        done = snakemake(workdir, *args, config=config)
        assert done.returncode == 0, (args, done.stderr[-2000:])
    assert tree(workdir / "results") == before


def test_one_experiment_by_target_name(workdir, first_run):
    """The README's form: the target first, then --configfile."""
    done = snakemake(workdir, "--cores", "2", RESUMED)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Nothing to be done" in done.stdout + done.stderr


def test_report_builds(workdir, first_run):
    done = snakemake(workdir, "--report", "reports/report.html")
    assert done.returncode == 0, done.stderr[-3000:]
    html = (workdir / "reports" / "report.html").read_text(errors="replace")
    for category in ("Scorecard", "Determinism", "About this run"):
        assert category in html


def test_report_of_the_last_run_needs_no_configfile(workdir, first_run):
    """`snakemake --report FILE` reports the run on disk with that run's own config."""
    done = snakemake(workdir, "--report", "reports/plain.html", config=[])
    assert done.returncode == 0, done.stderr[-3000:]
    assert (workdir / "reports" / "plain.html").stat().st_size > 10_000


def test_scorecard_and_cost_tables(workdir, first_run):
    import pandas as pd

    from puzzlelab.lab.scorecard import COLUMNS, VERDICTS

    card = pd.read_csv(workdir / "results" / "report" / "scorecard.csv", keep_default_na=False)
    assert list(card.columns) == COLUMNS
    assert set(card["verdict"]) <= set(VERDICTS)
    cost = pd.read_csv(workdir / "results" / "report" / "cost.timing.csv")
    assert cost["jobs"].sum() > 0


def test_a_level_gets_its_own_threads_and_memory(workdir, tmp_path):
    """`snakebird_levels.level_resources.<level>` overrides resources.snakebird_solve for that job only."""
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("snakebird_levels:\n  level_resources:\n    portal: {threads: 2, mem_mb: 7777}\n")
    done = snakemake(workdir, "results/snakebird_levels/runs/project/portal.json",
                     "results/snakebird_levels/runs/project/first-steps.json", "--dry-run", "--forceall",
                     "--printshellcmds", "--nocolor", config=[*TEST_CONFIG, str(overlay)])
    assert done.returncode == 0, done.stderr[-2000:]
    solves = [b for b in (done.stdout + done.stderr).split("\n\n") if "rule snakebird_solve:" in b]
    portal = [b for b in solves if "project/portal.json" in b]
    other = [b for b in solves if "project/first-steps.json" in b]
    assert len(portal) == 1 and len(other) == 1
    assert "threads: 2" in portal[0] and "mem_mb=7777" in portal[0] and "NUMBA_NUM_THREADS=2 " in portal[0]
    assert "threads: 2" not in other[0] and "mem_mb=7777" not in other[0] and "NUMBA_NUM_THREADS=1 " in other[0]


def test_deep_levels_are_their_own_experiment(workdir, tmp_path):
    """`snakebird_levels.deep_levels` moves those corpus levels to snakebird_deep, under results/snakebird_deep/."""
    from puzzlelab.snakebird.pipeline import experiment_jobs

    jobs = {"project/portal": "p", "corpus/level01": "a", "corpus/levelstar6": "b"}
    split = experiment_jobs({"deep_levels": ["levelstar6", "portal"]}, jobs)
    assert split == {"snakebird_levels": {"project/portal": "p", "corpus/level01": "a"},
                     "snakebird_deep": {"corpus/levelstar6": "b"}}
    assert experiment_jobs({}, jobs)["snakebird_deep"] == {}
    corpus = REPO.parent / "shared" / "corpora" / "snakebird" / "levels"
    if not (corpus / "level01.txt").exists():
        pytest.skip(f"shared corpora not found at {corpus.parent.parent}: the dry run needs two corpus levels")
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(f"corpora_dir: {corpus.parent.parent}\nreference_solvers: {{snakebird_cpp: ''}}\n"
                       "snakebird_levels:\n  corpus_levels: [level00, level01]\n  deep_levels: [level01]\n")
    done = snakemake(workdir, "snakebird_levels", "snakebird_deep", "--dry-run", "--forceall", "--printshellcmds",
                     "--nocolor", config=[*TEST_CONFIG, str(overlay)])
    assert done.returncode == 0, done.stderr[-2000:]
    text = done.stdout + done.stderr
    assert "results/snakebird_deep/runs/corpus/level01.json" in text
    assert "results/snakebird_levels/runs/corpus/level00.json" in text
    assert "results/snakebird_levels/runs/corpus/level01.json" not in text
    assert "results/snakebird_deep/runs/corpus/level00.json" not in text
    assert "--scorecard-rows deep" in text


def test_experiment_listing(workdir):
    done = subprocess.run([*SNAKEMAKE, "--dry-run", "--quiet", *TEST_CONFIG], cwd=workdir,
                          env={**env(), "PUZZLELAB_LIST_EXPERIMENTS": "1"}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert RESUMED in done.stdout and "_table" not in done.stdout


def test_killed_run_resumes_with_the_same_command(workdir, first_run, tmp_path):
    """SIGKILL a real run (its whole process group, like a lost node), rerun the same command.

    No `--unlock` is needed, and the resumed run's artifacts equal the uninterrupted run's.
    """
    second = copy_workflow(tmp_path / "wf")
    cmd = [*SNAKEMAKE, "--cores", "2", RESUMED, *TEST_CONFIG]
    proc = subprocess.Popen(cmd, cwd=second, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    runs = second / "results" / RESUMED / "runs"
    deadline = time.monotonic() + 600
    while proc.poll() is None and time.monotonic() < deadline:
        if runs.is_dir() and any(runs.glob("*.json")):
            break
        time.sleep(0.2)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert list((second / ".snakemake" / "locks").glob("*.lock")), "the killed run left no lock to clear"

    resumed = subprocess.run(cmd, cwd=second, env=env(), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr[-4000:]
    assert "removed the lock of an interrupted run" in resumed.stderr

    want = manifest.collect(workdir / "results").get(RESUMED)
    have = manifest.collect(second / "results").get(RESUMED)
    assert want and have == want


def test_verify_against_a_manifest(workdir, first_run, tmp_path):
    """`lab verify` passes on the run that made the manifest and fails when one artifact changes."""
    m = tmp_path / "manifest.json"
    lab = [sys.executable, "-m", "puzzlelab.cli", "lab"]
    made = subprocess.run([*lab, "manifest", "--label", "test", "--out", str(m)], cwd=workdir, env=env(),
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    ok = subprocess.run([*lab, "verify", "--manifest", str(m)], cwd=workdir, env=env(), capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    data = json.loads(m.read_text())
    victim = sorted(data["experiments"][RESUMED])[0]
    path = workdir / "results" / victim
    original = path.read_bytes()
    try:
        path.write_bytes(original + b" ")
        bad = subprocess.run([*lab, "verify", "--manifest", str(m)], cwd=workdir, env=env(), capture_output=True,
                             text=True)
        assert bad.returncode == 1
        assert f"different: {victim}" in bad.stdout
    finally:
        path.write_bytes(original)


def _readme_commands() -> list[str]:
    """The commands of README.md's "With your own environment" block, as written."""
    text = (REPO / "README.md").read_text()
    block = text.split("## With your own environment", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.strip().splitlines() if line.strip()]


def test_readme_commands_work_as_written(workdir, first_run):
    """Every snakemake command of the README parses and plans (dry run); puzzlelab ones run."""
    import shlex

    commands = _readme_commands()
    assert any(c.startswith("snakemake") for c in commands)
    for command in commands:
        argv = shlex.split(command)
        if argv[0] == "pip":
            continue
        if argv[0] == "snakemake":
            if "--report" in argv:
                continue  # built for real by test_report_of_the_last_run_needs_no_configfile
            done = subprocess.run([*SNAKEMAKE, *argv[1:], "--dry-run"], cwd=workdir, env=env(),
                                  capture_output=True, text=True)
            assert done.returncode == 0, (command, done.stderr[-2000:])
        else:
            assert argv[0] == "puzzlelab", command
            done = subprocess.run([sys.executable, "-m", "puzzlelab.cli", *argv[1:]], cwd=workdir, env=env(),
                                  capture_output=True, text=True)
            if argv[1:3] == ["lab", "verify"]:
                # verify compares this test run with the committed quick manifest: it runs and says they
                # differ (1); without a committed reference it says so in one line (2)
                committed = (REPO / "reference" / "quick" / "manifest.json").exists()
                assert done.returncode in ((0, 1) if committed else (2,)), (command, done.stderr)
                assert committed or "no such manifest" in done.stderr, done.stderr
            else:
                assert done.returncode == 0, (command, done.stderr)


def test_lint_is_clean(workdir):
    done = snakemake(workdir, "--lint")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_snakefiles_are_formatted():
    snakefmt = Path(sys.executable).parent / "snakefmt"
    if not snakefmt.exists():
        pytest.skip("snakefmt is not installed (pip install -e '.[dev]')")
    done = subprocess.run([str(snakefmt), "--check", "Snakefile", "rules/"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
