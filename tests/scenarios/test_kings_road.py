"""King's Road, one test per rule of the rules digest and every worked example (E1–E15).

The digest is /work/shared/rules/kings-road.md (§ numbers below); its §10 rulings and §11
worked examples are authoritative. Positions are built with regnum.testing's Scenario and then
played through real `pick` moves: every player picks, and after the last pick the round
resolves by itself. Seats: A = 0, B = 1, C = 2, D = 3.

Tests whose expected numbers use a banner other than Dark Tower's (5-4-2-1, the only printed
one) say "default banner": they must be updated if the banner table (digest A1) changes.
"""
from __future__ import annotations

import pytest

from regnum import IllegalMove, Move
from regnum.testing import Scenario, assert_invariants, place, set_fields

# Region keys by number (§2.1) and the King's route (§9).
R = {1: "zin_kais_deep", 2: "dragons_lair", 3: "temple_ruins", 4: "savage_hills",
     5: "dark_tower", 6: "wizards_tower", 7: "kings_altar", 8: "kings_castle"}
ZIN, LAIR, TEMPLE, HILLS, TOWER, WIZARD, ALTAR, CASTLE = (R[i] for i in range(1, 9))
TRAVEL = [ZIN, WIZARD, HILLS, ALTAR, TEMPLE, TOWER, LAIR, CASTLE]
DECK = set(R.values()) | {"knight", "dragon", "witch"}

# Three picks that never touch the scored regions of the tests that use them.
FILLER = [HILLS, ALTAR, TEMPLE]


# ── building positions ──────────────────────────────────────────────────────

def make_noble(game, seat: int, region: str) -> None:
    """Put one more marker of `seat` from supply into `region`, as that region's Noble."""
    place(game, f"supply#{seat}", f"region#{region}")
    set_fields(game, f"region#{region}", where=lambda m: m["owner"] == seat and not m["noble"],
               noble=True)


def position(rules, players: int, *, king: str = ZIN, markers: dict | None = None,
             nobles: dict | None = None, scores: list | None = None,
             supply: dict | None = None, park: str = ALTAR):
    """A game at the start of a round: the King on `king`, `markers` = {region: [count per
    seat]} ordinary markers, `nobles` = {region: owner}, `scores` per seat, and `supply` =
    {seat: markers left in supply} (the rest parked on the board in region `park`)."""
    sc = Scenario(rules, players)
    sc.set_var("king", king)
    for region, counts in (markers or {}).items():
        for seat, n in enumerate(counts):
            if n:
                sc.place(f"supply#{seat}", f"region#{region}", n=n)
    for region, owner in (nobles or {}).items():
        make_noble(sc.game, owner, region)
    for seat, value in enumerate(scores or []):
        sc.set_player_var(seat, "score", value)
    for seat, left in (supply or {}).items():
        extra = len(sc.game.state.zones[f"supply#{seat}"]) - left
        sc.place(f"supply#{seat}", f"region#{park}", n=extra)
    return sc.start()


# ── playing and reading ──────────────────────────────────────────────────────

def pick(game, seat: int, card: str) -> None:
    game.play(Move(seat, "pick", {"card": card}))


def play_round(game, choices: dict) -> None:
    """`choices` = {seat: [cards in order]}, played one card per move, seats interleaved."""
    for i in range(max(len(c) for c in choices.values())):
        for seat, cards in choices.items():
            if i < len(cards):
                pick(game, seat, cards[i])
    assert_invariants(game)


def zone(game, key: str) -> list[dict]:
    return [game.state.pieces[i] for i in game.state.zones[key]]


def markers(game, seat: int, region: str) -> int:
    """Ordinary (non-Noble) markers of `seat` in `region`."""
    return sum(1 for m in zone(game, f"region#{region}") if m["owner"] == seat and not m["noble"])


def noble(game, region: str):
    """The owner of `region`'s Noble, or None; fails if there are several."""
    owners = [m["owner"] for m in zone(game, f"region#{region}") if m["noble"]]
    assert len(owners) <= 1, owners
    return owners[0] if owners else None


def nobles(game, seat: int) -> int:
    return sum(1 for r in TRAVEL if noble(game, r) == seat)


def supply(game, seat: int) -> int:
    return len(game.state.zones[f"supply#{seat}"])


def supplies(game) -> list[int]:
    return [supply(game, p) for p in range(game.players)]


def hand(game, seat: int) -> set[str]:
    return {c["label"] for c in zone(game, f"hand#{seat}")}


def legal_cards(game, seat: int) -> set[str]:
    return {m.args["card"] for m in game.all_legal_moves() if m.player == seat}


def board(game) -> dict:
    """{(seat, region): ordinary markers} for every non-zero count."""
    return {(p, r): markers(game, p, r) for p in range(game.players) for r in TRAVEL
            if markers(game, p, r)}


def king(game) -> str:
    return game.state.vars["king"]


# ── §3 setup ──────────────────────────────────────────────────────────────────

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_counts(kings_road, players):
    game = kings_road.new_game(players=players, seed=0)
    zones = game.state.zones
    for p in range(players):
        assert len(zones[f"supply#{p}"]) == 19
        assert all(m["type"] == "marker" and m["owner"] == p and not m["noble"]
                   for m in zone(game, f"supply#{p}"))
        assert [m["owner"] for m in zone(game, f"track#{p}")] == [p]
        assert sorted(c["label"] for c in zone(game, f"hand#{p}")) == sorted(DECK)
        assert all(c["owner"] == p for c in zone(game, f"hand#{p}"))
        assert zones[f"chosen#{p}"] == [] and zones[f"played#{p}"] == []
    assert f"supply#{players}" not in zones
    assert all(zones[f"region#{r}"] == [] for r in TRAVEL) and zones["out_of_game"] == []
    assert king(game) == ZIN
    assert game.scores == [0] * players and game.winners == [] and not game.is_over
    # No start player: everybody chooses at once (§3.3).
    assert game.to_move == list(range(players))
    assert_invariants(game)


# ── §4.1 choosing three cards ──────────────────────────────────────────────

def test_each_player_picks_an_ordered_sequence_of_three_distinct_cards(kings_road):
    game = kings_road.new_game(players=3, seed=0)
    # Slot 1: anything but the Knight (it must be last).
    assert legal_cards(game, 0) == DECK - {"knight"}
    pick(game, 0, TOWER)
    # Slot 2: not the card already chosen, not the Witch (first only), not yet the Knight.
    assert legal_cards(game, 0) == DECK - {"knight", "witch", TOWER}
    pick(game, 0, HILLS)
    # Slot 3: the Knight is now allowed.
    assert legal_cards(game, 0) == DECK - {"witch", TOWER, HILLS}
    pick(game, 0, "knight")
    assert game.to_move == [1, 2]
    with pytest.raises(IllegalMove):
        pick(game, 0, ALTAR)  # a fourth card
    # The choices stay secret and unresolved until everybody has picked.
    assert [c["label"] for c in zone(game, "chosen#0")] == [TOWER, HILLS, "knight"]
    play_round(game, {1: [ALTAR, TEMPLE, CASTLE], 2: [ALTAR, CASTLE, LAIR]})
    # The last pick resolved the round: cards back in hand, a new round is open.
    assert game.to_move == [0, 1, 2]
    assert all(hand(game, p) == DECK for p in range(3))
    assert all(game.state.zones[f"chosen#{p}"] == game.state.zones[f"played#{p}"] == []
               for p in range(3))
    # Order matters: the Knight reinforced A's second card (Savage Hills), not the first.
    assert board(game)[(0, HILLS)] == 2 and board(game)[(0, TOWER)] == 1


def test_nothing_resolves_before_the_last_pick(kings_road):
    game = kings_road.new_game(players=2, seed=0)
    pick(game, 0, TOWER)
    pick(game, 0, HILLS)
    pick(game, 0, ALTAR)
    pick(game, 1, TOWER)
    pick(game, 1, HILLS)
    assert board(game) == {} and supplies(game) == [19, 19] and game.to_move == [1]
    pick(game, 1, ALTAR)
    assert board(game) == {(0, TOWER): 1, (0, HILLS): 1, (0, ALTAR): 1,
                           (1, TOWER): 1, (1, HILLS): 1, (1, ALTAR): 1}
    assert game.to_move == [0, 1]


def test_E13_two_markers_choose_exactly_two_cards(kings_road):
    # A has 2 markers in supply (the other 17 are parked in King's Altar, which is not scored).
    game = position(kings_road, 2, king=CASTLE, supply={0: 2})
    assert supply(game, 0) == 2
    pick(game, 0, TOWER)
    # Slot 2 is the last one: the Knight is allowed; choosing only one card is impossible
    # (A still has to move).
    assert "knight" in legal_cards(game, 0) and 0 in game.to_move
    pick(game, 0, "knight")
    assert game.to_move == [1]
    # A third card is refused.
    before = game.to_json()
    with pytest.raises(IllegalMove):
        pick(game, 0, HILLS)
    assert game.to_json() == before
    play_round(game, {1: FILLER})
    # [Dark Tower, Knight]: the Knight reinforces the first card (A3) → 2 markers there.
    assert markers(game, 0, TOWER) == 2 and supply(game, 0) == 0


def test_E13_two_markers_any_kind_of_card(kings_road):
    game = position(kings_road, 2, king=CASTLE, supply={0: 2})
    play_round(game, {0: ["dragon", HILLS], 1: [TEMPLE, WIZARD, TOWER]})
    # The Dragon counted (King's Castle and Zin Kai's Deep scored) and 1 marker went out.
    assert game.state.vars["scored"] == [CASTLE, ZIN] and king(game) == WIZARD
    assert markers(game, 0, HILLS) == 1 and supply(game, 0) == 1
    assert "dragon" not in hand(game, 0)


def test_one_marker_chooses_one_card(kings_road):
    game = position(kings_road, 2, king=CASTLE, supply={0: 1})
    # The only slot is both first and last: Witch and Knight are both allowed.
    assert legal_cards(game, 0) == DECK
    pick(game, 0, TOWER)
    assert game.to_move == [1]


def test_A18_no_marker_in_supply_plays_no_card(kings_road):
    game = position(kings_road, 2, king=CASTLE, supply={0: 0})
    assert game.to_move == [1] and legal_cards(game, 0) == set()
    with pytest.raises(IllegalMove):
        pick(game, 0, TOWER)
    play_round(game, {1: FILLER})
    # The round resolved without A; A still has nothing to play next round.
    assert king(game) == ZIN and game.to_move == [1]
    assert hand(game, 0) == DECK


def test_rounds_in_which_nobody_can_play_pass_by_themselves(kings_road):
    # Both supplies empty: no card is chosen, yet each round is scored and the King travels,
    # until a scored region sends markers home (Dark Tower, after Wizard's Tower, Savage
    # Hills, King's Altar and Temple Ruins).
    game = position(kings_road, 2, king=WIZARD, markers={TOWER: [19, 0], CASTLE: [0, 19]})
    assert game.state.vars["round"] == 6 and king(game) == LAIR  # rounds 1–5 passed
    assert game.scores == [5 + 1, 0] and noble(game, TOWER) == 0
    assert supplies(game) == [18, 0] and game.to_move == [0]


def test_witch_must_be_first_refusal_names_the_rule(kings_road):
    game = kings_road.new_game(players=3, seed=0)
    pick(game, 0, TOWER)
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        pick(game, 0, "witch")
    err = info.value
    assert err.rule == "pick.witch_first"
    assert err.location and "kings_road.rules" in err.location
    assert "Witch" in err.reason
    assert game.to_json() == before
    # The game goes on normally afterwards.
    pick(game, 0, HILLS)


def test_knight_must_be_last_refusal_names_the_rule(kings_road):
    game = kings_road.new_game(players=3, seed=0)
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        pick(game, 1, "knight")
    assert info.value.rule == "pick.knight_last"
    assert "Knight" in info.value.reason
    assert game.to_json() == before
    pick(game, 1, TOWER)
    with pytest.raises(IllegalMove) as info:
        pick(game, 1, "knight")
    assert info.value.rule == "pick.knight_last"


# ── §4.2 reveal and resolve: region cards, Knight, Dragon, Witch ──────────────

def test_region_card_puts_one_marker_from_supply_in_its_region(kings_road):
    game = position(kings_road, 3, king=CASTLE)
    play_round(game, {0: [ZIN, LAIR, TEMPLE], 1: [HILLS, TOWER, WIZARD], 2: [ALTAR, TOWER, ZIN]})
    # King's Castle (empty) was scored; every other marker stays where it was put.
    assert board(game) == {(0, ZIN): 1, (0, LAIR): 1, (0, TEMPLE): 1,
                           (1, HILLS): 1, (1, TOWER): 1, (1, WIZARD): 1,
                           (2, ALTAR): 1, (2, TOWER): 1, (2, ZIN): 1}
    assert supplies(game) == [16, 16, 16]


def test_knight_adds_a_marker_to_the_region_of_the_card_before_it(kings_road):
    game = position(kings_road, 2, king=CASTLE)
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [TOWER, HILLS, "knight"]})
    assert board(game) == {(0, HILLS): 1, (0, TOWER): 2, (1, TOWER): 1, (1, HILLS): 2}
    assert supplies(game) == [16, 16]
    assert hand(game, 0) == hand(game, 1) == DECK  # the Knight comes back


def test_E12_knight_after_a_dragon_does_nothing(kings_road):
    game = position(kings_road, 2, king=CASTLE)
    play_round(game, {0: [TOWER, "dragon", "knight"], 1: FILLER})
    # 1 marker in Dark Tower, not 2; the Dragon made a second region scored.
    assert markers(game, 0, TOWER) == 1 and supply(game, 0) == 18
    assert game.state.vars["scored"] == [CASTLE, ZIN] and king(game) == WIZARD
    assert "dragon" not in hand(game, 0) and "knight" in hand(game, 0)


def test_knight_alone_does_nothing(kings_road):
    game = position(kings_road, 2, king=CASTLE, supply={0: 1})
    play_round(game, {0: ["knight"], 1: FILLER})
    assert supply(game, 0) == 1 and markers(game, 0, ALTAR) == 18  # only the parked ones
    assert {r for (p, r) in board(game) if p == 0} == {ALTAR}


def test_E5_two_dragons(kings_road):
    game = position(kings_road, 3, king=TOWER)
    play_round(game, {0: ["dragon", LAIR, "knight"],
                      1: ["dragon", CASTLE, "knight"],
                      2: [TOWER, TEMPLE, ZIN]})
    # Scored in order: Dark Tower, Dragon's Lair, King's Castle; the King goes to Zin Kai's Deep.
    assert game.state.vars["scored"] == [TOWER, LAIR, CASTLE]
    assert king(game) == ZIN
    # Dark Tower: C 5 + chain 1; Dragon's Lair: A 2 (default banner) + 1; King's Castle:
    # B 8 (default banner) + 1. Zin Kai's Deep was not scored: C's marker stays.
    assert game.scores == [3, 9, 6]
    assert (noble(game, TOWER), noble(game, LAIR), noble(game, CASTLE)) == (2, 0, 1)
    assert board(game) == {(2, TEMPLE): 1, (2, ZIN): 1}
    # Both Dragons left the game.
    assert sorted((c["owner"], c["label"]) for c in zone(game, "out_of_game")) == \
        [(0, "dragon"), (1, "dragon")]
    assert "dragon" not in legal_cards(game, 0) | legal_cards(game, 1)
    assert "dragon" in legal_cards(game, 2)


def test_E10_witch_knight_and_dragon_in_one_round(kings_road):
    game = position(kings_road, 3, king=TOWER)
    play_round(game, {0: ["witch", TOWER, "knight"],
                      1: [TOWER, HILLS, "knight"],
                      2: [ZIN, TOWER, "knight"]})
    # Reveal: A's Witch left the game, A's other two cards went back to hand unresolved.
    assert game.to_move == [0]
    assert [(c["owner"], c["label"]) for c in zone(game, "out_of_game")] == [(0, "witch")]
    assert hand(game, 0) == DECK - {"witch"}
    assert legal_cards(game, 0) == DECK - {"witch", "knight"}
    # B and C resolved; A sees the board as they left it.
    assert board(game) == {(1, TOWER): 1, (1, HILLS): 2, (2, ZIN): 1, (2, TOWER): 2}
    assert markers(game, 0, TOWER) == 0
    # A chooses again.
    play_round(game, {0: ["dragon", TOWER, "knight"]})
    # Dark Tower: A 2, C 2, B 1 → A and C positions 1–2 → 4 each; B 3rd → 0 (3 players).
    # No Noble. The Dragon added Dragon's Lair: empty, nothing.
    assert game.scores == [4, 0, 4]
    assert all(noble(game, r) is None for r in TRAVEL)
    assert game.state.vars["scored"] == [TOWER, LAIR] and king(game) == CASTLE
    assert board(game) == {(1, HILLS): 2, (2, ZIN): 1}
    assert supplies(game) == [19, 17, 18]
    # A no longer has the Witch or the Dragon.
    assert hand(game, 0) == DECK - {"witch", "dragon"}
    assert legal_cards(game, 0) == DECK - {"witch", "dragon", "knight"}
    assert game.to_move == [0, 1, 2]


def test_witch_players_choose_again_together_after_the_others(kings_road):
    game = position(kings_road, 3, king=CASTLE)
    play_round(game, {0: ["witch", TOWER, HILLS],
                      1: ["witch", ZIN, "knight"],
                      2: [TOWER, TEMPLE, "knight"]})
    # Both Witch players choose again, simultaneously; C has already resolved.
    assert game.to_move == [0, 1]
    assert board(game) == {(2, TOWER): 1, (2, TEMPLE): 2}
    pick(game, 0, TOWER)
    pick(game, 0, LAIR)
    pick(game, 0, "knight")
    # A's new choice is secret from B and unresolved until B has chosen too.
    seen_by_b = game.observation(1)["zones"]["chosen#0"]
    assert seen_by_b == {"count": 3, "revealed": []}
    assert markers(game, 0, TOWER) == 0 and game.to_move == [1]
    play_round(game, {1: [TOWER, ALTAR, "knight"]})
    assert board(game) == {(0, TOWER): 1, (0, LAIR): 2, (1, TOWER): 1, (1, ALTAR): 2,
                           (2, TOWER): 1, (2, TEMPLE): 2}
    assert sorted(c["owner"] for c in zone(game, "out_of_game")) == [0, 1]


def test_witch_player_may_play_the_dragon_again_chosen_cards_and_it_counts(kings_road):
    # A7: a Dragon in the re-choice counts for this round's scoring.
    game = position(kings_road, 2, king=CASTLE)
    play_round(game, {0: ["witch", TOWER, HILLS], 1: FILLER})
    play_round(game, {0: ["dragon", TOWER, HILLS]})
    assert game.state.vars["scored"] == [CASTLE, ZIN] and king(game) == WIZARD


def test_witch_once_per_game(kings_road):
    game = position(kings_road, 2, king=CASTLE)
    play_round(game, {0: ["witch", TOWER, HILLS], 1: FILLER})
    play_round(game, {0: [TOWER, HILLS, ALTAR]})
    assert "witch" not in legal_cards(game, 0) and "witch" in legal_cards(game, 1)
    with pytest.raises(IllegalMove):
        pick(game, 0, "witch")


def test_witch_with_one_marker_chooses_one_card_again(kings_road):
    game = position(kings_road, 2, king=CASTLE, supply={0: 1})
    play_round(game, {0: ["witch"], 1: FILLER})
    assert game.to_move == [0] and legal_cards(game, 0) == DECK - {"witch"}
    play_round(game, {0: [TOWER]})
    assert markers(game, 0, TOWER) == 1 and supply(game, 0) == 0


# ── §4.3 scoring ─────────────────────────────────────────────────────────────

def test_E1_dark_tower_majority_four_players(kings_road):
    # Jen 4, Phil 3, Chris 2, Simon 1 after the reveal.
    game = position(kings_road, 4, king=TOWER, markers={TOWER: [2, 1, 0, 0]})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, TOWER, "knight"],
                      2: [HILLS, TOWER, "knight"], 3: [TOWER, HILLS, ALTAR]})
    # 5, 4, 2 and no 4th place with 4 players; Jen's Noble, chain bonus 1.
    assert game.scores == [6, 4, 2, 0]
    assert noble(game, TOWER) == 0
    # All other markers (Jen 3, Phil 3, Chris 2, Simon 1) went back to supply.
    assert all(markers(game, p, TOWER) == 0 for p in range(4))
    assert supplies(game) == [17, 18, 18, 17]
    assert king(game) == LAIR


def test_paid_places_are_players_minus_one_not_players_present(kings_road):
    # E1's strengths in a 5-player game: the 4th place now pays 1 (A10).
    game = position(kings_road, 5, king=TOWER, markers={TOWER: [2, 1, 0, 0, 0]})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, TOWER, "knight"],
                      2: [HILLS, TOWER, "knight"], 3: [TOWER, HILLS, ALTAR], 4: FILLER})
    assert game.scores == [6, 4, 2, 1, 0]


def test_paid_places_are_capped_by_the_banner_length(kings_road):
    # default banner: Temple Ruins pays 3-2-1 (three values) — a 4th place gets nothing.
    game = position(kings_road, 5, king=TEMPLE, markers={TEMPLE: [2, 1, 0, 0, 0]})
    play_round(game, {0: [HILLS, TEMPLE, "knight"], 1: [HILLS, TEMPLE, "knight"],
                      2: [HILLS, TEMPLE, "knight"], 3: [TEMPLE, HILLS, ALTAR],
                      4: [HILLS, ALTAR, WIZARD]})
    assert game.scores == [3 + 1, 2, 1, 0, 0]


def test_E2_tie_for_first(kings_road):
    game = position(kings_road, 4, king=TOWER, markers={TOWER: [1, 1, 0, 0]})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, TOWER, "knight"],
                      2: [TOWER, HILLS, ALTAR], 3: FILLER})
    # A 3, B 3 take positions 1–2 → 4 each; C 3rd → 2; D not ranked. No Noble.
    assert game.scores == [4, 4, 2, 0]
    assert noble(game, TOWER) is None and zone(game, f"region#{TOWER}") == []


def test_E2_variant_tie_keeps_the_old_noble_and_its_owner_scores_the_chain(kings_road):
    # A12: B holds the Noble (counted in B's 3); the tie leaves it there and B gets the bonus.
    game = position(kings_road, 4, king=TOWER, markers={TOWER: [1, 0, 0, 0]},
                    nobles={TOWER: 1})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, TOWER, "knight"],
                      2: [TOWER, HILLS, ALTAR], 3: FILLER})
    assert game.scores == [4, 4 + 1, 2, 0]
    assert noble(game, TOWER) == 1
    assert [m["owner"] for m in zone(game, f"region#{TOWER}")] == [1]


@pytest.mark.parametrize("players, expected", [(4, [2, 2, 2, 0]), (3, [0, 0, 0])])
def test_E3_three_way_tie_for_first(kings_road, players, expected):
    choices = {p: [HILLS, TOWER, "knight"] for p in range(3)}
    if players == 4:
        choices[3] = [TOWER, HILLS, ALTAR]  # D is 4th: with 4 players that place never pays
    game = position(kings_road, players, king=TOWER)
    play_round(game, choices)
    assert game.scores == expected
    assert noble(game, TOWER) is None


def test_A9_tie_below_first_takes_the_lowest_value_and_later_places_keep_theirs(kings_road):
    # 5 players, Dark Tower: A 3, B 2, C 2, D 1, E 0 → A 5; B, C positions 2–3 → 2 each;
    # D 4th → 1; E unranked.
    game = position(kings_road, 5, king=TOWER, markers={TOWER: [1, 0, 0, 0, 0]})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, TOWER, "knight"],
                      2: [HILLS, TOWER, "knight"], 3: [TOWER, HILLS, ALTAR], 4: FILLER})
    assert game.scores == [5 + 1, 2, 2, 1, 0]


def test_E14_two_players_only_first_place_pays(kings_road):
    game = position(kings_road, 2, king=TOWER)
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, TOWER, "knight"]})
    # A 2, B 2: both in the block 1–2, position 2 does not pay. No Noble.
    assert game.scores == [0, 0] and noble(game, TOWER) is None

    game = position(kings_road, 2, king=TOWER, markers={TOWER: [1, 0]})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [TOWER, HILLS, ALTAR]})
    # A 3, B 1: A 5 + Noble bonus 1; B 0.
    assert game.scores == [6, 0] and noble(game, TOWER) == 0


def test_a_player_needs_a_marker_to_be_ranked(kings_road):
    # An empty region pays nobody and gets no Noble; players absent from a region score 0
    # there. (With the N−1 cap and lowest-of-tied values, a block of absent players would
    # never be paid anyway: it always reaches position N.)
    game = position(kings_road, 3, king=TOWER)
    play_round(game, {p: FILLER for p in range(3)})
    assert game.scores == [0, 0, 0] and noble(game, TOWER) is None

    game = position(kings_road, 3, king=TOWER)
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: FILLER, 2: FILLER})
    assert game.scores == [6, 0, 0]


def test_markers_return_to_supply_except_nobles_and_unscored_regions(kings_road):
    game = position(kings_road, 3, king=TOWER, markers={TOWER: [1, 1, 0], TEMPLE: [2, 0, 1]})
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: [HILLS, ALTAR, WIZARD], 2: [TOWER, HILLS, ZIN]})
    # Dark Tower (A 2, B 1, C 1) scored: A's Noble stays, every other marker there goes home.
    assert [(m["owner"], m["noble"]) for m in zone(game, f"region#{TOWER}")] == [(0, True)]
    # Unscored regions keep their markers.
    assert markers(game, 0, TEMPLE) == 2 and markers(game, 2, TEMPLE) == 1
    assert markers(game, 0, HILLS) == markers(game, 1, HILLS) == markers(game, 2, HILLS) == 1
    assert supplies(game) == [19 - 3 - 2, 19 - 1 - 3 + 1, 19 - 1 - 3 + 1]


def test_E11_noble_replaced(kings_road):
    game = position(kings_road, 4, king=TOWER, markers={TOWER: [1, 0, 0, 0]}, nobles={TOWER: 1})
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: FILLER, 2: FILLER, 3: FILLER})
    # A 3, B's Noble only (1): A 5 + bonus 1, B 4.
    assert game.scores == [6, 4, 0, 0]
    assert noble(game, TOWER) == 0
    assert [m["owner"] for m in zone(game, f"region#{TOWER}")] == [0]
    # B's Noble went back to B's supply.
    assert supply(game, 1) == 19 - 1 - 3 + 1
    assert supply(game, 0) == 19 - 1 - 3 + 2


def test_A11_sole_leader_who_owns_the_noble_keeps_it(kings_road):
    game = position(kings_road, 3, king=TOWER, nobles={TOWER: 0})
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: [TOWER, HILLS, ALTAR], 2: FILLER})
    # A 2 (Noble + 1), B 1 → A 5 + chain 1, B 4; still exactly one Noble, A's.
    assert game.scores == [6, 4, 0]
    assert [(m["owner"], m["noble"]) for m in zone(game, f"region#{TOWER}")] == [(0, True)]
    assert supply(game, 0) == 19 - 1 - 3 + 1


def test_E4_noble_chain(kings_road):
    game = position(kings_road, 3, king=TOWER, nobles={TEMPLE: 0, LAIR: 0})
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: [HILLS, ALTAR, WIZARD],
                      2: [HILLS, ALTAR, WIZARD]})
    # Chain {5, 3, 2}: bonus 3, plus 5 for first place.
    assert game.scores == [5 + 3, 0, 0]


def test_E7_chain_across_the_road_the_king_never_uses(kings_road):
    game = position(kings_road, 3, king=ZIN, nobles={TEMPLE: 0, CASTLE: 0, LAIR: 0})
    play_round(game, {0: [ZIN, HILLS, ALTAR], 1: [HILLS, ALTAR, WIZARD],
                      2: [HILLS, ALTAR, WIZARD]})
    # Chain from 1: 1–3, 1–8, 8–2 → {1, 3, 8, 2}: bonus 4. default banner: 1 for first place.
    assert game.scores == [1 + 4, 0, 0]
    assert noble(game, ZIN) == 0


def test_E8_broken_chain(kings_road):
    game = position(kings_road, 3, king=TOWER, nobles={LAIR: 0, ZIN: 0})
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: [HILLS, ALTAR, WIZARD],
                      2: [HILLS, ALTAR, WIZARD]})
    # 5–2 yes; 2–8 has no Noble; 1 unreachable → bonus 2.
    assert game.scores == [5 + 2, 0, 0]


def test_chain_counts_only_the_scoring_owners_nobles(kings_road):
    # B's Nobles next to Dark Tower do not lengthen A's chain.
    game = position(kings_road, 3, king=TOWER, nobles={TEMPLE: 1, LAIR: 1})
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: [HILLS, ALTAR, WIZARD],
                      2: [HILLS, ALTAR, WIZARD]})
    assert game.scores == [5 + 1, 0, 0]


def test_E9_regions_scored_one_at_a_time_in_travel_order(kings_road):
    # A: 1 in Dark Tower, 1 in Dragon's Lair and the King's Castle Noble before the round.
    game = position(kings_road, 3, king=TOWER, markers={TOWER: [1, 0, 0], LAIR: [1, 0, 0]},
                    nobles={CASTLE: 0})
    play_round(game, {0: [TOWER, "dragon", "knight"],
                      1: [TOWER, HILLS, WIZARD],
                      2: [HILLS, ALTAR, TEMPLE]})
    # (i) Dark Tower A 2, B 1: A 5 + bonus 1 ({5, 8} not linked), B 4.
    # (ii) Dragon's Lair A 1: default banner 2, then {2, 5, 8} linked → bonus 3.
    assert game.scores == [5 + 1 + 2 + 3, 4, 0]
    assert game.state.vars["scored"] == [TOWER, LAIR]
    assert king(game) == CASTLE
    assert (noble(game, TOWER), noble(game, LAIR), noble(game, CASTLE)) == (0, 0, 0)
    assert supply(game, 0) == 16  # the Knight after the Dragon placed nothing


# ── §4.4 the King travels, cards return ────────────────────────────────────────

@pytest.mark.parametrize("start", TRAVEL)
def test_king_moves_to_the_region_after_the_last_scored_one(kings_road, start):
    game = position(kings_road, 2, king=start)
    play_round(game, {0: [HILLS, ALTAR, TEMPLE], 1: [HILLS, ALTAR, TEMPLE]})
    after = TRAVEL[(TRAVEL.index(start) + 1) % 8]
    assert king(game) == after
    # 1 → 6 and 3 → 5: the King never takes the 3–1 road.
    assert (start, after) not in {(TEMPLE, ZIN), (ZIN, TEMPLE)}


def test_played_cards_return_to_hand_except_spent_dragons_and_witches(kings_road):
    game = position(kings_road, 3, king=CASTLE)
    play_round(game, {0: ["witch", TOWER, "knight"], 1: ["dragon", HILLS, "knight"],
                      2: [TOWER, TEMPLE, "knight"]})
    play_round(game, {0: ["dragon", TOWER, "knight"]})
    assert hand(game, 0) == DECK - {"witch", "dragon"}
    assert hand(game, 1) == DECK - {"dragon"}
    assert hand(game, 2) == DECK
    assert sorted((c["owner"], c["label"]) for c in zone(game, "out_of_game")) == \
        [(0, "dragon"), (0, "witch"), (1, "dragon")]
    assert all(game.state.zones[f"{z}#{p}"] == [] for z in ("chosen", "played") for p in range(3))
    # Cards are conserved: hand + out of game = 11 per player.
    for p in range(3):
        spent = [c for c in zone(game, "out_of_game") if c["owner"] == p]
        assert len(hand(game, p)) + len(spent) == 11


# ── §7 end of the game ─────────────────────────────────────────────────────────

@pytest.mark.parametrize("before, over", [(34, True), (33, False)])
def test_A13_game_ends_after_a_round_with_40_or_more(kings_road, before, over):
    game = position(kings_road, 2, king=TOWER, scores=[before, 0])
    play_round(game, {0: [HILLS, TOWER, "knight"], 1: [HILLS, ALTAR, TEMPLE]})
    assert game.scores[0] >= before + 6
    if over:
        # Exactly 40 ends it. Final scoring: Savage Hills tie (0), King's Altar B 7 and
        # Temple Ruins B 3 (default banners).
        assert game.is_over and game.to_move == [] and game.all_legal_moves() == []
        assert game.scores == [40, 7 + 3] and game.winners == [0]
        with pytest.raises(IllegalMove):
            pick(game, 0, TOWER)
    else:
        assert not game.is_over and game.scores == [39, 0] and game.to_move == [0, 1]
        assert game.winners == []


def test_E6_final_round_then_final_scoring_of_the_other_regions(kings_road):
    # default banner (King's Altar, Temple Ruins, King's Castle, Dragon's Lair, Zin Kai's
    # Deep, Wizard's Tower, Savage Hills).
    game = position(kings_road, 3, king=ALTAR, scores=[36, 0, 0],
                    markers={TOWER: [0, 2, 1], LAIR: [0, 0, 1], CASTLE: [1, 1, 0],
                             ZIN: [0, 1, 0], WIZARD: [1, 0, 0]},
                    nobles={WIZARD: 2})
    play_round(game, {0: ["dragon", ALTAR, "knight"],
                      1: [ALTAR, TEMPLE, "knight"],
                      2: [TEMPLE, ALTAR, HILLS]})
    # Last round: King's Altar (A 2, B 1, C 1 → A 7 + Noble 1, B and C positions 2–3 → 0)
    # puts A at 44 ≥ 40, but the round goes on: Temple Ruins (B 2, C 1 → B 3 + Noble 1,
    # C 2). Then final scoring of 5, 2, 8, 1, 6, 4, majority only:
    #   5: B 5, C 4;  2: C 2;  8: A–B tie → 6 each;  1: B 1;
    #   6: C's Noble ties A's marker → 4 each;  4: C 4.
    assert game.is_over
    assert game.state.vars["scored"] == [ALTAR, TEMPLE]
    assert game.scores == [36 + 8 + 6 + 4, 4 + 5 + 6 + 1, 2 + 4 + 2 + 4 + 4]
    assert game.winners == [0]
    # Final scoring placed and replaced no Noble.
    assert {r: noble(game, r) for r in TRAVEL if noble(game, r) is not None} == \
        {ALTAR: 0, TEMPLE: 1, WIZARD: 2}
    assert king(game) == TOWER


@pytest.mark.parametrize("a_nobles, winners", [(2, [1]), (3, [0, 1])])
def test_E15_end_and_tie_break(kings_road, a_nobles, winners):
    # default banner (Temple Ruins 3, Wizard's Tower 6; only first place pays with 2 players).
    nobles = {TEMPLE: 0, ZIN: 1, LAIR: 1, WIZARD: 1}
    b_markers = {WIZARD: [0, 15]}
    if a_nobles == 3:
        nobles[HILLS] = 0  # not linked to A's others; tied by a B marker at the end
        b_markers = {WIZARD: [0, 14], HILLS: [0, 1]}
    game = position(kings_road, 2, king=TOWER, scores=[34, 38], markers=b_markers, nobles=nobles)
    assert supply(game, 1) == 1
    play_round(game, {0: [TOWER, ZIN, LAIR], 1: [WIZARD]})
    # Dark Tower: A 5, Noble, chain {5, 3} = 2 → A 41, B 38: the game ends. Final scoring:
    # Zin Kai's Deep and Dragon's Lair tie (A's marker, B's Noble) → 0; Temple Ruins A 3;
    # Wizard's Tower B 6 → 44 each.
    assert game.is_over and game.scores == [44, 44]
    assert (nobles_a := sum(1 for r in TRAVEL if noble(game, r) == 0)) == a_nobles
    assert sum(1 for r in TRAVEL if noble(game, r) == 1) == 3
    assert game.winners == winners, nobles_a


def test_winner_by_points(kings_road):
    game = position(kings_road, 3, king=TOWER, scores=[38, 39, 10])
    play_round(game, {0: [TOWER, HILLS, ALTAR], 1: [HILLS, WIZARD, ZIN], 2: FILLER})
    # Dark Tower: A 5 + 1 → 44 ends the game. Final scoring (default banner): Zin Kai's Deep
    # B 1; Wizard's Tower B 6; Temple Ruins C 3; King's Altar A–C tie → 5 each; Savage
    # Hills three-way tie → positions 1–3 → nothing with 3 players.
    assert game.is_over and game.scores == [44 + 5, 39 + 1 + 6, 10 + 3 + 5]
    assert game.winners == [0]
