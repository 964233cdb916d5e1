"""Legal moves from the action declarations, and the reason a move is not one of them.

Legality is membership in the generated moves; a refusal is explained by
replaying the same parameters and clauses until the first one that fails.

A listed move is one flat tuple (see move_shape): the values of the parameters, in order,
then the label of each parameter that may hold pieces. Most listed moves are never played
nor shown, so the two dicts a move reads as — its arguments (Move.args) and the env its
action runs with — are made only for the moves that are (`move_args`, `move_env`). The
generic walk and the plain definition make (args, env) pairs, turned into tuples in one
place (`_flat`); `_enumerate`, `candidates` and their references give pairs (`_pairs`).
"""
from __future__ import annotations

from operator import itemgetter

from ..builtins import EvalError
from ..moves import IllegalMove, Move
from .runtime import Ctx, _Overflow

_LABEL = itemgetter(1)


class _Apart:
    """The labels of a domain whose values are all pieces, each named apart from the others
    (the usual case), kept as `pairs`: (piece, label) of each value of `of`, in order, which
    is what `_distinct` gives for that domain when no earlier parameter took a piece. Where
    the labels are looked up one by one, `as_dict()` (made once)."""

    __slots__ = ("of", "pairs", "labels")

    def as_dict(self) -> dict:
        labels = self.labels
        if labels is None:
            labels = self.labels = dict(self.pairs)
        return labels


def _piece_labels(ctx: Ctx, values: list) -> "dict | _Apart":
    """Label of each piece in a domain (a dict, or an _Apart): its name, or name#id where
    equal names hide different pieces."""
    pieces = ctx.state.pieces
    pairs = [(v, pieces[v]["label"]) for v in values if type(v) is int]
    if len(set(map(_LABEL, pairs))) == len(pairs):  # every piece has its own name
        if len(pairs) == len(values):   # the usual case: only pieces (so none twice either)
            apart = _Apart()
            apart.of, apart.pairs, apart.labels = values, pairs, None
            return apart
        return dict(pairs)
    by_label: dict = {}
    for v in values:
        if type(v) is int:
            by_label.setdefault(pieces[v]["label"], []).append(v)
    labels = {}
    for label, ids in by_label.items():
        groups: list[list[int]] = []  # pieces equal in every field share one name
        for i in ids:
            for group in groups:
                if pieces[group[0]] == pieces[i]:
                    group.append(i)
                    break
            else:
                groups.append([i])
        for group in groups:
            name = label if len(groups) == 1 else f"{label}#{group[0]}"
            for i in group:
                labels[i] = name
    return labels


def move_shape(action) -> tuple:
    """(names, where, n, plain) of `action`'s listed moves, made once: the parameters' names;
    where each argument's value is in the tuple (None when every argument is the value
    itself: no parameter holds pieces); the number of values; and whether a native body can
    be called with the values as they are (the names are distinct and none is `player`,
    so the env holds every value under its own name)."""
    shape = action.shape
    if shape is None:
        params = action.params
        names = tuple(p.name for p in params)
        n = len(names)
        where = list(range(n))
        labelled = [j for j, p in enumerate(params) if p.encode_pieces]
        for k, j in enumerate(labelled):
            where[j] = n + k
        shape = action.shape = (names, tuple(where) if labelled else None, n,
                                len(set(names)) == n and "player" not in names)
    return shape


def move_args(action, move: tuple) -> dict:
    """The arguments of a listed move, as the listing used to make them (a repeated name
    keeps its first place and its last value, as a dict display does)."""
    names, where, n, _ = move_shape(action)
    if n == 1:   # one parameter (the usual case): a display costs a fourth of a comprehension
        return {names[0]: move[0] if where is None else move[where[0]]}
    if where is None:
        return dict(zip(names, move))
    return {name: move[j] for name, j in zip(names, where)}


def move_env(action, player: int, move: tuple) -> dict:
    """The env an action's body runs with for a listed move: the player, then each value."""
    env = {"player": player}
    env.update(zip(move_shape(action)[0], move))
    return env


def _pairs(action, player: int, moves: list) -> list:
    """(args, env) of each listed move: what a caller reading dicts is given (move_args and
    move_env of each, written out)."""
    names, where, _, _ = move_shape(action)
    out = []
    for m in moves:
        env = {"player": player}
        env.update(zip(names, m))
        out.append((dict(zip(names, m)) if where is None else {name: m[j] for name, j in zip(names, where)}, env))
    return out


def _flat(action, pairs: list) -> list:
    """The listed moves of (args, env) pairs (the generic walk's, the plain definition's):
    the tuples `_pairs` turns back into the same pairs."""
    names, where, n, _ = move_shape(action)
    if where is None:
        return [tuple([env[name] for name in names]) for _, env in pairs]
    labelled = [names[j] for j in range(n) if where[j] >= n]
    return [tuple([env[name] for name in names] + [args[name] for name in labelled]) for args, env in pairs]


def _piece_choices(ctx: Ctx, values: list) -> list:
    """`_distinct(values, _piece_labels(ctx, values), ())`: the choices of a domain that may
    hold pieces, none taken yet. In the usual case (only pieces, each named apart) the
    (piece, label) pairs themselves, without the _Apart a walk keeps them in."""
    pieces = ctx.state.pieces
    pairs = [(v, pieces[v]["label"]) for v in values if type(v) is int]
    if len(pairs) == len(values) and len(set(map(_LABEL, pairs))) == len(pairs):
        return pairs
    return _distinct(values, _piece_labels(ctx, values), ())


def _zone_choices(ctx: Ctx, values: list) -> list:
    """`_piece_choices` of a zone's own list, whose items are pieces (the state's numbers of
    them, never anything else): their labels read without checking that each is one, and the
    (piece, label) pairs made at once when the labels differ. During a listing of several
    actions, which only reads them, the last zone's are kept (Ctx.choices): the next action
    choosing from the same zone takes them."""
    try:
        last = ctx.choices
    except AttributeError:   # a context that is not a Ctx (the state alone) shares nothing
        last = None
    if last and last[0] is values:
        return last[1]
    pieces = ctx.state.pieces
    if len(values) < 2:   # none or one: named apart
        choices = [(v, pieces[v]["label"]) for v in values]
    else:
        labels = [pieces[v]["label"] for v in values]
        if len(set(labels)) == len(labels):
            choices = list(zip(values, labels))
        else:
            choices = _distinct(values, _piece_labels(ctx, values), ())
    if last is not None and SHARED_CHOICES:
        ctx.choices = (values, choices)
    return choices


def _encode(ctx: Ctx, param, value, labels: dict | None = None):
    if param.encode_pieces and type(value) is int:
        if labels is not None:
            return labels[value]   # a dict (see explain)
        return ctx.state.pieces[value]["label"]
    return value


def _key(value):
    return repr(value)


def _hashable(value):
    return value if type(value) in (int, str) else _key(value)


class _Found(Exception):
    """Stops the enumeration at the first legal move (for `can`)."""


# Whether the actions of one ask that choose from the same zone share the choices made of it
# (Ctx.choices, made by Game._list); False: each makes them (tests compare the two).
SHARED_CHOICES = True
# Whether a `can` met while an ask's moves are listed answers from that listing for an action
# it listed already (Ctx.listed, listed_noting); False: it lists again (tests compare the two).
CANS_FROM_LISTING = True

# Whether a `can` during a move keeps the listing it makes for the ask that follows (False:
# it stops at the first legal move, as before; the tests compare the two).
KEEP_LISTINGS = True


class _First:
    """The `stop` a generated lister is given by a `can` whose listing is kept (see
    `exists`): at the first legal move, instead of stopping, the lister notes the steps
    charged so far (what a listing stopped there would have charged) and lists on."""

    __slots__ = ("steps", "owed")

    def __init__(self):
        self.steps = None
        # Steps a narrowing charges once the first move is met: those of the choices it
        # skipped after that move (engine/memo.lined_cells), which a listing stopped there
        # never charges and the whole listing does.
        self.owed = 0


def _stop(ctx: Ctx, stop) -> bool:
    """What a generated lister does at a legal move while `stop` is set (the new `stop`):
    stop there, or, for a `_First`, note the steps and go on as a full listing."""
    if type(stop) is not _First:
        raise _Found
    stop.steps = ctx.steps
    owed = stop.owed
    if owed:
        stop.owed = 0
        ctx.steps += owed
        if ctx.steps > ctx.max_steps:
            ctx.runaway()
    return False


def _distinct(values: list, labels: dict | None, bound) -> list:
    """(value, encoded) of each distinct choice, in order: a value once, equal pieces once
    (under their shared label), and no piece an earlier parameter already took. `labels` are
    `_piece_labels` of these values, or None for values that are not pieces."""
    if type(labels) is _Apart:
        if labels.of is values and not bound:
            return labels.pairs[:]   # distinct pieces, each named apart, none taken
        labels = labels.as_dict()
    if labels is None:
        try:
            return [(v, v) for v in dict.fromkeys(values)]
        except TypeError:  # unhashable values (lists, maps): compare them by their text
            pass
    elif not bound and len(labels) == len(values) and list(labels) == list(values) \
            and len(set(labels.values())) == len(labels):
        # The usual case: distinct pieces, each named apart, listed in order, none taken.
        return list(labels.items())
    seen = set()
    out = []
    for value in values:
        encoded = labels.get(value, value) if labels is not None and type(value) is int else value
        k = encoded if type(encoded) is str or type(encoded) is int else _key(encoded)
        if k in seen or value in bound:
            continue
        seen.add(k)
        out.append((value, encoded))
    return out


def _unique(values: list) -> list:
    """The values of `_distinct(values, None, ())`, without their (value, value) pairs."""
    try:
        return list(dict.fromkeys(values))
    except TypeError:
        return [value for value, _ in _distinct(values, None, ())]


# Errors an expression may raise while moves are listed (runtime.guarded turns them into E902).
_FAULTS = (EvalError, KeyError, IndexError, TypeError, AttributeError, ValueError, ArithmeticError)


def _enumerate(ctx: Ctx, action, player: int, count: bool = True, stop: bool = False) -> list:
    """Every (args, env) of `action` for `player` that passes its requires (prefers not
    applied): `_listing`'s moves as dicts."""
    return _pairs(action, player, _listing(ctx, action, player, count, stop))


def _listing(ctx: Ctx, action, player: int, count: bool = True, stop: bool = False) -> list:
    """Every listed move (a flat tuple) of `action` for `player` that passes its requires
    (prefers not applied).

    The legal moves are by definition the combinations of parameter values that pass every
    require, checked in the order written (`_enumerate_plainly`). To list them fast, a
    require is checked as soon as the parameters it reads are chosen, and a domain is
    computed once for each combination of the earlier parameters it reads: by the action's
    generated lister (compiler/listers.py), or, for an action that has none, by the generic
    walk (`_enumerate_fast`), which lists the same moves in the same order. Requires are
    conditions without effects, so the order only matters when one fails to evaluate (an
    index out of range that an earlier require guards): then the moves are listed again the
    plain way, which fails, or not, exactly as the definition says.
    """
    lister = action.lister
    if lister is None:
        return _flat(action, _enumerate_generic(ctx, action, player, count, stop))
    hits: dict | None = {} if count and ctx.hits is not None else None
    try:
        out = lister(ctx, player, hits, stop)
    except _FAULTS:
        return _flat(action, _enumerate_plainly(ctx, action, player, count, stop))
    if hits:
        _add_hits(ctx, hits)
    return out


def _enumerate_generic(ctx: Ctx, action, player: int, count: bool = True, stop: bool = False) -> list:
    """`_enumerate` by the generic walk: for an action without a generated lister, and the
    reference the generated listers are tested against."""
    hits: dict | None = {} if count and ctx.hits is not None else None
    try:
        out = _enumerate_fast(ctx, action, player, hits, stop)
    except _FAULTS:
        return _enumerate_plainly(ctx, action, player, count, stop)
    if hits:
        _add_hits(ctx, hits)
    return out


def _add_hits(ctx: Ctx, hits: dict) -> None:
    """A listing's coverage, added once it is complete (a listing that falls back counts
    the plain way only)."""
    totals = ctx.hits
    for key, n in hits.items():
        totals[key] = totals.get(key, 0) + n


def _too_many(ctx: Ctx, name: str):
    raise _Overflow(f"'{name}' offers more than {ctx.limits.moves} moves at once "
                    "(runaway parameter domains?)", ctx.limits.hint("moves"))


def _enumerate_fast(ctx: Ctx, action, player: int, hits: dict | None, stop: bool) -> list:
    params = action.params
    out: list = []
    start = {"player": player}
    for clause in action.first:
        if not clause.cond(ctx, start):
            if hits is not None:
                hits[clause.hit] = hits.get(clause.hit, 0) + 1
            return out
    if not params:
        if stop:
            raise _Found
        out.append(({}, start))
        return out
    caches: list = [{} for _ in params]
    filters = action.walk_filters()
    last_index = len(params) - 1

    def extend(i: int, env: dict, args: dict) -> None:
        param = params[i]
        name = param.name
        if param.depends or i:
            try:
                key = tuple(env[d] for d in param.depends)
                hash(key)
            except TypeError:
                key = None
            found = caches[i].get(key) if key is not None else None
            if found is None:
                values = param.domain(ctx, env)
                found = (values, _piece_labels(ctx, values) if param.encode_pieces else None)
                if key is not None:
                    caches[i][key] = found
            values, labels = found
        else:  # the first parameter: its domain is computed once anyway
            values = param.domain(ctx, env)
            labels = _piece_labels(ctx, values) if param.encode_pieces else None
        items = _distinct(values, labels, _taken(params, i, env))
        ctx.steps += len(items)   # every choice considered is work, whatever filters it
        if ctx.steps > ctx.max_steps:
            ctx.runaway()
        if filters[i] is not None:
            items = filters[i](ctx, env, items, hits)
        if i == last_index:
            if items and stop:
                raise _Found
            for value, encoded in items:
                done = dict(args)
                done[name] = encoded
                env[name] = value
                out.append((done, dict(env)))
            if len(out) > ctx.limits.moves:
                _too_many(ctx, action.name)
            return
        for value, encoded in items:
            more = dict(args)
            more[name] = encoded
            inner = dict(env)
            inner[name] = value
            extend(i + 1, inner, more)

    extend(0, dict(start), {})
    return out


def _taken(params, i: int, env: dict):
    """The pieces earlier parameters took: a later piece parameter may not take them again."""
    if not i or not params[i].encode_pieces:
        return ()
    return {env[p.name] for p in params[:i] if p.encode_pieces}


def _enumerate_plainly(ctx: Ctx, action, player: int, count: bool, stop: bool) -> list:
    """The definition itself: every combination, each require in the order written."""
    params = action.params
    hits = ctx.hits
    count = count and hits is not None
    out: list = []

    def passes(env: dict) -> bool:
        for clause in action.requires:
            if not clause.cond(ctx, env):
                if count:
                    hits[clause.hit] = hits.get(clause.hit, 0) + 1
                return False
        return True

    def extend(i: int, env: dict, args: dict) -> None:
        if i == len(params):
            ctx.charge(1)
            if passes(env):
                if stop:
                    raise _Found
                out.append((dict(args), dict(env)))
                if len(out) > ctx.limits.moves:
                    raise _Overflow(f"'{action.name}' offers more than {ctx.limits.moves} moves at once "
                                    "(runaway parameter domains?)", ctx.limits.hint("moves"))
            return
        param = params[i]
        values = param.domain(ctx, env)
        labels = _piece_labels(ctx, values) if param.encode_pieces else None
        for value, encoded in _distinct(values, labels, _taken(params, i, env)):
            more = dict(args)
            more[param.name] = encoded
            inner = dict(env)
            inner[param.name] = value
            extend(i + 1, inner, more)

    extend(0, {"player": player}, {})
    return out


def _narrow(ctx: Ctx, clause, found: list) -> list:
    """Apply one prefer: keep the moves that satisfy it, where some do — among all the
    moves, or within each group of moves sharing the values of its `per` parameters. The
    definition, which the prefers' generated narrowings (Clause.narrow) are tested against
    and explain() replays."""
    holds = clause.many(ctx, [c[1] for c in found]) if clause.many is not None \
        else [bool(clause.cond(ctx, c[1])) for c in found]
    if not clause.per:
        preferred = [c for c, ok in zip(found, holds) if ok]
        return preferred if preferred else found
    groups: dict = {}
    for c, ok in zip(found, holds):
        groups.setdefault(tuple(_hashable(c[0][p]) for p in clause.per), []).append((c, ok))
    keep = set()
    for members in groups.values():
        preferred = [c for c, ok in members if ok]
        keep.update(id(c) for c in (preferred or [c for c, _ in members]))
    return [c for c in found if id(c) in keep]


def candidates(ctx: Ctx, action, player: int) -> list[tuple[dict, dict]]:
    """Every legal (args, env) of `action` for `player`, after requires and prefers:
    `listed`'s moves as dicts."""
    return _pairs(action, player, listed(ctx, action, player))


class Unfused(Exception):
    """Raised by a lister that judges its prefer group by group (Action.preferring) where
    the listing is to be made the plain way: the caller lists again, lister then narrowing."""


def preferring(action):
    """The action's lister that judges its prefer group by group (listers.preferring_lister),
    made at the first call, when the action still has the lister and narrowing it stands
    for; else None."""
    fused = action.preferring
    if fused is None:
        make = action.make_preferring
        if make is None:
            return None
        action.make_preferring = None   # made once, whatever it gives
        fused = action.preferring = make()
        if fused is None:
            return None
    if fused.plain is action.lister and fused.narrow is action.prefers[0].narrow:
        return fused
    return None


def listed(ctx: Ctx, action, player: int) -> list[tuple]:
    """Every legal move (a flat tuple) of `action` for `player`, after requires and prefers:
    each prefer applied by its generated narrowing (compiler/prefers.py, prefer_narrower),
    which keeps what `_narrow` keeps, or by `_narrow` where none could be generated.
    Without coverage, an action's one prefer may be judged group by group as the moves are
    listed (Action.preferring): the same moves and steps; anything it raises, the listing
    is made again the plain way, which raises what it should."""
    lister = action.lister
    if lister is None:
        out = _flat(action, _enumerate_generic(ctx, action, player))
    else:   # _listing(ctx, action, player), written out: once per listing of most games
        if ctx.hits is None and action.prefers:
            fused = preferring(action)
            if fused is not None:
                start = ctx.steps
                try:
                    return fused(ctx, player, None, False)
                except Exception:   # listed again the plain way
                    ctx.steps = start
        hits: dict | None = {} if ctx.hits is not None else None
        try:
            out = lister(ctx, player, hits, False)
        except _FAULTS:
            out = _flat(action, _enumerate_plainly(ctx, action, player, True, False))
        else:
            if hits:
                _add_hits(ctx, hits)
    return preferred(ctx, action, player, out)


def preferred(ctx: Ctx, action, player: int, out: list) -> list:
    """The listed moves `out` of `action` (its requires passed) narrowed by its prefers."""
    if not action.prefers or not out:   # nothing to judge: no prefer keeps or counts anything
        return out
    hits = ctx.hits
    for clause in action.prefers:
        narrow = clause.narrow
        narrowed = narrow(ctx, player, out) if narrow is not None else _narrow_listed(ctx, action, player, clause, out)
        if len(narrowed) < len(out) and hits is not None:
            hits[clause.hit] = hits.get(clause.hit, 0) + 1
        out = narrowed
    return out


def _narrow_listed(ctx: Ctx, action, player: int, clause, moves: list) -> list:
    """`_narrow` of listed moves (tuples), for a prefer without a generated narrowing."""
    pairs = _pairs(action, player, moves)
    kept = {id(pair) for pair in _narrow(ctx, clause, pairs)}
    narrowed = [m for m, pair in zip(moves, pairs) if id(pair) in kept]
    return moves if len(narrowed) == len(moves) else narrowed


def _candidates_generic(ctx: Ctx, action, player: int) -> list[tuple[dict, dict]]:
    """`candidates` by the reference path: the generic walk, each prefer applied by `_narrow`
    (the generated listers and narrowings are tested against it)."""
    out = _enumerate_generic(ctx, action, player)
    if not action.prefers or not out:   # nothing to judge: no prefer keeps or counts anything
        return out
    hits = ctx.hits
    for clause in action.prefers:
        narrowed = _narrow(ctx, clause, out)
        if len(narrowed) < len(out) and hits is not None:
            hits[clause.hit] = hits.get(clause.hit, 0) + 1
        out = narrowed
    return out


def exists(ctx: Ctx, action, player: int) -> bool:
    """Whether `player` has at least one legal move of `action` (a prefer never empties a
    non-empty set of moves, so the requires decide)."""
    if ctx.choices is not None and ctx.hits is None:   # while an ask offering several actions is listed
        asked = ctx.asked
        if asked is None:
            ctx.asked = {action.name}
        else:
            asked.add(action.name)
        known = ctx.listed.get((player, action.name)) if ctx.listed is not None else None
        if known is not None and ctx.steps + known[1] <= ctx.max_steps:
            # Listed already by this listing: what a listing stopped at the first move finds,
            # and the steps it pays (past the limit, listed again to fail there).
            ctx.steps += known[1]
            return known[0]
    if KEEP_LISTINGS and ctx.frames is not None and ctx.hits is None and action.lister is not None:
        found = _exists_keeping(ctx, action, player)
        if found is not None:
            return found
    try:
        _listing(ctx, action, player, count=False, stop=True)
    except _Found:
        return True
    return False


def listed_noting(ctx: Ctx, action, player: int, listed: dict) -> list:
    """`_listing(ctx, action, player)` of an action with a lister and no prefer, coverage
    off, noting in `listed` (Ctx.listed) whether it has a move and the steps a `can` would
    pay to learn it: those a listing stopped at its first move charges, or the whole
    listing's when it has none (as _exists_keeping learns them). Nothing is noted when it
    went otherwise than a plain listing (a fault: listed again as Game._list lists, from
    the same steps, since a listing noting its first move may narrow later)."""
    start = ctx.steps
    first = _First()
    try:
        out = action.lister(ctx, player, None, first)
    except _FAULTS:
        ctx.steps = start
        return _listing(ctx, action, player)
    if (first.steps is None) == (not out) and not first.owed:
        listed[player, action.name] = (True, first.steps - start) if out else (False, ctx.steps - start)
    return out


def _exists_keeping(ctx: Ctx, action, player: int) -> bool | None:
    """`exists` during a move, coverage off, that keeps the whole listing it makes, so that
    the `ask` that usually follows a `can` lists nothing again (Game._list takes it when no
    write came between: `ctx.kept`). It lists past the first legal move, which it notes,
    and charges the steps a listing stopped there charges; the steps of the whole listing
    are kept with it, charged to the listing that takes it. None, with nothing charged,
    when anything went otherwise than a plain listing (a fault, a limit, the generic
    walk): `exists` then lists the plain way, which does what it always did. An action
    with a preferring lister (Action.preferring) is listed by it: the listing kept is then
    narrowed already, its steps the prefer's too."""
    start = ctx.steps
    first = _First()
    fused = preferring(action) if action.prefers else None
    try:
        out = (action.lister if fused is None else fused)(ctx, player, None, first)
    except BaseException:   # listed again the plain way, which raises or not as it should
        ctx.steps = start
        return None
    if (first.steps is None) != (not out) or first.owed:   # never, but sure: every move passes
        # a `stop` check, which pays what is owed
        ctx.steps = start
        return None
    kept = ctx.kept
    if kept is None:
        kept = ctx.kept = {}
    # Kept with whether the prefers were applied (then their steps are the listing's).
    # With the steps to the first move, which a `can` of the ask's listing pays (Game._list).
    kept[player, action.name] = (out, ctx.steps - start, len(ctx.undo), fused is not None,
                                 None if first.steps is None else first.steps - start)
    if first.steps is None:
        return False   # a listing that found nothing went to its end: those are its steps
    ctx.steps = first.steps
    return True


def explain(ctx: Ctx, action, move: Move) -> IllegalMove:
    """Why `move` (of a valid action, by a player to move) is not among the legal ones."""
    env = {"player": move.player}
    expected = {p.name for p in action.params}
    unknown = set(move.args) - expected
    if unknown:
        name = sorted(unknown)[0]
        return IllegalMove(move, f"'{action.name}' has no parameter '{name}'; it takes "
                           f"{', '.join(sorted(expected)) or 'none'}", action.name, str(action.span))
    for param in action.params:
        if param.name not in move.args:
            return IllegalMove(move, f"missing argument '{param.name}'", action.name, str(action.span))
        wanted = _key(move.args[param.name])
        values = param.domain(ctx, env)
        labels = _piece_labels(ctx, values) if param.encode_pieces else None
        if type(labels) is _Apart:
            labels = labels.as_dict()
        for value in values:
            if _key(_encode(ctx, param, value, labels)) == wanted:
                env = dict(env)
                env[param.name] = value
                break
        else:
            options = sorted({str(_encode(ctx, param, v, labels)) for v in values})
            shown = ", ".join(options[:12]) + (", …" if len(options) > 12 else "")
            return IllegalMove(move, f"{move.args[param.name]!r} is not a choice for '{param.name}' "
                               f"(choices: {shown or 'none'})", f"{action.name}.{param.name}",
                               str(param.span))
    for clause in action.requires:
        if not clause.cond(ctx, env):
            return IllegalMove(move, clause.message, f"{action.name}.{clause.name}", str(clause.span))
    # Every require holds: a prefer narrowed the move away. Replay them to find which.
    found = _enumerate(ctx, action, move.player, count=False)
    for clause in action.prefers:
        found = _narrow(ctx, clause, found)
        if not any(args == move.args for args, _ in found):
            return IllegalMove(move, clause.message, f"{action.name}.{clause.name}", str(clause.span))
    return IllegalMove(move, "not a legal move now", action.name, str(action.span))
