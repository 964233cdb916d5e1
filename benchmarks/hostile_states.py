"""The experiment of issue 7: saved games with one value changed, deleted or duplicated.

Plays N random games of a ruleset (2–5 players, random seeds, saved at a random point),
changes one thing in each saved game (`Game.to_json()`) and loads it. A mutated game that
loads is then used: its invariants are checked and random moves are played until it ends.
It is *corrupt* when that fails in any way (an invariant, a fault in the rules, any exception).

    PYTHONPATH=interpreter python benchmarks/hostile_states.py            # 1,000 King's Road games
    PYTHONPATH=interpreter python benchmarks/hostile_states.py --games 200 --ruleset kingdom_builder

Prints the counts; a strict loader gives `corrupt but loaded: 0` and `raw errors: 0`.
It runs against any version of regnum (it only uses the public API), so the figures of
two versions can be compared.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
from collections import Counter

import regnum
from regnum.testing import random_playout


def paths(node, prefix=()):
    """Every place in a JSON document, as a tuple of keys and indexes."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(paths(value, prefix + (key,)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(paths(value, prefix + (i,)))
    return out


def pool(doc) -> dict:
    """The scalar values of the document by type: a realistic replacement is one of them."""
    found: dict = {int: set(), str: set()}
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
            found[str].update(node)
        elif isinstance(node, list):
            stack.extend(node)
        elif type(node) in found:
            found[type(node)].add(node)
    return {k: sorted(v) for k, v in found.items()}


def other_value(value, values: dict, rnd: random.Random):
    """A value to put in place of `value`: mostly one of the same type found elsewhere in the
    document (it has a chance of passing a type check), sometimes one of another JSON type."""
    if type(value) is bool:
        same = [not value]
    elif type(value) is int:
        same = [value + 1, value - 1, 0, rnd.choice(values[int])] if values[int] else [value + 1]
    elif type(value) is str:
        same = [rnd.choice(values[str])] if values[str] else [value + "x"]
    elif type(value) is list:
        same = [[], value[:-1], value + value[-1:]] if value else [[0]]
    elif type(value) is dict:
        same = [{}]
    else:
        same = [0, "x"]
    others = [True, 1, 2.0, "x", None, [], {}, -1]
    return rnd.choice(same) if rnd.random() < 0.7 else rnd.choice(others)


def mutate(doc, rnd: random.Random) -> str:
    """Change, delete or duplicate one thing in `doc` (in place); says what."""
    places = [p for p in paths(doc) if p]
    kind = rnd.choice(["change", "delete", "duplicate"])
    if kind == "duplicate":
        items = [p for p in places if type(p[-1]) is int]
        places = items or places
        kind = "duplicate" if items else "change"
    path = rnd.choice(places)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if kind == "change":
        parent[last] = other_value(parent[last], pool(doc), rnd)
    elif kind == "delete":
        del parent[last]
    else:
        parent.insert(last, copy.deepcopy(parent[last]))
    return f"{kind} {'.'.join(map(str, path))}"


def use(game, rnd: random.Random, limit: int = 400) -> str | None:
    """None if the loaded game plays on cleanly to its end, else what went wrong."""
    try:
        failed = game.check_invariants()
        if failed:
            return f"invariant {failed[0].split(':')[0]}"
        for _ in range(limit):
            if game.is_over:
                return None
            for seat in game.to_move:
                game.legal_moves(seat)
            moves = game.all_legal_moves()
            if not moves:
                return "no legal move in a game that is not over"
            game.play(rnd.choice(moves))
            failed = game.check_invariants()
            if failed:
                return f"invariant {failed[0].split(':')[0]}"
    except Exception as err:   # everything counts: this is what the experiment looks for
        return f"{type(err).__name__}: {str(err).splitlines()[0][:80]}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ruleset", default="kings_road")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=5, help="examples of each outcome to print")
    args = parser.parse_args()
    rules = regnum.load(args.ruleset)
    rnd = random.Random(args.seed)
    refused, raw, corrupt, clean = Counter(), Counter(), Counter(), 0
    shown: Counter = Counter()
    for _ in range(args.games):
        players = rnd.randint(rules.min_players, min(rules.max_players, 5))
        game = rules.new_game(players=players, seed=rnd.randrange(2 ** 32))
        stop = rnd.randint(0, 200)
        random_playout(game, rnd.randrange(2 ** 32), max_moves=stop)
        doc = json.loads(game.to_json())
        what = mutate(doc, rnd)
        try:
            loaded = rules.game_from_json(json.dumps(doc))
        except regnum.LogError as err:
            refused[str(err).split(":")[0][:60]] += 1
            continue
        except Exception as err:
            raw[type(err).__name__] += 1
            if shown["raw"] < args.show:
                shown["raw"] += 1
                print(f"raw error at load after {what}: {type(err).__name__}: {err}")
            continue
        problem = use(loaded, random.Random(rnd.randrange(2 ** 32)))
        if problem is None:
            clean += 1
            if shown["clean"] < args.show:
                shown["clean"] += 1
                print(f"loaded and played on after {what}")
        else:
            corrupt[problem.split(":")[0]] += 1
            if shown["corrupt"] < args.show:
                shown["corrupt"] += 1
                print(f"corrupt but loaded after {what}: {problem}")
    print(f"{args.games} mutated saved games of {rules.name}")
    print(f"  refused with LogError/StateError: {sum(refused.values())}")
    print(f"  raw errors at load:               {sum(raw.values())} {dict(raw)}")
    print(f"  loaded and played on cleanly:     {clean}")
    print(f"  corrupt but loaded:               {sum(corrupt.values())} {dict(corrupt.most_common(8))}")


if __name__ == "__main__":
    main()
