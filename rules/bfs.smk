# Compressed BFS experiments (category "Compressed BFS"): layer counts against OEIS, codecs,
# sort+merge vs hash set, memory budgets, parent hashes. Helpers live in puzzlelab/bfs/pipeline.py.
from puzzlelab.bfs.pipeline import budget_slug as bfs_budget_slug
from puzzlelab.bfs.pipeline import depth_arg as bfs_depth_arg
from puzzlelab.bfs.pipeline import entries as bfs_entries
from puzzlelab.bfs.pipeline import missing_entries as bfs_missing_entries

# domain strings may name shared-corpus files as {corpora}/...: resolved here, skipped when absent
BFS_LAYERS = bfs_entries(config["bfs_layers"], corpora=CORPORA)
BFS_CODECS = bfs_entries(config["bfs_codecs"], corpora=CORPORA)
BFS_DEDUP = bfs_entries(config["bfs_dedup"], corpora=CORPORA)
BFS_BUDGET = bfs_entries(config["bfs_budget"], corpora=CORPORA)
BFS_BUDGETS = {
    bfs_budget_slug(b): str(b) for b in config["bfs_budget"].get("budgets", [])
}
BFS_PARENTS = bfs_entries(config["bfs_parents"], corpora=CORPORA)
for _bfs_exp in ["bfs_layers", "bfs_codecs", "bfs_dedup", "bfs_budget", "bfs_parents"]:
    for _bfs_domain in bfs_missing_entries(config[_bfs_exp], CORPORA):
        skip(
            _bfs_exp,
            _bfs_domain,
            f"shared corpus file not found under {CORPORA}",
        )
BFS_REFERENCE = corpus_path("bfs", "reference_layer_counts.txt")
BFS_HAVE_REFERENCE = BFS_REFERENCE.exists()
BFS_CATEGORY = "Compressed BFS"

if not BFS_HAVE_REFERENCE:
    skip(
        "bfs_layers",
        "comparison with reference_layer_counts.txt (8-puzzle, 2x2x2 cube, pancakes, Hanoi)",
        f"shared corpus file not found: {BFS_REFERENCE}; only the embedded OEIS 15-puzzle counts are checked",
    )


localrules:
    bfs_layers_table,
    bfs_depths_table,
    bfs_codecs_table,
    bfs_codec_runs_table,
    bfs_dedup_table,
    bfs_budget_table,
    bfs_parents_table,


# --- bfs_layers: layer counts of every domain, beside the published ones ---------------------------
rule bfs_layers_run:
    output:
        json="results/bfs_layers/runs/{bfs_search}.json",
        timing="results/bfs_layers/runs/{bfs_search}.timing.json",
    log:
        "results/logs/bfs_layers/{bfs_search}.log",
    wildcard_constraints:
        bfs_search=r"[A-Za-z0-9.-]+(?<!\.timing)",
    conda:
        ENV
    threads: threads_for("bfs_layers_run")
    resources:
        mem_mb=mem_mb_for("bfs_layers_run"),
        runtime=runtime_for("bfs_layers_run"),
    params:
        domain=lambda wc: BFS_LAYERS[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_depth_arg(BFS_LAYERS[wc.bfs_search]),
        budget=config["bfs_layers"]["memory_budget"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} {params.depth}"
        " --memory-budget {params.budget} --discard-layers"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule bfs_layers_table:
    input:
        runs=expand("results/bfs_layers/runs/{s}.json", s=sorted(BFS_LAYERS)),
        reference=[str(BFS_REFERENCE)] if BFS_HAVE_REFERENCE else [],
    output:
        csv="results/bfs_layers/layers.csv",
        html=report(
            "results/bfs_layers/layers.html",
            category=BFS_CATEGORY,
            subcategory="bfs_layers",
            caption="../report/bfs/layers.rst",
        ),
    log:
        "results/logs/bfs_layers/table.log",
    conda:
        ENV
    params:
        reference=f"--reference {BFS_REFERENCE}" if BFS_HAVE_REFERENCE else "",
    shell:
        "puzzlelab bfs report layers {input.runs} {params.reference} --csv {output.csv} --html {output.html}"
        " 2> {log}"


rule bfs_depths_table:
    input:
        runs=expand("results/bfs_layers/runs/{s}.json", s=sorted(BFS_LAYERS)),
        reference=[str(BFS_REFERENCE)] if BFS_HAVE_REFERENCE else [],
    output:
        csv="results/bfs_layers/layers_by_depth.csv",
        html=report(
            "results/bfs_layers/layers_by_depth.html",
            category=BFS_CATEGORY,
            subcategory="bfs_layers",
            caption="../report/bfs/layers_by_depth.rst",
        ),
    log:
        "results/logs/bfs_layers/depths.log",
    conda:
        ENV
    params:
        reference=f"--reference {BFS_REFERENCE}" if BFS_HAVE_REFERENCE else "",
    shell:
        "puzzlelab bfs report depths {input.runs} {params.reference} --csv {output.csv} --html {output.html}"
        " 2> {log}"


register_experiment(
    "bfs_layers",
    BFS_CATEGORY,
    ["results/bfs_layers/layers.html", "results/bfs_layers/layers_by_depth.html"],
)
register_determinism(
    "bfs_layers", [f"results/bfs_layers/runs/{s}.json" for s in BFS_LAYERS]
)


rule bfs_layers:
    input:
        experiment_inputs("bfs_layers"),


# --- bfs_codecs: bits per state of visited sets and frontier runs, every codec ---------------------
rule bfs_codecs_run:
    output:
        json="results/bfs_codecs/runs/{bfs_search}.json",
        timing="results/bfs_codecs/runs/{bfs_search}.timing.json",
    log:
        "results/logs/bfs_codecs/{bfs_search}.log",
    wildcard_constraints:
        bfs_search=r"[A-Za-z0-9.-]+(?<!\.timing)",
    conda:
        ENV
    threads: threads_for("bfs_codecs_run")
    resources:
        mem_mb=mem_mb_for("bfs_codecs_run"),
        runtime=runtime_for("bfs_codecs_run"),
    params:
        domain=lambda wc: BFS_CODECS[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_depth_arg(BFS_CODECS[wc.bfs_search]),
        codecs=",".join(config["bfs_codecs"]["codecs"]),
        level=config["bfs_codecs"]["zstd_level"],
        chunk=config["bfs_codecs"]["chunk_states"],
        budget=config["bfs_codecs"]["memory_budget"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs codecs {params.domain:q} {params.depth}"
        " --codecs {params.codecs} --zstd-level {params.level} --chunk-states {params.chunk}"
        " --memory-budget {params.budget} --out {output.json} --timing {output.timing} 2> {log}"


rule bfs_codecs_table:
    input:
        expand("results/bfs_codecs/runs/{s}.json", s=sorted(BFS_CODECS)),
    output:
        csv="results/bfs_codecs/visited.csv",
        html=report(
            "results/bfs_codecs/visited.html",
            category=BFS_CATEGORY,
            subcategory="bfs_codecs",
            caption="../report/bfs/codecs_visited.rst",
        ),
        svg=report(
            "results/bfs_codecs/bits_per_state.svg",
            category=BFS_CATEGORY,
            subcategory="bfs_codecs",
            caption="../report/bfs/codecs_plot.rst",
        ),
    log:
        "results/logs/bfs_codecs/table.log",
    conda:
        ENV
    shell:
        "puzzlelab bfs report codecs {input} --csv {output.csv} --html {output.html} --svg {output.svg}"
        " 2> {log}"


rule bfs_codec_runs_table:
    input:
        expand("results/bfs_codecs/runs/{s}.json", s=sorted(BFS_CODECS)),
    output:
        csv="results/bfs_codecs/runs.csv",
        html=report(
            "results/bfs_codecs/runs.html",
            category=BFS_CATEGORY,
            subcategory="bfs_codecs",
            caption="../report/bfs/codecs_runs.rst",
        ),
    log:
        "results/logs/bfs_codecs/runs_table.log",
    conda:
        ENV
    shell:
        "puzzlelab bfs report codec-runs {input} --csv {output.csv} --html {output.html} 2> {log}"


register_experiment(
    "bfs_codecs",
    BFS_CATEGORY,
    [
        "results/bfs_codecs/visited.html",
        "results/bfs_codecs/runs.html",
        "results/bfs_codecs/bits_per_state.svg",
    ],
)
register_determinism(
    "bfs_codecs", [f"results/bfs_codecs/runs/{s}.json" for s in BFS_CODECS]
)


rule bfs_codecs:
    input:
        experiment_inputs("bfs_codecs"),


# --- bfs_dedup: sort+merge against the in-memory hash-set baseline ---------------------------------
rule bfs_dedup_run:
    output:
        json="results/bfs_dedup/runs/{bfs_search}.{bfs_dedup}.r{bfs_rep}.json",
        timing="results/bfs_dedup/runs/{bfs_search}.{bfs_dedup}.r{bfs_rep}.timing.json",
    log:
        "results/logs/bfs_dedup/{bfs_search}.{bfs_dedup}.r{bfs_rep}.log",
    wildcard_constraints:
        bfs_search=r"[A-Za-z0-9.-]+",
        bfs_dedup="sortmerge|hash",
        bfs_rep=r"\d+",
    conda:
        ENV
    threads: threads_for("bfs_dedup_run")
    resources:
        mem_mb=mem_mb_for("bfs_dedup_run"),
        runtime=runtime_for("bfs_dedup_run"),
    params:
        domain=lambda wc: BFS_DEDUP[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_depth_arg(BFS_DEDUP[wc.bfs_search]),
        budget=config["bfs_dedup"]["memory_budget"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} {params.depth}"
        " --dedup {wildcards.bfs_dedup} --memory-budget {params.budget} --discard-layers --warm-up"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_DEDUP_RUNS = expand(
    "results/bfs_dedup/runs/{s}.{d}.r{r}.json",
    s=sorted(BFS_DEDUP),
    d=["sortmerge", "hash"],
    r=range(1, int(config["bfs_dedup"]["repeats"]) + 1),
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
            caption="../report/bfs/dedup.rst",
        ),
    log:
        "results/logs/bfs_dedup/table.log",
    conda:
        ENV
    shell:
        "puzzlelab bfs report dedup {input} --csv {output.csv} --html {output.html} 2> {log}"


register_experiment("bfs_dedup", BFS_CATEGORY, ["results/bfs_dedup/dedup.html"])
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
    wildcard_constraints:
        bfs_search=r"[A-Za-z0-9.-]+",
        bfs_budget="[A-Za-z0-9]+",
    conda:
        ENV
    threads: threads_for("bfs_budget_run")
    resources:
        mem_mb=mem_mb_for("bfs_budget_run"),
        runtime=runtime_for("bfs_budget_run"),
    params:
        domain=lambda wc: BFS_BUDGET[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_depth_arg(BFS_BUDGET[wc.bfs_search]),
        budget=lambda wc: BFS_BUDGETS[wc.bfs_budget],
        workdir="results/bfs_budget/spill",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs layers {params.domain:q} {params.depth}"
        " --memory-budget {params.budget} --workdir {params.workdir}"
        " --out {output.json} --timing {output.timing} 2> {log}"


BFS_BUDGET_RUNS = expand(
    "results/bfs_budget/runs/{s}.b{b}.json", s=sorted(BFS_BUDGET), b=list(BFS_BUDGETS)
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
            caption="../report/bfs/budget.rst",
        ),
        svg=report(
            "results/bfs_budget/budget.svg",
            category=BFS_CATEGORY,
            subcategory="bfs_budget",
            caption="../report/bfs/budget_plot.rst",
        ),
    log:
        "results/logs/bfs_budget/table.log",
    conda:
        ENV
    shell:
        "puzzlelab bfs report budget {input} --csv {output.csv} --html {output.html} --svg {output.svg} 2> {log}"


register_experiment(
    "bfs_budget",
    BFS_CATEGORY,
    ["results/bfs_budget/budget.html", "results/bfs_budget/budget.svg"],
)
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
    wildcard_constraints:
        bfs_search=r"[A-Za-z0-9.-]+(?<!\.timing)",
    conda:
        ENV
    threads: threads_for("bfs_parents_run")
    resources:
        mem_mb=mem_mb_for("bfs_parents_run"),
        runtime=runtime_for("bfs_parents_run"),
    params:
        domain=lambda wc: BFS_PARENTS[wc.bfs_search]["domain"],
        depth=lambda wc: bfs_depth_arg(BFS_PARENTS[wc.bfs_search]),
        samples=config["bfs_parents"]["samples"],
        budget=config["bfs_parents"]["memory_budget"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab bfs parents {params.domain:q} {params.depth}"
        " --samples {params.samples} --memory-budget {params.budget}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule bfs_parents_table:
    input:
        expand("results/bfs_parents/runs/{s}.json", s=sorted(BFS_PARENTS)),
    output:
        csv="results/bfs_parents/parents.csv",
        html=report(
            "results/bfs_parents/parents.html",
            category=BFS_CATEGORY,
            subcategory="bfs_parents",
            caption="../report/bfs/parents.rst",
        ),
    log:
        "results/logs/bfs_parents/table.log",
    conda:
        ENV
    shell:
        "puzzlelab bfs report parents {input} --csv {output.csv} --html {output.html} 2> {log}"


register_experiment("bfs_parents", BFS_CATEGORY, ["results/bfs_parents/parents.html"])
register_determinism(
    "bfs_parents", [f"results/bfs_parents/runs/{s}.json" for s in BFS_PARENTS]
)


rule bfs_parents:
    input:
        experiment_inputs("bfs_parents"),
