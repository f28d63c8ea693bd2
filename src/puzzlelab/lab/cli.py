"""`puzzlelab lab ...`: the pipeline's own commands (determinism checks, report tables)."""

from __future__ import annotations

import argparse
import json


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("determinism", help="re-run the jobs behind some artifacts and compare sha256")
    p.add_argument("experiment")
    p.add_argument("artifacts", nargs="*", help="artifact paths, relative to the working directory")
    p.add_argument("--snakefile", required=True)
    p.add_argument("--configfile", required=True)
    p.add_argument("--scratch", required=True, help="scratch working directory for the re-run")
    p.add_argument("--cores", type=int, default=1)
    p.add_argument("--out", required=True)
    p.set_defaults(handler=_determinism)

    p = sub.add_parser("determinism-summary", help="one table of all determinism results")
    p.add_argument("records", nargs="*")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.set_defaults(handler=_determinism_summary)

    p = sub.add_parser("rows-table", help="write a table given as JSON rows")
    p.add_argument("--columns", required=True, help="comma-separated column names")
    p.add_argument("--rows", required=True, help="JSON list of rows (lists)")
    p.add_argument("--title", default="")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.set_defaults(handler=_rows_table)

    p = sub.add_parser("effective-config", help="write the configuration a run uses (for its determinism re-runs)")
    p.add_argument("--config", required=True, help="the config as JSON")
    p.add_argument("--out", required=True)
    p.set_defaults(handler=_effective_config)

    p = sub.add_parser("manifest", help="sha256 of every deterministic artifact under results/, per experiment")
    p.add_argument("--results", default="results", metavar="DIR")
    _add_label_args(p)
    p.add_argument("--out", metavar="FILE", help="default: reference/<label>/manifest.json")
    p.set_defaults(handler=_manifest)

    p = sub.add_parser("verify",
                       help="compare results/ byte for byte with a committed manifest; exit 1 on any difference")
    p.add_argument("--results", default="results", metavar="DIR")
    p.add_argument("--manifest", metavar="FILE", help="default: reference/<label>/manifest.json of --configfile")
    _add_label_args(p)
    p.set_defaults(handler=_verify)

    p = sub.add_parser("plan", help="before a run: jobs, CPU-hours, wall time, memory and disk per experiment")
    p.add_argument("targets", nargs="*", metavar="TARGET", help="experiments to plan (default: everything)")
    _add_label_args(p)
    p.add_argument("--cores", type=int, default=8, help="cores the run will use (default 8)")
    p.add_argument("--all", action="store_true", help="price every job, also those already done")
    p.add_argument("--costs", nargs="*", metavar="CSV",
                   help="cost tables measured here (default: reference/*/costs.csv)")
    p.add_argument("--csv", metavar="FILE", help="also write the plan as CSV")
    p.set_defaults(handler=_plan)

    p = sub.add_parser("costs", help="after a run: each job's measured cost, from its benchmark file")
    _add_label_args(p)
    p.add_argument("--out", metavar="FILE", help="default: reference/<label>/costs.csv")
    p.set_defaults(handler=_costs)

    p = sub.add_parser("cost-report", help="the report's cost table: measured per experiment, beside the estimate")
    p.add_argument("--benchmarks", default="results/benchmarks", metavar="DIR")
    _add_label_args(p)
    p.add_argument("--costs", nargs="*", metavar="CSV", help="default: reference/*/costs.csv")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.set_defaults(handler=_cost_report)

    p = sub.add_parser("scorecard", help="the report's Scorecard: every experiment's headline rows in one table")
    p.add_argument("rows", nargs="*", metavar="CSV", help="experiments' scorecard rows (lab.scorecard.write_rows)")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.add_argument("--fragment", help="also the bare table, for the report's landing page")
    p.set_defaults(handler=_scorecard)

    p = sub.add_parser("unreadable-table", help="inputs the parse steps could not read, with the reason")
    p.add_argument("lists", nargs="*", metavar="CSV", help="parse steps' unreadable lists (path,line,reason)")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.set_defaults(handler=_unreadable_table)

    p = sub.add_parser("reference", help="after a finished run: reference/<label>/ (manifest, costs, scorecard)")
    p.add_argument("--results", default="results", metavar="DIR")
    p.add_argument("--part", nargs="+", metavar="EXPERIMENT",
                   help="a run made in parts: take only these finished experiments from results/ and keep "
                        "the others as committed in reference/<label>/ (run.json records each part)")
    _add_label_args(p)
    p.set_defaults(handler=_reference)

    p = sub.add_parser("readme", help="write README.md's measured figures from reference/ (they cannot drift)")
    p.add_argument("--readme", default="README.md")
    p.add_argument("--reference", default="reference")
    p.set_defaults(handler=_readme)

    p = sub.add_parser("check-config", help="check config files against config/schema.yaml (merged in order)")
    p.add_argument("files", nargs="+", metavar="CONFIG", help="config files in merge order (config/config.yaml first)")
    p.add_argument("--schema", default="config/schema.yaml", metavar="FILE")
    p.set_defaults(handler=_check_config)

    p = sub.add_parser("config-table", help="the configuration that ran, flattened to key/value rows")
    p.add_argument("--config", required=True, help="the config as JSON")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.set_defaults(handler=_config_table)


def _determinism(args) -> int:
    from .determinism import check

    return check(args.experiment, args.artifacts, args.snakefile, args.configfile, args.scratch, args.cores, args.out)


def _determinism_summary(args) -> int:
    from .determinism import summary

    summary(args.records, args.csv, args.html)
    return 0


def _rows_table(args) -> int:
    import pandas as pd

    from .errors import InputError
    from .tables import write_table

    columns = args.columns.split(",")
    try:
        rows = json.loads(args.rows)
    except json.JSONDecodeError as err:
        raise InputError(f"--rows is not JSON: {err}") from None
    df = pd.DataFrame(rows, columns=columns)
    note = "Nothing was skipped." if df.empty else ""
    write_table(df, args.csv, args.html, title=args.title, note=note)
    return 0


def flatten(obj, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(obj, dict):
        out = []
        for k in sorted(obj):
            out += flatten(obj[k], f"{prefix}.{k}" if prefix else str(k))
        return out
    return [(prefix, json.dumps(obj, ensure_ascii=False))]


def _config_table(args) -> int:
    import pandas as pd

    from .tables import write_table

    cfg = json.loads(args.config)
    df = pd.DataFrame(flatten(cfg), columns=["key", "value"])
    write_table(df, args.csv, args.html, title=f"Configuration: {cfg.get('label', '?')}")
    return 0


def _effective_config(args) -> int:
    from .canonical import write_json
    from .errors import InputError

    try:
        cfg = json.loads(args.config)
    except json.JSONDecodeError as err:
        raise InputError(f"--config is not JSON: {err}") from None
    write_json(args.out, cfg)
    return 0


def _add_label_args(p) -> None:
    p.add_argument("--configfile", metavar="FILE",
                   help="the overlay the run used (e.g. config/quick.yaml); its label names the manifest")
    p.add_argument("--label", help="the config's label (instead of --configfile)")


def _label(args) -> str:
    """The label of the config a run used: --label, or config.yaml with --configfile merged on top."""
    if args.label:
        return args.label
    import yaml

    from .configcheck import merge
    from .errors import InputError
    from .textio import read_text

    merged: dict = {}
    for f in ["config/config.yaml"] + ([args.configfile] if args.configfile else []):
        try:
            merged = merge(merged, yaml.safe_load(read_text(f, what="config file")) or {})
        except yaml.YAMLError as err:
            raise InputError(f"not valid YAML: {err}", f) from None
    if "label" not in merged:
        raise InputError("the config has no label", args.configfile or "config/config.yaml")
    return str(merged["label"])


def _manifest(args) -> int:
    from . import manifest

    label = _label(args)
    out = args.out or f"reference/{label}/manifest.json"
    m = manifest.build(args.results, label)
    manifest.write(out, m)
    print(f"{out}: {m['artifacts']} artifacts of {len(m['experiments'])} experiments (label {label})")
    return 0


def _verify(args) -> int:
    import sys

    from . import manifest

    path = args.manifest or f"reference/{_label(args)}/manifest.json"
    want = manifest.read(path)
    diff = manifest.compare(want, args.results)
    mine = manifest.versions()
    for name, version in sorted(want.get("versions", {}).items()):
        if mine.get(name) != version:
            print(f"note: {name} {mine.get(name)} here, {version} when the manifest was made "
                  "(a different version may change an artifact's bytes)")
    for kind in ("different", "missing"):
        for p in diff[kind]:
            print(f"{kind}: {p}")
    if diff["extra"]:
        print(f"({len(diff['extra'])} artifacts under {args.results}/ are not in the manifest, e.g. "
              f"{diff['extra'][0]}; not compared)")
    bad = len(diff["different"]) + len(diff["missing"])
    total = sum(len(v) for v in want["experiments"].values())
    verdict = "identical" if not bad else f"{len(diff['different'])} differ, {len(diff['missing'])} missing"
    print(f"verify {path}: {len(diff['equal'])} of {total} artifacts identical; {verdict}")
    sys.stdout.flush()
    return 1 if bad else 0


def _check_config(args) -> int:
    import sys

    from .configcheck import check

    problems = check(args.files, args.schema)
    if problems:
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        print(problems[0] + more, file=sys.stderr)
    return 2 if problems else 0


def _cost_tables(paths):
    import glob

    import pandas as pd

    from .cost import COST_COLUMNS, load_table

    files = paths if paths else sorted(glob.glob("reference/*/costs.csv"))
    tables = [load_table(f) for f in files]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=COST_COLUMNS)


def _plan(args) -> int:
    from . import cost
    from .tables import write_table

    label = _label(args)
    jobs = cost.dry_run(args.targets, args.configfile, forceall=args.all, cores=args.cores)
    pricer = cost.Pricer(_cost_tables(args.costs), label)
    table = cost.plan_table(jobs, pricer, args.cores)
    if args.csv:
        write_table(table, args.csv)
    total = table.iloc[-1]
    print(table.to_string(index=False))
    print(f"plan ({label}{', everything' if args.all else ', what is not done yet'}): {total['jobs']} jobs, "
          f"{total['cpu_hours']} CPU-hours, about {total[table.columns[3]]} h of wall time on {args.cores} cores, "
          f"peak job memory {total['peak_rss_gb']} GB, {total['disk_gb']} GB of results "
          f"(priced from measurements made here: {total['priced_from_measurements']} jobs)")
    return 0


def _costs(args) -> int:
    _write_costs(args)
    return 0


def _write_costs(args, only=None) -> list:
    """The cost table of the run on disk merged into `--out` (reference/<label>/costs.csv); the jobs.
    `only` (benchmark paths): measure just those jobs (a part's), so another run's benchmarks left in
    `results/` never replace the committed rows of experiments outside the part."""
    from . import cost

    label = _label(args)
    jobs = cost.dry_run([], args.configfile, forceall=True)
    rows = cost.measure([j for j in jobs if only is None or j.benchmark in only], label)
    out = args.out or f"reference/{label}/costs.csv"
    table = cost.merge_tables(cost.rescale(cost.load_table(out), jobs, label), rows)
    from .tables import write_table

    write_table(table, out)
    print(f"{out}: {len(rows)} jobs measured of {len(jobs)} "
          f"({rows['cpu_s'].sum() / 3600:.2f} CPU-hours, peak {rows['max_rss_mb'].max() / 1000:.2f} GB)")
    return jobs


def _cost_report(args) -> int:
    from pathlib import Path

    import pandas as pd

    from . import cost
    from .tables import write_table

    label = _label(args)
    pricer = cost.Pricer(_cost_tables(args.costs), label)
    rows = []
    for bench in sorted(Path(args.benchmarks).rglob("*.tsv")):
        rel = bench.relative_to(args.benchmarks).parts
        measured = cost.read_benchmark(bench)
        if measured is None or len(rel) < 3:
            continue
        job = cost.Job(rule=rel[1], benchmark=str(bench))
        est = pricer.price(job)
        rows.append({"experiment": rel[0], "cpu_s": measured["cpu_s"], "wall_s": measured["wall_s"],
                     "rss": measured["max_rss_mb"], "est_cpu_s": est.cpu_s})
    df = pd.DataFrame(rows, columns=["experiment", "cpu_s", "wall_s", "rss", "est_cpu_s"])
    out = df.groupby("experiment", sort=True).agg(
        jobs=("cpu_s", "size"), cpu_h=("cpu_s", "sum"), wall_h=("wall_s", "sum"), rss=("rss", "max"),
        est=("est_cpu_s", "sum")).reset_index() if len(df) else pd.DataFrame(
        columns=["experiment", "jobs", "cpu_h", "wall_h", "rss", "est"])
    out["cpu_h"] = (out["cpu_h"] / 3600).round(3)
    out["wall_h"] = (out["wall_h"] / 3600).round(3)
    out["est"] = (out["est"] / 3600).round(3)
    out["rss"] = (out["rss"] / 1000).round(2)
    out.columns = ["experiment", "jobs", "CPU-hours", "job wall-hours (sum)", "peak RSS (GB)",
                   "estimated CPU-hours"]
    note = (f"Measured by Snakemake's benchmark files of this run (config {label}); the estimate is what "
            "`puzzlelab lab plan` prices the same jobs at from the cost tables in reference/.")
    write_table(out, args.csv, args.html, title="Cost of this run", note=note)
    return 0


def _scorecard(args) -> int:
    from .atomic import atomic_write
    from .errors import InputError
    from .scorecard import read_rows, to_html
    from .tables import write_table

    try:
        df = read_rows(args.rows)
    except ValueError as err:
        raise InputError(str(err)) from None
    write_table(df, args.csv)
    atomic_write(args.html, to_html(df))
    if args.fragment:
        atomic_write(args.fragment, to_html(df, fragment=True))
    return 0


def _unreadable_table(args) -> int:
    import pandas as pd

    from .tables import write_table
    from .unreadable import COLUMNS as columns

    frames = [pd.read_csv(f, keep_default_na=False, dtype=str) for f in args.lists]
    df = pd.concat([f[columns] for f in frames], ignore_index=True) if frames else pd.DataFrame(columns=columns)
    note = ("Every input file was read." if df.empty else
            f"{len(df)} input files could not be read; the experiments ran without them.")
    write_table(df, args.csv, args.html, title="Unreadable inputs", note=note)
    return 0


def _reference(args) -> int:
    import shutil
    from pathlib import Path

    from .errors import InputError

    label = _label(args)
    args.label = label
    args.out = None
    if args.part:
        return _reference_part(args, label)
    from . import cost

    _manifest(args)
    jobs = _write_costs(args)
    card = Path(args.results) / "report" / "scorecard.csv"
    if not card.is_file():
        raise InputError("no scorecard: the run has not finished", card)
    shutil.copyfile(card, Path("reference") / label / "scorecard.csv")
    print(f"reference/{label}/scorecard.csv: copied from {card}")
    from .readme import record_run

    run = record_run(Path(args.results) / "benchmarks", label, Path("reference") / label / "run.json",
                     cost.resumed_benchmarks(jobs))
    print(f"reference/{label}/run.json: {run['jobs']} jobs, {run['cpu_hours']} CPU-hours, "
          f"{run['elapsed_hours']} h elapsed")
    return 0


def _reference_part(args, label: str) -> int:
    from pathlib import Path

    import pandas as pd

    from . import canonical, cost, manifest, reference
    from .errors import InputError
    from .readme import measure_run
    from .tables import write_table

    results, ref = Path(args.results), Path("reference") / label
    known = reference.configured_experiments(args.configfile)
    unknown = [e for e in args.part if e not in known]
    if unknown:
        raise InputError(f"not an experiment of this config: {', '.join(unknown)} (see `make experiments`)",
                         args.configfile or "config/config.yaml")
    reference.check_finished(args.part, args.configfile)
    pieces = reference.part_scorecards(results, args.part)

    path = ref / "manifest.json"
    made = reference.part_files(args.part, args.configfile)  # this part's files, not another config's
    m = reference.merge_manifest(manifest.read(path) if path.is_file() else None,
                                 manifest.only(manifest.build(results, label), made, results), args.part, set(known))
    manifest.write(path, m)
    print(f"{path}: {m['artifacts']} artifacts of {len(m['experiments'])} experiments (label {label})")
    old_cost = reference.cost_by_experiment(ref / "costs.csv")
    jobs = _write_costs(args, made)
    card = ref / "scorecard.csv"
    old = pd.read_csv(card, keep_default_na=False, dtype=str) if card.is_file() else None
    rows = reference.merge_scorecard(old, pieces)
    write_table(rows, card)
    print(f"{card}: {len(rows)} rows ({sum(len(p) for p in pieces.values())} from this part)")

    def keep(rel):  # a benchmark of a job of this part (another config's in results/ are not)
        return str(results / "benchmarks" / rel) in made

    part = measure_run(results / "benchmarks", label, keep, cost.resumed_benchmarks(jobs))
    part.update(experiments=sorted(args.part), commit=reference.commit())
    run_path = ref / "run.json"
    run = reference.merge_run(canonical.read_json(run_path) if run_path.is_file() else None, part, known,
                              old_cost)
    canonical.write_json(run_path, run)
    state = "complete" if run["complete"] else f"{run['experiments_done']} of {run['experiments_total']} experiments"
    print(f"{run_path}: this part {part['jobs']} jobs, {part['cpu_hours']} CPU-hours, {part['elapsed_hours']} h; "
          f"all parts {run['cpu_hours']} CPU-hours, {run['elapsed_hours']} h ({state})")
    return 0


def _readme(args) -> int:
    from .readme import rewrite

    changed = rewrite(args.readme, args.reference)
    print(f"{args.readme}: {'measured figures updated' if changed else 'already up to date'}")
    return 0
