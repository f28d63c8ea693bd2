# Beam search on edge-matching puzzles (Eternity II): width, visiting order, tie lottery and noise,
# survivor dedup, beam vs DFS vs LDS at equal node budget, and the beam as a board factory.
# Job tables come from src/puzzlelab/edgematch/search/pipeline.py; one solve job = one sweep over a
# chunk of seeds. Instances come from rules/edgematch.smk.
from puzzlelab.edgematch.search import pipeline as beam_pipeline

BEAM_INSTANCES = beam_pipeline.instances(
    config, HAVE_CORPORA, corpus_path, EDGEMATCH_INSTANCE_FILES
)
BEAM_JOBS = beam_pipeline.jobs(
    config, BEAM_INSTANCES, beam_pipeline.prior_boards(HAVE_CORPORA, corpus_path)
)
SPEED_JOBS = {beam_pipeline.SPEED: beam_pipeline.speed_jobs(config, BEAM_INSTANCES)}
BEAM_ALL_JOBS = beam_pipeline.all_jobs({**BEAM_JOBS, **SPEED_JOBS})

if "official" not in BEAM_INSTANCES:
    for _exp in beam_pipeline.EXPERIMENTS:
        skip(
            _exp,
            "official Eternity II set (e2pieces.txt)",
            f"shared corpus not found under {CORPORA}",
        )


wildcard_constraints:
    beam_exp="|".join(beam_pipeline.EXPERIMENTS + (beam_pipeline.SPEED,)),


rule beam_solve:
    input:
        unpack(
            lambda wc: beam_pipeline.job_input(
                BEAM_INSTANCES, BEAM_ALL_JOBS[f"{wc.beam_exp}/{wc.job}"]
            )
        ),
    output:
        out="results/{beam_exp}/runs/{job}.json",
        timing="results/{beam_exp}/runs/{job}.timing.json",
    log:
        "results/logs/{beam_exp}/{job}.log",
    benchmark:
        "results/benchmarks/{beam_exp}/beam_solve/{job}.tsv"
    conda:
        ENV
    threads: threads_for("beam_solve")
    resources:
        mem_mb=mem_mb_for("beam_solve"),
        runtime=runtime_for("beam_solve"),
    params:
        hints=beam_pipeline.param(BEAM_ALL_JOBS, "hints"),
        seeds=beam_pipeline.param(BEAM_ALL_JOBS, "seeds"),
        width=beam_pipeline.param(BEAM_ALL_JOBS, "width"),
        order=beam_pipeline.param(BEAM_ALL_JOBS, "order"),
        tie_window=beam_pipeline.param(BEAM_ALL_JOBS, "tie_window"),
        temperature=beam_pipeline.param(BEAM_ALL_JOBS, "temperature"),
        dedup=beam_pipeline.param(BEAM_ALL_JOBS, "dedup"),
        tie_break=beam_pipeline.param(BEAM_ALL_JOBS, "tie_break"),
        prior_boards=beam_pipeline.param(BEAM_ALL_JOBS, "prior_boards"),
        label=beam_pipeline.param(BEAM_ALL_JOBS, "label"),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch sweep {input.puzzle} --algo beam"
        " --hints {params.hints} --hints-file {input.hints} --seeds {params.seeds}"
        " --width {params.width} --order {params.order} --tie-window {params.tie_window}"
        " --temperature {params.temperature} --dedup {params.dedup}"
        " --tie-break {params.tie_break} --prior-boards {params.prior_boards} --label {params.label}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


rule beam_backtrack_solve:
    input:
        unpack(
            lambda wc: beam_pipeline.job_input(
                BEAM_INSTANCES, BEAM_ALL_JOBS[f"{wc.beam_exp}/{wc.job}"]
            )
        ),
    output:
        out="results/{beam_exp}/backtrack/{job}.json",
        timing="results/{beam_exp}/backtrack/{job}.timing.json",
    log:
        "results/logs/{beam_exp}/backtrack/{job}.log",
    benchmark:
        "results/benchmarks/{beam_exp}/beam_backtrack_solve/{job}.tsv"
    conda:
        ENV
    threads: threads_for("beam_backtrack_solve")
    resources:
        mem_mb=mem_mb_for("beam_backtrack_solve"),
        runtime=runtime_for("beam_backtrack_solve"),
        # a speed run spends its whole node limit (the cost model scales its price by it)
        runs_to_limit=lambda wc: int(wc.beam_exp == "edgematch_speed"),
    params:
        algo=beam_pipeline.param(BEAM_ALL_JOBS, "algo"),
        hints=beam_pipeline.param(BEAM_ALL_JOBS, "hints"),
        seeds=beam_pipeline.param(BEAM_ALL_JOBS, "seeds"),
        order=beam_pipeline.param(BEAM_ALL_JOBS, "order"),
        node_limit=beam_pipeline.param(BEAM_ALL_JOBS, "node_limit"),
        tolerance=beam_pipeline.param(BEAM_ALL_JOBS, "tolerance"),
        max_discrepancy=beam_pipeline.param(BEAM_ALL_JOBS, "max_discrepancy"),
        label=beam_pipeline.param(BEAM_ALL_JOBS, "label"),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch sweep {input.puzzle} --algo {params.algo}"
        " --hints {params.hints} --hints-file {input.hints} --seeds {params.seeds} --order {params.order}"
        " --node-limit {params.node_limit} --tolerance {params.tolerance}"
        " --max-discrepancy {params.max_discrepancy} --label {params.label}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


BEAM_RUN_FILES = {
    "beam": rules.beam_solve.output.out,
    "backtrack": rules.beam_backtrack_solve.output.out,
}
BEAM_TIMING_FILES = {
    "beam": rules.beam_solve.output.timing,
    "backtrack": rules.beam_backtrack_solve.output.timing,
}

for _exp in beam_pipeline.EXPERIMENTS:
    _runs = beam_pipeline.job_files(BEAM_JOBS, _exp, BEAM_RUN_FILES)

    rule:
        name:
            f"{_exp}_report"
        input:
            runs=_runs,
            timings=beam_pipeline.job_files(BEAM_JOBS, _exp, BEAM_TIMING_FILES),
            puzzles=beam_pipeline.puzzle_files(_exp, BEAM_JOBS, BEAM_INSTANCES),
        output:
            csv=f"results/{_exp}/{_exp}.timing.csv",
            html=report(
                f"results/{_exp}/{_exp}.timing.html",
                category=beam_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"table": _exp},
                caption=f"../report/beam/{_exp}.rst",
            ),
            svg=report(
                f"results/{_exp}/{_exp}.timing.svg",
                category=beam_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"figure": _exp},
                caption=f"../report/beam/{_exp}_figure.rst",
            ),
            boards=report(
                f"results/{_exp}/best_boards.svg",
                category=beam_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"figure": f"{_exp} best boards"},
                caption="../report/beam/best_boards.rst",
            ),
            scorecard=f"results/{_exp}/scorecard.csv",
        log:
            f"results/logs/{_exp}/report.log",
        localrule: True
        conda:
            ENV
        threads: threads_for("beam_report")
        resources:
            mem_mb=mem_mb_for("beam_report"),
            runtime=runtime_for("beam_report"),
        params:
            table=_exp,
            family_rows=config["beam_factory"].get("family_rows", 13),
        shell:
            "puzzlelab edgematch report {params.table} {input.runs} --timings {input.timings}"
            " --puzzles {input.puzzles} --csv {output.csv} --html {output.html} --svg {output.svg}"
            " --boards {output.boards} --family-rows {params.family_rows}"
            " --scorecard {output.scorecard} 2> {log}"

    _report_rule = getattr(rules, f"{_exp}_report")
    register_experiment(
        _exp,
        beam_pipeline.CATEGORY,
        [
            _report_rule.output.html,
            _report_rule.output.svg,
            _report_rule.output.boards,
        ],
    )
    register_scorecard(_exp, _report_rule.output.scorecard)
    register_determinism(_exp, _runs)


# edgematch_speed: the same solve rules, timed; one sweep of a few seeds per instance and search.
_speed_runs = beam_pipeline.job_files(SPEED_JOBS, beam_pipeline.SPEED, BEAM_RUN_FILES)


rule edgematch_speed_report:
    input:
        runs=_speed_runs,
        timings=beam_pipeline.job_files(
            SPEED_JOBS, beam_pipeline.SPEED, BEAM_TIMING_FILES
        ),
    output:
        csv="results/edgematch_speed/edgematch_speed.timing.csv",
        html=report(
            "results/edgematch_speed/edgematch_speed.timing.html",
            category=beam_pipeline.CATEGORY,
            subcategory="edgematch_speed",
            labels={"table": "edgematch_speed"},
            caption="../report/beam/edgematch_speed.rst",
        ),
        svg=report(
            "results/edgematch_speed/edgematch_speed.timing.svg",
            category=beam_pipeline.CATEGORY,
            subcategory="edgematch_speed",
            labels={"figure": "edgematch_speed"},
            caption="../report/beam/edgematch_speed_figure.rst",
        ),
        scorecard="results/edgematch_speed/scorecard.csv",
    log:
        "results/logs/edgematch_speed/report.log",
    localrule: True
    conda:
        ENV
    threads: threads_for("beam_report")
    resources:
        mem_mb=mem_mb_for("beam_report"),
        runtime=runtime_for("beam_report"),
    shell:
        "puzzlelab edgematch report edgematch_speed {input.runs} --timings {input.timings}"
        " --csv {output.csv} --html {output.html} --svg {output.svg}"
        " --scorecard {output.scorecard} 2> {log}"


register_experiment(
    beam_pipeline.SPEED,
    beam_pipeline.CATEGORY,
    [rules.edgematch_speed_report.output.html, rules.edgematch_speed_report.output.svg],
)
register_scorecard(beam_pipeline.SPEED, rules.edgematch_speed_report.output.scorecard)
register_determinism(beam_pipeline.SPEED, _speed_runs)


rule edgematch_speed:
    input:
        experiment_inputs("edgematch_speed"),


rule beam_width:
    input:
        experiment_inputs("beam_width"),


rule beam_orders:
    input:
        experiment_inputs("beam_orders"),


rule beam_ties:
    input:
        experiment_inputs("beam_ties"),


rule beam_dedup:
    input:
        experiment_inputs("beam_dedup"),


rule beam_vs_dfs_lds:
    input:
        experiment_inputs("beam_vs_dfs_lds"),


rule beam_factory:
    input:
        experiment_inputs("beam_factory"),
