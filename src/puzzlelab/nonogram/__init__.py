"""nonogram engine (being built)."""
