"""The only source of randomness: a 64-bit generator whose whole state is one int.

An int fits in the JSON state and copies for free, so the same seed and moves
give the same game byte for byte, on every platform (splitmix64).
"""
from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform int in [0, n) (rejection sampling, no modulo bias)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list) -> int:
    """Fisher–Yates in place; returns the new generator state. Each draw is `below(state, i + 1)`,
    written out: a shuffle is most of the draws of a setup, and two calls an item were a third
    of a shuffle (tests/unit/test_rng.py compares it with the draws made one by one)."""
    mask = _MASK
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:   # next_u64, until a draw below the limit
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % n
        items[i], items[j] = items[j], items[i]
    return state
