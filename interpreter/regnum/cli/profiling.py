"""``regnum bench --profile``'s tables: where random games of a ruleset spend their time, by
its declarations and lines.

Only the printing lives here; the sampling and what each sample is given to are
``regnum.profiler``'s.
"""
from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from ..terminal import safe
from .common import make_console, wide_enough

_NOTE = ("Sampled: {samples:,} samples of CPU time taken during the games ({per_second:,.0f} a second: the "
         "kernel's timer may tick less often than the {rate:,} a second asked). self = the samples taken while "
         "the declaration's own code ran; with calls = while it or anything it called ran (each sample counted "
         "once). A sample under no code of the ruleset is the engine's own bookkeeping. Shares are estimates: "
         "about ±{margin:.1f} points on a share of 25 % with this many samples.")


def _percent(share: float) -> str:
    return f"{100 * share:.1f} %"


def print_profile(profile, top: int) -> None:
    """The profile's heading, its table of declarations and its table of the `top` costliest lines."""
    console = make_console()
    last = profile.seed + profile.games - 1
    seeds = f"seed {profile.seed}" if profile.games == 1 else f"seeds {profile.seed}–{last}"
    counted = ", counting coverage" if profile.coverage else ""
    console.print(Text(safe(f"{profile.ruleset}, {profile.players} players: {profile.games} random games ({seeds}"
                            f"{counted}), {profile.moves:,} moves, {profile.cpu_seconds:.2f} s of CPU")), soft_wrap=True)
    if not profile.samples:
        console.print(Text("no sample was taken: the games took less CPU time than the timer's tick; play more "
                           "of them (--games, --profile-seconds)"), soft_wrap=True)
        return
    table = Table(title="Where the time goes, by declaration", box=box.SIMPLE_HEAD, pad_edge=False,
                  title_justify="left")
    for name, justify in (("self", "right"), ("with calls", "right"), ("declaration", "left"), ("where", "left")):
        table.add_column(name, justify=justify, no_wrap=True)
    shown, left = [], []
    for row in profile.declarations:
        (shown if row.self_share >= 0.005 or row.total_share >= 0.05 else left).append(row)
    for row in shown:
        table.add_row(Text(_percent(row.self_share)), Text(_percent(row.total_share)), Text(safe(row.declaration)),
                      Text(safe(row.location)))
    if left:
        share = sum(row.self_share for row in left)
        more = "1 more declaration" if len(left) == 1 else f"{len(left)} more declarations"
        table.add_row(Text(_percent(share)), Text(""), Text(f"{more}, each below 0.5 %"), Text(""))
    table.add_row(Text(_percent(profile.engine_share)), Text(""), Text("the engine's own bookkeeping"), Text(""))
    wide_enough(console, table)
    console.print(table)
    lines = Table(title=f"The costliest lines (the {min(top, len(profile.lines))} largest of {len(profile.lines)})",
                  box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
    for name, justify in (("share", "right"), ("line", "left"), ("in", "left"), ("text", "left")):
        lines.add_column(name, justify=justify, no_wrap=name != "text")
    for row in profile.lines[:top]:
        within = row.declaration if row.part is None else f"{row.declaration}: {row.part}"
        lines.add_row(Text(_percent(row.share)), Text(safe(row.location)), Text(safe(within)), Text(safe(row.text)))
    wide_enough(console, lines)
    console.print(lines)
    per_second = profile.samples / profile.cpu_seconds if profile.cpu_seconds > 0 else 0.0
    margin = 100 * 2 * (0.25 * 0.75 / profile.samples) ** 0.5   # two standard errors of a share of 25 %
    console.print(Text(_NOTE.format(samples=profile.samples, per_second=per_second, rate=profile.rate,
                                    margin=margin)), soft_wrap=True)
