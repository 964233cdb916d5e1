"""The generated Python of a ruleset, compiled once and kept, and the trees of its files.

Loading a ruleset generates a few hundred to a few thousand small Python functions (move
listers, prefers, native procedures, one lambda per expression the VM evaluates), and
turning their source into code objects with `compile()` is a third of a warm load of the
larger rulesets. The source of each depends only on the ruleset, its limits and regnum's own
code, never on the run, so the code objects are kept:

- in the process, by the ruleset and its limits (a ruleset loaded again, by `regnum bench`, a
  test or a server, compiles nothing);
- on disk, in the cache folder of diskcache.py (private to the user, as the parser's tables
  are), as one file per ruleset, Python version and limits, written with `marshal`, the
  format of Python's own `.pyc` files; the 64 files used last are kept, since every edit
  of a ruleset is another file.

Each code object is found by its exact source text, file name and mode, so a kept entry can
only ever stand for the very source it was compiled from: a changed ruleset, limit or code
generator gives other sources, which are compiled (and the file written again) as if nothing
were kept. A file that cannot be read, or holds anything but such entries, is ignored.

The same file keeps, for each file the load read (the ruleset, its base, the stdlib modules
it imports), the code that rebuilds that file's syntax tree without parsing it
(treecode.py), found by the file's exact text, its name and the digest of the code that
builds trees: parsing is most of a process's first load. So that the trees can be looked up
before anything is parsed, the load under way (loading.py) names its file by the first file
it reads: its name and text, and the limits.
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import sys
from types import CodeType

from .. import diskcache, treecode

_FORMAT = "regnum-code-2"
_KEPT_IN_PROCESS = 16          # rulesets whose code objects a process keeps (most recently used)
_KEPT_ON_DISK = 64             # files of rulesets kept in the cache folder (most recently used)
_MAX_FILE_BYTES = 8 << 20      # a larger cache file is not read (nor written): 0.2–0.7 MB is usual

_in_process: dict[tuple, dict] = {}


class CodeCache:
    """What `compile(source, filename, mode)` gives, looked up before it is computed."""

    def __init__(self, key: tuple[str, ...]):
        self.key = key
        self.known = _in_process.get(key)
        self.from_process = self.known is not None
        if self.known is None:
            self.known = _read(key)
        self.used: dict[tuple[str, str, str], CodeType] = {}
        self.compiled = 0   # sources that were not kept (counted for tests and `regnum bench`)
        self.trees_made = 0   # trees written into the file anew

    def compile(self, source: str, filename: str, mode: str) -> CodeType:
        key = (source, filename, mode)
        code = self.known.get(key)
        if code is None:
            code = compile(source, filename, mode)
            self.compiled += 1
        self.used[key] = code
        return code

    def tree(self, text: str, filename: str):
        """The syntax tree of `text`, file `filename`, rebuilt by the code kept for it; None
        when none is kept."""
        key = _tree_key(text, filename)
        code = self.known.get(key) if key is not None else None
        if code is None:
            return None
        tree = treecode.rebuilt(code)
        if tree is not None:
            self.used[key] = code
        return tree

    def keep_tree(self, text: str, filename: str, tree) -> None:
        """Keep the code that rebuilds `tree`, built from `text`, when it can be written, the
        file is not too large (treecode.MAX_TEXT) and there is a cache folder to write it in
        (compiling it costs a third of what parsing did)."""
        key = _tree_key(text, filename)
        if key is None or len(text) > treecode.MAX_TEXT or diskcache.cache_dir() is None:
            return
        source = treecode.source_of(tree)
        if source is None:
            return
        try:
            code = compile(source, key[1], "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return
        self.used[key] = code
        self.trees_made += 1

    def keep(self) -> None:
        """The load succeeded: what it used is kept in the process, and on disk if anything
        had to be compiled or a tree built."""
        _in_process.pop(self.key, None)
        _in_process[self.key] = self.used
        while len(_in_process) > _KEPT_IN_PROCESS:
            del _in_process[next(iter(_in_process))]
        if self.compiled or self.trees_made:
            _write(self.key, self.used)


def for_ruleset(text_hash: str, limits) -> CodeCache:
    """The cache of the ruleset with this hash, loaded under these limits (they shape some
    of the generated code)."""
    return CodeCache(_key(text_hash, repr(limits)))


def _tree_key(text: str, filename: str) -> tuple[str, str, str] | None:
    digest = treecode.digest()
    return None if digest is None else (text, f"<regnum tree {filename}>", f"tree {digest}")


def opener(limits):
    """What makes the cache of a load under `limits` (loading.load): the file it reads first,
    by its name and text, and the limits, name it."""
    def opened(filename: str, text: str) -> CodeCache:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return CodeCache(_key(filename, digest, repr(limits)))
    return opened


def _key(*parts: str) -> tuple[str, ...]:
    """A cache's key: `parts`, after the format and the Python version and bytecode the code
    objects were compiled for."""
    return (_FORMAT, sys.implementation.cache_tag or "", importlib.util.MAGIC_NUMBER.hex(), *parts)


def forget_in_process() -> None:
    """Drop what this process keeps (tests measure what a fresh process does)."""
    _in_process.clear()


def _read(key: tuple) -> dict:
    path = diskcache.cache_file("code", *key)
    data = diskcache.read(path, _MAX_FILE_BYTES) if path is not None else None
    if data is None:
        return {}
    try:
        return _entries(marshal.loads(data), key)
    except (EOFError, ValueError, TypeError):
        return {}


def _entries(data, key: tuple) -> dict:
    """The entries of a file's data, or nothing when it is not what _write writes."""
    if not (type(data) is tuple and len(data) == 2 and data[0] == list(key) and type(data[1]) is list):
        return {}
    out = {}
    for entry in data[1]:
        if not (type(entry) is tuple and len(entry) == 4 and type(entry[3]) is CodeType
                and all(type(part) is str for part in entry[:3])):
            return {}
        out[entry[:3]] = entry[3]
    return out


def _write(key: tuple, used: dict) -> None:
    path = diskcache.cache_file("code", *key)
    if path is None:
        return
    try:
        data = marshal.dumps((list(key), [k + (code,) for k, code in used.items()]))
    except ValueError:   # something marshal cannot write: keep nothing
        return
    if len(data) <= _MAX_FILE_BYTES and diskcache.write(path, data):
        diskcache.prune("code", _KEPT_ON_DISK)
