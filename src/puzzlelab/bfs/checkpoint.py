"""Resumable searches: the state of a BFS between two depths, kept on disk so that a killed run goes on.

A checkpoint is a folder `depth-NNNNNN/` under the checkpoint directory holding every live store
(its encoded blocks, block table and first keys) and `index.json`, written last, with the search's
counters and the memory account. A store already in a file (spilled, or in the previous
checkpoint) is hard-linked rather than copied, so a checkpoint costs little more than the stores
still in memory. Resuming rebuilds the stores with the same residency (in memory or in a file) and
the same memory account, so the run spills, and reports, exactly what an uninterrupted run does.
A checkpoint is only used by the same search: its fingerprint covers the domain, the options that
shape the stores and the format version.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np

from puzzlelab.lab import canonical
from puzzlelab.lab.atomic import atomic_write
from puzzlelab.lab.errors import InputError

from .storage import MemoryBudget, RecordStore

FORMAT = 1
INDEX = "index.json"
PREFIX = "depth-"


def fingerprint(domain, plan, codec: str, zstd_level: int, order: str, budget: int, keep_layers: bool,
                extra: str | None) -> str:
    """What a checkpoint must agree on with the search that resumes it."""
    start = np.ascontiguousarray(domain.start, dtype=np.uint8)
    ident = {"format": FORMAT, "domain": domain.name, "width": int(domain.width), "start": start.tobytes().hex(),
             "codec": codec, "zstd_level": zstd_level, "order": order, "budget": budget,
             "keep_layers": keep_layers, "chunk": plan.chunk, "frontier": plan.frontier,
             "move_tags": plan.move_tags, "prefetch": plan.prefetch, "tail": plan.tail_in_memory,
             "extra": extra or ""}
    return hashlib.sha256(canonical.dumps(ident).encode()).hexdigest()


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system, or links not allowed
        shutil.copyfile(src, dst)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Checkpointer:
    """Saves the search every `every_s` seconds (at the end of a depth) and finds the last save."""

    def __init__(self, directory: str | os.PathLike, key: str, every_s: float, progress=None):
        self.dir = Path(directory)
        if every_s <= 0:
            raise InputError(f"the checkpoint interval must be > 0 seconds, got {every_s:g}")
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise InputError(f"cannot use --checkpoint: {err.strerror}", self.dir) from None
        if not os.access(self.dir, os.W_OK):
            raise InputError("cannot use --checkpoint: not a writable folder", self.dir)
        self.key = key
        self.every_s = float(every_s)
        self.last = time.monotonic()
        self.say = progress or (lambda text: None)
        self.saved: Path | None = None  # the newest complete checkpoint
        self.saved_index: dict | None = None

    # -- finding -------------------------------------------------------------------------------
    @staticmethod
    def _index(folder: Path) -> dict | None:
        """A checkpoint folder's index (None: absent or unreadable, i.e. not a complete save)."""
        try:
            index = json.loads((folder / INDEX).read_text())
        except (OSError, ValueError):
            return None
        return index if isinstance(index, dict) else None

    def latest(self) -> tuple[Path, dict] | None:
        """The newest complete checkpoint of this search, or None (another search's is reported and ignored)."""
        for folder in sorted(self.dir.glob(PREFIX + "*"), reverse=True):
            index = self._index(folder)
            if index is None:
                continue
            if index.get("key") != self.key:
                self.say(f"checkpoint {folder} belongs to another search (other level or options); starting afresh")
                return None
            self.saved, self.saved_index = folder, index
            return folder, index
        return None

    def due(self) -> bool:
        return time.monotonic() - self.last >= self.every_s

    # -- saving --------------------------------------------------------------------------------
    def save(self, mem: MemoryBudget, state: dict) -> None:
        """Write the stores of `mem` and the search's `state` (JSON-able, store roles by name) as one checkpoint."""
        depth = int(state["depth"])
        folder = self.dir / f"{PREFIX}{depth:06d}"
        tmp = self.dir / f".{PREFIX}{depth:06d}.partial"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        old = {s["name"]: s for s in (self.saved_index or {}).get("stores", [])}
        stores = [self._save_store(tmp, store, old.get(store.name)) for store in mem.stores]
        index = {"key": self.key, "format": FORMAT, "stores": stores,
                 "budget": {"store_bytes": mem.store_bytes, "peak": mem.peak, "spilled_bytes": mem.spilled_bytes,
                            "spill_files": mem.spill_files},
                 **state}
        atomic_write(tmp / INDEX, canonical.dumps(index, indent=1))
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(tmp, folder)
        for other in self.dir.glob(PREFIX + "*"):
            if other != folder:
                shutil.rmtree(other, ignore_errors=True)
        self.saved, self.saved_index = folder, index
        self.last = time.monotonic()

    def _save_store(self, folder: Path, store: RecordStore, old: dict | None) -> dict:
        if any(b[1] is None and b[3] < 0 for b in store.blocks):
            raise RuntimeError(f"{store.name}: a store with dropped blocks cannot be saved")
        entry = {"name": store.name, "tagged": store.tagged, "pack_tags": store.pack_tags, "count": store.count,
                 "rows_bytes": store.rows_bytes, "tag_bytes": store.tag_bytes, "resident": store.fd is None,
                 "blocks": len(store.blocks), "keys": len(store.first_keys) == len(store.blocks)}
        data, table, keys = (folder / f"{store.name}.{ext}" for ext in ("blk", "blocks.npy", "keys.npy"))
        if old is not None and old["blocks"] == entry["blocks"] and old["count"] == entry["count"]:
            for f in (data, table, keys):  # a finished store does not change: the last checkpoint's files
                src = self.saved / f.name
                if src.exists():
                    _link_or_copy(src, f)
            return entry
        rows = np.zeros((len(store.blocks), 4), dtype=np.int64)
        if store.fd is not None:  # already a file: the spill file as it is
            _link_or_copy(store.path, data)
            for i, (n, _rp, _tp, offset, rl, tl) in enumerate(store.blocks):
                rows[i] = (n, offset, rl, tl)
        else:
            with open(data, "wb") as fh:
                offset = 0
                for i, (n, rows_p, tags_p, _off, rl, tl) in enumerate(store.blocks):
                    fh.write(rows_p)
                    if tags_p is not None:
                        fh.write(tags_p)
                    rows[i] = (n, offset, rl, tl)
                    offset += rl + tl
        _fsync(data)
        np.save(table, rows)
        if entry["keys"] and store.first_keys:
            np.save(keys, np.array(store.first_keys, dtype=np.uint64))
        return entry

    # -- loading -------------------------------------------------------------------------------
    def load_stores(self, folder: Path, index: dict, mem: MemoryBudget, width: int, codec) -> dict[str, RecordStore]:
        """Rebuild every saved store in `mem` (same order, same residency, same memory account)."""
        out = {}
        for entry in index["stores"]:
            name = entry["name"]
            store = RecordStore(mem, name, width, codec, tagged=entry["tagged"], pack_tags=entry["pack_tags"])
            table = np.load(folder / f"{name}.blocks.npy") if entry["blocks"] else np.zeros((0, 4), np.int64)
            data = folder / f"{name}.blk"
            if entry["resident"]:
                with open(data, "rb") as fh:
                    for n, offset, rl, tl in table.tolist():
                        fh.seek(offset)
                        rows_p = fh.read(rl)
                        tags_p = fh.read(tl) if entry["tagged"] else None
                        store.blocks.append([n, rows_p, tags_p, -1, rl, tl])
                        store.mem_bytes += rl + tl
                mem.store_bytes += store.mem_bytes
            else:
                store.path = mem.new_file(name)
                _link_or_copy(data, store.path)
                store.fd = os.open(store.path, os.O_RDWR)
                store.file_size = os.path.getsize(store.path)
                store.blocks = [[n, None, None, offset, rl, tl] for n, offset, rl, tl in table.tolist()]
            if entry["keys"] and entry["blocks"]:
                store.first_keys = [tuple(int(w) for w in k) for k in np.load(folder / f"{name}.keys.npy").tolist()]
            store.count, store.rows_bytes, store.tag_bytes = entry["count"], entry["rows_bytes"], entry["tag_bytes"]
            out[name] = store
        b = index["budget"]
        if mem.store_bytes != b["store_bytes"]:
            raise RuntimeError(f"checkpoint {folder}: {mem.store_bytes} bytes in memory, {b['store_bytes']} saved")
        mem.peak, mem.spilled_bytes, mem.spill_files = b["peak"], b["spilled_bytes"], b["spill_files"]
        return out

    def remove(self) -> None:
        """The search ended: its checkpoints are no longer needed (the folder goes too when nothing else
        is in it). Another search's save stays until this one replaces it with a save of its own."""
        for folder in self.dir.glob(PREFIX + "*"):
            if (self._index(folder) or {}).get("key") == self.key:
                shutil.rmtree(folder, ignore_errors=True)
        for folder in self.dir.glob(f".{PREFIX}*.partial"):
            shutil.rmtree(folder, ignore_errors=True)
        with contextlib.suppress(OSError):
            self.dir.rmdir()
