"""Experiment commands (placeholder)."""


def register(sub):
    pass
