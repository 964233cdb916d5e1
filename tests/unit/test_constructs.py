"""The constructs added with boards of every shape, each on a small ruleset of its own:
data files, options, random draws, can(), leaves triggers, grouped prefers, labels, nested
comprehensions, multi-line expressions, number and text map keys, text()."""
from __future__ import annotations

import json
import textwrap

import pytest

import regnum
from regnum import IllegalMove, Move


def write(folder, name: str, text: str):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load(tmp_path, text: str) -> regnum.Ruleset:
    return regnum.load(write(tmp_path, "game.rules", text))


def diagnostics(tmp_path, text: str) -> list:
    try:
        return list(load(tmp_path, text).warnings)
    except regnum.RulesetError as err:
        return list(err.diagnostics)


# ── data files ────────────────────────────────────────────────────────────────

DATA_RULES = """
game atlas "Atlas"
players 2..2
const atlas from "data/atlas.json"
flow:
    announce "{atlas.maps.east.size} {atlas.names[1]} {atlas.flags}"
"""


def test_a_json_data_file_becomes_a_constant(tmp_path):
    write(tmp_path, "data/atlas.json", '{"maps": {"east": {"size": 4}}, "names": ["a", "b"], "flags": [true, null]}')
    game = load(tmp_path, DATA_RULES).new_game(2)
    assert game.events == ["4 b [true, none]"]


def test_a_yaml_data_file_and_number_keys(tmp_path):
    write(tmp_path, "data/atlas.yaml", "maps:\n  east: {size: 7}\nnames: [x, y]\nflags: {1: one}\n")
    game = load(tmp_path, DATA_RULES.replace("atlas.json", "atlas.yaml")).new_game(2)
    assert game.events == ["7 y {1: one}"]


def test_the_data_is_part_of_the_ruleset_hash(tmp_path):
    write(tmp_path, "data/atlas.json", '{"maps": {"east": {"size": 4}}, "names": ["a", "b"], "flags": []}')
    first = load(tmp_path, DATA_RULES).hash
    write(tmp_path, "data/atlas.json", '{"maps": {"east": {"size": 5}}, "names": ["a", "b"], "flags": []}')
    assert load(tmp_path, DATA_RULES).hash != first


def test_a_misspelt_key_of_the_data_is_a_checker_error(tmp_path):
    write(tmp_path, "data/atlas.json", '{"maps": {"east": {"size": 4}}, "names": [], "flags": []}')
    found = diagnostics(tmp_path, DATA_RULES.replace("atlas.maps.east", "atlas.mapz.east"))
    assert [(d.code, d.hint) for d in found if d.code == "E107"] == [("E107", "did you mean 'maps'?")]


@pytest.mark.parametrize("path,why", [
    ("data/missing.json", "cannot read data file"),
    ("/etc/passwd.json", "relative to the ruleset"),
    ("../outside.json", "outside the ruleset's folder"),
    ("data/atlas.txt", "neither JSON nor YAML"),
])
def test_data_files_are_read_only_from_the_rulesets_folder(tmp_path, path, why):
    write(tmp_path, "outside.json", "{}")
    write(tmp_path, "data/atlas.txt", "{}")
    found = diagnostics(tmp_path / "game", DATA_RULES.replace("data/atlas.json", path))
    assert [d.code for d in found] == ["E008"] and why in found[0].message
    assert found[0].span.line == 4


def test_malformed_data_points_into_the_file(tmp_path):
    write(tmp_path, "data/atlas.json", '{\n  "maps": {"east": 4,}\n}')
    (found,) = diagnostics(tmp_path, DATA_RULES)
    assert found.code == "E009" and found.span.file.endswith("data/atlas.json")
    assert (found.span.line, found.span.column) == (2, 22)   # the '}' after the comma
    assert "malformed JSON" in found.render()


@pytest.mark.parametrize("content,why", [
    ('{"a": 1.5}', "a number with a fraction"),
    ('{"a": NaN}', "NaN is not a value"),
    ("[" * 150 + "]" * 150, "nested"),
])
def test_data_values_the_language_does_not_have(tmp_path, content, why):
    write(tmp_path, "data/atlas.json", content)
    (found,) = diagnostics(tmp_path, DATA_RULES)
    assert found.code == "E009" and why in found.message


def test_yaml_aliases_cannot_stand_for_a_huge_tree(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    write(tmp_path, "data/atlas.yaml", "\n".join(lines) + "\n")
    (found,) = diagnostics(tmp_path, DATA_RULES.replace("atlas.json", "atlas.yaml"))
    assert found.code == "E009" and "more than 1000000 values" in found.message


# ── options ──────────────────────────────────────────────────────────────────

OPTIONS = """
game race "Race"
players 2..3
enum colour: red, blue
option goal: int = 3
    require positive: goal > 0 else "the goal is at least 1"
option colours: list of colour = []
option opener: player = 0
flow:
    let p = opener
    repeat until any(score(q) >= goal for q in players):
        ask p to step
        set p = (p + 1) % count(players)
action step():
    add 1 to score(player)
"""


def test_options_have_defaults_and_are_recorded_in_the_log(tmp_path):
    rules = load(tmp_path, OPTIONS)
    assert rules.options == {"goal": ("int", f"{rules.path}:5:1"), "colours": ("list of colour", f"{rules.path}:7:1"),
                             "opener": ("player", f"{rules.path}:8:1")}
    game = rules.new_game(3, options={"goal": 2, "opener": 2})
    assert game.options == {"goal": 2, "colours": [], "opener": 2} and game.to_move == [2]
    while not game.is_over:
        game.play(game.all_legal_moves()[0])
    assert game.scores == [1, 1, 2] and game.log.options == {"goal": 2, "colours": [], "opener": 2}
    assert regnum.replay(rules, game.log.to_json()) == game


@pytest.mark.parametrize("options,message", [
    ({"goal": 0}, "option 'goal' = 0: the goal is at least 1 (rule 'goal.positive'"),
    ({"goal": "3"}, "option 'goal' (int): a whole number is expected, not '3'"),
    ({"goal": True}, "a whole number is expected, not True"),
    ({"colours": ["red", "green"]}, "item 1: one of blue, red is expected, not 'green'"),
    ({"opener": 3}, "a seat of this game is expected, not 3"),
    ({"gaol": 3}, "Race has no option 'gaol'; did you mean 'goal'?"),
])
def test_options_are_checked_with_a_message_naming_them(tmp_path, options, message):
    rules = load(tmp_path, OPTIONS)
    with pytest.raises(regnum.OptionError) as refused:
        rules.new_game(3, options=options)
    assert message in str(refused.value)


def test_an_option_cannot_be_set_or_used_by_a_constant(tmp_path):
    found = diagnostics(tmp_path, OPTIONS + """
const twice = goal * 2
phase cheat:
    set goal = 9
""")
    assert sorted((d.span.line, d.code) for d in found if d.is_error) == [(17, "E307"), (19, "E208")]


def test_a_replayed_log_with_options_the_ruleset_refuses_is_a_log_error(tmp_path):
    rules = load(tmp_path, OPTIONS)
    log = json.loads(rules.new_game(2).log.to_json())
    log["options"] = {"goal": -1}
    with pytest.raises(regnum.LogError, match="log field 'options'.*at least 1"):
        regnum.replay(rules, log)


# ── random draws ──────────────────────────────────────────────────────────────

DRAWS = """
game draws "Draws"
players 2..4
var picked: list of int = []
var one: int = 0
flow:
    set picked = random 3 of range(10)
    set one = random one of [7, 8, 9]
    ask 0 to again
action again():
    set picked = random 2 of picked
"""


def test_random_draws_come_from_the_seeded_generator(tmp_path):
    rules = load(tmp_path, DRAWS)
    a, b, c = rules.new_game(2, seed=5), rules.new_game(2, seed=5), rules.new_game(2, seed=6)
    assert a.to_json() == b.to_json()
    picked = a.state.vars["picked"]
    assert len(picked) == 3 and len(set(picked)) == 3 and set(picked) <= set(range(10))
    assert a.state.vars["one"] in (7, 8, 9)
    assert any(rules.new_game(2, seed=s).state.vars["picked"] != picked for s in range(6, 12))
    a.play(Move(0, "again", {}))
    b.play(Move(0, "again", {}))
    assert a == b and set(a.state.vars["picked"]) <= set(picked) and a.state.rng != c.state.rng


def test_random_from_too_short_a_list_is_a_runtime_error(tmp_path):
    rules = load(tmp_path, DRAWS.replace("random 3 of range(10)", "random 3 of [1]"))
    with pytest.raises(regnum.RulesetError) as failed:
        rules.new_game(2)
    assert failed.value.diagnostics[0].code == "E902"
    assert "random 3 of a list of 1" in failed.value.diagnostics[0].message
    assert failed.value.diagnostics[0].span.line == 7


def test_random_stands_only_as_the_value_of_let_or_set(tmp_path):
    (found,) = diagnostics(tmp_path, DRAWS.replace("ask 0 to again", "announce \"{random one of [1]}\""))
    assert found.code == "E001"


# ── can(), leaves triggers ────────────────────────────────────────────────────

def test_can_tells_whether_a_player_has_a_legal_move_and_a_turn_ends_by_itself(tmp_path):
    rules = load(tmp_path, """
    game tokens "Tokens"
    players 2..2
    var tokens per player: int = 2
    flow:
        for p in players:
            while can(p, spend, trade):
                ask p to spend or trade
        announce "{[tokens(p) for p in players]} {can(0, spend)}"
    action spend():
        require has: tokens(player) > 0 else "no token left"
        subtract 1 from tokens(player)
    action trade(n in [5]):
        require never: n < 0
        pass
    """)
    game = rules.new_game(2)
    assert game.all_legal_moves() == [Move(0, "spend", {})]
    for _ in range(4):
        game.play(game.all_legal_moves()[0])
    assert game.is_over and game.events[-1] == "[0, 0] false"
    assert game.hits.get("require:trade.never", 0) > 0   # can() lists, a real listing counts


def test_an_action_asking_can_about_itself_through_a_def_is_refused(tmp_path):
    found = diagnostics(tmp_path, """
    game g "G"
    players 2..2
    def possible(p) = can(p, go)
    action go(n in [1]):
        require ok: possible(player)
        pass
    flow:
        ask 0 to go
    """)
    assert [(d.span.line, d.code) for d in found if d.is_error] == [(6, "E313")]


def test_leaves_fire_before_enters_and_after_the_statement(tmp_path):
    rules = load(tmp_path, """
    game moves "Moves"
    players 2..2
    piece pawn:
        owner: player
    zone home: public
    zone road: public
    zone away: public
    setup:
        create 2 pawn(owner: 0) in home
    flow:
        move home to road
        move road to away
    trigger left when x leaves home:
        announce "left home, {count(home)} there, {count(road)} on the road"
    trigger entered when x enters road:
        announce "on the road"
    trigger left_road when x leaves road where count(road) == 0:
        announce "the road is empty"
    """)
    assert rules.new_game(2).events == [
        "left home, 0 there, 2 on the road", "on the road", "left home, 0 there, 2 on the road", "on the road",
        "the road is empty"]


# ── grouped prefers, labels, refusals ──────────────────────────────────────────

SHIFT = """
game shifts "Shifts"
players 2..2
board row: hex_grid
    rows = 1
    cols = 7
piece stone:
    owner: player
zone spot per row: public
setup:
    create 1 stone(owner: 0) in spot(cell(row, 0, 0))
    create 1 stone(owner: 0) in spot(cell(row, 0, 6))
    create 1 stone(owner: 1) in spot(cell(row, 0, 1))
flow:
    ask 0 to shift
action shift(from in [h for h in row where count(spot(h)) > 0 and spot(h)[0].owner == player], to in row):
    label "move the stone at {from} to {to}"
    require free: count(spot(to)) == 0 else "that place is taken"
    prefer near per from: distance(row, from, to) == 1 else "move one step when you can"
    move spot(from) to spot(to)
"""


def _targets(game) -> dict:
    out: dict = {}
    for m in game.all_legal_moves():
        out.setdefault(m.args["from"], []).append(m.args["to"])
    return out


def test_a_preference_grouped_per_parameter_applies_within_each_group(tmp_path):
    # The stone at (0,0) cannot step (P1 stands on (0,1)): it keeps every free target. The
    # stone at (0,6) can step to (0,5): that is its only move.
    game = load(tmp_path, SHIFT).new_game(2)
    assert _targets(game) == {"(0,0)": ["(0,2)", "(0,3)", "(0,4)", "(0,5)"], "(0,6)": ["(0,5)"]}


def test_without_per_the_preference_applies_across_all_moves(tmp_path):
    game = load(tmp_path, SHIFT.replace("prefer near per from:", "prefer near:")).new_game(2)
    assert _targets(game) == {"(0,6)": ["(0,5)"]}


def test_a_refusal_names_the_preference_that_excluded_the_move(tmp_path):
    game = load(tmp_path, SHIFT).new_game(2)
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(Move(0, "shift", {"from": "(0,6)", "to": "(0,4)"}))
    assert (refused.value.rule, refused.value.reason) == ("shift.near", "move one step when you can")
    assert refused.value.location.endswith(":19:5")
    with pytest.raises(IllegalMove) as refused:
        game.play(Move(0, "shift", {"from": "(0,0)", "to": "(0,1)"}))
    assert (refused.value.rule, refused.value.reason) == ("shift.free", "that place is taken")
    assert game.to_json() == before
    game.play(Move(0, "shift", {"from": "(0,0)", "to": "(0,4)"}))   # no step possible: any target
    assert game.is_over


def test_labels_name_moves_for_players(tmp_path):
    game = load(tmp_path, SHIFT).new_game(2)
    assert [game.describe(m) for m in game.all_legal_moves()][-1] == "move the stone at (0,6) to (0,5)"
    assert game.describe(Move(0, "shift", {"from": "(0,6)", "to": "(0,2)"})) == "shift (0,6) (0,2)"  # not legal


def test_a_preference_per_unknown_parameter_is_refused(tmp_path):
    found = diagnostics(tmp_path, SHIFT.replace("per from:", "per form:"))
    assert [(d.code, d.hint) for d in found if d.is_error] == [("E122", "did you mean 'from'?")]


# ── expressions ─────────────────────────────────────────────────────────────

def test_nested_comprehensions_multi_line_expressions_map_keys_and_text(tmp_path):
    rules = load(tmp_path, """
    game exprs "Expressions"
    players 2..2
    const areas = [[1, 2], [3], [4, 5, 6]]
    const ranks = {1: "ace", -1: "joker", "Q": "queen"}
    def big(a) = count(a) > 1
        and count(a) < 5
    def flat() =
        [x for a in areas where big(a) for x in a where x % 2 == 0]
    flow:
        let pairs = count(1 for a in areas for b in areas where count(a) < count(b))
        announce "{flat()} {pairs} {ranks[1]} {ranks[-1]} {ranks[\\"Q\\"]}"
        announce "{text(players[1]) + \\":\\" + text([none, true])}"
        ask 0 to keep
    action keep(m in [ranks]):
        pass
    """)
    game = rules.new_game(2)
    assert game.events == ["[2, 4, 6] 3 ace joker queen", "P1:[none, true]"]
    again = rules.game_from_json(game.to_json())   # a map with number keys survives the JSON round trip
    assert again == game
    game.play(game.all_legal_moves()[0])
    assert game.is_over


def test_a_map_key_given_twice_is_refused(tmp_path):
    found = diagnostics(tmp_path, """
    game g "G"
    players 2..2
    const m = {1: "a", 1: "b"}
    flow:
        announce "{m}"
    """)
    assert [(d.span.line, d.code) for d in found if d.is_error] == [(4, "E102")]


def test_python_dash_m_regnum_runs_the_command_line():
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-m", "regnum", "list", "--names"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0 and "kingdom_builder" in result.stdout.split()


# ── Game.evaluate ───────────────────────────────────────────────────────────────

def test_evaluate_reads_the_present_state_and_is_checked_like_the_ruleset(tmp_path):
    from regnum.agents import play_random_game
    rules = regnum.load("kingdom_builder")
    game = play_random_game(rules, 3, 1)
    before = game.to_json()
    assert game.evaluate("[fishermen(p) for p in players]") == [game.evaluate(f"fishermen({p})") for p in range(3)]
    assert game.evaluate('terrain("(0,0)")') in ("grass", "canyon", "desert", "flower_field", "forest",
                                                  "water", "mountain", "castle", "location")
    assert game.evaluate("count(supply(0)) + count(own_hexes(0))") == 40
    with pytest.raises(regnum.RulesetError) as bad:
        game.evaluate("fisherman(0)")
    assert (bad.value.diagnostics[0].code, bad.value.diagnostics[0].hint) == ("E103", "did you mean 'fishermen'?")
    with pytest.raises(regnum.RulesetError) as bad:
        game.evaluate('terrain("(30,4)")')
    assert bad.value.diagnostics[0].code == "E902"
    assert game.to_json() == before


# ── listing moves fast never changes which moves are legal ──────────────────────

def test_a_require_that_reads_no_choice_is_not_evaluated_when_there_is_nothing_to_choose(tmp_path):
    rules = load(tmp_path, """
    game e "E"
    players 2..2
    piece card:
        rank: int
    zone hand per player: public
    setup:
        create 1 card(rank: 3) in hand(0) named "c"
    flow:
        repeat 2 times:
            ask 0 to play or pass_turn
    action play(c in hand(player)):
        require high: hand(player)[0].rank > 2 else "the first card is too low"
        move c to hand(1)
    action pass_turn():
        pass
    """)
    game = rules.new_game(2)
    game.play(Move(0, "play", {"c": "c"}))
    assert game.all_legal_moves() == [Move(0, "pass_turn", {})]   # hand(0)[0] is never read


def test_a_require_guarded_by_an_earlier_one_is_not_evaluated_before_it(tmp_path):
    rules = load(tmp_path, """
    game o "O"
    players 2..2
    const piles = [[], [5], [4, 9]]
    flow:
        ask 0 to pick
    action pick(k in [0, 1, 2], n in [1, 2]):
        require enough: n <= count(piles[k])
        require top: piles[k][0] > 3
        pass
    """)
    assert [m.args for m in rules.new_game(2).all_legal_moves()] == [{"k": 1, "n": 1}, {"k": 2, "n": 1}, {"k": 2, "n": 2}]


def test_a_definition_used_as_the_source_of_a_comprehension_in_a_require(tmp_path):
    rules = load(tmp_path, """
    game w "W"
    players 2..2
    def evens(n) = [x for x in range(n) where x % 2 == 0]
    def odds() = [x for x in range(9) where x % 2 == 1]
    flow:
        ask 0 to pick
    action pick(k in [1, 2], n in range(6)):
        require even: n in [y for y in evens(k + 3)]
        require not_odd: not any(y == n for y in odds)
        pass
    """)
    assert [(m.args["k"], m.args["n"]) for m in rules.new_game(2).all_legal_moves()] == [(1, 0), (1, 2), (2, 0), (2, 2), (2, 4)]


def test_an_inlined_definition_does_not_recompute_its_argument_per_item(tmp_path):
    rules = load(tmp_path, """
    game i "I"
    players 2..2
    def hits(a) = count(y for y in range(1000) where y in a)
    flow:
        announce "{hits([w for w in range(1000)])}"
    """)
    # 1000 searches of 1000 items are a million steps; recomputing the argument per item
    # would add 2 million more and stop at the step limit.
    assert rules.new_game(2).events == ["1000"]


def test_a_seat_chosen_earlier_does_not_take_the_piece_with_the_same_number(tmp_path):
    rules = load(tmp_path, """
    game s "S"
    players 2..2
    piece card:
        rank: int
    zone hand per player: public
    zone pot: public
    setup:
        create 1 card(rank: 1) in hand(0) named "a"
        create 1 card(rank: 2) in hand(0) named "b"
    flow:
        ask 0 to give
    action give(to in players, c in hand(player)):
        move c to pot
    """)
    moves = [(m.args["to"], m.args["c"]) for m in rules.new_game(2).all_legal_moves()]
    assert moves == [(0, "a"), (0, "b"), (1, "a"), (1, "b")]


def test_a_bot_move_that_changes_a_secret_is_not_named(tmp_path):
    rules = load(tmp_path, """
    game bid "Bid"
    players 2..2
    var offer per player: int = 0, owner
    flow:
        for p in players:
            ask p to bid
    action bid(n in [1, 2, 3]):
        label "bid {n}"
        set offer(player) = n
    """)
    game = rules.new_game(2)
    move = game.all_legal_moves()[1]
    assert game.is_secret(move, 1) and not game.is_secret(move, 0)
    assert game.describe(move) == "bid 2"                   # the player's own list names it


def test_a_map_that_looks_like_a_tag_survives_the_json_round_trip(tmp_path):
    rules = load(tmp_path, """
    game tag "Tag"
    players 2..2
    flow:
        let m = {"$map": [[1, 2]]}
        let z = {"$zone": "x"}
        ask 0 to go
        announce "{m} {z}"
    action go():
        pass
    """)
    game = rules.new_game(2)
    restored = rules.game_from_json(game.to_json())
    for g in (game, restored):
        g.play(Move(0, "go", {}))
    assert game.events == restored.events == ["{$map: [[1, 2]]} {$zone: x}"]


def test_odd_data_files_are_refused_cleanly(tmp_path):
    import os
    os.mkfifo(tmp_path / "pipe.yaml")
    (found,) = diagnostics(tmp_path, DATA_RULES.replace("data/atlas.json", "pipe.yaml"))
    assert found.code == "E008" and "not a regular file" in found.message
    write(tmp_path, "data/atlas.yaml", "a: " + "9" * 5000 + "\n")
    (found,) = diagnostics(tmp_path, DATA_RULES.replace("atlas.json", "atlas.yaml"))
    assert found.code == "E009" and "4300 digits" in found.message
