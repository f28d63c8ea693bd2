# Beam search on edge-matching puzzles (Eternity II): width, visiting order, tie lottery and noise,
# survivor dedup, beam vs DFS vs LDS at equal node budget, and the beam as a board factory.
# Job tables come from src/puzzlelab/edgematch/search/pipeline.py; one solve job = one sweep over a
# chunk of seeds. Generated instances come from rules/edgematch.smk.
from puzzlelab.edgematch.search import pipeline as beam_pipeline

BEAM_INSTANCES = beam_pipeline.instances(
    config, HAVE_CORPORA, corpus_path, EDGEMATCH_INSTANCE_FILES
)
BEAM_JOBS = beam_pipeline.jobs(config, BEAM_INSTANCES)
BEAM_ALL_JOBS = {
    f"{exp}/{j}": job for exp, t in BEAM_JOBS.items() for j, job in t.items()
}

if "official" not in BEAM_INSTANCES:
    for _exp in beam_pipeline.EXPERIMENTS:
        skip(
            _exp,
            "official Eternity II set (e2pieces.txt)",
            f"shared corpus not found under {CORPORA}",
        )

for _exp in beam_pipeline.EXPERIMENTS:
    _targets = [f"results/{_exp}/{_exp}.{x}" for x in ("html", "svg")]
    _targets.append(f"results/{_exp}/best_boards.svg")
    register_experiment(_exp, beam_pipeline.CATEGORY, _targets)
    register_determinism(_exp, beam_pipeline.run_files(_exp, BEAM_JOBS))


wildcard_constraints:
    beam_exp="beam_width|beam_orders|beam_ties|beam_dedup|beam_vs_dfs_lds|beam_factory",


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
    conda:
        ENV
    threads: threads_for("beam_solve")
    resources:
        mem_mb=mem_mb_for("beam_solve"),
        runtime=runtime_for("beam_solve"),
    params:
        args=lambda wc: BEAM_ALL_JOBS[f"{wc.beam_exp}/{wc.job}"]["args"],
        hints=lambda wc: beam_pipeline.job_hint_args(
            BEAM_INSTANCES, BEAM_ALL_JOBS[f"{wc.beam_exp}/{wc.job}"]
        ),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch sweep {input.puzzle} {params.args} {params.hints}"
        " --out {output.out} --timing {output.timing} > /dev/null 2> {log}"


for _exp in beam_pipeline.EXPERIMENTS:

    rule:
        name:
            f"{_exp}_report"
        input:
            runs=beam_pipeline.run_files(_exp, BEAM_JOBS),
            timings=beam_pipeline.timing_files(_exp, BEAM_JOBS),
        output:
            csv=f"results/{_exp}/{_exp}.csv",
            html=report(
                f"results/{_exp}/{_exp}.html",
                category="Beam search",
                subcategory=_exp,
                caption=f"../report/beam/{_exp}.rst",
            ),
            svg=report(
                f"results/{_exp}/{_exp}.svg",
                category="Beam search",
                subcategory=_exp,
                caption=f"../report/beam/{_exp}_figure.rst",
            ),
            boards=report(
                f"results/{_exp}/best_boards.svg",
                category="Beam search",
                subcategory=_exp,
                caption="../report/beam/best_boards.rst",
            ),
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
            experiment=_exp,
            puzzles=beam_pipeline.puzzle_args(_exp, BEAM_JOBS, BEAM_INSTANCES),
            family_rows=config["beam_factory"].get("family_rows", 13),
        shell:
            "puzzlelab edgematch report {params.experiment} --runs {input.runs} --timings {input.timings}"
            " {params.puzzles} --csv {output.csv} --html {output.html} --svg {output.svg} --boards {output.boards}"
            " --family-rows {params.family_rows} 2> {log}"


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
