"""A start that draws copies what its setup made before its first draw (compiler/draws.py,
Game.start, Ruleset.setups_begun): which statement may draw first; the setup's instructions
before it as a code of their own; every later start of the same kind resumed from a copy of
what they made — the same game as running the whole setup (state, narration, coverage, peak
steps, size bound, every move after), the same errors; nothing kept when they drew after all,
or when the game ended there."""
from __future__ import annotations

import pytest

import regnum
from regnum import Move, RulesetError
from regnum.agents import play_random_game
from regnum.compiler import draws
from regnum.engine import game as game_module
from regnum.limits import Limits
from toy_rules import load   # tests/unit is on the path of its tests

HEAD = """
game dealt "Dealt"
players 2..3
piece card:
    rank: int
zone deck: hidden
zone hand per player: owner
zone spare: public
var total: int = 0
var drawn: int = 0
"""

TAIL = """
flow:
    repeat until total >= 3:
        for p in players:
            ask p to take or add
action take():
    require some: count(deck) > 0 else "the deck is empty"
    move 1 from deck to hand(player)
action add(n in [1, 2]):
    set total = total + n
"""

# Six cards made and named, a narration, a local read after the first draw; then the deck shuffled.
DEALT = HEAD + """
setup:
    let made = 6
    for r in range(1, made + 1):
        create 1 card(rank: r) in deck named "card " + text(r)
    announce "{made} cards"
    shuffle deck
    set drawn = deck[0].rank + made
    for p in players:
        move 1 from deck to hand(p)
""" + TAIL


def _setup_of(text: str) -> str:
    return HEAD + "setup:\n" + text + TAIL


def _first(tmp_path, setup: str, extra: str = "") -> int | None:
    rules = load(tmp_path, _setup_of(setup) + extra, "first.rules")
    return draws.first_drawing(rules.program, rules.program.singletons["setup"].body)


def _started(game) -> tuple:
    return (game.to_json(), list(game.events), dict(game.hits) if game.hits is not None else None,
            game.peak_steps, game._size_bound, game.to_move, game.seed, game._state.rng)


def _both_ways(monkeypatch, rules, players: int, seeds=range(5), **kwargs) -> tuple[list, list]:
    """The starts of `seeds`, resumed from what the first start kept, and each from its setup."""
    out = []
    for on in (True, False):
        monkeypatch.setattr(game_module, "START_COPIES", on)
        rules.starts.clear()
        rules.setups_begun.clear()
        out.append([_started(rules.new_game(players, seed=seed, **kwargs)) for seed in seeds])
    return out[0], out[1]


# ── which statement may draw first ─────────────────────────────────────────────

CREATE = "    create 2 card(rank: 1) in deck\n"


@pytest.mark.parametrize("setup,extra,expected", [
    (CREATE + "    shuffle deck\n", "", 1),
    (CREATE + CREATE + "    set drawn = random one of [1, 2]\n", "", 2),
    (CREATE + "    let x = random 1 of [1, 2]\n", "", 1),
    (CREATE + "    if total == 0:\n        for p in players:\n            shuffle deck\n", "", 1),
    (CREATE + "    run deal()\n", "rule deal():\n    run mix()\nrule mix():\n    shuffle deck\n", 1),
    (CREATE + "    run deal()\n", "rule deal():\n    move 1 from deck to spare\n", None),
    (CREATE + CREATE, "", None),
    # a piece moved or created may fire a trigger that draws
    (CREATE + "    move 1 from deck to spare\n",
     "trigger mixed when c enters spare:\n    shuffle deck\n", 0),
    (CREATE + "    set drawn = 1\n    move 1 from deck to spare\n",
     "trigger mixed when c enters spare:\n    run mix()\nrule mix():\n    shuffle deck\n", 0),
    (CREATE + "    set drawn = 1\n",
     "trigger mixed when c enters spare:\n    shuffle deck\n", 0),   # the create itself
    ("    set drawn = 1\n    run deal()\n",   # a rule run that moves a piece
     "rule deal():\n    move 1 from spare to deck\ntrigger mixed when c enters deck:\n    shuffle spare\n", 1),
    (CREATE + "    move 1 from deck to spare\n",
     "trigger counted when c enters spare:\n    add 1 to total\n", None),
])
def test_the_first_statement_that_may_draw(tmp_path, setup, extra, expected):
    assert _first(tmp_path, setup, extra) == expected


def test_the_instructions_before_the_first_draw_are_a_code_of_their_own(tmp_path):
    rules = load(tmp_path, DEALT)
    setup, before = rules.model.codes["setup"], rules.model.codes[draws.BEFORE_DRAWS]
    assert before.ops == setup.ops[:len(before.ops)] and before.spans == setup.spans[:len(before.ops)]
    assert {span.line for span in before.spans} == {13, 14, 15, 16}   # the let, the loop, the announce
    assert setup.spans[len(before.ops)].line == 17                     # the shuffle
    assert before.kind == "setup" and before.cover == "setup"
    kilt = regnum.load("kings_kilt").model.codes
    assert {span.line for span in kilt[draws.BEFORE_DRAWS].spans} == {79, 80, 81, 82}   # the cards made
    assert draws.BEFORE_DRAWS not in regnum.load("kingdom_builder").model.codes   # `run assemble_board` draws first
    road = regnum.load("kings_road").model.codes
    assert road[draws.BEFORE_DRAWS].ops == road["setup"].ops   # nothing draws: the whole setup


# ── the starts resumed ─────────────────────────────────────────────────────────

@pytest.mark.parametrize("coverage", [True, False])
@pytest.mark.parametrize("narrate", [True, False])
def test_starts_resumed_are_the_starts_from_the_setup(tmp_path, monkeypatch, coverage, narrate):
    rules = load(tmp_path, DEALT)
    resumed, setup = _both_ways(monkeypatch, rules, 3, coverage=coverage, narrate=narrate)
    assert resumed == setup
    assert len({s[0] for s in resumed}) > 1   # the seeds deal differently
    if narrate:
        assert resumed[3][1][0] == "6 cards"
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules.setups_begun.clear()
    game = rules.new_game(3, seed=8, coverage=coverage, narrate=narrate)
    assert list(rules.setups_begun) == [(3, narrate, coverage, ())] and not rules.starts
    begun = rules.setups_begun[(3, narrate, coverage, ())]
    assert begun.pc == len(rules.model.codes[draws.BEFORE_DRAWS].ops)
    assert (begun.local["made"], begun.local["r"]) == (6, 6)
    assert len(begun.game._state.zones["deck"]) == 6 and begun.game.move_count == 0
    resumed = rules.new_game(3, seed=9, coverage=coverage, narrate=narrate)
    assert 7 <= resumed._state.vars["drawn"] <= 12   # `made`, the setup's local, read after the draw
    assert len(resumed._state.zones["deck"]) == 3 and len(rules.setups_begun) == 1


@pytest.mark.parametrize("name,players", [("kings_kilt", 4), ("kings_kilt", 2), ("recruit", 3), ("kings_gate", 3)])
def test_whole_games_from_resumed_setups_are_the_games_from_setups(monkeypatch, name, players):
    results = {}
    for on in (True, False):
        monkeypatch.setattr(game_module, "START_COPIES", on)
        rules = regnum.load(name)
        games = [play_random_game(rules, players, seed, coverage=coverage)
                 for coverage in (True, False) for seed in range(3)]
        results[on] = [(g.to_json(), g.scores, g.winners, g.hits, g.peak_steps, g._size_bound, list(g.events))
                       for g in games]
        assert len(rules.setups_begun) == (2 if on else 0) and not rules.starts
    assert results[True] == results[False]


def test_a_game_played_on_leaves_what_was_kept_untouched(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", False)
    fresh = _started(load(tmp_path, DEALT, "fresh.rules").new_game(2, seed=1))
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules = load(tmp_path, DEALT)
    first = rules.new_game(2, seed=1)
    second = rules.new_game(2, seed=1)   # resumed
    for game in (first, second):
        game.play(Move(game.to_move[0], "take", {}))
    kept = rules.setups_begun[(2, True, True, ())].game
    assert len(kept._state.zones["deck"]) == 6 and kept._state.zones["hand#0"] == []
    third = rules.new_game(2, seed=1)
    assert _started(third)[:5] == fresh[:5] and len(third._state.zones["deck"]) == 4


def test_a_start_whose_first_statement_draws_keeps_nothing(tmp_path, monkeypatch):
    rules = load(tmp_path, _setup_of("    shuffle deck\n" + CREATE))
    assert draws.BEFORE_DRAWS not in rules.model.codes
    resumed, setup = _both_ways(monkeypatch, rules, 2)
    assert resumed == setup and not rules.setups_begun and not rules.starts


def test_statements_that_drew_after_all_are_not_kept(tmp_path, monkeypatch):
    """Were the analysis wrong, the generator changed by the statements run apart says so."""
    monkeypatch.setattr(draws, "first_drawing", lambda program, body: None)
    rules = load(tmp_path, DEALT)
    assert rules.model.codes[draws.BEFORE_DRAWS].ops == rules.model.codes["setup"].ops
    monkeypatch.undo()
    resumed, setup = _both_ways(monkeypatch, rules, 2)
    assert resumed == setup and not rules.setups_begun and not rules.starts


def test_a_setup_that_ends_the_game_before_its_first_draw(tmp_path, monkeypatch):
    rules = load(tmp_path, _setup_of(CREATE + "    if total == 0:\n        end game\n    shuffle deck\n"))
    resumed, setup = _both_ways(monkeypatch, rules, 2)
    assert resumed == setup and all(s[5] == [] for s in resumed)
    assert rules.new_game(2, seed=3).is_over and not rules.setups_begun


def test_the_step_limit_counts_the_steps_run_apart(tmp_path, monkeypatch):
    """The steps of the statements before the first draw count in the setup's, resumed too."""
    text = _setup_of("    for r in range(40):\n        create 1 card(rank: r) in deck\n    shuffle deck\n"
                     "    for r in range(15):\n        set drawn = drawn + 1\n")
    steps = load(tmp_path, text, "full.rules").new_game(2, seed=0).peak_steps
    (tmp_path / "limited.rules").write_text((tmp_path / "full.rules").read_text(encoding="utf-8"), encoding="utf-8")
    limited = regnum.load(tmp_path / "limited.rules", limits=Limits(steps=steps - 1))
    for on in (True, False):
        monkeypatch.setattr(game_module, "START_COPIES", on)
        limited.starts.clear()
        limited.setups_begun.clear()
        for seed in range(3):
            with pytest.raises(RulesetError, match=f"more than {steps - 1} steps") as caught:
                limited.new_game(2, seed=seed)
            assert "limited.rules:15:5" in str(caught.value)   # the last loop, at its last step
    monkeypatch.setattr(game_module, "START_COPIES", True)
    exact = regnum.load(tmp_path / "full.rules", limits=Limits(steps=steps))
    assert [exact.new_game(2, seed=seed).peak_steps for seed in range(3)] == [steps] * 3
    assert len(exact.setups_begun) == 1


def test_the_kinds_of_start_kept_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    monkeypatch.setattr(game_module, "MOST_STARTS", 2)
    rules = load(tmp_path, DEALT)
    for players, narrate, coverage in [(2, True, True), (3, True, True), (2, False, True), (2, True, False)]:
        rules.new_game(players, seed=0, narrate=narrate, coverage=coverage)
        assert 1 <= len(rules.setups_begun) <= 2
    assert (2, True, False, ()) in rules.setups_begun
    rules.new_game(2, seed=0, limits=Limits(steps=10_000))   # limits of its own: nothing kept
    assert len(rules.setups_begun) == 2


KEPT_INDEX = """
game probe "Probe"
players 2..2
board land: hex_grid
    rows = 3
    cols = 3
piece stone:
    owner: player
zone pile per land: public
zone bag per player: public
var seen: int = 0
def owner_here(h) = if count(pile(h)) == 0 then none else pile(h)[0].owner
def owned_by(p) = [h for h in land where owner_here(h) == p]
setup:
    for p in players:
        create 8 stone(owner: p) in bag(p)
    move 1 from bag(0) to pile(cell(land, 0, 0))
    set seen = count(owned_by(0))
    let spot = random one of [h for h in land where count(pile(h)) == 0]
    move 1 from bag(1) to pile(spot)
    set seen = seen + 10 * count(owned_by(1))
flow:
    repeat 2 times:
        for p in players:
            ask p to put
action put(h in land):
    require empty: count(pile(h)) == 0
    move 1 from bag(player) to pile(h)
    set seen = seen + count(owned_by(player))
"""


def test_an_index_the_first_statements_made_is_resumed_as_they_left_it(tmp_path, monkeypatch):
    """The first start goes on from its copy with an index of its own: what the rest of its
    setup judges again (the cell its draw chose) is not what a later start finds."""
    rules = load(tmp_path, KEPT_INDEX)
    resumed, setup = _both_ways(monkeypatch, rules, 2, seeds=range(6))
    assert resumed == setup
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules.setups_begun.clear()
    assert [rules.new_game(2, seed=seed)._state.vars["seen"] for seed in range(6)] == [11] * 6
    assert rules.setups_begun[(2, True, True, ())].game._memo_from.indexes   # what it was about


def test_a_start_that_draws_nothing_is_kept_whole_and_one_that_draws_in_its_flow_after_its_setup(
        tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    road = regnum.load("kings_road")
    road.new_game(4, seed=0)
    assert list(road.starts) == [(4, True, True, ())] and not road.setups_begun
    rules = load(tmp_path, _setup_of(CREATE + CREATE).replace("flow:\n", "flow:\n    shuffle deck\n"))
    resumed, setup = _both_ways(monkeypatch, rules, 2)
    assert resumed == setup
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules.new_game(2, seed=0)
    assert not rules.starts
    begun = rules.setups_begun[(2, True, True, ())]
    assert begun.pc == len(rules.model.codes["setup"].ops) and len(begun.game._state.zones["deck"]) == 4


def test_the_locals_kept_are_those_before_the_draw(tmp_path, monkeypatch):
    """The first start goes on with its own locals: a name it binds again after the draw is
    bound as before it in a later start."""
    rules = load(tmp_path, _setup_of("    let n = 1\n" + CREATE + "    shuffle deck\n    set drawn = n\n    let n = 5\n"
                                     "    set drawn = drawn + n\n"))
    resumed, setup = _both_ways(monkeypatch, rules, 2)
    assert resumed == setup
    monkeypatch.setattr(game_module, "START_COPIES", True)
    assert [rules.new_game(2, seed=seed)._state.vars["drawn"] for seed in range(3)] == [6, 6, 6]
    assert rules.setups_begun[(2, True, True, ())].local["n"] == 1


def test_a_long_chain_of_rules_that_run_one_that_shuffles(tmp_path):
    """Each rule of a chain of thousands runs the one before; the first shuffles: the setup's
    statement that runs the last may draw (found in one walk of each body)."""
    chain = "rule r0():\n    shuffle deck\n" + "".join(f"rule r{i}():\n    run r{i - 1}()\n" for i in range(1, 3_000))
    assert _first(tmp_path, CREATE + "    run r2999()\n", chain) == 1
    quiet = chain.replace("    shuffle deck\n", "    add 1 to total\n", 1)
    assert _first(tmp_path, CREATE + "    run r2999()\n", quiet) is None
