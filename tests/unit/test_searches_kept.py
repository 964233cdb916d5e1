"""A search of a require that reads no choice of its loop — `not any(c.suit == led for c in
hand(player))` in a require over `card` — is computed once, at its first use, and then read
(listers._invariant_searches), as a def's call that reads none is: the same moves, coverage
and faults as the generic walk, which judges it at every choice, with its steps charged once
instead of at every choice. A search reading the loop's choice, or a variable of a
comprehension around it, is judged where it is written; one reading an earlier choice is
computed once per choice of that one; one a failed condition guards is never computed."""
from __future__ import annotations

from pathlib import Path

import pytest

import regnum
from regnum.agents import play_random_game
from regnum.compiler import listers
from regnum.engine import decisions
from regnum.engine.state import canonical_json

from listings import both, observe_candidates, positions, preferred   # tests/unit is on the path of its tests
from toy_rules import load_switched

RULES = """
game toy "Toy"
players 2..2
enum suit: red, blue
piece card:
    suit: suit
    rank: int
zone hand per player: owner
zone trick: public
setup:
    for p in players:
        for r in [1, 2, 3]:
            create 1 card(suit: red, rank: r) in hand(p)
        create 1 card(suit: blue, rank: 9) in hand(p)
flow:
    repeat 2 times:
        for p in players:
            ask p to play or higher or pair or guarded or nested or lead
action play(card in hand(player)):
    require follow: count(trick) == 0 or card.suit == trick[0].suit or not any(c.suit == trick[0].suit for c in hand(player))
    move card to trick
action higher(card in hand(player)):
    require beaten: any(c.rank > card.rank for c in hand(player))
    move card to trick
action nested(card in hand(player)):
    require between: any(any(c.rank > d.rank for c in hand(player)) and d.rank > card.rank for d in hand(player))
    move card to trick
action lead(card in hand(player)):
    prefer low: card.rank < 3 or not any(c.rank < 3 and c.suit == red for c in hand(player))
    move card to trick
action pair(a in [1, 2], b in [1, 2, 3]):
    require enough: b <= count(x for x in range(a * 5) where x > 0)
    pass
action guarded(a in [1, 2], b in [1, 2, 3]):
    require never: b > 5 and any(x > 0 for x in range(a * 5))
    pass
"""
# A listing that fails: a search reading `a`, out of its list's range.
FAULTY = RULES.replace("or guarded", "or guarded or faulty") + """
action faulty(a in [1, 2], b in [1, 2, 3]):
    require broken: b == 9 or count(x for x in range(a) where [1][x + 1] > 0) > 0
    pass
"""


def _game(tmp_path, kept: bool, name: str = "toy.rules", text: str = RULES):
    rules = load_switched(tmp_path, text, name, [(listers, "SEARCHES_KEPT", kept)])
    game = rules.new_game(2, 0)
    return rules, game


def _after_a_blue_lead(game):
    """Seat 1 to play after seat 0 led its blue card: its red cards may not follow."""
    game.play(next(m for m in game.legal_moves(0) if m.action == "play" and m.args["card"] == "card#3"))
    return game


def test_a_search_that_reads_no_choice_is_computed_once_a_listing(tmp_path):
    _, kept = _game(tmp_path, True)
    _, plain = _game(tmp_path, False, "plain.rules")
    outcome, steps, hits = both(_after_a_blue_lead(kept), "play", player=1)
    again, steps_again, hits_again = both(_after_a_blue_lead(plain), "play", player=1)
    assert [dict(args) for args, _ in outcome[1]] == [{"card": "card#7"}]   # the blue card only
    assert hits == hits_again == {"require:play.follow": 3}
    assert outcome == again
    # The three red cards reach the search: it is made once (kept) or three times (judged
    # again), each time 17 steps (the hand's four cards, the suits' texts compared).
    assert (steps, steps_again) == (34, 34 + 2 * 17)
    source = kept.model.actions["play"].lister.source
    assert "(hq0 := " in source and "hq0 = _UNSET" not in source.split("for ")[1]
    assert "hq0" not in plain.model.actions["play"].lister.source


def test_a_search_that_reads_the_choice_is_judged_at_every_choice(tmp_path):
    _, game = _game(tmp_path, True)
    outcome, steps, hits = both(game, "higher")
    assert [dict(args)["card"] for args, _ in outcome[1]] == ["card#0", "card#1", "card#2"]
    assert hits == {"require:higher.beaten": 1}
    assert "hq" not in game.model.actions["higher"].lister.source
    assert steps == 4 + 4 * 4   # each card's search charges the hand's four cards


def test_a_search_inside_one_that_reads_the_choice_is_judged_for_each_item(tmp_path):
    """The inner search reads no choice but the outer one's variable: judged for each `d`."""
    _, kept = _game(tmp_path, True)
    _, plain = _game(tmp_path, False, "plain.rules")
    outcome, steps, hits = both(kept, "nested")
    assert outcome == both(plain, "nested")[0]
    # a card below some card that is itself below another: ranks 1 and 2 (3 is below only 9)
    assert [dict(args)["card"] for args, _ in outcome[1]] == ["card#0", "card#1"]
    assert hits == {"require:nested.between": 2}
    assert "hq" not in kept.model.actions["nested"].lister.source


def test_a_search_that_reads_an_earlier_choice_is_computed_once_per_choice_of_it(tmp_path):
    _, kept = _game(tmp_path, True)
    _, plain = _game(tmp_path, False, "plain.rules")
    outcome, steps, hits = both(kept, "pair")
    again, steps_again, _ = both(plain, "pair")
    assert outcome == again and len(outcome[1]) == 6 and hits == {}
    # a's 2 choices, b's 3 for each a; range(5a) built and gone through: 10 and 20 steps, for
    # each a once (kept), or for each (a, b) (judged again).
    assert (steps, steps_again) == (2 + 2 * 3 + 10 + 20, 2 + 2 * 3 + 3 * (10 + 20))


def test_a_search_a_failed_condition_guards_is_never_computed(tmp_path):
    _, game = _game(tmp_path, True)
    outcome, steps, hits = both(game, "guarded")
    assert outcome == ("moves", []) and hits == {"require:guarded.never": 6}
    assert steps == 2 + 2 * 3


def test_a_search_that_fails_fails_at_its_first_use_as_the_walk_does(tmp_path):
    _, kept = _game(tmp_path, True, text=FAULTY)
    _, plain = _game(tmp_path, False, "plain.rules", FAULTY)
    outcome, _, _ = both(kept, "faulty")
    assert outcome == both(plain, "faulty")[0]
    assert outcome[0] == "raised" and "no item 1 in [1]" in outcome[2]


def test_whist_lists_and_plays_the_same_with_fewer_steps(tmp_path):
    whist = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen" / "whist.rules"
    text = whist.read_text(encoding="utf-8")
    kept = load_switched(tmp_path, text, "kept.rules", [(listers, "SEARCHES_KEPT", True)])
    plain = load_switched(tmp_path, text, "plain.rules", [(listers, "SEARCHES_KEPT", False)])
    assert "(hq0 := " in kept.model.actions["play"].lister.source
    assert "(hq0 := " in regnum.load(whist).model.actions["play"].lister.source   # kept unless told
    for seed in range(3):
        a = play_random_game(kept, 4, seed)
        b = play_random_game(plain, 4, seed)
        assert [m.to_dict() for m in a._moves] == [m.to_dict() for m in b._moves]
        assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
        assert a.hits == b.hits and a.scores == b.scores
    # Listed at every position of a game: the same moves, fewer steps where a suit was led.
    charged = {True: 0, False: 0}
    for (game, seat), (twin, _) in zip(positions(kept, [0], players=4, moves=52),
                                       positions(plain, [0], players=4, moves=52)):
        mine, theirs = both(game, "play", seat), both(twin, "play", seat)
        assert (mine[0], mine[2]) == (theirs[0], theirs[2]) and mine[1] <= theirs[1]
        charged[True] += mine[1]
        charged[False] += theirs[1]
    assert charged[True] < charged[False]


def test_a_prefers_search_that_reads_no_parameter_is_computed_once_a_narrowing(tmp_path):
    """`lead`'s prefer keeps the two cards below 3; the search is made for the two others."""
    _, kept = _game(tmp_path, True)
    _, plain = _game(tmp_path, False, "plain.rules")
    outcome, steps, hits = preferred(kept, "lead")
    again, steps_again, _ = preferred(plain, "lead")
    assert outcome == again and [dict(args)["card"] for args, _ in outcome[1]] == ["card#0", "card#1"]
    assert hits == {"prefer:lead.low": 1}
    assert steps < steps_again
    # Without coverage the prefer is judged as the moves are listed (Action.preferring): the
    # same moves, the search made once there too.
    for game in (kept, plain):
        ctx = game._ctx(game._state.copy())
        ctx.hits = None
        found = decisions.candidates(ctx, game.model.actions["lead"], 0)
        assert [dict(args)["card"] for args, _ in found] == ["card#0", "card#1"]
    def narrowings(game) -> list[str]:   # the prefer's, and the one by group made at the listing
        return [f.source for name, f in game.model.expressions.codegen.ns.items()
                if name.startswith(("_prefer", "_pg")) and hasattr(f, "source")]
    assert len(narrowings(kept)) == 2 and all("(hq0 := " in source for source in narrowings(kept))
    # (the one by group is made at the listing, with the switch as it then is: on)
    assert "(hq0 := " not in narrowings(plain)[0] and narrowings(plain)[0].startswith("def _prefer")
