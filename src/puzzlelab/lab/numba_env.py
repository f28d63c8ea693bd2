"""Where numba keeps its compiled-kernel cache.

Kernels are `@njit(cache=True)`. numba keys a cached kernel by its own source file only, so a
kernel that calls (and inlines) a function from another module would keep stale machine code
after that module changed. PuzzleLab therefore keeps one cache folder per version of its
sources: `<base>/src-<digest of every puzzlelab .py file>`. The base is NUMBA_CACHE_DIR when set,
else `.numba_cache/` at the repository root (git-ignored) when running from a checkout; the
pipeline passes `numba_cache_dir` from its config. Threads are not set here: pipeline rules set
NUMBA_NUM_THREADS themselves.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

CACHE_ENV = "NUMBA_CACHE_DIR"
PACKAGE = Path(__file__).resolve().parents[1]


def repo_root() -> Path | None:
    """The checkout this package runs from (editable install), or None for a regular install."""
    for parent in PACKAGE.parents:
        if (parent / "pyproject.toml").is_file() and (parent / "Snakefile").is_file():
            return parent
    return None


@lru_cache(maxsize=1)
def source_digest() -> str:
    """12 hex digits of sha256 over every source file of the package (names and bytes)."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(path.relative_to(PACKAGE).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def versioned_cache_dir(base: str | Path) -> Path:
    """`base/src-<digest>`; unchanged when `base` already is that folder (child processes)."""
    base = Path(base)
    name = f"src-{source_digest()}"
    return base if base.name == name else base / name


def configure_numba_cache(base: str | Path | None = None) -> None:
    """Set NUMBA_CACHE_DIR to the versioned cache folder (must run before numba is imported)."""
    if base is None:
        base = os.environ.get(CACHE_ENV)
        if not base:
            root = repo_root()
            if root is None:
                return  # a regular install: its sources never change, numba's default place is right
            base = root / ".numba_cache"
    os.environ[CACHE_ENV] = str(versioned_cache_dir(Path(base).resolve()))
