"""Searches that build boards cell by cell: beam search, depth-first backtracking, limited-discrepancy search.

All three walk the same visiting orders and candidate tables (`tables`, `candidates`).
"""
