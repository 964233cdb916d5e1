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
    """The generated lister's observation, checked against the generic walk's: the same
    outcome and coverage, and no more steps (a lister keeps a call that reads no choice for
    as long as its value holds, where the walk computes it again for each batch)."""
    action = game.model.actions[action_name]
    new = observe(decisions._enumerate, game, action, player, stop)
    old = observe(decisions._enumerate_generic, game, action, player, stop)
    assert (new[0], new[2]) == (old[0], old[2])
    assert new[1] <= old[1]
    return new
