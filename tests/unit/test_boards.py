"""The board model: one set of queries over every topology (regnum.boards), and the checker's
and compiler's view of boards — settings, coordinates, directions, variables per cell."""
from __future__ import annotations

import textwrap

import pytest

import regnum
from regnum import boards
from regnum.builtins import EvalError
from regnum.source import NO_SPAN


def load(tmp_path, text: str) -> regnum.Ruleset:
    path = tmp_path / "board.rules"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return regnum.load(path)


def codes(tmp_path, text: str) -> list[tuple[int, str]]:
    try:
        found = load(tmp_path, text).warnings
    except regnum.RulesetError as err:
        found = err.diagnostics
    return sorted((d.span.line, d.code) for d in found)


@pytest.fixture(scope="module")
def land():
    return boards.hex_grid("land", {"rows": 20, "cols": 20, "layout": "odd_r"}, NO_SPAN)


# ── hex grids ───────────────────────────────────────────────────────────────────

def test_odd_r_neighbours_follow_the_row_parity(land):
    # The digest's convention: even rows (r−1, c−1) (r−1, c); odd rows (r−1, c) (r−1, c+1).
    assert sorted(boards.neighbours(land, "(7,8)")) == ["(6,8)", "(6,9)", "(7,7)", "(7,9)", "(8,8)", "(8,9)"]
    assert sorted(boards.neighbours(land, "(6,8)")) == ["(5,7)", "(5,8)", "(6,7)", "(6,9)", "(7,7)", "(7,8)"]
    assert sorted(boards.neighbours(land, "(0,0)")) == ["(0,1)", "(1,0)"]


def test_even_r_and_flat_top_layouts():
    even = boards.hex_grid("b", {"rows": 4, "cols": 4, "layout": "even_r"}, NO_SPAN)
    assert sorted(boards.neighbours(even, "(2,1)")) == ["(1,1)", "(1,2)", "(2,0)", "(2,2)", "(3,1)", "(3,2)"]
    flat = boards.hex_grid("b", {"rows": 4, "cols": 4, "layout": "odd_q"}, NO_SPAN)
    assert flat.directions == ("north", "south", "north_east", "north_west", "south_east", "south_west")
    assert boards.step(flat, "(1,1)", "north_east") == "(1,2)"   # an odd column sits half a hex lower
    assert boards.step(flat, "(1,2)", "north_east") == "(0,3)"


def test_steps_and_lines_reread_the_parity_of_each_row(land):
    assert boards.step(land, "(5,1)", "north_east", 2) == "(3,2)"      # KB-12: over (4,2)
    assert boards.step(land, "(7,8)", "south_west", 2) == "(9,7)"      # KB-4
    assert boards.step(land, "(0,3)", "north_west") is None
    assert boards.line(land, "(7,7)", "east", 3) == ["(7,8)", "(7,9)", "(7,10)"]
    assert boards.line(land, "(0,17)", "east", 5) == ["(0,18)", "(0,19)"]   # stops at the edge


def test_lines_are_remembered_per_board_and_answered_alike():
    board = boards.hex_grid("b", {"rows": 6, "cols": 6, "layout": "odd_r"}, NO_SPAN)
    first = boards.line(board, "(2,1)", "east", 3)
    again = boards.line(board, "(2,1)", "east", 3)
    assert first == again == ["(2,2)", "(2,3)", "(2,4)"] and first is not again
    again.append("changed")   # a caller's list, not the remembered one
    assert boards.line(board, "(2,1)", "east", 3) == ["(2,2)", "(2,3)", "(2,4)"]
    assert board._lines == {("(2,1)", "east", 3): ("(2,2)", "(2,3)", "(2,4)")}
    assert boards.line(board, "nowhere", "east", 2) == [] and len(board._lines) == 1   # not a cell: not kept
    for wrong, message in ((True, "not True"), (-1, "not -1")):   # True is not 1, remembered or not
        with pytest.raises(EvalError, match=f"line\\(\\): the number of cells must be 0 or more, {message}"):
            boards.line(board, "(2,1)", "east", wrong)
    with pytest.raises(EvalError, match="has no direction 'up'"):
        boards.line(board, "(2,1)", "up", -1)
    boards._LINES_KEPT, kept = 2, boards._LINES_KEPT
    try:
        boards.line(board, "(0,0)", "east", 1)
        boards.line(board, "(1,0)", "east", 1)   # full: emptied, then kept
        assert list(board._lines) == [("(1,0)", "east", 1)]
    finally:
        boards._LINES_KEPT = kept


def test_edge_and_distance_and_groups(land):
    assert len(land.edge) == 76                                       # digest KB-6: B1 has 76 edge hexes
    assert boards.on_edge(land, "(9,0)") and boards.on_edge(land, "(0,9)") and not boards.on_edge(land, "(9,9)")
    assert boards.distance(land, "(7,8)", "(7,8)") == 0
    assert boards.distance(land, "(7,8)", "(5,9)") == 2
    assert boards.distance(land, "(0,0)", "(19,19)") == 29
    cells = ["(6,8)", "(6,9)", "(6,10)", "(7,8)", "(7,9)", "(0,0)", "(3,4)"]
    # Each group starts at its first cell in the list and grows neighbour by neighbour.
    assert boards.groups(land, cells) == [["(6,8)", "(6,9)", "(7,8)", "(7,9)", "(6,10)"], ["(0,0)"], ["(3,4)"]]


def test_cells_are_texts_with_coordinates(land):
    assert boards.cell_at(land, 3, 4) == "(3,4)" and boards.cell_at(land, 20, 0) is None
    assert boards.coordinate("(3,4)", "row") == 3 and boards.coordinate("(-2,11)", "col") == 11
    with pytest.raises(regnum.builtins.EvalError, match="no row"):
        boards.coordinate("dark_tower", "row")


def test_unknown_direction_at_run_time_names_the_board_and_its_directions(land):
    with pytest.raises(regnum.builtins.EvalError, match="no direction 'up'.*east, west"):
        boards.step(land, "(1,1)", "up")


# ── pyramids ──────────────────────────────────────────────────────────────────

def test_a_pyramid_rests_like_brickwork():
    heap = boards.pyramid("heap", {"rows": 6}, NO_SPAN)
    assert len(heap.cells) == 21
    assert sorted(boards.neighbours(heap, "(2,1)")) == ["(1,1)", "(1,2)", "(2,0)", "(2,2)", "(3,0)", "(3,1)"]
    assert boards.step(heap, "(6,0)", "down_left") == "(5,0)" and boards.step(heap, "(6,0)", "up_left") is None
    assert boards.neighbours(heap, "(6,0)") == ["(5,0)", "(5,1)"]


def test_board_settings_are_checked(tmp_path):
    with pytest.raises(boards.BoardError, match="'rows' must be a whole number"):
        boards.hex_grid("x", {"rows": 0, "cols": 3}, NO_SPAN)
    with pytest.raises(boards.BoardError, match="'layout' must be one of"):
        boards.hex_grid("x", {"rows": 2, "cols": 3, "layout": "odd"}, NO_SPAN)
    with pytest.raises(boards.BoardError, match="larger than the limit"):
        boards.hex_grid("x", {"rows": 1000, "cols": 1000}, NO_SPAN)
    found = codes(tmp_path, """
    game g "G"
    players 2..2
    const size = 0
    board land: hex_grid
        rows = size
        cols = 3
    flow:
        announce "{count(land)}"
    """)
    assert found == [(6, "E312")]


# ── boards in rulesets ────────────────────────────────────────────────────────

GRID = """
game fields "Fields"
players 2..3
enum crop: wheat, rye
board land: hex_grid
    rows = 6
    cols = 6
piece farmer:
    owner: player
zone field per land: public
zone barn per player: public
var grows per land: crop? = none
var yield per crop: int = 0
setup:
    for p in players:
        create 4 farmer(owner: p) in barn(p)
    for h in land where h.row < 2:
        set grows(h) = wheat
    set grows(cell(land, 5, 5)) = rye
"""


def test_variables_per_cell_and_per_member_are_lookups_saved_in_the_state(tmp_path):
    rules = load(tmp_path, GRID + """
flow:
    for h in land where grows(h) != none:
        add 1 to yield(grows(h))
    announce "{yield(wheat)} {yield(rye)} {grows(cell(land, 0, 3))} {grows(cell(land, 3, 3))}"
""")
    game = rules.new_game(2)
    assert game.events[-1] == "12 1 wheat none"
    assert game.state.tables["yield"] == {"wheat": 12, "rye": 1}
    assert game.observation(0)["tables"]["grows"]["(5,5)"] == "rye"
    again = rules.game_from_json(game.to_json())
    assert again == game and again.state.tables == game.state.tables


def test_a_table_variable_is_copied_on_write(tmp_path):
    rules = load(tmp_path, GRID + """
flow:
    ask 0 to sow
action sow(h in land):
    set grows(h) = rye
""")
    game = rules.new_game(2)
    before = game.copy()
    game.play(regnum.Move(0, "sow", {"h": "(3,3)"}))
    assert game.state.tables["grows"]["(3,3)"] == "rye"
    assert before.state.tables["grows"]["(3,3)"] is None


def test_checker_knows_cells_rows_and_directions(tmp_path):
    found = codes(tmp_path, GRID + """
flow:
    announce "{cell(land, 1, 1).row} {step(land, cell(land, 1, 1), \\"up\\")}"
    announce "{grows}"
    announce "{grows(3)}"
    announce "{cell(land, 1, 1).height}"
""")
    errors = [(line, code) for line, code in found if code.startswith("E")]
    assert errors == [(22, "E120"), (23, "E201"), (24, "E206"), (25, "E212")]


def test_a_grid_cannot_list_nodes_and_a_graph_has_no_coordinates(tmp_path):
    found = codes(tmp_path, """
    game g "G"
    players 2..2
    board land: hex_grid
        rows = 2
        cols = 2
        cols = 3
    board map: graph
        nodes a, b
        edges a - b
    flow:
        announce "{line(map, a, \\"east\\", 2)} {on_edge(map, a)} {a.col} {count(land)}"
    """)
    assert (12, "E214") in found and sum(1 for _, c in found if c == "E214") == 3


def test_hex_map_is_drawn_with_the_view_and_owners(tmp_path):
    rules = load(tmp_path, GRID + """
const letter = {wheat: "w", rye: "r"}
view land(h): if grows(h) == none then "." else letter[grows(h)] on "green"
view farmer(f): "farmer"
flow:
    move 1 from barn(1) to field(cell(land, 2, 2))
    ask 0 to rest
action rest():
    pass
""")
    game = rules.new_game(2)
    text = game.render(0)
    rows = {line.split()[0]: line for line in text.splitlines() if line.strip()[:1].isdigit()}
    assert rows["0"].split()[1:7] == ["w"] * 6
    assert rows["2"].split()[1:4] == [".", ".", "1"]      # P1's farmer on (2,2), drawn as its seat
    assert "barn\n  P0 (you): farmer ×4\n  P1: farmer ×3" in text


def test_graph_boards_are_listed_by_the_names_their_view_gives(tmp_path):
    rules = load(tmp_path, """
    game roads "Roads"
    players 2..2
    board map: graph
        nodes north_gate, south_gate
        edges north_gate - south_gate
    const names = {north_gate: "North Gate", south_gate: "South Gate"}
    piece guard:
        owner: player
    zone post per map: public
    view map(n): names[n]
    setup:
        create 2 guard(owner: 1) in post(south_gate)
    flow:
        ask 0 to wait
    action wait():
        pass
    """)
    text = rules.new_game(2).render(None)
    assert "North Gate  —" in text and "South Gate  P1 guard ×2" in text


def test_a_pyramid_is_drawn_as_rows_from_the_top(tmp_path):
    rules = load(tmp_path, """
    game heap "Heap"
    players 2..2
    board tower: pyramid
        rows = 3
    piece block:
        owner: player
    zone place per tower: public
    setup:
        create 1 block(owner: 1) in place(cell(tower, 3, 0))
        create 1 block(owner: 0) in place(cell(tower, 1, 2))
    flow:
        ask 0 to wait
    action wait():
        pass
    """)
    lines = [line.rstrip() for line in rules.new_game(2).render(None).splitlines()]
    top = lines.index("tower")
    assert [line.split() for line in lines[top + 1:top + 4]] == [["3", "1"], ["2", "·", "·"], ["1", "·", "·", "0"]]


@pytest.mark.parametrize("name", ["kings_road", "kingdom_builder"])
def test_every_seat_and_a_spectator_can_see_a_bundled_game(name):
    from regnum.agents import play_random_game
    rules = regnum.load(name)
    game = play_random_game(rules, 3, 4, max_moves=60)
    views = {seat: game.render(seat) for seat in (None, 0, 1, 2)}
    assert all("scores  P0" in view for view in views.values())
    import re
    for viewer in (1, None):   # another seat and a spectator see how many cards, not which
        assert re.search(r"^hand\n  P0: \d+ hidden$", views[viewer], re.M)
    assert re.search(r"^hand\n  P0 \(you\): (?!\d+ hidden)\S", views[0], re.M)


def test_a_colour_the_terminal_does_not_know_is_left_out(tmp_path):
    rules = load(tmp_path, """
    game c "C"
    players 2..2
    board b: hex_grid
        rows = 2
        cols = 2
    view b(h): "x" on "no such colour"
    flow:
        ask 0 to go
    action go():
        pass
    """)
    game = rules.new_game(2)
    rows = [line.split() for line in game.render(0).splitlines() if line.strip().startswith(("0 ", "1 "))]
    assert rows[-2:] == [["0", "x", "x", "0"], ["1", "x", "x", "1"]]      # after the column numbers
    from rich.console import Console
    import io
    Console(file=io.StringIO(), force_terminal=True).print(game.render_rich(0))   # no style error


def test_rows_columns_and_named_steps_read_alike_however_they_are_compiled(tmp_path):
    """`x.row`/`x.col` look a known cell up at once, and a step in a direction written in
    the rule reads the board's table inline; pieces and maps answer as before, and a
    direction the board does not have fails as before."""
    rules = load(tmp_path, GRID + """
piece marker:
    row: int
def east_of(h) = step(land, h, "east")
flow:
    create 1 marker(row: 7) in barn(0)
    let h = cell(land, 2, 3)
    let m = {row: 4, col: 5}
    announce "{h.row} {h.col} {barn(0)[4].row} {m.row} {m.col}"
    announce "{east_of(h)} {east_of(cell(land, 5, 5))} {step(land, h, \\"west\\", 2)}"
    ask 0 to look
action look(d in ["south"]):
    announce "{step(land, cell(land, 1, 1), d)}"
""")
    game = rules.new_game(2)
    assert game.events[-2:] == ["2 3 7 4 5", "(2,4) none (2,1)"]
    steps = rules.model.boards["land"].steps   # the named step was compiled to its table
    assert [name for name, value in rules.model.expressions.codegen.ns.items()
            if name.startswith("_way") and value is steps["east"]] != []
    with pytest.raises(regnum.RulesetError, match="has no direction 'south'"):
        game.play(game.legal_moves(0)[0])


def test_a_step_in_a_direction_known_only_as_the_game_runs_reads_the_board_table(tmp_path):
    """`step(board, x, d)` with `d` a value (a plain name, or any expression) reads the
    board's table of that direction inline; a direction the board does not have fails with
    boards.step's message, either way; two steps still go through boards.step."""
    rules = load(tmp_path, GRID + """
const ways = ["east", "north_west", "up"]
def towards(h, i) = step(land, h, ways[i])
flow:
    let h = cell(land, 2, 3)
    for d in ["east", "west", "south_west"]:
        announce "{d}: {step(land, h, d)} {step(land, cell(land, 0, 0), d)} {step(land, h, d, 2)}"
    announce "{towards(h, 0)} {towards(h, 1)} {towards(cell(land, 0, 0), 1)}"
    ask 0 to look
action look(d in ["north_west", "up"], i in [0, 2]):
    announce "{step(land, cell(land, 1, 1), d)} {towards(cell(land, 1, 1), i)}"
""")
    game = rules.new_game(2)
    land = rules.model.boards["land"]

    def step(cell, d, n=1):   # the reference: boards.step, as the call was before
        return boards.step(land, cell, d, n) or "none"
    assert game.events[-4:] == [
        f"{d}: {step('(2,3)', d)} {step('(0,0)', d)} {step('(2,3)', d, 2)}"
        for d in ("east", "west", "south_west")] + [
        f"{step('(2,3)', 'east')} {step('(2,3)', 'north_west')} {step('(0,0)', 'north_west')}"]
    assert game.events[-4:-2] == ["east: (2,4) (0,1) (2,5)", "west: (2,2) none (2,1)"]
    ways = [name for name, value in rules.model.expressions.codegen.ns.items()
            if name.startswith("_ways") and value is land.steps]
    assert ways != []
    moves = {(m.args["d"], m.args["i"]): m for m in game.legal_moves(0)}
    for bad in [("north_west", 2), ("up", 0)]:   # through the helper, then inline
        again = game.copy()
        with pytest.raises(regnum.RulesetError, match="board 'land' has no direction 'up'"):
            again.play(moves[bad])
        assert again.to_dict() == game.to_dict()
    game.play(moves[("north_west", 0)])
    assert game.events[-1] == f"{step('(1,1)', 'north_west')} {step('(1,1)', 'east')}"


def test_a_line_only_gone_through_is_read_from_the_board_s_remembered_lines(tmp_path):
    """`line(land, x, d, 3)` as the source of a comprehension of a lister is one lookup in
    the lines the board remembers once it met that line, boards.line otherwise: the same
    moves, coverage and steps as the generic walk, listed twice (the second time from what
    was remembered); a direction the board does not have fails with boards.line's message,
    met before or not; a line kept as a value is still a list of its own."""
    from listings import both
    rules = load(tmp_path, GRID + """
var kept: list of land = []
flow:
    set kept = line(land, cell(land, 2, 2), "east", 2)
    ask 0 to look or peek
action look(at in [cell(land, 2, 2), cell(land, 0, 0)], d in ["east", "west", "south_west"]):
    require long: count(x for x in line(land, at, d, 3) where x != none) == 3 else "short"
    pass
action peek(d in ["east", "up"]):
    require long: count(x for x in line(land, cell(land, 0, 0), d, 3)) > 0 else "short"
    pass
""")
    game = rules.new_game(2)
    land = rules.model.boards["land"]
    look = rules.model.actions["look"].lister.source
    assert "_lines" in look and ", 3)) or _bf" in look
    for _ in range(2):   # boards.line, then the lines it remembered
        outcome, steps, hits = both(game, "look")
        listed = [dict(args) for args, _ in outcome[1]]
        assert listed == [{"at": at, "d": d} for at in ("(2,2)", "(0,0)") for d in ("east", "west", "south_west")
                          if len(boards.line(land, at, d, 3)) == 3]
        assert listed == [{"at": "(2,2)", "d": "east"}, {"at": "(2,2)", "d": "south_west"},
                          {"at": "(0,0)", "d": "east"}]
        assert hits == {"require:look.long": 3}
        assert ("(2,2)", "east", 3) in land._lines
    for _ in range(2):
        assert both(game, "peek")[0] == ("raised", "EvalError",
                                         "board 'land' has no direction 'up' (directions: east, west, "
                                         "north_east, north_west, south_east, south_west)")
    assert game.to_dict()["state"]["vars"]["kept"] == ["(2,3)", "(2,4)"]
