# Meet in the middle (BANDSAW): exact, proven-optimal completion of a band of rows.
# mitm_bench: the 10x10 testbed (planted and beam boards, bottom bands of 2-4 rows, growth per budget);
# mitm_vs_beam: the bottom 2-row band of 16x16 beam boards, exact optimum against the beam (and, with
# sat_node_limit, the same band proven by the SAT back-end);
# mitm_wall: bands of growing rows x width, where memory (or time) stops the proof.
# Job tables come from src/puzzlelab/edgematch/mitm/pipeline.py; instances from rules/edgematch.smk.
from puzzlelab.edgematch.mitm import pipeline as mitm_pipeline

MITM_INSTANCES = mitm_pipeline.instances(
    config, HAVE_CORPORA, corpus_path, EDGEMATCH_INSTANCE_FILES
)
MITM_JOBS = mitm_pipeline.jobs(config, MITM_INSTANCES)
MITM_ALL_JOBS = mitm_pipeline.all_jobs(MITM_JOBS)

for _exp, _name in mitm_pipeline.missing(config, MITM_INSTANCES):
    skip(_exp, f"instance {_name}", f"shared corpus not found under {CORPORA}")


wildcard_constraints:
    mitm_exp="|".join(mitm_pipeline.EXPERIMENTS),
    beam_width=r"[0-9]+",
    beam_seed=r"[0-9]+",
    mitm_rows=r"[0-9]+",
    mitm_inst=r"[A-Za-z0-9_\-]+",
    mitm_variant=r"[A-Za-z0-9_]+",


rule mitm_beam:
    input:
        unpack(lambda wc: mitm_pipeline.instance_input(MITM_INSTANCES, wc.em_name)),
    output:
        board="results/mitm/beam/{em_name}_w{beam_width}_s{beam_seed}.json",
        timing="results/mitm/beam/{em_name}_w{beam_width}_s{beam_seed}.timing.json",
    log:
        "results/logs/mitm/beam_{em_name}_w{beam_width}_s{beam_seed}.log",
    benchmark:
        "results/benchmarks/mitm/mitm_beam/{em_name}_w{beam_width}_s{beam_seed}.tsv"
    conda:
        ENV
    threads: threads_for("mitm_beam")
    resources:
        mem_mb=mem_mb_for("mitm_beam"),
        runtime=runtime_for("mitm_beam"),
    params:
        hints=lambda wc: MITM_INSTANCES[wc.em_name]["hints"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch beam {input.puzzle} --width {wildcards.beam_width}"
        " --seed {wildcards.beam_seed} --hints {params.hints} --hints-file {input.hints}"
        " --out {output.board} --timing {output.timing} > /dev/null 2> {log}"


# The boards the jobs re-solve, as the patterns of the rules that make them.
MITM_BOARDS = {
    "beam": rules.mitm_beam.output.board,
    "solution": EDGEMATCH_INSTANCE_FILES["generated"]["solution"],
}


rule mitm_solve_planted:
    input:
        unpack(lambda wc: mitm_pipeline.instance_input(MITM_INSTANCES, wc.mitm_inst)),
        board=lambda wc: mitm_pipeline.board_input(
            MITM_ALL_JOBS[f"{wc.mitm_exp}/{wc.mitm_inst}/planted_r{wc.mitm_rows}"],
            MITM_BOARDS,
        ),
    output:
        out="results/{mitm_exp}/runs/{mitm_inst}/planted_r{mitm_rows}.json",
        timing="results/{mitm_exp}/runs/{mitm_inst}/planted_r{mitm_rows}.timing.json",
    log:
        "results/logs/{mitm_exp}/{mitm_inst}/planted_r{mitm_rows}.log",
    benchmark:
        "results/benchmarks/{mitm_exp}/mitm_solve_planted/{mitm_inst}/planted_r{mitm_rows}.tsv"
    conda:
        ENV
    threads: threads_for("mitm_solve_planted")
    resources:
        mem_mb=mem_mb_for("mitm_solve_planted"),
        runtime=runtime_for("mitm_solve_planted"),
    params:
        hints=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "hints"),
        band=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "band"),
        cols=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "cols"),
        sweep=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "sweep"),
        memory_budget=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "memory_budget"),
        node_limit=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "node_limit"),
        timeout=mitm_pipeline.param(MITM_ALL_JOBS, "planted", "timeout"),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch mitm {input.puzzle} --board {input.board}"
        " --hints {params.hints} --hints-file {input.hints} --band={params.band} --cols {params.cols}"
        " --clear-band --sweep-budget {params.sweep} --memory-budget {params.memory_budget}"
        " --node-limit {params.node_limit} --timeout {params.timeout}"
        " --label {wildcards.mitm_inst}/planted_r{wildcards.mitm_rows}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


rule mitm_solve:
    input:
        unpack(lambda wc: mitm_pipeline.instance_input(MITM_INSTANCES, wc.mitm_inst)),
        board=lambda wc: mitm_pipeline.board_input(
            MITM_ALL_JOBS[f"{wc.mitm_exp}/{wc.mitm_inst}/beam_{wc.mitm_variant}"],
            MITM_BOARDS,
        ),
    output:
        out="results/{mitm_exp}/runs/{mitm_inst}/beam_{mitm_variant}.json",
        timing="results/{mitm_exp}/runs/{mitm_inst}/beam_{mitm_variant}.timing.json",
    log:
        "results/logs/{mitm_exp}/{mitm_inst}/beam_{mitm_variant}.log",
    benchmark:
        "results/benchmarks/{mitm_exp}/mitm_solve/{mitm_inst}/beam_{mitm_variant}.tsv"
    conda:
        ENV
    threads: threads_for("mitm_solve")
    resources:
        mem_mb=mem_mb_for("mitm_solve"),
        runtime=runtime_for("mitm_solve"),
    params:
        hints=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "hints"),
        method=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "method", "mitm"),
        band=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "band"),
        cols=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "cols"),
        memory_budget=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "memory_budget"),
        node_limit=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "node_limit"),
        timeout=mitm_pipeline.param(MITM_ALL_JOBS, "beam", "timeout"),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch mitm {input.puzzle} --board {input.board}"
        " --method {params.method} --hints {params.hints} --hints-file {input.hints} --band={params.band}"
        " --cols {params.cols} --memory-budget {params.memory_budget} --node-limit {params.node_limit} --timeout {params.timeout}"
        " --label {wildcards.mitm_inst}/beam_{wildcards.mitm_variant}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


MITM_RUN_FILES = {
    "planted": rules.mitm_solve_planted.output.out,
    "beam": rules.mitm_solve.output.out,
}
MITM_TIMING_FILES = {
    "planted": rules.mitm_solve_planted.output.timing,
    "beam": rules.mitm_solve.output.timing,
}

for _exp in mitm_pipeline.EXPERIMENTS:
    _runs = mitm_pipeline.job_files(MITM_JOBS, _exp, MITM_RUN_FILES)

    rule:
        name:
            f"{_exp}_report"
        input:
            runs=_runs,
            timings=mitm_pipeline.job_files(MITM_JOBS, _exp, MITM_TIMING_FILES),
        output:
            csv=f"results/{_exp}/{_exp}.timing.csv",
            html=report(
                f"results/{_exp}/{_exp}.timing.html",
                category=mitm_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"table": _exp},
                caption=f"../report/mitm/{_exp}.rst",
            ),
            rounds_csv=f"results/{_exp}/{_exp}_rounds.timing.csv",
            rounds_html=report(
                f"results/{_exp}/{_exp}_rounds.timing.html",
                category=mitm_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"table": f"{_exp} round by round"},
                caption=f"../report/mitm/{_exp}_rounds.rst",
            ),
            svg=report(
                f"results/{_exp}/{_exp}.timing.svg",
                category=mitm_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"figure": _exp},
                caption=f"../report/mitm/{_exp}_figure.rst",
            ),
            memory_svg=report(
                f"results/{_exp}/{_exp}_memory.timing.svg",
                category=mitm_pipeline.CATEGORY,
                subcategory=_exp,
                labels={"figure": f"{_exp} memory"},
                caption=f"../report/mitm/{_exp}_memory.rst",
            ),
            scorecard=f"results/{_exp}/scorecard.csv",
        log:
            f"results/logs/{_exp}/report.log",
        localrule: True
        conda:
            ENV
        threads: threads_for("mitm_report")
        resources:
            mem_mb=mem_mb_for("mitm_report"),
            runtime=runtime_for("mitm_report"),
        params:
            table=_exp,
            memory_budget=(config.get(_exp) or {}).get("memory_budget", "4G"),
        shell:
            "puzzlelab edgematch report {params.table} {input.runs} --timings {input.timings}"
            " --memory-budget {params.memory_budget} --csv {output.csv} --html {output.html}"
            " --rounds-csv {output.rounds_csv} --rounds-html {output.rounds_html}"
            " --svg {output.svg} --memory-svg {output.memory_svg}"
            " --scorecard {output.scorecard} 2> {log}"

    _report_rule = getattr(rules, f"{_exp}_report")
    register_experiment(
        _exp,
        mitm_pipeline.CATEGORY,
        [
            _report_rule.output.html,
            _report_rule.output.rounds_html,
            _report_rule.output.svg,
            _report_rule.output.memory_svg,
        ],
    )
    register_scorecard(_exp, _report_rule.output.scorecard)
    register_determinism(_exp, _runs)


rule mitm_bench:
    input:
        experiment_inputs("mitm_bench"),


rule mitm_vs_beam:
    input:
        experiment_inputs("mitm_vs_beam"),


rule mitm_wall:
    input:
        experiment_inputs("mitm_wall"),
