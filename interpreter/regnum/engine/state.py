"""The state of a game: plain data, cheap to copy, canonical as JSON.

Zones are copied on write: a copy shares every zone list with its original
until one of them changes it, so copying a state costs a few dict copies.
Piece records are treated as immutable and replaced, never edited.

A move changes the state in place and writes an undo journal as it goes (see
Journal): a refused or failed move is rolled back from it, and the state
before the last move is rebuilt from it when an invariant reads `previous(…)`.
"""
from __future__ import annotations

import json
import marshal

from ..documents import PLAIN_TYPES as _PLAIN, all_plain
from .memo import EMPTY


class ZoneRef(str):
    """A zone passed by reference (to a rule parameter or a local); its key."""

    __slots__ = ()


class Table(dict):
    """The values of a variable per cell or member. A lookup that misses names the variable
    (an index that is not one of its cells), without costing anything when it hits.

    A table no state owns (see State.writable_table) is never written again: every write
    copies it first. Such a table keeps the index `cells_with` builds of it."""

    __slots__ = ("name", "by_value")

    def __init__(self, name: str, values=()):
        super().__init__(values)
        self.name = name
        self.by_value: dict | None = None   # id(domain) -> (domain, {value: [items…]} or None)

    def __missing__(self, index):
        from ..builtins import EvalError
        raise EvalError(f"{self.name}({index!r}): {index!r} is not one of its cells or members")


class State:
    __slots__ = ("vars", "pvars", "tables", "zones", "pieces", "where", "flow", "rng", "revealed",
                 "moves", "once", "grids", "_owned", "_owned_tables", "_owned_grids", "memo")

    def __init__(self):
        self.vars: dict = {}
        self.pvars: list[dict] = []
        self.tables: dict[str, dict] = {}   # variables per cell or member: name -> {index: value}
        self._owned_tables: set[str] = set()
        self.zones: dict[str, list[int]] = {}
        self.pieces: list[dict] = []
        self.where: list[str] = []
        self.flow: dict = {"main": [], "threads": None}
        self.rng: int = 0
        self.revealed: dict[int, None] = {}   # pieces shown to everyone, in the order shown
        self.moves: int = 0
        self.once: tuple[str, ...] = ()   # the `once` triggers that have fired (never changed in place)
        # Open grids: board -> {"cells": the cells in use, in the order they came into use,
        # "start": {variable per cell: its starting value}} (the start never changes).
        self.grids: dict[str, dict] = {}
        self._owned_grids: set[str] = set()
        self._owned: set[str] = set()
        # The values of defs kept for this very state (engine/memo.py), made at their first
        # use: no part of its data (not written, not copied, not compared), and dropped by
        # whatever changes a zone they read, so that a copy or a loaded state starts without.
        self.memo = EMPTY

    # ── copying ──
    def copy(self) -> "State":
        s = State.__new__(State)
        s.vars = dict(self.vars)
        s.pvars = [dict(d) for d in self.pvars]
        s.tables = dict(self.tables)
        s._owned_tables = set()
        if self._owned_tables:
            self._owned_tables = set()
        s.zones = dict(self.zones)
        s.pieces = self.pieces[:]
        s.where = self.where[:]
        s.flow = copy_flow(self.flow)
        s.rng = self.rng
        s.revealed = dict(self.revealed)
        s.moves = self.moves
        s.once = self.once
        s.grids = dict(self.grids)
        s._owned_grids = set()
        if self._owned_grids:
            self._owned_grids = set()
        s._owned = set()
        self._owned = set()  # both now share every list: neither may write in place
        s.memo = EMPTY
        return s

    def writable(self, key: str) -> list[int]:
        """The zone's list, copied first if it is still shared with another state."""
        if key not in self._owned:
            self.zones[key] = self.zones[key][:]
            self._owned.add(key)
        return self.zones[key]

    def writable_table(self, name: str) -> dict:
        """A table variable's values, copied first if still shared with another state."""
        if name not in self._owned_tables:
            self.tables[name] = Table(name, self.tables[name])
            self._owned_tables.add(name)
        return self.tables[name]

    def cells_with(self, name: str, domain, value):
        """The items of `domain` (a list no game changes, such as a board's cells) whose value
        in table `name` is `value`, in the domain's order: `[h for h in domain if table[h] ==
        value]` read from an index kept on the table, built once. While this state owns the
        table (it may still be written in place), or when its values or `value` cannot be
        keys, or an item is not one of its cells, `domain` itself: the caller then judges
        every item, as it would have without an index."""
        if name in self._owned_tables:
            return domain
        table = self.tables[name]
        known = table.by_value
        if known is None:
            known = table.by_value = {}
        entry = known.get(id(domain))
        if entry is None or entry[0] is not domain:
            groups: dict | None = {}
            try:
                for item in domain:
                    value_there = table.get(item, _ABSENT)
                    if value_there is _ABSENT:
                        groups = None
                        break
                    groups.setdefault(value_there, []).append(item)
            except TypeError:   # an item or a value that cannot be a key
                groups = None
            entry = known[id(domain)] = (domain, groups)
        groups = entry[1]
        if groups is None:
            return domain
        try:
            return groups.get(value, ())
        except TypeError:   # a value that cannot be a key: judged item by item
            return domain

    def use_cell(self, board: str, cell: str) -> None:
        """Note that an open grid's cell came into use (the caller checked it was not)."""
        if board not in self._owned_grids:
            record = self.grids[board]
            self.grids[board] = {"cells": record["cells"][:], "start": record["start"]}
            self._owned_grids.add(board)
        self.grids[board]["cells"].append(cell)

    # ── JSON ──
    def to_dict(self) -> dict:
        return {key: _freeze(value) if frozen else value for key, value, frozen in self.json_parts()}

    def json_parts(self) -> list:
        """(key, the part as this state holds it, whether `_freeze` makes its JSON form) of
        each part of the state's JSON: what to_dict writes and state_text keeps."""
        parts = [
            ("vars", self.vars, True),
            ("player_vars", self.pvars, True),
            ("tables", self.tables, True),
            ("zones", self.zones, False),
            ("pieces", self.pieces, False),
            ("flow", self.flow, True),
            ("rng", self.rng, False),
            ("revealed", list(self.revealed), False),
            ("moves", self.moves, False),
        ]
        if self.once:
            parts.append(("once", list(self.once), False))
        if self.grids:
            parts.append(("grids", self.grids, True))
        return parts

    @classmethod
    def from_dict(cls, data: dict, shared: bool = False) -> "State":
        """The state `data` holds (its JSON form). `shared`: `data` is the reader's own, read
        from a text, which nobody changes: the zones' lists and the pieces' records are taken
        as they are, and copied at their first write, as after a copy (State.copy); otherwise
        they are copied now, so that the caller's dict stays apart from the game."""
        s = cls()
        s.vars = {k: _thaw(v) for k, v in data["vars"].items()}
        s.pvars = [{k: _thaw(v) for k, v in d.items()} for d in data["player_vars"]]
        # A table of plain values is copied once, by Table itself.
        s.tables = {k: Table(k, v if type(v) is dict and all_plain(v.values()) else _thaw(v))
                    for k, v in data.get("tables", {}).items()}
        if shared:
            s.zones = dict(data["zones"])
            s.pieces = list(data["pieces"])
        else:
            s.zones = {k: list(v) for k, v in data["zones"].items()}
            s.pieces = [dict(p) for p in data["pieces"]]
        s.where = [""] * len(s.pieces)
        for key, ids in s.zones.items():
            for piece in ids:
                s.where[piece] = key
        s.flow = _thaw_flow(data["flow"])
        s.rng = int(data["rng"])
        s.revealed = dict.fromkeys(data["revealed"])
        s.moves = int(data["moves"])
        s.once = tuple(data.get("once", ()))
        s.grids = {board: {"cells": list(g["cells"]), "start": {k: _thaw(v) for k, v in g["start"].items()}}
                   for board, g in data.get("grids", {}).items()}
        return s


# ── the undo journal of a move ──
#
# Every write a move makes to its state first records how to undo it, as a tuple
# (undo function, arguments…): the function takes the state to undo on, then the
# arguments. Entries name what they undo by path (a zone's key, a variable's name,
# a piece's id), never by object, so the journal of the last move can be undone on
# a copy of the state as well as on the state itself. The values recorded are never
# changed after (a journal may be shared by copies of a game).

_ABSENT = object()   # an entry of a table that did not exist before the write


def undo_var(s: State, name: str, old) -> None:
    s.vars[name] = old


def undo_pvar(s: State, seat: int, name: str, old) -> None:
    s.pvars[seat][name] = old


def undo_table(s: State, name: str, index, old) -> None:
    table = s.writable_table(name)
    if old is _ABSENT:
        del table[index]
    else:
        table[index] = old


def undo_move(s: State, piece: int, old: str, i: int, key: str) -> None:
    """A piece moved from zone `old` (where it was `i`-th) to the end of zone `key`."""
    s.writable(key).pop()
    s.writable(old).insert(i, piece)
    s.where[piece] = old


def undo_move_all(s: State, pieces: list, old: str, key: str) -> None:
    """The pieces of zone `old`, all of it, moved in order to the end of zone `key` (the
    undo entries of moving them one by one, at once)."""
    dest = s.writable(key)
    del dest[len(dest) - len(pieces):]
    s.writable(old)[0:0] = pieces
    where = s.where
    for piece in pieces:
        where[piece] = old


def undo_create(s: State, key: str) -> None:
    """A piece created at the end of zone `key` (the last piece of the game)."""
    s.writable(key).pop()
    s.pieces.pop()
    s.where.pop()


def undo_order(s: State, key: str, old: list) -> None:
    s.zones[key] = old[:]
    s._owned.add(key)


def undo_new_zone(s: State, key: str) -> None:
    del s.zones[key]
    s._owned.discard(key)


def undo_piece(s: State, piece: int, old: dict) -> None:
    s.pieces[piece] = old


def undo_revealed(s: State, old: dict) -> None:
    s.revealed = dict(old)


def undo_cell(s: State, board: str) -> None:
    if board not in s._owned_grids:
        record = s.grids[board]
        s.grids[board] = {"cells": record["cells"][:], "start": record["start"]}
        s._owned_grids.add(board)
    s.grids[board]["cells"].pop()


# Journal.found of a journal whose threads' stacks are its own copies (freeze).
_FROZEN = object()


class Journal:
    """How to undo one move: the scalars and the flow's shape as they were before it, and the
    undo entries of its writes, in order. The flow's frames are copied on write by the VM
    (run_stack), so the frames the shape holds are never changed after.

    The stacks of a simultaneous step's threads are copied only when the move may change
    them: the stack it answers (`stack`, copied as `found`) at once, and a thread's stack the
    flow runs on (runtime.advance calls `keep`) before it runs. Every other thread's stack is
    only referred to: until the next move it is as the move found it. So a failed move is
    undone in place (`rollback`: every list of the flow as it was, which the journal of the
    move before refers to), and a journal another game shares is made whole first (`freeze`)."""

    __slots__ = ("rng", "once", "moves", "main", "threads", "entries", "frames", "stack", "found", "kept")

    def __init__(self, state: State, stack: list | None = None):
        """`stack`: the stack the move answers (None: keep every thread's stack now)."""
        self.rng = state.rng
        self.once = state.once
        self.moves = state.moves
        flow = state.flow
        self.main = flow["main"][:]
        threads = flow["threads"]
        self.stack = self.found = self.kept = None
        if threads is None:
            self.threads = None
        else:   # the threads' records, whose "player" and "stack" are never replaced
            self.threads = threads[:]
            if stack is None:
                self.kept = {id(t["stack"]): (t["stack"], t["stack"][:]) for t in threads}
            else:
                self.stack, self.found = stack, stack[:]
        self.entries: list = []
        self.frames: set | None = None   # frame_ids(), once asked

    def keep(self, stack: list) -> None:
        """A thread's stack is about to change: copy it first, if not already kept."""
        if self.threads is None or stack is self.stack:
            return
        kept = self.kept
        if kept is None:
            kept = self.kept = {}
        if id(stack) not in kept:
            kept[id(stack)] = (stack, stack[:])

    def _stacks(self):
        """(player, the stack as the move found it) of each thread."""
        mine, kept = self.stack, self.kept or {}
        for t in self.threads:
            stack = t["stack"]
            if stack is mine:
                yield t["player"], self.found
            else:
                found = kept.get(id(stack))
                yield t["player"], stack if found is None else found[1]

    def freeze(self) -> None:
        """Copy every thread's stack now (the journal no longer refers to the flow's lists):
        before another game shares the journal, whose flow goes on without this one's. Once:
        a search copies the same game again and again."""
        if self.threads is not None and self.found is not _FROZEN:
            self.threads = [{"player": p, "stack": stack[:]} for p, stack in self._stacks()]
            self.stack = self.kept = None
            self.found = _FROZEN   # (read only with a stack)

    def frame_ids(self) -> set:
        """The ids of the frames the flow held when the move began (the VM copies one before
        its first write), gathered the first time the VM asks: most moves never change a
        frame they found but the one they answer, which the move replaces anyway."""
        frames = self.frames
        if frames is None:
            frames = self.frames = set(map(id, self.main))
            if self.threads is not None:
                for _, stack in self._stacks():
                    frames.update(map(id, stack))
        return frames

    def undo(self, s: State) -> None:
        """Undo the move on `s`, a copy of the state it was written on (the flow's lists are
        new ones)."""
        self._undo_writes(s)
        s.flow["threads"] = None if self.threads is None else [
            {"player": p, "stack": stack[:]} for p, stack in self._stacks()]

    def rollback(self, s: State) -> None:
        """Undo the move on `s`, the state it was written on: the threads' records and stacks
        are the very lists they were (the journal of the move before refers to them)."""
        self._undo_writes(s)
        if self.threads is None:
            s.flow["threads"] = None
        else:
            if self.stack is not None:
                self.stack[:] = self.found
            for stack, found in (self.kept or {}).values():
                stack[:] = found
            s.flow["threads"] = self.threads[:]

    def _undo_writes(self, s: State) -> None:
        s.memo = EMPTY   # the zones go back as they were: what was kept since may not hold
        for entry in reversed(self.entries):
            entry[0](s, *entry[1:])
        s.rng, s.once, s.moves = self.rng, self.once, self.moves
        s.flow["main"] = self.main[:]

    def before(self, now: State) -> State:
        """A new state: `now` (the state right after the move) as it was before it."""
        s = now.copy()
        self.undo(s)
        s.flow = copy_flow(s.flow)   # the journal's frames stay its own
        return s


def copy_flow(flow: dict) -> dict:
    threads = flow["threads"]
    return {
        "main": [[f[0], f[1], dict(f[2])] for f in flow["main"]],
        "threads": None if threads is None else [
            {"player": t["player"], "stack": [[f[0], f[1], dict(f[2])] for f in t["stack"]]}
            for t in threads],
    }


def _thaw(value):
    """JSON gives back lists and dicts as they were; ZoneRefs and maps with keys that are
    not texts are tagged."""
    if isinstance(value, dict):
        if len(value) == 1:   # a tag has one key
            if "$zone" in value:
                return ZoneRef(value["$zone"])
            if "$map" in value:
                return {_thaw(k): _thaw(v) for k, v in value["$map"]}
        if all_plain(value.values()):   # a table's value per cell: copied whole
            return dict(value)
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        if all_plain(value):
            return list(value)
        return [_thaw(v) for v in value]
    return value


def _thaw_flow(flow: dict) -> dict:
    def frames(stack):
        return [[f[0], f[1], {k: _thaw(v) for k, v in f[2].items()}] for f in stack]
    threads = flow.get("threads")
    return {"main": frames(flow["main"]),
            "threads": None if threads is None else [{"player": t["player"], "stack": frames(t["stack"])}
                                                     for t in threads]}


_TEXT = frozenset((str,))   # the keys of a map written as a JSON object


def _freeze(value):
    """Tag ZoneRefs (a str subclass json would flatten) so _thaw can restore them. (Plain
    items are taken as they are without a call: a saved game is written at every check of
    the fuzzer.)"""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, ZoneRef):
        return {"$zone": str(value)}
    if isinstance(value, list):
        return [v if type(v) in _PLAIN else _freeze(v) for v in value]
    if isinstance(value, dict):
        # A map whose keys are all texts is written as a JSON object, unless it could be
        # mistaken for a tag (one key, "$zone" or "$map"); any other map is tagged as a list
        # of [key, value] pairs. (Types gathered by set(map(type, …)): a table holds a value
        # per cell, and looking at them in C costs less than a loop.)
        if set(map(type, value)) <= _TEXT and not (len(value) == 1 and ("$zone" in value or "$map" in value)):
            if all_plain(value.values()):
                return dict(value)
            return {k: v if type(v) in _PLAIN else _freeze(v) for k, v in value.items()}
        return {"$map": [[_freeze(k), _freeze(v)] for k, v in value.items()]}
    return value


# What json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) writes,
# from one encoder: dumps makes a new one at every call, a third of a move's text.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
string_text = json.encoder.encode_basestring   # a text as that encoder writes it (ensure_ascii off)


def canonical_json(data) -> str:
    return _CANONICAL.encode(data)


def canonical_parts(data: dict, kept: dict | None, written: dict | None = None) -> str:
    """`canonical_json(data)` for a map of texts, each value's text kept in `kept` (key ->
    (marshal's bytes of the value, its text)) and written again only when the value is not
    the one it was: a saved game is written several times between two moves (the fuzzer's
    checks), and a move changes a few of the state's parts. `written`: the texts of some
    values, already written by the caller.

    Equal bytes are equal values: marshal writes each type apart (true is not 1, a list is
    not a tuple) and reading the bytes back gives the value, so the text kept is the text.
    Unequal bytes may still be equal values (a map's keys in another order, an object met
    twice), which are written again, as are values marshal cannot write (a ZoneRef). With
    `kept` None, nothing is kept (a text written once costs no bytes)."""
    if not all(type(key) is str for key in data):
        return canonical_json(data)   # json's own order and keys for anything else
    out = []
    for key in sorted(data):
        value = data[key]
        text = written.get(key) if written else None
        if text is None:
            text = _CANONICAL.encode(value) if kept is None else _kept_text(kept, key, value)
        out.append(f"{string_text(key)}:{text}")
    return "{" + ",".join(out) + "}"


def _kept_text(kept: dict, key, source, make=None) -> str:
    """The text of part `key`, whose JSON form is `make(source)` (`source` itself when `make`
    is None), kept in `kept` by marshal's bytes of `source`: the same bytes are the same
    values, so the same text. A source marshal refuses (a ZoneRef in it) is kept by its JSON
    form's bytes instead, under another key: the two kinds of bytes are never compared."""
    try:
        fingerprint = marshal.dumps(source)
    except ValueError:   # a type marshal does not write, or nested past its depth
        if make is not None:
            return _kept_text(kept, ("as written", key), make(source))
        fingerprint = None
    known = kept.get(key)
    if known is not None and fingerprint is not None and known[0] == fingerprint:
        return known[1]
    text = _CANONICAL.encode(source if make is None else make(source))
    if fingerprint is not None:
        kept[key] = (fingerprint, text)
    return text


def state_text(state: State, kept: dict) -> str:
    """`canonical_json(state.to_dict())`, each part's text kept in `kept` as canonical_parts
    keeps it, but by the part as the state holds it, before `_freeze` makes its JSON form: a
    part unchanged since the last text costs marshal's bytes of it, and no copy. (The tables,
    a dict subclass each, which marshal refuses, are taken as plain dicts; a part holding a
    ZoneRef is kept by its frozen form, as canonical_parts keeps it.)"""
    out = []
    for key, value, frozen in sorted(state.json_parts(), key=_first):
        if key == "tables":
            text = _kept_text(kept, key, [(name, dict(values)) for name, values in value.items()],
                              lambda _, tables=value: _freeze(tables))
        else:
            text = _kept_text(kept, key, value, _freeze if frozen else None)
        out.append(f"{string_text(key)}:{text}")
    return "{" + ",".join(out) + "}"


def _first(part: tuple) -> str:
    return part[0]


def size_of(value) -> int:
    """A value's size as the state-size limit counts it: 1 per number, truth value or none,
    1 per character of a text, and each item of a list or map plus the items' own sizes."""
    total, pending = 0, [value]
    while pending:
        v = pending.pop()
        kind = type(v)
        if kind is str or issubclass(kind, str):
            total += len(v) or 1
        elif kind is list or kind is tuple:
            total += 1 + len(v)
            pending.extend(x for x in v if type(x) is not int)
        elif isinstance(v, dict):
            total += 1 + 2 * len(v)
            pending.extend(v.keys())
            pending.extend(x for x in v.values() if type(x) is not int)
        else:
            total += 1
    return total


def state_size(state: State) -> int:
    """The size of everything a state holds (see size_of): what the `state_size` limit bounds,
    so that a saved game stays a sane size whatever a ruleset stores."""
    return (size_of(state.vars) + size_of(state.pvars) + size_of(state.tables) + size_of(state.zones)
            + size_of(state.pieces) + size_of(state.flow) + size_of(state.grids))
