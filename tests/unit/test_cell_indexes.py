"""Searches answered by an index (compiler/indexes.py, engine/memo.where): `[x for x in B
where D(x) == v]` and its count, D a pure def of one cell, give the cells and charge the steps
of the search written out, after every move, refused move, copy and edit; a judging that
fails, a value no index holds and the step limit are met exactly as the search meets them;
and only the searches of that shape are answered so."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regnum
import regnum.agents as agents
from regnum import LimitExceeded, Move
from regnum.compiler import memo
from regnum.engine.memo import EMPTY, Indexed
from regnum.engine.runtime import RuntimeFault
from regnum.engine.state import canonical_json

from toy_rules import load   # tests/unit is on the path of its tests

ROOT = Path(__file__).parents[2]

RULES = """
game probe "Probe"
players 2..2
board map: graph
    nodes a, b, c, d, e, f
    edges a - b, b - c, c - d, d - e, e - f
piece stone:
    owner: player
zone site per map: public
zone bag per player: public
var found: list of map = []
var counted: int = 0
var others: int = 0
def owner_of(h) = if count(site(h)) == 0 then none else site(h)[0].owner
def mine(p) = [h for h in map where owner_of(h) == p]
setup:
    for p in players:
        create 3 stone(owner: p) in bag(p)
flow:
    repeat until false:
        for p in players:
            ask p to put or lift or look
action put(h in map):
    require free: count(site(h)) == 0 else "taken"
    require stock: count(bag(player)) > 0 else "no stone left"
    move 1 from bag(player) to site(h)
action lift(h in mine(player)):
    move site(h) to bag(player)
action look():
    set found = mine(player)
    set counted = count(h for h in map where owner_of(h) == player)
    set others = count(h for h in map where none == owner_of(h))
"""


def _rules(tmp_path, text: str = RULES, mode: str = "on", name: str = "probe.rules"):
    if mode == "off":
        with memo.disabled():
            return load(tmp_path, text, name)
    if mode == "verify":
        with memo.verified():
            return load(tmp_path, text, name)
    return load(tmp_path, text, name)


def _compiled(tmp_path, text: str = RULES, mode: str = "on", name: str = "probe.rules"):
    """(the ruleset, every source generated for it): loaded without the cache of code."""
    from regnum.compiler import codegen
    spied: list[str] = []
    original = codegen.CodeGen.compiled

    def spy(self, source, filename, mode="exec"):
        spied.append(source)
        return original(self, source, filename, mode)
    codegen.CodeGen.compiled = spy
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("REGNUM_CACHE_DIR", "off")
            rules = _rules(tmp_path, text, mode, name)
    finally:
        codegen.CodeGen.compiled = original
    return rules, "\n".join(spied)


def _indexes(game) -> list[Indexed]:
    memo_ = game.state.memo
    return [] if memo_ is EMPTY else [i for i in memo_.indexes.values() if i is not None]


def _look(game, seat: int) -> tuple[list, int, int, int]:
    game.peak_steps = 0
    game.play(Move(seat, "look", {}))
    v = game.state.vars
    return v["found"], v["counted"], v["others"], game.peak_steps


# ── the values and steps of the search written out ─────────────────────────────

def test_the_cells_and_their_count_are_the_searchs_in_the_boards_order(tmp_path):
    (on, source_on), (off, source_off) = _compiled(tmp_path), _compiled(tmp_path, mode="off", name="off.rules")
    assert "_m_where(" in source_on and "_m_where" not in source_off
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    script = [Move(0, "put", {"h": "e"}), Move(1, "put", {"h": "c"}), Move(0, "put", {"h": "a"}),
              Move(1, "look", {}), Move(0, "look", {}), Move(1, "put", {"h": "f"}),
              Move(0, "lift", {"h": "e"}), Move(1, "look", {}), Move(0, "put", {"h": "d"}), Move(1, "look", {})]
    for move in script:
        for game in games:
            game.play(move)
        assert canonical_json(games[0].to_dict()) == canonical_json(games[1].to_dict())
    assert games[0].state.vars["found"] == ["c", "f"]
    assert (games[0].state.vars["counted"], games[0].state.vars["others"]) == (2, 2)
    seen = [_look(game, 0) for game in games]
    assert seen[0] == seen[1]
    found, counted, others, steps = seen[0]
    assert (found, counted, others) == (["a", "d"], 2, 2)
    # Each search walks the six cells and charges nothing more per cell (the def's body
    # reads a zone): three searches, and the move's own steps.
    assert steps == seen[1][3] and steps >= 18
    assert _indexes(games[0]) and not _indexes(games[1])


def test_a_move_judges_again_only_the_cells_whose_zones_it_changed(tmp_path, monkeypatch):
    from regnum.engine import memo as kept
    judged: list[set] = []
    original = kept._judge

    def spy(c, memo_, index, body, cells):
        judged.append(set(cells))
        return original(c, memo_, index, body, cells)
    monkeypatch.setattr(kept, "_judge", spy)
    game = _rules(tmp_path).new_game(2, seed=1)
    game.play(Move(0, "put", {"h": "b"}))
    _look(game, 1)
    # Built at its first use, every cell judged (the moves of `lift` listed before the put),
    # then b judged again at the look.
    assert judged == [{"a", "b", "c", "d", "e", "f"}, {"b"}]
    judged.clear()
    _look(game, 0)
    assert judged == []   # nothing changed: nothing judged
    game.play(Move(1, "put", {"h": "e"}))
    game.play(Move(0, "lift", {"h": "b"}))   # its listing asked mine(0): b and e judged again
    assert judged == [{"e"}]
    _look(game, 1)
    assert judged == [{"e"}, {"b"}]
    assert game.state.vars["found"] == ["e"]


# ── never stale ────────────────────────────────────────────────────────────────

def test_a_refused_move_a_copy_and_an_edit_start_the_index_again(tmp_path):
    from regnum import testing
    rules = _rules(tmp_path)
    game = rules.new_game(2, seed=1)
    game.play(Move(0, "put", {"h": "a"}))
    _look(game, 1)
    assert _indexes(game)
    before = game.to_json()
    with pytest.raises(regnum.IllegalMove):
        game.play(Move(0, "put", {"h": "a"}))
    assert game.to_json() == before
    copy = game.copy()
    assert copy.state.memo is EMPTY
    copy.play(Move(0, "put", {"h": "f"}))
    assert _look(copy, 1)[:3] == ([], 0, 4)
    assert _look(game, 0)[:3] == (["a"], 1, 5)   # the original's index, untouched by the copy
    testing.set_var(game, "counted", 0)
    assert game.state.memo is EMPTY
    assert _look(game, 1)[:3] == ([], 0, 5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5)), max_size=30))
def test_any_game_gives_the_values_and_steps_of_the_search_written_out(tmp_path_factory, plays):
    folder = tmp_path_factory.mktemp("plays")
    on, off = _rules(folder), _rules(folder, mode="off", name="off.rules")
    games = [rules.new_game(2, seed=3) for rules in (on, off)]
    nodes = "abcdef"
    for kind, n in plays:
        seat = games[0].to_move[0]
        action = ("put", "lift", "look")[kind]
        move = Move(seat, action, {} if action == "look" else {"h": nodes[n]})
        outcomes = []
        for game in games:
            game.peak_steps = 0
            try:
                game.play(move)
                outcomes.append(("played", game.peak_steps))
            except regnum.IllegalMove as refused:
                outcomes.append(("refused", refused.rule))
        assert outcomes[0] == outcomes[1]
        assert canonical_json(games[0].to_dict()) == canonical_json(games[1].to_dict())
        for index in _indexes(games[0]):
            zones = games[0].state.zones
            for cell, value in index.values.items():
                if cell not in index.dirty:   # what is not to be judged again holds
                    owner = zones[f"site#{cell}"]
                    assert value == (games[0].state.pieces[owner[0]]["owner"] if owner else None)


def test_bundled_games_play_the_same_with_every_answer_checked_against_the_search():
    """Compiled to make the search as well at every use and compare (value and steps)."""
    path = ROOT / "rulesets" / "kingdom_builder.rules"
    with memo.verified():
        checked = regnum.load(path)
    with memo.disabled():
        off = regnum.load(path)
    for seed in (0, 5):
        a = agents.play_random_game(checked, 4, seed, coverage=False)
        b = agents.play_random_game(off, 4, seed, coverage=False)
        assert a.to_json() == b.to_json() and a.peak_steps == b.peak_steps
        assert any(index.values for index in _indexes(a))


# ── what the index cannot answer, the search meets as written ──────────────────

FAULTY = RULES.replace(
    "def owner_of(h) = if count(site(h)) == 0 then none else site(h)[0].owner",
    "def owner_of(h) = site(h)[0].owner")


def test_a_judging_that_fails_fails_as_the_search_does(tmp_path):
    messages = []
    for mode in ("on", "off"):
        folder = tmp_path / mode
        folder.mkdir()
        game = _rules(folder, FAULTY, mode, "faulty.rules").new_game(2, seed=1)
        before = game.to_json()
        with pytest.raises(RuntimeFault) as fault:
            game.play(Move(0, "look", {}))
        assert game.to_json() == before
        messages.append(str(fault.value))
    assert messages[0].replace("/on/", "/off/") == messages[1]
    assert "faulty.rules:27:1: error[E902]: no item 0 in [] (while listing the moves of 'lift')" in messages[0]


LISTED = RULES.replace(
    "def owner_of(h) = if count(site(h)) == 0 then none else site(h)[0].owner",
    "def owner_of(h) = if count(site(h)) == 0 then [h] else site(h)[0].owner")


def test_a_def_whose_value_is_a_list_somewhere_is_searched_as_written(tmp_path):
    seen = []
    for mode in ("on", "off"):
        game = _rules(tmp_path, LISTED, mode, f"listed_{mode}.rules").new_game(2, seed=1)
        game.play(Move(0, "put", {"h": "c"}))
        seen.append(_look(game, 1)[:3] + _look(game, 0)[:3])
        if mode == "on":
            assert list(game.state.memo.indexes.values()) == [None]   # refused for this state
    assert seen[0] == seen[1] == ([], 0, 0, ["c"], 1, 0)


def test_the_step_limit_is_met_where_the_search_meets_it(tmp_path):
    on, off = _rules(tmp_path), _rules(tmp_path, mode="off", name="off.rules")
    game = off.new_game(2, seed=1)
    game.play(Move(0, "put", {"h": "b"}))
    needed = _look(game, 1)[3]
    for rules in (on, off):
        for limit, passes in ((needed, True), (needed - 1, False)):
            game = rules.new_game(2, seed=1, limits=regnum.Limits(steps=limit))
            game.play(Move(0, "put", {"h": "b"}))
            game.legal_moves(1)   # the index of `on` is built, listing `lift`
            if passes:
                assert _look(game, 1)[3] == needed
            else:
                with pytest.raises(LimitExceeded, match=f"more than {limit} steps"):
                    game.play(Move(1, "look", {}))


# ── which searches ─────────────────────────────────────────────────────────────

@pytest.mark.parametrize("search, indexed", [
    ("[h for h in map where owner_of(h) == p]", True),
    ("[h for h in map where p == owner_of(h)]", True),
    ("[h for h in map where owner_of(h) == 1]", True),
    ("[h for h in map where owner_of(h) == none]", True),
    ("[h for h in map where owner_of(h) == p and h != \"a\"]", False),   # not one comparison
    ("[h for h in map where owner_of(h) == count(bag(p))]", False),      # the other side computed
    ("[h for h in map where owner_of(h) == first_seat()]", False),       # a def's call, which charges
    ("[h for h in map where owned(h, p)]", False),                      # not a comparison
    ("[h for h in map where moved(h) == p]", False),                    # reads a variable set
    ("[h for h in map where h == p]", False),                           # no def of the cell
    ("[h for h in neighbours(map, c) where owner_of(h) == p]", False),  # not a board
    ("[n for h in map where owner_of(h) == p for n in neighbours(map, h)]", False),   # not the cell
])
def test_only_a_comparison_of_a_pure_def_of_the_cell_with_a_value_read_as_it_is(tmp_path, search, indexed):
    text = RULES.replace("def mine(p) = [h for h in map where owner_of(h) == p]",
                         "var turns: int = 0\n"
                         "def first_seat() = count(bag(0)) - count(bag(0))\n"
                         "def owned(h, p) = owner_of(h) == p\n"
                         "def moved(h) = if turns > 0 then owner_of(h) else none\n"
                         f"def mine(p) = {search}")
    text = text.replace("    set counted = count(h for h in map where owner_of(h) == player)\n", "").replace(
        "    set others = count(h for h in map where none == owner_of(h))\n", "    set turns = turns + 1\n")
    _, source = _compiled(tmp_path, text)
    assert ("_m_where" in source) is indexed
