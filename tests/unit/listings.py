"""A listing of legal moves, observed whole: what the generated lister and the generic walk
(decisions._enumerate_generic) each do, to compare them (tests/unit/test_move_listers*.py)."""
from __future__ import annotations

from regnum.engine import decisions


def observe(enumerate_, game, action, player: int, stop: bool = False):
    """(outcome, steps charged, coverage counted) of one listing, on a copy of the state (a
    listing may draw from the RNG). The outcome: ("moves", [(args items, env items)…]) —
    keys in order —, ("found",) when `stop` found one, or ("raised", type, message)."""
    ctx = game._ctx(game._state.copy())
    ctx.hits = {}
    try:
        found = enumerate_(ctx, action, player, count=not stop, stop=stop)
        outcome = ("moves", [(list(args.items()), list(env.items())) for args, env in found])
    except decisions._Found:
        outcome = ("found",)
    except Exception as err:   # a fault or a limit: the same one, with the same message
        outcome = ("raised", type(err).__name__, str(err))
    return outcome, ctx.steps, ctx.hits


def both(game, action_name: str, player: int = 0, stop: bool = False):
    """The generated lister's observation, checked equal to the generic walk's."""
    action = game.model.actions[action_name]
    new = observe(decisions._enumerate, game, action, player, stop)
    assert new == observe(decisions._enumerate_generic, game, action, player, stop)
    return new
