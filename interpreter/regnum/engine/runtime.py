"""The virtual machine: runs compiled code over a State until someone must decide.

A game's flow is a main stack of frames plus, during a simultaneous step,
one stack per deciding player. Running stops at an `ask` (a decision), when a
simultaneous step spawns its threads, or when the flow ends. Effects
(moving, creating, shuffling pieces, firing triggers) live here too.
"""
from __future__ import annotations

from contextlib import contextmanager
from operator import itemgetter

from .. import rng
from ..builtins import EvalError
from ..compiler.native import locate
from ..compiler.statements import ASK, END, SPAWN
from ..diagnostics import Diagnostic, LimitExceeded, RulesetError
from ..limits import DEFAULT as DEFAULT_LIMITS, Limits, Overflow
from ..boards import coordinates
from ..opengrid import reached
from .state import (_ABSENT, State, size_of, state_size, undo_cell, undo_create, undo_move, undo_move_all,
                    undo_new_zone, undo_order, undo_piece, undo_pvar, undo_revealed, undo_table, undo_var)




_Overflow = Overflow   # a size or depth limit was reached; run_stack adds where

# Whether `move Z to D` moves a whole zone at once (Ctx._move_zone); tests switch it off to
# compare with moving its pieces one by one.
MOVE_ZONES = True


class RuntimeFault(RulesetError):
    """A ruleset failed while running (for example, an index out of range)."""

    def __init__(self, message: str, span):
        super().__init__([Diagnostic("E902", "error", message, span)])


class Ctx:
    """What instructions and expressions see: the state, the model and the seats.

    Every write to the state goes through a method here (or set_var / set_pvar from compiled
    code), which first appends to `undo` how to undo it (see state.Journal); during a move,
    `frames` holds the ids of the flow's frames as the move found them, which run_stack
    copies before it changes one."""

    __slots__ = ("model", "state", "n", "seats", "events", "narrate", "hits", "steps",
                 "max_steps", "stack", "last_ranking", "fired", "limits", "size_bound", "added", "earlier",
                 "deferred", "move_base", "undo", "frames", "earlier_fn", "settled", "watched", "kept",
                 "choices", "listed", "asked")

    def __init__(self, model, state: State, n: int, hits: dict, events: list, narrate: bool = True,
                 limits: Limits = DEFAULT_LIMITS):
        self.model = model
        self.state = state
        self.n = n
        self.seats = list(range(n))
        self.events = events
        self.narrate = narrate
        self.hits = hits
        self.steps = 0
        self.limits = limits
        self.max_steps = limits.steps
        # The state's size is at most size_bound + added: what it measured (or was bounded by)
        # before this step, plus every item, character and piece field stored since. Only when
        # that bound passes the limit is the state measured (see check_size).
        self.size_bound = 0
        self.added = 0
        self.stack: list = []
        self.last_ranking = None
        self.fired: list = []     # triggers fired by the statement running now, in order
        self.deferred: list = []  # fired `after the move` triggers, not yet placed on the stack
        self.move_base: int | None = None   # where the move's action frame is on the stack
        # The game before the last move, as `previous(…)` reads it: set by Game.check_invariants
        # only, so that no rule, listing or move ever sees an earlier state.
        self.earlier: "Ctx | None" = None
        self.earlier_fn = None   # builds `earlier` when previous(…) is first read
        self.undo: list = []     # the undo entries of the writes (a move's Journal.entries)
        self.frames = None       # during a move, its Journal (run_stack copies the frames it found)
        self.settled = False     # set by a move that knows every stack of the flow waits (see advance)
        # Listings a `can` made whole during a move: {(seat, action): (moves, steps, len(undo)
        # then)}, taken by the next position's listing if no write came after (decisions.exists).
        self.kept: dict | None = None
        # During a listing of a position that offers several actions: the last zone's list
        # whose choices were made and those choices ((list, choices), or () before any),
        # taken by the next action choosing from the same zone (a piece played, or put aside,
        # from the same pool: decisions._zone_choices). None outside such a listing: a write may
        # change a zone's list in place.
        self.choices: tuple | None = None
        # During such a listing: the actions a `can` asked about (`require no_move: not
        # can(player, place)` of a pass offered beside `place`), which the next such listing
        # of the game expects to be asked about again; and, for each action the last one
        # asked about, {(seat, action): (whether it has a move, the steps a `can` pays to
        # learn it)} once listed, which a `can` of it answers from (decisions.exists).
        self.asked: set | None = None
        self.listed: dict | None = None
        # Whether pieces moving may fire triggers (the model's never change): move_piece asks once.
        self.watched = model is not None and bool(model.triggers or model.leave_triggers)

    def reset(self, hits: dict, size_bound: int, events: list, narrate: bool) -> None:
        """Ready for another step of the same game (a move, a listing): nothing of the last."""
        self.events = events
        self.narrate = narrate
        self.hits = hits
        self.steps = 0
        self.size_bound = size_bound
        self.added = 0
        self.stack = []
        self.last_ranking = None
        self.fired = []
        self.deferred = []
        self.move_base = None
        self.earlier = None
        self.earlier_fn = None
        self.undo = []
        self.frames = None
        self.settled = False
        self.kept = None

    def hit(self, rule: str) -> None:
        hits = self.hits
        if hits is not None:   # None: the game counts no coverage
            hits[rule] = hits.get(rule, 0) + 1

    def previous(self) -> "Ctx":
        """What `previous(e)` evaluates e against (only an invariant may, as the checker ensures)."""
        if self.earlier is None and self.earlier_fn is not None:
            self.earlier = self.earlier_fn()
        if self.earlier is None:
            raise EvalError("previous(…) can be read only while the invariants are checked")
        return self.earlier

    # ── procedures ──
    def push(self, code_name: str, env: dict, at: int | None = None) -> None:
        """A frame on the stack: on top, or at index `at` (under the frames above it)."""
        if len(self.stack) >= self.limits.call_depth:
            raise _Overflow(f"rules call each other more than {self.limits.call_depth} deep "
                            "(runaway recursion?)", self.limits.hint("call_depth"))
        hits = self.hits
        if hits is not None:   # self.hit(…), written out: a game without coverage skips the lookup
            rule = self.model.codes[code_name].cover
            hits[rule] = hits.get(rule, 0) + 1
        if at is None:
            self.stack.append([code_name, 0, env])
        else:
            self.stack.insert(at, [code_name, 0, env])

    def spawn(self, block: str, threads: list) -> None:
        self.state.flow["threads"] = [{"player": p, "stack": [[block, 0, env]]} for p, env in threads]

    # ── variables, as compiled code sets them (the value already checked by fit) ──
    def set_var(self, name: str, value) -> None:
        variables = self.state.vars
        self.undo.append((undo_var, name, variables[name]))
        variables[name] = value

    def set_pvar(self, seat: int, name: str, value) -> None:
        row = self.state.pvars[seat]
        self.undo.append((undo_pvar, seat, name, row[name]))
        row[name] = value

    # ── effects ──
    def move_piece(self, piece: int, key: str) -> None:
        state = self.state
        where = state.where
        old = where[piece]
        if old == key:
            return
        zones = state.zones
        owned = state._owned   # State.writable, inlined: the hottest effect of most games
        if key in owned:   # a zone the state owns is one it has (the usual case)
            dest = zones[key]
        else:
            if key not in zones:
                self.open_zone(key)
            dest = state.writable(key)
        zone = zones[old] if old in owned else state.writable(old)
        if zone[-1] == piece:   # the top piece (`move 1 from Z`, a zone emptied from its end)
            i = len(zone) - 1
            zone.pop()
        else:
            i = zone.index(piece)
            del zone[i]
        dest.append(piece)
        where[piece] = key
        self.undo.append((undo_move, piece, old, i, key))
        readers = state.memo.readers
        if readers:   # the values kept that read either zone no longer hold
            if old in readers:
                state.memo.drop(old)
            if key in readers:
                state.memo.drop(key)
        revealed = state.revealed
        if revealed and piece in revealed:
            self.undo.append((undo_revealed, dict(revealed)))
            del revealed[piece]  # a revealed piece that moves is hidden again
        if self.watched:
            model = self.model
            if model.leave_triggers:
                self._fire(piece, old, model.leave_triggers)
            if model.triggers:
                self._fire(piece, key, model.triggers)

    def create_piece(self, piece_type: str, values: dict, label: str, key: str) -> int:
        state = self.state
        if len(state.pieces) >= self.limits.pieces:
            raise self._too_many_pieces()
        record = {"type": piece_type, "label": label}
        kind = self.model.pieces[piece_type]
        for name, _, default in kind.fields:
            record[name] = self.fit(values[name]) if name in values else default
        self.added += kind.size + len(label)   # given values were counted by fit
        if key not in state.zones:
            self.open_zone(key)
        piece = len(state.pieces)
        state.pieces.append(record)
        state.where.append(key)
        state.writable(key).append(piece)
        self.undo.append((undo_create, key))
        if state.memo.readers:
            state.memo.drop(key)
        return piece

    def _too_many_pieces(self) -> _Overflow:
        return _Overflow(f"more than {self.limits.pieces} pieces created (runaway growth?)",
                         self.limits.hint("pieces"))

    # ── effects as native procedures call them ──
    def move_any(self, what, key: str) -> None:
        if type(what) is int:
            self.move_piece(what, key)
        elif what is None:
            raise EvalError("move: there is no piece to move (none)")
        elif len(what) > 1 and MOVE_ZONES and self._move_zone(what, key):   # one piece: move_piece
            return
        else:
            for piece in list(what):
                self.move_piece(piece, key)

    def _move_zone(self, what, key: str) -> bool:
        """Move every piece of a zone, when `what` is a zone's own list (`move Z to D`), at
        once: what moving them one by one, in order, leaves — the state, the values kept that
        read either zone dropped — with one undo entry. Only where no trigger watches pieces
        leave the zone or enter the other (its firing order is per piece) and no piece of the
        zone is revealed (each is hidden again with an undo entry of its own); else False, and
        nothing is done."""
        state = self.state
        where = state.where
        first = what[0]
        if type(first) is not int or not 0 <= first < len(where):
            return False
        old = where[first]
        zones = state.zones
        if zones.get(old) is not what:
            return False
        if old == key:
            return True   # each piece is where it goes
        if self.watched and self._fires(old, key):
            return False
        revealed = state.revealed
        if revealed and any(piece in revealed for piece in what):
            return False
        if key not in zones:
            self.open_zone(key)
        dest = state.writable(key)
        zone = state.writable(old)
        pieces = zone[:]
        del zone[:]
        dest.extend(pieces)
        for piece in pieces:
            where[piece] = key
        self.undo.append((undo_move_all, pieces, old, key))
        self._drop_read(old, key)
        return True

    def _drop_read(self, old: str, key: str) -> None:
        """Pieces went from zone `old` to zone `key`: the values kept that read either no
        longer hold (what move_piece does, written out there, for each piece)."""
        memo = self.state.memo
        readers = memo.readers
        if readers:
            if old in readers:
                memo.drop(old)
            if key in readers:
                memo.drop(key)

    def _fires(self, old: str, key: str) -> bool:
        """Whether a trigger watches pieces leave zone `old` or enter zone `key` (`_fire`
        finds its triggers by the zone's family)."""
        model = self.model
        return (old.partition("#")[0] in model.leave_triggers) or (key.partition("#")[0] in model.triggers)

    def move_top(self, n: int, source: str, dest: str) -> None:
        if type(n) is not int or n < 0:
            raise EvalError(f"move: the number of pieces must be 0 or more, not {n!r}")
        state = self.state
        have = state.zones.get(source, ())
        if n > len(have):
            raise EvalError(f"move {n} from a zone holding {len(have)}")
        if n < 2 or source == dest or not MOVE_ZONES or (self.watched and self._fires(source, dest)) \
                or (state.revealed and any(piece in state.revealed for piece in have[-n:])):
            for _ in range(n):
                self.move_piece(state.zones[source][-1], dest)
            return
        # What n calls of move_piece leave, each piece's undo entry as its call writes it,
        # without their calls: no trigger fires on these zones and no piece is revealed.
        zones = state.zones
        if dest not in zones:
            self.open_zone(dest)
        to = state.writable(dest)
        zone = state.writable(source)
        where, undo = state.where, self.undo
        i = len(zone)
        for _ in range(n):
            i -= 1
            piece = zone.pop()
            to.append(piece)
            where[piece] = dest
            undo.append((undo_move, piece, source, i, dest))
        self._drop_read(source, dest)

    def create_many(self, n: int, piece_type: str, values: dict, label: str, key: str) -> None:
        if type(n) is not int or n < 0:
            raise EvalError(f"create: the number of pieces must be 0 or more, not {n!r}")
        if "#" in label:
            # Moves name a piece by its label, and pieces that share a label but differ by
            # `label#id`: with '#' kept out of labels, no two of those names can be equal.
            raise EvalError(f"create: the label {label!r} contains '#', which moves use to tell "
                            "pieces with the same label apart; choose a label without it")
        if n == 1:
            self.create_piece(piece_type, values, label, key)
        elif n:
            self._create_alike(n, piece_type, values, label, key)

    def _create_alike(self, n: int, piece_type: str, values: dict, label: str, key: str) -> None:
        """What n calls of create_piece do, the pieces' values fitted once (a setup creates
        a hundred pieces and more this way). Each check fails where the first call or the
        call past the limit would fail it, with its message."""
        state = self.state
        pieces = state.pieces
        first, limit = len(pieces), self.limits.pieces
        if first >= limit:
            raise self._too_many_pieces()
        added = self.added
        record = {"type": piece_type, "label": label}
        kind = self.model.pieces[piece_type]
        for name, _, default in kind.fields:
            record[name] = self.fit(values[name]) if name in values else default
        self.added += (self.added - added) * (n - 1) + (kind.size + len(label)) * n
        if key not in state.zones:
            self.open_zone(key)
        if first + n > limit:
            raise self._too_many_pieces()
        pieces.extend([dict(record) for _ in range(n)])
        state.where.extend([key] * n)
        state.writable(key).extend(range(first, first + n))
        self.undo.extend([(undo_create, key)] * n)
        if state.memo.readers:
            state.memo.drop(key)

    def set_field(self, piece, field: str, value, add: bool) -> None:
        if type(piece) is not int:
            raise EvalError(f"'.{field}' can only be set on a piece")
        old = self.state.pieces[piece]
        record = dict(old)
        record[field] = self.fit(record[field] + value if add else value)
        self.undo.append((undo_piece, piece, old))
        self.state.pieces[piece] = record

    # ── open grids: a cell comes into use when it is first written ──
    def open_zone(self, key: str) -> None:
        """A piece is about to enter a zone the state has not got: a zone of an open grid's
        cell not in use yet (any other key is a zone of a family of this ruleset)."""
        family, _, cell = key.partition("#")
        fam = self.model.zones.get(family)
        if fam is None or not fam.open:
            raise EvalError(f"{family}({cell}) is not a zone of this game")
        self.use_cell(fam.index, cell)

    def use_cell(self, board: str, cell: str) -> None:
        """An open grid's cell comes into use: noted in the grid's list, and every zone and
        variable per that grid gets its entry (empty, the variable's start)."""
        state = self.state
        row, col = coordinates(cell)
        reached(self.model.boards[board], self, row, col)
        undo = self.undo
        state.use_cell(board, cell)
        undo.append((undo_cell, board))
        families, tables = self.model.grids[board]
        for family in families:
            key = f"{family}#{cell}"
            state.zones[key] = []
            state._owned.add(key)
            undo.append((undo_new_zone, key))
            if state.memo.readers:   # (no kept def reads an open grid: compiler/memo.py)
                state.memo.drop(key)
        start = state.grids[board]["start"]
        for name in tables:
            table = state.writable_table(name)
            undo.append((undo_table, name, cell, table.get(cell, _ABSENT)))
            table[cell] = start[name]
        self.added += (1 + len(cell)) * (1 + 2 * len(families) + 2 * len(tables))

    def set_table(self, name: str, index, value, add: bool) -> None:
        state = self.state
        table = state.tables.get(name)
        if table is None or index not in table:
            if table is not None and self.model.tables[name].open and coordinates(index) is not None:
                self.use_cell(self.model.tables[name].index, index)
                table = state.tables[name]
            if table is None or index not in table:
                raise EvalError(f"{name}({index!r}): {index!r} is not one of its cells or members")
        if name not in state._owned_tables:   # State.writable_table, inlined: setups write hundreds
            table = state.writable_table(name)
        old = table[index]
        new = self.fit(old + value if add else value)
        self.undo.append((undo_table, name, index, old))
        table[index] = new

    # ── the seeded generator, as `random one of` / `random N of` draw from it ──
    def random_one(self, items):
        items = list(items)
        if not items:
            raise EvalError("random one of an empty list")
        self.state.rng, i = rng.below(self.state.rng, len(items))
        return items[i]

    def random_many(self, n, items):
        items = list(items)
        if type(n) is not int or not 0 <= n <= len(items):
            raise EvalError(f"random {n!r} of a list of {len(items)}: the number must be 0 to {len(items)}")
        self.state.rng = rng.shuffle(self.state.rng, items)
        return items[:n]

    def can(self, player, actions: tuple) -> bool:
        """Whether `player` has a legal move of one of `actions` now (for `can(…)`)."""
        exists = _exists()
        return any(exists(self, self.model.actions[name], player) for name in actions)

    def reveal(self, what) -> None:
        revealed = self.state.revealed
        self.undo.append((undo_revealed, dict(revealed)))
        revealed.update(dict.fromkeys([what] if type(what) is int else what))

    def score(self, name: str, args: tuple) -> None:
        self.model.scorings[name].run(self, *args)

    def new_turn(self) -> None:
        """`new turn`: every variable declared `, each turn` goes back to its first value."""
        model, state = self.model, self.state
        for name in model.each_turn_globals:
            self.set_var(name, self.fit(model.globals[name](self, {})))
        for name in model.each_turn_player_vars:
            init = model.player_vars[name]
            for p in range(self.n):
                self.set_pvar(p, name, self.fit(init(self, {"player": p})))

    def ranking(self) -> list:
        """The last scoring's ranking as `score … as R` binds it: the ranked players, best first,
        each with the place they took and the points they were paid."""
        return [{"player": p, "place": place, "points": points} for p, place, points in self.last_ranking]

    def defer(self) -> None:
        """Slip the frames of triggers fired `after the move` under the move's action frame, first
        fired nearest the top: they run once the action and every choice it asks for are over."""
        deferred, self.deferred = self.deferred, []
        for body, env in deferred:
            self.push(body, env, at=self.move_base)

    def run_fired(self) -> None:
        """Run the triggers the last statement fired, first fired first (native triggers only)."""
        fired, self.fired = self.fired, []
        natives = self.model.natives
        for body, env in fired:
            trig = self.model.trigger_of[body]
            args = [env[trig.piece_var]] + ([env[trig.index_var]] if trig.index_var else [])
            natives[body](self, *args)

    def fit(self, value):
        """A value about to be stored: refuse numbers, texts, lists and maps past their limits,
        and note a large one so that the state's total size is measured after the step."""
        kind = type(value)
        if kind is int:
            if not -self.limits.number < value < self.limits.number:
                raise _Overflow(f"a number grew past ±{self.limits.number} (runaway growth?)",
                                self.limits.hint("number"))
        elif kind is list or kind is str or kind is dict:
            size = len(value)
            # Texts and flat lists count their length; maps, and lists of lists or maps (a
            # list's items share one type), are measured, so that the bound does not fall
            # short of the state's real size.
            if kind is str or (kind is list and not (size and type(value[0]) in (list, dict))):
                self.added += size + 1
            else:
                self.added += size_of(value)
            if size > self.limits.value_size:
                self.too_big(value, size)
        return value

    def too_big(self, value, size: int, built_by: str = ""):
        """Refuse a text, list or map of `size` (built or about to be) past its limit."""
        what = {str: "a text", dict: "a map"}.get(type(value), "a list")
        unit = "characters" if type(value) is str else "items"
        if built_by:
            raise _Overflow(f"{built_by} would be {what} of {size} {unit}, past the limit of "
                            f"{self.limits.value_size}", self.limits.hint("value_size"))
        raise _Overflow(f"{what} grew to {size} {unit}, past the limit of {self.limits.value_size} "
                        "(runaway growth?)", self.limits.hint("value_size"))

    def charge(self, n: int) -> None:
        """Count n steps of work done inside a builtin or a comprehension."""
        self.steps += n
        if self.steps > self.max_steps:
            self.runaway()

    def check_size(self) -> None:
        """After a step: the whole state within its limit. Measured only when the bound on its
        size (see __init__) passes the limit, so that a step costs nothing more in a game far
        from it."""
        if self.size_bound + self.added > self.limits.state_size:
            size = state_size(self.state)
            self.size_bound, self.added = size, 0
            if size > self.limits.state_size:
                raise _Overflow(f"the game's state grew to {size} items and characters, past its "
                                f"limit of {self.limits.state_size} (runaway growth?)", self.limits.hint("state_size"))

    def times(self, n) -> int:
        if type(n) is not int or n < 0:
            raise EvalError(f"repeat needs a number of times (0 or more), not {n!r}")
        return n

    def runaway(self) -> None:
        if self.model is None:   # the budget of computing constants at load
            raise _Overflow(f"computing the constants took more than {self.max_steps} steps",
                            self.limits.hint("steps"))
        raise _Overflow(f"more than {self.max_steps} steps without a decision: a loop that never "
                        "ends or asks a player?", self.limits.hint("steps"))

    def shuffle_zone(self, key: str) -> None:
        if key not in self.state.zones:   # an open grid's cell not in use: nothing to shuffle
            return
        zone = self.state.writable(key)
        self.undo.append((undo_order, key, zone[:]))
        self.state.rng = rng.shuffle(self.state.rng, zone)
        if self.state.memo.readers:
            self.state.memo.drop(key)

    def _fire(self, piece: int, key: str, triggers: dict) -> None:
        family = key.partition("#")[0]
        index = _ABSENT   # the zone's index, read once for the triggers that name it
        for trig in triggers.get(family, ()):
            if trig.once and trig.name in self.state.once:
                continue   # spent: fires at most once a game, so its condition is not judged again
            known = trig.known
            holds = known.get(key) if known is not None else None
            if holds is False:   # a condition of the zone alone, judged false there before
                continue
            env = {trig.piece_var: piece}
            if trig.index_var:
                if index is _ABSENT:
                    index = self.model.zones[family].index_of[key]
                env[trig.index_var] = index
            if holds is None:
                holds = trig.cond is None or trig.cond(self, env)
                if known is not None and len(known) < MOST_KNOWN_ZONES:
                    known[key] = bool(holds)
            if holds:
                if trig.once:
                    state = self.state
                    state.once = state.once + (trig.name,)
                (self.deferred if trig.after_move and self.move_base is not None else self.fired).append((trig.body, env))


def _exists():
    """decisions.exists, imported once (decisions imports this module)."""
    global _EXISTS
    if _EXISTS is None:
        from .decisions import exists as _EXISTS
    return _EXISTS


_EXISTS = None


# The zones a trigger whose condition reads only its zone keeps its answer for (Trigger.known):
# past it, the condition is judged at every piece, as any other (an open grid grows).
MOST_KNOWN_ZONES = 10_000


def _where(ctx: Ctx, err: BaseException, default):
    """Where an error happened: inside a native procedure if it went through one."""
    return locate(err, ctx.model.native_spans, default)


@contextmanager
def guarded(span, doing: str):
    """Turn a failing expression outside the VM (a move's domain, a clause) into a RuntimeFault."""
    try:
        yield
    except EvalError as err:
        raise RuntimeFault(f"{err} ({doing})", span) from None
    except RecursionError:
        raise LimitExceeded(f"definitions call each other too deeply ({doing})", span) from None
    except _Overflow as err:
        raise LimitExceeded(f"{err} ({doing})", span, err.hint) from None
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, ArithmeticError) as err:
        raise RuntimeFault(f"{type(err).__name__}: {err} ({doing})", span) from None


def run_stack(ctx: Ctx, stack: list, made=None) -> str:
    """Run one stack until it asks, spawns, ends the game or empties ("done"). `made`: the
    frame on top of the stack when the move running now made it (it needs no copy).

    The hot loop of the interpreter: one call per instruction, nothing else. Where an
    error happened is known from (frame, pc) when it is raised, so nothing is recorded
    per step.
    """
    codes = ctx.model.codes
    ctx.stack = stack
    limit = ctx.max_steps
    frame, pc = None, 0
    journal = ctx.frames   # during a move: its journal; the frames it found are copied before their first change
    old = None   # their ids, once a frame that may be one comes on top
    top = ops = None
    end = 0
    try:
        while stack:
            frame = stack[-1]
            if frame is not top:   # a frame comes on top (first, or after a return)
                if journal is not None and frame is not made:
                    if old is None:
                        old = journal.frame_ids()
                    if id(frame) in old:
                        frame = stack[-1] = [frame[0], frame[1], dict(frame[2])]
                top = frame
                ops = codes[frame[0]].ops   # a frame's code never changes, only its pc
                end = len(ops)
            pc = frame[1]
            if pc >= end:
                stack.pop()
                if frame[0] == "flow":   # the flow ran to its end: coverage's `end:flow`
                    ctx.hit("end:flow")
                continue
            # The step counter lives on ctx: the instruction's expressions add to it what
            # they go through, so the limit and peak_steps see both.
            steps = ctx.steps = ctx.steps + 1
            if steps > limit:
                raise LimitExceeded(f"more than {limit} steps without a decision: a loop that never "
                                    "ends or asks a player?", codes[frame[0]].spans[pc],
                                    ctx.limits.hint("steps"))
            signal = ops[pc](ctx, frame)
            if ctx.fired:
                # Triggers run after the statement that fired them, first fired first.
                if ctx.model.natives_fire:
                    ctx.run_fired()
                else:
                    for body, env in reversed(ctx.fired):
                        ctx.push(body, env)
                    ctx.fired = []
            if ctx.deferred:
                ctx.defer()
            if signal is not None:
                return signal
        return "done"
    except _Overflow as err:
        raise LimitExceeded(str(err), _where(ctx, err, codes[frame[0]].spans[pc]), err.hint) from None
    except EvalError as err:
        raise RuntimeFault(str(err), _where(ctx, err, codes[frame[0]].spans[pc])) from None
    except RecursionError as err:
        raise LimitExceeded("rules or definitions call each other too deeply (runaway recursion?)",
                            _where(ctx, err, codes[frame[0]].spans[pc])) from None
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, ArithmeticError) as err:
        raise RuntimeFault(f"this statement failed: {type(err).__name__}: {err}",
                           _where(ctx, err, codes[frame[0]].spans[pc])) from None


def run_native(ctx: Ctx, action, env: dict) -> None:
    """Apply an action whose body is a native function, with the same errors as the VM gives."""
    read = action.native_args
    if read is None:
        read = action.native_args = arguments(action)
    args = read(env)
    run_native_with(ctx, action, args[0], args[1:])


def run_native_with(ctx: Ctx, action, player: int, values) -> None:
    """`run_native` with the parameters' values already read, in order: a listed move holds
    them (decisions.move_shape), so no env needs making for a native body."""
    try:
        action.native(ctx, player, *values)
        if ctx.fired:
            ctx.run_fired()
        if ctx.deferred:   # the action is over: they run next
            ctx.move_base = len(ctx.stack)
            ctx.defer()
    except NATIVE_FAULTS as err:
        raise native_fault(ctx, action, err) from None


# What a native action may raise that is the ruleset's fault (native_fault locates it).
NATIVE_FAULTS = (_Overflow, EvalError, RecursionError, KeyError, IndexError, TypeError, AttributeError,
                 ValueError, ArithmeticError)


def native_fault(ctx: Ctx, action, err: BaseException) -> RulesetError:
    """The located error of a native action that raised `err` (one of NATIVE_FAULTS), as the
    VM gives it for the same statement run as ops."""
    if isinstance(err, _Overflow):
        return LimitExceeded(str(err), _where(ctx, err, action.span), err.hint)
    if isinstance(err, EvalError):
        return RuntimeFault(str(err), _where(ctx, err, action.span))
    if isinstance(err, RecursionError):
        return LimitExceeded("rules call each other too deeply (runaway recursion?)",
                             _where(ctx, err, action.span))
    return RuntimeFault(f"this statement failed: {type(err).__name__}: {err}", _where(ctx, err, action.span))


def arguments(action):
    """(env) -> [player, each parameter's value, in order]: what a native action is called
    with, read by one itemgetter (a tuple) when it has parameters."""
    if not action.params:
        return lambda env: (env["player"],)
    return itemgetter("player", *[param.name for param in action.params])


def check_size(ctx: Ctx, span) -> None:
    """The state's total size within its limit, after a step that stored large values (the
    step is then refused as a whole, like any other fault)."""
    if ctx.size_bound + ctx.added > ctx.limits.state_size:   # else Ctx.check_size measures nothing
        try:
            ctx.check_size()
        except _Overflow as err:
            raise LimitExceeded(str(err), span, err.hint) from None


def waiting(stack: list) -> bool:
    return bool(stack) and "$asked" in stack[-1][2]


def advance(ctx: Ctx) -> None:
    """Run the flow until every running stack waits for a decision, or the game ends.
    Nothing to do when the move that ran knows every stack waits (`ctx.settled`)."""
    if ctx.settled:
        ctx.settled = False
        return
    flow = ctx.state.flow
    while True:
        threads = flow["threads"]
        if threads is not None:
            done = False   # a thread ran to its end
            for thread in threads:
                stack = thread["stack"]
                if stack:
                    if "$asked" in stack[-1][2]:   # waiting (the usual case)
                        continue
                    if ctx.frames is not None:   # during a move: its journal copies the stack first
                        ctx.frames.keep(stack)
                    signal = run_stack(ctx, stack)   # not waiting: run it on
                    if signal == END:
                        _end(flow)
                        return
                    if signal == SPAWN:
                        frame = stack[-1]
                        span = ctx.model.codes[frame[0]].spans[frame[1] - 1]
                        raise RuntimeFault("a simultaneous step cannot start inside another", span)
                    if stack:
                        continue
                done = True
            if done:
                threads[:] = [t for t in threads if t["stack"]]
            if threads:
                return
            flow["threads"] = None
        main = flow["main"]
        if not main or "$asked" in main[-1][2]:
            return
        signal = run_stack(ctx, main)
        if signal == ASK:
            return
        if signal == END:
            _end(flow)
            return
        if signal == "done":
            return


def _end(flow: dict) -> None:
    flow["main"] = []
    flow["threads"] = None


def waiting_seats(flow: dict) -> dict:
    """Who is asked now, and the stack that waits for them: {seat: stack}, in the order
    waiting_stack looks them up (one scan of the flow, which Game keeps until it changes)."""
    out: dict = {}
    threads = flow["threads"]
    if threads is not None:
        for t in threads:
            stack = t["stack"]
            if stack:
                seat = stack[-1][2].get("$asked", out)   # `out`: not asked
                if seat is not out and seat not in out:
                    out[seat] = stack
        return out
    main = flow["main"]
    if main:
        env = main[-1][2]
        if "$asked" in env:
            out[env["$asked"]] = main
    return out


def to_move(state: State) -> list[int]:
    flow = state.flow
    if flow["threads"] is not None:
        return sorted({t["stack"][-1][2]["$asked"] for t in flow["threads"] if waiting(t["stack"])})
    main = flow["main"]
    if waiting(main):
        return [main[-1][2]["$asked"]]
    return []


def waiting_stack(state: State, player: int) -> list | None:
    flow = state.flow
    if flow["threads"] is not None:
        for t in flow["threads"]:
            if waiting(t["stack"]) and t["stack"][-1][2]["$asked"] == player:
                return t["stack"]
        return None
    main = flow["main"]
    if waiting(main) and main[-1][2]["$asked"] == player:
        return main
    return None
