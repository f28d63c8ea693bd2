"""sha256 of artifacts, streamed so large files never sit in memory."""

from __future__ import annotations

import hashlib
from pathlib import Path


def sha256_file(path: str | Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def sha256_tree(path: str | Path) -> dict[str, str]:
    """Hash a file, or every file under a directory (relative path -> sha256), in sorted order."""
    root = Path(path)
    if root.is_file():
        return {root.name: sha256_file(root)}
    return {str(p.relative_to(root)): sha256_file(p) for p in sorted(root.rglob("*")) if p.is_file()}
