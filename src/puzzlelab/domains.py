"""The domain registry: which search domain a domain string names (`sliding:3x3`, `snakebird:LEVEL`, ...).

This is the composition root of the BFS engine and its clients: the engine (`puzzlelab.bfs`)
only knows the domain interface (`puzzlelab.bfs.domain`), the clients (the bundled puzzles in
`puzzlelab.bfs.domains`, the Snakebird engine) only know the engine, and this module names both.

A domain string is `PREFIX:ARGUMENT`; the factory registered for PREFIX gets ARGUMENT (everything
after the first `:`) and returns a domain object. Factories are `"module:function"` strings,
imported on first use, so naming a domain costs no import of the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from puzzlelab.lab.errors import InputError, quote

__all__ = ["make_domain", "register_domain", "domain_help", "DOMAIN_HELP"]

# prefix -> "module:function" (imported on first use) or a callable taking the text after "prefix:"
_FACTORIES: dict[str, str | Callable] = {
    "sliding": "puzzlelab.bfs.domains.sliding:make",
    "cube2": "puzzlelab.bfs.domains.cube2:make",
    "pancake": "puzzlelab.bfs.domains.pancake:make",
    "hanoi4": "puzzlelab.bfs.domains.hanoi4:make",
    "snakebird": "puzzlelab.snakebird.domain:make_domain",
}

_USAGE = {
    "sliding": "sliding:RxC[:center|:edge]",
    "cube2": "cube2:htm|qtm",
    "pancake": "pancake:N (2 <= N <= 16)",
    "hanoi4": "hanoi4:N (1 <= N <= 32 discs)",
    "snakebird": "snakebird:LEVEL_FILE",
}

# For --help of every command that takes a domain string.
DOMAIN_HELP = ("sliding:RxC[:center|:edge], cube2:htm|qtm, pancake:N, hanoi4:N or snakebird:LEVEL_FILE "
               "(e.g. sliding:3x3, sliding:4x4, cube2:htm, pancake:10, hanoi4:8)")


def domain_help() -> str:
    """The accepted domain strings, for error messages."""
    return ", ".join(_USAGE.get(p, f"{p}:...") for p in _FACTORIES)


def register_domain(prefix: str, factory: str | Callable, usage: str | None = None) -> None:
    """Add (or replace) a domain prefix: `factory` is a callable or a lazy "module:function" string."""
    _FACTORIES[prefix] = factory
    if usage:
        _USAGE[prefix] = usage


def _resolve(factory: str | Callable) -> Callable:
    if callable(factory):
        return factory
    module, _, func = factory.partition(":")
    return getattr(importlib.import_module(module), func)


def make_domain(spec: str):
    """The domain object for a domain string such as ``sliding:3x3`` (InputError when unknown)."""
    from puzzlelab.bfs.domain import check_domain

    if not isinstance(spec, str) or not spec.strip():
        raise InputError(f"empty domain string: expected one of {domain_help()}")
    if not spec.isprintable():
        raise InputError(f"domain string {quote(spec)} holds control characters or bytes that are not UTF-8 text")
    prefix, _, arg = spec.strip().partition(":")
    if prefix not in _FACTORIES:
        raise InputError(f"unknown domain {quote(spec)}: expected one of {domain_help()}")
    try:
        factory = _resolve(_FACTORIES[prefix])
    except (ImportError, AttributeError) as err:
        raise InputError(f"domain {quote(spec)}: its module is not available ({err})") from None
    domain = factory(arg)
    if not getattr(domain, "name", ""):
        domain.name = spec.strip()
    check_domain(domain)
    return domain
