"""The pipeline end to end on config/test.yaml, in a copy of the repository (as a clean clone would be)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

SNAKEMAKE = [sys.executable, "-m", "snakemake"]
COPY = ["Snakefile", "rules", "config", "profiles", "report", "envs", "data"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A copy of the workflow files; the numba cache is shared with the checkout to save compiling."""
    root = tmp_path_factory.mktemp("pipeline")
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name)
        elif src.exists():
            shutil.copy2(src, root / name)
    return root


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.setdefault("NUMBA_CACHE_DIR", str(REPO / ".numba_cache"))
    return subprocess.run(
        [*SNAKEMAKE, "--configfile", "config/test.yaml", *args],
        cwd=workdir, env=env, capture_output=True, text=True,
    )


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
    import json

    records = sorted((workdir / "results" / "determinism").glob("*.json"))
    for rec in records:
        data = json.loads(rec.read_text())
        assert data["all_equal"], rec
        assert data["artifacts"], rec
    summary = (workdir / "results" / "report" / "determinism.csv").read_text()
    assert "NO" not in summary.split("\n", 1)[1]


def test_report_builds(workdir, first_run):
    done = snakemake(workdir, "--report", "reports/report.html")
    assert done.returncode == 0, done.stderr[-3000:]
    html = (workdir / "reports" / "report.html").read_text(errors="replace")
    for category in ("Determinism", "About this run"):
        assert category in html


def test_lint_is_clean(workdir):
    done = snakemake(workdir, "--lint")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_snakefiles_are_formatted():
    snakefmt = Path(sys.executable).parent / "snakefmt"
    if not snakefmt.exists():
        pytest.skip("snakefmt is not installed (pip install -e '.[dev]')")
    done = subprocess.run([str(snakefmt), "--check", "Snakefile", "rules/"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
