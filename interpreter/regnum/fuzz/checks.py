"""What the fuzzer checks after every step of a game, each check as one function.

A check raises `CheckFailed` naming its kind (the `kind` of the log's failure record), the
particular check (an invariant's name, a seat, a mutation) and what went wrong. Every check is
a pure function of the game and a seeded `random.Random`, so that replaying the same moves
meets the same failure: that is what lets a failure be shrunk and reproduced.

The checks speak only through the public Game API plus the state's raw data; none knows
how the engine computes what it checks (observations are checked against the zones'
declared visibility, not against the code that builds them).
"""
from __future__ import annotations

import json
import random

from ..diagnostics import RulesetError
from ..failures import InvariantBroken, assert_invariants, one_line
from ..moves import IllegalMove, Move

__all__ = ["CheckFailed", "KINDS", "invariants", "offers_a_move", "offered_moves_accepted", "offered_move_accepted",
           "wrong_moves_refused", "mutations", "round_trip", "secrecy", "replays", "ends_in_time"]

#: Every kind of failure the fuzzer reports, with what it means (docs/fuzzing.md).
KINDS = {
    "fault": "the rules raised an error (a runtime fault, a limit hit)",
    "invariant": "an invariant of the ruleset does not hold",
    "stuck": "the game is not over but a seat to move has no legal move",
    "refused": "a move the game offered was refused",
    "unclean": "a move the game did not offer was accepted, or its refusal changed the state",
    "round_trip": "the state read back from its JSON differs from the state",
    "secrecy": "a seat's observation shows what that seat may not see",
    "replay": "replaying the game's log gives another state",
    "unending": "the game did not end within its bound",
}


class CheckFailed(Exception):
    """A check that did not hold. `move` is a move to append to the log (a wrong move that
    was accepted, an offered move that was refused): the failing move, as for a fault."""

    def __init__(self, kind: str, check: str | None, message: str, move: Move | None = None):
        super().__init__(message)
        self.kind = kind
        self.check = check
        self.message = message
        self.move = move


# ── the ruleset's own promises ───────────────────────────────────────────────

def invariants(game) -> None:
    try:
        assert_invariants(game)
    except InvariantBroken as err:
        where = f" ({err.location})" if err.location and err.location not in err.message else ""
        raise CheckFailed("invariant", err.name, err.message + where) from None


def offers_a_move(game) -> None:
    """A game not over waits for someone, and everyone it waits for has a legal move."""
    if game.is_over:
        return
    waiting = game.to_move
    if not waiting:
        raise CheckFailed("stuck", None, f"the game is not over but nobody is to move "
                                         f"(after {game.move_count} moves)")
    for seat in waiting:
        if not game.legal_moves(seat):
            raise CheckFailed("stuck", None, f"seat {seat} must move but has no legal move "
                                             f"(after {game.move_count} moves, game not over)")


def ends_in_time(game, bound: int) -> None:
    if not game.is_over and game.move_count >= bound:
        raise CheckFailed("unending", f"ends within {bound} moves",
                          f"the game is not over after {game.move_count} moves; the ruleset says every "
                          f"game ends within {bound} moves")


# ── moves: offered ones are accepted, others refused without a trace ───────────

def offered_moves_accepted(game, legal: list, rng: random.Random, tries: int = 1) -> None:
    """Up to `tries` offered moves, drawn with `rng`, are each accepted."""
    for move in rng.sample(legal, min(tries, len(legal))):
        offered_move_accepted(game, move)


def offered_move_accepted(game, move: Move) -> None:
    """An offered move, played on a copy of the game, is accepted."""
    try:
        game.copy().play(move)
    except IllegalMove as err:
        raise CheckFailed("refused", "offered move",
                          f"the game offered {move} and then refused it: {err}", move) from None


def mutations(game, legal: list, earlier: list, rng: random.Random, count: int = 3) -> list[tuple[str, Move]]:
    """`count` wrong moves built from the offered ones, each named by how it was made wrong:
    another seat, another action, an unknown, missing or out-of-range argument, a move legal a
    step earlier, or one made up from nothing."""
    model = game.model
    actions = sorted(model.actions)
    stale = None   # the earlier moves no longer offered: found when a mutation asks for one
    out: list[tuple[str, Move]] = []
    makers = ["seat", "action", "unknown action", "extra argument", "missing argument",
              "argument value", "argument type", "earlier move", "made up"]
    for _ in range(count):
        base = rng.choice(legal) if legal else Move(0, actions[0] if actions else "x", {})
        how = rng.choice(makers)
        args = dict(base.args)
        if how == "seat":
            move = Move(rng.choice([p for p in range(-1, game.players + 1) if p != base.player]),
                        base.action, args)
        elif how == "action":
            others = [a for a in actions if a != base.action]
            move = Move(base.player, rng.choice(others) if others else base.action + "_", args)
        elif how == "unknown action":
            move = Move(base.player, base.action + "_unknown", args)
        elif how == "extra argument":
            args["unknown_argument"] = rng.choice([0, "x", None, [1]])
            move = Move(base.player, base.action, args)
        elif how == "missing argument" and args:
            del args[rng.choice(sorted(args))]
            move = Move(base.player, base.action, args)
        elif how in ("argument value", "argument type") and args:
            name = rng.choice(sorted(args))
            args[name] = _changed(args[name], how == "argument type", rng)
            move = Move(base.player, base.action, args)
        elif how == "earlier move" and (stale if stale is not None else (stale := _not_among(earlier, legal))):
            move = rng.choice(stale)
        else:
            how = "made up"
            move = Move(rng.randrange(-1, game.players + 1), rng.choice(actions + ["", "?"]),
                        {rng.choice(["x", "cell", "card"]): rng.choice([-1, 10**9, "", [], {}, True, 2**70])})
        out.append((how, move))
    return out


def _changed(value, other_type: bool, rng: random.Random):
    """An argument value made wrong: out of range (same type) or of another JSON type."""
    if other_type:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return rng.choice([str(value), float(value), bool(value % 2)])
        if isinstance(value, str):
            return rng.choice([0, [value], {"value": value}])
        return rng.choice(["x", 0, None])
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([-1, value + 10**6, -(2**63), 2**63])
    if isinstance(value, str):
        return rng.choice(["", value + "?", "(99,99)", value[::-1] + "x"])
    if isinstance(value, list):
        return value + value[:1] if value else [0]
    return None


def wrong_moves_refused(game, wrong: list[tuple[str, Move]]) -> str:
    """Each wrong move that is not legal is refused with IllegalMove, and the game is then
    exactly as it was: the same JSON, byte for byte, and the same move count. Returns that
    JSON (the game's as it stands: round_trip needs not write it again)."""
    legal = game.all_legal_moves()
    before = game.to_json()
    for how, move in wrong:
        if _hashable(move) and _among(move, legal):
            continue  # made wrong, it happens to be legal: nothing to check
        count = game.move_count
        try:
            game.play(move)
        except IllegalMove:
            pass
        except RulesetError as err:
            raise CheckFailed("unclean", how, f"a wrong move ({how}) {_show(move)} was not refused as "
                              f"illegal: the rules failed with {one_line(err)}", move) from None
        except Exception as err:   # anything else is a bug the fuzzer exists to find
            raise CheckFailed("unclean", how, f"a wrong move ({how}) {_show(move)} raised "
                              f"{type(err).__name__}: {err}", move) from None
        else:
            raise CheckFailed("unclean", how, f"a wrong move ({how}) {_show(move)} was accepted; "
                              f"the game did not offer it", move)
        if game.move_count != count or game.to_json() != before:
            raise CheckFailed("unclean", how, f"refusing a wrong move ({how}) {_show(move)} "
                              "changed the state", move)
    return before


def _among(move: Move, moves: list) -> bool:
    """`move in set(moves)`, without hashing every move of the list (a move's hash writes its
    arguments as JSON; a step's check asks about three wrong moves among all those offered):
    a set finds an item equal to `move` whose hash is `move`'s, so the equal ones are found
    first, and only theirs is computed. `move` is hashable."""
    key = None
    for m in moves:
        if m == move:
            if key is None:
                key = hash(move)
            if hash(m) == key:
                return True
    return False


def _not_among(moves: list, offered: list) -> list:
    """The moves of `moves` that are not among `offered`, as a set of them finds them."""
    kept = set(offered)
    return [m for m in moves if m not in kept]


def _hashable(move: Move) -> bool:
    try:
        hash(move)
        return True
    except TypeError:
        return False


def _show(move: Move) -> str:
    try:
        return json.dumps(move.to_dict(), sort_keys=True)[:200]
    except (TypeError, ValueError):
        return str(move)[:200]


# ── the state as data ────────────────────────────────────────────────────────

def round_trip(game, text: str | None = None, invariants_held: bool = False,
               texts: tuple[dict, dict] | None = None) -> None:
    """The state read back from its JSON is the same state, offering the same moves. `text`:
    the game's JSON as it stands, when a check before wrote it already. `invariants_held`:
    the invariants were checked on the game as it stands, so the reader does not check them
    again: the state read back must write the same JSON, so it is the same state, and an
    invariant reads nothing else (its `previous(…)` reads the state itself when read back:
    the game's own check is the stricter). Without it (the invariants check off, as when a
    round trip's failure is shrunk) the reader checks them, and a state that breaks one is
    refused here, as any saved game would be. The game read back counts no coverage (the
    fuzzed game counts the run's): it lists its moves without, and the moves compared are
    those of the two ways of listing them. `texts`: where the games read back at the steps
    before kept the texts of their parts (Game.keep_texts_in), which this one writes again
    only for the parts that changed."""
    if text is None:
        text = game.to_json()
    try:
        again = game.ruleset.game_from_json(text, check_moves=False, check_invariants=not invariants_held,
                                            coverage=False)
    except Exception as err:
        raise CheckFailed("round_trip", "read back", f"the game's own JSON is refused: "
                          f"{type(err).__name__}: {str(err).splitlines()[0]}") from None
    if texts is not None:
        again.keep_texts_in(texts)
    if again.to_json() != text:
        raise CheckFailed("round_trip", "same state", "the state read back from JSON writes different JSON")
    if again.is_over != game.is_over or again.to_move != game.to_move:
        raise CheckFailed("round_trip", "same turn", f"read back from JSON, the game waits for "
                          f"{again.to_move} instead of {game.to_move}")
    if again.all_legal_moves() != game.all_legal_moves():
        raise CheckFailed("round_trip", "same moves", "read back from JSON, the game offers other moves")


def replays(game) -> None:
    """Replaying the game's log from its seed gives the same state. The game replayed makes
    no narration and counts no coverage, which it would make and count alike (the fuzzed
    game counts the run's coverage)."""
    from .. import replay
    try:
        again = replay(game.ruleset, game.log, narrate=False, coverage=False)
    except Exception as err:
        raise CheckFailed("replay", "log", f"the game's own log does not replay: "
                          f"{type(err).__name__}: {str(err).splitlines()[0]}") from None
    if again.to_json() != game.to_json():
        raise CheckFailed("replay", "same state", f"replaying the log of {game.move_count} moves "
                          "gives another state")


# ── secrets ──────────────────────────────────────────────────────────────────

_MARK = "\u2022secret"


def secrecy(game, seat: int | None) -> None:
    """`seat`'s observation shows nothing that seat may not see. Two ways: every piece it
    shows lies in a zone the seat may see (by the zone's declared visibility) or was revealed,
    and the seat's secret variables of others read "hidden"; and the observation is the same
    when everything the seat may not see is changed (the labels and fields of pieces hidden
    from it, others' secret variables, the pending choices of the other seats)."""
    who = "a spectator" if seat is None else f"seat {seat}"
    seen = game.observation(seat)
    model, state = game.model, game.state
    hidden = _hidden_pieces(game, seat)
    for key, shown in seen["zones"].items():
        pieces = shown if isinstance(shown, list) else shown.get("revealed", []) + [shown.get("top") or {}]
        for record in pieces:
            if record.get("id") in hidden:
                raise CheckFailed("secrecy", _check_name(seat), f"{who} is shown piece {record.get('id')} "
                                  f"({record.get('label')}) in zone {key}, which it may not see")
    for name, visibility in model.secret_vars.items():
        rows = [(None, seen["vars"])] if name in seen["vars"] else list(enumerate(seen["player_vars"]))
        for owner, row in rows:
            if name in row and row[name] != "hidden" and not (visibility == "owner" and owner == seat):
                raise CheckFailed("secrecy", _check_name(seat), f"{who} is shown the secret variable "
                                  f"{name}{'' if owner is None else f' of seat {owner}'}")
    other = _with_secrets_changed(game, seat, hidden)
    again = other.observation(seat)
    if game.is_over:
        seen.pop("winners"), again.pop("winners")
    if again != seen:
        field = next((k for k in seen if seen[k] != again.get(k)), "?")
        raise CheckFailed("secrecy", _check_name(seat), f"{who}'s observation ({field!r}) changes when "
                          "only what it may not see changes")


def _check_name(seat) -> str:
    return "spectator" if seat is None else f"seat {seat}"


def _hidden_pieces(game, seat) -> set[int]:
    """The pieces `seat` may not see: in a zone hidden from it and not revealed (the top piece
    of a `top` zone is seen by all)."""
    model, state = game.model, game.state
    out: set[int] = set()
    for fam in model.zones.values():
        if fam.visibility == "public":   # all of it seen: not a zone judged (a board's hundreds)
            continue
        for index, key in fam.items(state):
            if key not in state.zones:
                continue
            if fam.visibility == "owner" and fam.index == "player" and seat is not None and index == seat:
                continue
            ids = state.zones[key][:-1] if fam.visibility == "top" else state.zones[key]
            out.update(p for p in ids if p not in state.revealed)
    return out


def _with_secrets_changed(game, seat, hidden: set[int]):
    other = game.copy()
    state = other.state
    pieces = state.pieces
    for piece in hidden:
        record = dict(pieces[piece])
        record["label"] = f"{record.get('label', '')}{_MARK}"
        for name, value in list(record.items()):
            if name not in ("type", "label", "owner"):
                record[name] = _other_value(value)
        pieces[piece] = record
    secret = game.model.secret_vars
    if secret:
        if any(name in state.vars for name in secret):
            state.vars = {k: (_other_value(v) if k in secret else v) for k, v in state.vars.items()}
        state.pvars = [row if (seat == owner) else {k: (_other_value(v) if k in secret else v)
                                                    for k, v in row.items()}
                       for owner, row in enumerate(state.pvars)]
    threads = state.flow.get("threads")
    if threads:
        for thread in threads:
            if thread.get("player") == seat:
                continue
            for frame in thread["stack"]:
                frame[2] = {k: (v if k.startswith("$") else _MARK) for k, v in frame[2].items()}
    other._edited()
    return other


def _other_value(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + _MARK
    if isinstance(value, list):
        return value + [None]
    return value
