"""What an author waits for between a save and the verdict: `regnum check` run after each
edit, against `regnum check --watch` left running.

The checkout's `rulesets/` folder (or the folder of a `.rules` file given) is copied twice,
each copy with a disk cache of its own, both filled by a first check of the ruleset as it
was. Then the ruleset is edited N times, the same edit in both copies (a comment line put
before a declaration in its middle, as `head_to_head.py --edits` puts it: another text, the
same rules, the lines after it moved):

- in one copy, each edit is checked by a new `regnum check` process: the figure is its wall
  time, from its start to its exit;
- in the other, a `regnum check --watch --json` process started once sees each edit: the
  figures are the check's own time (the JSON's `seconds`) and the time from the save to its
  verdict, the look at the files included (every `--interval` seconds).

Wall time, since that is what an author waits for; the medians of the N edits, in ms.

    .venv/bin/python benchmarks/watch_edits.py permanent_nobles --edits 9
    .venv/bin/python benchmarks/watch_edits.py kingdom_builder --edits 9 --interval 0.25

Used for the figures of docs/performance-history.md ("At the forty-sixth step").
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from head_to_head import _edited, rules_folder   # noqa: E402  (the same edit as --edits)

ROOT = Path(__file__).resolve().parents[1]


def _copy(source: Path, relative: Path, place: Path) -> tuple[Path, Path, dict]:
    """A copy of the rules folder `source` made in the new folder `place`, the edited file's
    path in it, and the environment of a process using a cache of its own."""
    copy = place / "rules"
    shutil.copytree(source, copy)
    cache = place / "cache"
    cache.mkdir(mode=0o700)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"), REGNUM_CACHE_DIR=str(cache))
    return copy, copy / relative, env


def _check_command(target: Path, folder: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "regnum", "check", *extra, str(target), "--rules-path", str(folder)]


def _one_check(target: Path, folder: Path, env: dict) -> float:
    """Wall milliseconds of a new `regnum check` process, from its start to its exit."""
    started = time.perf_counter()
    subprocess.run(_check_command(target, folder), env=env, capture_output=True, check=True)
    return (time.perf_counter() - started) * 1e3


def measure(ruleset: str, edits: int, interval: float) -> dict[str, list[float]]:
    """{"process": …, "watch_check": …, "watch_save_to_verdict": …}: ms, one per edit."""
    source, relative = rules_folder(ROOT, ruleset)
    figures: dict[str, list[float]] = {"process": [], "watch_check": [], "watch_save_to_verdict": []}
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "a").mkdir()
        (Path(folder) / "b").mkdir()
        alone_folder, alone, alone_env = _copy(source, relative, Path(folder) / "a")
        watched_folder, watched, watched_env = _copy(source, relative, Path(folder) / "b")
        _one_check(alone, alone_folder, alone_env)   # fills its cache
        watcher = subprocess.Popen(
            _check_command(watched, watched_folder, "--watch", "--json", "--interval", str(interval)),
            env=watched_env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        reports: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [reports.put((time.perf_counter(), line)) for line in watcher.stdout],
                         daemon=True).start()
        try:
            reports.get(timeout=300)   # the first check, which fills its cache
            for k in range(1, edits + 1):
                for target in (watched, alone):
                    target.write_text(_edited(target.read_text(encoding="utf-8"), k), encoding="utf-8")
                saved = time.perf_counter()
                arrived, line = reports.get(timeout=300)
                report = json.loads(line)
                if not all(r["ok"] for r in report["rulesets"]):
                    raise SystemExit(f"edit {k} did not check: {report['rulesets']}")
                figures["watch_check"].append(report["seconds"] * 1e3)
                figures["watch_save_to_verdict"].append((arrived - saved) * 1e3)
                figures["process"].append(_one_check(alone, alone_folder, alone_env))
        finally:
            watcher.kill()
            watcher.wait()
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--edits", type=int, default=9, help="edits of the ruleset (default 9)")
    parser.add_argument("--interval", type=float, default=0.05,
                        help="the watching process's --interval, in seconds (default 0.05)")
    args = parser.parse_args(argv)
    figures = measure(args.ruleset, args.edits, args.interval)
    medians = {name: statistics.median(values) for name, values in figures.items()}
    print(f"{args.ruleset}, medians of {args.edits} edits, wall time: a new `regnum check` "
          f"{medians['process']:.0f} ms; `regnum check --watch`: the check {medians['watch_check']:.0f} ms, "
          f"from the save to the verdict {medians['watch_save_to_verdict']:.0f} ms (a look every "
          f"{args.interval} s); check/process = {medians['watch_check'] / medians['process']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
