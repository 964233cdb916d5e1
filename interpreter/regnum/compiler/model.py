"""The executable model: what the compiler hands the engine.

Everything here is built once per ruleset; a game only ever reads it. Code is
a flat list of instructions (closures) with jumps, so a suspended procedure is
just (name, pc, locals) in the state — plain data, no Python frames.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..boards import KEPT_TEXT, Board, coordinates
from ..source import Span

__all__ = ["Code", "ZoneFamily", "PieceType", "Board", "Param", "Clause", "Action", "Scoring", "Trigger",
           "Invariant", "Statistic", "TableVar", "OptionSpec", "View", "Model"]


@dataclass
class Code:
    name: str
    kind: str           # flow, setup, phase, rule, action, trigger, block
    span: Span
    ops: list = field(default_factory=list)     # instruction closures
    spans: list = field(default_factory=list)   # the statement span of each instruction
    cover: str = ""            # the name coverage counts it under (a specialised copy counts as its rule)

    def __post_init__(self):
        self.cover = self.cover or self.name


class ZoneKeys(dict):
    """Index -> zone key of a zone family; a lookup that misses says which zone does not exist."""

    __slots__ = ("family",)

    def __init__(self, family: str, keys):
        super().__init__(keys)
        self.family = family

    def __missing__(self, index):
        from ..builtins import EvalError
        raise EvalError(f"{self.family}({index!r}) is not a zone")


_KEYS_MADE = 1 << 16   # zone keys of an open grid's cells remembered per family, over every game


class MadeKeys(dict):
    """Cell -> zone key of the cells of an open grid already met, as items: generated code
    reads this dict, so a cell met before costs one plain lookup and not a call of
    `__missing__`; the first lookup of a text checks that it is a cell. Bounded, in entries
    and in their size (boards.KEPT_TEXT); past the bound, keys are made and not kept."""

    __slots__ = ("family",)

    def __init__(self, family: str):
        super().__init__()
        self.family = family

    def __missing__(self, index):
        if coordinates(index) is None:
            from ..builtins import EvalError
            raise EvalError(f"{self.family}({index!r}) is not a zone: {index!r} is not a cell (row,col)")
        key = f"{self.family}#{index}"
        if len(self) < _KEYS_MADE and len(index) <= KEPT_TEXT:
            self[index] = key
        return key


class OpenKeys(ZoneKeys):
    """Cell -> zone key of a zone family per open grid: any cell has one, whether in use or
    not (the state holds the zones of the cells in use only). It lists no items, since what
    iterates zone keys (a new game's zones, a saved game's check) must meet no cell: the keys
    made so far are the items of `made`, which lookups go through."""

    __slots__ = ("made",)

    def __init__(self, family: str, keys):
        super().__init__(family, keys)
        self.made = MadeKeys(family)

    def __missing__(self, index):
        return self.made[index]


class OpenIndex(dict):
    """Zone key -> cell of a zone family per open grid (the text after '#')."""

    __slots__ = ()

    def __missing__(self, key):
        return key.partition("#")[2]

    def get(self, key, default=None):
        return key.partition("#")[2]


@dataclass
class ZoneFamily:
    name: str
    index: str | None          # None, "player", or a board / enum name
    visibility: str            # public | owner | hidden
    keys: dict                 # index value -> zone key ("" for a single zone)
    span: Span
    index_of: dict = field(default_factory=dict)   # zone key -> index value
    open: bool = False         # per an open grid: `keys` computes the key of any cell

    def __post_init__(self):
        if self.open:
            self.keys, self.index_of = OpenKeys(self.name, ()), OpenIndex()
            return
        self.keys = ZoneKeys(self.name, self.keys)
        self.index_of = {key: index for index, key in self.keys.items()}

    def items(self, state) -> list:
        """(index, zone key) of each zone: of an open grid, those of the cells in use."""
        if self.open:
            return [(cell, f"{self.name}#{cell}") for cell in state.grids[self.index]["cells"]]
        return list(self.keys.items())


@dataclass
class PieceType:
    name: str
    fields: list               # [(name, type_text, default closure or None)]
    span: Span
    size: int = 0              # a record's size with its defaults, but for its label (state_size)

    def __post_init__(self):
        from ..engine.state import size_of
        self.size = size_of({"type": self.name, "label": ""} | {n: d for n, _, d in self.fields}) + 1


@dataclass
class Param:
    name: str
    domain: Callable           # (ctx, env) -> list of values
    encode_pieces: bool        # encode pieces as their labels in a move's args
    span: Span
    depends: tuple = ()        # the earlier parameters the domain reads (it is computed once per their values)
    # The distinct choices, when the domain is a list no game can change (a fixed board's
    # cells, an enum, a constant): computed once, at load, instead of at every listing.
    fixed: tuple | None = None


@dataclass
class Clause:
    name: str
    cond: Callable
    message: str
    span: Span
    hit: str = ""              # coverage name: counted each time the clause excludes a choice
    level: int = -1            # require: checked once the parameters up to this index are chosen
    per: tuple = ()            # prefer: the parameters whose values group the moves it narrows
    many: Callable | None = None   # prefer: (ctx, [env…]) -> [holds…], every move judged at once
    # prefer: (ctx, player, [move…]) -> what _narrow keeps, generated (a move: decisions.move_shape)
    narrow: Callable | None = None


@dataclass
class Action:
    name: str
    params: list
    requires: list
    prefers: list
    body: str                  # name of the Code to run
    span: Span
    native: Callable | None = None   # the body as a Python function, when it never waits
    label: list | None = None  # [(text, None, None) | (None, closure, kind)]: how a move reads
    # The requires of each parameter, compiled into one filter per parameter:
    # filter(ctx, env, [(value, encoded)…], hits | None) -> the items that pass them all.
    # None until the generic walk first needs them (walk_filters), when there is a lister.
    filters: list | None = field(default_factory=list)
    first: list = field(default_factory=list)   # the requires that read no parameter: checked before any choice
    secret: bool = False       # its effect changes what not every seat sees: naming a move would tell
    # The generated function listing its moves: lister(ctx, player, hits | None, stop) ->
    # [move…], each move a flat tuple (decisions.move_shape) (compiler/listers.py); None: the
    # generic walk over params and filters.
    lister: Callable | None = None
    make_filters: Callable | None = None   # () -> the filters
    # The lister with the action's one prefer judged group by group, for listings without
    # coverage (listers.preferring_lister); None: the lister, then the narrowing. Made at
    # its first use (decisions.preferring), by make_preferring: most loads list nothing.
    preferring: Callable | None = field(default=None, compare=False, repr=False)
    make_preferring: Callable | None = field(default=None, compare=False, repr=False)
    # (env) -> (player, the parameters' values…): the arguments of `native`, read from a
    # move's env in one call (runtime.run_native makes it on first use).
    native_args: Callable | None = field(default=None, compare=False, repr=False)
    # How a listed move's flat tuple reads as arguments and env (decisions.move_shape, made on
    # first use).
    shape: tuple | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        self.first = [c for c in self.requires if c.level < 0]

    def walk_filters(self) -> list:
        """The filters, compiled on first use: an action with a lister needs them only when
        the generic walk is taken (tests compare the two), and a load should not pay for both."""
        if self.filters is None:
            self.filters = self.make_filters()
        return self.filters


@dataclass
class Scoring:
    name: str
    params: tuple
    run: Callable              # (ctx, *args) -> None: counts, ranks, pays, keeps the ranking, narrates
    span: Span


@dataclass
class Trigger:
    name: str
    zone: str
    piece_var: str
    index_var: str | None
    cond: Callable | None
    body: str
    span: Span
    event: str = "enters"      # enters | leaves
    once: bool = False         # fires at most once a game (State.once)
    after_move: bool = False   # runs when the move's action is over (Ctx.deferred)
    # A condition of the zone's index and constants alone: zone key -> whether it holds there,
    # judged at the first piece into (or out of) that zone (Ctx._fire); None for any other.
    known: dict | None = None


@dataclass
class TableVar:
    """A variable with one value per cell of a board or member of an enum."""

    name: str
    index: str                 # the board or enum
    keys: list                 # every index value (none for an open grid: the cells in use)
    init: Callable             # (ctx, env) -> the starting value (the same for every index)
    visibility: str
    span: Span
    open: bool = False         # per an open grid: values of the cells in use only (State.grids)
    keys_size: int | None = None   # size_of of every key together, once measured (Game.prepared)


@dataclass
class OptionSpec:
    name: str
    type: str                  # the declared type, as written
    check: Callable            # value -> None, or a message saying why it does not fit the type
    default: Callable          # (ctx, env) -> the default value
    requires: list             # [Clause]: what a game accepts
    span: Span


@dataclass
class View:
    board: str
    var: str
    text: Callable             # (ctx, env) -> the text of a cell
    colour: Callable | None    # (ctx, env) -> a colour name
    span: Span
    over_pieces: bool = False  # the text shows even where pieces lie (in their owner's colour)


@dataclass
class Invariant:
    name: str
    cond: Callable
    message: str
    span: Span


@dataclass
class Statistic:
    name: str
    value: Callable            # (ctx, env) -> a number
    span: Span


@dataclass
class Model:
    name: str
    title: str
    path: str
    hash: str
    variant: str | None
    min_players: int
    max_players: int
    consts: dict
    boards: dict
    pieces: dict
    zones: dict                 # family name -> ZoneFamily
    globals: dict               # name -> init closure
    player_vars: dict           # name -> init closure
    codes: dict                 # name -> Code
    actions: dict               # name -> Action
    scorings: dict
    triggers: dict              # zone family -> [Trigger] (pieces entering)
    invariants: list
    winner_keys: list           # [(order, closure(ctx, env) )], env binds the winner var
    winner_var: str
    winner_span: Span | None
    rules: list                 # [(kind, name, span)]: everything coverage counts
    each_turn_globals: tuple = ()        # variables `, each turn`: reset by `new turn`
    each_turn_player_vars: tuple = ()
    secret_vars: dict = field(default_factory=dict)    # var name -> "owner" | "hidden" (the rest is public)
    natives: dict = field(default_factory=dict)        # code name -> Python function (native.py)
    native_spans: dict = field(default_factory=dict)   # generated file -> {line: span}
    natives_fire: bool = False  # every trigger is native: fired triggers are called, not pushed
    trigger_of: dict = field(default_factory=dict)     # trigger code name -> Trigger
    warnings: list = field(default_factory=list)
    leave_triggers: dict = field(default_factory=dict)  # zone family -> [Trigger] (pieces leaving)
    tables: dict = field(default_factory=dict)          # name -> TableVar
    options: dict = field(default_factory=dict)         # name -> OptionSpec
    views: dict = field(default_factory=dict)           # board -> View
    expressions: object = None                          # the ExprCompiler (Game.evaluate compiles with it)
    move_bound: int | None = None                       # `ends within N moves`: every game ends by then
    # open grid -> ([zone families per it], [variables per it]): what a cell coming into use gets
    grids: dict = field(default_factory=dict)
    statistics: list = field(default_factory=list)      # [Statistic], in the order they are declared
