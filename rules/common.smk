# Shared definitions for every engine's rules: paths, resources, experiment and determinism registries.
import json
import os
from pathlib import Path

# A NUMBA_CACHE_DIR the user exported wins over the config (read before puzzlelab sets its own).
USER_NUMBA_CACHE = os.environ.get("NUMBA_CACHE_DIR")

from puzzlelab.lab.numba_env import configure_numba_cache
from puzzlelab.lab.snakemake_support import effective_config_path
from puzzlelab.lab.snakemake_support import (
    corpora_folder,
    determinism_resource,
    evenly_spaced,
    json_param,
    resource_for,
)

REPO = Path(workflow.basedir)
# Software for every rule (for --use-conda; the default is the Makefile's .venv on PATH).
ENV = "../envs/puzzlelab.yaml"
# Real public corpora. A relative `corpora_dir` stays relative (to the working directory, the
# repository root): command lines and the artifacts that record a file's path then read the same
# on every machine whose corpora sit at the same place beside the clone.
CORPORA = corpora_folder(config["corpora_dir"], REPO)
HAVE_CORPORA = CORPORA.is_dir()

# numba's compiled kernels are cached inside the repository (git-ignored) unless the user chose a
# place; jobs inherit the folder, one per version of the sources (see puzzlelab.lab.numba_env).
configure_numba_cache(
    USER_NUMBA_CACHE or REPO / config.get("numba_cache_dir", ".numba_cache")
)

# The effective configuration of the running workflow, for the determinism re-runs: written by a
# job of this run (rule effective_config), never while the Snakefile is parsed, so a dry run with
# another config cannot change what a running determinism check reads; named by the config's hash,
# so a rerun after a config edit never reads a stale copy.
EFFECTIVE_CONFIG = str(effective_config_path(config))

EXPERIMENTS = {}  # experiment -> {"category": str, "targets": [paths]}
DETERMINISM = {}  # experiment -> [reproducible artifact paths of its solve jobs]
DETERMINISM_RECORD = (
    "results/determinism/{experiment}.json"  # rule determinism's output
)
SKIPPED = []  # [experiment, what, reason] rows for the report
SCORECARDS = {}  # experiment -> its scorecard rows (CSVs, lab.scorecard.COLUMNS)
UNREADABLE = (
    {}
)  # experiment -> CSVs of inputs its parse step could not read (path, line, reason)


def register_experiment(name, category, targets):
    """Declare an experiment's final outputs (tables, plots); its target rule and `all` require them."""
    EXPERIMENTS[name] = {"category": category, "targets": list(targets)}


def register_determinism(name, artifacts):
    """Declare the reproducible artifacts of an experiment's solve jobs; a sample is re-run and hashed."""
    DETERMINISM[name] = sorted(set(artifacts))


def register_scorecard(name, *csvs):
    """Declare the scorecard rows an experiment's report steps write (see puzzlelab.lab.scorecard)."""
    SCORECARDS[name] = [str(c) for c in csvs]


def register_unreadable(name, csvs):
    """Declare the parse step's lists of unreadable inputs (shown in the report, never a failed run)."""
    UNREADABLE[name] = sorted({str(c) for c in csvs})


def skip(experiment, what, reason):
    """Record that part of an experiment did not run here, and why (shown in the report)."""
    SKIPPED.append([experiment, what, reason])


def corpus_path(*parts):
    """A path inside the shared corpora folder (check HAVE_CORPORA or .exists() before using it)."""
    return CORPORA.joinpath(*parts)


def experiment_inputs(name):
    """Everything an experiment's target needs: its outputs plus its determinism check."""
    targets = list(EXPERIMENTS[name]["targets"])
    if name in SCORECARDS:
        targets += SCORECARDS[name]
    targets += UNREADABLE.get(name, [])
    if DETERMINISM.get(name):
        targets += expand(DETERMINISM_RECORD, experiment=name)
    return targets


def experiment_listing():
    """One line per experiment: its target name, its report category, what it produces."""
    width = max((len(n) for n in EXPERIMENTS), default=10)
    lines = [f"{'experiment':<{width}}  category", f"{'-' * width}  --------"]
    for name in sorted(EXPERIMENTS):
        lines.append(f"{name:<{width}}  {EXPERIMENTS[name]['category']}")
    lines.append(
        f"\nRun one: snakemake --cores 8 NAME   (targets before any --configfile)"
    )
    return "\n".join(lines)


def experiment_targets():
    return [t for name in sorted(EXPERIMENTS) for t in experiment_inputs(name)]


def determinism_sample(name):
    """The artifacts re-run for the determinism check: `determinism.sample` of them, evenly spread."""
    return evenly_spaced(DETERMINISM.get(name, []), config["determinism"]["sample"])


def determinism_resources_for(name, key):
    """A determinism job's threads / mem_mb / runtime: enough for the sampled jobs it re-runs."""
    producers = [
        next((r.name for r in workflow.rules if r.is_producer(a)), "default")
        for a in determinism_sample(name)
    ]
    return determinism_resource(config, producers, key)


def report_targets():
    """Report-wide tables (see rules/report.smk)."""
    return [
        EFFECTIVE_CONFIG,
        "results/report/scorecard.html",
        "results/report/unreadable.html",
        "results/report/cost.timing.html",
        "results/report/determinism.html",
        "results/report/skipped.html",
        "results/report/config.html",
    ]


def threads_for(rule_name):
    return resource_for(config, rule_name, "threads")


def mem_mb_for(rule_name):
    return resource_for(config, rule_name, "mem_mb")


def runtime_for(rule_name):
    return resource_for(config, rule_name, "runtime")
