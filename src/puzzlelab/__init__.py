"""PuzzleLab: reproducible experiments with puzzle-search engines."""

__version__ = "0.1.0"
