"""PuzzleLab: re-run the shelf of puzzle-search experiments and build the report.

snakemake --cores 8                                # the full reproduction (config/config.yaml)
snakemake --cores 2 --configfile config/quick.yaml # smoke run of every experiment
snakemake --cores 8 nonogram_bench                 # one experiment by its target name
snakemake --report reports/report.html             # the HTML report
"""

from pathlib import Path

from snakemake.utils import min_version, validate

min_version("9.0")


configfile: str(Path(workflow.basedir) / "config" / "config.yaml")


validate(config, str(Path(workflow.basedir) / "config" / "schema.yaml"))


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/nonogram.smk"
include: "rules/bfs.smk"
include: "rules/snakebird.smk"
include: "rules/edgematch.smk"
include: "rules/beam.smk"
include: "rules/mitm.smk"
include: "rules/balda.smk"
include: "rules/determinism.smk"
include: "rules/report.smk"


rule all:
    default_target: True
    input:
        experiment_targets(),
        report_targets(),
