"""Legal moves from the action declarations, and the reason a move is not one of them.

Legality is membership in the generated moves; a refusal is explained by
replaying the same parameters and clauses until the first one that fails.
"""
from __future__ import annotations

from ..moves import IllegalMove, Move
from .runtime import MAX_CANDIDATES, Ctx, _Overflow


def _piece_labels(ctx: Ctx, values: list) -> dict:
    """Label of each piece in a domain: its name, or name#id where equal names hide different pieces."""
    pieces = ctx.state.pieces
    ids = [v for v in values if type(v) is int]
    names = [pieces[v]["label"] for v in ids]
    if len(set(names)) == len(names):  # the usual case: every piece has its own name
        return dict(zip(ids, names))
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


def _encode(ctx: Ctx, param, value, labels: dict | None = None):
    if param.encode_pieces and type(value) is int:
        if labels is not None:
            return labels[value]
        return ctx.state.pieces[value]["label"]
    return value


def _key(value):
    return repr(value)


def candidates(ctx: Ctx, action, player: int) -> list[tuple[dict, dict]]:
    """Every legal (args, env) of `action` for `player`, after requires and prefers.

    Pieces equal in every attribute are interchangeable: one option stands for all of
    them, and a later parameter may take another piece equal to one already chosen.
    """
    params = action.params
    requires = action.requires
    hits = ctx.hits
    out: list = []

    def extend(i: int, env: dict, args: dict) -> None:
        param = params[i]
        last = i == len(params) - 1
        seen = set()
        name = param.name
        values = param.domain(ctx, env)
        labels = _piece_labels(ctx, values) if param.encode_pieces else None
        bound = {env[p.name] for p in params[:i]} if i and param.encode_pieces else ()
        for value in values:
            encoded = labels.get(value, value) if labels is not None and type(value) is int else value
            k = encoded if type(encoded) is str or type(encoded) is int else _key(encoded)
            if k in seen or value in bound:
                continue
            seen.add(k)
            env[name] = value
            if last:
                for clause in requires:
                    if not clause.cond(ctx, env):
                        hits[clause.hit] = hits.get(clause.hit, 0) + 1
                        break
                else:
                    done = dict(args)
                    done[name] = encoded
                    out.append((done, dict(env)))
                    if len(out) > MAX_CANDIDATES:
                        raise _Overflow(f"'{action.name}' offers more than {MAX_CANDIDATES} moves at once "
                                        "(runaway parameter domains?)")
            else:
                more = dict(args)
                more[name] = encoded
                extend(i + 1, dict(env), more)

    if params:
        extend(0, {"player": player}, {})
    elif all(clause.cond(ctx, {"player": player}) for clause in requires):
        out.append(({}, {"player": player}))
    for clause in action.prefers:
        preferred = [c for c in out if clause.cond(ctx, c[1])]
        if preferred:
            if len(preferred) < len(out):
                hits[clause.hit] = hits.get(clause.hit, 0) + 1
            out = preferred
    return out


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
    for clause in action.prefers:
        if not clause.cond(ctx, env):
            return IllegalMove(move, clause.message, f"{action.name}.{clause.name}",
                               str(clause.span))
    return IllegalMove(move, "not a legal move now", action.name, str(action.span))
