# Determinism: re-run a sample of each experiment's artifact-producing jobs in a scratch directory
# (a fresh Snakemake run of the same workflow and config) and compare sha256 byte for byte.


localrules:
    effective_config,


rule effective_config:
    output:
        EFFECTIVE_CONFIG,
    log:
        "results/logs/report/effective_config.log",
    conda:
        ENV
    params:
        config=lambda wc: json_param(config),
    shell:
        "puzzlelab lab effective-config --config {params.config:q} --out {output} 2> {log}"


rule determinism:
    input:
        artifacts=lambda wc: determinism_sample(wc.experiment),
        # ancient: the file is named by the config's hash (an edited config is a new file); otherwise
        # only the artifacts decide a rerun
        config=ancient(EFFECTIVE_CONFIG),
    output:
        DETERMINISM_RECORD,
    log:
        "results/logs/determinism/{experiment}.log",
    benchmark:
        "results/benchmarks/determinism/determinism/{experiment}.tsv"
    conda:
        ENV
    threads: lambda wc: determinism_resources_for(wc.experiment, "threads")
    resources:
        mem_mb=lambda wc: determinism_resources_for(wc.experiment, "mem_mb"),
        runtime=lambda wc: determinism_resources_for(wc.experiment, "runtime"),
    params:
        scratch=lambda wc: f"results/.determinism/{wc.experiment}",
        snakefile=os.path.relpath(workflow.main_snakefile),
    shell:
        "puzzlelab lab determinism {wildcards.experiment} {input.artifacts}"
        " --snakefile {params.snakefile} --configfile {input.config}"
        " --scratch {params.scratch} --cores {threads} --out {output} 2> {log}"
