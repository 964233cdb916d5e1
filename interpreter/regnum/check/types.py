"""The checker's small static types: what an expression certainly is, or `unknown`.

Types exist only to catch mistakes before play; the runtime has none. The
rule everywhere is leniency: `unknown` is compatible with everything and
never causes an error, so a diagnostic means the mistake is certain.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ty:
    kind: str                       # int bool str none player node member piece list map zone board unknown
    name: str | None = None         # node, board: the board; member: the enum; zone: the family
    item: "Ty | None" = None        # list: the item type; map: the value type
    pieces: frozenset | None = None  # piece, zone: the possible piece types (None: any)
    keys: frozenset | None = None   # map: its keys, when known


INT = Ty("int")
BOOL = Ty("bool")
STR = Ty("str")
NONE = Ty("none")
PLAYER = Ty("player")
UNKNOWN = Ty("unknown")
ANY_PIECE = Ty("piece")

SCALARS = {"int": INT, "bool": BOOL, "str": STR, "player": PLAYER, "piece": ANY_PIECE}


# A walk asks for the same few types thousands of times, and a frozen dataclass is slow to
# build: the types below are kept once made (types are values, never changed).
_MADE: dict = {}
_MADE_MOST = 4096   # emptied past this: a process that checks many rulesets does not keep them all


def _made(kind: str, name, item, pieces=None) -> Ty:
    key = (kind, name, item, pieces)
    t = _MADE.get(key)
    if t is None:
        if len(_MADE) >= _MADE_MOST:
            _MADE.clear()
        t = _MADE[key] = Ty(kind, name=name, item=item, pieces=pieces)
    return t


def list_of(item: Ty) -> Ty:
    return _made("list", None, item)


def node_of(board: str) -> Ty:
    return _made("node", board, None)


def member_of(enum: str) -> Ty:
    return _made("member", enum, None)


def piece_of(types) -> Ty:
    return _made("piece", None, None, None if types is None else frozenset(types))


def zone_of(family: str, pieces) -> Ty:
    return _made("zone", family, None, pieces)


def map_of(keys, value: Ty) -> Ty:
    return Ty("map", item=value, keys=None if keys is None else frozenset(keys))


def board_of(board: str) -> Ty:
    return Ty("board", name=board)


def param(name: str) -> Ty:
    """The type of a rule's or def's parameter inside its body: unknown, but traceable.

    Where the body needs a certain type of it (an index, a player…), the
    walk records that expectation, and the callers' arguments are checked.
    """
    return Ty("unknown", name=name)


ANY_ZONE = Ty("zone")


def of_value(value) -> Ty:
    """The type of a value read from a data file."""
    if value is None:
        return NONE
    if type(value) is bool:
        return BOOL
    if type(value) is int:
        return INT
    if type(value) is str:
        return STR
    if type(value) is list:
        item = NONE
        for x in value[:200]:
            item = join(item, of_value(x))
        return list_of(UNKNOWN if item.kind == "none" else item)
    if type(value) is dict:
        item = NONE
        for x in list(value.values())[:200]:
            item = join(item, of_value(x))
        return map_of(value.keys(), UNKNOWN if item.kind == "none" else item)
    return UNKNOWN


# ── questions: each is True only when the answer is certain ──

def known(t: Ty) -> bool:
    return t.kind != "unknown"


def is_number(t: Ty) -> bool:
    return t.kind in ("int", "player")


def not_bool(t: Ty) -> bool:
    return t.kind not in ("bool", "unknown")


def not_number(t: Ty) -> bool:
    return t.kind not in ("int", "player", "unknown")


def not_list(t: Ty) -> bool:
    return t.kind not in ("list", "zone", "unknown")


def is_textual(t: Ty) -> bool:
    """Values that are strings at run time: texts, board nodes and enum members."""
    return t.kind in ("str", "node", "member")


def item_of(t: Ty) -> Ty:
    """What iterating over `t` gives."""
    if t.kind == "list":
        return t.item or UNKNOWN
    if t.kind == "zone":
        return _made("piece", None, None, t.pieces)
    return UNKNOWN


def join(a: Ty, b: Ty) -> Ty:
    """A type that covers both (unknown when they have nothing useful in common)."""
    if a is b or a == b:
        return a
    if a.kind == "none":
        return b
    if b.kind == "none":
        return a
    if "unknown" in (a.kind, b.kind):
        return UNKNOWN
    if is_number(a) and is_number(b):
        return INT
    if a.kind in ("list", "zone") and b.kind in ("list", "zone"):
        return list_of(join(item_of(a), item_of(b)))
    if a.kind == b.kind == "piece":
        if a.pieces is None or b.pieces is None:
            return ANY_PIECE
        return piece_of(a.pieces | b.pieces)
    if a.kind == b.kind == "map":
        keys = a.keys | b.keys if a.keys is not None and b.keys is not None else None
        return map_of(keys, join(a.item or UNKNOWN, b.item or UNKNOWN))
    return UNKNOWN


def accepts(target: Ty, value: Ty, optional: bool = False) -> bool:
    """May a value of type `value` be stored where `target` is declared? Lenient."""
    if "unknown" in (target.kind, value.kind):
        return True
    if value.kind == "none":
        return optional
    if is_number(target) and is_number(value):
        return True
    if target.kind == "list":
        return value.kind in ("list", "zone") and accepts(target.item or UNKNOWN, item_of(value))
    if target.kind != value.kind:
        return False
    if target.kind == "zone" and target.name is None:
        return True
    if target.kind in ("node", "member", "board", "zone"):
        return target.name == value.name
    if target.kind == "piece":
        return target.pieces is None or value.pieces is None or bool(target.pieces & value.pieces)
    return True


_FAMILY = {"int": "number", "player": "number", "str": "text", "node": "text", "member": "text",
           "bool": "bool", "piece": "piece", "list": "list", "zone": "list", "map": "map", "board": "board"}


def comparable(a: Ty, b: Ty) -> bool:
    """False when `a == b` can never hold: a number against a text, values of two enums…"""
    if "unknown" in (a.kind, b.kind) or "none" in (a.kind, b.kind):
        return True
    if _FAMILY[a.kind] != _FAMILY[b.kind]:
        return False
    if a.kind in ("node", "member") and b.kind in ("node", "member"):
        return a.kind == b.kind and a.name == b.name
    if a.kind == "board":
        return a.name == b.name
    return True


def describe(t: Ty) -> str:
    """A type in words, with an article: 'a number', 'a list of players'."""
    k = t.kind
    if k == "int":
        return "a number"
    if k == "bool":
        return "a boolean"
    if k == "str":
        return "a text"
    if k == "none":
        return "none"
    if k == "player":
        return "a player"
    if k == "node":
        return f"a node of board '{t.name}'"
    if k == "member":
        return f"a value of enum '{t.name}'"
    if k == "piece":
        return "a piece" if not t.pieces else "a " + " or ".join(sorted(t.pieces))
    if k == "list":
        inner = t.item or UNKNOWN
        return "a list" if inner.kind == "unknown" else f"a list of {_plural(inner)}"
    if k == "map":
        return "a map"
    if k == "zone":
        return f"the zone '{t.name}'" if t.name else "a zone"
    if k == "board":
        return f"the board '{t.name}'"
    return "a value"


def _plural(t: Ty) -> str:
    words = {"int": "numbers", "bool": "booleans", "str": "texts", "player": "players", "none": "nones",
             "list": "lists", "map": "maps", "zone": "zones", "board": "boards"}
    if t.kind in words:
        return words[t.kind]
    if t.kind == "node":
        return f"nodes of board '{t.name}'"
    if t.kind == "member":
        return f"values of enum '{t.name}'"
    if t.kind == "piece":
        return "pieces" if not t.pieces else " or ".join(sorted(t.pieces)) + " pieces"
    return "values"
