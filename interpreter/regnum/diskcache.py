"""Where regnum keeps what it computed once and may reuse in a later process.

Building the parser's tables from the grammar is most of a cold start (about a quarter of a
second); they depend on nothing but the grammar and Lark's version, so they are kept on disk,
as are the compiled code of each ruleset loaded and the syntax trees of its files
(compiler/codecache.py, treecode.py). A cache is read back
with pickle or marshal, so it is used only where nobody else can write: a folder
and file owned by the user running regnum and writable by nobody else. Anything else (a
shared or read-only folder, an odd owner, no home) means no cache, never an error: the cache
only saves time.

The folder is ``$REGNUM_CACHE_DIR`` when set (empty or ``off``: no cache), else
``$XDG_CACHE_HOME/regnum``, else ``~/.cache/regnum``.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

CACHE_ENV = "REGNUM_CACHE_DIR"


def cache_dir() -> Path | None:
    """The cache folder, created if missing; None when there is none safe to use."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        if chosen.strip() in ("", "off"):
            return None
        folder = Path(chosen)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or ""
        try:
            root = Path(base) if base else Path.home() / ".cache"
        except RuntimeError:   # no home to find
            return None
        folder = root / "regnum"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder if _private(folder, is_dir=True) and os.access(folder, os.W_OK) else None
    except OSError:
        return None


def cache_file(kind: str, *keys: str) -> Path | None:
    """The file for `kind` computed from `keys` (any change of a key is another file), or
    None when there is no safe folder, or the file exists but is not safely ours."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256("\0".join(keys).encode("utf-8")).hexdigest()[:24]
    path = folder / f"{kind}-{digest}.cache"
    try:
        if path.exists() and not _private(path, is_dir=False):
            return None
    except OSError:
        return None
    return path


def _private(path: Path, is_dir: bool) -> bool:
    """Owned by this user (where the system has users) and writable by nobody else."""
    info = path.lstat()
    if (stat.S_ISDIR(info.st_mode) if is_dir else stat.S_ISREG(info.st_mode)) is False:
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of a cache file, or None when it is missing, unreadable or larger than
    `max_bytes`. Reading it marks it as used: pruned after the files used since."""
    try:
        if path.stat().st_size > max_bytes:
            return None
        data = path.read_bytes()
        os.utime(path)
    except OSError:
        return None
    return data


def write(path: Path, data: bytes) -> bool:
    """Write a cache file aside and rename it into place, private to the user (mkstemp's
    0600): a process reading it meanwhile sees the old file or the new. False on failure."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


def newest(kind: str) -> Path | None:
    """The file of `kind` used last (read or written), when it is safely the user's; None when
    there is none, or no safe folder."""
    try:
        files = _by_use(kind)
        path = Path(files[0]) if files else None
        return path if path is not None and _private(path, is_dir=False) else None
    except OSError:
        return None


def prune(kind: str, keep: int) -> None:
    """Delete all but the `keep` most recently written files of `kind`: a cache keyed by
    what an author edits (a ruleset's hash) would otherwise grow with every edit."""
    try:
        for path in _by_use(kind)[keep:]:
            os.unlink(path)
    except OSError:
        pass


def _by_use(kind: str) -> list[str]:
    """The paths of the files of `kind` in the cache folder, the one used last first (none
    without a folder)."""
    folder = cache_dir()
    if folder is None:
        return []
    files = [(entry.stat().st_mtime_ns, entry.path) for entry in os.scandir(folder)
             if entry.name.startswith(f"{kind}-") and entry.name.endswith(".cache") and entry.is_file()]
    files.sort(reverse=True)
    return [path for _, path in files]
