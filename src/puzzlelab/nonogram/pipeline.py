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


def jobs(section: dict, root: Path, names: list[str] | None = None,
         variants: list[str] | None = None) -> dict[str, list]:
    """Wildcards of the solve jobs (one per corpus chunk, per variant), zipped, for `expand(..., zip)`.

    The paths themselves are the rules' output patterns (rules/nonogram.smk); this names only jobs.
    """
    out = {"nonogram_corpus": [], "nonogram_chunk": []}
    if variants is not None:
        out["nonogram_variant"] = []
    for variant in variants if variants is not None else [None]:
        for name in names if names is not None else corpus_names(section, root):
            for i in range(1, chunks(section, root, name) + 1):
                out["nonogram_corpus"].append(name)
                out["nonogram_chunk"].append(i)
                if variant is not None:
                    out["nonogram_variant"].append(variant)
    return out


def parsed_names(section: dict, root: Path) -> list[str]:
    """The shared corpora of a section that are present (each read once by the parse step)."""
    return sorted(corpora(section, root)[0])


def source_paths(section: dict, root: Path, name: str) -> str:
    """The shared corpus's files or folder the parse step reads (shell-quoted)."""
    import shlex

    return shlex.quote(corpora(section, root)[0][name]["abspath"])


def parse_fields(section: dict, root: Path, name: str) -> dict[str, str]:
    """`puzzlelab nonogram parse` flags of a shared corpus: --format, --limit."""
    entry = corpora(section, root)[0].get(name, {})
    return {"format": entry.get("format") or "auto",
            "limit": str(int(entry["limit"])) if entry.get("limit") else "all"}


def bench_fields(section: dict, root: Path, name: str) -> dict[str, str]:
    """`puzzlelab nonogram bench` flags of a corpus's jobs: limits (the section's, or the corpus's
    own `work_limit`/`timeout`) and the number of chunks."""
    entry = corpora(section, root)[0].get(name, {})
    return {"max_solutions": str(int(section.get("max_solutions", 2))),
            "timeout": f"{float(entry.get('timeout', section['timeout'])):g}",
            "work_limit": str(int(entry.get("work_limit", section["work_limit"]))),
            "chunks": str(chunks(section, root, name))}


def generate_fields(section: dict, root: Path, name: str) -> dict[str, str]:
    """`puzzlelab nonogram generate` flags of a generated corpus."""
    g = generated(section)[name]
    return {"size": str(g["size"]), "density": f"{float(g['density']):g}", "colors": str(int(g["colors"])),
            "puzzles": str(int(g["count"])), "seed": str(int(g["seed"])), "style": str(g.get("style", "noise")),
            "scale": str(int(g.get("scale", 4)))}


def reference_fields(section: dict, root: Path, name: str) -> dict[str, str]:
    """`puzzlelab nonogram reference` flags of a corpus's jobs (the same puzzles as its bench jobs)."""
    return {"timeout": f"{float(section.get('reference_timeout', section['timeout'])):g}",
            "chunks": str(chunks(section, root, name))}


def param(config: dict, root: Path, fields, key: str, experiment: str | None = None):
    """A rule's params function: flag `key` of `fields(section, root, corpus)` for the job's corpus.

    The section is `config[experiment]`, or the one the job's `nonogram_exp` wildcard names.
    """
    return lambda wc: fields(config[experiment or wc.nonogram_exp], root, wc.nonogram_corpus)[key]


def params(config: dict, root: Path, fields, keys: list[str], experiment: str | None = None) -> dict:
    """A rule's params: one `param` function per flag in `keys`."""
    return {k: param(config, root, fields, k, experiment) for k in keys}
