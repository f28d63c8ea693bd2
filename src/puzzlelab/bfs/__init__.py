"""bfs engine (being built)."""
