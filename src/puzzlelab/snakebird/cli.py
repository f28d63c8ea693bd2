"""`puzzlelab snakebird show|replay|parse|solve|reference|report`: draw, replay, check, solve a level; tabulate.

Kernels (numba) and the BFS engine are imported inside the handlers, so `--help` stays fast.
"""

from __future__ import annotations

import argparse

from ..lab.cli_support import (
    add_checkpoint_args,
    add_memory_budget_arg,
    add_output_args,
    add_report_command,
    add_timeout_arg,
    non_negative_int,
    positive_float,
)
from ..lab.errors import quote

REPORT_TABLES = {  # the tables of snakebird.report.MAKERS, described here so `--help` imports no pandas
    "levels": "moves, states and bits per state of every level beside the published and reference counts "
              "(--svg: bits per state against states; --scorecard: seed 000's rows)",
    "levels-time": "time and peak memory of every level beside the reference solver's (--svg: states against time)",
    "layers": "new states per distance beside public_layers.csv and the reference solver's counts",
    "solutions": "one optimal solution per level (--svg: the start position of every level solved)",
}
MAX_DEPTH = 1_000_000  # far past any level's solution (the longest known is 89 moves)


def _depth(text: str) -> int:
    """An argparse type: a search depth, 0..MAX_DEPTH."""
    value = non_negative_int(text)
    if value > MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"expected a depth of at most {MAX_DEPTH:,}, got {quote(text)}")
    return value


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("show", help="draw a level with its snakes, fruit, gadgets and teleporters",
                       description="Parse LEVEL and draw it, with a list of its objects and the size of a packed "
                                   "state. Example: puzzlelab snakebird show data/snakebird/crate.txt")
    p.add_argument("level", help="level file (map rows after '; key: value' metadata)")
    add_output_args(p)
    p.set_defaults(handler=_show)

    p = sub.add_parser("replay", help="replay moves from the start, drawing each position; say whether it wins",
                       description="Replay a solution. Each move is a snake's head letter in the level file plus "
                                   "U, R, D or L. Exit status 0 when the moves win, 1 when they do not. Example: "
                                   "puzzlelab snakebird replay data/snakebird/crate.txt --moves RR,RR,RU")
    p.add_argument("level")
    p.add_argument("--moves", required=True, metavar="MOVES",
                   help="comma-separated moves such as RU,RR,GL (or one string of pairs, RURRGL)")
    p.add_argument("--quiet", action="store_true", help="draw only the final position")
    add_output_args(p)
    p.set_defaults(handler=_replay)

    p = sub.add_parser("parse", help="check a level and write its canonical instance file (the pipeline's parse step)",
                       description="Read and check LEVEL and write it to --out with LF line ends and no trailing "
                                   "empty lines. With --unreadable CSV, a level that cannot be read is not an "
                                   "error: --out gets a marked instance ('; unreadable: PATH:LINE: reason') and CSV "
                                   "a path,line,reason row (a header alone when the level was read). Example: "
                                   "puzzlelab snakebird parse data/snakebird/crate.txt --out crate.level.txt")
    p.add_argument("level")
    p.add_argument("--out", required=True, metavar="FILE", help="the canonical instance file")
    p.add_argument("--unreadable", metavar="CSV", help="record an unreadable level here instead of failing")
    p.add_argument("--label", metavar="NAME", help="the level's name in that record (default: LEVEL)")
    p.add_argument("--json", action="store_true", help="print the level's summary as JSON")
    p.set_defaults(handler=_parse)

    p = sub.add_parser("solve", help="find an optimal solution with the compressed BFS",
                       description="Breadth-first search over canonical packed states (snakes interchangeable, "
                                   "gadgets of identical shape interchangeable) with the compressed BFS engine; "
                                   "stops after the first depth that holds a won state and replays the solution. "
                                   "Example: puzzlelab snakebird solve data/snakebird/crate.txt --json")
    p.add_argument("level")
    add_memory_budget_arg(p, help="RAM for visited runs before they spill to --workdir (e.g. 512M, 2G; default 4G)")
    p.add_argument("--workdir", default=None, metavar="DIR",
                   help="folder for spilled runs (default: a temporary folder)")
    p.add_argument("--codec", default=None, help="visited-run codec of the BFS engine (default: the engine's)")
    p.add_argument("--max-depth", type=_depth, default=None, metavar="D",
                   help=f"give up after this depth (0 to {MAX_DEPTH:,})")
    add_checkpoint_args(p)
    _add_unreadable_ok(p)
    add_output_args(p)
    p.set_defaults(handler=_solve)

    p = sub.add_parser("reference", help="run the reference C++ solver's executable for a level and read its counts",
                       description="Time the reference solver (jsnell/snakebird-solver builds one executable per "
                                   "level, snakebird.<NN>) and read its answer and per-depth counts. Example: "
                                   "puzzlelab snakebird reference levels/level07.txt "
                                   "--binary ~/snakebird-solver/bin/snakebird")
    p.add_argument("level", help="the level file (its name picks the executable)")
    p.add_argument("--binary", required=True, metavar="PREFIX",
                   help="executable prefix: PREFIX.07 for level07, PREFIX.star1 for levelstar1 "
                        "(a path or a name on PATH)")
    add_timeout_arg(p, help="give up after S wall-clock seconds (an error)")
    p.add_argument("--cpu-limit", type=positive_float, default=None, metavar="S",
                   help="stop the solver after S seconds of its CPU time and record that it was stopped "
                        "(exit 0; the depths it finished are kept)")
    _add_unreadable_ok(p)
    add_output_args(p)
    p.set_defaults(handler=_reference)

    p = add_report_command(sub, REPORT_TABLES, _report,
                           runs_help="solve results (each one's .timing.json is read beside it)", scorecard=("levels",))
    p.add_argument("--reference", nargs="+", default=[], metavar="REF",
                   help="reference solver results (levels, levels-time, layers)")
    p.add_argument("--public-layers", default=None, metavar="CSV",
                   help="public_layers.csv of the shared corpus, if present (levels, layers)")
    p.add_argument("--times-link", metavar="PATH",
                   help="levels: the report item the time and memory rows point to (the levels-time table's "
                        "--html; default: --html)")
    p.add_argument("--scorecard-rows", choices=("levels", "deep"), default="levels",
                   help="levels: which scorecard rows --scorecard writes (deep: the largest search's states, "
                        "bits per state and moves, for the snakebird_deep experiment)")


def _add_unreadable_ok(p) -> None:
    p.add_argument("--unreadable-ok", action="store_true",
                   help="a level the parse step marked unreadable gives a record saying so (exit 0) instead of "
                        "an error")


def _unreadable_record(args) -> dict | None:
    """With --unreadable-ok, the record of a level the parse step could not read (else None)."""
    from pathlib import Path

    from .instances import unreadable_reason

    reason = unreadable_reason(args.level) if args.unreadable_ok else None
    return None if reason is None else {"level": Path(args.level).stem, "unreadable": reason}


def _parse(args) -> int:
    import json

    from .instances import parse

    summary = parse(args.level, args.out, label=args.label, unreadable=args.unreadable)
    if args.json:
        print(json.dumps(summary, indent=1))
    elif "unreadable" in summary:
        print(f"unreadable: {summary['unreadable']}")
    else:
        print(f"{summary['level']}: {summary['height']} x {summary['width']}, {summary['snakes']} snakes: {args.out}")
    return 0


def _domain(path):
    from .domain import SnakebirdDomain
    from .level import load_level

    return SnakebirdDomain(load_level(path))


def _show(args) -> int:
    from ..lab.results import emit
    from .play import draw, start_position

    dom = _domain(args.level)
    lv = dom.level
    picture = draw(dom, start_position(dom))
    info = lv.summary()
    info["map"] = picture.split("\n")
    info["snake_letters"] = lv.snake_letters
    info["exit"] = list(lv.rc(lv.exit))
    info["teleporters"] = [[list(lv.rc(a)), list(lv.rc(b))] for a, b in lv.teleporters]
    info["expected_moves"] = lv.expected_moves
    lines = [picture, ""]
    lines.append(f"{lv.name}: {lv.height} x {lv.width}, exit at row {info['exit'][0]}, column {info['exit'][1]}")
    for letter, body in zip(lv.snake_letters, lv.snakes):
        r, c = lv.rc(body[0])
        lines.append(f"  snake {letter}: length {len(body)}, head at row {r}, column {c}")
    lines.append(f"  fruit: {len(lv.fruit)}")
    for g, cells in enumerate(lv.gadgets):
        lines.append(f"  gadget {g}: {len(cells)} cells, shape offsets {list(lv.gadget_shape(g))}")
    for a, b in lv.teleporters:
        (ra, ca), (rb, cb) = lv.rc(a), lv.rc(b)
        lines.append(f"  teleporters: row {ra}, column {ca} <-> row {rb}, column {cb}")
    lines.append(f"  packed state: {lv.state_bits} bits = {lv.state_bytes} bytes (snakes grow to {lv.snake_max_len})")
    if lv.expected_moves is not None:
        lines.append(f"  published optimal solution: {lv.expected_moves} moves")
    emit(info, as_json=args.json, out=args.out, timing=args.timing, text="\n".join(lines))
    return 0


def _replay(args) -> int:
    from ..lab.results import emit
    from .level import DIRECTIONS
    from .play import draw, is_won, parse_moves, replay

    dom = _domain(args.level)
    moves = parse_moves(args.moves, dom.level.snake_letters)
    positions, error = replay(dom, moves)
    won = error is None and is_won(positions[-1])
    played = len(positions) - 1
    lines = []
    shown = [len(positions) - 1] if args.quiet else range(len(positions))
    for i in shown:
        head = "start" if i == 0 else f"move {i}: {moves[i - 1][0]}{DIRECTIONS[moves[i - 1][1]]}"
        lines += [head, draw(dom, positions[i]), ""]
    if error:
        lines.append(error)
    lines.append(f"{dom.level.name}: {played} of {len(moves)} moves played; "
                 + ("every snake has left: the level is won." if won else "not won."))
    result = {"level": dom.level.name, "moves": [f"{a}{DIRECTIONS[d]}" for a, d in moves], "played": played,
              "error": error, "won": won, "final": draw(dom, positions[-1]).split("\n")}
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text="\n".join(lines))
    return 0 if won else 1


def _solve(args) -> int:
    from ..lab.results import emit
    from .solve import solve

    record = _unreadable_record(args)
    if record is not None:
        emit(record, as_json=args.json, out=args.out, timing=args.timing, text=f"unreadable: {record['unreadable']}")
        return 0
    _warm_cache(args)
    result = solve(args.level, memory_budget=args.memory_budget, workdir=args.workdir, codec=args.codec,
                   max_depth=args.max_depth, checkpoint=args.checkpoint, checkpoint_every_s=args.checkpoint_every)
    if result["solved"]:
        text = (f"{result['level']}: solved in {result['moves']} moves: {','.join(result['solution'])}\n"
                f"{result['states']} states, {result['bits_per_state']:.3g} bits per state, "
                f"{result['time_s']:.3g} s")
    else:
        text = f"{result['level']}: no solution found ({result['states']} states, depth {len(result['layers']) - 1})"
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0 if result["solved"] else 1


WARM_LEVEL = """\
.......
.  *  .
.     .
.>>R O.
.......
~~~~~~~
"""


def _warm_cache(args) -> None:
    """A cold kernel cache is filled by solving a tiny level in a child process (lab.jit.warm_in_child):
    this run's peak memory is then the search's, not numba's compiler's."""
    import tempfile
    from pathlib import Path

    from ..lab.jit import warm_in_child
    from . import kernels

    with tempfile.TemporaryDirectory(prefix="puzzlelab-warm-") as tmp:
        level = Path(tmp) / "warm.txt"
        level.write_text(WARM_LEVEL)
        warm_in_child([kernels], ["snakebird", "solve", str(level), "--workdir", tmp, "--out", f"{tmp}/out.json"]
                      + ([] if args.codec is None else ["--codec", args.codec]))


def _reference(args) -> int:
    from ..lab.errors import InputError
    from ..lab.results import emit
    from .level import load_level
    from .pipeline import reference_binary
    from .reference import run_reference

    record = _unreadable_record(args)
    if record is not None:
        emit(record, as_json=args.json, out=args.out, timing=args.timing, text=f"unreadable: {record['unreadable']}")
        return 0
    level = load_level(args.level)
    exe = reference_binary(args.binary, level.name)
    if exe is None:
        raise InputError(f"no executable {args.binary}.{level.name.removeprefix('level')} (path or name on PATH)")
    result = run_reference(exe, level.name, args.timeout, args.cpu_limit)
    result["expected_moves"] = level.expected_moves
    text = (f"{level.name}: reference solver stopped ({result['stopped']}) after depth "
            f"{len(result['layers_finished']) - 1}" if result.get("stopped") else
            f"{level.name}: reference solver found {result['moves']} moves in {result['time_s']:.3g} s")
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _report(args) -> int:
    from .report import write

    write(args.table, args.runs, csv=args.csv, html=args.html, svg=args.svg, references=args.reference,
          public_csv=args.public_layers, scorecard=args.scorecard, times_link=args.times_link,
          scorecard_rows_kind=args.scorecard_rows)
    return 0
