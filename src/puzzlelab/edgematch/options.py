"""The options every edgematch command shares: the puzzle file, its format and the hints to enforce."""

from __future__ import annotations

import argparse


def add_puzzle_args(p: argparse.ArgumentParser, hints: bool = True) -> None:
    """PUZZLE, --format and (optionally) --hints/--hints-file."""
    p.add_argument("puzzle", metavar="PUZZLE", help="puzzle file (e2pieces or Brendan's format)")
    p.add_argument("--format", choices=("e2pieces", "brendan"), default=None,
                   help="force the puzzle format (default: auto-detect)")
    if hints:
        p.add_argument("--hints", choices=("none", "start", "all"), default="none",
                       help="fixed pieces to enforce: none, the start piece, or start + clues (default: none)")
        p.add_argument("--hints-file", metavar="FILE", default=None,
                       help="hints 'ROW COL PIECE ROT' per line (default: the official set's own hints)")


def open_puzzle(args):
    """The puzzle named by the command's PUZZLE and --format."""
    from .puzzle import load_puzzle

    return load_puzzle(args.puzzle, args.format)


def open_hints(args, puzzle):
    """The hints the command's --hints/--hints-file ask for, checked against the puzzle."""
    from .hints import resolve_hints

    return resolve_hints(puzzle, getattr(args, "hints", "none"), getattr(args, "hints_file", None))
