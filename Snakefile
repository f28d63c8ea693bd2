"""PuzzleLab: re-run the shelf of puzzle-search experiments and build the report.

snakemake --cores 8                                # the full reproduction (config/config.yaml)
snakemake --cores 2 --configfile config/quick.yaml # smoke run of every experiment
snakemake --cores 8 nonogram_bench                 # one experiment by its target name
snakemake --report reports/report.html             # the HTML report
"""

import os
import sys
from pathlib import Path

from snakemake.utils import min_version, validate

from puzzlelab.lab.configcheck import check as check_config
from puzzlelab.lab.configcheck import workflow_files
from puzzlelab.lab.locks import clear_stale_locks, record_owner
from puzzlelab.lab.snakemake_support import (
    last_run_config,
    prepare_report_folder,
    record_last_run_config,
    report_of_last_run,
)

min_version("9.0")


configfile: str(Path(workflow.basedir) / "config" / "config.yaml")


SCHEMA = Path(workflow.basedir) / "config" / "schema.yaml"
# Every problem of the merged config, located in the file that set it, before any job runs.
_files, _overrides = workflow_files(workflow)
_problems = check_config(_files, SCHEMA, _overrides)
if _problems:
    print("\n".join(_problems), file=sys.stderr)
    sys.exit(2)
# `snakemake --report FILE` without --configfile reports the run that is on disk, with the config
# that run used (recorded when it started), so the README's report command works after
# a quick run as after a full one.
if report_of_last_run(sys.argv, _files, _overrides):
    config.clear()
    config.update(last_run_config())
prepare_report_folder(sys.argv)
validate(config, str(SCHEMA))

# A run that was killed (SIGKILL, a closed terminal, a lost node) left its lock: rerunning the same
# command resumes, without `--unlock`, unless the Snakemake holding the lock is still alive.
clear_stale_locks()


onstart:
    record_owner()
    record_last_run_config(config)


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/nonogram.smk"
include: "rules/bfs.smk"
include: "rules/snakebird.smk"
include: "rules/edgematch.smk"
include: "rules/beam.smk"
include: "rules/refine.smk"
include: "rules/mitm.smk"
include: "rules/balda.smk"
include: "rules/determinism.smk"
include: "rules/report.smk"


# `make experiments`: the experiments, each a target (`snakemake --cores 8 NAME`).
if os.environ.get("PUZZLELAB_LIST_EXPERIMENTS"):
    print(experiment_listing())
    sys.exit(0)


rule all:
    default_target: True
    input:
        experiment_targets(),
        report_targets(),
