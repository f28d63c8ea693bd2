"""Check a PuzzleLab configuration against `config/schema.yaml`, locating every problem in its file.

Snakemake merges the config files in order (config.yaml, then each --configfile, then --config
values). A misspelled key or section, a missing section or a value of the wrong type is reported
as `PATH:LINE: what is wrong` in the file that set it, before any job runs.
"""

from __future__ import annotations

import difflib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from .errors import InputError, quote
from .textio import read_text

COMMAND_LINE = "--config"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 20x faster


def _construct(text: str):
    """The YAML document's node tree and its data, parsed once."""
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data


def _load_located(path: Path) -> tuple[Any, dict[tuple, int]]:
    """A YAML file's data and the 1-based line of every key path in it."""
    text = read_text(path, what="config file")
    try:
        node, data = _construct(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        problem = getattr(err, "problem", None) or str(err)
        raise InputError(f"not valid YAML: {problem}", path, None if mark is None else mark.line + 1) from None
    lines: dict[tuple, int] = {}

    def walk(n, prefix: tuple):
        if isinstance(n, yaml.MappingNode):
            for key_node, value_node in n.value:
                key = prefix + (str(key_node.value),)
                lines[key] = key_node.start_mark.line + 1
                walk(value_node, key)
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                lines[prefix + (i,)] = item.start_mark.line + 1
                walk(item, prefix + (i,))

    if node is not None:
        walk(node, ())
    if data is not None and not isinstance(data, dict):
        raise InputError("a config file must be a mapping of sections (key: value)", path, 1)
    return data or {}, lines


def merge(base: dict, overlay: dict) -> dict:
    """Snakemake's merge: nested mappings are merged, every other value is replaced."""
    out = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


class _Located:
    """Where each key path of the merged config was last set: (file, line)."""

    def __init__(self):
        self.sources: list[tuple[str, dict[tuple, int]]] = []

    def add(self, name: str, lines: dict[tuple, int]):
        self.sources.append((name, lines))

    def find(self, path: tuple) -> tuple[str, int | None]:
        for cut in range(len(path), -1, -1):
            for name, lines in reversed(self.sources):
                if path[:cut] in lines:
                    return name, lines[path[:cut]]
        return (self.sources[0][0] if self.sources else "config"), None


def _dotted(path) -> str:
    return ".".join(str(p) for p in path) or "the top level"


UNSAFE = set('<>&"`') | {chr(c) for c in range(32)}


def _unsafe_strings(obj, path: tuple = ()):
    """Key paths of strings with characters that have a meaning in HTML or a shell line."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _unsafe_strings(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _unsafe_strings(v, path + (i,))
    elif isinstance(obj, str) and UNSAFE & set(obj):
        yield path, obj


def _problems(config: dict, schema: dict, located: _Located) -> list[str]:
    out = []
    for path, text in _unsafe_strings(config):
        name, line = located.find(path)
        out.append(str(InputError(f"{_dotted(path)}: {quote(text)} contains < > & \" ` or a control character; "
                                  "config text reaches shell lines and the HTML report", name, line)))
    validator = Draft202012Validator(schema)
    for err in sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and err.validator_value is False:
            known = sorted(err.schema.get("properties", {}))
            for key in sorted(set(err.instance) - set(known), key=str):
                name, line = located.find(path + (key,))
                hint = difflib.get_close_matches(str(key), known, n=1)
                text = (f"unknown key {quote(key)} in section {_dotted(path)}" if path
                        else f"unknown section {quote(key)}")
                shown_known = ", ".join(known[:12]) + (", …" if len(known) > 12 else "")
                text += f" (did you mean {hint[0]!r}?)" if hint else f" (known: {shown_known})"
                out.append(str(InputError(text, name, line)))
            continue
        if err.validator == "required":
            name, line = located.find(path)
            missing = [k for k in err.validator_value if k not in err.instance]
            what = "section" if not path else f"key in {_dotted(path)}:"
            out.append(str(InputError(f"missing required {what} {', '.join(map(repr, missing))}", name, line)))
            continue
        name, line = located.find(path)
        out.append(str(InputError(f"{_dotted(path)}: {quote(err.message, 160)}", name, line)))
    return out


@lru_cache(maxsize=4)
def _schema(path: str) -> dict:
    return _construct(read_text(path, what="schema"))[1]


def check(files: list[str | Path], schema_path: str | Path, overrides: dict | None = None) -> list[str]:
    """Problems of the config merged from `files` (in order) and command-line `overrides`."""
    schema = _schema(str(schema_path))
    located = _Located()
    merged: dict = {}
    for f in files:
        try:
            data, lines = _load_located(Path(f))
        except InputError as err:
            return [str(err)]
        located.add(str(f), lines)
        merged = merge(merged, data)
    if overrides:
        located.add(COMMAND_LINE, {tuple(k.split(".")): None for k in _flat_keys(overrides)})
        merged = merge(merged, overrides)
    return _problems(merged, schema, located)


def _flat_keys(d: dict, prefix: str = "") -> list[str]:
    keys = []
    for k, v in d.items():
        name = f"{prefix}.{k}" if prefix else str(k)
        keys.append(name)
        if isinstance(v, dict):
            keys += _flat_keys(v, name)
    return keys


def shown(path: str | Path) -> str:
    """A path as the user would type it: relative when it is under the working directory."""
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def workflow_files(workflow) -> tuple[list[str], dict]:
    """The config files a Snakemake workflow merged, in merge order (as shown), and its --config values."""
    settings = getattr(workflow, "config_settings", None)
    cli_files = [str(f) for f in getattr(settings, "configfiles", None) or []]
    directive = [str(f) for f in workflow.configfiles if str(f) not in cli_files]
    return [shown(f) for f in directive + cli_files], dict(getattr(settings, "config", None) or {})
