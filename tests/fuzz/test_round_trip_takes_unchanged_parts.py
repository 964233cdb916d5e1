"""The fuzzer's round trip reads a game back at every step: the parts of the state that did
not change since the step before are taken as read then (engine/saved.PartsRead), and the
check finds what it found with every part read afresh."""
from __future__ import annotations

import json

import pytest

import regnum
from regnum.documents import MEMBER_KEPT_FROM, MembersRead
from regnum.engine import saved
from regnum.engine.state import canonical_json
from regnum.fuzz.playout import Settings, fuzz_game


def _parts(doc: str) -> dict:
    state = json.loads(doc)["state"]
    texts = {name: canonical_json(value) for name, value in state.items()}
    return {name: text for name, text in texts.items() if len(text) >= MEMBER_KEPT_FROM and text[0] in "[{"}


@pytest.mark.parametrize("name, least", [("kings_road", {"pieces"}), ("kingdom_builder", {"tables"})])
def test_each_step_takes_the_parts_unchanged_since_the_step_before(name, least, monkeypatch):
    rules = regnum.load(name)
    rules.moves_read = None
    reads: list = []
    real = saved.read_document

    def reading(data, *args):
        out = real(data, *args)
        reads.append((_parts(data), set(args[4].taken)))
        return out
    monkeypatch.setattr(saved, "read_document", reading)
    out = fuzz_game(rules, 3, 5, "random", Settings(bound=10_000, replay=False))
    assert out.failure is None and out.over and len(reads) == out.steps + 1
    before: dict = {}
    often = dict.fromkeys(least, 0)
    for parts, taken in reads:
        assert taken == {p for p, text in parts.items() if before.get(p) == text}, reads.index((parts, taken))
        for p in least:
            often[p] += p in taken
        before = parts
    assert all(n > out.steps // 2 for n in often.values()), often


@pytest.mark.parametrize("name", ["kings_road", "kingdom_builder", "kings_gate", "kings_kilt"])
def test_a_fuzzed_game_is_checked_alike_with_every_part_read_afresh(name, monkeypatch):
    rules = regnum.load(name)
    rules.moves_read = None
    kept = fuzz_game(rules, 3, 8, "random", Settings(bound=10_000))
    monkeypatch.setattr(MembersRead, "walk", lambda self, text, scan: None)
    rules.moves_read = None
    saved._types(rules).passed.clear()
    afresh = fuzz_game(rules, 3, 8, "random", Settings(bound=10_000))
    assert kept.failure is None and afresh.failure is None
    assert kept.moves == afresh.moves and kept.steps == afresh.steps
    assert kept.hits == afresh.hits
