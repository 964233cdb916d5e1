"""Differential test: the interpreter running rulesets/kingdom_builder.rules against the
hand-written benchmarks/kingdom_builder_baseline.py, fed the same moves.

Here the baseline is built from the interpreter's game after setup: the four sections and
which are turned (read back from the board), the three Kingdom Builder cards and the terrain
deck's order (so positions built with ``regnum.testing.Scenario`` can be compared too).
Reshuffles during play use the interpreter's own generator (``regnum.rng``, from the state's
``rng``) on the same discards, so both sides draw the same cards. The baseline also replays
regnum's seeded setup by itself (its embedded copy of the generator): the last tests check
that a seed gives the same setup on both sides, and that its ``bench_game`` plays the same
games as ``regnum.agents.play_random_game`` (what ``regnum bench`` compares).

After every move both must agree on who is to move, the legal moves (the same list, in the
same order), the settlements on the board and in each supply, the tiles held, the cards
(pile, discards, hands, the played card), every score and whether the game is over; at the
end, on the winners. Moves are drawn uniformly from the interpreter's legal moves with
random.Random(seed); a second pass draws them from the baseline's moves instead, and a third
favours tile actions so that every tile power is exercised.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum.benchmark import load_baseline
from regnum import Move
from regnum.agents import play_random_game
from regnum import rng as regnum_rng
from regnum.testing import Scenario

MOVE_BOUND = 3_000


baseline = load_baseline("kingdom_builder")   # benchmarks/kingdom_builder_baseline.py, as `regnum bench` loads it
STATS = {"games": 0, "moves": 0}


@pytest.fixture(scope="module")
def rules():
    return regnum.load("kingdom_builder")


def _cell(text: str) -> tuple:
    r, c = text.strip("()").split(",")
    return int(r), int(c)


def _text(rc) -> str:
    return f"({rc[0]},{rc[1]})"


def baseline_from_interpreter(game):
    """A baseline game with the interpreter's setup and the interpreter's reshuffles."""
    state = game.state
    terrain, location = state.tables["terrain"], state.tables["location_at"]
    sections, turned = [], []
    for q, (r0, c0) in enumerate(baseline.QUADRANTS):
        kinds = {location[_text((r0 + r, c0 + c))] for r in range(10) for c in range(10)} - {None}
        assert len(kinds) == 1, kinds
        name = kinds.pop()
        rows = baseline.SECTION_ROWS[name]
        straight = all(baseline.TERRAIN_OF_LETTER[rows[r][c]] == terrain[_text((r0 + r, c0 + c))]
                       for r in range(10) for c in range(10))
        sections.append(name)
        turned.append(not straight)
    cards = state.pieces
    hands = [state.zones[f"hand#{p}"] for p in range(game.players)]
    assert hands[0] == [] and len(state.zones["played"]) == 1  # seat 0's card is revealed
    first = state.zones["played"]
    deck = [cards[i]["terrain"] for i in state.zones["draw_pile"]]
    deck += [cards[h[0]]["terrain"] for h in list(reversed(hands[1:])) + [first]]  # top last
    generator = {"state": state.rng}

    def shuffle(items: list) -> None:
        generator["state"] = regnum_rng.shuffle(generator["state"], items)

    settlements = {rc: state.pieces[i]["owner"] for rc in baseline.CELLS
                   for i in state.zones[f"site#{_text(rc)}"]}
    b = baseline.KingdomBuilder(game.players, sections=sections, turned=turned,
                                goals=list(state.vars["goals"]), deck=deck, shuffle=shuffle,
                                settlements=settlements)
    assert [b.terrain[i] for i in range(baseline.N_CELLS)] == \
        [terrain[_text(rc)] for rc in baseline.CELLS], "the boards differ"
    return b


def to_interpreter_move(move) -> Move:
    player, action, *args = move
    if action == "build":
        return Move(player, action, {"h": _text(args[0])})
    if action == "build_with_tile":
        return Move(player, action, {"tile": args[0], "h": _text(args[1])})
    if action == "move_with_tile":
        return Move(player, action, {"tile": args[0], "from": _text(args[1]), "to": _text(args[2])})
    return Move(player, action, {})


def to_baseline_move(move: Move) -> tuple:
    a = move.args
    if move.action == "build":
        return (move.player, "build", _cell(a["h"]))
    if move.action == "build_with_tile":
        return (move.player, "build_with_tile", a["tile"], _cell(a["h"]))
    if move.action == "move_with_tile":
        return (move.player, "move_with_tile", a["tile"], _cell(a["from"]), _cell(a["to"]))
    assert move.action == "end_turn", move
    return (move.player, "end_turn")


def snapshot_interpreter(game) -> dict:
    state = game.state
    n = game.players
    pieces = state.pieces
    board = {}
    for rc in baseline.CELLS:
        for i in state.zones[f"site#{_text(rc)}"]:
            board[rc] = pieces[i]["owner"]
    terrain = lambda zone: [pieces[i]["terrain"] for i in state.zones[zone]]  # noqa: E731
    return {
        "to_move": game.to_move,
        "legal": [to_baseline_move(m) for m in game.all_legal_moves()],
        "scores": game.scores,
        "supply": [len(state.zones[f"supply#{p}"]) for p in range(n)],
        "tiles": [[pieces[i]["label"] for i in state.zones[f"tiles#{p}"]] for p in range(n)],
        "board": board,
        "pile": terrain("draw_pile"),
        "discards": terrain("discards"),
        "played": terrain("played")[:1] or [None],
        "hands": [(terrain(f"hand#{p}") or [None])[0] for p in range(n)],
        "over": game.is_over,
    }


def snapshot_baseline(b) -> dict:
    n = b.n
    return {
        "to_move": b.to_move,
        "legal": list(b.legal_moves()),
        "scores": b.scores,
        "supply": list(b.supply),
        "tiles": [b.tile_names(p) for p in range(n)],
        "board": {rc: p for p in range(n) for rc in b.settlements(p)},
        "pile": list(b._pile),
        "discards": list(b._discards),
        "played": [b.played],
        "hands": list(b.hand),
        "over": b.is_over,
    }


def step_both(game, b, history: list, move) -> None:
    """One move played by the interpreter and the baseline, then everything compared."""
    game.play(move)
    b.play(*to_baseline_move(move))
    history.append(to_baseline_move(move))
    assert_same(game, b, history)


def assert_same(game, b, history) -> None:
    mine, theirs = snapshot_interpreter(game), snapshot_baseline(b)
    if mine != theirs:
        diffs = {}
        for k in mine:
            if mine[k] != theirs[k]:
                if k == "legal":
                    a, c = set(mine[k]), set(theirs[k])
                    diffs[k] = ("only interpreter", sorted(a - c)[:8], "only baseline", sorted(c - a)[:8],
                                "same set" if a == c else "")
                else:
                    diffs[k] = (mine[k], theirs[k])
        raise AssertionError(f"after {len(history)} moves (last: {history[-6:]}) the interpreter "
                             f"and the baseline differ (interpreter, baseline): {diffs}")


def play_both(rules, players: int, seed: int, drive: str) -> tuple:
    game = rules.new_game(players=players, seed=seed, narrate=False)
    b = baseline_from_interpreter(game)
    rng = random.Random(seed)
    history: list = []
    assert_same(game, b, history)
    while not game.is_over and len(history) < MOVE_BOUND:
        if drive == "interpreter":
            move = rng.choice(game.all_legal_moves())
        elif drive == "tiles":
            moves = game.all_legal_moves()
            tiled = [m for m in moves if m.action in ("build_with_tile", "move_with_tile")]
            move = rng.choice(tiled if tiled and rng.random() < 0.8 else moves)
        else:
            move = to_interpreter_move(rng.choice(b.legal_moves()))
        step_both(game, b, history, move)
    STATS["games"] += 1
    STATS["moves"] += len(history)
    assert game.is_over and b.is_over, "the game did not end within the move bound"
    assert game.winners == b.winners
    assert game.scores == b.scores
    return game, b, history


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_random_games_agree_move_by_move(rules, players, seed):
    play_both(rules, players, seed, "interpreter")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(1000, 1005))
def test_moves_drawn_from_the_baseline_are_legal_in_the_interpreter(rules, players, seed):
    play_both(rules, players, seed, "baseline")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(2000, 2007))
def test_games_favouring_tiles_agree_move_by_move(rules, players, seed):
    game, b, history = play_both(rules, players, seed, "tiles")
    assert any(m[1] in ("build_with_tile", "move_with_tile") for m in history)


CROWDED = ["Oasis", "Farm", "Harbor", "Tavern"]  # the fewest desert hexes: 52


def crowded_desert(rules, players: int, seed: int, free: int):
    """A25: a position where the desert is nearly full: all but ``free`` desert hexes hold a
    settlement (none next to a location hex), shared round the table. Then the moves that
    build or move onto desert are favoured, so desert cards get stuck (§6.4, A19)."""
    scenario = Scenario(rules, players, seed, narrate=False,
                        options={"sections": CROWDED, "turned": [False] * 4})
    terrain, location = baseline.assemble(CROWDED, [False] * 4)[0], baseline.assemble(CROWDED, [False] * 4)[2]
    desert = [i for i in range(baseline.N_CELLS) if terrain[i] == "desert"
              and not any(location[n] for n in baseline.NEIGHBOURS[i])]
    random.Random(seed).shuffle(desert)
    for k, i in enumerate(desert[free:]):
        scenario.place(f"supply#{k % players}", f"site#{_text(baseline.CELLS[i])}")
    return scenario.start()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3000, 3003))
def test_stuck_cards_agree_move_by_move(rules, players, seed):
    game = crowded_desert(rules, players, seed, free=seed % 2)
    b = baseline_from_interpreter(game)
    terrain = game.state.tables["terrain"]
    rng = random.Random(seed)
    history: list = []
    stuck = 0
    original = b._replace_stuck_card

    def counting():
        nonlocal stuck
        before = b.played
        original()
        stuck += b.played is not before
    b._replace_stuck_card = counting
    assert_same(game, b, history)
    while not game.is_over and len(history) < MOVE_BOUND:
        moves = game.all_legal_moves()
        onto = [m for m in moves if terrain[m.args.get("h") or m.args.get("to") or "(0,0)"] == "desert"]
        move = rng.choice(onto if onto else moves)
        step_both(game, b, history, move)
    STATS["games"] += 1
    STATS["moves"] += len(history)
    assert game.is_over and game.winners == b.winners and game.scores == b.scores
    assert stuck, "no card got stuck"


def test_every_tile_power_and_goal_is_exercised(rules):
    """The tile-favouring games use all eight tiles; the setups cover all ten goals."""
    used, goals = set(), set()
    for players in (2, 3, 4):
        for seed in range(2000, 2007):
            game = rules.new_game(players=players, seed=seed, narrate=False)
            goals |= set(game.state.vars["goals"])
            rng = random.Random(seed)
            while not game.is_over:
                moves = game.all_legal_moves()
                tiled = [m for m in moves if m.action in ("build_with_tile", "move_with_tile")]
                move = rng.choice(tiled if tiled and rng.random() < 0.8 else moves)
                if move.action in ("build_with_tile", "move_with_tile"):
                    used.add(move.args["tile"].split()[0])
                game.play(move)
    assert used == set(baseline.SECTIONS), sorted(set(baseline.SECTIONS) - used)
    assert len(goals) >= 9, sorted(set(baseline.GOALS) - goals)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 5, 17, 42, 59, 123456789])
def test_a_seed_gives_the_same_setup_on_both_sides(rules, players, seed):
    """The baseline's own setup of a seed is the interpreter's: sections, turns, goals, the
    deck and the hands, and the generator's state after setup (which the reshuffles use)."""
    game = rules.new_game(players=players, seed=seed, narrate=False)
    mine = baseline_from_interpreter(game)
    theirs = baseline.KingdomBuilder(players, seed=seed)
    assert (theirs.sections, theirs.turned, theirs.goals) == (mine.sections, mine.turned, mine.goals)
    assert snapshot_baseline(theirs) == snapshot_baseline(mine)
    assert theirs.shuffle.__self__.state == game.state.rng


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 3, 11, 29, 47])
def test_bench_game_plays_regnums_random_game(rules, players, seed):
    """``regnum bench``'s check: the same (moves, final scores) as play_random_game, also when
    ``max_moves`` stops the game early. (Checked for seeds 0..59 at 2, 3 and 4 players.)"""
    for max_moves in (10_000, 40):
        game = play_random_game(rules, players, seed, max_moves)
        moves, scores = baseline.bench_game(players, seed, max_moves)
        assert (moves, list(scores)) == (game.move_count, list(game.scores))
    assert game.move_count == 40


def test_baselines_own_worked_examples_pass():
    """The oracle itself checks some of the digest's worked examples (its --check mode)."""
    baseline._self_check()
