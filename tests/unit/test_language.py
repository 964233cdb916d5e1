"""Language constructs, each exercised by a tiny ruleset written for the test."""
from __future__ import annotations


import pytest

import regnum
from toy_rules import load   # tests/unit is on the path of its tests
from regnum import IllegalMove, Move




TOKENS = """
    game toy "Toy"
    players 2..3
    piece token:
        owner: player
        value: int = 0
    board line: graph
        nodes a, b, c, d
        edges a - b, b - c, c - d
    zone pool per player: public
    zone cell per line: public
    zone bag: hidden
    var placed: int = 0
    setup:
        for p in players:
            create 3 token(owner: p) in pool(p)
"""


def test_prefer_restricts_to_preferred_places_when_any_exist(tmp_path):
    rules = load(tmp_path, TOKENS + """
    flow:
        repeat 2 times:
            for p in players:
                ask p to place
    action place(at in [a, b, c, d]):
        require empty: count(cell(at)) == 0 else "the cell must be empty"
        prefer next_to_own: any(count(t for t in cell(n) where t.owner == player) > 0
                                for n in neighbours(line, at))
            else "you must build next to your own tokens when you can"
        move 1 from pool(player) to cell(at)
    """)
    game = rules.new_game(2)
    assert [m.args["at"] for m in game.all_legal_moves()] == ["a", "b", "c", "d"]
    game.play(Move(0, "place", {"at": "a"}))
    assert [m.args["at"] for m in game.all_legal_moves()] == ["b", "c", "d"]
    game.play(Move(1, "place", {"at": "d"}))
    assert [m.args["at"] for m in game.all_legal_moves()] == ["b"]
    before = game.to_json()
    with pytest.raises(IllegalMove) as err:
        game.play(Move(0, "place", {"at": "c"}))
    assert err.value.rule == "place.next_to_own"
    assert "next to your own" in err.value.reason
    with pytest.raises(IllegalMove) as err:
        game.play(Move(0, "place", {"at": "a"}))
    assert err.value.rule == "place.empty"
    with pytest.raises(IllegalMove) as err:
        game.play(Move(0, "place", {"at": "z"}))
    assert err.value.rule == "place.at"
    assert game.to_json() == before


def test_trigger_fires_when_a_piece_enters_a_zone(tmp_path):
    rules = load(tmp_path, TOKENS + """
    flow:
        for p in players:
            ask p to place
    action place(at in [a, b, c, d]):
        move 1 from pool(player) to cell(at)
    trigger bonus when t enters cell(n) where n == c:
        add 5 to score(t.owner)
        add 1 to placed
    """)
    game = rules.new_game(2)
    game.play(Move(0, "place", {"at": "c"}))
    game.play(Move(1, "place", {"at": "b"}))
    assert game.is_over
    assert game.scores == [5, 0]
    assert game.state.vars["placed"] == 1
    assert game.hits["trigger:bonus"] == 1
    assert game.winners == [0]


def test_simultaneous_choices_are_secret_until_revealed(tmp_path):
    rules = load(tmp_path, TOKENS + """
    zone secret per player: owner
    zone shown per player: public
    flow:
        simultaneously for p in players:
            ask p to hide
        for p in players:
            move secret(p) to shown(p)
    action hide(t in pool(player)):
        move t to secret(player)
    """)
    game = rules.new_game(3)
    assert game.to_move == [0, 1, 2]
    game.play(Move(1, "hide", {"t": "token"}))
    assert game.to_move == [0, 2]
    seen_by_0 = game.observation(0)["zones"]
    assert seen_by_0["secret#1"] == {"count": 1, "revealed": []}
    assert len(game.observation(1)["zones"]["secret#1"]) == 1
    game.play(Move(0, "hide", {"t": "token"}))
    game.play(Move(2, "hide", {"t": "token"}))
    assert game.is_over
    assert [len(game.observation(0)["zones"][f"shown#{p}"]) for p in range(3)] == [1, 1, 1]


def test_shuffle_is_deterministic_per_seed(tmp_path):
    rules = load(tmp_path, """
    game deck "Deck"
    players 2..2
    piece card:
        rank: int
    zone pile: hidden
    zone table: public
    setup:
        for n in range(1, 21):
            create 1 card(rank: n) in pile named n
        shuffle pile
    flow:
        move 3 from pile to table
    """)
    order = lambda seed: [r["label"] for r in (rules.new_game(2, seed).state.pieces[i]
                                               for i in rules.new_game(2, seed).state.zones["table"])]
    assert order(1) == order(1)
    assert order(1) != order(2)


def test_end_game_and_winner_chain(tmp_path):
    rules = load(tmp_path, TOKENS + """
    var bonus per player: int = 0
    flow:
        for p in players:
            add 3 to score(p)
        set bonus(1) = 1
        end game
        add 100 to score(0)
    winner p: highest score(p) then highest bonus(p) then shared
    """)
    game = rules.new_game(3)
    assert game.is_over
    assert game.scores == [3, 3, 3]
    assert game.winners == [1]


def test_majority_policies(tmp_path):
    base = TOKENS + """
    flow:
        set placed = 1
        score board_majority()
    def held(p) = [4, 4, 2][p]
    scoring board_majority():
        majority held(p) for p in players
        pays [10, 6, 3]
        ties {policy}
    """
    expected = {"take_lowest": [6, 6, 3], "take_highest": [10, 10, 3],
                "share_rank": [10, 10, 6], "split_evenly": [8, 8, 3],
                "by lowest p": [10, 6, 3], "by highest p": [6, 10, 3]}
    for policy, scores in expected.items():
        rules = load(tmp_path, base.replace("{policy}", policy), name=f"m{len(policy)}.rules")
        assert rules.new_game(3).scores == scores, policy


def test_variant_replaces_and_removes_named_rules():
    base = regnum.load("kings_road")
    variant = regnum.load("rulesets/variants/permanent_nobles.rules")
    assert variant.variant == "permanent_nobles"
    assert variant.name == base.name
    names = {inv.name for inv in variant.model.invariants}
    assert names == {"markers_conserved", "score_marker_on_track", "nobles_only_on_board", "cards_conserved",
                     "three_cards_a_round", "only_dragons_and_witches_leave", "dragons_spent",
                     "regions_scored_once", "scores_never_decrease", "scores_not_negative", "rounds_count_up",
                     "spent_cards_stay_spent", "one_noble_per_player_per_region"}
    assert "one_noble_per_region" in {inv.name for inv in base.model.invariants}


def test_runaway_loop_is_stopped_with_a_location(tmp_path):
    with pytest.raises(regnum.RulesetError) as err:
        load(tmp_path, TOKENS + """
    flow:
        while true:
            add 1 to placed
    """).new_game(2)
    assert err.value.diagnostics[0].code == "E901"
    assert err.value.diagnostics[0].span.line > 0


def test_rule_coverage_counts(tmp_path):
    rules = regnum.load("kings_road")
    game = rules.new_game(2, seed=3)
    import random
    rnd = random.Random(3)
    while not game.is_over:
        game.play(rnd.choice(game.all_legal_moves()))
    assert game.hits["action:pick"] == game.move_count
    assert game.hits["phase:choose_cards"] >= 1
    assert game.hits["scoring:region_majority"] >= 8


def test_ruleset_text_is_data_never_code(tmp_path):
    # Expressions are compiled to Python; names and strings must only ever become literals.
    rules = load(tmp_path, r'''
    game quotes "Quotes"
    players 2..2
    const evil = "\"); __import__('os').system('false') #"
    const table = {__class__: 1, e: 2}
    var said: str = ""
    flow:
        set said = evil + "{" + "}"
        add table.__class__ + table.e to score(0)
    ''')
    game = rules.new_game(2)
    assert game.state.vars["said"] == "\"); __import__('os').system('false') #{}"
    assert game.scores == [3, 0]


def test_errors_inside_rules_that_never_wait_point_at_their_line(tmp_path):
    # `fail` never asks, so it runs as a compiled Python function (compiler/native.py);
    # its errors must still name the ruleset's line, like those of the VM.
    rules = load(tmp_path, TOKENS + """
    flow:
        run fail(2)
    rule fail(n):
        add n to placed
        let xs = [1, 2]
        add xs[n] to placed
    """)
    with pytest.raises(regnum.RulesetError) as err:
        rules.new_game(2)
    diagnostic = err.value.diagnostics[0]
    assert diagnostic.code == "E902"
    assert diagnostic.span.line == 23
    assert "no item 2" in diagnostic.message
    assert "rule:fail" in rules.model.natives


def test_rules_that_wait_stay_in_the_vm_and_the_rest_are_native():
    model = regnum.load("kings_road").model
    assert {"rule:resolve_cards", "rule:score_region", "phase:score_regions", "action:pick"} \
        <= set(model.natives)
    assert "phase:choose_cards" not in model.natives      # it asks the players
    assert "phase:choose_cards" in model.codes


def test_games_are_equal_when_their_states_are_whatever_the_order_of_simultaneous_picks():
    rules = regnum.load("kings_road")
    a, b = rules.new_game(2), rules.new_game(2)
    a.play(Move(0, "pick", {"card": "dark_tower"}))
    a.play(Move(1, "pick", {"card": "witch"}))
    b.play(Move(1, "pick", {"card": "witch"}))
    b.play(Move(0, "pick", {"card": "dark_tower"}))
    assert a == b and a.to_json() != b.to_json()   # the logs differ, the states do not
    b.play(Move(0, "pick", {"card": "temple_ruins"}))
    assert a != b


@pytest.mark.parametrize("call", [
    lambda g: g.observation(7), lambda g: g.observation("a"), lambda g: g.legal_moves(-1),
    lambda g: g.render(2),
])
def test_bad_seats_are_refused(call):
    game = regnum.load("kings_road").new_game(2)
    with pytest.raises(ValueError, match="seats of this game are 0–1"):
        call(game)


def test_bad_player_counts_and_seeds_are_refused_with_their_value():
    rules = regnum.load("kings_road")
    with pytest.raises(ValueError, match=r"not '3'"):
        rules.new_game(players="3")
    with pytest.raises(ValueError, match=r"a seed is an integer, not 'x'"):
        rules.new_game(3, seed="x")


def test_secret_variables_are_shown_only_to_whom_they_may_be(tmp_path):
    rules = load(tmp_path, """
    game bids "Bids"
    players 2..2
    var bid per player: int = 0, owner
    var pot: int = 0, hidden
    flow:
        simultaneously for p in players:
            ask p to offer
        for p in players:
            add bid(p) to pot
    action offer(amount in [1, 2, 3]):
        set bid(player) = amount
    """)
    game = rules.new_game(2)
    game.play(Move(0, "offer", {"amount": 3}))
    assert game.observation(0)["player_vars"][0]["bid"] == 3
    assert game.observation(1)["player_vars"][0]["bid"] == "hidden"
    assert game.observation(None)["player_vars"][0]["bid"] == "hidden"
    assert "bid=3" not in game.render(1) and "bid=3" in game.render(0)
    game.play(Move(1, "offer", {"amount": 1}))
    assert game.state.vars["pot"] == 4
    assert game.observation(0)["vars"]["pot"] == "hidden"


def test_a_rule_treats_each_call_by_the_kind_of_its_arguments(tmp_path):
    # Rules are compiled once per kind of arguments: a seat shows as P0, a zone passed by
    # reference is moved as a whole or counted as its pieces, a number stays a number.
    rules = load(tmp_path, """
    game spec "Spec"
    players 2..2
    piece c:
        v: int = 0
    zone z: public
    zone y: public
    zone w: public
    setup:
        create 3 c() in z
    rule show(a):
        announce "{a}"
    rule mv(a, dest):
        move a to dest
    rule cnt(a):
        let k = a
        announce "{count(k)}"
    flow:
        run show([1, 2])
        run show(z)
        run show(1)
        run show(first(p for p in players))
        run cnt([1])
        run cnt(z)
        run mv(z[0], y)
        run mv(z, w)
        announce "{count(y)} {count(w)} {[p + 10 for p in players]}"
    """)
    game = rules.new_game(2)
    assert game.events == ["[1, 2]", "[c, c, c]", "1", "P0", "1", "3", "1 2 [10, 11]"]
    assert game.hits["rule:show"] == 4 and game.hits["rule:mv"] == 2


def test_equal_pieces_are_one_option_and_different_ones_are_told_apart(tmp_path):
    rules = load(tmp_path, """
    game coins "Coins"
    players 2..2
    piece coin:
        value: int
    zone purse: public
    zone table: public
    setup:
        create 1 coin(value: 1) in purse
        create 2 coin(value: 3) in purse
    flow:
        ask 0 to spend
    action spend(c in purse):
        move c to table
    """)
    game = rules.new_game(2)
    assert [m.args["c"] for m in game.all_legal_moves()] == ["coin#0", "coin#1"]
    game.play(Move(0, "spend", {"c": "coin#1"}))
    assert [game.state.pieces[i]["value"] for i in game.state.zones["table"]] == [3]


def test_coverage_of_a_rule_compiled_for_several_kinds_of_arguments_is_counted_once(tmp_path):
    rules = load(tmp_path, TOKENS + """
    zone tray: public
    rule show(x):
        if true:
            add 1 to placed
    flow:
        run show(1)
        run show(first(p for p in players))
        run show(tray)
        ask 0 to wait
    action wait():
        run show(2)
    """)
    game = rules.new_game(2)
    branches = [name for kind, name, _ in rules.rules if kind == "branch"]
    assert branches == [f"branch:rule:show@{branches[0].rsplit('@')[1]}"]
    assert game.hits[branches[0]] == 3 and game.hits["rule:show"] == 3
    game.play(Move(0, "wait", {}))
    assert game.hits[branches[0]] == 4 and game.hits["rule:show"] == 4
