"""Kept values of pure defs (compiler/memo.py, engine/memo.py): which defs are kept and why
the others are not; games with kept values equal to games without (moves, final state,
coverage, peak steps) on the four rulesets; a kept value never stale after a move, a
refused move, a copy or a state loaded from JSON; a value met again charging its steps."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import regnum
import regnum.agents as agents
from regnum.compiler import memo
from regnum.diagnostics import LimitExceeded
from regnum.engine import game as game_module
from regnum.engine.memo import EMPTY
from regnum.engine.state import canonical_json

ROOT = Path(__file__).parents[2]
RULESETS = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]
PLAYERS = {"kings_gate": 3}


def _load(name: str, mode: str = "on"):
    path = ROOT / "rulesets" / f"{name}.rules"
    if mode == "off":
        with memo.disabled():
            return regnum.load(path)
    if mode == "verify":
        with memo.verified():
            return regnum.load(path)
    return regnum.load(path)


@pytest.fixture(scope="module")
def kingdom():
    return _load("kingdom_builder")


def _codegen(rules):
    return rules.model.expressions.codegen


# ── which defs ─────────────────────────────────────────────────────────────────

def test_kingdom_builder_keeps_exactly_its_two_searches_of_the_board(kingdom):
    report = _codegen(kingdom).memo_analysis().report()
    assert sorted(name for name, why in report.items() if why is None) == ["extends_a_line", "next_to_own"]
    assert report["owner_of"] == "it searches nothing (computing it costs less than keeping it)"
    assert report["mandatory_open"] == "it reads the variable builds_left, which a statement sets"
    assert report["usable_tiles"] == "it reads the field used, which a statement sets"
    assert report["any_free_hex_of"] == "it reads the variable terrain, which a statement sets"
    assert report["card_terrain"] == "it has no parameter (a listing computes it once already)"
    assert report["own_hexes"].startswith("its value may be a list")
    assert report["areas"].startswith("its value may be a list")
    assert report["discoverers"] == "it calls own_hexes: it goes through every cell of land"
    assert report["location_letters"] == "it builds a text"


def test_the_other_games_keep_nothing_they_call_so(kingdom):
    for name in ("kings_road", "kings_kilt", "kings_gate"):
        assert _codegen(_load(name))._memos == {}, name
    assert _codegen(_load("kings_gate")).memo_analysis().refusal("hand_values").startswith("its value may be a list")


def test_the_listings_look_the_kept_values_up_in_place(kingdom):
    memos = _codegen(kingdom)._memos
    assert set(memos) == {("next_to_own", ("value", "player", None)), ("extends_a_line", ("value", "player"))}
    source = kingdom.model.actions["build_with_tile"].lister.source
    number = re.match(r"_mw(\d+)_", memos[("extends_a_line", ("value", "player"))]).group(1)
    assert f"c.state.memo.entries.get(({number}, v1, pl)" in source
    assert "_lines" not in source   # the search of lines is no longer written out in the lister


def test_without_kept_values_nothing_is_kept():
    rules = _load("kingdom_builder", "off")
    assert _codegen(rules)._memos == {}
    assert "memo" not in rules.model.actions["build_with_tile"].lister.source
    game = agents.play_random_game(rules, 4, 0, coverage=False)
    assert game.state.memo is EMPTY


PROBE = """
game probe "Probe"
players 2..2
board land: hex_grid
    rows = 3
    cols = 3
piece stone:
    owner: player
    weight: int = 0
zone pile per land: public
zone bag per player: public
var level: int = 0
var fixed_level: int = 1
def owned(h, p) = any(s.owner == p for n in neighbours(land, h) for s in pile(n))
def steady(h) = any(count(pile(n)) > fixed_level for n in neighbours(land, h))
def levelled(h) = any(count(pile(n)) > level for n in neighbours(land, h))
def heavy(h) = any(s.weight > 0 for s in pile(h))
def wide(p) = count(h for h in land where count(pile(h)) > 0) > 0
def plain(h) = count(pile(h)) == 0
def listed(h) = [n for n in neighbours(land, h)]
def asks(h, p) = any(can(p, take) for n in neighbours(land, h))
setup:
    for p in players:
        create 8 stone(owner: p) in bag(p)
flow:
    repeat 4 times:
        for p in players:
            ask p to put
action put(h in land):
    require empty: plain(h) and not heavy(h)
    prefer near: owned(h, player) or steady(h) or levelled(h) or wide(player) or asks(h, player)
    move 1 from bag(player) to pile(h)
    set level = level + count(listed(h))
    for s in pile(h):
        set s.weight = 1
action take(h in land):
    require mine: owned(h, player)
    move pile(h) to bag(player)
"""


def test_what_is_refused_and_why(tmp_path):
    path = tmp_path / "probe.rules"
    path.write_text(textwrap.dedent(PROBE), encoding="utf-8")
    rules = regnum.load(path)
    report = _codegen(rules).memo_analysis().report()
    assert report["owned"] is None
    assert report["steady"] is None   # a variable no statement sets is a constant of the game
    assert report["levelled"] == "it reads the variable level, which a statement sets"
    assert report["heavy"] == "it reads the field weight, which a statement sets"
    assert report["wide"] == "it goes through every cell of land"
    assert report["plain"] == "it searches nothing (computing it costs less than keeping it)"
    assert report["listed"].startswith("its value may be a list")
    assert report["asks"] == "it asks can(…)"
    game = agents.play_random_game(rules, 2, 3)
    with memo.disabled():
        plain_rules = regnum.load(path)
    other = agents.play_random_game(plain_rules, 2, 3)
    assert game.to_json() == other.to_json() and game.hits == other.hits
    assert game.state.memo.kept > 0


# ── the same games ─────────────────────────────────────────────────────────────

@pytest.mark.parametrize("name", RULESETS)
def test_games_with_kept_values_equal_games_without(name):
    on, off = _load(name), _load(name, "off")
    players = PLAYERS.get(name, 4)
    for seed in (0, 1, 2):
        for coverage in (True, False):
            a = agents.play_random_game(on, players, seed, coverage=coverage)
            b = agents.play_random_game(off, players, seed, coverage=coverage)
            assert [m.to_dict() for m in a._moves] == [m.to_dict() for m in b._moves]
            assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
            assert a.hits == b.hits
            assert a.peak_steps == b.peak_steps


def test_every_value_met_again_is_what_computing_it_gives():
    """Compiled to compute every value it meets again and compare it (value and steps)."""
    rules = _load("kingdom_builder", "verify")
    off = _load("kingdom_builder", "off")
    for seed in (3, 4):
        a = agents.play_random_game(rules, 4, seed, coverage=False)
        b = agents.play_random_game(off, 4, seed, coverage=False)
        assert a.to_json() == b.to_json() and a.peak_steps == b.peak_steps
        assert a.state.memo.hits > 1000 and a.state.memo.kept > 500


# ── never stale ────────────────────────────────────────────────────────────────

def _functions(rules) -> dict:
    """number -> the function computing and keeping a kept def's values."""
    cg = _codegen(rules)
    return {int(re.match(r"_mw(\d+)_", name).group(1)): cg.ns[name] for name in cg._memos.values()}


def _assert_fresh(game, functions) -> int:
    """Every value the state keeps is what a fresh evaluation gives, with the same steps."""
    checked = 0
    for key, (value, steps, _) in list(game.state.memo.entries.items()):
        fresh = game.state.copy()
        ctx = game._ctx(fresh)
        ctx.steps = 0
        again = functions[key[0]](ctx, *key[1:])
        assert (again, ctx.steps) == (value, steps), key
        assert type(again) is type(value)
        checked += 1
    return checked


def test_no_value_is_stale_after_any_move(kingdom):
    functions = _functions(kingdom)
    checked = 0
    for seed in (5, 6):
        game = kingdom.new_game(players=4, seed=seed, coverage=False)
        for _ in agents.playout(game, agents.random_picks(seed, 4), 10_000):
            checked += _assert_fresh(game, functions)
    assert checked > 10_000


def test_a_refused_move_forgets_every_value(kingdom, monkeypatch):
    game = kingdom.new_game(players=4, seed=7, coverage=False)
    for _ in range(12):
        game.play(game.legal_moves(game.to_move[0])[0])
    seat = game.to_move[0]
    game.legal_moves(seat)
    assert game.state.memo is not EMPTY and game.state.memo.entries
    before = game.to_json()
    move = game.legal_moves(seat)[0]

    def failing(ctx, span):
        raise LimitExceeded("injected at the end of the move", span)
    monkeypatch.setattr(game_module, "check_size", failing)
    with pytest.raises(LimitExceeded):
        game.play(move)
    monkeypatch.undo()
    assert game.state.memo is EMPTY
    assert game.to_json() == before
    game.play(move)
    _assert_fresh(game, _functions(kingdom))


def test_a_copy_and_a_loaded_state_start_without_kept_values(kingdom):
    game = kingdom.new_game(players=4, seed=8, coverage=False)
    for _ in range(20):
        game.play(game.legal_moves(game.to_move[0])[0])
    assert game.state.memo.entries
    copy = game.copy()
    loaded = kingdom.game_from_json(game.to_json())
    assert copy.state.memo is EMPTY   # (the loaded game replayed its moves: its own values)
    assert loaded.state.memo is not game.state.memo and loaded.state.memo.entries is not game.state.memo.entries
    _assert_fresh(loaded, _functions(kingdom))
    for other in (copy, loaded):
        for _ in range(15):
            seat = other.to_move[0]
            move = other.legal_moves(seat)[-1]
            other.play(move)
            _assert_fresh(other, _functions(kingdom))
    assert copy.to_json() == loaded.to_json()
    assert game.state.memo.entries   # the original keeps its own, still true of it
    _assert_fresh(game, _functions(kingdom))


def test_an_edited_position_forgets_every_value(kingdom):
    from regnum import testing
    game = kingdom.new_game(players=4, seed=9, coverage=False)
    for _ in range(10):
        game.play(game.legal_moves(game.to_move[0])[0])
    assert game.state.memo.entries
    testing.set_var(game, "turn", game.state.vars["turn"])
    assert game.state.memo is EMPTY


# ── steps ──────────────────────────────────────────────────────────────────────

def test_a_value_met_again_charges_the_steps_of_computing_it(kingdom):
    game = kingdom.new_game(players=4, seed=10, coverage=False)
    for _ in range(30):
        game.play(game.legal_moves(game.to_move[0])[0])
    functions = _functions(kingdom)
    number = min(functions)   # next_to_own, written first
    ctx = game._ctx(game.state.copy())
    cell = next(h for h in kingdom.model.boards["land"].cells)
    ctx.steps = 0
    first = functions[number](ctx, cell, 0, None)
    computed = ctx.steps
    assert computed > 0
    memo_of = ctx.state.memo
    kept = memo_of.kept
    again = functions[number](ctx, cell, 0, None)
    assert again == first and ctx.steps == 2 * computed and memo_of.kept == kept
    ctx.max_steps = ctx.steps + computed - 1   # the value met again passes the limit: refused alike
    with pytest.raises(Exception) as met:
        functions[number](ctx, cell, 0, None)
    fresh = game._ctx(game.state.copy())
    fresh.steps, fresh.max_steps = ctx.steps, ctx.max_steps
    with pytest.raises(Exception) as computed_again:
        functions[number](fresh, cell, 0, None)
    assert type(met.value) is type(computed_again.value) and str(met.value) == str(computed_again.value)
