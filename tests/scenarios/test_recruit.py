"""Recruit (a variant of King's Kilt): once a game, a player may take the face-up top card of
the draw pile into their influence hand instead of advancing, betraying or passing.

Positions come from the King's Kilt scenario helpers (tests/scenarios/test_kings_kilt.py),
built on the variant's rules or the base's; the digest's § and rulings K… are cited as there.
"""
from __future__ import annotations

import pytest

import regnum
from regnum import IllegalMove, Move
from regnum.testing import assert_invariants, refusal, set_player_var

import test_kings_kilt as kk   # tests/scenarios is on the path of its tests

VARIANT = "rulesets/variants/recruit.rules"
RECRUIT = regnum.load(VARIANT)
BASE = kk.RULES
RECRUIT_MOVE = Move(0, "recruit", {})
FAMILIES = {0: "Do Wa ML", 1: "Bu St Ha"}


@pytest.fixture
def position(monkeypatch):
    """kk.position, built on the rules given first."""
    def build(rules, *args, **kwargs):
        monkeypatch.setattr(kk, "RULES", rules)
        return kk.position(*args, **kwargs)
    return build


def crowned_empty_handed(position, rules):
    """2 players, the pyramid full and crowned (King Bu; guardians ML, St; nobles Wa, Ha, MB);
    neither seat holds an influence card; the pile shows St, then Wa."""
    return position(rules, 2, kk.full(), pile=("St", "Wa"), family=FAMILIES,
                    fired=kk.EVERY_ROW_FIRED)


def test_an_empty_hand_recruits_the_top_card_instead_of_passing(position):
    game = crowned_empty_handed(position, RECRUIT)
    size = len(game.state.zones["draw_pile"])
    assert kk.actions(game) == {"recruit", "pass_turn"}
    assert kk.moves_of(game, "recruit") == [RECRUIT_MOVE]
    game.play(RECRUIT_MOVE)
    assert kk.clans_in(game, "influence#0") == ["St"]
    assert kk.pile_top(game) == ["Wa"] and len(game.state.zones["draw_pile"]) == size - 1
    assert [row["recruited"] for row in game.state.pvars] == [True, False]
    assert game.to_move == [1] and kk.actions(game) == {"recruit", "pass_turn"}
    assert kk.pyramid_count(game) == 21 and game.state.zones["discards"] == []
    assert_invariants(game)


def test_in_the_base_game_an_empty_hand_must_pass_K12(position):
    game = crowned_empty_handed(position, BASE)
    assert kk.actions(game) == {"pass_turn"}
    with pytest.raises(IllegalMove) as refused:
        game.play(RECRUIT_MOVE)
    assert refused.value.rule == "flow"
    assert refused.value.reason == "'recruit' is not possible now; P0 may advance or betray or pass_turn"


def test_the_recruited_stewart_betrays_the_king_and_turns_the_game(position):
    game = crowned_empty_handed(position, RECRUIT)
    game.play(RECRUIT_MOVE)                           # seat 0 takes the Stewart
    kk.pass_(game, 1)
    # K1: the guardian St at (5,1) betrays the King Bu; the influence card matches St.
    kk.betray(game, 0, "St", (5, 1), (6, 0))
    for below in [(5, 0), (4, 0), (3, 0), (2, 1), (1, 2)]:
        kk.raise_(game, 0, below)
    assert [kk.row(game, r) for r in (6, 5, 4, 3, 2, 1)] == [
        "ML", "Wa St", "Ha Ha MB", "Wa MB ML St", "St Do Br Bu Do", "Br Bu Wa Ha MB ML"]
    assert kk.clans_in(game, "removed")[-1] == "Bu" and kk.clans_in(game, "discards") == ["St"]
    assert_invariants(game)
    # Seat 1 has passed; seat 0's hand is spent and its recruit too: it may only pass.
    assert game.to_move == [0] and kk.actions(game) == {"pass_turn"}
    kk.pass_(game, 0)
    assert game.is_over
    # seat 0 {Do Wa ML}: King ML 3 + guardian Wa 2; seat 1 {Bu St Ha}: guardian St 2 + nobles Ha, Ha.
    assert game.scores == [5, 4] and game.winners == [0]


def test_the_same_position_in_the_base_game_ends_the_other_way(position):
    game = crowned_empty_handed(position, BASE)
    kk.pass_(game, 0)
    kk.pass_(game, 1)
    # seat 0: noble Wa 1 + guardian ML 2; seat 1: King Bu 3 + guardian St 2 + noble Ha 1.
    assert game.is_over and game.scores == [3, 6] and game.winners == [1]


def test_a_second_recruit_is_refused(position):
    game = crowned_empty_handed(position, RECRUIT)
    set_player_var(game, 0, "recruited", True)      # seat 0 recruited earlier in the game
    assert kk.actions(game) == {"pass_turn"} and not kk.moves_of(game, "recruit")
    with pytest.raises(IllegalMove) as refused:
        game.play(RECRUIT_MOVE)
    assert refused.value.rule == "recruit.once"
    assert refused.value.reason == "you may recruit only once a game"
    assert refusal(game, RECRUIT_MOVE) == "recruit.once"   # and the game is unchanged
    assert kk.clans_in(game, "influence#0") == [] and kk.pile_top(game) == ["St"]


def test_a_recruit_before_the_coronation(position):
    # K-E1's opening, the pile showing Ha: a recruit is legal from the first turn on.
    game = position(RECRUIT, 3, {1: "Br Bu Do Ha MB ML"}, pile=("Ha",))
    base = position(BASE, 3, {1: "Br Bu Do Ha MB ML"}, pile=("Ha",))
    assert kk.actions(base) == {"advance"}
    assert kk.actions(game) == {"advance", "recruit"} and len(kk.moves_of(game)) == 11
    game.play(RECRUIT_MOVE)
    assert kk.clans_in(game, "influence#0") == ["Ha"]
    assert game.to_move == [1] and kk.row(game, 1) == "Br Bu Do Ha MB ML"
    assert_invariants(game)


def test_a_recruit_that_finds_the_pile_empty_reshuffles_the_discards_K18(position):
    game = position(RECRUIT, 4, kk.full(), pile_size=0, discards=("Do",), fired=kk.EVERY_ROW_FIRED)
    assert game.state.zones["draw_pile"] == []
    game.play(RECRUIT_MOVE)
    assert kk.clans_in(game, "influence#0") == ["Do"]
    assert game.state.zones["discards"] == [] and game.state.zones["draw_pile"] == []
    assert_invariants(game)
