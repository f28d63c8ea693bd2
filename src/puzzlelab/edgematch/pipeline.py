"""The edge-matching instances every experiment shares (helpers for rules/edgematch.smk).

Generated instances are declared in two config sections, `beam_instances.generated` and
`mitm_instances` (name -> size and seed); one rule makes each of them once, wherever it is used.
The instance files' paths are the rule's own output patterns, filled in with `instance_files`.
"""

from __future__ import annotations


def generated(config: dict) -> dict[str, dict]:
    """name -> {"size", "seed"} for every generated instance of the beam and mitm experiments."""
    beam = ((config.get("beam_instances") or {}).get("generated") or {}).items()
    mitm = (config.get("mitm_instances") or {}).items()
    out: dict[str, dict] = {}
    for section, items in (("beam_instances.generated", beam), ("mitm_instances", mitm)):
        for name, spec in sorted(items):
            spec = {"size": int(spec["size"]), "seed": int(spec["seed"])}
            if name in out and out[name] != spec:
                raise ValueError(f"generated instance {name!r} is declared twice with different sizes or seeds "
                                 f"(the second time in {section})")
            out[name] = spec
    return out


def instance_files(patterns: dict, name: str) -> dict[str, str]:
    """The files of generated instance `name`: the instance rule's output patterns filled in."""
    return {key: str(pattern).format(name=name) for key, pattern in patterns.items()}
