"""balda engine (being built)."""
