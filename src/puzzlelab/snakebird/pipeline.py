"""Helpers for rules/snakebird.smk: which levels an experiment runs and where the reference solver is."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..lab.snakemake_support import resource_for

PROJECT_DIR = "data/snakebird"
CORPUS_DIR = ("snakebird", "levels")


def level_jobs(section: dict, corpora: Path, have_corpora: bool) -> dict[str, str]:
    """`project/<name>` and `corpus/<name>` -> level file, from the config section.

    `project_levels` names files in data/snakebird/ (relative paths: the pipeline's working
    directory links data/); `corpus_levels` is `all` or a list of names in the shared corpus.
    """
    jobs = {f"project/{name}": f"{PROJECT_DIR}/{name}.txt" for name in section.get("project_levels", [])}
    wanted = section.get("corpus_levels", [])
    folder = Path(corpora).joinpath(*CORPUS_DIR)
    if have_corpora and folder.is_dir() and wanted:
        available = {p.stem: p for p in sorted(folder.glob("*.txt"))}
        names = sorted(available) if wanted == "all" else list(wanted)
        for name in names:
            if name in available:
                jobs[f"corpus/{name}"] = str(available[name])
    return jobs


DEEP_EXPERIMENT = "snakebird_deep"


def experiment_jobs(section: dict, jobs: dict[str, str]) -> dict[str, dict[str, str]]:
    """The level jobs split between the two experiments: `snakebird_deep` gets those of the selected
    corpus levels named in `deep_levels` (searches of hours, run and recorded on their own),
    `snakebird_levels` the rest."""
    deep = set(section.get("deep_levels", []))
    out = {"snakebird_levels": {}, DEEP_EXPERIMENT: {}}
    for key, path in jobs.items():
        kind, name = key.split("/", 1)
        out[DEEP_EXPERIMENT if kind == "corpus" and name in deep else "snakebird_levels"][key] = path
    return out


def missing_corpus_levels(section: dict, corpora: Path) -> list[str]:
    wanted = section.get("corpus_levels", [])
    if wanted == "all" or not wanted:
        return []
    folder = Path(corpora).joinpath(*CORPUS_DIR)
    return [n for n in wanted if not (folder / f"{n}.txt").exists()]


def reference_suffix(level_name: str) -> str:
    """The reference build names its executables snakebird.<suffix>: level07 -> 07, levelstar1 -> star1."""
    return level_name[len("level"):] if level_name.startswith("level") else level_name


def reference_binary(prefix: str, level_name: str) -> str | None:
    """`<prefix>.<suffix>` when it is an executable (a path, or a name on PATH), else None."""
    if not prefix:
        return None
    return shutil.which(f"{prefix}.{reference_suffix(level_name)}")


def reference_jobs(jobs: dict[str, str], prefix: str) -> dict[str, str]:
    """corpus level name -> reference executable, for the corpus jobs whose executable exists."""
    out = {}
    for key in jobs:
        kind, name = key.split("/", 1)
        if kind == "corpus":
            exe = reference_binary(prefix, name)
            if exe:
                out[name] = exe
    return out


def per_level(pattern: str, jobs: dict[str, str], **fixed: str) -> list[str]:
    """A rule's output pattern (`{sbset}`, `{sblevel}` and the `fixed` wildcards, e.g. `sbexp`) filled
    in for every level job, in key order."""
    out = []
    for key in sorted(jobs):
        sbset, _, sblevel = key.partition("/")
        out.append(pattern.format(sbset=sbset, sblevel=sblevel, **fixed))
    return out


def level_resource(config: dict, level: str, key: str):
    """A solve job's threads / mem_mb / runtime: `snakebird_levels.level_resources.<level>.<key>` for
    the few levels that need more than the others (more threads shorten the wall time of a long
    search: expansion and codec are threaded), else `resources.snakebird_solve.<key>`."""
    own = (config.get("snakebird_levels", {}).get("level_resources") or {}).get(level) or {}
    return own[key] if key in own else resource_for(config, "snakebird_solve", key)
