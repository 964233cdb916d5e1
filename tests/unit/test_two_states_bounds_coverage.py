"""What the fuzzer reads from a ruleset besides its rules: invariants over two states
(`previous`), the promised move bound (`ends within`), and coverage of tie-break policies
and of every way a game ends."""
from __future__ import annotations


import pytest

import regnum
from toy_rules import load   # tests/unit is on the path of its tests
from regnum import Move




COUNTER = """
    game counter "Counter"
    players 2..2
    var total: int = 0
    action step(n in [1, -1]):
        add n to total
        add n to score(player)
    flow:
        repeat 3 times:
            ask 0 to step
    invariant total_never_falls: total >= previous(total) else "the total never falls"
    invariant scores_never_decrease: all(score(p) >= previous(score(p)) for p in players)
"""


def test_previous_is_the_state_before_the_last_move(tmp_path):
    rules = load(tmp_path, COUNTER)
    game = rules.new_game(2)
    assert game.check_invariants() == []          # no move yet: previous is now
    game.play(Move(0, "step", {"n": 1}))
    assert game.check_invariants() == []          # 1 >= 0
    before = game.copy()
    game.play(Move(0, "step", {"n": -1}))
    assert [m.split(":")[0] for m in game.check_invariants()] == ["total_never_falls", "scores_never_decrease"]
    assert game.check_invariants()[0].startswith("total_never_falls: the total never falls (")
    assert before.check_invariants() == []       # a copy keeps its own previous state
    again = before.copy()
    again.play(Move(0, "step", {"n": 1}))
    assert again.check_invariants() == []
    loaded = rules.game_from_json(game.to_json())
    assert loaded.check_invariants() == []       # a loaded game has no earlier state


def test_a_refused_move_keeps_the_previous_state(tmp_path):
    game = load(tmp_path, COUNTER).new_game(2)
    game.play(Move(0, "step", {"n": -1}))
    with pytest.raises(regnum.IllegalMove):
        game.play(Move(0, "step", {"n": 5}))
    assert len(game.check_invariants()) == 2


def test_previous_is_read_only_by_invariants(tmp_path):
    game = load(tmp_path, COUNTER).new_game(2)
    with pytest.raises(regnum.RulesetError) as err:
        game.evaluate("previous(total)")
    assert [d.code for d in err.value.diagnostics] == ["E314"]
    with pytest.raises(regnum.RulesetError) as err:
        load(tmp_path, COUNTER + "    def was() = previous(total)\n    invariant x: was() >= 0\n")
    assert [d.code for d in err.value.errors] == ["E314"]


def test_ends_within_is_the_move_bound(tmp_path):
    rules = load(tmp_path, COUNTER.replace("    var total", "    const rounds = 3\n    ends within rounds * 2 moves\n    var total"))
    assert rules.move_bound == 6 and rules.model.move_bound == 6
    assert load(tmp_path, COUNTER).move_bound is None
    assert regnum.load("kings_road").move_bound == 915
    with pytest.raises(regnum.RulesetError) as err:
        load(tmp_path, COUNTER.replace("    var total", "    ends within 3 moves\n    ends within 4 moves\n    var total"))
    assert [d.code for d in err.value.errors] == ["E102"]


TIES = """
    game ties "Ties"
    players 3..3
    import majority
    var points per player: int = [2, 2, 1][player]
    var bonus per player: int = [0, 1, 1][player]
    scoring most():
        majority points(p) for p in players
        pays [3, 2, 1]
        ties by highest bonus(p) then take_highest
    scoring even():
        majority 1 for p in players
        pays [3, 2, 1]
        ties shared_places
    rule tally():
        score most()
        score even()
    phase ask_and_tally:
        ask 0 to go
        score most()
        score even()
    action go():
        pass
    flow:
        run tally()
        run ask_and_tally
        if points(0) > 5:
            end game
        announce "done"
"""


def test_tie_break_policies_and_ends_are_counted(tmp_path):
    rules = load(tmp_path, TIES)
    assert "rule:tally" in rules.model.natives and "phase:ask_and_tally" not in rules.model.natives
    listed = [(kind, name) for kind, name, _ in rules.rules if kind in ("tiebreak", "end")]
    assert listed == [("tiebreak", "most.by highest bonus(p)"), ("tiebreak", "most.take_highest"),
                      ("tiebreak", "shared_places.share_rank"), ("end", "flow@28"), ("end", "flow")]
    game = rules.new_game(3)
    counted = {k: v for k, v in game.hits.items() if k.startswith(("tiebreak:", "end:"))}
    # the native rule: the key splits the tied block of P0 and P1 (nothing left for take_highest);
    # the three players equal on 1 share a place
    assert counted == {"tiebreak:most.by highest bonus(p)": 1, "tiebreak:shared_places.share_rank": 1}
    game.play(Move(0, "go", {}))
    counted = {k: v for k, v in game.hits.items() if k.startswith(("tiebreak:", "end:"))}
    # the VM's phase counts as the native rule did; the flow then runs to its end
    assert counted == {"tiebreak:most.by highest bonus(p)": 2, "tiebreak:shared_places.share_rank": 2,
                       "end:flow": 1}
    assert game.is_over


def test_an_end_game_statement_is_counted_where_it_is_written(tmp_path):
    rules = load(tmp_path, """
    game ender "Ender"
    players 2..2
    rule finish(n):
        if n > 0:
            end game
    flow:
        run finish(0)
        run finish(1)
        announce "never"
    """)
    listed = [(kind, name) for kind, name, _ in rules.rules if kind == "end"]
    assert listed == [("end", "rule:finish@6"), ("end", "flow")]
    game = rules.new_game(2)
    assert game.is_over
    assert game.hits["end:rule:finish@6"] == 1 and "end:flow" not in game.hits
    assert game.hits["rule:finish"] == 2
