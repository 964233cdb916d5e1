"""benchmarks/patched_lister.py: a generated lister against an edited copy of it, the sides
alternating from round to round and required to play the same games; the shape of its
report, never a timed threshold."""
from __future__ import annotations

from benchmark_scripts import script   # tests/unit is on the path of its tests


def _module():
    return script("patched_lister")


def test_the_generated_lister_is_written_out_to_be_edited(tmp_path, capsys):
    target = tmp_path / "pick.py"
    assert _module().main(["kings_road", "pick", "--dump", str(target)]) == 0
    source = target.read_text(encoding="utf-8")
    assert source.startswith("def _moves") and "require:pick.witch_first" in source
    assert capsys.readouterr().out == f"{target}: the lister of 'pick'; edit it, keeping its name\n"


def test_the_sides_alternate_and_must_play_the_same_games(monkeypatch, capsys, tmp_path):
    module = _module()
    played: list[tuple[str | None, int]] = []
    seconds = iter([1.0, 2.0, 4.0, 3.0, 5.0, 6.0])   # generated, edited; edited, generated; …

    def fake_round(ruleset, action, edited, games):
        assert (ruleset, action) == ("kings_road", "pick")
        played.append((edited, games))
        return next(seconds), "same"
    monkeypatch.setattr(module, "_round", fake_round)
    edited = str((tmp_path / "e.py").resolve())
    assert module.main(["kings_road", "pick", str(tmp_path / "e.py"), "--games", "3", "--rounds", "3"]) == 0
    assert played == [(None, 3), (edited, 3), (edited, 3), (None, 3), (None, 3), (edited, 3)]
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["round 1: generated 1.000 s, edited 2.000 s", "round 2: generated 3.000 s, edited 4.000 s",
                     "round 3: generated 5.000 s, edited 6.000 s",
                     "medians of 3 rounds, 3 games each, the same games on both sides: generated 3.000 s, "
                     "edited 4.000 s: edited/generated = 1.333"]
    monkeypatch.setattr(module, "_round", lambda ruleset, action, edited, games: (1.0, edited or "generated"))
    assert module.main(["kings_road", "pick", str(tmp_path / "e.py"), "--rounds", "2"]) == 1
    assert capsys.readouterr().err == ("round 1: the edited lister played other games than the generated one "
                                       "(final states or peak steps differ): not timed\n")


def test_an_edit_is_played_in_the_generated_code_s_namespace(tmp_path):
    """The lister as generated, and edited: the same games; an edit listing other moves
    (the last card first) plays other games."""
    module = _module()
    target = tmp_path / "pick.py"
    module.main(["kings_road", "pick", "--dump", str(target)])
    source = target.read_text(encoding="utf-8")
    seconds, generated = module.play("kings_road", "pick", None, 2)
    assert seconds > 0
    assert module.play("kings_road", "pick", str(target), 2)[1] == generated
    target.write_text(source.replace("    return out\n", "    return out[::-1]\n"), encoding="utf-8")
    assert module.play("kings_road", "pick", str(target), 2)[1] != generated


def test_a_round_plays_in_a_process_of_its_own(tmp_path):
    module = _module()
    target = tmp_path / "advance.py"
    module.main(["kings_kilt", "advance", "--dump", str(target)])
    seconds, digest = module._round("kings_kilt", "advance", str(target), 1)
    assert seconds > 0 and digest == module._round("kings_kilt", "advance", None, 1)[1]


def test_what_cannot_be_patched_is_named(tmp_path, capsys):
    module = _module()
    assert module.main(["kings_road", "fly", "--dump", str(tmp_path / "x.py")]) == 2
    assert capsys.readouterr().err.startswith("no action 'fly'; the ruleset has ")
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n", encoding="utf-8")
    assert module.main(["kings_road", "pick", str(empty), "--rounds", "1", "--games", "1"]) == 2
    assert "defines no function _moves" in capsys.readouterr().err
