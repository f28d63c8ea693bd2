"""Snakebird level files: parse the text map (docs/snakebird.md §2, §10) into a Level.

A level is `; key: value` metadata lines followed by the map, one row per line. Objects (snakes,
fruit, gadgets) are lifted off the map; what stays is the fixed terrain. Every malformed level is
rejected with `PATH:LINE: reason` (an InputError), never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..lab.errors import InputError, quote
from ..lab.textio import read_text

# Map symbols (§10).
WALL, WATER, SPIKES, EMPTY = ".", "~", "#", " "
FRUIT, EXIT, TELEPORTER = "O", "*", "T"
HEADS = "RGB"
ARROWS = "><^v"
TERRAIN = {WALL, WATER, SPIKES, EMPTY}
KNOWN = TERRAIN | {FRUIT, EXIT, TELEPORTER} | set(HEADS) | set(ARROWS) | set("0123456789")

MAX_GADGET_CELLS = 8
MAX_SNAKE_LEN = 33  # 2*(len-1) shape bits must fit one 64-bit word
MAX_STATE_BITS = 128  # the kernels pack a state in two 64-bit words
DIRECTIONS = "URDL"


def bit_length(n: int) -> int:
    return int(n).bit_length()


@dataclass
class Level:
    """A parsed level: terrain, the objects' starting places, and the packed-state layout."""

    path: str
    name: str
    height: int
    width: int
    terrain: list[str]  # H*W characters: '.', '~', '#' or ' '
    exit: int
    fruit: list[int]  # cell of each fruit, reading order
    teleporters: list[tuple[int, int]]  # (half A, half B) per pair
    snakes: list[list[int]]  # cells, head first, in reading order of the heads
    snake_letters: list[str]
    gadgets: list[list[int]]  # cells (row-major) of gadget 0, 1, ...
    snake_max_len: int
    meta: dict[str, str] = field(default_factory=dict)
    expected_moves: int | None = None
    map_line: int = 1  # file line of the first map row

    # --- derived sizes (§8) ---
    @property
    def cells(self) -> int:
        return self.height * self.width

    @property
    def index_bits(self) -> int:
        return bit_length(self.cells)

    @property
    def len_bits(self) -> int:
        return bit_length(self.snake_max_len)

    @property
    def snake_bits(self) -> int:
        return 2 * (self.snake_max_len - 1) + self.index_bits + self.len_bits

    @property
    def state_bits(self) -> int:
        return len(self.snakes) * self.snake_bits + len(self.fruit) + len(self.gadgets) * self.index_bits

    @property
    def state_bytes(self) -> int:
        return (self.state_bits + 7) // 8

    def gadget_shape(self, g: int) -> tuple[int, ...]:
        cells = self.gadgets[g]
        return tuple(c - cells[0] for c in cells)

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.width)

    def summary(self) -> dict:
        return {
            "level": self.name,
            "height": self.height,
            "width": self.width,
            "snakes": len(self.snakes),
            "snake_lengths": [len(s) for s in self.snakes],
            "fruit": len(self.fruit),
            "gadgets": len(self.gadgets),
            "gadget_cells": [len(g) for g in self.gadgets],
            "teleporter_pairs": len(self.teleporters),
            "snake_max_len": self.snake_max_len,
            "state_bits": self.state_bits,
            "state_bytes": self.state_bytes,
        }


def _int_meta(meta: dict, key: str, path, lines: dict, minimum: int) -> int | None:
    if key not in meta:
        return None
    text = meta[key].strip()
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"metadata '{key}' must be an integer, got {text!r}", path, lines[key]) from None
    if value < minimum:
        raise InputError(f"metadata '{key}' must be at least {minimum}, got {value}", path, lines[key])
    return value


def parse_level(text: str, path: str | Path = "<level>", name: str | None = None) -> Level:
    """Parse a level's text; `path` is used in error messages and for the default name."""
    path = str(path)
    raw = text.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    raw = [r[:-1] if r.endswith("\r") else r for r in raw]
    meta: dict[str, str] = {}
    meta_lines: dict[str, int] = {}
    i = 0
    while i < len(raw) and raw[i].startswith(";"):
        body = raw[i][1:].strip()
        if body:
            if ":" not in body:
                raise InputError(f"metadata line must be '; key: value', got {quote(raw[i])}", path, i + 1)
            key, value = body.split(":", 1)
            key = key.strip()
            if key in meta:
                raise InputError(f"metadata '{key}' is given twice", path, i + 1)
            meta[key] = value.strip()
            meta_lines[key] = i + 1
        i += 1
    if "unreadable" in meta:  # an instance file the parse step wrote for a level it could not read
        raise InputError(f"the parse step could not read this level: {meta['unreadable']}", path,
                         meta_lines["unreadable"])
    first = i
    rows = raw[first:]
    while rows and rows[-1].strip() == "":
        rows.pop()
    if not rows:
        raise InputError("the level has no map rows", path, first + 1)
    line_of = lambda r: first + 1 + r  # noqa: E731  (file line of map row r)
    height, width = len(rows), len(rows[0])
    if width < 3 or height < 3:
        raise InputError(f"the map is {height}x{width}; a closed map needs at least 3 rows and 3 columns", path,
                         line_of(0))
    for r, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"ragged map: row {r} is {len(row)} characters wide, row 0 is {width}"
                             " (trailing spaces are part of the map)", path, line_of(r))
        for c, ch in enumerate(row):
            if ch not in KNOWN:
                raise InputError(f"unknown map symbol {ch!r} at column {c}", path, line_of(r))

    grid = "".join(rows)
    n = height * width
    for r in range(height):
        for c in range(width):
            if r in (0, height - 1) or c in (0, width - 1):
                ch = rows[r][c]
                if ch not in (WALL, WATER, SPIKES):
                    raise InputError(f"the map border is open: {ch!r} at row {r}, column {c}"
                                     " (every edge cell must be '.', '~' or '#')", path, line_of(r))

    exits = [i for i, ch in enumerate(grid) if ch == EXIT]
    if not exits:
        raise InputError("the level has no exit '*'", path, line_of(0))
    if len(exits) > 1:
        raise InputError(f"the level has {len(exits)} exits '*'; exactly one is allowed", path,
                         line_of(exits[1] // width))

    tele = [i for i, ch in enumerate(grid) if ch == TELEPORTER]
    if len(tele) not in (0, 2):
        raise InputError(f"the level has {len(tele)} teleporter cells 'T'; only one pair (two cells) is supported",
                         path, line_of(tele[-1] // width))
    teleporters = [(tele[0], tele[1])] if tele else []

    fruit = [i for i, ch in enumerate(grid) if ch == FRUIT]

    # Snakes: rebuild each from its head (§2: left '>', right '<', up 'v', down '^').
    owner = [-1] * n
    snakes: list[list[int]] = []
    letters: list[str] = []
    for head, ch in enumerate(grid):
        if ch not in HEADS:
            continue
        k = len(snakes)
        body = [head]
        owner[head] = k
        cur = head
        while True:
            r, c = divmod(cur, width)
            nxt = -1
            if c > 0 and grid[cur - 1] == ">":
                nxt = cur - 1
            elif c < width - 1 and grid[cur + 1] == "<":
                nxt = cur + 1
            elif r > 0 and grid[cur - width] == "v":
                nxt = cur - width
            elif r < height - 1 and grid[cur + width] == "^":
                nxt = cur + width
            if nxt < 0:
                break
            if owner[nxt] >= 0:
                who = "itself" if owner[nxt] == k else f"the snake with head {letters[owner[nxt]]}"
                raise InputError(f"snake {ch} at row {head // width}, column {head % width} cannot be rebuilt: "
                                 f"its segment at row {nxt // width}, column {nxt % width} already belongs to {who}",
                                 path, line_of(nxt // width))
            owner[nxt] = k
            body.append(nxt)
            cur = nxt
        if ch in letters:
            raise InputError(f"snake head {ch} appears twice (at row {head // width}, column {head % width}); "
                             "each of R, G and B names one snake", path, line_of(head // width))
        if len(body) < 2:
            raise InputError(f"snake {ch} at row {head // width}, column {head % width} is a head alone; a snake "
                             "has at least two cells (§2): an arrow next to the head, pointing at it, starts its body",
                             path, line_of(head // width))
        snakes.append(body)
        letters.append(ch)
    for i, ch in enumerate(grid):
        if ch in ARROWS and owner[i] < 0:
            raise InputError(f"snake segment {ch!r} at row {i // width}, column {i % width} cannot be reached from "
                             "any head (R, G or B); a snake cannot be rebuilt", path, line_of(i // width))
    if not snakes:
        raise InputError("the level has no snake (a head R, G or B)", path, line_of(0))

    # Gadgets: all cells with the same digit form one rigid object; digits run 0..G-1.
    digit_cells: dict[int, list[int]] = {}
    for i, ch in enumerate(grid):
        if ch.isdigit():
            digit_cells.setdefault(int(ch), []).append(i)
    gadgets = []
    for d in range(10):
        if d in digit_cells:
            if d != len(gadgets):
                cell = digit_cells[d][0]
                raise InputError(f"gadget digits must run 0, 1, 2, ... without gaps: digit {d} is used but "
                                 f"{len(gadgets)} is not", path, line_of(cell // width))
            if len(digit_cells[d]) > MAX_GADGET_CELLS:
                cell = digit_cells[d][MAX_GADGET_CELLS]
                raise InputError(f"gadget {d} has {len(digit_cells[d])} cells; at most {MAX_GADGET_CELLS} are "
                                 "supported", path, line_of(cell // width))
            gadgets.append(digit_cells[d])

    terrain = [ch if ch in TERRAIN else EMPTY for ch in grid]

    need = max(len(s) for s in snakes) + len(fruit)
    sml = _int_meta(meta, "snake_max_len", path, meta_lines, 1)
    if sml is None:
        sml = need
    elif sml < need:
        raise InputError(f"snake_max_len {sml} is too small: the longest snake ({max(len(s) for s in snakes)}) "
                         f"plus the fruit ({len(fruit)}) need {need}", path, meta_lines["snake_max_len"])
    if sml > MAX_SNAKE_LEN:
        raise InputError(f"snakes may grow to {sml} cells; at most {MAX_SNAKE_LEN} are supported", path,
                         meta_lines.get("snake_max_len", line_of(0)))
    moves = _int_meta(meta, "moves", path, meta_lines, 0)
    level_name = name or meta.get("name") or Path(path).stem
    level = Level(path=path, name=level_name, height=height, width=width, terrain=terrain, exit=exits[0],
                  fruit=fruit, teleporters=teleporters, snakes=snakes, snake_letters=letters, gadgets=gadgets,
                  snake_max_len=sml, meta=meta, expected_moves=moves, map_line=first + 1)
    if level.state_bits > MAX_STATE_BITS:
        raise InputError(f"a packed state of this level needs {level.state_bits} bits (docs/snakebird.md §8); "
                         f"at most {MAX_STATE_BITS} are supported", path, line_of(0))
    return level


def load_level(path: str | Path) -> Level:
    """Read and parse a level file (a missing, unreadable, binary or non-UTF-8 file is a located InputError)."""
    return parse_level(read_text(path, what="level file"), path=str(path))


def level_arrays(level: Level) -> dict[str, np.ndarray]:
    """The constant arrays the numba kernels take (terrain codes, fruit map, gadget shapes...)."""
    n = level.cells
    terrain = np.frombuffer("".join(level.terrain).encode("ascii"), dtype=np.uint8).copy()
    fruit_at = np.full(n, -1, dtype=np.int16)
    for f, cell in enumerate(level.fruit):
        fruit_at[cell] = f
    ng = len(level.gadgets)
    # Gadget slots are ordered by shape, so interchangeable gadgets sit next to each other (§7).
    order = sorted(range(ng), key=lambda g: (level.gadget_shape(g), g))
    gad_off = np.zeros((max(ng, 1), MAX_GADGET_CELLS), dtype=np.int32)
    gad_n = np.zeros(max(ng, 1), dtype=np.int32)
    gad_class = np.zeros(max(ng, 1), dtype=np.int32)
    cls = -1
    prev = None
    for slot, g in enumerate(order):
        shape = level.gadget_shape(g)
        if shape != prev:
            cls += 1
            prev = shape
        gad_n[slot] = len(shape)
        gad_off[slot, : len(shape)] = shape
        gad_class[slot] = cls
    tele = np.zeros((max(len(level.teleporters), 1), 2), dtype=np.int32)
    for p, (a, b) in enumerate(level.teleporters):
        tele[p] = (a, b)
    params = np.array([
        level.height, level.width, len(level.snakes), len(level.fruit), ng, level.snake_max_len,
        level.index_bits, level.len_bits, level.exit, len(level.teleporters), level.state_bytes,
    ], dtype=np.int64)
    return {"terrain": terrain, "fruit_at": fruit_at, "gad_off": gad_off, "gad_n": gad_n, "gad_class": gad_class,
            "tele": tele, "params": params, "gadget_order": np.array(order, dtype=np.int32)}
