"""How often a game's rules read a field of a piece: what holding pieces as arrays, one list
per field (item 2 of "What would reach the targets" in docs/performance.md), would save on
the reads alone. A piece is a dict today, read as `pieces[i]["field"]`; an array would be read
as `field[i]`, one subscript less. The reads are counted in four-player games of random
moves, every record of the state a dict that counts its lookups; the two reads are timed
with `timeit` in this process.

    .venv/bin/python benchmarks/field_reads.py kings_road --games 5
    .venv/bin/python benchmarks/field_reads.py kings_gate --games 5 --json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import timeit
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interpreter"))

import regnum  # noqa: E402


class _CountingRecord(dict):
    """A piece's record that counts the fields read from it."""

    __slots__ = ()
    reads: Counter = Counter()

    def __getitem__(self, name):
        _CountingRecord.reads[name] += 1
        return dict.__getitem__(self, name)


class _CountingPieces(list):
    """The state's list of records, turning every record put in it into a counting one (a
    field written replaces its piece's record; a piece created appends one)."""

    def __setitem__(self, index, record):
        list.__setitem__(self, index, _CountingRecord(record))

    def append(self, record):
        list.append(self, _CountingRecord(record))

    def extend(self, records):
        list.extend(self, [_CountingRecord(r) for r in records])


def count_reads(rules, games: int, players: int = 4) -> dict:
    """The fields read in `games` games of random moves (seeds 0, 1, …), in all and per move."""
    _CountingRecord.reads = Counter()
    moves = 0
    for seed in range(games):
        game = rules.new_game(players=players, seed=seed, narrate=False)
        state = game.state
        state.pieces = _CountingPieces(_CountingRecord(r) for r in state.pieces)
        picker = random.Random(seed)
        while not game.is_over:
            legal = game.all_legal_moves()
            game.play(legal[picker.randrange(len(legal))])
            moves += 1
    reads = _CountingRecord.reads
    total = sum(reads.values())
    return {"games": games, "moves": moves, "reads": total,
            "reads_a_move": round(total / moves, 1) if moves else 0.0,
            "by_field": dict(reads.most_common())}


def read_costs(number: int = 2_000_000) -> dict:
    """ns of one read of a field: of a record in a list of dicts, and of an array's item."""
    setup = "i = 37; pieces = [{'type': 't', 'label': 'x', 'kind': 'k', 'owner': 1} for _ in range(100)]; " \
            "kind = ['k'] * 100"
    record = min(timeit.repeat("pieces[i]['kind']", setup, number=number, repeat=5)) / number * 1e9
    array = min(timeit.repeat("kind[i]", setup, number=number, repeat=5)) / number * 1e9
    return {"record_ns": round(record, 1), "array_ns": round(array, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--games", type=int, default=5, help="four-player games played (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = {"ruleset": args.ruleset, **count_reads(regnum.load(args.ruleset), args.games), **read_costs()}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    saved = (figures["record_ns"] - figures["array_ns"]) * figures["reads_a_move"] / 1000
    print(f"{args.ruleset}: {figures['reads']:,} reads of a piece's field in {figures['games']} games, "
          f"{figures['reads_a_move']} a move")
    print("  most read: " + ", ".join(f"{name} {n:,}" for name, n in list(figures["by_field"].items())[:6]))
    print(f"  a read: {figures['record_ns']} ns as pieces[i][\"field\"], {figures['array_ns']} ns as field[i]: "
          f"at most {saved:.2f} µs a move saved by arrays")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
