"""Native functions that only a saved game can run are written at their first call
(compiler/native.py, NativeCompiler.compile with `lazily`): the VM's form of a procedure that
runs natively, or that no `run` reaches, asks for its callees with the kinds it knows, and a
game's own play never runs that form. What such a function does, once written, is what it
did when written at load; a function a game runs is never left to its first call."""
from __future__ import annotations

import json

import pytest

import regnum
from regnum import agents
from regnum.compiler import native
from toy_rules import load_switched   # tests/unit is on the path of its tests

# outer runs natively with a seat; its VM form (compiled because a saved game may name it)
# knows `p` as a value of no kind, so it asks for inner with other kinds than the game does.
NESTED = '''
game lazy "Lazy"
players 2..2
var total: int = 0

rule inner(p):
    add p + 1 to total

rule outer(p):
    run inner(p)
    run inner(p)

action go():
    pass

flow:
    for q in players:
        run outer(q)
    ask 0 to go
'''

# The VM form of the native action `go` asks for inner first; the native action asks for the
# same function after it.
ACTION = '''
game lazy "Lazy"
players 2..2
var total: int = 0

rule inner(p):
    add 2 to total

action go():
    run inner(player)

flow:
    repeat 2 times:
        ask 0 to go
'''

BUNDLED = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate", "permanent_nobles",
           "lords_ties_use_up_second", "recruit", "harsh_tournament"]


@pytest.fixture
def written(monkeypatch) -> list:
    """The names of the native functions written, in order."""
    names: list = []
    real = native.NativeCompiler._write

    def noting(self, fname, *args):
        names.append(fname)
        return real(self, fname, *args)
    monkeypatch.setattr(native.NativeCompiler, "_write", noting)
    return names


def _loaded(tmp_path, text, name, lazily: bool):
    return load_switched(tmp_path, text, name, [(native, "LAZILY", lazily)])


def _with_outer_frame(rules, p: int):
    """A game saved at the ask, with a frame of outer's VM form under the flow's: once the
    flow has ended, the VM runs it (a place a saved game may name; no move of this game
    leads there, so the game is loaded without replaying its moves)."""
    saved = json.loads(rules.new_game(players=2, seed=1).to_json())
    saved["state"]["flow"]["main"].insert(0, ["rule:outer", 0, {"p": p}])
    return rules.game_from_json(saved, check_moves=False)


def test_a_function_only_a_saved_game_asks_for_is_written_at_its_first_call(tmp_path, written):
    rules = _loaded(tmp_path, NESTED, "nested.rules", True)
    assert written == ["_n0_go", "_n2_outer", "_n4_inner"]
    game = _with_outer_frame(rules, 5)
    assert game.state.vars["total"] == 6            # 2 × (0 + 1) + 2 × (1 + 1)
    written.clear()
    game.play(game.legal_moves(0)[0])
    assert written == ["_n6_inner"]                 # at its first call only, for both calls
    assert game.state.vars["total"] == 18 and game.is_over

    eager = _loaded(tmp_path, NESTED, "eager.rules", False)
    assert written[1:] == ["_n0_go", "_n2_outer", "_n4_inner", "_n6_inner"]
    again = _with_outer_frame(eager, 5)
    again.play(again.legal_moves(0)[0])
    assert json.loads(again.to_json())["state"] == json.loads(game.to_json())["state"]


def test_asked_for_again_by_a_game_s_code_it_is_written_at_load(tmp_path, written):
    rules = _loaded(tmp_path, ACTION, "action.rules", True)
    assert written == ["_n1_go", "_n0_inner"]       # inner written as the native action asks for it
    game = rules.new_game(players=2, seed=1)
    for _ in range(2):
        game.play(game.legal_moves(0)[0])
    assert game.is_over and game.state.vars["total"] == 4
    assert written == ["_n1_go", "_n0_inner"]       # nothing left to a first call


def test_kingdom_builder_leaves_two_functions_to_their_first_call(tmp_path, written):
    _loaded(tmp_path, None, "kingdom_builder", True)
    lazily = [name.split("_", 2)[2] for name in written]
    written.clear()
    _loaded(tmp_path, None, "kingdom_builder", False)
    eagerly = [name.split("_", 2)[2] for name in written]
    # the VM forms of final_scoring and assemble_board ask for them with other kinds
    assert sorted(eagerly) == sorted(lazily + ["score_goal", "place_section"])


@pytest.mark.parametrize("name", BUNDLED)
def test_games_play_alike_and_write_nothing(tmp_path, written, name):
    lazy = _loaded(tmp_path, None, name, True)
    eager = _loaded(tmp_path, None, name, False)
    assert lazy.model.rules == eager.model.rules     # what coverage counts
    written.clear()
    for seed in (1, 2):
        a = agents.play_random_game(lazy, 3, seed)
        b = agents.play_random_game(eager, 3, seed)
        assert a.to_json() == b.to_json() and a.hits == b.hits and a.peak_steps == b.peak_steps
    assert written == []                              # every function a game runs was written at load
