"""Majority scoring and tie-break policies: generic ranking by a measure.

A ranking sorts the contenders by their measure, splits equal measures into
tie blocks, lets key policies (`by highest EXPR`) break blocks apart, and
lets one block policy decide what the players still tied receive.

Each policy may carry a tag: `tally(tag)` is called every time that policy is
applied to a block of tied players, which is what coverage counts (a policy
whose block is never tied never decides anything).
"""
from __future__ import annotations

from typing import Callable

BLOCK_POLICIES = ("take_lowest", "take_highest", "share_rank", "split_evenly")


def best_first(value, order: str):
    """A ranking value turned so that the larger is the better: a number, or a list of numbers
    compared item by item (lexicographically; a list that is a prefix of another comes first)."""
    if order == "highest":
        return value
    return -value if type(value) is not list else _Reversed(value)


class _Reversed:
    """A list whose order is turned round, for `lowest` keys that are lists."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __lt__(self, other):
        return other.value < self.value

    def __gt__(self, other):
        return other.value > self.value

    def __eq__(self, other):
        return self.value == other.value

    __hash__ = None


def rank(entries: list, keys: list, tally: Callable | None = None) -> list[list]:
    """Order (player, measure) pairs into tie blocks, best first.

    keys: [(order, key(player) -> value, tag)] applied in turn inside each block; tally(tag)
    counts each block of two or more players a key is applied to (a None tag is not counted).
    """
    entries = sorted(entries, key=_negated)
    blocks: list[list] = []
    block: list = []
    first = None   # the measure of the block being filled (its first player's)
    for pm in entries:
        if block and pm[1] == first:
            block.append(pm)
        else:
            block = [pm]
            blocks.append(block)
            first = pm[1]
    for order, key, tag in keys:
        refined = []
        for block in blocks:
            if len(block) == 1:
                refined.append(block)
                continue
            if tally is not None and tag is not None:
                tally(tag)
            valued = [(key(p), (p, m)) for p, m in block]
            valued.sort(key=lambda kv: kv[0], reverse=(order == "highest"))
            sub: list = []
            last = object()
            for k, pm in valued:
                if sub and k == last:
                    sub[-1].append(pm)
                else:
                    sub.append([pm])
                last = k
            refined.extend(sub)
        blocks = refined
    return blocks


def _negated(pm):
    """The sort key of rank: the measure negated, so that the largest comes first and equal
    measures keep their order."""
    return -pm[1]


def payouts(blocks: list[list], pays: list, places: int | None, policy: str,
            tally: Callable | None = None, tag: str | None = None) -> list[tuple]:
    """[(player, position, points)] for every ranked player, in ranking order; tally(tag) counts
    each block of two or more players the block policy decides for. Every player of a block is
    paid alike, so a block's points are reckoned once."""
    out = []
    position = 1
    paid = len(pays)
    counted = tally is not None and tag is not None
    for dense, block in enumerate(blocks, 1):
        k = len(block)
        if k > 1 and counted:
            tally(tag)
        if policy == "take_lowest":
            at = position + k - 1
            points = 0 if at > paid or (places is not None and at > places) else pays[at - 1]
        elif policy == "take_highest":
            points = 0 if position > paid or (places is not None and position > places) else pays[position - 1]
        elif policy == "share_rank":
            points = 0 if dense > paid or (places is not None and dense > places) else pays[dense - 1]
        else:  # split_evenly
            points = sum(0 if at > paid or (places is not None and at > places) else pays[at - 1]
                         for at in range(position, position + k)) // k
        shown = dense if policy == "share_rank" else position
        for player, _ in block:
            out.append((player, shown, points))
        position += k
    return out


def majority_of(entries: list, needs, pays: list, places, keys: list, policy: str,
                tally: Callable | None = None, policy_tag: str | None = None) -> list[tuple]:
    """The payments of a majority scoring, [(player, position, points)] best first, from the
    (contender, measure) pairs in the order the contenders came: those below `needs` left
    out, the rest ranked by `keys` and paid by the block `policy`."""
    if needs is not None:
        entries = [(p, m) for p, m in entries if m >= needs]
    return payouts(rank(entries, keys, tally), pays, places, policy, tally, policy_tag)
