"""`puzzlelab nonogram ...`: solve, bench, generate, convert, reference timing, report tables and a gallery."""

from __future__ import annotations

import argparse
import sys

from ..lab.cli_support import (
    add_memory_budget_arg,
    add_output_args,
    add_repeat_args,
    add_report_command,
    add_timeout_arg,
    add_work_limit_arg,
    positive_float,
    positive_int,
)
from ..lab.errors import InputError, quote

REPORT_TABLES = {  # the tables of nonogram.report, described here so `--help` imports no pandas
    "summary": "per corpus: puzzles, statuses, solve times (--svg: the time distribution of each corpus)",
    "heaviest": "the 10 heaviest puzzles of each corpus",
    "reference": "our CPU times beside the reference solver's, per corpus (--reference, --solver, --unavailable; "
                 "--scorecard: seed 002's figures, with --link)",
    "tournament": "the 25x25 tournament sets in both modes: RUNS = first-solution runs (--max-solutions 1), "
                  "--decided = the same puzzles' runs with 2, --reference = LalaFrogKK's CSVs (--scorecard: the "
                  "tournament rows of seed 002)",
    "ablation": "speed-up of each optimisation; RUNS are the variants' bench CSVs, each in a folder named after "
                "its variant: base, naive, sweep, no-probing, no-cache (--svg: the speed-ups)",
}


def _solver_args(p: argparse.ArgumentParser, timeout_default: float | None = None) -> None:
    from .formats import AUTO, FORMATS

    p.add_argument("--format", choices=[AUTO, *sorted(FORMATS)],
                   help="force the input format (default auto: by extension/content)")
    p.add_argument("--max-solutions", type=positive_int, default=2, metavar="N",
                   help="stop after N solutions (default 2: enough to decide uniqueness)")
    add_timeout_arg(p, default=timeout_default, help="wall-clock limit per puzzle in seconds (status `timeout`)")
    add_work_limit_arg(p, help="reproducible limit per puzzle: line-solver work units (cells x (blocks+1) per line "
                               "solved)")
    add_memory_budget_arg(p, help="memory the search state of one puzzle may take (e.g. 512M, 4G); a puzzle that "
                                  "needs more is refused")
    p.add_argument("--no-probing", action="store_true", help="branch without probing (ablation)")
    p.add_argument("--naive", action="store_true", help="O(n) segment checks instead of prefix sums (ablation)")
    p.add_argument("--sweep", action="store_true",
                   help="full row/column sweeps instead of the dirty-line queue (ablation)")
    p.add_argument("--no-cache", action="store_true", help="no line-solver cache (ablation)")


def _limit(text: str) -> int | None:
    """--limit N, or `all` (the default: every puzzle)."""
    return None if text == "all" else positive_int(text)


def _options(args):
    from ..lab.sizes import parse_size
    from .solver import Options

    return Options(max_solutions=args.max_solutions, timeout=args.timeout, work_limit=args.work_limit,
                   memory_budget=parse_size(args.memory_budget),
                   probing=not args.no_probing, naive=args.naive, sweep=args.sweep,
                   cache_mb=0.0 if args.no_cache else 32.0)


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("solve", help="solve one puzzle; draw it, or print JSON",
                       description="Solve one puzzle (PATH, or PATH#N for the N-th puzzle of a collection). "
                                   "Status: unique, multiple, contradiction or timeout.")
    p.add_argument("path", metavar="PATH")
    _solver_args(p)
    p.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                   help="draw with terminal colours (default: when stdout is a terminal)")
    add_output_args(p)
    p.set_defaults(handler=_solve)

    p = sub.add_parser("bench", help="solve many puzzles in one process; CSV rows and the article's summary",
                       description="Solve every puzzle in the files/folders given (collections expand to all their "
                                   "puzzles) and print average, median, max time and the 10 heaviest.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    _solver_args(p, timeout_default=60.0)
    p.add_argument("--out", required=True, metavar="FILE.csv", help="one row per puzzle")
    p.add_argument("--timing", metavar="FILE.csv",
                   help="write the time columns here instead of in --out (keeps --out reproducible)")
    p.add_argument("--corpus", help="corpus name for the rows (default: each file's folder name)")
    p.add_argument("--limit", type=_limit, metavar="N", help="only the first N puzzles, in file order (default all)")
    p.add_argument("--chunk", metavar="I/N", help="only the I-th of N equal slices of the puzzles (1-based)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--strict", action="store_true", help="stop at the first unreadable file (default: row `error`)")
    add_repeat_args(p, "a puzzle our solver")
    p.add_argument("--no-batch", action="store_true",
                   help="one kernel call per puzzle (default: black-and-white puzzles up to 62x62 start in batches "
                        "of many puzzles per call; same answers, less fixed cost per puzzle)")
    p.set_defaults(handler=_bench)

    p = sub.add_parser("generate", help="the project's own corpus: seeded random images as puzzles (.nonpack)")
    p.add_argument("--size", default="20x20", help="WIDTHxHEIGHT (default 20x20)")
    p.add_argument("--density", type=float, default=0.6, help="probability that a cell is filled (default 0.6)")
    p.add_argument("--colors", type=positive_int, default=1,
                   help="block colours: 1 = black and white (default), up to 9")
    p.add_argument("--style", choices=["noise", "blocks"], default="noise",
                   help="noise: independent cells; blocks: coarse squares (picture-like)")
    p.add_argument("--scale", type=positive_int, default=4, help="square size for --style blocks (default 4)")
    p.add_argument("--count", type=positive_int, default=10)
    p.add_argument("--seed", type=int, default=0, help="random seed: the same seed gives the same bytes (default 0)")
    p.add_argument("--out", required=True, metavar="FILE.nonpack")
    p.set_defaults(handler=_generate)

    p = sub.add_parser("convert", help="write a puzzle in another format (non or xml)")
    p.add_argument("path", metavar="PATH")
    p.add_argument("--format", help="force the input format")
    p.add_argument("--to", choices=["non", "xml"], required=True)
    p.add_argument("--out", metavar="FILE", help="default: stdout")
    p.set_defaults(handler=_convert)

    p = sub.add_parser("parse", help="check puzzle files and write them as one canonical instance file (the "
                                     "pipeline's parse step)",
                       description="Read every puzzle of PATH... (files or folders, in the order bench reads them) and "
                                   "write them to --out as canonical instances (.nonjson: one JSON object per puzzle, "
                                   "readable by every command). With --unreadable CSV, a file that cannot be read is "
                                   "a path,line,reason row there instead of an error. Example: puzzlelab nonogram "
                                   "parse data/nonogram --out ours.nonjson --unreadable ours.unreadable.csv")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", help="force the input format (default auto: by extension/content)")
    p.add_argument("--limit", type=_limit, metavar="N", help="the first N puzzles only, as bench --limit (default all)")
    p.add_argument("--out", required=True, metavar="FILE.nonjson")
    p.add_argument("--unreadable", metavar="CSV", help="record unreadable files here instead of failing")
    p.set_defaults(handler=_parse)

    p = sub.add_parser("reference", help="time a peer solver (pbnsolve, or LalaFrogKK on 25x25) on the same puzzles")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--solver", default="pbnsolve", help="executable name or path (default pbnsolve)")
    p.add_argument("--kind", choices=["pbnsolve", "lalafrog"], default="pbnsolve",
                   help="how to run it: pbnsolve (one process per puzzle, -u: uniqueness decided) or lalafrog "
                        "(LalaFrogKK: 1000 25x25 puzzles per process, first solution; other puzzles `skipped`)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S",
                   help="CPU seconds per puzzle (pbnsolve: its CPU limit, with a wall-clock stop at 10x; LalaFrogKK: "
                        "the same per puzzle of its batch)")
    p.add_argument("--corpus")
    p.add_argument("--limit", type=_limit, metavar="N", help="as bench --limit (default all)")
    p.add_argument("--chunk", metavar="I/N")
    p.add_argument("--out", required=True, metavar="FILE.csv")
    p.add_argument("--format")
    add_repeat_args(p, "a puzzle pbnsolve")
    p.set_defaults(handler=_reference)

    p = add_report_command(sub, REPORT_TABLES, _report,
                           runs_help="bench CSVs (each one's .timing.csv is read beside it)",
                           scorecard=("reference", "tournament"))
    p.add_argument("--reference", nargs="*", default=[], metavar="CSV",
                   help="reference: the reference solver's CSVs (none: it did not run)")
    p.add_argument("--solver", default="pbnsolve", help="reference: the reference solver's name")
    p.add_argument("--unavailable", default="", metavar="WHY",
                   help="reference: why the reference solver did not run")
    p.add_argument("--decided", nargs="*", default=[], metavar="CSV",
                   help="tournament: bench CSVs of the same puzzles with --max-solutions 2")
    p.add_argument("--link", nargs=2, metavar=("SUMMARY", "HEAVIEST"),
                   help="reference --scorecard: the summary and heaviest tables' --html, which rows point to "
                        "beside the reference table's own")

    p = sub.add_parser("gallery", help="draw a few solved puzzles of a corpus in their colours (SVG)",
                       description="Pick up to --count solved puzzles from a corpus's bench CSVs (unique ones first, "
                                   "larger first), solve them again and draw them. Example: puzzlelab nonogram gallery "
                                   "results/nonogram_bench/solve/webpbn.1.csv --paths PUZZLES --svg webpbn.svg")
    p.add_argument("results", nargs="+", metavar="CSV",
                   help="the corpus's bench CSVs, one per chunk (picks solved puzzles)")
    p.add_argument("--paths", nargs="+", required=True, metavar="PATH", help="the corpus's puzzle files/folders")
    p.add_argument("--count", type=positive_int, default=4)
    p.add_argument("--title", default="")
    p.add_argument("--svg", required=True, metavar="FILE")
    p.set_defaults(handler=_gallery)


def _solve(args) -> int:
    from ..lab.results import emit
    from . import render
    from .formats import load_one
    from .solver import solve, warm_up

    puzzle = load_one(args.path, args.format)
    warm_up()
    res = solve(puzzle, _options(args))
    result = {
        "status": res.status,
        "line_solvable": res.line_solvable,
        "rows": puzzle.height,
        "cols": puzzle.width,
        "colors": puzzle.palette,
        "solutions": [s.tolist() for s in res.solutions],
        "time_s": res.time_s,
    }
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    lines = [f"{puzzle.name}: {puzzle.width}x{puzzle.height}, {puzzle.ncolors} colours — {res.status}"
             f"{' (line-solvable)' if res.line_solvable else ''}, {res.time_s * 1000:.2f} ms"]
    for k, sol in enumerate(res.solutions):
        if len(res.solutions) > 1:
            lines.append(f"solution {k + 1}:")
        lines.append(render.text(puzzle, sol, colour=colour))
    if res.solutions and not puzzle.is_bw and not colour:
        lines.append(render.legend(puzzle))
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text="\n".join(lines))
    return 0


def _chunk(items: list, spec: str | None) -> list:
    if not spec:
        return items
    try:
        i, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise InputError(f"--chunk {quote(spec)}: expected I/N, e.g. 2/8") from None
    if not 1 <= i <= n:
        raise InputError(f"--chunk {quote(spec)}: I must be between 1 and N")
    return items[(i - 1) * len(items) // n: i * len(items) // n]


def _parse(args) -> int:
    from .formats import check_format
    from .instances import parse

    check_format(args.format)  # before any file: with --unreadable it would be a row per file
    done = parse(args.paths, args.out, unreadable=args.unreadable, fmt=args.format, limit=args.limit)
    print(f"{done['puzzles']} puzzles written to {done['out']}"
          + (f"; {done['unreadable']} files unreadable (see {args.unreadable})" if done["unreadable"] else ""))
    return 0


def _bench(args) -> int:
    import pandas as pd

    from ..lab import canonical
    from ..lab.tables import write_table
    from . import experiments

    opts = _options(args)
    loaded = experiments.load_all(args.paths, args.format, keep_going=not args.strict)
    loaded = _chunk(loaded[: args.limit] if args.limit else loaded, args.chunk)
    rows = experiments.run_loaded(loaded, opts, corpus=args.corpus, batch=not args.no_batch, repeats=args.repeats,
                                  repeat_below=args.repeat_below)
    df = pd.DataFrame(rows, columns=experiments.COLUMNS)
    if args.timing:
        write_table(df[experiments.RESULT_COLUMNS], args.out)
        write_table(df[experiments.TIMING_COLUMNS], args.timing)
    else:
        write_table(df, args.out)
    s = experiments.summary(rows)
    if args.json:
        sys.stdout.write(canonical.dumps(s, indent=1))
    else:
        print(experiments.summary_text(s))
    return 0


def _generate(args) -> int:
    from ..lab.atomic import atomic_write
    from .generate import generate, parse_size, to_text

    w, h = parse_size(args.size)
    puzzles = generate(w, h, args.density, args.colors, args.count, args.seed, style=args.style, scale=args.scale)
    atomic_write(args.out, to_text(puzzles))
    print(f"{len(puzzles)} puzzles {w}x{h}, density {args.density:g}, {args.colors} colour(s), "
          f"seed {args.seed} -> {args.out}")
    return 0


def _convert(args) -> int:
    from ..lab.atomic import atomic_write
    from .formats import load_one, non, pbnxml

    puzzle = load_one(args.path, args.format)
    text = (non.write if args.to == "non" else pbnxml.write)(puzzle)
    if args.out:
        atomic_write(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


def _reference(args) -> int:
    import pandas as pd

    from ..lab.tables import write_table
    from . import reference

    chunk = lambda items: _chunk(items[: args.limit] if args.limit else items, args.chunk)  # noqa: E731
    if args.kind == "lalafrog":  # one process for a whole batch: no per-puzzle repeats
        rows = reference.run_lalafrog(args.solver, args.paths, args.timeout, corpus=args.corpus, fmt=args.format,
                                      chunk=chunk)
    else:
        rows = reference.run(args.solver, args.paths, args.timeout, corpus=args.corpus, fmt=args.format,
                             chunk=chunk, repeats=args.repeats, repeat_below=args.repeat_below)
    write_table(pd.DataFrame(rows, columns=["corpus", "name", "status", "line_solvable", "time_s", "cpu_s", "wall_s"]),
                args.out)
    return 0


def _report(args) -> int:
    from . import report, scorecard

    if args.scorecard and args.table == "reference" and not args.link:
        raise InputError("report reference --scorecard needs --link SUMMARY HEAVIEST (the items its rows point to)")
    if args.table == "summary":
        report.summary_table(args.runs, args.csv, args.html, args.svg)
    elif args.table == "heaviest":
        report.heaviest_table(args.runs, args.csv, args.html)
    elif args.table == "reference":
        report.reference_table(args.runs, args.reference, args.solver, args.unavailable, args.csv, args.html)
        if args.scorecard:
            links = {"summary": args.link[0], "heaviest": args.link[1], "reference": args.html}
            scorecard.bench_scorecard(args.runs, args.reference, args.solver, args.unavailable, links,
                                      args.scorecard)
    elif args.table == "tournament":
        report.tournament_table(args.runs, args.decided, args.reference, args.solver, args.unavailable, args.csv,
                                args.html)
        if args.scorecard:
            scorecard.tournament_scorecard(args.runs, args.decided, args.reference, args.solver, args.unavailable,
                                           args.html, args.scorecard)
    else:
        report.ablation_tables(args.runs, args.csv, args.html, args.svg)
    return 0


def _gallery(args) -> int:
    from . import report

    report.gallery(args.results, args.paths, args.count, args.title, args.svg)
    return 0
