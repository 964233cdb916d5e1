"""With coverage counted, a lister whose loop over a fixed board's cells is narrowed by a
require `T(x) == v` (State.cells_with) still skips the other cells, and counts each of them
under the require that would have refused it: the narrowing require, or the one zone test
before it (`free(x)`), whose refusals are read from an index of the zones' emptiness
(listers._Writer._counted_apart, engine/memo.refused_apart). The same moves, coverage,
steps and faults as judging every cell, listing by listing and in whole games, with and
without kept values; two zone tests before the narrowing require go through every cell."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import listers, memo
from regnum.engine.state import canonical_json

from listings import both   # tests/unit is on the path of its tests
from toy_rules import load

RULES = """
game toy "Toy"
players 2..2
enum colour_kind: red, blue, green
board land: hex_grid
    rows = 4
    cols = 5
    layout = "odd_r"
piece stone:
    owner: player
zone site per land: public
zone flag per land: public
zone pool per player: public
var colour per land: colour_kind = red
var wanted: colour_kind = blue
var strict: bool = true
var picks: list of colour_kind = [green]
var turn: int = 0
def free(h) = count(site(h)) == 0
setup:
    for h in land:
        set colour(h) = [red, blue, green][(h.row + 2 * h.col) % 3]
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            set turn = turn + 1
            set wanted = [red, blue, green][turn % 3]
            set strict = turn % 4 != 0
            ask p to claim or crown or mark or paint or loosely or pick or lift
action claim(x in land):
    require free: free(x) else "taken"
    require matching: colour(x) == wanted else "not the wanted colour"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action crown(x in land):
    require taken: count(site(x)) > 0 else "nothing to crown"
    require matching: wanted == colour(x) else "not the wanted colour"
    pass
action mark(x in land):
    require free: free(x) else "taken"
    require unflagged: count(flag(x)) == 0 else "flagged"
    require matching: colour(x) == wanted else "not the wanted colour"
    pass
action paint(x in land):
    require matching: colour(x) == wanted else "not the wanted colour"
    require free: free(x) else "taken"
    pass
action loosely(x in land):
    require free: free(x) else "taken"
    require matching: not strict or colour(x) == wanted else "not the wanted colour"
    pass
action pick(x in land):
    require free: free(x) else "taken"
    require matching: colour(x) == picks[0] else "not the first pick"
    pass
action lift(x in land):
    require mine: count(site(x)) > 0 and site(x)[0].owner == player else "not yours"
    move site(x) to pool(player)
"""


def _loaded(tmp_path, text: str | None, apart: bool, name: str = "toy.rules", kept: bool = True):
    """The ruleset (`text`, or the bundled ruleset `name`) loaded without the disk cache, its
    listers counting the cells they skip apart or going through every cell with coverage,
    with kept values of defs or without."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        patch.setattr(listers, "COUNT_APART", apart)
        patch.setattr(memo, "ENABLED", kept)
        return load(tmp_path, text, name) if text is not None else regnum.load(name)


def _apart(rules, action: str) -> list[str]:
    """The lines of an action's lister that count the cells it skips, with coverage."""
    source = rules.model.actions[action].lister.source
    return [line.strip() for line in source.splitlines() if re.search(r"\bna = _m_apart|\bn\d+ \+= (na|len\()", line)]


def test_which_listers_count_the_cells_they_skip(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    # free then matching: the occupied cells skipped under free, the others under matching
    claim = _apart(rules, "claim")
    assert len(claim) == 3 and re.fullmatch(r"na = _m_apart\(c, \d+, _ckb\d+, _ck\d+, wn, False\)", claim[0])
    assert claim[1:] == ["n0 += na", "n1 += len(it0) - len(wn) - na"]
    # a zone that must not be empty: the empty cells skipped are refused by it
    crown = _apart(rules, "crown")
    assert crown[0].endswith(", wn, True)") and crown[1:] == ["n0 += na", "n1 += len(it0) - len(wn) - na"]
    # two zone tests before it: a cell's first refusal needs both, every cell is judged
    assert _apart(rules, "mark") == []
    assert "hits is None" in rules.model.actions["mark"].lister.source
    # the narrowing require first: every cell skipped is its
    assert _apart(rules, "paint") == ["n0 += len(it0) - len(wn)"]
    # `not strict or …` narrows only while strict; `picks[0]` is computed once, and may fail
    assert len(_apart(rules, "loosely")) == 3 and len(_apart(rules, "pick")) == 3
    # A zone test counts its refusals from its own index; the actions share it.
    assert len({line.split(", ")[1] for line in claim[:1] + crown[:1]}) == 1
    unkept = _loaded(tmp_path, RULES, True, "unkept.rules", kept=False)
    assert _apart(unkept, "claim")[0].startswith("na = _m_apart(c, None, ")
    assert _apart(_loaded(tmp_path, RULES, False, "every.rules"), "claim") == []


def test_a_listing_counts_what_the_walk_counts(tmp_path):
    """Position after position of a game, each action's listing with coverage against the
    generic walk's, which judges every cell (tests/unit/listings.both): the same moves and
    coverage, and, without coverage, the same steps."""
    for kept in (True, False):
        rules = _loaded(tmp_path, RULES, True, f"kept{kept}.rules", kept=kept)
        game = rules.new_game(2, 3)
        seen = {}
        for _ in playout(game, random_picks(3, 2), 30):
            for action in ("claim", "crown", "paint", "loosely", "lift"):
                found = both(game, action, game.to_move[0])
                seen[action] = seen.get(action, 0) + len(found[0][1])
        # every action listed moves along the way, and the claims filled the pools' stones
        assert all(seen[action] > 0 for action in ("claim", "crown", "paint", "loosely", "lift"))
        assert game.hits["require:claim.free"] > 0 and game.hits["require:crown.taken"] > 0


def test_a_failing_value_fails_as_every_cell_judged_would(tmp_path):
    """`picks[0]` of an empty list: computed before the loop, it fails there; the lister then
    goes through every cell, and fails at the first free one, with coverage or without."""
    rules = _loaded(tmp_path, RULES, True)
    game = rules.new_game(2, 0)
    game._state.vars["picks"] = []
    assert both(game, "pick")[0] == ("raised", "EvalError", "no item 0 in []")


@pytest.mark.parametrize("seed", range(3))
def test_games_count_as_games_through_every_cell(tmp_path, seed):
    """Whole games: moves, state, coverage and peak steps, the cells skipped counted apart
    from the index of the zones (kept values on) or from the zones themselves (off)."""
    plain = _loaded(tmp_path, RULES, False, "plain.rules")
    for kept in (True, False):
        apart = _loaded(tmp_path, RULES, True, f"apart{kept}.rules", kept=kept)
        games = []
        for rules in (apart, plain):
            game = rules.new_game(2, seed, coverage=True)
            for _ in playout(game, random_picks(seed, 2), 60):
                pass
            games.append(game)
        a, b = games
        assert [m.to_dict() for m in a._moves] == [m.to_dict() for m in b._moves]
        assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
        assert a.hits == b.hits and a.peak_steps == b.peak_steps
        assert a.hits["require:claim.free"] > 0 and a.hits["require:crown.taken"] > 0


def test_kingdom_builder_counts_the_hexes_it_skips(tmp_path):
    """`build` and the Oracle, Farm, Oasis and Tower of `build_with_tile` go through the
    hexes of one terrain (or the edge), and count the others under `free` or their terrain's
    require; whole games count as games through every hex."""
    apart = _loaded(tmp_path, None, True, "kingdom_builder")
    assert len(_apart(apart, "build")) == 3 and len(_apart(apart, "build_with_tile")) == 4 * 3
    plain = _loaded(tmp_path, None, False, "kingdom_builder")
    for seed, players in ((0, 4), (1, 2)):
        a = play_random_game(apart, players, seed, coverage=True)
        b = play_random_game(plain, players, seed, coverage=True)
        assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
        assert a.hits == b.hits and a.peak_steps == b.peak_steps
        assert a.hits["require:build.free"] > 0 and a.hits["require:build.on_card"] > 0


def test_the_index_of_the_zones_is_built_at_a_states_second_count(tmp_path):
    """A state listed once (a copy, a game read back) counts from the zones themselves; from
    its second count on, from the index of the zones' emptiness, judged again only where a
    zone changed. The counts are the same either way."""
    from regnum.engine import memo as kept
    rules = _loaded(tmp_path, RULES, True)
    game = rules.new_game(2, 0)
    number = int(re.search(r"_m_apart\(c, (\d+),", _apart(rules, "claim")[0]).group(1))
    for _ in range(3):
        game = game.copy()
        indexes = game._state.memo.indexes
        assert number not in indexes and (kept._MET, number) not in indexes
        seat = game.to_move[0]
        before = dict(game.hits)
        game.legal_moves(seat)   # lists every action once: several count apart
        indexes = game._state.memo.indexes
        assert isinstance(indexes.get(number), kept.Indexed)   # the second count built it
        first = {k: v - before.get(k, 0) for k, v in game.hits.items()}
        game._cache = {}   # listed again, from the index now
        game.legal_moves(seat)
        assert {k: v - before.get(k, 0) - first[k] for k, v in game.hits.items()} == first
        assert first["require:claim.matching"] > 0 and first["require:crown.taken"] > 0
        game.play(next(m for m in game.legal_moves(seat) if m.action == "claim"))
    once = rules.new_game(2, 0).copy()
    once._state.memo = kept.EMPTY
    ctx = once._ctx(once._state)
    action = rules.model.actions["claim"]
    assert action.lister(ctx, 0, {}, False)   # one count: no index
    assert number not in once._state.memo.indexes and (kept._MET, number) in once._state.memo.indexes
