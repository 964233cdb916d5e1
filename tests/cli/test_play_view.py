"""`regnum play` as players see it: the board drawn by its topology, moves named by the
ruleset's labels, typed moves refused with the rule's message, game options."""
from __future__ import annotations

import json
import re

from test_cli import one_json_object, run  # tests/cli is on the path of its tests

KB = "kingdom_builder"


def test_a_hex_board_is_drawn_with_coordinates_and_the_seats_on_it():
    out = run("play", KB, "--players", "2", "--bots", "1", "--seed", "3", "--option", "first_game_setup=true",
              input="1\nq\n").stdout
    view = out[out.index("── seat 0 to move"):]
    # A row of the map starts and ends with its number.
    rows = {line.split()[0]: line.split() for line in view.splitlines()
            if line.split() and line.split()[0].isdigit() and line.split()[0] == line.split()[-1]}
    assert sorted(rows, key=int) == [str(r) for r in range(20)]
    # Row 6 of the first-game board: the Tavern hexes drawn as "Ta", the Paddock hex as "Pa".
    assert rows["6"][:13] == ["6", "D", "F", "Ta", "C", "W", "T", "T", "Ta", "C", "G", "C", "Pa"]
    assert "played: Forest" in view and "supply\n  P0 (you): settlement ×40" in view
    assert "   1. build a settlement at (3,6)" in view
    assert "(end turn is not possible now: make the builds of your card first)" in view


def test_a_typed_move_is_played_or_refused_with_the_rules_message():
    result = run("play", KB, "--players", "2", "--bots", "1", "--seed", "3", "--option", "first_game_setup=true",
                 "--quiet-board", input="build (3,4)\nbuild (3,6)\nq\n")
    assert ("refused: build on the terrain of the card you played (rule 'build.on_card' at "
            "rulesets/kingdom_builder.rules:") in result.stderr
    assert "game abandoned after 1 moves" in result.stdout


def test_bots_moves_are_named_but_secret_choices_stay_secret():
    out = run("play", "kings_road", "--players", "2", "--bots", "1", "--seed", "3", "--quiet-board",
              input="1\nq\n").stdout
    assert "P1: makes a secret choice" in out and "P1: pick" not in out
    assert "   1. pick Zin Kai's Deep" in out          # the label names the card as printed
    kb = run("play", KB, "--players", "2", "--bots", "0", "--seed", "3", "--quiet-board",
             "--option", "first_game_setup=true", input="q\n").stdout
    assert re.search(r"^P0: build a settlement at \(\d+,\d+\)$", kb, re.M)


def test_options_are_given_on_the_command_line_and_checked():
    log_run = run("play", KB, "--players", "2", "--bots", "all", "--seed", "1", "--quiet-board", "--max-moves", "3",
                  "--option", "sections=Barn,Oracle,Harbor,Tower", "--option", "goal_cards=[\"Lords\",\"Miners\",\"Hermits\"]")
    assert "Barn is the top left section" in log_run.stdout
    assert "the Kingdom Builder cards are [Lords, Miners, Hermits]" in log_run.stdout
    bad = run("play", KB, "--players", "2", "--bots", "all", "--option", "sections=Barn,Barn,Harbor,Tower", code=1)
    assert "option 'sections'" in bad.stderr and "four different sections" in bad.stderr
    unknown = run("simulate", KB, "--players", "2", "--games", "1", "--option", "section=Barn", code=1)
    assert "has no option 'section'; did you mean 'sections'?" in unknown.stderr
    malformed = run("simulate", KB, "--games", "1", "--option", "sections", code=2)
    assert "NAME=VALUE" in malformed.stderr


def test_a_game_with_options_replays_from_its_log(tmp_path):
    log = tmp_path / "kb.json"
    run("play", KB, "--players", "3", "--bots", "all", "--seed", "2", "--quiet-board", "--option",
        "first_game_setup=true", "--log", log)
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["options"]["first_game_setup"] is True and data["result"] is not None
    replayed = one_json_object(run("replay", log, "--json").stdout)
    assert replayed["moves"] == len(data["moves"])


def test_the_pyramid_is_drawn_by_rows_and_a_seat_sees_only_its_own_hidden_cards():
    out = run("play", "kings_kilt", "--players", "3", "--bots", "1,2", "--seed", "5", "--option",
              "random_start=false", input="1\nq\n").stdout
    view = out[out.index("── seat 0 to move"):out.index("   1. ")]
    rows = [line.split() for line in view.splitlines() if line.split() and line.split()[0] in "123456"]
    assert [row[0] for row in rows] == ["6", "5", "4", "3", "2", "1"]
    assert rows[-1] == ["1", "Wa*", "Wa*", "ML*", "Br*", "Do*", "St*"]          # the six leaders of the base
    assert rows[0] == ["6", "·"] and rows[1] == ["5", "·", "·"]
    assert "draw pile: 34, on top: Stewart leader" in view
    assert "family\n  P0 (you): Douglas, Wallace, MacBeth\n  P1: 3 hidden\n  P2: 3 hidden" in view
    assert "influence\n  P0 (you): Stewart, MacBeth, Hamilton, Bruce, Douglas\n  P1: 5 hidden\n  P2: 5 hidden" in view
    assert "   1. advance Wallace leader from (1,0) up-right" in out
    assert "  11. spend a Stewart card: Wallace leader at (1,0) betrays Wallace leader at (1,1)" in out


def test_a_growing_table_shows_token_values_over_the_pieces_in_their_owners_colour():
    """King's Gate: `view table(c): … over pieces` draws a token's value where the seat number
    would be, an object's cells as #N, and the free cells of the current ring highlighted."""
    import regnum
    from regnum import Move
    from regnum.render import render

    game = regnum.load("kings_gate").new_game(players=3, seed=5, options={"random_start": False})
    game.play(Move(0, "play", {"v": 4, "at": "(1,0)", "chip": None}))
    text = game.render(1)
    rows = {line.split()[0]: line.split()[1:-1] for line in text.splitlines()
            if line.split() and line.split()[0].lstrip("-").isdigit() and line.split()[0] == line.split()[-1]}
    assert rows == {"-1": ["·"] * 4, "0": ["·", "#1", "#1", "·"], "1": ["·", "4", "·", "·"], "2": ["·"] * 4}
    assert "pieces in their owner's colour" in text and "current=object 1" in text
    assert "chip supply=[King, Bishop, Wizard, Guild Master, Merchant, Sorceress]" in text   # view character(c)
    rich = render(game, 1)
    styles = {rich.plain[span.start:span.end].strip(): str(span.style) for span in rich.spans
              if rich.plain[span.start:span.end].strip() in ("4", "·")}
    assert "on grey15" in styles["4"] and styles["4"].startswith("bold ")
    free_ring = [str(span.style) for span in rich.spans if "dark_olive_green3" in str(span.style)]
    assert len(free_ring) == 9          # the Palace's ring: 10 cells, one holds the 4
