"""A parameter whose domain holds only pieces as the state numbers them — a zone, the items of
a zone a comprehension keeps, a def that is one of those — has its choices made by
decisions._zone_choices (`_m_choices` in the lister), which reads the labels without
checking that each item is a piece (listers._Writer._zone): the same (piece, label) pairs as
decisions._piece_choices gives, pieces named alike listed once, and the same games. Any other
domain is made as before (`_m_piece_choices`)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, strategies as st

from regnum import Move
from regnum.compiler import listers
from regnum.engine import decisions

from listings import assert_alike, both, played, positions   # tests/unit is on the path of its tests
from toy_rules import load_switched

RULES = """
game toy "Toy"
players 2..2
piece card:
    rank: int
    shown: bool = false
zone hand per player: public
zone pile: public
def kept(p) = [c for c in hand(p) where c.rank > 1]
def pair(p) = [c for c in hand(p) where c.rank > 1 for d in pile]
def either(p) = if count(pile) > 0 then pile else hand(p)
setup:
    for p in players:
        create 1 card(rank: 1) in hand(p) named "ace"
        create 1 card(rank: 2) in hand(p) named "two"
        create 1 card(rank: 2) in hand(p) named "two"
        create 1 card(rank: 3) in hand(p) named "three"
flow:
    repeat until false:
        for p in players:
            ask p to play or keep or show or take or swap or pick_any
action play(c in hand(player)):
    require low: c.rank < 3 else "a low card"
    move c to pile
action keep(c in kept(player)):
    set c.shown = true
action show(c in [x for x in hand(player) where not x.shown]):
    set c.shown = true
action take(c in either(player)):
    move c to hand(player)
action swap(c in pair(player)):
    set c.shown = false
action pick_any(c in hand(player) + pile):
    set c.shown = false
"""


def _loaded(tmp_path, text, on: bool, name: str = "toy.rules"):
    return load_switched(tmp_path, text, name, [(listers, "ZONE_CHOICES", on)])


def _ctx(labels: list[str]):
    pieces = [{"type": "card", "label": label} for label in labels]
    return SimpleNamespace(state=SimpleNamespace(pieces=pieces))


@given(st.lists(st.sampled_from(["ace", "two", "three", "four"]), min_size=1, max_size=9), st.data())
def test_the_choices_of_a_zone_are_those_piece_choices_gives(labels, data):
    ctx = _ctx(labels)
    zone = data.draw(st.lists(st.integers(0, len(labels) - 1), unique=True))
    made = decisions._zone_choices(ctx, zone)
    assert made == decisions._piece_choices(ctx, zone)
    assert [v for v, _ in made] == [v for v in zone if labels[v] not in {labels[w] for w in zone[:zone.index(v)]}]


def test_a_domain_of_a_zone_s_pieces_is_made_as_a_zone_s(tmp_path):
    on = _loaded(tmp_path, RULES, True, "on.rules")
    off = _loaded(tmp_path, RULES, False, "off.rules")
    for name in ("play", "keep", "show"):   # a zone, a def keeping its items, a comprehension
        assert "_m_choices(c, d)" in on.model.actions[name].lister.source
        assert "_m_choices" not in off.model.actions[name].lister.source
        assert "_m_piece_choices(c, d)" in off.model.actions[name].lister.source
    helpers = on.model.actions["play"].lister.__globals__
    assert helpers["_m_choices"] is decisions._zone_choices and helpers["_m_piece_choices"] is decisions._piece_choices
    for name in ("take", "swap", "pick_any"):   # a branch, two loops, a sum of lists
        assert "_m_choices" not in on.model.actions[name].lister.source
        assert "_m_piece_choices(c, d)" in on.model.actions[name].lister.source


def test_pieces_named_alike_are_listed_once(tmp_path):
    game = _loaded(tmp_path, RULES, True).new_game(2, seed=1)
    assert [m.args["c"] for m in game.legal_moves(0) if m.action == "play"] == ["ace", "two"]
    assert [m.args["c"] for m in game.legal_moves(0) if m.action == "keep"] == ["two", "three"]
    game.play(Move(0, "play", {"c": "two"}))
    assert game.state.zones["pile"] == [1]
    game.play(Move(1, "play", {"c": "ace"}))
    game.play(Move(0, "play", {"c": "two"}))   # the other two, alone of its name now
    assert game.state.zones["pile"] == [1, 4, 2]
    assert [m.args["c"] for m in game.legal_moves(1) if m.action == "show"] == ["two", "three"]


def test_every_listing_of_random_games_is_the_generic_walk_s(tmp_path):
    checked = 0
    for game, seat in positions(_loaded(tmp_path, RULES, True), range(5)):
        for name in ("play", "keep", "show"):
            both(game, name, seat)
        checked += 1
    assert checked == 5 * 40


@pytest.mark.parametrize("coverage", [False, True])
def test_whole_games_are_those_of_piece_choices(tmp_path, coverage):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    for seed in range(6):
        assert_alike(played(on, seed, moves=60, coverage=coverage), played(off, seed, moves=60, coverage=coverage))


@pytest.mark.parametrize("name, action", [("kings_road", "pick"), ("kingdom_builder", "build_with_tile"),
                                          ("kings_kilt", "turn_up")])
def test_the_games_play_the_same(tmp_path, name, action):
    on, off = _loaded(tmp_path, None, True, name), _loaded(tmp_path, None, False, name)
    assert "_m_choices(c, d)" in on.model.actions[action].lister.source
    assert "_m_piece_choices(c, d)" in off.model.actions[action].lister.source
    for seed in (1, 2):
        a, b = played(on, seed, players=4, moves=150), played(off, seed, players=4, moves=150)
        assert_alike(a, b)
        assert a.move_count > 60
