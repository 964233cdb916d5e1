"""Running a check again each time a file it read changes (`regnum check --watch`).

An author edits a ruleset, saves, and wants to know at once whether it still loads. A new
`regnum check` process pays at every save for what a process starts with — importing regnum,
reading the parser's tables, reading the ruleset's cache — and then for the load. A process
that stays pays for the load only, and less: it holds the trees and the code of the text it
loaded last, from which the edited text is built (build.py, reparse.py, codecache.py).

The files are polled: each is `stat`ed every `--interval` (0.05 s by default), and one whose
size, time of change or inode differs has changed. A ruleset reads a handful of files, so polling costs
next to nothing, needs no library, and works alike on every system and on network folders,
where notifications from the operating system are not always sent. A save is taken once it
is over: the files are read again, a moment later, until two readings agree (an editor may
empty a file before writing it).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .loading import signature

DEFAULT_INTERVAL = 0.05   # seconds between two looks at the files
SETTLE = 0.02             # seconds between the looks that tell a save is over


def watch(check: Callable[[list[Path]], dict[Path, tuple | None]], interval: float = DEFAULT_INTERVAL,
          sleep: Callable[[float], object] = time.sleep) -> None:
    """Call `check([])`, then `check(changed)` each time a file among those the last call read
    changes, `changed` being those files, in the order read. A call returns the files it read,
    each with its `signature` when read (loading.noting_reads): a save made after that, while
    the check went on, is seen at the next look. Runs until interrupted (KeyboardInterrupt is
    the caller's to catch)."""
    files = dict(check([]))
    while True:
        sleep(interval)
        if all(signature(path) == seen for path, seen in files.items()):
            continue
        now = _readings(files)
        while True:   # until the save is over
            sleep(min(SETTLE, interval))
            again = _readings(files)
            if again == now:
                break
            now = again
        changed = [path for path, seen in files.items() if now[path] != seen]
        if not changed:   # changed, then changed back
            continue
        files = dict(check(changed))


def _readings(paths: Iterable[Path]) -> dict[Path, tuple | None]:
    return {path: signature(path) for path in paths}
