"""benchmarks/sampled_profile.py --parts: each sample of a game given to one part of its time
(starting, listing, kept values, scoring, rules, the VM, the move's bookkeeping), a helper
counted with the code that called it."""
from __future__ import annotations

import pytest

from benchmark_scripts import script

GAME = "<module> (run.py:3);play_random_game (regnum/agents.py:80);playout (regnum/agents.py:123)"
APPLY = f"{GAME};Game._play_nth (game.py:420);Game._apply (game.py:570);run_stack (runtime.py:631)"

STACKS = {
    # the setup, whatever runs under it
    f"{GAME[:-len(';playout (regnum/agents.py:123)')]};Ruleset.new_game (regnum/ruleset.py:93);"
    "Game.start (game.py:106);Game.prepared (game.py:164);run_stack (runtime.py:631);"
    "_n36_place_section (<regnum native _n36_place_section>:9)": "starting a game",
    # a lister, its comprehension, the helpers it calls, a `can` that lists
    f"{GAME};Game._list (game.py:460);_moves16 (<regnum moves pick>:21)": "listing moves",
    f"{GAME};Game._list (game.py:460);_moves133 (<regnum moves put_object>:30);"
    "_moves133.<locals>.<listcomp> (<regnum moves put_object>:23);"
    "_around_with.<locals>.around (regnum/opengrid.py:290)": "listing moves",
    f"{APPLY};_check42 (<regnum check>:1);Ctx.can (runtime.py:425);"
    "Ctx.can.<locals>.<genexpr> (runtime.py:426)": "listing moves",
    f"{APPLY};_check42 (<regnum check>:1);Ctx.can (runtime.py:425);exists (decisions.py:542);"
    "_exists_keeping (decisions.py:566);_pg341 (<regnum prefer build.next_to_own by group>:12)": "listing moves",
    f"{APPLY};_check42 (<regnum check>:1);Ctx.can (runtime.py:425);exists (decisions.py:542);"
    "_exists_keeping (decisions.py:566);_moves342 (<regnum moves preferred build>:30);"
    "_fresh (memo.py:140);_judge (memo.py:548)": "kept values and indexes",
    # an effect dropping kept values is theirs; the effect itself is the rules'
    f"{APPLY};_n3_place (<regnum native _n3_place>:4);Ctx.move_piece (runtime.py:178);"
    "Memo.drop (memo.py:70)": "kept values and indexes",
    f"{APPLY};_n3_place (<regnum native _n3_place>:4);Ctx.move_piece (runtime.py:170)":
        "rules: statements and effects",
    f"{APPLY};_n3_place (<regnum native _n3_place>:4);_walk (regnum/compiler/helpers.py:127)":
        "rules: statements and effects",
    f"{APPLY};_loop (regnum/compiler/statements.py:300)": "rules: statements and effects",
    # scoring, and what the compiler made for it
    f"{APPLY};Ctx.score (runtime.py:436);_Compiler._scoring.<locals>.run (regnum/compiler/__init__.py:448)":
        "scoring",
    f"{APPLY};Ctx.score (runtime.py:436);_score2_region_majority (<regnum scoring>:5);"
    "rank (regnum/scoring.py:71)": "scoring",
    # the VM and the move's own bookkeeping
    APPLY: "the flow's VM",
    f"{GAME};Game._play_nth (game.py:420);Game._apply (game.py:580);advance (runtime.py:740)": "the flow's VM",
    f"{GAME};Game._play_nth (game.py:420);Game._apply (game.py:537)": "the move's bookkeeping",
    f"{GAME};Game._play_nth (game.py:420);Game._apply (game.py:537);Journal.__init__ (state.py:30)":
        "the move's bookkeeping",
    f"{GAME};Random._randbelow_with_getrandbits (random.py:250)": "the move's bookkeeping",
    # nothing known
    f"{GAME};something (elsewhere.py:1)": "other",
}


@pytest.mark.parametrize("stack, part", list(STACKS.items()))
def test_a_sample_belongs_to_one_part(stack, part):
    assert script("sampled_profile").part_of(stack.split(";")) == part


def test_the_parts_of_a_record():
    module = script("sampled_profile")
    raw = [f"{stack} {n}" for n, stack in enumerate(STACKS, start=1)]
    raw.append("<module> (run.py:1);_find_and_load (<frozen importlib._bootstrap>:1176) 500")
    samples = module.read_raw(raw)
    total, parts = module.part_shares(samples)
    assert total == sum(range(1, len(STACKS) + 1)) == 171   # the import is no part of a game
    assert dict(parts) == {"starting a game": 1, "listing moves": 2 + 3 + 4 + 5, "kept values and indexes": 6 + 7,
                           "rules: statements and effects": 8 + 9 + 10, "scoring": 11 + 12,
                           "the flow's VM": 13 + 14, "the move's bookkeeping": 15 + 16 + 17, "other": 18}
    assert module.report(samples, parts=True) == [
        "171 samples while playing", "-- by part of the game's time",
        "   0.6%  starting a game", "   8.2%  listing moves", "   7.6%  kept values and indexes",
        "  13.5%  scoring", "  15.8%  rules: statements and effects", "  15.8%  the flow's VM",
        "  28.1%  the move's bookkeeping", "  10.5%  other"]


def test_parts_from_the_command_line(tmp_path, capsys):
    module = script("sampled_profile")
    raw = tmp_path / "record.txt"
    raw.write_text(f"{APPLY} 3\n{GAME};Game._list (game.py:460);_moves16 (<regnum moves pick>:21) 1\n",
                   encoding="utf-8")
    assert module.main(["--raw", str(raw), "--parts"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "4 samples while playing", "-- by part of the game's time",
        "  25.0%  listing moves", "  75.0%  the flow's VM"]
