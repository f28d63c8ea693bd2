# Snakebird experiments (category "Snakebird"): every level of the project's set and of the shared
# corpus solved optimally through the compressed BFS, replayed to a win, beside the published move
# counts, the public per-depth counts and, where it is installed, the reference C++ solver.
# Helpers live in puzzlelab/snakebird/pipeline.py.
from puzzlelab.snakebird.pipeline import level_jobs as snakebird_level_jobs
from puzzlelab.snakebird.pipeline import (
    missing_corpus_levels as snakebird_missing_levels,
)
from puzzlelab.snakebird.pipeline import reference_jobs as snakebird_reference_jobs
from puzzlelab.snakebird.pipeline import per_level as snakebird_per_level
from puzzlelab.snakebird.pipeline import level_resource as snakebird_level_resource

SB_CFG = config["snakebird_levels"]
SB_JOBS = snakebird_level_jobs(SB_CFG, CORPORA, HAVE_CORPORA)
SB_REF_PREFIX = config.get("reference_solvers", {}).get("snakebird_cpp", "")
SB_REFS = snakebird_reference_jobs(SB_JOBS, SB_REF_PREFIX)
SB_PUBLIC_LAYERS = corpus_path("snakebird", "public_layers.csv")
SB_CATEGORY = "Snakebird"

if SB_CFG.get("corpus_levels") and not HAVE_CORPORA:
    skip(
        "snakebird_levels",
        "the 53 levels of the shared corpus (snakebird/levels)",
        f"shared corpora not found at {CORPORA}; only the project's own levels ran",
    )
if HAVE_CORPORA and snakebird_missing_levels(SB_CFG, CORPORA):
    skip(
        "snakebird_levels",
        "levels " + ", ".join(snakebird_missing_levels(SB_CFG, CORPORA)),
        "named in the config but not found in the shared corpus",
    )
if any(k.startswith("corpus/") for k in SB_JOBS) and not SB_REFS:
    skip(
        "snakebird_levels",
        "reference C++ solver (jsnell/snakebird-solver) timings",
        f"no executable {SB_REF_PREFIX or '(reference_solvers.snakebird_cpp is empty)'}.<level> found"
        " (path or name on PATH)",
    )


localrules:
    snakebird_parse,
    snakebird_levels_table,
    snakebird_levels_time_table,
    snakebird_layers_table,
    snakebird_solutions_table,


rule snakebird_parse:
    input:
        level=lambda wc: SB_JOBS[f"{wc.sbset}/{wc.sblevel}"],
    output:
        instance="results/snakebird_levels/levels/{sbset}/{sblevel}.txt",
        unreadable="results/snakebird_levels/levels/{sbset}/{sblevel}.unreadable.csv",
    log:
        "results/logs/snakebird_levels/parse/{sbset}/{sblevel}.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_parse/{sbset}/{sblevel}.tsv"
    wildcard_constraints:
        sbset="project|corpus",
        sblevel=r"[A-Za-z0-9_-]+",
    conda:
        ENV
    threads: threads_for("snakebird_parse")
    resources:
        mem_mb=mem_mb_for("snakebird_parse"),
        runtime=runtime_for("snakebird_parse"),
    shell:
        "puzzlelab snakebird parse {input.level:q} --out {output.instance}"
        " --unreadable {output.unreadable} > /dev/null 2> {log}"


rule snakebird_solve:
    input:
        level=rules.snakebird_parse.output.instance,
    output:
        json="results/snakebird_levels/runs/{sbset}/{sblevel}.json",
        timing="results/snakebird_levels/runs/{sbset}/{sblevel}.timing.json",
    log:
        "results/logs/snakebird_levels/{sbset}/{sblevel}.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_solve/{sbset}/{sblevel}.tsv"
    wildcard_constraints:
        sbset="project|corpus",
        sblevel=r"[A-Za-z0-9_-]+",
    conda:
        ENV
    threads: lambda wc: snakebird_level_resource(config, wc.sblevel, "threads")
    resources:
        mem_mb=lambda wc: snakebird_level_resource(config, wc.sblevel, "mem_mb"),
        runtime=lambda wc: snakebird_level_resource(config, wc.sblevel, "runtime"),
    params:
        budget=SB_CFG["memory_budget"],
        workdir="results/snakebird_levels/spill",
        # a solve killed between depths resumes from here when the job is run again
        checkpoint="results/snakebird_levels/checkpoints/{sbset}/{sblevel}",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab snakebird solve {input.level:q} --unreadable-ok"
        " --memory-budget {params.budget} --workdir {params.workdir}"
        " --checkpoint {params.checkpoint} --out {output.json} --timing {output.timing} 2> {log}"


rule snakebird_reference:
    input:
        level=lambda wc: expand(
            rules.snakebird_parse.output.instance, sbset="corpus", sblevel=wc.sblevel
        ),
    output:
        json="results/snakebird_levels/reference/{sblevel}.json",
        timing="results/snakebird_levels/reference/{sblevel}.timing.json",
    log:
        "results/logs/snakebird_levels/reference/{sblevel}.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_reference/{sblevel}.tsv"
    wildcard_constraints:
        sblevel=r"[A-Za-z0-9_-]+",
    conda:
        ENV
    threads: threads_for("snakebird_reference")
    resources:
        mem_mb=mem_mb_for("snakebird_reference"),
        runtime=runtime_for("snakebird_reference"),
    params:
        binary=SB_REF_PREFIX,
        cpu_limit=SB_CFG["reference_cpu_limit"],
    shell:
        "puzzlelab snakebird reference {input.level:q} --binary {params.binary:q} --unreadable-ok"
        " --cpu-limit {params.cpu_limit} --out {output.json} --timing {output.timing} 2> {log}"


SB_RUNS = snakebird_per_level(rules.snakebird_solve.output.json, SB_JOBS)
SB_TIMINGS = snakebird_per_level(rules.snakebird_solve.output.timing, SB_JOBS)
SB_REF_RUNS = expand(rules.snakebird_reference.output.json, sblevel=sorted(SB_REFS))
SB_REF_TIMINGS = expand(
    rules.snakebird_reference.output.timing, sblevel=sorted(SB_REFS)
)
SB_HAVE_PUBLIC = HAVE_CORPORA and SB_PUBLIC_LAYERS.exists()


# the reference solver's and the public counts beside ours, for the tables that show them
SB_REFS_ARG = lambda wc, input: (
    "--reference " + " ".join(input.refs) if input.refs else ""
)
SB_PUBLIC_ARG = f"--public-layers {SB_PUBLIC_LAYERS}" if SB_HAVE_PUBLIC else ""


rule snakebird_levels_table:
    input:
        runs=SB_RUNS,
        timings=SB_TIMINGS,
        refs=SB_REF_RUNS,
        ref_timings=SB_REF_TIMINGS,
        public=[str(SB_PUBLIC_LAYERS)] if SB_HAVE_PUBLIC else [],
    output:
        csv="results/snakebird_levels/levels.csv",
        html=report(
            "results/snakebird_levels/levels.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "levels: moves, states, bits per state"},
            caption="../report/snakebird/levels.rst",
        ),
        svg=report(
            "results/snakebird_levels/bits_vs_states.svg",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"figure": "bits per state against states"},
            caption="../report/snakebird/bits_vs_states.rst",
        ),
        scorecard="results/snakebird_levels/scorecard.csv",
    log:
        "results/logs/snakebird_levels/levels_table.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_levels_table/all.tsv"
    conda:
        ENV
    params:
        refs=SB_REFS_ARG,
        public=SB_PUBLIC_ARG,
        times_link="results/snakebird_levels/levels.timing.html",
    shell:
        "puzzlelab snakebird report levels {input.runs} {params.refs} {params.public}"
        " --csv {output.csv} --html {output.html} --svg {output.svg}"
        " --scorecard {output.scorecard} --times-link {params.times_link} 2> {log}"


rule snakebird_levels_time_table:
    input:
        runs=SB_RUNS,
        timings=SB_TIMINGS,
        refs=SB_REF_RUNS,
        ref_timings=SB_REF_TIMINGS,
    output:
        csv="results/snakebird_levels/levels.timing.csv",
        html=report(
            "results/snakebird_levels/levels.timing.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "levels: time and memory"},
            caption="../report/snakebird/times.rst",
        ),
        svg=report(
            "results/snakebird_levels/states_vs_time.timing.svg",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"figure": "states against solve time"},
            caption="../report/snakebird/states_vs_time.rst",
        ),
    log:
        "results/logs/snakebird_levels/levels_time_table.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_levels_time_table/all.tsv"
    conda:
        ENV
    params:
        refs=SB_REFS_ARG,
    shell:
        "puzzlelab snakebird report levels-time {input.runs} {params.refs}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} 2> {log}"


rule snakebird_layers_table:
    input:
        runs=SB_RUNS,
        refs=SB_REF_RUNS,
        public=[str(SB_PUBLIC_LAYERS)] if SB_HAVE_PUBLIC else [],
    output:
        csv="results/snakebird_levels/layers.csv",
        html=report(
            "results/snakebird_levels/layers.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "new states per distance"},
            caption="../report/snakebird/layers.rst",
        ),
    log:
        "results/logs/snakebird_levels/layers_table.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_layers_table/all.tsv"
    conda:
        ENV
    params:
        refs=SB_REFS_ARG,
        public=SB_PUBLIC_ARG,
    shell:
        "puzzlelab snakebird report layers {input.runs} {params.refs} {params.public}"
        " --csv {output.csv} --html {output.html} 2> {log}"


rule snakebird_solutions_table:
    input:
        runs=SB_RUNS,
        levels=[SB_JOBS[key] for key in sorted(SB_JOBS)],
    output:
        csv="results/snakebird_levels/solutions.csv",
        html=report(
            "results/snakebird_levels/solutions.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "one optimal solution per level"},
            caption="../report/snakebird/solutions.rst",
        ),
        svg=report(
            "results/snakebird_levels/levels.svg",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"figure": "every level solved: start positions"},
            caption="../report/snakebird/pictures.rst",
        ),
    log:
        "results/logs/snakebird_levels/solutions_table.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_solutions_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab snakebird report solutions {input.runs}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} 2> {log}"


register_experiment(
    "snakebird_levels",
    SB_CATEGORY,
    [
        rules.snakebird_levels_table.output.html,
        rules.snakebird_levels_table.output.svg,
        rules.snakebird_levels_time_table.output.html,
        rules.snakebird_levels_time_table.output.svg,
        rules.snakebird_layers_table.output.html,
        rules.snakebird_solutions_table.output.html,
        rules.snakebird_solutions_table.output.svg,
    ],
)
register_scorecard("snakebird_levels", rules.snakebird_levels_table.output.scorecard)
register_determinism("snakebird_levels", SB_RUNS + SB_REF_RUNS)
register_unreadable(
    "snakebird_levels",
    snakebird_per_level(rules.snakebird_parse.output.unreadable, SB_JOBS),
)


rule snakebird_levels:
    input:
        experiment_inputs("snakebird_levels"),
