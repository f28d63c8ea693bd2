# Report-wide tables: determinism results of every experiment, what was skipped, which config ran.


localrules:
    determinism_summary,
    skipped_table,
    run_config,
    scorecard,
    unreadable_table,
    cost_table,


rule scorecard:
    input:
        lambda wc: [f for name in sorted(SCORECARDS) for f in SCORECARDS[name]],
    output:
        csv="results/report/scorecard.csv",
        fragment="results/report/scorecard.fragment.html",
        html=report(
            "results/report/scorecard.html",
            category="Scorecard",
            labels={"table": "headline figures of the seed articles"},
            caption="../report/scorecard.rst",
        ),
    log:
        "results/logs/report/scorecard.log",
    benchmark:
        "results/benchmarks/report/scorecard/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab lab scorecard {input} --csv {output.csv} --html {output.html}"
        " --fragment {output.fragment} 2> {log}"


rule unreadable_table:
    input:
        lambda wc: [f for name in sorted(UNREADABLE) for f in UNREADABLE[name]],
    output:
        csv="results/report/unreadable.csv",
        html=report(
            "results/report/unreadable.html",
            category="About this run",
            labels={"table": "unreadable inputs"},
            caption="../report/unreadable.rst",
        ),
    log:
        "results/logs/report/unreadable_table.log",
    benchmark:
        "results/benchmarks/report/unreadable_table/all.tsv"
    conda:
        ENV
    shell:
        "puzzlelab lab unreadable-table {input} --csv {output.csv} --html {output.html} 2> {log}"


rule cost_table:
    input:
        lambda wc: experiment_targets(),
    output:
        csv="results/report/cost.timing.csv",
        html=report(
            "results/report/cost.timing.html",
            category="About this run",
            labels={"table": "cost of this run"},
            caption="../report/cost.rst",
        ),
    log:
        "results/logs/report/cost_table.log",
    conda:
        ENV
    params:
        label=config["label"],
    shell:
        "puzzlelab lab cost-report --benchmarks results/benchmarks --label {params.label}"
        " --csv {output.csv} --html {output.html} 2> {log}"


rule determinism_summary:
    input:
        lambda wc: expand(rules.determinism.output[0], experiment=sorted(DETERMINISM)),
    output:
        csv="results/report/determinism.csv",
        html=report(
            "results/report/determinism.html",
            category="Determinism",
            labels={"table": "artifacts rebuilt and compared"},
            caption="../report/determinism.rst",
        ),
    log:
        "results/logs/report/determinism_summary.log",
    conda:
        ENV
    shell:
        "puzzlelab lab determinism-summary {input} --csv {output.csv} --html {output.html} 2> {log}"


rule skipped_table:
    output:
        csv="results/report/skipped.csv",
        html=report(
            "results/report/skipped.html",
            category="About this run",
            labels={"table": "skipped here"},
            caption="../report/skipped.rst",
        ),
    log:
        "results/logs/report/skipped_table.log",
    conda:
        ENV
    params:
        rows=lambda wc: json_param(sorted(SKIPPED)),
    shell:
        "puzzlelab lab rows-table --columns experiment,what,reason --rows {params.rows:q}"
        " --title 'Skipped here' --csv {output.csv} --html {output.html} 2> {log}"


rule run_config:
    output:
        csv="results/report/config.csv",
        html=report(
            "results/report/config.html",
            category="About this run",
            labels={"table": "configuration"},
            caption="../report/config.rst",
        ),
    log:
        "results/logs/report/run_config.log",
    conda:
        ENV
    params:
        config=lambda wc: json_param(config),
    shell:
        "puzzlelab lab config-table --config {params.config:q} --csv {output.csv} --html {output.html} 2> {log}"
