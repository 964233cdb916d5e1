"""Majority scoring and tie-break policies: generic ranking by a measure.

A ranking sorts the contenders by their measure, splits equal measures into
tie blocks, lets key policies (`by highest EXPR`) break blocks apart, and
lets one block policy decide what the players still tied receive.
"""
from __future__ import annotations

from typing import Callable

BLOCK_POLICIES = ("take_lowest", "take_highest", "share_rank", "split_evenly")


def rank(entries: list, keys: list) -> list[list]:
    """Order (player, measure) pairs into tie blocks, best first.

    keys: [(order, key(player) -> value)] applied in turn inside each block.
    """
    entries = sorted(entries, key=lambda pm: -pm[1])
    blocks: list[list] = []
    for player, measure in entries:
        if blocks and blocks[-1][0][1] == measure:
            blocks[-1].append((player, measure))
        else:
            blocks.append([(player, measure)])
    for order, key in keys:
        refined = []
        for block in blocks:
            if len(block) == 1:
                refined.append(block)
                continue
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


def payouts(blocks: list[list], pays: list, places: int | None, policy: str) -> list[tuple]:
    """[(player, position, points)] for every ranked player, in ranking order."""

    def value(position: int) -> int:
        if position > len(pays) or (places is not None and position > places):
            return 0
        return pays[position - 1]

    out = []
    position = 1
    for dense, block in enumerate(blocks, 1):
        k = len(block)
        if policy == "take_lowest":
            points = [value(position + k - 1)] * k
        elif policy == "take_highest":
            points = [value(position)] * k
        elif policy == "share_rank":
            points = [value(dense)] * k
        else:  # split_evenly
            points = [sum(value(position + i) for i in range(k)) // k] * k
        shown = dense if policy == "share_rank" else position
        out.extend((player, shown, pts) for (player, _), pts in zip(block, points))
        position += k
    return out


def majority(contenders: list, measure: Callable, needs, pays: list, places, keys: list,
             policy: str) -> list[tuple]:
    entries = [(p, measure(p)) for p in contenders]
    if needs is not None:
        entries = [(p, m) for p, m in entries if m >= needs]
    return payouts(rank(entries, keys), pays, places, policy)
