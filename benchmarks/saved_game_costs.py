"""What a saved game costs to write, read back and show: the work of a checked step of
`regnum fuzz`, which writes the game's JSON several times a step (before and after each wrong
move, and the game it reads back), reads it back as a stranger's file is read, and builds a
seat's observation twice.

    PYTHONPATH=interpreter .venv/bin/python benchmarks/saved_game_costs.py kingdom_builder
    PYTHONPATH=/tmp/before/interpreter .venv/bin/python benchmarks/saved_game_costs.py kingdom_builder --json

A four-player game (`--seed`, each move drawn by a generator of that seed among all the legal
moves) is played `--moves` moves, its JSON written after each move (the average of those
writes is `to_json after a move`). Then, on the game as it stands, each operation is timed
in CPU time: the median of `--rounds` rounds of `--repeat` calls each.

- `to_json, again`: the game writes its text again, nothing changed since the last write;
- `to_json, read back`: a game just read from that text writes it (each move's text and the
  state's, nothing written before);
- `read_json`: the text parsed as an untrusted document (size, nesting, numbers, keys);
- `game_from_json`: the whole reading, checks and invariants (`check_moves=False`, as the
  fuzzer's round trip reads), nothing read before;
- `game_from_json, one move on` (with `--one-move-on`): the same, right after reading the
  text of the game one move earlier, as the fuzzer's round trip reads at each step: the moves
  read then are not read again (engine/saved.MovesRead), nor the parts of the state that did
  not change (engine/saved.PartsRead);
- `saved.check`: its check of the state against the ruleset alone, as of a state never
  checked;
- `observation`: what seat 0 sees.

Run it with another checkout on PYTHONPATH to compare (docs/performance.md, "At the
twenty-sixth step").
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import regnum
from regnum.documents import read_json
from regnum.engine import saved


def played(rules, moves: int, seed: int, clock=time.process_time) -> tuple:
    """(the game after `moves` moves or its end, the CPU seconds of each to_json after a move)."""
    game = rules.new_game(players=4, seed=seed)
    picker = random.Random(seed)
    writes = []
    while not game.is_over and game.move_count < moves:
        legal = game.all_legal_moves()
        game.play(legal[picker.randrange(len(legal))])
        start = clock()
        game.to_json()
        writes.append(clock() - start)
    return game, writes


def timed(operation, rounds: int, repeat: int, clock=time.process_time) -> float:
    """Median over `rounds` of the CPU seconds of one call, each round `repeat` calls."""
    operation()   # warm: a first call may fill what later calls read
    per_round = []
    for _ in range(rounds):
        start = clock()
        for _ in range(repeat):
            operation()
        per_round.append((clock() - start) / repeat)
    return statistics.median(per_round)


def check_afresh(rules, record) -> None:
    """saved.check of `record` as of a record never checked: what it judged of the same
    objects before (saved._Types.passed, since the fortieth step) forgotten first."""
    passed = getattr(saved._types(rules), "passed", None)
    if passed is not None:
        passed.clear()
    saved.check(rules, record)


def costs(name: str, moves: int = 100, seed: int = 3, rounds: int = 5, repeat: int = 40,
          one_move_on: bool = False) -> dict:
    rules = regnum.load(name)
    earlier, _ = played(rules, moves - 1, seed)
    game, writes = played(rules, moves, seed)
    text = game.to_json()
    record, _ = saved.parse(rules, text)

    def whole():
        """The text read with nothing read before."""
        rules.moves_read = None
        return rules.game_from_json(text, check_moves=False)

    rules.game_from_json(earlier.to_json(), check_moves=False)   # its moves kept,
    rules.game_from_json(earlier.to_json(), check_moves=False)   # then their texts made
    known = rules.moves_read

    def one_move_on_read():
        rules.moves_read = known
        return rules.game_from_json(text, check_moves=False)

    unread = [whole() for _ in range(rounds * repeat + 1)]
    found = {
        "ruleset": name,
        "moves": game.move_count,
        "json_chars": len(text),
        "us": {
            "to_json after a move": 1e6 * statistics.mean(writes) if writes else None,
            "to_json, again": 1e6 * timed(game.to_json, rounds, repeat),
            "to_json, read back": 1e6 * timed(lambda: unread.pop().to_json(), rounds, repeat),
            "read_json": 1e6 * timed(lambda: read_json(text, "saved game"), rounds, repeat),
            "game_from_json": 1e6 * timed(whole, rounds, repeat),
            "saved.check": 1e6 * timed(lambda: check_afresh(rules, record), rounds, repeat),
            "observation": 1e6 * timed(lambda: game.observation(0), rounds, repeat),
        },
    }
    if one_move_on:
        found["us"]["game_from_json, one move on"] = 1e6 * timed(one_move_on_read, rounds, repeat)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--moves", type=int, default=100, help="moves played before timing (default 100)")
    parser.add_argument("--seed", type=int, default=3, help="the game's seed and its moves' (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each operation (default 5)")
    parser.add_argument("--repeat", type=int, default=40, help="calls a round (default 40)")
    parser.add_argument("--one-move-on", action="store_true",
                        help="also time reading the text one move on from the text read before")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    found = costs(args.ruleset, args.moves, args.seed, args.rounds, args.repeat, args.one_move_on)
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    print(f"{found['ruleset']}: {found['moves']} moves, a saved game of {found['json_chars']:,} characters "
          f"(regnum from {regnum.__file__})")
    for what, us in found["us"].items():
        print(f"  {what:28s} {'-' if us is None else f'{us:9.1f} µs'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
