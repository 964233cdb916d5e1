"""``regnum play``: one game in the terminal, any mix of human players and random bots.

The only interactive command: it holds the prompt a human answers and the loop that
alternates between humans and bots until the game ends, the move bound or a human quits.
"""
from __future__ import annotations

import secrets
from pathlib import Path

import click

from ..agents import RandomAgent, StuckGame, moves_of, seat_seed
from ..failures import InvariantBroken, assert_invariants, setup_failed_log
from ..resources import ruleset_label
from .common import (echo, limit_flag, load_ruleset, make_console, option_flag, option_values, player_count,
                     rules_path_flag, standings)
from .errors import api_error


def _parse_bots(spec: str | None, players: int) -> set[int]:
    """Bot seats from --bots: all, none, or a comma list of seats (default: all but seat 0)."""
    if spec is None:
        return set(range(1, players))
    text = spec.strip().lower()
    if text == "all":
        return set(range(players))
    if text in ("none", ""):
        return set()
    seats = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.isdigit():
            raise click.BadParameter(
                f"'{part}' is not a seat number; use all, none or seats like 1,2,3", param_hint="'--bots'"
            )
        if int(part) >= players:
            raise click.BadParameter(
                f"seat {part} does not exist in a {players}-player game (seats 0–{players - 1})",
                param_hint="'--bots'",
            )
        seats.add(int(part))
    return seats


def _stopped(game, error, log_file: Path | None, log_seat: int | None) -> None:
    """A game that failed: the located error, and the log that reproduces it, then exit 1."""
    echo(str(error) if isinstance(error, api_error("RulesetError")) else f"error: {error}", err=True)
    if log_file is None:
        raise click.exceptions.Exit(1)
    if log_seat is None:
        _save_failure(game.failed_log(error), log_file)
    else:
        log_file.write_text(game.log_for(log_seat).to_json(), encoding="utf-8")
        echo(f"log of the moves before the failure written to {log_file} (what seat {log_seat} saw)",
             err=True)
    raise click.exceptions.Exit(1)


def _save_failure(log, log_file: Path) -> None:
    log_file.write_text(log.to_json(), encoding="utf-8")
    what = "log with the failing move" if log.failure.move is not None else "log of the failed game"
    echo(f"{what} saved to {log_file} (`regnum replay` of it reproduces the failure)", err=True)


class _Quit(Exception):
    def __init__(self, input_ended: bool):
        self.input_ended = input_ended


def _hand_over(seat: int) -> None:
    """Several humans share one screen: clear it and wait for the next one before showing a hand."""
    try:
        answer = click.prompt(f"\n── pass the keyboard to seat {seat}, then press Enter (q quits) ──",
                              default="", show_default=False, prompt_suffix="")
    except click.Abort:
        raise _Quit(input_ended=True) from None
    if answer.strip().lower() in ("q", "quit", "exit"):
        raise _Quit(input_ended=False)
    click.clear()


class _Screen:
    """What has been printed, so that the board is printed again only when it changed."""

    def __init__(self):
        self.console = make_console()
        self.last: dict = {}

    def board(self, game, viewer, force: bool = False) -> None:
        text = game.render(viewer)
        if force or self.last.get(viewer) != text:
            self.console.print(game.render_rich(viewer))
            self.last[viewer] = text


def _typed_move(game, seat: int, answer: str):
    """A move typed as `ACTION VALUE …` (values in the order of the action's parameters)."""
    from regnum import Move

    words = answer.split()
    action = game.model.actions.get(words[0]) if words else None
    if action is None:
        return None
    values = [int(w) if w.lstrip("-").isdigit() else w for w in words[1:]]
    return Move(seat, words[0], {p.name: v for p, v in zip(action.params, values)})


def _ask_human(game, seat: int, screen: _Screen, shared_screen: bool = False):
    moves = moves_of(game, seat)
    if not moves:
        raise StuckGame(f"seat {seat} must move but has no legal move (after {game.move_count} moves)")
    if shared_screen:
        _hand_over(seat)
    echo(f"\n── seat {seat} to move ──")
    screen.board(game, seat, force=shared_screen)
    names = [game.describe(move) for move in moves]
    for number, name in enumerate(names, 1):
        echo(f"{number:>4}. {name}")
    for action, reason in game.blocked(seat):
        echo(f"      ({action.replace('_', ' ')} is not possible now: {reason})")
    while True:
        try:
            answer = click.prompt(
                f"seat {seat}: move 1-{len(moves)}, or type one (q quits)", default="", show_default=False
            ).strip()
        except click.Abort:
            raise _Quit(input_ended=True) from None
        if answer.lower() in ("q", "quit", "exit"):
            raise _Quit(input_ended=False)
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        by_text = [move for move, name in zip(moves, names) if answer.lower() in (name.lower(), str(move).lower())]
        if len(by_text) == 1:
            return by_text[0]
        typed = _typed_move(game, seat, answer)
        if typed is not None:
            return typed
        if answer:
            echo(f"'{answer}' is not a move: type a number from 1 to {len(moves)}, a move as listed, "
                       "or an action and its values (q quits)", err=True)


def _play_loop(game, agents: dict, max_moves: int | None, show_board: bool, after_move=None) -> str:
    """Play until the game ends ("over"), the move bound ("limit") or a human quits; a
    failure of the game (a fault, a stuck game, or what `after_move(game)` raises) stops it."""
    seen = len(game.events)
    screen = _Screen()
    humans = [p for p in range(game.players) if p not in agents]
    while not game.is_over:
        waiting = list(game.to_move)
        if not waiting:
            raise StuckGame(f"the game is not over but nobody is to move (after {game.move_count} moves)")
        for seat in waiting:
            if max_moves is not None and game.move_count >= max_moves:
                return "limit"
            if game.is_over or seat not in game.to_move:
                continue
            if seat in agents:
                move = agents[seat].choose(game, seat)
                viewer = humans[0] if len(humans) == 1 else None
                name = "makes a secret choice" if game.is_secret(move, viewer) else game.describe(move)
                game.play(move)
                if humans:
                    echo(f"P{seat}: {name}")
            else:
                move = _ask_human(game, seat, screen, shared_screen=len(humans) > 1)
                try:
                    game.play(move)
                except api_error("IllegalMove") as err:
                    echo(f"refused: {err.reason} (rule '{err.rule}'"
                               + (f" at {err.location})" if err.location else ")"), err=True)
                    continue
            if after_move is not None:
                after_move(game)
            events = game.events
            for line in events[seen:]:
                echo(line)
            seen = len(events)
            if show_board and not humans:
                # Bots only: the public board after each move that changed it. A human sees
                # the board, as their seat may see it, when they are asked to move.
                screen.board(game, None)
    return "over"


@click.command()
@click.argument("ruleset")
@limit_flag
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest allowed).")
@click.option("--seed", "-s", type=int, help="Game seed (default: a random one, printed).")
@click.option("--bots", "-b", metavar="SPEC", help="Bot seats: all, none, or seats like 1,2,3 (default: all but 0).")
@click.option("--quiet-board", is_flag=True, help="Do not print the board after each move.")
@click.option("--max-moves", type=click.IntRange(min=0), help="Stop after this many moves.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game log (JSON) here.")
@click.option("--log-for", "log_seat", type=click.IntRange(min=0), metavar="SEAT",
              help="With --log: write only what SEAT saw (no seed, other seats' secret moves hidden).")
@click.option("--check-invariants", is_flag=True,
              help="Check the ruleset's invariants after every move; a broken one stops the game.")
@option_flag
@rules_path_flag
def play(ruleset, players, seed, bots, quiet_board, max_moves, log_file, log_seat, check_invariants,
         options) -> None:
    """Play a game in the terminal, any mix of humans and random bots.

    Seats are numbered from 0. A human sees the game as their seat may see it (the board
    drawn by its shape, their own hidden cards, the scores) and the legal moves of their
    seat, named as the ruleset names them; they type a number, a move as listed, or an
    action and its values (`build (3,4)`): a move the rules refuse is answered with the
    rule's message. q quits. With several humans at one screen, the screen is cleared and
    the next seat presses Enter before seeing their hand. After each move the new narration
    is printed, and the board when it changed (unless --quiet-board); at the end, the final
    standings. --log writes a log that `regnum replay` checks and reruns; with --log-for SEAT
    it holds only what that seat saw (docs/log-format.md), for handing to that player. A game
    that fails (a fault of the rules, a limit hit, a seat with no legal move and, with
    --check-invariants, a broken invariant) stops with the located error and exit code 1;
    its --log then ends with the failing move and records the failure, which `regnum replay`
    reproduces.

    \b
    Example:
      regnum play kings_road --players 4 --bots 1,2,3
      regnum play kings_road --players 4 --bots all --seed 1 --quiet-board
      regnum play kingdom_builder -p 3 --option first_game_setup=true
      regnum play kings_road -p 3 --bots 1,2 --log mine.json --log-for 0
    """
    path, rules = load_ruleset(ruleset)
    players = player_count(rules, path, players)
    if log_seat is not None and log_file is None:
        raise click.UsageError("--log-for SEAT says whose log --log FILE writes; give --log FILE too")
    if log_seat is not None and log_seat >= players:
        raise click.BadParameter(f"seat {log_seat} does not exist in a {players}-player game "
                                 f"(seats 0–{players - 1})", param_hint="'--log-for'")
    bot_seats = _parse_bots(bots, players)
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        game = rules.new_game(players=players, seed=seed, options=option_values(options))
    except api_error("RulesetError") as err:   # the setup failed: its log holds no move
        echo(str(err), err=True)
        if log_file is not None and log_seat is None:
            _save_failure(setup_failed_log(rules, players, seed, option_values(options), err), log_file)
        raise click.exceptions.Exit(1) from None
    agents = {seat: RandomAgent(seat_seed(seed, seat)) for seat in bot_seats}
    kinds = {seat: "bot" if seat in bot_seats else "human" for seat in range(players)}
    humans = ", ".join(str(s) for s in range(players) if s not in bot_seats) or "none"
    echo(f"{ruleset_label(rules, path)}: {players} players, seed {seed}, human seats: {humans}")
    for line in game.events:
        echo(line)
    outcome = "quit"
    try:
        try:
            if check_invariants:
                assert_invariants(game)
            outcome = _play_loop(game, agents, max_moves, show_board=not quiet_board,
                                 after_move=assert_invariants if check_invariants else None)
        except _Quit as quit_:
            outcome = "eof" if quit_.input_ended else "quit"
        except (api_error("RulesetError"), StuckGame, InvariantBroken) as err:
            outcome = "failed"
            _stopped(game, err, log_file, log_seat)
        notes = {
            "over": f"game over after {game.move_count} moves",
            "limit": f"stopped after {game.move_count} moves (--max-moves); the game is not over",
            "quit": f"game abandoned after {game.move_count} moves",
            "eof": f"input ended: game abandoned after {game.move_count} moves",
        }
        echo(notes[outcome])
        standings(game, "Final standings" if outcome == "over" else "Standings", kinds)
    finally:
        # The log is written whatever happened to the terminal (a closed pipe, say); that of
        # a failed game already is, with its failing move.
        if log_file is not None and outcome != "failed":
            log = game.log if log_seat is None else game.log_for(log_seat)
            log_file.write_text(log.to_json(), encoding="utf-8")
    if log_file is not None:
        echo(f"log written to {log_file}" + ("" if log_seat is None else f" (what seat {log_seat} saw)"))
    if outcome == "eof":
        raise click.exceptions.Exit(1)
