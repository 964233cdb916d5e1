"""Where random playouts spend their time, sampled: the self and inclusive shares of each
function, and of the lines of one.

cProfile (`profile_playouts.py`) counts calls exactly but charges every call its own
overhead, so functions that make many small calls look costlier than they are, and a C call
(a dict's `get`, a list's `append`) is a function of its own. Python bytecodes counted with
`sys.settrace` miss what the C code under a bytecode costs. A sampling profiler sees neither
distortion: py-spy (not a dependency of regnum: `pip install py-spy`, or a wheel of it
unpacked anywhere) reads the interpreter's stack so many times a second, and a function's
share of the samples is its share of the time. Only the samples taken while a game is
played count (under `play_random_game`), not the import nor the load.

    .venv/bin/python benchmarks/sampled_profile.py kings_road --games 1500
    .venv/bin/python benchmarks/sampled_profile.py kingdom_builder --games 150 --lines _prefer
    .venv/bin/python benchmarks/sampled_profile.py kingdom_builder --games 100 --coverage   # as fuzz plays
    .venv/bin/python benchmarks/sampled_profile.py kings_gate --games 80 --parts   # by part of a game's time
    .venv/bin/python benchmarks/sampled_profile.py kingdom_builder --games 8 --fuzz   # regnum fuzz's checked games
    .venv/bin/python benchmarks/sampled_profile.py --raw saved.txt --top 20   # a record made before

Used for the profiles of docs/performance.md ("At the fifteenth step"; by part, "Where the
time goes").
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNDER = "play_random_game"   # a sample counts when this function is on its stack
FUZZ_UNDER = "fuzz_game"     # with --fuzz: a game the fuzzer plays and checks
_DOING = {UNDER: "playing", FUZZ_UNDER: "fuzzing"}

_PLAYER = """
import sys
import regnum
from regnum.agents import play_random_game
rules = regnum.load(sys.argv[1])
for seed in range(int(sys.argv[2])):
    play_random_game(rules, 4, seed, coverage=sys.argv[3:] == ["coverage"])
"""


def read_raw(lines) -> list[tuple[list[str], int]]:
    """py-spy's raw format, a stack a line: `frame;frame;… count`, outermost first, each
    frame `function (file:line)`. Lines without a count are skipped."""
    samples = []
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if stack and count.isdigit():
            samples.append((stack.split(";"), int(count)))
    return samples


def _function(frame: str) -> str:
    """`function (file)` of a frame `function (file:line)`, the line left out."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rpartition(':')[0]})" if where else name


def _in_games(samples, under: str):
    """The (stack, count) samples taken while a game was played: a frame of `under` on the stack."""
    mark = under + " "
    for stack, count in samples:
        if any(frame.startswith(mark) for frame in stack):
            yield stack, count


def shares(samples, under: str = UNDER) -> tuple[int, collections.Counter, collections.Counter]:
    """(samples counted, self samples by function, inclusive samples by function), of the
    stacks with a frame of `under`: self is the innermost frame's function, inclusive every
    function on the stack once."""
    total, own, inclusive = 0, collections.Counter(), collections.Counter()
    for stack, count in _in_games(samples, under):
        total += count
        functions = [_function(frame) for frame in stack]
        own[functions[-1]] += count
        for name in dict.fromkeys(functions):   # once each, outermost first (ties keep that order)
            inclusive[name] += count
    return total, own, inclusive


def line_shares(samples, needle: str, under: str = UNDER) -> tuple[int, collections.Counter]:
    """(samples counted, self samples by innermost frame, line and all) of the frames whose
    function's name holds `needle`."""
    total, lines = 0, collections.Counter()
    for stack, count in _in_games(samples, under):
        total += count
        if needle in stack[-1].partition(" (")[0]:
            lines[stack[-1]] += count
    return total, lines


# The parts of a game's time, in the order `--parts` prints them.
PARTS = ("starting a game", "listing moves", "kept values and indexes", "scoring",
         "rules: statements and effects", "the flow's VM", "the move's bookkeeping", "other")
# Where a frame's function belongs, by its file (the first match). The helpers of _CALLERS,
# which the generated code calls for every item (boards, grids, builtins, texts, the seeded
# generator), belong to the frame that called them: a listing's `around(…)` is listing.
_BY_FILE = (("<regnum moves", "listing moves"), ("<regnum prefer", "listing moves"),
            ("<regnum domain", "listing moves"), ("decisions.py", "listing moves"),
            ("memo.py", "kept values and indexes"),
            ("<regnum scoring", "scoring"), ("scoring.py", "scoring"),
            ("game.py", "the move's bookkeeping"), ("state.py", "the move's bookkeeping"),
            ("agents.py", "the move's bookkeeping"),
            ("statements.py", "rules: statements and effects"), ("<regnum", "rules: statements and effects"))
_CALLERS = ("helpers.py", "builtins.py", "boards.py", "opengrid.py", "graphs.py", "text.py", "rng.py",
            "random.py", "expressions.py", "model.py")
# runtime.py holds the VM and the effects side by side: these are the VM's (and a `can`'s).
_VM = frozenset({"run_stack", "advance", "Ctx.push", "Ctx.spawn", "Ctx.run_fired", "Ctx.defer",
                 "run_native", "run_native_with", "arguments", "check_size", "Ctx.check_size",
                 "waiting", "waiting_seats", "to_move", "waiting_stack", "_end"})
_STARTING = ("Game.start ", "Game.prepared ")


def part_of(stack: list[str]) -> str:
    """The part of a game's time a sample's stack (outermost first) is spent in: starting a
    game when the game's start is on it, else the part of the innermost frame that belongs
    to one (a helper belongs to its caller)."""
    if any(frame.startswith(_STARTING) for frame in stack):
        return "starting a game"
    for frame in reversed(stack):
        name, _, where = frame.partition(" (")
        path = where.rpartition(":")[0]
        if path.endswith(_CALLERS):
            continue
        if path.endswith("compiler/__init__.py"):   # what the compiler made as closures
            return "scoring" if "_scoring" in name or "_seat_order" in name else "rules: statements and effects"
        if path.endswith("runtime.py"):
            if name.startswith("Ctx.can"):
                return "listing moves"
            return "the flow's VM" if name in _VM else "rules: statements and effects"
        for start, part in _BY_FILE:
            if path.startswith(start) or path.endswith(start):
                return part
        break
    return "other"


def part_shares(samples, under: str = UNDER) -> tuple[int, collections.Counter]:
    """(samples counted, samples by part of a game's time), of the stacks under `under`."""
    total, parts = 0, collections.Counter()
    for stack, count in _in_games(samples, under):
        total += count
        parts[part_of(stack)] += count
    return total, parts


def report(samples, top: int = 30, needle: str | None = None, parts: bool = False,
           under: str = UNDER) -> list[str]:
    if parts:   # the parts alone: no function's shares made for nothing
        total, shares_by_part = part_shares(samples, under)
        if not total:
            return [f"no sample under {under}: was a game played?"]
        return [f"{total} samples while {_DOING[under]}", "-- by part of the game's time"] + [
            f"{shares_by_part[part] / total * 100:6.1f}%  {part}" for part in PARTS if shares_by_part[part]]
    total, own, inclusive = shares(samples, under)
    if not total:
        return [f"no sample under {under}: was a game played?"]
    out = [f"{total} samples while {_DOING[under]}"]
    if needle is not None:
        _, lines = line_shares(samples, needle, under)
        out.append(f"-- self, by line, of functions named *{needle}*")
        out += [f"{n / total * 100:6.2f}%  {frame}" for frame, n in lines.most_common(top)]
        return out
    out.append("-- self")
    out += [f"{n / total * 100:6.1f}%  {name}" for name, n in own.most_common(top)]
    out.append("-- inclusive")
    out += [f"{n / total * 100:6.1f}%  {name}" for name, n in inclusive.most_common(top)]
    return out


def record(ruleset: str, games: int, rate: int, spy: str, into: Path, coverage: bool = False,
           fuzz: bool = False) -> None:
    """py-spy's record of `games` four-player random games, or with `fuzz` of `regnum fuzz`
    checking `games` games on one worker (its failures, if any, saved beside the record)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"))
    if fuzz:
        command = [sys.executable, "-m", "regnum", "fuzz", ruleset, "--games", str(games), "--workers", "1",
                   "--failures-dir", str(into.parent / "failures"), "--json"]
    else:
        command = [sys.executable, "-c", _PLAYER, ruleset, str(games)] + (["coverage"] if coverage else [])
    subprocess.run([spy, "record", "--rate", str(rate), "--format", "raw", "--output", str(into), "--",
                    *command], env=env, check=True, capture_output=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--games", type=int, default=100, help="four-player games played (default 100)")
    parser.add_argument("--rate", type=int, default=1000, help="samples a second (default 1000)")
    parser.add_argument("--top", type=int, default=30, help="rows of each table (default 30)")
    parser.add_argument("--lines", metavar="NAME", help="the lines of the functions whose name holds NAME")
    parser.add_argument("--parts", action="store_true",
                        help="the shares of the parts of a game's time (listing, rules, the VM, bookkeeping…)")
    parser.add_argument("--coverage", action="store_true",
                        help="count coverage while playing, as `regnum fuzz` does (default: off, as `regnum bench`)")
    parser.add_argument("--fuzz", action="store_true",
                        help="profile `regnum fuzz` checking --games games (one worker): the samples under "
                             "its games, checks included")
    parser.add_argument("--raw", type=Path, help="read this record of py-spy's instead of making one")
    parser.add_argument("--py-spy", default=shutil.which("py-spy"), help="the py-spy to run (default: on PATH)")
    args = parser.parse_args(argv)
    if args.fuzz and (args.parts or args.coverage):
        parser.error("--parts and --coverage are of played games; --fuzz profiles the fuzzer's checked games")
    under = FUZZ_UNDER if args.fuzz else UNDER
    if args.raw is not None:
        text = args.raw.read_text(encoding="utf-8").splitlines()
    else:
        if args.ruleset is None:
            parser.error("name a ruleset, or give --raw")
        if not args.py_spy:
            print("py-spy is not on PATH: pip install py-spy, or give --py-spy", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory() as folder:
            into = Path(folder) / "record.txt"
            record(args.ruleset, args.games, args.rate, args.py_spy, into, args.coverage, args.fuzz)
            text = into.read_text(encoding="utf-8").splitlines()
    print("\n".join(report(read_raw(text), args.top, args.lines, args.parts, under)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
