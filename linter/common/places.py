"""Where speclint keeps what it writes for the user: the cache folder and the daemons' sockets.

Both are read back later, by a run or a client, so both must be the user's own: a real directory
(not a symlink), owned by the user and writable by nobody else (SECURITY.md, "What speclint
writes"). Standard library only: the client of a daemon (``speclint.frontends.client``) finds its
socket here without importing the engine.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path


def cache_home() -> Path:
    configured = os.environ.get("SPECLINT_CACHE_DIR")
    if configured:
        return Path(configured)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "speclint"
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home()) / "speclint" / "Cache"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "speclint"


def private_folder(folder: Path, closed: bool = False) -> bool:
    """Create ``folder`` (mode 0700) if it is missing; True when it is a real directory owned by
    this user and writable by no one else, the only kind a cache is read from; ``closed``: that
    no one else may even enter (mode 0700), as a daemon's socket folder must be."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(status.st_mode):
        return False  # a symlink (to anywhere) or a file: never followed
    if os.name == "posix":
        shut = 0o077 if closed else 0o022
        return status.st_uid == os.geteuid() and not status.st_mode & shut
    return True


def daemon_folder() -> Path | None:
    """The private folder of this user's daemon sockets, or None when none can be had:
    ``$XDG_RUNTIME_DIR/speclint`` (the session's own folder, 0700 by definition), else
    ``speclint-<uid>`` in the temporary folder. A Unix socket's path is limited to about 100
    bytes, so the cache folder (under a home folder of any length) is not used."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    user = os.geteuid() if hasattr(os, "geteuid") else os.environ.get("USERNAME", "")
    candidates = [Path(runtime) / "speclint"] if runtime and os.path.isabs(runtime) else []
    candidates.append(Path(tempfile.gettempdir()) / f"speclint-{user}")
    for folder in candidates:
        if len(str(folder)) <= 60 and private_folder(folder, closed=True):
            return folder
    return None
