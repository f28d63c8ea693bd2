# Meet in the middle (BANDSAW): exact, proven-optimal completion of a band of rows.
# mitm_bench: the 10x10 testbed (planted and beam boards, bottom bands of 2-4 rows, growth per budget);
# mitm_vs_beam: the bottom 2-row band of 16x16 beam boards, exact optimum against the beam;
# mitm_wall: bands of growing rows x width, where memory (or time) stops the proof.
# Job tables come from src/puzzlelab/edgematch/mitm/pipeline.py; generated instances from
# rules/edgematch.smk.
from puzzlelab.edgematch.mitm import pipeline as mitm_pipeline

MITM_INSTANCES = mitm_pipeline.instances(
    config, HAVE_CORPORA, corpus_path, EDGEMATCH_INSTANCE_FILES
)
MITM_JOBS = mitm_pipeline.jobs(config, MITM_INSTANCES)
MITM_ALL_JOBS = mitm_pipeline.all_jobs(MITM_JOBS)

for _exp, _name in mitm_pipeline.missing(config, MITM_INSTANCES):
    skip(_exp, f"instance {_name}", f"shared corpus not found under {CORPORA}")

for _exp in mitm_pipeline.EXPERIMENTS:
    register_experiment(
        _exp, mitm_pipeline.CATEGORY, mitm_pipeline.report_targets(_exp)
    )
    register_determinism(_exp, mitm_pipeline.run_files(_exp, MITM_JOBS))


wildcard_constraints:
    mitm_exp="mitm_bench|mitm_vs_beam|mitm_wall",


rule mitm_beam:
    input:
        unpack(lambda wc: mitm_pipeline.instance_input(MITM_INSTANCES, wc.name)),
    output:
        board="results/mitm/beam/{name}_w{width,[0-9]+}_s{seed,[0-9]+}.json",
        timing="results/mitm/beam/{name}_w{width}_s{seed}.timing.json",
    log:
        "results/logs/mitm/beam_{name}_w{width}_s{seed}.log",
    conda:
        ENV
    threads: threads_for("mitm_beam")
    resources:
        mem_mb=mem_mb_for("mitm_beam"),
        runtime=runtime_for("mitm_beam"),
    params:
        hints=lambda wc: MITM_INSTANCES[wc.name]["hints"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch beam {input.puzzle} --width {wildcards.width}"
        " --seed {wildcards.seed} {params.hints} --out {output.board} --timing {output.timing}"
        " > /dev/null 2> {log}"


rule mitm_solve:
    input:
        unpack(
            lambda wc: mitm_pipeline.job_input(
                MITM_INSTANCES, MITM_ALL_JOBS[f"{wc.mitm_exp}/{wc.job}"]
            )
        ),
    output:
        out="results/{mitm_exp}/runs/{job}.json",
        timing="results/{mitm_exp}/runs/{job}.timing.json",
    log:
        "results/logs/{mitm_exp}/{job}.log",
    conda:
        ENV
    threads: threads_for("mitm_solve")
    resources:
        mem_mb=mem_mb_for("mitm_solve"),
        runtime=runtime_for("mitm_solve"),
    params:
        args=lambda wc: MITM_ALL_JOBS[f"{wc.mitm_exp}/{wc.job}"]["args"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab edgematch mitm {input.puzzle} --board {input.board}"
        " {params.args} --label {wildcards.job} --out {output.out} --timing {output.timing}"
        " > /dev/null 2> {log}"


for _exp in mitm_pipeline.EXPERIMENTS:

    rule:
        name:
            f"{_exp}_report"
        input:
            runs=mitm_pipeline.run_files(_exp, MITM_JOBS),
            timings=mitm_pipeline.timing_files(_exp, MITM_JOBS),
        output:
            csv=f"results/{_exp}/{_exp}.csv",
            html=report(
                f"results/{_exp}/{_exp}.html",
                category="Meet in the middle",
                subcategory=_exp,
                caption=f"../report/mitm/{_exp}.rst",
            ),
            rounds_csv=f"results/{_exp}/{_exp}_rounds.csv",
            rounds_html=report(
                f"results/{_exp}/{_exp}_rounds.html",
                category="Meet in the middle",
                subcategory=_exp,
                caption=f"../report/mitm/{_exp}_rounds.rst",
            ),
            svg=report(
                f"results/{_exp}/{_exp}.svg",
                category="Meet in the middle",
                subcategory=_exp,
                caption=f"../report/mitm/{_exp}_figure.rst",
            ),
            memory_svg=report(
                f"results/{_exp}/{_exp}_memory.svg",
                category="Meet in the middle",
                subcategory=_exp,
                caption=f"../report/mitm/{_exp}_memory.rst",
            ),
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
            experiment=_exp,
            memory_limit=(config.get(_exp) or {}).get("memory_limit", "4G"),
        shell:
            "puzzlelab edgematch mitm-report {params.experiment} --runs {input.runs} --timings {input.timings}"
            " --memory-limit {params.memory_limit} --csv {output.csv} --html {output.html}"
            " --rounds-csv {output.rounds_csv} --rounds-html {output.rounds_html}"
            " --svg {output.svg} --memory-svg {output.memory_svg} 2> {log}"


rule mitm_bench:
    input:
        experiment_inputs("mitm_bench"),


rule mitm_vs_beam:
    input:
        experiment_inputs("mitm_vs_beam"),


rule mitm_wall:
    input:
        experiment_inputs("mitm_wall"),
