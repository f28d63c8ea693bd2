"""edgematch engine (being built)."""
