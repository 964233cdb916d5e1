"""With coverage counted too, a loop narrowed by a lone require `T(x) == v` does not judge
that require again for the cells the table's index gave (listers._Writer._narrowed: the
counted branch sets `nw{i}`): the cells skipped are counted apart under the require that
refuses them, and every cell the index gave passes it. Where the index cannot answer, the
domain itself comes back and every cell is judged. The same moves and coverage as judging
every cell, listing by listing and in whole games (Kingdom Builder's `build` among them)."""
from __future__ import annotations

from regnum import Move
from regnum.agents import play_random_game
from regnum.compiler import listers

from listings import assert_alike, both, positions   # tests/unit is on the path of its tests
from test_narrowed_require_implied import BLUE, GREEN, RULES, _loaded


def _counted(game, seat: int, action: str = "claim"):
    """(the cells of the action's moves, the coverage its listing counts), listed on the
    game's own state (a listing writes nothing): a table the state owns has no index."""
    ctx = game._ctx(game._state)
    ctx.hits = {}
    found = game.model.actions[action].lister(ctx, seat, ctx.hits, False)
    return sorted(m[0] for m in found), ctx.hits


def test_the_counted_branch_skips_the_require_its_index_implies(tmp_path):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    claim = on.model.actions["claim"].lister.source
    assert "nw0 = wn is not it0" in claim and "nw0 = w0 is not it0" in claim
    assert "nw0" not in off.model.actions["claim"].lister.source
    kingdom = _loaded(tmp_path, None, True, "kingdom_builder")
    assert "nw0 = wn is not it0" in kingdom.model.actions["build"].lister.source


def test_a_fresh_board_counts_the_cells_skipped_and_a_painted_one_judges_every_cell(tmp_path):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    games = [r.new_game(2, seed=1, coverage=True) for r in (on, off)]
    # 20 cells: the 6 blue ones listed, the 14 others refused by colour_wanted (none taken)
    assert (len(BLUE), len(GREEN)) == (6, 7)
    for game in games:
        assert _counted(game, 0) == (sorted(BLUE), {"require:claim.colour_wanted": 14})
    for game in games:   # the table is the state's now: no index, every cell judged
        game.play(Move(0, "paint", {"x": BLUE[0]}))
        game.play(Move(1, "want", {"k": "green"}))
        assert "colour" in game.state._owned_tables
    assert _counted(games[0], 0) == _counted(games[1], 0) == \
        (sorted(GREEN + [BLUE[0]]), {"require:claim.colour_wanted": 12})
    for game in games:   # a taken green cell: refused by free, before its colour
        game.play(Move(0, "claim", {"x": GREEN[0]}))
        game.play(Move(1, "want", {"k": "green"}))
    assert _counted(games[0], 0) == _counted(games[1], 0) == \
        (sorted(GREEN[1:] + [BLUE[0]]), {"require:claim.free": 1, "require:claim.colour_wanted": 12})


def test_every_counted_listing_of_random_games_is_the_generic_walk_s(tmp_path):
    checked = 0
    for game, seat in positions(_loaded(tmp_path, RULES, True), range(4)):
        outcome, _, hits = both(game, "claim", seat)
        checked += outcome[0] == "moves" and bool(hits)
    assert checked > 100


def test_kingdom_builder_counting_coverage_plays_the_same_games(tmp_path):
    on = _loaded(tmp_path, None, True, "kingdom_builder")
    off = _loaded(tmp_path, None, False, "kingdom_builder")
    for seed in (1, 2):
        a = play_random_game(on, 4, seed, coverage=True)
        b = play_random_game(off, 4, seed, coverage=True)
        assert_alike(a, b)
        assert a.hits["require:build.on_card"] > 1000
    assert listers.IMPLIED
