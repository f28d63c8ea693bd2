"""Helpers for rules/bfs.smk: experiment entries from the config, and file-name slugs for domains.

An entry is a domain string or a mapping `{domain: ..., max_depth: ...}`; its slug (the
`{search}` wildcard) keeps letters, digits and dots and turns everything else into '-', with the
depth limit appended, e.g. `sliding:4x4` to depth 15 -> `sliding-4x4-d15`.
"""

from __future__ import annotations

import re


def slug(domain: str, max_depth: int | None = None) -> str:
    base = re.sub(r"[^A-Za-z0-9.]+", "-", domain).strip("-")
    return base if max_depth is None else f"{base}-d{int(max_depth)}"


def entries(section: dict, key: str = "domains") -> dict[str, dict]:
    """slug -> {"domain": str, "max_depth": int | None} for the entries of a config section."""
    out: dict[str, dict] = {}
    for item in section.get(key, []) or []:
        if isinstance(item, str):
            item = {"domain": item}
        entry = {"domain": str(item["domain"]), "max_depth": item.get("max_depth")}
        out[slug(entry["domain"], entry["max_depth"])] = entry
    return out


def depth_arg(entry: dict) -> str:
    """The --max-depth option of an entry ('' when the whole space is searched)."""
    return "" if entry.get("max_depth") is None else f"--max-depth {int(entry['max_depth'])}"


def budget_slug(budget: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "", str(budget))
