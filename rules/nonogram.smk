# Nonograms: the benchmark over every corpus (ours + the shared ones), the reference solver beside it,
# and the ablation of the article's optimisations. Helpers: src/puzzlelab/nonogram/pipeline.py.

from puzzlelab.nonogram import pipeline as nonogram_pl
from puzzlelab.nonogram.reference import find as nonogram_find_reference

NB = config["nonogram_bench"]
NA = config["nonogram_ablation"]
NONOGRAM_ROOT = CORPORA if HAVE_CORPORA else Path(config["corpora_dir"])
NB_NAMES = nonogram_pl.corpus_names(NB, NONOGRAM_ROOT)
NB_REF_EXE = nonogram_find_reference(
    config.get("reference_solvers", {}).get("pbnsolve", "")
)
NB_REF_CORPORA = [
    n
    for n in NB_NAMES
    if NB.get("reference", True) and n not in NB.get("reference_skip", [])
]
NB_JOBS = nonogram_pl.jobs(NB, NONOGRAM_ROOT)
NA_VARIANTS = NA.get("variants", ["base"])
NA_JOBS = nonogram_pl.jobs(NA, NONOGRAM_ROOT, variants=NA_VARIANTS)

for _name, _reason in nonogram_pl.corpora(NB, NONOGRAM_ROOT)[1]:
    skip("nonogram_bench", _name, _reason)
for _name, _reason in nonogram_pl.corpora(NA, NONOGRAM_ROOT)[1]:
    skip("nonogram_ablation", _name, _reason)
NB_REF_WHY = (
    ""
    if NB_REF_EXE
    else "pbnsolve executable not found (config reference_solvers.pbnsolve)"
)
if not NB_REF_EXE:
    skip("nonogram_bench", "pbnsolve reference timing", NB_REF_WHY)
# 25x25 corpora also solved in the tournament's mode (first solution), the champion beside us
NB_TOURNAMENT = [n for n in NB.get("tournament", []) if n in NB_NAMES]
NB_LALAFROG_EXE = nonogram_find_reference(
    config.get("reference_solvers", {}).get("lalafrog", "")
)
NB_LALAFROG_WHY = (
    ""
    if NB_LALAFROG_EXE
    else "LalaFrogKK executable not found (config reference_solvers.lalafrog)"
)
if NB_TOURNAMENT and not NB_LALAFROG_EXE:
    skip("nonogram_bench", "LalaFrogKK beside us on 25x25", NB_LALAFROG_WHY)


# a corpus wildcard names a configured corpus (any other name: "no rule to produce", not a KeyError)
NONOGRAM_NAMES = sorted(
    set(NB_NAMES) | set(nonogram_pl.corpus_names(NA, NONOGRAM_ROOT))
)


wildcard_constraints:
    nonogram_corpus="|".join(NONOGRAM_NAMES),
    nonogram_chunk=r"\d+",
    nonogram_variant=r"[a-z\-]+",
    nonogram_exp=r"nonogram_bench|nonogram_ablation",


localrules:
    nonogram_bench_summary,
    nonogram_bench_heaviest,
    nonogram_bench_reference_table,
    nonogram_bench_tournament_table,
    nonogram_ablation_tables,


rule nonogram_generate:
    output:
        "results/{nonogram_exp}/corpus/{nonogram_corpus}.nonpack",
    log:
        "results/logs/{nonogram_exp}/generate_{nonogram_corpus}.log",
    benchmark:
        "results/benchmarks/{nonogram_exp}/nonogram_generate/{nonogram_corpus}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_generate")
    resources:
        mem_mb=mem_mb_for("nonogram_generate"),
        runtime=runtime_for("nonogram_generate"),
    params:
        **nonogram_pl.params(
            config,
            NONOGRAM_ROOT,
            nonogram_pl.generate_fields,
            ["size", "density", "colors", "puzzles", "seed", "style", "scale"],
        ),
    shell:
        "puzzlelab nonogram generate --size {params.size} --density {params.density}"
        " --colors {params.colors} --count {params.puzzles} --seed {params.seed}"
        " --style {params.style} --scale {params.scale} --out {output} > {log} 2>&1"


rule nonogram_parse:
    output:
        instances="results/{nonogram_exp}/instances/{nonogram_corpus}.nonjson",
        unreadable="results/{nonogram_exp}/instances/{nonogram_corpus}.unreadable.csv",
    log:
        "results/logs/{nonogram_exp}/parse_{nonogram_corpus}.log",
    benchmark:
        "results/benchmarks/{nonogram_exp}/nonogram_parse/{nonogram_corpus}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_parse")
    resources:
        mem_mb=mem_mb_for("nonogram_parse"),
        runtime=runtime_for("nonogram_parse"),
    params:
        paths=lambda wc: nonogram_pl.source_paths(
            config[wc.nonogram_exp], NONOGRAM_ROOT, wc.nonogram_corpus
        ),
        format=nonogram_pl.param(
            config, NONOGRAM_ROOT, nonogram_pl.parse_fields, "format"
        ),
        limit=nonogram_pl.param(
            config, NONOGRAM_ROOT, nonogram_pl.parse_fields, "limit"
        ),
    shell:
        "puzzlelab nonogram parse {params.paths} --format {params.format} --limit {params.limit}"
        " --out {output.instances} --unreadable {output.unreadable} > {log} 2>&1"


# the puzzle file each corpus's jobs read: the generated corpus or the parse step's instances
NONOGRAM_CORPUS_FILES = {
    exp: {
        name: expand(
            (
                rules.nonogram_generate.output[0]
                if name in nonogram_pl.generated(config[exp])
                else rules.nonogram_parse.output.instances
            ),
            nonogram_exp=exp,
            nonogram_corpus=name,
        )[0]
        for name in nonogram_pl.corpus_names(config[exp], NONOGRAM_ROOT)
    }
    for exp in ["nonogram_bench", "nonogram_ablation"]
}
NB_FILES = NONOGRAM_CORPUS_FILES["nonogram_bench"]
NA_FILES = NONOGRAM_CORPUS_FILES["nonogram_ablation"]


rule nonogram_bench_solve:
    input:
        lambda wc: NB_FILES[wc.nonogram_corpus],
    output:
        result="results/nonogram_bench/solve/{nonogram_corpus}.{nonogram_chunk}.csv",
        timing="results/nonogram_bench/solve/{nonogram_corpus}.{nonogram_chunk}.timing.csv",
    log:
        "results/logs/nonogram_bench/solve_{nonogram_corpus}.{nonogram_chunk}.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_solve/{nonogram_corpus}.{nonogram_chunk}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_bench_solve")
    resources:
        mem_mb=mem_mb_for("nonogram_bench_solve"),
        runtime=runtime_for("nonogram_bench_solve"),
    params:
        **nonogram_pl.params(
            config,
            NONOGRAM_ROOT,
            nonogram_pl.bench_fields,
            ["max_solutions", "timeout", "work_limit", "chunks"],
            "nonogram_bench",
        ),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab nonogram bench {input:q}"
        " --max-solutions {params.max_solutions} --timeout {params.timeout}"
        " --work-limit {params.work_limit} --chunk {wildcards.nonogram_chunk}/{params.chunks}"
        " --corpus {wildcards.nonogram_corpus}"
        " --out {output.result} --timing {output.timing} > {log} 2>&1"


rule nonogram_bench_reference:
    input:
        lambda wc: NB_FILES[wc.nonogram_corpus],
    output:
        "results/nonogram_bench/reference/{nonogram_corpus}.{nonogram_chunk}.timing.csv",
    log:
        "results/logs/nonogram_bench/reference_{nonogram_corpus}.{nonogram_chunk}.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_reference/{nonogram_corpus}.{nonogram_chunk}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_bench_reference")
    resources:
        mem_mb=mem_mb_for("nonogram_bench_reference"),
        runtime=runtime_for("nonogram_bench_reference"),
    params:
        **nonogram_pl.params(
            config,
            NONOGRAM_ROOT,
            nonogram_pl.reference_fields,
            ["timeout", "chunks"],
            "nonogram_bench",
        ),
        exe=NB_REF_EXE or "",
    shell:
        "puzzlelab nonogram reference {input:q} --solver {params.exe:q}"
        " --timeout {params.timeout} --chunk {wildcards.nonogram_chunk}/{params.chunks}"
        " --corpus {wildcards.nonogram_corpus} --out {output} > {log} 2>&1"


rule nonogram_bench_first:
    input:
        lambda wc: NB_FILES[wc.nonogram_corpus],
    output:
        result="results/nonogram_bench/first/{nonogram_corpus}.{nonogram_chunk}.csv",
        timing="results/nonogram_bench/first/{nonogram_corpus}.{nonogram_chunk}.timing.csv",
    log:
        "results/logs/nonogram_bench/first_{nonogram_corpus}.{nonogram_chunk}.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_first/{nonogram_corpus}.{nonogram_chunk}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_bench_solve")
    resources:
        mem_mb=mem_mb_for("nonogram_bench_solve"),
        runtime=runtime_for("nonogram_bench_solve"),
    params:
        **nonogram_pl.params(
            config,
            NONOGRAM_ROOT,
            nonogram_pl.bench_fields,
            ["timeout", "work_limit", "chunks"],
            "nonogram_bench",
        ),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab nonogram bench {input:q}"
        " --max-solutions 1 --timeout {params.timeout}"
        " --work-limit {params.work_limit} --chunk {wildcards.nonogram_chunk}/{params.chunks}"
        " --corpus {wildcards.nonogram_corpus}"
        " --out {output.result} --timing {output.timing} > {log} 2>&1"


rule nonogram_bench_champion:
    input:
        lambda wc: NB_FILES[wc.nonogram_corpus],
    output:
        "results/nonogram_bench/champion/{nonogram_corpus}.timing.csv",
    log:
        "results/logs/nonogram_bench/champion_{nonogram_corpus}.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_champion/{nonogram_corpus}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_bench_reference")
    resources:
        mem_mb=mem_mb_for("nonogram_bench_reference"),
        runtime=runtime_for("nonogram_bench_reference"),
    params:
        **nonogram_pl.params(
            config,
            NONOGRAM_ROOT,
            nonogram_pl.reference_fields,
            ["timeout"],
            "nonogram_bench",
        ),
        exe=NB_LALAFROG_EXE or "",
    shell:
        "puzzlelab nonogram reference {input:q} --solver {params.exe:q} --kind lalafrog"
        " --timeout {params.timeout} --corpus {wildcards.nonogram_corpus} --out {output} > {log} 2>&1"


NB_SOLVE = expand(rules.nonogram_bench_solve.output.result, zip, **NB_JOBS)
NB_TIMINGS = expand(rules.nonogram_bench_solve.output.timing, zip, **NB_JOBS)
NB_REF = (
    expand(
        rules.nonogram_bench_reference.output[0],
        zip,
        **nonogram_pl.jobs(NB, NONOGRAM_ROOT, names=NB_REF_CORPORA),
    )
    if NB_REF_EXE
    else []
)


rule nonogram_bench_summary:
    input:
        results=NB_SOLVE,
        timings=NB_TIMINGS,
    output:
        csv="results/nonogram_bench/summary.timing.csv",
        html=report(
            "results/nonogram_bench/summary.timing.html",
            category="Nonograms",
            subcategory="nonogram_bench",
            labels={"table": "per corpus: statuses and times"},
            caption="../report/nonogram/bench_summary.rst",
        ),
        svg=report(
            "results/nonogram_bench/times.timing.svg",
            category="Nonograms",
            subcategory="nonogram_bench",
            labels={"figure": "solve times per corpus"},
            caption="../report/nonogram/bench_times.rst",
        ),
    log:
        "results/logs/nonogram_bench/summary.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_summary/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab nonogram report summary {input.results}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} > {log} 2>&1"


rule nonogram_bench_heaviest:
    input:
        results=NB_SOLVE,
        timings=NB_TIMINGS,
    output:
        csv="results/nonogram_bench/heaviest.timing.csv",
        html=report(
            "results/nonogram_bench/heaviest.timing.html",
            category="Nonograms",
            subcategory="nonogram_bench",
            labels={"table": "the heaviest puzzles of each corpus"},
            caption="../report/nonogram/bench_heaviest.rst",
        ),
    log:
        "results/logs/nonogram_bench/heaviest.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_heaviest/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab nonogram report heaviest {input.results}"
        " --csv {output.csv} --html {output.html} > {log} 2>&1"


rule nonogram_bench_reference_table:
    input:
        results=NB_SOLVE,
        timings=NB_TIMINGS,
        reference=NB_REF,
    output:
        csv="results/nonogram_bench/reference.timing.csv",
        html=report(
            "results/nonogram_bench/reference.timing.html",
            category="Nonograms",
            subcategory="nonogram_bench",
            labels={"table": "ours beside pbnsolve"},
            caption="../report/nonogram/bench_reference.rst",
        ),
        scorecard="results/nonogram_bench/scorecard.csv",
    log:
        "results/logs/nonogram_bench/reference_table.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_reference_table/all.tsv"
    conda:
        ENV
    params:
        why=NB_REF_WHY,
        summary=rules.nonogram_bench_summary.output.html,
        heaviest=rules.nonogram_bench_heaviest.output.html,
    shell:
        "puzzlelab nonogram report reference {input.results} --reference {input.reference}"
        " --solver pbnsolve --unavailable={params.why:q}"
        " --csv {output.csv} --html {output.html}"
        " --scorecard {output.scorecard} --link {params.summary} {params.heaviest} > {log} 2>&1"


NB_FIRST_JOBS = nonogram_pl.jobs(NB, NONOGRAM_ROOT, names=NB_TOURNAMENT)
NB_FIRST = expand(rules.nonogram_bench_first.output.result, zip, **NB_FIRST_JOBS)


rule nonogram_bench_tournament_table:
    input:
        first=NB_FIRST,
        first_timings=expand(
            rules.nonogram_bench_first.output.timing, zip, **NB_FIRST_JOBS
        ),
        decided=expand(rules.nonogram_bench_solve.output.result, zip, **NB_FIRST_JOBS),
        champion=(
            expand(
                rules.nonogram_bench_champion.output[0], nonogram_corpus=NB_TOURNAMENT
            )
            if NB_LALAFROG_EXE
            else []
        ),
    output:
        csv="results/nonogram_bench/tournament.timing.csv",
        html=report(
            "results/nonogram_bench/tournament.timing.html",
            category="Nonograms",
            subcategory="nonogram_bench",
            labels={"table": "25x25 tournament sets beside LalaFrogKK"},
            caption="../report/nonogram/bench_tournament.rst",
        ),
        scorecard="results/nonogram_bench/tournament/scorecard.csv",
    log:
        "results/logs/nonogram_bench/tournament_table.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_tournament_table/all.tsv"
    conda:
        ENV
    params:
        why=NB_LALAFROG_WHY,
    shell:
        "puzzlelab nonogram report tournament {input.first} --decided {input.decided}"
        " --reference {input.champion} --solver LalaFrogKK --unavailable={params.why:q}"
        " --csv {output.csv} --html {output.html} --scorecard {output.scorecard} > {log} 2>&1"


rule nonogram_bench_gallery:
    input:
        results=lambda wc: expand(
            rules.nonogram_bench_solve.output.result,
            zip,
            **nonogram_pl.jobs(NB, NONOGRAM_ROOT, names=[wc.nonogram_corpus]),
        ),
        corpus=lambda wc: NB_FILES[wc.nonogram_corpus],
    output:
        report(
            "results/nonogram_bench/gallery/{nonogram_corpus}.svg",
            category="Nonograms",
            subcategory="nonogram_bench gallery",
            caption="../report/nonogram/bench_gallery.rst",
        ),
    log:
        "results/logs/nonogram_bench/gallery_{nonogram_corpus}.log",
    benchmark:
        "results/benchmarks/nonogram_bench/nonogram_bench_gallery/{nonogram_corpus}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_bench_gallery")
    resources:
        mem_mb=mem_mb_for("nonogram_bench_gallery"),
        runtime=runtime_for("nonogram_bench_gallery"),
    params:
        n=NB.get("gallery", 4),
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab nonogram gallery {input.results}"
        " --paths {input.corpus:q} --count {params.n} --title {wildcards.nonogram_corpus}"
        " --svg {output} > {log} 2>&1"


rule nonogram_ablation_solve:
    input:
        lambda wc: NA_FILES[wc.nonogram_corpus],
    output:
        result="results/nonogram_ablation/solve/{nonogram_variant}/{nonogram_corpus}.{nonogram_chunk}.csv",
        timing="results/nonogram_ablation/solve/{nonogram_variant}/{nonogram_corpus}.{nonogram_chunk}.timing.csv",
    log:
        "results/logs/nonogram_ablation/solve_{nonogram_variant}_{nonogram_corpus}.{nonogram_chunk}.log",
    benchmark:
        "results/benchmarks/nonogram_ablation/nonogram_ablation_solve/{nonogram_variant}/{nonogram_corpus}.{nonogram_chunk}.tsv"
    conda:
        ENV
    threads: threads_for("nonogram_ablation_solve")
    resources:
        mem_mb=mem_mb_for("nonogram_ablation_solve"),
        runtime=runtime_for("nonogram_ablation_solve"),
    params:
        **nonogram_pl.params(
            config,
            NONOGRAM_ROOT,
            nonogram_pl.bench_fields,
            ["max_solutions", "timeout", "work_limit", "chunks"],
            "nonogram_ablation",
        ),
        switch=lambda wc: nonogram_pl.VARIANT_FLAGS[wc.nonogram_variant],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab nonogram bench {input:q}"
        " --max-solutions {params.max_solutions} --timeout {params.timeout}"
        " --work-limit {params.work_limit} --chunk {wildcards.nonogram_chunk}/{params.chunks}"
        " {params.switch}"
        " --corpus {wildcards.nonogram_corpus}"
        " --out {output.result} --timing {output.timing} > {log} 2>&1"


NA_RESULTS = expand(rules.nonogram_ablation_solve.output.result, zip, **NA_JOBS)


rule nonogram_ablation_tables:
    input:
        results=NA_RESULTS,
        timings=expand(rules.nonogram_ablation_solve.output.timing, zip, **NA_JOBS),
    output:
        csv="results/nonogram_ablation/speedups.timing.csv",
        html=report(
            "results/nonogram_ablation/speedups.timing.html",
            category="Nonograms",
            subcategory="nonogram_ablation",
            labels={"table": "speed-up of each optimisation"},
            caption="../report/nonogram/ablation_table.rst",
        ),
        svg=report(
            "results/nonogram_ablation/speedups.timing.svg",
            category="Nonograms",
            subcategory="nonogram_ablation",
            labels={"figure": "speed-up of each optimisation"},
            caption="../report/nonogram/ablation_plot.rst",
        ),
    log:
        "results/logs/nonogram_ablation/tables.log",
    benchmark:
        "results/benchmarks/nonogram_ablation/nonogram_ablation_tables/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab nonogram report ablation {input.results}"
        " --csv {output.csv} --html {output.html} --svg {output.svg} > {log} 2>&1"


register_experiment(
    "nonogram_bench",
    "Nonograms",
    [
        rules.nonogram_bench_summary.output.html,
        rules.nonogram_bench_heaviest.output.html,
        rules.nonogram_bench_summary.output.svg,
        rules.nonogram_bench_reference_table.output.html,
    ]
    + ([rules.nonogram_bench_tournament_table.output.html] if NB_TOURNAMENT else [])
    + expand(rules.nonogram_bench_gallery.output[0], nonogram_corpus=NB_NAMES),
)
register_scorecard(
    "nonogram_bench",
    rules.nonogram_bench_reference_table.output.scorecard,
    *(
        [rules.nonogram_bench_tournament_table.output.scorecard]
        if NB_TOURNAMENT
        else []
    ),
)
register_unreadable(
    "nonogram_bench",
    expand(
        rules.nonogram_parse.output.unreadable,
        nonogram_exp="nonogram_bench",
        nonogram_corpus=nonogram_pl.parsed_names(NB, NONOGRAM_ROOT),
    ),
)
register_determinism("nonogram_bench", NB_SOLVE)
register_experiment(
    "nonogram_ablation",
    "Nonograms",
    [
        rules.nonogram_ablation_tables.output.html,
        rules.nonogram_ablation_tables.output.svg,
    ],
)
register_unreadable(
    "nonogram_ablation",
    expand(
        rules.nonogram_parse.output.unreadable,
        nonogram_exp="nonogram_ablation",
        nonogram_corpus=nonogram_pl.parsed_names(NA, NONOGRAM_ROOT),
    ),
)
register_determinism(
    "nonogram_ablation",
    expand(
        rules.nonogram_ablation_solve.output.result,
        zip,
        **nonogram_pl.jobs(NA, NONOGRAM_ROOT, variants=["base"]),
    ),
)


rule nonogram_bench:
    input:
        experiment_inputs("nonogram_bench"),


rule nonogram_ablation:
    input:
        experiment_inputs("nonogram_ablation"),
