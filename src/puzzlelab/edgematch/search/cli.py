"""`puzzlelab edgematch beam|dfs|lds|sweep`: the searches on the command line.

Every board a search writes is re-scored by the one scorer and checked (pieces at most once,
rotations 0-3, hints respected) before it is written; a disagreement is a bug and stops the run.
Timings: `time_s` (wall clock), `cpu_time_s` (CPU of this process, the fair figure on a busy
machine) and `nodes_per_s` (nodes per CPU second) go to the timing file only.
"""

from __future__ import annotations

import argparse
import time

from ...lab.cli_support import add_output_args, positive_int
from ...lab.errors import InputError
from ..options import add_puzzle_args, open_hints, open_puzzle


def _order_args(p):
    p.add_argument("--order", choices=("row", "spiral", "border", "comb"), default="row",
                   help="visiting order of the cells (default: row)")
    p.add_argument("--comb-spine", type=int, default=None, help="comb order: rows filled row by row first "
                                                                "(default: half the rows)")
    p.add_argument("--comb-tooth", type=int, default=4, help="comb order: width of a vertical tooth (default: 4)")


def _beam_args(p):
    p.add_argument("--width", type=positive_int, default=1024, help="beam width W (default: 1024)")
    p.add_argument("--tie-window", type=int, default=0, help="treat scores within k of the cut as equal (default: 0)")
    p.add_argument("--temperature", type=float, default=0.0, help="Gumbel noise scale added to scores (default: 0)")
    p.add_argument("--dedup", choices=("none", "pieces", "path"), default="none",
                   help="merge survivors with the same piece set, or the same piece set and frontier")


def _search_args(p, lds: bool):
    p.add_argument("--nodes", type=positive_int, required=True, help="node budget (node = one placement tried)")
    p.add_argument("--tolerance", type=int, default=20, help="mismatches allowed on the whole board (default: 20)")
    if lds:
        p.add_argument("--max-discrepancy", type=int, default=8, help="largest discrepancy count tried (default: 8)")


def parse_seeds(text: str) -> list[int]:
    """'0-7', '3', '1,4,9' or '0-3,10'."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            a, sep, b = part.partition("-")
            seeds += list(range(int(a), int(b) + 1)) if sep else [int(a)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are like 0-7 or 1,4,9, not {text!r}") from None
    if not seeds:
        raise argparse.ArgumentTypeError("no seed given")
    return seeds


def register(sub) -> None:
    p = sub.add_parser("beam", help="beam search to a full board",
                       description="Keep the W best partial boards, grow them cell by cell, score by matched edges.")
    add_puzzle_args(p)
    _order_args(p)
    _beam_args(p)
    p.add_argument("--seed", type=int, default=0, help="lottery seed among tied children (default: 0)")
    add_output_args(p, out_help="write the result (canonical JSON with the board) here")
    p.set_defaults(handler=_beam)

    for name, lds in (("dfs", False), ("lds", True)):
        p = sub.add_parser(name, help=("depth-first backtracking" if not lds else "limited-discrepancy search")
                           + " with a mismatch tolerance and a node budget")
        add_puzzle_args(p)
        _order_args(p)
        _search_args(p, lds)
        p.add_argument("--seed", type=int, default=0, help="shuffle candidates of equal quality (0: table order)")
        add_output_args(p, out_help="write the result (canonical JSON with the deepest board) here")
        p.set_defaults(handler=_search, algo=name)

    p = sub.add_parser("sweep", help="run one search for several seeds; all results in one JSON",
                       description="The pipeline's solve job: one search per seed, boards checked, one JSON.")
    add_puzzle_args(p)
    p.add_argument("--algo", choices=("beam", "dfs", "lds"), default="beam")
    p.add_argument("--seeds", type=parse_seeds, required=True, help="seeds, e.g. 0-7 or 1,4,9")
    _order_args(p)
    _beam_args(p)
    p.add_argument("--nodes", type=positive_int, default=None, help="dfs/lds node budget")
    p.add_argument("--tolerance", type=int, default=20, help="dfs/lds mismatch tolerance")
    p.add_argument("--max-discrepancy", type=int, default=8, help="lds discrepancy limit")
    p.add_argument("--label", default="", help="free text stored in the result (e.g. the instance name)")
    add_output_args(p, out_help="write all results (canonical JSON) here")
    p.set_defaults(handler=_sweep)

    p = sub.add_parser("report", help="tables and figures of a beam experiment from its sweep results")
    p.add_argument("experiment", choices=("beam_width", "beam_orders", "beam_ties", "beam_dedup", "beam_vs_dfs_lds",
                                          "beam_factory"))
    p.add_argument("--runs", nargs="+", required=True, help="sweep result files")
    p.add_argument("--timings", nargs="*", default=[], help="their timing files")
    p.add_argument("--puzzle", action="append", default=[], metavar="NAME=PATH", help="puzzle file of an instance")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.add_argument("--svg", help="the experiment's figure")
    p.add_argument("--boards", help="picture of the best board of every instance (SVG or PNG)")
    p.add_argument("--family-rows", type=int, default=13, help="beam_factory: rows that define a board family")
    p.set_defaults(handler=_report)


def _tables(args, puzzle, hints):
    from .tables import build_tables

    return build_tables(puzzle, args.order, hints, args.comb_spine, args.comb_tooth)


def run_one(args, puzzle, hints, tables, algo: str, seed: int) -> dict:
    """Run one search and return its checked result record."""
    from ..board import board_to_json
    from ..score import check_board

    cpu0 = time.process_time()
    if algo == "beam":
        from .beam import beam_search

        res = beam_search(puzzle, tables, args.width, seed=seed, tie_window=args.tie_window,
                          temperature=args.temperature, dedup=args.dedup)
        extra = {"width": args.width, "tie_window": args.tie_window, "temperature": args.temperature,
                 "dedup": args.dedup, "survivors": res.survivors}
    else:
        if args.nodes is None:
            raise InputError(f"{algo} needs --nodes")
        if algo == "dfs":
            from .dfs import dfs

            res = dfs(tables, args.nodes, args.tolerance, seed)
            extra = {"tolerance": args.tolerance, "budget": args.nodes, "exhausted": res.exhausted}
        else:
            from .lds import lds

            res = lds(tables, args.nodes, args.tolerance, args.max_discrepancy, seed)
            extra = {"tolerance": args.tolerance, "budget": args.nodes, "max_discrepancy": args.max_discrepancy,
                     "iterations": res.iterations}
    cpu = time.process_time() - cpu0
    check = check_board(puzzle, res.board, hints)
    if not check.valid or check.score != res.score:
        raise RuntimeError(f"internal error: {algo} stated score {res.score}, recount {check.score}, "
                           f"problems {check.problems}")
    return {"algo": algo, "seed": seed, "order": args.order, "hints": args.hints, "score": res.score,
            "max_score": res.max_score, "depth": res.depth, "nodes": res.nodes, "valid": check.valid,
            "complete": check.complete, "time_s": res.time_s, "cpu_time_s": cpu,
            "nodes_per_s": res.nodes / cpu if cpu > 0 else None, **extra, "board": board_to_json(res.board)}


def _text(rec: dict) -> str:
    return (f"{rec['algo']} seed {rec['seed']}: score {rec['score']}/{rec['max_score']}, depth {rec['depth']}, "
            f"{rec['nodes']} nodes, {rec['time_s']:.2f} s")


def _beam(args) -> int:
    return _single(args, "beam")


def _search(args) -> int:
    return _single(args, args.algo)


def _single(args, algo: str) -> int:
    from ...lab.results import emit

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    tables = _tables(args, puzzle, hints)
    rec = run_one(args, puzzle, hints, tables, algo, args.seed)
    rec["puzzle"] = puzzle.name
    emit(rec, as_json=args.json, out=args.out, text=_text(rec))
    _write_timing(args.timing, _timing_of(rec))
    return 0


def _timing_of(rec: dict) -> dict:
    """The volatile figures of a record (board and other artifacts left out)."""
    from ...lab.results import is_volatile

    return {"seed": rec["seed"], **{k: v for k, v in rec.items() if is_volatile(k)}}


def _write_timing(path, obj) -> None:
    if path:
        from ...lab import canonical

        canonical.write_json(path, obj)


def _sweep(args) -> int:
    from ...lab.progress import Progress
    from ...lab.results import emit

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    tables = _tables(args, puzzle, hints)
    runs = []
    with Progress(len(args.seeds), f"{args.algo} sweep", unit="seeds") as prog:
        for seed in args.seeds:
            rec = run_one(args, puzzle, hints, tables, args.algo, seed)
            runs.append(rec)
            prog.update(1, note=f"seed {seed}: {rec['score']}")
    result = {"puzzle": puzzle.name, "label": args.label, "algo": args.algo, "runs": runs}
    emit(result, as_json=args.json, out=args.out, text="\n".join(_text(r) for r in runs))
    _write_timing(args.timing, {"puzzle": puzzle.name, "label": args.label, "runs": [_timing_of(r) for r in runs]})
    return 0


def _report(args) -> int:
    from .report import run

    puzzles = {}
    for item in args.puzzle:
        name, sep, path = item.partition("=")
        if not sep:
            raise InputError(f"--puzzle takes NAME=PATH, not {item!r}")
        puzzles[name] = path
    run(args.experiment, args.runs, args.timings, puzzles, args.csv, args.html, args.svg, args.boards,
        args.family_rows)
    return 0
