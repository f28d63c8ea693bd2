"""`puzzlelab edgematch ...`: the model's commands (generate, parse, score, show) and those of the subpackages.

`search.cli` adds the searches (beam, dfs, lds, sweep), `mitm.cli` the band solver, `refine.cli` the
polisher; `report` tabulates the experiments of all three.
"""

from __future__ import annotations

import argparse

from ..lab.cli_support import add_output_args, add_report_command, add_seed_arg
from ..lab.errors import InputError
from .mitm import cli as mitm_cli
from .options import add_puzzle_args, open_hints, open_puzzle
from .refine import cli as refine_cli
from .search import cli as search_cli


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("generate", help="write an E2-like puzzle with a planted perfect solution",
                       description="Generate an N x N E2-like puzzle (Brendan's text format) and its solution.")
    p.add_argument("--size", type=int, required=True, help="board side N (3..64)")
    p.add_argument("--frame-colors", type=int, default=None, help="frame colours (default: 5 at N=16, scaled)")
    p.add_argument("--inner-colors", type=int, default=None, help="inner colours (default: 17 at N=16, scaled)")
    add_seed_arg(p)
    p.add_argument("--puzzle-out", required=True, metavar="PUZZLE.txt", help="write the puzzle here (Brendan's format)")
    p.add_argument("--solution-out", metavar="BOARD.json", help="write the planted solution here (board JSON)")
    p.add_argument("--hints-out", metavar="HINTS.txt",
                   help="write E2-style hints taken from the solution here (start cell, then four clue cells)")
    add_output_args(p, out_help="write the summary (canonical JSON) here")
    p.set_defaults(handler=_generate)

    p = sub.add_parser("parse", help="read and check a puzzle and its hints; write the canonical instance and "
                                     "the hints to enforce (the pipeline's parse step)",
                       description="Validate a puzzle file (and hints file); write the hints the chosen --hints "
                                   "mode enforces, one 'ROW COL PIECE ROT' per line, and with --puzzle-out the "
                                   "puzzle itself as a canonical instance (its own format, LF line ends, no "
                                   "comments, a first line '# puzzle: NAME'), which every command reads as the "
                                   "same puzzle. Example: puzzlelab edgematch parse e2pieces.txt --hints all "
                                   "--puzzle-out official.txt --hints-out official.hints.txt")
    add_puzzle_args(p)
    p.add_argument("--hints-out", required=True, metavar="HINTS.txt", help="write the enforced hints here")
    p.add_argument("--puzzle-out", metavar="PUZZLE.txt", help="write the canonical instance here")
    add_output_args(p, out_help="write the summary (canonical JSON) here")
    p.set_defaults(handler=_parse)

    p = sub.add_parser("score", help="score a board (matched inner edges) and check it",
                       description="Matched inner edges, maximum, validity (pieces at most once, rotations "
                                   "0-3, hints respected). Boards: JSON, record-board text, Brendan solutions.")
    add_puzzle_args(p)
    p.add_argument("board", metavar="BOARD", help="board file (JSON, text layout, or Brendan solution)")
    p.add_argument("--name", help="the board to score in a multi-board text file (default: all)")
    add_output_args(p)
    p.set_defaults(handler=_score)

    p = sub.add_parser("show", help="draw a board with its edge colours, mismatches in red")
    add_puzzle_args(p)
    p.add_argument("board", metavar="BOARD")
    p.add_argument("--name", help="the board to draw in a multi-board text file (default: the first)")
    p.add_argument("--png", metavar="FILE", help="write a PNG")
    p.add_argument("--svg", metavar="FILE", help="write an SVG")
    p.add_argument("--title", default=None, help="picture title (default: name and score)")
    p.add_argument("--numbers", action="store_true", help="print piece numbers on the cells")
    p.add_argument("--text", action="store_true", help="print the board in the text layout")
    p.set_defaults(handler=_show)

    search_cli.register(sub)
    mitm_cli.register(sub)
    refine_cli.register(sub)

    reports = {**search_cli.REPORTS, **mitm_cli.REPORTS, **refine_cli.REPORTS}
    p = add_report_command(sub, reports, _report,
                           runs_help="result files of the experiment's jobs (`sweep --out`, `mitm --out`)",
                           scorecard=tuple(reports))  # every table decides rows
    p.add_argument("--timings", nargs="*", default=[], metavar="FILE",
                   help="the jobs' timing files, in the order of RUNS")
    search_cli.add_report_options(p)
    mitm_cli.add_report_options(p)
    refine_cli.add_report_options(p)


def _report(args) -> int:
    if args.table in search_cli.REPORTS:
        return search_cli.report(args)
    if args.table in refine_cli.REPORTS:
        return refine_cli.report(args)
    return mitm_cli.report(args)


def _generate(args) -> int:
    from ..lab.results import emit
    from .board import save_board
    from .generate import generate
    from .hints import e2_hint_cells, hints_from_board, write_hints
    from .puzzle import write_puzzle

    puzzle, solution = generate(args.size, args.frame_colors, args.inner_colors, args.seed)
    write_puzzle(args.puzzle_out, puzzle)
    if args.solution_out:
        save_board(args.solution_out, solution)
    if args.hints_out:
        write_hints(args.hints_out, hints_from_board(solution, e2_hint_cells(puzzle.rows, puzzle.cols)))
    summary = {"puzzle": args.puzzle_out, "rows": puzzle.rows, "cols": puzzle.cols, "pieces": puzzle.n_pieces,
               "colors": puzzle.n_colors - 1, "max_score": puzzle.max_score, "seed": args.seed}
    text = (f"{args.puzzle_out}: {puzzle.rows}x{puzzle.cols}, {puzzle.n_colors - 1} colours, planted solution "
            f"{puzzle.max_score}/{puzzle.max_score}")
    emit(summary, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _parse(args) -> int:
    from ..lab.results import emit
    from .hints import write_hints
    from .puzzle import write_puzzle

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    if args.puzzle_out:
        write_puzzle(args.puzzle_out, puzzle, fmt=puzzle.fmt, named=True)
    write_hints(args.hints_out, hints)
    summary = {"puzzle": puzzle.name, "format": puzzle.fmt, "rows": puzzle.rows, "cols": puzzle.cols,
               "pieces": puzzle.n_pieces, "colors": puzzle.n_colors - 1, "max_score": puzzle.max_score,
               "hints": args.hints, "hinted": len(hints)}
    text = f"{args.puzzle}: {puzzle.rows}x{puzzle.cols}, {puzzle.n_pieces} pieces, {len(hints)} hints enforced"
    emit(summary, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _score(args) -> int:
    from ..lab.results import emit
    from .board import load_board, load_boards
    from .score import check_board

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    n = puzzle.n_pieces
    boards = [load_board(args.board, args.name, n)] if args.name else load_boards(args.board, n)
    rows = []
    for b in boards:
        rec = {"name": b.name, **check_board(puzzle, b, hints, args.board).as_dict()}
        if "score" in b.meta and b.meta["score"].lstrip("-").isdigit():
            rec["stated_score"] = int(b.meta["score"])
        rows.append(rec)
    text = "\n".join(f"{r['name']}: {r['score']}/{r['max_score']} {'valid' if r['valid'] else 'INVALID'}"
                     f"{'' if r['complete'] else ' (incomplete: ' + str(r['placed']) + ' placed)'}"
                     + "".join(f"\n  {msg}" for msg in r["problems"]) for r in rows)
    result = rows[0] if len(rows) == 1 else {"boards": rows}
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _show(args) -> int:
    from .board import format_board_text, load_board
    from .draw import draw_board
    from .score import check_board

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    board = load_board(args.board, args.name, puzzle.n_pieces)
    check = check_board(puzzle, board, hints, args.board)
    if not (args.png or args.svg or args.text):
        raise InputError("nothing to do: give --png FILE, --svg FILE or --text")
    title = args.title if args.title is not None else f"{board.name}: {check.score}/{check.max_score}"
    for path in (args.png, args.svg):
        if path:
            draw_board(puzzle, board, path, title=title, numbers=args.numbers)
    if args.text:
        print(format_board_text(board), end="")
    else:
        print(f"{board.name}: {check.score}/{check.max_score} {'valid' if check.valid else 'INVALID'}")
    return 0
