# Edge-matching instances shared by the beam (rules/beam.smk) and meet-in-the-middle
# (rules/mitm.smk) experiments: each generated E2-like puzzle, its planted solution and its
# E2-style hints are made once by one rule. Helpers: src/puzzlelab/edgematch/pipeline.py.
from puzzlelab.edgematch import pipeline as edgematch_pipeline

EDGEMATCH_GENERATED = edgematch_pipeline.generated(config)


rule edgematch_instance:
    output:
        puzzle="results/edgematch/instances/{name}.txt",
        solution="results/edgematch/instances/{name}.solution.json",
        hints="results/edgematch/instances/{name}.hints.txt",
    log:
        "results/logs/edgematch/instance_{name}.log",
    wildcard_constraints:
        name="[A-Za-z0-9_-]+",
    conda:
        ENV
    threads: threads_for("edgematch_instance")
    resources:
        mem_mb=mem_mb_for("edgematch_instance"),
        runtime=runtime_for("edgematch_instance"),
    params:
        size=lambda wc: EDGEMATCH_GENERATED[wc.name]["size"],
        seed=lambda wc: EDGEMATCH_GENERATED[wc.name]["seed"],
    shell:
        "puzzlelab edgematch generate --size {params.size} --seed {params.seed}"
        " --out {output.puzzle} --solution {output.solution} --hints-out {output.hints} > /dev/null 2> {log}"


# The instance files, as the patterns of the rule that makes them.
EDGEMATCH_INSTANCE_FILES = {
    "puzzle": rules.edgematch_instance.output.puzzle,
    "solution": rules.edgematch_instance.output.solution,
    "hints": rules.edgematch_instance.output.hints,
}
