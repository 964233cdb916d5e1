"""Kingdom Builder, from the rules digest: every worked example (KB-1 … KB-12), the eight
location powers, the ten Kingdom Builder cards and the castles, the stuck card, tiles taken and
lost, the end of the game, and the rulings A1 … A25.

The digest is /work/shared/rules/kingdom-builder.md (§ numbers below); its §14 rulings override
what precedes them. Positions are built with regnum.testing's Scenario on board B1 (digest §11:
Tavern, Paddock, Oasis, Farm, none turned) or on B1 with the bottom-right Farm section replaced
by another one (option `sections`), and are then played through real moves. Seats: Red = 0,
Blue = 1, Green = 2, Yellow = 3. Cells are written "(row,col)".

Expected values are worked out by hand from the digest's board pictures; the B1 picture of §11
is copied below (B1_MAP) so that whole sets of hexes ("every free canyon hex") come from the
digest, not from the ruleset's data file.

Placing pieces with Scenario fires no trigger: a tile is granted by moving it from its location
hex to the player (as the digest's KB-4, KB-6 and KB-11 say: "tests grant Red the tile
directly"), and the player variable `taken_from` is set with it.
"""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import IllegalMove, Move
from regnum.testing import Scenario, assert_invariants

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3

# Digest §11, board B1 (row 0 first; odd rows are drawn shifted, the letters are what counts).
B1_MAP = """
F D D M M D D C C C C C C D D W D D D D
F F D D D M M C C C M M C D D W D D D D
F F F F F F F M M M M M C M M W D D L F
W W F K G G T T M M M C M M W M D F F F
F F W W G G G T T C C C T T W M M C F F
F C C W G T T C C C C T T W C C C M F F
D F L C W T T L C G C L T T W F F F F F
D D C W T T G G G G G G T W G K G F G T
D D D W T T T G G G G G T T W G G G G T
D D W W T T T G G G G G T T W G G G T T
D D C W W T T G G G D D C W W T T T G G
D C W F F T T T G G D K C W T T T L G G
D D W F F T T L F G C C C F F F T C F F
W W W F G T F F F F C C F F W D D C C F
W W W W G G G G F F C G G W F F D D C C
W T T W G G C C D C G G L F W F W D D C
W T C T W G C C D C G G G T F F W W D D
W K C F W L D D C W G G T T M W W W D W
W W C F W W W D D W G M T T W W W W W W
W W W W W W W W W W T T T W W W W W W W
"""
B1_ROWS = [line.split() for line in B1_MAP.strip().splitlines()]
LETTER = {"grass": "G", "canyon": "C", "desert": "D", "flower_field": "F", "forest": "T",
          "water": "W", "mountain": "M"}

B1 = {"first_game_setup": True}
# The same board named section by section: with it the Kingdom Builder cards can be chosen
# (`first_game_setup` always takes the first game's Fishermen, Merchants and Knights).
B1_SECTIONS = {"sections": ["Tavern", "Paddock", "Oasis", "Farm"]}
TOWER_BOARD = {"sections": ["Tavern", "Paddock", "Oasis", "Tower"]}     # KB-6
HARBOR_BOARD = {"sections": ["Tavern", "Paddock", "Oasis", "Harbor"]}   # KB-11
ORACLE_BOARD = {"sections": ["Tavern", "Paddock", "Oasis", "Oracle"]}
BARN_BOARD = {"sections": ["Tavern", "Paddock", "Oasis", "Barn"]}


@pytest.fixture(scope="module")
def rules() -> regnum.Ruleset:
    return regnum.load("kingdom_builder")


# ── reading the digest's board ────────────────────────────────────────────────

def cell(r: int, c: int) -> str:
    return f"({r},{c})"


def rc(h: str) -> tuple[int, int]:
    r, c = h.strip("()").split(",")
    return int(r), int(c)


def neighbours(h: str) -> list[str]:
    """The neighbours of a board hex by the digest's odd-r rule (§3.1)."""
    r, c = rc(h)
    steps = ([(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)] if r % 2 == 0 else
             [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)])
    return [cell(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < 20 and 0 <= c + dc < 20]


def b1_hexes(terrain: str) -> set[str]:
    """Every hex of B1 of `terrain` (by the digest's picture)."""
    return {cell(r, c) for r, row in enumerate(B1_ROWS) for c, x in enumerate(row) if x == LETTER[terrain]}


def test_the_digest_picture_of_B1_is_the_board_of_the_first_game(rules):
    game = Scenario(rules, 2, options=B1).game
    terrain = game.state.tables["terrain"]
    letters = {**LETTER, "castle": "K", "location": "L"}
    assert {h: letters[t] for h, t in terrain.items()} == {
        cell(r, c): x for r, row in enumerate(B1_ROWS) for c, x in enumerate(row)}
    assert [h for h, t in terrain.items() if t == "castle"] == ["(3,3)", "(7,15)", "(11,11)", "(17,1)"]
    assert {h: k for h, k in game.state.tables["location_at"].items() if k} == {
        "(2,18)": "Paddock", "(6,2)": "Tavern", "(6,7)": "Tavern", "(6,11)": "Paddock",
        "(11,17)": "Farm", "(12,7)": "Oasis", "(15,12)": "Farm", "(17,5)": "Oasis"}
    assert game.state.vars["goals"] == ["Fishermen", "Merchants", "Knights"]


# ── §3 the board and §4 setup ────────────────────────────────────────────────

# Location and castle hexes of each section, section-local (digest §3.3).
SECTION_SPECIALS = {
    "Oracle": ([(3, 7)], [(1, 3), (7, 2)]), "Farm": ([(1, 7), (5, 2)], [(1, 1)]),
    "Oasis": ([(2, 7), (7, 5)], [(7, 1)]), "Tower": ([(3, 5), (7, 2)], [(6, 7)]),
    "Tavern": ([(6, 2), (6, 7)], [(3, 3)]), "Barn": ([(2, 6), (6, 2)], [(7, 7)]),
    "Harbor": ([(7, 6)], [(4, 2), (8, 2)]), "Paddock": ([(2, 8), (6, 1)], [(7, 5)]),
}
QUADRANTS = {"top left": (0, 0), "top right": (0, 10), "bottom left": (10, 0), "bottom right": (10, 10)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_section_4(rules, players):
    game = rules.new_game(players, seed=players)
    zones = game.state.zones
    for p in range(players):
        assert len(zones[f"supply#{p}"]) == 40 and {s["owner"] for s in zone(game, f"supply#{p}")} == {p}
        assert zones[f"tiles#{p}"] == []
    # The start player revealed his card already; everybody else holds one hidden card.
    assert [len(zones[f"hand#{p}"]) for p in range(players)] == [0] + [1] * (players - 1)
    assert len(zones["played"]) == 1 and len(zones["draw_pile"]) == 25 - players
    cards = zone(game, "draw_pile") + zone(game, "played")
    cards += [c for p in range(players) for c in zone(game, f"hand#{p}")]
    assert sorted(c["terrain"] for c in cards) == sorted(
        ["grass", "canyon", "desert", "flower_field", "forest"] * 5)
    # 2 tiles on every location hex of the four sections (§4.3).
    sections = [m.group(1) for m in (re.match(r"(\w+) is the ", str(e)) for e in game.events) if m]
    locations = [h for h, k in game.state.tables["location_at"].items() if k]
    assert len(sections) == 4 and len(locations) == sum(len(SECTION_SPECIALS[n][0]) for n in sections)
    for h in locations:
        tiles = zone(game, f"tiles_at#{h}")
        assert [(t["kind"], t["origin"]) for t in tiles] == [(game.state.tables["location_at"][h], h)] * 2
    goals = game.state.vars["goals"]
    assert len(goals) == len(set(goals)) == 3
    assert game.to_move == [0] and game.state.vars["start_player"] == 0  # A24: seat 0


def test_sections_placed_and_turned_A1(rules):
    """Random boards: each section lies in its quadrant as printed, or turned by 180°."""
    turned_seen = plain_seen = 0
    for seed in range(12):
        game = rules.new_game(2, seed=seed)
        location_at = game.state.tables["location_at"]
        terrain = game.state.tables["terrain"]
        placed = [re.fullmatch(r"(\w+) is the (.+) section( \(turned\))?", str(e)) for e in game.events]
        placed = [m for m in placed if m]
        assert sorted(QUADRANTS) == sorted(m.group(2) for m in placed)
        assert len({m.group(1) for m in placed}) == 4
        for m in placed:
            name, (r0, c0), turned = m.group(1), QUADRANTS[m.group(2)], bool(m.group(3))
            turned_seen += turned
            plain_seen += not turned
            to_board = (lambda r, c: cell(r0 + 9 - r, c0 + 9 - c)) if turned else (lambda r, c: cell(r0 + r, c0 + c))
            locations, castles = SECTION_SPECIALS[name]
            assert {h for h, k in location_at.items() if k == name} == {to_board(r, c) for r, c in locations}
            assert {h for h, t in terrain.items() if t == "castle" and
                    r0 <= rc(h)[0] < r0 + 10 and c0 <= rc(h)[1] < c0 + 10} == {to_board(r, c) for r, c in castles}
    assert turned_seen and plain_seen
    # Named sections and the first game are never turned; `turn_sections: false` turns none.
    for options in (B1_SECTIONS, B1, {"turn_sections": False}):
        for seed in range(4):
            game = rules.new_game(2, seed=seed, options=options)
            assert not any("(turned)" in str(e) for e in game.events)


def test_named_sections_may_be_turned_by_the_option_turned(rules):
    game = rules.new_game(2, options={**B1_SECTIONS, "turned": [False, True, False, False]})
    assert game.events[:4] == ["Tavern is the top left section", "Paddock is the top right section (turned)",
                               "Oasis is the bottom left section", "Farm is the bottom right section"]
    # The Paddock section's location hex (2,8) lies, turned, at board cell (0+9-2, 10+9-8) = (7,11).
    assert game.state.tables["location_at"]["(7,11)"] == "Paddock"
    assert game.state.tables["location_at"]["(2,18)"] is None


@pytest.mark.parametrize("options,rule", [
    ({"sections": ["Tavern", "Tavern", "Paddock", "Oasis", "Farm"]}, "sections.four_sections"),
    ({"sections": ["Tavern", "Paddock", "Oasis"]}, "sections.four_sections"),
    ({"goal_cards": ["Lords", "Lords", "Farmers", "Hermits"]}, "goal_cards.three_goals"),
    ({"goal_cards": ["Lords", "Farmers"]}, "goal_cards.three_goals"),
    ({"turned": [True, False]}, "turned.four_turns"),
])
def test_options_the_digest_does_not_allow_are_refused(rules, options, rule):
    with pytest.raises(regnum.OptionError, match=rf"rule '{re.escape(rule)}'"):
        rules.new_game(2, options=options)


# ── building positions ───────────────────────────────────────────────────────

def settle(sc: Scenario, seat: int, *hexes: str) -> Scenario:
    for h in hexes:
        sc.place(f"supply#{seat}", f"site#{h}")
    return sc


def give_card(sc: Scenario, seat: int, terrain: str | None) -> Scenario:
    """`seat`'s hidden card becomes one of `terrain` (None: no card at all, it leaves the game)."""
    sc.place(f"hand#{seat}", "draw_pile")
    if terrain is None:
        return sc
    return sc.place("draw_pile", f"hand#{seat}", where=lambda c: c["terrain"] == terrain)


def on_top(sc: Scenario, *terrains: str) -> Scenario:
    """Put a card of each terrain on top of the draw pile, the last one topmost."""
    for t in terrains:
        sc.place("draw_pile", "discards", where=lambda c, t=t: c["terrain"] == t)
        sc.place("discards", "draw_pile")
    return sc


def grant(sc: Scenario, seat: int, location: str, taken_on: int = 0) -> Scenario:
    """Give `seat` one of the tiles lying on `location`, as if taken on turn `taken_on`."""
    sc.place(f"tiles_at#{location}", f"tiles#{seat}")
    sc.set_fields(f"tiles#{seat}", where=lambda t: t["origin"] == location, taken_on=taken_on)
    taken = sc.game.state.pvars[seat]["taken_from"]
    return sc.set_player_var(seat, "taken_from", taken + [location])


def park(sc: Scenario, seat: int, left: int, away_from: str | None = None) -> Scenario:
    """Leave `left` settlements in `seat`'s supply: the others go on free water hexes (where
    only the Harbor builds: never a card's terrain) of the bottom half that touch no `away_from`
    hex and no settlement, so that they do not change what the player may build on `away_from`
    (the terrain of his card)."""
    game = sc.game
    terrain, zones = game.state.tables["terrain"], game.state.zones
    spots = [h for h in terrain
             if terrain[h] == "water" and rc(h)[0] >= 10 and not zones[f"site#{h}"]
             and all(terrain[n] != away_from and not zones[f"site#{n}"] for n in neighbours(h))]
    extra = len(zones[f"supply#{seat}"]) - left
    assert extra <= len(spots)
    return settle(sc, seat, *spots[:extra])


def fill(sc: Scenario, terrain: str, keep: set[str], seats) -> Scenario:
    """Cover every free hex of `terrain` except `keep` with settlements of `seats` (in turn)."""
    game = sc.game
    todo = [h for h, t in game.state.tables["terrain"].items()
            if t == terrain and h not in keep and not game.state.zones[f"site#{h}"]]
    seats = list(seats)
    for h in todo:
        while not game.state.zones[f"supply#{seats[0]}"]:
            seats.pop(0)
        settle(sc, seats[0], h)
    return sc


class Position(Scenario):
    """A hand-built position. The digest's examples grant tiles directly (KB-4, KB-6, KB-11:
    "tests grant Red the tile directly"), so a player may hold a tile with none of his
    settlements next to its hex, which no game reaches: `start()` checks every invariant of
    the ruleset but that one."""

    def start(self, check: bool = True):
        game = super().start(check=False)
        if check:
            assert_invariants_but_granted_tiles(game)
        return game


def assert_invariants_but_granted_tiles(game) -> None:
    failed = game.check_invariants()
    assert [f for f in failed if not f.startswith("tiles_kept_next_to_their_hex:")] == [], failed


def position(rules, players: int = 2, options=B1, *, settlements: dict | None = None,
             cards: dict | None = None, tiles: dict | None = None, start_player: int = 0) -> Scenario:
    """A position before the first turn: `settlements` = {seat: [hexes]}, `cards` = {seat:
    terrain or None}, `tiles` = {seat: [location hexes]}. Call .start() when it is complete."""
    sc = Position(rules, players, options=options)
    for seat, hexes in (settlements or {}).items():
        settle(sc, seat, *hexes)
    for seat, terrain in (cards or {}).items():
        give_card(sc, seat, terrain)
    for seat, locations in (tiles or {}).items():
        for location in locations:
            grant(sc, seat, location)
    return sc.set_var("start_player", start_player)


# ── playing and reading ──────────────────────────────────────────────────────

def zone(game, key: str) -> list[dict]:
    return [game.state.pieces[i] for i in game.state.zones[key]]


def owner(game, h: str):
    pieces = zone(game, f"site#{h}")
    return pieces[0]["owner"] if pieces else None


def own_hexes(game, seat: int) -> set[str]:
    return {k[5:] for k, ids in game.state.zones.items()
            if k.startswith("site#") and ids and game.state.pieces[ids[0]]["owner"] == seat}


def supply(game, seat: int) -> int:
    return len(game.state.zones[f"supply#{seat}"])


def tile_labels(game, key: str) -> list[str]:
    return sorted(t["label"] for t in zone(game, key))


def card_labels(game, key: str) -> list[str]:
    return sorted(c["label"] for c in zone(game, key))


def actions(game) -> set[str]:
    return {m.action for m in game.all_legal_moves()}


def builds(game) -> set[str]:
    return {m.args["h"] for m in game.all_legal_moves() if m.action == "build"}


def tile_builds(game, tile: str) -> set[str]:
    return {m.args["h"] for m in game.all_legal_moves() if m.action == "build_with_tile" and m.args["tile"] == tile}


def tile_moves(game, tile: str, frm: str | None = None) -> set:
    """The targets of `tile` moving the settlement at `frm` (or every (from, to) pair)."""
    found = [(m.args["from"], m.args["to"]) for m in game.all_legal_moves()
             if m.action == "move_with_tile" and m.args["tile"] == tile]
    if frm is None:
        return set(found)
    return {to for f, to in found if f == frm}


def offered_tiles(game) -> set[str]:
    return {m.args["tile"] for m in game.all_legal_moves() if "tile" in m.args}


def build(game, seat: int, h: str) -> None:
    game.play(Move(seat, "build", {"h": h}))


def use_tile(game, seat: int, tile: str, h: str) -> None:
    game.play(Move(seat, "build_with_tile", {"tile": tile, "h": h}))


def move_tile(game, seat: int, tile: str, frm: str, to: str) -> None:
    game.play(Move(seat, "move_with_tile", {"tile": tile, "from": frm, "to": to}))


def end_turn(game, seat: int) -> None:
    game.play(Move(seat, "end_turn", {}))


def refused(game, move: Move) -> str:
    """Play `move`, expect a refusal; the rule it names (the state must not change)."""
    before = game.to_json()
    with pytest.raises(IllegalMove) as err:
        game.play(move)
    assert game.to_json() == before
    return err.value.rule


def play_turn(game) -> int:
    """Play the turn of the player to move with his first legal builds, no tiles; his seat."""
    seat = game.to_move[0]
    while not game.is_over and game.to_move == [seat]:
        moves = game.all_legal_moves()
        chosen = next((m for m in moves if m.action == "build"), None) or \
            next(m for m in moves if m.action == "end_turn")
        game.play(chosen)
    return seat


# ── the end of the game at a given position ─────────────────────────────────

def final(rules, players: int, settlements: dict, goals: list, options=None, start_player: int = 0):
    """The game ended by its own flow at this position: every card leaves the game, the last
    round is declared, each player takes a turn without a card (A22: no builds, nothing else to
    do) and the final scoring runs with the Kingdom Builder cards `goals`."""
    sc = Scenario(rules, players, options={**(options or B1_SECTIONS), "goal_cards": goals})
    for seat, hexes in settlements.items():
        settle(sc, seat, *hexes)
    sc.place("draw_pile", "removed", n=None)
    for seat in range(players):
        sc.place(f"hand#{seat}", "removed")
    sc.set_var("start_player", start_player).set_var("game_ending", True)
    game = sc.start()
    assert game.is_over
    assert all(own_hexes(game, p) == set(settlements.get(p, ())) for p in range(players))
    return game


def gold(game, seat: int) -> dict:
    """{card: gold} paid to `seat` by the final scoring, read from its announcements: each Kingdom
    Builder card but Lords is announced with the value of the ruleset's def for it (fishermen(p),
    merchants(p), …), then the castles ("castles")."""
    out = {}
    for event in game.events:
        m = re.fullmatch(r"P?(\d): (\d+) gold for (?:the )?(\w+)", str(event))
        if m and int(m.group(1)) == seat:
            assert m.group(3) not in out, f"{m.group(3)} scored twice for {seat}"
            out[m.group(3)] = int(m.group(2))
    return out


# ═════════════════════════════════════════════════════════════════════════════
# §11 the worked examples
# ═════════════════════════════════════════════════════════════════════════════

def test_KB1_adjacency_preference(rules):
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"}).start()
    assert game.to_move == [RED] and zone(game, "played")[0]["terrain"] == "grass"
    assert builds(game) == {"(7,7)", "(7,9)", "(6,9)", "(8,8)", "(8,9)"}
    assert actions(game) == {"build"}  # no tile, and end_turn only after the builds
    assert refused(game, Move(RED, "build", {"h": "(3,4)"})) == "build.next_to_own"
    assert refused(game, Move(RED, "build", {"h": "(6,8)"})) == "build.on_card"  # canyon
    build(game, RED, "(8,8)")
    # The check is made again for each build, with the settlements placed this turn.
    assert builds(game) == {"(7,7)", "(7,9)", "(6,9)", "(8,9)", "(8,7)", "(9,7)", "(9,8)"}


def test_KB2_no_adjacent_hex_then_the_preference_returns_and_a_tile_is_taken(rules):
    game = position(rules, settlements={RED: ["(0,0)"]}, cards={RED: "canyon"}).start()
    # (0,0) touches only (0,1) D and (1,0) F: every free canyon hex of the board (55, §3.3).
    assert builds(game) == b1_hexes("canyon") and len(b1_hexes("canyon")) == 55
    build(game, RED, "(5,1)")
    # (5,1) touches the Tavern hex (6,2): a tile at once, taken on this turn.
    assert tile_labels(game, "tiles#0") == ["Tavern (6,2)"]
    assert zone(game, "tiles#0")[0]["taken_on"] == game.state.vars["turn"] == 1
    assert game.state.pvars[RED]["taken_from"] == ["(6,2)"]
    assert len(game.state.zones["tiles_at#(6,2)"]) == 1
    assert builds(game) == {"(5,2)"} and actions(game) == {"build"}
    build(game, RED, "(5,2)")
    assert builds(game) == {"(6,3)"}
    build(game, RED, "(6,3)")
    # (5,2) and (6,3) touch (6,2) too: no second tile from that hex.
    assert tile_labels(game, "tiles#0") == ["Tavern (6,2)"]
    assert len(game.state.zones["tiles_at#(6,2)"]) == 1
    # The new tile is not usable this turn: nothing is left to do and the turn ends (A23).
    assert game.to_move == [BLUE]
    assert own_hexes(game, RED) == {"(0,0)", "(5,1)", "(5,2)", "(6,3)"}
    assert_invariants(game)


def test_KB3_a_second_tile_of_the_same_type_each_used_once_per_turn(rules):
    # Red holds the Tavern tile of (6,2) (by (5,1)); (8,8)-(8,9)-(8,10) is a line of three.
    game = position(rules, settlements={RED: ["(5,1)", "(7,8)", "(8,8)", "(8,9)", "(8,10)"], BLUE: ["(0,2)"]},
                    cards={RED: "canyon", BLUE: "desert"}, tiles={RED: ["(6,2)"]}).start()
    # Canyon next to Red: (5,2) by (5,1), (6,8) by (7,8).
    assert builds(game) == {"(5,2)", "(6,8)"}
    build(game, RED, "(6,8)")  # next to the other Tavern hex (6,7)
    assert tile_labels(game, "tiles#0") == ["Tavern (6,2)", "Tavern (6,7)"]
    assert game.state.pvars[RED]["taken_from"] == ["(6,2)", "(6,7)"]
    build(game, RED, "(5,2)")
    build(game, RED, "(6,3)")  # next to (6,2) again: nothing
    assert tile_labels(game, "tiles#0") == ["Tavern (6,2)", "Tavern (6,7)"]
    # The older tile is usable after the builds; the new one is not. Lines: (8,8)-(8,9)-(8,10)
    # and, along the south-east axis, (6,8)-(7,8)-(8,9).
    assert offered_tiles(game) == {"Tavern (6,2)"}
    assert tile_builds(game, "Tavern (6,2)") == {"(8,7)", "(8,11)", "(5,7)", "(9,9)"}
    end_turn(game, RED)
    assert play_turn(game) == BLUE
    # From his next turn on he may use each of them once.
    assert game.to_move == [RED] and offered_tiles(game) == {"Tavern (6,2)", "Tavern (6,7)"}
    use_tile(game, RED, "Tavern (6,2)", "(8,11)")
    assert offered_tiles(game) == {"Tavern (6,7)"}
    assert tile_builds(game, "Tavern (6,7)") == {"(8,7)", "(8,12)", "(5,7)", "(9,9)"}
    use_tile(game, RED, "Tavern (6,7)", "(8,12)")
    assert offered_tiles(game) == set() and actions(game) == {"build"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Tavern (6,2)", "h": "(8,7)"})) \
        == "build_with_tile.tile"


def test_KB4_paddock_targets(rules):
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,11)"]}).start()
    assert tile_moves(game, "Paddock (6,11)") == {
        ("(7,8)", to) for to in ("(7,10)", "(7,6)", "(5,9)", "(5,7)", "(9,9)", "(9,7)")}
    game = position(rules, settlements={RED: ["(4,4)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,11)"]}).start()
    assert tile_moves(game, "Paddock (6,11)", "(4,4)") == {"(4,6)", "(2,5)", "(2,3)", "(6,5)", "(6,3)"}
    # West is (4,2), water; one step is not a Paddock move.
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Paddock (6,11)", "from": "(4,4)",
                                                      "to": "(4,2)"})) == "move_with_tile.paddock"
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Paddock (6,11)", "from": "(4,4)",
                                                      "to": "(4,5)"})) == "move_with_tile.to"
    move_tile(game, RED, "Paddock (6,11)", "(4,4)", "(2,5)")
    assert own_hexes(game, RED) == {"(2,5)"} and owner(game, "(4,4)") is None
    assert zone(game, "tiles#0")[0]["used"] is True
    assert offered_tiles(game) == set() and actions(game) == {"build"}


def test_KB5_tavern(rules):
    game = position(rules, settlements={RED: ["(7,7)", "(7,8)", "(7,9)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)"]}).start()
    assert tile_builds(game, "Tavern (6,2)") == {"(7,6)", "(7,10)"}
    game = position(rules, settlements={RED: ["(7,7)", "(7,8)", "(7,9)"], BLUE: ["(7,10)"]},
                    cards={RED: "desert"}, tiles={RED: ["(6,2)"]}).start()
    assert tile_builds(game, "Tavern (6,2)") == {"(7,6)"}
    game = position(rules, settlements={RED: ["(7,8)", "(7,9)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)"]}).start()
    assert offered_tiles(game) == set()
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Tavern (6,2)", "h": "(7,10)"})) \
        == "build_with_tile.tavern"


# KB-6, KB-11 and KB-12 are with the Tower, the Harbor and the Paddock below; KB-7 and KB-8 with the
# cards; KB-9 with the end of the game; KB-10 with the stuck card.


# ═════════════════════════════════════════════════════════════════════════════
# §2.2 the eight location powers
# ═════════════════════════════════════════════════════════════════════════════

def test_oracle_builds_on_the_played_terrain_next_to_own_settlements(rules):
    # Oracle board: B1 with the Oracle section bottom right; its Oracle hex is (13,17).
    game = position(rules, options=ORACLE_BOARD, settlements={RED: ["(7,8)"]}, cards={RED: "grass"},
                    tiles={RED: ["(13,17)"]}).start()
    assert tile_builds(game, "Oracle (13,17)") == {"(7,7)", "(7,9)", "(6,9)", "(8,8)", "(8,9)"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Oracle (13,17)", "h": "(6,8)"})) \
        == "build_with_tile.oracle"
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Oracle (13,17)", "h": "(3,4)"})) \
        == "build_with_tile.next_to_own"
    use_tile(game, RED, "Oracle (13,17)", "(7,9)")  # before the mandatory action
    assert supply(game, RED) == 38
    assert builds(game) == {"(7,7)", "(6,9)", "(8,8)", "(8,9)", "(7,10)", "(8,10)"}
    assert offered_tiles(game) == set()
    build(game, RED, "(7,10)")
    build(game, RED, "(7,11)")
    assert refused(game, Move(RED, "build", {"h": "(7,12)"})) == "build.on_card"  # forest
    build(game, RED, "(8,11)")
    # Used once, it is not offered again: the turn ends by itself.
    assert game.to_move == [BLUE] and supply(game, RED) == 35


def test_oracle_after_the_mandatory_action_counts_this_turns_settlements(rules):
    game = position(rules, options=ORACLE_BOARD, settlements={RED: ["(0,0)"]}, cards={RED: "grass"},
                    tiles={RED: ["(13,17)"]}).start()
    assert "(7,8)" in builds(game)  # no grass next to (0,0): any grass hex
    for h in ("(7,8)", "(7,9)", "(7,10)"):
        build(game, RED, h)
    assert tile_builds(game, "Oracle (13,17)") == {
        "(7,7)", "(6,9)", "(8,8)", "(8,9)", "(8,10)", "(7,11)", "(8,11)"}
    assert actions(game) == {"build_with_tile", "end_turn"}
    use_tile(game, RED, "Oracle (13,17)", "(7,11)")
    assert game.to_move == [BLUE]


def test_farm_builds_on_grass(rules):
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "desert"},
                    tiles={RED: ["(11,17)"]}).start()
    assert tile_builds(game, "Farm (11,17)") == {"(7,7)", "(7,9)", "(6,9)", "(8,8)", "(8,9)"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Farm (11,17)", "h": "(6,8)"})) \
        == "build_with_tile.farm"
    # No grass next to Red: every free grass hex of the board.
    game = position(rules, settlements={RED: ["(0,0)"]}, cards={RED: "desert"},
                    tiles={RED: ["(11,17)"]}).start()
    assert tile_builds(game, "Farm (11,17)") == b1_hexes("grass") and len(b1_hexes("grass")) == 61


def test_oasis_builds_on_desert(rules):
    game = position(rules, settlements={RED: ["(0,0)"]}, cards={RED: "grass"},
                    tiles={RED: ["(12,7)"]}).start()
    assert tile_builds(game, "Oasis (12,7)") == {"(0,1)"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Oasis (12,7)", "h": "(1,2)"})) \
        == "build_with_tile.next_to_own"
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Oasis (12,7)", "h": "(1,0)"})) \
        == "build_with_tile.oasis"
    use_tile(game, RED, "Oasis (12,7)", "(0,1)")
    assert own_hexes(game, RED) == {"(0,0)", "(0,1)"}
    # No desert next to Red: every free desert hex.
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"},
                    tiles={RED: ["(12,7)"]}).start()
    assert tile_builds(game, "Oasis (12,7)") == b1_hexes("desert") and len(b1_hexes("desert")) == 53


def test_KB6_tower_builds_at_the_edge_next_to_own_settlements(rules):
    sc = position(rules, options=TOWER_BOARD, settlements={RED: ["(9,0)"]}, cards={RED: "grass"},
                  tiles={RED: ["(13,15)"]})
    game = sc.start()
    assert tile_builds(game, "Tower (13,15)") == {"(8,0)", "(10,0)"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Tower (13,15)", "h": "(0,0)"})) \
        == "build_with_tile.next_to_own"
    # Both taken: any free buildable edge hex. The Tower board's edge has 76 hexes, 53 of them
    # buildable (B1's top and bottom-left edges plus the Tower section's), minus the 3 occupied.
    game = position(rules, options=TOWER_BOARD, settlements={RED: ["(9,0)"], BLUE: ["(8,0)", "(10,0)"]},
                    cards={RED: "grass"}, tiles={RED: ["(13,15)"]}).start()
    targets = tile_builds(game, "Tower (13,15)")
    assert len(targets) == 50
    assert {"(0,0)", "(0,19)", "(19,19)", "(19,10)", "(10,19)", "(5,0)", "(9,19)"} <= targets
    assert all(rc(h)[0] in (0, 19) or rc(h)[1] in (0, 19) for h in targets)


def test_tower_edge_is_the_outer_boundary_only_A11(rules):
    game = position(rules, options=TOWER_BOARD, settlements={RED: ["(9,8)"]}, cards={RED: "grass"},
                    tiles={RED: ["(13,15)"]}).start()
    # (9,9), (9,10), (10,9) lie on the seams between sections: not the edge.
    for h in ("(9,9)", "(9,10)", "(10,9)"):
        assert refused(game, Move(RED, "build_with_tile", {"tile": "Tower (13,15)", "h": h})) \
            == "build_with_tile.tower"
    # Water, mountain and castle hexes of the edge are not buildable: (3,0) W, (0,3) M, (19,0) W.
    for h in ("(3,0)", "(0,3)", "(19,0)"):
        assert refused(game, Move(RED, "build_with_tile", {"tile": "Tower (13,15)", "h": h})) \
            == "build_with_tile.tower"
    assert "(0,0)" in tile_builds(game, "Tower (13,15)")


def test_tavern_lines_along_every_axis_A12(rules):
    # North-east axis: (9,7) → (8,8) → (7,8); beyond the ends (6,9) G and (10,7) G.
    game = position(rules, settlements={RED: ["(9,7)", "(8,8)", "(7,8)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)"]}).start()
    assert tile_builds(game, "Tavern (6,2)") == {"(6,9)", "(10,7)"}
    # A line of four: the hex beyond either end.
    game = position(rules, settlements={RED: ["(7,7)", "(7,8)", "(7,9)", "(7,10)"]},
                    cards={RED: "desert"}, tiles={RED: ["(6,2)"]}).start()
    assert tile_builds(game, "Tavern (6,2)") == {"(7,6)", "(7,11)"}
    # (8,4)-(8,5)-(8,6): west lies water (8,3), so only east (8,7).
    game = position(rules, settlements={RED: ["(8,4)", "(8,5)", "(8,6)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)"]}).start()
    assert tile_builds(game, "Tavern (6,2)") == {"(8,7)"}
    # A gap is no line: (7,7), (7,8), _, (7,10).
    game = position(rules, settlements={RED: ["(7,7)", "(7,8)", "(7,10)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)"]}).start()
    assert offered_tiles(game) == set()
    # Blue's settlements do not make Red's line.
    game = position(rules, settlements={RED: ["(7,7)", "(7,8)"], BLUE: ["(7,9)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)"]}).start()
    assert offered_tiles(game) == set()


def test_barn_moves_to_the_played_terrain_adjacency_without_the_moved_settlement_A4_A20(rules):
    # Barn board: B1 with the Barn section bottom right; Barn hexes (12,16) and (16,12).
    game = position(rules, options=BARN_BOARD, settlements={RED: ["(7,8)", "(0,0)"]},
                    cards={RED: "grass"}, tiles={RED: ["(12,16)"]}).start()
    # Moving (0,0): grass next to (7,8) — the five of KB-1.
    assert tile_moves(game, "Barn (12,16)", "(0,0)") == {"(7,7)", "(7,9)", "(6,9)", "(8,8)", "(8,9)"}
    # Moving (7,8): without it no own settlement touches grass, so every free grass hex
    # (17 + 16 + 14 on B1's Tavern, Paddock, Oasis sections + 16 on the Barn section = 63),
    # but never its own hex.
    from_78 = tile_moves(game, "Barn (12,16)", "(7,8)")
    assert len(from_78) == 62 and "(7,8)" not in from_78 and {"(7,7)", "(3,4)", "(19,10)"} <= from_78
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Barn (12,16)", "from": "(0,0)",
                                                      "to": "(6,8)"})) == "move_with_tile.barn"
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Barn (12,16)", "from": "(0,0)",
                                                      "to": "(3,4)"})) == "move_with_tile.next_to_own"
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Barn (12,16)", "from": "(7,8)",
                                                      "to": "(7,8)"})) == "move_with_tile.free"
    move_tile(game, RED, "Barn (12,16)", "(0,0)", "(8,8)")
    assert own_hexes(game, RED) == {"(7,8)", "(8,8)"} and supply(game, RED) == 38
    assert offered_tiles(game) == set()


def test_KB11_harbor_and_fishermen(rules):
    # Harbor board: B1 with the Harbor section bottom right; its Harbor hex is (17,16).
    game = position(rules, options=HARBOR_BOARD, settlements={RED: ["(8,8)", "(8,4)"]},
                    cards={RED: "grass"}, tiles={RED: ["(17,16)"]}).start()
    # Moving (8,8): water next to (8,4). Moving (8,4): nothing else touches water, so any free
    # water hex: 10 + 10 + 34 + 21 = 75 (§3.3).
    assert tile_moves(game, "Harbor (17,16)", "(8,8)") == {"(8,3)", "(7,3)", "(9,3)"}
    anywhere = tile_moves(game, "Harbor (17,16)", "(8,4)")
    assert len(anywhere) == 75 and {"(8,3)", "(0,15)", "(19,0)", "(17,10)"} <= anywhere
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Harbor (17,16)", "from": "(8,8)",
                                                      "to": "(8,9)"})) == "move_with_tile.harbor"
    move_tile(game, RED, "Harbor (17,16)", "(8,8)", "(8,3)")
    assert own_hexes(game, RED) == {"(8,3)", "(8,4)"}
    # Fishermen on these positions: test_KB11_fishermen_on_the_harbor_board.
    # Normal builds never go on water.
    assert refused(game, Move(RED, "build", {"h": "(7,3)"})) == "build.on_card"


def test_paddock_ignores_the_adjacency_preference_and_jumps_anything(rules):
    # (7,11) is Red's too: only (7,10) would touch it, yet all six targets stay legal; going east
    # Red jumps over Blue's (7,9).
    game = position(rules, settlements={RED: ["(7,8)", "(7,11)"], BLUE: ["(7,9)"]},
                    cards={RED: "desert"}, tiles={RED: ["(6,11)"]}).start()
    assert tile_moves(game, "Paddock (6,11)", "(7,8)") == {
        "(7,10)", "(7,6)", "(5,9)", "(5,7)", "(9,9)", "(9,7)"}
    # Moving next to a location hex takes its tile (A5): (5,7) touches the Tavern hex (6,7).
    move_tile(game, RED, "Paddock (6,11)", "(7,8)", "(5,7)")
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)", "Tavern (6,7)"]
    assert game.state.pvars[RED]["taken_from"] == ["(6,11)", "(6,7)"]


def test_paddock_over_a_location_and_a_castle(rules):
    # From (6,1), east jumps the Tavern hex (6,2) to (6,3) C; from (3,2) east jumps the castle (3,3).
    game = position(rules, settlements={RED: ["(6,1)", "(3,2)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,11)"]}).start()
    assert "(6,3)" in tile_moves(game, "Paddock (6,11)", "(6,1)")
    assert "(3,4)" in tile_moves(game, "Paddock (6,11)", "(3,2)")


def test_KB12_losing_a_tile(rules):
    game = position(rules, settlements={RED: ["(5,1)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)", "(6,11)"]}).start()
    # East of (5,1) two steps is (5,3), water; north-east over (4,2) is (3,2) F.
    assert tile_moves(game, "Paddock (6,11)", "(5,1)") == {"(3,2)", "(7,2)", "(7,0)"}
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Paddock (6,11)", "from": "(5,1)",
                                                      "to": "(5,3)"})) == "move_with_tile.paddock"
    move_tile(game, RED, "Paddock (6,11)", "(5,1)", "(3,2)")
    # No Red settlement touches (6,2) any more: its tile leaves the game at once.
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"]
    assert tile_labels(game, "removed") == ["Tavern (6,2)"]
    assert len(game.state.zones["tiles_at#(6,2)"]) == 1  # it does not go back
    assert_invariants_but_granted_tiles(game)   # the Paddock tile was granted with no settlement by it


def test_a_tile_is_kept_while_one_settlement_still_touches_its_hex(rules):
    game = position(rules, settlements={RED: ["(5,1)", "(5,2)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)", "(6,11)"]}).start()
    move_tile(game, RED, "Paddock (6,11)", "(5,1)", "(3,2)")
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)", "Tavern (6,2)"]


def test_a_move_from_one_neighbour_of_the_hex_to_another_keeps_the_tile(rules):
    # (5,1) → south-east over (6,2) to (7,2): both touch the Tavern hex (6,2).
    game = position(rules, settlements={RED: ["(5,1)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)", "(6,11)"]}).start()
    move_tile(game, RED, "Paddock (6,11)", "(5,1)", "(7,2)")
    assert own_hexes(game, RED) == {"(7,2)"}
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)", "Tavern (6,2)"]
    assert tile_labels(game, "removed") == [] and len(game.state.zones["tiles_at#(6,2)"]) == 1


def test_a_tile_used_this_turn_is_still_lost_A15(rules):
    # Red uses the Tavern of (6,2) (line (9,5)-(9,6)-(9,7), desert card irrelevant), then moves
    # (5,1), his only settlement next to (6,2), away with the Paddock: the used tile is lost.
    game = position(rules, settlements={RED: ["(5,1)", "(9,5)", "(9,6)", "(9,7)"]}, cards={RED: "desert"},
                    tiles={RED: ["(6,2)", "(6,11)"]}).start()
    assert tile_builds(game, "Tavern (6,2)") == {"(9,4)", "(9,8)"}
    use_tile(game, RED, "Tavern (6,2)", "(9,8)")
    move_tile(game, RED, "Paddock (6,11)", "(5,1)", "(7,0)")
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"]
    assert tile_labels(game, "removed") == ["Tavern (6,2)"]


# ═════════════════════════════════════════════════════════════════════════════
# §7 tiles: taken once per hex and player, usable from the next turn, once per turn
# ═════════════════════════════════════════════════════════════════════════════

def test_one_tile_per_location_hex_per_player_ever_A18(rules):
    # Turn 1: Red moves (5,1) away from (6,2) and loses its tile; turn 3: he moves back next to
    # (6,2), where a tile is still lying, and gets none.
    game = position(rules, settlements={RED: ["(5,1)", "(0,0)"]}, cards={RED: "flower_field", BLUE: "grass"},
                    tiles={RED: ["(6,2)", "(6,11)"]}).start()
    move_tile(game, RED, "Paddock (6,11)", "(5,1)", "(3,2)")
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"]
    assert play_turn(game) == RED
    assert play_turn(game) == BLUE
    assert game.to_move == [RED]
    move_tile(game, RED, "Paddock (6,11)", "(3,2)", "(5,1)")
    assert owner(game, "(5,1)") == RED
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"]
    assert len(game.state.zones["tiles_at#(6,2)"]) == 1


def test_two_tiles_per_hex_then_none_left(rules):
    # Red took one tile of (6,2); Blue building next to it takes the other; Green gets none.
    game = position(rules, 3, settlements={RED: ["(5,1)"], BLUE: ["(8,2)"]},
                    cards={BLUE: "canyon", GREEN: "flower_field"}, tiles={RED: ["(6,2)"]},
                    start_player=BLUE).start()
    assert game.to_move == [BLUE]
    assert builds(game) == {"(7,2)"}  # the one canyon hex next to (8,2)
    build(game, BLUE, "(7,2)")
    assert tile_labels(game, "tiles#1") == ["Tavern (6,2)"] and game.state.zones["tiles_at#(6,2)"] == []
    for h in ("(6,3)", "(5,2)"):  # both next to (6,2) too: nothing more
        assert builds(game) == {h}
        build(game, BLUE, h)
    assert tile_labels(game, "tiles#1") == ["Tavern (6,2)"]
    assert game.to_move == [GREEN]
    build(game, GREEN, "(6,1)")  # Green has no settlement: any flower field hex
    assert tile_labels(game, "tiles#2") == [] and game.state.pvars[GREEN]["taken_from"] == []


def test_a_tile_is_not_usable_on_the_turn_it_was_taken(rules):
    # Red takes the Paddock tile of (6,11) with his first build; a Paddock always has targets,
    # yet after the builds the turn ends by itself; next turn it is offered.
    game = position(rules, settlements={RED: ["(7,9)"]}, cards={RED: "canyon", BLUE: "grass"}).start()
    assert builds(game) == {"(6,10)"}
    build(game, RED, "(6,10)")
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"]
    assert zone(game, "tiles#0")[0]["taken_on"] == game.state.vars["turn"]
    assert builds(game) == {"(5,9)", "(5,10)"}
    build(game, RED, "(5,10)")
    build(game, RED, "(5,9)")
    assert game.to_move == [BLUE]
    assert play_turn(game) == BLUE
    assert game.to_move == [RED]
    assert offered_tiles(game) == {"Paddock (6,11)"}


def test_each_tile_once_per_turn_and_again_next_turn(rules):
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "desert", BLUE: "grass"},
                    tiles={RED: ["(11,17)"]}).start()
    use_tile(game, RED, "Farm (11,17)", "(7,9)")
    assert offered_tiles(game) == set()
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Farm (11,17)", "h": "(7,7)"})) \
        == "build_with_tile.tile"
    assert play_turn(game) == RED
    assert play_turn(game) == BLUE
    assert game.to_move == [RED] and zone(game, "tiles#0")[0]["used"] is False
    assert "Farm (11,17)" in offered_tiles(game)


def test_no_extra_action_between_the_mandatory_builds_A7(rules):
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"},
                    tiles={RED: ["(11,17)", "(6,11)"]}).start()
    assert offered_tiles(game) == {"Farm (11,17)", "Paddock (6,11)"}  # before: allowed
    build(game, RED, "(7,9)")
    assert actions(game) == {"build"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Farm (11,17)", "h": "(7,7)"})) == "flow"
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Paddock (6,11)", "from": "(7,8)",
                                                      "to": "(7,6)"})) == "flow"
    assert refused(game, Move(RED, "end_turn", {})) == "flow"
    build(game, RED, "(7,10)")
    build(game, RED, "(7,11)")
    assert offered_tiles(game) == {"Farm (11,17)", "Paddock (6,11)"}  # after: allowed again
    assert "end_turn" in actions(game)


def test_end_turn_only_after_the_builds_and_the_turn_ends_by_itself_A23(rules):
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"},
                    tiles={RED: ["(6,11)"]}).start()
    assert actions(game) == {"build", "move_with_tile"}
    for h in ("(7,9)", "(7,10)", "(8,9)"):
        build(game, RED, h)
    # A usable tile is left: the player ends his turn himself.
    assert game.to_move == [RED] and actions(game) == {"move_with_tile", "end_turn"}
    end_turn(game, RED)
    assert game.to_move == [BLUE]
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"] and zone(game, "tiles#0")[0]["used"] is False
    assert card_labels(game, "discards") == ["Grass"] and len(game.state.zones["hand#0"]) == 1
    # Without a usable tile the turn ends with the last build.
    game = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"}).start()
    assert refused(game, Move(RED, "end_turn", {})) == "end_turn.builds_made"
    for h in ("(7,9)", "(7,10)", "(8,9)"):  # (7,10) takes a Paddock tile, not usable yet
        build(game, RED, h)
    assert game.to_move == [BLUE]
    assert tile_labels(game, "tiles#0") == ["Paddock (6,11)"]


def test_empty_supply_build_tiles_impossible_move_tiles_possible(rules):
    sc = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"},
                  tiles={RED: ["(11,17)", "(6,11)"]})
    game = park(sc, RED, 3, "grass").start()
    for h in ("(7,9)", "(7,10)", "(8,9)"):
        build(game, RED, h)
    assert supply(game, RED) == 0 and game.state.vars["game_ending"] is True
    # The player who emptied his supply may still move (§8), not build.
    assert offered_tiles(game) == {"Paddock (6,11)"} and actions(game) == {"move_with_tile", "end_turn"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Farm (11,17)", "h": "(6,9)"})) \
        == "build_with_tile.supply_left"
    move_tile(game, RED, "Paddock (6,11)", "(8,9)", "(8,11)")
    assert owner(game, "(8,11)") == RED and owner(game, "(8,9)") is None
    assert game.to_move == [BLUE] and not game.is_over  # Blue completes the round


# ═════════════════════════════════════════════════════════════════════════════
# §5.2 the mandatory action with fewer than three settlements (A10, A21)
# ═════════════════════════════════════════════════════════════════════════════

@pytest.mark.parametrize("left", [1, 2])
def test_fewer_than_three_settlements_build_what_is_left_A10(rules, left):
    sc = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass"})
    game = park(sc, RED, left, "grass").start()
    for h in ["(7,9)", "(7,7)"][:left]:
        assert game.to_move == [RED]
        build(game, RED, h)
    # The mandatory action ended with the supply: Blue is to move, the last round is declared.
    assert supply(game, RED) == 0 and game.state.vars["game_ending"] is True
    assert game.to_move == [BLUE] and len(own_hexes(game, RED) & {"(7,9)", "(7,7)"}) == left


def test_a_build_tile_before_the_mandatory_action_shortens_it_A21(rules):
    sc = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "desert"},
                  tiles={RED: ["(11,17)"]})
    game = park(sc, RED, 3, "desert").start()
    use_tile(game, RED, "Farm (11,17)", "(7,9)")
    assert supply(game, RED) == 2
    # No desert next to Red: any desert hex, twice, then the supply is empty.
    build(game, RED, "(0,1)")
    build(game, RED, "(0,2)")
    assert supply(game, RED) == 0 and game.to_move == [BLUE]
    assert game.state.vars["game_ending"] is True


# ═════════════════════════════════════════════════════════════════════════════
# §6.4 the stuck card (KB-10, A19, A22)
# ═════════════════════════════════════════════════════════════════════════════

def test_KB10_stuck_at_the_start_of_the_turn(rules):
    sc = position(rules, 3, settlements={RED: ["(5,4)"]}, cards={RED: "desert", BLUE: "grass", GREEN: "grass"})
    fill(sc, "desert", set(), [GREEN, BLUE])
    game = on_top(sc, "forest", "desert", "desert").start()
    # The Desert card left the game, and so did the two Desert cards drawn after it (§6.4 repeat
    # until a card with a free hex comes); the Forest card is the played card.
    assert card_labels(game, "removed") == ["Desert", "Desert", "Desert"]
    assert card_labels(game, "played") == ["Forest"]
    assert builds(game) == {"(5,5)", "(6,5)"}  # forest next to (5,4)
    build(game, RED, "(5,5)")
    build(game, RED, "(6,5)")
    build(game, RED, "(6,6)")
    assert game.to_move == [BLUE]
    assert card_labels(game, "discards") == ["Forest"] and card_labels(game, "removed") == ["Desert"] * 3
    assert len(game.state.zones["hand#0"]) == 1
    assert_invariants(game)


def test_KB10_stuck_during_the_mandatory_action(rules):
    sc = position(rules, 3, settlements={RED: ["(6,1)", "(5,4)"]}, cards={RED: "desert"})
    fill(sc, "desert", {"(7,0)", "(7,1)"}, [GREEN, BLUE])
    game = on_top(sc, "forest").start()
    assert card_labels(game, "played") == ["Desert"]
    assert builds(game) == {"(7,0)", "(7,1)"}
    build(game, RED, "(7,0)")
    build(game, RED, "(7,1)")
    # No free desert: a replacement at once; the third build on forest, next to Red if possible.
    assert card_labels(game, "removed") == ["Desert"] and card_labels(game, "played") == ["Forest"]
    assert builds(game) == {"(5,5)", "(6,5)"}
    build(game, RED, "(6,5)")
    assert game.to_move == [BLUE]
    assert card_labels(game, "discards") == ["Forest"]


def test_stuck_after_an_extra_action_before_the_mandatory_one_A19(rules):
    # Red's Oasis takes the last free desert hex before the builds: the Desert card is replaced.
    sc = position(rules, 3, settlements={RED: ["(6,1)", "(5,4)"]}, cards={RED: "desert"},
                  tiles={RED: ["(12,7)"]})
    fill(sc, "desert", {"(7,0)"}, [GREEN, BLUE])
    game = on_top(sc, "forest").start()
    assert builds(game) == {"(7,0)"} and tile_builds(game, "Oasis (12,7)") == {"(7,0)"}
    use_tile(game, RED, "Oasis (12,7)", "(7,0)")
    assert card_labels(game, "removed") == ["Desert"] and card_labels(game, "played") == ["Forest"]
    assert builds(game) == {"(5,5)", "(6,5)"}


def test_nothing_is_replaced_after_the_mandatory_action_A19(rules):
    # Three free desert hexes: the builds take them; the Oracle then simply has no target.
    sc = position(rules, 3, options=ORACLE_BOARD, settlements={RED: ["(6,1)"]}, cards={RED: "desert"},
                  tiles={RED: ["(13,17)"]})
    fill(sc, "desert", {"(7,0)", "(7,1)", "(8,1)"}, [GREEN, BLUE])
    game = sc.start()
    assert tile_builds(game, "Oracle (13,17)") == {"(7,0)", "(7,1)"}
    for h in ("(7,0)", "(7,1)", "(8,1)"):
        build(game, RED, h)
    assert game.to_move == [BLUE]
    assert card_labels(game, "removed") == [] and card_labels(game, "discards") == ["Desert"]


def test_the_replacement_card_governs_the_oracle_A9(rules):
    sc = position(rules, 3, options=ORACLE_BOARD, settlements={RED: ["(5,4)"]}, cards={RED: "desert"},
                  tiles={RED: ["(13,17)"]})
    fill(sc, "desert", set(), [GREEN, BLUE])
    game = on_top(sc, "forest").start()
    assert card_labels(game, "played") == ["Forest"]
    assert tile_builds(game, "Oracle (13,17)") == {"(5,5)", "(6,5)"}


def test_empty_draw_pile_reshuffles_the_discards_not_the_removed_cards_A8(rules):
    sc = position(rules, settlements={RED: ["(7,8)"]}, cards={RED: "grass", BLUE: "grass"})
    sc.place("draw_pile", "removed", n=2, where=lambda c: c["terrain"] == "desert")
    sc.place("draw_pile", "discards", n=None)
    game = sc.start()
    assert game.state.zones["draw_pile"] == [] and len(game.state.zones["discards"]) == 21
    for h in ("(7,9)", "(7,7)", "(8,8)"):
        build(game, RED, h)
    # The Grass card was discarded, the 22 discards became the draw pile, Red drew one.
    assert game.to_move == [BLUE]
    assert len(game.state.zones["draw_pile"]) == 21 and game.state.zones["discards"] == []
    assert len(game.state.zones["hand#0"]) == 1
    assert card_labels(game, "removed") == ["Desert", "Desert"]
    assert_invariants(game)


def test_no_card_left_at_all_A22(rules):
    sc = position(rules, 3, settlements={RED: ["(6,1)"]},
                  cards={RED: "desert", BLUE: "grass", GREEN: "grass"}, tiles={RED: ["(11,17)"]})
    fill(sc, "desert", set(), [GREEN, BLUE])
    sc.place("draw_pile", "removed", n=None)
    game = sc.start()
    # The Desert card left the game and no card replaces it: no mandatory action; the Farm
    # (not tied to the card) may still be used, and the turn is ended by the player.
    assert len(game.state.zones["removed"]) == 23 and zone(game, "played") == []
    assert zone(game, "removed")[-1]["terrain"] == "desert"
    assert actions(game) == {"build_with_tile", "end_turn"}
    assert game.state.vars["builds_left"] == 0
    end_turn(game, RED)
    assert game.to_move == [BLUE] and game.state.zones["hand#0"] == []
    play_turn(game)  # Blue's card is discarded, reshuffled and drawn again
    assert len(game.state.zones["hand#1"]) == 1 and game.state.zones["discards"] == []


def test_no_card_in_hand_no_oracle_no_barn_A22(rules):
    # Tavern, Paddock, Oracle, Barn: the Oracle hex is (13,7), the Barn hexes (12,16), (16,12).
    sc = position(rules, options={"sections": ["Tavern", "Paddock", "Oracle", "Barn"]},
                  settlements={RED: ["(7,8)"]}, cards={RED: None}, tiles={RED: ["(13,7)", "(12,16)", "(2,18)"]})
    sc.place("draw_pile", "removed", n=None)
    game = sc.start()
    assert zone(game, "played") == [] and game.state.zones["hand#0"] == []
    assert offered_tiles(game) == {"Paddock (2,18)"}
    assert actions(game) == {"move_with_tile", "end_turn"}
    assert refused(game, Move(RED, "build_with_tile", {"tile": "Oracle (13,7)", "h": "(7,9)"})) \
        == "build_with_tile.oracle"
    assert refused(game, Move(RED, "move_with_tile", {"tile": "Barn (12,16)", "from": "(7,8)",
                                                      "to": "(7,9)"})) == "move_with_tile.barn"


# ═════════════════════════════════════════════════════════════════════════════
# §2.3 the Kingdom Builder cards and §9 castles (KB-7, KB-8)
# ═════════════════════════════════════════════════════════════════════════════

KB7_RED = ["(6,8)", "(6,9)", "(6,10)", "(7,8)", "(7,9)", "(0,0)", "(3,4)"]


@pytest.mark.parametrize("goals, red", [
    (["Merchants", "Workers", "Knights"], {"Merchants": 8, "Workers": 3, "Knights": 6}),
    (["Discoverers", "Hermits", "Citizens"], {"Discoverers": 4, "Hermits": 3, "Citizens": 2}),
    (["Farmers", "Fishermen", "Miners"], {"Farmers": 0, "Fishermen": 0, "Miners": 0}),
])
def test_KB7_full_scoring_of_one_player(rules, goals, red):
    game = final(rules, 2, {RED: KB7_RED}, goals)
    # The three cards in the order they were revealed, then the castles: (3,3) touched by (3,4).
    assert list(gold(game, RED).items()) == list(red.items()) + [("castles", 3)]
    assert gold(game, BLUE) == {g: 0 for g in goals} | {"castles": 0}
    assert game.scores == [sum(red.values()) + 3, 0] and game.winners == [RED]


def test_KB7_with_lords(rules):
    # Red alone: 6 settlements top left and (6,10) top right: 12 in each (A2: only 12 is paid).
    game = final(rules, 2, {RED: KB7_RED}, ["Lords", "Merchants", "Discoverers"])
    assert gold(game, RED) == {"Merchants": 8, "Discoverers": 4, "castles": 3}
    assert game.scores == [24 + 8 + 4 + 3, 0]


def test_fishermen(rules):
    # (8,4) T and (9,4) T touch water; (7,8) does not; (3,0) stands on water: nothing (A3).
    red = ["(8,4)", "(9,4)", "(7,8)", "(3,0)"]
    game = final(rules, 2, {RED: red, BLUE: ["(4,1)"]}, ["Fishermen", "Hermits", "Knights"])
    assert gold(game, RED) == {"Fishermen": 2, "Hermits": 3, "Knights": 2, "castles": 0}
    assert gold(game, BLUE) == {"Fishermen": 1, "Hermits": 1, "Knights": 2, "castles": 0}
    assert game.scores == [7, 4]


@pytest.mark.parametrize("red, fishermen", [
    (["(8,8)", "(8,4)"], 1),   # before the Harbor move of KB-11
    (["(8,3)", "(8,4)"], 1),   # after it: (8,3) on water scores nothing, (8,4) still 1
    (["(8,3)"], 0),            # on water alone
    (["(8,4)"], 1),            # (8,4) touches (8,3) W with no settlement there
])
def test_KB11_fishermen_on_the_harbor_board(rules, red, fishermen):
    game = final(rules, 2, {RED: red}, ["Fishermen", "Hermits", "Knights"], options=HARBOR_BOARD)
    assert gold(game, RED)["Fishermen"] == fishermen


def test_merchants_each_special_hex_once(rules):
    # Area 1 links the Tavern hex (6,7) and the Paddock hex (6,11); area 2 links (6,7) again and
    # the castle (3,3); the lone (0,0) links nothing: 3 special hexes × 4.
    red = ["(6,8)", "(6,9)", "(6,10)", "(5,6)", "(5,5)", "(4,5)", "(4,4)", "(0,0)"]
    game = final(rules, 2, {RED: red}, ["Merchants", "Hermits", "Knights"])
    assert gold(game, RED) == {"Merchants": 12, "Hermits": 3, "Knights": 6, "castles": 3}
    assert game.scores == [24, 0]


def test_merchants_a_lone_special_or_other_players_do_not_link(rules):
    # (6,8) touches (6,7); Blue's (6,9) would bridge to (6,10), which touches (6,11): no link.
    game = final(rules, 2, {RED: ["(6,8)", "(6,10)"], BLUE: ["(6,9)"]}, ["Merchants", "Hermits", "Knights"])
    assert gold(game, RED) == {"Merchants": 0, "Hermits": 2, "Knights": 4, "castles": 0}
    assert gold(game, BLUE) == {"Merchants": 0, "Hermits": 1, "Knights": 2, "castles": 0}
    assert game.scores == [6, 3] and game.winners == [RED]


def test_discoverers(rules):
    # Rows 0, 7, 12, 18, 19. (18,10) and (19,10) touch (19,9)/(18,9) W and (18,11) M.
    red = ["(0,0)", "(0,1)", "(7,8)", "(19,10)", "(18,10)", "(12,5)"]
    game = final(rules, 2, {RED: red}, ["Discoverers", "Fishermen", "Miners"])
    assert gold(game, RED) == {"Discoverers": 5, "Fishermen": 2, "Miners": 2, "castles": 0}


def test_hermits_and_citizens(rules):
    # Areas: {(7,7),(7,8),(7,9),(8,8)} (4), {(0,0),(0,1),(1,0)} (3), {(3,4)} (1).
    red = ["(7,7)", "(7,8)", "(7,9)", "(8,8)", "(0,0)", "(0,1)", "(1,0)", "(3,4)"]
    game = final(rules, 2, {RED: red}, ["Hermits", "Citizens", "Knights"])
    assert gold(game, RED) == {"Hermits": 3, "Citizens": 2, "Knights": 6, "castles": 3}
    assert gold(game, BLUE) == {"Hermits": 0, "Citizens": 0, "Knights": 0, "castles": 0}


def test_citizens_round_down(rules):
    red = ["(7,7)", "(7,8)", "(7,9)", "(8,8)", "(8,9)"]
    game = final(rules, 2, {RED: red}, ["Citizens", "Hermits", "Knights"])
    assert gold(game, RED) == {"Citizens": 2, "Hermits": 1, "Knights": 6, "castles": 0}  # 5 // 2


def test_miners(rules):
    # (2,6) touches (2,7) M; (1,4) touches (1,5) M and (0,4) M but counts once; (7,8) none.
    game = final(rules, 2, {RED: ["(2,6)", "(1,4)", "(7,8)"]}, ["Miners", "Hermits", "Knights"])
    assert gold(game, RED) == {"Miners": 2, "Hermits": 3, "Knights": 2, "castles": 0}


def test_workers(rules):
    # (5,1) touches the Tavern hex (6,2); (3,4) the castle (3,3); (6,10) the Paddock hex (6,11);
    # (7,8) nothing.
    game = final(rules, 2, {RED: ["(5,1)", "(3,4)", "(6,10)", "(7,8)"]}, ["Workers", "Hermits", "Knights"])
    assert gold(game, RED) == {"Workers": 3, "Hermits": 4, "Knights": 2, "castles": 3}


def test_knights_the_best_row_only(rules):
    red = ["(7,7)", "(7,8)", "(7,9)", "(8,5)", "(8,6)", "(8,7)", "(0,0)"]
    game = final(rules, 2, {RED: red, BLUE: ["(0,1)", "(0,8)", "(0,9)", "(0,17)"]},
                 ["Knights", "Fishermen", "Miners"])
    assert gold(game, RED) == {"Knights": 6, "Fishermen": 0, "Miners": 0, "castles": 0}
    assert gold(game, BLUE) == {"Knights": 8, "Fishermen": 0, "Miners": 0, "castles": 0}
    assert game.scores == [6, 8] and game.winners == [BLUE]


def test_farmers_the_weakest_sector_and_an_empty_sector(rules):
    # Red: top left 2, top right 3, bottom left 1, bottom right 4 → 3 × 1. Blue: none bottom right.
    red = ["(7,8)", "(8,8)", "(0,17)", "(0,18)", "(9,17)", "(14,5)", "(13,16)", "(13,17)", "(14,18)", "(14,19)"]
    blue = ["(0,0)", "(9,16)", "(14,6)"]
    game = final(rules, 2, {RED: red, BLUE: blue}, ["Farmers", "Fishermen", "Miners"])
    assert gold(game, RED) == {"Farmers": 3, "Fishermen": 0, "Miners": 0, "castles": 0}
    assert gold(game, BLUE) == {"Farmers": 0, "Fishermen": 0, "Miners": 0, "castles": 0}
    assert game.scores == [3, 0]


def test_KB8_lords_ties_and_empty_sectors_A2(rules):
    settlements = {
        RED: ["(8,5)", "(8,6)", "(8,7)", "(8,8)", "(8,9)", "(9,5)", "(9,17)"],
        BLUE: ["(0,0)", "(0,1)", "(1,0)", "(1,1)", "(5,0)", "(6,0)", "(10,6)", "(10,7)", "(10,8)", "(10,9)"],
        GREEN: ["(4,5)", "(4,6)", "(14,5)", "(14,6)", "(14,7)", "(14,8)"],
        YELLOW: ["(12,4)", "(12,5)", "(13,4)"],
    }
    game = final(rules, 4, settlements, ["Lords", "Fishermen", "Miners"])
    # Nothing but the Lords: no settlement touches water, mountain or castle.
    assert all(gold(game, p) == {"Fishermen": 0, "Miners": 0, "castles": 0} for p in range(4))
    # Top left: Red 6, Blue 6, Green 2 → 12, 12, 6. Top right: Red 1 → 12. Bottom left: Blue 4,
    # Green 4, Yellow 3 → 12, 12, 6. Bottom right: nobody.
    assert game.scores == [24, 24, 18, 6]
    assert game.winners == [RED, BLUE]  # tied leaders share the win


def test_lords_a_lone_player_and_a_tie_for_second(rules):
    # Top left: Red 3, Blue 1, Green 1 → 12, 6, 6. Top right: Blue 2 → 12 only. Yellow: nothing.
    settlements = {RED: ["(8,5)", "(8,6)", "(8,7)"], BLUE: ["(0,0)", "(9,17)", "(9,18)"],
                   GREEN: ["(4,5)"], YELLOW: []}
    game = final(rules, 4, settlements, ["Lords", "Fishermen", "Miners"])
    assert game.scores == [12, 18, 6, 0] and game.winners == [BLUE]


def test_castles(rules):
    # Red: (3,4) and (2,3) both touch the castle (3,3) → 3 once; (7,14) touches (7,15) → 3.
    # Blue: (3,2) touches (3,3) too → 3. Nobody touches (11,11) or (17,1).
    # Fishermen: (7,14) touches (7,13) W, Blue's (3,2) touches (3,1) W.
    game = final(rules, 2, {RED: ["(3,4)", "(2,3)", "(7,14)"], BLUE: ["(3,2)", "(9,9)"]},
                 ["Fishermen", "Miners", "Farmers"])
    assert gold(game, RED) == {"Fishermen": 1, "Miners": 0, "Farmers": 0, "castles": 6}
    assert gold(game, BLUE) == {"Fishermen": 1, "Miners": 0, "Farmers": 0, "castles": 3}
    assert game.scores == [7, 4]


# ═════════════════════════════════════════════════════════════════════════════
# §8 the end of the game (KB-9, A24)
# ═════════════════════════════════════════════════════════════════════════════

@pytest.mark.parametrize("start", [0, 1, 2, 3])
@pytest.mark.parametrize("ender", [0, 1, 2, 3])
def test_KB9_the_round_is_completed(rules, start, ender):
    sc = position(rules, 4, start_player=start)
    game = park(sc, ender, 3).start()
    turns = []
    while not game.is_over:
        ending = game.state.vars["game_ending"]
        turns.append(play_turn(game))
        assert game.state.vars["game_ending"] is (ending or turns[-1] == ender)
    assert supply(game, ender) == 0
    # One round from the start player: the last turn is the player right of him.
    assert turns == [(start + i) % 4 for i in range(4)]
    assert game.winners and game.to_move == []


def test_KB9_the_end_in_a_later_round(rules):
    # P2 (seat 1) places his 40th settlement in his second turn: P3 and P4 still play.
    sc = position(rules, 4, start_player=0)
    game = park(sc, 1, 6).start()
    turns = []
    while not game.is_over:
        turns.append(play_turn(game))
    assert turns == [0, 1, 2, 3, 0, 1, 2, 3]
    assert supply(game, 1) == 0 and game.state.vars["turn"] == 8


def test_random_start_player_A24(rules):
    seen = set()
    for seed in range(12):
        game = rules.new_game(4, seed=seed, options={"random_start": True})
        start = game.state.vars["start_player"]
        assert game.to_move == [start]
        again = rules.new_game(4, seed=seed, options={"random_start": True})
        assert again.state.vars["start_player"] == start
        seen.add(start)
    assert seen == {0, 1, 2, 3}
    assert rules.new_game(4, seed=5).to_move == [0]  # seat 0 by default
