"""PuzzleLab: reproducible experiments with puzzle-search engines."""

from .lab.numba_env import configure_numba_cache as _configure_numba_cache

__version__ = "0.1.0"

# Before any engine imports numba: compiled kernels go to the repository's .numba_cache/.
_configure_numba_cache()
