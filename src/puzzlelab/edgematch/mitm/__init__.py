"""BANDSAW: the exact, proven-optimal completion of a band of rows, by meeting in the middle.

`band` sets up the problem, `enum` enumerates a half, `bounds`/`cross`/`lagrange`/`partner` prune
it, `join` pairs the halves and `solve` runs the budget ratchet.
"""
