"""Small pure functions used by the Snakefiles (kept here so they are tested and shared)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def evenly_spaced(items: Sequence[T], n: int) -> list[T]:
    """n items spread evenly over the sorted sequence (first and last included); all if n >= len."""
    items = list(items)
    if n <= 0 or not items:
        return []
    if n >= len(items):
        return items
    if n == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def corpora_folder(value: str, repo: Path) -> Path:
    """The shared corpora folder as rules name it: an absolute `corpora_dir` as given, a relative one
    kept relative to the working directory (normally the repository root), so that no machine's
    absolute path reaches a command line or an artifact."""
    path = Path(value)
    if path.is_absolute():
        return path
    if Path.cwd().resolve() != Path(repo).resolve() and not path.exists():
        return Path(repo) / path  # a run in another folder (e.g. `--directory`) without the link
    return Path(os.path.normpath(value))


def resource_for(config: dict, rule_name: str, key: str):
    """A rule's threads / mem_mb / runtime: `resources.<rule>.<key>`, else `resources.default.<key>`."""
    table = config.get("resources", {})
    rule = table.get(rule_name) or {}
    if key in rule:
        return rule[key]
    return table.get("default", {})[key]


def determinism_resource(config: dict, producers: Sequence[str], key: str) -> int:
    """threads / mem_mb / runtime of a determinism job that re-runs one job of each rule in `producers`.

    The re-run happens inside the determinism job itself (on a cluster: inside its allocation), so
    it must be as large as what it re-runs: the most threads any of them asks for, and the sum of
    their memory and run times (they may run at once, and all must finish); never less than
    `resources.determinism`.
    """
    own = resource_for(config, "determinism", key)
    needs = [resource_for(config, rule, key) for rule in producers]
    if not needs:
        return own
    return max(own, max(needs) if key == "threads" else sum(needs))


# The config of the last run that executed jobs (written at its start, by `onstart`): what
# `snakemake --report` without a config reports.
LAST_RUN_CONFIG = Path("results/.config/effective.json")


def effective_config_path(config: dict) -> Path:
    """Where rule effective_config writes this config for the determinism re-runs: the name carries a
    hash of the config, so an edited config is a new file and a rerun never reads a stale one."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return Path("results/.config") / f"effective-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"


def record_last_run_config(config: dict) -> None:
    """At the start of a run (onstart): the config it uses, for a later `snakemake --report`."""
    from .canonical import write_json

    write_json(LAST_RUN_CONFIG, config)


def report_path(argv: Sequence[str]) -> Path | None:
    """The file `snakemake --report FILE` (or `--report=FILE`) will write, or None."""
    for i, a in enumerate(argv):
        if a.startswith("--report="):
            return Path(a.split("=", 1)[1])
        if a == "--report" and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            return Path(argv[i + 1])
    return None


def prepare_report_folder(argv: Sequence[str]) -> None:
    """`snakemake --report reports/report.html` writes into reports/: make the folder (only then)."""
    target = report_path(argv)
    if target is not None and target.suffix in (".html", ".zip"):
        target.parent.mkdir(parents=True, exist_ok=True)


def report_of_last_run(argv: Sequence[str], files: Sequence[str], overrides: dict) -> bool:
    """Is this `snakemake --report` with no config of its own, after a run that recorded its config?"""
    report = any(a == "--report" or a.startswith("--report=") for a in argv)
    return report and len(files) <= 1 and not overrides and LAST_RUN_CONFIG.is_file()


def last_run_config() -> dict:
    """The configuration the last run on disk used (results/.config/effective.json)."""
    return json.loads(LAST_RUN_CONFIG.read_text(encoding="utf-8"))


def json_param(obj) -> str:
    """JSON for a rule's params: `<`, `>` and `&` as \\u escapes, so that the text cannot end the
    <script> element in which Snakemake's report embeds a rule's params (same value once decoded)."""
    text = json.dumps(obj, sort_keys=True, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
