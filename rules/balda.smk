# Balda experiments (category "Balda"): the built-in dictionary and the word lists beside it, word-search
# speed (forward trie, separator trie, incremental), alpha-beta variants per depth, deeper-vs-shallower
# tournaments. Helpers live in puzzlelab/balda/pipeline.py.
from puzzlelab.balda.pipeline import alphabeta_jobs as balda_alphabeta_jobs
from puzzlelab.balda.pipeline import dictionary_sources as balda_dictionary_sources
from puzzlelab.balda.pipeline import speed_jobs as balda_speed_jobs
from puzzlelab.balda.pipeline import tournament_jobs as balda_tournament_jobs

BALDA_CATEGORY = "Balda"
BALDA_LISTS, BALDA_MISSING = balda_dictionary_sources(
    config["balda_dictionary"], config["corpora_dir"], HAVE_CORPORA, corpus_path
)
BALDA_SPEED = balda_speed_jobs(config["balda_search_speed"])
BALDA_AB = balda_alphabeta_jobs(config["balda_alphabeta"])
BALDA_TOUR = balda_tournament_jobs(config["balda_tournament"])

for _file, _reason in BALDA_MISSING:
    skip("balda_dictionary", f"comparison with {_file}", _reason)


localrules:
    balda_dictionary_table,
    balda_dictionary_lengths,
    balda_search_speed_table,
    balda_search_speed_times,
    balda_search_speed_summary,
    balda_alphabeta_table,
    balda_alphabeta_times,
    balda_alphabeta_branching,
    balda_alphabeta_summary,
    balda_tournament_table,
    balda_tournament_summary,
    balda_tournament_times,


# --- balda_dictionary: the built-in list from pymorphy3's OpenCorpora lexicon, beside the corpora ------
rule balda_dictionary_build:
    output:
        words="results/balda_dictionary/ru_opencorpora_nouns.txt",
        json="results/balda_dictionary/build.json",
        timing="results/balda_dictionary/build.timing.json",
    log:
        "results/logs/balda_dictionary/build.log",
    benchmark:
        "results/benchmarks/balda_dictionary/balda_dictionary_build/all.tsv"
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


# the parse step: every word list (the built-in one and the corpora's) into a canonical list and a record;
# an unreadable list becomes a row of the report's unreadable inputs, not a failed workflow
rule balda_parse:
    input:
        lambda wc: (
            rules.balda_dictionary_build.output.words
            if wc.balda_list == "builtin"
            else BALDA_LISTS[wc.balda_list]["path"]
        ),
    output:
        words="results/balda_dictionary/lists/{balda_list}.txt",
        json="results/balda_dictionary/lists/{balda_list}.json",
        unreadable="results/balda_dictionary/lists/{balda_list}.unreadable.csv",
    log:
        "results/logs/balda_dictionary/parse_{balda_list}.log",
    benchmark:
        "results/benchmarks/balda_dictionary/balda_parse/{balda_list}.tsv"
    wildcard_constraints:
        balda_list=r"[A-Za-z0-9_]+",
    conda:
        ENV
    threads: threads_for("balda_parse")
    resources:
        mem_mb=mem_mb_for("balda_parse"),
        runtime=runtime_for("balda_parse"),
    params:
        label=lambda wc, input: BALDA_LISTS[wc.balda_list]["label"] or input[0],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab balda parse {input:q} --name {wildcards.balda_list}"
        " --label {params.label:q} --words {output.words} --unreadable {output.unreadable}"
        " --out {output.json} 2> {log}"


rule balda_dictionary_table:
    input:
        build=rules.balda_dictionary_build.output.json,
        lists=expand(rules.balda_parse.output.json, balda_list=list(BALDA_LISTS)),
        words=expand(rules.balda_parse.output.words, balda_list=list(BALDA_LISTS)),
    output:
        csv="results/balda_dictionary/dictionaries.csv",
        html=report(
            "results/balda_dictionary/dictionaries.html",
            category=BALDA_CATEGORY,
            subcategory="balda_dictionary",
            labels={"table": "word lists: words kept and dropped"},
            caption="../report/balda/dictionary.rst",
        ),
    log:
        "results/logs/balda_dictionary/table.log",
    benchmark:
        "results/benchmarks/balda_dictionary/balda_dictionary_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report dictionary {input.build} {input.lists} --csv {output.csv}"
        " --html {output.html} 2> {log}"


rule balda_dictionary_lengths:
    input:
        build=rules.balda_dictionary_table.input.build,
        lists=rules.balda_dictionary_table.input.lists,
        words=rules.balda_dictionary_table.input.words,
    output:
        csv="results/balda_dictionary/lengths.csv",
        html=report(
            "results/balda_dictionary/lengths.html",
            category=BALDA_CATEGORY,
            subcategory="balda_dictionary",
            labels={"table": "word lists: lengths and tries"},
            caption="../report/balda/dictionary_lengths.rst",
        ),
        svg=report(
            "results/balda_dictionary/lengths.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_dictionary",
            labels={"figure": "word length distribution"},
            caption="../report/balda/dictionary_plot.rst",
        ),
        scorecard="results/balda_dictionary/scorecard.csv",
    log:
        "results/logs/balda_dictionary/lengths.log",
    benchmark:
        "results/benchmarks/balda_dictionary/balda_dictionary_lengths/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report dictionary-lengths {input.build} {input.lists} --csv {output.csv}"
        " --html {output.html} --svg {output.svg} --scorecard {output.scorecard} 2> {log}"


register_experiment(
    "balda_dictionary",
    BALDA_CATEGORY,
    [
        rules.balda_dictionary_table.output.html,
        rules.balda_dictionary_lengths.output.html,
        rules.balda_dictionary_lengths.output.svg,
    ],
)
register_determinism(
    "balda_dictionary",
    [
        rules.balda_dictionary_build.output.words,
        rules.balda_dictionary_build.output.json,
    ],
)
register_scorecard("balda_dictionary", rules.balda_dictionary_lengths.output.scorecard)
register_unreadable(
    "balda_dictionary",
    expand(rules.balda_parse.output.unreadable, balda_list=list(BALDA_LISTS)),
)


rule balda_dictionary:
    input:
        experiment_inputs("balda_dictionary"),


# the canonical built-in list every solve job reads
BALDA_WORDS = expand(rules.balda_parse.output.words, balda_list="builtin")[0]


# --- balda_search_speed: full and incremental word search on self-play positions ---------------------
rule balda_search_speed_run:
    input:
        words=BALDA_WORDS,
    output:
        json="results/balda_search_speed/runs/{balda_speed}.json",
        timing="results/balda_search_speed/runs/{balda_speed}.timing.json",
    log:
        "results/logs/balda_search_speed/{balda_speed}.log",
    benchmark:
        "results/benchmarks/balda_search_speed/balda_search_speed_run/{balda_speed}.tsv"
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
    output:
        csv="results/balda_search_speed/positions.csv",
        html=report(
            "results/balda_search_speed/positions.html",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            labels={"table": "move lists per position"},
            caption="../report/balda/speed_positions.rst",
        ),
    log:
        "results/logs/balda_search_speed/table.log",
    benchmark:
        "results/benchmarks/balda_search_speed/balda_search_speed_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report speed {input.runs} --csv {output.csv} --html {output.html} 2> {log}"


rule balda_search_speed_times:
    input:
        runs=rules.balda_search_speed_table.input.runs,
        timings=expand(
            rules.balda_search_speed_run.output.timing, balda_speed=sorted(BALDA_SPEED)
        ),
    output:
        csv="results/balda_search_speed/positions.timing.csv",
        html=report(
            "results/balda_search_speed/positions.timing.html",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            labels={"table": "search time per position"},
            caption="../report/balda/speed_times.rst",
        ),
        svg=report(
            "results/balda_search_speed/time_vs_filled.timing.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            labels={"figure": "search time against filled cells"},
            caption="../report/balda/speed_plot.rst",
        ),
    log:
        "results/logs/balda_search_speed/times.log",
    benchmark:
        "results/benchmarks/balda_search_speed/balda_search_speed_times/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report speed-times {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} 2> {log}"


rule balda_search_speed_summary:
    input:
        runs=rules.balda_search_speed_times.input.runs,
        timings=rules.balda_search_speed_times.input.timings,
    output:
        csv="results/balda_search_speed/summary.timing.csv",
        html=report(
            "results/balda_search_speed/summary.timing.html",
            category=BALDA_CATEGORY,
            subcategory="balda_search_speed",
            labels={"table": "median search time by phase"},
            caption="../report/balda/speed_summary.rst",
        ),
        scorecard="results/balda_search_speed/scorecard.csv",
    log:
        "results/logs/balda_search_speed/summary.log",
    benchmark:
        "results/benchmarks/balda_search_speed/balda_search_speed_summary/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report speed-summary {input.runs} --csv {output.csv} --html {output.html}"
        " --scorecard {output.scorecard} 2> {log}"


register_experiment(
    "balda_search_speed",
    BALDA_CATEGORY,
    [
        rules.balda_search_speed_table.output.html,
        rules.balda_search_speed_times.output.html,
        rules.balda_search_speed_summary.output.html,
        rules.balda_search_speed_times.output.svg,
    ],
)
register_determinism("balda_search_speed", rules.balda_search_speed_table.input.runs)
register_scorecard(
    "balda_search_speed", rules.balda_search_speed_summary.output.scorecard
)


rule balda_search_speed:
    input:
        experiment_inputs("balda_search_speed"),


# --- balda_alphabeta: minimax, alpha-beta, ordering, long-word pruning: nodes and time per depth -------
rule balda_alphabeta_run:
    input:
        words=BALDA_WORDS,
    output:
        json="results/balda_alphabeta/runs/{balda_ab}.json",
        timing="results/balda_alphabeta/runs/{balda_ab}.timing.json",
    log:
        "results/logs/balda_alphabeta/{balda_ab}.log",
    benchmark:
        "results/benchmarks/balda_alphabeta/balda_alphabeta_run/{balda_ab}.tsv"
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
        node_limit=config["balda_alphabeta"]["node_limit"],
        timeout=config["balda_alphabeta"]["timeout"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab balda bench-search --dict {input.words} --size {params.size}"
        " --seed {params.seed} --plies {params.plies} --variant {params.variant} --max-depth {params.depth}"
        " --slack {params.slack} --endgame {params.endgame} --node-limit {params.node_limit}"
        " --timeout {params.timeout} --out {output.json} --timing {output.timing} 2> {log}"


rule balda_alphabeta_table:
    input:
        runs=expand(rules.balda_alphabeta_run.output.json, balda_ab=sorted(BALDA_AB)),
    output:
        csv="results/balda_alphabeta/depths.csv",
        html=report(
            "results/balda_alphabeta/depths.html",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            labels={"table": "value and nodes per depth"},
            caption="../report/balda/alphabeta_depths.rst",
        ),
        svg=report(
            "results/balda_alphabeta/nodes.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            labels={"figure": "nodes per depth"},
            caption="../report/balda/alphabeta_plot.rst",
        ),
    log:
        "results/logs/balda_alphabeta/table.log",
    benchmark:
        "results/benchmarks/balda_alphabeta/balda_alphabeta_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report alphabeta {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} 2> {log}"


rule balda_alphabeta_branching:
    input:
        runs=rules.balda_alphabeta_table.input.runs,
        timings=expand(
            rules.balda_alphabeta_run.output.timing, balda_ab=sorted(BALDA_AB)
        ),
    output:
        csv="results/balda_alphabeta/branching.csv",
        html=report(
            "results/balda_alphabeta/branching.html",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            labels={"table": "effective branching factor"},
            caption="../report/balda/alphabeta_branching.rst",
        ),
        scorecard="results/balda_alphabeta/scorecard.csv",
    log:
        "results/logs/balda_alphabeta/branching.log",
    benchmark:
        "results/benchmarks/balda_alphabeta/balda_alphabeta_branching/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report alphabeta-branching {input.runs} --csv {output.csv}"
        " --html {output.html} --scorecard {output.scorecard} 2> {log}"


rule balda_alphabeta_times:
    input:
        runs=rules.balda_alphabeta_table.input.runs,
        timings=expand(
            rules.balda_alphabeta_run.output.timing, balda_ab=sorted(BALDA_AB)
        ),
    output:
        csv="results/balda_alphabeta/depths.timing.csv",
        html=report(
            "results/balda_alphabeta/depths.timing.html",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            labels={"table": "search time per depth"},
            caption="../report/balda/alphabeta_times.rst",
        ),
        svg=report(
            "results/balda_alphabeta/time.timing.svg",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            labels={"figure": "CPU time per depth"},
            caption="../report/balda/alphabeta_time_plot.rst",
        ),
    log:
        "results/logs/balda_alphabeta/times.log",
    benchmark:
        "results/benchmarks/balda_alphabeta/balda_alphabeta_times/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report alphabeta-times {input.runs} --csv {output.csv} --html {output.html}"
        " --svg {output.svg} 2> {log}"


rule balda_alphabeta_summary:
    input:
        runs=rules.balda_alphabeta_times.input.runs,
        timings=rules.balda_alphabeta_times.input.timings,
    output:
        csv="results/balda_alphabeta/summary.timing.csv",
        html=report(
            "results/balda_alphabeta/summary.timing.html",
            category=BALDA_CATEGORY,
            subcategory="balda_alphabeta",
            labels={"table": "depth reached within a few seconds"},
            caption="../report/balda/alphabeta_summary.rst",
        ),
    log:
        "results/logs/balda_alphabeta/summary.log",
    benchmark:
        "results/benchmarks/balda_alphabeta/balda_alphabeta_summary/all.tsv"
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
        rules.balda_alphabeta_branching.output.html,
        rules.balda_alphabeta_times.output.html,
        rules.balda_alphabeta_summary.output.html,
        rules.balda_alphabeta_table.output.svg,
        rules.balda_alphabeta_times.output.svg,
    ],
)
register_determinism("balda_alphabeta", rules.balda_alphabeta_table.input.runs)
register_scorecard("balda_alphabeta", rules.balda_alphabeta_branching.output.scorecard)


rule balda_alphabeta:
    input:
        experiment_inputs("balda_alphabeta"),


# --- balda_tournament: deeper against shallower search over seeded start words ----------------------
rule balda_tournament_run:
    input:
        words=BALDA_WORDS,
    output:
        json="results/balda_tournament/runs/{balda_tour}.json",
        timing="results/balda_tournament/runs/{balda_tour}.timing.json",
    log:
        "results/logs/balda_tournament/{balda_tour}.log",
    benchmark:
        "results/benchmarks/balda_tournament/balda_tournament_run/{balda_tour}.tsv"
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
        node_limit=config["balda_tournament"]["node_limit"],
        timeout=config["balda_tournament"]["timeout"],
    shell:
        "NUMBA_NUM_THREADS={threads} puzzlelab balda tournament --dict {input.words} --size {params.size}"
        " --seed {params.seed} --first {params.first} --words {params.words} --deep {params.deep}"
        " --shallow {params.shallow} --variant {params.variant} --slack {params.slack}"
        " --endgame {params.endgame} --node-limit {params.node_limit} --timeout {params.timeout}"
        " --out {output.json} --timing {output.timing} 2> {log}"


rule balda_tournament_table:
    input:
        runs=expand(
            rules.balda_tournament_run.output.json, balda_tour=sorted(BALDA_TOUR)
        ),
    output:
        csv="results/balda_tournament/games.csv",
        html=report(
            "results/balda_tournament/games.html",
            category=BALDA_CATEGORY,
            subcategory="balda_tournament",
            labels={"table": "games"},
            caption="../report/balda/tournament_games.rst",
        ),
    log:
        "results/logs/balda_tournament/table.log",
    benchmark:
        "results/benchmarks/balda_tournament/balda_tournament_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report tournament {input.runs} --csv {output.csv} --html {output.html}"
        " 2> {log}"


rule balda_tournament_summary:
    input:
        runs=rules.balda_tournament_table.input.runs,
    output:
        csv="results/balda_tournament/summary.csv",
        html=report(
            "results/balda_tournament/summary.html",
            category=BALDA_CATEGORY,
            subcategory="balda_tournament",
            labels={"table": "wins, draws, losses per pair of depths"},
            caption="../report/balda/tournament_summary.rst",
        ),
        scorecard="results/balda_tournament/scorecard.csv",
    log:
        "results/logs/balda_tournament/summary.log",
    benchmark:
        "results/benchmarks/balda_tournament/balda_tournament_summary/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report tournament-summary {input.runs} --csv {output.csv}"
        " --html {output.html} --scorecard {output.scorecard} 2> {log}"


rule balda_tournament_times:
    input:
        runs=rules.balda_tournament_table.input.runs,
        timings=expand(
            rules.balda_tournament_run.output.timing, balda_tour=sorted(BALDA_TOUR)
        ),
    output:
        csv="results/balda_tournament/summary.timing.csv",
        html=report(
            "results/balda_tournament/summary.timing.html",
            category=BALDA_CATEGORY,
            subcategory="balda_tournament",
            labels={"table": "CPU time per game by pair of depths"},
            caption="../report/balda/tournament_times.rst",
        ),
    log:
        "results/logs/balda_tournament/times.log",
    benchmark:
        "results/benchmarks/balda_tournament/balda_tournament_times/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab balda report tournament-times {input.runs} --csv {output.csv}"
        " --html {output.html} 2> {log}"


register_experiment(
    "balda_tournament",
    BALDA_CATEGORY,
    [
        rules.balda_tournament_table.output.html,
        rules.balda_tournament_summary.output.html,
        rules.balda_tournament_times.output.html,
    ],
)
register_determinism("balda_tournament", rules.balda_tournament_table.input.runs)
register_scorecard("balda_tournament", rules.balda_tournament_summary.output.scorecard)


rule balda_tournament:
    input:
        experiment_inputs("balda_tournament"),
