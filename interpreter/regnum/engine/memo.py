"""The values of defs kept for one state (see compiler/memo.py for which defs, and why).

Here, what lives with a state as a game runs: the kept values and who read which zone,
which the effects (engine/runtime.py) consult to drop what a change of a zone undoes.
Never part of the state's data: a copy or a loaded state starts with `EMPTY`.
"""
from __future__ import annotations

import operator
from collections import defaultdict
from itertools import compress

# An evaluation that read more zones than this is not kept: recording and dropping it
# would cost more than the evaluations it saves.
MOST_READS = 64
# A state lists at most this many readers of zones (a value per zone it read); past it, all
# values are forgotten (memory stays bounded, however long the game).
MOST_ENTRIES = 1 << 16

# Values kept: plain, immutable, and apart by type (`true` is not `1`: no bool as a key).
KEPT_VALUES = frozenset({bool, int, str, type(None)})
KEYED = frozenset({int, str, type(None)})


class Memo:
    """The values kept for one state: (def, arguments) -> (value, steps, zone keys read),
    and for each zone key the entries that read it (an entry may be listed more than once:
    dropping it twice costs nothing)."""

    __slots__ = ("entries", "readers", "size", "hits", "kept", "indexes", "watched")

    def __init__(self):
        self.entries: dict = {}
        self.readers: dict = defaultdict(list)   # zone key -> the keys of the values that read it
        self.size = 0    # readers listed, all zones together (bounded: see keep)
        self.hits = 0    # values met again (tests read it: the path was taken)
        self.kept = 0    # values kept
        # number -> Indexed, or None: refused for this state (see where); (_MET, number) ->
        # True: a count made once without the index (refused_apart)
        self.indexes: dict = {}
        # zone key -> the (index number, cell) whose value read it: a list that may be shared
        # with a copy's memo (copied), so only ever added to, and by either (a cell listed
        # that its index does not watch is judged again for nothing: never wrong)
        self.watched: dict = {}

    def forget(self) -> None:
        """Everything kept goes (memory stays bounded, however long the game)."""
        self.entries.clear()
        self.readers.clear()
        self.indexes.clear()
        self.watched.clear()
        self.size = 0

    def copied(self) -> "Memo":
        """The indexes of this memo, for a copy of its state (which stands in the same
        position): every cell as judged, the counts and lines kept, the zones their judging
        read listed so that an effect on one drops what it undoes. No kept value: a copy
        keeps none (most would be dropped before they are met again), only what costs a
        search of the whole board to make again."""
        memo = Memo()
        memo.indexes = {number: index.copied() if type(index) is Indexed else index
                        for number, index in self.indexes.items()}
        memo.watched = dict(self.watched)
        # Listed, so that an effect on one calls drop (runtime.py); no value read it (keep).
        memo.readers = defaultdict(list, dict.fromkeys(self.watched, _NO_KEYS))
        memo.size = len(self.watched)
        return memo

    def keep(self, key, value, steps: int, reads: list) -> None:
        if type(value) not in KEPT_VALUES or len(reads) > MOST_READS:
            return
        if self.size >= MOST_ENTRIES:
            self.forget()
        self.entries[key] = (value, steps, reads)
        self.kept += 1
        self.size += len(reads)
        readers = self.readers
        for zone in reads:
            keys = readers[zone]
            if keys is _NO_KEYS:
                readers[zone] = [key]
            else:
                keys.append(key)

    def drop(self, zone) -> None:
        """A zone changed: forget every value that read it."""
        keys = self.readers.pop(zone, None)
        if keys:
            entries = self.entries
            for key in keys:
                entries.pop(key, None)
        watched = self.watched
        if watched:
            cells = watched.pop(zone, None)
            if cells:
                entries, indexes = self.entries, self.indexes
                for number, cell in cells:
                    index = indexes.get(number)
                    if type(index) is not Indexed or index.dirty is None:
                        continue   # refused, or to be judged whole
                    index.dirty.add(cell)
                    if index.around:   # the values kept from its counts around that cell
                        for other in index.adjacency.get(cell, ()):
                            for key in index.around.pop(other, ()):
                                entries.pop(key, None)


class Indexed:
    """The value of a def of one cell at every cell of a fixed board, and the cells of each
    value: what `[x for x in B where D(x) == v]` looks up (`where`) instead of judging every
    cell of B again. Built at its first use, by judging every cell as the search would; a
    cell whose zones changed since is judged again at the next use (`dirty`, filled by
    Memo.drop), so that a listing asked at every turn judges the few cells a move changed.
    With it, for each value `near` was asked, how many neighbours of each cell have it
    (`any(D(n) == v for n in neighbours(B, h))`, one lookup), and for each value `full_lines` was
    asked, which straight lines from each cell are all of it; both kept as the cells change."""

    __slots__ = ("number", "values", "steps", "total", "cells", "dirty", "reads", "near", "adjacency",
                 "around", "lines")

    def __init__(self, number=None):
        self.number = number     # its key in Memo.indexes (what Memo.watched names it by)
        self.values: dict = {}   # cell -> the def's value there
        self.steps: dict = {}    # cell -> the steps judging it charged
        self.total = 0           # their sum: what the search charges besides its walk
        self.cells: dict = {}    # value -> the set of cells where the def has it
        self.dirty: set | None = None   # the cells to judge again (None: every cell, not built)
        self.reads: dict = {}    # cell -> the zones judging it read
        self.near: dict = {}     # value -> {cell: how many of its neighbours have it (one at least)}
        self.adjacency: dict = {}   # the board's neighbours (symmetric), once near counts
        self.around: dict = {}   # cell -> keys of the values kept from the counts around it
        self.lines: dict = {}    # value -> {Lines: {cell: the directions of its full lines, as bits}}

    def copied(self) -> "Indexed":
        """This index for a copy of its state: the same cells, values, counts and lines, in
        containers of its own (the board's adjacency and lines are shared: nothing changes
        them); no value kept from its counts (`around`), as the copy keeps none."""
        index = Indexed(self.number)
        index.values = dict(self.values)
        index.steps = dict(self.steps)
        index.total = self.total
        index.cells = {value: set(cells) for value, cells in self.cells.items()}
        index.dirty = None if self.dirty is None else set(self.dirty)
        index.reads = dict(self.reads)   # a cell judged again gets a new list
        index.near = {value: dict(counts) for value, counts in self.near.items()}
        index.adjacency = self.adjacency
        index.lines = {value: {straight: dict(full) for straight, full in kept.items()}
                       for value, kept in self.lines.items()}
        return index


_UNSET = object()   # a cell not judged before
_NO_KEYS = ()   # in Memo.readers: a zone an index's judging read and no value kept read


class _Refused(Exception):
    """A value an index cannot hold (a list, a map): the search is made as written."""


def _fresh(c, number: int, body, cells: list) -> Indexed | None:
    """The index `number` of the state, every cell judged as its zones are now; None where it
    cannot stand for the searches: no state, or a judging that failed or gave a list or a
    map (then refused until this state's kept values are forgotten). Judging charges no
    step: the searches charge what they would, where they are made."""
    state = c.state
    if state is None:
        return None
    memo = state.memo
    if memo is EMPTY:
        memo = state.memo = Memo()
    elif memo.size >= MOST_ENTRIES:
        memo.forget()
    indexes = memo.indexes
    index = indexes.get(number, EMPTY)
    if index is None:
        return None
    if index is EMPTY:
        index = indexes[number] = Indexed(number)
    todo = index.dirty
    if todo is None or todo:
        index.dirty = set()
        before = c.steps
        try:
            _judge(c, memo, index, body, cells if todo is None else todo)
        except Exception:
            indexes[number] = None
            return None
        finally:
            c.steps = before
    return index


def where(c, number: int, body, cells: list, position: dict, wanted, scan, counted: bool = False):
    """`[x for x in cells where D(x) == wanted]` (or its count, `counted`), D a pure def of
    one cell whose evaluation `body` (a kept def's body, noting the zones it reads) gives:
    the cells of the index with that value, in the board's order, charging the steps the
    search charges (its walk, and every cell's judging as it was last judged). `scan()` is
    the search as written, made instead whenever the index cannot answer exactly as it: a
    wanted value that is no key, a judging that fails or gives what no index holds (it
    fails or charges the same again, from where the search starts), or steps past the
    limit (the search stops where it stops)."""
    if type(wanted) not in KEPT_VALUES:
        return scan()
    index = _fresh(c, number, body, cells)
    if index is None:
        return scan()
    charged = c.steps + len(cells) + index.total
    if charged > c.max_steps:
        return scan()
    c.steps = charged
    found = index.cells.get(wanted)
    if counted:
        return len(found) if found else 0
    return sorted(found, key=position.__getitem__) if found else []


def emptiness(keys: dict):
    """The body (as `_judge` calls it) of the test whether a cell's zone is empty, `keys`
    giving each cell's zone key: the index of a zone test a listing skips cells of
    (refused_apart)."""
    def body(c, zones, reads, cell):
        key = keys[cell]
        reads.append(key)
        return not zones[key]
    return body


def refused_apart(c, number, body, keys: dict, kept, empty_refused: bool) -> int:
    """How many of the cells of `keys` (cell -> the key of its zone) outside `kept` (some of
    them) a require on their zone refuses: those whose zone is empty (`empty_refused`), or
    not empty. For a lister that skips the cells outside `kept` with coverage counted
    (compiler/listers.py, `_counted_apart`). Charges nothing: a zone test charges no step.

    Read from the index `number` of the zones' emptiness (`body`, made by `emptiness`),
    whose cells are judged again only when their zone changed; but only from the second
    count of a state's memo on: the index costs as much to build as some twenty-five counts
    from the zones themselves (every zone read at once, in C loops), and a state listed once
    (a copy, a game read back from JSON) never pays for it. `number` None: never from an
    index."""
    state = c.state
    if number is not None and state is not None:
        memo = state.memo
        if memo is EMPTY:
            memo = state.memo = Memo()
        indexes = memo.indexes
        if number in indexes or (_MET, number) in indexes:
            index = _fresh(c, number, body, keys)
            if index is not None:
                refused = index.cells.get(empty_refused)
                return len(refused) - len(refused.intersection(kept)) if refused else 0
        else:
            indexes[_MET, number] = True
    zones = state.zones
    full = len(keys) - list(map(len, map(zones.__getitem__, keys.values()))).count(0)
    full -= sum(map(bool, map(zones.__getitem__, map(keys.__getitem__, kept))))
    return len(keys) - len(kept) - full if empty_refused else full


_MET = "counted once"   # in Memo.indexes with a number: refused_apart counted without the index once


def lined_cells(c, domain: list, name: str, items: frozenset, n: int, zone, lines: tuple, wanted,
                counted: bool = False, first=None):
    """The cells of `domain` (a fixed board's, in its order) a listing's loop must judge for
    a require `T(x) in K and L(x, p)` (T the table `name`, K a constant list whose set is
    `items` and length `n`; L a search of lines all of a def's value `wanted`, answered by
    full_lines with the arguments `lines`: number, body, cells, straight), after at most one
    zone test that charges nothing (`zone`: each cell's zone key, and whether an empty zone
    is refused; None: no zone test): the cells the zone test lets through where K holds T
    and a line is full. Every other cell the loop would refuse, at the zone test (no step)
    or at this require, which charges what `_in_fixed` charges and, for T in K, the steps
    of finding no line: those are charged here at once, so that the listing charges what
    the loop over every cell charges. The zones are read in C loops, every cell's at each
    listing (an index of the zones' emptiness would be another index a state keeps).

    `domain` itself (every cell judged by the loop) wherever that cannot be exact: no state,
    a table this state may still write in place, a cell without a value of T or without
    its lines, no lines kept for the value (full_lines None), or steps that would run past
    the limit (the loop then stops where it stops). The lines are asked only when some cell
    passes the zone test with T in K, as the loop asks them at the first such cell.

    `counted` (coverage counted): (the cells, how many cells the zone test refuses, how
    many others this require refuses), or None where the loop judges every cell.

    `first` (lined_first), for a loop whose every cell found is a move (the require is the
    last of the last parameter): the `stop` of a listing asked whether a move exists, kept
    whole after its first move (decisions._First). The steps of the cells skipped before
    the first cell found are charged here, those after it owed to the first move
    (decisions._stop), so that the first move notes what a listing stopped there charges,
    and the listing what every cell judged charges."""
    state = c.state
    if state is None or name in state._owned_tables:
        return None if counted else domain
    keys = None if zone is None else zone[0]
    made = _lined_weights(state.tables[name], domain, items, n, lines[3], keys)
    if made is None:
        return None if counted else domain
    weights, in_k, total, total_k, position, zone_keys = made
    if zone is None:
        passing = None
        charged, passing_k = total, total_k
    else:
        zones = state.zones
        # True where the zone test lets the cell through: its zone empty, or not (empty_refused)
        passing = list(map(operator.not_, map(zones.__getitem__, zone_keys)))
        if zone[1]:
            passing = list(map(operator.not_, passing))
        charged = sum(compress(weights, passing))
        passing_k = sum(compress(in_k, passing))
    if passing_k:
        full = full_lines(c, lines[0], lines[1], lines[2], lines[3], wanted)
        if full is None:
            return None if counted else domain
        found = [cell for cell in full if cell in position and in_k[position[cell]]
                 and (passing is None or passing[position[cell]])]
        found.sort(key=position.__getitem__)
        for cell in found:
            charged -= weights[position[cell]]
    else:
        found = []
    if c.steps + charged > c.max_steps:
        return None if counted else domain
    if first is not None and found:
        before = position[found[0]]
        owed = charged - sum(weights[:before] if passing is None else compress(weights[:before], passing))
        first.owed = owed
        charged -= owed
    c.steps += charged
    if not counted:
        return found
    passed = len(domain) if passing is None else sum(passing)
    return found, len(domain) - passed, passed - len(found)


def lined_first(c, domain: list, name: str, items: frozenset, n: int, zone, lines: tuple, wanted, stop):
    """lined_cells for a listing asked whether a move exists: `domain` when it stops at the
    first move (`stop` True: the loop judges every cell up to it), the cells found when it
    is kept whole after it (a decisions._First, given as `first`)."""
    if stop is True:
        return domain
    return lined_cells(c, domain, name, items, n, zone, lines, wanted, False, stop)


def _lined_weights(table, domain: list, items: frozenset, n: int, straight: Lines, keys: dict | None):
    """(each cell's steps when the require refuses it past the zone test, 1 where K holds T
    and 0 elsewhere, the sums of both, each cell's position, each cell's zone key), lists in
    the domain's order, for lined_cells; kept on the table, which no state writes again, by
    the domain, the set, the lines and the keys. None when some cell has no value, no lines,
    or cannot be a key of the lines kept."""
    known = table.by_value
    if known is None:
        known = table.by_value = {}
    key = ("lined", id(domain), id(items), id(straight), id(keys))
    entry = known.get(key)
    if entry is not None and entry[0] is domain and entry[1] is items and entry[2] is straight \
            and entry[3] is keys:
        return entry[4]
    steps = straight.made().steps
    weights, in_k = [], []
    made = None
    try:
        for cell in domain:
            if type(cell) not in KEYED or cell not in table or cell not in steps:
                break
            value = table[cell]
            kind = type(value)
            weights.append(n * (1 + len(value)) if kind is str or kind is list or kind is dict else n)
            in_k.append(int(kind is not list and kind is not dict and value in items))
            if in_k[-1]:
                weights[-1] += steps[cell][0]
        else:
            position = {cell: i for i, cell in enumerate(domain)}
            zone_keys = None if keys is None else [keys[cell] for cell in domain]
            if len(position) == len(domain):
                made = (weights, in_k, sum(weights), sum(in_k), position, zone_keys)
    except (TypeError, KeyError):   # a value no set can hold, a cell without a zone: the loop judges
        made = None
    known[key] = (domain, items, straight, keys, made)
    return made


def _stepless(c, number: int, body, cells: list, wanted) -> Indexed | None:
    """The index `number`, fresh, where what it holds of `wanted` stands for a search over
    cells that charges one step a cell met: None when the index cannot (see _fresh), when a
    judging charged steps, or when `wanted` is no key or a text (a comparison of texts the
    checker did not prove cheap charges steps)."""
    if type(wanted) not in KEPT_VALUES or type(wanted) is str:
        return None
    index = _fresh(c, number, body, cells)
    if index is None or index.total:
        return None
    return index


def near(c, number: int, body, cells: list, adjacency: dict, wanted) -> dict | None:
    """{cell: how many of its neighbours D gives `wanted`, one at least}, from the index
    `number` of D: for every cell h at once, whether `any(D(n) == wanted for n in
    neighbours(B, h))`, the board's adjacency being symmetric. None where the counts cannot
    stand for that search: the index cannot (see _fresh), a judging charged steps (the
    search charges them for the neighbours it meets), or `wanted` is no key or a text (a
    comparison of texts the checker did not prove cheap charges steps)."""
    index = _stepless(c, number, body, cells, wanted)
    if index is None:
        return None
    counts = index.near.get(wanted)
    if counts is None:
        counts = index.near[wanted] = {}
        index.adjacency = adjacency
        for cell in index.cells.get(wanted, ()):
            for other in adjacency.get(cell, ()):
                counts[other] = counts.get(other, 0) + 1
    return counts


def near_rows(memo: dict, choices: list, counts: dict, adjacency: dict) -> tuple[int, list] | None:
    """(the steps, [(choice, its count in `counts`, its neighbours)]) of a group's choices, for
    a prefer whose test of each choice is its count of neighbours less one for a neighbour
    left out (compiler/prefers.py, a group judged at once): the steps those tests charge
    (one a neighbour) and what each reads, kept in the listing's `memo` for the next group
    with the very same choices (a listing's last loop meets its list of passing choices
    again for every value of the earlier parameters). None when a choice cannot be a key
    of the counts (each is then judged as written)."""
    key = (_NEAR_ROWS, id(choices))
    known = memo.get(key)
    if known is not None and known[0] is choices and known[1] is counts:
        return known[2]
    total, rows = 0, []
    for choice in choices:
        if type(choice) not in KEYED:
            rows = None
            break
        around = adjacency.get(choice, ())
        total += len(around)
        rows.append((choice, counts.get(choice, 0), around))
    made = None if rows is None else (total, rows)
    memo[key] = (choices, counts, made)
    return made


_NEAR_ROWS = object()   # near_rows' part of a listing's memo


class NearReads:
    """The zones a value answered from the counts of an index around a cell read (kept by the
    lines compiler/indexes.near_test writes): those the judging of the cell's neighbours
    read. Listed only when asked (a kept def computed inside another's body adds them to its
    own), because most such values are dropped unasked, and listing them at every keep cost
    more than the counts saved. They cannot change while the value is kept: a neighbour
    judged again is one whose zone changed, and that change dropped the value."""

    __slots__ = ("index", "cell")

    def __init__(self, index: Indexed, cell):
        self.index = index
        self.cell = cell

    def __iter__(self):
        judged = self.index.reads
        for other in self.index.adjacency.get(self.cell, ()):
            yield from judged[other]


class Lines:
    """The straight lines of k cells of a fixed board: `line(B, h, d, k)` from every cell h in
    every direction d, in the board's order of directions. A search `any(count(x for x in
    line(B, h, d, k) where D(x) == v) == k for d in directions(B))` is true when one of h's
    lines of k cells is all of D's value v, and charges one step a direction and one a cell
    of each line it goes through, up to the first such line (`steps`). Made at the first
    use, from `line` (boards.line of the board, for k): a ruleset that never asks pays
    nothing at load."""

    __slots__ = ("cells", "directions", "k", "line", "steps", "through")

    def __init__(self, cells: list, directions: tuple, k: int, line):
        """`k`: 2 or more (a line of one cell is a neighbour, which `near` counts)."""
        self.cells = cells
        self.directions = directions
        self.k = k
        self.line = line          # (cell, direction) -> the cells of the line, as line() gives them
        self.steps: dict = {}     # cell -> [steps finding no line, steps up to direction 0's, 1's, …]
        # cell -> [(h, the bit of the line's direction, its other cell nearest to the cell, its
        # other cells)]: the lines of k cells through the cell
        self.through: dict = {}

    def made(self) -> "Lines":
        """These lines, made at the first call (then as they are)."""
        if not self.steps and self.cells:
            for h in self.cells:
                walked = [len(self.directions)]
                for j, direction in enumerate(self.directions):
                    line = tuple(self.line(h, direction))
                    walked.append(walked[-1] + len(line))
                    if len(line) == self.k:
                        for i, x in enumerate(line):
                            others = line[:i] + line[i + 1:]
                            # the nearest other cell first: most lines fail there, tested alone
                            nearest = others[i - 1] if i else others[0]
                            self.through.setdefault(x, []).append((h, 1 << j, nearest, others))
                walked[0] = walked[-1]
                self.steps[h] = walked
        return self

    def count(self, members) -> dict:
        """{cell: the bits of the directions whose line of k cells is all in `members`}, the
        cells with one such line at least."""
        out: dict = {}
        for x in members:
            for h, bit, _, others in self.through.get(x, ()):
                if members.issuperset(others):
                    out[h] = out.get(h, 0) | bit
        return out


def full_lines(c, number: int, body, cells: list, straight: Lines, wanted) -> dict | None:
    """{cell: the bits of the directions d in which its line of k cells is all of D's value
    `wanted`}, the cells with one at least, from the index `number` of D (a pure def of one
    cell whose evaluation `body` gives): `any(count(x for x in line(B, h, d, k) where D(x) ==
    wanted) == k for d in directions(B))` for every h at once, kept up to date as cells
    change. None where they cannot stand for that search: as `near`."""
    straight.made()
    index = _stepless(c, number, body, cells, wanted)
    if index is None:
        return None
    kept = index.lines.get(wanted)
    if kept is None:
        kept = index.lines[wanted] = {}
    full = kept.get(straight)
    if full is None:
        full = kept[straight] = straight.count(index.cells.get(wanted) or _NO_CELLS)
    return full


def _reline(index: Indexed, cell, old, new) -> None:
    """A cell's value went from `old` to `new`: the lines through it whose other cells are
    all of `old` are no longer all of it, those whose other cells are all of `new` are all
    of it now, for the values whose lines are kept."""
    lines = index.lines
    kept = lines.get(old)
    if kept is not None:
        members = index.cells.get(old) or _NO_CELLS
        for straight, full in kept.items():
            for h, bit, nearest, others in straight.through.get(cell, ()):
                if nearest in members and members.issuperset(others):
                    left = full[h] & ~bit
                    if left:
                        full[h] = left
                    else:
                        del full[h]
    kept = lines.get(new)
    if kept is not None:
        members = index.cells.get(new) or _NO_CELLS
        for straight, full in kept.items():
            for h, bit, nearest, others in straight.through.get(cell, ()):
                if nearest in members and members.issuperset(others):
                    full[h] = full.get(h, 0) | bit


_NO_CELLS = frozenset()


def _recount(index: Indexed, cell, old, new) -> None:
    """A cell's value went from `old` to `new` (maybe the same): its neighbours' counts follow."""
    around = index.adjacency.get(cell, ())
    counts = index.near.get(old)
    if counts is not None:
        for other in around:
            left = counts[other] - 1
            if left:
                counts[other] = left
            else:
                del counts[other]
    counts = index.near.get(new)
    if counts is not None:
        for other in around:
            counts[other] = counts.get(other, 0) + 1


def _judge(c, memo: Memo, index: Indexed, body, cells) -> None:
    """Judge `cells` again: each one's value, steps and zones read, noted in the index."""
    zones = c.state.zones
    values, steps, by_value = index.values, index.steps, index.cells
    readers, watched = memo.readers, memo.watched
    for cell in cells:   # the board's list, or a set no effect changes meanwhile
        reads: list = []
        start = c.steps
        value = body(c, zones, reads, cell)
        if type(value) not in KEPT_VALUES:
            raise _Refused(cell)
        old = _UNSET
        if cell in values:
            old = values[cell]
            by_value[old].discard(cell)
            index.total -= steps[cell]
            if index.near:
                _recount(index, cell, old, value)
        values[cell] = value
        index.reads[cell] = reads
        steps[cell] = spent = c.steps - start
        index.total += spent
        group = by_value.get(value)
        if group is None:
            group = by_value[value] = set()
        group.add(cell)
        if index.lines and old is not _UNSET and old != value:
            _reline(index, cell, old, value)
        for zone in reads:
            readers[zone]   # listed: an effect on it calls drop (runtime.py)
            entry = watched.get(zone)
            if entry is None:
                watched[zone] = [(index.number, cell)]
            else:
                entry.append((index.number, cell))
        memo.size += len(reads)


def check_where(c, number: int, body, cells: list, position: dict, wanted, scan, counted: bool = False):
    """`where`, checked against the search as written (same value, same steps): tests."""
    start = c.steps
    plain = scan()
    plain_steps = c.steps - start
    c.steps = start
    found = where(c, number, body, cells, position, wanted, scan, counted)
    verify(plain, plain_steps, found, c.steps - start)
    return found


def read(reads: list, zones, key):
    """A zone read by a kept def's body where Python allows no assignment expression."""
    value = zones[key]
    reads.append(key)
    return value


class _NoState:
    """The zones of a context without a state (the budget constants are computed with):
    reading one fails as `c.state.zones` fails there."""

    def __getitem__(self, key):
        return None.zones   # AttributeError: 'NoneType' object has no attribute 'zones'


NO_STATE = _NoState()



# The memo of a state that has kept nothing yet: shared, never written (the first value a
# state keeps gives it a Memo of its own), so that reading it needs no test for none.
EMPTY = Memo()


def verify(value, steps, again, steps_again) -> None:
    if type(value) is not type(again) or value != again or steps != steps_again:
        raise AssertionError(f"a kept value went stale: {value!r} ({steps} steps) kept, "
                             f"{again!r} ({steps_again} steps) computed")


