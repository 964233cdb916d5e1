"""Differential test: the interpreter running rulesets/variants/permanent_nobles.rules against
benchmarks/kings_road_baseline.py playing the same variant (``variant="permanent_nobles"``),
fed the same (player, card) moves.

After every move both must agree on who is to move, every player's legal cards, the scores,
the King, the supplies, the markers on the board, the Nobles of every region (several a
region in this variant, at most one per player) and whether the game is over; at the end, on
the winners (whose tie-break counts every Noble). Moves come from the interpreter's legal
moves (uniform), from the baseline's, or favour a few regions and the special cards (the
drives of ``test_kings_road_vs_baseline.py``), at 2-5 players. The games must reach the
variant's rule: a Noble added beside another player's, three Nobles in a region, a sole leader
who already has a Noble there (who adds nothing). One seed shows exactly where the variant's
game leaves the base game's; and ``bench_game(..., variant=...)`` must give
``play_random_game``'s (moves, scores), also when ``max_moves`` stops the game.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import Move
from regnum.agents import play_random_game

from base_tests import load_base_test   # tests/differential is on the path of its tests

VARIANT = "permanent_nobles"
MOVE_BOUND = 3_000
SEEDS = 40


# The base game's differential test, loaded by path under another name (its tests are not
# collected from here) for its baseline module; its snapshot refuses two Nobles in a region,
# so the variant's snapshot and driver below are compact copies of its own.
base_test = load_base_test("kings_road")
baseline = base_test.baseline
REGIONS = baseline.REGIONS


@pytest.fixture(scope="module")
def rules():
    return regnum.load(VARIANT)


@pytest.fixture(scope="module")
def base_rules():
    return regnum.load("kings_road")


def test_the_variant_is_the_one_the_baseline_names(rules):
    assert rules.model.variant == VARIANT and VARIANT in baseline.VARIANTS


def snapshot_interpreter(game) -> dict:
    """The base test's snapshot, but Nobles as {region: sorted owners} (they stack)."""
    state = game.state
    n = game.players
    legal: dict = {p: set() for p in range(n)}
    for move in game.all_legal_moves():
        assert move.action == "pick"
        legal[move.player].add(move.args["card"])
    board, nobles = {}, {}
    for r in REGIONS:
        for i in state.zones[f"region#{r}"]:
            piece = state.pieces[i]
            if piece["noble"]:
                nobles.setdefault(r, []).append(piece["owner"])
            else:
                board[(piece["owner"], r)] = board.get((piece["owner"], r), 0) + 1
    return {
        "to_move": game.to_move,
        "legal": legal,
        "scores": game.scores,
        "king": state.vars["king"],
        "supply": [len(state.zones[f"supply#{p}"]) for p in range(n)],
        "board": board,
        "nobles": {r: sorted(owners) for r, owners in nobles.items()},
        "over": game.is_over,
    }


def snapshot_baseline(b) -> dict:
    n = b.n
    legal: dict = {p: set() for p in range(n)}
    for player, card in b.legal_moves():
        legal[player].add(card)
    return {
        "to_move": b.to_move,
        "legal": legal,
        "scores": b.scores,
        "king": b.king,
        "supply": [b.supply(p) for p in range(n)],
        "board": {(p, r): b.markers(p, r) for p in range(n) for r in REGIONS if b.markers(p, r)},
        "nobles": {r: b.noble_owners(r) for r in REGIONS if b.noble_owners(r)},
        "over": b.is_over,
    }


def assert_same(game, b, history) -> None:
    mine, theirs = snapshot_interpreter(game), snapshot_baseline(b)
    if mine != theirs:
        diffs = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
        last = ", ".join(f"P{p}:{c}" for p, c in history[-12:])
        raise AssertionError(f"after {len(history)} moves (last: {last}) the interpreter and the "
                             f"baseline differ (interpreter, baseline): {diffs}")


class Recorded(baseline.KingsRoad):
    """The baseline, counting what step c of the variant does at each scoring of a region
    (read from its own state, compared with the interpreter's after every move anyway)."""

    def __init__(self, players: int, events: dict):
        super().__init__(players, variant=VARIANT)
        self.events = events

    def _score_region(self, r: int, final: bool = False) -> None:
        before = self._stack[r]
        strength = [self._board[r][p] + (before >> p & 1) for p in range(self.n)]
        super()._score_region(r, final)
        after = self._stack[r]
        assert before & ~after == 0, "a Noble left the board"
        if final:
            return
        events, top = self.events, max(strength)
        if top and strength.count(top) == 1:
            if before >> strength.index(top) & 1:
                events["sole leader already holds a noble"] += 1
            elif before:
                events["noble added beside another"] += 1
        if bin(after).count("1") >= 2:
            events["several nobles paid in a region"] += 1
        if bin(after).count("1") >= 3 > bin(before).count("1"):
            events["third noble in a region"] += 1


def play_both(rules, players: int, seed: int, drive: str, events: dict) -> None:
    """The base test's ``play_both`` on the variant, counting what the variant's rule did."""
    game = rules.new_game(players=players, seed=seed, narrate=False)
    b = Recorded(players, events)
    rng = random.Random(seed)
    history: list = []
    assert_same(game, b, history)
    favourites = rng.sample(REGIONS, rng.choice([1, 2, 3]))
    while not game.is_over and len(history) < MOVE_BOUND:
        if drive == "interpreter":
            move = rng.choice(game.all_legal_moves())
            player, card = move.player, move.args["card"]
        elif drive == "biased":
            moves = game.all_legal_moves()
            liked = [m for m in moves
                     if m.args["card"] in favourites or m.args["card"] in ("witch", "dragon", "knight")]
            move = rng.choice(liked if liked and rng.random() < 0.9 else moves)
            player, card = move.player, move.args["card"]
        else:
            player, card = rng.choice(b.legal_moves())
            move = Move(player, "pick", {"card": card})
        game.play(move)
        b.play(player, card)
        history.append((player, card))
        assert_same(game, b, history)
    assert game.is_over and b.is_over, "the game did not end within the move bound"
    assert game.winners == b.winners and game.scores == b.scores
    events["games"] += 1
    events["moves"] += len(history)
    events["most nobles in a region"] = max(events["most nobles in a region"],
                                            max(len(b.noble_owners(r)) for r in REGIONS))


def new_events() -> dict:
    return dict.fromkeys(("games", "moves", "noble added beside another", "third noble in a region",
                          "sole leader already holds a noble", "several nobles paid in a region",
                          "most nobles in a region"), 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_agree_move_by_move(rules, players):
    """Uniform from the interpreter's moves (seeds 0..SEEDS), from the baseline's, and favouring
    few regions and the special cards."""
    events = new_events()
    for seed in range(SEEDS):
        play_both(rules, players, seed, "interpreter", events)
    for seed in range(1000, 1000 + SEEDS // 4):
        play_both(rules, players, seed, "baseline", events)
    for seed in range(2000, 2000 + SEEDS // 2):
        play_both(rules, players, seed, "biased", events)
    # The variant's rule is reached, and matters: a sole leader adds a Noble where another
    # player's stays (the base game would send it home), several Nobles of a region pay their
    # chains, a sole leader who has a Noble there adds none.
    for event in ("noble added beside another", "several nobles paid in a region",
                  "sole leader already holds a noble"):
        assert events[event] > 0, (event, events)
    assert events["games"] == SEEDS * 7 // 4
    if players >= 4:   # three players' Nobles in one region (6 at 4 players, 10 at 5)
        assert events["third noble in a region"] > 0, events


def test_a_sole_leader_with_a_noble_adds_nothing_and_nobles_never_leave():
    """Played in the baseline, against its own base game: the A11 case of the variant."""
    b = baseline._position(4, markers={"dark_tower": [2, 0, 0, 0]}, nobles={"dark_tower": (0, 1)},
                           variant=VARIANT)
    b._score_region(REGIONS.index("dark_tower"))
    assert b.noble_owners("dark_tower") == [0, 1] and b.scores == [6, 5, 0, 0]
    assert [b.supply(p) for p in range(4)] == [18, 18, 19, 19]   # both markers of seat 0 went home


# ── one exact case: where the variant's game leaves the base game's ─────────────────────────

def first_difference(base_rules, rules, players: int, seed: int):
    """Play the same uniform moves (``random.Random(seed)`` over the legal moves, the same in
    both) in the base game and the variant until their Nobles differ; the moves, both games."""
    base = base_rules.new_game(players=players, seed=seed, narrate=False)
    game = rules.new_game(players=players, seed=seed, narrate=False)
    rng = random.Random(seed)
    history: list = []
    while not (game.is_over or base.is_over):
        moves = game.all_legal_moves()
        assert moves == base.all_legal_moves()
        move = rng.choice(moves)
        base.play(move)
        game.play(move)
        history.append((move.player, move.args["card"]))
        if snapshot_interpreter(base)["nobles"] != snapshot_interpreter(game)["nobles"]:
            return history, base, game
    return None


def test_the_variant_differs_from_the_base_game(base_rules, rules):
    """Seed 3 with 4 players, uniform moves: the 72nd move ends round 5, whose King's region
    Zin Kai's Deep is scored with strengths [1, 3, 1, 1] while seat 0 holds its Noble. Seat 1,
    sole leader, gets a Noble in both games; the base game sends seat 0's home (its supply 15,
    no chain bonus), the variant keeps it (supply 14) and pays it a chain of 1 (15 points, not
    14). Seeds 0 and 5 never differ: no sole leader meets another player's Noble."""
    history, base, game = first_difference(base_rules, rules, 4, 3)
    assert len(history) == 72
    expected = {None: {"nobles": {"zin_kais_deep": [1], "temple_ruins": [2], "kings_altar": [3]},
                       "scores": [14, 15, 10, 13], "supply": [15, 14, 13, 13]},
                VARIANT: {"nobles": {"zin_kais_deep": [0, 1], "temple_ruins": [2], "kings_altar": [3]},
                          "scores": [15, 15, 10, 13], "supply": [14, 14, 13, 13]}}
    for variant, played in ((None, base), (VARIANT, game)):
        mine = snapshot_interpreter(played)
        assert {k: mine[k] for k in expected[variant]} == expected[variant], variant
        # The baseline's two code paths, fed these moves, land on the same position.
        b = baseline.KingsRoad(4, variant=variant)
        for player, card in history:
            b.play(player, card)
        assert snapshot_baseline(b) == mine
    assert first_difference(base_rules, rules, 4, 0) is None


# ── what `regnum bench` compares ────────────────────────────────────────────────────────────

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bench_game_plays_regnums_random_game(rules, players):
    """The same (moves, final scores) as play_random_game on the variant, for seeds 0..39, and
    when ``max_moves`` stops the game; most seeds end otherwise than the base game."""
    differ = 0
    for seed in range(40):
        game = play_random_game(rules, players, seed, max_moves=10_000, coverage=False)
        assert game.is_over
        result = baseline.bench_game(players, seed, 10_000, variant=VARIANT)
        assert result == (game.move_count, list(game.scores)), seed
        differ += result != baseline.bench_game(players, seed, 10_000)
    assert differ >= 20, differ
    for seed in range(5):
        for max_moves in (1, 29, 60):
            game = play_random_game(rules, players, seed, max_moves=max_moves, coverage=False)
            assert game.move_count == max_moves and not game.is_over
            assert baseline.bench_game(players, seed, max_moves, variant=VARIANT) == (max_moves, list(game.scores))
