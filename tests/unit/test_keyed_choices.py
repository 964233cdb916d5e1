"""A prefer's narrowing, and a prefer judged group by group (prefers.group_narrower), look up
each move's kept value, and its own judging, by a key that only some values can be
(`type(x) in _m_keyed_args`: True == 1 must not find 1's value). When the values read are a
list known at load of values that can all be keys (a fixed board's cells), the check is
left out (_Narrower.keyed, prefers.KEYED_CHOICES): the same keys, values kept, moves and
steps, with coverage counted or not; any other domain keeps the check."""
from __future__ import annotations

import pytest

from regnum.agents import playout, random_picks
from regnum.compiler import prefers
from regnum.engine import decisions

from listings import played, positions   # tests/unit is on the path of its tests
from near_toy import HEADER
from test_prefer_groups_at_once import _group_source
from test_preferring_listers import _compared
from toy_rules import load_switched

RULES = HEADER + """setup:
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or spare or lift
action claim(x in map):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    prefer near: near_mine(x, player, none) else "next to your own"
    move 1 from pool(player) to site(x)
action spare(x in [n for n in map where count(site(n)) == 0]):
    require stock: count(pool(player)) > 1 else "keep a stone"
    prefer near: near_mine(x, player, none) else "next to your own"
    move 1 from pool(player) to site(x)
action lift(x in map):
    require mine: owner_of(x) == player else "not yours"
    move site(x) to pool(player)
"""

CHECK = "type(v0) in _m_keyed_args"


def _loaded(tmp_path, text, keyed: bool, name: str = "toy.rules"):
    """The ruleset, its preferring listers made (at their first use: here) while the switch
    holds."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prefers, "KEYED_CHOICES", keyed)
        rules = load_switched(tmp_path, text, name, [])
        for action in rules.model.actions.values():
            if action.prefers:
                decisions.preferring(action)
    return rules


def test_the_check_is_left_out_for_a_board_s_cells_only(tmp_path):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    claim = _group_source(on, "claim")
    assert CHECK not in claim and "_me.get((" in claim and "elif _nr is not None:" in claim
    assert claim.count(CHECK) == 0 and _group_source(off, "claim").count(CHECK) == 2
    assert _group_source(on, "spare").count(CHECK) == 2   # a domain computed as the game runs
    narrowing = on.model.actions["claim"].prefers[0].narrow.source   # coverage counted: move by move
    assert CHECK not in narrowing and off.model.actions["claim"].prefers[0].narrow.source.count(CHECK) == 2
    assert on.model.actions["spare"].prefers[0].narrow.source.count(CHECK) == 2


def _played(rules, seed: int, moves: int = 60, coverage: bool = False):
    """A game's record: each listing's moves and steps, and the values kept after it."""
    game = rules.new_game(2, seed=seed, coverage=coverage)
    seen = []
    for _ in playout(game, random_picks(seed, 2), max_moves=moves):
        for seat in game.to_move:
            game.peak_steps = 0
            listed = [(m.action, m.args["x"]) for m in game.legal_moves(seat)]
            kept = sorted((key, entry[:2]) for key, entry in game.state.memo.entries.items())
            seen.append((listed, game.peak_steps, kept))
    return game, seen


@pytest.mark.parametrize("coverage", [False, True])
def test_games_list_keep_and_charge_alike(tmp_path, coverage):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    for seed in range(6):
        (a, seen_a), (b, seen_b) = _played(on, seed, coverage=coverage), _played(off, seed, coverage=coverage)
        assert seen_a == seen_b and a.to_dict() == b.to_dict() and a.hits == b.hits
        assert any(kept for _, _, kept in seen_a)   # values were kept and compared


def test_every_listing_is_the_lister_s_then_the_narrowing_s(tmp_path):
    checked = 0
    for game, seat in positions(_loaded(tmp_path, RULES, True), range(4), moves=30):
        _compared(game, "claim", seat)
        checked += 1
    assert checked == 4 * 30


@pytest.mark.parametrize("seed", [1, 2])
def test_kingdom_builder_plays_the_same_games(tmp_path, seed):
    on = _loaded(tmp_path, None, True, "kingdom_builder")
    off = _loaded(tmp_path, None, False, "kingdom_builder")
    assert CHECK not in _group_source(on, "build") and CHECK in _group_source(off, "build")
    # the Tavern's and the others' groups judge each hex once a listing: by the hex as key
    assert "k = v0\n" in _group_source(on, "build_with_tile")
    assert "k = v0 if type(v0) in _m_keyed else _UNSET" in _group_source(off, "build_with_tile")
    games = [played(rules, seed, players=4, moves=200) for rules in (on, off)]
    assert games[0].to_dict() == games[1].to_dict() and games[0].peak_steps == games[1].peak_steps
    assert sum(m.action == "build" for m in games[0].log.moves) > 20
