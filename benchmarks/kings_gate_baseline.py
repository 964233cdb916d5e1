"""King's Gate, written by hand in plain Python: the speed baseline for regnum.

Why this file exists
--------------------
regnum runs board games from declarative rulesets. To know whether the interpreter is fast
enough we need to know how fast the same game runs when a Python programmer simply writes it
by hand, with no DSL in between. This module is that reference for
``rulesets/kings_gate.rules``. It serves two purposes:

1. **Speed baseline.** ``regnum bench kings_gate`` times random playouts of the ruleset and
   of :func:`bench_game` here, on the same seeds and with the same random policy (so the same
   games, which it checks), and prints the ratio.
2. **Differential oracle.** ``tests/differential/test_kings_gate_vs_baseline.py`` feeds the
   same moves to the interpreter and to :class:`KingsGate` and compares, after every move, who
   is to move, the legal moves (same list, same order), hands, stacks, the table, objects,
   chips and scores.

It uses only the standard library and imports nothing from regnum. The rules are those of
the digest ``shared/rules/kings-gate.md`` (its §13 rulings K26-K36 override what precedes
them), as the ruleset implements them with its defaults (the start player drawn at random).
Run it directly::

    python3 benchmarks/kings_gate_baseline.py           # games/s for 2..4 players
    python3 benchmarks/kings_gate_baseline.py --check   # the digest's worked examples KG-1..KG-11

How it matches the interpreter
------------------------------
*The table* is an unbounded square grid. A cell is an int ``(row + OFF) * STRIDE + (col +
OFF)`` inside and the text ``"(row,col)"`` outside (:func:`cell_name`), the open grid's name;
the digest's ``(x, y)`` is ``(row, col) = (y, x)``. The cells around a cell are listed row by
row (NW, N, NE, W, E, SW, S, SE) and an object's ring is ``around`` its two cells: the
neighbours of its first cell, then the new ones of its second. ``for c in table`` walks the
cells *in use*, in the order they came into use: a cell comes into use when an object is laid
on it or a token first enters it (a cell emptied by a dragon or the Sorceress stays in use);
:attr:`KingsGate.used` keeps that order, which is the order of the Sorceress' sources and of
the next object's anchor cells.

*Moves* are tuples; :meth:`KingsGate.move_args` turns one into the interpreter's
``(action, args)``:

* ``("play", v, cell, chip)``   -- ``play(v, at, chip)``: a token of value ``v`` (0 = the Pub)
  from the hand, with a character chip or ``None``;
* ``("dragon", cell)``          -- ``dragon(at)``;
* ``("bewitch", source, target)`` -- ``bewitch(source, target)``, the Sorceress;
* ``("put_object", cell, way)`` -- ``put_object(at, way)``, ``way`` is ``"east"`` or ``"south"``;
* ``("end_turn",)``             -- ``end_turn()``.

:meth:`KingsGate.legal_moves` lists them as the ruleset's ``ask p to play or dragon or bewitch
or end_turn`` does: every ``play`` (values ascending, then the ring's cells in ring order,
then ``[None]`` and the chips held in the order won, the Sorceress left out), then every
``dragon`` (ring order), every ``bewitch`` (sources in use order, targets in ring order), then
``end_turn`` once a token came from the hand. After a scoring only ``put_object`` is asked
(anchors: for each occupied cell in use order, each free cell around it, that cell and its
west and north neighbours, each once; then east before south).

*Flow* (the ruleset's ``flow``): turns go clockwise from the start player; a player holding no
token (hand + stack, the dragon counts) is skipped; a turn goes on while the player can play,
dragon or bewitch and has not ended it; it then refills the hand from the top (the end) of
the stack. Filling the ring scores the object at once, ends the turn, and the placer puts the
next object (or the game ends: ten objects laid, one player at most holding tokens, or no
legal position). Nobody holding a token ends the game at once, the current object unscored
(§9, K19): also within a turn, where the Sorceress could still move a token.

*Randomness*: the setup comes from :class:`SplitMix64`, a copy of regnum's seeded generator
(``regnum/rng.py``: splitmix64, ``below`` by rejection, Fisher-Yates from the end), drawn in
the order of the ruleset's ``setup``: each seat's stack (tokens created colour by colour in
``token_mix`` order, the dragon last) is shuffled and six tokens are moved one by one from
its top to the hand, then the start player is ``random one of players`` (one ``below``). So
``KingsGate(players, seed=s)`` is regnum's game of seed ``s`` and :func:`bench_game` plays
regnum's random policy on it.

Variants
--------
:data:`VARIANTS` names the variants of ``rulesets/variants/`` this module plays, chosen by the
``variant`` argument of :class:`KingsGate`, :func:`random_game` and :func:`bench_game` (``None``:
the base game). ``"harsh_tournament"`` (``rulesets/variants/harsh_tournament.rules``): the last
of the ranking at the Tournament Field loses 5 points instead of 3, still not below 0 and only
when two players at least are ranked (§5.4, K11, K34); nothing else changes, so a seed gives the
same setup. ``tests/differential/test_harsh_tournament_vs_baseline.py`` compares it with the
interpreter running the variant.
"""

from __future__ import annotations

import random
import sys
import time

# --------------------------------------------------------------------------------------------
# Rules data (digest §2), indexed by object number (index 0 unused).

POINTS = (None, (2, 2, 1), (3, 3, 1), (4, 3, 2), (5, 4, 3), (3, 2, 2),
          (4, 3, 2), (6, 3, 1), (3, 0, 0), (4, 3, 2), (7, 4, 2))
BLACK = (None, False, False, True, True, False, False, True, True, False, True)
PORTRAITS = (None, ("king",), ("bishop",), ("wizard",), (), ("guild_master", "merchant"),
             (), (), (), ("sorceress",), ())
OBJECTS = 10
CEMETERY, GARRISON, TOURNAMENT_FIELD = 4, 6, 8
CEMETERY_TOKENS = 2
TOURNAMENT_PENALTY = 3
HARSH_TOURNAMENT_PENALTY = 5   # the variant harsh_tournament's `const tournament_penalty = 5`
TOKEN_MIX = (0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5)
DRAGON = 6          # a hand is counts by value 0..5, then the dragons at index 6
BARRACKS = 3
HAND_SIZE = 6
GUILD_BONUS = 2
CHIPS = ("king", "bishop", "wizard", "guild_master", "merchant", "sorceress")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_MOVES = 2 * 88 + OBJECTS   # the ruleset's `ends within` bound
#: The variants this module plays (their ``variant NAME of`` names), chosen by ``variant=``.
VARIANTS = frozenset({"harsh_tournament"})

# --------------------------------------------------------------------------------------------
# The open grid: cells as ints, names as the interpreter writes them.

STRIDE = 1 << 10
OFF = 1 << 9
NORTH, SOUTH, WEST, EAST = -STRIDE, STRIDE, -1, 1
AROUND = (-STRIDE - 1, -STRIDE, -STRIDE + 1, -1, 1, STRIDE - 1, STRIDE, STRIDE + 1)   # row by row
SIDES = (NORTH, EAST, SOUTH, WEST)

_NAMES: dict = {}
_CELLS: dict = {}


def cell(row: int, col: int) -> int:
    return (row + OFF) * STRIDE + col + OFF


def coords(c: int) -> tuple:
    return c // STRIDE - OFF, c % STRIDE - OFF


def cell_name(c: int) -> str:
    """``"(row,col)"``, the open grid's name of a cell."""
    name = _NAMES.get(c)
    if name is None:
        name = _NAMES[c] = "(%d,%d)" % coords(c)
    return name


def cell_of(name: str) -> int:
    c = _CELLS.get(name)
    if c is None:
        r, col = name.strip("()").split(",")
        c = _CELLS[name] = cell(int(r), int(col))
    return c


def around(cells) -> list:
    """The cells next to any of ``cells`` (sides and corners) and not among them, each once,
    in the order met: a 1 x 2 object's ring of ten."""
    out = []
    for c in cells:
        for d in AROUND:
            n = c + d
            if n not in cells and n not in out:
                out.append(n)
    return out


PALACE = (cell(0, 0), cell(0, 1))

# The two ways of laying a tile from its west or north cell ``at``: (way, offset of the other
# cell, offsets of the cells sharing a side with the tile, offsets of its ring in ring order).
TILES = tuple((way, d, tuple({at + s for at in (0, d) for s in SIDES} - {0, d}), tuple(around((0, d))))
              for way, d in (("east", EAST), ("south", SOUTH)))

# --------------------------------------------------------------------------------------------
# The seeded generator: regnum's (splitmix64, one 64-bit int of state).

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """``below(n)``: a uniform int in [0, n) (rejection, no modulo bias); ``shuffle(items)``:
    Fisher-Yates in place from the last item down. Like regnum's ``random one of`` (one
    ``below``) and ``shuffle`` (a zone)."""

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


# --------------------------------------------------------------------------------------------
# The game.


class KingsGate:
    """One game. ``to_move`` is ``[player]`` (``[]`` once over); ``legal_moves()`` the moves
    of that player in the interpreter's order; ``play(move)`` plays one.

    A token on the table is a list ``[owner, value, chip]`` (chip ``None`` or a name of
    :data:`CHIPS`); ``place`` maps a cell to its token, ``object_at`` a cell to the number of
    the object lying on it. A hand is seven counts (values 0..5, dragons); a stack is a list
    of values (6 = the dragon) whose top is its end.

    ``variant`` is ``None`` (the base game) or a name of :data:`VARIANTS`.
    """

    def __init__(self, players: int, seed: int = 0, random_start: bool = True,
                 stacks=None, hands=None, start_player=None, variant=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"King's Gate is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"no variant {variant!r} of King's Gate here (known: {sorted(VARIANTS)})")
        self.variant = variant
        harsh = variant == "harsh_tournament"
        self.tournament_penalty = HARSH_TOURNAMENT_PENALTY if harsh else TOURNAMENT_PENALTY
        n = self.n = players
        self.seed = seed
        rng = SplitMix64(seed)
        if stacks is None:
            stacks = []
            for _ in range(n):
                stack = (list(TOKEN_MIX) + [DRAGON]) * (2 if n == 2 else 1)   # colour by colour
                rng.shuffle(stack)
                stacks.append(stack)
        self.stacks = [list(s) for s in stacks]
        self.hands = []
        for p in range(n):
            hand = [0] * 7
            if hands is None:
                stack = self.stacks[p]
                for _ in range(min(HAND_SIZE, len(stack))):
                    hand[stack.pop()] += 1
            else:
                for v in hands[p]:
                    hand[v] += 1
            self.hands.append(hand)
        if start_player is None:
            start_player = rng.below(n) if random_start else 0
        self.start_player = start_player
        self.rng_state = rng.state
        self.place: dict = {}
        self.object_at: dict = {}
        self.near_object: set = set()   # the cells of the objects and the cells around them
        self.used: list = []          # the cells in use, in the order they came into use
        self._used: set = set()
        self.removed = 0              # covered tokens and spent dragons
        self.scores = [0] * n
        self.won = [[] for _ in range(n)]   # K33 points received at each scored object
        self.chips = [[] for _ in range(n)]
        self.chip_supply = list(CHIPS)
        self.objects = list(range(OBJECTS, 0, -1))   # the stack of objects, object 1 on top (the end)
        self.laid: list = []          # (number, cells) in the order laid
        self.current = 0              # the number of the object being surrounded
        self.ring: list = []
        self.scored = False
        self.last_placer = 0
        self.over = False
        self.putting = False          # the placer is asked to put the next object
        self.player = start_player
        self._moves = None
        self._lay(self.objects.pop(), PALACE)
        self._new_turn()
        self._settle()

    # -- reading ------------------------------------------------------------------------------

    @property
    def to_move(self) -> list:
        return [] if self.over else [self.player]

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def winners(self) -> list:
        """Highest score, then the points received at the last scored object, the one before,
        ... (K33); still tied, shared. ``[]`` while the game goes on."""
        if not self.over:
            return []
        keys = [(self.scores[p], self.won[p][::-1]) for p in range(self.n)]
        best = max(keys)
        return [p for p in range(self.n) if keys[p] == best]

    def tokens_of(self, p: int) -> int:
        return sum(self.hands[p]) + len(self.stacks[p])

    def hand_values(self, p: int) -> list:
        """The hand as a sorted list of values, the dragon as 6 (:data:`DRAGON`)."""
        return [v for v in range(7) for _ in range(self.hands[p][v])]

    def black(self) -> bool:
        """The current object's colour: printed, inverted by a King in its ring (§6)."""
        place = self.place
        king = any(place[c][2] == "king" for c in self.ring if c in place)
        return BLACK[self.current] != king

    def influence(self) -> list:
        """Each player's influence at the current object, and whether present (§7)."""
        n, place = self.n, self.place
        tokens = [place[c] for c in self.ring if c in place]
        bishop = any(t[2] == "bishop" for t in tokens)
        inf, present = [0] * n, [False] * n
        for owner, value, chip in tokens:
            present[owner] = True
            inf[owner] += 1 if bishop else value + (GUILD_BONUS if chip == "guild_master" else 0)
        return inf, present

    def ranking(self) -> list:
        """The ranked players, best first: influence, ties to the nearest clockwise after the
        last placer (who loses every tie)."""
        inf, present = self.influence()
        n, last = self.n, self.last_placer
        return sorted((q for q in range(n) if present[q]), key=lambda q: (-inf[q], (q - last - 1) % n))

    # -- moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list:
        """The legal moves of the player to move, in the interpreter's order."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._list()
        return moves

    def _list(self) -> list:
        if self.over:
            return []
        if self.putting:
            return self._put_moves()
        moves = self._turn_moves()
        if moves and self.from_hand:
            moves.append(("end_turn",))
        return moves

    def _turn_moves(self) -> list:
        """play, dragon and bewitch moves of the player whose turn it is."""
        p = self.player
        hand = self.hands[p]
        ring, place = self.ring, self.place
        number = self.current
        out = []
        append = out.append
        cemetery = number == CEMETERY
        garrison = number == GARRISON
        wizard = self.wizard_value if (self.wizard_value is not None and not self.wizard_used
                                       and not garrison) else -1
        black = None
        chips = [None] + [c for c in self.chips[p] if c != "sorceress"]
        for v in range(6):
            if not hand[v]:
                continue
            if cemetery:                                   # §5.4 any 1 or 2 tokens
                if self.pieces_played >= CEMETERY_TOKENS:
                    break
            elif v == 0:                                   # K29 one Pub a turn
                if self.pubs and wizard != 0:
                    continue
            elif not (self.played_n == 0 or (v == 1 and not garrison and self.played_ones) or wizard == v):
                continue                                   # any number of 1s or one token
            for at in ring:
                t = place.get(at)
                if t is None:
                    for chip in chips:
                        append(("play", v, at, chip))
                elif v:                                    # the Pub never covers (K31)
                    if black is None:
                        black = self.black()
                    if black and t[0] != p and t[1] != BARRACKS and t[2] is None:
                        tv = t[1]
                        for chip in chips:
                            if tv < v + (GUILD_BONUS if chip == "guild_master" else 0):
                                append(("play", v, at, chip))
        if hand[DRAGON] and (self.pieces_played < CEMETERY_TOKENS if cemetery else not self.dragons):
            for at in ring:
                t = place.get(at)
                if t is None or (t[0] != p and t[1] != BARRACKS and t[2] is None):
                    append(("dragon", at))
        if "sorceress" in self.chips[p]:
            targets = [c for c in ring if c not in place]
            for source in self.used:
                t = place.get(source)
                if t is not None and t[0] == p and t[2] is None and source not in ring:
                    for target in targets:
                        append(("bewitch", source, target))
        return out

    def _put_moves(self) -> list:
        """Where the next object may go (§8, K4, K26). The ruleset's anchors are, for each
        occupied cell in use order, each free cell around it, that cell and its west and north
        neighbours, each once; each anchor is tried east then south when first met."""
        place, object_at, near = self.place, self.object_at, self.near_object
        seen = set()
        out = []
        for c in self.used:
            if c not in place:
                continue
            for d in AROUND:
                f = c + d
                if f in place or f in object_at:
                    continue
                for at in (f, f + WEST, f + NORTH):
                    if at in seen:
                        continue
                    seen.add(at)
                    if at in place or at in near:
                        continue
                    for way, step, sides, ring in TILES:
                        other = at + step
                        if other in place or other in near:
                            continue           # two empty cells, no other object around (K4)
                        for o in sides:
                            if at + o in place:
                                break
                        else:
                            continue           # touches a token by a side, not only at a corner
                        for o in ring:
                            if at + o not in place:
                                break
                        else:
                            continue           # a free cell in its ring (K26)
                        out.append(("put_object", at, way))
        return out

    def move_args(self, move) -> tuple:
        """``(action, args)`` of a move as the interpreter writes it."""
        action = move[0]
        if action == "play":
            return action, {"v": move[1], "at": cell_name(move[2]), "chip": move[3]}
        if action == "dragon":
            return action, {"at": cell_name(move[1])}
        if action == "bewitch":
            return action, {"source": cell_name(move[1]), "target": cell_name(move[2])}
        if action == "put_object":
            return action, {"at": cell_name(move[1]), "way": move[2]}
        return action, {}

    @staticmethod
    def move_of(action: str, args: dict) -> tuple:
        """The move of an interpreter's ``(action, args)``."""
        if action == "play":
            return ("play", args["v"], cell_of(args["at"]), args["chip"])
        if action == "dragon":
            return ("dragon", cell_of(args["at"]))
        if action == "bewitch":
            return ("bewitch", cell_of(args["source"]), cell_of(args["target"]))
        if action == "put_object":
            return ("put_object", cell_of(args["at"]), args["way"])
        return ("end_turn",)

    # -- playing ----------------------------------------------------------------------------------

    def play(self, move) -> None:
        """Play one legal move of the player to move (not checked: see ``legal_moves``)."""
        self._moves = None
        action = move[0]
        p = self.player
        if action == "play":
            self._play(p, move[1], move[2], move[3])
        elif action == "dragon":
            self._dragon(p, move[1])
        elif action == "bewitch":
            self._bewitch(p, move[1], move[2])
        elif action == "put_object":
            self.putting = False
            at = move[1]
            self._lay(self.objects.pop(), (at, at + (EAST if move[2] == "east" else SOUTH)))
        else:
            self.done = True
        if not self.over:
            self._settle()

    def _use(self, c: int) -> None:
        if c not in self._used:
            self._used.add(c)
            self.used.append(c)

    def _play(self, p: int, v: int, at: int, chip) -> None:
        place = self.place
        if at in place:                                    # K8 the covered token leaves the game
            self.removed += 1
        else:
            self._use(at)
        self.hands[p][v] -= 1
        place[at] = token = [p, v, None]
        number = self.current
        if v == 0 and not self.pubs:
            self.pubs = 1
        elif v and (self.played_n == 0 or (v == 1 and number != GARRISON and self.played_ones)):
            self.played_n += 1
            self.played_ones = self.played_ones and v == 1
        elif number != CEMETERY:
            self.wizard_used = True                        # the Wizard's second token
        if chip is not None:
            token[2] = chip
            self.chips[p].remove(chip)
            if chip == "wizard":
                self.wizard_value = v
        self.last_placer = p
        self.pieces_played += 1
        self.from_hand += 1
        if all(c in place for c in self.ring):
            self._score(p)

    def _dragon(self, p: int, at: int) -> None:
        # The dragon and its target leave the game; the cell is free after it, so the ring
        # never fills by a dragon, and the dragon does not make its player the last placer.
        if self.place.pop(at, None) is not None:
            self.removed += 1
        self.hands[p][DRAGON] -= 1
        self.removed += 1
        self.dragons += 1
        self.pieces_played += 1
        self.from_hand += 1

    def _bewitch(self, p: int, source: int, target: int) -> None:
        place = self.place
        token = place.pop(source)
        self._use(target)
        place[target] = token
        token[2] = "sorceress"
        self.chips[p].remove("sorceress")
        self.pieces_played += 1
        self.last_placer = p
        if all(c in place for c in self.ring):             # K27
            self._score(p)

    def _score(self, p: int) -> None:
        """§7: the full ring is scored, chips awarded, the Tournament Field's penalty; then the
        turn ends and the placer puts the next object, or the game ends (§8, §9, K19, K26)."""
        number, n = self.current, self.n
        scores = self.scores
        before = scores[:]
        ranking = self.ranking()
        paid = n - 1
        points = POINTS[number]
        portraits = PORTRAITS[number]
        for i, q in enumerate(ranking):
            if i < paid:
                scores[q] += points[i]
                if i < len(portraits):
                    chip = portraits[i]
                    self.chips[q].append(chip)
                    self.chip_supply.remove(chip)
        if number == TOURNAMENT_FIELD and len(ranking) >= 2:
            q = ranking[-1]
            scores[q] -= min(self.tournament_penalty, scores[q])
        for q in range(n):
            self.won[q].append(scores[q] - before[q])
        self.scored = True
        self.done = True
        if not self.objects or sum(1 for q in range(n) if self.tokens_of(q)) <= 1:
            self.over = True
            return
        self.putting = True
        moves = self._put_moves()
        if moves:
            self._moves = moves
        else:
            self.putting = False
            self.over = True

    def _lay(self, number: int, cells) -> None:
        for c in cells:
            self.object_at[c] = number
            self._use(c)
            self.near_object.add(c)
            self.near_object.update(c + d for d in AROUND)
        self.laid.append((number, tuple(cells)))
        self.current = number
        self.ring = around(cells)
        self.scored = False

    def _new_turn(self) -> None:
        self.played_n = 0
        self.played_ones = True       # all the regular play's tokens are 1s
        self.pubs = 0
        self.dragons = 0
        self.pieces_played = 0
        self.from_hand = 0
        self.wizard_value = None
        self.wizard_used = False
        self.done = False

    def _settle(self) -> None:
        """Run the flow on until a player must choose (the legal moves are then kept) or the
        game is over."""
        if self.putting:
            return
        n, hands, stacks = self.n, self.hands, self.stacks
        while True:
            if not any(sum(hands[q]) or stacks[q] for q in range(n)):   # §9, K19 at once
                self.over = True
                self._moves = []
                return
            if not self.done:
                moves = self._turn_moves()
                if moves:
                    if self.from_hand:
                        moves.append(("end_turn",))
                    self._moves = moves
                    return
                self.done = True                           # K36 nothing more is legal
            p = self.player                                # §5.3 refill from the top
            hand, stack = hands[p], stacks[p]
            for _ in range(min(HAND_SIZE - sum(hand), len(stack))):
                hand[stack.pop()] += 1
            while True:
                p = (p + 1) % n
                if not any(sum(hands[q]) or stacks[q] for q in range(n)):
                    self.over = True                       # §9 nobody has a token left
                    self.player = p
                    self._moves = []
                    return
                if sum(hands[p]) or stacks[p]:
                    break
            self.player = p
            self._new_turn()


# --------------------------------------------------------------------------------------------
# Random playouts and the benchmark.


def random_game(players: int, seed: int, max_moves: int = MAX_MOVES, variant=None) -> KingsGate:
    """Play one game: the setup of ``seed`` (as regnum's), then regnum's random policy (see
    :func:`bench_game`). Stops when the game is over or after ``max_moves`` moves. ``variant``:
    ``None`` or a name of :data:`VARIANTS`."""
    game = KingsGate(players, seed=seed, variant=variant)
    rngs = [random.Random(f"regnum-bot:{seed}:{p}").randrange for p in range(players)]
    moves = 0
    while not game.over and moves < max_moves:
        options = game.legal_moves()
        game.play(options[rngs[game.player](len(options))])
        moves += 1
    return game


play_random_game = random_game  # the name other tools may look for


def bench_game(players: int, seed: int, max_moves: int = 100_000, variant=None) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores).

    This is what ``regnum bench`` times and compares with ``regnum.agents.play_random_game``
    on ``rulesets/kings_gate.rules``: the setup of ``seed`` is the ruleset's
    (:class:`SplitMix64`); seat ``p`` has its own ``random.Random("regnum-bot:<seed>:<p>")``
    and picks ``moves[rng.randrange(len(moves))]`` among its legal moves, listed in the
    interpreter's order; the game stops when over or after ``max_moves`` moves. One player
    moves at a time, so ``to_move`` is ``[player]`` until the end. ``variant`` (a name of
    :data:`VARIANTS`, or ``None``) plays that variant, as regnum plays
    ``rulesets/variants/<variant>.rules``.
    """
    game = KingsGate(players, seed=seed, variant=variant)
    rngs = [random.Random(f"regnum-bot:{seed}:{p}").randrange for p in range(players)]
    play = game.play
    moves = 0
    while not game.over and moves < max_moves:
        options = game._moves   # kept by the game for this position (legal_moves() without a call)
        play(options[rngs[game.player](len(options))])
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
# Worked examples of the digest (§11). Seats clockwise Red, Blue, Green, Yellow = 0..3; the
# digest's (x, y) is the cell (row, col) = (y, x).

RED, BLUE, GREEN, YELLOW = range(4)


def xy(x: int, y: int) -> int:
    return cell(y, x)


def _position(players: int, number: int, cells, hands=None, player: int = RED, variant=None) -> KingsGate:
    """A game whose table holds only object ``number`` on ``cells`` (digest (x, y)), current,
    with ``player`` to move at the start of a turn and the given hands (lists of values)."""
    g = KingsGate(players, seed=0, start_player=player, variant=variant)
    g.place.clear()
    g.object_at.clear()
    g.near_object.clear()
    g.used.clear()
    g._used.clear()
    g.laid.clear()
    g.objects = [k for k in range(OBJECTS, 0, -1) if k > number]
    g._lay(number, [xy(*c) for c in cells])
    if hands:
        for p, values in hands.items():
            g.hands[p] = [0] * 7
            for v in values:
                g.hands[p][v] += 1
    g.player = player
    g._new_turn()
    g._moves = None
    return g


def _put(g: KingsGate, x: int, y: int, owner: int, value: int, chip=None) -> None:
    c = xy(x, y)
    g._use(c)
    g.place[c] = [owner, value, chip]


def _fill(g: KingsGate, tokens) -> None:
    """Tokens ``(owner, value[, chip])`` on the current ring's cells, in ring order."""
    for c, (owner, value, *chip) in zip(g.ring, tokens):
        g._use(c)
        g.place[c] = [owner, value, chip[0] if chip else None]
    g._moves = None


def _can_play_sequence(number: int, sequence) -> bool:
    """KG-1: whether Red (hand 1, 1, 1, 4, Pub, Dragon) may play ``sequence`` in one turn at
    object ``number`` (on free cells)."""
    g = _position(4, number, [(0, 0), (1, 0)], {RED: [1, 1, 1, 4, 0, DRAGON]})
    for token in sequence:
        if g.player != RED or g.over:
            return False
        free = [m for m in g.legal_moves() if (m[0] == "dragon" if token == "D" else
                                               m[0] == "play" and m[1] == token and m[3] is None)
                and m[-1 if token == "D" else 2] not in g.place]
        if not free:
            return False
        g.play(free[0])
    return True


def _self_check() -> None:
    palace = [(0, 0), (1, 0)]
    g = KingsGate(4, seed=0)
    assert [coords(c) for c in g.ring] == [(-1, -1), (-1, 0), (-1, 1), (0, -1), (1, -1), (1, 0), (1, 1),
                                          (-1, 2), (0, 2), (1, 2)]
    assert sorted((coords(c)[1], coords(c)[0]) for c in g.ring) == sorted(
        [(-1, -1), (0, -1), (1, -1), (2, -1), (-1, 0), (2, 0), (-1, 1), (0, 1), (1, 1), (2, 1)])
    # KG-1 play limits.
    for number in (1, 2, 3, 5, 7):
        for seq in ([1], [1, 1, 1], [4], [0], ["D"], [4, 0], [1, 1, 1, 0, "D"]):
            assert _can_play_sequence(number, seq), (number, seq)
        assert not _can_play_sequence(number, [4, 1])
    for seq in ([4, 1], [1, 0], ["D"], [1, 1]):
        assert _can_play_sequence(CEMETERY, seq), seq
    for seq in ([1, 1, 1], [1, 0, "D"]):
        assert not _can_play_sequence(CEMETERY, seq), seq
    for seq in ([1], [4], [4, 0], [1, "D"]):
        assert _can_play_sequence(GARRISON, seq), seq
    assert not _can_play_sequence(GARRISON, [1, 1])
    # The empty play: end_turn only once a token came from the hand.
    g = _position(4, 1, palace, {RED: [1, 1, 1, 4, 0, DRAGON]})
    assert ("end_turn",) not in g.legal_moves()
    # KG-2 covering and the dragon (object 3, black).
    for number, black in ((3, True), (2, False)):
        g = _position(4, number, palace, {RED: [4, DRAGON]})
        _put(g, -1, -1, BLUE, 2)
        _put(g, 0, -1, BLUE, 3)
        _put(g, 1, -1, BLUE, 4)
        _put(g, 2, -1, BLUE, 0)
        _put(g, -1, 0, GREEN, 1, "merchant")
        g._moves = None
        fours = {(coords(m[2])[1], coords(m[2])[0]) for m in g.legal_moves() if m[0] == "play"}
        occupied = fours & {(-1, -1), (0, -1), (1, -1), (2, -1), (-1, 0)}
        assert occupied == ({(-1, -1), (2, -1)} if black else set()), (number, occupied)
        dragons = {(coords(m[1])[1], coords(m[1])[0]) for m in g.legal_moves() if m[0] == "dragon"}
        assert dragons & {(-1, -1), (0, -1), (1, -1), (2, -1), (-1, 0)} == {(-1, -1), (1, -1), (2, -1)}
    g = _position(4, 3, palace, {RED: [4, DRAGON]})
    _put(g, -1, -1, BLUE, 2)
    g.play(("play", 4, xy(-1, -1), None))
    assert g.place[xy(-1, -1)] == [RED, 4, None] and g.removed == 1
    # KG-3 ranking and ties (object 7): Blue placed the last token.
    g = _position(4, 7, palace)
    _fill(g, [(RED, 5), (RED, 0), (BLUE, 2), (BLUE, 3), (GREEN, 1), (GREEN, 1),
              (GREEN, 1), (GREEN, 1), (YELLOW, 1), (YELLOW, 1)])
    g.last_placer = BLUE
    assert g.ranking() == [RED, BLUE, GREEN, YELLOW]
    g._score(BLUE)
    assert g.scores == [6, 3, 1, 0] and g.putting
    g.last_placer = RED
    assert g.ranking() == [BLUE, RED, GREEN, YELLOW]
    # KG-4 three players, presence by the Pub (object 2).
    for players, expect in ((3, [0, 3, 3]), (4, [1, 3, 3, 0])):
        g = _position(players, 2, palace)
        _fill(g, [(BLUE, 4), (BLUE, 1), (BLUE, 1), (BLUE, 1), (BLUE, 1), (GREEN, 2),
                  (GREEN, 2), (GREEN, 1), (GREEN, 1), (RED, 0)])
        g.last_placer = RED
        g._score(RED)
        assert g.scores == expect and g.chips[BLUE] == ["bishop"], (players, g.scores)
    # KG-5 Tournament Field: Green (2 VP) is last and drops to 0; Yellow is not ranked.
    g = _position(4, 8, palace)
    g.scores = [0, 0, 2, 5]
    _fill(g, [(RED, 4), (RED, 3), (BLUE, 4), (BLUE, 0), (GREEN, 2), (GREEN, 1),
              (GREEN, 1), (RED, 0), (BLUE, 0), (GREEN, 0)])
    g.last_placer = GREEN
    assert g.ranking() == [RED, BLUE, GREEN]
    g._score(GREEN)
    assert g.scores == [3, 0, 0, 5] and g.won == [[3], [0], [-2], [0]]
    # The same with Green at 7: the base takes 3, Harsh Tournament 5 (and still stops at 0).
    for variant, green in ((None, 4), ("harsh_tournament", 2)):
        g = _position(4, 8, palace, variant=variant)
        g.scores = [0, 0, 7, 5]
        _fill(g, [(RED, 4), (RED, 3), (BLUE, 4), (BLUE, 0), (GREEN, 2), (GREEN, 1),
                  (GREEN, 1), (RED, 0), (BLUE, 0), (GREEN, 0)])
        g.last_placer = GREEN
        g._score(GREEN)
        assert g.scores == [3, 0, green, 5], (variant, g.scores)
    # KG-6 (a) the Guild Master's 2 counts 4; (b) the Bishop makes every token 1.
    g = _position(4, 7, palace)
    _put(g, -1, -1, RED, 2, "guild_master")
    assert g.influence()[0][RED] == 4
    g = _position(4, 9, palace)
    _fill(g, [(BLUE, 4, "bishop"), (RED, 5), (RED, 4), (BLUE, 1), (BLUE, 1), (BLUE, 1)])
    assert g.influence()[0][:2] == [2, 4]
    # (c) a King token touching object 9 (white) makes it black: covering is allowed there.
    g = _position(4, 9, palace, {RED: [4]})
    _put(g, -1, -1, RED, 1, "king")
    _put(g, 0, -1, BLUE, 2)
    assert g.black() and ("play", 4, xy(0, -1), None) in g.legal_moves()
    # KG-7 Wizard at object 7 (black), and at the Garrison.
    for number, second in ((7, True), (GARRISON, False)):
        g = _position(4, number, palace, {RED: [4, 4, 1]})
        g.chips[RED] = ["wizard"]
        _put(g, -1, -1, BLUE, 2)
        if number == GARRISON:   # a white object: the second 4 would go on a free cell
            del g.place[xy(-1, -1)]
        g._moves = None
        g.play(("play", 4, xy(0, -1), "wizard"))
        target = ("play", 4, xy(-1, -1), None)
        assert (g.player == RED and target in g.legal_moves()) == second, number
        if second:
            g.play(target)
            assert g.place[xy(-1, -1)] == [RED, 4, None]
    # KG-8 completing the Palace; where object 2 may go.
    g = _position(4, 1, palace, {RED: [1, 1, 1]})
    owners = [BLUE, GREEN, YELLOW]
    for i, c in enumerate(g.ring):
        if c != xy(2, 1):
            g.place[c] = [owners[i % 3], 2, None]
            g._use(c)
    g._moves = None
    g.play(("play", 1, xy(2, 1), None))
    assert g.putting and g.hands[RED][1] == 2 and g.player == RED and g.won[RED] == [0]
    puts = g.legal_moves()
    assert ("put_object", xy(3, 0), "south") in puts
    assert ("put_object", xy(3, 2), "east") not in puts
    assert ("put_object", xy(2, 0), "east") not in puts
    g.play(("put_object", xy(3, 0), "south"))
    assert g.current == 2 and sorted(g.ring) == sorted(xy(x, y) for x, y in [
        (2, -1), (3, -1), (4, -1), (2, 0), (4, 0), (2, 1), (4, 1), (2, 2), (3, 2), (4, 2)])
    assert sum(1 for c in g.ring if c in g.place) == 3
    assert g.player == BLUE and sum(g.hands[RED]) == min(HAND_SIZE, 2 + len(KingsGate(4, seed=0).stacks[RED]))
    # KG-9 end and final tie (3 players): at object 6 Red got 3 and Blue 4, Blue wins.
    g = _position(3, 6, palace)
    g.over = True
    g.scores = [14, 14, 10]
    g.won = [[2, 3], [5, 4], [0, 0]]
    assert g.winners == [BLUE]
    # KG-10 two players: two colours pooled (three 1s), one paid place.
    g = KingsGate(2, seed=3)
    assert len(g.stacks[0]) + sum(g.hands[0]) == 44
    g = _position(2, 10, palace, {RED: [1, 1, 1]})
    for _ in range(3):
        g.play(next(m for m in g.legal_moves() if m[0] == "play" and m[2] not in g.place))
    assert g.player == BLUE
    g = _position(2, 10, palace)
    _fill(g, [(i % 2, v) for i, v in enumerate([2, 1, 2, 2, 2, 2, 1, 2, 2, 2])])
    g.last_placer = 0
    g.objects = []
    assert g.influence()[0] == [9, 9] and g.ranking() == [1, 0]
    g._score(0)
    assert g.scores == [0, 7] and g.over and g.winners == [1]
    # KG-11 Sorceress at object 10: a chip-free 4 outside the ring moves in; play goes on.
    g = _position(4, 10, palace, {RED: [1]})
    g.chips[RED] = ["sorceress"]
    _put(g, 10, 10, RED, 4)
    _put(g, 11, 10, RED, 2, "merchant")
    g._moves = None
    bewitch = [m for m in g.legal_moves() if m[0] == "bewitch"]
    assert {m[1] for m in bewitch} == {xy(10, 10)} and len(bewitch) == 10
    g.play(bewitch[0])
    assert g.place[bewitch[0][2]] == [RED, 4, "sorceress"] and xy(10, 10) not in g.place
    assert g.player == RED and ("end_turn",) not in g.legal_moves()
    assert not any(m[0] == "bewitch" for m in g.legal_moves())
    # Random playouts end, are reproducible and keep every token.
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for seed in range(10):
            g = random_game(players, seed)
            assert g.over and g.scores == random_game(players, seed).scores
            tokens = sum(g.tokens_of(p) for p in range(players)) + g.removed + len(g.place)
            assert tokens == 22 * (4 if players != 3 else 3)
    print("kings_gate_baseline: all worked examples pass")


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        _self_check()
    else:
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            print(f"{n} players: {games_per_second(n):8.1f} games/s")
