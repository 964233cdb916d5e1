"""What the actions of one ask share while their moves are listed (Game._list): the choices
made of a zone several of them choose from (`card in hand(player)` for `play` and `swap`,
Ctx.choices), and what a `can` of one of them finds (`require no_move: not can(player,
play)` of a pass offered beside `play`, Ctx.listed): the listing of `play` made by that ask,
or kept from the flow's `can` before it, answers it with the steps a listing stopped at its
first move charges. Either way the same moves, steps, coverage and faults as when each
action lists on its own (the switches off); nothing is kept past the listing."""
from __future__ import annotations

import pytest

from regnum import LimitExceeded, Limits
from regnum.agents import play_random_game
from regnum.engine import decisions

from listings import assert_alike   # tests/unit is on the path of its tests
from toy_rules import load

RULES = """
game toy "Toy"
players 2..2
piece card:
    rank: int
zone hand per player: owner
zone pile: public
zone out: public
setup:
    for p in players:
        for r in [1, 2, 3, 8]:
            create 1 card(rank: r) in hand(p)
    create 1 card(rank: 9) in hand(0)
flow:
    let p = 0
    while can(p, play) or can(1 - p, play):
        ask p to play or discard or pass_turn
        set p = 1 - p
action play(card in hand(player)):
    require counted: count(x for x in range(20 + 10 * count(pile)) where x >= 0) > 0 else "a search"
    require rising: count(pile) == 0 or card.rank > last(pile).rank else "play higher than the top card"
    move card to pile
action discard(card in hand(player)):
    require spare: card.rank < 3 and count(pile) > 0 else "only a 1 or a 2 is discarded, once a card is played"
    move card to out
action pass_turn():
    require no_move: not can(player, play) else "you can play"
    pass
"""


# The same game with no `can` in the flow: the ask's listing lists `play` itself, noting the
# steps to its first move.
ASKED = RULES.replace("""    while can(p, play) or can(1 - p, play):
        ask p""", """    repeat 9 times:
        ask p""")


@pytest.fixture()
def rules(tmp_path):
    return load(tmp_path, RULES)


def _switched(monkeypatch, shared: bool, cans: bool) -> None:
    monkeypatch.setattr(decisions, "SHARED_CHOICES", shared)
    monkeypatch.setattr(decisions, "CANS_FROM_LISTING", cans)


def _spy(monkeypatch, rules, name: str) -> list:
    """The calls of action `name`'s lister, each noted as its `stop` (False: a whole listing)."""
    action = rules.model.actions[name]
    lister, calls = action.lister, []

    def spy(ctx, player, hits, stop):
        calls.append(stop if stop in (False, True) else "first")
        return lister(ctx, player, hits, stop)
    monkeypatch.setattr(action, "lister", spy)
    return calls


def test_the_actions_of_an_ask_share_the_choices_of_a_zone(tmp_path, monkeypatch):
    made = []
    zone_choices = decisions._zone_choices

    def spy(ctx, values):
        made.append(zone_choices(ctx, values))
        return made[-1]
    rules = load(tmp_path, RULES)
    helpers = rules.model.actions["play"].lister.__globals__   # what the listers call it by
    assert helpers is rules.model.actions["discard"].lister.__globals__
    monkeypatch.setitem(helpers, "_m_choices", spy)
    game = rules.new_game(2, 0, coverage=False)
    made.clear()   # the flow's `can(p, play)` as the game started
    moves = game.legal_moves(0)
    assert [(m.action, m.args["card"]) for m in moves] == [
        ("play", "card#0"), ("play", "card#1"), ("play", "card#2"), ("play", "card#3"), ("play", "card#8")]
    # The hand's choices for play, for discard, and for play again (pass_turn's `can`, which
    # this first listing cannot answer yet): one list, made once.
    assert len(made) == 3 and made[0] is made[1] is made[2]
    assert [label for _, label in made[0]] == ["card#0", "card#1", "card#2", "card#3", "card#8"]
    assert game._list_ctx.choices is None and game._list_ctx.listed is None   # nothing kept past it
    game.play(moves[0])   # P0 plays its 1: P1 may play any card but its 1, or discard its 1 or 2
    made.clear()
    assert [(m.action, m.args["card"]) for m in game.legal_moves(1)] == [
        ("play", "card#5"), ("play", "card#6"), ("play", "card#7"), ("discard", "card#4"), ("discard", "card#5")]
    # `play` came whole from the flow's `can(p, play)` (a move's, which shares nothing), and
    # answers pass_turn's `can`: discard's choices only.
    assert len(made) == 1 and [v for v, _ in made[0]] == [4, 5, 6, 7]
    made.clear()
    monkeypatch.setattr(decisions, "SHARED_CHOICES", False)
    again = rules.new_game(2, 0, coverage=False)
    made.clear()
    assert again.legal_moves(0) == moves
    assert len(made) == 3 and made[0] is not made[1] and made[0] == made[1] == made[2]


def test_a_pass_asks_the_listing_whether_play_has_a_move(rules, monkeypatch):
    game = rules.new_game(2, 0, coverage=False)
    calls = _spy(monkeypatch, rules, "play")
    moves = game.legal_moves(0)
    # The game's first listing lists `play` whole, and pass_turn's `can` lists it again,
    # stopped at the first move: the listing learns that a `can` asks about `play`.
    assert calls == [False, True] and game._list_ctx.asked == {"play"}
    calls.clear()
    game.play(moves[3])   # P0 plays its 8: P1 cannot play, P0 can (its 9)
    # The flow's `can(p, play)` and `can(1 - p, play)`, each kept whole with the steps to its
    # first move noted (none for P1, who has no move)...
    assert calls == ["first", "first"]
    assert [(m.action, m.args) for m in game.legal_moves(1)] == [
        ("discard", {"card": "card#4"}), ("discard", {"card": "card#5"}), ("pass_turn", {})]
    assert calls == ["first", "first"]   # ... which answers pass_turn's `can`
    game.play(game.legal_moves(1)[-1])   # P1 passes
    assert [(m.action, m.args) for m in game.legal_moves(0)] == [
        ("play", {"card": "card#8"}), ("discard", {"card": "card#0"}), ("discard", {"card": "card#1"})]
    assert calls == ["first", "first", "first"]
    monkeypatch.setattr(decisions, "CANS_FROM_LISTING", False)
    calls.clear()
    again = rules.new_game(2, 0, coverage=False)
    again.play(again.legal_moves(0)[3])
    again.play(again.legal_moves(1)[-1])
    assert again.legal_moves(0) == game.legal_moves(0)
    # each listing's pass_turn lists `play` again, stopped at its first move
    assert calls == [False, True, "first", "first", True, "first", True]


def _listings(rules, monkeypatch, cans: bool, seed: int) -> tuple:
    """The steps each listing of a game charged, and the game: each seat to move lists, and
    the seat picks its moves[seed % n]."""
    _switched(monkeypatch, True, cans)
    game = rules.new_game(2, seed, coverage=False)
    charged = []
    while not game.is_over:
        moves = game.legal_moves(game.to_move[0])
        charged.append(game._list_ctx.steps)
        game.play(moves[seed % len(moves)])
    return charged, game


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("text", [RULES, ASKED], ids=["kept", "asked"])
def test_the_listing_answers_with_the_steps_a_stopped_listing_charges(tmp_path, monkeypatch, seed, text):
    rules = load(tmp_path, text)
    on, played = _listings(rules, monkeypatch, True, seed)
    off, again = _listings(rules, monkeypatch, False, seed)
    assert on == off
    assert_alike(played, again)


def test_the_steps_of_each_listing_counted(rules, monkeypatch):
    charged, _ = _listings(rules, monkeypatch, True, 0)
    # play: `counted` once (20 numbers made, 20 gone through), then its 5 cards; discard: its
    # 5 cards; pass_turn's `can` of play, stopped at its first move, what play charged before
    # it: `counted` and the 5 cards, charged as the loop over them starts ...
    assert charged[0] == (40 + 5) + 5 + (40 + 5)
    # ... and so on, `counted` 10 numbers longer for each card played: answered from the
    # listing from the second on, with those steps
    assert charged == [95, 132, 172, 209, 249]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("coverage", [False, True])
def test_random_games_play_alike_with_the_switches_on_and_off(rules, monkeypatch, seed, coverage):
    games = []
    for shared, cans in ((True, True), (False, False), (True, False)):
        _switched(monkeypatch, shared, cans)
        games.append(play_random_game(rules, 2, seed, coverage=coverage))
    for other in games[1:]:
        assert_alike(games[0], other)


@pytest.mark.parametrize("text", [RULES, ASKED], ids=["kept", "asked"])
def test_a_step_limit_is_met_where_listing_again_meets_it(tmp_path, monkeypatch, text):
    """Past the limit, the noted listing is not read: listed again, it fails where it must
    (play's search grows with the pile, so a later listing meets a limit the first passed)."""
    rules = load(tmp_path, text)
    outcomes = {}
    for on in (True, False):
        _switched(monkeypatch, True, on)
        found = []
        for limit in range(30, 400, 3):
            try:
                game = rules.new_game(2, 1, coverage=False, limits=Limits(steps=limit))
                for _ in range(9):
                    if game.is_over:
                        break
                    moves = game.legal_moves(game.to_move[0])
                    game.play(moves[-1])
                found.append(("played", game.peak_steps))
            except LimitExceeded as err:
                found.append(("limit", str(err)))
        outcomes[on] = found
    assert outcomes[True] == outcomes[False]
    assert {kind for kind, _ in outcomes[True]} == {"played", "limit"}
