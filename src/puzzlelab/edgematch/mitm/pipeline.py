"""Job tables for rules/mitm.smk: instances, beam boards and one solve job per band.

A job is one `puzzlelab edgematch mitm` run; its id is ``<instance>/planted_r<rows>`` (the rest of
the board from the planted solution, band cleared) or ``<instance>/beam_<variant>`` (a beam board,
band as the beam left it; variant ``r<rows>``, ``s<seed>_r<rows>`` or ``r<rows>_w<width>``, with ``_sat``
when the SAT back-end proves it instead). The
two kinds are run by two rules; every option of a job is a field of its table entry.
"""

from __future__ import annotations

from .. import pipeline as instances_pipeline

EXPERIMENTS = ("mitm_bench", "mitm_vs_beam", "mitm_wall")
CATEGORY = "Meet in the middle"
# The hints a job enforces: all of a generated instance's (start piece and four clues), the official
# set's start piece, none on Brendan's set.
CORPUS_HINTS = {"official": "start", "brendan16": "none"}


def instances(config: dict, have_corpora: bool, corpus_path, files: dict) -> dict:
    """name -> {"puzzle", "size", "hints" (mode), "hints_file", "generated" (bool)}.

    `files`: the output patterns of the instance rules, {"generated": {...}, "corpus": {...}}.
    """
    out = {}
    for name, spec in sorted((config.get("mitm_instances") or {}).items()):
        made = instances_pipeline.instance_files(files["generated"], name)
        out[name] = {"puzzle": made["puzzle"], "size": int(spec["size"]), "hints": "all", "hints_file": made["hints"],
                     "generated": True}
    for name, info in instances_pipeline.corpus(have_corpora, corpus_path).items():
        parsed = instances_pipeline.instance_files(files["corpus"], name)
        out[name] = {"puzzle": parsed["puzzle"], "size": info["size"], "hints": CORPUS_HINTS[name],
                     "hints_file": parsed["hints"], "generated": False}
    return out


def missing(config: dict, insts: dict) -> list[tuple[str, str]]:
    """(experiment, instance) pairs asked for in the config but not available here."""
    return [(exp, name) for exp in EXPERIMENTS for name in (config.get(exp) or {}).get("instances", [])
            if name not in insts]


def _job(inst: str, info: dict, cfg: dict, rows: int, width: int, **fields) -> dict:
    n = info["size"]
    return {"instance": inst, "hints": info["hints"], "band": f"{n - rows}:{n}", "cols": f"0:{width}",
            "memory_budget": cfg.get("memory_budget", "4G"), "node_limit": int(cfg["node_limit"]),
            "timeout": float(cfg["timeout"]), **fields}


def jobs(config: dict, insts: dict) -> dict:
    """experiment -> {job id: job fields}. A planted job has `sweep`; a beam job `beam` = (width, seed)."""
    table: dict = {}
    for exp in EXPERIMENTS:
        cfg = config.get(exp) or {}
        names = [i for i in cfg.get("instances", []) if i in insts]
        table[exp] = {}
        for inst in names:
            info = insts[inst]
            n = info["size"]
            if exp == "mitm_bench":
                beam = (int(cfg.get("beam_width", 1024)), int(cfg.get("beam_seed", 0)))
                for rows in cfg.get("bands", [2, 3, 4]):
                    if info["generated"]:
                        table[exp][f"{inst}/planted_r{rows}"] = _job(inst, info, cfg, rows, n,
                                                                     sweep=int(cfg.get("sweep", 0)))
                    table[exp][f"{inst}/beam_r{rows}"] = _job(inst, info, cfg, rows, n, beam=beam)
            elif exp == "mitm_vs_beam":
                rows = int(cfg.get("rows", 2))
                for seed in cfg.get("beam_seeds", [0]):
                    beam = (int(cfg.get("beam_width", 4096)), int(seed))
                    _beam_jobs(table[exp], f"{inst}/beam_s{seed}_r{rows}", _job(inst, info, cfg, rows, n, beam=beam),
                               cfg)
            else:  # mitm_wall
                beam = (int(cfg.get("beam_width", 4096)), int(cfg.get("beam_seed", 0)))
                for rows in cfg.get("rows", [2, 3, 4]):
                    for width in cfg.get("widths", [4, 8, 12, 16]):
                        if width <= n:
                            _beam_jobs(table[exp], f"{inst}/beam_r{rows}_w{width}",
                                       _job(inst, info, cfg, rows, width, beam=beam), cfg)
    return table


def _beam_jobs(table: dict, job_id: str, job: dict, cfg: dict) -> None:
    """A beam-board band job, and with `sat_node_limit` the same band proven by the SAT back-end (id + `_sat`)."""
    table[job_id] = job
    if cfg.get("sat_node_limit"):
        table[f"{job_id}_sat"] = {**job, "method": "sat", "node_limit": int(cfg["sat_node_limit"])}


def all_jobs(table: dict) -> dict:
    """'<experiment>/<job id>' -> job, for the rules' input functions and params."""
    return {f"{exp}/{j}": job for exp, t in table.items() for j, job in t.items()}


def job_files(table: dict, exp: str, patterns: dict) -> list[str]:
    """An experiment's job files in job-id order: planted jobs' from patterns["planted"], beam-board jobs'
    from patterns["beam"] (the rules' output patterns; wildcards mitm_exp, mitm_inst, mitm_rows / mitm_variant)."""
    out = []
    for j, job in sorted(table.get(exp, {}).items()):
        inst, kind = j.split("/", 1)
        if "sweep" in job:
            out.append(str(patterns["planted"]).format(mitm_exp=exp, mitm_inst=inst, mitm_rows=kind.rsplit("_r", 1)[1]))
        else:
            out.append(str(patterns["beam"]).format(mitm_exp=exp, mitm_inst=inst, mitm_variant=kind.split("_", 1)[1]))
    return out


def instance_input(insts: dict, name: str) -> dict:
    """The files of an instance a rule reads: the puzzle and its hints file."""
    info = insts[name]
    return {"puzzle": info["puzzle"], "hints": info["hints_file"]}


def board_input(job: dict, patterns: dict) -> str:
    """The board a job re-solves: the instance's planted solution, or its beam board (the rules' patterns)."""
    if "beam" in job:
        width, seed = job["beam"]
        return str(patterns["beam"]).format(em_name=job["instance"], beam_width=width, beam_seed=seed)
    return instances_pipeline.instance_files({"solution": patterns["solution"]}, job["instance"])["solution"]


def param(all_table: dict, kind: str, key: str, default=None):
    """A rule's params function: the field `key` of the job named by the wildcards (`default` when absent)."""
    if kind == "planted":
        return lambda wc: all_table[f"{wc.mitm_exp}/{wc.mitm_inst}/planted_r{wc.mitm_rows}"].get(key, default)
    return lambda wc: all_table[f"{wc.mitm_exp}/{wc.mitm_inst}/beam_{wc.mitm_variant}"].get(key, default)


__all__ = ["EXPERIMENTS", "CATEGORY", "instances", "missing", "jobs", "all_jobs", "job_files",
           "instance_input", "board_input", "param"]
