"""What every load computes, made cheaper at the eighteenth step, gives what it gave: the
names some statement writes (a walk of every node, the fields of each kind looked up once),
the state's parts a generated body reads (one pass for all six), a hex grid's and a
pyramid's cells, neighbours, steps and edge (each cell named once)."""
from __future__ import annotations

from pathlib import Path

import pytest

import regnum
from regnum import ast, boards
from regnum.compiler import memo
from regnum.compiler.codegen import state_reads
from regnum.source import Span

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"] + \
    [str(path) for path in sorted((ROOT / "rulesets" / "variants").glob("*.rules"))]


def _every_statement(node):
    """`set` and `add`/`subtract` statements, by the walk every load made until then."""
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, (ast.SetStmt, ast.AddStmt)):
            yield item
        if isinstance(item, (tuple, list)):
            pending.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            pending.extend(getattr(item, f) for f in item.__dataclass_fields__ if f != "span")


@pytest.mark.parametrize("game", GAMES)
def test_the_names_written_are_those_every_node_shows(game, monkeypatch):
    monkeypatch.setenv("REGNUM_RULES_PATH", str(ROOT / "rulesets"))
    program = regnum.load(game).program
    decls = list(program.decls.values()) + list(program.singletons.values())
    expected = {id(node) for decl in decls for node in _every_statement(decl)}
    assert {id(node) for decl in decls for node in memo._statements(decl)} == expected
    names, fields = memo.written(program)
    assert names and len(expected) >= len(names)


def test_the_state_parts_a_body_reads_in_their_order():
    body = "    x = _s_zones[k] + _s_pvars[p]['gold']\n    y = _s_vars_2 + a_s_pieces + _s_tablesx\n"
    assert state_reads(body) == ["    _s_pvars = c.state.pvars", "    _s_zones = c.state.zones"]
    assert state_reads("return (_s_grids['g'], _s_vars['v'], _s_pieces[0])", "  ") == [
        "  _s_vars = c.state.vars", "  _s_pieces = c.state.pieces", "  _s_grids = c.state.grids"]
    assert state_reads("return 1") == []


def test_a_hex_grid_and_a_pyramid_as_every_cell_named_again_gave_them():
    span = Span("t.rules", 1, 1, 1, 1)
    grid = boards.hex_grid("land", {"rows": 3, "cols": 3, "layout": "odd_r"}, span)
    assert grid.cells == ["(0,0)", "(0,1)", "(0,2)", "(1,0)", "(1,1)", "(1,2)", "(2,0)", "(2,1)", "(2,2)"]
    assert grid.adjacency["(1,1)"] == ("(1,2)", "(1,0)", "(0,2)", "(0,1)", "(2,2)", "(2,1)")
    assert grid.adjacency["(0,0)"] == ("(0,1)", "(1,0)")
    assert grid.edge == frozenset(grid.cells) - {"(1,1)"}
    pyramid = boards.pyramid("pyramid", {"rows": 3}, span)
    assert pyramid.cells == ["(1,0)", "(1,1)", "(1,2)", "(2,0)", "(2,1)", "(3,0)"]
    assert pyramid.steps["up_right"] == {"(1,0)": "(2,0)", "(1,1)": "(2,1)", "(2,0)": "(3,0)"}
    assert pyramid.steps["down_left"] == {"(2,0)": "(1,0)", "(2,1)": "(1,1)", "(3,0)": "(2,0)"}
    assert pyramid.adjacency["(2,0)"] == ("(2,1)", "(1,0)", "(1,1)", "(3,0)")
