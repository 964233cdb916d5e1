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

An author edits a ruleset and loads it again, and again: each text is another file, which
would start empty, so that every file the load reads is parsed again (a variant's base and the
stdlib modules it imports, unchanged) and every source compiled again (most of them the same).
So a load that finds no file of its own starts from the file of the same first file name and
limits used last (the files of a first file's texts share the start of their names, and
reading a file marks it used; in the process, the load kept last): its entries are found by
their exact text, as any entry is, so a tree or a code object it gives is the one the load
would have made; what the load used of it is written into the load's own file with the rest.

A process that waits on the author (`regnum check --watch`) shows its verdict first and
writes after (`written_after`): the file, and the code of the trees it keeps, which a load
after an edit of a larger ruleset spends about half its time writing, are for later processes.
"""
from __future__ import annotations

import contextlib
import contextvars
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
_latest_in_process: dict[tuple, tuple] = {}   # a first file and limits -> the key of its load kept last
# The caches whose files are written when written_after's block ends (None: each as it is kept).
_later: contextvars.ContextVar = contextvars.ContextVar("regnum_code_written_after", default=None)


class CodeCache:
    """What `compile(source, filename, mode)` gives, looked up before it is computed.

    `family`: the key naming the first file and the limits without the file's text, under
    which a load that finds nothing of its own starts from the one kept last (see above)."""

    def __init__(self, key: tuple[str, ...], family: tuple[str, ...] | None = None):
        self.key = key
        self.family = family
        self.known = _in_process.get(key)
        self.from_process = self.known is not None
        self.inherited = False   # the entries known are those of an earlier text of the first file
        if self.known is None:
            self.known = _read(key, family)
            if not self.known and family is not None:
                self.known = _latest(family)
                self.inherited = bool(self.known)
        self.used: dict[tuple[str, str, str], CodeType | None] = {}   # None: a tree's, written after
        self.compiled = 0   # sources that were not kept (counted for tests and `regnum bench`)
        self.trees_made = 0   # trees written into the file anew
        self._trees_later: list = []   # (key, tree) of trees whose code is made when written (written_after)

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

    def earlier_tree(self, text: str, filename: str):
        """(another text of file `filename`, its tree) among the entries known — those of an
        earlier text's file, after an edit — or None."""
        key = _tree_key(text, filename)
        if key is None:
            return None
        for (earlier, name, mode), code in self.known.items():
            if name == key[1] and mode == key[2]:   # this text's own is looked up first (tree)
                tree = treecode.rebuilt(code)
                if tree is not None:
                    return earlier, tree
        return None

    def hold_tree(self, text: str, filename: str, tree) -> None:
        """`tree`, built from `text` by an earlier load of this process, is used by this one: the
        code kept for it is used, else it is kept (keep_tree)."""
        key = _tree_key(text, filename)
        if key is None or key in self.used:
            return
        code = self.known.get(key)
        if code is not None:
            self.used[key] = code
        else:
            self.keep_tree(text, filename, tree)

    def keep_tree(self, text: str, filename: str, tree) -> None:
        """Keep the code that rebuilds `tree`, built from `text`, when it can be written, the
        file is not too large (treecode.MAX_TEXT) and there is a cache folder to write it in
        (compiling it costs a third of what parsing did)."""
        key = _tree_key(text, filename)
        if key is None or len(text) > treecode.MAX_TEXT or diskcache.cache_dir() is None:
            return
        if _later.get() is not None:   # its place in the file taken now, its code made when written
            self.used[key] = None
            self._trees_later.append((key, tree))
            self.trees_made += 1
            return
        code = _tree_code(tree, key[1])
        if code is not None:
            self.used[key] = code
            self.trees_made += 1

    def keep(self) -> None:
        """The load succeeded: what it used is kept in the process, and on disk if anything
        had to be compiled, a tree built or an entry taken from an earlier text's file; the
        file kept is then the one an edit of the same first file starts from."""
        _in_process.pop(self.key, None)
        _in_process[self.key] = self.used
        while len(_in_process) > _KEPT_IN_PROCESS:
            del _in_process[next(iter(_in_process))]
        if self.family is not None:
            _latest_in_process.pop(self.family, None)
            _latest_in_process[self.family] = self.key
            while len(_latest_in_process) > _KEPT_IN_PROCESS:
                del _latest_in_process[next(iter(_latest_in_process))]
        if self.compiled or self.trees_made or self.inherited:
            later = _later.get()
            if later is None:
                _write(self.key, self.used, self.family)
            else:
                later.append(self)

    def _written(self) -> None:
        """The file of a load kept within written_after, with the code of its trees."""
        for key, tree in self._trees_later:
            code = _tree_code(tree, key[1])
            if code is None:
                del self.used[key]
            else:
                self.used[key] = code
        self._trees_later = []
        _write(self.key, self.used, self.family)


@contextlib.contextmanager
def written_after():
    """The files of the loads kept within the block are written when it ends, each as it would
    have been (its entries in the same order): what the block shows comes first."""
    waiting: list = []
    token = _later.set(waiting)
    try:
        yield
    finally:
        _later.reset(token)
        for cache in waiting:
            cache._written()


def _tree_code(tree, filename: str) -> CodeType | None:
    """The compiled code that rebuilds `tree` (treecode.py), or None when it cannot be made."""
    source = treecode.source_of(tree)
    if source is None:
        return None
    try:
        return compile(source, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


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
        return CodeCache(_key(filename, digest, repr(limits)), family=_key(filename, repr(limits)))
    return opened


def _key(*parts: str) -> tuple[str, ...]:
    """A cache's key: `parts`, after the format and the Python version and bytecode the code
    objects were compiled for."""
    return (_FORMAT, sys.implementation.cache_tag or "", importlib.util.MAGIC_NUMBER.hex(), *parts)


def forget_in_process() -> None:
    """Drop what this process keeps (tests measure what a fresh process does)."""
    _in_process.clear()
    _latest_in_process.clear()


def _latest(family: tuple) -> dict:
    """The entries kept last for the first file and limits `family` (by a load of another text
    of it: the load asking found nothing of its own), in the process, else in the family's file
    used last. Nothing when there are none, or that file is damaged, foreign or not safely the
    user's."""
    last = _latest_in_process.get(family)
    if last in _in_process:
        return _in_process[last]
    data = _loaded(diskcache.newest(_kind(family)))
    key = data[0] if type(data) is tuple and len(data) == 2 else None
    if not (type(key) is list and key[:-2] + key[-1:] == list(family)):   # the text's digest aside
        return {}
    return _entries(data, tuple(key))


def _kind(family: tuple | None) -> str:
    """The kind of the files of a load's texts: those of one first file and limits share it
    (`code-<their digest>`), so the one used last is found without knowing its text."""
    if family is None:
        return "code"
    return "code-" + hashlib.sha256("\0".join(family).encode("utf-8")).hexdigest()[:16]


def _read(key: tuple, family: tuple | None = None) -> dict:
    return _entries(_loaded(diskcache.cache_file(_kind(family), *key)), key)


def _loaded(path):
    """What the cache file at `path` holds, read back with marshal; None when there is no
    such file, or it cannot be read."""
    data = diskcache.read(path, _MAX_FILE_BYTES) if path is not None else None
    if data is None:
        return None
    try:
        return marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None


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


def _write(key: tuple, used: dict, family: tuple | None = None) -> None:
    path = diskcache.cache_file(_kind(family), *key)
    if path is None:
        return
    try:
        data = marshal.dumps((list(key), [k + (code,) for k, code in used.items()]))
    except ValueError:   # something marshal cannot write: keep nothing
        return
    if len(data) <= _MAX_FILE_BYTES and diskcache.write(path, data):
        diskcache.prune("code", _KEPT_ON_DISK)
