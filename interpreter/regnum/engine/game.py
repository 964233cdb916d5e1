"""A game in progress: the public Game API over the model, a State and the VM.

A move changes the state in place and journals every write (state.Journal); when
any part of the step fails the journal undoes it, so a refused move — or a ruleset
failure — leaves the game exactly as it was. The journal of the last move accepted
is kept: `previous(…)` in an invariant reads the state it rebuilds. A playout nobody sees
between moves journals nothing: its checkpoint does both (checkpoint.py).
"""
from __future__ import annotations

import json
from contextlib import contextmanager

from .. import rng, scoring
from ..diagnostics import RulesetError
from ..documents import PLAIN_TYPES, STATE_FORMAT, BadValue, field_path, json_value
from ..moves import IllegalMove, Move, made_move
from . import decisions, memo, observe
from ..limits import DEFAULT as DEFAULT_LIMITS, Limits
from .runtime import ASK, Ctx, advance, check_size, guarded, run_native, run_native_with, run_stack, waiting_seats
from .checkpoint import UNJOURNALED, Checkpoint
from ..compiler.draws import BEFORE_DRAWS
from .state import Journal, State, Table, canonical_json, canonical_parts, size_of, state_size, state_text
from .state import string_text as _string_text

_NO_SEAT = object()  # legal_moves() called without a seat, which it refuses
_FAULTS = decisions._FAULTS
_UNNOTED = object()   # a kept listing whose steps to its first move were not noted


# A ruleset whose start draws nothing random starts every game as a copy of its first one
# (Game.start): a start is a walk of the whole setup, a copy shares its lists until written.
# Kept per ruleset for each count of players, options, narration and coverage, this many at
# most; False starts every game from its setup (tests compare the two).
START_COPIES = True
MOST_STARTS = 16
_START_OPTION_TYPES = (bool, int, str, type(None))


def _start_key(players: int, narrate: bool, options: dict | None, coverage: bool) -> tuple | None:
    """What a start depends on besides the seed, as a key; None when an option's value is
    one the state would hold as given (a list), which its giver could change after."""
    if type(narrate) is not bool:
        return None
    given = ()
    if options:
        if not isinstance(options, dict) or any(type(name) is not str or type(v) not in _START_OPTION_TYPES
                                                for name, v in options.items()):
            return None
        # The type apart, as `true` is not `1`; a name no option has fails the start, so it is
        # never kept under its key.
        given = tuple(sorted((name, type(v).__name__, v) for name, v in options.items()))
    return players, narrate, coverage, given


def _keep(starts: dict, key: tuple, kept) -> None:
    """`kept` under `key`, the kinds of start kept bounded (MOST_STARTS)."""
    if len(starts) >= MOST_STARTS:
        starts.clear()
    starts[key] = kept


_UNSEEN = object()   # Game._prepare's `begun`: the setup's first statements not run apart yet


class _Begun:
    """What the setup's statements before its first draw (draws.BEFORE_DRAWS) made for one
    kind of start (Game.start) — the game so far and the setup's frame, its steps and the
    size it added — which every later start of that kind copies and resumes from. It reads
    nothing of the seed: the generator came out of them unchanged."""

    __slots__ = ("game", "pc", "local", "steps", "added", "tables_bound", "grown")

    def __init__(self, game: "Game", ctx: Ctx, frame: list, tables_bound: int, grown: bool):
        self.game = game
        self.pc, self.local = frame[1], dict(frame[2])
        self.steps, self.added = ctx.steps, ctx.added
        self.tables_bound, self.grown = tables_bound, grown

    def resumed(self, seed: int) -> tuple["Game", Ctx, list]:
        """(a copy of the game, seeded with `seed`, the context the setup goes on in, the
        setup's frame where it goes on)."""
        game = self.game._reseeded(seed)
        ctx = game._ctx(game._state)
        ctx.steps, ctx.added = self.steps, self.added
        return game, ctx, ["setup", self.pc, dict(self.local)]


def _table_bound(table, start) -> int:
    """A bound on size_of of a table made with `start` at every cell, and of its name's entry
    in the state's tables: its name, two per cell, each cell's key, and each value (one at
    least), the keys measured once per model."""
    keys = table.keys_size
    if keys is None:
        keys = table.keys_size = sum(size_of(key) for key in table.keys)
    cells = len(table.keys)
    return 2 + size_of(table.name) + 1 + 2 * cells + keys + cells * max(1, size_of(start))


class Game:
    """One game of a ruleset. See DESIGN §4 for the contract."""

    def __init__(self, ruleset, players: int, seed: int, state: State, moves: list, hits: dict,
                 events: list, narrate: bool = True, limits: Limits | None = None):
        self.ruleset = ruleset
        self.limits = limits or getattr(ruleset, "limits", DEFAULT_LIMITS)
        self.model = ruleset.model
        self.players = players
        self.seed = seed
        self._state = state
        self._moves = moves
        self.hits = hits
        self.events = events
        self.narrate = narrate
        self._cache: dict = {}
        self.peak_steps = 0   # the most steps one move, listing or setup took (see docs/limits.md)
        self._size_bound = None   # a bound on the state's size (Ctx.check_size); None: not known
        # The journal of the last move accepted (None: no move yet, or loaded from JSON), from
        # which check_invariants rebuilds the state before it for `previous(…)`. Never changed
        # after the move, so copies of the game share it.
        self._last: Journal | Checkpoint | None = None
        self._prev_state: State | None = None   # the state it rebuilds, once built
        # During a playout nobody sees between moves (Game._unjournaled): the state it began
        # from, which undoes a failed move instead of a journal (engine/checkpoint.py).
        self._checkpoint: Checkpoint | None = None
        self._move_ctx: Ctx | None = None   # the contexts _apply and _listed reuse
        self._list_ctx: Ctx | None = None
        # A memo whose indexes the state takes a copy of before its next context (Memo.copied):
        # one this game or the game it was copied from kept, which a copy of either shares
        # until then (see copy).
        self._memo_from = None
        # The canonical JSON of the first moves of `_moves`, written by to_json once each: a
        # saved game holds every move, and the fuzzer writes one several times a step.
        self._move_texts: list[str] = []
        # The state's parts and the game's other keys as to_json last wrote them
        # (state.canonical_parts), one and a half times the text's size; None: not written yet.
        self._json_parts: tuple[dict, dict] | None = None

    # ── creation ──
    @classmethod
    def start(cls, ruleset, players: int, seed: int, narrate: bool = True, options: dict | None = None,
              limits: Limits | None = None, coverage: bool = True) -> "Game":
        starts = getattr(ruleset, "starts", None) if START_COPIES and limits is None else None
        key = _start_key(players, narrate, options, coverage) if starts is not None else None
        begun = None
        if key is not None:
            first = starts.get(key)
            if first is not None:
                return first._reseeded(seed)
            begun = ruleset.setups_begun.get(key, _UNSEEN)
        game, made = cls._prepare(ruleset, players, seed, narrate, options, limits, coverage, begun)
        ctx = game._ctx(game._state)
        advance(ctx)   # the flow up to the first decision: a step of its own, as each move is
        if ctx.steps > game.peak_steps:
            game.peak_steps = ctx.steps
        check_size(ctx, game.model.codes["flow"].span)
        game._size_bound = ctx.size_bound + ctx.added
        if key is not None and game._state.rng == rng.seed_state(seed):
            # Nothing was drawn from the generator (every draw advances it, and it comes back
            # only after 2**64 draws): the setup and the flow up to the first decision read
            # nothing of the seed, so every seed starts here (rng.py).
            _keep(starts, key, game.copy())
        elif made is not None:   # the start draws: its setup's first statements, which do not, are kept
            _keep(ruleset.setups_begun, key, made)
        return game

    def _reseeded(self, seed: int) -> "Game":
        """A copy of this game as started (no move played), its generator seeded with `seed`:
        the game `start` makes with that seed when the start draws nothing."""
        game = self.copy()
        game.seed = seed
        game._state.rng = rng.seed_state(seed)
        return game

    @classmethod
    def prepared(cls, ruleset, players: int, seed: int, narrate: bool = True,
                 options: dict | None = None, limits: Limits | None = None,
                 coverage: bool = True) -> "Game":
        """A game whose setup has run and whose flow has not started (for building positions)."""
        return cls._prepare(ruleset, players, seed, narrate, options, limits, coverage, None)[0]

    @classmethod
    def _prepare(cls, ruleset, players: int, seed: int, narrate: bool, options: dict | None,
                 limits: Limits | None, coverage: bool, begun) -> tuple["Game", "_Begun | None"]:
        """`prepared`, and what `start` may keep of it. `begun`: None, or for a kind of start
        (Game.start) the _Begun its setup resumes from, or _UNSEEN when none was tried yet —
        the setup's statements before its first draw (draws.BEFORE_DRAWS) then run apart, and
        what they made is returned to be kept when they drew nothing (None otherwise)."""
        model = ruleset.model
        made = None
        if type(begun) is _Begun:
            game, ctx, frame = begun.resumed(seed)
            state, tables_bound, grown = game._state, begun.tables_bound, begun.grown
        else:
            game, ctx, tables_bound, grown = cls._before_setup(ruleset, players, seed, narrate, options,
                                                               limits, coverage)
            state = game._state
            frame = ["setup", 0, {}]
            if begun is _UNSEEN and BEFORE_DRAWS in model.codes:
                first = [BEFORE_DRAWS, 0, {}]
                signal = run_stack(ctx, [first])
                if signal != "done":   # it ended the game, or stopped as the whole setup would
                    frame = None
                    ended = signal == "end"
                else:   # on from where it stopped, as the whole setup goes on
                    frame = ["setup", first[1], first[2]]
                    if state.rng == rng.seed_state(seed):   # drew nothing: what every seed makes
                        made = _Begun(game.copy(), ctx, frame, tables_bound, grown)
                        if game._memo_from is not None:   # the copy's memo is written no more
                            game._own_memo()
        if frame is not None:
            ended = run_stack(ctx, [frame]) == "end"
        # The tables the setup wrote are no longer written in place: the first write after
        # it copies the table, so that one no move writes keeps its index (State.cells_with).
        state._owned_tables = set()
        game.peak_steps = ctx.steps
        # The pieces the setup created are counted in ctx.added; the variables' first values
        # were never stored through Ctx.fit, so they are measured once here. A table, as it
        # was made: what every value the setup stored since adds is in ctx.added too (Ctx.fit),
        # and every cell counts one at least, what a number becoming a truth value or none
        # adds (tables of an open grid, whose cells come into use, are measured).
        if grown:
            tables_bound = size_of(state.tables)
        ctx.size_bound = size_of(state.vars) + size_of(state.pvars) + tables_bound + size_of(state.grids)
        check_size(ctx, model.codes["setup"].span)
        game._size_bound = ctx.size_bound + ctx.added
        state.flow = {"main": [] if ended else [["flow", 0, {}]], "threads": None}
        return game, made

    @classmethod
    def _before_setup(cls, ruleset, players: int, seed: int, narrate: bool, options: dict | None,
                      limits: Limits | None, coverage: bool) -> tuple["Game", Ctx, int, bool]:
        """(a new game with its options, variables, tables and zones, the context its setup
        runs in, the bound on its tables' size, whether an open grid's tables grow)."""
        model = ruleset.model
        state = State()
        state.rng = rng.seed_state(seed)
        game = cls(ruleset, players, seed, state, [], {} if coverage else None, [], narrate, limits)
        ctx = game._ctx(state)
        _set_options(ctx, model, dict(options or {}), players)
        for name, init in model.globals.items():
            state.vars[name] = init(ctx, {})
        state.pvars = [{name: init(ctx, {"player": p}) for name, init in model.player_vars.items()}
                       for p in range(players)]
        state.grids = {board: {"cells": [], "start": {}} for board in model.grids}
        grown = any(table.open for table in model.tables.values())   # (see _prepare)
        tables_bound = 1
        for table in model.tables.values():
            start = table.init(ctx, {})
            state.tables[table.name] = Table(table.name, dict.fromkeys(table.keys, start))
            if table.open:   # an open grid's cells get it as they come into use
                state.grids[table.index]["start"][table.name] = start
            elif not grown:
                tables_bound += _table_bound(table, start)
        # Every zone, in the order of the families and their keys, starts as one empty list
        # that the state does not own: the first piece into a zone gives it a list of its own
        # (State.writable, as after a copy), so a zone per cell of a board, most of which stay
        # empty, costs no list of its own (816 lists for a board of 400 cells with two such
        # families were a seventh of a setup).
        empty: list = []
        state.zones = dict.fromkeys([key for fam in model.zones.values() for index, key in fam.keys.items()
                                     if fam.index != "player" or index < players], empty)
        state._owned = set()
        return game, ctx, tables_bound, grown

    def _ctx(self, state: State) -> Ctx:
        """A context to evaluate or run in. Its bound on the state's size is the one known:
        only a move measures a game read from JSON (`_apply`, `_bound`), since only a move
        checks the size (`check_size`); `start` follows `prepared`, which knows it."""
        if state is self._state and self._memo_from is not None:
            self._own_memo()
        ctx = Ctx(self.model, state, self.players, self.hits, self.events, self.narrate, self.limits)
        ctx.size_bound = self._size_bound or 0
        return ctx

    def _edited(self) -> None:
        """The state was edited in place, not by a move (regnum.testing, the fuzzer's copy with
        its secrets changed): forget what the game knew of the position — the listings and
        moves handed out, the kept values, and a memo it shares since a copy."""
        self._cache = {}
        self._state.memo = memo.EMPTY
        self._memo_from = None

    def _own_memo(self) -> None:
        """Before the state's first context since a copy: its memo becomes a copy of the indexes
        of the memo it shared (its own, or its original's), which neither game writes since."""
        shared, self._memo_from = self._memo_from, None
        if self._state.memo is shared or self._state.memo is memo.EMPTY:
            self._state.memo = shared.copied()

    def _bound(self, state: State) -> int:
        bound = self._size_bound
        if bound is None and (state.pieces or state.vars):
            bound = self._size_bound = state_size(state)   # a game read from JSON: measured once
        return bound or 0

    def _listing_ctx(self) -> Ctx:
        """The context kept for listings, ready for one. A listing only evaluates expressions,
        which push no frame, fire no trigger, rank nobody and journal no write, so of what
        Ctx.reset clears only the counters can differ from what the last listing left."""
        state = self._state
        ctx = self._list_ctx
        if ctx is None or ctx.state is not state or ctx.limits is not self.limits:
            if self._memo_from is not None:
                self._own_memo()
            ctx = self._list_ctx = Ctx(self.model, state, self.players, self.hits, self.events,
                                       self.narrate, self.limits)
        # A listing stores nothing and never checks the state's size: its context needs no
        # bound on it (measuring one is a walk of the whole state, for a game read from JSON).
        ctx.hits, ctx.events, ctx.narrate = self.hits, self.events, self.narrate
        ctx.steps = ctx.added = 0
        ctx.choices = ctx.listed = None   # a listing that failed may have left them
        return ctx

    def _waiting(self) -> dict:
        """{seat: the stack that waits for their decision}, scanned once per position."""
        seats = self._cache.get("waiting")
        if seats is None:
            seats = self._cache["waiting"] = waiting_seats(self._state.flow)
        return seats

    # ── reading ──
    @property
    def to_move(self) -> list[int]:
        return list(self._to_move())

    def _to_move(self) -> list[int]:
        """The seats to move, in order: the list kept for this position (never change it)."""
        seats = self._cache.get("to_move")
        if seats is None:
            seats = self._cache["to_move"] = sorted(self._waiting())
        return seats

    @property
    def is_over(self) -> bool:
        flow = self._state.flow
        return not flow["main"] and flow["threads"] is None

    @property
    def scores(self) -> list[int]:
        return [row["score"] for row in self._state.pvars]

    @property
    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        ctx = self._ctx(self._state)
        var = self.model.winner_var
        best: list = []
        best_key = None
        for p in range(self.players):
            with guarded(self.model.winner_span, "while deciding the winner"):
                key = tuple(scoring.best_first(fn(ctx, {var: p}), order)
                            for order, fn in self.model.winner_keys)
            if best_key is None or key > best_key:
                best, best_key = [p], key
            elif key == best_key:
                best.append(p)
        return best

    @property
    def options(self) -> dict:
        """The options this game was created with (every option of the ruleset, by name)."""
        return {name: self._state.vars[name] for name in self.model.options}

    @property
    def move_count(self) -> int:
        return len(self._moves)

    @property
    def state(self) -> State:
        """The raw state (read it, never change it)."""
        return self._state

    @property
    def log(self) -> Log:
        """The full record of the game (seed and every move): it sees everything, so hand a
        seat `log_for(seat)` instead."""
        from ..log import LOG_FORMAT, Log, LogMove, LogResult   # the models, built on first use
        result = LogResult(scores=self.scores, winners=self.winners) if self.is_over else None
        return Log(format=LOG_FORMAT, ruleset=self.model.name, ruleset_hash=self.model.hash,
                   variant=self.model.variant, players=self.players, seed=self.seed, options=self.options,
                   moves=[LogMove(player=m.player, action=m.action, args=m.args) for m in self._moves],
                   result=result)

    def failed_log(self, error: BaseException) -> Log:
        """The log of this game as it failed with `error`, so that `regnum replay` reproduces
        the failure: a RulesetError raised by `play` (its move, which the game refused, is
        the log's last), one raised while listing moves, `regnum.failures.InvariantBroken` or
        `regnum.agents.StuckGame`; the `failure` field says what went wrong and where
        (docs/log-format.md). ValueError for any other error, which is not the game's."""
        from ..failures import failed_log
        return failed_log(self, error)

    def log_for(self, seat: int) -> Log:
        """The log as seat `seat` lived the game, safe to hand to that seat: no seed (it would
        let them recompute every hidden shuffle and draw), each move that was secret from them
        when it was made (`is_secret`) reduced to its player, and their observation at the end
        as `view`. It cannot be replayed move by move; `log` is the full record."""
        from ..log import Log, LogMove
        self._seat(seat)
        # Whether a move was secret depends on the state it was made in: replay the game,
        # without narration (nobody reads it).
        again = self.ruleset.new_game(self.players, self.seed, narrate=False, options=self.options)
        moves = []
        for move in self._moves:
            if again.is_secret(move, seat):
                moves.append(LogMove(player=move.player, hidden=True))
            else:
                moves.append(LogMove(player=move.player, action=move.action, args=move.args))
            again.play(move)
        full = self.log
        return Log(ruleset=full.ruleset, ruleset_hash=full.ruleset_hash, variant=full.variant,
                   players=full.players, seed=None, options=full.options, moves=moves,
                   result=full.result, seat=seat, view=self.observation(seat))

    def _listed(self, player: int) -> list:
        """[(action, [(args, env), …]), …]: the legal moves of `player`, by action asked for,
        listed once per position (kept under the seat's number: the cache's other keys are
        texts and pairs) by `_play_nth(player, None)`, as dicts (`_flat_listed` as tuples)."""
        cached = self._cache.get(player)
        return cached if cached is not None else self._play_nth(player, None)

    def _flat_listed(self, player: int) -> list:
        """[(action, [move, …]), …]: `_listed` with each move the flat tuple the listing makes
        (decisions.move_shape), kept under ~seat (a negative number: no other key is one)."""
        cached = self._cache.get(~player)
        return cached if cached is not None else self._list(player)

    def _nth_listed(self, player: int, i: int) -> tuple:
        """(action, move) of the i-th legal move of `player`, as _candidates orders them."""
        for name, found in self._flat_listed(player):
            if i < len(found):
                return name, found[i]
            i -= len(found)
        raise IndexError(i)

    def _candidates(self, player: int) -> list:
        """(action, args, env) of each legal move of `player`, in order."""
        cached = self._cache.get(("moves", player))
        if cached is None:
            cached = self._cache[("moves", player)] = [
                (name, args, env) for name, found in self._listed(player) for args, env in found]
        return cached

    def legal_moves(self, player: int = _NO_SEAT) -> list[Move]:
        """The moves seat `player` may make now ([] when it is not asked): the safe surface
        for a seat's agent, as it shows nothing that seat may not know. The seat is required
        because the moves of another seat can betray its secrets (what is left in its hand
        after a secret pick); all_legal_moves() is the call that sees every seat."""
        if player is _NO_SEAT or player is None:  # None once meant every seat: say so, not "bad seat"
            raise TypeError("legal_moves() needs a seat: legal_moves(seat) lists what that seat may do "
                            "and shows nothing it may not see; all_legal_moves() lists the moves of "
                            "every seat to move and sees everything (for referees, simulations and tests)")
        self._seat(player)
        return list(self._legal(player))

    def all_legal_moves(self) -> list[Move]:
        """Every legal move of every seat to move, in seat order. It sees everything: the
        moves of one seat can betray that seat's secrets, so never show the list to a player
        (use legal_moves(seat)); it is for referees, simulations and tests."""
        return [move for p in self.to_move for move in self._legal(p)]

    def _legal(self, player: int) -> list:
        """The legal moves of `player` as Move values made once per position: `play` of a
        move handed out here finds it by identity instead of comparing it with every
        candidate. Each move gets its own copy of the arguments, so a caller changing one
        cannot change what is played."""
        moves = self._cache.get(("legal", player))
        if moves is None:
            actions = self.model.actions   # each Move's arguments made afresh from its tuple
            moves = self._cache[("legal", player)] = [
                made_move(player, name, decisions.move_args(actions[name], m))
                for name, found in self._flat_listed(player) for m in found]
        return moves

    # ── playing ──
    def play(self, move: Move) -> None:
        """Apply a legal move, or raise IllegalMove naming the rule; the state is then unchanged.

        A RulesetError (a fault of the rules, a limit hit) leaves the state unchanged too and
        carries the move as `error.move`, so that `failed_log(error)` can record it."""
        if not isinstance(move, Move):
            raise TypeError("play() takes a regnum.Move")
        try:
            self._play(move)
        except RulesetError as err:
            err.move = move
            raise

    def _play_nth(self, player: int, pick) -> Move | None:
        """What `play(legal_moves(player)[pick(n)])` does, n being the number of legal moves of
        `player` (a seat to move), without making a Move of every legal move: the one played,
        which is returned; None, with nothing played and `pick` not called, when there is no
        legal move. For play_random_game, whose agents only pick an index. `pick` None lists
        only, and returns the listing as dicts (for _listed)."""
        cache = self._cache
        out = cache.get(~player)
        if out is None:
            out = self._list(player)
        if pick is None:
            listed = cache.get(player)
            if listed is None:
                actions = self.model.actions
                listed = cache[player] = [(name, decisions._pairs(actions[name], player, found))
                                          for name, found in out]
            return listed
        if len(out) == 1:   # one action asked for (the usual case)
            name, found = out[0]
            if not found:
                return None
            listed = found[pick(len(found))]
        else:   # the i-th of the moves of every action, in order, as _candidates lists them
            n = 0
            for _, found in out:
                n += len(found)
            if not n:
                return None
            i = pick(n)
            for name, found in out:
                if i < len(found):
                    break
                i -= len(found)
            listed = found[i]
        move = made_move(player, name, decisions.move_args(self.model.actions[name], listed))
        try:
            self._apply(move, listed)
        except RulesetError as err:
            err.move = move
            raise
        return move

    def _list(self, player: int) -> list:
        """The listing `_flat_listed` keeps, made (once per position): the moves of each action
        `player` is asked for, as tuples.

        Written out here, where a random playout makes it: the calls of _waiting,
        _listing_ctx and, for an action with a generated lister and no prefer,
        decisions.listed with it."""
        cache = self._cache
        seats = cache.get("waiting")
        if seats is None:
            seats = cache["waiting"] = waiting_seats(self._state.flow)
        stack = seats.get(player)
        out = []
        if stack is not None:
            ctx = self._list_ctx
            state = self._state
            if ctx is None or ctx.state is not state or ctx.limits is not self.limits:
                ctx = self._listing_ctx()
            else:   # _listing_ctx(), for the context it keeps
                ctx.hits, ctx.events, ctx.narrate = self.hits, self.events, self.narrate
                ctx.steps = ctx.added = 0
            actions = self.model.actions
            kept = cache.get("kept")
            asked = stack[-1][2]["$actions"]
            listed = None
            several = len(asked) > 1
            if several:
                # Several actions may choose from the same zone: its choices made once
                # (Ctx.choices); and one may ask whether another has a move (Ctx.asked,
                # Ctx.listed): those the last such listing asked about are noted. (A listing
                # of one action leaves both None, as every listing leaves them.)
                noted, ctx.asked = ctx.asked, None
                ctx.choices = ()
                if noted is not None and ctx.hits is None and decisions.CANS_FROM_LISTING:
                    listed = ctx.listed = {}
            for name in asked:
                action = actions[name]
                try:
                    lister = action.lister
                    whole = kept.get((player, name)) if kept is not None else None
                    if whole is not None and ctx.steps + whole[1] <= ctx.max_steps:
                        # Listed whole by the `can` before the ask, with the steps it charged
                        # (decisions.exists); past the step limit, listed again to fail there.
                        found, steps, narrowed = whole
                        ctx.steps += steps
                        if action.prefers and not narrowed:
                            found = decisions.preferred(ctx, action, player, found)
                        elif listed is not None and name in noted and not action.prefers:
                            first = cache.get("kept_firsts", {}).get((player, name), _UNNOTED)
                            if first is not _UNNOTED:
                                listed[player, name] = (True, first) if found else (False, steps)
                    elif lister is None or action.prefers:
                        found = decisions.listed(ctx, action, player)
                    elif listed is None or name not in noted:   # decisions.listed, written out
                        hits = {} if ctx.hits is not None else None
                        try:
                            found = lister(ctx, player, hits, False)
                        except _FAULTS:
                            found = decisions._flat(action, decisions._enumerate_plainly(ctx, action, player, True, False))
                        else:
                            if hits:
                                decisions._add_hits(ctx, hits)
                    else:   # the same, noting the steps to its first move (decisions._exists_keeping)
                        found = decisions.listed_noting(ctx, action, player, listed)
                except BaseException as err:   # located as guarded() does, only when it failed
                    ctx.choices = ctx.listed = None
                    with guarded(action.span, f"while listing the moves of '{name}'"):
                        raise err
                out.append((name, found))
            if several:
                ctx.choices = ctx.listed = None
            if ctx.steps > self.peak_steps:
                self.peak_steps = ctx.steps
        cache[~player] = out
        return out

    def _play(self, move: Move) -> None:
        known = self._cache.get(("legal", move.player)) if type(move.player) is int else None
        if known is not None:
            for i, handed in enumerate(known):
                if handed is move:
                    name, listed = self._nth_listed(move.player, i)
                    args = decisions.move_args(self.model.actions[name], listed)
                    if _same(move.args, args):
                        # As handed out: its shape and legality are known. The game keeps a
                        # move of its own (the caller's may change after; the log may not).
                        self._apply(made_move(move.player, move.action, args), listed)
                        return
                    break
        _check_shape(move)
        stack = self._waiting().get(move.player)
        if stack is None:
            waiting = ", ".join(f"P{p}" for p in self.to_move) or "nobody (the game is over)"
            raise IllegalMove(move, f"P{move.player} is not to move; waiting for {waiting}", "flow",
                              self._asking_at(None))
        allowed = stack[-1][2]["$actions"]
        if move.action not in allowed:
            raise IllegalMove(move, f"'{move.action}' is not possible now; P{move.player} may "
                              f"{' or '.join(allowed)}", "flow", self._asking_at(stack))
        action = self.model.actions[move.action]
        found = self._find_listed(move.player, move.action, move.args)
        if found is None:
            ctx = self._ctx(self._state)
            with guarded(action.span, f"while checking a move of '{move.action}'"):
                refusal = decisions.explain(ctx, action, move)
            raise refusal
        chosen, args = found
        if not _same(args, move.args):
            raise _not_same(move, args, action)
        self._apply(made_move(move.player, move.action, args), chosen)

    def _find_listed(self, player: int, name: str, args: dict) -> tuple | None:
        """(the listed tuple, its arguments) of the first legal move of `player` that is action
        `name` with arguments equal to `args` (by Python's `==`, as a dict compares), or None.
        Read from the listing as tuples, for a move played once: only the moves of that action
        are made into arguments, and no move into the env its body would run with."""
        for listed_name, found in self._flat_listed(player):
            if listed_name == name:
                action = self.model.actions[listed_name]
                for listed in found:
                    made = decisions.move_args(action, listed)
                    if made == args:
                        return listed, made
        return None

    def _apply(self, move: Move, listed: tuple) -> None:
        """Play `move`, whose listed tuple (decisions.move_shape) is `listed`: a native body is
        called with its values, a body run by the VM gets the env made of them."""
        state = self._state
        flow = state.flow
        cache = self._cache
        seats = cache.get("waiting")
        if seats is None:
            seats = cache["waiting"] = waiting_seats(flow)
        player = move.player
        stack = seats[player]
        threads = flow["threads"]
        # Every stack of the flow waits, one seat each: the main stack, or every thread.
        every = threads is None or len(seats) == len(threads)
        checkpoint = self._checkpoint
        if checkpoint is None:
            journal = Journal(state, stack)
            undo = journal.entries
        else:   # a playout nobody sees between moves: a fault is undone by the checkpoint
            journal = UNJOURNALED
            undo = checkpoint.writes
            undo.clear()
        events = self.events
        events_before = len(events)
        # What this move counts, added to self.hits once it succeeded (None: no coverage).
        hits: dict | None = {} if self.hits is not None else None
        ctx = self._move_ctx
        if ctx is None or ctx.state is not state or ctx.limits is not self.limits:
            if self._memo_from is not None:
                self._own_memo()
            ctx = self._move_ctx = Ctx(self.model, state, self.players, hits, events, self.narrate,
                                       self.limits)
        # Else the context the last move left, which succeeded (a failed one drops it): it
        # pushed no frame outside the stacks it ran, left no trigger pending and read no
        # earlier state, so of what a new Ctx holds only these can differ.
        bound = self._size_bound
        ctx.size_bound = bound if bound is not None else self._bound(state)
        ctx.hits, ctx.events, ctx.narrate = hits, events, self.narrate
        ctx.steps = ctx.added = 0
        ctx.last_ranking = None
        if ctx.fired or ctx.deferred:   # never after a move that succeeded, as things stand
            ctx.fired, ctx.deferred = [], []
        ctx.undo = undo
        ctx.frames = journal
        try:
            frame = stack[-1]
            if checkpoint is None:
                local = dict(frame[2])   # the frame, copied on write as run_stack does
                del local["$asked"], local["$actions"]
                stack[-1] = [frame[0], frame[1] + 1, local]
            else:   # no journal holds it
                local = frame[2]
                del local["$asked"], local["$actions"]
                frame[1] += 1
            action = self.model.actions[move.action]
            ctx.stack = stack
            ctx.move_base = len(stack)   # the action's frame goes here; `after the move` triggers under it
            if action.native is None:
                ctx.push(action.body, decisions.move_env(action, player, listed))
            else:   # counts itself in ctx.hits, as a pushed body would
                shape = action.shape or decisions.move_shape(action)
                if not shape[3]:   # a repeated name, or one named `player`: read from the env
                    run_native(ctx, action, decisions.move_env(action, player, listed))
                else:
                    run_native_with(ctx, action, player, listed if shape[1] is None else listed[:shape[2]])
            # On top now: the answered frame or what the action pushed, all made by this move.
            signal = run_stack(ctx, stack, stack[-1])
            ctx.move_base = None   # what the flow does next is no part of this move
            if signal == ASK and every and flow["threads"] is threads and "$asked" in stack[-1][2]:
                # The stack asks again and every other stack of the flow waited already,
                # untouched: advance has nothing to run.
                asked = stack[-1][2]["$asked"]
                ctx.settled = True
            else:
                asked = None
                if signal == "end":
                    flow["main"] = []
                    flow["threads"] = None
            advance(ctx)
            check_size(ctx, action.span)
            size_bound = ctx.size_bound + ctx.added
        except BaseException:
            ctx.undo = ctx.frames = None
            self._move_ctx = None   # whatever the failure left in it
            if checkpoint is None:
                journal.rollback(state)
            else:
                checkpoint.restore(self)
            del events[events_before:]
            cache.pop("waiting", None)   # the main stack is a new list (the moves listed stand)
            raise
        # The journal is the move's: nothing may write to it now (the context is used by moves only).
        ctx.undo = ctx.frames = None
        if checkpoint is None:
            journal.frames = None   # what is kept is what previous(…) needs
        state.moves += 1
        self._size_bound = size_bound
        if ctx.steps > self.peak_steps:
            self.peak_steps = ctx.steps
        if hits:
            total = self.hits
            for key, n in hits.items():
                total[key] = total.get(key, 0) + n
        self._last = journal if checkpoint is None else checkpoint   # what rebuilds the state before the move
        self._prev_state = None
        self._moves.append(move)
        # The position's caches: who waits is known without a scan when the flow's stacks all
        # waited and the one that ran asks again, the seat it asked before (threads) or any
        # seat (the main stack, the only one), or when its thread ended and the others wait
        # on (advance only dropped it).
        if asked is None:
            if signal == "done" and every and threads is not None and flow["threads"] is threads \
                    and len(threads) == len(seats) - 1:
                seats = dict(seats)
                del seats[player]
                order = cache.get("to_move")
                if order is None:
                    self._cache = {"waiting": seats}
                else:
                    order = order[:]
                    order.remove(player)
                    self._cache = {"waiting": seats, "to_move": order}
            else:
                self._cache = {}
        elif threads is None:
            self._cache = {"waiting": {asked: stack}, "to_move": [asked]}
        elif asked == player:
            self._cache = {"waiting": seats, "to_move": cache["to_move"]} if "to_move" in cache \
                else {"waiting": seats}
        else:
            self._cache = {}
        if ctx.kept is not None:
            self._keep_listings(ctx, len(undo))

    def _keep_listings(self, ctx: Ctx, written: int) -> None:
        """The listings a `can` made whole during the move that ended (decisions.exists), kept
        for `_list` when no write came after them: they are this position's. (Not written
        out in _apply: a comprehension there would make its locals cells at every move.)"""
        kept = {key: (entry[0], entry[1], entry[3]) for key, entry in ctx.kept.items() if entry[2] == written}
        if kept:
            self._cache["kept"] = kept
            listing = self._list_ctx
            if listing is not None and listing.asked:   # the steps to each first move, for a `can` of the ask's listing
                self._cache["kept_firsts"] = {key: entry[4] for key, entry in ctx.kept.items()
                                              if entry[2] == written}
        ctx.kept = None

    def _asking_at(self, stack) -> str:
        """Where the flow stands: the `ask` the game waits at (or the flow, once it is over)."""
        flow = self._state.flow
        stacks = [stack] if stack is not None else [flow["main"]] + [t["stack"] for t in flow["threads"] or ()]
        for candidate in stacks:
            if candidate and "$asked" in candidate[-1][2]:
                name, pc, _ = candidate[-1]
                return str(self.model.codes[name].spans[pc])
        return str(self.model.codes["flow"].span)

    @contextmanager
    def _unjournaled(self):
        """The moves made within journal nothing: a fault is undone, and `previous(…)` after
        rebuilt, from the state the run began from (engine/checkpoint.py). For a playout
        nobody sees between two moves: play_random_game without `after_move`."""
        self._checkpoint = Checkpoint(self)
        try:
            yield
        finally:
            self._checkpoint = None

    def play_many(self, moves) -> None:
        for move in moves:
            self.play(move)

    # ── copies and serialisation ──
    def copy(self) -> "Game":
        game = Game(self.ruleset, self.players, self.seed, self._state.copy(), list(self._moves),
                    dict(self.hits) if self.hits is not None else None, list(self.events),
                    self.narrate, self.limits)
        game._size_bound = self._size_bound
        game.peak_steps = self.peak_steps   # the same game so far: its steps too
        if self._last is not None:   # never written again once whole, so shared safely
            self._last.freeze()
        game._last = self._last
        game._prev_state = self._prev_state
        game._move_texts = self._move_texts[:]
        if self._json_parts is not None:
            game._json_parts = (dict(self._json_parts[0]), dict(self._json_parts[1]))
        if self._cache:
            game._cache = _inherited(self._cache)
        # The indexes of the state's kept values hold in the copy too, and cost a search of the
        # whole board to make again: the copy takes a copy of them at its first context, of
        # this game's memo, which this game no longer writes either (it takes a copy too).
        if self._memo_from is not None:   # not taken yet: the copy shares the same
            game._memo_from = self._memo_from
        elif self._state.memo.indexes:
            game._memo_from = self._memo_from = self._state.memo
            self._move_ctx = self._list_ctx = None
        return game

    def to_dict(self) -> dict:
        return {"format": STATE_FORMAT, **self._about(), "moves": [m.to_dict() for m in self._moves],
                "state": self._state.to_dict()}

    def _about(self) -> dict:
        """What a saved game says of itself besides its format, moves and state (to_dict)."""
        return {
            "ruleset": self.model.name,
            "ruleset_hash": self.model.hash,
            "variant": self.model.variant,
            "players": self.players,
            "seed": self.seed,
        }

    def to_json(self) -> str:
        """`canonical_json(self.to_dict())`, written in parts: the keys in their sorted order
        ("format" and "moves" come first), each move's text written once and kept."""
        texts, moves = self._move_texts, self._moves   # moves are only ever added
        for move in moves[len(texts):]:
            texts.append(_move_text(move))
        kept = self._json_parts
        if kept is None:   # the game's first text, written without keeping its parts (a game
            kept = (None, None)   # read back is often written once); the next one keeps them
            self._json_parts = ({}, {})
        if kept[0] is None:
            state = canonical_parts(self._state.to_dict(), None)
        else:   # each part kept by the part as the state holds it
            state = state_text(self._state, kept[0])
        rest = canonical_parts({**self._about(), "state": None}, kept[1], {"state": state})   # every key sorts after "moves"
        return f'{{"format":{canonical_json(STATE_FORMAT)},"moves":[{",".join(texts)}],{rest[1:]}'

    def keep_texts_in(self, store: tuple[dict, dict]) -> None:
        """Keep the texts of this game's parts in `store` (the state's parts, the other keys),
        which other games use too: the fuzzer reads a game back at every step, and its games
        read back, one a step, have most parts alike. A part's text is taken from the store
        only for the very marshal bytes it was written from, so to_json writes what it would
        without it."""
        self._json_parts = store

    def __eq__(self, other) -> bool:
        """Same ruleset, seats and state — however the moves that led there were ordered."""
        return (isinstance(other, Game) and self.model.hash == other.model.hash
                and self.players == other.players
                and canonical_json(self._state.to_dict()) == canonical_json(other._state.to_dict()))

    __hash__ = None

    # ── views ──
    def _seat(self, player) -> int:
        if type(player) is not int or not 0 <= player < self.players:
            raise ValueError(f"seats of this game are 0–{self.players - 1}, not {player!r}")
        return player

    def observation(self, player: int | None) -> dict:
        """What seat `player` may see, hidden information removed: with legal_moves(seat) the
        safe surface to hand a seat's agent. None is a spectator, who sees only what is public
        (never more than any seat); the whole state is `to_json()`, which sees everything."""
        return observe.observation(self, None if player is None else self._seat(player))

    def render(self, player: int | None = None) -> str:
        """The game as seat `player` sees it, as text (None: a spectator's view)."""
        from .. import render
        return render.plain(render.render(self, None if player is None else self._seat(player)))

    def render_rich(self, player: int | None = None):
        """The same view as a rich Text, with colours (for terminals)."""
        from .. import render
        return render.render(self, None if player is None else self._seat(player))

    def describe(self, move: Move) -> str:
        """How a move reads to players: the action's `label`, filled in (else `action value …`)."""
        from .. import render
        return render.describe_move(self, move, self._env_of(move))

    def _env_of(self, move: Move) -> dict | None:
        """The environment of a legal move (its parameters' values), None for another move."""
        if not (type(move.player) is int and 0 <= move.player < self.players):
            return None
        # The (action, args, env) of every legal move, made once per position: describing every
        # legal move (`regnum play`) asks for each one's.
        return next((e for name, args, e in self._candidates(move.player)
                     if name == move.action and args == move.args), None)

    def is_secret(self, move: Move, viewer: int | None) -> bool:
        """Whether naming `move` (before it is played) could tell `viewer` what they may not
        know: a choice made during a simultaneous step, a move whose effect changes a secret
        zone or variable, or one that names a piece the viewer cannot see. Then only the
        fact that a choice was made may be shown."""
        if viewer is not None and viewer == move.player:
            return False
        env = self._env_of(move)
        action = self.model.actions.get(move.action)
        if env is None or action is None or action.secret or self._state.flow["threads"] is not None:
            return True
        for param in action.params:
            piece = env.get(param.name)
            if param.encode_pieces and type(piece) is int and not observe.can_see(self, piece, viewer):
                return True
        return False

    def blocked(self, player: int) -> list[tuple[str, str]]:
        """The actions `player` is asked for but cannot take now because a `require` that
        reads none of their choices holds them back, each with that rule's message."""
        stack = self._waiting().get(self._seat(player))
        if stack is None:
            return []
        ctx = self._ctx(self._state)
        possible = {name for name, _, _ in self._candidates(player)}
        out = []
        for name in stack[-1][2]["$actions"]:
            if name in possible:
                continue
            for clause in self.model.actions[name].first:
                with guarded(clause.span, f"while explaining '{name}'"):
                    holds = clause.cond(ctx, {"player": player})
                if not holds:
                    out.append((name, clause.message))
                    break
        return out

    def evaluate(self, expression: str):
        """The value of a regnum expression in this game's present state — `strength(0)`,
        `count(supply(1))`, `height("(3,4)")` — for tests, tools and debugging. It is checked
        against the ruleset like any expression (RulesetError with a located diagnostic) and
        changes nothing. Seats are numbers, pieces their ids in `game.state.pieces`."""
        from ..build import build_expression
        from ..check import check_expression
        from ..compiler.expressions import CompileError
        from ..diagnostics import Diagnostic, RulesetError
        node = build_expression(expression, limits=self.limits)
        errors = [d for d in check_expression(self.ruleset.program, node) if d.is_error]
        if errors:
            raise RulesetError(errors)
        if _has_random(node):
            raise RulesetError([Diagnostic("E001", "error", "an evaluated expression cannot draw at random",
                                           node.span)])
        try:
            fn = self.model.expressions.expr(node, {})
        except CompileError as err:
            raise RulesetError([Diagnostic(err.code, "error", str(err), err.span)]) from None
        with guarded(node.span, "while evaluating an expression"):
            return fn(self._ctx(self._state.copy()), {})

    def check_invariants(self) -> list[str]:
        """The messages of every ruleset invariant that does not hold now. `previous(e)` in an
        invariant is e in the state before the last move (the present state before any move,
        or in a game loaded from JSON)."""
        ctx = self._ctx(self._state)
        if self._last is None:
            ctx.earlier = ctx
        else:   # rebuilt only if an invariant reads previous(…), once per position
            ctx.earlier_fn = lambda: self._ctx(self._previous())
        failed = []
        for inv in self.model.invariants:
            with guarded(inv.span, f"while checking invariant '{inv.name}'"):
                holds = inv.cond(ctx, {})
            if not holds:
                failed.append(f"{inv.name}: {inv.message} ({inv.span})")
        return failed

    def statistics(self) -> dict:
        """{name: value} of the ruleset's `statistic` declarations, read now (usually once the
        game is over). They see the whole state, as invariants do: for simulations and
        `regnum compare`, never for a player's eyes. A statistic that fails is a RuntimeFault
        located at its declaration."""
        ctx = self._ctx(self._state)
        out = {}
        for stat in self.model.statistics:
            with guarded(stat.span, f"while reading statistic '{stat.name}'"):
                value = stat.value(ctx, {})
            out[stat.name] = value
        return out

    def _previous(self) -> State:
        """The state before the last move accepted, rebuilt from its journal, or played again
        from its checkpoint (once)."""
        if self._prev_state is None:
            last = self._last
            self._prev_state = last.before_last(self) if type(last) is Checkpoint else last.before(self._state)
        return self._prev_state

    def _keep_previous(self) -> None:
        """The state is about to be changed outside a move (regnum.testing edits a position):
        rebuild the state before the last move now, while the journal leads to it from the
        present, so that `previous(…)` still reads that state and not the edited one."""
        if self._last is not None:
            self._previous()


def _has_random(node) -> bool:
    from .. import ast
    if isinstance(node, ast.RandomExpr):
        return True
    if isinstance(node, tuple):
        return any(_has_random(x) for x in node)
    return hasattr(node, "__dataclass_fields__") and any(
        _has_random(getattr(node, f)) for f in node.__dataclass_fields__ if f != "span")


class OptionError(ValueError):
    """Options that the ruleset does not accept: names the option and the reason."""


def _set_options(ctx, model, given: dict, players: int) -> None:
    """Every option of the ruleset into the state: the value given, else its default; each
    checked against its type and its `require` clauses."""
    from ..diagnostics import did_you_mean
    unknown = sorted(set(given) - set(model.options))
    if unknown:
        known = sorted(model.options)
        hint = did_you_mean(unknown[0], known)
        raise OptionError(f"{model.title} has no option '{unknown[0]}'"
                          + (f"; {hint}" if hint else f" (options: {', '.join(known) or 'none'})"))
    state = ctx.state
    for name, spec in model.options.items():
        if name in given:
            why = spec.check(given[name], players)
            if why is not None:
                raise OptionError(f"option '{name}' ({spec.type}): {why}")
            state.vars[name] = given[name]
        else:
            with guarded(spec.span, f"while computing the default of option '{name}'"):
                state.vars[name] = spec.default(ctx, {})
    for name, spec in model.options.items():
        for clause in spec.requires:
            with guarded(clause.span, f"while checking option '{name}'"):
                holds = clause.cond(ctx, {})
            if not holds:
                raise OptionError(f"option '{name}' = {_show(state.vars[name])}: {clause.message} "
                                  f"(rule '{name}.{clause.name}' at {clause.span})")


def _show(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _check_shape(move: Move) -> None:
    """A move must be made of JSON values of the right kinds before the rules are asked."""
    if type(move.player) is not int:
        raise IllegalMove(move, f"'player' must be a seat number, not {move.player!r}", "move.player")
    if not isinstance(move.action, str):
        raise IllegalMove(move, f"'action' must be an action name, not {move.action!r}", "move.action")
    if not isinstance(move.args, dict) or not all(isinstance(k, str) for k in move.args):
        raise IllegalMove(move, f"'args' must be an object of named arguments, not {move.args!r}",
                          "move.args")
    for name, value in move.args.items():
        if type(value) not in PLAIN_TYPES:
            try:
                json_value(value, (name,))
            except BadValue as err:
                raise IllegalMove(move, f"argument '{field_path(err.where)}': {err.reason}",
                                  f"move.args.{name}") from None


def _inherited(cache: dict) -> dict:
    """What a copy's position cache starts with, made of its original's: the copy stands in
    the same position. A search copies a game to try a move it was handed there, and the copy
    finds that move as handed out (the Moves, who is to move) and its listing as listed (kept,
    as a `can` keeps one: decisions.exists), instead of listing again. The copy's own listing
    context still reads them (Game._list), charging no steps: its peak counts them already.
    Not who waits: it holds the original's own stacks."""
    out = {}
    kept = dict(cache.get("kept") or ())
    for key, value in cache.items():
        if type(key) is int and key < 0:   # ~seat: that seat's listing, as tuples, prefers applied
            for name, found in value:
                kept[~key, name] = (found, 0, True)
        elif key == "to_move" or (type(key) is tuple and key[0] == "legal"):
            out[key] = value
    if kept:
        out["kept"] = kept
    return out


def _same(a, b) -> bool:
    """Equal and of the same JSON types all the way down: Python finds True == 1 and 2.0 == 2,
    a game must not (the move would be written back as `true`, not `1`)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _not_same(move: Move, args: dict, action) -> IllegalMove:
    """The refusal of a move whose arguments equal a legal move's only by Python's lax `==`."""
    name = next(k for k in args if not _same(args[k], move.args[k]))
    wanted, given = json.dumps(args[name]), json.dumps(move.args[name])
    kind = {int: "a whole number", bool: "true or false", str: "a text"}.get(type(args[name]))
    param = next(p for p in action.params if p.name == name)
    return IllegalMove(move, f"argument '{name}' must be {f'{kind} ({wanted})' if kind else wanted}, "
                       f"not {given}", f"{action.name}.{name}", str(param.span))


def _move_text(move: Move) -> str:
    """`canonical_json(move.to_dict())`: its keys in their sorted order, the seat written as
    the whole number it is (a loaded game writes every move)."""
    player, action, args = move.player, move.action, move.args
    if type(player) is int and type(action) is str and type(args) is dict:
        return f'{{"action":{_string_text(action)},"args":{_args_text(args)},"player":{player}}}'
    return canonical_json(move.to_dict())


_LITERALS = {True: "true", False: "false", None: "null"}


def _args_text(args: dict) -> str:
    """`canonical_json(args)`: a move's few arguments of texts, whole numbers, truth values and
    nulls written item by item, their names in order (anything else by the encoder)."""
    parts = []
    try:
        names = sorted(args)
    except TypeError:   # names of types that do not compare
        return canonical_json(args)
    for name in names:
        value = args[name]
        kind = type(value)
        if type(name) is not str:
            return canonical_json(args)
        if kind is str:
            text = _string_text(value)
        elif kind is int:
            text = str(value)
        elif kind is bool or value is None:
            text = _LITERALS[value]
        else:
            return canonical_json(args)
        parts.append(f"{_string_text(name)}:{text}")
    return "{" + ",".join(parts) + "}"


def game_from_dict(ruleset, data, check_moves: bool = True, check_invariants: bool = True, *,
                   coverage: bool = True) -> Game:
    """A saved game (its JSON text, bytes or dict), checked as engine/saved.py says; raises
    StateError naming the field path. check_moves=False skips the last check (the state its
    moves give), for positions built by hand that the caller trusts; check_invariants=False
    skips step 3, for a state whose invariants the caller has just checked."""
    from . import saved as checks
    record, raw = checks.parse(ruleset, data)
    checks.check(ruleset, record)
    try:
        state = State.from_dict(raw["state"], shared=raw is not data)   # read from a text: the reader's own
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:  # a gap in check()
        from ..log import StateError
        raise StateError(f"state field 'state' is malformed: {type(err).__name__}: {err}") from None
    moves = record.moves
    if check_invariants:
        checks.invariants(Game(ruleset, record.players, record.seed, state, moves, {}, []))
    if check_moves:
        state = checks.replayed(ruleset, record, raw["state"])._state
    game = Game(ruleset, record.players, record.seed, state, moves, {} if coverage else None, [])
    if record.move_texts is not None:
        game._move_texts = list(record.move_texts)   # each move's text, as to_json writes it
    return game


def game_from_json(ruleset, text: "str | bytes") -> Game:
    return game_from_dict(ruleset, text)
