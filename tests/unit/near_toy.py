"""What the tests of neighbours and lines counted from an index share (test_near_counts.py,
test_near_reads.py, test_near_lifted.py, test_line_counts.py): the opening of their toy rulesets — eight nodes in a
ring with a chord, a stone per node at most, and the def whose values the counts answer —, a
ruleset loaded with kept values or without, and the functions computing a kept def's values."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import LimitExceeded
from regnum.compiler import memo

from toy_rules import load

HEADER = """
game toy "Toy"
players 2..2
board map: graph
    nodes a, b, c, d, e, f, g, h
    edges a - b, b - c, c - d, d - e, e - f, f - g, g - h, h - a, a - e
piece stone:
    owner: player
zone site per map: public
zone pool per player: public
def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner
def near_mine(x, p, lifted) = any(owner_of(n) == p and n != lifted for n in neighbours(map, x))
"""


def loaded(tmp_path, text: str, name: str, kept: bool = True):
    """The ruleset, loaded without the disk cache, with kept values or without (`kept`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        if kept:
            return load(tmp_path, text, name)
        with memo.disabled():
            return load(tmp_path, text, name)


def compiled(tmp_path, text: str, name: str, action: str, kept: bool = True):
    """(the ruleset, the source of `action`'s first prefer), loaded as `loaded` loads it."""
    rules = loaded(tmp_path, text, name, kept)
    return rules, rules.model.actions[action].prefers[0].narrow.source


def functions(rules) -> dict:
    """number -> the function computing and keeping a kept def's values."""
    cg = rules.model.expressions.codegen
    return {int(re.match(r"_mw(\d+)_", name).group(1)): cg.ns[name] for name in cg._memos.values()}


def stepped(text: str) -> str:
    """The ruleset with an `owner_of` that charges steps at every cell (the counts cannot
    stand for it)."""
    return text.replace("def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner",
                        "def owner_of(x) = first([s.owner for s in site(x)])")


def listing(game, seat: int) -> tuple[list, int]:
    """(the legal moves of `seat`, as (action, sorted arguments), the steps listing them took)."""
    game.peak_steps = 0
    moves = [(m.action, tuple(sorted(m.args.items()))) for m in game.legal_moves(seat)]
    return moves, game.peak_steps


def limit_messages(rulesets, placed, listing, seat: int, needed: int) -> list[str]:
    """For each ruleset, the game `placed(rules)` makes listed for `seat` within a limit of
    `needed` steps (which it must charge exactly, `listing(game, seat)[1]`) and of one step
    fewer: the message of the limit met there, each named as the last ruleset's file."""
    messages = []
    for rules in rulesets:
        for limit, passes in ((needed, True), (needed - 1, False)):
            game = placed(rules)
            game.limits = regnum.Limits(steps=limit)   # for the listing only
            if passes:
                assert listing(game, seat)[1] == needed
            else:
                with pytest.raises(LimitExceeded) as refused:
                    game.legal_moves(seat)
                messages.append(str(refused.value).replace("on.rules", "off.rules"))
    return messages
