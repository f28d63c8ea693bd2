"""Helpers for rules/balda.smk: the job lists of the experiments (job name -> its parameters) and the
word lists the dictionary experiment compares."""

from __future__ import annotations

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


def dictionary_compare(cfg: dict, have_corpora: bool, corpus_path) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(name -> path of the word lists compared with the built-in one, [(file, reason) of those missing])."""
    found, missing = {}, []
    for name in cfg.get("compare", []):
        path = corpus_path("balda", name)
        if have_corpora and path.exists():
            found[Path(name).stem] = str(path)
        else:
            missing.append((name, f"shared corpus file not found: {path}"))
    return found, missing
