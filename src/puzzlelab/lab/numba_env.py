"""Where numba keeps its compiled-kernel cache, and how many threads kernels may use.

Kernels are `@njit(cache=True)`; their cache goes to `.numba_cache/` at the repository root
(git-ignored) when PuzzleLab runs from a source checkout, unless NUMBA_CACHE_DIR is already set.
Pipeline rules set NUMBA_NUM_THREADS themselves; nothing here overrides it.
"""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path | None:
    """The checkout this package runs from (editable install), or None for a regular install."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file() and (parent / "Snakefile").is_file():
            return parent
    return None


def configure_numba_cache() -> None:
    """Point numba's cache at the repository's git-ignored `.numba_cache/` (must run before numba loads)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = repo_root()
    if root is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(root / ".numba_cache")
