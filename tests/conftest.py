"""Shared fixtures: where the shared corpora are, and a helper to run the CLI in-process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("PUZZLELAB_CORPORA", REPO.parent / "shared" / "corpora")).resolve()


def corpus(*parts: str) -> Path:
    """Path inside the shared corpora; skips the test with a clear reason when it is missing."""
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared corpus not available: {path} (set PUZZLELAB_CORPORA to its folder)")
    return path


@pytest.fixture
def run_cli(capsys):
    """Run `puzzlelab ARGS...` in-process; returns (exit code, stdout, stderr)."""
    from puzzlelab.cli import main

    def run(*args: str):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = capsys.readouterr()
        return code, out, err

    return run
