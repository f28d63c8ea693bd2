"""The pipeline on a real SLURM: `snakemake --profile profiles/slurm` against a single-node cluster on localhost.

The test installs Debian's `slurm-wlm` and `munge` when they are missing, starts munged, slurmctld
and slurmd in a private folder (tests/lab/slurm_cluster.py), and runs config/test.yaml in a copy of the
workflow: first a run in which one job is cancelled with `scancel` while it runs, then the same
command again, which must finish the reproduction without redoing finished work. It checks that
every non-local job went through SLURM with the threads, memory and time limit of its rule, and
that the artifacts equal, byte for byte, those of a local run (`--cores 2`) of the same config.

The copies get one extra experiment, `slurm_probe` (rules written below), so that the test always
has SLURM jobs to cancel and a determinism check to run as a job, whichever engines have landed.

Runs only when asked: with PUZZLELAB_REQUIRE_SLURM=1 (set by .ci/run, so CI cannot pass without
running it) it needs root, installs the packages when missing and starts the daemons, and fails
instead of skipping when it cannot. Otherwise a user's `make test` changes nothing outside the
repository: the test skips and says how to enable it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from slurm_cluster import LocalSlurm, install_packages, missing_commands

from conftest import REPO

pytestmark = pytest.mark.slurm

COPY = ["Snakefile", "rules", "config", "profiles", "report", "envs", "data"]
CONFIG = ["--configfile", "config/test.yaml"]
# The first status check 2 s after a submission instead of 40 s: the jobs here take seconds.
FAST_POLL = ["--slurm-init-seconds-before-status-checks", "2"]
RUN_TIMEOUT = 1500  # seconds; a hung run fails the test instead of hanging CI
PROBE_N = [3, 20, 40]

PROBE_RULES = f"""\
# Written by tests/lab/test_lab_slurm.py into its copies of the workflow: a tiny experiment whose jobs
# always go through SLURM, whatever engines the pipeline has. Each job writes its SLURM job id
# into its log, and the solve jobs sleep a few seconds so that one can be cancelled while running.


localrules:
    slurm_probe_table,


rule slurm_probe_generate:
    output:
        "results/slurm_probe/{{n}}.txt",
    log:
        "results/logs/slurm_probe/generate_{{n}}.log",
    conda:
        ENV
    threads: threads_for("slurm_probe_generate")
    resources:
        mem_mb=mem_mb_for("slurm_probe_generate"),
        runtime=runtime_for("slurm_probe_generate"),
    shell:
        "(env | grep ^SLURM_JOB_ID= || true; seq {{wildcards.n}} > {{output}}) > {{log}} 2>&1"


rule slurm_probe_solve:
    input:
        "results/slurm_probe/{{n}}.txt",
    output:
        "results/slurm_probe/{{n}}.out",
    log:
        "results/logs/slurm_probe/solve_{{n}}.log",
    conda:
        ENV
    threads: threads_for("slurm_probe_solve")
    resources:
        mem_mb=mem_mb_for("slurm_probe_solve"),
        runtime=runtime_for("slurm_probe_solve"),
    params:
        seconds=lambda wc: 3 + int(wc.n) % 5,
    shell:
        "(env | grep ^SLURM_JOB_ID= || true; sleep {{params.seconds}};"
        " echo {{wildcards.n}} $(wc -l < {{input}}) > {{output}}) > {{log}} 2>&1"


rule slurm_probe_table:
    input:
        expand("results/slurm_probe/{{n}}.out", n={PROBE_N}),
    output:
        "results/slurm_probe/table.txt",
    log:
        "results/logs/slurm_probe/table.log",
    conda:
        ENV
    shell:
        "cat {{input}} > {{output}} 2> {{log}}"


register_experiment("slurm_probe", "SLURM probe", ["results/slurm_probe/table.txt"])
register_determinism("slurm_probe", expand("results/slurm_probe/{{n}}.out", n={PROBE_N}))


rule slurm_probe:
    input:
        experiment_inputs("slurm_probe"),
"""


# ---------------------------------------------------------------- fixtures


def _unavailable(reason: str):
    if os.environ.get("PUZZLELAB_REQUIRE_SLURM") == "1":
        pytest.fail(f"PUZZLELAB_REQUIRE_SLURM=1 but the SLURM test cannot run: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A running single-node SLURM; every daemon it started is stopped afterwards, even on failure."""
    if os.environ.get("PUZZLELAB_REQUIRE_SLURM") != "1":
        pytest.skip("the SLURM test installs Debian's slurm-wlm and munge and starts daemons as root; "
                    "run it with PUZZLELAB_REQUIRE_SLURM=1 make test (as .ci/run does)")
    if os.name != "posix" or os.geteuid() != 0:
        _unavailable("the SLURM test needs root: it starts munged, slurmctld and slurmd "
                     "(and installs Debian's slurm-wlm and munge when missing)")
    if missing_commands():
        reason = install_packages()
        if reason:
            _unavailable(f"cannot install SLURM: {reason}")
    try:
        import snakemake_executor_plugin_slurm  # noqa: F401
    except ImportError:
        _unavailable("snakemake-executor-plugin-slurm is not installed (pip install -e '.[dev]')")
    slurm = LocalSlurm(tmp_path_factory.mktemp("slurm"))
    try:
        slurm.start()
        yield slurm
    finally:
        slurm.stop()


def copy_workflow(root: Path) -> Path:
    """The workflow files as a clean clone has them, plus the probe experiment."""
    root.mkdir(parents=True)
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, root / name)
    (root / "rules" / "slurm_probe.smk").write_text(PROBE_RULES)
    snakefile = (root / "Snakefile").read_text()
    anchor = 'include: "rules/determinism.smk"\n'
    assert anchor in snakefile, "the Snakefile no longer includes rules/determinism.smk; update the probe"
    (root / "Snakefile").write_text(snakefile.replace(anchor, 'include: "rules/slurm_probe.smk"\n' + anchor))
    return root


def run_env(base: dict | None = None) -> dict:
    env = dict(os.environ if base is None else base)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))
    return env


def snakemake_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "snakemake", *args]


class SlurmRun:
    """What the two SLURM runs left behind: their output, the cancelled job, what existed in between."""

    def __init__(self, workdir: Path, cluster: LocalSlurm):
        self.workdir = workdir
        self.cluster = cluster
        self.first = self.second = None  # subprocess.CompletedProcess-like (returncode, output)
        self.victim: dict | None = None  # the job cancelled in the first run
        self.finished_before: dict[str, tuple[int, bytes]] = {}  # results after the first run


def stop_tree(proc: subprocess.Popen) -> None:
    """End a run we started (own session) and every process of it, if it is still going."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
            proc.wait(timeout=wait)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def run_with_one_job_cancelled(cmd, workdir: Path, cluster: LocalSlurm, log: Path):
    """Start the run, scancel the first probe solve job once it runs, let the run end; return (rc, victim)."""
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=workdir, env=cluster.env(run_env()), stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    victim = None
    try:
        deadline = time.monotonic() + RUN_TIMEOUT
        while proc.poll() is None and time.monotonic() < deadline:
            if victim is None:
                try:
                    queue = cluster.queue()
                except subprocess.SubprocessError:
                    queue = []  # slurmctld busy: ask again
                for job in queue:
                    if job["state"] == "RUNNING" and job["comment"].startswith("rule_slurm_probe_solve"):
                        cluster.run("scancel", job["id"])
                        victim = job
                        break
            time.sleep(0.2)
        proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        stop_tree(proc)
    return proc.returncode, victim


def snapshot(results: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under results/ except logs: path -> (mtime in ns, bytes)."""
    files = {}
    for path in sorted(results.rglob("*")):
        rel = path.relative_to(results.parent).as_posix()
        if path.is_file() and not rel.startswith("results/logs/"):
            files[rel] = (path.stat().st_mtime_ns, path.read_bytes())
    return files


@pytest.fixture(scope="module")
def workflow(tmp_path_factory) -> Path:
    """One snapshot of the workflow, so the SLURM and the local run see the same files."""
    return copy_workflow(tmp_path_factory.mktemp("workflow") / "wf")


@pytest.fixture(scope="module")
def local_started(workflow, tmp_path_factory):
    """The same workflow and config run locally (`--cores 2`), started in the background.

    It runs while the SLURM runs wait for the queue and poll it, which keeps both cores busy.
    """
    workdir = tmp_path_factory.mktemp("local-run") / "wf"
    shutil.copytree(workflow, workdir, symlinks=True)
    with open(workdir.parent / "local.log", "w") as log:
        proc = subprocess.Popen(snakemake_cmd("--cores", "2", *CONFIG), cwd=workdir, env=run_env(),
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc, workdir
    finally:
        stop_tree(proc)


@pytest.fixture(scope="module")
def slurm_run(cluster, local_started, workflow, tmp_path_factory) -> SlurmRun:
    """The test config through SLURM: one run with a job cancelled mid-run, then the same command to resume."""
    workdir = tmp_path_factory.mktemp("slurm-run") / "wf"
    shutil.copytree(workflow, workdir, symlinks=True)
    run = SlurmRun(workdir, cluster)
    cmd = snakemake_cmd("--profile", "profiles/slurm", *CONFIG, *FAST_POLL)
    first_log = workdir.parent / "first.log"
    rc, run.victim = run_with_one_job_cancelled(cmd, workdir, cluster, first_log)
    run.first = subprocess.CompletedProcess(cmd, rc, first_log.read_text(errors="replace"))
    run.finished_before = snapshot(workdir / "results")
    run.second = subprocess.run(cmd, cwd=workdir, env=cluster.env(run_env()), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=RUN_TIMEOUT)
    (workdir.parent / "second.log").write_text(run.second.stdout)
    assert run.second.returncode == 0, (
        "the resumed SLURM run failed:\n" + run.second.stdout[-6000:] + "\n" + cluster.logs()
    )
    return run


@pytest.fixture(scope="module")
def local_run(local_started) -> Path:
    proc, workdir = local_started
    proc.wait(timeout=RUN_TIMEOUT)
    log = (workdir.parent / "local.log").read_text(errors="replace")
    assert proc.returncode == 0, "the local run failed:\n" + log[-6000:]
    return workdir


# ---------------------------------------------------------------- helpers over the run's logs

SUBMITTED = re.compile(r"Job (\d+) has been submitted with SLURM jobid (\d+) \(log: (\S+?)\)\.?$", re.M)


def submissions(output: str) -> list[dict]:
    """Every SLURM submission a run reported: snakemake job id, SLURM job id, rule, its SLURM log."""
    rows = []
    for job, slurm_id, log in SUBMITTED.findall(output):
        rule = re.search(r"/slurm_logs/rule_([^/]+)/", log).group(1)
        rows.append({"job": job, "slurm_id": slurm_id, "rule": rule, "log": Path(log)})
    return rows


def nonlocal_jobs(output: str) -> list[str]:
    """Rules of the jobs a run scheduled on the cluster (`rule x:`; local ones print `localrule x:`)."""
    return re.findall(r"^rule (\w+):$", output, re.M)


JOB_BLOCK = re.compile(r"^(local)?rule (\w+):\n(?:    (?!output:).*\n)*?    output: (.*)$", re.M)


def producers(output: str) -> dict[str, str]:
    """output path -> the rule whose job wrote it, from the job blocks a run printed."""
    return {path: rule for _, rule, paths in JOB_BLOCK.findall(output) for path in paths.split(", ")}


def cluster_outputs(output: str) -> dict[str, str]:
    """Like `producers`, for the jobs that went to the cluster (`rule x:`, not `localrule x:`)."""
    return {path: rule for local, rule, paths in JOB_BLOCK.findall(output) if not local
            for path in paths.split(", ")}


def effective_config(workdir: Path) -> dict:
    return json.loads((workdir / "results" / ".config" / "effective.json").read_text())


# ---------------------------------------------------------------- tests


def test_cancelled_job_fails_the_first_run(slurm_run):
    assert slurm_run.victim is not None, (
        "no probe job was seen running: nothing was cancelled\n" + slurm_run.first.stdout[-4000:])
    assert slurm_run.first.returncode != 0, slurm_run.first.stdout[-4000:]
    assert f"SLURM-job '{slurm_run.victim['id']}' failed, SLURM status is: 'CANCELLED'" in slurm_run.first.stdout
    # the cancelled job's output was not left behind, half-written or whole
    n = re.search(r"(\d+)$", slurm_run.victim["comment"]).group(1)  # rule_slurm_probe_solve_wildcards_<n>
    assert f"results/slurm_probe/{n}.out" not in slurm_run.finished_before


def test_resume_keeps_finished_results_and_completes(slurm_run):
    """The same command again: finished outputs untouched (same bytes, same mtime), the rest built."""
    assert slurm_run.finished_before, "the first run finished nothing before the job was cancelled"
    after = snapshot(slurm_run.workdir / "results")
    for path, (mtime, data) in slurm_run.finished_before.items():
        if path.startswith(("results/.determinism/", "results/.config/")):
            continue
        assert path in after, f"{path} was lost"
        assert after[path] == (mtime, data), f"{path} was rebuilt although it was finished"
    rebuilt = {s["rule"] for s in submissions(slurm_run.second.stdout)}
    assert "slurm_probe_solve" in rebuilt
    again = subprocess.run(snakemake_cmd("--profile", "profiles/slurm", *CONFIG, "--dry-run"),
                           cwd=slurm_run.workdir, env=slurm_run.cluster.env(run_env()), capture_output=True, text=True)
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr, again.stderr[-3000:]


def test_every_cluster_job_went_through_slurm(slurm_run):
    records = slurm_run.cluster.jobcomp_records()  # slurmctld's job-completion history
    for output in (slurm_run.first.stdout, slurm_run.second.stdout):
        subs = submissions(output)
        assert len(subs) == len(nonlocal_jobs(output)), output[-4000:]
        for s in subs:
            assert s["slurm_id"] in records, f"SLURM job {s['slurm_id']} ({s['rule']}) missing from jobcomp"
    subs = submissions(slurm_run.second.stdout)
    assert {"slurm_probe_solve", "determinism"} <= {s["rule"] for s in subs}
    for s in subs:
        assert records[s["slurm_id"]]["JobState"] == "COMPLETED", records[s["slurm_id"]]
        assert s["log"].is_file(), f"no SLURM log {s['log']}"
    # the jobs themselves saw the SLURM job id the executor reported
    all_subs = submissions(slurm_run.first.stdout) + subs
    ids = {s["slurm_id"] for s in all_subs if s["rule"].startswith("slurm_probe")}
    for n in PROBE_N:
        for step in ("generate", "solve"):
            log = (slurm_run.workdir / "results" / "logs" / "slurm_probe" / f"{step}_{n}.log").read_text()
            job_id = re.search(r"SLURM_JOB_ID=(\d+)", log)
            assert job_id and job_id.group(1) in ids, log


def test_slurm_requests_come_from_the_config(slurm_run):
    """--cpus-per-task, --mem and --time of each job equal the rule's threads, mem_mb, runtime in the config.

    A determinism job re-runs its sampled jobs inside its own allocation, so it asks for as much
    as they need together (`determinism_resource`), and never less than `resources.determinism`.
    """
    from puzzlelab.lab.snakemake_support import determinism_resource, resource_for

    config = effective_config(slurm_run.workdir)
    records = slurm_run.cluster.jobcomp_records()
    writers = producers(slurm_run.first.stdout + slurm_run.second.stdout)
    checked = set()
    for s in submissions(slurm_run.first.stdout) + submissions(slurm_run.second.stdout):
        rec = records[s["slurm_id"]]
        tres = dict(item.split("=", 1) for item in rec["Tres"].split(","))
        rule = s["rule"]
        if rule == "determinism":
            experiment = s["log"].parent.name  # .snakemake/slurm_logs/rule_determinism/<experiment>/<id>.log
            sampled = json.loads((slurm_run.workdir / "results" / "determinism" / f"{experiment}.json").read_text())
            rules = [writers[a["artifact"]] for a in sampled["artifacts"]]
            want = {key: determinism_resource(config, rules, key) for key in ("threads", "mem_mb", "runtime")}
        else:
            want = {key: resource_for(config, rule, key) for key in ("threads", "mem_mb", "runtime")}
        assert int(tres["cpu"]) == min(want["threads"], os.cpu_count()), (rule, rec)
        assert tres["mem"] == f"{want['mem_mb']}M", (rule, rec)
        assert int(rec["TimeLimit"]) == want["runtime"], (rule, rec)
        checked.add(rule)
    assert {"slurm_probe_generate", "slurm_probe_solve", "determinism"} <= checked


def test_profile_is_valid_for_the_installed_plugin(workflow, tmp_path):
    """`--profile profiles/slurm` parses and plans the test config (a dry run; needs no cluster, no root)."""
    workdir = tmp_path / "wf"
    shutil.copytree(workflow, workdir, symlinks=True)
    done = subprocess.run(snakemake_cmd("--profile", "profiles/slurm", *CONFIG, "--dry-run"), cwd=workdir,
                          env=run_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Using profiles profiles/slurm" in done.stderr


def test_determinism_job_is_sized_for_what_it_reruns():
    """Threads: the most any re-run job asks; memory and time: their sum; at least resources.determinism."""
    from puzzlelab.lab.snakemake_support import determinism_resource

    config = {"resources": {"default": {"threads": 1, "mem_mb": 1000, "runtime": 10},
                            "determinism": {"threads": 2, "mem_mb": 4000, "runtime": 60},
                            "big": {"threads": 8, "mem_mb": 9000, "runtime": 50}}}
    assert determinism_resource(config, [], "mem_mb") == 4000
    assert determinism_resource(config, ["small"], "threads") == 2
    assert determinism_resource(config, ["small", "small"], "mem_mb") == 4000
    assert determinism_resource(config, ["big", "small"], "threads") == 8
    assert determinism_resource(config, ["big", "big"], "mem_mb") == 18000
    assert determinism_resource(config, ["big", "small"], "runtime") == 60
    assert determinism_resource(config, ["big", "big"], "runtime") == 100


def test_determinism_check_ran_as_a_slurm_job(slurm_run):
    record = json.loads((slurm_run.workdir / "results" / "determinism" / "slurm_probe.json").read_text())
    assert record["all_equal"] and record["artifacts"], record


def test_artifacts_equal_a_local_run(slurm_run, local_run):
    """What the cluster jobs wrote is byte-for-byte what the same jobs wrote in a local run.

    Compared: every output of every job that went through SLURM (solve steps, determinism
    records), except timing files (`*.timing.*`) and logs. Tables and plots come from local rules,
    which run the same way in both runs; benchmark tables hold measured times, so they are only
    required to exist in both.
    """
    output = slurm_run.first.stdout + slurm_run.second.stdout
    artifacts = sorted({path for path, rule in cluster_outputs(output).items()
                        if ".timing." not in Path(path).name and not path.startswith("results/logs/")})
    expected = {f"results/slurm_probe/{n}.out" for n in PROBE_N} | {"results/determinism/slurm_probe.json"}
    assert expected <= set(artifacts)
    missing = [p for p in artifacts if not (local_run / p).is_file() or not (slurm_run.workdir / p).is_file()]
    assert not missing, f"missing from one of the runs: {missing}"
    different = [p for p in artifacts if (slurm_run.workdir / p).read_bytes() != (local_run / p).read_bytes()]
    assert not different, f"differ between the SLURM and the local run: {different}"
    on_slurm, local = snapshot(slurm_run.workdir / "results"), snapshot(local_run / "results")
    assert sorted(on_slurm) == sorted(local), "the two runs wrote different sets of files"
