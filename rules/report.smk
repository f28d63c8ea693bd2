# Report-wide tables: determinism results of every experiment, what was skipped, which config ran.


localrules:
    determinism_summary,
    skipped_table,
    run_config,


rule determinism_summary:
    input:
        lambda wc: [f"results/determinism/{name}.json" for name in sorted(DETERMINISM)],
    output:
        csv="results/report/determinism.csv",
        html=report(
            "results/report/determinism.html",
            category="Determinism",
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
            caption="../report/skipped.rst",
        ),
    log:
        "results/logs/report/skipped_table.log",
    conda:
        ENV
    params:
        rows=lambda wc: json.dumps(sorted(SKIPPED)),
    shell:
        "puzzlelab lab rows-table --columns experiment,what,reason --rows {params.rows:q}"
        " --title 'Skipped here' --csv {output.csv} --html {output.html} 2> {log}"


rule run_config:
    output:
        csv="results/report/config.csv",
        html=report(
            "results/report/config.html",
            category="About this run",
            caption="../report/config.rst",
        ),
    log:
        "results/logs/report/run_config.log",
    conda:
        ENV
    params:
        config=lambda wc: json.dumps(config, sort_keys=True),
    shell:
        "puzzlelab lab config-table --config {params.config:q} --csv {output.csv} --html {output.html} 2> {log}"
