"""Shrinking a failing game with Hypothesis to the fewest moves and players that still fail.

A game is written as Hypothesis sees it: a player count and a list of choices, each the index
of the move played among `game.all_legal_moves()` at its step. The failing game found by the
fuzzer is handed to Hypothesis as an example it has seen fail before (the secondary corpus of
an in-memory example database, which Hypothesis replays and then shrinks: deleting choices,
lowering them toward the first legal move, lowering the player count). A candidate fails when
replaying it meets a failure of the same kind (and, for an invariant or a fault, of the same
invariant or error code) with the same checks the fuzzer ran. The seed stays the game's.

A shrink has a time budget; once it is spent, candidates not already known to fail are
treated as passing, so Hypothesis stops improving and returns the best it has.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..diagnostics import RulesetError
from . import checks
from .checks import CheckFailed
from .playout import Settings, check_step, failure_record, fault_record

__all__ = ["Shrunk", "shrink", "same_failure"]


@dataclass
class Shrunk:
    players: int
    choices: list[int]
    tries: int
    shrunk: bool          # False when Hypothesis could not take the example (kept as found)


def same_failure(a: dict, b: dict) -> bool:
    """Two failures are the same bug when of the same kind and, for an invariant or a fault,
    of the same invariant or code (other checks name a seat or a wrong move drawn at random)."""
    if a["kind"] != b["kind"]:
        return False
    return a["kind"] not in ("invariant", "fault") or a["check"] == b["check"]


def _narrowed(settings: Settings, kind: str) -> Settings:
    """Only the check that can meet a failure of `kind` (the others cost time and may fail
    first on another bug, which is not the one being shrunk); none for a fault, which playing
    the moves meets by itself."""
    return replace(settings, invariants=kind == "invariant", stuck=kind == "stuck", unending=kind == "unending",
                   mutations=settings.mutations if kind == "unclean" else 0,
                   offered=settings.offered if kind == "refused" else 0,
                   round_trip=kind == "round_trip", secrecy=kind == "secrecy", replay=kind == "replay")


def replay_choices(rules, players: int, seed: int, choices: list[int], settings: Settings,
                   kind: str | None = None, options: dict | None = None):
    """Play `choices` (indexes into the legal moves, taken modulo their number) from a new
    game with the checks of `settings` (only those of `kind` when given) after every step;
    returns (game, failure dict or None, the moves played)."""
    settings = _narrowed(settings, kind) if kind else settings
    game = None
    moves = []
    try:
        game = rules.new_game(players=players, seed=seed, narrate=False, options=options)
        earlier: list = []
        for step in range(len(choices) + 1):
            legal = game.all_legal_moves() if not game.is_over else []
            check_step(game, settings, legal, earlier)
            if game.is_over or step == len(choices):
                break
            move = legal[choices[step] % len(legal)]
            game.play(move)
            moves.append(move)
            earlier = legal
        if settings.replay:
            checks.replays(game)
    except CheckFailed as failed:
        return game, failure_record(game, failed), moves
    except RulesetError as err:
        return game, fault_record(game, err), moves
    return game, None, moves


def shrink(rules, players: int, seed: int, choices: list[int], failure: dict, settings: Settings,
           options: dict | None = None, seconds: float = 60.0) -> Shrunk:
    """The smallest game Hypothesis finds that fails like `failure` did."""
    from hypothesis import HealthCheck, Phase, given, settings as hsettings, strategies as st
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

    low, high = rules.min_players, rules.max_players
    biggest = max(max(choices, default=0), 1)
    strategy = st.tuples(st.integers(low, high), st.lists(st.integers(0, max(biggest, 2**16 - 1))))
    key = f"regnum-shrink:{rules.hash}:{seed}".encode()
    database = InMemoryExampleDatabase()
    recorded = [players]
    for index in choices:
        recorded += [True, index]
    recorded.append(False)
    database.save(key + b".secondary", choices_to_bytes(recorded))   # replayed, then shrunk

    deadline = time.monotonic() + seconds
    failing: set = set()
    tries = 0
    kind = failure["kind"]

    def fails(candidate) -> bool:
        nonlocal tries
        n, picks = candidate
        token = (n, tuple(picks))
        if token in failing:
            return True
        if time.monotonic() > deadline:
            return False
        tries += 1
        _, seen, _ = replay_choices(rules, n, seed, list(picks), settings, kind, options)
        if seen is not None and same_failure(seen, failure):
            failing.add(token)
            return True
        return False

    config = hsettings(database=database, phases=[Phase.reuse, Phase.shrink], max_examples=10_000,
                       deadline=None, suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    best: list = []

    @config
    @given(strategy)
    def search(candidate):
        if fails(candidate):
            best[:] = [candidate]
            raise _Found

    # As `hypothesis.find` does, without its `random=` (which turns the database off): the
    # shrinker's own choices are seeded by the game's seed, so a shrink is the same every run.
    search._hypothesis_internal_database_key = key
    search._hypothesis_internal_use_seed = seed
    try:
        search()
    except _Found:
        n, picks = best[0]
        return Shrunk(n, list(picks), tries, shrunk=True)
    return Shrunk(players, list(choices), tries, shrunk=False)


class _Found(Exception):
    """The search met a failing game (Hypothesis shrinks it, then raises this once more)."""
