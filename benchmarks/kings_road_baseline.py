"""King's Road, written by hand in plain Python: the speed baseline for regnum.

Why this file exists
--------------------
regnum runs board games from declarative rulesets. To know whether the interpreter is fast
enough we need to know how fast the same game runs when a Python programmer simply writes it
by hand, with no DSL in between. This module is that reference. It serves two purposes:

1. **Speed baseline.** ``regnum bench`` times random playouts of
   ``rulesets/kings_road.rules`` and of :func:`bench_game` here, on the same seeds and with
   the same random policy (so the same games, which it checks), and prints the ratio.
2. **Differential oracle.** Tests feed the same moves to the interpreter and to
   :class:`KingsRoad` and compare every score after every move.

It uses only the standard library, and plain lists, ints and bit masks in the hot path. The
rules are those of ``shared/rules/kings-road.md`` (base game, default banner table, automatic
Knight; §10 rulings and §11 worked examples are authoritative). Run it directly::

    python3 benchmarks/kings_road_baseline.py           # games/s for 2..5 players
    python3 benchmarks/kings_road_baseline.py --check   # assert the digest's worked examples

Move model
----------
All card choices are simultaneous. Each round every player with markers in supply picks an
ordered sequence of ``k = min(3, supply)`` distinct cards *one card per move*: a move is
``(player, card)`` and appends ``card`` to that player's sequence. The Witch is legal only in
slot 0, the Knight only in slot ``k - 1``. When every player has picked, the round resolves;
if some players opened with the Witch, exactly those players pick again (``to_move`` lists
them) and then the round is scored. ``legal_moves()`` lists players in ascending order and,
per player, cards in the order of :data:`CARDS` (regions by number, then knight, dragon,
witch).

Choices the digest leaves to implementations (A11, A15): a sole leader who already owns the
region's Noble keeps it in place; final scoring leaves the markers on the board. A game that
never ends (ties can pay nothing forever) is simply not over; :func:`random_game` stops it
after ``MAX_ROUNDS`` rounds, and ``winners`` is ``[]`` for a game that is not over.

Variant
-------
``KingsRoad(players, variant="permanent_nobles")`` plays ``rulesets/variants/permanent_nobles.rules``
(digest §8, E16): a sole leader with no Noble in the region yet adds one and Nobles already
there stay, so several players' Nobles share a region (at most one each); every Noble in a
scored region pays its owner's chain. :data:`VARIANTS` names the variants this module plays;
``random_game`` and ``bench_game`` take ``variant=`` too (``regnum bench permanent_nobles``
uses it). The base game's code paths are unchanged.
"""

from __future__ import annotations

import random
import sys
import time

# --------------------------------------------------------------------------------------------
# Rules data (digest §2.1 and §9). Region i (0-based) is region number i + 1.

REGIONS = (
    "zin_kais_deep",  # 1
    "dragons_lair",  # 2
    "temple_ruins",  # 3
    "savage_hills",  # 4
    "dark_tower",  # 5
    "wizards_tower",  # 6
    "kings_altar",  # 7
    "kings_castle",  # 8
)

#: Banner values per region number; only Dark Tower (5) is printed in the seed, the rest are
#: the digest's defaults [D] (one data block, so one edit replaces them).
BANNERS = {
    1: (1, 1, 1),
    2: (2, 1, 1),
    3: (3, 2, 1),
    4: (4, 3, 1),
    5: (5, 4, 2, 1),
    6: (6, 4, 3, 1),
    7: (7, 5, 3, 1),
    8: (8, 6, 4, 2),
}
TRAVEL_ORDER = (1, 6, 4, 7, 3, 5, 2, 8)  # cyclic; the King never uses road 3-1
ROADS = ((1, 6), (6, 4), (4, 7), (7, 3), (3, 5), (5, 2), (2, 8), (8, 1), (3, 1))
START_REGION = 1
MARKERS_IN_SUPPLY = 19  # 20 per player, one of them on the score track
CARDS_PER_ROUND = 3
END_THRESHOLD = 40
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_ROUNDS = 200  # random_game's bound: ties can stall a game forever

#: The variants this module plays, by the name of their ``variant NAME of ...`` line.
PERMANENT_NOBLES = "permanent_nobles"
VARIANTS = frozenset({PERMANENT_NOBLES})

# Cards: indices 0..7 are the region cards, then the three special cards.
KNIGHT, DRAGON, WITCH = 8, 9, 10
CARDS = REGIONS + ("knight", "dragon", "witch")
CARD_INDEX = {name: i for i, name in enumerate(CARDS)}
KNIGHT_BIT, DRAGON_BIT, WITCH_BIT = 1 << KNIGHT, 1 << DRAGON, 1 << WITCH
FULL_HAND = (1 << len(CARDS)) - 1

# Derived tables, in 0-based region indices.
NEXT = [0] * 8  # next region in travel order
for _i, _r in enumerate(TRAVEL_ORDER):
    NEXT[_r - 1] = TRAVEL_ORDER[(_i + 1) % len(TRAVEL_ORDER)] - 1
ADJ = tuple(
    tuple(b - 1 for a, b in ROADS if a == r) + tuple(a - 1 for a, b in ROADS if b == r)
    for r in range(1, 9)
)

# legal-card mask -> list of (player, card) tuples, filled lazily and shared by all games.
_MOVES = [[None] * (FULL_HAND + 1) for _ in range(MAX_PLAYERS)]


def _moves_for(player: int, mask: int) -> list:
    moves = _MOVES[player][mask]
    if moves is None:
        moves = [(player, CARDS[c]) for c in range(len(CARDS)) if mask >> c & 1]
        _MOVES[player][mask] = moves
    return moves


class KingsRoad:
    """One game of King's Road. Players are seats ``0 .. players - 1``.

    ``variant=None`` is the base game; ``variant="permanent_nobles"`` the variant of §8.
    """

    def __init__(self, players: int, variant: str | None = None):
        if not (isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError(
                f"King's Road takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}"
            )
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; this baseline plays {sorted(VARIANTS)}")
        self.variant = variant
        n = self.n = players
        self._supply = [MARKERS_IN_SUPPLY] * n
        self._score = [0] * n
        self._board = [[0] * n for _ in range(8)]  # non-Noble markers per region and player
        self._noble = [-1] * 8  # owner of each region's Noble, -1 for none
        # Permanent Nobles: the players with a Noble in each region, a bit mask (and _noble
        # stays all -1); None in the base game.
        self._stack = [0] * 8 if variant == PERMANENT_NOBLES else None
        self._hand = [FULL_HAND] * n  # cards still owned (Dragon/Witch leave when used)
        self._king = START_REGION - 1
        # Banner value of 1-based position p is _pay[r][p - 1]; only positions <= N - 1 pay.
        self._pay = [
            [BANNERS[r + 1][p] if p < len(BANNERS[r + 1]) and p < n - 1 else 0 for p in range(n)]
            for r in range(8)
        ]
        self._rounds = 0
        self._over = False
        # Per-round choice state.
        self._picks = [[] for _ in range(n)]  # ordered card indices chosen this pick phase
        self._picked = [0] * n  # the same as a bit mask
        self._k = [0] * n  # how many cards the player must pick in this pick phase
        self._legal = [0] * n  # legal-card mask of the player's next slot, 0 if not picking
        self._pending = []  # players still picking, ascending
        self._witch_phase = False  # True while Witch players pick again
        self._dragons = 0
        self._start_round()

    # ---- public API ------------------------------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        """Players who must pick a card now, ascending; ``[]`` when the game is over."""
        return list(self._pending)

    def legal_moves(self) -> list[tuple[int, str]]:
        """Every ``(player, card)`` a player in ``to_move`` may pick for their next slot."""
        moves = []
        legal = self._legal
        for p in self._pending:
            cached = _MOVES[p][legal[p]]
            moves += cached if cached is not None else _moves_for(p, legal[p])
        return moves

    def play(self, player: int, card: str) -> None:
        """Append ``card`` to ``player``'s sequence; resolve the round once everyone has picked.

        Raises ``ValueError`` (and changes nothing) if the move is not in ``legal_moves()``.
        """
        try:
            c = CARD_INDEX[card]
            legal = self._legal[player] if player >= 0 else 0
        except (KeyError, TypeError, IndexError):
            raise ValueError(self._malformed(player, card)) from None
        if not legal >> c & 1:
            raise ValueError(self._refusal(player, c))
        seq = self._picks[player]
        seq.append(c)
        picked = self._picked[player] = self._picked[player] | 1 << c
        slot = len(seq)
        k = self._k[player]
        if slot == k:
            self._legal[player] = 0
            self._pending.remove(player)
            if not self._pending:
                self._advance()
        else:  # inline _legal_mask: slot > 0, so never the Witch
            mask = self._hand[player] & ~picked & ~WITCH_BIT
            if slot != k - 1:
                mask &= ~KNIGHT_BIT
            self._legal[player] = mask

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        return list(self._score)

    @property
    def winners(self) -> list[int]:
        """Highest score, then most Nobles on the board, then shared; ``[]`` until over."""
        if not self._over:
            return []
        best = max(self._score)
        tied = [p for p in range(self.n) if self._score[p] == best]
        most = max(self.nobles(p) for p in tied)
        return [p for p in tied if self.nobles(p) == most]

    def nobles(self, p: int) -> int:
        """Nobles of ``p`` on the board."""
        if self._stack is not None:
            return sum(mask >> p & 1 for mask in self._stack)
        return self._noble.count(p)

    @property
    def king(self) -> str:
        return REGIONS[self._king]

    @property
    def rounds(self) -> int:
        """Completed rounds."""
        return self._rounds

    def supply(self, p: int) -> int:
        return self._supply[p]

    def markers_on_board(self, p: int) -> int:
        """Markers of ``p`` on the board, Nobles included."""
        return sum(row[p] for row in self._board) + self.nobles(p)

    def markers(self, p: int, region: str) -> int:
        """Non-Noble markers of ``p`` in ``region``."""
        return self._board[REGIONS.index(region)][p]

    def noble(self, region: str) -> int | None:
        """Owner of ``region``'s Noble, or ``None`` (for several Nobles: ``noble_owners``)."""
        owners = self.noble_owners(region)
        if len(owners) > 1:
            raise ValueError(f"{region} holds several Nobles: {owners}")
        return owners[0] if owners else None

    def noble_owners(self, region: str) -> list[int]:
        """The players with a Noble in ``region``, ascending (at most one in the base game)."""
        r = REGIONS.index(region)
        if self._stack is not None:
            return [p for p in range(self.n) if self._stack[r] >> p & 1]
        owner = self._noble[r]
        return [] if owner < 0 else [owner]

    # ---- choosing cards --------------------------------------------------------------------

    def _legal_mask(self, p: int) -> int:
        """Cards ``p`` may pick for their next slot (``play`` inlines this)."""
        slot = len(self._picks[p])
        mask = self._hand[p] & ~self._picked[p]
        if slot:
            mask &= ~WITCH_BIT
        if slot != self._k[p] - 1:
            mask &= ~KNIGHT_BIT
        return mask

    def _malformed(self, player, card) -> str:
        if not (isinstance(card, str) and card in CARD_INDEX):
            return f"unknown card {card!r}; expected one of {', '.join(CARDS)}"
        return f"no player {player!r} in a {self.n}-player game"

    def _refusal(self, p: int, c: int) -> str:
        name = CARDS[c]
        if self._over:
            return "the game is over"
        if p not in self._pending:
            return f"player {p} has nothing to pick now (to move: {self._pending})"
        slot, k = len(self._picks[p]), self._k[p]
        if not self._hand[p] >> c & 1:
            return f"player {p} no longer has the {name} (it left the game)"
        if self._picked[p] >> c & 1:
            return f"player {p} already picked {name} this round"
        if c == WITCH:
            return f"the witch must be the first card (player {p} is choosing card {slot + 1})"
        return f"the knight must be the last card (player {p} is choosing card {slot + 1} of {k})"

    def _begin_picks(self, players) -> None:
        """Open a pick phase for ``players`` (each picks min(3, supply) cards)."""
        supply = self._supply
        pending = []
        for p in players:
            self._picks[p] = []
            self._picked[p] = 0
            k = self._k[p] = min(CARDS_PER_ROUND, supply[p])
            if k:
                pending.append(p)
                self._legal[p] = self._legal_mask(p)
            else:
                self._legal[p] = 0
        self._pending = pending

    def _start_round(self) -> None:
        self._dragons = 0
        self._witch_phase = False
        self._begin_picks(range(self.n))

    def _advance(self) -> None:
        """Everybody in the current pick phase is done: resolve, then score as needed."""
        picks = self._picks
        if self._witch_phase:
            for p in range(self.n):
                if self._k[p]:
                    self._resolve(p, picks[p])
        else:
            witches = []
            for p in range(self.n):
                seq = picks[p]
                if not seq:
                    continue
                if seq[0] == WITCH:  # the Witch leaves; the other cards go back unresolved
                    self._hand[p] &= ~WITCH_BIT
                    witches.append(p)
                else:
                    self._resolve(p, seq)
            if witches:
                self._witch_phase = True
                for p in range(self.n):
                    self._k[p] = 0
                self._begin_picks(witches)
                return
        # Score; a round in which nobody can pick (all supplies empty) is scored at once.
        while True:
            self._end_round()
            if self._over:
                return
            self._start_round()
            if self._pending:
                return

    def _resolve(self, p: int, seq: list) -> None:
        board = self._board
        prev = -1
        for c in seq:
            if c < 8:
                board[c][p] += 1
                self._supply[p] -= 1
            elif c == KNIGHT:
                if 0 <= prev < 8:
                    board[prev][p] += 1
                    self._supply[p] -= 1
            elif c == DRAGON:
                self._dragons += 1
                self._hand[p] &= ~DRAGON_BIT
            prev = c

    # ---- scoring ---------------------------------------------------------------------------

    def _end_round(self) -> None:
        r = self._king
        scored = 0
        for _ in range(1 + self._dragons):
            self._score_region(r)
            scored |= 1 << r
            r = NEXT[r]
        self._king = r  # the region after the last scored one
        self._rounds += 1
        if max(self._score) >= END_THRESHOLD:
            for region in range(8):
                if not scored >> region & 1:
                    self._score_region(region, final=True)
            self._over = True
            self._pending = []
            self._legal = [0] * self.n

    def _pay_by_position(self, r: int, strength: list) -> None:
        """Digest §4.3 steps a-b: each player present in region ``r`` scores the banner value
        of their position; a tied block all take the value of the block's last position, which
        is the number of players at least as strong."""
        pay = self._pay[r]
        score = self._score
        for p, s in enumerate(strength):
            if s:
                pos = 0
                for t in strength:
                    if t >= s:
                        pos += 1
                score[p] += pay[pos - 1]

    def _score_region(self, r: int, final: bool = False) -> None:
        """Digest §4.3 steps a-e for region ``r`` (steps a-b only in final scoring)."""
        if self._stack is not None:
            self._score_region_permanent(r, final)
            return
        n = self.n
        cnt = self._board[r]
        owner = self._noble[r]
        strength = cnt[:]
        if owner >= 0:
            strength[owner] += 1
        self._pay_by_position(r, strength)
        if final:
            return
        # c: a sole leader installs the Noble (if it is already theirs it simply stays).
        top = max(strength)
        if top and strength.count(top) == 1:
            leader = strength.index(top)
            if leader != owner:
                if owner >= 0:
                    self._supply[owner] += 1
                cnt[leader] -= 1
                self._noble[r] = owner = leader
        # d: every other marker goes home.
        supply = self._supply
        for p in range(n):
            if cnt[p]:
                supply[p] += cnt[p]
                cnt[p] = 0
        # e: the Noble's owner scores the size of their connected group of Nobles.
        if owner >= 0:
            self._score[owner] += self._chain(r, owner)

    def _score_region_permanent(self, r: int, final: bool) -> None:
        """Permanent Nobles (§8): steps a-e for region ``r``, several Nobles a region."""
        n = self.n
        cnt = self._board[r]
        stack = self._stack[r]
        strength = cnt[:]
        for p in range(n):
            if stack >> p & 1:
                strength[p] += 1  # each Noble counts one marker of its owner
        self._pay_by_position(r, strength)
        if final:
            return
        score = self._score
        # c: a sole leader with no Noble here yet adds one; the Nobles already here stay.
        top = max(strength)
        if top and strength.count(top) == 1:
            leader = strength.index(top)
            if not stack >> leader & 1:
                cnt[leader] -= 1
                self._stack[r] = stack = stack | 1 << leader
        # d: every marker that is not a Noble goes home.
        supply = self._supply
        for p in range(n):
            if cnt[p]:
                supply[p] += cnt[p]
                cnt[p] = 0
        # e: every Noble here scores its owner's chain (over that player's Nobles).
        for p in range(n):
            if stack >> p & 1:
                score[p] += self._chain_permanent(r, p)

    def _chain_permanent(self, r: int, owner: int) -> int:
        stack = self._stack
        bit = 1 << owner
        seen = 1 << r
        todo = [r]
        size = 0
        while todo:
            x = todo.pop()
            size += 1
            for y in ADJ[x]:
                if stack[y] & bit and not seen >> y & 1:
                    seen |= 1 << y
                    todo.append(y)
        return size

    def _chain(self, r: int, owner: int) -> int:
        noble = self._noble
        seen = 1 << r
        stack = [r]
        size = 0
        while stack:
            x = stack.pop()
            size += 1
            for y in ADJ[x]:
                if noble[y] == owner and not seen >> y & 1:
                    seen |= 1 << y
                    stack.append(y)
        return size


# --------------------------------------------------------------------------------------------
# Random playouts and the benchmark.


def random_game(players: int, seed: int, variant: str | None = None) -> KingsRoad:
    """Play one game, choosing uniformly among ``legal_moves()`` with ``random.Random(seed)``.

    Stops when the game is over or after ``MAX_ROUNDS`` completed rounds.
    """
    rng = random.Random(seed)
    game = KingsRoad(players, variant)
    choice = rng.choice
    play = game.play
    legal_moves = game.legal_moves
    while not game._over and game._rounds < MAX_ROUNDS:
        play(*choice(legal_moves()))
    return game


#: regnum's first order of a hand: region cards in travel order, then Knight, Dragon, Witch
#: (``rulesets/kings_road.rules`` creates them so); cards coming back are put at its end.
HAND_ORDER = tuple(r - 1 for r in TRAVEL_ORDER) + (KNIGHT, DRAGON, WITCH)


def bench_game(players: int, seed: int, max_moves: int = 10_000,
               variant: str | None = None) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores).

    This is what ``regnum bench`` times and compares with ``regnum.agents.play_random_game``
    on ``rulesets/kings_road.rules``: seat ``p`` has its own ``random.Random("regnum-bot:
    <seed>:<p>")``; the seats in ``to_move`` (read again after each move) each pick
    ``moves[rng.randrange(len(moves))]`` among their own legal cards *in regnum's order*, which
    is the order of the cards in the hand zone; the game stops when over or after
    ``max_moves`` moves. So this function also keeps each hand's order as the ruleset does:
    a picked card leaves it; a bewitched player's other cards come back at once, after the
    Witch leaves; every other played card (but a Dragon, which leaves) comes back when the
    round ends. ``variant="permanent_nobles"`` plays that variant (its moves are the base's).
    """
    game = KingsRoad(players, variant)
    rngs = [random.Random(f"regnum-bot:{seed}:{p}") for p in range(players)]
    hands = [list(HAND_ORDER) for _ in range(players)]
    chosen = [[] for _ in range(players)]
    played = [[] for _ in range(players)]
    play = game.play
    moves = 0
    while not game._over and moves < max_moves:
        waiting = list(game._pending)
        if not waiting:
            raise RuntimeError(f"nobody to move after {moves} moves")
        for p in waiting:
            if game._over or moves >= max_moves:
                break
            if p not in game._pending:
                continue
            mask = game._legal[p]
            hand = hands[p]
            options = [c for c in hand if mask >> c & 1]
            c = options[rngs[p].randrange(len(options))]
            witch_phase, rounds = game._witch_phase, game._rounds
            play(p, CARDS[c])
            moves += 1
            hand.remove(c)
            chosen[p].append(c)
            if game._witch_phase and not witch_phase:  # the Witches' players pick again
                for q in range(players):
                    seq, chosen[q] = chosen[q], []
                    if seq and seq[0] == WITCH:
                        hands[q] += seq[1:]
                    else:
                        played[q] = [x for x in seq if x != DRAGON]
            elif game._rounds != rounds or game._over:  # the round is over: cards come back
                for q in range(players):
                    hands[q] += played[q] + [x for x in chosen[q] if x != DRAGON]
                    played[q], chosen[q] = [], []
    return moves, game.scores


def games_per_second(players: int = 4, seconds: float = 2.0) -> float:
    """Random playouts per second (seeds 0, 1, 2, ...) over at least ``seconds``."""
    clock = time.perf_counter
    games = 0
    start = clock()
    while True:
        random_game(players, games)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games / elapsed


# --------------------------------------------------------------------------------------------
# Worked examples of the digest (§11), set up directly.


def _position(players, king="zin_kais_deep", markers=None, nobles=None, scores=None, variant=None):
    """A fresh game with the King on ``king``, ``markers`` = {region: [count per player]},
    ``nobles`` = {region: owner} (in the variant, an owner or a tuple of owners); supplies are
    reduced to match the pieces on the board."""
    g = KingsRoad(players, variant)
    g._king = REGIONS.index(king)
    for region, counts in (markers or {}).items():
        g._board[REGIONS.index(region)] = list(counts)
    for region, owner in (nobles or {}).items():
        if g._stack is not None:
            for o in owner if isinstance(owner, tuple) else (owner,):
                g._stack[REGIONS.index(region)] |= 1 << o
        else:
            g._noble[REGIONS.index(region)] = owner
    for p in range(players):
        g._supply[p] = MARKERS_IN_SUPPLY - g.markers_on_board(p)
    if scores:
        g._score = list(scores)
    g._start_round()
    return g


def _score(g, region):
    g._score_region(REGIONS.index(region))
    return g.scores


def _play_round(g, choices):
    """``choices`` = {player: [cards]}; played in interleaved order, one card per move."""
    for i in range(max(map(len, choices.values()))):
        for p, cards in choices.items():
            if i < len(cards):
                g.play(p, cards[i])


def _check_invariants(g):
    for p in range(g.n):
        assert g.supply(p) + g.markers_on_board(p) + 1 == 20 or g.is_over, (p, g.supply(p))
        assert g.supply(p) >= 0
    assert all(o < g.n for o in g._noble)
    if g._stack is not None:
        assert g._noble == [-1] * 8 and all(mask < 1 << g.n for mask in g._stack)


def _self_check() -> None:
    # E1: Dark Tower majority, 4 players.
    g = _position(4, markers={"dark_tower": [4, 3, 2, 1]})
    assert _score(g, "dark_tower") == [6, 4, 2, 0]
    assert g.noble("dark_tower") == 0 and g.markers_on_board(0) == 1
    assert [g.supply(p) for p in range(4)] == [18, 19, 19, 19]
    assert [g.markers_on_board(p) for p in range(4)] == [1, 0, 0, 0]

    # E2: tie for first; then the same with B owning the Noble (counted in B's 3).
    g = _position(4, markers={"dark_tower": [3, 3, 1, 0]})
    assert _score(g, "dark_tower") == [4, 4, 2, 0] and g.noble("dark_tower") is None
    assert [g.supply(p) for p in range(4)] == [19] * 4
    g = _position(4, markers={"dark_tower": [3, 2, 1, 0]}, nobles={"dark_tower": 1})
    assert _score(g, "dark_tower") == [4, 5, 2, 0] and g.noble("dark_tower") == 1
    assert g.supply(1) == 18

    # E3: three-way tie for first, with 4 and with 3 players.
    g = _position(4, markers={"dark_tower": [2, 2, 2, 1]})
    assert _score(g, "dark_tower") == [2, 2, 2, 0] and g.noble("dark_tower") is None
    g = _position(3, markers={"dark_tower": [2, 2, 2]})
    assert _score(g, "dark_tower") == [0, 0, 0]

    # E4: noble chain {5, 3, 2} -> bonus 3 (plus 5 for first place).
    g = _position(4, markers={"dark_tower": [1, 0, 0, 0]},
                  nobles={"temple_ruins": 0, "dragons_lair": 0})
    assert _score(g, "dark_tower") == [5 + 3, 0, 0, 0]

    # E7: chain through the 3-1 road: {1, 3, 8, 2} -> bonus 4 (+1, default banner).
    g = _position(4, markers={"zin_kais_deep": [1, 0, 0, 0]},
                  nobles={"temple_ruins": 0, "kings_castle": 0, "dragons_lair": 0})
    assert _score(g, "zin_kais_deep") == [BANNERS[1][0] + 4, 0, 0, 0]

    # E8: broken chain: {5, 2} only -> bonus 2.
    g = _position(4, markers={"dark_tower": [1, 0, 0, 0]},
                  nobles={"dragons_lair": 0, "zin_kais_deep": 0})
    assert _score(g, "dark_tower") == [5 + 2, 0, 0, 0]

    # E11: Noble replaced.
    g = _position(4, markers={"dark_tower": [3, 0, 0, 0]}, nobles={"dark_tower": 1})
    assert _score(g, "dark_tower") == [6, 4, 0, 0] and g.noble("dark_tower") == 0
    assert g.supply(1) == 19 and g.supply(0) == 18

    # E14: two players, only first place pays.
    g = _position(2, markers={"dark_tower": [2, 2]})
    assert _score(g, "dark_tower") == [0, 0] and g.noble("dark_tower") is None
    g = _position(2, markers={"dark_tower": [3, 1]})
    assert _score(g, "dark_tower") == [6, 0] and g.noble("dark_tower") == 0

    # E9 (default banner for Dragon's Lair), played through the API; also E12 (Knight after
    # a Dragon does nothing). Before the round: A has 1 in Dark Tower, 1 in Dragon's Lair and
    # the King's Castle Noble.
    g = _position(3, king="dark_tower",
                  markers={"dark_tower": [1, 0, 0], "dragons_lair": [1, 0, 0]},
                  nobles={"kings_castle": 0})
    assert g.to_move == [0, 1, 2]
    _play_round(g, {0: ["dark_tower", "dragon", "knight"],
                    1: ["dark_tower", "savage_hills", "wizards_tower"],
                    2: ["savage_hills", "kings_altar", "temple_ruins"]})
    assert g.scores == [5 + 1 + BANNERS[2][0] + 3, 4, 0], g.scores
    assert g.king == "kings_castle"
    assert [g.noble(r) for r in ("dark_tower", "dragons_lair", "kings_castle")] == [0, 0, 0]
    assert g.supply(0) == 16  # 19 - 3 Nobles: the Knight after the Dragon placed nothing
    assert g.markers(1, "savage_hills") == 1 and g.markers(2, "temple_ruins") == 1
    assert (0, "dragon") not in g.legal_moves()
    _check_invariants(g)

    # E10: Witch, Knight and Dragon in one round.
    g = _position(3, king="dark_tower")
    _play_round(g, {0: ["witch", "dark_tower", "knight"],
                    1: ["dark_tower", "savage_hills", "knight"],
                    2: ["zin_kais_deep", "dark_tower", "knight"]})
    assert g.to_move == [0] and g.king == "dark_tower"
    assert (0, "witch") not in g.legal_moves() and (0, "dark_tower") in g.legal_moves()
    assert g.markers(1, "savage_hills") == 2 and g.markers(2, "dark_tower") == 2
    _play_round(g, {0: ["dragon", "dark_tower", "knight"]})
    assert g.scores == [4, 0, 4], g.scores
    assert g.king == "kings_castle" and g.to_move == [0, 1, 2]
    assert all(g.noble(r) is None for r in REGIONS)
    on_board = {(p, r): g.markers(p, r) for p in range(3) for r in REGIONS if g.markers(p, r)}
    assert on_board == {(1, "savage_hills"): 2, (2, "zin_kais_deep"): 1}, on_board
    assert not {(0, "witch"), (0, "dragon")} & set(g.legal_moves())
    assert [g.supply(p) for p in range(3)] == [19, 17, 18]
    _check_invariants(g)

    # E5: two Dragons from Dark Tower: 5, 2, 8 scored, the King moves to 1.
    g = _position(3, king="dark_tower")
    _play_round(g, {0: ["dragon", "temple_ruins", "knight"],
                    1: ["dragon", "temple_ruins", "savage_hills"],
                    2: ["temple_ruins", "savage_hills", "kings_altar"]})
    assert g.king == "zin_kais_deep" and g.scores == [0, 0, 0]

    # E6 + E15: the last round scores 7 and 3; final scoring covers the other six regions,
    # majority only; ties in score are broken by Nobles.
    g = _position(2, king="kings_altar", scores=[39, 30],
                  markers={"kings_altar": [1, 0], "dark_tower": [1, 0], "kings_castle": [0, 1]},
                  nobles={"wizards_tower": 1})
    _play_round(g, {0: ["dragon", "temple_ruins", "savage_hills"],
                    1: ["temple_ruins", "dragons_lair", "knight"]})
    # 7: A 7 + chain 1 -> 47; 3: tie 1-1 pays nothing; final: 5 -> A +5, 8 -> B +8,
    # 2 -> B +2 (2 markers), 6 -> B +6 (Noble), 4 -> A +4 (1 marker): A 56, B 46.
    assert g.is_over and g.scores == [56, 46], g.scores
    assert g.winners == [0] and g.to_move == [] and g.legal_moves() == []
    g = _position(2)
    g._score, g._noble[0], g._over = [44, 44], 1, True
    assert g.winners == [1]
    g._noble[1] = 0
    assert g.winners == [0, 1]

    # E13: short supply picks exactly min(3, supply) cards; illegal moves change nothing.
    g = _position(2)
    g._supply[0] = 2
    g._start_round()
    g.play(0, "dark_tower")
    assert g.legal_moves()[:1] == [(0, "zin_kais_deep")] and (0, "knight") in g.legal_moves()
    for bad in [(0, "witch"), (0, "dark_tower"), (2, "dark_tower"), (1, "knight"), (1, "x"),
                (-1, "dark_tower"), (0.0, "knight"), ("0", "knight"), (0, ["knight"]), (0, 8)]:
        before = (g.legal_moves(), g.to_move)
        try:
            g.play(*bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"accepted {bad}")
        assert (g.legal_moves(), g.to_move) == before
    g.play(0, "knight")
    assert g.to_move == [1]
    _play_round(g, {1: ["witch", "temple_ruins", "savage_hills"]})
    assert g.to_move == [1]  # the Witch player picks again; player 0 has resolved
    assert g.markers(0, "dark_tower") == 2 and g.supply(0) == 0
    _play_round(g, {1: ["temple_ruins", "dragon", "knight"]})
    # Zin Kai's Deep (empty) and Wizard's Tower (empty) scored; King to Savage Hills.
    assert g.king == "savage_hills" and g.scores == [0, 0] and g.markers(1, "temple_ruins") == 1
    assert g.to_move == [1]  # player 0 has no supply and picks nothing this round

    # E16 (Permanent Nobles): B holds the Dark Tower Noble, A has 2 markers there. A 5, B 4;
    # A adds a Noble and B's stays; both score a chain of 1. The base game sends B's home.
    g = _position(4, markers={"dark_tower": [2, 0, 0, 0]}, nobles={"dark_tower": 1},
                  variant=PERMANENT_NOBLES)
    assert _score(g, "dark_tower") == [5 + 1, 4 + 1, 0, 0]
    assert g.noble_owners("dark_tower") == [0, 1] and g.nobles(0) == g.nobles(1) == 1
    assert [g.supply(p) for p in range(4)] == [18, 18, 19, 19]
    # Next time both Nobles count one each: A, sole leader again, adds nothing.
    g._board[REGIONS.index("dark_tower")][0] = 1
    g._supply[0] -= 1
    assert _score(g, "dark_tower") == [6 + 5 + 1, 5 + 4 + 1, 0, 0]
    assert g.noble_owners("dark_tower") == [0, 1] and g.supply(0) == 18
    _check_invariants(g)
    g = _position(4, markers={"dark_tower": [2, 0, 0, 0]}, nobles={"dark_tower": 1})
    assert _score(g, "dark_tower") == [5 + 1, 4, 0, 0] and g.noble_owners("dark_tower") == [0]
    assert g.supply(1) == 19

    # Random playouts keep the invariants and are reproducible.
    for variant in (None, *sorted(VARIANTS)):
        for players in range(2, 6):
            for seed in range(30):
                g = random_game(players, seed, variant)
                _check_invariants(g)
                assert g.is_over or g.rounds == MAX_ROUNDS
                assert g.scores == random_game(players, seed, variant).scores
    print("kings_road_baseline: all worked examples pass")


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        _self_check()
    else:
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            print(f"{n} players: {games_per_second(n):8.1f} games/s")
