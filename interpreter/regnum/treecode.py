"""The Python that rebuilds a file's syntax tree without parsing it.

Parsing a file and building its tree is 67–76 % of the first `regnum.load` of a process (the
parser's tables read from the disk cache): some 70–100 ms of Lark's lexer and parser and of
build.py for each bundled game, paid again by every `regnum play`, `check` or `simulate`. The
tree is frozen data made of nodes (ast.py), spans, tuples, texts, whole numbers, truth values
and none, so it can be written as one Python function that makes the same objects again; the
ruleset's code cache (compiler/codecache.py) keeps that function's code object with the code
it compiled, under the file's exact text, and a later process runs it instead of parsing.

The function assigns each object to a local once, children first (no expression nests, so a
tree of any depth compiles), and an object met twice is the same object again. A tree holding
anything else is not written (`None`): the file is parsed each time, as before.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
from pathlib import Path

from . import ast
from .source import Span

_PLAIN = (int, str, bool, type(None))
# A larger file's tree is not kept: its code, some 11 bytes marshalled for each character of
# the file, would outgrow a cache file (codecache._MAX_FILE_BYTES), and writing it would cost
# seconds and hundreds of megabytes for a stranger's megabyte of ruleset.
MAX_TEXT = 256 * 1024
# The modules whose code decides what tree a text gives, this one included: any change to one
# is another key for the trees kept (`digest`).
_BUILDERS = ("parse", "build", "reparse", "ast", "records", "source", "limits", "diagnostics", "treecode")


def source_of(module: ast.Module) -> str | None:
    """The source of `_tree()`, which returns a tree equal to `module`; None when the tree
    holds something this module does not write."""
    names: dict[int, str] = {}
    lines: list[str] = []

    def value(obj) -> str | None:
        if type(obj) in _PLAIN:
            return repr(obj)
        known = names.get(id(obj))
        if known is not None:
            return known
        if type(obj) is tuple:
            parts = [value(item) for item in obj]
            if None in parts:
                return None
            made = "(" + "".join(part + ", " for part in parts) + ")"
        elif type(obj) is Span or type(obj).__module__ == ast.__name__ and dataclasses.is_dataclass(obj):
            fields = dataclasses.fields(obj)
            if any(not f.init for f in fields):
                return None
            parts = [value(getattr(obj, f.name)) for f in fields]
            if None in parts:
                return None
            made = f"{type(obj).__name__}({', '.join(parts)})"
        else:
            return None
        name = names[id(obj)] = f"v{len(names)}"
        lines.append(f"    {name} = {made}")
        return name

    try:
        top = value(module)
    except RecursionError:   # deeper than Python walks: parsed each time
        return None
    if top is None:
        return None
    return "def _tree():\n" + "\n".join(lines) + f"\n    return {top}\n"


def rebuilt(code) -> ast.Module | None:
    """The tree the code of `source_of`'s text makes, or None when it makes anything else."""
    namespace = {"__builtins__": {}, "Span": Span}
    namespace.update((name, cls) for name, cls in vars(ast).items()
                     if isinstance(cls, type) and cls.__module__ == ast.__name__)
    try:
        exec(code, namespace)
        tree = namespace["_tree"]()
    except Exception:   # a stale or damaged entry: the file is parsed
        return None
    return tree if type(tree) is ast.Module else None


@functools.cache
def digest() -> str | None:
    """The digest of what turns a text into a tree: the grammar, Lark's version and the
    source of the modules of _BUILDERS; None when one cannot be read (no tree is kept). Lark
    is found, not imported (its `__init__.py`, which states its version, is read): a process
    that parses nothing never imports it."""
    from . import resources
    hashed = hashlib.sha256()
    try:
        spec = importlib.util.find_spec("lark")
        if spec is None or spec.origin is None:
            return None
        hashed.update(Path(spec.origin).read_bytes())
        hashed.update((resources.data_dir("grammar") / "regnum.lark").read_bytes())
        here = Path(__file__).parent
        for name in _BUILDERS:   # read as files: parse.py is imported only when a text is parsed
            hashed.update((here / f"{name}.py").read_bytes())
    except OSError:
        return None
    return hashed.hexdigest()[:24]
