"""What a checkout's checker and compiler give for every ruleset of the repository, written to
a JSON file: run it under two checkouts and compare the files, to show that a change made
loads cheaper without changing what they give.

- The check: for every `.rules` file, and for variants of it with a misspelt name (one at a
  time, and a dozen at once), at four "did you mean" budgets: the diagnostics (code, place,
  message, hint), the notes on operators the compiler reads (Program.cheap_ops) and the
  budget left.
- `--sources`: for every `.rules` file that loads, every source the code generator writes,
  in order, at load and during one random game (what is compiled at its first use too).

The files are read from a copy of the checkout's `.rules` files and data (the misspelt
variants are written there, never into the checkout), with the copy's `rulesets/` on the
rules path; paths in the output are relative to the copy, so that two checkouts give the same
text for the same results.

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/load_outputs.py /tmp/before /tmp/before.json
    .venv/bin/python benchmarks/load_outputs.py . /tmp/after.json
    cmp /tmp/before.json /tmp/after.json
    .venv/bin/python benchmarks/load_outputs.py /tmp/before /tmp/before-sources.json --sources

Used for the checks of docs/performance-history.md ("At the forty-fourth step").
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

_NAME = re.compile(r"\b([a-z_][a-z_0-9]{3,})\b")
_BUDGETS = (1, 40, 400, None)   # None: the checker's own budget
_COPIED = ("*.rules", "*.json", "*.csv", "*.txt", "*.yaml", "*.toml")


def _misspelt(text: str):
    """(name, text) of the file and of variants with misspelt names: each a call or a field."""
    yield "as written", text
    names = [m for m in _NAME.finditer(text)
             if text[m.end():m.end() + 1] in ("(", ".") or text[m.start() - 1:m.start()] == "."]
    for k in (3, 7, 17, 31, 59, 101, 149, 211, 307, 401, 503):
        if k < len(names):
            m = names[k]
            yield f"misspelt {k}", text[:m.start()] + m.group(1)[:-1] + "x" + text[m.end():]
    many = text
    for m in reversed([names[k] for k in range(3, len(names), max(1, len(names) // 12))]):
        many = many[:m.start()] + m.group(1) + "q" + many[m.end():]
    yield "a dozen misspelt", many


def _copy(checkout: Path, into: Path) -> list[Path]:
    """The checkout's ruleset files and data copied into `into`; the copies of the `.rules`."""
    for pattern in _COPIED:
        for path in checkout.rglob(pattern):
            parts = path.relative_to(checkout).parts
            if any(p.startswith(".") or p in ("__pycache__", "node_modules") for p in parts):
                continue
            target = into.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return sorted(into.rglob("*.rules"))


class _Noted:
    """The hint budget a check opens (`budget`, or the checker's own when None), what is left
    of it noted in `left` as it closes."""

    def __init__(self, budget: int | None, left: list):
        from regnum import diagnostics
        self.diagnostics, self.left = diagnostics, left
        self.inner = diagnostics.suggestion_budget() if budget is None else diagnostics.suggestion_budget(budget)

    def __enter__(self):
        return self.inner.__enter__()

    def __exit__(self, *exc):
        self.left.append(self.diagnostics._SUGGESTIONS.get()[0])
        return self.inner.__exit__(*exc)


def _checks(files: list[Path], root: Path, rules_path: list) -> dict:
    from regnum import diagnostics
    import regnum.check as check
    from regnum.diagnostics import RulesetError
    from regnum.program import load_program

    out = {}
    for original in files:
        text = original.read_text(encoding="utf-8")
        for variant, body in _misspelt(text):
            path = original.with_name(f".variant-{original.name}")
            path.write_text(body, encoding="utf-8")
            try:
                for budget in _BUDGETS:
                    key = f"{original.relative_to(root)} | {variant} | budget {budget or 'default'}"
                    try:
                        program = load_program(path, search=rules_path)
                    except RulesetError as err:
                        out[key] = {"unread": [str(d) for d in err.diagnostics]}
                        continue
                    left: list = []
                    check.suggestion_budget = lambda: _Noted(budget, left)   # what check_program opens
                    try:
                        found = check.check_program(program)
                    finally:
                        check.suggestion_budget = diagnostics.suggestion_budget
                    out[key] = {
                        "diagnostics": [[d.code, str(d.span), d.message, d.hint] for d in found],
                        "notes": sorted([str(node.span), proven] for node, proven in program.cheap_ops.values()),
                        "budget left": max(left[-1], 0),
                    }
            finally:
                path.unlink()
    return out


def _sources(files: list[Path], root: Path, rules_path: list) -> dict:
    import regnum
    from regnum.agents import play_random_game
    from regnum.compiler import codecache

    written: list = []
    compile_ = codecache.CodeCache.compile

    def noted(self, source, filename, mode):
        written.append([source, filename, mode])
        return compile_(self, source, filename, mode)

    codecache.CodeCache.compile = noted
    out = {}
    try:
        for path in files:
            written.clear()
            codecache._in_process.clear()   # every source compiled, none taken from an earlier load
            try:
                rules = regnum.load(path, rules_path=rules_path)
            except regnum.RulesetError:
                continue
            players = 4 if rules.min_players <= 4 <= rules.max_players else rules.min_players
            try:
                play_random_game(rules, players, 1, 400, coverage=False)
            except Exception as err:   # a fragment of a test: its game may stop anywhere
                written.append(["game stopped", type(err).__name__, ""])
            out[str(path.relative_to(root))] = list(written)
    finally:
        codecache.CodeCache.compile = compile_
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout of regnum")
    parser.add_argument("output", type=Path, help="the JSON file to write")
    parser.add_argument("--sources", action="store_true", help="the generated sources instead of the checks")
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    if not (checkout / "interpreter" / "regnum").is_dir():
        print(f"{checkout} is not a checkout of regnum (no interpreter/regnum)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(checkout / "interpreter"))
    os.environ["REGNUM_CACHE_DIR"] = "off"
    with tempfile.TemporaryDirectory(prefix="regnum-load-outputs-") as folder:
        root = Path(folder)
        files = _copy(checkout, root)
        rules_path = [root / "rulesets"]
        found = (_sources if args.sources else _checks)(files, root, rules_path)
        text = json.dumps(found, sort_keys=True).replace(str(root) + os.sep, "")
    args.output.write_text(text, encoding="utf-8")
    print(f"{len(found)} cases written to {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
