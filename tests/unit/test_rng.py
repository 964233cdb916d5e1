"""The seeded generator (regnum/rng.py), which every recorded game depends on draw for draw:
splitmix64's published outputs, `below`'s rejection of the biased tail, and `shuffle` as
Fisher–Yates over `below`, pinned to values recorded at 53519b5."""
from __future__ import annotations

from hypothesis import given, strategies as st

from regnum import rng


def _shuffle_by_below(state: int, items: list) -> int:
    """Fisher–Yates as the composition of `below`: what `shuffle` must draw, however written."""
    for i in range(len(items) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def test_splitmix64_gives_its_reference_outputs():
    # splitmix64 from state 0: the first outputs of the reference implementation
    state, first = rng.next_u64(0)
    state, second = rng.next_u64(state)
    state, third = rng.next_u64(state)
    assert (first, second, third) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F)


def test_below_rejects_the_biased_tail():
    # n = 2**63 + 1: every draw of 2**63 + 1 or more would bias the result, so it is drawn again
    n = (1 << 63) + 1
    state = 0
    _, first = rng.next_u64(state)   # 0xE220…: in the biased tail
    assert first >= n
    after_first, _ = rng.next_u64(state)
    after_second, second = rng.next_u64(after_first)
    assert second < n
    assert rng.below(state, n) == (after_second, second % n)
    assert rng.below(after_first, 6) == (after_second, second % 6)   # nothing rejected for 6 here


@given(st.integers(min_value=0, max_value=(1 << 64) - 1), st.integers(min_value=0, max_value=60))
def test_shuffle_draws_what_below_draws(state, size):
    items = list(range(size))
    expected = items[:]
    assert rng.shuffle(state, items) == _shuffle_by_below(state, expected)
    assert items == expected


def test_a_known_shuffle():
    """Recorded at 53519b5."""
    items = list(range(10))
    assert rng.shuffle(rng.seed_state(7), items) == 0x46A38133CE5CA169
    assert items == [6, 4, 7, 1, 3, 0, 8, 9, 5, 2]
