"""The global symbol table the checker reads: what each name of a Program means.

It follows the compiler's resolution order (compiler/expressions.py) exactly,
so the checker accepts what the compiler can build and nothing else.
"""
from __future__ import annotations

import re

from .. import ast, builtins
from ..diagnostics import did_you_mean
from ..program import Program
from ..source import SourceRegistry, Span
from . import types as T

# What a declaration is, in words, for messages: "'pick' is an action".
KIND_WORDS = {
    "const": "a constant", "enum": "an enum", "board": "a board", "piece": "a piece type",
    "zone": "a zone", "var": "a variable", "def": "a definition", "phase": "a phase",
    "rule": "a rule", "action": "an action", "scoring": "a scoring", "tiebreak": "a tie-break policy",
    "trigger": "a trigger", "invariant": "an invariant", "option": "a game option", "view": "a view",
    "statistic": "a statistic",
}

# How to use a declaration that is not a value, for hints.
KIND_USES = {
    "rule": "run it with 'run {name}(…)'",
    "phase": "run it with 'run {name}'",
    "scoring": "apply it with 'score {name}(…)'",
    "action": "offer it with 'ask PLAYER to {name}'",
    "piece": "make pieces of it with 'create N {name}(…) in ZONE'",
    "tiebreak": "name it after 'ties' in a scoring",
    "trigger": "a trigger runs by itself when a piece enters its zone",
    "invariant": "an invariant is checked by the fuzzer, not used in expressions",
    "view": "a view only says how the terminal draws a board",
    "statistic": "a statistic is reported by 'regnum compare', not used in expressions",
}

IMPLICIT_FIELDS = {"label": T.STR, "type": T.STR}
BUILTIN_TYPES = ("int", "bool", "str", "player", "piece")


class Symbols:
    """Global names of a Program, and the types the checker gives them."""

    def __init__(self, program: Program):
        self.p = program
        self.pieces: dict[str, dict[str, ast.FieldDecl]] = {
            d.name: {f.name: f for f in d.fields} for d in program.of_kind("piece")}
        # field -> (piece type, its declaration) of every piece type with that field: a field is
        # looked up per expression, and a scan of every piece type each time is quadratic
        self._by_field: dict[str, list] = {}
        self._field_types: dict = {}
        for piece, fields in self.pieces.items():
            for name, decl in fields.items():
                self._by_field.setdefault(name, []).append((piece, decl))
        # zone family -> piece types it may hold (None: any); filled in by the analysis
        self.zone_pieces: dict[str, frozenset | None] = {}
        # "kind:name" of a def, rule or scoring -> {parameter: the type its body needs}
        self.expects: dict[str, dict] = {}

    # ── lookups ──
    def unknown_hint(self, name: str, candidates) -> str | None:
        """The hint of an error that `name` is unknown: the line of the variant that removed it,
        when a variant did (the error is shown where the base still uses it, often in another
        file), else the closest of the `candidates`."""
        for removal in self.p.removed.values():
            if removal.target == name:
                return f"'{name}' is removed by the variant at {removal.span} ({removal.name}); " \
                       "the base still uses it here"
        return did_you_mean(name, candidates)

    def decl(self, name: str, kind: str | None = None):
        return self.p.get(name, kind)

    def is_const(self, name: str) -> bool:
        return self.p.get(name, "const") is not None

    def zone(self, name: str) -> ast.ZoneDecl | None:
        return self.p.get(name, "zone")

    def per_player_var(self, name: str) -> ast.VarDecl | None:
        decl = self.p.get(name, "var")
        return decl if decl is not None and decl.per_player else None

    def table_var(self, name: str) -> ast.VarDecl | None:
        """A variable with one value per cell of a board or member of an enum."""
        decl = self.p.get(name, "var")
        return decl if decl is not None and decl.per_index else None

    def board(self, name: str):
        return self.p.get(name, "board")

    def zone_type(self, family: str) -> T.Ty:
        return T.zone_of(family, self.zone_pieces.get(family))

    def index_type(self, zone) -> T.Ty:
        """The type of the index of a zone family or variable (`per player`, `per BOARD`, `per ENUM`)."""
        if zone.index == "player":
            return T.PLAYER
        if self.p.get(zone.index, "board") is not None:
            return T.node_of(zone.index)
        if self.p.get(zone.index, "enum") is not None:
            return T.member_of(zone.index)
        return T.UNKNOWN

    def values_of(self, t: T.Ty) -> set[str]:
        """Every value of a node or enum-member type."""
        if t.kind == "node":
            return {n for n, b in self.p.board_nodes.items() if b == t.name}
        if t.kind == "member":
            return {m for m, e in self.p.enum_members.items() if e == t.name}
        return set()

    def domain_of_keys(self, keys) -> T.Ty | None:
        """The node or member type all the keys of a map belong to, if they share one."""
        owners = {self.p.board_nodes.get(k) for k in keys}
        if len(owners) == 1 and None not in owners:
            return T.node_of(owners.pop())
        owners = {self.p.enum_members.get(k) for k in keys}
        if len(owners) == 1 and None not in owners:
            return T.member_of(owners.pop())
        return None

    # ── types ──
    def type_ref(self, ref: ast.TypeRef) -> T.Ty:
        """The type a declared type names; unknown for a name that is no type (reported elsewhere)."""
        if ref.item is not None:
            return T.list_of(self.type_ref(ref.item))
        name = ref.name
        if name in T.SCALARS:
            return T.SCALARS[name]
        decl = self.p.get(name)
        if decl is not None and decl.kind == "piece":
            return T.piece_of({name})
        if decl is not None and decl.kind == "enum":
            return T.member_of(name)
        if decl is not None and decl.kind == "board":
            return T.node_of(name)
        return T.UNKNOWN

    def type_names(self) -> list[str]:
        return list(BUILTIN_TYPES) + [d.name for d in self.p.decls.values()
                                      if d.kind in ("piece", "enum", "board")]

    def field_names(self, pieces: frozenset | None) -> set[str]:
        names = set(IMPLICIT_FIELDS)
        if pieces is None:
            names.update(self._by_field)
            return names
        for piece in pieces:
            names.update(self.pieces.get(piece, ()))
        return names

    def field_type(self, field: str, pieces: frozenset | None) -> tuple[T.Ty, bool] | None:
        """(type, optional) of `field` on pieces of these types; None when none of them has it.
        Remembered: a field many piece types share is asked about once per expression."""
        key = (field, pieces)
        if key not in self._field_types:
            self._field_types[key] = self._field_type(field, pieces)
        return self._field_types[key]

    def _field_type(self, field: str, pieces: frozenset | None) -> tuple[T.Ty, bool] | None:
        if field in IMPLICIT_FIELDS:
            return IMPLICIT_FIELDS[field], False
        having = self._by_field.get(field, ())
        if pieces is None:
            found = [decl for _, decl in having]
        elif len(pieces) < len(having):
            found = [self.pieces[p][field] for p in pieces if field in self.pieces.get(p, ())]
        else:
            found = [decl for piece, decl in having if piece in pieces]
        if not found:
            return None
        types = {self.type_ref(f.type) for f in found}
        optional = any(f.type.optional for f in found)
        return (types.pop() if len(types) == 1 else T.UNKNOWN), optional

    # ── candidates for "did you mean" ──
    def value_names(self) -> set[str]:
        """Every global a value expression may name (and those it may name with arguments)."""
        names = self.__dict__.get("_value_names")
        if names is None:   # asked once per unknown name: gathered once
            kinds = ("const", "var", "zone", "board", "enum", "def", "option")
            names = self._value_names = frozenset(
                {n for n, d in self.p.decls.items() if d.kind in kinds}
                | set(self.p.enum_members) | set(self.p.board_nodes) | {"players", "score"})
        return set(names)

    def callable_names(self) -> set[str]:
        names = {n for n, d in self.p.decls.items() if d.kind in ("def", "zone")}
        names |= {n for n, d in self.p.decls.items() if d.kind == "var" and d.index is not None}
        return names | set(builtins.FUNCTIONS) | set(builtins.BOARD_FUNCTIONS) | {"score", "previous"}

    def names_of_kind(self, *kinds: str) -> list[str]:
        return [n for n, d in self.p.decls.items() if d.kind in kinds]


def token_span(span: Span, text: str, before: str | None = None) -> Span:
    """The span of the first word `text` inside `span` (after the word `before`, if given).

    For the few names the AST keeps without a span of their own; falls back to `span`.
    """
    lead = r"(?<![\w])" if not before or before[0].isalnum() or before[0] == "_" else ""
    pattern = re.compile(lead + (re.escape(before) + r"\s*" if before else "")
                         + "(" + re.escape(text) + r")(?![\w])")
    last = max(span.end_line, span.line)
    for number in range(span.line, last + 1):
        line = SourceRegistry.line(span.file, number)
        if line is None:
            break
        start = span.column - 1 if number == span.line else 0
        code = line.split("#", 1)[0] if '"' not in line else line
        match = pattern.search(code, max(start, 0))
        if match:
            return Span(span.file, number, match.start(1) + 1, number, match.end(1) + 1)
    return span
