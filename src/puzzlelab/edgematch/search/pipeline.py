"""Job tables for rules/beam.smk: which sweeps each beam experiment runs, from its config section.

A job is one `puzzlelab edgematch sweep` over a chunk of seeds for one instance and one setting;
its id is ``<instance>/<setting>_s<first>-<last>`` and its output
``results/<experiment>/runs/<id>.json`` (+ ``.timing.json``).
"""

from __future__ import annotations

from ..pipeline import instance_files

EXPERIMENTS = ("beam_width", "beam_orders", "beam_ties", "beam_dedup", "beam_vs_dfs_lds", "beam_factory")
CATEGORY = "Beam search"


def instances(config: dict, have_corpora: bool, corpus_path, files: dict) -> dict:
    """name -> {"puzzle": path, "hints_file": path or None, "generated": spec or None}.

    `files`: the output patterns of the instance rule (puzzle, hints, solution), for generated instances.
    """
    spec = config.get("beam_instances", {})
    out = {}
    official = corpus_path("e2", "e2pieces.txt")
    if spec.get("official", True) and have_corpora and official.exists():
        out["official"] = {"puzzle": str(official), "hints_file": None, "generated": None}
    for name, gen in sorted(spec.get("generated", {}).items()):
        made = instance_files(files, name)
        out[name] = {"puzzle": made["puzzle"], "hints_file": made["hints"], "generated": gen}
    return out


def _chunks(n_seeds: int, per_job: int) -> list[str]:
    per_job = max(1, per_job)
    return [f"{a}-{min(n_seeds, a + per_job) - 1}" for a in range(0, n_seeds, per_job)]


def _beam_args(width, order="row", tie=0, temp=0.0, dedup="none") -> str:
    return f"--algo beam --width {width} --order {order} --tie-window {tie} --temperature {temp:g} --dedup {dedup}"


def jobs(config: dict, insts: dict) -> dict:
    """experiment -> {job id: {"instance", "args"}} (args: everything but puzzle, hints file and outputs)."""
    table: dict = {}
    for exp in EXPERIMENTS:
        cfg = config.get(exp) or {}
        if not cfg:
            continue
        names = [i for i in cfg.get("instances", []) if i in insts]
        per = int(cfg.get("seeds_per_job", 4))
        settings = []  # (name, args, n_seeds, hints mode)
        hints = cfg.get("hints", "start")
        if exp == "beam_width":
            settings = [(f"w{w}", _beam_args(w, cfg.get("order", "row")), cfg["seeds"], hints) for w in cfg["widths"]]
        elif exp == "beam_orders":
            settings = [(f"{o}_w{w}", _beam_args(w, o), cfg["seeds"], hints) for o in cfg["orders"]
                        for w in cfg["widths"]]
        elif exp == "beam_ties":
            settings = [(f"tie{k}", _beam_args(cfg["width"], tie=k), cfg["seeds"], hints) for k in cfg["tie_windows"]]
            settings += [(f"temp{t:g}", _beam_args(cfg["width"], temp=t), cfg["seeds"], hints)
                         for t in cfg["temperatures"] if t > 0]
        elif exp == "beam_dedup":
            settings = [(f"{m}_w{w}", _beam_args(w, dedup=m), cfg["seeds"], hints) for m in cfg["modes"]
                        for w in cfg["widths"]]
        elif exp == "beam_factory":
            settings = [(f"w{cfg['width']}", _beam_args(cfg["width"]), cfg["seeds"], hints)]
        elif exp == "beam_vs_dfs_lds":
            budget, tol = cfg["nodes"], cfg["tolerance"]
            for h in cfg["hints"]:
                settings.append((f"beam_{h}", _beam_args(cfg["beam_width"]), 1, h))
                settings.append((f"dfs_{h}", f"--algo dfs --nodes {budget} --tolerance {tol}", 1, h))
                settings.append((f"lds_{h}", f"--algo lds --nodes {budget} --tolerance {tol} "
                                             f"--max-discrepancy {cfg['max_discrepancy']}", 1, h))
        table[exp] = {}
        for inst in names:
            for name, args, n_seeds, h in settings:
                for chunk in _chunks(int(n_seeds), per):
                    job = f"{inst}/{name}_s{chunk}"
                    table[exp][job] = {"instance": inst, "hints": h,
                                       "args": f"{args} --hints {h} --seeds {chunk} --label {inst}"}
    return table


def job_input(insts: dict, job: dict) -> dict:
    i = insts[job["instance"]]
    out = {"puzzle": i["puzzle"]}
    if i["hints_file"] and job["hints"] != "none":
        out["hints"] = i["hints_file"]
    return out


def job_hint_args(insts: dict, job: dict) -> str:
    i = insts[job["instance"]]
    return f"--hints-file {i['hints_file']}" if i["hints_file"] and job["hints"] != "none" else ""


def run_files(exp: str, table: dict) -> list[str]:
    return [f"results/{exp}/runs/{j}.json" for j in sorted(table.get(exp, {}))]


def timing_files(exp: str, table: dict) -> list[str]:
    return [f"results/{exp}/runs/{j}.timing.json" for j in sorted(table.get(exp, {}))]


def puzzle_args(exp: str, table: dict, insts: dict) -> str:
    names = sorted({j["instance"] for j in table.get(exp, {}).values()})
    return " ".join(f"--puzzle {n}={insts[n]['puzzle']}" for n in names)
