"""Two checkouts of regnum timed against each other: what a change buys, in CPU time.

`regnum bench` runs every ruleset one after the other, and on a noisy machine a gain of
a tenth can drown between two of its runs. Here two checkouts (a worktree of an earlier
commit and this one, say) play the same four-player random games (`--players N` for another
count), coverage off (on with
`--coverage`, as `regnum fuzz` plays; or checked at every step as `regnum fuzz` checks them,
with `--fuzz`), one
subprocess per side and round, the order of the sides alternating from round to round, each
after a warm-up game; the figures are the medians of the rounds, in CPU seconds, and their
ratio. Each side imports its own `interpreter/` and keeps its own cache of generated code;
both sides' modules are compiled to bytecode first, as a user's are, so that no process
compiles a module it imports inside the time measured.

With `--loads N`, no game: each side loads the ruleset once, then N more times, and the
figure of a round is the least CPU time of those warm loads (the parser built, the trees and
the code kept: what `regnum bench` reports as `warm_ms`, and what a test or a server pays for
every load after the first), in milliseconds; the least rather than the median, so that a
slow moment of the machine is left out.

With `--edits N`, no game either: what an author waits for after each edit. Each side copies
the checkout's `rulesets/` folder (or the folder of a `.rules` file given) into a folder of its
own, with a disk cache of its own; one process loads the ruleset's copy, then the copy is
edited N times (a comment line put before a declaration in its middle: another text, the same
rules, the lines after it moved), each edit loaded by a new process; the figure of a round is
the median CPU time of those N loads, in ms.

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kingdom_builder --games 30 --rounds 5
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kingdom_builder --coverage
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kings_gate --fuzz --games 4
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kings_gate --loads 30   # warm loads
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . permanent_nobles --edits 5   # loads after an edit

Used for the figures of docs/performance.md ("At the fourteenth step") and, with `--loads`
and `--edits`, of docs/performance-history.md ("At the forty-fourth step", "At the
forty-fifth step").
"""
from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_TIMER = """
import os, sys, time
import regnum
from regnum.agents import play_random_game
rules = regnum.load(sys.argv[1])
players = int(os.environ.get("REGNUM_HEAD_TO_HEAD_PLAYERS", "4"))
coverage = sys.argv[3:] == ["coverage"]
if sys.argv[3:] == ["fuzz"]:   # each game as `regnum fuzz` plays and checks its random games
    from regnum.fuzz import DEFAULT_BOUND
    from regnum.fuzz.playout import Settings, fuzz_game
    settings = Settings(bound=getattr(rules, "move_bound", None) or DEFAULT_BOUND)
    def play(seed):
        assert fuzz_game(rules, players, seed, "random", settings).failure is None
else:
    def play(seed):
        play_random_game(rules, players, seed, coverage=coverage)
play(10_000)   # warm-up
start = time.process_time()
for seed in range(int(sys.argv[2])):
    play(seed)
print(time.process_time() - start)
"""

_LOADS = """
import sys, time
import regnum
regnum.load(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    regnum.load(sys.argv[1])
    times.append(time.process_time() - start)
print(min(times) * 1e3)
"""


_EDITED = """
import sys, time
import regnum
start = time.process_time()
regnum.load(sys.argv[1], rules_path=[sys.argv[2]])
print((time.process_time() - start) * 1e3)
"""


def _edited_loads(checkout: Path, cache: Path, ruleset: str, edits: int) -> float:
    """The median CPU milliseconds of `edits` loads of the ruleset's copy, each in a new
    process after another edit, the cache (a new one each round) filled by one load of the copy
    as it was."""
    cache = Path(tempfile.mkdtemp(dir=cache))
    env = _env(checkout, cache)
    folder, relative = rules_folder(checkout, ruleset)
    copy = cache.parent / f"{cache.name}-rules"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy)
    target = copy / relative
    times = []
    for k in range(edits + 1):
        if k:
            target.write_text(_edited(target.read_text(encoding="utf-8"), k), encoding="utf-8")
        out = subprocess.run([sys.executable, "-c", _EDITED, str(target), str(copy)], env=env,
                             capture_output=True, text=True, check=True)
        if k:
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def rules_folder(checkout: Path, ruleset: str) -> tuple[Path, Path]:
    """(the folder an edit's copy is made of, the ruleset's path in it): the checkout's
    `rulesets/` for a bundled ruleset's name, else the folder of the `.rules` file given."""
    given = Path(ruleset)
    if given.suffix == ".rules":
        return given.resolve().parent, Path(given.name)
    folder = checkout / "rulesets"
    found = [p for p in (folder / f"{ruleset}.rules", folder / "variants" / f"{ruleset}.rules") if p.is_file()]
    if not found:
        raise SystemExit(f"{ruleset}: no such ruleset in {folder}")
    return folder, found[0].relative_to(folder)


def _env(checkout: Path, cache: Path) -> dict:
    """The environment of a side's process: its own modules, its own cache."""
    return dict(os.environ, PYTHONPATH=str(checkout / "interpreter"), REGNUM_CACHE_DIR=str(cache),
                PYTHONHASHSEED="0")


def _edited(text: str, k: int) -> str:
    """`text` with a comment line `# edit k` put before the first declaration from its middle on
    (a line that begins with a letter), else at its end: another text, the same rules, the
    lines after it moved by one."""
    lines = text.split("\n")
    at = next((i for i in range(len(lines) // 2, len(lines)) if lines[i][:1].isalpha()), len(lines))
    return "\n".join(lines[:at] + [f"# edit {k}"] + lines[at:])


def _round(checkout: Path, cache: Path, ruleset: str, games: int, coverage: bool = False, fuzz: bool = False,
           loads: int = 0, edits: int = 0) -> float:
    """CPU seconds of `games` games; with `loads`, the least CPU milliseconds of that many warm
    loads instead; with `edits`, the median CPU milliseconds of a load after an edit."""
    if edits:
        return _edited_loads(checkout, cache, ruleset, edits)
    env = _env(checkout, cache)
    if loads:
        command = [sys.executable, "-c", _LOADS, ruleset, str(loads)]
    else:
        command = [sys.executable, "-c", _TIMER, ruleset, str(games)] + \
            (["coverage"] if coverage else ["fuzz"] if fuzz else [])
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout timed first in odd rounds")
    parser.add_argument("after", type=Path, help="the checkout it is compared with")
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--games", type=int, default=30, help="games per round and side (default 30)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--players", type=int, default=4, help="players a game (default 4)")
    parser.add_argument("--coverage", action="store_true", help="count coverage, as `regnum fuzz` does")
    parser.add_argument("--fuzz", action="store_true", help="check every step, as `regnum fuzz` does")
    parser.add_argument("--loads", type=int, default=0,
                        help="no game: the least CPU time of this many warm loads of the ruleset, in ms")
    parser.add_argument("--edits", type=int, default=0,
                        help="no game: the median CPU time of a load after each of this many edits of a copy, in ms")
    args = parser.parse_args(argv)
    os.environ["REGNUM_HEAD_TO_HEAD_PLAYERS"] = str(args.players)   # read by each side's games (_TIMER)
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for name, checkout in sides.items():
        if not (checkout / "interpreter" / "regnum").is_dir():
            print(f"{name}: {checkout} is not a checkout of regnum (no interpreter/regnum)", file=sys.stderr)
            return 2
    for checkout in sides.values():
        # Each side's modules read from their bytecode, as a user's are: a module a load imports
        # (the parser's, the checker's) compiled from its source at every process would time
        # the import, not the load (PYTHONDONTWRITEBYTECODE set, or a new worktree).
        compileall.compile_dir(str(checkout / "interpreter"), quiet=1)
    times: dict[str, list[float]] = {name: [] for name in sides}
    with tempfile.TemporaryDirectory() as folder:
        caches = {name: Path(folder) / name for name in sides}
        for cache in caches.values():
            cache.mkdir(mode=0o700)
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for name in order:
                counted = {"coverage": True} if args.coverage else {"fuzz": True} if args.fuzz else \
                    {"loads": args.loads} if args.loads else {"edits": args.edits} if args.edits else {}
                times[name].append(_round(sides[name], caches[name], args.ruleset, args.games, **counted))
            unit = "ms" if args.loads or args.edits else "s"
            print(f"round {r + 1}: " + ", ".join(f"{name} {times[name][-1]:.3f} {unit}" for name in sides))
    before, after = (statistics.median(times[name]) for name in sides)
    if args.loads:
        print(f"medians of {args.rounds} rounds of the least of {args.loads} warm loads: before {before:.2f} ms, "
              f"after {after:.2f} ms: after/before = {after / before:.3f}")
        return 0
    if args.edits:
        print(f"medians of {args.rounds} rounds of the median of {args.edits} loads after an edit: "
              f"before {before:.1f} ms, after {after:.1f} ms: after/before = {after / before:.3f}")
        return 0
    print(f"medians of {args.rounds} rounds, {args.games} games each"
          f"{', coverage counted' if args.coverage else ', every step checked' if args.fuzz else ''}: before {before:.3f} s "
          f"({args.games / before:.1f} games/s), after {after:.3f} s ({args.games / after:.1f} games/s): "
          f"after/before = {after / before:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
