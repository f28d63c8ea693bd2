"""Job tables for rules/mitm.smk: instances, beam boards and one solve job per band.

A job is one `puzzlelab edgematch mitm` run; its id is ``<instance>/<source>_r<rows>[_w<width>]``
(source: ``planted`` = the rest of the board from the planted solution, band cleared; ``beam`` =
a beam board, band as the beam left it) and its output ``results/<experiment>/runs/<id>.json``.
"""

from __future__ import annotations

import re

from ..pipeline import instance_files

EXPERIMENTS = ("mitm_bench", "mitm_vs_beam", "mitm_wall")
CATEGORY = "Meet in the middle"

# Instances from the shared corpora: (file, size, hint arguments).
CORPUS = {
    "official": (("e2", "e2pieces.txt"), 16, "--hints start"),
    "brendan16": (("e2", "brendan_set1_pieces_16x16.txt"), 16, "--hints none"),
}

JOB = re.compile(r"^(?P<instance>[^/]+)/(?P<source>planted|beam)(?:_s(?P<seed>\d+))?_r(?P<rows>\d+)"
                 r"(?:_w(?P<width>\d+))?$")


def instances(config: dict, have_corpora: bool, corpus_path, files: dict) -> dict:
    """name -> {"puzzle", "size", "hints" (CLI arguments), "hints_file", "solution", "generated"}.

    `files`: the output patterns of the instance rule (puzzle, hints, solution), for generated instances.
    """
    out = {}
    for name, spec in sorted((config.get("mitm_instances") or {}).items()):
        made = instance_files(files, name)
        out[name] = {"puzzle": made["puzzle"], "size": int(spec["size"]), "hints_file": made["hints"],
                     "hints": f"--hints all --hints-file {made['hints']}", "solution": made["solution"],
                     "generated": spec}
    for name, (parts, size, hints) in CORPUS.items():
        path = corpus_path(*parts)
        if have_corpora and path.exists():
            out[name] = {"puzzle": str(path), "size": size, "hints_file": None, "hints": hints, "solution": None,
                         "generated": None}
    return out


def missing(config: dict, insts: dict) -> list[tuple[str, str]]:
    """(experiment, instance) pairs asked for in the config but not available here."""
    return [(exp, name) for exp in EXPERIMENTS for name in (config.get(exp) or {}).get("instances", [])
            if name not in insts]


def beam_board(inst: str, width: int, seed: int) -> str:
    return f"results/mitm/beam/{inst}_w{width}_s{seed}.json"


BEAM = re.compile(r"^(?P<instance>.+)_w(?P<width>\d+)_s(?P<seed>\d+)$")


def _common(cfg: dict) -> str:
    args = f"--memory-limit {cfg.get('memory_limit', '4G')}"
    if cfg.get("node_limit"):
        args += f" --node-limit {int(cfg['node_limit'])}"
    return args


def jobs(config: dict, insts: dict) -> dict:
    """experiment -> {job id: {"instance", "board", "args"}} (args: everything but puzzle, board, outputs)."""
    table: dict = {}
    for exp in EXPERIMENTS:
        cfg = config.get(exp) or {}
        names = [i for i in cfg.get("instances", []) if i in insts]
        table[exp] = {}
        for inst in names:
            info = insts[inst]
            n = info["size"]
            common = f"{info['hints']} {_common(cfg)}"
            if exp == "mitm_bench":
                for rows in cfg.get("bands", [2, 3, 4]):
                    band = f"--band={n - rows}:{n}"
                    if info["solution"]:
                        sweep = f" --sweep {int(cfg['sweep'])}" if cfg.get("sweep") is not None else ""
                        table[exp][f"{inst}/planted_r{rows}"] = {
                            "instance": inst, "board": info["solution"],
                            "args": f"{band} --clear-band{sweep} {common}"}
                    board = beam_board(inst, int(cfg.get("beam_width", 1024)), int(cfg.get("beam_seed", 0)))
                    table[exp][f"{inst}/beam_r{rows}"] = {"instance": inst, "board": board, "args": f"{band} {common}"}
            elif exp == "mitm_vs_beam":
                rows = int(cfg.get("rows", 2))
                for seed in cfg.get("beam_seeds", [0]):
                    board = beam_board(inst, int(cfg.get("beam_width", 4096)), int(seed))
                    table[exp][f"{inst}/beam_s{seed}_r{rows}"] = {
                        "instance": inst, "board": board, "args": f"--band={n - rows}:{n} {common}"}
            else:  # mitm_wall
                board = beam_board(inst, int(cfg.get("beam_width", 4096)), int(cfg.get("beam_seed", 0)))
                for rows in cfg.get("rows", [2, 3, 4]):
                    for width in cfg.get("widths", [4, 8, 12, 16]):
                        if width > n:
                            continue
                        table[exp][f"{inst}/beam_r{rows}_w{width}"] = {
                            "instance": inst, "board": board,
                            "args": f"--band={n - rows}:{n} --cols 0:{width} {common}"}
    return table


def all_jobs(table: dict) -> dict:
    return {f"{exp}/{j}": job for exp, t in table.items() for j, job in t.items()}


def beam_specs(config: dict, table: dict) -> dict:
    """Beam boards the jobs read: board path -> (instance, width, seed)."""
    out = {}
    for t in table.values():
        for job in t.values():
            m = BEAM.match(job["board"].rsplit("/", 1)[-1].removesuffix(".json"))
            if job["board"].startswith("results/mitm/beam/") and m:
                out[job["board"]] = (m["instance"], int(m["width"]), int(m["seed"]))
    return out


def instance_input(insts: dict, name: str) -> dict:
    """The files of an instance a rule reads: the puzzle and, for generated ones, the hints."""
    info = insts[name]
    out = {"puzzle": info["puzzle"]}
    if info["hints_file"]:
        out["hints"] = info["hints_file"]
    return out


def job_input(insts: dict, job: dict) -> dict:
    return {**instance_input(insts, job["instance"]), "board": job["board"]}


def run_files(exp: str, table: dict) -> list[str]:
    return [f"results/{exp}/runs/{j}.json" for j in sorted(table.get(exp, {}))]


def timing_files(exp: str, table: dict) -> list[str]:
    return [f"results/{exp}/runs/{j}.timing.json" for j in sorted(table.get(exp, {}))]


def report_targets(exp: str) -> list[str]:
    base = f"results/{exp}/{exp}"
    return [f"{base}.html", f"{base}_rounds.html", f"{base}.svg", f"{base}_memory.svg"]


def parse_job(label: str) -> dict:
    """The fields of a job id (instance, source, seed, rows, width)."""
    m = JOB.match(label)
    if not m:
        return {"instance": label, "source": "", "seed": None, "rows": None, "width": None}
    d = m.groupdict()
    return {"instance": d["instance"], "source": d["source"], "seed": None if d["seed"] is None else int(d["seed"]),
            "rows": int(d["rows"]), "width": None if d["width"] is None else int(d["width"])}


__all__ = ["EXPERIMENTS", "CATEGORY", "instances", "missing", "jobs", "all_jobs", "beam_specs", "beam_board",
           "instance_input", "job_input", "run_files", "timing_files", "report_targets", "parse_job"]
