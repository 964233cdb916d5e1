"""Helpers for testing rulesets: invariants, hand-built positions, random playouts, Hypothesis.

These are public, for users' own tests of their rulesets as much as for regnum's::

    import regnum
    from regnum.testing import Scenario, assert_invariants, random_playout, refusal

    rules = regnum.load("my_game.rules")

    # A position for a worked example: build it, then start the flow from it.
    game = (Scenario(rules, players=3)
            .set_var("round", 5)
            .place("supply#0", "area#north", n=2)
            .set_player_var(0, "score", 35)
            .start())
    ...                                   # now drive it with real moves: game.play(Move(...))

    game = random_playout(rules.new_game(players=4, seed=1), seed=1, max_moves=5_000)
    assert_invariants(game)

    # A refused move names its rule and changes nothing.
    assert refusal(game, Move(0, "build", {"at": "(3,4)"})) == "build.on_card"

Hypothesis support (needs ``hypothesis``, the ``test`` extra)::

    from hypothesis import given
    from regnum.testing import game_machine, legal_move_sequences, reachable_states, seeds

    @given(legal_move_sequences(rules, players=[2, 3], max_moves=200))
    def test_something(playout):
        game = playout.replay(rules)     # the moves are legal in order from new_game(players, seed)

    @given(reachable_states(rules, players=4), seeds())
    def test_copies_play_alike(game, seed):
        ...                              # any position legal play can reach, and a seed

    TestKingsRoad = game_machine(rules, players=[2, 3, 4]).TestCase

``regnum fuzz`` runs the same kind of search over whole games with many more checks
(docs/fuzzing.md); these are for the properties of your own ruleset.

Positions are edited in place through the same copy-on-write discipline the engine uses
(``State.writable``; piece records are replaced, never changed), so copies of a game taken
before an edit are not affected by it. An edited game's log no longer reproduces its state:
compare edited games through ``to_json()``, not through ``regnum.replay``.

Zones are named by their keys in ``game.state.zones``: ``family#index`` for a zone family
(``supply#0``, ``area#north``), or the bare name of a single zone (``discard``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable


__all__ = [
    "assert_invariants", "place", "set_fields", "set_var", "set_player_var", "set_table", "set_fired", "restart_flow",
    "Scenario", "random_playout", "Playout", "seeds", "legal_move_sequences", "reachable_states",
    "game_machine", "refusal", "kind_first_move", "piece_ids",
]

PieceFilter = Callable[[dict], bool]
SEED_RANGE = (0, 2**32 - 1)   # the seeds Hypothesis draws


# ── invariants ────────────────────────────────────────────────────────────────

def assert_invariants(game) -> None:
    """Raise AssertionError listing every ruleset invariant that does not hold in ``game``.

    The invariants are the ruleset's own ``invariant`` declarations
    (``game.check_invariants()``); the message names each failed one with its location.
    """
    failed = game.check_invariants()
    if failed:
        raise AssertionError(f"{len(failed)} invariant(s) failed after {game.move_count} moves:\n  "
                             + "\n  ".join(failed))


def refusal(game, move) -> str:
    """The rule that refuses ``move`` (``require:…`` names as ``IllegalMove.rule`` gives them:
    ``play.limit``, ``flow``); AssertionError if the move is accepted, or if its refusal
    changed anything (``to_json()`` before and after): a refused move changes nothing."""
    from .moves import IllegalMove
    before = game.to_json()
    try:
        game.play(move)
    except IllegalMove as refused:
        if game.to_json() != before:
            raise AssertionError(f"refusing {move} changed the game") from None
        return refused.rule
    raise AssertionError(f"{move} was accepted; a refusal was expected")


def piece_ids(value) -> set[int]:
    """Every piece id anywhere in a JSON value such as an observation (pieces are shown as
    objects with an ``id`` and a ``type``): to check that a seat is shown no piece it may not
    see."""
    found = set()
    if isinstance(value, dict):
        if "id" in value and "type" in value:
            found.add(value["id"])
        for v in value.values():
            found |= piece_ids(v)
    elif isinstance(value, list):
        for v in value:
            found |= piece_ids(v)
    return found


# ── building positions ──────────────────────────────────────────────────────

def _into_use(game, family: str, cell) -> None:
    """An open grid's cell named by a position being built comes into use, as it would in
    play (every zone and variable per the grid gets its entry there)."""
    from .boards import coordinates
    fam = game.model.zones.get(family)
    table = game.model.tables.get(family)
    board = fam.index if fam is not None and fam.open else table.index if table is not None and table.open else None
    if board is not None and coordinates(cell) is not None and cell not in game.state.grids[board]["cells"]:
        game._ctx(game.state).use_cell(board, cell)


def _zone(game, key: str) -> list[int]:
    zones = game.state.zones
    if key not in zones:
        near = sorted(k for k in zones if k.split("#")[0] == key.split("#")[0]) or sorted(zones)
        raise KeyError(f"no zone {key!r} in this game; zones like it: {', '.join(near[:12])}")
    return zones[key]


def _matching(game, key: str, n: int | None, where: PieceFilter | None) -> list[int]:
    """The first ``n`` pieces of zone ``key`` (in zone order) that ``where`` accepts."""
    pieces = game.state.pieces
    ids = [i for i in _zone(game, key) if where is None or where(pieces[i])]
    if n is None:
        return ids
    if n < 0:
        raise ValueError(f"n must be >= 0, not {n}")
    if len(ids) < n:
        raise ValueError(f"zone {key!r} holds only {len(ids)} matching piece(s), {n} wanted")
    return ids[:n]


def _touched(game) -> None:
    """Forget what the game cached about the position (its legal moves, the defs' kept values)."""
    game._edited()


def _editing(game) -> None:
    """About to edit the position: `previous(…)` keeps reading the state before the last move."""
    game._keep_previous()


def place(game, zone_from: str, zone_to: str, n: int | None = 1,
          where: PieceFilter | None = None) -> list[int]:
    """Move ``n`` pieces from zone ``zone_from`` to the end of zone ``zone_to``; their ids.

    ``where(record)`` selects the pieces (a piece record is a dict: ``type``, ``label``,
    ``owner`` and the piece type's fields); the first ``n`` accepted pieces in zone order are
    moved, or all of them with ``n=None``. Raises ValueError when fewer than ``n`` match.
    No trigger fires: this builds a position, it is not a game effect.
    """
    _editing(game)
    family, _, index = zone_to.partition("#")
    _into_use(game, family, index)     # an open grid's cell: into use, as a piece entering does
    _zone(game, zone_to)
    ids = _matching(game, zone_from, n, where)
    state = game.state
    if ids and zone_from != zone_to:
        source = state.writable(zone_from)
        target = state.writable(zone_to)
        for piece in ids:
            source.remove(piece)
            target.append(piece)
            state.where[piece] = zone_to
    _touched(game)
    return ids


def set_fields(game, zone: str, n: int | None = 1, where: PieceFilter | None = None,
               **fields) -> list[int]:
    """Set ``fields`` on ``n`` pieces of ``zone`` (the first ones ``where`` accepts); their ids.

    ``n=None`` changes every matching piece. Field names are checked against the records.
    """
    _editing(game)
    ids = _matching(game, zone, n, where)
    state = game.state
    for piece in ids:
        record = state.pieces[piece]
        unknown = sorted(set(fields) - set(record))
        if unknown:
            raise KeyError(f"piece {piece} ({record['type']}) has no field {unknown[0]!r}; "
                           f"it has {', '.join(sorted(record))}")
        state.pieces[piece] = {**record, **fields}
    _touched(game)
    return ids


def set_var(game, name: str, value) -> None:
    """Set the global variable ``name`` (it must exist) to the JSON value ``value``."""
    _editing(game)
    variables = game.state.vars
    if name not in variables:
        raise KeyError(f"no global variable {name!r}; there are {', '.join(sorted(variables))}")
    variables[name] = value
    _touched(game)


def set_player_var(game, seat: int, name: str, value) -> None:
    """Set seat ``seat``'s player variable ``name`` (it must exist) to ``value``."""
    _editing(game)
    rows = game.state.pvars
    if not 0 <= seat < len(rows):
        raise IndexError(f"no seat {seat} in a {len(rows)}-player game")
    if name not in rows[seat]:
        raise KeyError(f"no player variable {name!r}; there are {', '.join(sorted(rows[seat]))}")
    rows[seat][name] = value
    _touched(game)


def set_table(game, name: str, index, value) -> None:
    """Set variable ``name`` — one declared ``per BOARD`` or ``per ENUM`` — at ``index`` (a cell
    such as ``"(7,8)"``, a node or an enum member) to ``value``."""
    _editing(game)
    tables = game.state.tables
    if name in tables:
        _into_use(game, name, index)
    if name not in tables:
        raise KeyError(f"no variable {name!r} per cell or member; there are {', '.join(sorted(tables)) or 'none'}")
    if index not in tables[name]:
        raise KeyError(f"{name}({index!r}): {index!r} is not one of its cells or members")
    game.state.writable_table(name)[index] = value
    _touched(game)


def set_fired(game, *names: str) -> None:
    """Mark the `trigger … once` named as having fired already in this game (a position built
    after the first entry into a row, say), in that order, after any that had."""
    _editing(game)
    triggers = {t.name for ts in (*game.model.triggers.values(), *game.model.leave_triggers.values()) for t in ts
                if t.once}
    for name in names:
        if name not in triggers:
            raise KeyError(f"no trigger {name!r} that fires once; there are {', '.join(sorted(triggers)) or 'none'}")
    state = game.state
    state.once = state.once + tuple(n for n in names if n not in state.once)
    _touched(game)


def restart_flow(game) -> None:
    """Run the ruleset's ``flow`` again from its first statement, from the current position.

    A new game has already run its flow up to the first decision, so counts read there (how
    many cards each player picks, say) come from the initial position. After editing a
    position call this to forget that and let the flow reach its first decision anew. Setup
    is not run again. Pending choices of the old flow are dropped; pieces are not moved.
    """
    _editing(game)
    from .engine.runtime import advance

    state = game.state
    state.flow = {"main": [["flow", 0, {}]], "threads": None}
    advance(game._ctx(state))
    _touched(game)


def _unstarted_game(rules, players: int, seed: int, narrate: bool, options: dict | None = None):
    """A new game whose setup has run but whose flow has not started."""
    from .engine.game import Game

    rules.new_game(players=players, seed=seed, narrate=False, options=options)  # validates the arguments
    return Game.prepared(rules, players, int(seed), narrate, options)


class Scenario:
    """A position under construction: a game after setup, edited step by step, then started.

    The game's setup has run but its flow has not: nothing the flow computes (a round
    counter, how many cards each player picks) has been read from the position yet. Every
    editing method returns the scenario, so edits chain; ``start()`` starts the flow from
    the edited position, checks the ruleset's invariants and returns the game, ready for
    real moves. ``game`` is available throughout for reading (it has no player to move
    until ``start()``).
    """

    def __init__(self, rules, players: int, seed: int = 0, narrate: bool = True, options: dict | None = None):
        self.game = _unstarted_game(rules, players, seed, narrate, options)

    def place(self, zone_from: str, zone_to: str, n: int | None = 1,
              where: PieceFilter | None = None) -> "Scenario":
        place(self.game, zone_from, zone_to, n, where)
        return self

    def set_fields(self, zone: str, n: int | None = 1, where: PieceFilter | None = None,
                   **fields) -> "Scenario":
        set_fields(self.game, zone, n, where, **fields)
        return self

    def set_var(self, name: str, value) -> "Scenario":
        set_var(self.game, name, value)
        return self

    def set_player_var(self, seat: int, name: str, value) -> "Scenario":
        set_player_var(self.game, seat, name, value)
        return self

    def set_table(self, name: str, index, value) -> "Scenario":
        set_table(self.game, name, index, value)
        return self

    def set_fired(self, *names: str) -> "Scenario":
        set_fired(self.game, *names)
        return self

    def start(self, check: bool = True):
        """Start the flow from this position (see ``restart_flow``) and return the game."""
        restart_flow(self.game)
        if check:
            assert_invariants(self.game)
        return self.game


# ── random playouts ─────────────────────────────────────────────────────────

def random_playout(game, seed: int, max_moves: int = 10_000, check: bool = False,
                   on_move: Callable | None = None):
    """Play uniformly random legal moves on ``game`` (in place) until it ends; return it.

    Each move is ``rng.choice(game.all_legal_moves())`` with ``rng = random.Random(seed)``:
    during a simultaneous choice all deciding players' moves are pooled, so the order in
    which they pick is random too. Stops after ``max_moves`` moves of this call (the game
    may then not be over: check ``game.is_over``). With ``check=True`` the ruleset's
    invariants are asserted after every move; ``on_move(game, move)`` is called after each.
    Raises AssertionError if a game that is not over offers no legal move.
    """
    rng = random.Random(seed)
    for _ in range(max_moves):
        if game.is_over:
            break
        moves = game.all_legal_moves()
        if not moves:
            raise AssertionError(f"the game is not over but offers no legal move "
                                 f"(after {game.move_count} moves; to move: {game.to_move})")
        move = rng.choice(moves)
        game.play(move)
        if check:
            assert_invariants(game)
        if on_move is not None:
            on_move(game, move)
    return game


def kind_first_move(game, rng: random.Random):
    """A legal move chosen kind first: an action uniformly among those with a legal move, then
    one of its moves. Uniform play over moves favours the action that offers the most (every
    card of a hand, every cell), and rarely takes a pass or a special power."""
    moves = game.all_legal_moves()
    kinds = sorted({m.action for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m.action == kind])


# ── Hypothesis ─────────────────────────────────────────────────────────────

@dataclass(frozen=True)
class Playout:
    """A game as Hypothesis draws it: seats, seed, and moves legal in order from the start."""

    players: int
    seed: int
    moves: list = field(default_factory=list)

    def replay(self, rules):
        """A new game of ``rules`` with these moves played (each is legal when played)."""
        game = rules.new_game(players=self.players, seed=self.seed)
        for move in self.moves:
            game.play(move)
        return game


def _players_strategy(rules, players):
    from hypothesis import strategies as st

    if players is None:
        return st.integers(rules.min_players, rules.max_players)
    if isinstance(players, int):
        return st.just(players)
    return st.sampled_from(list(players))


def seeds():
    """A Hypothesis strategy of game seeds (whole numbers 0..2**32-1; shrinks toward 0)."""
    from hypothesis import strategies as st

    return st.integers(*SEED_RANGE)


def reachable_states(rules, players: int | Iterable[int] | None = None, max_moves: int = 500,
                     check: bool = True):
    """A Hypothesis strategy of games in states reachable by legal play: a ``Playout`` drawn as
    by ``legal_move_sequences``, replayed. The game may be over or in mid-play (the number of
    moves is drawn too); failures shrink to fewer moves and earlier positions."""
    return legal_move_sequences(rules, players, max_moves, check=check).map(lambda playout: playout.replay(rules))


def legal_move_sequences(rules, players: int | Iterable[int] | None = None, max_moves: int = 500,
                         seeds=None, check: bool = True):
    """A Hypothesis strategy of ``Playout``s: seats, a seed and a sequence of legal moves.

    ``players`` is a seat count, a collection of counts or None (the ruleset's range);
    ``seeds`` a strategy of seeds (default: integers 0..2**32-1). Moves are drawn one at a
    time among ``game.all_legal_moves()`` until the game ends or ``max_moves`` is reached (the
    length is drawn too, so failures shrink to short games and early moves). With
    ``check=True`` the ruleset's invariants are asserted while drawing.
    """
    from hypothesis import strategies as st

    seed_strategy = seeds if seeds is not None else st.integers(*SEED_RANGE)

    @st.composite
    def playouts(draw):
        n = draw(_players_strategy(rules, players))
        seed = draw(seed_strategy)
        length = draw(st.integers(0, max_moves))
        game = rules.new_game(players=n, seed=seed)
        moves = []
        while len(moves) < length and not game.is_over:
            legal = game.all_legal_moves()
            if not legal:
                raise AssertionError(f"the game is not over but offers no legal move "
                                     f"(after {game.move_count} moves)")
            move = draw(st.sampled_from(legal))
            game.play(move)
            moves.append(move)
            if check:
                assert_invariants(game)
        return Playout(n, seed, moves)

    return playouts()


def game_machine(rules, players: int | Iterable[int] | None = None, max_moves: int = 2_000,
                 checks: Iterable[Callable] = ()):
    """A Hypothesis ``RuleBasedStateMachine`` class that plays ``rules`` with drawn moves.

    It starts a game (seat count from ``players``, as in ``legal_move_sequences``; a drawn
    seed), then each step plays one legal move drawn with ``st.data()`` (steps after the end
    of the game, or after ``max_moves`` moves, do nothing). After every step it
    asserts the ruleset's invariants, that a game not over offers a legal move, and each
    ``check(game)`` of ``checks``. Use it as ``TestMyGame = game_machine(rules).TestCase``
    and tune it with ``TestMyGame.settings = settings(...)``.
    """
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

    extra = tuple(checks)

    class GameMachine(RuleBasedStateMachine):
        game = None

        @initialize(n=_players_strategy(rules, players), seed=st.integers(*SEED_RANGE))
        def start(self, n, seed):
            self.game = rules.new_game(players=n, seed=seed)

        @rule(data=st.data())
        def play(self, data):
            if self.game.is_over or self.game.move_count >= max_moves:
                return  # nothing left to play: the remaining steps are no-ops
            legal = self.game.all_legal_moves()
            assert legal, f"the game is not over but offers no legal move (after {self.game.move_count} moves)"
            move = data.draw(st.sampled_from(legal), label="move")
            self.game.play(move)

        @invariant()
        def holds(self):
            if self.game is None:
                return
            assert_invariants(self.game)
            for check in extra:
                check(self.game)

    GameMachine.__name__ = GameMachine.__qualname__ = f"{rules.name}_machine"
    return GameMachine
