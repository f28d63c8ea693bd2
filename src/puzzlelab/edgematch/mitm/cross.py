"""Cross bound: what the other half must still pay, given the seam colours this half has laid down.

While one half (A) is enumerated column by column, the seam colours of its finished columns are
known. The other half's row next to the seam (B's seam row) has to face them; relaxing piece
uniqueness, the least cost of that row is a dynamic programme along the columns:

- ``F[j][x]`` (built backwards, column by column, once per band): least cost of B's seam-row cells
  j..W-1 when the cell left of j shows colour x, with the seam still free;
- ``G_j(x)`` (carried forward by the walk): least cost of B's cells 0..j-1 facing A's seam colours,
  cell j-1 showing colour x on its right.

``min_x G_j(x) + F_j(x)`` is then a lower bound on B's cost plus the seam mismatches, admissible
because it counts only edges A's own tables do not (B's seam row, its fixed sides, the seam).
When B has one row this is B's whole relaxed cost; with more rows it is kept only when it beats
B's own relaxed minimum.

Piece counts sharpen it: the seam colours A has laid must be met by distinct pieces that A did not
use, so ``sum_c max(0, laid_c - available_c)`` seam edges mismatch whatever B does; that count plus
B's own relaxed minimum is a second bound, and the walk uses the larger of the two.

Both still leave the seam free in the columns A has not reached. The joint table closes that gap
where it fits in memory: the suffix bounds of a virtual half made of A's rows plus B's seam row,
read with G for B's cells under A's finished columns: ``min_x G_j(x) + joint[t, profile(x)]``.

Everything is expressed in A's frame: B is seen turned 180 degrees, so B's colours
(up, right, down, left) appear as (down, left, up, right) and B's column W-1-j is A's column j.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...lab.jit import allocating_kernel, inline_kernel, kernel
from .bounds import INF, mis, table_bytes

JOINT_LIMIT = 256 << 20  # largest joint table built (bytes)


class CrossArrays(NamedTuple):
    """The walk's view of a `Cross` (read-only kernel input)."""

    on: bool
    ptr: np.ndarray
    left: np.ndarray
    right: np.ndarray
    up: np.ndarray
    static: np.ndarray
    F: np.ndarray
    other_min: int
    shows: np.ndarray
    avail: np.ndarray
    joint_on: bool
    joint: np.ndarray
    unit: int
    lam: np.ndarray
    hcost: np.ndarray
    order: np.ndarray  # piece bits by decreasing price


@dataclass
class Cross:
    """B's seam row in A's frame: candidates per A-column and the suffix table F."""

    on: bool
    ptr: np.ndarray  # (W+1,) int64
    left: np.ndarray  # colours in A's frame
    right: np.ndarray
    up: np.ndarray  # the side facing the seam
    static: np.ndarray  # B's fixed-neighbour costs of the candidate
    F: np.ndarray  # (W+1, C) int32
    other_min: int  # B's own relaxed minimum (seam free)
    shows: np.ndarray  # (bits, 4) colours each piece can turn towards the seam from B's seam row (-1 pad)
    avail: np.ndarray  # (C,) int32: how many pieces can show each colour there (grey: 0, never matches)
    joint_on: bool = False
    joint: np.ndarray | None = None  # suffix table of A's rows plus B's seam row, in price units
    unit: int = 1  # a mismatch in the joint table's units
    lam: np.ndarray | None = None  # piece prices (per bit) inside the joint table (`lagrange`)
    hcost: np.ndarray | None = None  # B's seam-row candidate costs in the joint table's units
    lam_order: np.ndarray | None = None  # piece bits by decreasing price
    bound: int = 0  # the joint table's bound for the empty band, in mismatches

    def arrays(self) -> CrossArrays:
        """The kernel's view (absent tables as 1-element placeholders)."""
        joint = self.joint if self.joint is not None else np.zeros((1, 1), np.int64)
        lam = self.lam if self.lam is not None else np.zeros(1, np.int64)
        hcost = self.hcost if self.hcost is not None else np.zeros(1, np.int64)
        order = self.lam_order if self.lam_order is not None else np.zeros(1, np.int64)
        return CrossArrays(self.on, self.ptr, self.left, self.right, self.up, self.static, self.F, self.other_min,
                           self.shows, self.avail, self.joint_on, joint, self.unit, lam, hcost, order)

    @property
    def nbytes(self) -> int:
        return 0 if self.joint is None else int(self.joint.nbytes)


@allocating_kernel
def suffix_table(width, ncol, ptr, left, right, static):
    """F[j][x]: least cost of B's seam-row cells j..W-1 (seam free) when the cell left of j shows x."""
    F = np.zeros((width + 1, ncol), np.int32)
    best_l = np.empty(ncol, np.int32)
    for j in range(width - 1, -1, -1):
        m_all = INF
        for x in range(ncol):
            best_l[x] = INF
        for q in range(ptr[j], ptr[j + 1]):
            v = np.int32(static[q]) + F[j + 1, right[q]]
            if v > INF:
                v = INF
            if v < m_all:
                m_all = v
            if v < best_l[left[q]]:
                best_l[left[q]] = v
        for x in range(ncol):
            if j == 0:
                F[j, x] = m_all  # the left side is fixed: counted in `static`
            else:
                v = m_all + 1
                if x != 0 and best_l[x] < v:
                    v = best_l[x]
                F[j, x] = v if v < INF else INF
    return F


def joint_arrays(a, b) -> dict:
    """Candidates of a virtual half: A's rows plus B's seam row below them, in A's frame.

    Its seam is an inner edge, so its bound table sees the seam mismatches of the columns still to
    come, which the two halves' own tables (seam free) cannot.
    """
    vptr = [0]
    cols = {k: [] for k in ("u", "r", "d", "l", "static", "bit")}
    for j in range(a.width):
        for i in range(a.rows):
            t = j * a.rows + i
            lo, hi = int(a.cand_ptr[t]), int(a.cand_ptr[t + 1])
            cols["u"] += a.cand_u[lo:hi].tolist()
            cols["r"] += a.cand_r[lo:hi].tolist()
            cols["d"] += a.cand_d[lo:hi].tolist()
            cols["l"] += a.cand_l[lo:hi].tolist()
            cols["static"] += a.static[lo:hi].tolist()
            cols["bit"] += a.cand_bit[lo:hi].tolist()
            vptr.append(len(cols["u"]))
        tb = (a.width - 1 - j) * b.rows + b.rows - 1  # B's seam-row cell under A's column j
        lo, hi = int(b.cand_ptr[tb]), int(b.cand_ptr[tb + 1])
        cols["u"] += b.cand_d[lo:hi].tolist()  # B turned 180 degrees: its seam side faces up
        cols["r"] += b.cand_l[lo:hi].tolist()
        cols["d"] += [0] * (hi - lo)  # its far side is fixed (in `static`) or left free
        cols["l"] += b.cand_r[lo:hi].tolist()
        cols["static"] += b.static[lo:hi].tolist()
        cols["bit"] += b.cand_bit[lo:hi].tolist()
        vptr.append(len(cols["u"]))
    out = {k: np.array(v, np.int64) for k, v in cols.items()}
    out["ptr"] = np.array(vptr, np.int64)
    out["rows"] = a.rows + 1
    out["width"] = a.width
    return out


def joint_fits(a, b, ncol: int, limit: int = JOINT_LIMIT) -> bool:
    """Whether the joint table of half `a` against `b` is small enough to build."""
    return b is not None and b.n > 0 and 8 * table_bytes(a.rows + 1, a.width, ncol) <= limit


def build_cross(a, b, b_min: int, ncol: int, nbits: int, upper: int | None = None) -> Cross:
    """The cross bound of half `a` against the other half `b` (None-safe: off when b is absent).

    The joint table is built when it fits (`joint_fits`), with piece prices fitted for it
    (`lagrange`) when `upper`, the cost of a known completion, is given.
    """
    width = a.width
    if b is None or b.n == 0:
        z = np.zeros(1, np.int64)
        return Cross(False, np.zeros(width + 1, np.int64), z, z, z, np.zeros(1, np.uint8),
                     np.zeros((width + 1, max(ncol, 1)), np.int32), 0, np.full((1, 4), -1, np.int64),
                     np.zeros(max(ncol, 1), np.int32))
    ptr = [0]
    left, right, up, static = [], [], [], []
    for j in range(width):
        tb = (width - 1 - j) * b.rows + b.rows - 1  # B's seam-row cell under A's column j
        lo, hi = int(b.cand_ptr[tb]), int(b.cand_ptr[tb + 1])
        left += b.cand_r[lo:hi].tolist()
        right += b.cand_l[lo:hi].tolist()
        up += b.cand_d[lo:hi].tolist()
        static += b.static[lo:hi].tolist()
        ptr.append(len(left))
    ptr = np.array(ptr, np.int64)
    left = np.array(left, np.int64)
    right = np.array(right, np.int64)
    up = np.array(up, np.int64)
    static = np.array(static, np.uint8)
    F = suffix_table(width, ncol, ptr, left, right, static)
    # piece by piece, the colours it can turn towards the seam from any cell of B's seam row
    nbits = max(nbits, int(max(a.cand_bit.max(initial=-1), b.cand_bit.max(initial=-1))) + 1)
    colours: list[set] = [set() for _ in range(nbits)]
    for j in range(width):
        tb = (width - 1 - j) * b.rows + b.rows - 1
        for q in range(int(b.cand_ptr[tb]), int(b.cand_ptr[tb + 1])):
            if b.cand_d[q] != 0:
                colours[int(b.cand_bit[q])].add(int(b.cand_d[q]))
    shows = np.full((max(nbits, 1), 4), -1, np.int64)
    avail = np.zeros(ncol, np.int32)
    for bit, cs in enumerate(colours):
        for k, c in enumerate(sorted(cs)):
            shows[bit, k] = c
            avail[c] += 1
    joint = hcost = lam = order = None
    unit, bound = 1, 0
    if joint_fits(a, b, ncol):
        from .lagrange import UNIT, fill, optimise, scaled_costs, top_sum

        v = joint_arrays(a, b)
        if upper is None:
            lam = np.zeros(max(nbits, 1), np.int64)
        else:
            lam, _ = optimise(v, ncol, max(nbits, 1), upper)
            unit = UNIT
        joint = fill(v, ncol, scaled_costs(v["static"], v["bit"], lam, unit), unit)
        order = np.lexsort((np.arange(len(lam)), -lam)).astype(np.int64)
        top, _ = top_sum(lam, v["rows"] * v["width"])
        bound = max(0, -(-(int(joint[0, 0]) - top) // unit))
        bits = []
        for j in range(width):
            tb = (width - 1 - j) * b.rows + b.rows - 1
            bits += b.cand_bit[int(b.cand_ptr[tb]):int(b.cand_ptr[tb + 1])].tolist()
        hcost = scaled_costs(static, np.array(bits, np.int64), lam, unit)
    return Cross(True, ptr, left, right, up, static, F, int(b_min), shows, avail, joint is not None, joint,
                 unit, lam, hcost, order, bound)


@kernel
def column_value(j, ncol, Gj, F):
    """min_x G_j(x) + F_j(x): B's least cost before A's column j has a seam colour (j = 0: F_0)."""
    if j == 0:
        return F[0, 0]
    best = INF * 4
    for x in range(ncol):
        v = Gj[x] + F[j, x]
        if v < best:
            best = v
    return best


@inline_kernel
def _any_left(ncol, Gj, big, unit):
    """min_z G_j(z) + unit: B's cost of column j's left edge when it mismatches its neighbour."""
    m = big
    for z in range(ncol):
        if Gj[z] < m:
            m = Gj[z]
    return m + unit


@inline_kernel
def _left(Gj, y, any_left):
    """min_z mis(y, z) + G_j(z): the left neighbour's own entry when it matches colour y, else any_left."""
    if y != 0 and Gj[y] < any_left:
        return Gj[y]
    return any_left


@kernel
def seam_values(j, width, ncol, Gj, F, ptr, left, right, up, static, out):
    """out[s]: B's least cost once A's column j lays seam colour s (all s at once)."""
    hmin = _any_left(ncol, Gj, INF * 4, 1)
    m_all = INF * 4
    for s in range(ncol):
        out[s] = INF * 4
    for q in range(ptr[j], ptr[j + 1]):
        w = np.int32(static[q]) + F[j + 1, right[q]]
        if j > 0:
            w += _left(Gj, left[q], hmin)
        if w < m_all:
            m_all = w
        if up[q] != 0 and w < out[up[q]]:
            out[up[q]] = w
    for s in range(ncol):
        v = m_all + 1
        if s != 0 and out[s] < v:
            v = out[s]
        out[s] = v


@kernel
def advance_g(j, ncol, Gj, s, ptr, left, right, up, cost, unit, big, Gnext):
    """G_{j+1} from G_j once A's column j lays seam colour s (a mismatch costs `unit`)."""
    hmin = _any_left(ncol, Gj, big, unit)
    for x in range(ncol):
        Gnext[x] = big
    for q in range(ptr[j], ptr[j + 1]):
        w = np.int64(cost[q]) + mis(up[q], s) * unit
        if j > 0:
            w += _left(Gj, left[q], hmin)
        if w < Gnext[right[q]]:
            Gnext[right[q]] = w


__all__ = ["Cross", "CrossArrays", "build_cross", "joint_arrays", "joint_fits", "suffix_table", "column_value",
           "seam_values", "advance_g"]
