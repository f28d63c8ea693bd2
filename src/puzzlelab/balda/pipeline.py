"""Helpers for rules/balda.smk: the job lists of the experiments (job name -> its parameters) and the
word lists the dictionary experiment compares."""

from __future__ import annotations

import re
from pathlib import Path


def speed_jobs(cfg: dict) -> dict[str, dict]:
    """balda_search_speed: one job per board size and game (game g is played with seed + g)."""
    return {f"{size}x{size}_seed{cfg['seed'] + g}": {"size": size, "seed": cfg["seed"] + g}
            for size in cfg["sizes"] for g in range(cfg["games"])}


def alphabeta_jobs(cfg: dict) -> dict[str, dict]:
    """balda_alphabeta: one job per start seed, self-play plies and variant (max depth 0: not run)."""
    return {f"s{seed}_p{plies}_{variant}": {"seed": seed, "plies": plies, "variant": variant, "max_depth": depth}
            for seed in cfg["seeds"] for plies in cfg["plies"]
            for variant, depth in sorted(cfg["max_depth"].items()) if depth > 0}


def tournament_jobs(cfg: dict) -> dict[str, dict]:
    """balda_tournament: one job per pair of depths and chunk of start words."""
    jobs = {}
    for deep, shallow in cfg["pairs"]:
        for first in range(0, cfg["words"], cfg["chunk"]):
            count = min(cfg["chunk"], cfg["words"] - first)
            jobs[f"d{deep}v{shallow}_w{first:03d}"] = {"deep": deep, "shallow": shallow, "first": first,
                                                     "words": count}
    return jobs


def dictionary_sources(cfg: dict, corpora_dir: str, have_corpora: bool, corpus_path):
    """The word lists of balda_dictionary, name -> {"path", "label"} ("builtin" first: the list the
    pipeline builds, path None), and [(file, reason)] of the corpus lists that are absent here. A label
    is how outputs cite a list: its path as the configuration spells it, the same on every machine."""
    lists = {"builtin": {"path": None, "label": None}}
    missing = []
    for name in cfg.get("compare", []):
        path = corpus_path("balda", name)
        if have_corpora and path.exists():
            key = re.sub(r"[^A-Za-z0-9_]", "_", Path(name).stem)
            lists[key] = {"path": str(path), "label": f"{corpora_dir.rstrip('/')}/balda/{name}"}
        else:
            missing.append((name, f"shared corpus file not found: {path}"))
    return lists, missing
