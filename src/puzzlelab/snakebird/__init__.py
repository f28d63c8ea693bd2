"""snakebird engine (being built)."""
