# Snakebird experiments (category "Snakebird"): every level of the project's set and of the shared
# corpus solved optimally through the compressed BFS, replayed to a win, beside the published move
# counts, the public per-depth counts and, where it is installed, the reference C++ solver.
# Helpers live in puzzlelab/snakebird/pipeline.py.
from puzzlelab.snakebird.pipeline import level_jobs as snakebird_level_jobs
from puzzlelab.snakebird.pipeline import (
    missing_corpus_levels as snakebird_missing_levels,
)
from puzzlelab.snakebird.pipeline import reference_jobs as snakebird_reference_jobs

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
    snakebird_levels_report,


rule snakebird_solve:
    input:
        level=lambda wc: SB_JOBS[f"{wc.sbset}/{wc.sblevel}"],
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
    threads: threads_for("snakebird_solve")
    resources:
        mem_mb=mem_mb_for("snakebird_solve"),
        runtime=runtime_for("snakebird_solve"),
    params:
        budget=SB_CFG["memory_budget"],
        workdir="results/snakebird_levels/spill",
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab snakebird solve {input.level:q}"
        " --memory-budget {params.budget} --workdir {params.workdir}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule snakebird_reference:
    input:
        level=lambda wc: SB_JOBS[f"corpus/{wc.sblevel}"],
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
    shell:
        "puzzlelab snakebird reference {input.level:q} --binary {params.binary:q}"
        " --out {output.json} --timing {output.timing} 2> {log}"


SB_RUNS = [f"results/snakebird_levels/runs/{key}.json" for key in sorted(SB_JOBS)]
SB_REF_RUNS = [
    f"results/snakebird_levels/reference/{name}.json" for name in sorted(SB_REFS)
]
SB_HAVE_PUBLIC = HAVE_CORPORA and SB_PUBLIC_LAYERS.exists()


rule snakebird_levels_report:
    input:
        runs=SB_RUNS,
        timings=[r.replace(".json", ".timing.json") for r in SB_RUNS],
        refs=SB_REF_RUNS,
        ref_timings=[r.replace(".json", ".timing.json") for r in SB_REF_RUNS],
        public=[str(SB_PUBLIC_LAYERS)] if SB_HAVE_PUBLIC else [],
        levels=[SB_JOBS[key] for key in sorted(SB_JOBS)],
    output:
        csv="results/snakebird_levels/levels.csv",
        html=report(
            "results/snakebird_levels/levels.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "levels: moves, states, time"},
            caption="../report/snakebird/levels.rst",
        ),
        times_csv="results/snakebird_levels/levels.timing.csv",
        times_html=report(
            "results/snakebird_levels/levels.timing.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "levels: time and memory"},
            caption="../report/snakebird/times.rst",
        ),
        layers_csv="results/snakebird_levels/layers.csv",
        layers_html=report(
            "results/snakebird_levels/layers.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "new states per distance"},
            caption="../report/snakebird/layers.rst",
        ),
        solutions_csv="results/snakebird_levels/solutions.csv",
        solutions_html=report(
            "results/snakebird_levels/solutions.html",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"table": "one optimal solution per level"},
            caption="../report/snakebird/solutions.rst",
        ),
        svg_time=report(
            "results/snakebird_levels/states_vs_time.timing.svg",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"figure": "states against solve time"},
            caption="../report/snakebird/states_vs_time.rst",
        ),
        svg_bits=report(
            "results/snakebird_levels/bits_vs_states.svg",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"figure": "bits per state against states"},
            caption="../report/snakebird/bits_vs_states.rst",
        ),
        svg_levels=report(
            "results/snakebird_levels/levels.svg",
            category=SB_CATEGORY,
            subcategory="snakebird_levels",
            labels={"figure": "every level solved: start positions"},
            caption="../report/snakebird/pictures.rst",
        ),
        scorecard="results/snakebird_levels/scorecard.csv",
    log:
        "results/logs/snakebird_levels/report.log",
    benchmark:
        "results/benchmarks/snakebird_levels/snakebird_levels_report/all.tsv"
    conda:
        ENV
    params:
        public=f"--public-layers {SB_PUBLIC_LAYERS}" if SB_HAVE_PUBLIC else "",
        refs=lambda wc, input: (
            "--reference " + " ".join(input.refs) if input.refs else ""
        ),
    shell:
        "puzzlelab snakebird report {input.runs} {params.refs} {params.public}"
        " --csv {output.csv} --html {output.html}"
        " --times-csv {output.times_csv} --times-html {output.times_html}"
        " --layers-csv {output.layers_csv} --layers-html {output.layers_html}"
        " --solutions-csv {output.solutions_csv} --solutions-html {output.solutions_html}"
        " --svg-time {output.svg_time} --svg-bits {output.svg_bits} --svg-levels {output.svg_levels}"
        " --scorecard {output.scorecard} 2> {log}"


register_experiment(
    "snakebird_levels",
    SB_CATEGORY,
    [
        rules.snakebird_levels_report.output.html,
        rules.snakebird_levels_report.output.times_html,
        rules.snakebird_levels_report.output.layers_html,
        rules.snakebird_levels_report.output.solutions_html,
        rules.snakebird_levels_report.output.svg_time,
        rules.snakebird_levels_report.output.svg_bits,
        rules.snakebird_levels_report.output.svg_levels,
    ],
)
register_scorecard("snakebird_levels", rules.snakebird_levels_report.output.scorecard)
register_determinism("snakebird_levels", SB_RUNS + SB_REF_RUNS)


rule snakebird_levels:
    input:
        experiment_inputs("snakebird_levels"),
