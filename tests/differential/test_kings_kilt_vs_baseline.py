"""Differential test: the interpreter running rulesets/kings_kilt.rules against the hand-written
benchmarks/kings_kilt_baseline.py, fed the same moves.

The baseline deals its own game from the seed (its copy of regnum's generator, drawn in the
ruleset's setup order), so the first comparison, before any move, checks the setup: every
zone card for card (the baseline numbers cards as the interpreter numbers its pieces), the
start player and the generator's state. After every move both must agree on who is to move,
the legal moves of every seat (the same list, in the same order), every zone (the pyramid,
draw pile, discards, removed cards, families, influence hands), the cards turned face up, who
has passed, the flags (crowned, the active player, the pending vacancy, the row triggers
spent), the generator's state (so the K18 reshuffles draw alike), the scores and whether the
game is over; at the end, on the winners.

Moves are drawn uniformly from the interpreter's legal moves with random.Random(seed); a
second pass draws them from the baseline's moves instead; a third chooses the kind of move
first and favours betrayals in the top rows and of the King (K22), so that every rule is
exercised (which it asserts). The K1 variant and a fixed start player are played too, and
hand-built positions (``regnum.testing.Scenario``) where the draw pile runs out with 2 and 3
players. Last, ``bench_game`` must give ``play_random_game``'s (moves, scores), also when
``max_moves`` stops the game: what ``regnum bench`` compares.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import Move
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline
from regnum.testing import Scenario

baseline = load_baseline("kings_kilt")   # benchmarks/kings_kilt_baseline.py, as `regnum bench` loads it
MOVE_BOUND = 1_000                       # the ruleset promises at most 222 moves
PARAMS = {"advance": ("from", "way"), "betray": ("with", "b", "c"), "pass_turn": (),
          "raise": ("from",), "turn_up": ("c",)}
KING = "(6,0)"
TOP = {name for name, row in zip(baseline.NAME, baseline.ROW) if row >= 4}


@pytest.fixture(scope="module")
def rules():
    return regnum.load("kings_kilt")


def to_tuple(move: Move) -> tuple:
    """The interpreter's move in the baseline's encoding: (player, action, *args)."""
    assert set(move.args) == set(PARAMS[move.action]), move
    return (move.player, move.action, *(move.args[k] for k in PARAMS[move.action]))


def to_move(move: tuple) -> Move:
    player, action, *args = move
    return Move(player, action, dict(zip(PARAMS[action], args)))


def snapshot_interpreter(game) -> dict:
    state = game.state
    n = game.players
    zones = state.zones
    place = []
    for name in baseline.NAME:
        cards = zones[f"place#{name}"]
        assert len(cards) <= 1, (name, cards)
        place.append(cards[0] if cards else -1)
    vacancy = state.vars["vacancy"]
    return {
        "to_move": game.to_move,
        "legal": [to_tuple(m) for m in game.all_legal_moves()],
        "legal_by_seat": [[to_tuple(m) for m in game.legal_moves(p)] for p in range(n)],
        "scores": game.scores,
        "place": place,
        "draw_pile": list(zones["draw_pile"]),
        "discards": list(zones["discards"]),
        "removed": list(zones["removed"]),
        "family": [list(zones[f"family#{p}"]) for p in range(n)],
        "influence": [list(zones[f"influence#{p}"]) for p in range(n)],
        "setup_zones": [list(zones[z]) for z in ("family_set", "members", "leaders", "set_aside")],
        "face_up": [i for i, piece in enumerate(state.pieces) if piece["face_up"]],
        "passed": [state.pvars[p]["passed"] for p in range(n)],
        "crowned": state.vars["crowned"],
        "active": state.vars["active"],
        "start_player": state.vars["start_player"],
        "vacancy": -1 if vacancy is None else baseline.INDEX[vacancy],
        "fired": set(state.once),
        "rng": state.rng,
        "over": game.is_over,
    }


def snapshot_baseline(b) -> dict:
    n = b.n
    return {
        "to_move": b.to_move,
        "legal": list(b.legal_moves()),
        "legal_by_seat": [list(b.legal_moves(p)) for p in range(n)],
        "scores": b.scores,
        "place": list(b.place),
        "draw_pile": list(b.draw_pile),
        "discards": list(b.discards),
        "removed": list(b.removed),
        "family": [list(f) for f in b.family],
        "influence": [list(h) for h in b.influence],
        "setup_zones": [[], [], [], []],
        "face_up": [x for x in range(baseline.CARDS) if b.face_up[x]],
        "passed": list(b.passed),
        "crowned": b.crowned,
        "active": b.active,
        "start_player": b.start_player,
        "vacancy": b.vacancy,
        "fired": b.fired,
        "rng": b.rng.state,
        "over": b.is_over,
    }


def assert_same(game, b, history) -> None:
    mine, theirs = snapshot_interpreter(game), snapshot_baseline(b)
    if mine != theirs:
        diffs = {}
        for k in mine:
            if mine[k] != theirs[k]:
                if k == "legal":
                    a, c = mine[k], theirs[k]
                    diffs[k] = ("only interpreter", [m for m in a if m not in c][:8],
                                "only baseline", [m for m in c if m not in a][:8],
                                "same set, other order" if sorted(a) == sorted(c) else "")
                else:
                    diffs[k] = (mine[k], theirs[k])
        raise AssertionError(f"after {len(history)} moves (last: {history[-6:]}) the interpreter "
                             f"and the baseline differ (interpreter, baseline): {diffs}")


def rare_first(moves: list, rng: random.Random):
    """K22: the kind of move first (uniformly among those offered), then, for a betrayal,
    mostly one of the King or in the top rows when there is one."""
    kind = rng.choice(sorted({m[1] for m in moves}))
    moves = [m for m in moves if m[1] == kind]
    if kind == "betray" and rng.random() < 0.8:
        king = [m for m in moves if m[4] == KING]
        top = [m for m in moves if m[4] in TOP]
        moves = king if king and rng.random() < 0.4 else top or moves
    return rng.choice(moves)


def play_both(game, b, seed: int, drive: str, events: dict | None = None) -> list:
    """Play ``game`` (the interpreter's) and ``b`` (the baseline's) with the same moves, chosen
    by ``drive``, comparing everything after every move; returns the moves played."""
    rng = random.Random(seed)
    history: list = []
    assert_same(game, b, history)
    while not game.is_over and len(history) < MOVE_BOUND:
        if drive == "interpreter":
            move = to_tuple(rng.choice(game.all_legal_moves()))
        elif drive == "baseline":
            move = rng.choice(b.legal_moves())
        else:
            move = rare_first(b.legal_moves(), rng)
        if events is not None:
            count_events(events, b, move)
            pile = b.draw_pile
        game.play(to_move(move))
        b.play(move)
        if events is not None and b.draw_pile is not pile:   # the discards became the pile
            events["reshuffle"] += 1
        history.append(move)
        assert_same(game, b, history)
    assert game.is_over and b.is_over, "the game did not end within the move bound"
    assert game.winners == b.winners
    assert game.scores == b.scores
    if events is not None:
        events["games"] += 1
        events["moves"] += len(history)
        events["shared wins"] += len(game.winners) > 1
    return history


def count_events(events: dict, b, move: tuple) -> None:
    """Which rare rules ``move`` (about to be played on ``b``) exercises."""
    kinds = {m[1] for m in b.legal_moves()}
    action = move[1]
    if action == "betray":
        if move[4] == KING:
            events["king betrayed"] += 1
        elif move[4] in TOP:
            events["top row betrayed"] += 1
        if move[4] in TOP and baseline.CLAN_INDEX[move[2]] != b.place[baseline.INDEX[move[3]]] >> 3:
            events["top row betrayal matching c, not b"] += 1
    elif action == "pass_turn":
        events["voluntary pass" if "betray" in kinds else "forced pass"] += 1
    elif action == "turn_up":
        events["reveals"] += 1
        if b.n == 2 and len(b.face_down(move[0])) == 3 and "guardians" in b.fired:
            events["two-player guardians reveal two"] += 1


def new_events() -> dict:
    return {k: 0 for k in ("games", "moves", "king betrayed", "top row betrayed", "reshuffle",
                           "voluntary pass", "forced pass", "reveals", "shared wins",
                           "top row betrayal matching c, not b", "two-player guardians reveal two")}


# ── seeded games: the baseline deals its own setup from the seed ──────────────────────────

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_move_by_move(rules, players):
    events = new_events()
    for seed in range(100):
        game = rules.new_game(players=players, seed=seed, narrate=False)
        play_both(game, baseline.KingsKilt(players, seed), seed, "interpreter", events)
    assert events["games"] == 100 and events["reveals"] > 0
    if players == 4:
        assert events["reshuffle"] > 0, events


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_drawn_from_the_baseline_are_legal_in_the_interpreter(rules, players):
    for seed in range(1000, 1050):
        game = rules.new_game(players=players, seed=seed, narrate=False)
        play_both(game, baseline.KingsKilt(players, seed), seed, "baseline")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rare_moves_agree_move_by_move(rules, players):
    """Kind first, top-row and King betrayals favoured: every rule of the game is exercised."""
    events = new_events()
    for seed in range(2000, 2100):
        game = rules.new_game(players=players, seed=seed, narrate=False)
        play_both(game, baseline.KingsKilt(players, seed), seed, "rare", events)
    for event in ("king betrayed", "top row betrayed", "voluntary pass", "forced pass", "shared wins"):
        assert events[event] > 0, (event, events)
    assert events["top row betrayal matching c, not b"] == 0, events   # K1: b's clan only
    if players == 2:
        assert events["two-player guardians reveal two"] > 0, events
    if players == 4:
        assert events["reshuffle"] > 0, events


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_variant_and_a_fixed_start_player_agree(rules, players):
    """``match_betrayed`` (K1's variant: the influence card matches the betrayed card) and
    ``random_start`` off (seat 0 starts, no draw for it)."""
    events = new_events()
    for seed in range(3000, 3030):
        options = {"match_betrayed": True, "random_start": False}
        game = rules.new_game(players=players, seed=seed, narrate=False, options=options)
        b = baseline.KingsKilt(players, seed, random_start=False, match_betrayed=True)
        assert b.start_player == 0
        play_both(game, b, seed, "rare", events)
    assert events["top row betrayal matching c, not b"] > 0, events


def baseline_from_interpreter(game):
    """A baseline game at the interpreter's (hand-built) position, before its first move."""
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
        fired=state.once, match_betrayed=state.vars["match_betrayed"])


@pytest.mark.parametrize("players", [2, 3])
def test_the_discards_are_reshuffled_alike(rules, players):
    """K18 with 2 and 3 players, where only a hand-built position runs the pile out: all but
    two cards of the draw pile are moved to the discards before the first move."""
    events = new_events()
    for seed in range(4000, 4020):
        scenario = Scenario(rules, players, seed, narrate=False)
        scenario.place("draw_pile", "discards", n=len(scenario.game.state.zones["draw_pile"]) - 2)
        game = scenario.start()
        play_both(game, baseline_from_interpreter(game), seed, "rare" if seed % 2 else "interpreter", events)
    assert events["reshuffle"] > 0, events


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seed_deals_the_same_setup_on_both_sides(rules, players):
    """Every zone card for card, the start player and the generator's state, for more seeds
    than the games above play (large seeds too: the generator's arithmetic is modulo 2**64)."""
    for seed in [*range(5000, 5200), 123456789, 2**63 + 5, 2**70]:
        game = rules.new_game(players=players, seed=seed, narrate=False)
        assert_same(game, baseline.KingsKilt(players, seed), [])


def test_the_comparison_notices_a_difference(rules):
    """The snapshot catches a wrong order of the legal moves, a card out of place, a wrong
    generator state."""
    game = rules.new_game(players=3, seed=7, narrate=False)
    assert_same(game, baseline.KingsKilt(3, 7), [])
    for spoil in (lambda b: b.legal_moves().reverse(),
                  lambda b: b.influence[0].reverse(),
                  lambda b: b.place.__setitem__(20, 0),
                  lambda b: setattr(b.rng, "state", b.rng.state + 1)):
        b = baseline.KingsKilt(3, 7)
        spoil(b)
        with pytest.raises(AssertionError):
            assert_same(game, b, [])


# ── what `regnum bench` compares ────────────────────────────────────────────────────────────

@pytest.mark.parametrize("players", [2, 3, 4])
def test_bench_game_plays_regnums_random_game(rules, players):
    """The same (moves, final scores) as play_random_game, for seeds 0..99, and when
    ``max_moves`` stops the game (no score yet), also in the middle of a vacuum chain."""
    for seed in range(100):
        game = play_random_game(rules, players, seed, max_moves=10_000, coverage=False)
        assert game.is_over
        assert baseline.bench_game(players, seed, 10_000) == (game.move_count, list(game.scores))
    for seed in range(10):
        for max_moves in (1, 17, 40):
            game = play_random_game(rules, players, seed, max_moves=max_moves, coverage=False)
            assert game.move_count == max_moves and not game.is_over
            assert baseline.bench_game(players, seed, max_moves) == (max_moves, list(game.scores))


def test_baselines_own_worked_examples_pass():
    """The oracle itself checks the digest's worked examples (its --check mode)."""
    baseline._self_check()
