# Determinism: re-run a sample of each experiment's artifact-producing jobs in a scratch directory
# (a fresh Snakemake run of the same workflow and config) and compare sha256 byte for byte.


rule determinism:
    input:
        artifacts=lambda wc: determinism_sample(wc.experiment),
    output:
        "results/determinism/{experiment}.json",
    log:
        "results/logs/determinism/{experiment}.log",
    conda:
        ENV
    threads: lambda wc: determinism_resources_for(wc.experiment, "threads")
    resources:
        mem_mb=lambda wc: determinism_resources_for(wc.experiment, "mem_mb"),
        runtime=lambda wc: determinism_resources_for(wc.experiment, "runtime"),
    params:
        scratch=lambda wc: f"results/.determinism/{wc.experiment}",
        snakefile=workflow.main_snakefile,
        configfile=EFFECTIVE_CONFIG,
    shell:
        "puzzlelab lab determinism {wildcards.experiment} {input.artifacts}"
        " --snakefile {params.snakefile} --configfile {params.configfile}"
        " --scratch {params.scratch} --cores {threads} --out {output} 2> {log}"
