# Balda experiments (category "Balda"): the built-in dictionary, word-search speed (forward trie,
# separator trie, incremental), alpha-beta variants per depth, deeper-vs-shallower tournaments.
# Helpers live in puzzlelab/balda/pipeline.py.
from puzzlelab.balda.pipeline import alphabeta_jobs as balda_alphabeta_jobs
from puzzlelab.balda.pipeline import dictionary_compare as balda_dictionary_compare
from puzzlelab.balda.pipeline import speed_jobs as balda_speed_jobs
from puzzlelab.balda.pipeline import tournament_jobs as balda_tournament_jobs

BALDA_CATEGORY = "Balda"
BALDA_COMPARE, BALDA_MISSING = balda_dictionary_compare(
    config["balda_dictionary"], HAVE_CORPORA, corpus_path
)
BALDA_SPEED = balda_speed_jobs(config["balda_search_speed"])
BALDA_AB = balda_alphabeta_jobs(config["balda_alphabeta"])
BALDA_TOUR = balda_tournament_jobs(config["balda_tournament"])

for _file, _reason in BALDA_MISSING:
    skip("balda_dictionary", f"comparison with {_file}", _reason)


localrules:
    balda_dictionary_table,
    balda_search_speed_table,
    balda_search_speed_summary,
    balda_alphabeta_table,
    balda_alphabeta_summary,
    balda_tournament_table,
    balda_tournament_summary,


# --- balda_dictionary: the built-in list from pymorphy3's OpenCorpora lexicon, beside the corpora ------
rule balda_dictionary_build:
    output:
        words="results/balda_dictionary/ru_opencorpora_nouns.txt",
        json="results/balda_dictionary/build.json",
        timing="results/balda_dictionary/build.timing.json",
    log:
        "results/logs/balda_dictionary/build.log",
    conda:
        ENV
    threads: threads_for("balda_dictionary_build")
    resources:
        mem_mb=mem_mb_for("balda_dictionary_build"),
        runtime=runtime_for("balda_dictionary_build"),
    params:
        exclude=",".join(config["balda_dictionary"]["exclude"]),
        prefixes=",".join(config["balda_dictionary"]["prefixes"]),
    shell:
        "puzzlelab balda dictionary --words {output.words} --exclude={params.exclude:q}"
        " --prefix={params.prefixes:q}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule balda_dictionary_stats:
    input:
        words=rules.balda_dictionary_build.output.words,
        compare=list(BALDA_COMPARE.values()),
    output:
        json="results/balda_dictionary/stats.json",
    log:
        "results/logs/balda_dictionary/stats.log",
    conda:
        ENV
    threads: threads_for("balda_dictionary_stats")
    resources:
        mem_mb=mem_mb_for("balda_dictionary_stats"),
        runtime=runtime_for("balda_dictionary_stats"),
    params:
        lists=" ".join(f"{k}={v}" for k, v in BALDA_COMPARE.items()),
    shell:
        "puzzlelab balda dict-stats builtin={input.words} {params.lists} --out {output.json} 2> {log}"


rule balda_dictionary_table:
    input:
        stats=rules.balda_dictionary_stats.output.json,
        build=rules.balda_dictionary_build.output.json,
    output:
        csv="results/balda_dictionary/dictionaries.csv",
        html=report(
            "results/balda_dictionary/dictionaries.html",
            category=BALDA_CATEGORY,
            subcategory="balda_dictionary",
            caption="../report/balda/dictionary.rst",
        ),
        svg=report(
            "results/balda_dictionary/lengths.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_dictionary",
            caption="../report/balda/dictionary_plot.rst",
        ),
    log:
        "results/logs/balda_dictionary/table.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report dictionary {input.stats} {input.build} --csv {output.csv}"
        " --html {output.html} --svg {output.svg} 2> {log}"


register_experiment(
    "balda_dictionary",
    BALDA_CATEGORY,
    [rules.balda_dictionary_table.output.html, rules.balda_dictionary_table.output.svg],
)
register_determinism(
    "balda_dictionary",
    [
        rules.balda_dictionary_build.output.words,
        rules.balda_dictionary_build.output.json,
    ],
)


rule balda_dictionary:
    input:
        experiment_inputs("balda_dictionary"),


# --- balda_search_speed: full and incremental word search on self-play positions ---------------------
rule balda_search_speed_run:
    input:
        words=rules.balda_dictionary_build.output.words,
    output:
        json="results/balda_search_speed/runs/{balda_speed}.json",
        timing="results/balda_search_speed/runs/{balda_speed}.timing.json",
    log:
        "results/logs/balda_search_speed/{balda_speed}.log",
    wildcard_constraints:
        balda_speed=r"[0-9]+x[0-9]+_seed[0-9]+",
    conda:
        ENV
    threads: threads_for("balda_search_speed_run")
    resources:
        mem_mb=mem_mb_for("balda_search_speed_run"),
        runtime=runtime_for("balda_search_speed_run"),
    params:
        size=lambda wc: BALDA_SPEED[wc.balda_speed]["size"],
        seed=lambda wc: BALDA_SPEED[wc.balda_speed]["seed"],
        depth=config["balda_search_speed"]["depth"],
        reps=config["balda_search_speed"]["reps"],
        rounds=config["balda_search_speed"]["rounds"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab balda bench-speed --dict {input.words} --size {params.size}"
        " --seed {params.seed} --depth {params.depth} --reps {params.reps} --rounds {params.rounds}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule balda_search_speed_table:
    input:
        runs=expand(
            rules.balda_search_speed_run.output.json, balda_speed=sorted(BALDA_SPEED)
        ),
        timings=expand(
            rules.balda_search_speed_run.output.timing, balda_speed=sorted(BALDA_SPEED)
        ),
    output:
        csv="results/balda_search_speed/positions.csv",
        html=report(
            "results/balda_search_speed/positions.html",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            caption="../report/balda/speed_positions.rst",
        ),
        svg=report(
            "results/balda_search_speed/time_vs_filled.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            caption="../report/balda/speed_plot.rst",
        ),
    log:
        "results/logs/balda_search_speed/table.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report speed {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} 2> {log}"


rule balda_search_speed_summary:
    input:
        runs=rules.balda_search_speed_table.input.runs,
        timings=rules.balda_search_speed_table.input.timings,
    output:
        csv="results/balda_search_speed/summary.csv",
        html=report(
            "results/balda_search_speed/summary.html",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            caption="../report/balda/speed_summary.rst",
        ),
    log:
        "results/logs/balda_search_speed/summary.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report speed-summary {input.runs} --csv {output.csv} --html {output.html}"
        " 2> {log}"


register_experiment(
    "balda_search_speed",
    BALDA_CATEGORY,
    [
        rules.balda_search_speed_table.output.html,
        rules.balda_search_speed_summary.output.html,
        rules.balda_search_speed_table.output.svg,
    ],
)
register_determinism("balda_search_speed", rules.balda_search_speed_table.input.runs)


rule balda_search_speed:
    input:
        experiment_inputs("balda_search_speed"),


# --- balda_alphabeta: minimax, alpha-beta, ordering, long-word pruning: nodes and time per depth -------
rule balda_alphabeta_run:
    input:
        words=rules.balda_dictionary_build.output.words,
    output:
        json="results/balda_alphabeta/runs/{balda_ab}.json",
        timing="results/balda_alphabeta/runs/{balda_ab}.timing.json",
    log:
        "results/logs/balda_alphabeta/{balda_ab}.log",
    wildcard_constraints:
        balda_ab=r"s[0-9]+_p[0-9]+_[a-z_]+",
    conda:
        ENV
    threads: threads_for("balda_alphabeta_run")
    resources:
        mem_mb=mem_mb_for("balda_alphabeta_run"),
        runtime=runtime_for("balda_alphabeta_run"),
    params:
        size=config["balda_alphabeta"]["size"],
        seed=lambda wc: BALDA_AB[wc.balda_ab]["seed"],
        plies=lambda wc: BALDA_AB[wc.balda_ab]["plies"],
        variant=lambda wc: BALDA_AB[wc.balda_ab]["variant"],
        depth=lambda wc: BALDA_AB[wc.balda_ab]["max_depth"],
        slack=config["balda_alphabeta"]["slack"],
        endgame=config["balda_alphabeta"]["endgame"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab balda bench-search --dict {input.words} --size {params.size}"
        " --seed {params.seed} --plies {params.plies} --variant {params.variant} --max-depth {params.depth}"
        " --slack {params.slack} --endgame {params.endgame}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule balda_alphabeta_table:
    input:
        runs=expand(rules.balda_alphabeta_run.output.json, balda_ab=sorted(BALDA_AB)),
        timings=expand(
            rules.balda_alphabeta_run.output.timing, balda_ab=sorted(BALDA_AB)
        ),
    output:
        csv="results/balda_alphabeta/depths.csv",
        html=report(
            "results/balda_alphabeta/depths.html",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            caption="../report/balda/alphabeta_depths.rst",
        ),
        svg=report(
            "results/balda_alphabeta/nodes_time.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            caption="../report/balda/alphabeta_plot.rst",
        ),
    log:
        "results/logs/balda_alphabeta/table.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report alphabeta {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} 2> {log}"


rule balda_alphabeta_summary:
    input:
        runs=rules.balda_alphabeta_table.input.runs,
        timings=rules.balda_alphabeta_table.input.timings,
    output:
        csv="results/balda_alphabeta/summary.csv",
        html=report(
            "results/balda_alphabeta/summary.html",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            caption="../report/balda/alphabeta_summary.rst",
        ),
    log:
        "results/logs/balda_alphabeta/summary.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report alphabeta-summary {input.runs} --csv {output.csv}"
        " --html {output.html} 2> {log}"


register_experiment(
    "balda_alphabeta",
    BALDA_CATEGORY,
    [
        rules.balda_alphabeta_table.output.html,
        rules.balda_alphabeta_summary.output.html,
        rules.balda_alphabeta_table.output.svg,
    ],
)
register_determinism("balda_alphabeta", rules.balda_alphabeta_table.input.runs)


rule balda_alphabeta:
    input:
        experiment_inputs("balda_alphabeta"),


# --- balda_tournament: deeper against shallower search over seeded start words ----------------------
rule balda_tournament_run:
    input:
        words=rules.balda_dictionary_build.output.words,
    output:
        json="results/balda_tournament/runs/{balda_tour}.json",
        timing="results/balda_tournament/runs/{balda_tour}.timing.json",
    log:
        "results/logs/balda_tournament/{balda_tour}.log",
    wildcard_constraints:
        balda_tour=r"d[0-9]+v[0-9]+_w[0-9]+",
    conda:
        ENV
    threads: threads_for("balda_tournament_run")
    resources:
        mem_mb=mem_mb_for("balda_tournament_run"),
        runtime=runtime_for("balda_tournament_run"),
    params:
        size=config["balda_tournament"]["size"],
        seed=config["balda_tournament"]["seed"],
        deep=lambda wc: BALDA_TOUR[wc.balda_tour]["deep"],
        shallow=lambda wc: BALDA_TOUR[wc.balda_tour]["shallow"],
        first=lambda wc: BALDA_TOUR[wc.balda_tour]["first"],
        words=lambda wc: BALDA_TOUR[wc.balda_tour]["words"],
        variant=config["balda_tournament"]["variant"],
        slack=config["balda_tournament"]["slack"],
        endgame=config["balda_tournament"]["endgame"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab balda tournament --dict {input.words} --size {params.size}"
        " --seed {params.seed} --first {params.first} --words {params.words} --deep {params.deep}"
        " --shallow {params.shallow} --variant {params.variant} --slack {params.slack} --endgame {params.endgame}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule balda_tournament_table:
    input:
        runs=expand(
            rules.balda_tournament_run.output.json, balda_tour=sorted(BALDA_TOUR)
        ),
        timings=expand(
            rules.balda_tournament_run.output.timing, balda_tour=sorted(BALDA_TOUR)
        ),
    output:
        csv="results/balda_tournament/games.csv",
        html=report(
            "results/balda_tournament/games.html",
            category=BALDA_CATEGORY,
            subcategory="balda_tournament",
            caption="../report/balda/tournament_games.rst",
        ),
    log:
        "results/logs/balda_tournament/table.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report tournament {input.runs} --csv {output.csv} --html {output.html}"
        " 2> {log}"


rule balda_tournament_summary:
    input:
        runs=rules.balda_tournament_table.input.runs,
        timings=rules.balda_tournament_table.input.timings,
    output:
        csv="results/balda_tournament/summary.csv",
        html=report(
            "results/balda_tournament/summary.html",
            category=BALDA_CATEGORY,
            subcategory="balda_tournament",
            caption="../report/balda/tournament_summary.rst",
        ),
    log:
        "results/logs/balda_tournament/summary.log",
    conda:
        ENV
    shell:
        "puzzlelab balda report tournament-summary {input.runs} --csv {output.csv}"
        " --html {output.html} 2> {log}"


register_experiment(
    "balda_tournament",
    BALDA_CATEGORY,
    [
        rules.balda_tournament_table.output.html,
        rules.balda_tournament_summary.output.html,
    ],
)
register_determinism("balda_tournament", rules.balda_tournament_table.input.runs)


rule balda_tournament:
    input:
        experiment_inputs("balda_tournament"),
