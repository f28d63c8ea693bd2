"""The manifest of a run: sha256 of every deterministic artifact under `results/`, per experiment.

`reference/<label>/manifest.json` is committed for each shipped config; `verify` compares a user's
`results/` with it byte for byte — the cross-machine determinism check. Measurements are not
artifacts: files with `.timing.` in their name, a peer program's outputs (`.peer.`: whether it is
installed is a fact of the machine), experiments' `scorecard.csv`, and everything under
`results/logs/`, `results/benchmarks/`, `results/report/` (report-wide tables built from this
machine's measurements and environment) and dot-folders are left out, and so is the work state of a
search still running (`checkpoints/` and `spill/` folders of an experiment: removed when it ends).
"""

from __future__ import annotations

import platform
from importlib import metadata
from pathlib import Path

from . import canonical
from .errors import InputError
from .hashing import sha256_file

EXCLUDED_DIRS = {"logs", "benchmarks", "report"}
EXCLUDED_NAMES = {"scorecard.csv"}
MACHINE_MARKERS = (".timing.", ".peer.")  # measurements, and outputs of a peer program found on this machine
WORK_DIRS = {"checkpoints", "spill"}  # inside an experiment's folder: a running search's resumable state
# Packages whose versions can change an artifact's bytes (plots, tables, kernels, the SAT solver's models).
PACKAGES = ["puzzlelab", "numpy", "numba", "pandas", "matplotlib", "zstandard", "snakemake", "python-sat"]


def is_artifact(rel: Path) -> bool:
    """Is this path (relative to results/) a deterministic artifact covered by the manifest?"""
    parts = rel.parts
    if not parts or parts[0] in EXCLUDED_DIRS or any(p.startswith(".") for p in parts):
        return False
    if any(p in WORK_DIRS for p in parts[1:-1]):
        return False
    return not any(m in rel.name for m in MACHINE_MARKERS) and rel.name not in EXCLUDED_NAMES


def experiment_of(rel: Path) -> str:
    return rel.parts[0] if len(rel.parts) > 1 else "(top level)"


def collect(results: Path) -> dict[str, dict[str, str]]:
    """{experiment: {path relative to results/: sha256}} for every artifact under `results`."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(p for p in results.rglob("*") if p.is_file()):
        rel = path.relative_to(results)
        if is_artifact(rel):
            out.setdefault(experiment_of(rel), {})[rel.as_posix()] = sha256_file(path)
    return out


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def build(results: str | Path, label: str) -> dict:
    results = Path(results)
    if not results.is_dir():
        raise InputError("no results folder here: run the reproduction first", results)
    experiments = collect(results)
    return {"label": label, "versions": versions(), "artifacts": sum(len(v) for v in experiments.values()),
            "experiments": experiments}


def only(manifest: dict, outputs: set[str], results: str | Path = "results") -> dict:
    """The manifest restricted to the files some job made (`outputs`: paths as the workflow names them,
    files or folders): what a part records, so that files another config left in results/ stay out."""
    prefix = Path(results)
    made = {Path(o) for o in outputs}

    def kept(rel: str) -> bool:
        path = prefix / rel
        return path in made or any(parent in made for parent in path.parents)

    experiments = {}
    for name, files in manifest["experiments"].items():
        files = {rel: h for rel, h in files.items() if kept(rel)}
        if files:
            experiments[name] = files
    return {**manifest, "experiments": experiments, "artifacts": sum(len(v) for v in experiments.values())}


def compare(manifest: dict, results: str | Path) -> dict[str, list[str]]:
    """Artifacts that differ, are missing, or are not in the manifest (paths relative to results/)."""
    have = {p: h for files in collect(Path(results)).values() for p, h in files.items()}
    want = {p: h for files in manifest["experiments"].values() for p, h in files.items()}
    return {
        "different": sorted(p for p in want if p in have and have[p] != want[p]),
        "missing": sorted(p for p in want if p not in have),
        "extra": sorted(p for p in have if p not in want),
        "equal": sorted(p for p in want if have.get(p) == want[p]),
    }


def read(path: str | Path) -> dict:
    p = Path(path)
    if not p.is_file():
        raise InputError("no such manifest (reference/<label>/manifest.json is written by `make reference` "
                         "after a finished run)", p)
    try:
        data = canonical.read_json(p)
    except ValueError as err:
        raise InputError(f"not a manifest: {err}", p) from None
    if not isinstance(data, dict) or "experiments" not in data:
        raise InputError("not a manifest: no 'experiments'", p)
    return data


def write(path: str | Path, manifest: dict) -> None:
    canonical.write_json(path, manifest)
