"""The `puzzlelab` command line: one entry point, one sub-command group per engine.

Each engine contributes `register(subparsers)` in `puzzlelab.<engine>.cli`; handlers import their
numba kernels lazily, so `puzzlelab --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .lab.cli_support import run_guarded
from .lab.errors import one_line

# (module, help) — order is the order of `puzzlelab --help`.
ENGINES = [
    ("nonogram", "nonogram solving: line DP, propagation, probing, benchmarks"),
    ("bfs", "compressed breadth-first search: layer counts, shortest paths"),
    ("snakebird", "Snakebird levels: parse, show, replay, solve optimally"),
    ("edgematch", "edge-matching puzzles (Eternity II): generate, score, beam/DFS/LDS, meet in the middle"),
    ("balda", "Balda word game: move generation, alpha-beta, self-play"),
    ("lab", "pipeline helpers: determinism checks, report tables"),
]


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (the usage itself is one `--help` away)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="puzzlelab", description="PuzzleLab: reproducible puzzle-search experiments.")
    parser.add_argument("--version", action="version", version=f"puzzlelab {__version__}")
    sub = parser.add_subparsers(dest="engine", metavar="ENGINE", required=True)
    for name, help_text in ENGINES:
        module = importlib.import_module(f"puzzlelab.{name}.cli")
        engine_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.register(engine_parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.parse_args([args.engine, "--help"])
        return 2
    return run_guarded(lambda: handler(args))


if __name__ == "__main__":
    sys.exit(main())
