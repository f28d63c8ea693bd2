"""Playing a level move by move with identities kept: drawing, replaying, naming solution moves.

The search forgets which snake is which (docs/snakebird.md §7); here every canonical slot carries the head letter
of the level's snake (and every gadget slot its digit), so positions can be drawn as in the level
file and a solution found by the BFS can be written as `RU`, `GL`, ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..lab.errors import InputError
from .domain import Decoded, SnakebirdDomain
from .level import DIRECTIONS


@dataclass
class Position:
    """A decoded canonical state plus who is where: letters[slot], digits[slot]."""

    state: Decoded
    letters: list[str]
    digits: list[int]

    def packed(self, domain: SnakebirdDomain) -> np.ndarray:
        return domain.pack(self.state)


def start_position(domain: SnakebirdDomain) -> Position:
    st, perm_s, digits = domain.initial()
    letters = [domain.level.snake_letters[i] for i in perm_s]
    return Position(st, letters, [int(d) for d in digits])


def play(domain: SnakebirdDomain, pos: Position, slot: int, direction: int) -> Position | None:
    """The position after snake `slot` moves in `direction` (0..3 = U R D L), or None if impossible."""
    played = domain.play(pos.state, slot, direction)
    if played is None:
        return None
    child, perm_s, perm_g = played
    ng = len(domain.level.gadgets)
    return Position(child, [pos.letters[i] for i in perm_s], [pos.digits[i] for i in perm_g[:ng]])


def slot_of(pos: Position, letter: str) -> int | None:
    for slot, name in enumerate(pos.letters):
        if name == letter and pos.state.slen[slot] > 0:
            return slot
    return None


def is_won(pos: Position) -> bool:
    return bool((pos.state.slen == 0).all())


def draw(domain: SnakebirdDomain, pos: Position) -> str:
    """The position in the level-file alphabet (snakes with their letters, gadgets with digits)."""
    lv = domain.level
    w = lv.width
    grid = list(lv.terrain)
    grid[lv.exit] = "*"
    for a, b in lv.teleporters:
        grid[a] = grid[b] = "T"
    st = pos.state
    for f, cell in enumerate(lv.fruit):
        if st.fruit[f]:
            grid[cell] = "O"
    ng = len(lv.gadgets)
    for slot in range(ng):
        p = int(st.gpos[slot])
        if p:
            for j in range(int(domain.gad_n[slot])):
                grid[p + int(domain.gad_off[slot, j])] = str(pos.digits[slot])
    for slot in range(domain.nsnakes):
        n = int(st.slen[slot])
        for j in range(n - 1, 0, -1):
            c, nxt = int(st.cells[slot, j]), int(st.cells[slot, j - 1])
            grid[c] = {1: ">", -1: "<", -w: "^", w: "v"}[nxt - c]
        if n:
            grid[int(st.cells[slot, 0])] = pos.letters[slot]
    return "\n".join("".join(grid[r * w:(r + 1) * w]) for r in range(lv.height))


_MOVE = re.compile(r"^([A-Za-z])([URDLurdl])$")


def parse_moves(text: str, level_letters: list[str], where: str = "--moves") -> list[tuple[str, int]]:
    """`RU,RR,GL` (commas or spaces; or one string of pairs like `RURRGL`) -> [(letter, dir)]."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if len(tokens) == 1 and len(tokens[0]) > 2 and len(tokens[0]) % 2 == 0:
        tokens = [tokens[0][i:i + 2] for i in range(0, len(tokens[0]), 2)]
    moves = []
    for i, tok in enumerate(tokens, 1):
        m = _MOVE.match(tok)
        if not m:
            raise InputError(f"{where}: move {i} {tok!r} is not a snake letter followed by U, R, D or L")
        letter, d = m.group(1).upper(), DIRECTIONS.index(m.group(2).upper())
        if letter not in level_letters:
            raise InputError(f"{where}: move {i} {tok!r}: the level has no snake {letter} "
                             f"(its snakes: {', '.join(level_letters)})")
        moves.append((letter, d))
    return moves


def replay(domain: SnakebirdDomain, moves: list[tuple[str, int]]):
    """Play the moves from the start. Returns (positions, error): positions[0] is the start; error is
    None or a sentence about the first move that could not be played."""
    pos = start_position(domain)
    positions = [pos]
    for i, (letter, d) in enumerate(moves, 1):
        slot = slot_of(pos, letter)
        if slot is None:
            return positions, f"move {i} {letter}{DIRECTIONS[d]}: snake {letter} has already left the level"
        nxt = play(domain, pos, slot, d)
        if nxt is None:
            return positions, f"move {i} {letter}{DIRECTIONS[d]} is not possible in this position"
        pos = nxt
        positions.append(pos)
    return positions, None


def name_moves(domain: SnakebirdDomain, move_ids) -> tuple[list[str], Position]:
    """Turn the engine's move ids along a path from the start (`4 * canonical slot + direction`)
    into level moves such as `RU`; returns them and the final position."""
    pos = start_position(domain)
    out = []
    for i, m in enumerate(move_ids, 1):
        slot, d = int(m) // 4, int(m) % 4
        nxt = play(domain, pos, slot, d) if slot < domain.nsnakes else None
        if nxt is None:
            raise ValueError(f"step {i} of the path (move id {int(m)}) is not a legal move")
        out.append(pos.letters[slot] + DIRECTIONS[d])
        pos = nxt
    return out, pos
