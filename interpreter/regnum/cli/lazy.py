"""The command group's table of commands, each command's module imported when it is first
asked for.

A process runs one command, and the commands' modules between them import most of rich
(tables, progress bars), the simulations and the benchmark: importing them all made every
``regnum check`` pay for ``regnum bench``. The table still knows every name at once, so
``regnum --help`` and ``cli.commands`` list them all; ``regnum --help`` imports them all,
to show each one's summary.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping

import click


class LazyCommands(MutableMapping):
    """Command names to click commands, as click's ``Group.commands`` is; a name given as
    ``(module, attribute)`` is imported from ``package`` at its first lookup."""

    def __init__(self, package: str, where: dict[str, tuple[str, str]]):
        self._package = package
        self._entries: dict[str, click.Command | tuple[str, str]] = dict(where)

    def __getitem__(self, name: str) -> click.Command:
        entry = self._entries[name]
        if isinstance(entry, tuple):
            module, attribute = entry
            entry = getattr(importlib.import_module(f"{self._package}.{module}"), attribute)
            self._entries[name] = entry
        return entry

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._entries[name] = command

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
