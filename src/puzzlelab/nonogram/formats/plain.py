"""The plain black-and-white formats: a size line (or none) and one clue line per row/column.

- `.nin` (Jakub Wilk): `W H`, then H row lines, then W column lines.
- `.mk` (Mirek Olšák): `H W`, then the row lines, a line `#`, then the column lines.
- Keen (Kyle Keen's solver, version 2; `.txt`): row lines, one blank line, column lines.
- 25x25 tournament (TAAI/ICGA/TCGA, `.txt`): many puzzles, each `$N`, then N column lines and
  N row lines (tab separated; an empty line is an empty clue); `file#N` picks one. A sibling
  `solution/` file gives the goals.
In all of them a line `0` is an empty line; numbers are separated by blanks, tabs or commas.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ...lab.errors import InputError, quote
from ..model import MAX_SIDE, Clue, Puzzle, check_puzzle
from ._text import check_count, int_clue, numbered_lines, read_text, to_int


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def _content(text: str) -> list[tuple[int, str]]:
    """Numbered lines with trailing blank lines removed."""
    lines = numbered_lines(text)
    while lines and not lines[-1][1].strip():
        lines.pop()
    return lines


def _clue_lines(lines: list[tuple[int, str]], path) -> list[Clue]:
    """One clue per line (rows or columns of one puzzle); more lines than any side may have is an error."""
    if len(lines) > MAX_SIDE:
        raise InputError(f"more than {MAX_SIDE} clue lines for one side; a side has at most {MAX_SIDE} cells", path,
                         lines[MAX_SIDE][0])
    return [int_clue(_tokens(t) or ["0"], path, ln) for ln, t in lines]


def parse_nin(text: str, path, stem: str) -> list[Puzzle]:
    lines = _content(text)
    head = [(ln, t) for ln, t in lines if t.strip()][:1]
    if not head:
        raise InputError("empty file", path, 1)
    ln0, t0 = head[0]
    toks = _tokens(t0)
    if len(toks) != 2:
        raise InputError("expected the size line `width height`", path, ln0)
    width, height = to_int(toks[0], path, ln0, "width"), to_int(toks[1], path, ln0, "height")
    body = lines[[ln for ln, _ in lines].index(ln0) + 1:]
    need = width + height
    if len(body) < need:
        last = body[-1][0] if body else ln0
        raise InputError(f"expected {height} row and {width} column lines after `{width} {height}`, "
                         f"found {len(body)}", path, last)
    if len(body) > need:
        raise InputError(f"unexpected data after the {height} row and {width} column lines", path, body[need][0])
    clues = _clue_lines(body, path)
    return [check_puzzle(Puzzle(name=stem, rows=clues[:height], cols=clues[height:], format="nin"), path, ln0)]


def parse_mk(text: str, path, stem: str) -> list[Puzzle]:
    lines = _content(text)
    nonblank = [(ln, t) for ln, t in lines if t.strip()]
    if not nonblank:
        raise InputError("empty file", path, 1)
    ln0, t0 = nonblank[0]
    toks = _tokens(t0)
    if len(toks) != 2:
        raise InputError("expected the size line `height width`", path, ln0)
    height, width = to_int(toks[0], path, ln0, "height"), to_int(toks[1], path, ln0, "width")
    body = lines[[ln for ln, _ in lines].index(ln0) + 1:]
    sep = [k for k, (_, t) in enumerate(body) if t.strip() == "#"]
    if sep:
        rows_l, cols_l = body[: sep[0]], body[sep[0] + 1:]
    else:  # Olšák's own files often omit the '#'
        rows_l, cols_l = body[:height], body[height:]
    if len(rows_l) != height:
        raise InputError(f"expected {height} row lines, found {len(rows_l)}", path,
                         (rows_l or body or [(ln0, "")])[-1][0])
    if len(cols_l) != width:
        raise InputError(f"expected {width} column lines, found {len(cols_l)}", path,
                         (cols_l[width][0] if len(cols_l) > width else (cols_l or body or [(ln0, "")])[-1][0]))
    p = Puzzle(name=stem, rows=_clue_lines(rows_l, path), cols=_clue_lines(cols_l, path), format="mk")
    return [check_puzzle(p, path, ln0)]


def parse_keen(text: str, path, stem: str) -> list[Puzzle]:
    lines = _content(text)
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise InputError("empty file", path, 1)
    blanks = [k for k, (_, t) in enumerate(lines) if not t.strip()]
    if not blanks:
        raise InputError("expected the row clues, one blank line, then the column clues; found no blank line",
                         path, lines[-1][0])
    if len(blanks) > 1:
        raise InputError("a second blank line: the format has exactly one, between rows and columns",
                         path, lines[blanks[1]][0])
    rows_l, cols_l = lines[: blanks[0]], lines[blanks[0] + 1:]
    for ln, t in rows_l + cols_l:
        if not re.match(r"^[0-9\s,]+$", t):
            raise InputError(f"expected block lengths, found {quote(t.strip())}", path, ln)
    p = Puzzle(name=stem, rows=_clue_lines(rows_l, path), cols=_clue_lines(cols_l, path), format="keen")
    return [check_puzzle(p, path, lines[0][0])]


def _solution_goals(path) -> dict[str, np.ndarray]:
    """Goals from the sibling `solution/<same name>` file of a tournament `question/` file, if any.

    A goal that is not a grid of 0/1 rows of one length is an error at its line in the solution file.
    """
    p = Path(path)
    sol = p.parent.parent / "solution" / p.name
    if p.parent.name != "question" or not sol.is_file():
        return {}
    goals: dict[str, np.ndarray] = {}
    current, rows, start = None, [], 0

    def close():
        if current is not None:
            if not rows or len({len(r) for r in rows}) != 1:
                raise InputError(f"solution ${current}: expected rows of 0/1 of one length", sol, start)
            goals[current] = np.array(rows, dtype=np.int8)

    for ln, line in numbered_lines(read_text(sol)):
        line = line.strip()
        if line.startswith("$"):
            close()
            current, rows, start = line[1:].strip(), [], ln
        elif line and current is not None:
            cells = line.split()
            if any(c not in ("0", "1") for c in cells):
                raise InputError(f"solution ${current}: expected 0 or 1, found {quote(line)}", sol, ln)
            rows.append([int(c) for c in cells])
            check_count("solution rows", len(rows), sol, ln)
    close()
    return goals


def _split_tournament_body(body: list[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """The 2N clue lines of a `$N` block: an empty line is an empty clue (as the published sets write it).

    Blank lines that end the block may also separate puzzles: of the readings that drop 0, 1, 2, ...
    of them and leave an even number of lines, the first whose row and column clues add up to the
    same number of cells wins (else the first even one); None when no reading is even.
    """
    trailing = 0
    while trailing < len(body) and not body[len(body) - 1 - trailing][1].strip():
        trailing += 1
    readings = [body[: len(body) - k] for k in range(trailing + 1) if (len(body) - k) % 2 == 0 and len(body) > k]
    if not readings:
        return None

    def balanced(lines):
        n = len(lines) // 2
        total = [sum(int(t) for t in _tokens(x) if t.isdecimal() and len(t) < 6) for _, x in lines]
        return sum(total[:n]) == sum(total[n:])

    return next((r for r in readings if balanced(r)), readings[0])


def parse_tournament(text: str, path, stem: str) -> list[Puzzle]:
    lines = [(i + 1, t.rstrip("\r")) for i, t in enumerate(text.splitlines())]
    blocks: list[tuple[int, str, list[tuple[int, str]]]] = []
    for ln, t in lines:
        s = t.strip()
        if s.startswith("$"):
            blocks.append((ln, s[1:].strip(), []))
        elif not blocks:
            if s:
                raise InputError("expected `$1`, the number of the first puzzle", path, ln)
        else:
            blocks[-1][2].append((ln, t))
    if not blocks:
        raise InputError("no puzzle found (each starts with a line `$N`)", path, 1)
    goals = _solution_goals(path)
    out = []
    for ln, label, body in blocks:
        clue_lines = _split_tournament_body(body)
        if clue_lines is None:
            raise InputError(f"puzzle ${label} has {len(body)} clue lines; expected N column lines and N row lines",
                             path, ln)
        n = len(clue_lines) // 2
        check_count("rows", n, path, ln)
        clues = _clue_lines(clue_lines, path)
        goal = goals.get(label)
        if goal is not None and goal.shape != (n, n):
            goal = None
        p = Puzzle(name=f"{stem}#{label}", rows=clues[n:], cols=clues[:n], goal=goal, format="tournament")
        out.append(check_puzzle(p, path, ln))
    return out


def parse_spoj(text: str, path, stem: str) -> list[Puzzle]:
    """SPOJ JCROSS input: the number of puzzles, then per puzzle `R C`, R row and C column lines,
    each line of block lengths ended by `0`."""
    lines = [(ln, _tokens(t)) for ln, t in _content(text) if t.strip()]
    if not lines or len(lines[0][1]) != 1:
        raise InputError("expected the number of puzzles on the first line", path, lines[0][0] if lines else 1)
    count = to_int(lines[0][1][0], path, lines[0][0], "number of puzzles", maximum=1_000_000)
    pos = 1
    out = []
    for k in range(count):
        if pos >= len(lines):
            raise InputError(f"file ends after {k} of {count} puzzles", path, lines[-1][0])
        ln0, head = lines[pos]
        if len(head) != 2:
            raise InputError("expected the size line `rows columns`", path, ln0)
        height, width = to_int(head[0], path, ln0, "row count"), to_int(head[1], path, ln0, "column count")
        body = lines[pos + 1: pos + 1 + height + width]
        if len(body) < height + width:
            raise InputError(f"puzzle {k + 1} needs {height + width} clue lines, the file ends after {len(body)}",
                             path, lines[-1][0])
        clues = []
        for ln, toks in body:
            if not toks or toks[-1] != "0":
                raise InputError("each clue line ends with 0", path, ln)
            clues.append(int_clue(toks[:-1] or ["0"], path, ln))
        pos += 1 + height + width
        p = Puzzle(name=f"{stem}#{k + 1}", rows=clues[:height], cols=clues[height:], format="spoj")
        out.append(check_puzzle(p, path, ln0))
    if pos < len(lines):
        raise InputError(f"unexpected data after the {count} puzzles", path, lines[pos][0])
    return out
