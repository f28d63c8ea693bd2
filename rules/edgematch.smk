# Edge-matching instances shared by the beam (rules/beam.smk) and meet-in-the-middle
# (rules/mitm.smk) experiments: each generated E2-like puzzle, its planted solution and its
# E2-style hints are made once by one rule; each corpus puzzle is read and checked once by the parse
# step, which writes the canonical instance every solve job reads and the hints it carries. Helpers: src/puzzlelab/edgematch/pipeline.py.
from puzzlelab.edgematch import pipeline as edgematch_pipeline

EDGEMATCH_GENERATED = edgematch_pipeline.generated(config)
EDGEMATCH_CORPUS = edgematch_pipeline.corpus(HAVE_CORPORA, corpus_path)


wildcard_constraints:
    em_name=r"[A-Za-z0-9_\-]+",


rule edgematch_instance:
    output:
        puzzle="results/edgematch/instances/{em_name}.txt",
        solution="results/edgematch/instances/{em_name}.solution.json",
        hints="results/edgematch/instances/{em_name}.hints.txt",
    log:
        "results/logs/edgematch/instance_{em_name}.log",
    benchmark:
        "results/benchmarks/edgematch/edgematch_instance/{em_name}.tsv"
    conda:
        ENV
    threads: threads_for("edgematch_instance")
    resources:
        mem_mb=mem_mb_for("edgematch_instance"),
        runtime=runtime_for("edgematch_instance"),
    params:
        size=lambda wc: EDGEMATCH_GENERATED[wc.em_name]["size"],
        seed=lambda wc: EDGEMATCH_GENERATED[wc.em_name]["seed"],
    shell:
        "puzzlelab edgematch generate --size {params.size} --seed {params.seed}"
        " --puzzle-out {output.puzzle} --solution-out {output.solution} --hints-out {output.hints}"
        " > /dev/null 2> {log}"


rule edgematch_corpus_instance:
    input:
        puzzle=lambda wc: EDGEMATCH_CORPUS[wc.em_name]["puzzle"],
    output:
        puzzle="results/edgematch/corpus/{em_name}.txt",
        hints="results/edgematch/corpus/{em_name}.hints.txt",
        summary="results/edgematch/corpus/{em_name}.json",
    log:
        "results/logs/edgematch/corpus_{em_name}.log",
    benchmark:
        "results/benchmarks/edgematch/edgematch_corpus_instance/{em_name}.tsv"
    conda:
        ENV
    threads: threads_for("edgematch_corpus_instance")
    resources:
        mem_mb=mem_mb_for("edgematch_corpus_instance"),
        runtime=runtime_for("edgematch_corpus_instance"),
    params:
        hints=lambda wc: EDGEMATCH_CORPUS[wc.em_name]["hints"],
    shell:
        "puzzlelab edgematch parse {input.puzzle} --hints {params.hints} --puzzle-out {output.puzzle}"
        " --hints-out {output.hints} --out {output.summary} > /dev/null 2> {log}"


# The instance files, as the patterns of the rules that make them.
EDGEMATCH_INSTANCE_FILES = {
    "generated": {
        "puzzle": rules.edgematch_instance.output.puzzle,
        "solution": rules.edgematch_instance.output.solution,
        "hints": rules.edgematch_instance.output.hints,
    },
    "corpus": {
        "puzzle": rules.edgematch_corpus_instance.output.puzzle,
        "hints": rules.edgematch_corpus_instance.output.hints,
    },
}
