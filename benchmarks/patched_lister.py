"""One action's generated lister against an edited copy of it, in CPU time: what a change to
the code the compiler writes would buy, measured before the compiler is taught to write it.

    .venv/bin/python benchmarks/patched_lister.py kings_gate put_object --dump /tmp/put_object.py
    # edit /tmp/put_object.py: the same function (same name), written as the compiler might
    .venv/bin/python benchmarks/patched_lister.py kings_gate put_object /tmp/put_object.py --games 40 --rounds 7

Each round plays the same four-player random games (coverage off) twice, one subprocess per
side, the lister as generated and the edited one, the order of the sides alternating from
round to round, each after a warm-up game. The edited source runs in the generated code's own
namespace (its constants, helpers and the state's readers), with Python's builtins. The two
sides must play the same games — final states and peak steps, hashed —: an edit that lists
anything else is reported (exit 1) rather than timed. The figures are the medians of the
rounds and their ratio. Made after the twenty-fourth step of docs/performance.md screened
three candidates this way by hand (one kept, two dropped) before writing any into the
compiler.
"""
from __future__ import annotations

import argparse
import builtins
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lister_of(rules, action: str):
    """The generated lister of `action`, or a SystemExit naming what is missing."""
    found = rules.model.actions.get(action)
    if found is None:
        raise SystemExit(f"no action '{action}'; the ruleset has {', '.join(sorted(rules.model.actions))}")
    if getattr(found.lister, "source", None) is None:
        raise SystemExit(f"'{action}' has no generated lister (it is listed by the generic walk)")
    return found.lister


def patch(rules, action: str, path: Path) -> None:
    """Replace the lister of `action` by the function of the same name that `path` defines."""
    lister = lister_of(rules, action)
    namespace = dict(lister.__globals__)
    namespace["__builtins__"] = builtins
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    edited = namespace.get(lister.__name__)
    if not callable(edited) or edited is lister:
        raise SystemExit(f"{path} defines no function {lister.__name__}, the lister it stands for")
    rules.model.actions[action].lister = edited


def play(ruleset: str, action: str, edited: str | None, games: int) -> tuple[float, str]:
    """(CPU seconds of `games` random four-player games, digest of their states and peak steps)."""
    import regnum
    from regnum.agents import play_random_game
    rules = regnum.load(ruleset)
    if edited is not None:
        patch(rules, action, Path(edited))
    else:
        lister_of(rules, action)
    play_random_game(rules, 4, 10_000, coverage=False)   # warm-up
    digest = hashlib.sha256()
    seconds = 0.0
    for seed in range(games):
        start = time.process_time()
        game = play_random_game(rules, 4, seed, coverage=False)
        seconds += time.process_time() - start
        digest.update(json.dumps([game.to_dict(), game.peak_steps], sort_keys=True).encode())
    return seconds, digest.hexdigest()


def _round(ruleset: str, action: str, edited: str | None, games: int) -> tuple[float, str]:
    command = [sys.executable, str(Path(__file__).resolve()), ruleset, action] + \
        ([edited] if edited is not None else []) + ["--games", str(games), "--child"]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit((out.stderr.strip().splitlines() or ["the side failed"])[-1])
    seconds, digest = json.loads(out.stdout.strip().splitlines()[-1])
    return seconds, digest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("action", help="the action whose lister is replaced")
    parser.add_argument("edited", nargs="?", help="a file defining the edited lister")
    parser.add_argument("--dump", type=Path, help="write the generated lister's source here, and stop")
    parser.add_argument("--games", type=int, default=30, help="games per round and side (default 30)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        if args.dump is not None:
            import regnum
            args.dump.write_text(lister_of(regnum.load(args.ruleset), args.action).source, encoding="utf-8")
            print(f"{args.dump}: the lister of '{args.action}'; edit it, keeping its name")
            return 0
        if args.child:
            print(json.dumps(play(args.ruleset, args.action, args.edited, args.games)))
            return 0
        if args.edited is None:
            parser.error("give the edited lister's file, or --dump FILE to write the generated one")
        edited = str(Path(args.edited).resolve())
        sides = {"generated": None, "edited": edited}
        times: dict[str, list[float]] = {name: [] for name in sides}
        for r in range(args.rounds):
            digests = {}
            for name in (list(sides) if r % 2 == 0 else list(reversed(sides))):
                seconds, digests[name] = _round(args.ruleset, args.action, sides[name], args.games)
                times[name].append(seconds)
            if digests["generated"] != digests["edited"]:
                print(f"round {r + 1}: the edited lister played other games than the generated one "
                      "(final states or peak steps differ): not timed", file=sys.stderr)
                return 1
            print(f"round {r + 1}: " + ", ".join(f"{name} {times[name][-1]:.3f} s" for name in sides))
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            return 2
        raise
    generated, edited_time = (statistics.median(times[name]) for name in sides)
    print(f"medians of {args.rounds} rounds, {args.games} games each, the same games on both sides: "
          f"generated {generated:.3f} s, edited {edited_time:.3f} s: edited/generated = "
          f"{edited_time / generated:.3f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "interpreter"))
    raise SystemExit(main())
