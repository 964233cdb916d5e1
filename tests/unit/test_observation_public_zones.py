"""An observation shows every zone of a public family whole without asking, zone by zone,
whether the viewer may see it (a board has hundreds of such zones, which the fuzzer's secrecy
check observes at every step): the same observation, key for key and in the same order, as
the zone-by-zone judgement gives, for every seat and a spectator."""
from __future__ import annotations

import pytest

import regnum
from regnum.engine import observe

from listings import positions   # tests/unit is on the path of its tests


def _zone_by_zone(game, viewer) -> dict:
    """The observation's zones, each zone's visibility judged apart (observe._visible)."""
    state = game.state
    zones = {}
    for fam in game.model.zones.values():
        for index, key in fam.items(state):
            ids = state.zones.get(key)
            if ids is None:
                continue
            if observe._visible(fam, index, viewer):
                zones[key] = observe._pieces(state.pieces, ids) if ids else []
            else:
                shown = observe.shown(state, key, ids)
                zones[key] = {"count": len(ids), "revealed": observe._pieces(state.pieces, shown)}
                if fam.visibility == "top":
                    zones[key]["top"] = observe._piece(state, ids[-1]) if ids else None
    return zones


@pytest.mark.parametrize("name", ["kingdom_builder", "kings_gate", "kings_kilt", "kings_road"])
def test_the_zones_are_those_judged_zone_by_zone(name):
    rules = regnum.load(name)
    kinds = {fam.visibility for fam in rules.model.zones.values()}
    assert "public" in kinds and kinds != {"public"}
    checked = 0
    for game, _ in positions(rules, range(2), players=3 if name != "kings_gate" else 2, moves=25):
        for viewer in [None, *range(game.players)]:
            zones = observe.observation(game, viewer)["zones"]
            expected = _zone_by_zone(game, viewer)
            assert list(zones) == list(expected) and zones == expected
            checked += 1
    assert checked >= 100
