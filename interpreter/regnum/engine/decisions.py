"""Legal moves from the action declarations, and the reason a move is not one of them.

Legality is membership in the generated moves; a refusal is explained by
replaying the same parameters and clauses until the first one that fails.
"""
from __future__ import annotations

from ..moves import IllegalMove, Move
from .runtime import Ctx


def _encode(ctx: Ctx, param, value):
    if param.encode_pieces and type(value) is int:
        return ctx.state.pieces[value]["label"]
    return value


def _key(value):
    return repr(value)


def candidates(ctx: Ctx, action, player: int) -> list[tuple[dict, dict]]:
    """Every legal (args, env) of `action` for `player`, after requires and prefers."""
    params = action.params
    requires = action.requires
    out: list = []

    def extend(i: int, env: dict, args: dict) -> None:
        if i == len(params):
            for clause in requires:
                if not clause.cond(ctx, env):
                    return
            out.append((args, env))
            return
        param = params[i]
        seen = set()
        for value in param.domain(ctx, env):
            encoded = _encode(ctx, param, value)
            k = _key(encoded)
            if k in seen:
                continue
            seen.add(k)
            inner = dict(env)
            inner[param.name] = value
            more = dict(args)
            more[param.name] = encoded
            extend(i + 1, inner, more)

    extend(0, {"player": player}, {})
    for clause in action.prefers:
        preferred = [c for c in out if clause.cond(ctx, c[1])]
        if preferred:
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
        for value in param.domain(ctx, env):
            if _key(_encode(ctx, param, value)) == wanted:
                env = dict(env)
                env[param.name] = value
                break
        else:
            options = sorted({str(_encode(ctx, param, v)) for v in param.domain(ctx, env)})
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
