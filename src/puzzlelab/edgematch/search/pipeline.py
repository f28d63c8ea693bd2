"""Job tables for rules/beam.smk: which sweeps each beam experiment runs, from its config section.

A job is one `puzzlelab edgematch sweep` over a chunk of seeds for one instance and one setting;
its id is ``<instance>/<setting>_s<first>-<last>``. Beam jobs and backtracking (DFS, LDS) jobs are
run by two rules; every option of a job is a field of its table entry, handed to the rule's
shell line one flag at a time.
"""

from __future__ import annotations

from .. import pipeline as instances_pipeline

EXPERIMENTS = ("beam_width", "beam_orders", "beam_ties", "beam_dedup", "beam_vs_dfs_lds", "beam_factory")
CATEGORY = "Beam search"
# A job's fields where its setting does not say otherwise (backtracking jobs also set node_limit,
# tolerance and max_discrepancy).
DEFAULTS = {"algo": "beam", "width": 1024, "order": "row", "tie_window": 0, "temperature": 0.0, "dedup": "none",
            "tie_break": "lottery", "prior_boards": "none"}
PRIOR_BOARDS = ("e2", "record_boards.txt")  # the corpus of strong boards PRIOR learns from (official set only)


def prior_boards(have_corpora: bool, corpus_path) -> str | None:
    """The record boards of the shared corpus, when present (the PRIOR tie-break of beam_ties needs them)."""
    path = corpus_path(*PRIOR_BOARDS)
    return str(path) if have_corpora and path.exists() else None


def instances(config: dict, have_corpora: bool, corpus_path, files: dict) -> dict:
    """name -> {"puzzle": path, "hints_file": path}.

    `files`: the output patterns of the instance rules, {"generated": {...}, "corpus": {...}}.
    """
    spec = config.get("beam_instances", {})
    out = {}
    if spec.get("official", True):
        for name in instances_pipeline.corpus(have_corpora, corpus_path):
            if name == "official":
                parsed = instances_pipeline.instance_files(files["corpus"], name)
                out[name] = {"puzzle": parsed["puzzle"], "hints_file": parsed["hints"]}
    for name in sorted(spec.get("generated", {})):
        made = instances_pipeline.instance_files(files["generated"], name)
        out[name] = {"puzzle": made["puzzle"], "hints_file": made["hints"]}
    return out


def _chunks(n_seeds: int, per_job: int) -> list[str]:
    per_job = max(1, per_job)
    return [f"{a}-{min(n_seeds, a + per_job) - 1}" for a in range(0, n_seeds, per_job)]


def _settings(exp: str, cfg: dict) -> list[tuple[str, dict, int, str]]:
    """(setting name, job fields, seeds, hints mode) of one experiment."""
    hints = cfg.get("hints", "start")
    if exp == "beam_width":
        return [(f"w{w}", {"width": w, "order": cfg.get("order", "row")}, cfg["seeds"], hints) for w in cfg["widths"]]
    if exp == "beam_orders":
        return [(f"{o}_w{w}", {"width": w, "order": o}, cfg["seeds"], hints) for o in cfg["orders"]
                for w in cfg["widths"]]
    if exp == "beam_ties":
        out = [(f"tie{k}", {"width": cfg["width"], "tie_window": k}, cfg["seeds"], hints) for k in cfg["tie_windows"]]
        out += [(f"{b}", {"width": cfg["width"], "tie_break": b}, cfg["seeds"], hints)
                for b in cfg.get("tie_breaks", [])]
        return out + [(f"temp{t:g}", {"width": cfg["width"], "temperature": float(t)}, cfg["seeds"], hints)
                      for t in cfg["temperatures"] if t > 0]
    if exp == "beam_dedup":
        return [(f"{m}_w{w}", {"width": w, "dedup": m}, cfg["seeds"], hints) for m in cfg["modes"]
                for w in cfg["widths"]]
    if exp == "beam_factory":
        return [(f"w{cfg['width']}", {"width": cfg["width"]}, cfg["seeds"], hints)]
    # beam_vs_dfs_lds: the three searches at an equal node budget, per hints mode
    out = []
    backtrack = {"node_limit": cfg["node_limit"], "tolerance": cfg["tolerance"],
                 "max_discrepancy": cfg["max_discrepancy"]}
    for h in cfg["hints"]:
        out.append((f"beam_{h}", {"width": cfg["beam_width"]}, 1, h))
        out.append((f"dfs_{h}", {"algo": "dfs", **backtrack}, 1, h))
        out.append((f"lds_{h}", {"algo": "lds", **backtrack}, 1, h))
    return out


def jobs(config: dict, insts: dict, prior: str | None = None) -> dict:
    """experiment -> {job id: job fields} (instance, hints, seeds, label and the options of DEFAULTS).

    `prior`: the record boards file; PRIOR tie-break jobs run on the official set only, when it is given."""
    table: dict = {}
    for exp in EXPERIMENTS:
        cfg = config.get(exp) or {}
        if not cfg:
            continue
        names = [i for i in cfg.get("instances", []) if i in insts]
        per = int(cfg.get("seeds_per_job", 4))
        table[exp] = {}
        for inst in names:
            for name, fields, n_seeds, h in _settings(exp, cfg):
                if fields.get("tie_break") == "prior":
                    if inst != "official" or not prior:
                        continue
                    fields = {**fields, "prior_boards": prior}
                for chunk in _chunks(int(n_seeds), per):
                    table[exp][f"{inst}/{name}_s{chunk}"] = {**DEFAULTS, **fields, "instance": inst, "hints": h,
                                                             "seeds": chunk, "label": inst}
    return table


SPEED = "edgematch_speed"  # placements per CPU second of DFS and LDS, nodes per CPU second of the beam


def speed_jobs(config: dict, insts: dict) -> dict:
    """{job id: job fields} of edgematch_speed: one sweep of `repeats` seeds per instance and search."""
    cfg = config.get(SPEED) or {}
    out = {}
    for inst in cfg.get("instances", []):
        if inst not in insts:
            continue
        for algo in cfg["algos"]:
            fields = {**DEFAULTS, "instance": inst, "hints": cfg.get("hints", "start"),
                      "seeds": f"0-{int(cfg['repeats']) - 1}", "label": inst}
            if algo == "beam":
                fields["width"] = int(cfg["beam_width"])
            else:
                fields.update(algo=algo, node_limit=int(cfg["node_limit"]), tolerance=int(cfg["tolerance"]),
                              max_discrepancy=int(cfg["max_discrepancy"]))
            out[f"{inst}/{algo}"] = fields
    return out


def all_jobs(table: dict) -> dict:
    """'<experiment>/<job id>' -> job, for the rules' input functions and params."""
    return {f"{exp}/{j}": job for exp, t in table.items() for j, job in t.items()}


def job_files(table: dict, exp: str, patterns: dict) -> list[str]:
    """An experiment's job files in job-id order: the beam jobs' from patterns["beam"], the others'
    from patterns["backtrack"] (the rules' output patterns, wildcards `beam_exp` and `job`)."""
    return [str(patterns["beam" if job["algo"] == "beam" else "backtrack"]).format(beam_exp=exp, job=j)
            for j, job in sorted(table.get(exp, {}).items())]


def job_input(insts: dict, job: dict) -> dict:
    """The files a job reads: its puzzle and hints file (and the PRIOR tie-break's boards)."""
    i = insts[job["instance"]]
    files = {"puzzle": i["puzzle"], "hints": i["hints_file"]}
    if job.get("prior_boards", "none") != "none":
        files["prior"] = job["prior_boards"]
    return files


def param(all_table: dict, key: str):
    """A rule's params function: the field `key` of the job named by the wildcards."""
    return lambda wc: all_table[f"{wc.beam_exp}/{wc.job}"][key]


def puzzle_files(exp: str, table: dict, insts: dict) -> list[str]:
    """The puzzle files of an experiment's instances (the report draws their boards)."""
    return [insts[n]["puzzle"] for n in sorted({j["instance"] for j in table.get(exp, {}).values()})]
