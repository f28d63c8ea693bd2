"""Helpers for rules/nonogram.smk (the Snakefile may not define functions): which corpora and jobs exist.

A corpus is either generated here (`generated:` entries: size, density, colors, count, seed) or a
folder/file under the shared corpora (`corpora:` entries: path, optional chunks, limit, format),
read once by the parse step into a canonical instance file. Big corpora are split into `chunks`
solve jobs (`bench --chunk i/n`).
"""

from __future__ import annotations

from pathlib import Path

VARIANT_FLAGS = {
    "base": "",
    "naive": "--naive",
    "sweep": "--sweep",
    "no-probing": "--no-probing",
    "no-cache": "--no-cache",
}


def generated(section: dict) -> dict[str, dict]:
    return {g["name"]: g for g in section.get("generated", [])}


def corpora(section: dict, root: Path) -> tuple[dict[str, dict], list[tuple[str, str]]]:
    """(present corpora by name, with `abspath`), [(name, reason)] for the missing ones."""
    present, missing = {}, []
    for c in section.get("corpora", []):
        path = Path(root) / c["path"]
        if path.exists():
            present[c["name"]] = dict(c, abspath=str(path))
        else:
            missing.append((c["name"], f"shared corpus not found: {path}"))
    return present, missing


def corpus_names(section: dict, root: Path) -> list[str]:
    return sorted(generated(section)) + sorted(corpora(section, root)[0])


def chunks(section: dict, root: Path, name: str) -> int:
    gen = generated(section)
    if name in gen:
        return 1
    return int(corpora(section, root)[0][name].get("chunks", 1))


def generated_file(experiment: str, name: str) -> str:
    return f"results/{experiment}/corpus/{name}.nonpack"


def instance_file(experiment: str, name: str) -> str:
    """The parse step's canonical instances of a shared corpus (see rule nonogram_parse)."""
    return f"results/{experiment}/instances/{name}.nonjson"


def unreadable_file(experiment: str, name: str) -> str:
    return f"results/{experiment}/instances/{name}.unreadable.csv"


def unreadable_files(experiment: str, section: dict, root: Path) -> list[str]:
    return [unreadable_file(experiment, name) for name in sorted(corpora(section, root)[0])]


def solve_file(experiment: str, name: str, chunk: int, variant: str | None = None) -> str:
    sub = f"solve/{variant}" if variant else "solve"
    return f"results/{experiment}/{sub}/{name}.{chunk}.csv"


def timing_file(path: str) -> str:
    return path[: -len(".csv")] + ".timing.csv"


def solve_files(experiment: str, section: dict, root: Path, variant: str | None = None,
                names: list[str] | None = None) -> list[str]:
    out = []
    for name in names if names is not None else corpus_names(section, root):
        n = chunks(section, root, name)
        out += [solve_file(experiment, name, i, variant) for i in range(1, n + 1)]
    return out


def paths_of(experiment: str, section: dict, root: Path, name: str) -> str:
    """The puzzle file the bench, reference and gallery commands read for a corpus (shell-quoted)."""
    import shlex

    if name in generated(section):
        return shlex.quote(generated_file(experiment, name))
    return shlex.quote(instance_file(experiment, name))


def source_paths(section: dict, root: Path, name: str) -> str:
    """The shared corpus's files or folder the parse step reads (shell-quoted)."""
    import shlex

    return shlex.quote(corpora(section, root)[0][name]["abspath"])


def corpus_inputs(experiment: str, section: dict, name: str) -> list[str]:
    if name in generated(section):
        return [generated_file(experiment, name)]
    return [instance_file(experiment, name)]


def parse_options(section: dict, root: Path, name: str) -> str:
    """Options of `puzzlelab nonogram parse` for a shared corpus (format, limit)."""
    entry = corpora(section, root)[0].get(name, {})
    parts = []
    if entry.get("format"):
        parts.append(f"--format {entry['format']}")
    if entry.get("limit"):
        parts.append(f"--limit {int(entry['limit'])}")
    return " ".join(parts)


def bench_options(section: dict, root: Path, name: str, chunk: int) -> str:
    """Options of `puzzlelab nonogram bench` for one job (limits, chunk)."""
    parts = [f"--max-solutions {int(section.get('max_solutions', 2))}",
             f"--timeout {float(section['timeout']):g}"]
    if section.get("work_limit"):
        parts.append(f"--work-limit {int(section['work_limit'])}")
    n = chunks(section, root, name)
    if n > 1:
        parts.append(f"--chunk {chunk}/{n}")
    return " ".join(parts)


def gen_options(section: dict, name: str) -> str:
    g = generated(section)[name]
    return (f"--size {g['size']} --density {float(g['density']):g} --colors {int(g['colors'])} "
            f"--count {int(g['count'])} --seed {int(g['seed'])} --style {g.get('style', 'noise')} "
            f"--scale {int(g.get('scale', 4))}")


def reference_options(section: dict, root: Path, name: str, chunk: int) -> str:
    """Options of `puzzlelab nonogram reference` for one job (same puzzles as the bench job)."""
    parts = [f"--timeout {float(section.get('reference_timeout', section['timeout'])):g}"]
    n = chunks(section, root, name)
    if n > 1:
        parts.append(f"--chunk {chunk}/{n}")
    return " ".join(parts)


def reference_files(section: dict, root: Path, names: list[str]) -> list[str]:
    """The reference solver's CSVs, one per bench solve job of the named corpora."""
    return [f"results/nonogram_bench/reference/{name}.{i}.timing.csv"
            for name in names for i in range(1, chunks(section, root, name) + 1)]
