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
