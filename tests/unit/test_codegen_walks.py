"""The compiler's walks over the syntax tree, made cheaper at the forty-fourth step without
changing what they write: a node's parts found once per kind of node (`ast.parts_of`), the
writer of each kind of node looked up once per load (`CodeGen.src`), the state's parts a
generated function reads found by a search that skips ahead (`codegen.state_reads`), and the
searches hoisted out of loops collected into a list rather than through nested generators
(`CodeGen._invariant_calls`, `_invariant_sources`). The sources a load writes for the bundled
rulesets were compared, byte for byte, with those of the step before; these tests pin what
each piece answers."""
from __future__ import annotations

from regnum import ast
from regnum.compiler import codegen
from regnum.source import NO_SPAN

from toy_rules import load   # tests/unit is on the path of its tests

RULES = """
game toy "Toy"
players 2..2
piece stone:
    owner: player
zone heap: public
var total: int = 0
def heap_size() = count(heap)
def double(x) = x * 2
setup:
    create 3 stone(owner: 0) in heap
flow:
    repeat until total > 2:
        ask 0 to tally
action tally(n in [1, 2]):
    require room: n + heap_size() > 3 + total else "no room"
    add n + [k for k in [heap_size(), 7] where k > n][0] to total
"""


def test_a_nodes_parts_are_its_fields_but_its_span():
    assert ast.parts_of(ast.Binary) == ("op", "left", "right")
    assert ast.parts_of(ast.ListComp) == ("element", "var", "source", "cond", "more")
    assert ast.parts_of(ast.NoneLit) == ()
    assert ast.parts_of(str) is None and ast.parts_of(tuple) is None and ast.parts_of(int) is None


def test_the_state_parts_read_are_whole_locals_only():
    body = "    x = _s_vars['a'] + len(_s_zones[k])\n    y = a_s_pieces + _s_gridsx + my_s_tables\n"
    assert codegen.state_reads(body) == ["    _s_vars = c.state.vars", "    _s_zones = c.state.zones"]
    assert codegen.state_reads("_s_pieces[0]", "  ") == ["  _s_pieces = c.state.pieces"]   # at the start
    assert codegen.state_reads("é_s_pieces _s_tablesé 'x_s_grids'") == []


def _first(node, kind):
    """The first node of `kind` in `node`, itself first."""
    if type(node) is kind:
        return node
    items = node if isinstance(node, tuple) else [getattr(node, f) for f in ast.parts_of(type(node)) or ()]
    for item in items:
        found = _first(item, kind)
        if found is not None:
            return found
    return None


def test_the_calls_kept_out_of_a_loop_and_the_searches_made_once(tmp_path):
    rules = load(tmp_path, RULES)
    g = rules.model.expressions.codegen
    action = rules.program.get("tally")
    cond = action.requires[0].cond   # n + heap_size() > 3 + total
    assert [(type(c).__name__, c.func) for c in g._invariant_calls(cond, {"n"})] == [("Call", "heap_size")]
    assert g._invariant_calls(cond, {"n"}, frozenset({"heap_size"})) == []
    comprehension = _first(action.body[0].amount, ast.ListComp)   # [k for k in [heap_size(), 7] where k > n]
    assert [c.func for c in g._invariant_calls(comprehension, {"n"})] == ["heap_size"]
    by_name = ast.Binary(NO_SPAN, "+", ast.Name(NO_SPAN, "heap_size"), ast.Name(NO_SPAN, "n"))
    assert g._invariant_calls(by_name, {"n"}) == [by_name.left]   # a def without parameters, named
    per_item = ast.ListComp(NO_SPAN, ast.Call(NO_SPAN, "double", NO_SPAN, (ast.Name(NO_SPAN, "k"),)), "k",
                            ast.ListLit(NO_SPAN, (ast.IntLit(NO_SPAN, 1),)), None)
    assert g._invariant_calls(per_item, {"n"}) == []   # double(k) reads the comprehension's k
    inner = ast.ListComp(NO_SPAN, ast.Name(NO_SPAN, "j"), "j", ast.Call(NO_SPAN, "heap_size", NO_SPAN, ()), None)
    outer = ast.ListComp(NO_SPAN, inner, "i", ast.ListLit(NO_SPAN, ()), None)
    assert g._invariant_sources(outer, {"i"}) == [inner.source]   # once per evaluation, not per item
    assert g._invariant_sources(inner, {"j"}) == []   # its own source is computed once already
    g._hoisted[id(inner.source)] = "_o1()"
    try:
        assert g._invariant_sources(outer, {"i"}) == []
    finally:
        del g._hoisted[id(inner.source)]


def test_a_writer_replaced_before_a_load_writes_that_load(tmp_path, monkeypatch):
    written = codegen.CodeGen._IntLit
    seen = []

    def spying(self, node, scope, binds):
        seen.append(node.value)
        return written(self, node, scope, binds)

    load(tmp_path, RULES)   # a load before: its writers are its own
    monkeypatch.setattr(codegen.CodeGen, "_IntLit", spying)
    load(tmp_path, RULES.replace("3 + total", "4 + total"), "other.rules")
    assert 4 in seen
