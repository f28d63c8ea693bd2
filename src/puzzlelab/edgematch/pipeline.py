"""The edge-matching instances every experiment shares (helpers for rules/edgematch.smk).

Generated instances are declared in two config sections, `beam_instances.generated` and
`mitm_instances` (name -> size and seed); one rule makes each of them once, wherever it is used.
Instances from the shared corpora are read and checked by `edgematch parse`, which writes the
canonical instance the solve jobs read and the hints it carries. The instance files' paths are
always the rules' own output patterns, filled in with `instance_files`.
"""

from __future__ import annotations

# Instances from the shared corpora: the file, and the hints its instance file holds
# (the official set's start piece and four clues; none for Brendan's set).
CORPUS = {
    "official": {"file": ("e2", "e2pieces.txt"), "hints": "all", "size": 16},
    "brendan16": {"file": ("e2", "brendan_set1_pieces_16x16.txt"), "hints": "none", "size": 16},
}


def generated(config: dict) -> dict[str, dict]:
    """name -> {"size", "seed"} for every generated instance of the beam and mitm experiments."""
    beam = ((config.get("beam_instances") or {}).get("generated") or {}).items()
    mitm = (config.get("mitm_instances") or {}).items()
    out: dict[str, dict] = {}
    for section, items in (("beam_instances.generated", beam), ("mitm_instances", mitm)):
        for name, spec in sorted(items):
            spec = {"size": int(spec["size"]), "seed": int(spec["seed"])}
            if name in CORPUS:
                raise ValueError(f"generated instance {name!r} (in {section}) has the name of a corpus instance")
            if name in out and out[name] != spec:
                raise ValueError(f"generated instance {name!r} is declared twice with different sizes or seeds "
                                 f"(the second time in {section})")
            out[name] = spec
    return out


def corpus(have_corpora: bool, corpus_path) -> dict[str, dict]:
    """name -> {"puzzle": path, "hints": mode, "size"} for the corpus instances present here."""
    out = {}
    for name, spec in CORPUS.items():
        path = corpus_path(*spec["file"])
        if have_corpora and path.exists():
            out[name] = {"puzzle": str(path), "hints": spec["hints"], "size": spec["size"]}
    return out


def instance_files(patterns: dict, name: str) -> dict[str, str]:
    """The files of instance `name`: a rule's output patterns (wildcard `em_name`) filled in."""
    return {key: str(pattern).format(em_name=name) for key, pattern in patterns.items()}
