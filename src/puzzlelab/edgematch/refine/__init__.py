"""Destroy-and-repair polishing of complete edge-matching boards (`puzzlelab edgematch refine`)."""
