"""The load under way, and the cache its files' trees and its code are kept in.

A ruleset's code cache (compiler/codecache.py) also keeps the code that rebuilds the syntax
tree of each file the load reads (treecode.py), so that a later process need not parse them.
The trees are wanted before anything is parsed, so the cache cannot be named by the whole
ruleset's hash: a load names it by the first file it reads (its name and text; a variant's
base and the stdlib modules it imports are looked up inside it). `regnum.load` opens a load
in its context; build.py asks it for trees; the compiler takes its code cache from it.
Outside a load (a test building one file, `regnum diff`), nothing is kept.

A watcher (`regnum check --watch`, watch.py) checks a ruleset again whenever a file it read
changes: `noting_reads` tells it every file a load asks for — the ruleset, its bases, the
stdlib modules it imports, its data files — also when the load fails part way.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
from pathlib import Path

# [opener, cache]: opener(filename, text) makes the cache when the load reads its first file.
_under_way: contextvars.ContextVar = contextvars.ContextVar("regnum_load", default=None)
# The files asked for while noting_reads is open (None: nobody is noting).
_reads: contextvars.ContextVar = contextvars.ContextVar("regnum_reads", default=None)


@contextlib.contextmanager
def load(opener):
    """While a ruleset loads: `opener(filename, text)` makes its cache, named by the first
    file read."""
    token = _under_way.set([opener, None])
    try:
        yield
    finally:
        _under_way.reset(token)


def reading(filename: str, text: str) -> None:
    """The load under way reads a file: the first one names its cache."""
    state = _under_way.get()
    if state is not None and state[1] is None:
        state[1] = state[0](filename, text)


def cache():
    """The cache of the load under way, once it has read a file; else None."""
    state = _under_way.get()
    return state[1] if state is not None else None


def kept_tree(filename: str, text: str):
    """The syntax tree of `text` kept by the load's cache, or None."""
    found = cache()
    return found.tree(text, filename) if found is not None else None


def earlier_tree(filename: str, text: str):
    """(another text of the file, its tree) kept by the load's cache, or None."""
    found = cache()
    return found.earlier_tree(text, filename) if found is not None else None


def hold_tree(filename: str, text: str, tree) -> None:
    """`tree`, built from `text` earlier in this process, is read by the load: its file holds it
    as it holds a tree it built (a later process, loading the same texts, parses nothing)."""
    found = cache()
    if found is not None:
        found.hold_tree(text, filename, tree)


def keep_tree(filename: str, text: str, tree) -> None:
    """Keep `tree`, built from `text`, in the load's cache (written with its code)."""
    found = cache()
    if found is not None:
        found.keep_tree(text, filename, tree)


@contextlib.contextmanager
def noting_reads():
    """Yields a dict of the paths of every file asked for by the loads made meanwhile, in the
    order asked, each once, to the file's `signature` when first asked for (so that a save made
    after a file was read tells, however long the rest of the load took); one that could not be
    read is noted too, with None (it may appear)."""
    noted: dict = {}
    token = _reads.set(noted)
    try:
        yield noted
    finally:
        _reads.reset(token)


def asked_for(path) -> None:
    """A load asks for the file at `path` (before reading it)."""
    noted = _reads.get()
    if noted is not None:
        path = Path(os.path.abspath(path))   # one file, however it was named
        if path not in noted:
            noted[path] = signature(path)


def signature(path) -> tuple | None:
    """What tells that the file at `path` changed: its time of change, size and inode; None
    when it cannot be read (missing, for one)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_mtime_ns, found.st_size, found.st_ino)
