"""The ruleset as one namespace: a file, its stdlib imports and its variant base, merged.

Both the checker and the compiler read a Program, so they agree on what every
name means. Duplicate names and variant patches that do not apply are found
here and reported as diagnostics.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import dataclasses

from . import ast, confine, datafiles, loading, resources
from .build import build_module
from .diagnostics import Diagnostic, RulesetError, did_you_mean
from .limits import DEFAULT as DEFAULT_LIMITS, Limits

# Declaration kinds that live in the one global namespace of a ruleset.
NAMED_KINDS = ("const", "enum", "board", "piece", "zone", "var", "def", "phase", "rule",
               "action", "scoring", "tiebreak", "trigger", "invariant", "option", "view", "statistic")
SINGLETON_KINDS = ("game", "players", "setup", "flow", "winner", "ends")


@dataclass
class Program:
    """Every declaration of a ruleset, by kind and by name, plus where it came from."""

    path: str
    text_hash: str
    name: str = "untitled"
    title: str = "untitled"
    variant: str | None = None
    decls: dict[str, object] = field(default_factory=dict)       # name -> decl (named kinds)
    singletons: dict[str, object] = field(default_factory=dict)  # kind -> decl
    enum_members: dict[str, str] = field(default_factory=dict)   # member -> enum name
    board_nodes: dict[str, str] = field(default_factory=dict)    # node -> board name
    imported: set[str] = field(default_factory=set)              # names that came from stdlib
    imports: list[tuple[str, object]] = field(default_factory=list)
    stdlib_digests: dict[str, str] = field(default_factory=dict)  # module -> hash of its text
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # (kind, name) -> the `remove KIND NAME` of a variant in the chain that deleted it (a
    # singleton's name is its kind): what `regnum diff` shows as where a removal is stated
    removed: dict[tuple[str, str], object] = field(default_factory=dict)
    # name of a declaration a variant added (its base had none of that name) -> the names the
    # base had of that kind: an added name nothing uses may be a replacement misspelt
    variant_added: dict[str, tuple] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # the chain's files as displayed, the first base first
    # id of an operator node -> (node, proven cheap: `+`/`*` of numbers, a comparison of a
    # number, seat, cell, member, piece or literal): filled by the checker for the compiler
    cheap_ops: dict[int, tuple] = field(default_factory=dict)

    def of_kind(self, kind: str) -> list:
        """The declarations of a kind, in order. Kept by kind after the first call: the
        compiler asks once per expression, and a scan each time is quadratic in the ruleset."""
        cache = self.__dict__.get("_by_kind")
        if cache is None or cache[0] != len(self.decls):
            by_kind: dict[str, list] = {}
            for decl in self.decls.values():
                by_kind.setdefault(decl.kind, []).append(decl)
            cache = self.__dict__["_by_kind"] = (len(self.decls), by_kind)
        return list(cache[1].get(kind, ()))

    def changed(self) -> None:
        """Forget what of_kind keeps (called whenever `decls` changes)."""
        self.__dict__.pop("_by_kind", None)

    def get(self, name: str, kind: str | None = None):
        decl = self.decls.get(name)
        if decl is not None and (kind is None or decl.kind == kind):
            return decl
        return None

    @property
    def players(self) -> ast.PlayersDecl | None:
        return self.singletons.get("players")

    def all_names(self) -> set[str]:
        return set(self.decls) | set(self.enum_members) | set(self.board_nodes)

    def offered(self, written: tuple) -> tuple:
        """The actions an `ask … to A or B` offers: those it names but the ones a variant
        removed, each followed by the actions declared `offered with` it (in the order they
        are declared, and those offered with them in turn). A variant so adds an action to
        the base's asks, or takes one away, without writing the flow again."""
        removed = {name for kind, name in self.removed if kind == "action"}
        beside: dict = {}
        for decl in self.of_kind("action"):
            if decl.offered_with is not None:
                beside.setdefault(decl.offered_with[0], []).append(decl.name)
        out: list = []
        seen: set = set()

        def offer(name: str) -> None:
            if name in seen:
                return
            seen.add(name)
            if name not in removed:
                out.append(name)
            for other in beside.get(name, ()):
                offer(other)
        for name in written:
            offer(name)
        return tuple(out)


def _error(code: str, message: str, span, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, "error", message, span, hint)


def _name_span(decl, name: str | None = None):
    """The span of a declaration's name on its first line (for a caret under the name)."""
    from .source import SourceRegistry, Span
    name = name or getattr(decl, "name", "")
    span = decl.span
    text = SourceRegistry.line(span.file, span.line) or ""
    column = text.find(f" {name}", span.column - 1)
    if column < 0 or not name:
        return Span(span.file, span.line, span.column, span.line, span.column + 1)
    return Span(span.file, span.line, column + 2, span.line, column + 2 + len(name))


class _Collector:
    def __init__(self, program: Program):
        self.p = program

    def add(self, decl, replace: bool = False, imported: bool = False) -> None:
        p = self.p
        if decl.kind in ("import", "variant", "remove"):
            return
        if decl.kind in SINGLETON_KINDS:
            if decl.kind in p.singletons and not replace:
                first = p.singletons[decl.kind]
                p.diagnostics.append(_error("E102", f"duplicate '{decl.kind}' declaration",
                                            _name_span(decl, decl.kind), f"the first one is at {first.span}"))
                return
            p.singletons[decl.kind] = decl
            p.removed.pop((decl.kind, decl.kind), None)
            if decl.kind == "game":
                p.name, p.title = decl.name, decl.title
            return
        existing = p.decls.get(decl.name)
        if existing is not None and decl.name in p.imported and not imported:
            if existing.kind != decl.kind:
                p.diagnostics.append(_error("E102", f"'{decl.name}' is already a {existing.kind} of "
                                            f"{existing.span.file}", _name_span(decl),
                                            "a declaration may replace a stdlib one of the same kind only"))
                return
            replace = True  # a ruleset's own declaration shadows a stdlib one of the same kind
            p.imported.discard(decl.name)
        if existing is not None and not replace:
            p.diagnostics.append(_error("E102", f"'{decl.name}' is already defined as a {existing.kind}",
                                        _name_span(decl), f"the first definition is at {existing.span}"))
            return
        if existing is None and (decl.name in p.enum_members or decl.name in p.board_nodes):
            owner = p.enum_members.get(decl.name) or p.board_nodes.get(decl.name)
            p.diagnostics.append(_error("E102", f"'{decl.name}' is already defined as a member of "
                                        f"'{owner}'", _name_span(decl),
                                        "every name of a ruleset, members and nodes included, is unique"))
            return
        if existing is not None and replace and existing.kind != decl.kind:
            p.diagnostics.append(_error("E501", f"variant replaces the {existing.kind} '{decl.name}' "
                                        f"with a {decl.kind}", _name_span(decl),
                                        "a replacement must be of the same kind as what it replaces"))
            return
        if existing is not None and replace:
            self._forget_members(existing)
        if existing is None and replace and not imported:
            p.variant_added[decl.name] = tuple(n for n, d in p.decls.items() if d.kind == decl.kind)
        p.decls[decl.name] = decl
        p.changed()
        p.removed.pop((decl.kind, decl.name), None)
        if imported:
            p.imported.add(decl.name)
        if decl.kind == "enum":
            for member, span in decl.members:
                self._member(member, span, decl.name, p.enum_members)
        if decl.kind == "board":
            for node, span in decl.nodes:
                self._member(node, span, decl.name, p.board_nodes)

    def _member(self, name, span, owner, table) -> None:
        p = self.p
        if name in p.enum_members or name in p.board_nodes or name in p.decls:
            p.diagnostics.append(_error("E102", f"'{name}' is already defined", span))
            return
        table[name] = owner

    def _forget_members(self, decl) -> None:
        if decl.kind == "enum":
            for member, _ in decl.members:
                self.p.enum_members.pop(member, None)
        if decl.kind == "board":
            for node, _ in decl.nodes:
                self.p.board_nodes.pop(node, None)

    def remove(self, decl: ast.RemoveDecl) -> None:
        p = self.p
        key = f"view {decl.target}" if decl.target_kind == "view" else decl.target  # a view is named by its board
        target = p.decls.get(key)
        if decl.target_kind not in NAMED_KINDS + SINGLETON_KINDS:
            p.diagnostics.append(_error("E502", f"'{decl.target_kind}' is not a kind of declaration",
                                        _name_span(decl, decl.target_kind),
                                        did_you_mean(decl.target_kind, NAMED_KINDS + SINGLETON_KINDS)
                                        or "write: remove KIND NAME (remove rule bonus)"))
            return
        if decl.target_kind in SINGLETON_KINDS and decl.target_kind == decl.target:
            if p.singletons.pop(decl.target, None) is None:
                p.diagnostics.append(_error("E502", f"the base has no {decl.target} to remove", decl.span))
            else:
                p.removed[(decl.target, decl.target)] = decl
            return
        if target is None or target.kind != decl.target_kind:
            candidates = [n for n, d in p.decls.items() if d.kind == decl.target_kind]
            p.diagnostics.append(_error("E502", f"the base has no {decl.target_kind} '{decl.target}' "
                                        "to remove", _name_span(decl, decl.target),
                                        did_you_mean(decl.target, candidates)))
            return
        self._forget_members(target)
        del p.decls[key]
        p.changed()
        p.imported.discard(key)
        p.removed[(target.kind, key)] = decl


def _display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_program(path: str | Path, _chain: tuple = (), search: tuple[Path, ...] = (),
                 limits: Limits = DEFAULT_LIMITS, _named_at=None) -> Program:
    """Read a ruleset (or a variant of one) with its imports into one Program.

    `search` is the rules path (confine.rules_path): the folders besides the file's own and
    the bundled rulesets where a variant's base and a data file may be found. `_named_at` is
    the span that named this file (a variant's `of "base"`): a base too large to read is
    reported there, where the reader can act on it."""
    path = Path(path)
    from .source import Span

    target = confine.resolved(path)
    if not (confine.is_rules_name(path.name) and target is not None and confine.is_rules_name(target.name)):
        # never show another file's lines as syntax errors, even through a link named x.rules
        raise RulesetError([_error("E000", f"{path} is not a ruleset file (.rules)",
                                   Span(str(path), 0, 0, 0, 0), "a ruleset file's name ends in .rules")])
    loading.asked_for(path)
    try:
        text = read_ruleset(path, limits, _named_at)
    except UnicodeDecodeError as err:
        raise RulesetError([_error("E000", f"cannot read ruleset: it is not UTF-8 text (byte "
                                   f"{err.start}: {err.object[err.start:err.start + 1]!r})",
                                   Span(str(path), 0, 0, 0, 0), "save the file as UTF-8")]) from None
    except OSError as err:
        raise RulesetError([_error("E000", f"cannot read ruleset: {err.strerror or err}",
                                   Span(str(path), 0, 0, 0, 0))]) from None
    display = _display_path(path)
    module, data_digests = _read_data(build_module(text, display, limits), path, display, search)
    digest = hashlib.sha256((text + "".join(data_digests)).encode()).hexdigest()[:16]
    variants = [d for d in module.decls if isinstance(d, ast.VariantDecl)]
    variant = variants[0] if variants else None
    misplaced = variants[1:] + ([variant] if variant is not None and module.decls[0] is not variant else [])
    if misplaced:
        raise RulesetError([_error("E506", "a variant file names its base once, in its first declaration",
                                   _name_span(d, "variant"), "start the file with: variant NAME of \"base.rules\"")
                            for d in misplaced])
    if variant is not None:
        try:
            base_path = confine.find_base(path, variant.base, variant.quoted, search)
        except confine.Refused as refused:
            if refused.code == "not-found" and variant.quoted and not Path(variant.base).is_absolute():
                loading.asked_for(path.parent / variant.base)   # where it is first looked for: it may appear
            code = "E503" if refused.code == "not-found" else "E507"
            raise RulesetError([_error(code, refused.message, variant.base_span or variant.span,
                                       refused.hint)]) from None
        chain = _chain + (path.resolve(),)
        if base_path.resolve() in chain:
            raise RulesetError([_error("E505", "variant bases form a cycle: " + " → ".join(
                p.name for p in chain + (base_path.resolve(),)), _name_span(variant, variant.name),
                "a variant's base must be a ruleset, or a variant of one, that does not lead back here")])
        program = load_program(base_path, chain, search, limits, variant.span)
        program.path = display
        program.files.append(display)
        program.variant = variant.name
        program.text_hash = hashlib.sha256((program.text_hash + digest).encode()).hexdigest()[:16]
        _apply(program, module, patch=True)
    else:
        program = Program(path=display, text_hash=digest, files=[display])
        _apply(program, module, patch=False)
    if not _chain:
        program.text_hash = _with_imports(program)
        _count_declarations(program, limits)
    return program


def _with_imports(program: Program) -> str:
    """The hash of the resolved rules: the files' hash and the text of every stdlib module they
    import (a stdlib that changed is a ruleset that changed)."""
    if not program.stdlib_digests:
        return program.text_hash
    texts = "".join(f"{name}:{digest}" for name, digest in sorted(program.stdlib_digests.items()))
    return hashlib.sha256((program.text_hash + texts).encode()).hexdigest()[:16]


def read_ruleset(path: Path, limits: Limits = DEFAULT_LIMITS, named_at=None) -> str:
    """The text of a ruleset file, refused (E010) before it is read when it is larger than
    the limit: its size is checked first, and no more than the limit and one byte is ever
    read (a file may grow, or report no size, as /proc files do). Raises OSError and
    UnicodeDecodeError as reading a text file does."""
    from .source import Span
    limit = limits.ruleset_bytes
    size = path.stat().st_size
    data = b""
    if size <= limit:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    if size > limit or len(data) > limit:
        where = named_at or Span(_display_path(path), 1, 1, 1, 2)
        what = f"is {size:_} bytes long" if size > limit else f"is longer than {limit:_} bytes"
        named = f" '{path.name}'" if named_at is not None else ""
        raise RulesetError([_error("E010", f"the ruleset{named} {what}: too large to read",
                                   where, limits.hint("ruleset_bytes"))])
    # as a text-mode read does: no byte-order mark, and every line break is "\n"
    text = data.decode("utf-8-sig")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _count_declarations(program: Program, limits: Limits) -> None:
    """E011 when the ruleset, its imports and its bases together hold more declarations than
    the limit: each costs the checker and the compiler work, so their number is bounded, not
    only the bytes. Reported at the first declaration past the limit."""
    count = len(program.decls) + len(program.singletons)
    if count > limits.declarations:
        from itertools import islice
        first_over = next(islice(program.decls.values(), max(limits.declarations - len(program.singletons), 0),
                                 None), None)
        span = (_name_span(first_over) if first_over is not None
                else next(iter(program.singletons.values())).span)
        raise RulesetError([_error("E011", f"the ruleset has {count:_} declarations with its imports and "
                                   "base: too many to check", span, limits.hint("declarations"))])


def _read_data(module: ast.Module, path: Path, display: str, search: tuple[Path, ...] = ()
               ) -> tuple[ast.Module, list[str]]:
    """The module with the value of every `const NAME from "file"` read in, and the digests of
    the files (they are part of the ruleset's hash: changed data is a changed ruleset)."""
    decls, digests, errors = [], [], []
    folder = str(Path(display).parent)
    for decl in module.decls:
        if isinstance(decl, ast.ConstDecl) and isinstance(decl.value, ast.DataFile):
            try:
                value, digest = datafiles.load(path.parent, decl.value.path, decl.value.span, folder, search)
            except RulesetError as err:
                errors.extend(err.diagnostics)
                value, digest = None, ""
            decl = dataclasses.replace(decl, value=dataclasses.replace(decl.value, value=value, digest=digest))
            digests.append(digest)
        decls.append(decl)
    if errors:
        raise RulesetError(errors)
    return dataclasses.replace(module, decls=tuple(decls)), digests


def _apply(program: Program, module: ast.Module, patch: bool) -> None:
    collector = _Collector(program)
    duplicates: set = set()
    if patch:  # a variant may replace a declaration of its base once, not twice
        seen: dict = {}
        for decl in module.decls:
            if decl.kind in ("import", "variant"):
                continue
            key = decl.kind if decl.kind in SINGLETON_KINDS else decl.name
            if key in seen:
                program.diagnostics.append(_error("E102", f"'{decl.name}' is declared twice in this variant",
                                                  _name_span(decl), f"the first one is at {seen[key].span}"))
                duplicates.add(id(decl))
            seen.setdefault(key, decl)
    for decl in module.decls:
        if isinstance(decl, ast.ImportDecl):
            for name, span in decl.modules:
                _import(program, collector, name, span)
            program.imports.append((decl, module.file))
    for decl in module.decls:
        if isinstance(decl, ast.RemoveDecl):
            if patch:
                collector.remove(decl)
            else:
                program.diagnostics.append(_error("E504", "'remove' is only allowed in a variant", decl.span,
                                                  "start the file with: variant NAME of \"base.rules\""))
            continue
        if isinstance(decl, ast.VariantDecl) or id(decl) in duplicates:
            continue
        collector.add(decl, replace=patch)


def _import(program: Program, collector: _Collector, name: str, span) -> None:
    if name in {m for m, _ in getattr(program, "_imported_modules", set())}:
        return
    stdlib = resources.data_dir("stdlib")
    path = stdlib / f"{name}.rules"
    if not path.exists():
        known = [p.stem for p in stdlib.glob("*.rules")]
        program.diagnostics.append(_error("E104", f"unknown stdlib module '{name}'", span,
                                          did_you_mean(name, known) or f"available: {', '.join(sorted(known))}"))
        return
    if not hasattr(program, "_imported_modules"):
        program._imported_modules = set()
    program._imported_modules.add((name, None))
    loading.asked_for(path)
    text = path.read_text(encoding="utf-8-sig")
    program.stdlib_digests[name] = hashlib.sha256(text.encode()).hexdigest()
    module = build_module(text, f"stdlib/{name}.rules")
    for decl in module.decls:
        if isinstance(decl, ast.ImportDecl):
            for sub, sub_span in decl.modules:
                _import(program, collector, sub, sub_span)
        elif isinstance(decl, (ast.ConstDecl, ast.DefDecl, ast.TiebreakDecl, ast.RuleDecl,
                               ast.EnumDecl, ast.InvariantDecl)):
            if decl.name not in program.decls:
                collector.add(decl, imported=True)
        else:
            program.diagnostics.append(_error("E105", f"a stdlib module may only hold const, def, enum, "
                                              f"rule, tiebreak and invariant declarations, not {decl.kind}",
                                              decl.span))
