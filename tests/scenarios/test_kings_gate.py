"""King's Gate, one test per rule of the rules digest and every worked example (KG-1 … KG-11).

The digest is /work/shared/rules/kings-gate.md (§ numbers and rulings K1–K36 below are its);
its §13 rulings (K26–K36) override what precedes them. Positions are built with regnum.testing's
Scenario and then played through real moves.

Cells are written as in the digest, (x, y) with x to the right and y downward, and converted
by `xy` to the open grid's "(row,col)" = "(y,x)"; the Palace lies on (0,0)-(1,0). Seats are
0…N−1 clockwise: with 4 players Red 0, Blue 1, Green 2, Yellow 3 (the digest's §11 order).
Token values: 0 is the Pub, "D" the dragon.
"""
from __future__ import annotations

import pytest

import regnum
from regnum import Move
from regnum.testing import Scenario, assert_invariants, refusal

RULES = regnum.load("kings_gate")

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
ANNA, BORIS = 0, 1                       # the 2-player game (KG-10)
CHIPS = ["king", "bishop", "wizard", "guild_master", "merchant", "sorceress"]
PALACE_RING = [(-1, -1), (0, -1), (1, -1), (2, -1), (-1, 0), (2, 0), (-1, 1), (0, 1), (1, 1), (2, 1)]


def xy(x: int, y: int) -> str:
    """The digest's cell (x, y) as the open grid's "(row,col)"."""
    return f"({y},{x})"


def ring_of(x: int, y: int, way: str) -> list[tuple[int, int]]:
    """The 10 cells around an object on (x, y) and its east or south neighbour (§3), digest coordinates."""
    cells = [(x, y), (x + 1, y) if way == "east" else (x, y + 1)]
    around = {(a + dx, b + dy) for a, b in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return sorted(around - set(cells), key=lambda c: (c[1], c[0]))


# ── building positions ──────────────────────────────────────────────────────

def _is(value):
    """A filter for a token of `value` (0 the Pub, "D" the dragon)."""
    if value == "D":
        return lambda rec: rec["type"] == "token" and rec["dragon"]
    return lambda rec: rec["type"] == "token" and not rec["dragon"] and rec["value"] == value


def _of(value, colour=None):
    test = _is(value)
    return lambda rec: test(rec) and (colour is None or rec["colour"] == colour)


def position(players: int, *, tokens=(), hands: dict | None = None, objects: dict | None = None,
             chips: dict | None = None, scores: dict | None = None, won: dict | None = None,
             stacks: dict | None = None, start: int = 0, last_placer: int | None = None):
    """A game at the start of seat `start`'s turn.

    `tokens` = [(x, y, seat, value[, chip[, colour]])] on the table; `hands` = {seat: [values]}
    (a seat not named draws six tokens in stack order); `stacks` = {seat: n} cuts what is left of
    a seat's stack to n tokens (the rest leave the game); `objects` = {number: (x, y, way)} the
    objects laid besides the Palace (way "east" or "south" from their west or north cell): the
    highest number is the current object, the lower ones are scored, the higher ones stay in
    `objects` in number order (its last piece is the next one); `chips` = {seat: [names]} held;
    `scores` = {seat: points}; `won` = {seat: [points per scored object]}.
    """
    sc = Scenario(RULES, players, options={"random_start": False})
    state = sc.game.state
    for p in range(players):
        sc.place(f"hand#{p}", f"stack#{p}", n=None)
    for t in tokens:
        x, y, seat, value, chip, colour = (*t, None, None)[:6]
        sc.place(f"stack#{seat}", f"place#{xy(x, y)}", where=_of(value, colour))
        if chip:
            sc.set_fields(f"place#{xy(x, y)}", chip=chip)
    for p in range(players):
        wanted = (hands or {}).get(p)
        if wanted is None:
            sc.place(f"stack#{p}", f"hand#{p}", n=min(6, len(state.zones[f"stack#{p}"])))
        else:
            for v in wanted:
                colour = None
                if isinstance(v, tuple):
                    v, colour = v
                sc.place(f"stack#{p}", f"hand#{p}", where=_of(v, colour))
        if stacks and p in stacks:
            rest = state.zones[f"stack#{p}"]
            sc.place(f"stack#{p}", "removed", n=len(rest) - stacks[p])
    current = 1
    for n, (x, y, way) in sorted((objects or {}).items()):
        cells = [xy(x, y), xy(x + 1, y) if way == "east" else xy(x, y + 1)]
        sc.place("objects", "laid", where=lambda rec, n=n: rec["number"] == n)
        sc.set_fields("laid", where=lambda rec, n=n: rec["number"] == n, cells=cells, ring=laid_ring(cells))
        for c in cells:
            sc.set_table("object_at", c, n)
        current = n
    sc.set_fields("laid", n=None, where=lambda rec: rec["number"] < current, scored=True)
    sc.set_var("current", next(i for i in state.zones["laid"] if state.pieces[i]["number"] == current))
    held = {p: list(cs) for p, cs in (chips or {}).items()}
    on_table = [t[4] for t in tokens if len(t) > 4 and t[4]]
    sc.set_var("chip_supply", [c for c in CHIPS if c not in on_table and all(c not in h for h in held.values())])
    for p, cs in held.items():
        sc.set_player_var(p, "chips", cs)
    for p, s in (scores or {}).items():
        sc.set_player_var(p, "score", s)
    for p, w in (won or {}).items():
        sc.set_player_var(p, "won", w)
    sc.set_var("start_player", start)
    sc.set_var("last_placer", start if last_placer is None else last_placer)
    return sc.start()


# ── playing and reading ──────────────────────────────────────────────────────

def play(game, seat, v, x, y, chip=None):
    game.play(Move(seat, "play", {"v": v, "at": xy(x, y), "chip": chip}))


def dragon(game, seat, x, y):
    game.play(Move(seat, "dragon", {"at": xy(x, y)}))


def bewitch(game, seat, source, target):
    game.play(Move(seat, "bewitch", {"source": xy(*source), "target": xy(*target)}))


def put_object(game, seat, x, y, way):
    game.play(Move(seat, "put_object", {"at": xy(x, y), "way": way}))


def end_turn(game, seat):
    game.play(Move(seat, "end_turn", {}))


refused = refusal   # the rule named by the refusal of a move; the game is unchanged


def P(seat, v, x, y, chip=None):
    return Move(seat, "play", {"v": v, "at": xy(x, y), "chip": chip})


def D(seat, x, y):
    return Move(seat, "dragon", {"at": xy(x, y)})


def token(game, x, y):
    """(owner, value, chip) of the token at (x, y), "D" for a dragon; None on a free cell."""
    ids = game.state.zones.get(f"place#{xy(x, y)}", [])
    assert len(ids) <= 1
    if not ids:
        return None
    rec = game.state.pieces[ids[0]]
    return rec["owner"], "D" if rec["dragon"] else rec["value"], rec["chip"]


def values(game, zone):
    return sorted((game.state.pieces[i]["value"] if not game.state.pieces[i]["dragon"] else 9)
                  for i in game.state.zones[zone])


def removed(game):
    """(owner, value) of the tokens that left the game, in order (9 for a dragon)."""
    return [(game.state.pieces[i]["owner"], 9 if game.state.pieces[i]["dragon"] else game.state.pieces[i]["value"])
            for i in game.state.zones["removed"]]


def pvar(game, name):
    return [row[name] for row in game.state.pvars]


def current_number(game):
    return game.state.pieces[game.state.vars["current"]]["number"]


def next_number(game):
    return game.state.pieces[game.state.zones["objects"][-1]]["number"]


def moves_of(game, action=None):
    return [m for m in game.all_legal_moves() if action is None or m.action == action]


def finish(game, seat):
    """End `seat`'s turn if it has not ended by itself (K36)."""
    if game.to_move == [seat]:
        end_turn(game, seat)


def far(n: int) -> tuple[int, int, str]:
    """Where object n lies when a test does not say: apart from the Palace and from each other."""
    return (6 * n, 20, "east")


def laid(n: int, **where) -> dict:
    """Objects 2…n laid (n current), at far(k) unless `where` = {"o5": (x, y, way)} says otherwise."""
    return {k: where.get(f"o{k}", far(k)) for k in range(2, n + 1)}


def ring(n: int) -> list[tuple[int, int]]:
    """The ring of object n at far(n): row y=19 x 6n−1…6n+2 (0–3), y=20 the ends (4, 5), y=21 (6–9)."""
    return ring_of(*far(n))


def laid_ring(cells: list[str]) -> list[str]:
    """An object's `ring` field as `rule lay` sets it: around(table, cells), the cells next to
    each of its cells row by row, each once."""
    inside = [tuple(map(int, c.strip("()").split(","))) for c in cells]
    out = []
    for r, c in inside:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                cell = (r + dr, c + dc)
                if cell not in inside and f"({cell[0]},{cell[1]})" not in out:
                    out.append(f"({cell[0]},{cell[1]})")
    return out


def ring_tokens(game, cells):
    return {c: token(game, *c) for c in cells if token(game, *c) is not None}


# ── KG-1 play limits (§5, §5.4) ──────────────────────────────────────────────

KG1_HAND = [1, 1, 1, 4, 0, "D"]


def kg1(n: int):
    """Red to play at object n (at far(n); the Palace for n = 1) with the hand 1, 1, 1, 4, Pub, Dragon."""
    if n == 1:
        return position(4, hands={RED: KG1_HAND}), PALACE_RING
    return position(4, hands={RED: KG1_HAND}, objects=laid(n)), ring(n)


def play_set(game, cells, plays):
    """Play the tokens `plays` ("D" = the dragon) for Red on the free cells `cells`, in order."""
    for v, c in zip(plays, cells):
        if v == "D":
            dragon(game, RED, *c)
        else:
            play(game, RED, v, *c)


@pytest.mark.parametrize("n, plays", [
    (1, [1]), (1, [1, 1, 1]), (1, [4]), (1, [0]), (1, ["D"]), (1, [4, 0]), (1, [1, 1, 1, 0, "D"]),
    (4, [4, 1]), (4, [1, 0]), (4, ["D"]), (4, [1, 1]), (4, [4, "D"]),
    (6, [1]), (6, [4]), (6, [4, 0]), (6, [1, "D"]),
])
def test_legal_plays_KG_1(n, plays):
    game, cells = kg1(n)
    play_set(game, cells, plays)
    placed = [token(game, *c) for c, v in zip(cells, plays)]
    assert placed == [None if v == "D" else (RED, v, None) for v in plays]   # a dragon on a free cell is spent
    assert removed(game) == ([(RED, 9)] if "D" in plays else [])
    if n == 4 and len(plays) == 2:
        assert game.to_move == [BLUE]             # the Cemetery's two: the turn ends by itself
    finish(game, RED)
    assert game.to_move == [BLUE] and len(game.state.zones[f"hand#{RED}"]) == 6


@pytest.mark.parametrize("n, plays, rule", [
    (1, [4, 1], "play.limit"), (1, [1, 4], "play.limit"),
    (6, [1, 1], "play.limit"), (6, [4, 1], "play.limit"),
])
def test_illegal_plays_KG_1(n, plays, rule):
    game, cells = kg1(n)
    play_set(game, cells, plays[:-1])
    assert refused(game, P(RED, plays[-1], *cells[len(plays) - 1])) == rule


@pytest.mark.parametrize("n", [1, 4, 6])
def test_the_empty_play_is_refused_KG_1(n):
    game, _ = kg1(n)
    assert refused(game, Move(RED, "end_turn", {})) == "end_turn.played_one"


@pytest.mark.parametrize("plays", [[1, 1, 1], [1, 0, "D"]])
def test_cemetery_stops_after_two_tokens_KG_1(plays):
    """{1,1,1} and {1, Pub, Dragon} are illegal at the Cemetery: after two tokens the turn is over."""
    game, cells = kg1(4)
    play_set(game, cells, plays[:2])
    assert game.to_move == [BLUE]
    third = D(RED, *cells[2]) if plays[2] == "D" else P(RED, plays[2], *cells[2])
    assert refused(game, third) == "flow"          # Red is no longer to move
    assert token(game, *cells[2]) is None


# ── KG-2 covering and the dragon (§5.1, §5.2) ────────────────────────────────

def kg2(n: int):
    """Object n (3 black, 2 white) at far(n): Blue's 2, 3, 4, Pub and Green's 1 with the Merchant;
    Red holds 4, Dragon, 1, 1, 2, 2."""
    r = ring(n)
    tokens = [(*r[0], BLUE, 2), (*r[1], BLUE, 3), (*r[2], BLUE, 4), (*r[3], BLUE, 0),
              (*r[4], GREEN, 1, "merchant")]
    return position(4, tokens=tokens, hands={RED: [4, "D", 1, 1, 2, 2]}, objects=laid(n)), r


@pytest.mark.parametrize("target, covered", [(0, (BLUE, 2)), (3, (BLUE, 0))])
def test_a_4_covers_blues_2_or_pub_at_object_3_KG_2(target, covered):
    game, r = kg2(3)
    play(game, RED, 4, *r[target])
    assert token(game, *r[target]) == (RED, 4, None)
    assert removed(game) == [covered]


def test_a_4_on_a_free_cell_at_object_3_KG_2():
    game, r = kg2(3)
    play(game, RED, 4, *r[5])
    assert token(game, *r[5]) == (RED, 4, None) and removed(game) == []


@pytest.mark.parametrize("target", [1, 2, 4], ids=["barracks", "not_higher", "merchant"])
def test_a_4_may_not_cover_at_object_3_KG_2(target):
    game, r = kg2(3)
    assert refused(game, P(RED, 4, *r[target])) == "play.room"


@pytest.mark.parametrize("n", [3, 2])
@pytest.mark.parametrize("target, gone", [(0, (BLUE, 2)), (2, (BLUE, 4)), (3, (BLUE, 0))])
def test_the_dragon_removes_blues_2_4_or_pub_KG_2(n, target, gone):
    game, r = kg2(n)
    dragon(game, RED, *r[target])
    assert token(game, *r[target]) is None
    assert removed(game) == [gone, (RED, 9)]       # both leave the game; the cell is free
    assert len(ring_tokens(game, r)) == 4


@pytest.mark.parametrize("n", [3, 2])
@pytest.mark.parametrize("target", [1, 4], ids=["barracks", "merchant"])
def test_the_dragon_spares_barracks_and_chips_KG_2(n, target):
    game, r = kg2(n)
    assert refused(game, D(RED, *r[target])) == "dragon.target"


@pytest.mark.parametrize("target", [0, 3])
def test_at_white_object_2_a_4_only_goes_on_a_free_cell_KG_2(target):
    game, r = kg2(2)
    assert refused(game, P(RED, 4, *r[target])) == "play.room"
    play(game, RED, 4, *r[5])
    assert token(game, *r[5]) == (RED, 4, None)


# ── KG-3 ranking and ties (§7) ───────────────────────────────────────────────

def kg3(last: int):
    """Object 7 (black, 6/3/1): Red {5, Pub}, Blue {2, 3}, Green {1,1,1,1}, Yellow {1,1}; `last`
    holds back one token (Blue his 2, Red his 5) and plays it on the last free cell."""
    r = ring(7)
    tokens = [(RED, 5), (RED, 0), (BLUE, 2), (BLUE, 3), (GREEN, 1), (GREEN, 1), (GREEN, 1), (GREEN, 1),
              (YELLOW, 1), (YELLOW, 1)]
    held = {BLUE: (BLUE, 2), RED: (RED, 5)}[last]
    tokens.remove(held)
    cells = r[:9]
    game = position(4, tokens=[(*c, s, v) for c, (s, v) in zip(cells, tokens)], objects=laid(7),
                    hands={last: [held[1], 1, 1, 2, 2, 4]}, start=last)
    play(game, last, held[1], *r[9])
    return game


def test_ranking_blue_places_the_last_token_KG_3():
    game = kg3(BLUE)
    assert game.scores == [6, 3, 1, 0]
    assert pvar(game, "won") == [[6], [3], [1], [0]]
    assert game.state.vars["last_placer"] == BLUE
    assert game.to_move == [BLUE] and {m.action for m in game.all_legal_moves()} == {"put_object"}


def test_ranking_red_places_the_last_token_KG_3():
    game = kg3(RED)
    assert game.scores == [3, 6, 1, 0]
    assert game.to_move == [RED] and {m.action for m in game.all_legal_moves()} == {"put_object"}


# ── KG-4 three players, presence by the Pub ─────────────────────────────────

@pytest.mark.parametrize("players, scores", [(3, [0, 3, 3]), (4, [1, 3, 3, 0])])
def test_presence_by_the_pub_KG_4(players, scores):
    r = ring(2)
    tokens = [(BLUE, 4), (BLUE, 1), (BLUE, 1), (BLUE, 1), (BLUE, 1), (GREEN, 2), (GREEN, 2), (GREEN, 1),
              (RED, 0)]
    game = position(players, tokens=[(*c, s, v) for c, (s, v) in zip(r, tokens)], objects=laid(2),
                    hands={GREEN: [1, 1, 1, 2, 3, 4]}, start=GREEN)
    play(game, GREEN, 1, *r[9])                    # Green {2,2,1,1} = 6 completes the ring
    assert game.scores == scores
    assert pvar(game, "chips")[BLUE] == ["bishop"]
    assert "bishop" not in game.state.vars["chip_supply"]


# ── KG-5 Tournament Field (§5.4, K11, K34) ──────────────────────────────────

def tournament(tokens, last, before):
    r = ring(8)
    held = tokens[-1]
    game = position(4, tokens=[(*c, s, v) for c, (s, v) in zip(r, tokens[:-1])], objects=laid(8),
                    hands={last: [held[1], 2, 2, 3, 3, 5]}, start=last,
                    scores=dict(enumerate(before)))
    play(game, last, held[1], *r[len(tokens) - 1])
    return game


KG5 = [(RED, 4), (RED, 1), (RED, 1), (RED, 1), (BLUE, 2), (BLUE, 1), (BLUE, 1), (GREEN, 2), (GREEN, 1),
       (GREEN, 1)]                                 # Red 7, Blue 4, Green 4; Green's last 1 completes it


def test_tournament_field_KG_5():
    game = tournament(KG5, GREEN, [5, 4, 2, 1])
    assert game.scores == [8, 4, 0, 1]             # Red +3, Blue +0, Green 2 − 3 → 0, Yellow untouched
    assert pvar(game, "won") == [[3], [0], [-2], [0]]   # K33 the net change


def test_tournament_field_without_the_floor_KG_5():
    game = tournament(KG5, GREEN, [5, 4, 7, 1])
    assert game.scores == [8, 4, 4, 1]


def test_tournament_field_needs_two_ranked_players_K11():
    alone = [(RED, v) for v in (4, 4, 4, 1, 1, 1, 1, 1, 1, 1)]
    game = tournament(alone, RED, [5, 4, 2, 1])
    assert game.scores == [8, 4, 2, 1]             # Red is first and last: no penalty


# ── KG-6 characters in scoring (§6, §7) ─────────────────────────────────────

def test_guild_master_counts_4_at_objects_6_and_7_KG_6a():
    """Red's 2 with the Guild Master lies at (32,1) in the Garrison's ring; Red completes the
    Garrison and puts object 7 on (33,1)-(34,1), whose ring takes (32,0) and (32,1) along."""
    g6 = ring_of(30, 0, "east")
    assert (32, 0) in g6 and (32, 1) in g6
    table = {(32, 1): (RED, 2, "guild_master"), (32, 0): (YELLOW, 0),
             (29, -1): (BLUE, 1), (30, -1): (BLUE, 1), (31, -1): (BLUE, 1),
             (32, -1): (GREEN, 1), (29, 0): (GREEN, 1), (29, 1): (GREEN, 0), (30, 1): (YELLOW, 1)}
    game = position(4, tokens=[(*c, *t) for c, t in table.items()], objects=laid(6, o6=(30, 0, "east")),
                    hands={RED: [0, 1, 4, 4, 3, 3], BLUE: [1, 1, 1, 1, 2, 2], GREEN: [1, 1, 2, 2, 3, 3],
                           YELLOW: [1, 2, 2, 3, 3, 4]})
    play(game, RED, 0, 31, 1)                      # the Pub fills the Garrison's last cell
    # Red {2+2, Pub} = 4, Blue 3, Green {1,1,Pub} = 2, Yellow {1,Pub} = 1 (4/3/2)
    assert game.scores == [4, 3, 2, 0]
    put_object(game, RED, 33, 1, "east")
    assert current_number(game) == 7
    g7 = ring_of(33, 1, "east")
    assert ring_tokens(game, g7) == {(32, 0): (YELLOW, 0, None), (32, 1): (RED, 2, "guild_master")}
    assert game.to_move == [BLUE]
    free = [c for c in g7 if token(game, *c) is None]
    assert len(free) == 8
    for c in free[:4]:
        play(game, BLUE, 1, *c)                    # Blue 4
    finish(game, BLUE)
    for c in free[4:6]:
        play(game, GREEN, 1, *c)                   # Green 2
    finish(game, GREEN)
    play(game, YELLOW, 1, *free[6])                # Yellow {Pub, 1} = 1
    finish(game, YELLOW)
    play(game, RED, 1, *free[7])                   # Red {2+2, 1} = 5 completes object 7 (6/3/1)
    assert game.scores == [4 + 6, 3 + 3, 2 + 1, 0]
    assert pvar(game, "won") == [[4, 6], [3, 3], [2, 1], [0, 0]]


def test_bishop_makes_every_token_count_1_KG_6b():
    r = ring(9)
    tokens = [(BLUE, 4, "bishop"), (RED, 5), (RED, 4), (BLUE, 1), (BLUE, 1), (BLUE, 1),
              (GREEN, 5), (GREEN, 4), (GREEN, 4)]
    game = position(4, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(9),
                    hands={YELLOW: [0, 1, 2, 3, 4, 5]}, start=YELLOW)
    play(game, YELLOW, 0, *r[9])
    # Blue 4, Green 3, Red 2, Yellow 1 (its Pub counts 1): 4/3/2, the Sorceress to Blue
    assert game.scores == [2, 4, 3, 0]
    assert pvar(game, "chips") == [[], ["sorceress"], [], []]


def test_bishop_raises_the_pub_to_1():
    """Object 7: Green {1 with the Bishop, 1×5} = 6, Red {Pub, 1} = 2, Blue {5} = 1, Yellow {4} = 1;
    Red's Pub, counted 1, makes him 2nd although he places the last token (he loses every tie)."""
    r = ring(7)
    tokens = [(GREEN, 1, "bishop")] + [(GREEN, 1)] * 5 + [(RED, 1), (BLUE, 5), (YELLOW, 4)]
    game = position(4, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(7),
                    hands={RED: [0, 1, 2, 2, 3, 3]})
    play(game, RED, 0, *r[9])
    assert game.scores == [3, 1, 6, 0]


def test_a_king_token_makes_white_object_9_black_KG_6c():
    """Red's 1 with the King lies in the rings of objects 8 and 9: object 9 is black, so Blue's 4
    may cover Red's 2 there; without the King it may not."""
    r = ring(9)
    o8 = (r[0][0] - 2, r[0][1] - 1, "east")        # object 8 ends diagonally next to r[0]
    assert r[0] in ring_of(*o8)
    for king in ("king", None):
        tokens = [(*r[0], RED, 1, king), (*r[1], RED, 2)]
        game = position(4, tokens=tokens, objects=laid(9, o8=o8), hands={BLUE: [4, 1, 1, 2, 2, 3]},
                        start=BLUE)
        if king:
            play(game, BLUE, 4, *r[1])
            assert token(game, *r[1]) == (BLUE, 4, None) and removed(game) == [(RED, 2)]
        else:
            assert refused(game, P(BLUE, 4, *r[1])) == "play.room"


def test_the_king_flips_the_colour_after_its_own_token_K30():
    """Black object 7: Red's 4 with the King still covers Blue's 2 (checked before the flip); then
    object 7 is white and Blue's 2 may no longer cover Red's 1."""
    r = ring(7)
    game = position(4, tokens=[(*r[0], BLUE, 2), (*r[1], RED, 1)], objects=laid(7), chips={RED: ["king"]},
                    hands={RED: [4, 1, 2, 2, 3, 3], BLUE: [2, 1, 1, 3, 3, 4]})
    play(game, RED, 4, *r[0], chip="king")
    assert token(game, *r[0]) == (RED, 4, "king") and removed(game) == [(BLUE, 2)]
    assert pvar(game, "chips")[RED] == []
    assert game.to_move == [BLUE]                  # nothing more to play: the turn ended
    assert refused(game, P(BLUE, 2, *r[1])) == "play.room"


def test_the_king_at_a_white_object_allows_covering_only_after_its_token_K30():
    r = ring(2)
    game = position(4, tokens=[(*r[0], BLUE, 0)], objects=laid(2), chips={RED: ["king"]},
                    hands={RED: [1, 1, 2, 2, 3, 3]})
    assert refused(game, P(RED, 1, *r[0], chip="king")) == "play.room"
    play(game, RED, 1, *r[1], chip="king")        # object 2 turns black
    play(game, RED, 1, *r[0])                      # a 1 now covers Blue's Pub
    assert token(game, *r[0]) == (RED, 1, None) and removed(game) == [(BLUE, 0)]


# ── KG-7 the Wizard (§6, K28) ────────────────────────────────────────────────

def wizard(n, hand=(4, 4, 4, 0, 1, 2)):
    r = ring(n)
    return position(4, tokens=[(*r[0], BLUE, 2)], objects=laid(n), chips={RED: ["wizard"]},
                    hands={RED: list(hand)}), r


def test_wizard_second_4_covers_at_object_7_KG_7():
    game, r = wizard(7)
    play(game, RED, 4, *r[5], chip="wizard")
    play(game, RED, 4, *r[0])
    assert token(game, *r[5]) == (RED, 4, "wizard") and token(game, *r[0]) == (RED, 4, None)
    assert removed(game) == [(BLUE, 2)]
    assert refused(game, P(RED, 4, *r[6])) == "play.limit"     # one second token, not two


def test_wizard_second_token_refused_at_the_garrison_KG_7():
    game, r = wizard(6)
    play(game, RED, 4, *r[5], chip="wizard")
    assert refused(game, P(RED, 4, *r[6])) == "play.limit"
    assert token(game, *r[5]) == (RED, 4, "wizard")


def test_wizard_is_optional_and_its_token_may_come_later_K28():
    game, r = wizard(7)
    play(game, RED, 4, *r[5])                      # no Wizard: no second 4
    assert refused(game, P(RED, 4, *r[6])) == "play.limit"
    game, r = wizard(7)
    play(game, RED, 4, *r[5], chip="wizard")
    play(game, RED, 0, *r[6])                      # the Pub in between
    assert refused(game, P(RED, 2, *r[7])) == "play.limit"    # the same face value only
    play(game, RED, 4, *r[7])
    assert [token(game, *r[i]) for i in (5, 6, 7)] == [(RED, 4, "wizard"), (RED, 0, None), (RED, 4, None)]
    game, r = wizard(7)
    play(game, RED, 4, *r[5], chip="wizard")       # the chip without using the second token
    end_turn(game, RED)
    assert game.to_move == [BLUE] and token(game, *r[5]) == (RED, 4, "wizard")
    assert pvar(game, "chips")[RED] == [] and "wizard" not in game.state.vars["chip_supply"]


def test_wizard_at_the_cemetery_keeps_the_limit_of_two_K28():
    game, r = wizard(4)
    play(game, RED, 4, *r[5], chip="wizard")
    play(game, RED, 4, *r[6])
    assert game.to_move == [BLUE]                  # two tokens: the turn is over
    assert token(game, *r[6]) == (RED, 4, None) and token(game, *r[7]) is None


# ── the Merchant (§6, K12) ───────────────────────────────────────────────────

def object_5(players, tokens, last, held):
    r = ring(5)
    game = position(players, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(5),
                    hands={last: [held, 2, 3, 3, 4, 5]}, start=last)
    play(game, last, held, *r[len(tokens)])
    return game


def test_object_5_gives_the_guild_master_and_the_merchant():
    tokens = [(RED, 4), (RED, 4), (BLUE, 2), (BLUE, 2), (BLUE, 1), (GREEN, 1), (GREEN, 1), (GREEN, 1), (YELLOW, 1)]
    game = object_5(4, tokens, YELLOW, 1)
    assert game.scores == [3, 2, 2, 0]             # Red 8, Blue 5, Green 3, Yellow 2 (3/2/2)
    assert pvar(game, "chips") == [["guild_master"], ["merchant"], [], []]


def test_merchant_not_awarded_with_two_players_K12():
    tokens = [(ANNA, 4), (ANNA, 4)] + [(BORIS, 2), (BORIS, 2)] + [(BORIS, 1)] * 5
    game = object_5(2, tokens, BORIS, 1)
    assert game.scores == [0, 3]                   # Boris 10, Anna 8: one paid place
    assert pvar(game, "chips") == [[], ["guild_master"]]
    assert game.state.vars["chip_supply"] == ["king", "bishop", "wizard", "merchant", "sorceress"]


# ── KG-11 the Sorceress (§6, K17, K27) ──────────────────────────────────────

def sorceress(tokens, hand=(1, 1, 2, 2, 3, 3)):
    """Object 10 current; Red holds the Sorceress; his chip-free 4 lies in object 7's ring only."""
    r7, r = ring(7), ring(10)
    table = [(*r7[0], RED, 4), (*r7[1], RED, 2, "merchant"), (*r7[2], BLUE, 2)]
    table += [(*c, *t) for c, t in zip(r, tokens)]
    return position(4, tokens=table, objects=laid(10), chips={RED: ["sorceress"]},
                    hands={RED: list(hand), BLUE: [5, "D", 1, 2, 3, 3]}), r7, r


def test_sorceress_moves_a_token_to_object_10_KG_11():
    tokens = [(BLUE, 2)] + [(BLUE, 1)] * 5 + [(GREEN, 3)]     # Blue 7, Green 3 at r[0…6]
    game, r7, r = sorceress(tokens)
    bewitch(game, RED, r7[0], r[7])
    assert token(game, *r7[0]) is None and token(game, *r[7]) == (RED, 4, "sorceress")
    assert pvar(game, "chips")[RED] == []
    assert refused(game, Move(RED, "end_turn", {})) == "end_turn.played_one"   # still one from hand
    play(game, RED, 1, *r[8])
    end_turn(game, RED)
    assert refused(game, P(BLUE, 5, *r[7])) == "play.room"        # protected
    assert refused(game, D(BLUE, *r[7])) == "dragon.target"
    play(game, BLUE, 1, *r[9])                     # Blue 8, Red {4, 1} = 5, Green 3 (7/4/2)
    assert game.scores == [4, 7, 2, 0]
    assert game.is_over and game.winners == [BLUE]


@pytest.mark.parametrize("source, rule", [
    ("inside", "bewitch.own"), ("chip", "bewitch.own"), ("blue", "bewitch.own"), ("taken", "bewitch.free_cell"),
])
def test_sorceress_refusals_K17(source, rule):
    tokens = [(BLUE, 2), (RED, 1)]
    game, r7, r = sorceress(tokens)
    src = {"inside": r[1], "chip": r7[1], "blue": r7[2], "taken": r7[0]}[source]
    target = r[0] if source == "taken" else r[5]
    assert refused(game, Move(RED, "bewitch", {"source": xy(*src), "target": xy(*target)})) == rule


def test_sorceress_needs_the_chip():
    tokens = [(BLUE, 2)]
    game, r7, r = sorceress(tokens)
    play(game, RED, 1, *r[5])
    end_turn(game, RED)
    assert refused(game, Move(BLUE, "bewitch", {"source": xy(*r7[2]), "target": xy(*r[6])})) == "bewitch.holds"


K27_TOKENS = [(RED, 1), (BLUE, 4), (BLUE, 1)] + [(GREEN, 1)] * 5 + [(YELLOW, 0)]


def test_sorceress_fills_the_last_cell_of_object_10_K27():
    game, r7, r = sorceress(K27_TOKENS)
    bewitch(game, RED, r7[0], r[9])                # Red {1, 4} = 5 = Blue = Green; Red placed last
    assert game.scores == [2, 7, 4, 0]
    assert game.is_over and game.winners == [BLUE]
    assert len(game.state.zones[f"hand#{RED}"]) == 6


def test_sorceress_filling_the_last_cell_places_the_next_object_K27():
    """A built position (in play the Sorceress only acts at object 10): object 7, the same ring."""
    r5, r = ring(5), ring(7)
    table = [(*r5[0], RED, 4)] + [(*c, *t) for c, t in zip(r, K27_TOKENS)]
    game = position(4, tokens=table, objects=laid(7), chips={RED: ["sorceress"]})
    hand = list(game.state.zones[f"hand#{RED}"])
    bewitch(game, RED, r5[0], r[9])
    assert game.scores == [1, 6, 3, 0]             # 6/3/1, Red loses every tie
    assert game.state.vars["last_placer"] == RED
    assert game.to_move == [RED] and {m.action for m in game.all_legal_moves()} == {"put_object"}
    put_object(game, RED, r[9][0] + 1, r[9][1], "east")
    assert current_number(game) == 8 and game.to_move == [BLUE]
    assert game.state.zones[f"hand#{RED}"] == hand              # no token from the hand was played


# ── KG-8 completing an object and placing the next one (§5, §8) ─────────────

KG8 = [(2, -1, RED, 1), (2, 0, RED, 2), (-1, -1, BLUE, 4), (0, -1, BLUE, 1), (1, -1, GREEN, 2),
       (-1, 0, GREEN, 1), (-1, 1, YELLOW, 1), (0, 1, YELLOW, 1), (1, 1, YELLOW, 0)]


def kg8():
    game = position(4, tokens=KG8, hands={RED: [1, 1, 1, 2, 2, 3]})
    play(game, RED, 1, 2, 1)
    return game


def test_completing_the_palace_stops_play_KG_8():
    game = kg8()
    assert game.scores == [2, 2, 1, 0]             # Blue 5, Red 4, Green 3, Yellow 2 (2/2/1)
    assert pvar(game, "chips") == [[], ["king"], [], []]
    assert values(game, f"hand#{RED}") == [1, 1, 2, 2, 3]        # the other two 1s stay in hand
    assert game.to_move == [RED] and {m.action for m in game.all_legal_moves()} == {"put_object"}
    assert next_number(game) == 2


def test_placing_object_2_KG_8():
    game = kg8()
    stack = len(game.state.zones[f"stack#{RED}"])
    assert refused(game, Move(RED, "put_object", {"at": xy(3, 2), "way": "east"})) == "put_object.touching"
    assert refused(game, Move(RED, "put_object", {"at": xy(2, 0), "way": "east"})) == "put_object.empty"
    put_object(game, RED, 3, 0, "south")
    assert current_number(game) == 2
    assert game.state.pieces[game.state.vars["current"]]["cells"] == [xy(3, 0), xy(3, 1)]
    assert game.state.tables["object_at"][xy(3, 0)] == 2 and game.state.tables["object_at"][xy(3, 1)] == 2
    assert ring_of(3, 0, "south") == sorted([(2, -1), (3, -1), (4, -1), (2, 0), (4, 0), (2, 1), (4, 1), (2, 2),
                                            (3, 2), (4, 2)], key=lambda c: (c[1], c[0]))
    assert ring_tokens(game, ring_of(3, 0, "south")) == {(2, -1): (RED, 1, None), (2, 0): (RED, 2, None),
                                                         (2, 1): (RED, 1, None)}
    assert game.to_move == [BLUE]
    assert len(game.state.zones[f"hand#{RED}"]) == 6 and len(game.state.zones[f"stack#{RED}"]) == stack - 1


# ── KG-9 the end and the final tie (§9, K19, K20) ───────────────────────────

def test_game_ends_when_one_player_has_tokens_KG_9():
    r = ring(6)
    tokens = [(BLUE, 4), (BLUE, 1), (RED, 2), (RED, 2), (RED, 1), (GREEN, 1), (GREEN, 1), (GREEN, 1), (GREEN, 0)]
    game = position(3, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(6),
                    hands={RED: [4, 4, 4], BLUE: [1], GREEN: []}, stacks={RED: 0, BLUE: 0, GREEN: 0},
                    scores={RED: 11, BLUE: 10, GREEN: 10}, start=BLUE,
                    won={RED: [2, 3, 4, 0, 2], BLUE: [2, 3, 2, 3, 0], GREEN: [0, 1, 2, 4, 3]})
    play(game, BLUE, 1, *r[9])                     # Blue 6, Red 5, Green 3 at the Garrison (4/3/2)
    assert game.scores == [14, 14, 10]
    assert game.is_over and game.to_move == []
    assert game.winners == [BLUE]                  # 4 against Red's 3 at object 6


def test_final_tie_goes_back_object_by_object_K20():
    tokens = [(RED, 4), (RED, 4), (BLUE, 2), (BLUE, 2), (BLUE, 1), (GREEN, 1), (GREEN, 1), (GREEN, 1), (YELLOW, 1)]
    r = ring(5)
    game = position(4, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(5),
                    hands={RED: [3], BLUE: [], GREEN: [], YELLOW: [1]}, stacks={p: 0 for p in range(4)},
                    scores={BLUE: 6, GREEN: 6}, start=YELLOW,
                    won={RED: [0, 0, 0, 0], BLUE: [2, 4, 0, 0], GREEN: [2, 0, 4, 0], YELLOW: [0, 0, 0, 0]})
    play(game, YELLOW, 1, *r[9])                   # Blue 2nd and Green 3rd both +2 (3/2/2)
    assert game.scores == [3, 8, 8, 0]
    assert game.is_over and game.winners == [GREEN]          # 4 at object 3 beats Blue's 0


def test_final_tie_shared_K20():
    tokens = [(RED, 4), (RED, 1), (BLUE, 4), (BLUE, 1), (GREEN, 1), (GREEN, 1), (GREEN, 1), (GREEN, 0),
              (RED, 1)]
    game = position(3, tokens=[(*c, *t) for c, t in zip(PALACE_RING, tokens)],
                    hands={RED: [], BLUE: [1], GREEN: [3]}, stacks={p: 0 for p in range(3)}, start=BLUE)
    play(game, BLUE, 1, *PALACE_RING[9])           # Red 6 and Blue 6, 2/2/1 with 2 paid places
    assert game.scores == [2, 2, 0]
    assert game.is_over and game.winners == [RED, BLUE]


# ── KG-10 two players (§4, K12) ─────────────────────────────────────────────

def colour_at(game, x, y):
    return game.state.pieces[game.state.zones[f"place#{xy(x, y)}"][0]]["colour"]


def test_two_players_mix_colours_KG_10():
    game = position(2, hands={ANNA: [(1, "red"), (1, "blue"), (1, "red"), 2, 2, 3]})
    for c in PALACE_RING[:3]:
        play(game, ANNA, 1, *c)
    assert [colour_at(game, *c) for c in PALACE_RING[:3]] == ["red", "blue", "red"]
    assert [token(game, *c) for c in PALACE_RING[:3]] == [(ANNA, 1, None)] * 3


def test_two_players_tie_lost_by_the_last_placer_KG_10():
    r = ring(10)
    tokens = [(ANNA, 4), (ANNA, 4)] + [(BORIS, 2), (BORIS, 2)] + [(BORIS, 1)] * 5
    game = position(2, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(10),
                    hands={ANNA: [1, 2, 3, 3, 5, 0]})
    play(game, ANNA, 1, *r[9])                     # Anna 9, Boris 9 at object 10 (7/4/2)
    assert game.scores == [0, 7]
    assert game.is_over and game.winners == [BORIS]


def test_two_players_one_pub_and_one_dragon_a_turn_K29():
    r = ring(7)
    game = position(2, tokens=[(*r[0], BORIS, 1), (*r[1], BORIS, 2)], objects=laid(7),
                    hands={ANNA: [0, 0, "D", "D", 1, 2]})
    play(game, ANNA, 0, *r[5])
    assert refused(game, P(ANNA, 0, *r[6])) == "play.limit"
    dragon(game, ANNA, *r[0])
    assert refused(game, D(ANNA, *r[1])) == "dragon.limit"
    game = position(2, objects=laid(4), hands={ANNA: [0, 0, "D", "D", 1, 2]})
    play(game, ANNA, 0, *ring(4)[0])
    play(game, ANNA, 0, *ring(4)[1])               # at the Cemetery any two tokens
    assert [token(game, *c) for c in ring(4)[:2]] == [(ANNA, 0, None)] * 2 and game.to_move == [BORIS]


def test_two_players_never_cover_nor_dragon_their_own_colours():
    r = ring(7)
    game = position(2, tokens=[(*r[0], ANNA, 2, None, "blue")], objects=laid(7),
                    hands={ANNA: [(4, "red"), ("D", "red"), 1, 1, 2, 3]})
    assert refused(game, P(ANNA, 4, *r[0])) == "play.room"
    assert refused(game, D(ANNA, *r[0])) == "dragon.target"


# ── §7 ties with every seat as the last placer ──────────────────────────────

TIED = {4: {0: [5], 1: [4, 1], 2: [3, 2], 3: [1, 1, 1, 1, 1]},          # 5 each, 10 cells
        3: {0: [4, 1, 0], 1: [2, 1, 1, 1, 0], 2: [3, 2]}}


@pytest.mark.parametrize("players, last", [(4, s) for s in range(4)] + [(3, s) for s in range(3)])
def test_ties_go_clockwise_after_the_last_placer(players, last):
    """Object 3 (black, 4/3/2, the Wizard to 1st): everybody will have 5. The seat before `last`
    starts and plays his first token, then `last` plays his first token on the last free cell.
    Order: the seats after `last` clockwise, then `last`."""
    r = ring(3)
    prev = (last - 1) % players
    tokens = [(p, v) for p in range(players) for v in TIED[players][p]]
    held = {q: (q, TIED[players][q][0]) for q in (prev, last)}
    for t in held.values():
        tokens.remove(t)
    game = position(players, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=laid(3),
                    hands={q: [t[1], 2, 3, 4] for q, t in held.items()}, start=prev)
    play(game, prev, held[prev][1], *r[8])
    finish(game, prev)
    assert game.to_move == [last] and game.scores == [0] * players
    play(game, last, held[last][1], *r[9])
    order = [(last + k) % players for k in range(1, players)] + [last]
    points = [4, 3, 2][:players - 1] + [0]
    expected = [0] * players
    for seat, pts in zip(order, points):
        expected[seat] = pts
    assert game.scores == expected
    assert [c == ["wizard"] for c in pvar(game, "chips")] == [s == order[0] for s in range(players)]
    assert game.state.vars["last_placer"] == last and game.to_move == [last]


# ── §5.1 covering ───────────────────────────────────────────────────────────

def covering(n=7, hand=(4, 2, 1, 0, 5, "D"), chips=None):
    """Object n at far(n): Blue's 2, 4, 1 and Red's own 1 in the ring."""
    r = ring(n)
    table = [(*r[0], BLUE, 2), (*r[1], BLUE, 4), (*r[2], BLUE, 1), (*r[3], RED, 1)]
    return position(4, tokens=table, objects=laid(n), hands={RED: list(hand)}, chips=chips), r


def test_covering_at_a_black_object_removes_the_covered_token():
    game, r = covering()
    play(game, RED, 5, *r[1])
    assert token(game, *r[1]) == (RED, 5, None) and removed(game) == [(BLUE, 4)]
    assert len(game.state.zones[f"place#{xy(*r[1])}"]) == 1


@pytest.mark.parametrize("n", [2, 5, 9], ids=["white2", "white5", "white9"])
def test_no_covering_at_a_white_object(n):
    game, r = covering(n)
    assert refused(game, P(RED, 5, *r[2])) == "play.room"


def test_no_covering_own_token():
    game, r = covering()
    assert refused(game, P(RED, 4, *r[3])) == "play.room"
    assert refused(game, D(RED, *r[3])) == "dragon.target"


def test_covering_needs_a_strictly_higher_face_value():
    game, r = covering()
    assert refused(game, P(RED, 2, *r[0])) == "play.room"     # 2 on 2
    play(game, RED, 4, *r[0])                                 # 4 on 2
    assert token(game, *r[0]) == (RED, 4, None)


def test_the_barracks_are_never_covered():
    r = ring(10)
    game = position(4, tokens=[(*r[0], BLUE, 3)], objects=laid(10), hands={RED: [5, 4, "D", 1, 1, 2]})
    assert refused(game, P(RED, 5, *r[0])) == "play.room"
    assert refused(game, D(RED, *r[0])) == "dragon.target"


def test_guild_master_plus_2_counts_for_covering_K15():
    game, r = covering(chips={RED: ["guild_master"]})
    assert refused(game, P(RED, 2, *r[1], chip="guild_master")) == "play.room"     # 4 is not above 4
    play(game, RED, 2, *r[0], chip="guild_master")                               # 4 above 2
    assert token(game, *r[0]) == (RED, 2, "guild_master") and removed(game) == [(BLUE, 2)]
    game, r = covering(hand=(1, 1, 0, 3, 4, 5), chips={RED: ["guild_master"]})
    assert refused(game, P(RED, 1, *r[0])) == "play.room"
    play(game, RED, 1, *r[0], chip="guild_master")                               # 3 above 2
    assert token(game, *r[0]) == (RED, 1, "guild_master")


def test_the_pub_never_covers_K31():
    game, r = covering(chips={RED: ["guild_master"]})
    assert refused(game, P(RED, 0, *r[2], chip="guild_master")) == "play.no_pub_cover"   # 0 + 2 > 1, still no
    assert refused(game, P(RED, 0, *r[2])) == "play.no_pub_cover"
    assert token(game, *r[2]) == (BLUE, 1, None)


def test_bishop_does_not_change_values_for_covering():
    r = ring(7)
    game = position(4, tokens=[(*r[0], BLUE, 2), (*r[1], GREEN, 1, "bishop")], objects=laid(7),
                    hands={RED: [4, 1, 1, 2, 3, 3]})
    assert refused(game, P(RED, 2, *r[0])) == "play.room"
    play(game, RED, 4, *r[0])
    assert removed(game) == [(BLUE, 2)]


# ── §5.4 the Cemetery ───────────────────────────────────────────────────────

def test_cemetery_two_high_tokens():
    r = ring(4)
    game = position(4, objects=laid(4), hands={RED: [4, 5, 1, 1, 0, "D"]})
    play(game, RED, 4, *r[0])
    play(game, RED, 5, *r[1])
    assert [token(game, *c) for c in r[:2]] == [(RED, 4, None), (RED, 5, None)]
    assert game.to_move == [BLUE]


def test_cemetery_dragon_counts_toward_the_two():
    r = ring(4)
    game = position(4, tokens=[(*r[0], BLUE, 2)], objects=laid(4), hands={RED: [4, 5, 1, 1, 0, "D"]})
    dragon(game, RED, *r[0])
    assert game.to_move == [RED]
    play(game, RED, 1, *r[1])
    assert game.to_move == [BLUE] and removed(game) == [(BLUE, 2), (RED, 9)]
    assert token(game, *r[2]) is None


# ── §9 the end ──────────────────────────────────────────────────────────────

def test_nobody_has_tokens_the_current_object_is_not_scored():
    r = ring(3)
    game = position(3, tokens=[(*r[0], BLUE, 4)], objects=laid(3), hands={RED: [1], BLUE: [], GREEN: []},
                    stacks={p: 0 for p in range(3)}, scores={RED: 5, BLUE: 7, GREEN: 2})
    play(game, RED, 1, *r[1])
    assert game.is_over and game.to_move == []
    assert game.scores == [5, 7, 2] and game.winners == [BLUE]
    assert game.state.pieces[game.state.vars["current"]]["scored"] is False


def test_a_dragon_alone_keeps_a_player_in_the_game_K32():
    game = position(3, hands={RED: [1, 1, 1, 2, 2, 3], BLUE: ["D"], GREEN: [1, 1, 1, 2, 2, 3]},
                    stacks={BLUE: 0})
    play(game, RED, 1, *PALACE_RING[0])
    end_turn(game, RED)
    assert game.to_move == [BLUE]
    gone = len(removed(game))                      # Blue's cut stack
    dragon(game, BLUE, *PALACE_RING[0])
    assert removed(game)[gone:] == [(RED, 1), (BLUE, 9)]
    assert game.to_move == [GREEN]                 # Blue has nothing left to play


def test_a_player_without_tokens_is_skipped():
    game = position(3, hands={RED: [1, 1, 2, 2, 3, 3], BLUE: [], GREEN: [1, 1, 2, 2, 3, 3]}, stacks={BLUE: 0})
    play(game, RED, 1, *PALACE_RING[0])
    end_turn(game, RED)
    assert game.to_move == [GREEN]
    play(game, GREEN, 1, *PALACE_RING[1])
    end_turn(game, GREEN)
    assert game.to_move == [RED]                   # round the table, Blue again skipped


BLOCKERS = {2: (40, -3, "east"), 3: (40, 3, "east"), 4: (37, -1, "south"), 5: (44, -1, "south")}


def blocked(o5):
    """Object 6 on (40,0)-(41,0), 9 ring cells filled; objects 2–5 lie one cell beyond the cells
    next to its ring, so that any new object touching its tokens has an object around it."""
    objects = {**BLOCKERS, 5: o5, 6: (40, 0, "east")}
    r = ring_of(40, 0, "east")
    tokens = [(RED, 4), (RED, 1), (BLUE, 2), (BLUE, 1), (GREEN, 2), (GREEN, 1), (YELLOW, 1), (YELLOW, 1), (YELLOW, 0)]
    game = position(4, tokens=[(*c, *t) for c, t in zip(r, tokens)], objects=objects,
                    hands={RED: [1, 1, 2, 2, 3, 3]})
    play(game, RED, 1, *r[9])
    return game


def test_no_legal_position_for_the_next_object_ends_the_game_K26():
    game = blocked(BLOCKERS[5])
    assert game.scores == [4, 3, 2, 0]             # Red 6, Blue 3, Green 3, Yellow 2 (4/3/2)
    assert game.is_over and game.to_move == [] and game.winners == [RED]
    assert next_number(game) == 7 and len(game.state.zones["objects"]) == 4


def test_with_one_side_open_the_next_object_goes_there():
    game = blocked(far(5))
    assert not game.is_over and game.to_move == [RED]
    spots = {(m.args["at"], m.args["way"]) for m in moves_of(game, "put_object")}
    assert spots and all(int(at.strip("()").split(",")[1]) >= 43 for at, _ in spots)
    assert (xy(43, 0), "south") in spots


# ── §8 the next object ──────────────────────────────────────────────────────

def test_a_corner_only_is_not_touching():
    game = kg8()
    assert refused(game, Move(RED, "put_object", {"at": xy(3, 2), "way": "south"})) == "put_object.touching"
    assert refused(game, Move(RED, "put_object", {"at": xy(-2, 2), "way": "south"})) == "put_object.touching"
    put_object(game, RED, -2, 1, "south")           # (-2,1) shares a side with (-1,1)
    assert current_number(game) == 2


def test_an_enclosed_hole_is_refused_K26():
    """The two-cell hole (0,2)-(1,2) under the Palace, all ten cells around it taken."""
    outside = [(-1, 2, GREEN, 1), (2, 2, GREEN, 1), (-1, 3, YELLOW, 1), (0, 3, YELLOW, 1), (1, 3, YELLOW, 2),
               (2, 3, YELLOW, 2)]
    palace = [(c, t) for c, t in zip(PALACE_RING[1:], [(BLUE, 4), (BLUE, 1), (GREEN, 2), (GREEN, 1), (RED, 2),
                                                       (BLUE, 1), (RED, 1), (BLUE, 1), (GREEN, 1)])]
    game = position(4, tokens=outside + [(*c, *t) for c, t in palace], hands={RED: [1, 1, 2, 2, 3, 3]})
    play(game, RED, 1, *PALACE_RING[0])
    assert ring_tokens(game, ring_of(0, 2, "east")).keys() == set(ring_of(0, 2, "east"))
    assert refused(game, Move(RED, "put_object", {"at": xy(0, 2), "way": "east"})) == "put_object.room"
    put_object(game, RED, 3, 0, "south")
    assert current_number(game) == 2


def test_no_object_around_the_new_one_K4():
    """Object 2's ring lacks its corner (14,21) (a hole as the Sorceress would leave); object 3 is
    completed; object 4 on (14,21)-(15,21) would have object 2's cell (13,20) around it."""
    r2, r3 = ring(2), ring(3)
    filler = [(RED, 1), (RED, 2), (BLUE, 1), (BLUE, 2), (GREEN, 1), (GREEN, 2), (YELLOW, 1), (YELLOW, 2), (RED, 1)]
    table = [(*c, *t) for c, t in zip(r2[:9], filler)] + [(*c, *t) for c, t in zip(r3[:9], filler)]
    game = position(4, tokens=table, objects=laid(3), hands={RED: [1, 1, 2, 3, 3, 4]})
    play(game, RED, 1, *r3[9])
    assert r2[9] == (14, 21) and token(game, 14, 21) is None
    assert refused(game, Move(RED, "put_object", {"at": xy(14, 21), "way": "east"})) == "put_object.empty"
    put_object(game, RED, 16, 18, "east")           # above object 3's ring, touching (17,19)
    assert current_number(game) == 3 + 1


# ── §5 turn structure ───────────────────────────────────────────────────────

def test_refill_to_six_as_far_as_the_stack_goes():
    game = position(4, hands={RED: [1, 1, 1, 2, 2, 3]}, stacks={RED: 4, BLUE: 1},
                    tokens=[])
    for c in PALACE_RING[:3]:
        play(game, RED, 1, *c)
    assert game.to_move == [BLUE]                  # 2, 2, 3 left: nothing more to play
    assert len(game.state.zones[f"hand#{RED}"]) == 6 and len(game.state.zones[f"stack#{RED}"]) == 1
    hand = values(game, f"hand#{BLUE}")
    v = [x for x in hand if x != 9][0]
    play(game, BLUE, v, *PALACE_RING[3])
    finish(game, BLUE)
    assert len(game.state.zones[f"hand#{BLUE}"]) == 6 and len(game.state.zones[f"stack#{BLUE}"]) == 0
