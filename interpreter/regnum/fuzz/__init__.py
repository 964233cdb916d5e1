"""`regnum fuzz`: seeded random and adversarial games, every check after every step, failures
shrunk with Hypothesis and saved as logs that `regnum replay` reproduces, and rule coverage.

Game i of a run seeded S uses seed S + i, the player count `players[i % len(players)]` and the
policy `POLICIES[i % 3]` (playout.py), so any game can be rerun alone and the outcome does not
depend on how the games were spread over workers. With a corpus of saved games, every fourth
game (i % 4 == 3) replays the next log of the corpus instead, with its seed and players, and
goes on from its end with the rare policy seeded by S + i. Games run on `backends.run_all` (processes,
or Ray); a failing game stops at its first failure, and the first game failing each way is
shrunk, in the parent, after all games are in.
"""
from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path

from .. import heap
from ..log import Log, LogFailure
from ..moves import Move
from .checks import KINDS
from .playout import POLICIES, Settings, fuzz_game
from .report import CoverageRow, FuzzFailure, FuzzReport, coverage
from .shrink import replay_choices, same_failure, shrink

__all__ = ["fuzz", "FuzzReport", "FuzzFailure", "CoverageRow", "KINDS", "POLICIES", "Settings",
           "DEFAULT_BOUND", "corpus_folder", "corpus_files", "own_corpus", "corpus_errors"]

#: The move bound of a ruleset that states none (`ends within N moves`).
DEFAULT_BOUND = 10_000


def fuzz(path, rules, *, games: int = 100, seed: int = 0, players: list[int] | None = None,
         seconds: float | None = None, workers: int | None = None, backend: str = "local",
         address: str | None = None, options: dict | None = None, failures_dir: Path | None = None,
         shrink_seconds: float = 60.0, settings: Settings | None = None, progress=None,
         limits=None, rules_path: tuple = (), corpus: list[Log] = ()) -> FuzzReport:
    """Fuzz `rules` (loaded from `path`, which spawned workers and Ray actors load again; forked
    workers inherit `rules`) and report. `corpus`: saved games (full logs of this ruleset) that
    every fourth game replays and goes on from."""
    counts = players or list(range(rules.min_players, rules.max_players + 1))
    settings = settings or Settings(bound=getattr(rules, "move_bound", None) or DEFAULT_BOUND)
    deadline = None if seconds is None else time.time() + seconds
    corpus = [log for log in corpus if log.players in counts]
    items = [_item(i, counts, seed, corpus) for i in range(games)]
    scripts = tuple([{"player": m.player, "action": m.action, "args": dict(m.args)} for m in log.moves]
                    for log in corpus)
    started = time.perf_counter()
    outcomes = _run(path, rules, items, settings, options, deadline, workers, backend, address,
                    progress, limits, rules_path, scripts)
    played = [o for o in outcomes if o is not None]
    elapsed = time.perf_counter() - started
    hits: dict[str, int] = {}
    for outcome in played:
        for key, n in outcome["hits"].items():
            hits[key] = hits.get(key, 0) + n
    failures = _failures(rules, played, settings, options, failures_dir, shrink_seconds)
    steps = sum(o["steps"] for o in played)
    policies = {p: sum(1 for o in played if o["policy"] == p) for p in POLICIES + (("corpus",) if corpus else ())}
    return FuzzReport(ruleset=rules.variant or rules.name, games=len(played), steps=steps, seconds=round(elapsed, 3),
                      steps_per_second=round(steps / elapsed, 1) if elapsed > 0 else 0.0,
                      players=counts, policies=policies, failures=failures,
                      coverage=coverage(rules, hits))


# ── playing the games ────────────────────────────────────────────────────────

def _item(i: int, counts: list[int], seed: int, corpus: list[Log]) -> tuple:
    """(index, players, game seed, policy, corpus log index or None, seed of the choices)."""
    if corpus and i % 4 == 3:
        k = (i // 4) % len(corpus)
        return (i, corpus[k].players, corpus[k].seed, "corpus", k, seed + i)
    return (i, counts[i % len(counts)], seed + i, POLICIES[i % len(POLICIES)], None, seed + i)


def corpus_folder(path, rules) -> Path:
    """Where a ruleset's own corpus lives: `corpus/<game name>/` beside its file."""
    return Path(path).parent / "corpus" / rules.name


def corpus_files(source: Path) -> list[Path]:
    """The logs a corpus source names: the file itself, or a folder's `*.json`, by name."""
    return sorted(source.glob("*.json")) if source.is_dir() else [source]


def own_corpus(path, rules, limits=None) -> list[Log]:
    """The logs of the ruleset's own corpus folder (none if it has no folder)."""
    folder = corpus_folder(path, rules)
    if not folder.is_dir():
        return []
    return [Log.from_json(file.read_bytes(), limits) for file in corpus_files(folder)]


def corpus_errors(rules, logs: dict) -> list[str]:
    """Why a corpus log cannot serve: `logs` maps a name (a file) to its Log."""
    wrong = []
    for name, log in logs.items():
        if log.seed is None:
            wrong.append(f"{name}: a log written for one seat (no seed) cannot be replayed")
        elif log.ruleset != rules.name:
            wrong.append(f"{name}: a game of '{log.ruleset}', not of '{rules.name}'")
        elif not rules.min_players <= log.players <= rules.max_players:
            wrong.append(f"{name}: {log.players} players; {rules.title} is for "
                         f"{rules.min_players}–{rules.max_players}")
    return wrong


def _scripted(scripts: tuple) -> list[list[Move]]:
    """The corpus' moves as the workers play them (they travel as plain dicts)."""
    return [[Move.from_dict(m) for m in script] for script in scripts]


def _setup(path: str, settings: Settings, options, deadline, limits, rules_path, scripts=()):
    from ..ruleset import load
    return (load(path, limits=limits, rules_path=list(rules_path) or None), settings, options, deadline,
            _scripted(scripts))


def _work(context, item) -> dict | None:
    rules, settings, options, deadline, scripts = context
    index, players, game_seed, policy, script, pick_seed = item
    if deadline is not None and index > 0 and time.time() > deadline:
        return None   # the time budget is spent: this game is not played (the first always is)
    moves = scripts[script] if script is not None else ()
    return _sent(fuzz_game(rules, players, game_seed, policy, settings, options, moves, pick_seed))


def _sent(outcome) -> dict:
    """An outcome as the report needs it, as plain data a worker can send back: a failing
    game with its moves (as dicts) and choices, which shrinking starts from; a game that did
    not fail with only what the report counts (its hits, steps, players, seed and policy)."""
    if outcome.failure is None:
        outcome.moves, outcome.choices = [], []
    else:
        outcome.moves = [m.to_dict() for m in outcome.moves]
    return asdict(outcome)


def _cost(item) -> float:
    """A guess of what a game costs, only to send the costliest out first: more seats, more
    moves; an endgame game checks only the last part of its game."""
    _, players, _, policy, _, _ = item
    return players * (0.5 if policy == "endgame" else 1.0)


def _run(path, rules, items, settings, options, deadline, workers, backend, address, progress,
         limits, rules_path, scripts=()) -> list:
    context = (rules, settings, options, deadline, _scripted(scripts))
    if backend == "local" and (workers == 1 or len(items) <= 1):
        out = []
        with heap.frozen_for_run():
            for done, item in enumerate(items, 1):
                out.append(_work(context, item))
                if progress:
                    progress(done, len(items))
        return out
    from ..backends import run_all
    # Under a time budget the games go out in their order, so that the first ones are played.
    return run_all(_setup, (str(path), settings, options, deadline, limits, tuple(rules_path), scripts), _work, items,
                   workers=workers, backend=backend, address=address, progress=progress, context=context,
                   cost=_cost if deadline is None else None)


# ── failures: shrunk, saved, reproduced ──────────────────────────────────────

def _failures(rules, played: list[dict], settings: Settings, options, failures_dir, seconds) -> list[FuzzFailure]:
    """One report per way of failing: the failing game with the fewest players, then the fewest
    moves, is shrunk (Hypothesis lowers the player count too, but a game's choices mean
    something else with other seats, so a smaller game found failing is the better start)."""
    groups: list[list[dict]] = []
    for outcome in played:
        failure = outcome["failure"]
        if failure is None:
            continue
        group = next((g for g in groups if same_failure(g[0]["failure"], failure)), None)
        if group is None:
            groups.append([outcome])
        else:
            group.append(outcome)
    return [_shrunk(rules, min(group, key=lambda o: (o["players"], len(o["moves"]), o["seed"])), len(group) - 1,
                    settings, options, failures_dir, seconds)
            for group in groups]


def _shrunk(rules, outcome: dict, more: int, settings: Settings, options, failures_dir, seconds) -> FuzzFailure:
    from ..failures import reproduce
    failure = outcome["failure"]
    small = shrink(rules, outcome["players"], outcome["seed"], outcome["choices"], failure, settings,
                   options, seconds)
    game, seen, _ = replay_choices(rules, small.players, outcome["seed"], small.choices, settings,
                                   failure["kind"], options)
    if seen is None:   # cannot happen for a deterministic check; keep the game as found
        game, seen, _ = replay_choices(rules, outcome["players"], outcome["seed"], outcome["choices"],
                                       settings, failure["kind"], options)
        small.shrunk = False
    seen = seen or failure
    log = failure_log(rules, game, seen, small.players, outcome["seed"], options)
    path = None
    if failures_dir is not None:
        path = _save(log, Path(failures_dir), rules.variant or rules.name, outcome["seed"], seen["kind"])
    reproduced = reproduce(rules, log).reproduced
    return FuzzFailure(kind=seen["kind"], check=seen["check"], message=seen["message"],
                       log=None if path is None else str(path), seed=outcome["seed"],
                       players=log.players, policy=outcome["policy"], moves=len(log.moves),
                       found_after=len(outcome["moves"]) + (1 if failure.get("extra") else 0),
                       last_rule=last_rule(game, log), reproduced=reproduced, shrunk=small.shrunk,
                       others=more)


def failure_log(rules, game, failure: dict, players: int, seed: int, options: dict | None) -> Log:
    """The log of `game` as it failed: its moves, the failing move (when the failure has one
    the game never played) and the failure record. `game` is None when its setup failed."""
    from ..failures import log_of_failure
    extra = failure.get("extra")
    record = LogFailure(kind=failure["kind"], check=failure["check"], move=failure["move"],
                        message=failure["message"])
    return log_of_failure(rules.model, players, seed, game.options if game is not None else dict(options or {}),
                          [] if game is None else game._moves, None if extra is None else Move.from_dict(extra),
                          record)


def _save(log: Log, folder: Path, name: str, seed: int, kind: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-fuzz-seed{seed}-{kind}.json"
    path.write_text(log.to_json(), encoding="utf-8")
    return path


def last_rule(game, log: Log) -> str | None:
    """The action of the log's last move, where it is written, and the rules that move set off
    (what it hit in the coverage counts)."""
    if not log.moves or game is None:
        return None
    last = log.moves[-1]
    action = game.model.actions.get(last.action)
    where = f" ({action.span})" if action is not None else ""
    text = f"P{last.player} {last.action}{where}"
    if len(log.moves) > game.move_count:   # the failing move was never played: it set nothing off
        return text
    before = game.ruleset.new_game(game.players, game.seed, narrate=False, options=game.options)
    for record in game._moves[:-1]:
        before.play(record)
    hits_before = dict(before.hits)
    before.play(Move(last.player, last.action, dict(last.args)))
    fired = [k for k, n in before.hits.items() if n > hits_before.get(k, 0) and k.startswith(_ACTED)]
    return text + (f"; it ran {', '.join(sorted(fired))}" if fired else "")


# What a move sets off that is a rule of the ruleset acting (its action is named already;
# phases are where the flow stands, and requires only decide which moves are legal).
_ACTED = ("rule:", "trigger:", "scoring:", "tiebreak:", "branch:", "end:")
