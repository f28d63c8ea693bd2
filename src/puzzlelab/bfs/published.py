"""Published layer counts to check the searches against.

The shared corpus file `bfs/reference_layer_counts.txt` (OEIS sequences, one per line:
`name | source | values`) is the reference when present; the same OEIS sequences, and the
15-puzzle's that the file does not hold, are embedded here (each checked against its OEIS page),
so that searches are checked without the corpus too. Tests take their numbers from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.textio import read_text


@dataclass(frozen=True)
class Reference:
    name: str
    source: str
    values: tuple[int, ...]
    kind: str = "layers"  # "layers": count at each depth; "goal_depth": values[N] = start->goal distance for N


# OEIS A089484: 15-puzzle, blank in a corner, the complete sequence a(0)..a(80) (the OEIS b-file
# by Herman Jamke; Korf & Schultze's complete search). Its terms sum to 16!/2, every state once.
A089484 = (1, 2, 4, 10, 24, 54, 107, 212, 446, 946, 1948, 3938, 7808, 15544, 30821, 60842, 119000, 231844, 447342,
           859744, 1637383, 3098270, 5802411, 10783780, 19826318, 36142146, 65135623, 116238056, 204900019,
           357071928, 613926161, 1042022040, 1742855397, 2873077198, 4660800459, 7439530828, 11668443776,
           17976412262, 27171347953, 40271406380, 58469060820, 83099401368, 115516106664, 156935291234,
           208207973510, 269527755972, 340163141928, 418170132006, 500252508256, 581813416256, 657076739307,
           719872287190, 763865196269, 784195801886, 777302007562, 742946121222, 683025093505, 603043436904,
           509897148964, 412039723036, 317373604363, 232306415924, 161303043901, 105730020222, 65450375310,
           37942606582, 20696691144, 10460286822, 4961671731, 2144789574, 868923831, 311901840, 104859366,
           29592634, 7766947, 1508596, 272198, 26638, 3406, 70, 17)
# OEIS A090164: 15-puzzle, blank in one of the 4 central squares (a(0)..a(26)).
A090164 = (1, 4, 10, 20, 38, 80, 174, 372, 762, 1540, 3072, 6196, 12356, 24516, 48179, 94356, 183432, 355330, 682250,
           1301874, 2460591, 4617322, 8580175, 15815664, 28854386, 52154316, 93214030)
# OEIS A090165: 15-puzzle, blank on one of the 8 non-corner boundary squares (a(0)..a(27)).
A090165 = (1, 3, 6, 14, 32, 66, 134, 280, 585, 1214, 2462, 4946, 9861, 19600, 38688, 76086, 148435, 288098, 554970,
           1062628, 2016814, 3800682, 7093209, 13127364, 24053454, 43657576, 78382622, 139237375)

# OEIS A089473 / A089474 / A089483: the 8-puzzle, blank in a corner, the centre, mid-side (complete).
A089473 = (1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993,
           17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2)
A089474 = (1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736, 11132, 12208, 18612,
           18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148)
A089483 = (1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193, 7322, 8596, 13930, 14713,
           21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081, 878, 126, 2)
# OEIS A090035 / A090036 / A090166: the 4x2, 5x2 and 4x3 puzzles, blank in a corner (complete; a board
# and its transpose have the same counts).
A090035 = (1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194, 1414, 1664,
           1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1)
A090036 = (1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567, 4996, 6838, 9279,
           12463, 16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725, 104896, 116966, 126335, 131998,
           133107, 128720, 119332, 106335, 91545, 75742, 60119, 45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224,
           528, 225, 75, 20, 2)
A090166 = (1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167, 119888,
           198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872, 10065800, 12760413,
           15570786, 18171606, 20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217,
           6583181, 4242753, 2503873, 1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18)
# OEIS A079761 / A079762: the 2x2x2 cube in the half-turn and the quarter-turn metric (complete).
A079761 = (1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644)
A079762 = (1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276)
# OEIS A092113, rows 4-9: pancake stacks of N at each number of flips (each row sums to N!).
A092113 = {4: (1, 3, 6, 11, 3), 5: (1, 4, 12, 35, 48, 20), 6: (1, 5, 20, 79, 199, 281, 133, 2),
           7: (1, 6, 30, 149, 543, 1357, 1903, 1016, 35), 8: (1, 7, 42, 251, 1191, 4281, 10561, 15011, 8520, 455),
           9: (1, 8, 56, 391, 2278, 10666, 38015, 93585, 132697, 79379, 5804)}
# OEIS A007664 (index = discs): start-to-goal moves of four-peg Hanoi (Frame-Stewart, optimal: Bousch 2014).
A007664 = (0, 1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 129, 161, 193, 225, 257, 289, 321, 385, 449,
           513, 577, 641, 705, 769, 897, 1025)

EMBEDDED = {
    "sliding:3x3": Reference("8puzzle_blank_corner", "OEIS A089473", A089473),
    "sliding:3x3:center": Reference("8puzzle_blank_center", "OEIS A089474", A089474),
    "sliding:3x3:edge": Reference("8puzzle_blank_midside", "OEIS A089483", A089483),
    **{f"sliding:{shape}": Reference(f"{shape}_blank_corner", f"OEIS {oeis}", seq)
       for shape, oeis, seq in (("2x4", "A090035", A090035), ("4x2", "A090035", A090035), ("2x5", "A090036", A090036),
                                ("5x2", "A090036", A090036), ("3x4", "A090166", A090166),
                                ("4x3", "A090166", A090166))},
    "sliding:4x4": Reference("15puzzle_blank_corner", "OEIS A089484", A089484),
    "sliding:4x4:center": Reference("15puzzle_blank_center", "OEIS A090164 (a(0)..a(26))", A090164),
    "sliding:4x4:edge": Reference("15puzzle_blank_midside", "OEIS A090165 (a(0)..a(27))", A090165),
    "cube2:htm": Reference("2x2x2_cube_HTM", "OEIS A079761", A079761),
    "cube2:qtm": Reference("2x2x2_cube_QTM", "OEIS A079762", A079762),
    **{f"pancake:{n}": Reference(f"pancake_n{n}", f"OEIS A092113 row {n}", row) for n, row in A092113.items()},
}
HANOI = Reference("hanoi4_frame_stewart_moves", "OEIS A007664", A007664, kind="goal_depth")


def published_domain(domain: str) -> str:
    """The domain string whose published counts apply (the state encoding does not change them)."""
    return domain[: -len(":packed")] if domain.endswith(":packed") else domain


# corpus line name -> domain string
CORPUS_NAMES = {
    "8puzzle_blank_corner": "sliding:3x3",
    "8puzzle_blank_center": "sliding:3x3:center",
    "8puzzle_blank_midside": "sliding:3x3:edge",
    "2x2x2_cube_HTM": "cube2:htm",
    "2x2x2_cube_QTM": "cube2:qtm",
}


def read_reference_file(path: str | Path) -> dict[str, Reference]:
    """Corpus line name -> Reference (comment lines start with '#')."""
    out = {}
    for lineno, line in enumerate(read_text(path, what="reference file").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3:
            raise InputError(f"expected 'name | source | values', got {quote(line)}", path, lineno)
        try:
            values = tuple(int(v) for v in parts[2].split(","))
        except ValueError:
            raise InputError(f"values must be comma-separated integers, got {quote(parts[2])}", path,
                             lineno) from None
        out[parts[0]] = Reference(parts[0], parts[1], values)
    return out


def reference_for(domain: str, corpus: dict[str, Reference] | None) -> Reference | None:
    """The published sequence to compare a domain's search with, or None (the shared corpus file first,
    then the sequences embedded here)."""
    corpus = corpus or {}
    domain = published_domain(domain)
    for name, spec in CORPUS_NAMES.items():
        if spec == domain and name in corpus:
            return corpus[name]
    if domain.startswith("pancake:"):
        ref = corpus.get(f"pancake_n{domain.split(':', 1)[1]}")
        if ref is not None:
            return ref
    if domain.startswith("hanoi4:") and "hanoi4_frame_stewart_moves" in corpus:
        ref = corpus["hanoi4_frame_stewart_moves"]
        return Reference(ref.name, ref.source, ref.values, kind="goal_depth")
    if domain.startswith("hanoi4:"):
        return HANOI
    return EMBEDDED.get(domain)


def compare_layers(layers: list[int], ref: Reference | None, complete: bool) -> list[str]:
    """Per depth: 'yes', 'NO' or '—' (no published value at that depth)."""
    out = []
    for d, n in enumerate(layers):
        if ref is None or ref.kind != "layers" or d >= len(ref.values):
            out.append("—")
        else:
            out.append("yes" if ref.values[d] == n else "NO")
    return out
