"""King's Kilt, written by hand in plain Python: the speed baseline for regnum.

Why this file exists
--------------------
regnum runs board games from declarative rulesets. To know whether the interpreter is fast
enough we need to know how fast the same game runs when a Python programmer simply writes it
by hand, with no DSL in between. This module is that reference for
``rulesets/kings_kilt.rules``. It serves two purposes:

1. **Speed baseline.** ``regnum bench kings_kilt`` times random playouts of the ruleset and of
   :func:`bench_game` here, on the same seeds and with the same random policy (so the same
   games, which it checks), and prints the ratio.
2. **Differential oracle.** ``tests/differential/test_kings_kilt_vs_baseline.py`` feeds the
   same moves to the interpreter and to :class:`KingsKilt` and compares, after every move, who
   is to move, the legal moves (same list, same order), every zone, the flags and the scores.

It imports nothing of regnum and uses only the standard library (lists, ints). The rules are
those of the digest ``shared/rules/kings-kilt.md`` (its rulings K18-K22 override what precedes
them), as the ruleset implements them with its defaults: the start player drawn at random
(``random_start``), the influence card matching the influenced card B (K1; the variant
``match_betrayed`` is a constructor flag). ``KingsKilt(players, seed, variant="recruit")``
plays the variant ``rulesets/variants/recruit.rules`` (:data:`VARIANTS` names the variants this
module plays; ``random_game`` and ``bench_game`` take ``variant=`` too, as ``regnum bench
recruit`` calls it): once a game, instead of advancing, betraying or passing, a player may
``(p, "recruit")``, taking the top card of the draw pile (reshuffled from the discards first
if empty, K18) into their influence hand. Run it directly::

    python3 benchmarks/kings_kilt_baseline.py           # games/s for 2..4 players
    python3 benchmarks/kings_kilt_baseline.py --check   # the digest's worked examples

How it matches the interpreter
------------------------------
* **Cards** are the ints ``0 .. 63``, the interpreter's own piece numbers: the ruleset's setup
  creates, clan by clan in enum order (Bruce, Buchanan, Douglas, Hamilton, MacBeth, MacLeod,
  Stewart, Wallace), one member for the family set, five more members, two leaders. So card
  ``x`` is of clan ``x >> 3`` and a leader when ``x & 7 >= 6``; every zone here is the list
  of the interpreter's zone of the same name, in the same order (the top of a pile is its end).
* **The pyramid** is a list of 21 places, the interpreter's cell order: row 1 (the base) left
  to right, then row 2, ... up to the King's place ``(6,0)``; a place holds a card or ``-1``.
  Neighbours are listed left, right, down-left, down-right, up-left, up-right (regnum's
  pyramid directions).
* **Moves** are tuples in the interpreter's encoding, ``(player, action, *args)`` with the
  args in the action's parameter order and as the interpreter writes them (cells as
  ``"(r,i)"``, clans as enum names, a family card by its label)::

      (p, "advance", "(1,2)", "up_left")          # from, way
      (p, "betray", "stewart", "(3,1)", "(4,1)")  # with (an influence clan), b, c
      (p, "pass_turn")
      (p, "recruit")                              # the Recruit variant only
      (p, "raise", "(2,3)")                       # from (the card raised into the vacancy)
      (p, "turn_up", "Douglas")                   # c (a family card)

  ``legal_moves()`` lists them in the interpreter's order: a turn is ``ask p to advance or
  betray or pass_turn`` (advances by place then way, up-left first; betrayals by influence
  clan in the order of the hand's first card of each clan, then by place b, then by
  neighbour c; pass last; the variant's ``recruit`` is offered with betray, so right after
  the betrayals, before pass); a vacuum refill lists the card down-left then down-right; a
  reveal lists the owner's face-down family cards in the family's order.
* **Timing** is the flow's: the vacuum chain (one ``raise`` decision per row above the base,
  then one card drawn, K18: the discards are reshuffled only when a draw finds the pile
  empty) belongs to the advance or betrayal, and the Noblemen / Guardians reveals (once a
  game each, K3) are asked after the chain, clockwise from the active player, skipping the
  player on their right (K4, K6); with two players the Guardians make the active player turn
  cards up until one is face down (K5). The coronation only sets a flag (K19). Once every
  player has passed, each scores 3/2/1 per King/guardian/noble of their clans (§7), and the
  highest scores share the win (K13).
* **Randomness** comes from :class:`SplitMix64`, a copy of regnum's seeded generator
  (``regnum/rng.py``: splitmix64, ``below`` by rejection, Fisher-Yates from the end), drawn in
  the order of the ruleset's ``setup`` (the start player, the family set's shuffle, the
  members' two shuffles, the leaders' shuffle) and then for each reshuffle of the discards.
  So ``KingsKilt(players, seed=s)`` is regnum's game of seed ``s``, generator state included,
  and :func:`bench_game` plays regnum's random policy on it: ``regnum bench`` compares the
  same games.
"""

from __future__ import annotations

import random
import sys
import time

# --------------------------------------------------------------------------------------------
# Components (digest §2, §3; the ruleset's consts).

CLANS = ("bruce", "buchanan", "douglas", "hamilton", "macbeth", "macleod", "stewart", "wallace")
CLAN_NAME = ("Bruce", "Buchanan", "Douglas", "Hamilton", "MacBeth", "MacLeod", "Stewart", "Wallace")
CLAN_INDEX = {k: i for i, k in enumerate(CLANS)}
LEADERS_PER_CLAN = 2
MEMBERS_PER_CLAN = 6
CARDS = 8 * (LEADERS_PER_CLAN + MEMBERS_PER_CLAN)  # 64
FAMILY_SIZE = 3
INFLUENCE_CARDS = {2: 5, 3: 5, 4: 4}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
NOBLE_ROW, GUARDIAN_ROW, KING_ROW = 4, 5, 6
TOP_ROWS = 3  # rows 4-6 need a matching influence card (§4.2)
ROW_POINTS = {4: 1, 5: 2, 6: 3}

#: The variants this module plays, by the name of their ``variant NAME of ...`` line.
RECRUIT = "recruit"
VARIANTS = frozenset({RECRUIT})

#: The label of each card (how a family card is named in a ``turn_up`` move).
LABEL = [CLAN_NAME[x >> 3] + (" leader" if x & 7 >= 6 else "") for x in range(CARDS)]

# --------------------------------------------------------------------------------------------
# The pyramid: six rows, row 1 at the bottom; place (r, i), i = 0 .. 6 - r; (r, i) rests on
# (r-1, i) and (r-1, i+1). Places are numbered in the interpreter's cell order.

ROWS = 6
CELLS = [(r, i) for r in range(1, ROWS + 1) for i in range(ROWS - r + 1)]
N_PLACES = len(CELLS)  # 21
NAME = [f"({r},{i})" for r, i in CELLS]
INDEX = {name: k for k, name in enumerate(NAME)}
_AT = {rc: k for k, rc in enumerate(CELLS)}
ROW = [r for r, _ in CELLS]


def _step(dr: int, di: int) -> list:
    return [_AT.get((r + dr, i + di), -1) for r, i in CELLS]


LEFT, RIGHT = _step(0, -1), _step(0, 1)
DOWN_LEFT, DOWN_RIGHT = _step(-1, 0), _step(-1, 1)
UP_LEFT, UP_RIGHT = _step(1, -1), _step(1, 0)
#: The six neighbours of each place that exist, in regnum's direction order.
NEIGHBOURS = [tuple(d[k] for d in (LEFT, RIGHT, DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT) if d[k] >= 0)
              for k in range(N_PLACES)]
#: The places that score (rows 4-6), with their points.
SCORING = [(k, ROW_POINTS[ROW[k]]) for k in range(N_PLACES) if ROW[k] >= NOBLE_ROW]
BASE = [k for k in range(N_PLACES) if ROW[k] == 1]
#: The advances in the interpreter's order: (from, to, the neighbour that must support it,
#: from's name, way), by place then way, up-left first.
ADVANCES = [(k, up, side, NAME[k], way) for k in range(N_PLACES) if ROW[k] < KING_ROW
            for up, side, way in ((UP_LEFT[k], LEFT[k], "up_left"), (UP_RIGHT[k], RIGHT[k], "up_right"))
            if up >= 0]
#: The ordered pairs of neighbours (b, c, b's name, c's name, whether c is below the top rows),
#: by b then by direction: the betrayals' order.
EDGES = [(b, c, NAME[b], NAME[c], ROW[c] <= KING_ROW - TOP_ROWS)
         for b in range(N_PLACES) for c in NEIGHBOURS[b]]

# The three kinds of decision the flow asks for.
TURN, RAISE, REVEAL = 0, 1, 2


# --------------------------------------------------------------------------------------------
# The seeded generator: regnum's (splitmix64, one 64-bit int of state), so that a seed gives
# the ruleset's setup and reshuffles, drawn in the same order.

TWO_64 = 1 << 64
MASK64 = TWO_64 - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """``below(n)``: a uniform int in [0, n) (rejection, no modulo bias), as regnum's ``random
    one of``; ``shuffle(items)``: Fisher-Yates in place from the last item down, as its
    ``shuffle`` of a zone. ``state`` is the interpreter's ``game.state.rng``."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, state: int | None = None):
        self.state = (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK64 if state is None else state

    def below(self, n: int) -> int:
        limit = TWO_64 - TWO_64 % n
        while True:
            self.state = z = (self.state + GOLDEN) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                return z % n

    def shuffle(self, items: list) -> None:
        state = self.state  # below(i + 1) for each i, written out: a shuffle is most of a setup
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = TWO_64 - TWO_64 % n
            while True:
                state = z = (state + GOLDEN) & MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state


# --------------------------------------------------------------------------------------------
# The game.


class KingsKilt:
    """One game of King's Kilt for ``players`` seats (0 .. players - 1, clockwise).

    ``KingsKilt(players, seed)`` deals regnum's setup of that seed (§3, K9, K10). With
    ``random_start=False`` seat 0 starts and no start player is drawn (the ruleset's option);
    ``match_betrayed=True`` is the K1 variant (a top-row betrayal needs an influence card of
    the betrayed card's clan); ``variant="recruit"`` the Recruit variant (``recruited[p]``:
    whether ``p`` has recruited). :meth:`from_position` builds a game from given zones instead.

    The position is public: ``place`` (21 cards or -1), ``draw_pile``, ``discards``,
    ``removed``, ``family[p]``, ``influence[p]`` (lists of cards, the top last), ``face_up``
    (a bool per card), ``passed[p]``, ``crowned``, ``start_player``, ``active``, ``vacancy``
    (a place or -1) and ``rng`` (the generator).
    """

    def __init__(self, players: int, seed: int = 0, random_start: bool = True,
                 match_betrayed: bool = False, variant: str | None = None):
        if not (isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError(f"King's Kilt takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}")
        _check_variant(variant)
        n = players
        rng = SplitMix64(seed)
        # The cards as the setup creates them, clan by clan: one member for the family set,
        # the other members, the leaders.
        family_set = [8 * k for k in range(8)]
        members = [8 * k + j for k in range(8) for j in range(1, MEMBERS_PER_CLAN)]
        leaders = [8 * k + j for k in range(8) for j in range(MEMBERS_PER_CLAN, 8)]
        start = rng.below(n) if random_start else 0  # 6. the start player (K10)
        order = [(start + k) % n for k in range(n)]
        # 1. families: two cards of the one-per-clan set each, the rest back among the members,
        # then a third card, a duplicate clan set aside and replaced (K9).
        family = [[] for _ in range(n)]
        rng.shuffle(family_set)
        for p in order:
            family[p].append(family_set.pop())
            family[p].append(family_set.pop())
        members += family_set
        rng.shuffle(members)
        set_aside = []
        for p in order:
            hand = family[p]
            hand.append(members.pop())
            while len({x >> 3 for x in hand}) < FAMILY_SIZE:
                set_aside.append(hand.pop())
                hand.append(members.pop())
        members += set_aside
        # 2. influence hands.
        rng.shuffle(members)
        influence = [[] for _ in range(n)]
        for p in order:
            hand = influence[p]
            for _ in range(INFLUENCE_CARDS[n]):
                hand.append(members.pop())
        # 3. the draw pile: the members, the shuffled leaders on top; 4. the base row.
        rng.shuffle(leaders)
        draw_pile = members + leaders
        place = [-1] * N_PLACES
        for k in BASE:
            place[k] = draw_pile.pop()
        self._init(n, rng, start, place, draw_pile, [], [], family, influence,
                   [False] * CARDS, [False] * n, False, match_betrayed)
        self._set_variant(variant, None)

    @classmethod
    def from_position(cls, players: int, *, rng_state: int, start_player: int, place, draw_pile,
                      discards, removed, family, influence, face_up=(), passed=None,
                      crowned: bool = False, fired=(), match_betrayed: bool = False,
                      variant: str | None = None, recruited=None) -> "KingsKilt":
        """A game at the start of ``start_player``'s first turn from the given position (for
        hand-built positions, e.g. ``regnum.testing.Scenario``'s): cards are the interpreter's
        piece numbers, ``face_up`` the cards turned up, ``fired`` the row triggers already
        spent (``"noblemen"``, ``"guardians"``, ``"coronation"``); in the Recruit variant,
        ``recruited`` the seats that have recruited (a bool per seat)."""
        _check_variant(variant)
        game = cls.__new__(cls)
        up = [False] * CARDS
        for x in face_up:
            up[x] = True
        game._init(players, SplitMix64(state=rng_state), start_player, list(place), list(draw_pile),
                   list(discards), list(removed), [list(f) for f in family],
                   [list(h) for h in influence], up, list(passed or [False] * players),
                   crowned, match_betrayed)
        game._noble_fired = "noblemen" in fired
        game._guardian_fired = "guardians" in fired
        game._crown_fired = "coronation" in fired
        game._set_variant(variant, recruited)
        return game

    def _set_variant(self, variant, recruited) -> None:
        self.variant = variant
        self.recruit = variant == RECRUIT  # the Recruit variant's action is offered
        self.recruited = list(recruited or [False] * self.n)

    def _init(self, n, rng, start, place, draw_pile, discards, removed, family, influence,
              face_up, passed, crowned, match_betrayed) -> None:
        self.n = n
        self.rng = rng
        self.match_betrayed = match_betrayed
        self.start_player = start
        self.place = place
        self.draw_pile = draw_pile
        self.discards = discards
        self.removed = removed
        self.family = family
        self.influence = influence
        self.face_up = face_up
        self.passed = passed
        self.crowned = crowned
        self._noble_fired = self._guardian_fired = self._crown_fired = False
        self._pending = 0  # the row of a reveal trigger waiting for the end of the move, or 0
        self._reveals: list = []  # the seats still to turn a card up, in order
        self._score = [0] * n
        self.vacancy = -1
        self.over = False
        # The flow: seat `start` is asked for its turn.
        self.active = start
        self._kind = TURN
        self._seat = start
        self._moves = None  # the legal moves of the current ask, listed lazily

    # ---- public API ------------------------------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        return [] if self.over else [self._seat]

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        return list(self._score)

    @property
    def winners(self) -> list[int]:
        if not self.over:
            return []
        best = max(self._score)
        return [p for p in range(self.n) if self._score[p] == best]

    @property
    def fired(self) -> set:
        """The row triggers spent so far (once a game each, K3)."""
        return {name for name, done in (("noblemen", self._noble_fired), ("guardians", self._guardian_fired),
                                        ("coronation", self._crown_fired)) if done}

    def face_down(self, p: int) -> list[int]:
        up = self.face_up
        return [x for x in self.family[p] if not up[x]]

    def family_points(self, p: int) -> int:
        """§7: 1, 2, 3 per card of one of ``p``'s family clans in rows 4, 5, 6."""
        clans = {x >> 3 for x in self.family[p]}
        place = self.place
        return sum(points for k, points in SCORING if place[k] >= 0 and place[k] >> 3 in clans)

    def legal_moves(self, player: int | None = None) -> list[tuple]:
        """The moves of the seat to move (of ``player``: [] for another seat), in the
        interpreter's order."""
        moves = self._moves
        if moves is None:
            if self.over:
                moves = []
            elif self._kind == TURN:
                moves = self._turn_moves(self._seat)
            elif self._kind == RAISE:
                p, name, v = self._seat, "raise", self.vacancy
                moves = [(p, name, NAME[DOWN_LEFT[v]]), (p, name, NAME[DOWN_RIGHT[v]])]
            else:
                p, up = self._seat, self.face_up
                moves = [(p, "turn_up", LABEL[x]) for x in self.family[p] if not up[x]]
            self._moves = moves
        if player is not None and player != self._seat:
            return []
        return moves

    def play(self, move: tuple) -> None:
        """Play one move of :meth:`legal_moves`; raises ``ValueError`` for any other."""
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move!r}")
        self._apply(move)

    # ---- the turn --------------------------------------------------------------------------

    def _turn_moves(self, p: int) -> list:
        """``ask p to advance or betray or pass_turn``."""
        place = self.place
        # §4.1 advance: a card below row 6 rises into an empty place above, towards a
        # neighbour on that side that supports it. Once a King is crowned the pyramid is full
        # between moves (§5, K19), so nothing can advance.
        if self.crowned:
            moves = []
        else:
            moves = [(p, "advance", name, way) for k, up, side, name, way in ADVANCES
                     if place[k] >= 0 and place[up] < 0 and place[side] >= 0]
        # §4.2 betray: an influence clan (K20: one option per clan held, in the order of the
        # hand), a card b and a filled neighbour c; in the top rows the influence card must be
        # of b's clan (K1) or, in the variant, of c's.
        hand = self.influence[p]
        if hand:
            # (b, c, the clan the influence card must be of, or -1)
            if self.match_betrayed:
                pairs = [(b_name, c_name, -1 if low else place[c] >> 3)
                         for b, c, b_name, c_name, low in EDGES if place[b] >= 0 and place[c] >= 0]
            else:
                pairs = [(b_name, c_name, -1 if low else place[b] >> 3)
                         for b, c, b_name, c_name, low in EDGES if place[b] >= 0 and place[c] >= 0]
            for w in dict.fromkeys([x >> 3 for x in hand]):
                clan = CLANS[w]
                moves += [(p, "betray", clan, b, c) for b, c, need in pairs if need < 0 or need == w]
        # Recruit (the variant): offered with betray, so right after it; once a game.
        if self.recruit and not self.recruited[p]:
            moves.append((p, "recruit"))
        # §4.3 pass: only once a King has been crowned.
        if self.crowned:
            moves.append((p, "pass_turn"))
        return moves

    def _apply(self, move: tuple) -> None:
        """Play a move known to be legal (one of :meth:`legal_moves`)."""
        self._moves = None
        action = move[1]
        place = self.place
        if action == "raise":  # §4.4 the card below rises; its place is the vacancy now
            k = INDEX[move[2]]
            place[self.vacancy] = place[k]
            place[k] = -1
            self._vacate(k)
        elif action == "advance":
            k = INDEX[move[2]]
            to = UP_LEFT[k] if move[3] == "up_left" else UP_RIGHT[k]
            place[to] = place[k]
            place[k] = -1
            row = ROW[to]
            # §5 the first entry into a row (once a game, K3): the coronation at once, the
            # reveals after the move (its vacuum chain included).
            if row == KING_ROW:
                if not self._crown_fired:
                    self._crown_fired = self.crowned = True
            elif row == NOBLE_ROW:
                if not self._noble_fired:
                    self._noble_fired = True
                    self._pending = NOBLE_ROW
            elif row == GUARDIAN_ROW:
                if not self._guardian_fired:
                    self._guardian_fired = True
                    self._pending = GUARDIAN_ROW
            self._vacate(k)
        elif action == "betray":
            w = CLAN_INDEX[move[2]]
            hand = self.influence[move[0]]
            for i, x in enumerate(hand):
                if x >> 3 == w:
                    del hand[i]
                    self.discards.append(x)  # K8 spent influence cards, face up
                    break
            c = INDEX[move[4]]
            self.removed.append(place[c])  # K7 out of the game
            place[c] = -1
            self._vacate(c)
        elif action == "turn_up":
            p = move[0]
            label = move[2]
            for x in self.family[p]:
                if LABEL[x] == label:
                    self.face_up[x] = True
                    break
            self._reveals.pop(0)
            if self._reveals:
                self._seat = self._reveals[0]
            else:
                self._next_turn()
        elif action == "recruit":  # the variant: the top card of the pile joins the hand
            p = move[0]
            self.recruited[p] = True
            pile = self.draw_pile
            if not pile:  # K18 as any draw that finds the pile empty
                self.draw_pile = pile = self.discards
                self.discards = []
                self.rng.shuffle(pile)
            self.influence[p].append(pile.pop())
            self._next_turn()
        else:  # pass_turn: out for the rest of the game
            self.passed[move[0]] = True
            self._next_turn()

    def _vacate(self, k: int) -> None:
        """§4.4 place ``k`` is empty: the active player refills it from below, row by row,
        until the base takes the top card of the draw pile."""
        if ROW[k] > 1:
            self.vacancy = k
            self._kind = RAISE
            self._seat = self.active
            return
        pile = self.draw_pile
        if not pile:  # K18 reshuffle the discards when a draw finds the pile empty
            self.draw_pile = pile = self.discards
            self.discards = []
            self.rng.shuffle(pile)
        self.place[k] = pile.pop()
        self.vacancy = -1
        self._end_of_move()

    def _end_of_move(self) -> None:
        """The move is complete: a pending Noblemen or Guardians reveal is asked now (K4-K6)."""
        row = self._pending
        if row:
            self._pending = 0
            p, n = self.active, self.n
            if row == GUARDIAN_ROW and n == 2:  # K5 the active player keeps one card face down
                seats = [p] * (len(self.face_down(p)) - 1)
            else:  # everybody but the player on the right, clockwise from the active player
                right = (p + n - 1) % n
                seats = [q for q in ((p + k) % n for k in range(n))
                         if q != right and self.face_down(q)]
            if seats:
                self._reveals = seats
                self._kind = REVEAL
                self._seat = seats[0]
                return
        self._next_turn()

    def _next_turn(self) -> None:
        """The next player clockwise who has not passed; when all have, the end (§6)."""
        passed, n = self.passed, self.n
        if all(passed):
            self._final_scoring()
            return
        p = (self.active + 1) % n
        while passed[p]:
            p = (p + 1) % n
        self.active = self._seat = p
        self._kind = TURN

    def _final_scoring(self) -> None:
        for q in range(self.n):
            self._score[q] += self.family_points(q)
        self.over = True
        self._moves = []


# --------------------------------------------------------------------------------------------
# Random playouts and the benchmark.

MAX_MOVES = 10_000  # random_game's bound (a game takes at most 35 turns, 222 moves; 270 with Recruit)


def _check_variant(variant) -> None:
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; this baseline plays {sorted(VARIANTS)}")


def random_game(players: int, seed: int, variant: str | None = None) -> KingsKilt:
    """Play one game: the setup of ``seed`` (as regnum's), then uniform choices among
    ``legal_moves()`` from ``random.Random(seed)``."""
    rng = random.Random(seed)
    game = KingsKilt(players, seed, variant=variant)
    moves = 0
    while not game.over and moves < MAX_MOVES:
        game._apply(rng.choice(game.legal_moves()))
        moves += 1
    return game


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES,
               variant: str | None = None) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores).

    This is what ``regnum bench`` times and compares with ``regnum.agents.play_random_game``
    on ``rulesets/kings_kilt.rules``: the setup and reshuffles of ``seed`` are the ruleset's
    (:class:`SplitMix64`); seat ``p`` has its own ``random.Random("regnum-bot:<seed>:<p>")``
    and plays ``moves[rng.randrange(len(moves))]`` among its legal moves, listed in the
    interpreter's order; the game stops when over or after ``max_moves`` moves. One seat is
    asked at a time, so ``to_move`` is ``[seat]`` until the end. ``variant="recruit"`` plays
    that variant (its setup is the base game's).
    """
    game = KingsKilt(players, seed, variant=variant)
    picks = [random.Random(f"regnum-bot:{seed}:{p}").randrange for p in range(players)]
    legal_moves, apply = game.legal_moves, game._apply
    moves = 0
    while not game.over and moves < max_moves:
        options = legal_moves()
        apply(options[picks[game._seat](len(options))])
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
# Worked examples of the digest (§11).

_SHORT = {"Br": 0, "Bu": 1, "Do": 2, "Ha": 3, "MB": 4, "ML": 5, "St": 6, "Wa": 7}


def _position(players=4, start=0, rows=None, family=None, influence=None, crowned=False,
              fired=(), match_betrayed=False, variant=None) -> KingsKilt:
    """A hand-built position: ``rows`` maps a place ``(r, i)`` to a clan abbreviation; cards
    are taken from the clan's members (then leaders), the rest form the draw pile."""
    free = {k: [8 * k + j for j in range(8)] for k in range(8)}
    take = lambda short: free[_SHORT[short]].pop(0)  # noqa: E731
    family = [[take(s) for s in f] for f in (family or [["Br", "Bu", "Do"]] * players)]
    influence = [[take(s) for s in h] for h in (influence or [[]] * players)]
    place = [-1] * N_PLACES
    for rc, short in (rows or {}).items():
        place[_AT[rc]] = take(short)
    pile = sorted(x for cards in free.values() for x in cards)
    return KingsKilt.from_position(players, rng_state=0, start_player=start, place=place,
                                   draw_pile=pile, discards=[], removed=[], family=family,
                                   influence=influence, crowned=crowned, fired=fired,
                                   match_betrayed=match_betrayed, variant=variant)


BASE_ROW = {(1, i): s for i, s in enumerate(["Br", "Bu", "Do", "Ha", "MB", "ML"])}
FULL = {**BASE_ROW, (2, 0): "St", (2, 1): "Wa", (2, 2): "Br", (2, 3): "Bu", (2, 4): "MB",
        (3, 0): "Wa", (3, 1): "Do", (3, 2): "Ha", (3, 3): "ML", (4, 0): "Wa", (4, 1): "St",
        (4, 2): "Ha", (5, 0): "Do", (5, 1): "St", (6, 0): "Wa"}


def _self_check() -> None:
    # K-E1 opening moves: 10 advances, 10 ordered betrayal pairs per influence clan.
    g = _position(rows=BASE_ROW, influence=[["St", "Wa", "St"]] + [[]] * 3)
    moves = g.legal_moves()
    assert sum(m[1] == "advance" for m in moves) == 10
    assert [m[2] for m in moves if m[1] == "betray"] == ["stewart"] * 10 + ["wallace"] * 10
    assert ("pass_turn" not in {m[1] for m in moves})
    # K-E2 an advance and its refill: Do (1,2) up-left, the pile's top fills (1,2).
    top = g.draw_pile[-1]
    g.play((0, "advance", "(1,2)", "up_left"))
    assert LABEL[g.place[INDEX["(2,1)"]]] == "Douglas" and g.place[INDEX["(1,2)"]] == top
    assert g.to_move == [1]
    # K-E3 no support, no advance: Do alone in row 2.
    assert not [m for m in g.legal_moves() if m[2] == "(2,1)"]
    # K-E4 a vacuum chain and the Noblemen reveal (4 players, seat 2 active).
    rows = {**BASE_ROW, (2, 0): "St", (2, 1): "Wa", (2, 2): "Br", (3, 0): "Ha", (3, 1): "Do"}
    g = _position(start=2, rows=rows)
    pile = len(g.draw_pile)
    g.play((2, "advance", "(3,0)", "up_right"))
    assert g.legal_moves() == [(2, "raise", "(2,0)"), (2, "raise", "(2,1)")]
    g.play((2, "raise", "(2,1)"))
    g.play((2, "raise", "(1,2)"))
    assert len(g.draw_pile) == pile - 1 and g.vacancy == -1
    for seat in (2, 3, 0):
        assert g.to_move == [seat]
        g.play(g.legal_moves()[0])
    assert g.to_move == [3] and g.legal_moves()[0][1] == "advance"  # seat 1 revealed nothing
    # K-E5 two players: Guardians by the other player reveal two cards.
    rows = {**BASE_ROW, (2, 0): "St", (2, 1): "Wa", (2, 2): "Br", (2, 3): "Bu", (3, 0): "Ha",
            (3, 1): "Do", (3, 2): "ML", (4, 0): "Wa", (4, 1): "St"}
    g = _position(players=2, start=1, rows=rows, fired=("noblemen",))
    g.face_up[g.family[0][0]] = True
    g.play((1, "advance", "(4,0)", "up_right"))
    for from_ in ("(3,1)", "(2,1)", "(1,1)"):
        g.play((1, "raise", from_))
    g.play(g.legal_moves()[0])
    g.play(g.legal_moves()[0])
    assert len(g.face_down(1)) == 1 and len(g.face_down(0)) == 2 and g.to_move == [0]
    # K-E6 betrayal in the top rows needs the influenced card's clan (K1), or the victim's.
    for variant, legal in ((False, False), (True, True)):
        g = _position(rows=FULL, influence=[["Wa", "St"]] + [[]] * 3, crowned=True,
                      fired=("noblemen", "guardians", "coronation"), match_betrayed=variant)
        moves = g.legal_moves()
        assert ((0, "betray", "stewart", "(3,1)", "(4,1)") in moves) == legal
        assert (0, "betray", "wallace", "(3,1)", "(3,0)") in moves
        assert (0, "betray", "stewart", "(3,1)", "(3,0)") in moves
        assert moves[-1] == (0, "pass_turn") and not [m for m in moves if m[1] == "advance"]
    # K-E7 betraying the King: only from a guardian, with its clan; one card drawn.
    g = _position(rows=FULL, influence=[["Do", "Wa"]] + [[]] * 3, crowned=True,
                  fired=("noblemen", "guardians", "coronation"))
    kings = [m for m in g.legal_moves() if m[1] == "betray" and m[4] == "(6,0)"]
    assert kings == [(0, "betray", "douglas", "(5,0)", "(6,0)")]
    pile = len(g.draw_pile)
    g.play(kings[0])
    for _ in range(5):
        g.play(g.legal_moves()[0])
    assert len(g.draw_pile) == pile - 1 and all(x >= 0 for x in g.place)
    assert [LABEL[x] for x in g.discards] == ["Douglas"] and LABEL[g.removed[0]] == "Wallace"
    # K-E9 final scoring, 3 players; K-E10 the perfect score.
    top = {(6, 0): "Do", (5, 0): "Br", (5, 1): "Do", (4, 0): "Wa", (4, 1): "St", (4, 2): "Do"}
    g = _position(players=3, rows=top, family=[["Do", "Wa", "ML"], ["Br", "St", "Ha"], ["Do", "Br", "Bu"]])
    assert [g.family_points(p) for p in range(3)] == [7, 3, 8]
    top = {(6, 0): "Ha", (5, 0): "MB", (5, 1): "St", (4, 0): "Ha", (4, 1): "Ha", (4, 2): "MB"}
    assert _position(players=2, rows=top, family=[["Ha", "MB", "St"]] * 2).family_points(0) == 10
    # K-E11 passing and the end: a seat without influence must pass; passed seats are skipped.
    g = _position(players=3, start=2, rows=FULL, influence=[["Br"], ["Br"], []], crowned=True,
                  fired=("noblemen", "guardians", "coronation"))
    assert g.legal_moves() == [(2, "pass_turn")]
    g.play((2, "pass_turn"))
    g.play((0, "pass_turn"))
    g.play(g.legal_moves()[0])  # seat 1 betrays with its last card
    while g.to_move == [1] and g.legal_moves()[0][1] == "raise":
        g.play(g.legal_moves()[0])
    assert g.legal_moves() == [(1, "pass_turn")]
    g.play((1, "pass_turn"))
    assert g.is_over and g.winners
    # Recruit (the variant; tests/scenarios/test_recruit.py): 2 players, crowned, no influence
    # left, the pile showing St then Wa. The base game ends 3-6; with Recruit seat 0 takes the
    # Stewart, its guardian St betrays the King Bu, and seat 0 wins 5-4.
    rows = {**{(1, i): s for i, s in enumerate("Br Bu Do Ha MB ML".split())},
            **{(2, i): s for i, s in enumerate("St Wa Br Bu Do".split())},
            **{(3, i): s for i, s in enumerate("Ha MB ML St".split())},
            (4, 0): "Wa", (4, 1): "Ha", (4, 2): "MB", (5, 0): "ML", (5, 1): "St", (6, 0): "Bu"}
    games = {}
    for variant in (None, RECRUIT):
        g = games[variant] = _position(players=2, rows=rows, family=[["Do", "Wa", "ML"], ["Bu", "St", "Ha"]],
                                       crowned=True, fired=("noblemen", "guardians", "coronation"),
                                       variant=variant)
        for clan in ("wallace", "stewart"):  # the pile's top is its end
            x = next(x for x in g.draw_pile if CLANS[x >> 3] == clan)
            g.draw_pile.remove(x)
            g.draw_pile.append(x)
    g = games[None]
    assert g.legal_moves() == [(0, "pass_turn")]
    g.play((0, "pass_turn"))
    g.play((1, "pass_turn"))
    assert g.is_over and g.scores == [3, 6]
    g = games[RECRUIT]
    assert g.legal_moves() == [(0, "recruit"), (0, "pass_turn")]
    g.play((0, "recruit"))
    assert [LABEL[x] for x in g.influence[0]] == ["Stewart"] and g.recruited == [True, False]
    assert g.legal_moves() == [(1, "recruit"), (1, "pass_turn")]
    g.play((1, "pass_turn"))
    g.play((0, "betray", "stewart", "(5,1)", "(6,0)"))
    for below in ("(5,0)", "(4,0)", "(3,0)", "(2,1)", "(1,2)"):
        g.play((0, "raise", below))
    assert g.legal_moves() == [(0, "pass_turn")]
    g.play((0, "pass_turn"))
    assert g.is_over and g.scores == [5, 4] and g.winners == [0]
    # A recruit that finds the pile empty reshuffles the discards first (K18).
    g = _position(players=4, rows=FULL, crowned=True, fired=("noblemen", "guardians", "coronation"),
                  variant=RECRUIT)
    g.discards, g.draw_pile = g.draw_pile, []
    g.play((0, "recruit"))
    assert g.draw_pile and len(g.influence[0]) == 1 and g.discards == [] and g.rng.state != 0
    # K-E12 setup counts; and the game from a seed keeps 64 cards and three clans per family.
    for players, hand, pile in ((2, 5, 42), (3, 5, 34), (4, 4, 30)):
        for seed in range(20):
            g = KingsKilt(players, seed)
            assert len(g.draw_pile) == pile and all(len(h) == hand for h in g.influence)
            assert all(len({x >> 3 for x in f}) == FAMILY_SIZE for f in g.family)
            assert all(x & 7 >= 6 for x in g.place if x >= 0)
            assert all(x & 7 >= 6 for x in g.draw_pile[-10:])
            g = random_game(players, seed, variant=RECRUIT if seed % 2 else None)
            cards = g.draw_pile + g.discards + g.removed + [x for x in g.place if x >= 0] \
                + [x for f in g.family for x in f] + [x for h in g.influence for x in h]
            assert sorted(cards) == list(range(CARDS)) and g.is_over
    print("kings_kilt_baseline: all worked examples pass")


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        _self_check()
    else:
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            print(f"{n} players: {games_per_second(n):8.1f} games/s")
