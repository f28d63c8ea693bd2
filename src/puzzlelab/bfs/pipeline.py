"""Helpers for rules/bfs.smk: experiment entries from the config, and file-name slugs for domains.

An entry is a domain string or a mapping `{domain: ..., max_depth: ...}`; its slug (the
`{search}` wildcard) keeps letters, digits and dots and turns everything else into '-', with the
depth limit appended, e.g. `sliding:4x4` to depth 15 -> `sliding-4x4-d15`.

A domain string may name a file of the shared corpora portably with the `{corpora}` placeholder,
e.g. `PREFIX:{corpora}/folder/level.txt`: it is resolved against the `corpora_dir` of the config,
the slug leaves the placeholder out (`PREFIX-folder-level.txt`), and the entry is dropped (see
`missing_entries`) when that file is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

PLACEHOLDER = "{corpora}"


def slug(domain: str, max_depth: int | None = None) -> str:
    base = re.sub(r"[^A-Za-z0-9.]+", "-", domain.replace(PLACEHOLDER, "")).strip("-")
    return base if max_depth is None else f"{base}-d{int(max_depth)}"


def resolve(domain: str, corpora: str | Path | None) -> str:
    """The domain string with `{corpora}` replaced by the corpora folder."""
    if PLACEHOLDER not in domain:
        return domain
    if corpora is None:
        raise ValueError(f"domain {domain!r} uses {PLACEHOLDER} but no corpora folder was given")
    return domain.replace(PLACEHOLDER, str(corpora))


def _corpus_file(domain: str) -> str | None:
    """The file a `{corpora}` domain names (the text after its prefix), or None."""
    if PLACEHOLDER not in domain:
        return None
    return domain.split(":", 1)[1] if ":" in domain else domain


def _items(section: dict, key: str):
    for item in section.get(key, []) or []:
        if isinstance(item, str):
            item = {"domain": item}
        yield {"domain": str(item["domain"]), "max_depth": item.get("max_depth")}


def entries(section: dict, key: str = "domains", corpora: str | Path | None = None) -> dict[str, dict]:
    """slug -> {"domain": str (placeholder resolved), "max_depth": int | None} for the entries of a
    config section; entries whose `{corpora}` file does not exist are left out."""
    out: dict[str, dict] = {}
    for entry in _items(section, key):
        name = slug(entry["domain"], entry["max_depth"])
        path = _corpus_file(entry["domain"])
        if path is not None and (corpora is None or not Path(resolve(path, corpora)).is_file()):
            continue
        out[name] = {"domain": resolve(entry["domain"], corpora), "max_depth": entry["max_depth"]}
    return out


def missing_entries(section: dict, corpora: str | Path | None, key: str = "domains") -> list[str]:
    """The `{corpora}` domain strings of a section whose file is absent (to report as skipped)."""
    missing = []
    for entry in _items(section, key):
        path = _corpus_file(entry["domain"])
        if path is not None and (corpora is None or not Path(resolve(path, corpora)).is_file()):
            missing.append(entry["domain"])
    return missing


def depth_value(entry: dict) -> str:
    """The value of an entry's --max-depth: its depth, or `all` for the whole space."""
    return "all" if entry.get("max_depth") is None else str(int(entry["max_depth"]))


def budget_slug(budget: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "", str(budget))


def budgets(section: dict) -> dict[str, str]:
    """slug (the `{bfs_budget}` wildcard) -> memory budget, for the budgets of a config section."""
    return {budget_slug(b): str(b) for b in section.get("budgets", [])}


def reference_value(files: list[str]) -> str:
    """The --reference value of the table rules: the corpus file when present, else `embedded`."""
    return files[0] if files else "embedded"


DEDUP_MODES = ("frontier", "sortmerge", "hash")


def dedup_runs(pattern: str, searches: dict, section: dict) -> list[str]:
    """Every run of the bfs_dedup experiment: each search, in each mode its domain allows, each repeat.

    A frontier search needs a domain whose moves can be undone; other domains run sortmerge and hash."""
    from puzzlelab.domains import make_domain

    runs = []
    for name in sorted(searches):
        domain = make_domain(searches[name]["domain"])
        for mode in section.get("modes", DEDUP_MODES):
            if mode == "frontier" and not getattr(domain, "reversible", False):
                continue
            for rep in range(1, int(section["repeats"]) + 1):
                runs.append(pattern.format(bfs_search=name, bfs_dedup=mode, bfs_rep=rep))
    return runs
