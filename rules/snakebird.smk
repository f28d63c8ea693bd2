# Snakebird experiments (category "Snakebird"): every level of the project's set and of the shared
# corpus solved optimally through the compressed BFS, replayed to a win, beside the published move
# counts, the public per-depth counts and, where it is installed, the reference C++ solver.
# The corpus levels named in `deep_levels` (searches of hours) form their own experiment, snakebird_deep,
# with the same steps under results/snakebird_deep/. Helpers live in puzzlelab/snakebird/pipeline.py.
from puzzlelab.snakebird.pipeline import level_jobs as snakebird_level_jobs
from puzzlelab.snakebird.pipeline import experiment_jobs as snakebird_experiment_jobs
from puzzlelab.snakebird.pipeline import (
    missing_corpus_levels as snakebird_missing_levels,
)
from puzzlelab.snakebird.pipeline import reference_jobs as snakebird_reference_jobs
from puzzlelab.snakebird.pipeline import per_level as snakebird_per_level
from puzzlelab.snakebird.pipeline import level_resource as snakebird_level_resource

SB_CFG = config["snakebird_levels"]
SB_ALL_JOBS = snakebird_level_jobs(SB_CFG, CORPORA, HAVE_CORPORA)
SB_EXP_JOBS = snakebird_experiment_jobs(SB_CFG, SB_ALL_JOBS)
SB_JOBS = SB_EXP_JOBS["snakebird_levels"]
SB_REF_PREFIX = config.get("reference_solvers", {}).get("snakebird_cpp", "")
SB_REFS = snakebird_reference_jobs(SB_ALL_JOBS, SB_REF_PREFIX)
# the experiments that have levels: snakebird_levels always, snakebird_deep when deep_levels selects any
SB_EXPERIMENTS = [
    e for e, jobs in SB_EXP_JOBS.items() if jobs or e == "snakebird_levels"
]
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
if any(k.startswith("corpus/") for k in SB_ALL_JOBS) and not SB_REFS:
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
        level=lambda wc: SB_ALL_JOBS[f"{wc.sbset}/{wc.sblevel}"],
    output:
        instance="results/{sbexp}/levels/{sbset}/{sblevel}.txt",
        unreadable="results/{sbexp}/levels/{sbset}/{sblevel}.unreadable.csv",
    log:
        "results/logs/{sbexp}/parse/{sbset}/{sblevel}.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_parse/{sbset}/{sblevel}.tsv"
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
        json="results/{sbexp}/runs/{sbset}/{sblevel}.json",
        timing="results/{sbexp}/runs/{sbset}/{sblevel}.timing.json",
    log:
        "results/logs/{sbexp}/{sbset}/{sblevel}.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_solve/{sbset}/{sblevel}.tsv"
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
        workdir="results/{sbexp}/spill",
        # a solve killed between depths resumes from here when the job is run again
        checkpoint="results/{sbexp}/checkpoints/{sbset}/{sblevel}",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab snakebird solve {input.level:q} --unreadable-ok"
        " --memory-budget {params.budget} --workdir {params.workdir}"
        " --checkpoint {params.checkpoint} --out {output.json} --timing {output.timing} 2> {log}"


rule snakebird_reference:
    input:
        level=lambda wc: expand(
            rules.snakebird_parse.output.instance,
            sbexp=wc.sbexp,
            sbset="corpus",
            sblevel=wc.sblevel,
        ),
    output:
        # .peer.: whether the reference is installed is a fact of the machine (not in the manifest)
        json="results/{sbexp}/reference/{sblevel}.peer.json",
        timing="results/{sbexp}/reference/{sblevel}.peer.timing.json",
    log:
        "results/logs/{sbexp}/reference/{sblevel}.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_reference/{sblevel}.tsv"
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


# per experiment: its solve runs and timings, its reference runs and timings, its level files
SB_RUNS = {
    e: snakebird_per_level(rules.snakebird_solve.output.json, SB_EXP_JOBS[e], sbexp=e)
    for e in SB_EXPERIMENTS
}
SB_TIMINGS = {
    e: snakebird_per_level(rules.snakebird_solve.output.timing, SB_EXP_JOBS[e], sbexp=e)
    for e in SB_EXPERIMENTS
}
SB_EXP_REFS = {
    e: sorted(n for n in SB_REFS if f"corpus/{n}" in SB_EXP_JOBS[e])
    for e in SB_EXPERIMENTS
}
SB_REF_RUNS = {
    e: expand(rules.snakebird_reference.output.json, sbexp=e, sblevel=SB_EXP_REFS[e])
    for e in SB_EXPERIMENTS
}
SB_REF_TIMINGS = {
    e: expand(rules.snakebird_reference.output.timing, sbexp=e, sblevel=SB_EXP_REFS[e])
    for e in SB_EXPERIMENTS
}
SB_LEVEL_FILES = {
    e: [SB_EXP_JOBS[e][key] for key in sorted(SB_EXP_JOBS[e])] for e in SB_EXPERIMENTS
}
SB_HAVE_PUBLIC = HAVE_CORPORA and SB_PUBLIC_LAYERS.exists()


# the reference solver's and the public counts beside ours, for the tables that show them
SB_REFS_ARG = lambda wc, input: (
    "--reference " + " ".join(input.refs) if input.refs else ""
)
SB_PUBLIC_ARG = f"--public-layers {SB_PUBLIC_LAYERS}" if SB_HAVE_PUBLIC else ""
# snakebird_deep's scorecard rows are the deep search's figures (states, bits per state at billions)
SB_ROWS_ARG = lambda wc: "--scorecard-rows deep" if wc.sbexp == "snakebird_deep" else ""


wildcard_constraints:
    sbexp="snakebird_levels|snakebird_deep",


rule snakebird_levels_table:
    input:
        runs=lambda wc: SB_RUNS[wc.sbexp],
        timings=lambda wc: SB_TIMINGS[wc.sbexp],
        refs=lambda wc: SB_REF_RUNS[wc.sbexp],
        ref_timings=lambda wc: SB_REF_TIMINGS[wc.sbexp],
        public=[str(SB_PUBLIC_LAYERS)] if SB_HAVE_PUBLIC else [],
    output:
        csv="results/{sbexp}/levels.csv",
        html=report(
            "results/{sbexp}/levels.html",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"table": "levels: moves, states, bits per state"},
            caption="../report/snakebird/levels.rst",
        ),
        svg=report(
            "results/{sbexp}/bits_vs_states.svg",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"figure": "bits per state against states"},
            caption="../report/snakebird/bits_vs_states.rst",
        ),
        scorecard="results/{sbexp}/scorecard.csv",
    log:
        "results/logs/{sbexp}/levels_table.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_levels_table/all.tsv"
    conda:
        ENV
    params:
        refs=SB_REFS_ARG,
        public=SB_PUBLIC_ARG,
        times_link="results/{sbexp}/levels.timing.html",
        rows=SB_ROWS_ARG,
    shell:
        "puzzlelab snakebird report levels {input.runs} {params.refs} {params.public}"
        " --csv {output.csv} --html {output.html} --svg {output.svg}"
        " --scorecard {output.scorecard} --times-link {params.times_link} {params.rows} 2> {log}"


rule snakebird_levels_time_table:
    input:
        runs=lambda wc: SB_RUNS[wc.sbexp],
        timings=lambda wc: SB_TIMINGS[wc.sbexp],
        refs=lambda wc: SB_REF_RUNS[wc.sbexp],
        ref_timings=lambda wc: SB_REF_TIMINGS[wc.sbexp],
    output:
        csv="results/{sbexp}/levels.timing.csv",
        html=report(
            "results/{sbexp}/levels.timing.html",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"table": "levels: time, memory and the reference solver"},
            caption="../report/snakebird/times.rst",
        ),
        svg=report(
            "results/{sbexp}/states_vs_time.timing.svg",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"figure": "states against solve time"},
            caption="../report/snakebird/states_vs_time.rst",
        ),
    log:
        "results/logs/{sbexp}/levels_time_table.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_levels_time_table/all.tsv"
    conda:
        ENV
    params:
        refs=SB_REFS_ARG,
    shell:
        "puzzlelab snakebird report levels-time {input.runs} {params.refs}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} 2> {log}"


rule snakebird_layers_table:
    input:
        runs=lambda wc: SB_RUNS[wc.sbexp],
        public=[str(SB_PUBLIC_LAYERS)] if SB_HAVE_PUBLIC else [],
    output:
        csv="results/{sbexp}/layers.csv",
        html=report(
            "results/{sbexp}/layers.html",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"table": "new states per distance"},
            caption="../report/snakebird/layers.rst",
        ),
    log:
        "results/logs/{sbexp}/layers_table.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_layers_table/all.tsv"
    conda:
        ENV
    params:
        public=SB_PUBLIC_ARG,
    shell:
        "puzzlelab snakebird report layers {input.runs} {params.public}"
        " --csv {output.csv} --html {output.html} 2> {log}"


rule snakebird_solutions_table:
    input:
        runs=lambda wc: SB_RUNS[wc.sbexp],
        levels=lambda wc: SB_LEVEL_FILES[wc.sbexp],
    output:
        csv="results/{sbexp}/solutions.csv",
        html=report(
            "results/{sbexp}/solutions.html",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"table": "one optimal solution per level"},
            caption="../report/snakebird/solutions.rst",
        ),
        svg=report(
            "results/{sbexp}/levels.svg",
            category=SB_CATEGORY,
            subcategory="{sbexp}",
            labels={"figure": "every level solved: start positions"},
            caption="../report/snakebird/pictures.rst",
        ),
    log:
        "results/logs/{sbexp}/solutions_table.log",
    benchmark:
        "results/benchmarks/{sbexp}/snakebird_solutions_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab snakebird report solutions {input.runs}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} 2> {log}"


for _exp in SB_EXPERIMENTS:
    _out = {
        r: getattr(rules, r).output
        for r in (
            "snakebird_levels_table",
            "snakebird_levels_time_table",
            "snakebird_layers_table",
            "snakebird_solutions_table",
        )
    }
    register_experiment(
        _exp,
        SB_CATEGORY,
        expand(
            [
                _out["snakebird_levels_table"].html,
                _out["snakebird_levels_table"].svg,
                _out["snakebird_levels_time_table"].html,
                _out["snakebird_levels_time_table"].svg,
                _out["snakebird_layers_table"].html,
                _out["snakebird_solutions_table"].html,
                _out["snakebird_solutions_table"].svg,
            ],
            sbexp=_exp,
        ),
    )
    register_scorecard(
        _exp, expand(_out["snakebird_levels_table"].scorecard, sbexp=_exp)[0]
    )
    register_unreadable(
        _exp,
        snakebird_per_level(
            rules.snakebird_parse.output.unreadable, SB_EXP_JOBS[_exp], sbexp=_exp
        ),
    )
# The determinism check re-runs a sample of solves: snakebird_deep's (hours each) are left to
# `make verify` against the committed manifest; its check re-runs the parse step.
register_determinism("snakebird_levels", SB_RUNS["snakebird_levels"])
if "snakebird_deep" in SB_EXPERIMENTS:
    register_determinism(
        "snakebird_deep",
        snakebird_per_level(
            rules.snakebird_parse.output.instance,
            SB_EXP_JOBS["snakebird_deep"],
            sbexp="snakebird_deep",
        ),
    )


rule snakebird_levels:
    input:
        experiment_inputs("snakebird_levels"),


if "snakebird_deep" in SB_EXPERIMENTS:

    rule snakebird_deep:
        input:
            experiment_inputs("snakebird_deep"),
