"""King's Kilt, one test per rule of the rules digest and every worked example (K-E1–K-E12).

The digest is /work/shared/rules/kings-kilt.md (§ numbers and rulings K1–K22 below are its);
its §13 rulings override what precedes them. Positions are built with regnum.testing's
Scenario and then played through real moves. Seats are 0…N−1 clockwise; the player on a
seat's right is the one before it. Clans are written by the digest's abbreviations.
"""
from __future__ import annotations

import pytest

import regnum
from regnum import Move
from regnum.testing import Scenario, assert_invariants, refusal

RULES = regnum.load("kings_kilt")

CLAN = {"Br": "bruce", "Bu": "buchanan", "Do": "douglas", "Ha": "hamilton",
        "MB": "macbeth", "ML": "macleod", "St": "stewart", "Wa": "wallace"}
SHORT = {v: k for k, v in CLAN.items()}
SLOTS = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}
ALL_SLOTS = [(r, i) for r in range(1, 7) for i in range(SLOTS[r])]
EVERY_ROW_FIRED = ("noblemen", "guardians", "coronation")


def key(r: int, i: int) -> str:
    return f"place#({r},{i})"


def slot(r: int, i: int) -> str:
    return f"({r},{i})"


# ── building positions ──────────────────────────────────────────────────────

STASH = "members"   # a hidden setup zone, empty during play: the cards not yet placed wait here


def _take(sc: Scenario, clan: str, to: str, prefer: str | None = None) -> None:
    """Move one card of clan `clan` (an abbreviation) from the stash to zone `to`."""
    game = sc.game
    ids = [i for i in game.state.zones[STASH] if game.state.pieces[i]["clan"] == CLAN[clan]]
    if prefer:
        ids.sort(key=lambda i: game.state.pieces[i]["rank"] != prefer)
    assert ids, f"no {clan} card left to place"
    sc.place(STASH, to, where=lambda rec, want=ids[0]: rec is game.state.pieces[want])


def position(players: int, rows: dict, *, pile=(), pile_size: int | None = None,
             family: dict | None = None, influence: dict | None = None, discards=(),
             start: int = 0, fired=(), crowned: bool | None = None, options: dict | None = None,
             face_up: dict | None = None):
    """A game at the start of seat `start`'s turn.

    `rows` = {row: "Br Bu . Do"} (left to right, "." an empty place); `pile` lists the top cards
    of the draw pile from the top down, over the other cards left (`pile_size` cuts the pile to
    that many cards, the rest go to the removed cards); `family` / `influence` = {seat: "Do Wa ML"}
    (families default to three clans each, influence to none); `fired` names the `once` row
    triggers that have already fired (`crowned` follows "coronation" unless given);
    `face_up` = {seat: "Do"} family cards already turned up.
    """
    opts = {"random_start": False, **(options or {})}
    sc = Scenario(RULES, players, options=opts)
    zones = sc.game.state.zones
    for z in [k for k in zones if k.startswith(("place#", "family#", "influence#"))] + ["draw_pile"]:
        sc.place(z, STASH, n=None)
    for r, text in rows.items():
        for i, clan in enumerate(text.split()):
            if clan != ".":
                _take(sc, clan, key(r, i), prefer="leader")
    family = dict(family or {})
    for p in range(players):
        if p not in family:   # three clans with cards to spare
            pieces = [sc.game.state.pieces[i]["clan"] for i in zones[STASH]]
            spare = sorted(CLAN, key=lambda c: -pieces.count(CLAN[c]))
            family[p] = " ".join(sorted(spare[:3]))
        for clan in family[p].split():
            _take(sc, clan, f"family#{p}", prefer="member")
    for p, text in (influence or {}).items():
        for clan in text.split():
            _take(sc, clan, f"influence#{p}", prefer="member")
    for clan in discards:
        _take(sc, clan, "discards", prefer="member")
    for clan in pile:                       # the named cards come first out of the stash …
        _take(sc, clan, "removed")
    named = zones["removed"][-len(pile):] if pile else []
    rest = list(zones[STASH])
    keep = rest if pile_size is None else rest[:max(0, pile_size - len(pile))]
    for i in rest:
        target = "draw_pile" if i in keep else "removed"
        sc.place(STASH, target, where=lambda rec, want=i: rec is sc.game.state.pieces[want])
    for i in reversed(named):               # … and go on top, the first named card last
        sc.place("removed", "draw_pile", where=lambda rec, want=i: rec is sc.game.state.pieces[want])
    for p, text in (face_up or {}).items():
        for clan in text.split():
            sc.set_fields(f"family#{p}", where=lambda rec, c=CLAN[clan]: rec["clan"] == c, face_up=True)
    sc.set_fired(*fired)                    # which once-a-game triggers have fired
    sc.set_var("crowned", "coronation" in fired if crowned is None else crowned)
    sc.set_var("start_player", start)
    return sc.start()


FULL = {1: "Br Bu Do Ha MB ML", 2: "St Wa Br Bu Do", 3: "Ha MB ML St"}


def full(top: dict | None = None) -> dict:
    """A complete pyramid: rows 1–3 as FULL, rows 4–6 from `top` (default Wa Ha MB / ML St / Bu)."""
    rows = dict(FULL)
    rows.update({4: "Wa Ha MB", 5: "ML St", 6: "Bu"})
    rows.update(top or {})
    return rows


# ── playing and reading ──────────────────────────────────────────────────────

def advance(game, seat, frm, way):
    game.play(Move(seat, "advance", {"from": slot(*frm), "way": way}))


def betray(game, seat, with_, b, c):
    game.play(Move(seat, "betray", {"with": CLAN[with_], "b": slot(*b), "c": slot(*c)}))


def raise_(game, seat, frm):
    game.play(Move(seat, "raise", {"from": slot(*frm)}))


def pass_(game, seat):
    game.play(Move(seat, "pass_turn", {}))


def card(game, r, i):
    ids = game.state.zones[key(r, i)]
    assert len(ids) <= 1
    return SHORT[game.state.pieces[ids[0]]["clan"]] if ids else "."


def row(game, r) -> str:
    return " ".join(card(game, r, i) for i in range(SLOTS[r]))


def pyramid_count(game) -> int:
    return sum(len(game.state.zones[key(r, i)]) for r, i in ALL_SLOTS)


def pile_top(game, n=1) -> list[str]:
    ids = game.state.zones["draw_pile"]
    return [SHORT[game.state.pieces[i]["clan"]] for i in reversed(ids[-n:])]


def clans_in(game, zone) -> list[str]:
    return [SHORT[game.state.pieces[i]["clan"]] for i in game.state.zones[zone]]


def moves_of(game, action=None):
    return [m for m in game.all_legal_moves() if action is None or m.action == action]


def actions(game) -> set[str]:
    return {m.action for m in game.all_legal_moves()}


def face_up(game, seat) -> list[str]:
    return [SHORT[game.state.pieces[i]["clan"]] for i in game.state.zones[f"family#{seat}"]
            if game.state.pieces[i]["face_up"]]


refused = refusal   # the rule named by the refusal of a move; the game is unchanged


def turn_up(game, seat, clan):
    game.play(Move(seat, "turn_up", {"c": CLAN_NAME[clan]}))


CLAN_NAME = {"Br": "Bruce", "Bu": "Buchanan", "Do": "Douglas", "Ha": "Hamilton",
             "MB": "MacBeth", "ML": "MacLeod", "St": "Stewart", "Wa": "Wallace"}


def reveal_all(game) -> list[tuple[int, str]]:
    """Answer every pending turn_up with the seat's first face-down card; who revealed what."""
    done = []
    while game.to_move and actions(game) == {"turn_up"}:
        move = moves_of(game)[0]
        done.append((move.player, move.args["c"]))
        game.play(move)
    return done


# ── §3 setup (K-E12) ────────────────────────────────────────────────────────

def pieces(game, zone):
    return [game.state.pieces[i] for i in game.state.zones[zone]]


@pytest.mark.parametrize("players, hand, pile", [(2, 5, 48), (3, 5, 40), (4, 4, 36)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_setup_counts_K_E12(players, hand, pile, seed):
    game = RULES.new_game(players=players, seed=seed, options={"random_start": False})
    firsts = []
    for p in range(players):
        fam = pieces(game, f"family#{p}")
        assert len(fam) == 3 and len({c["clan"] for c in fam}) == 3
        assert all(c["rank"] == "member" and not c["face_up"] for c in fam)
        firsts += [c["clan"] for c in fam[:2]]          # the two from the one-per-clan set
        inf = pieces(game, f"influence#{p}")
        assert len(inf) == hand and all(c["rank"] == "member" for c in inf)
    assert len(set(firsts)) == 2 * players
    base = [pieces(game, key(1, i))[0] for i in range(6)]
    assert all(c["rank"] == "leader" for c in base)
    draw = pieces(game, "draw_pile")
    assert len(draw) + 6 == pile                      # the pile before the base was dealt
    assert [c["rank"] for c in draw[-10:]] == ["leader"] * 10   # the other 10 leaders on top
    assert all(c["rank"] == "member" for c in draw[:-10])
    assert pyramid_count(game) == 6
    for z in ("discards", "removed", "members", "family_set", "leaders", "set_aside"):
        assert game.state.zones[z] == [], z
    assert game.to_move == [0] and actions(game) == {"advance", "betray"}
    assert game.state.vars["crowned"] is False and game.state.once == ()
    assert_invariants(game)


def test_the_start_player_is_drawn_unless_fixed_K10():
    starts = {RULES.new_game(players=3, seed=s).to_move[0] for s in range(20)}
    assert starts == {0, 1, 2}
    assert {RULES.new_game(players=3, seed=s, options={"random_start": False}).to_move[0]
            for s in range(20)} == {0}


def test_setup_is_reproducible_by_seed():
    a = RULES.new_game(players=4, seed=11).to_json()
    assert RULES.new_game(players=4, seed=11).to_json() == a
    assert RULES.new_game(players=4, seed=12).to_json() != a


# ── §4.1 advance (K-E1, K-E2, K-E3) ─────────────────────────────────────────

BASE = {1: "Br Bu Do Ha MB ML"}


def test_opening_moves_K_E1():
    game = position(3, BASE, influence={0: "Wa St St"})
    adv = {(m.args["from"], m.args["way"]) for m in moves_of(game, "advance")}
    assert adv == {("(1,0)", "up_right"), ("(1,5)", "up_left")} | {
        (slot(1, i), w) for i in range(1, 5) for w in ("up_left", "up_right")}
    assert len(moves_of(game, "advance")) == 10
    pairs = {(m.args["b"], m.args["c"]) for m in moves_of(game, "betray")}
    assert pairs == {(slot(1, i), slot(1, j)) for i in range(6) for j in range(6) if abs(i - j) == 1}
    assert len(pairs) == 10
    # Each pair with either influence clan; the two Stewarts are one option (K20).
    assert len(moves_of(game, "betray")) == 20
    assert {m.args["with"] for m in moves_of(game, "betray")} == {"wallace", "stewart"}
    assert len(game.all_legal_moves()) == 30
    assert game.legal_moves(0) == game.all_legal_moves() and game.legal_moves(1) == []


def test_an_advance_and_its_refill_K_E2():
    game = position(3, BASE, pile=("St", "Wa"))
    size = len(game.state.zones["draw_pile"])
    advance(game, 0, (1, 2), "up_left")
    assert row(game, 1) == "Br Bu St Ha MB ML"
    assert row(game, 2) == ". Do . . ."
    assert pile_top(game) == ["Wa"] and len(game.state.zones["draw_pile"]) == size - 1
    assert game.to_move == [1]                       # a base vacancy asks for no choice
    assert game.observation(2)["zones"]["draw_pile"]["top"]["clan"] == "wallace"
    assert_invariants(game)


def test_no_support_no_advance_K_E3():
    game = position(3, {**BASE, 2: ". Do . . ."})
    assert refused(game, Move(0, "advance", {"from": "(2,1)", "way": "up_left"})) == "advance.support"
    assert refused(game, Move(0, "advance", {"from": "(2,1)", "way": "up_right"})) == "advance.support"
    assert not any(m.args["from"] == "(2,1)" for m in moves_of(game, "advance"))
    # Row-1 cards still reach every empty row-2 place; (2,1) is taken.
    adv = {(m.args["from"], m.args["way"]) for m in moves_of(game, "advance")}
    assert adv == {("(1,0)", "up_right"), ("(1,1)", "up_left"), ("(1,2)", "up_right"),
                   ("(1,3)", "up_left"), ("(1,3)", "up_right"), ("(1,4)", "up_left"),
                   ("(1,4)", "up_right"), ("(1,5)", "up_left")}
    assert refused(game, Move(0, "advance", {"from": "(1,1)", "way": "up_right"})) == "advance.room"
    # The end of a row has no neighbour on its outer side.
    assert refused(game, Move(0, "advance", {"from": "(1,0)", "way": "up_left"})) == "advance.support"


def test_advancing_with_support_from_a_higher_row():
    game = position(3, {**BASE, 2: ". Do Br . ."}, pile=("Ha",))
    advance(game, 0, (2, 1), "up_right")             # right neighbour Br supports it
    assert row(game, 3) == ". Do . ."
    assert game.to_move == [0] and {m.args["from"] for m in moves_of(game)} == {"(1,1)", "(1,2)"}
    raise_(game, 0, (1, 1))
    assert row(game, 2) == ". Bu Br . ." and row(game, 1) == "Br Ha Do Ha MB ML"
    assert game.to_move == [1]
    assert_invariants(game)


# ── §4.4 the power vacuum and §5 the Noblemen (K-E4) ────────────────────────

E4 = {1: "Br Bu Do Ha MB ML", 2: "St Wa Br", 3: "Ha Do"}


def test_vacuum_chain_and_noblemen_trigger_K_E4():
    game = position(4, E4, pile=("Bu", "St"), start=2)
    size = len(game.state.zones["draw_pile"])
    advance(game, 2, (3, 0), "up_right")
    # Each refill is its own decision of the active player; nothing is revealed meanwhile.
    assert game.to_move == [2] and moves_of(game) == [
        Move(2, "raise", {"from": "(2,0)"}), Move(2, "raise", {"from": "(2,1)"})]
    assert game.state.vars["vacancy"] == "(3,0)" and pyramid_count(game) == 11
    raise_(game, 2, (2, 1))
    assert moves_of(game) == [Move(2, "raise", {"from": "(1,1)"}), Move(2, "raise", {"from": "(1,2)"})]
    assert all(face_up(game, p) == [] for p in range(4))
    raise_(game, 2, (1, 2))
    assert [row(game, r) for r in (4, 3, 2, 1)] == [
        "Ha . .", "Wa Do . .", "St Do Br . .", "Br Bu Bu Ha MB ML"]
    assert len(game.state.zones["draw_pile"]) == size - 1          # exactly one card drawn
    assert game.state.vars["vacancy"] is None and game.state.once == ("noblemen",)
    # The reveals come after the raises: seats 2, 3, 0; seat 1 (on seat 2's right) does not.
    order = []
    while actions(game) == {"turn_up"}:
        assert len(game.to_move) == 1
        seat = game.to_move[0]
        assert len(moves_of(game)) == 3 - len(face_up(game, seat))
        order.append(seat)
        game.play(moves_of(game)[-1])
    assert order == [2, 3, 0]
    assert [len(face_up(game, p)) for p in range(4)] == [1, 0, 1, 1]
    assert game.to_move == [3] and actions(game) <= {"advance", "betray"}
    assert_invariants(game)


def finish_chain(game, seat) -> int:
    """Make every pending raise of `seat` (the left card each time); how many there were."""
    n = 0
    while game.to_move == [seat] and actions(game) == {"raise"}:
        assert len(moves_of(game)) == 2
        game.play(moves_of(game)[0])
        n += 1
    return n


def revealed_count(game) -> int:
    return sum(len(face_up(game, p)) for p in range(game.players))


def test_each_row_trigger_fires_once_after_the_vacuum_chain_K3():
    game = position(3, FULL, influence={0: "Wa"})
    # Seat 0 puts the first card into row 4: the chain first (2 raises), then seats 0 and 1
    # reveal one card each (seat 2, on seat 0's right, does not).
    advance(game, 0, (3, 0), "up_right")
    assert actions(game) == {"raise"} and revealed_count(game) == 0
    assert finish_chain(game, 0) == 2
    assert [p for p, _ in reveal_all(game)] == [0, 1]
    assert game.state.once == ("noblemen",)
    # Two more cards enter row 4: no more reveals.
    advance(game, 1, (3, 2), "up_right")
    assert finish_chain(game, 1) == 2 and game.to_move == [2] and actions(game) == {"advance"}
    advance(game, 2, (3, 1), "up_right")
    assert finish_chain(game, 2) == 2 and game.to_move == [0] and "turn_up" not in actions(game)
    assert row(game, 4) == "Ha MB ML" and revealed_count(game) == 2
    # The first guardian: chain of 3 raises, then seats 0 and 1 reveal again.
    advance(game, 0, (4, 0), "up_right")
    assert finish_chain(game, 0) == 3
    assert [p for p, _ in reveal_all(game)] == [0, 1]
    assert [len(face_up(game, p)) for p in range(3)] == [2, 2, 0]
    # The second guardian: no reveal.
    advance(game, 1, (4, 1), "up_right")
    assert finish_chain(game, 1) == 3 and game.to_move == [2] and actions(game) == {"advance"}
    assert not game.state.vars["crowned"]
    assert refused(game, Move(2, "pass_turn", {})) == "pass_turn.after_coronation"
    # The coronation: passing becomes legal; the pyramid is full once the chain is done.
    advance(game, 2, (5, 0), "up_right")
    assert game.state.vars["crowned"] is True
    assert finish_chain(game, 2) == 4
    assert game.state.once == ("noblemen", "guardians", "coronation")
    assert pyramid_count(game) == 21 and revealed_count(game) == 4
    assert game.to_move == [0] and actions(game) == {"betray", "pass_turn"}
    assert not moves_of(game, "advance")
    assert_invariants(game)


# ── §5 reveal effects with 3 and 2 players (K-E5), order and exemption (K4, K6) ──

@pytest.mark.parametrize("players, start, order", [
    (4, 2, [2, 3, 0]), (4, 0, [0, 1, 2]), (4, 3, [3, 0, 1]), (3, 0, [0, 1]), (3, 1, [1, 2]),
    (3, 2, [2, 0]), (2, 0, [0]), (2, 1, [1])])
def test_noblemen_reveal_clockwise_from_the_active_player_but_not_the_right_K_E5(players, start, order):
    game = position(players, FULL, start=start)
    advance(game, start, (3, 0), "up_right")
    finish_chain(game, start)
    done = reveal_all(game)
    assert [p for p, _ in done] == order
    assert game.to_move == [(start + 1) % players]


def guardians_ready(players, start, face=None):
    """Rows 1–4 full (the Noblemen fired), row 5 empty: (4,0) can rise to (5,0)."""
    return position(players, {**FULL, 4: "Wa Ha MB"}, start=start, fired=("noblemen",), face_up=face)


def test_two_player_guardians_active_player_keeps_one_face_down_K5():
    # Seat 1 makes the first row-5 entry with all three cards down: it reveals two, one at a
    # time (two decisions); seat 0 reveals nothing.
    game = guardians_ready(2, 1)
    advance(game, 1, (4, 0), "up_right")
    assert finish_chain(game, 1) == 3
    assert game.to_move == [1] and len(moves_of(game)) == 3
    turn_up(game, 1, moves_short(game)[0])
    assert game.to_move == [1] and len(moves_of(game)) == 2
    turn_up(game, 1, moves_short(game)[1])
    assert game.to_move == [0] and actions(game) == {"advance"}
    assert len(face_up(game, 1)) == 2 and face_up(game, 0) == []


def moves_short(game) -> list[str]:
    long = {v: k for k, v in CLAN_NAME.items()}
    return [long[m.args["c"]] for m in moves_of(game, "turn_up")]


def test_two_players_K_E5_seat_0_reveals_one_then_one_more():
    # Seat 0 made the first row-4 entry and turned one card up; now the first row-5 entry.
    fam = {0: "Do Wa ML", 1: "Br St Ha"}
    game = position(2, {**FULL, 4: "Wa Ha MB"}, fired=("noblemen",), family=fam, face_up={0: "Wa"})
    advance(game, 0, (4, 0), "up_right")
    finish_chain(game, 0)
    assert moves_short(game) == ["Do", "ML"]          # only the face-down ones
    turn_up(game, 0, "ML")
    assert sorted(face_up(game, 0)) == ["ML", "Wa"] and game.to_move == [1] and face_up(game, 1) == []


def test_two_players_noblemen_only_the_active_player_reveals():
    game = position(2, FULL, start=1)
    advance(game, 1, (3, 0), "up_right")
    finish_chain(game, 1)
    assert [p for p, _ in reveal_all(game)] == [1]
    assert len(face_up(game, 1)) == 1 and face_up(game, 0) == []


@pytest.mark.parametrize("players, start, order", [(4, 2, [2, 3, 0]), (3, 1, [1, 2])])
def test_guardians_reveal_like_the_noblemen_with_3_and_4_players(players, start, order):
    game = guardians_ready(players, start)
    advance(game, start, (4, 0), "up_right")
    assert finish_chain(game, start) == 3
    assert [p for p, _ in reveal_all(game)] == order


def test_revealed_family_cards_are_public_in_the_order_revealed_K21():
    game = position(2, FULL, family={0: "Br Do Wa", 1: "Ha MB ML"}, influence={1: "St"})
    advance(game, 0, (3, 0), "up_right")
    finish_chain(game, 0)
    turn_up(game, 0, "Do")                            # the Noblemen: seat 0 reveals one
    betray(game, 1, "St", (1, 0), (1, 1))
    advance(game, 0, (3, 1), "up_right")
    finish_chain(game, 0)
    advance(game, 1, (3, 2), "up_right")
    finish_chain(game, 1)
    advance(game, 0, (4, 0), "up_right")              # the Guardians: one more, then one is left
    finish_chain(game, 0)
    assert moves_short(game) == ["Br", "Wa"]
    turn_up(game, 0, "Br")
    for seat in (1, None):
        shown = game.observation(seat)["zones"]["family#0"]
        assert shown["count"] == 3
        assert [c["label"] for c in shown["revealed"]] == ["Douglas", "Bruce"]   # not the deal order
    # The owner sees all three; the opponent's family stays hidden from seat 0.
    assert [c["label"] for c in game.observation(0)["zones"]["family#0"]] == ["Bruce", "Douglas", "Wallace"]
    assert game.observation(0)["zones"]["family#1"] == {"count": 3, "revealed": []}


# ── §4.2 betray (K-E6, K-E7, K-E8; K1, K2, K7) ──────────────────────────────

E6 = full({3: "Ha Do Ha St", 4: "Wa St MB"})          # noble (4,1) St on (3,1) Do and (3,2) Ha


def test_betrayal_in_the_top_rows_needs_the_influenced_cards_clan_K_E6():
    game = position(3, E6, influence={0: "Wa St"}, fired=EVERY_ROW_FIRED)
    up = Move(0, "betray", {"with": "stewart", "b": "(3,1)", "c": "(4,1)"})
    assert refused(game, up) == "betray.matching"
    assert refused(game, Move(0, "betray", {"with": "wallace", "b": "(3,1)", "c": "(4,1)"})) == "betray.matching"
    assert not any(m.args["c"] == "(4,1)" and m.args["b"] == "(3,1)" for m in moves_of(game, "betray"))
    # Against its left neighbour in row 3 either card will do.
    down = {m.args["with"] for m in moves_of(game, "betray") if (m.args["b"], m.args["c"]) == ("(3,1)", "(3,0)")}
    assert down == {"wallace", "stewart"}
    betray(game, 0, "Wa", (3, 1), (3, 0))
    assert clans_in(game, "removed")[-1] == "Ha" and clans_in(game, "discards") == ["Wa"]


def test_a_matching_influence_card_may_betray_in_the_top_rows():
    game = position(3, E6, influence={0: "Do"}, fired=EVERY_ROW_FIRED, pile=("Br",))
    betray(game, 0, "Do", (3, 1), (4, 1))
    assert "St" == clans_in(game, "removed")[-1] and clans_in(game, "discards") == ["Do"]
    assert game.state.vars["vacancy"] == "(4,1)" and moves_of(game) == [
        Move(0, "raise", {"from": "(3,1)"}), Move(0, "raise", {"from": "(3,2)"})]
    raise_(game, 0, (3, 2))
    raise_(game, 0, (2, 3))
    raise_(game, 0, (1, 3))
    assert row(game, 4) == "Wa Ha MB" and row(game, 3) == "Ha Do Bu St" and row(game, 2) == "St Wa Br Ha Do"
    assert row(game, 1) == "Br Bu Do Br MB ML" and pyramid_count(game) == 21
    assert game.to_move == [1] and "turn_up" not in actions(game)
    assert_invariants(game)


def test_match_betrayed_variant_K1():
    game = position(3, E6, influence={0: "Wa St Do"}, fired=EVERY_ROW_FIRED, options={"match_betrayed": True})
    legal = {m.args["with"] for m in moves_of(game, "betray") if (m.args["b"], m.args["c"]) == ("(3,1)", "(4,1)")}
    assert legal == {"stewart"}                       # the betrayed card's clan, not Do
    assert refused(game, Move(0, "betray", {"with": "douglas", "b": "(3,1)", "c": "(4,1)"})) == "betray.matching"
    betray(game, 0, "St", (3, 1), (4, 1))
    assert clans_in(game, "discards") == ["St"]


@pytest.mark.parametrize("match_betrayed, expected", [(False, 71), (True, 72)])
def test_betrayal_moves_are_counted_exactly(match_betrayed, expected):
    # 90 ordered neighbour pairs, 66 with the victim in rows 1–3 (any card) and 24 in rows 4–6;
    # with one influence clan (Ha) a top-row victim needs a Ha influenced card (5 pairs) or, in the
    # variant, a Ha victim (the noble (4,1) has 6 neighbours).
    game = position(2, full({3: "Ha MB ML St", 4: "Wa Ha MB", 5: "ML St", 6: "Bu"}),
                    influence={0: "Ha Ha"}, fired=EVERY_ROW_FIRED,
                    options={"match_betrayed": match_betrayed})
    pairs = set()
    for r, i in ALL_SLOTS:
        for dr, di in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
            n = (r + dr, i + di)
            if n in set(ALL_SLOTS):
                pairs.add(((r, i), n))
    def ok(b, c):
        if c[0] <= 3:
            return True
        target = c if match_betrayed else b
        return card(game, *target) == "Ha"
    want = {(slot(*b), slot(*c)) for b, c in pairs if ok(b, c)}
    got = {(m.args["b"], m.args["c"]) for m in moves_of(game, "betray")}
    assert got == want
    assert len(moves_of(game, "betray")) == len(want) == expected   # two Hamiltons are one option (K20)
    assert len(pairs) == 90


def test_betraying_the_king_K_E7():
    top = {6: "Wa", 5: "Do St"}
    game = position(3, full(top), influence={0: "Do Wa"}, fired=EVERY_ROW_FIRED, pile=("MB",))
    on_king = {(m.args["with"], m.args["b"]) for m in moves_of(game, "betray") if m.args["c"] == "(6,0)"}
    assert on_king == {("douglas", "(5,0)")}          # only the guardians touch the King
    assert refused(game, Move(0, "betray", {"with": "wallace", "b": "(5,1)", "c": "(6,0)"})) == "betray.matching"
    betray(game, 0, "Do", (5, 0), (6, 0))
    assert clans_in(game, "removed")[-1] == "Wa" and clans_in(game, "discards") == ["Do"]
    assert game.state.vars["crowned"] is True and card(game, 6, 0) == "."   # K19: crowned is a flag
    size = len(game.state.zones["draw_pile"])
    for frm in ((5, 1), (4, 2), (3, 3), (2, 4), (1, 5)):   # five refills, one decision each
        assert game.to_move == [0] and len(moves_of(game)) == 2
        raise_(game, 0, frm)
    assert card(game, 6, 0) == "St" and card(game, 1, 5) == "MB"
    assert len(game.state.zones["draw_pile"]) == size - 1 and pyramid_count(game) == 21
    assert game.to_move == [1] and game.state.once == EVERY_ROW_FIRED   # no trigger again
    assert_invariants(game)


def test_betraying_a_commoner_K_E8():
    game = position(3, BASE, influence={0: "Wa"}, pile=("St",))
    before = len(game.state.zones["draw_pile"])
    betray(game, 0, "Wa", (1, 3), (1, 2))
    assert row(game, 1) == "Br Bu St Ha MB ML"
    assert clans_in(game, "removed")[-1] == "Do" and clans_in(game, "discards") == ["Wa"]
    assert len(game.state.zones["draw_pile"]) == before - 1 and game.to_move == [1]
    assert clans_in(game, "influence#0") == []


def test_same_clan_neighbours_may_betray_each_other():
    game = position(3, {1: "Do Do Ha Ha MB ML"}, influence={0: "Wa"})
    assert Move(0, "betray", {"with": "wallace", "b": "(1,0)", "c": "(1,1)"}) in moves_of(game)


def test_betrayal_needs_an_influence_card():
    game = position(3, BASE, influence={1: "Wa"})
    assert actions(game) == {"advance"}
    assert refused(game, Move(0, "betray", {"with": "wallace", "b": "(1,0)", "c": "(1,1)"})) == "betray.with"
    assert refused(game, Move(1, "betray", {"with": "wallace", "b": "(1,0)", "c": "(1,1)"})) == "flow"


# ── §4.3 passing and the end (K-E11, K12) ───────────────────────────────────

def test_passing_and_the_end_K_E11():
    rows = {**FULL, 4: "Wa Ha MB", 5: "ML St"}
    game = position(3, rows, influence={0: "Br", 1: "Bu"}, start=1, fired=("noblemen", "guardians"))
    assert refused(game, Move(1, "pass_turn", {})) == "pass_turn.after_coronation"
    assert "pass_turn" not in actions(game)
    advance(game, 1, (5, 0), "up_right")              # seat 1 crowns a King
    assert finish_chain(game, 1) == 4 and game.state.vars["crowned"]
    assert game.to_move == [2] and moves_of(game) == [Move(2, "pass_turn", {})]   # no card: must pass
    pass_(game, 2)
    assert game.to_move == [0] and actions(game) == {"betray", "pass_turn"}
    pass_(game, 0)
    assert game.to_move == [1]
    betray(game, 1, "Bu", (1, 0), (1, 1))
    assert not game.is_over and game.to_move == [1]    # seats 2 and 0 are skipped
    assert moves_of(game) == [Move(1, "pass_turn", {})]
    assert refused(game, Move(0, "pass_turn", {})) == "flow"               # seat 0 is out
    pass_(game, 1)
    assert game.is_over and game.to_move == [] and game.all_legal_moves() == []
    assert [game.state.pvars[p]["passed"] for p in range(3)] == [True, True, True]


def test_a_passed_player_is_never_asked_again():
    game = position(3, full(), influence={0: "Br Bu", 1: "Do", 2: "Ha"}, fired=EVERY_ROW_FIRED)
    pass_(game, 0)
    betray(game, 1, "Do", (1, 0), (1, 1))
    betray(game, 2, "Ha", (1, 0), (1, 1))
    assert game.to_move == [1]
    assert refused(game, Move(0, "betray", {"with": "bruce", "b": "(1,0)", "c": "(1,1)"})) == "flow"
    pass_(game, 1)
    assert game.to_move == [2]
    pass_(game, 2)
    assert game.is_over and len(game.state.zones["influence#0"]) == 2


# ── §6, §7 scoring (K-E9, K-E10, K13) ───────────────────────────────────────

def play_to_end(game):
    """Every seat passes (nobody holds influence): the game ends and scores."""
    while not game.is_over:
        assert moves_of(game) == [Move(game.to_move[0], "pass_turn", {})]
        pass_(game, game.to_move[0])


def test_final_scoring_K_E9():
    top = {6: "Do", 5: "Br Do", 4: "Wa St Do"}
    fam = {0: "Do Wa ML", 1: "Br St Ha", 2: "Do Br Bu"}
    game = position(3, full(top), family=fam, fired=EVERY_ROW_FIRED)
    play_to_end(game)
    assert game.scores == [7, 3, 8] and game.winners == [2]
    # At the end every family is public.
    spectator = game.observation(None)["zones"]
    assert sorted(c["clan"] for c in spectator["family#1"]["revealed"]) == ["bruce", "hamilton", "stewart"]


def test_perfect_score_K_E10():
    top = {6: "Ha", 5: "MB St", 4: "Ha Ha MB"}
    game = position(2, full(top), family={0: "Ha MB St", 1: "Br Bu Do"}, fired=EVERY_ROW_FIRED)
    play_to_end(game)
    assert game.scores == [10, 0] and game.winners == [0]


def test_rows_1_to_3_score_nothing():
    rows = {1: "Do Do Do Do Do Do", 2: "Do Br Br Br Br", 3: "Br Br Br Bu", 4: "Wa Wa Wa", 5: "Wa Wa", 6: "Ha"}
    game = position(2, rows, family={0: "Do Br Bu", 1: "Wa MB ML"}, fired=EVERY_ROW_FIRED)
    play_to_end(game)
    assert game.scores == [0, 3 + 4] and game.winners == [1]


def test_tied_scores_share_the_victory_K13():
    top = {6: "Ha", 5: "MB Br", 4: "Br Br Bu"}
    game = position(3, full(top), family={0: "Ha MB St", 1: "Ha MB Wa", 2: "Br Bu Do"},
                    fired=EVERY_ROW_FIRED)
    play_to_end(game)
    assert game.scores == [5, 5, 5] and game.winners == [0, 1, 2]
    game = position(3, full(top), family={0: "Ha MB St", 1: "Ha MB Wa", 2: "Do St Wa"},
                    fired=EVERY_ROW_FIRED)
    play_to_end(game)
    assert game.scores == [5, 5, 0] and game.winners == [0, 1]


# ── K18 the discards are reshuffled only when a draw finds the pile empty ─────

def test_discards_reshuffled_only_when_a_draw_finds_the_pile_empty_K18():
    game = position(3, BASE, influence={0: "Wa", 1: "St"}, discards=("Ha", "MB"), pile=("Bu",), pile_size=1)
    betray(game, 0, "Wa", (1, 0), (1, 1))              # takes the last card: the pile is empty
    assert row(game, 1) == "Br Bu Do Ha MB ML" and clans_in(game, "removed")[-1] == "Bu"
    assert game.state.zones["draw_pile"] == [] and clans_in(game, "discards") == ["Ha", "MB", "Wa"]
    assert game.observation(1)["zones"]["draw_pile"]["count"] == 0
    betray(game, 1, "St", (1, 0), (1, 1))              # this draw finds it empty: reshuffle
    assert game.state.zones["discards"] == []
    assert len(game.state.zones["draw_pile"]) == 3
    drawn = card(game, 1, 1)
    assert sorted(clans_in(game, "draw_pile") + [drawn]) == sorted(["Ha", "MB", "Wa", "St"])
    assert_invariants(game)
