"""Matplotlib with fixed metadata and exact log axes, so SVG and PNG bytes are identical from run to run
and from machine to machine."""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from functools import lru_cache
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import scale as mscale  # noqa: E402

from .atomic import atomic_path  # noqa: E402

_DIGITS = 40  # decimal digits of the intermediate results: far beyond a double's 17


@lru_cache(maxsize=1 << 16)
def exact_log(x: float, base: float) -> float:
    """log_base(x) correctly rounded (in decimal arithmetic): numpy's log10 depends on the CPU (AVX-512 or not)
    by an ulp, which moved an SVG coordinate's sixth decimal between two machines."""
    with localcontext() as ctx:
        ctx.prec = _DIGITS
        d = Decimal(x)
        return float(d.log10() if base == 10 else d.ln() / Decimal(base).ln())


@lru_cache(maxsize=1 << 16)
def exact_power(y: float, base: float) -> float:
    """base**y correctly rounded (in decimal arithmetic), the inverse of `exact_log`."""
    with localcontext() as ctx:
        ctx.prec = _DIGITS
        return float(Decimal(base) ** Decimal(y))


def _elementwise(fn, values):
    arr = np.asanyarray(values, dtype=float)
    flat = np.ravel(np.ma.getdata(arr))
    out = np.fromiter((fn(float(v)) for v in flat), dtype=float, count=flat.size).reshape(arr.shape)
    if np.ma.isMaskedArray(arr):
        out = np.ma.array(out, mask=np.ma.getmaskarray(arr))
    return out


class ExactLogTransform(mscale.LogTransform):
    """Matplotlib's log transform with `exact_log` in place of numpy's."""

    def transform_non_affine(self, values):
        clip, base = self._clip, self.base

        def one(v: float) -> float:
            if math.isnan(v) or v == math.inf:
                return v
            if v <= 0:
                return -1000.0 if clip else (-math.inf if v == 0 else math.nan)
            return exact_log(v, base)

        return _elementwise(one, values)

    def inverted(self):
        return ExactInvertedLogTransform(self.base)


class ExactInvertedLogTransform(mscale.InvertedLogTransform):
    """Matplotlib's inverse log transform with `exact_power` in place of numpy's."""

    def transform_non_affine(self, values):
        base = self.base
        return _elementwise(lambda v: v if math.isnan(v) else exact_power(v, base), values)

    def inverted(self):
        return ExactLogTransform(self.base)


class ExactLogScale(mscale.LogScale):
    """The "log" scale of every project figure: matplotlib's, on the exact transforms."""

    name = "log"

    def __init__(self, *, base=10, subs=None, nonpositive="clip"):
        super().__init__(base=base, subs=subs, nonpositive=nonpositive)
        self._transform = ExactLogTransform(base, nonpositive)


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
    mscale.register_scale(ExactLogScale)
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
