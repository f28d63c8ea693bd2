"""Job table of rules/refine.smk: the beam boards `beam_refine` polishes and the refine run of each.

A job is one beam board (instance, hints mode, width, beam seed) and one `puzzlelab edgematch
refine` run of it with the same seed; its id is ``<instance>/<hints>_w<width>_s<seed>``. Every
option of a job is a field of its entry, handed to the rules' shell lines one flag at a time.
"""

from __future__ import annotations

EXPERIMENT = "beam_refine"
CATEGORY = "Beam search"
# Refine options of every job where the config section does not say otherwise (the CLI's defaults).
DEFAULTS = {"min_cells": 6, "max_cells": 16, "assign_cells": 64, "move_nodes": 20_000, "uphill": 50, "max_drop": 3,
            "shapes": "rect:3,mismatch:4,band:1,ring:1,assign:1"}


def jobs(config: dict, insts: dict) -> dict:
    """job id -> fields (instance, hints, width, seed, node_limit and the refine options)."""
    cfg = config.get(EXPERIMENT) or {}
    table = {}
    options = {k: cfg.get(k, v) for k, v in DEFAULTS.items()}
    for inst in cfg.get("instances", []):
        if inst not in insts:
            continue
        for hints in cfg["hints"]:
            for width in cfg["widths"]:
                for seed in range(int(cfg["seeds"])):
                    table[f"{inst}/{hints}_w{width}_s{seed}"] = {
                        "instance": inst, "hints": hints, "width": int(width), "seed": seed,
                        "node_limit": int(cfg["node_limit"]), "label": inst, **options}
    return table


def files(table: dict, pattern) -> list[str]:
    """The jobs' files in job-id order, from a rule's output pattern (wildcard `job`)."""
    return [str(pattern).format(job=j) for j in sorted(table)]


def job_input(insts: dict, job: dict) -> dict:
    """The files a job reads: its puzzle and hints file."""
    i = insts[job["instance"]]
    return {"puzzle": i["puzzle"], "hints": i["hints_file"]}


def param(table: dict, key: str):
    """A rule's params function: the field `key` of the job named by the wildcards."""
    return lambda wc: table[wc.job][key]
