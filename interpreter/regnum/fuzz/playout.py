"""One fuzzed game: moves chosen by a policy, every check run after every step.

Three policies, chosen per game:

- ``random``: uniform among every legal move of every seat to move (the simulation's bots
  choose per seat; the fuzzer pools the seats, so the order of simultaneous picks varies too);
- ``rare``: adversarial, first an action weighted by how seldom it was played so far in the
  game, then one of its moves: actions the random policy rarely reaches (a special power, a
  pass, an action that offers few moves beside one that offers many) come up;
- ``endgame``: adversarial, aimed at the end of the game: a random game is played unchecked to
  its end, then the game is taken back to a point in its last third and played again from
  there with the ``rare`` policy and every check, so that the end of the game — final scoring,
  its tie-breaks, end conditions — is met again and again from different positions;
- ``corpus``: a game of the corpus (saved logs, given by the user) is played again, move by
  move with every check, then goes on with the ``rare`` policy: the positions a random game
  almost never meets (a rule a ruling added for a corner case) are met in every run, and the
  game explores on from them. A move of the log the rules no longer allow (the ruleset or
  variant changed since it was saved) ends the replay there, and the policy takes over.

A game is a pure function of (ruleset, players, seed, policy, options): the policy's choices
and the checks' own draws (which wrong moves, which seat's observation) come from generators
seeded by the game's seed and the move number. So the moves of a failing game, played again,
fail again, which shrinking relies on.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..diagnostics import RulesetError
from ..moves import Move
from . import checks
from .checks import CheckFailed

POLICIES = ("random", "rare", "endgame")


@dataclass
class Settings:
    """What a fuzzed game checks. `bound` is the move bound (the ruleset's `ends within`, else
    the fuzzer's default); `mutations` wrong moves and `offered` offered moves are tried per
    step. Shrinking turns off every check but the one it shrinks a failure of."""

    bound: int
    invariants: bool = True
    stuck: bool = True
    unending: bool = True
    mutations: int = 3
    offered: int = 1
    round_trip: bool = True
    secrecy: bool = True
    replay: bool = True


@dataclass
class Outcome:
    """What a fuzzed game gave: its moves (as indexes into the legal moves at each step, and
    as moves), whether it ended, the failure met (None: none) and the coverage hits."""

    players: int
    seed: int
    policy: str
    moves: list = field(default_factory=list)
    choices: list = field(default_factory=list)
    over: bool = False
    steps: int = 0
    failure: dict | None = None
    hits: dict = field(default_factory=dict)
    checked_from: int = 0


def step_rng(seed: int, step: int, purpose: str) -> random.Random:
    """The generator of one purpose at one step of a game: the same on every replay."""
    return random.Random(f"regnum-fuzz:{seed}:{step}:{purpose}")


def pick(policy: str, legal: list, played: dict, rng: random.Random) -> int:
    """The index of the move `policy` plays among `legal`. The rare policy first chooses the
    kind of move — an action, weighted by how seldom it was played in this game — then one
    move of that action, uniformly: weighting moves one by one would favour the action that
    offers the most moves (every card of a hand), which is what uniform play already does."""
    if policy == "random" or len(legal) == 1:
        return rng.randrange(len(legal))
    actions = sorted({m.action for m in legal})
    weights = [1.0 / (1 + played.get(name, 0)) ** 2 for name in actions]
    action = rng.choices(actions, weights)[0]
    return rng.choice([i for i, m in enumerate(legal) if m.action == action])


def check_step(game, settings: Settings, legal: list, earlier: list,
               read_back: tuple[dict, dict] | None = None) -> None:
    """Every check of one step, on `game` as it stands, in a fixed order. `read_back`: the
    texts of the parts of the games the round trips of this game read back (checks.round_trip)."""
    step = game.move_count
    if settings.invariants:
        checks.invariants(game)
    if settings.stuck:
        checks.offers_a_move(game)
    if settings.unending:
        checks.ends_in_time(game, settings.bound)
    if legal and settings.offered:
        checks.offered_moves_accepted(game, legal, step_rng(game.seed, step, "offered"), settings.offered)
    written = None   # the game's JSON, once a check wrote it (nothing changes the game meanwhile)
    if settings.mutations:
        rng = step_rng(game.seed, step, "wrong")
        written = checks.wrong_moves_refused(game, checks.mutations(game, legal, earlier, rng, settings.mutations))
    if settings.round_trip:
        checks.round_trip(game, written, settings.invariants, read_back)
    if settings.secrecy:
        seats = [None, *range(game.players)]
        checks.secrecy(game, step_rng(game.seed, step, "seat").choice(seats))


def fuzz_game(rules, players: int, seed: int, policy: str, settings: Settings,
              options: dict | None = None, script: list[Move] = (), pick_seed: int | None = None) -> Outcome:
    """Play and check one game; it stops at its first failure. A corpus game first plays the
    moves of `script` while they are legal; `pick_seed` (default `seed`) seeds the policy's
    choices, so that games replaying the same log go on differently."""
    out = Outcome(players, seed, policy)
    prefix: list[int] = []
    if policy == "endgame":
        prefix = _late_prefix(rules, players, seed, settings, options)
    game = None
    try:
        game = rules.new_game(players=players, seed=seed, narrate=False, options=options)
        for index in prefix:
            legal = game.all_legal_moves()
            _play(game, legal[index], out, index)
        out.checked_from = game.move_count
        run_checked(game, settings, "random" if policy == "random" else "rare", out, script,
                    seed if pick_seed is None else pick_seed)
    except CheckFailed as failed:
        out.failure = failure_record(game, failed)
    except RulesetError as err:
        out.failure = fault_record(game, err)
    if game is not None:
        out.hits = dict(game.hits)
        out.over = game.is_over
    return out


def run_checked(game, settings: Settings, policy: str, out: Outcome, script: list[Move] = (),
                pick_seed: int | None = None) -> None:
    """Play `game` to its end (or its bound) with every check after every step: first the
    moves of `script` while each is legal, then the policy's."""
    played: dict[str, int] = {}
    earlier: list = []
    read_back: tuple[dict, dict] = ({}, {})   # the texts of the parts of the games read back
    script = list(script)
    pick_seed = game.seed if pick_seed is None else pick_seed
    while True:
        legal = game.all_legal_moves() if not game.is_over else []
        check_step(game, settings, legal, earlier, read_back)
        if game.is_over:
            break
        scripted = script.pop(0) if script else None
        if scripted is not None and scripted in legal:
            index = legal.index(scripted)
        else:
            script = []
            index = pick(policy, legal, played, step_rng(pick_seed, game.move_count, "pick"))
        move = legal[index]
        played[move.action] = played.get(move.action, 0) + 1
        _play(game, move, out, index)
        out.steps += 1
        earlier = legal
    if settings.replay:
        checks.replays(game)


def _play(game, move: Move, out: Outcome, index: int) -> None:
    game.play(move)   # a fault leaves the move out: the failure record carries it
    out.moves.append(move)
    out.choices.append(index)


def _late_prefix(rules, players, seed, settings: Settings, options) -> list[int]:
    """The choices of a random game, unchecked, cut at a point in its last third."""
    game = rules.new_game(players=players, seed=seed, narrate=False, options=options)
    choices: list[int] = []
    rng = random.Random(f"regnum-fuzz:{seed}:endgame")
    try:
        while not game.is_over and game.move_count < settings.bound:
            legal = game.all_legal_moves()
            if not legal:
                break
            index = rng.randrange(len(legal))
            game.play(legal[index])
            choices.append(index)
    except RulesetError:
        pass   # the checked part will meet this failure again, and report it
    n = len(choices)
    return choices[:rng.randint(2 * n // 3, max(2 * n // 3, n - 1))] if n else []


def failure_record(game, failed: CheckFailed) -> dict:
    """A check's failure as the log will record it: `move` is the failing move's index (a
    move the game never played, appended), else the last move's; none for a stuck game."""
    if failed.move is not None:
        move_index = game.move_count
    elif failed.kind == "stuck" or not game.move_count:
        move_index = None
    else:
        move_index = game.move_count - 1
    return {"kind": failed.kind, "check": failed.check, "message": failed.message,
            "move": move_index, "extra": None if failed.move is None else failed.move.to_dict()}


def fault_record(game, err: RulesetError) -> dict:
    """A fault of the rules as the log will record it (failures.failure_of), with the move
    that raised it; `game` is None when the setup itself failed."""
    from ..failures import failure_of, one_line
    failing = getattr(err, "move", None)
    if game is None:
        code = err.diagnostics[0].code if err.diagnostics else "error"
        return {"kind": "fault", "check": code, "message": one_line(err), "move": None, "extra": None}
    record = failure_of(game, err).model_dump()
    return {**record, "extra": None if failing is None else failing.to_dict()}
