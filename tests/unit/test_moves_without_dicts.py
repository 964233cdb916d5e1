"""Listed moves are flat tuples (decisions.move_shape), made into the (args, env) dicts only
for the moves played or shown: the generated listers and narrowings read and write tuples,
and what a seat is offered and what is played are exactly what the dicts gave, checked on
real games of the four bundled rulesets against the reference path (the generic walk and
decisions._narrow, which make the dicts themselves)."""
from __future__ import annotations

import re
import textwrap

import pytest

import regnum
from regnum import IllegalMove, Move
from regnum.agents import play_random_game, random_picks
from regnum.engine import decisions

from toy_rules import load   # tests/unit is on the path of its tests

RULESETS = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]
MOVES = {"kings_road": 80, "kingdom_builder": 30, "kings_kilt": 80, "kings_gate": 50}


@pytest.fixture(scope="module")
def rulesets():
    return {name: regnum.load(name) for name in RULESETS}


# ── the shape of what is generated ──

@pytest.mark.parametrize("name", RULESETS)
def test_generated_listers_append_tuples_of_values_and_labels(rulesets, name):
    for action in rulesets[name].model.actions.values():
        source = action.lister.source
        assert "out.append(({" not in source and "'player': player, " not in source.split("out = []")[1]
        values = [f"v{j}" for j in range(len(action.params))]
        labels = [f"x{j}" for j, p in enumerate(action.params) if p.encode_pieces]
        items = values + labels
        appended = "out.append(())" if not items else f"out.append(({', '.join(items)}{',' if len(items) == 1 else ''}))"
        assert appended in source, (action.name, source)


def test_a_piece_parameter_appends_its_value_and_label(rulesets):
    assert "out.append((v0, x0))" in rulesets["kings_road"].model.actions["pick"].lister.source


@pytest.mark.parametrize("name", RULESETS)
def test_generated_narrowings_read_the_tuple_by_place(rulesets, name):
    narrowings = [c.narrow for a in rulesets[name].model.actions.values() for c in a.prefers]
    for narrow in narrowings:
        assert narrow is not None
        assert not re.search(r"\b[ae] = m\[[01]\]", narrow.source)
        assert not re.search(r"\b[ae]\['", narrow.source)


# ── what is offered and played, against the reference ──

def _reference(game, player: int):
    """[(action, args items, env items)…] of `player` by the generic walk and _narrow (which
    make the dicts themselves), and the coverage that listing counts, on a copy."""
    ctx = game._ctx(game.state.copy())
    ctx.hits = {}
    out = []
    for name in game._waiting()[player][-1][2]["$actions"]:
        for args, env in decisions._candidates_generic(ctx, game.model.actions[name], player):
            out.append((name, list(args.items()), list(env.items())))
    return out, ctx.hits


def _vm_only(name: str):
    """The ruleset with every action's body run by the VM: its env made from the move."""
    rules = regnum.load(name)
    for action in rules.model.actions.values():
        action.native = None
    return rules


@pytest.mark.parametrize("name", RULESETS)
def test_offered_and_played_moves_are_the_references(rulesets, name):
    seed = 5
    game = rulesets[name].new_game(players=4, seed=seed, narrate=False, coverage=True)
    twin = _vm_only(name).new_game(players=4, seed=seed, narrate=False, coverage=True)
    picks = random_picks(seed, 4)
    natives = 0
    for turn in range(MOVES[name]):
        if game.is_over:
            break
        player = game.to_move[0]
        fresh = game.copy()   # not listed yet: _play_nth lists and plays from the tuples
        expected, counted = _reference(game, player)
        before = dict(game.hits)
        legal = game.legal_moves(player)
        assert [(m.action, list(m.args.items())) for m in legal] == [(n, a) for n, a, _ in expected]
        assert [list(game._env_of(m).items()) for m in legal] == [e for _, _, e in expected]
        assert {k: v - before.get(k, 0) for k, v in game.hits.items() if v != before.get(k, 0)} == counted
        assert [(m.action, m.args) for m in twin.legal_moves(player)] == [(m.action, m.args) for m in legal]
        if not legal:
            break
        chosen = []
        played = fresh._play_nth(player, lambda n: chosen.append(picks[player](n)) or chosen[0])
        name_, args, _ = expected[chosen[0]]
        assert played == Move(player, name_, dict(args)) and list(played.args.items()) == args
        natives += fresh.model.actions[name_].native is not None
        game.play(legal[chosen[0]])   # the Move handed out
        twin.play(Move(player, name_, dict(args)))   # made from the reference's dicts
        assert fresh.to_json() == game.to_json() == twin.to_json()
        assert fresh.hits == game.hits
    assert game.move_count > 10 and natives > 0


@pytest.mark.parametrize("name", RULESETS)
def test_a_random_game_makes_dicts_only_for_the_moves_it_plays(rulesets, name, monkeypatch):
    made = {"args": 0, "env": 0, "pairs": 0}
    originals = {"args": decisions.move_args, "env": decisions.move_env, "pairs": decisions._pairs}

    def counting(kind):
        def call(*a):
            made[kind] += 1
            return originals[kind](*a)
        return call

    for kind, attr in (("args", "move_args"), ("env", "move_env"), ("pairs", "_pairs")):
        monkeypatch.setattr(decisions, attr, counting(kind))
    rules = rulesets[name]
    bodies = []
    import regnum.engine.game as game_module
    apply = game_module.Game._apply

    def watching(self, move, listed):
        bodies.append(self.model.actions[move.action].native is None)
        return apply(self, move, listed)

    monkeypatch.setattr(game_module.Game, "_apply", watching)
    game = play_random_game(rules, 4, 1, coverage=False, max_moves=MOVES[name])
    assert made["pairs"] == 0
    assert made["args"] == game.move_count == len(bodies)
    assert made["env"] == sum(bodies)   # a native body is called with the tuple's values


# ── prefers: the same moves kept, grouped by their arguments' labels ──

def test_a_prefer_per_piece_groups_by_label_and_reads_values_by_place(tmp_path):
    rules = load(tmp_path, textwrap.dedent("""
    game toy "Toy"
    players 2..2
    piece token:
        size: int
    zone pool: public
    zone done: public
    setup:
        create 2 token(size: 1) in pool
        create 1 token(size: 3) in pool
    flow:
        repeat 3 times:
            ask 0 to take
    action take(n in [1, 2, 3], t in pool):
        prefer fits per t: n <= t.size
        move t to done
    """))
    game = rules.new_game(2)
    narrow = rules.model.actions["take"].prefers[0].narrow
    assert "v0 = m[0]" in narrow.source and "v1 = m[1]" in narrow.source and "p0 = m[2]" in narrow.source
    expected, _ = _reference(game, 0)
    legal = game.legal_moves(0)
    assert [(m.action, list(m.args.items())) for m in legal] == [(n, a) for n, a, _ in expected]
    assert [m.args for m in legal] == [{"n": 1, "t": "token#0"}, {"n": 1, "t": "token#2"},
                                       {"n": 2, "t": "token#2"}, {"n": 3, "t": "token#2"}]
    assert [game._env_of(m) for m in legal][1] == {"player": 0, "n": 1, "t": 2}


# ── a refused move changes nothing ──

@pytest.mark.parametrize("name", RULESETS)
def test_a_refused_move_leaves_the_state_byte_identical(rulesets, name):
    game = rulesets[name].new_game(players=4, seed=2, coverage=True)
    for _ in range(6):
        player = game.to_move[0]
        game.play(game.legal_moves(player)[0])
    player = game.to_move[0]
    legal = game.legal_moves(player)
    before, hits = game.to_json(), dict(game.hits)
    offered = {(m.action, repr(sorted(m.args.items()))) for m in legal}
    tried = 0
    for move in legal:
        for key in move.args:
            wrong = Move(player, move.action, {**move.args, key: "no such choice"})
            with pytest.raises(IllegalMove):
                game.play(wrong)
            tried += 1
            assert game.to_json() == before and game.hits == hits
        for other in legal:   # another move's arguments under this action: refused unless offered
            mixed = Move(player, move.action, dict(other.args))
            if (mixed.action, repr(sorted(mixed.args.items()))) in offered or set(mixed.args) != set(move.args):
                continue
            with pytest.raises(IllegalMove):
                game.play(mixed)
            tried += 1
            assert game.to_json() == before and game.hits == hits
    assert tried > 0
    assert [(m.action, m.args) for m in game.legal_moves(player)] == [(m.action, m.args) for m in legal]


# ── the choices of a piece parameter, without the walk's _Apart ──

def test_piece_choices_are_the_distinct_labelled_choices(tmp_path, rulesets):
    assert "_m_choices(c, d)" in rulesets["kings_road"].model.actions["pick"].lister.source
    rules = load(tmp_path, textwrap.dedent("""
    game toy "Toy"
    players 2..2
    piece token:
        size: int
    piece mark:
        hue: str
    zone pool: public
    setup:
        create 2 token(size: 1) in pool
        create 1 token(size: 3) in pool
        create 1 mark(hue: "red") in pool
    flow:
        ask 0 to take
    action take(t in pool):
        move t to pool
    """))
    game = rules.new_game(2)
    ctx = game._ctx(game.state)
    pool = list(game.state.zones["pool"])
    domains = [pool, pool[3:], pool[2:], pool[::-1], [pool[3], pool[2]], pool + pool[:1], pool[:1] + ["x", "y"],
               [], [pool[0], pool[1]]]
    for values in domains:
        expected = decisions._distinct(values, decisions._piece_labels(ctx, values), ())
        assert decisions._piece_choices(ctx, values) == expected
    assert decisions._piece_choices(ctx, [pool[3], pool[2]]) == [(pool[3], "mark"), (pool[2], "token")]
    assert [label for _, label in decisions._piece_choices(ctx, pool)] == ["token#0", "token#2", "mark"]
