"""Two rulesets played on the same seeds by the same bots: the engine behind ``regnum compare``.

An author who changes a rule wants to know what the change does to play, not only that it
type-checks. Seed ``S + i`` is played once with each ruleset, every seat choosing with the
generator `play_random_game` would give it, so the two games of a seed are the same game for
as long as the rules agree. Each pair is played in step until the first position where they
differ (a move, the moves offered, a piece, a score, the generator): that is where the
change first shows, and the changed declarations that ran in that step (or that what ran
there reads) are named. The rest of each game is played without looking.

The summary puts each measure side by side with a 95 % confidence interval (Wilson for a
share, the normal approximation for a mean) and the paired difference, variant minus base,
over the seeds both rulesets finished: seeds are shared, so the difference of a pair is the
effect of the rules, not of the dice.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from . import backends, resources
from .agents import playout, random_picks
from .engine.decisions import move_args, move_env
from .failures import one_line
from .resources import ruleset_label

__all__ = ["Comparison", "Divergence", "Estimate", "Row", "compare", "changed_names"]

Z95 = 1.959963984540054   # the 97.5th percentile of the normal distribution
ROUNDS = "rounds"          # a statistic of this name is the game's length in rounds


class Estimate(BaseModel):
    """A mean (or share) over `n` games and its 95 % confidence interval."""

    mean: float
    low: float
    high: float
    n: int


class Row(BaseModel):
    """One measure: each ruleset's estimate and the paired difference, variant minus base."""

    measure: str
    share: bool                      # a share of games (shown as a percentage)
    base: Estimate | None
    variant: Estimate | None
    difference: Estimate | None


class Divergence(BaseModel):
    """The first seed and move at which the games of the two rulesets differ."""

    seed: int
    move: int                        # moves played before the step that differs (0: the setup)
    base_move: str | None            # the move each game played in that step (None: the setup)
    variant_move: str | None
    differs: list[str]               # what differs: "scores", "hand(1)", "moves offered to P2", …
    rules: list[str]                 # the changed declarations behind it, "kind name (file:line:col)"


class PairResult(BaseModel):
    """What one seed gave with each ruleset (the workers send these back)."""

    seed: int
    sides: list[dict]                # [base, variant]: scores, winners, moves, statistics, error
    divergence: Divergence | None


class Comparison(BaseModel):
    """The ``--json`` output of ``regnum compare``."""

    base: str
    variant: str
    players: int
    games: int
    seed: int
    rows: list[Row]
    diverged: int                    # seeds whose two games differ somewhere
    first_divergence: Divergence | None
    failed: list[dict]               # {"seed", "ruleset", "error"} of games that stopped on an error
    truncated: list[int] = [0, 0]    # [base, variant]: games cut by the move bound, left out too
    scores: list[list[int]]          # [base, variant]: every final score of every seat, for charts


# ── the changed declarations ──────────────────────────────────────────────────────────────

def changed_names(base, variant) -> dict[str, str]:
    """{"kind:name": "kind name (file:line:col)"} of the declarations of `variant` that are not
    those of `base` (added, replaced by something else, removed), by variantdiff's rule."""
    from .variantdiff import diff_programs
    out = {}
    for change in diff_programs(base.program, variant.program).changes:
        if change.identical:
            continue
        where = change.variant if change.variant is not None else change.base
        key = change.kind if change.name == change.kind else f"{change.kind}:{change.name}"
        out[key] = f"{key.replace(':', ' ')} {change.change} ({where})"
    return out


def _ran(hits_after: dict, hits_before: dict) -> set[str]:
    """The declarations ("kind:name") a step ran, from the coverage it counted."""
    out = set()
    for key, n in hits_after.items():
        if hits_before.get(key, 0) == n:
            continue
        kind, _, rest = key.partition(":")
        if kind == "branch" or kind == "end":
            out.add(rest.partition("@")[0])
        elif kind == "require" or kind == "prefer":
            out.add("action:" + rest.partition(".")[0])
        else:
            out.add(f"{kind}:{rest.partition('.')[0]}")
    return out


def _reads(program, names: set[str]) -> set[str]:
    """`names` and every declaration ("kind:name") they read, directly or not."""
    from .check.analysis import analyse
    edges: dict[str, set] = {}
    for origin, name in analyse(program).facts.refs:
        edges.setdefault(origin, set()).add(name)
    kinds = {name: f"{decl.kind}:{name}" for name, decl in program.decls.items()}
    seen, todo = set(names), list(names)
    while todo:
        for name in edges.get(todo.pop(), ()):
            key = kinds.get(name)
            if key is not None and key not in seen:
                seen.add(key)
                todo.append(key)
    return seen


# ── one seed, both rulesets ───────────────────────────────────────────────────────────────

def _zone_name(key: str) -> str:
    """A zone as the rules write it: `hand(1)`, not its key `hand#1`."""
    family, _, index = key.partition("#")
    return f"{family}({index})" if index else family


def _common(x: dict, y: dict) -> list:
    """The keys both hold whose values differ: what only one ruleset declares (a variable the
    variant adds) is no difference of play until play reads it."""
    return sorted(k for k in x.keys() & y.keys() if x[k] != y[k])


def _differences(a, b) -> tuple[list[str], set[str]]:
    """What differs between the positions of two games, in words, and the declarations
    ("kind:name") whose values differ. Their flows are left aside: the same play can run
    through procedures written differently."""
    words, decls = [], set()
    if a.is_over != b.is_over:
        words.append("whether the game is over")
    if a.scores != b.scores:
        words.append("scores")
    sa, sb = a.state, b.state
    if sa.vars != sb.vars:
        names = _common(sa.vars, sb.vars)
        words += [f"variable {k}" for k in names[:3]]
        decls.update(f"var:{k}" for k in names)
    if sa.pvars != sb.pvars:
        names = sorted({k for x, y in zip(sa.pvars, sb.pvars) for k in _common(x, y)} - {"score"})
        words += [f"variable {k}" for k in names[:3]]
        decls.update(f"var:{k}" for k in names)
    if sa.tables != sb.tables:
        names = _common(sa.tables, sb.tables)
        words += [f"variable {k}" for k in names[:3]]
        decls.update(f"var:{k}" for k in names)
    if sa.zones != sb.zones:
        keys = sorted(k for k in sa.zones.keys() | sb.zones.keys() if sa.zones.get(k, []) != sb.zones.get(k, []))
        words += [_zone_name(k) for k in keys[:3]] + ([f"{len(keys) - 3} more zones"] if len(keys) > 3 else [])
        decls.update(f"zone:{k.partition('#')[0]}" for k in keys)
    if sa.pieces != sb.pieces and (len(sa.pieces) != len(sb.pieces)
                                   or any(_common(x, y) for x, y in zip(sa.pieces, sb.pieces))):
        words.append("pieces")
    for part, text in (("revealed", "pieces revealed"), ("once", "triggers fired once"), ("grids", "cells in use"),
                       ("rng", "the random generator (one drew more than the other)")):
        if getattr(sa, part) != getattr(sb, part):
            words.append(text)
    if not words and a.to_move != b.to_move:
        words.append("who is to move")
    if not words:
        for seat in a.to_move:
            offered = [[(n, args) for n, args, _ in g._candidates(seat)] for g in (a, b)]
            if offered[0] != offered[1]:
                words.append(f"moves offered to P{seat}")
                per_action = [{}, {}]
                for moves, by_name in zip(offered, per_action):
                    for n, args in moves:
                        by_name.setdefault(n, []).append(args)
                decls.update(f"action:{n}" for n in per_action[0].keys() | per_action[1].keys()
                             if per_action[0].get(n) != per_action[1].get(n))
                break
    return words, decls


def _side(game, error: str | None) -> dict:
    side = {"scores": list(game.scores) if game is not None else [], "moves": game.move_count if game else 0,
            "winners": list(game.winners) if game is not None and game.is_over and error is None else [],
            "statistics": {}, "error": error, "over": bool(game is not None and game.is_over)}
    if game is not None and error is None and game.is_over:
        try:
            side["statistics"] = game.statistics()
        except Exception as err:   # noqa: BLE001 — a failing statistic is this game's failure
            side["error"] = one_line(err)
    return side


class _Played:
    """One game of a pair, its seats choosing with play_random_game's generators. While the
    pair is compared, the move each seat chooses is kept (seat, action, arguments, values)
    as it is chosen; only the last one, where the pair parts, is named for people."""

    def __init__(self, rules, players: int, seed: int, max_moves: int, options: dict, coverage: bool):
        self.game = rules.new_game(players=players, seed=seed, narrate=False, options=options, coverage=coverage)
        self.chosen: tuple | None = None   # (seat, action, args, env) of the last move chosen
        self.watching = True
        picks = [self._keeping(seat, choose) for seat, choose in enumerate(random_picks(seed, players))]
        self.steps = playout(self.game, picks, max_moves)
        self.error: str | None = None

    def _keeping(self, seat: int, choose):
        def pick(n: int) -> int:
            i = choose(n)
            if self.watching:   # the i-th move of the seat's listing, as Game._play_nth takes it
                name, listed = self.game._nth_listed(seat, i)   # made into dicts for this move only
                action = self.game.model.actions[name]
                self.chosen = (seat, name, move_args(action, listed), move_env(action, seat, listed))
            return i
        return pick

    def played(self) -> tuple | None:
        """(seat, action, arguments) of the last move chosen: what the other game must have chosen."""
        return self.chosen[:3] if self.chosen is not None else None

    def named(self) -> str:
        """The last move played as players read it: its action's label, read in the position
        before it (rebuilt from the move's journal), as it read when it was chosen."""
        from .moves import Move
        from .render import describe_move
        seat, name, args, env = self.chosen
        game = self.game
        hits, game.hits = game.hits, None   # a label counts no coverage
        try:
            return f"P{seat}: {describe_move(game, Move(seat, name, dict(args)), env, game._previous())}"
        finally:
            game.hits = hits

    def step(self) -> bool:
        """One move; False once the game is over (or stopped on an error, kept in `error`)."""
        try:
            next(self.steps)
            return True
        except StopIteration:
            return False
        except Exception as err:   # noqa: BLE001 — whatever stopped it is the game's result
            self.error = one_line(err)
            return False

    def finish(self) -> dict:
        """Played on to its end without looking; what the summary needs of it."""
        self.watching = False
        self.game.hits = None   # nothing more to compare: played on without counting
        while self.error is None and self.step():
            pass
        return _side(self.game, self.error)


def play_pair(base, variant, players: int, seed: int, max_moves: int, options: dict,
              changed: dict[str, str], explain: bool = True) -> PairResult:
    """Seed `seed` played with both rulesets, in step until they differ. With `explain`, the
    games count coverage until then, to name the changed declarations that ran where they
    part; without, they play faster (a listing counts nothing and may take shortcuts) and the
    divergence names none: `compare` explains only the first, playing its seed again."""
    sides, errors = [], [None, None]
    for i, rules in enumerate((base, variant)):
        try:
            sides.append(_Played(rules, players, seed, max_moves, options, coverage=explain))
        except Exception as err:   # noqa: BLE001 — a setup that fails is this game's result
            sides.append(None)
            errors[i] = one_line(err)
    divergence = None
    if sides[0] is not None and sides[1] is not None:
        divergence = _in_step(sides, seed, changed, variant.program if explain else None)
    return PairResult(seed=seed, sides=[sides[i].finish() if sides[i] is not None else _side(None, errors[i])
                                        for i in (0, 1)], divergence=divergence)


def _in_step(sides: list[_Played], seed: int, changed: dict, program) -> Divergence | None:
    """The first difference of the pair; its causes are sought only given the `program`."""
    base, variant = (side.game for side in sides)
    counted = program is not None
    before = [dict(base.hits), dict(variant.hits)] if counted else None
    differs, touched = _differences(base, variant)
    moves = 0
    while not differs:
        going = [side.step() for side in sides]
        errors = [side.error for side in sides]
        if errors[0] is not None or errors[1] is not None:
            if errors[0] == errors[1]:
                return None
            differs = ["one game stopped on an error"]
            break
        if not going[0] and not going[1]:
            return None
        differs, touched = _differences(base, variant)
        if going[0] != going[1]:
            differs = differs or ["one game ended"]
        if not differs and sides[0].played() != sides[1].played():
            differs = ["the move played"]
        if not differs:
            moves = base.move_count
            if counted:
                before = [dict(base.hits), dict(variant.hits)]
    played = [side.named() if side.game.move_count > moves else None for side in sides]
    if not counted:
        return Divergence(seed=seed, move=moves, base_move=played[0], variant_move=played[1], differs=differs,
                          rules=[])
    ran = _ran(variant.hits or {}, before[1]) | _ran(base.hits or {}, before[0]) | touched
    ran.add("flow")   # the flow runs on after every move (and first after the setup)
    if moves == 0 and base.move_count == 0:
        ran.add("setup")
    named = sorted(changed[k] for k in ran if k in changed)
    if not named:   # nothing changed ran: what ran reads something changed (a constant, a def)
        named = sorted(changed[k] for k in _reads(program, ran) if k in changed)
    return Divergence(seed=seed, move=moves, base_move=played[0], variant_move=played[1], differs=differs,
                      rules=named)


# ── the summary ───────────────────────────────────────────────────────────────────────────

def _mean(values: list[float]) -> Estimate | None:
    n = len(values)
    if not n:
        return None
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean=mean, low=mean, high=mean, n=1)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Estimate(mean=mean, low=mean - half, high=mean + half, n=n)


def _share(hits: list[bool]) -> Estimate | None:
    """Wilson's interval: right near 0 % and 100 %, where the normal one leaves [0, 1]."""
    n = len(hits)
    if not n:
        return None
    p = sum(hits) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return Estimate(mean=p, low=low, high=high, n=n)


def _rows(pairs: list[PairResult], players: int) -> list[Row]:
    done = [[p.sides[i] for p in pairs if p.sides[i]["error"] is None and p.sides[i]["over"]] for i in (0, 1)]
    both = [p for p in pairs if all(s["error"] is None and s["over"] for s in p.sides)]
    rows = []

    def row(measure: str, value: Callable[[dict], float | None], share: bool = False) -> None:
        per_side = [[v for v in map(value, sides) if v is not None] for sides in done]
        diffs = []
        for pair in both:
            a, b = value(pair.sides[0]), value(pair.sides[1])
            if a is not None and b is not None:
                diffs.append(float(b) - float(a))
        estimate = _share if share else _mean
        if not per_side[0] and not per_side[1]:
            return
        rows.append(Row(measure=measure, share=share, base=estimate(per_side[0]), variant=estimate(per_side[1]),
                        difference=_mean(diffs)))

    for seat in range(players):
        row(f"P{seat} wins", lambda s, seat=seat: seat in s["winners"], share=True)
    row("shared victories", lambda s: len(s["winners"]) > 1, share=True)
    row("winning score", lambda s: max(s["scores"][w] for w in s["winners"]) if s["winners"] else None)
    row("length in moves", lambda s: s["moves"])
    names = []
    for sides in done:
        for side in sides:
            for name in side["statistics"]:
                if name not in names:
                    names.append(name)
    if ROUNDS in names:
        row("length in rounds", lambda s: s["statistics"].get(ROUNDS))
    for name in names:
        if name != ROUNDS:
            row(name, lambda s, name=name: s["statistics"].get(name))
    return rows


# ── the whole comparison ──────────────────────────────────────────────────────────────────

def _setup(base_path: str, variant_path: str, players: int, max_moves: int, options: dict, limits, rules_path,
           changed: dict) -> dict:
    import regnum
    load = lambda p: regnum.load(str(resources.find_ruleset(p, rules_path)), limits=limits,  # noqa: E731
                                 rules_path=rules_path)
    return dict(base=load(base_path), variant=load(variant_path), players=players, max_moves=max_moves,
                options=options, changed=changed)


def _work(context: dict, seed: int) -> dict:
    return play_pair(context["base"], context["variant"], context["players"], seed, context["max_moves"],
                     context["options"], context["changed"], explain=False).model_dump()


def compare(base_path: str | Path, variant_path: str | Path, players: int, games: int, seed: int = 0,
            jobs: int | None = None, max_moves: int = 100_000, progress=None, base=None, variant=None,
            options: dict | None = None, rules_path: tuple = ()) -> Comparison:
    """Play seeds ``seed … seed+games-1`` with both rulesets (paths or bundled names; ``base``
    and ``variant``, when given, are them loaded already) on ``jobs`` worker processes
    (default: every CPU), and summarise. ``progress(done, total)`` is called as seeds finish.
    A game that fails is left out of the measures and listed in ``failed``."""
    import regnum
    search = tuple(rules_path)
    files = [resources.find_ruleset(p, search) for p in (base_path, variant_path)]
    base = base if base is not None else regnum.load(str(files[0]), rules_path=search)
    variant = variant if variant is not None else regnum.load(str(files[1]), rules_path=search)
    options = dict(options or {})
    for rules in (base, variant):
        rules.new_game(players=players, seed=seed, narrate=False, options=options)   # refuses bad options now
    changed = changed_names(base, variant)
    seeds = [seed + i for i in range(games)]
    context = dict(base=base, variant=variant, players=players, max_moves=max_moves, options=options,
                   changed=changed)
    try:
        raw = backends.run_all(_setup, (str(files[0]), str(files[1]), players, max_moves, options,
                                        getattr(base, "limits", None), search, changed),
                               _work, seeds, workers=jobs, progress=progress, context=context)
    except backends.BackendError as err:
        raise RuntimeError(str(err)) from None
    pairs = [PairResult.model_validate(r) for r in raw]
    labels = [ruleset_label(base, files[0]), ruleset_label(variant, files[1])]
    diverged = [p.divergence for p in pairs if p.divergence is not None]
    first = None
    if diverged:   # its seed again, counting coverage this time: the same games, with their causes
        first = play_pair(base, variant, players, diverged[0].seed, max_moves, options, changed).divergence
    failed = [{"seed": p.seed, "ruleset": labels[i], "error": p.sides[i]["error"]}
              for p in pairs for i in (0, 1) if p.sides[i]["error"] is not None]
    scores = [[s for p in pairs if p.sides[i]["error"] is None and p.sides[i]["over"] for s in p.sides[i]["scores"]]
              for i in (0, 1)]
    return Comparison(base=labels[0], variant=labels[1], players=players, games=games, seed=seed,
                      rows=_rows(pairs, players), diverged=len(diverged),
                      first_divergence=first, failed=failed, scores=scores,
                      truncated=[sum(1 for p in pairs if p.sides[i]["error"] is None and not p.sides[i]["over"])
                                 for i in (0, 1)])
