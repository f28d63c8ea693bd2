"""`reference/<label>/` of a run made in parts: merge one part's experiments into what is committed.

A run too long for one sitting runs its experiments in parts (each experiment is a target; each is
self-contained but for cheap shared instance steps). After a part, `puzzlelab lab reference --part
EXP ...` replaces those experiments' manifest entries, scorecard rows and cost rows, keeps the
other experiments' as committed, and records the part (jobs, CPU-hours, wall, code version) in
run.json, whose totals are the sums over the parts.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd

from .errors import InputError
from .scorecard import COLUMNS as CARD_COLUMNS


def link_experiment(link: str) -> str:
    """The experiment a scorecard row comes from: the folder after results/ in its link."""
    parts = Path(link).parts
    return parts[1] if len(parts) > 2 and parts[0] == "results" else ""


def check_finished(experiments: list[str], configfile: str | None) -> None:
    """Refuse a part whose experiments Snakemake would still run something for (a dry run)."""
    from . import cost

    left = cost.dry_run(experiments, configfile, forceall=False)
    if left:
        raise InputError(unfinished_message(left, experiments), configfile or "config/config.yaml")


def part_files(experiments: list[str], configfile: str | None) -> set[str]:
    """Every output and benchmark file of every job the part's targets need under this config (a forced
    dry run): what the part may record, whatever else results/ holds."""
    from . import cost

    jobs = cost.dry_run(experiments, configfile, forceall=True)
    return {out for job in jobs for out in job.outputs} | {job.benchmark for job in jobs if job.benchmark}


def unfinished_message(left: list, experiments: list[str]) -> str:
    rules = sorted({j.rule for j in left})
    shown = ", ".join(rules[:4]) + (", ..." if len(rules) > 4 else "")
    return (f"not finished: {len(left)} jobs left ({shown}); run `snakemake --cores N "
            f"{' '.join(experiments)}` first")


def part_scorecards(results: Path, experiments: list[str]) -> dict[str, pd.DataFrame]:
    """Each finished experiment's own scorecard rows (results/<experiment>/.../scorecard.csv)."""
    pieces = {}
    for name in experiments:
        files = sorted((results / name).rglob("scorecard.csv")) if (results / name).is_dir() else []
        if files:
            pieces[name] = pd.concat([pd.read_csv(f, keep_default_na=False, dtype=str)[CARD_COLUMNS]
                                      for f in files], ignore_index=True)
    return pieces


def merge_scorecard(old: pd.DataFrame | None, pieces: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Rows of the committed scorecard whose experiment is not in `pieces`, plus `pieces`; in the
    order one whole run writes them (experiments by name, then stably by seed)."""
    by_exp = dict(pieces)
    if old is not None and len(old):
        origin = old["link"].map(link_experiment)
        for name, rows in old.groupby(origin, sort=False):
            if name not in by_exp:
                by_exp[name] = rows[CARD_COLUMNS]
    frames = [by_exp[name] for name in sorted(by_exp)]
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=CARD_COLUMNS)
    return df.sort_values("seed", kind="stable").reset_index(drop=True)


def merge_manifest(old: dict | None, new: dict, experiments: list[str], known: set[str]) -> dict:
    """The part's experiments replace theirs; shared folders (instances, determinism records) are
    merged file by file; what another, unfinished experiment left in results/ is not taken."""
    merged = {k: dict(v) for k, v in (old or {}).get("experiments", {}).items()}
    for key, files in new["experiments"].items():
        if key in experiments:
            merged[key] = dict(files)
        elif key not in known:
            merged[key] = {**merged.get(key, {}), **files}
    out = dict(new)
    out["experiments"] = {k: merged[k] for k in sorted(merged)}
    out["artifacts"] = sum(len(v) for v in merged.values())
    return out


def commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def merge_run(old: dict | None, part: dict, all_experiments: list[str],
              old_cost: dict[str, tuple[int, float]] | None = None) -> dict:
    """run.json: the parts and their totals; `complete` once every experiment of the config is in some part.

    An earlier part that ran some of the new part's experiments keeps its other ones: its jobs and
    CPU-hours lose those experiments' rows of the earlier cost table (`old_cost`: experiment -> (jobs,
    CPU seconds)) and its elapsed hours shrink in the same proportion as its CPU-hours. A run recorded
    whole (no parts) counts as one part over every experiment.
    """
    old_cost = old_cost or {}
    earlier = list((old or {}).get("parts", []))
    if old and not earlier and "jobs" in old:
        earlier = [{**old, "experiments": sorted(all_experiments)}]
    rerun = set(part["experiments"])
    keep = []
    for p in earlier:
        gone = sorted(set(p["experiments"]) & rerun)
        rest = [e for e in p["experiments"] if e not in rerun]
        if not gone:
            keep.append(p)
        elif rest:
            jobs = sum(old_cost.get(e, (0, 0.0))[0] for e in gone)
            cpu = min(p["cpu_hours"], sum(old_cost.get(e, (0, 0.0))[1] for e in gone) / 3600)
            share = (p["cpu_hours"] - cpu) / p["cpu_hours"] if p["cpu_hours"] > 0 else 1.0
            keep.append({**p, "experiments": rest, "jobs": max(0, p["jobs"] - jobs),
                         "cpu_hours": round(p["cpu_hours"] - cpu, 2),
                         "elapsed_hours": round(p["elapsed_hours"] * share, 2),
                         "rerun_later": sorted(set(p.get("rerun_later", [])) | set(gone))})
    keep = [{k: v for k, v in p.items() if k in PART_KEYS} for p in keep]
    parts = sorted(keep + [part], key=lambda p: (p.get("date", ""), p["experiments"]))
    done = sorted({e for p in parts for e in p["experiments"]})
    return {
        "label": part["label"],
        "jobs": sum(p["jobs"] for p in parts),
        "cpu_hours": round(sum(p["cpu_hours"] for p in parts), 2),
        "elapsed_hours": round(sum(p["elapsed_hours"] for p in parts), 2),
        "peak_job_rss_gb": max(p["peak_job_rss_gb"] for p in parts),
        "machine": part["machine"],
        "complete": set(done) >= set(all_experiments),
        "experiments_done": len(set(done) & set(all_experiments)),
        "experiments_total": len(all_experiments),
        "missing": [e for e in all_experiments if e not in done],
        "parts": parts,
    }


PART_KEYS = ("label", "jobs", "cpu_hours", "elapsed_hours", "peak_job_rss_gb", "machine", "date", "commit",
             "experiments", "rerun_later")


def cost_by_experiment(path: Path) -> dict[str, tuple[int, float]]:
    """experiment -> (jobs, CPU seconds) of a committed cost table (empty when there is none)."""
    from .cost import load_table

    table = load_table(path)
    return {str(e): (len(g), float(pd.to_numeric(g["cpu_s"], errors="coerce").fillna(0).sum()))
            for e, g in table.groupby("experiment")}


def configured_experiments(configfile: str | None) -> list[str]:
    """The experiments of a config, as `make experiments` lists them (a dry run that writes nothing)."""
    import os

    from .cost import snakemake_dry

    lines = snakemake_dry(["--quiet", "--cores", "1"], configfile,
                          env={**os.environ, "PUZZLELAB_LIST_EXPERIMENTS": "1"}).splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("experiment ")), None)
    if start is None:
        raise InputError("could not list the experiments: no listing in the dry run's output",
                         configfile or "Snakefile")
    names = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        names.append(line.split()[0])
    return names
