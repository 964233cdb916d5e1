"""Shortcuts of the per-move pipeline that must not change what a game does:

- the labels of a domain of pieces all named apart are kept as (piece, label) pairs
  (decisions._Apart), which `_distinct` hands back as they are: the same choices as the
  labels as a dict give, with or without pieces already taken;
- a move's journal gathers the ids of the frames it found only when the VM first needs
  them (Journal.frame_ids), and the frame the move answered is known to be its own: a
  fault after the move changed frames it found (in the main flow and in the threads of a
  simultaneous step) still leaves the game byte for byte as it was;
- `create N …` makes its N pieces at once (Ctx._create_alike): the same state, size and
  limits as N pieces made one by one, undone alike."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, strategies as st

from regnum import Move, RulesetError
from regnum.engine import decisions
from regnum.engine.state import Journal
from toy_rules import load   # tests/unit is on the path of its tests


def _ctx(labels: list[str]):
    pieces = [{"type": "token", "label": label, "n": i} for i, label in enumerate(labels)]
    return SimpleNamespace(state=SimpleNamespace(pieces=pieces))


@given(st.lists(st.integers(0, 7), max_size=8), st.sets(st.integers(0, 7), max_size=3),
       st.lists(st.sampled_from("abcdefgh"), min_size=8, max_size=8))
def test_pairs_of_pieces_named_apart_are_the_choices_the_labels_give(values, bound, names):
    ctx = _ctx(names)
    labels = decisions._piece_labels(ctx, values)
    reference = {v: names[v] for v in values}   # every piece named by its label
    apart = len(set(reference.values())) == len(values)
    assert (type(labels) is decisions._Apart) == apart
    as_dict = labels.as_dict() if apart else labels
    if apart:
        assert as_dict == reference and list(as_dict) == values
        assert labels.as_dict() is as_dict   # made once
    got = decisions._distinct(values, labels, bound)
    assert got == decisions._distinct(values, as_dict, bound)
    if apart and not bound:
        assert got == [(v, names[v]) for v in values]
        got.append("changed")   # the caller's own list: the next listing is not changed
        assert decisions._distinct(values, labels, ()) == [(v, names[v]) for v in values]


def test_pairs_stand_for_their_own_domain_only():
    ctx = _ctx(["a", "b", "c"])
    values = [2, 0]
    labels = decisions._piece_labels(ctx, values)
    assert decisions._distinct(values, labels, ()) == [(2, "c"), (0, "a")]
    # another list (equal or not) is judged by the labels, not by the pairs
    assert decisions._distinct([0, 2], labels, ()) == [(0, "a"), (2, "c")]
    assert decisions._distinct([2, 0, 2], labels, ()) == [(2, "c"), (0, "a")]


def test_a_domain_with_a_value_that_is_not_a_piece_keeps_the_dict():
    ctx = _ctx(["a", "b"])
    assert decisions._piece_labels(ctx, [1, None, 0]) == {1: "b", 0: "a"}
    assert decisions._piece_labels(ctx, [1, 1]) == {1: "b"}


NAMED = """
game named "Named"
players 2..2
piece chip:
    owner: player
zone pool per player: public
zone pile: public
setup:
    for p in players:
        create 1 chip(owner: p) in pool(p) named "red"
        create 1 chip(owner: p) in pool(p) named "blue"
        create 1 chip(owner: p) in pool(p) named "green"
flow:
    repeat until false:
        for p in players:
            ask p to take
action take(a in pool(player), b in pool(player)):
    move a to pile
"""


def test_a_second_piece_parameter_never_takes_the_first_ones_piece(tmp_path):
    game = load(tmp_path, NAMED, "named.rules").new_game(players=2, seed=0)
    pairs = [(m.args["a"], m.args["b"]) for m in game.legal_moves(0)]
    assert pairs == [(a, b) for a in ("red", "blue", "green") for b in ("red", "blue", "green") if a != b]
    with pytest.raises(Exception, match="choices: blue, green, red"):
        game.play(Move(0, "take", {"a": "black", "b": "red"}))


FRAMES = """
game frames "Frames"
players 2..2
var total: int = 0
var k: int = 1
var rounds: int = 0
flow:
    repeat until false:
        set rounds = rounds + 1
        run turn(0)
        let half = rounds * 2
        add half to total
        add 10 // k to total
        simultaneously for p in players:
            run turn(p)
            let mine = p + 1
            add 100 // (k * mine) to total

rule turn(p):
    let seen = rounds
    ask p to give
    set rounds = seen + 1

action give(n in [1, 0]):
    set k = n
"""


def _everything(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.move_count


def test_a_fault_after_the_frames_found_changed_leaves_the_game_as_it_was(tmp_path):
    game = load(tmp_path, FRAMES, "frames.rules").new_game(players=2, seed=0, narrate=True)
    before = _everything(game)
    with pytest.raises(RulesetError):
        game.play(Move(0, "give", {"n": 0}))   # turn returns, the flow's frame runs on: 10 // 0
    assert _everything(game) == before
    game.play(Move(0, "give", {"n": 1}))
    assert game.to_move == [0, 1]
    # in a simultaneous step: the thread's `turn` returns into the thread's block, 100 // 0
    before = _everything(game)
    with pytest.raises(RulesetError):
        game.play(Move(0, "give", {"n": 0}))
    assert _everything(game) == before
    with pytest.raises(RulesetError):
        game._play_nth(1, lambda n: 1)
    assert _everything(game) == before
    game.play(Move(1, "give", {"n": 1}))
    game.play(Move(0, "give", {"n": 1}))
    assert game.to_move == [0] and game.state.vars["total"] > 0


def test_the_frames_found_are_gathered_from_the_flow_as_the_move_found_it(tmp_path):
    game = load(tmp_path, FRAMES, "frames.rules").new_game(players=2, seed=0)
    game.play(Move(0, "give", {"n": 1}))
    flow = game.state.flow
    journal = Journal(game.state)
    assert journal.frames is None
    found = [f for f in flow["main"]] + [f for t in flow["threads"] for f in t["stack"]]
    assert journal.frame_ids() == {id(f) for f in found} and len(found) == len(flow["main"]) + 4
    assert journal.frame_ids() is journal.frame_ids()


CREATE = """
game create "Create"
players 2..2
piece token:
    tags: list of str = ["a", "b", "c"]
    note: str = "x"
    weight: int = 1
zone pile: public
zone other: public
var n: int = 4
flow:
    repeat until false:
        ask 0 to at_once or one_by_one or too_many
action at_once():
    create n token(note: "made at once", weight: 7) in pile
    create 1 token() in other
action one_by_one():
    repeat n times:
        create 1 token(note: "made at once", weight: 7) in pile
    create 1 token() in other
action too_many():
    create 3 token(tags: ["z"]) in pile
    create 1 token() in other
    set n = 1 // 0
"""


def test_pieces_created_at_once_are_those_created_one_by_one_and_a_fault_undoes_them(tmp_path):
    from regnum import Limits
    rules = load(tmp_path, CREATE, "create.rules")
    ways = {}
    for way in ("at_once", "one_by_one"):
        game = rules.new_game(players=2, seed=0)
        game.play(Move(0, way, {}))
        ways[way] = (game.to_dict()["state"], game._size_bound)
    assert ways["at_once"] == ways["one_by_one"]
    state = game._state
    assert [state.pieces[i] for i in state.zones["pile"]] == [
        {"type": "token", "label": "token", "tags": ["a", "b", "c"], "note": "made at once", "weight": 7}] * 4
    assert state.zones["other"] == [4] and state.where == ["pile"] * 4 + ["other"]
    # A fault later in the move undoes the pieces created at once, and the state is as it was.
    before = game.to_json()
    with pytest.raises(RulesetError, match="division by zero|by zero"):
        game.play(Move(0, "too_many", {}))
    assert game.to_json() == before
    # The limit on pieces: the first move makes 5, the second would pass 8 at its fourth
    # token, whether made at once or one by one.
    for way in ("at_once", "one_by_one"):
        game = rules.new_game(players=2, seed=0, limits=Limits(pieces=8))
        game.play(Move(0, way, {}))
        before = game.to_json()
        with pytest.raises(RulesetError) as failed:
            game.play(Move(0, way, {}))
        assert failed.value.diagnostics[0].message.startswith("more than 8 pieces created")
        assert game.to_json() == before
