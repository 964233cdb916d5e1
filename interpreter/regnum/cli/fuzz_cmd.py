"""``regnum fuzz``: the fuzzer's command line — options, progress bar, the failures and the
coverage as tables or one JSON object. The fuzzing itself is ``regnum.fuzz``'s job."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table
from rich.text import Text

from ..resources import ruleset_label
from ..terminal import safe
from .simulate_cmd import late_progress_bar
from .common import backend_flags, checked_backend, chosen_limits, limit_flag, load_ruleset, make_console, option_flag, option_values, rules_path, rules_path_flag, wide_enough

if TYPE_CHECKING:
    from ..fuzz import FuzzReport


def _player_counts(rules, given: tuple[int, ...]) -> list[int]:
    allowed = range(rules.min_players, rules.max_players + 1)
    for n in given:
        if n not in allowed:
            raise click.BadParameter(f"{rules.title} is for {rules.min_players}–{rules.max_players} players, "
                                     f"not {n}", param_hint="'--players'")
    return sorted(set(given)) or list(allowed)


def _corpus(given: tuple[Path, ...], path: Path, rules, use_default: bool) -> list:
    """The logs of the corpus: each file given, each `*.json` of each folder given, and the
    ruleset's own folder (unless --no-corpus); refused whole (exit 2) if one cannot serve."""
    from ..fuzz import corpus_errors, corpus_files, corpus_folder
    from .errors import fail_input
    from .replay import read_log_file
    sources = list(given)
    own = corpus_folder(path, rules)
    if use_default and own.is_dir() and not given:
        sources.append(own)
    files = [file for source in sources for file in corpus_files(source)]
    logs = {}
    for file in files:
        data, log = read_log_file(file)
        if log is None:
            fail_input(f"{file}: a saved game, not a log: a corpus holds logs (seed and moves)")
        logs[str(file)] = log
    wrong = corpus_errors(rules, logs)
    if wrong:
        fail_input("corpus: " + "; ".join(wrong))
    return list(logs.values())


def _print_report(report: FuzzReport, ruleset: str, show_all: bool) -> None:
    console = make_console()
    played = ", ".join(f"{n} {policy}" for policy, n in report.policies.items() if n)
    console.print(Text(safe(f"{report.ruleset}: {report.games} games ({played}), players "
                            f"{', '.join(map(str, report.players))}, {report.steps} checked steps, "
                            f"{report.steps_per_second:.0f} steps/s")))
    reached = sum(1 for row in report.coverage if row.hits)
    table = Table(title=f"rule coverage: {reached} of {len(report.coverage)} reached")
    for name, justify in (("kind", "left"), ("rule", "left"), ("location", "left"), ("hits", "right")):
        table.add_column(name, justify=justify)
    rows = report.coverage if show_all else [row for row in report.coverage if row.hits == 0] or []
    for row in rows:
        style = "yellow" if row.hits == 0 else None
        table.add_row(*(Text(safe(cell), style=style) for cell in (row.kind, row.rule, row.location, str(row.hits))))
    if rows:
        wide_enough(console, table)
        console.print(table)
    elif not show_all:
        console.print(Text(f"rule coverage: every one of the {len(report.coverage)} rules was reached "
                           "(--coverage lists their counts)"))
    if report.unreached:
        console.print(Text(f"warning: {len(report.unreached)} rule(s) never reached", style="yellow"))
    if not report.failures:
        console.print(Text("no failure", style="green"))
        return
    given = f" --ruleset {ruleset}" if ruleset.endswith(".rules") else ""
    for failure in report.failures:
        console.print(Text(safe(f"FAILED {failure.kind}"
                                + (f" ({failure.check})" if failure.check else "")
                                + f": {failure.message}"), style="red"), soft_wrap=True)
        more = f"; {failure.others} more game(s) failed the same way" if failure.others else ""
        size = (f"shrunk from {failure.found_after} to {failure.moves} moves, {failure.players} players"
                if failure.shrunk else f"{failure.moves} moves, {failure.players} players (not shrunk)")
        console.print(Text(safe(f"  seed {failure.seed} ({failure.policy}), {size}{more}")), soft_wrap=True)
        if failure.last_rule:
            console.print(Text(safe(f"  last move: {failure.last_rule}")), soft_wrap=True)
        if failure.log:
            state = "reproduces it" if failure.reproduced else "does NOT reproduce it (a bug of regnum: please report)"
            console.print(Text(safe(f"  log: {failure.log} — `regnum replay {failure.log}{given}` {state}")),
                          soft_wrap=True)


@click.command("fuzz")
@click.argument("ruleset")
@limit_flag
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games to play (fewer if --time runs out first).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--players", "-p", type=click.IntRange(min=1), multiple=True,
              help="A player count to fuzz (repeatable; default: every count the ruleset allows).")
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True),
              help="Stop starting new games after this many seconds.")
@click.option("--workers", "-w", type=click.IntRange(min=1),
              help="Worker processes (default: every CPU of this machine, or of the Ray cluster).")
@backend_flags
@click.option("--failures-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("regnum-failures"),
              show_default=True, help="Where the log of each shrunk failure is saved.")
@click.option("--shrink-time", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="Seconds spent shrinking each failure.")
@click.option("--corpus", "corpus", type=click.Path(exists=True, path_type=Path), multiple=True,
              help="A log, or a folder of logs, that every fourth game replays and goes on from "
                   "(repeatable; default: the folder corpus/<game>/ beside the ruleset, if any).")
@click.option("--no-corpus", is_flag=True, help="Do not use the ruleset's own corpus folder.")
@click.option("--coverage", "show_all", is_flag=True, help="List every rule with its count, not only those never reached.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (failures and coverage) and nothing else.")
@option_flag
@rules_path_flag
def fuzz_command(ruleset, games, seed, players, seconds, workers, backend, address, failures_dir, shrink_time,
                 corpus, no_corpus, show_all, as_json, options) -> None:
    """Play random and adversarial games and check every step; shrink and save what fails.

    Game i uses seed SEED+i, the player counts in turn and the policies random, rare
    (moves of rarely played actions first) and endgame (replays of a game's last third) in
    turn. After every step it checks: the ruleset's invariants; that a game not over offers
    a legal move to whoever must move; that an offered move is accepted; that wrong moves
    (another seat or action, unknown, missing or out-of-range arguments, a move legal a step
    earlier) are refused and leave the state byte-identical; that the state survives a JSON
    round trip; that a seat's observation shows nothing it may not see; and that the game ends
    within the ruleset's `ends within N moves` (10,000 when it states none). At the end of a
    game, replaying its log must give the same state.

    A corpus (--corpus, or the folder corpus/<game>/ beside the ruleset) holds logs of games
    that reach positions random play almost never meets; every fourth game replays one, with
    every check, and goes on from its end with the rare policy.

    The first game failing each way is shrunk with Hypothesis to the fewest moves and players
    that still fail, saved in --failures-dir, and printed with the check that failed and the
    rule that last acted; `regnum replay LOG` reproduces it. Rule coverage lists every
    action, require, branch, trigger, scoring, tie-break, phase, rule and end condition never
    reached (all of them with --coverage). Exit 1 when anything failed.

    With --json prints {"ruleset", "games", "steps", "seconds", "steps_per_second", "players",
    "policies", "failures": [{"kind", "check", "message", "log", "seed", "players", "policy",
    "moves", "found_after", "last_rule", "reproduced", "shrunk", "others"}],
    "coverage": [{"kind", "rule", "location", "hits"}]}.

    \b
    Example:
      regnum fuzz kings_road --games 300 --seed 1
      regnum fuzz my_variant.rules --time 60 --players 2 --json
    """
    from ..fuzz import fuzz   # the fuzzer, its models and workers: imported when it runs
    checked_backend(backend, address)
    path, rules = load_ruleset(ruleset)
    counts = _player_counts(rules, players)
    logs = _corpus(corpus, path, rules, not no_corpus)
    show_progress = not as_json and make_console(stderr=True).is_terminal
    with late_progress_bar(safe(f"fuzzing {ruleset_label(rules, path)}"), games, enabled=show_progress) as update:
        report = fuzz(path, rules, games=games, seed=seed, players=counts, seconds=seconds, workers=workers,
                      backend=backend, address=address, options=option_values(options),
                      failures_dir=failures_dir, shrink_seconds=shrink_time, progress=update,
                      limits=chosen_limits(), rules_path=rules_path(), corpus=logs)
    if as_json:
        click.echo(json.dumps(report.model_dump(mode="json"), separators=(",", ":")))
    else:
        _print_report(report, str(ruleset), show_all)
    if report.failures:
        raise SystemExit(1)
