"""Matplotlib with fixed metadata, so SVG and PNG bytes are identical from run to run."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from .atomic import atomic_path  # noqa: E402

_CONFIGURED = False


def configure() -> None:
    """Deterministic rendering settings (called by `figure`)."""
    global _CONFIGURED
    if _CONFIGURED:
        return
    matplotlib.rcParams.update(
        {
            "svg.hashsalt": "puzzlelab",
            "svg.fonttype": "path",
            "figure.dpi": 100,
            "savefig.dpi": 100,
            "figure.autolayout": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "font.size": 10,
        }
    )
    _CONFIGURED = True


def figure(width: float = 7.0, height: float = 4.5, **kwargs):
    """A new (fig, ax) pair with the project's settings."""
    configure()
    return plt.subplots(figsize=(width, height), **kwargs)


def metadata_for(suffix: str) -> dict:
    suffix = suffix.lower().lstrip(".")
    if suffix == "svg":
        return {"Date": None, "Creator": None}
    if suffix == "png":
        return {"Software": None}
    if suffix == "pdf":
        return {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
    return {}


def save(fig, path: str | Path) -> None:
    """Save a figure atomically with fixed metadata, then close it."""
    configure()
    path = Path(path)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lstrip(".").lower(), metadata=metadata_for(path.suffix),
                    bbox_inches="tight")
    plt.close(fig)
