"""The games' own invariants catch planted faults, and random games never break them.

Each fault is a small text patch of a bundled ruleset (a rule changed the way a careless
implementer might), written with its data to a temporary folder. Random games of the patched
ruleset are played, the invariants checked after setup and after every move; the first state
that breaks any invariant must break exactly the one that states the rule the patch violates.
"""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import regnum

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


def patched(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    """Copy `name` (a path under rulesets/) with its data to tmp_path, each (old, new) applied once."""
    for sub in ("data", "variants"):
        if not (tmp_path / sub).exists():
            shutil.copytree(RULESETS / sub, tmp_path / sub)
    for base in ("kings_road.rules", "kingdom_builder.rules"):
        if not (tmp_path / base).exists():
            shutil.copy(RULESETS / base, tmp_path / base)
    path = tmp_path / name
    text = path.read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text)
    return path


def broken(game) -> list[str]:
    return sorted(failure.split(":", 1)[0] for failure in game.check_invariants())


def first_broken(path: Path, players: list[int], games: int = 6, max_moves: int = 3_000) -> list[str]:
    """The invariants broken by the first state of random games of `path` that breaks any."""
    rules = regnum.load(path, rules_path=[path.parent.parent if path.parent.name == "variants" else path.parent])
    for seed in range(games):
        game = rules.new_game(players=players[seed % len(players)], seed=seed, narrate=False)
        rnd = random.Random(seed)
        while not broken(game) and not game.is_over and game.move_count < max_moves:
            game.play(rnd.choice(game.all_legal_moves()))
        if broken(game):
            return broken(game)
    return []


KR = "kings_road.rules"
VARIANT = "variants/permanent_nobles.rules"
KB = "kingdom_builder.rules"

# (ruleset, the invariant that must catch it, player counts, games to try, the patch)
FAULTS = [
    # ── King's Road ──
    (KR, "markers_conserved", [2, 3], 6,
     # step d sends every returning marker to the first player's supply
     [("move m to supply(m.owner)", "move m to supply(0)")]),
    (KR, "score_marker_on_track", [2], 6,
     # setup forgets the score marker: all 20 go to the supply
     [("create 1 marker(owner: p) in track(p)\n        create markers_per_player - 1 marker(owner: p) in supply(p)",
       "create markers_per_player marker(owner: p) in supply(p)")]),
    (KR, "nobles_only_on_board", [2, 3], 6,
     # step d sends the Noble home too, still crest-up
     [("for m in region(r) where not m.noble:", "for m in region(r):")]),
    (KR, "one_noble_per_region", [2, 3], 6,
     # step c crowns the new Noble without sending the old one home
     [("        for m in region(r) where m.noble:\n            set m.noble = false\n", "")]),
    (KR, "cards_conserved", [2, 3], 6,
     # phase 4 returns every player's played cards to the first player's hand
     [("move played(p) to hand(p)\n        set bewitched(p) = false",
       "move played(p) to hand(0)\n        set bewitched(p) = false")]),
    (KR, "three_cards_a_round", [2, 3], 6,
     # four cards a round
     [("def cards_to_play(p) = min(cards_per_round,", "def cards_to_play(p) = min(cards_per_round + 1,")]),
    (KR, "only_dragons_and_witches_leave", [2, 3], 6,
     # phase 4 puts the played cards out of the game instead of back in hand
     [("move played(p) to hand(p)\n        set bewitched(p) = false",
       "move played(p) to out_of_game\n        set bewitched(p) = false")]),
    (KR, "dragons_spent", [2], 6,
     # a Dragon counts twice
     [("add 1 to dragons", "add 2 to dragons")]),
    (KR, "regions_scored_once", [2, 3], 6,
     # each Dragon scores the King's region again instead of the next one
     [("        set r = next(travel_order, r)\n", "")]),
    (KR, "scores_never_decrease", [2, 3], 6,
     # the chain bonus replaces the score instead of adding to it (never below 0)
     [("add bonus to score(m.owner)", "set score(m.owner) = bonus")]),
    (KR, "scores_not_negative", [2, 3], 6,
     # the setup starts every score at -1 (no move has lowered it)
     [("        create 1 marker(owner: p) in track(p)\n",
       "        create 1 marker(owner: p) in track(p)\n        subtract 1 from score(p)\n")]),
    (KR, "rounds_count_up", [2, 3], 6,
     # the round number wraps round after the second round
     [("add 1 to round", "set round = (round + 1) % 3")]),
    (KR, "spent_cards_stay_spent", [2, 3], 6,
     # spent Dragons and Witches go back to their owners' hands at the end of the round
     [("    set dragons = 0\n", "    set dragons = 0\n    for c in out_of_game:\n        move c to hand(c.owner)\n")]),
    # ── Permanent Nobles ──
    (VARIANT, "one_noble_per_region", [2, 3, 4], 6,
     # the variant stacks Nobles, as its rules say, but keeps the base game's invariant
     [("remove invariant one_noble_per_region\n", "")]),
    (VARIANT, "one_noble_per_player_per_region", [2, 3, 4], 6,
     # a sole leader adds a Noble even where he already has one
     [("if count(leaders) == 1 and not has_noble(leaders[0], r):", "if count(leaders) == 1:"),
      ("where m.owner == leaders[0]).noble", "where m.owner == leaders[0] and not m.noble).noble")]),
    # ── Kingdom Builder ──
    (KB, "settlements_conserved", [2, 3], 6,
     # a built settlement leaves the game instead of standing on the hex
     [("rule place_settlement(p, h):\n    move 1 from supply(p) to site(h)",
       "rule place_settlement(p, h):\n    move 1 from supply(p) to removed")]),
    (KB, "one_settlement_per_hex", [2, 3], 6,
     # the mandatory build forgets that the hex must be free
     [('    require free: free(h) else "a settlement already stands there"\n    require on_card',
       "    require on_card")]),
    (KB, "settlements_on_buildable_land", [2, 3], 6,
     # the mandatory build forgets the card's terrain
     [('    require on_card: terrain(h) == card_terrain() else "build on the terrain of the card you played"\n',
       "")]),
    (KB, "lost_tiles_never_return", [2, 3, 4], 20,
     # a lost tile goes back to its location hex
     [("        move t to removed\n", "        move t to tiles_at(t.origin)\n")]),
    (KB, "one_tile_per_location_hex", [2, 3], 6,
     # a player takes a tile from the same location hex again
     [("\n            and l not in taken_from(s.owner)", "")]),
    (KB, "tiles_kept_next_to_their_hex", [2, 3, 4], 20,
     # a tile is never lost
     [('        move t to removed\n        announce "{s.owner} loses', '        announce "{s.owner} keeps')]),
    (KB, "tiles_conserved", [2, 3], 6,
     # setup puts two tiles on every castle hex too
     [("            if terrain(h) == location:\n", "            if terrain(h) == location or terrain(h) == castle:\n")]),
    (KB, "cards_conserved", [2, 3], 6,
     # six cards of each terrain
     [("create cards_per_terrain terrain_card", "create cards_per_terrain + 1 terrain_card")]),
    (KB, "one_terrain_card_each", [2, 3], 6,
     # two cards drawn at the end of a turn
     [("move 1 from draw_pile to hand(p)\n    for t", "move 2 from draw_pile to hand(p)\n    for t")]),
    (KB, "three_builds_a_turn", [2, 3], 6,
     # four mandatory builds
     [("        set builds_left = builds_per_turn\n", "        set builds_left = builds_per_turn + 1\n")]),
    (KB, "three_goals", [2, 3], 6,
     # two Kingdom Builder cards revealed
     [("set goals = random goals_per_game of goal", "set goals = random goals_per_game - 1 of goal")]),
    (KB, "gold_only_at_the_end", [2, 3], 6,
     # a gold piece for every settlement built
     [("rule place_settlement(p, h):\n", "rule place_settlement(p, h):\n    add 1 to score(p)\n")]),
    (KB, "scores_never_decrease", [2, 3], 6,
     # the Kingdom Builder cards take gold away
     [('    add gold to score(p)\n    announce "{p}: {gold} gold for the',
       '    subtract gold from score(p)\n    announce "{p}: {gold} gold for the')]),
    (KB, "supplies_never_grow", [2, 3, 4], 20,
     # a settlement moved by a tile goes back to the supply instead of to its new hex
     [("    move site(from) to site(to)\n", "    move site(from) to supply(player)\n")]),
]


@pytest.mark.parametrize("ruleset, invariant, players, games, edits", FAULTS,
                         ids=[f"{Path(f[0]).stem}-{f[1]}" for f in FAULTS])
def test_a_planted_fault_breaks_exactly_its_invariant(tmp_path, ruleset, invariant, players, games, edits):
    assert first_broken(patched(tmp_path, ruleset, *edits), players, games) == [invariant]


def test_every_invariant_of_the_games_has_a_planted_fault():
    caught = {(Path(f[0]).stem, f[1]) for f in FAULTS}
    for ruleset in (KR, VARIANT, KB):
        rules = regnum.load(RULESETS / ruleset)
        names = {inv.name for inv in rules.model.invariants}
        missing = {n for n in names if (Path(ruleset).stem, n) not in caught}
        if ruleset == VARIANT:   # inherited from King's Road, caught there
            missing -= {n for (r, n) in caught if r == "kings_road"}
        assert missing == set(), ruleset


# Random games of King's Road and Kingdom Builder are checked after every move by
# tests/properties/test_kings_road_properties.py and test_kingdom_builder_properties.py.
@pytest.mark.parametrize("ruleset", [KR, VARIANT])
def test_random_games_never_break_an_invariant(ruleset):
    assert first_broken(RULESETS / ruleset, [2, 3, 4, 5], games=12) == []
