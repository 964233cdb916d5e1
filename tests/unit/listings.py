"""A listing of legal moves, observed whole: what the generated lister and the generic walk
(decisions._enumerate_generic) each do, and what the generated narrowings of the prefers and
decisions._narrow each keep, to compare them (tests/unit/test_move_listers*.py)."""
from __future__ import annotations

from regnum.engine import decisions


def _outcome(list_moves):
    """("moves", [(args items, env items)…]) — keys in order —, ("found",) when a listing
    asked whether a move exists found one, or ("raised", type, message)."""
    try:
        found = list_moves()
        return ("moves", [(list(args.items()), list(env.items())) for args, env in found])
    except decisions._Found:
        return ("found",)
    except Exception as err:   # a fault or a limit: the same one, with the same message
        return ("raised", type(err).__name__, str(err))


def observe(enumerate_, game, action, player: int, stop: bool = False, counted: bool = True):
    """(outcome, steps charged, coverage counted) of one listing (prefers not applied), on a
    copy of the state (a listing may draw from the RNG); counted=False: as a game that counts
    no coverage lists (coverage None)."""
    ctx = game._ctx(game._state.copy())
    ctx.hits = {} if counted else None
    outcome = _outcome(lambda: enumerate_(ctx, action, player, count=not stop, stop=stop))
    return outcome, ctx.steps, ctx.hits


def both(game, action_name: str, player: int = 0, stop: bool = False):
    """The generated lister's observation, checked against the generic walk's: the same
    outcome and coverage, and no more steps (a lister keeps a call that reads no choice for
    as long as its value holds, where the walk computes it again for each batch). Without
    coverage (where a lister may read a table's index instead of judging every cell), the
    same outcome and exactly the steps it charges with coverage."""
    action = game.model.actions[action_name]
    new = observe(decisions._enumerate, game, action, player, stop)
    old = observe(decisions._enumerate_generic, game, action, player, stop)
    assert (new[0], new[2]) == (old[0], old[2])
    assert new[1] <= old[1]
    uncounted = observe(decisions._enumerate, game, action, player, stop, counted=False)
    assert uncounted == (new[0], new[1], None)
    return new


def observe_candidates(candidates, game, action, player: int):
    """(outcome, steps charged, coverage counted) of the legal moves of one action, prefers
    applied, on a copy of the state."""
    ctx = game._ctx(game._state.copy())
    ctx.hits = {}
    outcome = _outcome(lambda: candidates(ctx, action, player))
    return outcome, ctx.steps, ctx.hits


def preferred(game, action_name: str, player: int = 0):
    """decisions.candidates (the lister, then each prefer's generated narrowing) observed and
    checked against the reference (the generic walk, then decisions._narrow): the same moves
    in the same order, the same coverage — each prefer's hit included —, the same fault, and
    no more steps (a narrowing judges each combination of the values a prefer reads once)."""
    action = game.model.actions[action_name]
    new = observe_candidates(decisions.candidates, game, action, player)
    old = observe_candidates(decisions._candidates_generic, game, action, player)
    assert (new[0], new[2]) == (old[0], old[2])
    assert new[1] <= old[1]
    return new


def assert_alike(a, b) -> None:
    """Two games played the same: the same moves, state (as saved), peak steps and coverage."""
    from regnum.engine.state import canonical_json
    assert [m.to_dict() for m in a._moves] == [m.to_dict() for m in b._moves]
    assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
    assert a.peak_steps == b.peak_steps and a.hits == b.hits


def played(rules, seed: int, players: int = 2, moves: int = 80, coverage: bool = False):
    """A game of `rules` played `moves` moves at most by the random playout of `seed`."""
    from regnum.agents import playout, random_picks
    game = rules.new_game(players, seed, coverage=coverage)
    for _ in playout(game, random_picks(seed, players), moves):
        pass
    return game


def positions(rules, seeds, players: int = 2, moves: int = 40):
    """(game, seat to move) at every position of the random games of `rules`, one a seed,
    `moves` moves at most, coverage off; the game moves on once the caller is done with it."""
    from regnum.agents import playout, random_picks
    for seed in seeds:
        game = rules.new_game(players, seed, coverage=False)
        for _ in playout(game, random_picks(seed, players), moves):
            for seat in game.to_move:
                yield game, seat
