# Compressed BFS experiments (category "Compressed BFS"): layer counts against OEIS, codecs,
# sort+merge (frontier and visited set) vs the hash set, memory budgets, parent hashes, and a
# deep 15-puzzle search. Helpers live in puzzlelab/bfs/pipeline.py.
from puzzlelab.bfs import pipeline as bfs_pl

# domain strings may name shared-corpus files as {corpora}/...: resolved here, skipped when absent
BFS_LAYERS = bfs_pl.entries(config["bfs_layers"], corpora=CORPORA)
BFS_CODECS = bfs_pl.entries(config["bfs_codecs"], corpora=CORPORA)
BFS_DEDUP = bfs_pl.entries(config["bfs_dedup"], corpora=CORPORA)
BFS_BUDGET = bfs_pl.entries(config["bfs_budget"], corpora=CORPORA)
BFS_BUDGETS = bfs_pl.budgets(config["bfs_budget"])
BFS_PARENTS = bfs_pl.entries(config["bfs_parents"], corpora=CORPORA)
BFS_DEEP = bfs_pl.entries(config["bfs_deep"], corpora=CORPORA)
for _bfs_exp in [
    "bfs_layers",
    "bfs_codecs",
    "bfs_dedup",
    "bfs_budget",
    "bfs_parents",
    "bfs_deep",
]:
    for _bfs_domain in bfs_pl.missing_entries(config[_bfs_exp], CORPORA):
        skip(_bfs_exp, _bfs_domain, f"shared corpus file not found under {CORPORA}")
BFS_REFERENCE = corpus_path("bfs", "reference_layer_counts.txt")
BFS_REFERENCE_INPUT = [str(BFS_REFERENCE)] if BFS_REFERENCE.exists() else []
BFS_CATEGORY = "Compressed BFS"
BFS_SPILL = "results/.spill"  # spill folders (removed by each search when it ends)

if not BFS_REFERENCE.exists():
    skip(
        "bfs_layers",
        "comparison with reference_layer_counts.txt",
        f"shared corpus file not found: {BFS_REFERENCE}; the OEIS rows embedded in the code are used",
    )


wildcard_constraints:
    bfs_search=r"[A-Za-z0-9.-]+(?<!\.timing)",
    bfs_dedup="frontier|sortmerge|hash",
    bfs_rep=r"\d+",
    bfs_budget="[A-Za-z0-9]+",


localrules:
    bfs_layers_table,
    bfs_layers_time_table,
    bfs_depths_table,
    bfs_codecs_table,
    bfs_codec_runs_table,
    bfs_dedup_table,
    bfs_dedup_time_table,
    bfs_budget_table,
    bfs_budget_time_table,
    bfs_parents_table,
    bfs_parents_time_table,
    bfs_deep_table,
    bfs_deep_time_table,


# --- bfs_layers: layer counts of every domain, beside the published ones ---------------------------
rule bfs_layers_run:
    output:
        json="results/bfs_layers/runs/{bfs_search}.json",
        timing="results/bfs_layers/runs/{bfs_search}.timing.json",
    log:
        "results/logs/bfs_layers/{bfs_search}.log",
    benchmark:
        "results/benchmarks/bfs_layers/bfs_layers_run/{bfs_search}.tsv"
    conda:
        ENV
    threads: threads_for("bfs_layers_run")
    resources:
        mem_mb=mem_mb_for("bfs_layers_run"),
        runtime=runtime_for("bfs_layers_run"),
    params:
        domain=lambda wc: BFS_LAYERS[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_pl.depth_value(BFS_LAYERS[wc.bfs_search]),
        budget=config["bfs_layers"]["memory_budget"],
        workdir=f"{BFS_SPILL}/bfs_layers",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} --max-depth {params.depth}"
        " --memory-budget {params.budget} --workdir {params.workdir} --discard-layers"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_LAYERS_RUNS = expand(
    rules.bfs_layers_run.output.json, bfs_search=sorted(BFS_LAYERS)
)
BFS_LAYERS_TIMINGS = expand(
    rules.bfs_layers_run.output.timing, bfs_search=sorted(BFS_LAYERS)
)


rule bfs_layers_table:
    input:
        runs=BFS_LAYERS_RUNS,
        reference=BFS_REFERENCE_INPUT,
    output:
        csv="results/bfs_layers/layers.csv",
        html=report(
            "results/bfs_layers/layers.html",
            category=BFS_CATEGORY,
            subcategory="bfs_layers",
            labels={"table": "layer counts against OEIS"},
            caption="../report/bfs/layers.rst",
        ),
        scorecard="results/bfs_layers/scorecard.csv",
    log:
        "results/logs/bfs_layers/table.log",
    benchmark:
        "results/benchmarks/bfs_layers/bfs_layers_table/all.tsv"
    conda:
        ENV
    params:
        reference=lambda wc, input: bfs_pl.reference_value(list(input.reference)),
    shell:
        "puzzlelab bfs report layers {input.runs} --reference {params.reference} --csv {output.csv} --html {output.html}"
        " --scorecard {output.scorecard} 2> {log}"


rule bfs_layers_time_table:
    input:
        runs=BFS_LAYERS_RUNS,
        timings=BFS_LAYERS_TIMINGS,
    output:
        csv="results/bfs_layers/layers.timing.csv",
        html=report(
            "results/bfs_layers/layers.timing.html",
            category=BFS_CATEGORY,
            subcategory="bfs_layers",
            labels={"table": "time and memory of each search"},
            caption="../report/bfs/layers_time.rst",
        ),
    log:
        "results/logs/bfs_layers/time_table.log",
    benchmark:
        "results/benchmarks/bfs_layers/bfs_layers_time_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report layers-time {input.runs} --csv {output.csv} --html {output.html} 2> {log}"


rule bfs_depths_table:
    input:
        runs=BFS_LAYERS_RUNS,
        reference=BFS_REFERENCE_INPUT,
    output:
        csv="results/bfs_layers/layers_by_depth.csv",
        html=report(
            "results/bfs_layers/layers_by_depth.html",
            category=BFS_CATEGORY,
            subcategory="bfs_layers",
            labels={"table": "every depth against OEIS"},
            caption="../report/bfs/layers_by_depth.rst",
        ),
    log:
        "results/logs/bfs_layers/depths.log",
    benchmark:
        "results/benchmarks/bfs_layers/bfs_depths_table/all.tsv"
    conda:
        ENV
    params:
        reference=lambda wc, input: bfs_pl.reference_value(list(input.reference)),
    shell:
        "puzzlelab bfs report depths {input.runs} --reference {params.reference} --csv {output.csv} --html {output.html}"
        " 2> {log}"


register_experiment(
    "bfs_layers",
    BFS_CATEGORY,
    [
        rules.bfs_layers_table.output.html,
        rules.bfs_layers_time_table.output.html,
        rules.bfs_depths_table.output.html,
    ],
)
register_scorecard("bfs_layers", rules.bfs_layers_table.output.scorecard)
register_determinism("bfs_layers", BFS_LAYERS_RUNS)


rule bfs_layers:
    input:
        experiment_inputs("bfs_layers"),


# --- bfs_codecs: bits per state of visited sets, layers and frontier runs, every codec -----------------
rule bfs_codecs_run:
    output:
        json="results/bfs_codecs/runs/{bfs_search}.json",
        timing="results/bfs_codecs/runs/{bfs_search}.timing.json",
    log:
        "results/logs/bfs_codecs/{bfs_search}.log",
    benchmark:
        "results/benchmarks/bfs_codecs/bfs_codecs_run/{bfs_search}.tsv"
    conda:
        ENV
    threads: threads_for("bfs_codecs_run")
    resources:
        mem_mb=mem_mb_for("bfs_codecs_run"),
        runtime=runtime_for("bfs_codecs_run"),
    params:
        domain=lambda wc: BFS_CODECS[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_pl.depth_value(BFS_CODECS[wc.bfs_search]),
        codecs=",".join(config["bfs_codecs"]["codecs"]),
        level=config["bfs_codecs"]["zstd_level"],
        chunk=config["bfs_codecs"]["chunk_states"],
        budget=config["bfs_codecs"]["memory_budget"],
        workdir=f"{BFS_SPILL}/bfs_codecs",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs codecs {params.domain:q} --max-depth {params.depth}"
        " --codecs {params.codecs} --zstd-level {params.level} --chunk-states {params.chunk}"
        " --memory-budget {params.budget} --workdir {params.workdir}"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_CODECS_RUNS = expand(
    rules.bfs_codecs_run.output.json, bfs_search=sorted(BFS_CODECS)
)


rule bfs_codecs_table:
    input:
        BFS_CODECS_RUNS,
    output:
        csv="results/bfs_codecs/visited.csv",
        html=report(
            "results/bfs_codecs/visited.html",
            category=BFS_CATEGORY,
            subcategory="bfs_codecs",
            labels={"table": "bits per state of the visited set and of each layer"},
            caption="../report/bfs/codecs_visited.rst",
        ),
        svg=report(
            "results/bfs_codecs/bits_per_state.svg",
            category=BFS_CATEGORY,
            subcategory="bfs_codecs",
            labels={"figure": "bits per state against the number of states"},
            caption="../report/bfs/codecs_plot.rst",
        ),
        scorecard="results/bfs_codecs/scorecard.csv",
    log:
        "results/logs/bfs_codecs/table.log",
    benchmark:
        "results/benchmarks/bfs_codecs/bfs_codecs_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report codecs {input} --csv {output.csv} --html {output.html} --svg {output.svg}"
        " --scorecard {output.scorecard} 2> {log}"


rule bfs_codec_runs_table:
    input:
        BFS_CODECS_RUNS,
    output:
        csv="results/bfs_codecs/runs.csv",
        html=report(
            "results/bfs_codecs/runs.html",
            category=BFS_CATEGORY,
            subcategory="bfs_codecs",
            labels={"table": "bits per state of the frontier runs"},
            caption="../report/bfs/codecs_runs.rst",
        ),
    log:
        "results/logs/bfs_codecs/runs_table.log",
    benchmark:
        "results/benchmarks/bfs_codecs/bfs_codec_runs_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report codec-runs {input} --csv {output.csv} --html {output.html} 2> {log}"


register_experiment(
    "bfs_codecs",
    BFS_CATEGORY,
    [
        rules.bfs_codecs_table.output.html,
        rules.bfs_codecs_table.output.svg,
        rules.bfs_codec_runs_table.output.html,
    ],
)
register_scorecard("bfs_codecs", rules.bfs_codecs_table.output.scorecard)
register_determinism("bfs_codecs", BFS_CODECS_RUNS)


rule bfs_codecs:
    input:
        experiment_inputs("bfs_codecs"),


# --- bfs_dedup: frontier and visited-set sort+merge against the in-memory hash set -----------------
rule bfs_dedup_run:
    output:
        json="results/bfs_dedup/runs/{bfs_search}.{bfs_dedup}.r{bfs_rep}.json",
        timing="results/bfs_dedup/runs/{bfs_search}.{bfs_dedup}.r{bfs_rep}.timing.json",
    log:
        "results/logs/bfs_dedup/{bfs_search}.{bfs_dedup}.r{bfs_rep}.log",
    benchmark:
        "results/benchmarks/bfs_dedup/bfs_dedup_run/{bfs_search}.{bfs_dedup}.r{bfs_rep}.tsv"
    conda:
        ENV
    threads: threads_for("bfs_dedup_run")
    resources:
        mem_mb=mem_mb_for("bfs_dedup_run"),
        runtime=runtime_for("bfs_dedup_run"),
    params:
        domain=lambda wc: BFS_DEDUP[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_pl.depth_value(BFS_DEDUP[wc.bfs_search]),
        budget=config["bfs_dedup"]["memory_budget"],
        workdir=f"{BFS_SPILL}/bfs_dedup",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} --max-depth {params.depth}"
        " --dedup {wildcards.bfs_dedup} --memory-budget {params.budget} --workdir {params.workdir}"
        " --discard-layers --warm-up --out {output.json} --timing {output.timing} 2> {log}"


BFS_DEDUP_RUNS = bfs_pl.dedup_runs(
    rules.bfs_dedup_run.output.json, BFS_DEDUP, config["bfs_dedup"]
)
BFS_DEDUP_TIMINGS = bfs_pl.dedup_runs(
    rules.bfs_dedup_run.output.timing, BFS_DEDUP, config["bfs_dedup"]
)


rule bfs_dedup_table:
    input:
        BFS_DEDUP_RUNS,
    output:
        csv="results/bfs_dedup/dedup.csv",
        html=report(
            "results/bfs_dedup/dedup.html",
            category=BFS_CATEGORY,
            subcategory="bfs_dedup",
            labels={"table": "the same layers by every deduplication"},
            caption="../report/bfs/dedup.rst",
        ),
    log:
        "results/logs/bfs_dedup/table.log",
    benchmark:
        "results/benchmarks/bfs_dedup/bfs_dedup_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report dedup {input} --csv {output.csv} --html {output.html} 2> {log}"


rule bfs_dedup_time_table:
    input:
        runs=BFS_DEDUP_RUNS,
        timings=BFS_DEDUP_TIMINGS,
    output:
        csv="results/bfs_dedup/dedup.timing.csv",
        html=report(
            "results/bfs_dedup/dedup.timing.html",
            category=BFS_CATEGORY,
            subcategory="bfs_dedup",
            labels={"table": "CPU time and memory of each deduplication"},
            caption="../report/bfs/dedup_time.rst",
        ),
        scorecard="results/bfs_dedup/scorecard.csv",
    log:
        "results/logs/bfs_dedup/time_table.log",
    benchmark:
        "results/benchmarks/bfs_dedup/bfs_dedup_time_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report dedup-time {input.runs} --csv {output.csv} --html {output.html}"
        " --scorecard {output.scorecard} 2> {log}"


register_experiment(
    "bfs_dedup",
    BFS_CATEGORY,
    [rules.bfs_dedup_table.output.html, rules.bfs_dedup_time_table.output.html],
)
register_scorecard("bfs_dedup", rules.bfs_dedup_time_table.output.scorecard)
register_determinism("bfs_dedup", BFS_DEDUP_RUNS)


rule bfs_dedup:
    input:
        experiment_inputs("bfs_dedup"),


# --- bfs_budget: one larger search under shrinking memory budgets ----------------------------------
rule bfs_budget_run:
    output:
        json="results/bfs_budget/runs/{bfs_search}.b{bfs_budget}.json",
        timing="results/bfs_budget/runs/{bfs_search}.b{bfs_budget}.timing.json",
    log:
        "results/logs/bfs_budget/{bfs_search}.b{bfs_budget}.log",
    benchmark:
        "results/benchmarks/bfs_budget/bfs_budget_run/{bfs_search}.b{bfs_budget}.tsv"
    conda:
        ENV
    threads: threads_for("bfs_budget_run")
    resources:
        mem_mb=mem_mb_for("bfs_budget_run"),
        runtime=runtime_for("bfs_budget_run"),
    params:
        domain=lambda wc: BFS_BUDGET[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_pl.depth_value(BFS_BUDGET[wc.bfs_search]),
        budget=lambda wc: BFS_BUDGETS[wc.bfs_budget],
        workdir=f"{BFS_SPILL}/bfs_budget",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} --max-depth {params.depth}"
        " --memory-budget {params.budget} --workdir {params.workdir}"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_BUDGET_RUNS = expand(
    rules.bfs_budget_run.output.json,
    bfs_search=sorted(BFS_BUDGET),
    bfs_budget=list(BFS_BUDGETS),
)
BFS_BUDGET_TIMINGS = expand(
    rules.bfs_budget_run.output.timing,
    bfs_search=sorted(BFS_BUDGET),
    bfs_budget=list(BFS_BUDGETS),
)


rule bfs_budget_table:
    input:
        BFS_BUDGET_RUNS,
    output:
        csv="results/bfs_budget/budget.csv",
        html=report(
            "results/bfs_budget/budget.html",
            category=BFS_CATEGORY,
            subcategory="bfs_budget",
            labels={"table": "spilling under shrinking budgets"},
            caption="../report/bfs/budget.rst",
        ),
    log:
        "results/logs/bfs_budget/table.log",
    benchmark:
        "results/benchmarks/bfs_budget/bfs_budget_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report budget {input} --csv {output.csv} --html {output.html} 2> {log}"


rule bfs_budget_time_table:
    input:
        runs=BFS_BUDGET_RUNS,
        timings=BFS_BUDGET_TIMINGS,
    output:
        csv="results/bfs_budget/budget.timing.csv",
        html=report(
            "results/bfs_budget/budget.timing.html",
            category=BFS_CATEGORY,
            subcategory="bfs_budget",
            labels={"table": "peak memory and time under each budget"},
            caption="../report/bfs/budget_time.rst",
        ),
        svg=report(
            "results/bfs_budget/budget.timing.svg",
            category=BFS_CATEGORY,
            subcategory="bfs_budget",
            labels={"figure": "peak memory and CPU time against the budget"},
            caption="../report/bfs/budget_plot.rst",
        ),
        scorecard="results/bfs_budget/scorecard.csv",
    log:
        "results/logs/bfs_budget/time_table.log",
    benchmark:
        "results/benchmarks/bfs_budget/bfs_budget_time_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report budget-time {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} --scorecard {output.scorecard} 2> {log}"


register_experiment(
    "bfs_budget",
    BFS_CATEGORY,
    [
        rules.bfs_budget_table.output.html,
        rules.bfs_budget_time_table.output.html,
        rules.bfs_budget_time_table.output.svg,
    ],
)
register_scorecard("bfs_budget", rules.bfs_budget_time_table.output.scorecard)
register_determinism("bfs_budget", BFS_BUDGET_RUNS)


rule bfs_budget:
    input:
        experiment_inputs("bfs_budget"),


# --- bfs_parents: 1-byte parent hashes vs full parents, cost of rebuilding paths -------------------
rule bfs_parents_run:
    output:
        json="results/bfs_parents/runs/{bfs_search}.json",
        timing="results/bfs_parents/runs/{bfs_search}.timing.json",
    log:
        "results/logs/bfs_parents/{bfs_search}.log",
    benchmark:
        "results/benchmarks/bfs_parents/bfs_parents_run/{bfs_search}.tsv"
    conda:
        ENV
    threads: threads_for("bfs_parents_run")
    resources:
        mem_mb=mem_mb_for("bfs_parents_run"),
        runtime=runtime_for("bfs_parents_run"),
    params:
        domain=lambda wc: BFS_PARENTS[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_pl.depth_value(BFS_PARENTS[wc.bfs_search]),
        samples=config["bfs_parents"]["samples"],
        budget=config["bfs_parents"]["memory_budget"],
        workdir=f"{BFS_SPILL}/bfs_parents",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs parents {params.domain:q} --max-depth {params.depth}"
        " --samples {params.samples} --memory-budget {params.budget} --workdir {params.workdir}"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_PARENTS_RUNS = expand(
    rules.bfs_parents_run.output.json, bfs_search=sorted(BFS_PARENTS)
)
BFS_PARENTS_TIMINGS = expand(
    rules.bfs_parents_run.output.timing, bfs_search=sorted(BFS_PARENTS)
)


rule bfs_parents_table:
    input:
        BFS_PARENTS_RUNS,
    output:
        csv="results/bfs_parents/parents.csv",
        html=report(
            "results/bfs_parents/parents.html",
            category=BFS_CATEGORY,
            subcategory="bfs_parents",
            labels={"table": "1-byte parent hashes against full parents"},
            caption="../report/bfs/parents.rst",
        ),
        scorecard="results/bfs_parents/scorecard.csv",
    log:
        "results/logs/bfs_parents/table.log",
    benchmark:
        "results/benchmarks/bfs_parents/bfs_parents_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report parents {input} --csv {output.csv} --html {output.html}"
        " --scorecard {output.scorecard} 2> {log}"


rule bfs_parents_time_table:
    input:
        runs=BFS_PARENTS_RUNS,
        timings=BFS_PARENTS_TIMINGS,
    output:
        csv="results/bfs_parents/parents.timing.csv",
        html=report(
            "results/bfs_parents/parents.timing.html",
            category=BFS_CATEGORY,
            subcategory="bfs_parents",
            labels={"table": "CPU time of rebuilding paths"},
            caption="../report/bfs/parents_time.rst",
        ),
    log:
        "results/logs/bfs_parents/time_table.log",
    benchmark:
        "results/benchmarks/bfs_parents/bfs_parents_time_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report parents-time {input.runs} --csv {output.csv} --html {output.html} 2> {log}"


register_experiment(
    "bfs_parents",
    BFS_CATEGORY,
    [rules.bfs_parents_table.output.html, rules.bfs_parents_time_table.output.html],
)
register_scorecard("bfs_parents", rules.bfs_parents_table.output.scorecard)
register_determinism("bfs_parents", BFS_PARENTS_RUNS)


rule bfs_parents:
    input:
        experiment_inputs("bfs_parents"),


# --- bfs_deep: the 15-puzzle as deep as the budget allows, spilling to disk ---------------------------
rule bfs_deep_run:
    output:
        json="results/bfs_deep/runs/{bfs_search}.json",
        timing="results/bfs_deep/runs/{bfs_search}.timing.json",
    log:
        "results/logs/bfs_deep/{bfs_search}.log",
    benchmark:
        "results/benchmarks/bfs_deep/bfs_deep_run/{bfs_search}.tsv"
    conda:
        ENV
    threads: threads_for("bfs_deep_run")
    resources:
        mem_mb=mem_mb_for("bfs_deep_run"),
        runtime=runtime_for("bfs_deep_run"),
    params:
        domain=lambda wc: BFS_DEEP[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_pl.depth_value(BFS_DEEP[wc.bfs_search]),
        budget=config["bfs_deep"]["memory_budget"],
        workdir=config["bfs_deep"]["workdir"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} --max-depth {params.depth}"
        " --memory-budget {params.budget} --workdir {params.workdir} --discard-layers"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_DEEP_RUNS = expand(rules.bfs_deep_run.output.json, bfs_search=sorted(BFS_DEEP))
BFS_DEEP_TIMINGS = expand(rules.bfs_deep_run.output.timing, bfs_search=sorted(BFS_DEEP))


rule bfs_deep_table:
    input:
        BFS_DEEP_RUNS,
    output:
        csv="results/bfs_deep/deep.csv",
        html=report(
            "results/bfs_deep/deep.html",
            category=BFS_CATEGORY,
            subcategory="bfs_deep",
            labels={"table": "the deep search layer by layer"},
            caption="../report/bfs/deep.rst",
        ),
    log:
        "results/logs/bfs_deep/table.log",
    benchmark:
        "results/benchmarks/bfs_deep/bfs_deep_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report deep {input} --csv {output.csv} --html {output.html} 2> {log}"


rule bfs_deep_time_table:
    input:
        runs=BFS_DEEP_RUNS,
        timings=BFS_DEEP_TIMINGS,
    output:
        csv="results/bfs_deep/deep.timing.csv",
        html=report(
            "results/bfs_deep/deep.timing.html",
            category=BFS_CATEGORY,
            subcategory="bfs_deep",
            labels={"table": "time and memory per depth"},
            caption="../report/bfs/deep_time.rst",
        ),
        svg=report(
            "results/bfs_deep/deep.timing.svg",
            category=BFS_CATEGORY,
            subcategory="bfs_deep",
            labels={"figure": "time and memory per depth"},
            caption="../report/bfs/deep_plot.rst",
        ),
    log:
        "results/logs/bfs_deep/time_table.log",
    benchmark:
        "results/benchmarks/bfs_deep/bfs_deep_time_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab bfs report deep-time {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} 2> {log}"


register_experiment(
    "bfs_deep",
    BFS_CATEGORY,
    [
        rules.bfs_deep_table.output.html,
        rules.bfs_deep_time_table.output.html,
        rules.bfs_deep_time_table.output.svg,
    ],
)


rule bfs_deep:
    input:
        experiment_inputs("bfs_deep"),
