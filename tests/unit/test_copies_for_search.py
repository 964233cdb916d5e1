"""A copy for a search (engine/game.py Game.copy, engine/memo.py Memo.copied): the copy of a
position starts with what its original knew of it — the moves handed out, who is to move,
the listings (kept as a `can` keeps them), the indexes of its kept values (taken at its
first context, a copy of them: neither game writes the shared one) — and plays exactly the
games a copy that knew nothing plays: the same moves offered, the same states, the same
coverage and steps. A move not handed out is found among the listed tuples of its action."""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import IllegalMove, Move, testing
from regnum.engine import decisions, memo as kept
from regnum.engine.memo import EMPTY

RULESETS = ["kings_road", "kings_kilt", "kings_gate", "kingdom_builder"]


@pytest.fixture(scope="module")
def loaded():
    return {name: regnum.load(name) for name in RULESETS}


def _knowing_nothing(game):
    """A copy of `game` that knows nothing of its position (as copies were made before)."""
    other = game.copy()
    other._cache = {}
    other._memo_from = None
    other.state.memo = EMPTY
    return other


def _offered(game):
    return [(m.player, m.action, m.args) for p in game.to_move for m in game.legal_moves(p)]


def _play_on(game, pick: random.Random, moves: int) -> list:
    """Play up to `moves` random moves through the public API; what was offered each time."""
    seen = []
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.to_move[0]
        offered = game.legal_moves(seat)
        seen.append([(m.action, m.args) for m in offered])
        game.play(offered[pick.randrange(len(offered))])
    return seen


@pytest.mark.parametrize("name", RULESETS)
def test_copies_play_what_copies_knowing_nothing_play(loaded, name):
    rules = loaded[name]
    for seed in range(2):
        game = rules.new_game(players=4, seed=seed, coverage=True)
        pick = random.Random(seed)
        branches = 0
        while not game.is_over and branches < 6:
            _play_on(game, pick, 9)
            if game.is_over:
                break
            game.legal_moves(game.to_move[0])   # the position listed, as a search lists it
            copy, fresh = game.copy(), _knowing_nothing(game)
            assert copy._cache and not fresh._cache
            for other in (copy, fresh):
                assert _offered(other) == _offered(game)
            # The three go on alike: the same moves offered, the same states and steps.
            played = [_play_on(other, random.Random(seed + branches), 12) for other in (copy, fresh, game)]
            assert played[0] == played[1] == played[2]
            assert copy.to_json() == fresh.to_json() == game.to_json()
            assert copy.peak_steps == fresh.peak_steps == game.peak_steps
            # The copy counts the coverage its original counts (the copy knowing nothing counts
            # the listing it made again, which its original had counted before the copy).
            assert copy.hits == game.hits
            branches += 1
        assert branches >= 3


def test_a_copy_plays_a_move_handed_out_without_listing_again(kings_road, monkeypatch):
    game = kings_road.new_game(players=4, seed=3, coverage=False)
    seat = game.to_move[0]
    offered = game.legal_moves(seat)
    listed = []
    action = kings_road.model.actions["pick"]
    real = action.lister

    def spy(*args):
        listed.append(args[1])
        return real(*args)
    monkeypatch.setattr(action, "lister", spy)
    copy = game.copy()
    assert copy.legal_moves(seat) == offered
    copy.play(offered[2])
    assert listed == []   # found as handed out, its listing read as kept
    assert copy._list_ctx.state is copy.state   # the copy's own context read it
    _knowing_nothing(game).legal_moves(seat)
    assert listed == [seat]   # (what a copy knowing nothing does)
    game.play(offered[2])
    assert copy.to_json() == game.to_json()


def test_a_copy_counts_the_coverage_its_original_counts(kings_road):
    game = kings_road.new_game(players=4, seed=5)
    seat = game.to_move[0]
    offered = game.legal_moves(seat)
    copy = game.copy()
    copy.play(offered[1])
    game.play(offered[1])
    # The listing was counted once, by the original, before the copy: not again by the copy.
    assert copy.hits == game.hits


def test_a_move_not_handed_out_is_found_without_an_env_per_legal_move(kings_road, monkeypatch):
    game = kings_road.new_game(players=4, seed=4, coverage=False)
    seat = game.to_move[0]
    wanted = game.legal_moves(seat)[3]
    made = []
    real = decisions._pairs
    monkeypatch.setattr(decisions, "_pairs", lambda *a: made.append(a) or real(*a))
    other = game.copy()
    other._cache = {}
    other.play(Move(wanted.player, wanted.action, dict(wanted.args)))
    assert made == []
    game.play(wanted)
    assert other.to_json() == game.to_json()


def test_a_move_equal_only_by_pythons_equality_is_refused_by_name(kings_road):
    game = kings_road.new_game(players=4, seed=4, coverage=False)
    seat = game.to_move[0]
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(Move(seat, "pick", {"card": True}))
    assert refused.value.rule == "pick.card"
    assert game.to_json() == before


def test_legal_moves_are_moves_of_plain_values(kings_road):
    game = kings_road.new_game(players=4, seed=6, coverage=False)
    seat = game.to_move[0]
    for move in game.legal_moves(seat):
        assert type(move) is Move and type(move.player) is int and type(move.action) is str
        assert move == Move(move.player, move.action, dict(move.args))
        assert hash(move) == hash(Move(move.player, move.action, dict(move.args)))


# ── the indexes of kept values ─────────────────────────────────────────────────

def _mid_game(rules, seed: int, moves: int = 40):
    game = rules.new_game(players=4, seed=seed, coverage=False)
    _play_on(game, random.Random(seed), moves)
    assert game.state.memo.indexes   # Kingdom Builder keeps an index of its cells by now
    return game


def test_a_copy_takes_a_copy_of_the_indexes_instead_of_judging_every_cell(loaded, monkeypatch):
    game = _mid_game(loaded["kingdom_builder"], 1)
    index = game.state.memo.indexes[0]
    cells = len(index.values)
    judged = []
    real = kept._judge

    def spy(c, memo_, index_, body, todo):
        judged.append(len(todo))
        return real(c, memo_, index_, body, todo)
    monkeypatch.setattr(kept, "_judge", spy)
    copy = game.copy()
    assert copy.state.memo is EMPTY and copy._memo_from is game.state.memo
    seat = copy.to_move[0]
    copy.play(copy.legal_moves(seat)[-1])
    assert copy.state.memo is not game.state.memo and copy.state.memo.indexes[0] is not index
    assert cells == 400 and judged and max(judged) < cells   # only the cells a move changed
    fresh = _knowing_nothing(game)
    fresh.play(fresh.legal_moves(seat)[-1])
    assert copy.to_json() == fresh.to_json() and _offered(copy) == _offered(fresh)


def test_neither_game_writes_the_memo_they_share(loaded):
    game = _mid_game(loaded["kingdom_builder"], 2)
    shared = game.state.memo
    values = dict(shared.indexes[0].values)
    entries = dict(shared.entries)
    copy = game.copy()
    assert game._memo_from is shared and game._move_ctx is None and game._list_ctx is None
    pick = random.Random(7)
    _play_on(game, pick, 10)
    _play_on(copy, pick, 10)
    assert dict(shared.indexes[0].values) == values and dict(shared.entries) == entries
    assert game.state.memo is not shared and copy.state.memo is not shared
    assert game.state.memo.indexes[0] is not copy.state.memo.indexes[0]


def test_an_index_taken_by_a_copy_stays_exact_as_both_games_go_on(loaded):
    """Each game's index, after every move, holds what judging every cell again gives."""
    rules = loaded["kingdom_builder"]
    game = _mid_game(rules, 3)
    copies = [game.copy() for _ in range(2)]
    for n, other in enumerate([game] + copies):
        pick = random.Random(n)
        for _ in range(25):
            if other.is_over:
                break
            _play_on(other, pick, 1)
            fresh = _knowing_nothing(other)
            assert _offered(other) == _offered(fresh)
            index = other.state.memo.indexes.get(0)
            if index is not None and not index.dirty:
                fresh.legal_moves(fresh.to_move[0])
                again = fresh.state.memo.indexes.get(0)
                if again is not None and not again.dirty:
                    assert index.values == again.values
                    assert {v: c for v, c in index.cells.items() if c} == \
                           {v: c for v, c in again.cells.items() if c}
                    for value in set(index.near) & set(again.near):
                        assert index.near[value] == again.near[value], value


def test_a_copy_edited_before_its_first_context_takes_nothing_shared(loaded):
    game = _mid_game(loaded["kingdom_builder"], 4)
    copy = game.copy()
    testing.set_var(copy, "turn", copy.state.vars["turn"])
    assert copy._memo_from is None and copy.state.memo is EMPTY
    seat = copy.to_move[0]
    copy.play(copy.legal_moves(seat)[0])
    assert copy.state.memo is not game.state.memo


def test_a_memo_copied_lists_every_zone_its_indexes_read(loaded):
    game = _mid_game(loaded["kingdom_builder"], 5)
    shared = game.state.memo
    made = shared.copied()
    assert set(made.readers) == set(shared.watched) and not made.entries
    assert all(made.readers[zone] == () for zone in made.readers)
    assert made.watched == shared.watched and made.watched is not shared.watched
    index, again = shared.indexes[0], made.indexes[0]
    assert again.values == index.values and again.values is not index.values
    assert again.number == index.number == 0 and again.around == {}
    # A value kept in the copy lists its reader in place of the mark of a zone no value read.
    zone = next(iter(made.readers))
    made.keep(("a key",), True, 1, [zone])
    assert made.readers[zone] == [("a key",)] and shared.readers.get(zone) != [("a key",)]
    made.drop(zone)
    assert ("a key",) not in made.entries


def test_the_last_moves_journal_is_made_whole_once_however_often_the_game_is_copied(kings_road):
    game = kings_road.new_game(players=4, seed=3)
    while game.state.flow["threads"] is None or game.move_count < 2:
        game.play(game.legal_moves(game.to_move[0])[0])
    before = game._previous().to_dict()
    first = game.copy()
    threads = game._last.threads
    second = game.copy()
    assert game._last.threads is threads   # its own copies of the stacks, made by the first copy
    for other in (game, first, second):
        assert other._previous().to_dict() == before


def test_a_copy_of_a_copy_shares_the_same_memo_until_each_takes_its_own(loaded):
    game = _mid_game(loaded["kingdom_builder"], 6)
    shared = game.state.memo
    child = game.copy()
    grandchild = child.copy()   # before the child's first context: the same memo, not the child's EMPTY
    assert child._memo_from is shared and grandchild._memo_from is shared
    for n, other in enumerate((grandchild, game, child)):
        fresh = _knowing_nothing(other)
        assert _play_on(other, random.Random(n), 15) == _play_on(fresh, random.Random(n), 15)
        assert other.to_json() == fresh.to_json() and _offered(other) == _offered(fresh)
        assert other.state.memo is not shared and other._memo_from is None
