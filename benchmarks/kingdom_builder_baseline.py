"""Kingdom Builder, written by hand in plain Python: the speed baseline for regnum.

Why this file exists
--------------------
regnum runs board games from declarative rulesets. To know whether the interpreter is fast
enough we need to know how fast the same game runs when a Python programmer simply writes it
by hand, with no DSL in between. This module is that reference for
``rulesets/kingdom_builder.rules``. It serves two purposes:

1. **Speed baseline.** ``regnum bench kingdom_builder`` times random playouts of the ruleset
   and of :func:`bench_game` here, on the same seeds and with the same random policy (so the
   same games, which it checks), and prints the ratio.
2. **Differential oracle.** ``tests/differential/test_kingdom_builder_vs_baseline.py`` feeds
   the same moves to the interpreter and to :class:`KingdomBuilder` and compares who is to
   move, the legal moves, the supplies, the tiles and the scores after every move.

It uses only the standard library (plain lists, sets and ints; a cell is an int
``row * 20 + col`` inside, a ``(row, col)`` tuple outside). The rules are those of the digest
``shared/rules/kingdom-builder.md`` (its rulings A18-A25 override what precedes them), with
the ruleset's defaults: sections drawn at random and each turned by 180° with probability
1/2, three Kingdom Builder cards drawn at random, seat 0 starts. Run it directly::

    python3 benchmarks/kingdom_builder_baseline.py           # games/s for 2..4 players
    python3 benchmarks/kingdom_builder_baseline.py --check   # a few worked examples

Move model (the same decomposition of choices as the ruleset)
-------------------------------------------------------------
One player moves at a time (``to_move`` is ``[p]``, or ``[]`` once the game is over). A move
is a tuple starting with the player:

* ``(p, "build", cell)`` -- one of the three mandatory builds, on the played card's terrain;
* ``(p, "build_with_tile", tile, cell)`` -- Oracle, Farm, Oasis, Tower or Tavern;
* ``(p, "move_with_tile", tile, from_cell, to_cell)`` -- Barn, Harbor or Paddock;
* ``(p, "end_turn")`` -- offered once the builds are made while a tile can still be used.

A tile is named like the ruleset names it, ``"<Kind> (<row>,<col>)"`` (its location hex).
While the mandatory builds are under way only ``build`` is offered (A7). A turn with nothing
left to do ends by itself (A23), and the next player's card is revealed at once. The
adjacency preference applies per tile (and per moved settlement) exactly as in the ruleset.
``legal_moves()`` lists the moves in the ruleset's order: actions in the order above, tiles in
the order taken, cells row by row, Paddock targets by direction (E, W, NE, NW, SE, SW).

Randomness: the setup (sections, turns, cards, the deck's order) is passed in or drawn from
:class:`SplitMix64` -- regnum's own seeded generator, a few lines -- in the order the
ruleset's ``setup`` draws it, so ``KingdomBuilder(players, seed=s)`` is regnum's game of seed
``s``; reshuffling the discards (A8) calls ``shuffle(list)``, by default that generator's
``shuffle``, whose state then is the interpreter's. :func:`bench_game` also plays regnum's
random policy, so ``regnum bench`` compares the same games.

Variants
--------
:data:`VARIANTS` names the variants of ``rulesets/variants/`` this module plays, chosen by the
``variant`` argument of :class:`KingdomBuilder`, :func:`random_game` and :func:`bench_game`
(``None``: the base game). ``"lords_ties_use_up_second"``
(``rulesets/variants/lords_ties_use_up_second.rules``): at the Lords card (A2) players tied in a
sector fill the places they share (the ruleset's ``ties highest_of_tied``), so two tied for
first take 12 each and nobody takes 6, while a tie for second still pays 6 each and a sector
still needs 1 settlement; nothing else changes, so a seed gives the same setup and play.
``tests/differential/test_lords_ties_use_up_second_vs_baseline.py`` compares it with the
interpreter running the variant.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

# --------------------------------------------------------------------------------------------
# Rules data (digest §2, §3).

DATA = Path(__file__).resolve().parents[1] / "rulesets" / "data" / "kingdom-builder-boards.json"
SIZE = 20  # the assembled board is 20 x 20
SECTION = 10
SETTLEMENTS = 40
BUILDS_PER_TURN = 3
CARDS_PER_TERRAIN = 5
CASTLE_GOLD = 3
LORDS_PAY = (12, 6)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_MOVES = 10_000  # random_game's bound (the ruleset promises games end within 800 moves)
#: The variants this module plays (their ``variant NAME of`` names), chosen by ``variant=``.
VARIANTS = frozenset({"lords_ties_use_up_second"})

TERRAIN_OF_LETTER = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower_field",
                     "T": "forest", "W": "water", "M": "mountain", "K": "castle", "L": "location"}
BUILDABLE = ("grass", "canyon", "desert", "flower_field", "forest")  # also the deck's terrains
SECTIONS = ("Oracle", "Farm", "Oasis", "Tower", "Tavern", "Barn", "Harbor", "Paddock")
BUILD_TILES = ("Oracle", "Farm", "Oasis", "Tower", "Tavern")
MOVE_TILES = ("Barn", "Harbor", "Paddock")
GOALS = ("Fishermen", "Merchants", "Discoverers", "Hermits", "Citizens", "Miners", "Workers",
         "Knights", "Lords", "Farmers")
QUADRANTS = ((0, 0), (0, 10), (10, 0), (10, 10))  # top left, top right, bottom left, bottom right

with DATA.open(encoding="utf-8") as _f:
    SECTION_ROWS = {name: s["rows"] for name, s in json.load(_f)["sections"].items()}

# Geometry of the odd-r hex grid (digest §3.1), as tables over cell ints.
CELLS = [(r, c) for r in range(SIZE) for c in range(SIZE)]
N_CELLS = len(CELLS)
DIRECTIONS = ("east", "west", "north_east", "north_west", "south_east", "south_west")


def _offsets(r: int) -> tuple:
    right, left = (1, 0) if r % 2 else (0, -1)
    return ((0, 1), (0, -1), (-1, right), (-1, left), (1, right), (1, left))


#: STEP[d][i] is the neighbour of cell i in direction d, or -1 off the board.
STEP = [[-1] * N_CELLS for _ in DIRECTIONS]
for _i, (_r, _c) in enumerate(CELLS):
    for _d, (_dr, _dc) in enumerate(_offsets(_r)):
        if 0 <= _r + _dr < SIZE and 0 <= _c + _dc < SIZE:
            STEP[_d][_i] = (_r + _dr) * SIZE + _c + _dc
NEIGHBOURS = [tuple(STEP[d][i] for d in range(6) if STEP[d][i] >= 0) for i in range(N_CELLS)]
EDGE = frozenset(i for i in range(N_CELLS) if len(NEIGHBOURS[i]) < 6)
OPPOSITE = (1, 0, 5, 4, 3, 2)  # east<->west, north_east<->south_west, north_west<->south_east
#: TWO_AWAY[i]: the cells two steps from i in a straight line, in direction order (Paddock).
TWO_AWAY = [tuple(STEP[d][STEP[d][i]] for d in range(6) if STEP[d][i] >= 0 and STEP[d][STEP[d][i]] >= 0)
            for i in range(N_CELLS)]
ROW = [i // SIZE for i in range(N_CELLS)]


# --------------------------------------------------------------------------------------------
# The seeded generator: regnum's (splitmix64, one 64-bit int of state), so that a seed gives
# the ruleset's setup and reshuffles, drawn in the same order.

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """``below(n)``: a uniform int in [0, n) (rejection, no modulo bias); ``shuffle(items)``:
    Fisher-Yates in place from the last item down. Like regnum's ``random one of`` (one
    ``below``), ``random N of`` (a shuffle of a copy, its first N) and ``shuffle`` (a zone)."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK64

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            self.state = z = (self.state + GOLDEN) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                return z % n

    def shuffle(self, items: list) -> None:
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items, k: int) -> list:
        items = list(items)
        self.shuffle(items)
        return items[:k]


def cell_of(rc) -> int:
    r, c = rc
    return r * SIZE + c


def assemble(sections, turned) -> tuple[list, list, list]:
    """The board of four sections (top left, top right, bottom left, bottom right), each
    possibly turned by 180°: (terrain per cell, sector per cell, location kind or None)."""
    terrain, sector, location = ["water"] * N_CELLS, [0] * N_CELLS, [None] * N_CELLS
    for q, (name, turn) in enumerate(zip(sections, turned)):
        r0, c0 = QUADRANTS[q]
        rows = SECTION_ROWS[name]
        for r in range(SECTION):
            for c in range(SECTION):
                rr, cc = (SECTION - 1 - r, SECTION - 1 - c) if turn else (r, c)
                i = (r0 + rr) * SIZE + c0 + cc
                terrain[i] = TERRAIN_OF_LETTER[rows[r][c]]
                sector[i] = q
                if terrain[i] == "location":
                    location[i] = name
    return terrain, sector, location


class KingdomBuilder:
    """One game of Kingdom Builder. Players are seats ``0 .. players - 1``; seat 0 starts.

    ``sections`` (4 names), ``turned`` (4 bools), ``goals`` (3 names) and ``deck`` (the 25
    terrain cards after shuffling, the top card last) are drawn from ``SplitMix64(seed)``
    when not given, as the ruleset's setup draws them (the sections, then whether each is
    turned -- none is when the sections are given --, the deck's shuffle, the goals), so that
    a seed gives regnum's game of that seed; ``shuffle(cards)`` reshuffles the discards in
    place when the pile runs out, by default with that same generator, as the ruleset does.
    ``settlements`` ({(row, col): owner}) builds a position by hand: those settlements stand on
    the board from the start (taken from the supplies; they take no tiles). ``variant`` is
    ``None`` (the base game) or a name of :data:`VARIANTS`.
    """

    def __init__(self, players: int, sections=None, turned=None, goals=None, deck=None,
                 seed=None, shuffle=None, settlements=None, variant=None):
        if not (isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError(f"Kingdom Builder takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}")
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"no variant {variant!r} of Kingdom Builder here (known: {sorted(VARIANTS)})")
        self.variant = variant
        self._lords_by_place = variant == "lords_ties_use_up_second"
        # §4 what is not given is drawn as the ruleset's setup draws it, in its order.
        rng = SplitMix64(seed or 0)
        if sections is None:
            sections = rng.sample(SECTIONS, 4)
            if turned is None:  # A1 each drawn section turned with probability 1/2
                turned = [rng.below(2) == 1 for _ in range(4)]
        elif turned is None:
            turned = [False] * 4  # sections chosen by hand are not turned
        if deck is None:
            deck = [t for t in BUILDABLE for _ in range(CARDS_PER_TERRAIN)]
            rng.shuffle(deck)
        if goals is None:
            goals = rng.sample(GOALS, 3)
        self.shuffle = shuffle or rng.shuffle
        self.n = n = players
        self.sections, self.turned, self.goals = list(sections), list(turned), list(goals)
        self.terrain, self.sector, self.location = assemble(sections, turned)
        terrain = self.terrain
        # Free hexes of each terrain (water too: the Harbor), and the free buildable edge hexes.
        self._free = {t: {i for i in range(N_CELLS) if terrain[i] == t} for t in BUILDABLE + ("water",)}
        self._free_edge = {i for i in EDGE if terrain[i] in BUILDABLE}
        self._castles = [i for i in range(N_CELLS) if terrain[i] == "castle"]
        self._special = [t in ("castle", "location") for t in terrain]
        # Tiles waiting on each location hex; a tile is [kind, origin, taken_on, used].
        self._tiles_at = {i: 2 for i in range(N_CELLS) if self.location[i]}
        self._label = {i: f"{self.location[i]} ({CELLS[i][0]},{CELLS[i][1]})" for i in self._tiles_at}
        self.owner = [-1] * N_CELLS  # the owner of the settlement on each hex
        self._near = [[0] * N_CELLS for _ in range(n)]  # own settlements around each hex
        self._own = [set() for _ in range(n)]
        self.supply = [SETTLEMENTS] * n
        self.tiles = [[] for _ in range(n)]  # held tiles, in the order taken
        self._taken_from = [set() for _ in range(n)]  # A18 once per hex and player
        self._score = [0] * n
        # Terrain cards.
        self._pile = list(deck)  # the top is the last card
        self._discards: list = []
        self.hand = [None] * n
        self.played = None
        for p in range(n):
            self.hand[p] = self._pile.pop() if self._pile else None
        for rc, p in (settlements or {}).items():
            self.supply[p] -= 1
            self._put(p, cell_of(rc))
        # Turn state.
        self.turn = 0
        self.current = 0
        self._builds_left = 0
        self._ending = False
        self._over = False
        self._moves = None  # legal moves of the current ask, computed lazily
        self._start_turn()

    # ---- public API ------------------------------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        return [] if self._over else [self.current]

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        return list(self._score)

    @property
    def winners(self) -> list[int]:
        if not self._over:
            return []
        best = max(self._score)
        return [p for p in range(self.n) if self._score[p] == best]

    def tile_names(self, p: int) -> list[str]:
        return [self._label[t[1]] for t in self.tiles[p]]

    def settlements(self, p: int) -> list[tuple]:
        return [CELLS[i] for i in sorted(self._own[p])]

    def legal_moves(self) -> list[tuple]:
        if self._moves is None:
            self._moves = [] if self._over else self._legal(self.current)
        return self._moves

    def play(self, player, action, *args) -> None:
        """Play one move of :meth:`legal_moves`; raises ``ValueError`` for any other."""
        move = (player, action, *args)
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move!r}")
        p = player
        if action == "build":
            self._place(p, cell_of(args[0]))
            self._builds_left -= 1
        elif action == "build_with_tile":
            self._tile(p, args[0])[3] = True
            self._place(p, cell_of(args[1]))
        elif action == "move_with_tile":
            self._tile(p, args[0])[3] = True
            self._move(p, cell_of(args[1]), cell_of(args[2]))
        else:  # end_turn
            self._finish_turn()
            return
        self._replace_stuck_card()
        if not self._can_act(p):
            self._finish_turn()

    # ---- the turn --------------------------------------------------------------------------

    def _start_turn(self) -> None:
        """§5: reveal the card; hand on to the next player while a turn offers nothing."""
        while True:
            p = self.current
            self.turn += 1
            self._builds_left = 0
            if self.hand[p] is not None:
                self.played, self.hand[p] = self.hand[p], None
                self._builds_left = BUILDS_PER_TURN
            self._replace_stuck_card()
            if self._can_act(p):
                return
            if self._end_turn_bookkeeping():
                return

    def _finish_turn(self) -> None:
        if not self._end_turn_bookkeeping():
            self._start_turn()

    def _end_turn_bookkeeping(self) -> bool:
        """§5.4 discard the played card, draw, reset the tiles; pass the turn on. Returns
        True when the game is over."""
        p = self.current
        if self.played is not None:
            self._discards.append(self.played)
            self.played = None
        self._recycle()
        if self._pile:
            self.hand[p] = self._pile.pop()
        for t in self.tiles[p]:
            t[3] = False
        self.current = (p + 1) % self.n
        if self._ending and self.current == 0:
            self._final_scoring()
            return True
        return False

    def _recycle(self) -> None:
        if not self._pile and self._discards:
            self._pile, self._discards = self._discards, []
            self.shuffle(self._pile)

    def _mandatory_open(self, p: int) -> bool:
        return self._builds_left > 0 and self.supply[p] > 0

    def _replace_stuck_card(self) -> None:
        """§6.4, A19: a played card without a free hex leaves the game; the next is played."""
        p = self.current
        while self._mandatory_open(p) and self.played is not None and not self._free[self.played]:
            self.played = None  # out of the game
            self._recycle()
            if self._pile:
                self.played = self._pile.pop()
            else:
                self._builds_left = 0

    def _can_act(self, p: int) -> bool:
        """Whether ``p`` has a move now (the moves are kept for ``legal_moves``)."""
        if self._mandatory_open(p):  # the card always has a free hex here
            self._moves = None
            return True
        self._moves = self._legal(p)  # end_turn only comes with another move
        return bool(self._moves)

    # ---- legal moves -----------------------------------------------------------------------

    def _prefer(self, cells, near) -> list:
        """The adjacency preference: ``cells`` next to one's own if any, else all; sorted."""
        close = [i for i in cells if near[i] > 0]
        return sorted(close or cells)

    def _legal(self, p: int) -> list:
        near = self._near[p]
        mandatory = self._mandatory_open(p)
        moves = []
        if mandatory:
            for i in self._prefer(self._free[self.played], near):
                moves.append((p, "build", CELLS[i]))
            if self._builds_left < BUILDS_PER_TURN:
                return moves  # A7 nothing between the three builds
        usable = [t for t in self.tiles[p] if not t[3] and t[2] < self.turn]
        if not usable:
            return moves
        if self.supply[p] > 0:
            for t in usable:
                kind = t[0]
                if kind == "Oracle":
                    cells = self._free[self.played] if self.played else ()
                elif kind == "Farm":
                    cells = self._free["grass"]
                elif kind == "Oasis":
                    cells = self._free["desert"]
                elif kind == "Tower":
                    cells = self._free_edge
                elif kind == "Tavern":
                    cells = self._tavern_targets(p)
                else:
                    continue
                label = self._label[t[1]]
                for i in self._prefer(cells, near):
                    moves.append((p, "build_with_tile", label, CELLS[i]))
        own = sorted(self._own[p])
        for t in usable:
            kind = t[0]
            if kind not in MOVE_TILES:
                continue
            label = self._label[t[1]]
            if kind == "Paddock":
                owner, terrain = self.owner, self.terrain
                for f in own:
                    for i in TWO_AWAY[f]:
                        if owner[i] < 0 and terrain[i] in BUILDABLE:
                            moves.append((p, "move_with_tile", label, CELLS[f], CELLS[i]))
                continue
            if kind == "Barn":
                cells = self._free[self.played] if self.played else ()
            else:
                cells = self._free["water"]
            if not cells:
                continue
            for f in own:
                adjacent = NEIGHBOURS[f]
                close = [i for i in cells if near[i] - (i in adjacent) > 0]  # A4 lift it first
                for i in sorted(close or cells):
                    moves.append((p, "move_with_tile", label, CELLS[f], CELLS[i]))
        if not mandatory and moves:
            moves.append((p, "end_turn"))
        return moves

    def _tavern_targets(self, p: int) -> set:
        """A12 free buildable hexes just beyond a straight line of three own settlements."""
        own, owner, terrain = self._own[p], self.owner, self.terrain
        out = set()
        for x in own:
            for d in range(6):
                y = STEP[d][x]
                if y >= 0 and owner[y] == p:
                    z = STEP[d][y]
                    if z >= 0 and owner[z] == p:
                        h = STEP[OPPOSITE[d]][x]
                        if h >= 0 and owner[h] < 0 and terrain[h] in BUILDABLE:
                            out.add(h)
        return out

    def _tile(self, p: int, label: str) -> list:
        for t in self.tiles[p]:
            if self._label[t[1]] == label:
                return t
        raise ValueError(f"player {p} holds no tile {label!r}")

    # ---- settlements and tiles ---------------------------------------------------------------

    def _put(self, p: int, i: int) -> None:
        self.owner[i] = p
        self._own[p].add(i)
        self._free[self.terrain[i]].discard(i)
        self._free_edge.discard(i)
        near = self._near[p]
        for j in NEIGHBOURS[i]:
            near[j] += 1

    def _place(self, p: int, i: int) -> None:
        self.supply[p] -= 1
        self._put(p, i)
        self._take_tiles(p, i)
        if self.supply[p] == 0:
            self._ending = True  # §8 this round is the last

    def _move(self, p: int, f: int, i: int) -> None:
        self.owner[f] = -1
        self._own[p].discard(f)
        self._free[self.terrain[f]].add(f)
        if f in EDGE and self.terrain[f] in BUILDABLE:
            self._free_edge.add(f)
        near = self._near[p]
        for j in NEIGHBOURS[f]:
            near[j] -= 1
        self._put(p, i)
        # A tile is lost when no own settlement is left next to its hex (A15 even if used).
        self.tiles[p] = [t for t in self.tiles[p] if not (t[1] in NEIGHBOURS[f] and near[t[1]] == 0)]
        self._take_tiles(p, i)

    def _take_tiles(self, p: int, i: int) -> None:
        """§7 a settlement next to a location hex takes one of its tiles, once per hex."""
        for l in NEIGHBOURS[i]:
            if self._tiles_at.get(l) and l not in self._taken_from[p]:
                self._tiles_at[l] -= 1
                self.tiles[p].append([self.location[l], l, self.turn, False])
                self._taken_from[p].add(l)

    # ---- §9 scoring --------------------------------------------------------------------------

    def _areas(self, p: int) -> list:
        own = self._own[p]
        seen, out = set(), []
        for x in sorted(own):
            if x in seen:
                continue
            seen.add(x)
            group, todo = [x], [x]
            while todo:
                for y in NEIGHBOURS[todo.pop()]:
                    if y in own and y not in seen:
                        seen.add(y)
                        todo.append(y)
                        group.append(y)
            out.append(group)
        return out

    def goal_score(self, goal: str, p: int) -> int:
        own, terrain, special = self._own[p], self.terrain, self._special
        if goal == "Fishermen":  # A3 a settlement on water scores nothing
            return sum(1 for h in own if terrain[h] != "water"
                       and any(terrain[n] == "water" for n in NEIGHBOURS[h]))
        if goal == "Merchants":  # A14
            linked = set()
            for area in self._areas(p):
                touched = {s for h in area for s in NEIGHBOURS[h] if special[s]}
                if len(touched) >= 2:
                    linked |= touched
            return 4 * len(linked)
        if goal == "Discoverers":
            return len({ROW[h] for h in own})
        if goal == "Hermits":
            return len(self._areas(p))
        if goal == "Citizens":
            return max((len(a) for a in self._areas(p)), default=0) // 2
        if goal == "Miners":
            return sum(1 for h in own if any(terrain[n] == "mountain" for n in NEIGHBOURS[h]))
        if goal == "Workers":
            return sum(1 for h in own if any(special[n] for n in NEIGHBOURS[h]))
        if goal == "Knights":
            per_row = [0] * SIZE
            for h in own:
                per_row[ROW[h]] += 1
            return 2 * max(per_row)
        if goal == "Farmers":
            per_sector = [0] * 4
            for h in own:
                per_sector[self.sector[h]] += 1
            return 3 * min(per_sector)
        raise ValueError(f"no Kingdom Builder card {goal!r}")

    def lords(self) -> list[int]:
        """A2 per sector: the most settlements 12, the next-lower count 6; ties share. In the
        variant lords_ties_use_up_second a player's place is 1 + the players with more there,
        so a tie for first takes both places (12 each, nobody 6); a tie for second pays 6 each."""
        gold = [0] * self.n
        for q in range(4):
            count = [0] * self.n
            for p in range(self.n):
                count[p] = sum(1 for h in self._own[p] if self.sector[h] == q)
            if self._lords_by_place:
                for p in range(self.n):
                    if count[p] > 0:   # needs 1
                        place = sum(1 for c in count if c > count[p])
                        if place < len(LORDS_PAY):
                            gold[p] += LORDS_PAY[place]
                continue
            levels = sorted({c for c in count if c > 0}, reverse=True)
            for pay, level in zip(LORDS_PAY, levels):
                for p in range(self.n):
                    if count[p] == level:
                        gold[p] += pay
        return gold

    def castles(self, p: int) -> int:
        near = self._near[p]
        return CASTLE_GOLD * sum(1 for k in self._castles if near[k] > 0)

    def _final_scoring(self) -> None:
        for goal in self.goals:
            if goal == "Lords":
                for p, gold in enumerate(self.lords()):
                    self._score[p] += gold
            else:
                for p in range(self.n):
                    self._score[p] += self.goal_score(goal, p)
        for p in range(self.n):
            self._score[p] += self.castles(p)
        self._over = True
        self._moves = []


# --------------------------------------------------------------------------------------------
# Random playouts and the benchmark.


def random_game(players: int, seed: int, variant=None) -> KingdomBuilder:
    """Play one game: the setup of ``seed`` (as regnum's), then uniform choices among
    ``legal_moves()`` from ``random.Random(seed)``. Stops when the game is over or after
    ``MAX_MOVES`` moves. ``variant``: ``None`` or a name of :data:`VARIANTS`."""
    rng = random.Random(seed)
    game = KingdomBuilder(players, seed=seed, variant=variant)
    choice = rng.choice
    play = game.play
    legal_moves = game.legal_moves
    moves = 0
    while not game._over and moves < MAX_MOVES:
        play(*choice(legal_moves()))
        moves += 1
    return game


play_random_game = random_game  # the name other tools may look for


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES, variant=None) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores).

    This is what ``regnum bench`` times and compares with ``regnum.agents.play_random_game``
    on ``rulesets/kingdom_builder.rules``: the setup and reshuffles of ``seed`` are the
    ruleset's (:class:`SplitMix64`); seat ``p`` has its own ``random.Random("regnum-bot:
    <seed>:<p>")`` and picks ``moves[rng.randrange(len(moves))]`` among its legal moves, which
    are listed in the interpreter's order; the game stops when over or after ``max_moves``
    moves. One player moves at a time, so ``to_move`` is ``[current]`` until the end.
    ``variant`` (a name of :data:`VARIANTS`, or ``None``) plays that variant, as regnum plays
    ``rulesets/variants/<variant>.rules``.
    """
    game = KingdomBuilder(players, seed=seed, variant=variant)
    rngs = [random.Random(f"regnum-bot:{seed}:{p}").randrange for p in range(players)]
    play = game.play
    legal_moves = game.legal_moves
    moves = 0
    while not game._over and moves < max_moves:
        options = legal_moves()
        play(*options[rngs[game.current](len(options))])
        moves += 1
    return moves, game.scores


def games_per_second(players: int = 4, seconds: float = 2.0) -> float:
    """Random playouts (:func:`bench_game`, seeds 0, 1, 2, ...) per second over at least
    ``seconds``."""
    clock = time.perf_counter
    games = 0
    start = clock()
    while True:
        bench_game(players, games)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games / elapsed


# --------------------------------------------------------------------------------------------
# Worked examples of the digest (§11), on board B1 (the first-game setup).

B1 = ("Tavern", "Paddock", "Oasis", "Farm")


def _b1(players=2, goals=("Fishermen", "Merchants", "Knights"), sections=B1):
    return KingdomBuilder(players, sections=sections, turned=[False] * 4, goals=goals, seed=0)


def _give(g, p, *cells):
    for rc in cells:
        g.supply[p] -= 1
        g._put(p, cell_of(rc))


def _self_check() -> None:
    g = _b1()
    assert [CELLS[i] for i in range(N_CELLS) if g.location[i]] == \
        [(2, 18), (6, 2), (6, 7), (6, 11), (11, 17), (12, 7), (15, 12), (17, 5)]
    assert sorted(CELLS[i] for i in g._castles) == [(3, 3), (7, 15), (11, 11), (17, 1)]
    # KB-1 adjacency preference.
    g = _b1()
    _give(g, 0, (7, 8))
    g.played, g._builds_left, g._moves = "grass", 3, None
    assert {m[2] for m in g.legal_moves()} == {(7, 7), (7, 9), (6, 9), (8, 8), (8, 9)}
    # KB-2 no adjacent hex; a tile taken at once, not usable this turn.
    g = _b1()
    _give(g, 0, (0, 0))
    g.played, g._builds_left, g._moves = "canyon", 3, None
    assert (0, "build", (5, 1)) in g.legal_moves() and len(g.legal_moves()) > 5
    g.play(0, "build", (5, 1))
    assert g.tile_names(0) == ["Tavern (6,2)"]
    assert g.legal_moves() == [(0, "build", (5, 2))]
    g.play(0, "build", (5, 2))
    assert g.legal_moves() == [(0, "build", (6, 3))]
    g.play(0, "build", (6, 3))
    assert g.tile_names(0) == ["Tavern (6,2)"] and g.to_move == [1]
    # KB-4 Paddock targets, KB-5 Tavern targets.
    assert [CELLS[i] for i in TWO_AWAY[cell_of((7, 8))]] == [(7, 10), (7, 6), (5, 9), (5, 7), (9, 9), (9, 7)]
    g = _b1()
    _give(g, 0, (7, 7), (7, 8), (7, 9))
    assert sorted(CELLS[i] for i in g._tavern_targets(0)) == [(7, 6), (7, 10)]
    # KB-7 full scoring of one player.
    g = _b1()
    _give(g, 0, (6, 8), (6, 9), (6, 10), (7, 8), (7, 9), (0, 0), (3, 4))
    expect = {"Merchants": 8, "Workers": 3, "Knights": 6, "Discoverers": 4, "Hermits": 3,
              "Citizens": 2, "Farmers": 0, "Fishermen": 0, "Miners": 0}
    assert {k: g.goal_score(k, 0) for k in expect} == expect
    assert g.castles(0) == 3
    # KB-8 Lords: the base game pays 24, 24, 18, 6; a tie for first uses up second place in
    # the variant: 24, 24, 12, 0.
    kb8 = {0: [(8, 5), (8, 6), (8, 7), (8, 8), (8, 9), (9, 5), (9, 17)],
           1: [(0, 0), (0, 1), (1, 0), (1, 1), (5, 0), (6, 0), (10, 6), (10, 7), (10, 8), (10, 9)],
           2: [(4, 5), (4, 6), (14, 5), (14, 6), (14, 7), (14, 8)],
           3: [(12, 4), (12, 5), (13, 4)]}
    for variant, gold in ((None, [24, 24, 18, 6]), ("lords_ties_use_up_second", [24, 24, 12, 0])):
        g = KingdomBuilder(4, sections=B1, goals=("Lords", "Fishermen", "Miners"), seed=0, variant=variant)
        for p, cells in kb8.items():
            _give(g, p, *cells)
        assert g.lords() == gold, (variant, g.lords())
    # Random playouts end and are reproducible.
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for seed in range(10):
            g = random_game(players, seed)
            assert g.is_over and g.scores == random_game(players, seed).scores
            for p in range(players):
                assert g.supply[p] + len(g._own[p]) == SETTLEMENTS
    print("kingdom_builder_baseline: all worked examples pass")


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        _self_check()
    else:
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            print(f"{n} players: {games_per_second(n):8.1f} games/s")
