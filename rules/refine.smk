# Destroy-and-repair polishing of beam boards (beam_refine): one beam board per (instance, hints,
# width, seed), then one `puzzlelab edgematch refine` run of it; score against nodes and CPU time.
# Included after rules/beam.smk (it uses that file's instances). Job table:
# src/puzzlelab/edgematch/refine/pipeline.py.
from puzzlelab.edgematch.refine import pipeline as refine_pipeline

REFINE_JOBS = refine_pipeline.jobs(config, BEAM_INSTANCES)

if "official" not in BEAM_INSTANCES:
    skip(
        refine_pipeline.EXPERIMENT,
        "official Eternity II set (e2pieces.txt)",
        f"shared corpus not found under {CORPORA}",
    )


rule refine_beam_board:
    input:
        unpack(
            lambda wc: refine_pipeline.job_input(BEAM_INSTANCES, REFINE_JOBS[wc.job])
        ),
    output:
        out="results/beam_refine/beam/{job}.json",
        timing="results/beam_refine/beam/{job}.timing.json",
    log:
        "results/logs/beam_refine/beam/{job}.log",
    benchmark:
        "results/benchmarks/beam_refine/refine_beam_board/{job}.tsv"
    conda:
        ENV
    threads: threads_for("refine_beam_board")
    resources:
        mem_mb=mem_mb_for("refine_beam_board"),
        runtime=runtime_for("refine_beam_board"),
    params:
        hints=refine_pipeline.param(REFINE_JOBS, "hints"),
        seed=refine_pipeline.param(REFINE_JOBS, "seed"),
        width=refine_pipeline.param(REFINE_JOBS, "width"),
        label=refine_pipeline.param(REFINE_JOBS, "label"),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch sweep {input.puzzle} --algo beam"
        " --hints {params.hints} --hints-file {input.hints} --seeds {params.seed}"
        " --width {params.width} --label {params.label}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


rule refine_polish:
    input:
        unpack(
            lambda wc: refine_pipeline.job_input(BEAM_INSTANCES, REFINE_JOBS[wc.job])
        ),
        board=rules.refine_beam_board.output.out,
    output:
        out="results/beam_refine/runs/{job}.json",
        timing="results/beam_refine/runs/{job}.timing.json",
    log:
        "results/logs/beam_refine/refine/{job}.log",
    benchmark:
        "results/benchmarks/beam_refine/refine_polish/{job}.tsv"
    conda:
        ENV
    threads: threads_for("refine_polish")
    resources:
        mem_mb=mem_mb_for("refine_polish"),
        runtime=runtime_for("refine_polish"),
        runs_to_limit=1,
    params:
        hints=refine_pipeline.param(REFINE_JOBS, "hints"),
        seed=refine_pipeline.param(REFINE_JOBS, "seed"),
        node_limit=refine_pipeline.param(REFINE_JOBS, "node_limit"),
        min_cells=refine_pipeline.param(REFINE_JOBS, "min_cells"),
        max_cells=refine_pipeline.param(REFINE_JOBS, "max_cells"),
        assign_cells=refine_pipeline.param(REFINE_JOBS, "assign_cells"),
        move_nodes=refine_pipeline.param(REFINE_JOBS, "move_nodes"),
        shapes=refine_pipeline.param(REFINE_JOBS, "shapes"),
        uphill=refine_pipeline.param(REFINE_JOBS, "uphill"),
        max_drop=refine_pipeline.param(REFINE_JOBS, "max_drop"),
        label=refine_pipeline.param(REFINE_JOBS, "label"),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch refine {input.puzzle} --board {input.board}"
        " --hints {params.hints} --hints-file {input.hints} --seed {params.seed}"
        " --node-limit {params.node_limit} --min-cells {params.min_cells} --max-cells {params.max_cells}"
        " --assign-cells {params.assign_cells} --move-nodes {params.move_nodes} --shapes {params.shapes}"
        " --uphill {params.uphill} --max-drop {params.max_drop} --label {params.label}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


_refine_runs = refine_pipeline.files(REFINE_JOBS, rules.refine_polish.output.out)


rule beam_refine_report:
    input:
        runs=_refine_runs,
        timings=refine_pipeline.files(REFINE_JOBS, rules.refine_polish.output.timing),
    output:
        csv="results/beam_refine/beam_refine.timing.csv",
        html=report(
            "results/beam_refine/beam_refine.timing.html",
            category=refine_pipeline.CATEGORY,
            subcategory="beam_refine",
            labels={"table": "beam_refine"},
            caption="../report/beam/beam_refine.rst",
        ),
        svg=report(
            "results/beam_refine/beam_refine.timing.svg",
            category=refine_pipeline.CATEGORY,
            subcategory="beam_refine",
            labels={"figure": "beam_refine by CPU time"},
            caption="../report/beam/beam_refine_cpu.rst",
        ),
        nodes_svg=report(
            "results/beam_refine/beam_refine_nodes.svg",
            category=refine_pipeline.CATEGORY,
            subcategory="beam_refine",
            labels={"figure": "beam_refine by nodes"},
            caption="../report/beam/beam_refine_nodes.rst",
        ),
        scorecard="results/beam_refine/scorecard.csv",
    log:
        "results/logs/beam_refine/report.log",
    localrule: True
    conda:
        ENV
    threads: threads_for("beam_report")
    resources:
        mem_mb=mem_mb_for("beam_report"),
        runtime=runtime_for("beam_report"),
    shell:
        "puzzlelab edgematch report beam_refine {input.runs} --timings {input.timings}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} --nodes-svg {output.nodes_svg}"
        " --scorecard {output.scorecard} 2> {log}"


register_experiment(
    refine_pipeline.EXPERIMENT,
    refine_pipeline.CATEGORY,
    [
        rules.beam_refine_report.output.html,
        rules.beam_refine_report.output.svg,
        rules.beam_refine_report.output.nodes_svg,
    ],
)
register_scorecard(
    refine_pipeline.EXPERIMENT, rules.beam_refine_report.output.scorecard
)
register_determinism(refine_pipeline.EXPERIMENT, _refine_runs)


rule beam_refine:
    input:
        experiment_inputs("beam_refine"),
