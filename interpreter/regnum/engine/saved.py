"""Loading a saved game (`Game.to_json()`) that a stranger may have written or edited.

A saved game is checked in four steps, each refusing with a StateError that names the field
path (`state.pieces[12].owner`):

1. its shape, by pydantic models with strict types (`SavedGame`): the format, every field
   present with a value of its JSON type, no `true` or `2.0` where a whole number belongs;
2. against the ruleset: the seats, the declared variables with values of their declared types,
   the zones, every piece in exactly one zone with each declared field of its type, the places
   in the flow, and the counts;
3. the ruleset's invariants;
4. against its own moves: a saved game records every move that made it, so the moves are
   replayed from its seed and options and the result must be the state written. Steps 1–3
   catch what is malformed and say where; only this one makes the promise that matters —
   a state that is accepted is one the game can reach, so it plays on exactly as the game it
   was saved from (no type the runtime does not expect, no loop counter or seat in a
   suspended rule that the rules could never have put there). Its cost is a replay, paid
   once at load.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, create_model

from ..boards import coordinates
from .game import _move_text
from .state import canonical_json
from ..documents import (PLAIN_TYPES, STATE_FORMAT, BadValue, MembersRead, StateError, all_plain,
                         first_error, json_value, read_document)
from ..log import LogMove
from ..moves import Move, made_move

Frame = tuple[StrictStr, StrictInt, dict[StrictStr, Any]]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SavedThread(_Strict):
    player: StrictInt = Field(ge=0)
    stack: list[Frame]


class SavedFlow(_Strict):
    main: list[Frame]
    threads: list[SavedThread] | None


class SavedPiece(BaseModel):
    """A piece: its type and label, then its declared fields (checked against the ruleset)."""

    model_config = ConfigDict(extra="allow")
    type: StrictStr
    label: StrictStr


class SavedGrid(_Strict):
    """An open grid's cells in use, in the order they came into use, and the starting value
    of each variable per its cells."""

    cells: list[StrictStr]
    start: dict[StrictStr, Any]


class SavedState(_Strict):
    vars: dict[StrictStr, Any]
    player_vars: list[dict[StrictStr, Any]]
    tables: dict[StrictStr, dict[StrictStr, Any]]
    zones: dict[StrictStr, list[StrictInt]]
    pieces: list[SavedPiece]
    flow: SavedFlow
    rng: StrictInt = Field(ge=0, lt=2 ** 64)
    revealed: list[StrictInt]
    moves: StrictInt = Field(ge=0)
    once: list[StrictStr] = Field(default_factory=list)   # the `once` triggers that have fired
    grids: dict[StrictStr, SavedGrid] = Field(default_factory=dict)   # open grids: the cells in use


class _SavedHead(_Strict):
    format: Literal["regnum-state/1"]   # STATE_FORMAT
    ruleset: StrictStr
    ruleset_hash: StrictStr
    variant: StrictStr | None
    players: StrictInt
    seed: StrictInt


class SavedGame(_SavedHead):
    """The JSON of `Game.to_json()`: `regnum-state/1`."""

    moves: list[LogMove]
    state: SavedState


class _SavedRest(_SavedHead):
    """A SavedGame's fields but its moves, in the same order: what is left to read once every
    move was read as plain (`_plain_moves`), refused by pydantic exactly as SavedGame refuses
    it, since the moves it leaves out hold nothing to refuse."""

    state: SavedState


@dataclass(frozen=True, slots=True)
class Saved:
    """A saved game as read by step 1: its fields, and its moves as the game keeps them."""

    ruleset: str
    variant: str | None
    players: int
    seed: int
    moves: list[Move]
    state: SavedState
    # The canonical text of each move (`Game.to_json` writes them so), when they are known
    # from an earlier read (MovesRead): the game read back need not write them again.
    move_texts: tuple[str, ...] | None = None


def parse(ruleset, data) -> tuple[Saved, dict]:
    """Step 1: the saved game's JSON (text, bytes or dict) as read by the models, and as read
    (without its moves when they were read before: see MovesRead).

    A saved game lists every move that made it, and the fuzzer reads one back at every step
    of a game, so its moves are read first in plain Python when every one is plain; any other
    log is read by SavedGame, whose messages say what is wrong."""
    text = data if type(data) is str else None
    known = getattr(ruleset, "moves_read", None) if text is not None else None
    if known is not None:
        read = _read_after(ruleset, known, text)
        if read is not None:
            return read
    members = _members(known) if text is not None else None
    data = read_document(data, "saved game", StateError, ruleset.limits, STATE_FORMAT, members)
    moves = _plain_moves(data.get("moves"))
    plain = moves is not None
    try:
        if moves is None:
            record = SavedGame.model_validate(data)
            moves = [Move(m.player, m.action, dict(m.args)) for m in record.moves]
        else:
            rest = dict(data)
            del rest["moves"]
            record = _validated(rest, members, known)
    except ValidationError as err:
        where, message = first_error(err)
        raise StateError(f"state field '{where}': {message}") from None
    if plain and text is not None:
        # The moves' texts are made if the next text goes on from them.
        ruleset.moves_read = MovesRead(tuple(moves), parts=_parts(members, record.state))
    return Saved(record.ruleset, record.variant, record.players, record.seed, moves, record.state), data


# How the text of a saved game begins, when `Game.to_json` wrote it: its moves come first.
_HEAD = '{"format":' + canonical_json(STATE_FORMAT) + ',"moves":['


@dataclass(frozen=True, slots=True)
class MovesRead:
    """The moves of the last saved game a ruleset read, for a text that lists them first.

    The fuzzer reads a game back at every step, and a server may load a game at every move:
    each text lists the moves of the one before and one more. Written by `Game.to_json`, such
    a text begins with `_HEAD` and the canonical text of each of those moves; from that
    `prefix` on, only the rest of the text is read (`_read_after`), the moves already read
    taken as they are (a Move never changes: games and their copies share them).

    Reading `_HEAD` followed by the rest accepts exactly what reading the whole text accepts,
    and gives the same values: the prefix is the canonical text of moves read before, under the
    same limits — plain, of whole numbers of few digits, no key twice, nested 4 deep — which
    reads back as those very moves; and a text that goes on from it with `,` lists at least one
    more move (else `,]`, which is no JSON).
    Anything the shorter read refuses is read whole again, so that the refusal names its place
    in the whole text. `texts` and `prefix` are made at the first read that may go on from
    the moves (None until then: a text read once costs nothing more). `parts`: the parts of
    the same saved game's state, which the next text may have again (PartsRead)."""

    moves: tuple
    texts: tuple | None = None
    prefix: str | None = None
    parts: "PartsRead | None" = None


@dataclass(frozen=True, slots=True)
class PartsRead:
    """The parts of the state of the last saved game a ruleset read (`members`: the texts and
    values of those long enough to keep, documents.MembersRead), each with what the models
    made of it (`models`: a SavedState field's value). The next text that has one of them
    again, in its place, takes it as read: neither parsed nor validated again, and `check`
    judges again only what it may judge otherwise (_Types.passed)."""

    members: dict
    models: dict


def _members(known: MovesRead | None) -> MembersRead:
    """What the next read of a saved game takes from the last one: its state's parts."""
    parts = known.parts if known is not None else None
    return MembersRead("state", parts.members if parts is not None else None)


def _parts(members: MembersRead, state: "SavedState") -> PartsRead | None:
    """The state's parts this read found, for the next read."""
    if not members.found:
        return None
    return PartsRead(members.found, {name: getattr(state, name) for name in members.found})


def _validated(rest: dict, members: MembersRead | None, known: MovesRead | None):
    """`_SavedRest.model_validate(rest)`, the parts taken as read (members.taken) not
    validated again: their models are the ones the read that found them made. Each field of
    the models is judged on its own, so the others are refused exactly as in the whole
    document; and a refusal is made by _SavedRest itself, which names the first field."""
    taken = members.taken if members is not None else ()
    if not taken:
        return _SavedRest.model_validate(rest)
    models = known.parts.models
    try:
        loose = _loose(taken).model_validate(rest)
    except ValidationError:
        return _SavedRest.model_validate(rest)   # refused, as the whole document is
    fields = {name: getattr(loose.state, name) for name in SavedState.model_fields}
    fields.update((name, models[name]) for name in taken)
    head = {name: getattr(loose, name) for name in _SavedHead.model_fields}
    return _SavedRest.model_construct(**head, state=SavedState.model_construct(**fields))


_LOOSE: dict = {}   # the names of the parts taken as read -> a _SavedRest that takes them as they are
_MOST_LOOSE = 64    # models kept at most (a state has a dozen parts: in a game, a few sets of them are taken)


def _loose(taken: frozenset) -> type:
    """_SavedRest, with the state's fields `taken` of any value (they are read already)."""
    model = _LOOSE.get(taken)
    if model is None:
        if len(_LOOSE) >= _MOST_LOOSE:
            _LOOSE.clear()
        state = create_model("SavedStateRead", __base__=SavedState, **{name: (Any, ...) for name in taken})
        model = _LOOSE[taken] = create_model("SavedRestRead", __base__=_SavedRest, state=(state, ...))
    return model


def _read_after(ruleset, known: MovesRead, text: str) -> "tuple[Saved, dict] | None":
    """`parse` of `text` when it goes on from the moves `known` lists (None: it does not, or
    it is to be read whole)."""
    if not known.moves:
        return None   # read whole, taking the parts kept
    bound = ruleset.limits.json_bytes
    if len(text) * 4 > bound and len(text.encode("utf-8", "surrogatepass")) > bound:
        return None   # refused when read whole, for the size of the whole text
    if known.prefix is None:
        known = _with_texts(known, text)
        if known is None:
            return None
        ruleset.moves_read = known
    prefix = known.prefix
    if not text.startswith(prefix):
        return None
    end = len(prefix)
    follows = text[end:end + 1]
    if follows == ",":
        rest = text[end + 1:]
    elif follows == "]":
        rest = text[end:]
    else:
        return None
    members = _members(known)
    try:
        data = read_document(_HEAD + rest, "saved game", StateError, ruleset.limits, STATE_FORMAT, members)
        new = _plain_moves(data.get("moves"))
        if new is None or (follows == "," and not new):
            return None
        del data["moves"]
        record = _validated(data, members, known)
    except (StateError, ValidationError):
        return None
    new_texts = tuple(_move_text(move) for move in new)
    texts = known.texts + new_texts
    if new:
        prefix += "," + ",".join(new_texts)
    ruleset.moves_read = MovesRead(known.moves + tuple(new), texts, prefix, _parts(members, record.state))
    moves = list(known.moves)   # the game's own list, which its moves are added to
    moves += new
    saved = Saved(record.ruleset, record.variant, record.players, record.seed, moves, record.state, texts)
    return saved, data


def _with_texts(known: MovesRead, text: str) -> MovesRead | None:
    """`known` with the texts of its moves and the prefix they make, when `text` begins with
    that prefix; None as soon as it does not (a text that goes on from other moves, as a
    shrinker's games do, costs the texts of the moves the two share, not of all of them)."""
    if not text.startswith(_HEAD):
        return None
    at = len(_HEAD)
    texts = []
    for move in known.moves:
        if texts:
            if not text.startswith(",", at):
                return None
            at += 1
        written = _move_text(move)
        if not text.startswith(written, at):
            return None
        texts.append(written)
        at += len(written)
    return MovesRead(known.moves, tuple(texts), text[:at], known.parts)


def _plain_moves(moves) -> list[Move] | None:
    """The moves of a log when every one is plain, as LogMove reads them: exactly a seat (a
    whole number, not below 0), an action's name (a text, not empty) and its arguments (texts
    naming texts, whole numbers, truth values or nulls), each of its exact JSON type. None
    when any is otherwise (a hidden move, a missing or extra field, an argument that is a list
    or a map, a wrong type): then SavedGame reads them all and says which is wrong."""
    if type(moves) is not list:
        return None
    out = []
    for move in moves:
        if type(move) is not dict or len(move) != 3:
            return None
        player, action, args = move.get("player"), move.get("action"), move.get("args")
        if type(player) is not int or player < 0 or type(action) is not str or not action \
                or type(args) is not dict or not all_plain(args.values()) \
                or not all(type(name) is str for name in args):
            return None
        out.append(made_move(player, action, dict(args)))
    return out


def _fail(path, message: str):
    raise StateError(f"state field '{_path(path)}': {message}")


def _path(path) -> str:
    """A field's path, written out: a text, or the parts it is made of (nested tuples, joined
    only when a value is refused: a saved game checks thousands of values that pass)."""
    if type(path) is str:
        return path
    return "".join(_path(part) if type(part) is tuple else str(part) for part in path)


_CELLS_KEPT = 4096


def _types(ruleset):
    """The declared type of every variable and piece field, read from the program once per
    ruleset (the compiled model keeps no types: the runtime never needs them)."""
    cached = getattr(ruleset, "_saved_types", None)
    if cached is None:
        cached = ruleset._saved_types = _Types(ruleset)
    return cached


class _Types:
    def __init__(self, ruleset):
        program, model = ruleset.program, ruleset.model
        self.model = model
        self.number = ruleset.limits.number
        self.vars: dict = {}
        self.pvars: dict = {}
        self.tables: dict = {}
        for decl in program.of_kind("var"):
            if decl.index is None:
                self.vars[decl.name] = decl.type
            elif decl.per_player:
                self.pvars[decl.name] = decl.type
            else:
                self.tables[decl.name] = decl.type
        for decl in program.of_kind("option"):
            self.vars[decl.name] = decl.type
        self.pvars.setdefault("score", _INT)
        self.fields = {decl.name: {f.name: f.type for f in decl.fields}
                       for decl in program.of_kind("piece")}
        self.enums = {decl.name: {m for m, _ in decl.members} for decl in program.of_kind("enum")}
        self.cells = {name: set(board.cells) for name, board in model.boards.items() if not board.is_open}
        self.open = {name for name, board in model.boards.items() if board.is_open}
        self.reach = ruleset.limits.grid_reach
        self._indexes: dict = {}     # table name -> its indexes as texts (indexes)
        self._zone_keys: dict = {}   # player count -> the zone keys the ruleset lists (zone_keys)
        self.open_zones = [fam for fam in model.zones.values() if fam.open]
        self._accepts: dict = {}   # id of a type -> (accepts(type), the type)
        self._fields_accepted: dict = {}   # piece type -> field name -> accepts(its type)
        self._cells: set = set()   # texts found to be cells of an open grid (is_cell)
        # What `check` last found right, by what it judged it with: "tables" -> (tables,
        # pieces, grids, players), "pieces" -> (pieces, players). The objects are kept here, so
        # that none is another made in its place at the same address.
        self.passed: dict = {}
        # Whether a table's values may name pieces (judged by the pieces' ids and types), and
        # whether a table is kept per cell of an open grid (judged by the cells in use).
        self.tables_name_pieces = any(self._names_pieces(ref) for ref in self.tables.values())
        self.open_tables = any(table.open for table in model.tables.values())

    def accepts(self, ref):
        """`ok(value, pieces, players)`: whether `check` takes `value` as of type `ref`,
        answered without a path or a message (made once per type: a saved game holds
        thousands of values, and `check` is called only for one that is refused)."""
        known = self._accepts.get(id(ref))
        if known is None:
            known = self._accepts[id(ref)] = (self._acceptor(ref), ref)   # the ref kept: its id stays its own
        return known[0]

    def _acceptor(self, ref):
        optional = ref.optional
        if ref.item is not None:
            item = self._acceptor(ref.item)
            return lambda v, pieces, players: (v is None and optional) or \
                (type(v) is list and all(item(x, pieces, players) for x in v))
        name = ref.name
        if name == "int":
            low, high = -self.number, self.number
            return lambda v, pieces, players: (type(v) is int and low < v < high) or (v is None and optional)
        if name in ("bool", "str"):
            kind = bool if name == "bool" else str
            return lambda v, pieces, players: type(v) is kind or (v is None and optional)
        if name == "player":
            return lambda v, pieces, players: (type(v) is int and 0 <= v < players) or (v is None and optional)
        if name == "piece":
            return lambda v, pieces, players: (type(v) is int and 0 <= v < len(pieces)) or (v is None and optional)
        if name in self.fields:
            return lambda v, pieces, players: (type(v) is int and 0 <= v < len(pieces) and pieces[v].type == name) \
                or (v is None and optional)
        if name in self.cells:
            cells = self.cells[name]
            return lambda v, pieces, players: (type(v) is str and v in cells) or (v is None and optional)
        if name in self.open:
            return lambda v, pieces, players: self.is_cell(v) or (v is None and optional)   # a cell is a text
        if name in self.enums:
            members = self.enums[name]
            return lambda v, pieces, players: (type(v) is str and v in members) or (v is None and optional)
        # a type the checker let through: only JSON values (their plain kinds taken at once)
        return lambda v, pieces, players: optional if v is None else (type(v) in PLAIN_TYPES or _is_json(v))

    def _names_pieces(self, ref) -> bool:
        """Whether a value of type `ref` may be a piece, or hold one."""
        if ref.item is not None:
            return self._names_pieces(ref.item)
        known = ref.name in ("int", "bool", "str", "player") or ref.name in self.cells \
            or ref.name in self.open or ref.name in self.enums
        return not known   # a piece, a piece type, or a type the checker let through

    def check(self, ref, value, path, pieces: list, players: int) -> None:
        """Refuse a value that is not of the declared type `ref` (a TypeRef)."""
        if value is None:
            if ref.optional:
                return
            _fail(path, f"a value of type {ref} is expected, not null")
        if ref.item is not None:
            if type(value) is not list:
                _fail(path, f"a list ({ref}) is expected, not {_short(value)}")
            for i, item in enumerate(value):
                self.check(ref.item, item, (path, f"[{i}]"), pieces, players)
            return
        name = ref.name
        kind = type(value)
        if name == "int":
            if kind is not int:
                _fail(path, f"a whole number is expected, not {_short(value)}")
            if not -self.number < value < self.number:
                _fail(path, f"{value} is beyond the limit of numbers (±{self.number:_})")
        elif name == "bool":
            if kind is not bool:
                _fail(path, f"true or false is expected, not {_short(value)}")
        elif name == "str":
            if kind is not str:
                _fail(path, f"a text is expected, not {_short(value)}")
        elif name == "player":
            if kind is not int or not 0 <= value < players:
                _fail(path, f"a seat (0–{players - 1}) is expected, not {_short(value)}")
        elif name == "piece" or name in self.fields:
            if kind is not int or not 0 <= value < len(pieces):
                _fail(path, f"a piece (an id 0–{len(pieces) - 1}) is expected, not {_short(value)}")
            if name != "piece" and pieces[value].type != name:
                _fail(path, f"a {name} is expected, not piece {value} (a {pieces[value].type})")
        elif name in self.cells:
            if kind is not str or value not in self.cells[name]:
                _fail(path, f"a cell of board '{name}' is expected, not {_short(value)}")
        elif name in self.open:
            if not self.is_cell(value):
                _fail(path, f"a cell (row,col) of open grid '{name}' within ±{self.reach} is expected, "
                      f"not {_short(value)}")
        elif name in self.enums:
            if kind is not str or value not in self.enums[name]:
                _fail(path, f"one of {', '.join(sorted(self.enums[name]))} is expected, "
                      f"not {_short(value)}")
        else:  # a type the checker let through: only JSON values
            _json(value, _path(path))

    def indexes(self, name: str, table) -> dict:
        """The indexes of table `name` of a fixed board or list, as texts (the keys of its
        JSON object), made once per ruleset."""
        known = self._indexes.get(name)
        if known is None:
            known = self._indexes[name] = {str(k): None for k in table.keys}
        return known

    def zone_keys(self, players: int, in_use: dict) -> dict:
        """The keys of every zone of a game of `players` seats: those the ruleset lists, made
        once per player count, and those of the open grids' cells in `in_use` (the game's own)."""
        known = self._zone_keys.get(players)
        if known is None:
            known = self._zone_keys[players] = dict.fromkeys(
                key for fam in self.model.zones.values() for i, key in fam.keys.items()
                if not (fam.index == "player" and i >= players))
        if not self.open_zones:
            return known
        return {**known, **dict.fromkeys(f"{fam.name}#{cell}" for fam in self.open_zones
                                         for cell in in_use[fam.index])}

    def is_cell(self, value) -> bool:
        """A cell of an open grid: its canonical text `(row,col)`, within the reach. The texts
        found to be cells are remembered (a few thousand at most: a stranger's file may
        name any number of them)."""
        if type(value) is not str:
            return False
        cells = self._cells
        if value in cells:
            return True
        found = coordinates(value)
        if found is None or abs(found[0]) > self.reach or abs(found[1]) > self.reach:
            return False
        if len(cells) >= _CELLS_KEPT:
            cells.clear()
        cells.add(value)
        return True

    def field_acceptors(self, piece_type: str) -> dict:
        """Field name -> accepts(its type), for the fields of `piece_type`."""
        known = self._fields_accepted.get(piece_type)
        if known is None:
            known = self._fields_accepted[piece_type] = {
                name: self.accepts(ref) for name, ref in self.fields[piece_type].items()}
        return known


class _IntRef:
    name, item, optional = "int", None, False

    def __str__(self) -> str:
        return "int"


_INT = _IntRef()


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 40 else text[:37] + "…"


def _is_json(value) -> bool:
    try:
        json_value(value)
    except BadValue:
        return False
    return True


def _json(value, path: str) -> None:
    try:
        json_value(value)
    except BadValue as err:
        where = path + "".join(f"[{p}]" if type(p) is int else f".{p}" for p in err.where)
        raise StateError(f"state field '{where}': {err.reason}") from None


def check(ruleset, saved: Saved) -> None:
    """Step 2: the saved game against the ruleset."""
    model = ruleset.model
    if saved.ruleset != model.name:
        _fail("ruleset", f"this game is of {saved.ruleset!r}, not {model.name!r}")
    if saved.variant != model.variant:
        _fail("variant", f"this game is of {saved.variant or 'the base game'}, "
              f"not {model.variant or 'the base game'}")
    players = saved.players
    if not model.min_players <= players <= model.max_players:
        _fail("players", f"a player count in {model.min_players}–{model.max_players} is expected, "
              f"not {players}")
    for i, move in enumerate(saved.moves):
        if move.player >= players:
            _fail(f"moves[{i}].player", f"seats of this game are 0–{players - 1}, not {move.player}")
    types = _types(ruleset)
    state = saved.state
    pieces = state.pieces
    if state.moves != len(saved.moves):
        _fail("state.moves", f"{state.moves} moves counted, but the game lists {len(saved.moves)}")

    # Each value is asked of types.accepts first; types.check, which says why, only of one
    # it does not take.
    accepts = types.accepts
    _names("state.vars", state.vars, types.vars)
    for name, value in state.vars.items():
        ref = types.vars[name]
        if not accepts(ref)(value, pieces, players):
            types.check(ref, value, f"state.vars.{name}", pieces, players)
    if len(state.player_vars) != players:
        _fail("state.player_vars", f"{len(state.player_vars)} rows for {players} players")
    for p, row in enumerate(state.player_vars):
        _names(f"state.player_vars[{p}]", row, types.pvars)
        for name, value in row.items():
            ref = types.pvars[name]
            if not accepts(ref)(value, pieces, players):
                types.check(ref, value, f"state.player_vars[{p}].{name}", pieces, players)
    in_use = _grids(model, types, state, pieces, players)
    # The tables and the pieces are judged by what they hold, the pieces they name, the
    # seats and the open grids' cells in use: parts taken as read from the last saved game
    # (PartsRead) are the very objects judged then, and are not judged again.
    passed = types.passed
    tables_judged = (state.tables, pieces if types.tables_name_pieces else None,
                     state.grids if types.open_tables else None, players)
    if not _same(passed.get("tables"), tables_judged):
        _names("state.tables", state.tables, types.tables)
        for name, values in state.tables.items():
            table = model.tables[name]
            indexes = in_use[table.index] if table.open else types.indexes(name, table)
            _names(f"state.tables.{name}", values, indexes, "index")
            ref = types.tables[name]
            ok = accepts(ref)
            for index, value in values.items():
                if not ok(value, pieces, players):
                    types.check(ref, value, ("state.tables.", name, ".", index), pieces, players)
        passed["tables"] = tables_judged

    pieces_judged = (pieces, players)
    if not _same(passed.get("pieces"), pieces_judged):
        for i, piece in enumerate(pieces):
            fields = types.fields.get(piece.type)
            if fields is None:
                _fail(f"state.pieces[{i}].type", f"{piece.type!r} is not a piece type of this ruleset "
                      f"({', '.join(sorted(types.fields)) or 'none'})")
            if "#" in piece.label:
                _fail(f"state.pieces[{i}].label", f"{_short(piece.label)} is not a label ({_LABEL_RULE})")
            given = piece.__pydantic_extra__ or {}
            if given.keys() != fields.keys():
                _names(f"state.pieces[{i}]", given, fields, "field")
            acceptors = types.field_acceptors(piece.type)
            for name, value in given.items():
                if not acceptors[name](value, pieces, players):
                    types.check(fields[name], value, (f"state.pieces[{i}]", ".", name), pieces, players)
        passed["pieces"] = pieces_judged

    _names("state.zones", state.zones, types.zone_keys(players, in_use), "zone")
    placed = list(chain.from_iterable(state.zones.values()))
    if len(placed) != len(pieces) or len(set(placed)) != len(pieces) or \
            (placed and not (0 <= min(placed) and max(placed) < len(pieces))):
        _pieces_placed(state.zones, pieces)   # not every piece once: which one is wrong, and how
    for j, piece in enumerate(state.revealed):
        if not 0 <= piece < len(pieces):
            _fail(f"state.revealed[{j}]", f"{piece} is not a piece of this game")
    if len(set(state.revealed)) != len(state.revealed):
        _fail("state.revealed", "the ids must be distinct (they are listed in the order they were revealed)")

    flow = state.flow
    stacks = [("state.flow.main", flow.main)]
    if flow.threads is not None:
        owners = [t.player for t in flow.threads]
        for k, thread in enumerate(flow.threads):
            if thread.player >= players or owners.count(thread.player) > 1:
                _fail(f"state.flow.threads[{k}].player", f"{thread.player} is not a seat of its own "
                      f"(seats 0–{players - 1}, one thread each)")
            stacks.append((f"state.flow.threads[{k}].stack", thread.stack))
    for where, stack in stacks:
        for k, (name, pc, local) in enumerate(stack):
            code = model.codes.get(name)
            if code is None or not 0 <= pc <= len(code.ops):
                _fail(f"{where}[{k}]", f"{name!r} at step {pc} is not a place in this ruleset")
            _json(local, f"{where}[{k}][2]")
            if "$asked" in local or "$actions" in local:
                _check_ask(f"{where}[{k}][2]", local, k == len(stack) - 1, players, model)


def _same(judged: tuple | None, now: tuple) -> bool:
    """Whether `now` is what was judged: the same objects, and the same seat count last."""
    return judged is not None and all(a is b for a, b in zip(judged[:-1], now[:-1])) and judged[-1] == now[-1]


def _pieces_placed(zones: dict, pieces: list) -> None:
    """Refuse the first piece of `zones` that is not a piece, or is met twice, or the first
    piece in no zone."""
    seen: set = set()
    for key, ids in zones.items():
        for j, piece in enumerate(ids):
            if not 0 <= piece < len(pieces):
                _fail(f"state.zones.{key}[{j}]", f"{piece} is not a piece of this game "
                      f"(ids 0–{len(pieces) - 1})")
            if piece in seen:
                _fail(f"state.zones.{key}[{j}]", f"piece {piece} is in two zones, or twice in one")
            seen.add(piece)
    if len(seen) != len(pieces):
        missing = min(set(range(len(pieces))) - seen)
        _fail(f"state.pieces[{missing}]", "this piece is in no zone")


def _grids(model, types: _Types, state, pieces: list, players: int) -> dict:
    """The open grids: each one's cells in use (distinct cells within the reach) and the start
    of each variable per its cells. Returns board -> {cell: None}, the cells in use."""
    _names("state.grids", state.grids, model.grids, "open grid")
    out = {}
    for board, grid in state.grids.items():
        path = f"state.grids.{board}"
        cells: dict = {}
        for i, cell in enumerate(grid.cells):
            if not types.is_cell(cell):
                _fail(f"{path}.cells[{i}]", f"a cell (row,col) within ±{types.reach} is expected, "
                      f"not {_short(cell)}")
            if cell in cells:
                _fail(f"{path}.cells[{i}]", f"{cell} is listed twice")
            cells[cell] = None
        _names(f"{path}.start", grid.start, dict.fromkeys(model.grids[board][1]))
        for name, value in grid.start.items():
            types.check(types.tables[name], value, f"{path}.start.{name}", pieces, players)
        out[board] = cells
    return out


def _check_ask(path: str, local: dict, top: bool, players: int, model) -> None:
    """A frame waiting for a decision: a seat, and actions of this ruleset, on top of its stack."""
    if not top or "$asked" not in local or "$actions" not in local:
        _fail(path, "only the innermost frame of a stack waits for a decision, with $asked and $actions")
    seat = local["$asked"]
    if type(seat) is not int or not 0 <= seat < players:
        _fail(f"{path}.$asked", f"a seat (0–{players - 1}) is expected, not {_short(seat)}")
    actions = local["$actions"]
    if type(actions) is not list or not actions or any(a not in model.actions for a in actions):
        _fail(f"{path}.$actions", f"a list of actions of this ruleset is expected, not {_short(actions)}")


_LABEL_RULE = "a label is a text without '#', which moves use to tell pieces apart"


def _names(path: str, given: dict, declared: dict, what: str = "variable") -> None:
    """The names present are exactly the names declared (compared as sets first, in C: a
    board's hundreds of zones; one by one only to say which is wrong)."""
    if len(given) == len(declared) and given.keys() == declared.keys():
        return
    for name in given:
        if name not in declared:
            _fail(f"{path}.{name}", f"this ruleset has no {what} {name!r} here")
    if len(given) != len(declared):
        missing = sorted(n for n in declared if n not in given)[0]
        _fail(f"{path}.{missing}", "missing")


def invariants(game) -> None:
    """Step 3: every invariant of the ruleset holds in the state."""
    from ..diagnostics import RulesetError
    try:
        failed = game.check_invariants()
    except RulesetError as err:
        first = err.diagnostics[0] if getattr(err, "diagnostics", None) else err
        raise StateError(f"the state cannot be checked against its invariants: "
                         f"{getattr(first, 'message', first)}") from None
    if failed:
        raise StateError(f"the state breaks invariant {failed[0]}")


def replayed(ruleset, saved: Saved, raw: dict):
    """Step 4: the game its moves give, which must be the state written."""
    from ..diagnostics import RulesetError
    from ..moves import IllegalMove
    from .game import Game, OptionError
    options = {name: saved.state.vars[name] for name in ruleset.model.options}
    try:
        game = Game.start(ruleset, saved.players, saved.seed, False, options)
    except OptionError as err:
        raise StateError(f"state field 'state.vars': {err}") from None
    except RulesetError as err:
        raise StateError(f"the game cannot be set up again from its seed and options: "
                         f"{_first(err)}") from None
    for i, move in enumerate(saved.moves):
        try:
            game.play(move)
        except IllegalMove as err:
            raise StateError(f"state field 'moves[{i}]': {err.reason}") from None
        except RulesetError as err:
            raise StateError(f"state field 'moves[{i}]': replaying it fails: {_first(err)}") from None
    mine = json.loads(canonical_json(game._state.to_dict()))
    where = _difference(raw, mine, "state")
    if where is not None:
        path, theirs, ours = where
        raise StateError(f"state field '{path}': {_short(theirs)} is not what the game's "
                         f"{len(saved.moves)} moves give ({_short(ours)})")
    return game


def _first(err) -> str:
    diagnostics = getattr(err, "diagnostics", None)
    return diagnostics[0].message if diagnostics else str(err)


def _difference(a, b, path: str):
    """The first place where two JSON values differ: (path, a's value, b's value), or None."""
    stack = [(a, b, path)]
    while stack:
        x, y, where = stack.pop()
        if type(x) is not type(y):
            return where, x, y
        if type(x) is dict:
            if set(x) != set(y):
                odd = sorted(set(x) ^ set(y))[0]
                return f"{where}.{odd}", x.get(odd), y.get(odd)
            stack.extend((x[k], y[k], f"{where}.{k}") for k in sorted(x, reverse=True))
        elif type(x) is list:
            if len(x) != len(y):
                return where, x, y
            stack.extend((x[i], y[i], f"{where}[{i}]") for i in range(len(x) - 1, -1, -1))
        elif x != y:
            return where, x, y
    return None


__all__ = ["STATE_FORMAT", "SavedGame", "parse", "check", "invariants", "replayed"]
