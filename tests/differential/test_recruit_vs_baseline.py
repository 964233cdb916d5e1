"""Differential test: the interpreter running rulesets/variants/recruit.rules against
benchmarks/kings_kilt_baseline.py playing the same variant (``variant="recruit"``), fed the same
moves.

The snapshot is the one of ``test_kings_kilt_vs_baseline.py`` (loaded by path: every zone card
for card, the legal moves of every seat in the same order, the flags, the generator's state,
the scores) plus who has recruited. ``recruit`` is ``offered with betray``: the interpreter
lists it right after the betrayals and before ``pass_turn``, which comparing the ordered list
of legal moves after every move checks. Games at 2, 3 and 4 players are driven uniformly from
the interpreter's moves, from the baseline's, and by kind of move first (so a recruit is
offered a third of the turns it is legal); hand-built positions whose draw pile is empty make
recruits reshuffle the discards (K18). The games must reach the variant's rule: recruits, one
instead of a forced pass (an empty hand after the coronation), a recruited card spent on a
betrayal, a recruit that reshuffles. One seed shows exactly where the variant's game leaves
the base game's, and ``bench_game(..., variant="recruit")`` must give ``play_random_game``'s
(moves, scores), also when ``max_moves`` stops the game.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum.agents import play_random_game
from regnum.testing import Scenario

from base_tests import load_base_test   # tests/differential is on the path of its tests

VARIANT = "recruit"


# The base game's differential test, loaded by path under another name (its tests are not
# collected from here): its baseline module, move encoding, snapshots and rare-move driver.
kk = load_base_test("kings_kilt")
kk.PARAMS["recruit"] = ()                # this copy's encoding also knows the variant's action
baseline = kk.baseline
MOVE_BOUND = kk.MOVE_BOUND


@pytest.fixture(scope="module")
def rules():
    return regnum.load(VARIANT)


@pytest.fixture(scope="module")
def base_rules():
    return regnum.load("kings_kilt")


def test_the_variant_is_the_one_the_baseline_names(rules):
    assert rules.model.variant == VARIANT and VARIANT in baseline.VARIANTS


def snapshot_interpreter(game) -> dict:
    return {**kk.snapshot_interpreter(game),
            "recruited": [game.state.pvars[p]["recruited"] for p in range(game.players)]}


def snapshot_baseline(b) -> dict:
    return {**kk.snapshot_baseline(b), "recruited": list(b.recruited)}


def assert_same(game, b, history) -> None:
    mine, theirs = snapshot_interpreter(game), snapshot_baseline(b)
    if mine != theirs:
        diffs = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
        raise AssertionError(f"after {len(history)} moves (last: {history[-6:]}) the interpreter "
                             f"and the baseline differ (interpreter, baseline): {diffs}")


def play_both(game, b, seed: int, drive: str, events: dict) -> list:
    """The base test's ``play_both`` with the variant's snapshot, counting recruits."""
    rng = random.Random(seed)
    history: list = []
    assert_same(game, b, history)
    recruited_clans: list = [set() for _ in range(b.n)]   # clans a seat holds only by its recruit
    while not game.is_over and len(history) < MOVE_BOUND:
        if drive == "interpreter":
            move = kk.to_tuple(rng.choice(game.all_legal_moves()))
        elif drive == "baseline":
            move = rng.choice(b.legal_moves())
        else:
            move = kk.rare_first(b.legal_moves(), rng)
        p, action = move[0], move[1]
        kinds = {m[1] for m in b.legal_moves()}
        pile = b.draw_pile
        if action == "recruit":
            events["recruit"] += 1
            if not kinds - {"recruit", "pass_turn"}:
                events["recruit instead of a forced pass"] += 1
            if not pile:
                events["recruit finds the pile empty"] += 1
        elif action == "betray" and move[2] in recruited_clans[p]:
            events["recruited card spent"] += 1
            recruited_clans[p].discard(move[2])
        game.play(kk.to_move(move))
        b.play(move)
        if b.draw_pile is not pile:              # the discards became the pile
            events["reshuffle"] += 1
            events["reshuffle by a recruit"] += action == "recruit"
        if action == "recruit":
            clan = baseline.CLANS[b.influence[p][-1] >> 3]
            if sum(x >> 3 == baseline.CLAN_INDEX[clan] for x in b.influence[p]) == 1:
                recruited_clans[p].add(clan)
        history.append(move)
        assert_same(game, b, history)
    assert game.is_over and b.is_over, "the game did not end within the move bound"
    assert game.winners == b.winners and game.scores == b.scores
    events["games"] += 1
    events["moves"] += len(history)
    return history


def new_events() -> dict:
    return dict.fromkeys(("games", "moves", "recruit", "recruit instead of a forced pass",
                          "recruited card spent", "recruit finds the pile empty", "reshuffle",
                          "reshuffle by a recruit"), 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_agree_move_by_move(rules, players):
    """The baseline deals its own setup from the seed: uniform from the interpreter's moves
    (seeds 0..49), from the baseline's (1000..1014), kind of move first (2000..2049)."""
    events = new_events()
    for drive, seeds in (("interpreter", range(50)), ("baseline", range(1000, 1015)),
                         ("rare", range(2000, 2050))):
        for seed in seeds:
            game = rules.new_game(players=players, seed=seed, narrate=False)
            play_both(game, baseline.KingsKilt(players, seed, variant=VARIANT), seed, drive, events)
    assert events["games"] == 115
    for event in ("recruit", "recruit instead of a forced pass", "recruited card spent"):
        assert events[event] > 0, (event, events)
    if players >= 3:   # recruits drain the pile: some find it empty and reshuffle (K18)
        assert events["reshuffle by a recruit"] > 0, events


def baseline_from_interpreter(game):
    """A baseline game of the variant at the interpreter's (hand-built) position."""
    state = game.state
    zones = state.zones
    n = game.players
    return baseline.KingsKilt.from_position(
        n, rng_state=state.rng, start_player=state.vars["start_player"],
        place=[(zones[f"place#{name}"] or [-1])[0] for name in baseline.NAME],
        draw_pile=zones["draw_pile"], discards=zones["discards"], removed=zones["removed"],
        family=[zones[f"family#{p}"] for p in range(n)],
        influence=[zones[f"influence#{p}"] for p in range(n)],
        face_up=[i for i, piece in enumerate(state.pieces) if piece["face_up"]],
        passed=[state.pvars[p]["passed"] for p in range(n)], crowned=state.vars["crowned"],
        fired=state.once, match_betrayed=state.vars["match_betrayed"], variant=VARIANT,
        recruited=[state.pvars[p]["recruited"] for p in range(n)])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_recruit_from_an_empty_pile_reshuffles_alike(rules, players):
    """K18 by a recruit: the whole draw pile is moved to the discards before the first move,
    so whoever recruits first (or draws first) reshuffles them with the generator."""
    events = new_events()
    for seed in range(4000, 4020):
        scenario = Scenario(rules, players, seed, narrate=False)
        scenario.place("draw_pile", "discards", n=len(scenario.game.state.zones["draw_pile"]))
        game = scenario.start()
        assert game.state.zones["draw_pile"] == []
        play_both(game, baseline_from_interpreter(game), seed, "rare", events)
    assert events["reshuffle by a recruit"] > 0 and events["recruit finds the pile empty"] > 0, events


# ── one exact case: where the variant's game leaves the base game's ─────────────────────────

def test_the_variant_differs_from_the_base_game(base_rules, rules):
    """Seed 0 with 3 players. Before the first move the variant's legal moves are the base
    game's and the recruit after them (no pass before a coronation). With regnum's random bots
    (what ``regnum bench`` plays) both games take the same first 19 moves; the 20th is seat 1's:
    an advance of (1,0) up-right in the base game, a recruit in the variant. The base game ends
    after 58 moves, 0-6-4; the variant's after 69, 4-2-4, with three recruits (seats 1, 0, 2)."""
    base = base_rules.new_game(players=3, seed=0, narrate=False)
    game = rules.new_game(players=3, seed=0, narrate=False)
    first = [kk.to_tuple(m) for m in base.all_legal_moves()]
    p = base.to_move[0]
    assert first == baseline.KingsKilt(3, 0).legal_moves()
    assert [kk.to_tuple(m) for m in game.all_legal_moves()] == first + [(p, "recruit")]
    assert baseline.KingsKilt(3, 0, variant=VARIANT).legal_moves() == first + [(p, "recruit")]
    played = {}
    for variant, ruleset in ((None, base_rules), (VARIANT, rules)):
        played[variant] = play_random_game(ruleset, 3, 0, max_moves=10_000, coverage=False)
        assert baseline.bench_game(3, 0, variant=variant) == (played[variant].move_count,
                                                              list(played[variant].scores))
    a = [(m.player, m.action, *m.args.values()) for m in played[None].log.moves]
    b = [(m.player, m.action, *m.args.values()) for m in played[VARIANT].log.moves]
    assert a[:19] == b[:19]
    assert (a[19], b[19]) == ((1, "advance", "(1,0)", "up_right"), (1, "recruit"))
    assert (len(a), played[None].scores) == (58, [0, 6, 4])
    assert (len(b), played[VARIANT].scores) == (69, [4, 2, 4])
    assert [m[0] for m in b if m[1] == "recruit"] == [1, 0, 2]


# ── what `regnum bench` compares ────────────────────────────────────────────────────────────

@pytest.mark.parametrize("players", [2, 3, 4])
def test_bench_game_plays_regnums_random_game(rules, players):
    """The same (moves, final scores) as play_random_game on the variant, for seeds 0..59, and
    when ``max_moves`` stops the game; most seeds end otherwise than the base game."""
    differ = 0
    for seed in range(60):
        game = play_random_game(rules, players, seed, max_moves=10_000, coverage=False)
        assert game.is_over
        result = baseline.bench_game(players, seed, 10_000, variant=VARIANT)
        assert result == (game.move_count, list(game.scores)), seed
        differ += result != baseline.bench_game(players, seed, 10_000)
    assert differ >= 30, differ
    for seed in range(5):
        for max_moves in (1, 17, 40):
            game = play_random_game(rules, players, seed, max_moves=max_moves, coverage=False)
            assert game.move_count == max_moves and not game.is_over
            assert baseline.bench_game(players, seed, max_moves, variant=VARIANT) == (max_moves, list(game.scores))
