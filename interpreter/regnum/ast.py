"""The syntax tree: frozen dataclasses, one per grammar rule, each with its span.

Grammar rule `move_stmt` builds `MoveStmt`, and so on; only build.py creates
these nodes and every later stage reads them without touching Lark.
"""
from __future__ import annotations

from dataclasses import field
from typing import Optional, Union

from .records import record as node
from .source import Span


# ── Expressions ──────────────────────────────────────────────────────────────

@node
class IntLit:
    span: Span
    value: int


@node
class StrLit:
    span: Span
    value: str


@node
class BoolLit:
    span: Span
    value: bool


@node
class NoneLit:
    span: Span


@node
class Name:
    span: Span
    name: str


@node
class ListLit:
    span: Span
    items: tuple


@node
class MapLit:
    span: Span
    entries: tuple  # of (key: str, key_span: Span, value: Expr)


@node
class CompFor:
    """A further `for x in xs where c` clause of a comprehension (the first is inline)."""

    span: Span
    var: str
    source: "Expr"
    cond: Optional["Expr"]


@node
class ListComp:
    span: Span
    element: "Expr"
    var: str
    source: "Expr"
    cond: Optional["Expr"]
    more: tuple = ()  # of CompFor: `[e for a in as for b in bs]`


@node
class Aggregate:
    """`count(x for x in xs where c)`: a builtin over a generator."""

    span: Span
    func: str
    element: "Expr"
    var: str
    source: "Expr"
    cond: Optional["Expr"]
    more: tuple = ()  # of CompFor


@node
class RandomExpr:
    """`random one of xs` / `random N of xs`: the value of a let or set, drawn from the
    game's seeded generator (the only expression with an effect: it advances the generator)."""

    span: Span
    count: Optional["Expr"]  # None: one item
    source: "Expr"


@node
class DataFile:
    """`const NAME from "file.json"`: the value read from a data file beside the ruleset.

    `value` is filled in when the program is loaded (program.py), which also checks the file.
    """

    span: Span
    path: str
    value: object = None
    digest: str = ""


@node
class Call:
    span: Span
    func: str
    func_span: Span
    args: tuple


@node
class Attribute:
    span: Span
    obj: "Expr"
    name: str
    name_span: Span


@node
class Index:
    span: Span
    obj: "Expr"
    index: "Expr"


@node
class Unary:
    span: Span
    op: str  # "-" | "not"
    operand: "Expr"


@node
class Binary:
    span: Span
    op: str
    left: "Expr"
    right: "Expr"


@node
class IfExpr:
    span: Span
    cond: "Expr"
    then: "Expr"
    otherwise: "Expr"


@node
class Template:
    """An announce text: literal pieces and `{expr}` holes, in order."""

    span: Span
    parts: tuple  # of str | Expr


Expr = Union[IntLit, StrLit, BoolLit, NoneLit, Name, ListLit, MapLit, ListComp,
             Aggregate, Call, Attribute, Index, Unary, Binary, IfExpr, RandomExpr, DataFile]


# ── Types ────────────────────────────────────────────────────────────────────

@node
class TypeRef:
    span: Span
    name: str | None  # None for a list type
    optional: bool = False
    item: Optional["TypeRef"] = None

    def __str__(self) -> str:
        if self.item is not None:
            return f"list of {self.item}"
        return f"{self.name}?" if self.optional else str(self.name)


# ── Statements ───────────────────────────────────────────────────────────────

@node
class LetStmt:
    span: Span
    name: str
    value: Expr


@node
class SetStmt:
    span: Span
    target: Expr
    value: Expr


@node
class AddStmt:
    span: Span
    amount: Expr
    target: Expr
    negate: bool = False  # `subtract X from T`


@node
class MoveStmt:
    span: Span
    pieces: Expr
    dest: Expr


@node
class MoveCountStmt:
    span: Span
    count: Expr
    source: Expr
    dest: Expr


@node
class CreateStmt:
    span: Span
    count: Expr
    piece_type: str
    type_span: Span
    fields: tuple  # of (name, span, Expr)
    dest: Expr
    label: Optional[Expr]


@node
class ShuffleStmt:
    span: Span
    zone: Expr


@node
class RevealStmt:
    span: Span
    pieces: Expr


@node
class AskStmt:
    span: Span
    player: Expr
    actions: tuple  # of (name, span)


@node
class RunStmt:
    span: Span
    name: str
    name_span: Span
    args: tuple


@node
class ScoreStmt:
    span: Span
    name: str
    name_span: Span
    args: tuple
    result: Optional[str] = None   # `as R`: a local holding the ranking, best first


@node
class AnnounceStmt:
    span: Span
    text: Template


@node
class EndStmt:
    span: Span


@node
class PassStmt:
    span: Span


@node
class NewTurnStmt:
    span: Span


@node
class IfStmt:
    span: Span
    branches: tuple  # of (cond, body)
    otherwise: tuple | None


@node
class ForStmt:
    span: Span
    var: str
    source: Expr
    cond: Optional[Expr]
    body: tuple


@node
class RepeatStmt:
    span: Span
    count: Expr
    body: tuple


@node
class UntilStmt:
    """`repeat until C:` runs the body, then stops once C holds."""

    span: Span
    cond: Expr
    body: tuple


@node
class WhileStmt:
    span: Span
    cond: Expr
    body: tuple


@node
class SimultaneousStmt:
    span: Span
    var: str
    source: Expr
    cond: Optional[Expr]
    body: tuple


Stmt = Union[LetStmt, SetStmt, AddStmt, MoveStmt, MoveCountStmt, CreateStmt,
             ShuffleStmt, RevealStmt, AskStmt, RunStmt, ScoreStmt, AnnounceStmt,
             EndStmt, PassStmt, NewTurnStmt, IfStmt, ForStmt, RepeatStmt, UntilStmt, WhileStmt,
             SimultaneousStmt]


# ── Declarations ─────────────────────────────────────────────────────────────
# Every declaration has a `kind` and a `name`: the stable handle by which a
# variant replaces or removes it.

@node
class GameDecl:
    span: Span
    name: str
    title: str
    kind = "game"


@node
class ImportDecl:
    span: Span
    modules: tuple  # of (name, span)
    kind = "import"

    @property
    def name(self) -> str:
        return "import " + ", ".join(m for m, _ in self.modules)


@node
class PlayersDecl:
    span: Span
    minimum: int
    maximum: int
    kind = "players"
    name = "players"


@node
class ConstDecl:
    span: Span
    name: str
    value: Expr
    kind = "const"


@node
class EnumDecl:
    span: Span
    name: str
    members: tuple  # of (name, span)
    kind = "enum"


@node
class BoardDecl:
    span: Span
    name: str
    topology: str
    nodes: tuple  # of (name, span)
    edges: tuple  # of ((a, span), (b, span))
    settings: tuple  # of (name, span, Expr)
    kind = "board"


@node
class FieldDecl:
    span: Span
    name: str
    type: TypeRef
    default: Optional[Expr]


@node
class PieceDecl:
    span: Span
    name: str
    fields: tuple
    kind = "piece"


@node
class ZoneDecl:
    span: Span
    name: str
    index: Optional[str]  # None, "player", or a board/enum name
    index_span: Optional[Span]
    visibility: str
    kind = "zone"


@node
class VarDecl:
    span: Span
    name: str
    index: Optional[str]  # None (one value), "player", or a board or enum name (one value per index)
    type: TypeRef
    init: Expr
    visibility: str = "public"  # public | owner (per-player only: its seat sees it) | hidden
    index_span: Optional[Span] = None
    each_turn: bool = False     # `, each turn`: back to its first value at every `new turn`
    kind = "var"

    @property
    def per_player(self) -> bool:
        return self.index == "player"

    @property
    def per_index(self) -> bool:
        """One value per cell of a board or member of an enum (a table, not a per-player row)."""
        return self.index is not None and self.index != "player"


@node
class OptionDecl:
    """`option NAME: TYPE = DEFAULT`: chosen when a game is created, then fixed; its
    `require` clauses say which values a game accepts."""

    span: Span
    name: str
    type: TypeRef
    default: Expr
    requires: tuple = ()
    kind = "option"


@node
class ViewDecl:
    """`view BOARD(CELL): TEXT on COLOUR [over pieces]`: how the terminal draws each cell of a
    board; or `view PIECE(X): TEXT`: how a piece of that type reads to players."""

    span: Span
    board: str
    board_span: Span
    var: str
    text: Expr
    colour: Optional[Expr]
    over_pieces: bool = False   # the text is drawn over the cell's pieces, in their owner's colour
    kind = "view"

    @property
    def name(self) -> str:
        return f"view {self.board}"


@node
class DefDecl:
    span: Span
    name: str
    params: tuple
    body: Expr
    kind = "def"


@node
class SetupDecl:
    span: Span
    body: tuple
    kind = "setup"
    name = "setup"


@node
class FlowDecl:
    span: Span
    body: tuple
    kind = "flow"
    name = "flow"


@node
class PhaseDecl:
    span: Span
    name: str
    body: tuple
    kind = "phase"
    params = ()


@node
class RuleDecl:
    span: Span
    name: str
    params: tuple
    body: tuple
    kind = "rule"


@node
class Clause:
    """A named condition of an action: `require` or `prefer`."""

    span: Span
    name: str
    cond: Expr
    message: Optional[str]
    per: tuple = ()  # prefer only: (name, span) of the parameters the preference is grouped by


@node
class ActionParam:
    span: Span
    name: str
    domain: Expr


@node
class ActionDecl:
    span: Span
    name: str
    params: tuple
    requires: tuple
    prefers: tuple
    body: tuple
    label: Optional["Template"] = None  # how a move of this action reads (`label "build at {h}"`)
    offered_with: Optional[tuple] = None  # (name, span): every ask offering that action offers this one
    kind = "action"


@node
class PolicyName:
    span: Span
    name: str


@node
class PolicyKey:
    span: Span
    order: str  # "highest" | "lowest"
    key: Expr   # the value compared; for a seat-order policy, the seat it counts from
    seats: Optional[str] = None   # "clockwise" | "counterclockwise": `by nearest … after SEAT`


@node
class ScoringDecl:
    span: Span
    name: str
    params: tuple
    measure: Expr
    var: str
    source: Expr
    pays: Optional[Expr]
    places: Optional[Expr]
    needs: Optional[Expr]
    ties: tuple  # of PolicyName | PolicyKey
    into: Optional[str]
    kind = "scoring"


@node
class TiebreakDecl:
    span: Span
    name: str
    chain: tuple
    kind = "tiebreak"


@node
class TriggerDecl:
    span: Span
    name: str
    piece_var: str
    zone: str
    zone_span: Span
    index_var: Optional[str]
    cond: Optional[Expr]
    body: tuple
    event: str = "enters"  # "enters" | "leaves"
    once: bool = False        # fires at most once a game
    after_move: bool = False  # runs when the move that moved the piece is over
    kind = "trigger"


@node
class InvariantDecl:
    span: Span
    name: str
    cond: Expr
    message: Optional[str]
    kind = "invariant"


@node
class StatisticDecl:
    """`statistic NAME: EXPR`: a number about a game that authors compare between variants."""
    span: Span
    name: str
    value: Expr
    kind = "statistic"


@node
class WinnerKey:
    span: Span
    order: str  # "highest" | "lowest" | "shared"
    key: Optional[Expr]


@node
class EndsDecl:
    """`ends within N moves`: a bound on the length of every game, which the fuzzer checks."""
    span: Span
    limit: Expr
    kind = "ends"
    name = "ends"


@node
class WinnerDecl:
    span: Span
    var: str
    keys: tuple
    kind = "winner"
    name = "winner"


@node
class VariantDecl:
    span: Span
    name: str
    base: str
    base_span: Optional[Span] = None
    quoted: bool = True          # `of "base.rules"` names a file, `of kings_road` a bundled ruleset
    kind = "variant"


@node
class RemoveDecl:
    span: Span
    target_kind: str
    target: str
    kind = "remove"

    @property
    def name(self) -> str:
        return f"remove {self.target_kind} {self.target}"


@node
class Module:
    """One parsed file: its path, its text and its declarations in order."""

    file: str
    decls: tuple
    imports: tuple = field(default=())


# ── Walking the tree ─────────────────────────────────────────────────────────

_PARTS: dict = {}   # kind of value -> the names of its fields that are parts (parts_of)


def parts_of(kind: type) -> tuple:
    """The names of the fields of a kind of syntax node other than its span, in order: what a
    walk of the tree goes into. None for a kind that is not a dataclass (a text, a number, a
    tuple). Found once per kind: the compiler's walks ask for every node of every
    expression."""
    try:
        return _PARTS[kind]
    except KeyError:
        fields = getattr(kind, "__dataclass_fields__", None)
        found = _PARTS[kind] = None if fields is None else tuple(f for f in fields if f != "span")
        return found
