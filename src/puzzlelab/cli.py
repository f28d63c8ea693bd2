"""The `puzzlelab` command line: one entry point, one sub-command group per engine.

Each engine contributes `register(subparsers)` in `puzzlelab.<engine>.cli`; handlers import their
numba kernels lazily, so `puzzlelab --help` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .lab.cli_support import run_guarded
from .lab.errors import one_line


def _nonogram():
    from .nonogram import cli

    return cli


def _bfs():
    from .bfs import cli

    return cli


def _snakebird():
    from .snakebird import cli

    return cli


def _edgematch():
    from .edgematch import cli

    return cli


def _balda():
    from .balda import cli

    return cli


def _lab():
    from .lab import cli

    return cli


# name -> (help, loader of its cli module); order is the order of `puzzlelab --help`. Only the engine a
# command names is imported, so a command pays the start-up of its own engine and no other's.
ENGINES = {
    "nonogram": ("nonogram solving: line DP, propagation, probing, benchmarks", _nonogram),
    "bfs": ("compressed breadth-first search: layer counts, shortest paths", _bfs),
    "snakebird": ("Snakebird levels: parse, show, replay, solve optimally", _snakebird),
    "edgematch": ("edge-matching puzzles (Eternity II): generate, score, beam/DFS/LDS, meet in the middle",
                  _edgematch),
    "balda": ("Balda word game: move generation, alpha-beta, self-play", _balda),
    "lab": ("pipeline helpers: determinism checks, report tables", _lab),
}


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (the usage itself is one `--help` away)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see: {self.prog} --help)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command tree; with `only`, the other engines are listed but their commands not loaded."""
    parser = OneLineParser(prog="puzzlelab", description="PuzzleLab: reproducible puzzle-search experiments.")
    parser.add_argument("--version", action="version", version=f"puzzlelab {__version__}")
    sub = parser.add_subparsers(dest="engine", metavar="ENGINE", required=True)
    for name, (help_text, load) in ENGINES.items():
        engine_parser = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            load().register(engine_parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    named = argv[0] if argv and argv[0] in ENGINES else None
    parser = build_parser(only=named or "")
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.parse_args([args.engine, "--help"])
        return 2
    return run_guarded(lambda: handler(args))


if __name__ == "__main__":
    sys.exit(main())
