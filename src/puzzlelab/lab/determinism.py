"""Byte-for-byte determinism check: re-run the jobs behind a sample of artifacts, compare sha256.

The re-run is a fresh Snakemake run of the same workflow and configuration in a scratch directory
(its `data/` linked to the repository's), so every step that leads to the artifact runs again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from . import canonical
from .errors import InputError
from .hashing import sha256_file
from .tables import write_table


def rerun(snakefile: Path, configfile: Path, scratch: Path, targets: list[str], cores: int, log) -> int:
    """Rebuild `targets` (paths relative to the working directory) from scratch inside `scratch`."""
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    repo = Path(snakefile).resolve().parent
    for shared in ("data",):
        if (repo / shared).exists():
            os.symlink(repo / shared, scratch / shared)
    link_corpora(configfile, scratch)
    cmd = [
        sys.executable, "-m", "snakemake", *targets, "--snakefile", str(Path(snakefile).resolve()),
        "--directory", str(scratch), "--cores", str(cores), "--nolock", "--quiet", "all",
        "--configfile", str(Path(configfile).resolve()),
    ]
    print("re-running:", " ".join(cmd), file=log, flush=True)
    done = subprocess.run(cmd, stdout=log, stderr=log)
    return done.returncode


def link_corpora(configfile: Path, scratch: Path) -> None:
    """Make a relative `corpora_dir` name the same folder from `scratch` as from here, so that the
    re-run's command lines (and artifacts recording a corpus path) read exactly as the first run's."""
    import yaml

    try:
        value = (yaml.safe_load(Path(configfile).read_text(encoding="utf-8")) or {}).get("corpora_dir")
    except (OSError, yaml.YAMLError, AttributeError):
        return
    if not isinstance(value, str) or Path(value).is_absolute() or not Path(value).exists():
        return
    link = Path(os.path.normpath(scratch / value))
    if link.exists() or link.is_symlink():
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.symlink(Path(value).resolve(), link)
    except FileExistsError:  # a determinism job of another experiment made it first
        pass


def compare(targets: list[str], scratch: Path) -> list[dict]:
    rows = []
    for target in targets:
        first = sha256_file(target)
        second_path = scratch / target
        second = sha256_file(second_path) if second_path.exists() else "missing"
        rows.append({"artifact": target, "sha256_first": first, "sha256_rerun": second, "equal": first == second})
    return rows


def check(experiment: str, targets: list[str], snakefile: str, configfile: str, scratch: str, cores: int,
          out: str, log=sys.stderr) -> int:
    """Re-run, compare, write the JSON record; exit status 1 when any artifact differs."""
    for t in targets:
        if os.path.isabs(t):
            raise InputError(f"artifact {t} must be a path relative to the working directory")
        if not Path(t).is_file():
            raise InputError(f"artifact {t} does not exist")
    scratch_dir = Path(scratch)
    if targets:
        code = rerun(Path(snakefile), Path(configfile), scratch_dir, targets, cores, log)
        if code != 0:
            print(f"determinism check for {experiment}: the re-run failed (exit {code}); see the log", file=sys.stderr)
            return 1
    rows = compare(targets, scratch_dir)
    record = {"experiment": experiment, "artifacts": rows, "all_equal": all(r["equal"] for r in rows)}
    for r in rows:
        state = "equal" if r["equal"] else "DIFFERENT"
        print(f"{state}: {r['artifact']} {r['sha256_first'][:16]} {r['sha256_rerun'][:16]}", file=log)
    if not record["all_equal"]:
        print(f"determinism check failed for {experiment}: artifacts differ between runs", file=sys.stderr)
        return 1
    canonical.write_json(out, record)
    shutil.rmtree(scratch_dir, ignore_errors=True)
    return 0


def summary(paths: list[str], csv: str, html: str) -> None:
    rows = []
    for p in paths:
        rec = canonical.read_json(p)
        for r in rec["artifacts"]:
            rows.append({"experiment": rec["experiment"], "artifact": r["artifact"],
                         "sha256 (first run)": r["sha256_first"][:16], "sha256 (re-run)": r["sha256_rerun"][:16],
                         "equal": "yes" if r["equal"] else "NO"})
    df = pd.DataFrame(rows, columns=["experiment", "artifact", "sha256 (first run)", "sha256 (re-run)", "equal"])
    write_table(df, csv, html, title="Determinism: artifacts rebuilt from scratch and compared byte for byte",
                note=f"{len(df)} artifacts from {len(paths)} experiments; "
                     f"{int((df['equal'] == 'yes').sum()) if len(df) else 0} identical.")
