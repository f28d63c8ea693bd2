"""Resume after a killed run: clear Snakemake's directory lock when the Snakemake holding it is gone.

A SIGKILLed Snakemake (closed terminal, OOM kill, lost node) leaves `.snakemake/locks/` behind and
every later run stops with "Directory cannot be locked". The workflow records which process holds
the lock (`record_owner`, from `onstart:`), and the next run's Snakefile removes the lock only when
that process no longer exists on this machine (`clear_stale_locks`). A lock held from another host,
or by a live process, is never touched.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

LOCK_DIR = Path(".snakemake") / "locks"
OWNER = LOCK_DIR / "puzzlelab-owner.json"  # Snakemake reads only N.input.lock / N.output.lock here


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _start_ticks(pid: int) -> str | None:
    """The process's start time (clock ticks since boot), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def record_owner(root: Path = Path(".")) -> None:
    """Note which process holds the lock (called once the run has locked the directory)."""
    owner = {"host": socket.gethostname(), "boot_id": _boot_id(), "pid": os.getpid(),
             "start": _start_ticks(os.getpid())}
    path = root / OWNER
    if path.parent.is_dir():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(owner) + "\n")
        os.replace(tmp, path)


def _ancestors() -> set[int]:
    pids, pid = set(), os.getpid()
    while pid > 1:
        pids.add(pid)
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def _live_snakemake_here(root: Path) -> bool:
    """Is another Snakemake (one that takes locks) running in this directory on this machine?"""
    here = root.resolve()
    mine = _ancestors()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            if not any(b"snakemake" in a for a in argv[:3]) or b"--nolock" in argv:
                continue
            if Path(os.readlink(entry / "cwd")).resolve() == here:
                return True
        except OSError:
            continue
    return False


def lock_is_stale(root: Path = Path(".")) -> bool | None:
    """True when the lock's holder is gone, False when it lives (or may), None when there is no lock."""
    locks = list((root / LOCK_DIR).glob("*.lock")) if (root / LOCK_DIR).is_dir() else []
    if not locks:
        return None
    try:
        owner = json.loads((root / OWNER).read_text())
    except (OSError, ValueError):
        owner = None
    if owner is None:  # killed between locking and onstart: ask the process table
        return not _live_snakemake_here(root)
    if owner.get("host") != socket.gethostname():
        return False  # held from another machine: we cannot see whether it lives
    if owner.get("boot_id") != _boot_id():
        return True
    return _start_ticks(int(owner.get("pid", -1))) != owner.get("start")


def clear_stale_locks(root: Path = Path("."), log=sys.stderr) -> bool:
    """Remove the lock left by a run that was killed; True when one was removed."""
    if not lock_is_stale(root):
        return False
    for p in (root / LOCK_DIR).glob("*.lock"):
        p.unlink(missing_ok=True)
    (root / OWNER).unlink(missing_ok=True)
    print("PuzzleLab: removed the lock of an interrupted run (its Snakemake is no longer running); resuming.",
          file=log)
    return True
