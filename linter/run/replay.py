"""The replay cache: what ``speclint check`` printed, and its exit code, for inputs that have not
changed since (issue 51: a run that changed nothing in 0.15 s, where importing the engine alone
takes 0.27 s).

An entry is kept under a key over every input that can change what the command prints, made
before anything of the engine is imported (``speclint.frontends.replay`` reads it):

- the code: speclint and the packages that judge (``cache_folder.installed_code``), the command
  line library that prints (click), the interpreter and its flags;
- the command line, the working folder, the environment (all of it, less two variables a shell
  changes as it moves about and that nothing reads: ``VOLATILE``), whether standard output and
  standard error are terminals (colour, the progress bar), today's date (waivers expire), and
  the user and groups the process reads as;
- the corpus: its root (resolved) and the part of it reported on, as ``speclint.run.roots``
  finds them now; every file's path under the root (``speclint.parsing.tree.listing``); what
  git ignores there (``gitbase.ignored``, which reads the index, the ``.gitignore`` files and
  git's configuration); and the bytes of the configuration file(s) the run would read.

Those decide which files the run reads (discovery is a function of the listing, the
configuration, what git ignores and the code), but not their bytes: the entry itself names the
files whose bytes the run read (its discovered files, and the files read beside them by name,
which ``speclint.run.cache.run_key`` keys the run cache on), with a digest of each file's bytes
made from what the run read (:func:`digest_of`). A replay answers only when every file gives the
same digest. So a replayed run prints what the run cache would have answered for the same inputs,
without importing what answers it.

A file is not read again when its status says it has not changed since the run read it, as git's
index tells a clean file (``Documentation/technical/racy-git.txt``). The run takes each file's
status on the open file before reading it (``reading.read_with_status``), and the entry keeps it
(device, inode, mode, size, modification and change times) only when the file's last change was
``SETTLED_NANOSECONDS`` before the run started (:func:`settled`). Then a write to the file after
the run started (while it was read, or since) stamps a change time later than the one kept: a
write sets the change time to the clock's time, which no user can set back (``touch -d`` sets the
modification time and stamps the change time), and the margin covers a file system's timestamp
resolution (FAT's two seconds; the kernel's coarse clock) and a little clock skew with a network
file system's server. The inode and device say the path still names the file read (a file
replaced by a rename, a new file in its place). A replay takes a file whose status (``lstat``) is
the one kept as read; it reads and hashes every other: one changed or written within the margin
of the run's start (git's "racily clean" entries), a symlink (its target may move while the link's
status stays), a file a system gives no inode or change time (Windows's ``st_ctime`` is the
creation time), and all of them when the clock is behind the run's start. What it reads again and
finds the same, with a settled status, is kept for the next replay (git's index refresh). As git,
it trusts that the file system stamps every write: a write through a shared memory map before its
pages are written back, or a network file system's cached status, can go unseen.

Entries live in the corpus's private cache folder (``replays/``), as msgpack read back
type-checked (:func:`recall`): a damaged or forged entry is a miss.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from speclint.common.cache_folder import (
    ENTRY,
    fetch,
    installed_code,
    packages_code,
    remove_entry,
    store,
)
from speclint.common.places import private_folder
from speclint.common.storage import checker
from speclint.parsing.gitbase import ignored_soon
from speclint.parsing.kinds import CONFIGURATION_FILES
from speclint.parsing.reading import LoadProblem, read_named, read_with_status
from speclint.parsing.tree import listing
from speclint.run.roots import Scope

FOLDER = "replays"
KEEP = 8  # entries per corpus: a few command lines (text, json, --preview) answered at once
VERSION = "speclint-replay/2"
# Variables a shell sets as it moves about (the previous folder; the last command's path) that
# nothing speclint runs reads: every other variable is in the key.
VOLATILE = frozenset({"OLDPWD", "_"})
# The libraries that print what a run says (not judging what it finds: ``JUDGING_MODULES``).
PRINTING_MODULES = ("click",)

Printed = list[tuple[int, str]]  # (1 for stdout or 2 for stderr, text), in the order written


# How long before a recorded run started a file must have last changed for its status to stand
# for its bytes: more than the coarsest timestamp resolution of a file system in use (FAT's two
# seconds; one second on ext3 and HFS+; a clock tick elsewhere), so that a write after the run
# started cannot stamp the change time the entry keeps (the module docstring).
SETTLED_NANOSECONDS = 3_000_000_000
# Whether ``st_ctime`` is the time of the last change: POSIX's inode change time. On Windows it is
# the creation time, which a write does not move.
CHANGE_TIMES = os.name == "posix"

# A file's status as read: device, inode, mode, size, modification and change times (ns).
Status = tuple[int, int, int, int, int, int]


def status_of(found: os.stat_result) -> Status:
    return (
        found.st_dev,
        found.st_ino,
        found.st_mode,
        found.st_size,
        found.st_mtime_ns,
        found.st_ctime_ns,
    )


def settled(found: os.stat_result | None, started: int) -> Status | None:
    """The status of a file as it was read (``found``, taken before its bytes were read), when it
    stands for those bytes for a run that started at ``started`` (``time.time_ns()``): the file
    last changed ``SETTLED_NANOSECONDS`` before, on a system that stamps changes. None: read it
    again (a symlink's, whose status the reader does not give; a change time near the start or
    after it, as a skewed clock gives)."""
    if found is None or not CHANGE_TIMES or found.st_ino == 0 or found.st_ctime_ns <= 0:
        return None
    if found.st_ctime_ns >= started - SETTLED_NANOSECONDS:
        return None
    return status_of(found)


@dataclass(frozen=True)
class Inputs:
    """The files whose bytes a run read: ``files`` read from the resolved root (its discovered
    files), ``beside`` from the root as the command named it (what ``run_key`` reads by name:
    ``.gitattributes``, ``go.mod``, build scripts). For each, in that order, a digest of what
    reading it gave (:func:`digest_of`) and its status as read when that stands for the bytes
    (:func:`settled`); ``started``: when the run (or the replay that refreshed the statuses)
    started, as ``time.time_ns()``."""

    files: tuple[str, ...]
    beside: tuple[str, ...]
    digests: tuple[bytes, ...]
    statuses: tuple[Status | None, ...]
    started: int


def digest_of(raw: bytes | LoadProblem) -> bytes:
    """A digest of what reading a file gave: its bytes, or why it was not read."""
    if isinstance(raw, bytes):
        digest = hashlib.sha256(b"B")
        digest.update(raw)
    else:
        digest = hashlib.sha256(b"P" + repr(raw).encode("utf-8", "surrogateescape"))
    return digest.digest()


class Reads:
    """The reader of a run the replay cache records: ``read_raw``, keeping each file's status as
    it was read (``read_with_status``), the corpus's files and those read beside them apart (one
    path may be both, read twice)."""

    def __init__(self) -> None:
        self.started = time.time_ns()  # before the first file is read: settled() measures from it
        self.corpus: dict[str, os.stat_result | None] = {}
        self.beside: dict[str, os.stat_result | None] = {}

    def read(self, root: Path, path: str) -> bytes | LoadProblem:
        """A corpus file, as ``read_raw(root, path)`` reads it."""
        raw, self.corpus[path] = read_with_status(root, path)
        return raw

    def beside_reader(self, root: Path) -> Callable[[str], bytes | LoadProblem]:
        """The reader of the files read beside the corpus, by name, as ``read_raw(root, path)``."""

        def read(path: str) -> bytes | LoadProblem:
            raw, self.beside[path] = read_with_status(root, path)
            return raw

        return read


def inputs_of(
    files: Sequence[tuple[str, bytes | LoadProblem, os.stat_result | None]],
    beside: Sequence[tuple[str, bytes | LoadProblem, os.stat_result | None]],
    started: int,
) -> Inputs:
    """The :class:`Inputs` of a run that started at ``started`` and read ``files`` and ``beside``
    (each: path, what reading it gave, its status as read or None)."""
    both = [*files, *beside]
    return Inputs(
        tuple(path for path, _, _ in files),
        tuple(path for path, _, _ in beside),
        tuple(digest_of(raw) for _, raw, _ in both),
        tuple(settled(found, started) for _, _, found in both),
        started,
    )


def read_again(root: Path, inputs: Inputs) -> Inputs | None:
    """``inputs`` when the files they name give what the run read, else None. A file whose
    status is the one kept is taken as read; any other is read and hashed, and when it gives
    the same and its status has settled since, the inputs returned keep that status (and are
    not ``inputs`` itself: the caller keeps them)."""
    started = time.time_ns()
    # A clock behind the run's start may stamp a change with a time already seen: read them all.
    trusted = started >= inputs.started
    resolved = root.resolve()
    statuses = list(inputs.statuses)
    count = len(inputs.files)
    refreshed = False
    for index, path in enumerate((*inputs.files, *inputs.beside)):
        base = resolved if index < count else root
        kept = statuses[index]
        if kept is not None and trusted:
            try:
                now = os.lstat(os.path.join(base, path))
            except (OSError, ValueError):
                now = None
            if now is not None and status_of(now) == kept:
                continue
        raw, found = read_with_status(base, path)
        if digest_of(raw) != inputs.digests[index]:
            return None
        status = settled(found, started)
        if status != kept:
            statuses[index] = status
            refreshed = True
    if not refreshed:
        return inputs
    return replace(inputs, statuses=tuple(statuses), started=max(started, inputs.started))


def replay_key(
    argv: Sequence[str],
    scope: Scope,
    config_path: Path | None,
    environment: Mapping[str, str],
    folder: str,
) -> str:
    """The key of a command's entry (the module docstring lists what it holds), for a command
    run with ``environment`` in ``folder`` (a run sets variables for what it starts, as
    ``cache.keep_hypothesis_private`` does: the key made after it takes those it started with)."""
    digest = hashlib.sha256()

    def part(value: str) -> None:
        digest.update(value.encode("utf-8", "surrogateescape") + b"\x00")

    root = scope.root.resolve()
    hidden = ignored_soon(root)  # git answers while the rest of the key is made
    try:
        _key_parts(part, argv, scope, root, config_path, environment, folder)
    finally:
        hidden_files, hidden_folders = hidden()  # git is waited for, whatever stopped the key
    # Sorted: a frozenset's order changes with the process's string hashes.
    part(repr((sorted(hidden_files), hidden_folders)))
    return digest.hexdigest()[:40]


def _key_parts(
    part: Callable[[str], None],
    argv: Sequence[str],
    scope: Scope,
    root: Path,
    config_path: Path | None,
    environment: Mapping[str, str],
    folder: str,
) -> None:
    """Every part of :func:`replay_key` but what git ignores, given to ``part`` in order."""
    for value in (
        VERSION,
        installed_code(),
        packages_code(PRINTING_MODULES),
        sys.executable,
        repr(sys.flags),
        repr(list(argv)),
        folder,
        repr(sorted((k, v) for k, v in environment.items() if k not in VOLATILE)),
        repr((_terminal(sys.stdout), _terminal(sys.stderr))),
        # Who reads: a file whose status is unchanged is taken as read, not opened again, and
        # whether it can be opened is the user's and groups' (a file's own mode is its status).
        repr(_credentials()),
        datetime.date.today().isoformat(),
        str(root),
        repr(scope),
    ):
        part(value)
    for path in listing(root):
        part(path)
    part("")
    # The configuration as ``model.config.load_config`` finds it: --config, else the root's files.
    candidates = [config_path] if config_path else [root / name for name in CONFIGURATION_FILES]
    for candidate in candidates:
        part(str(candidate))
        raw = read_named(root, candidate) if os.path.lexists(candidate) else None
        part(
            "absent"
            if raw is None
            else (hashlib.sha256(raw).hexdigest() if isinstance(raw, bytes) else repr(raw))
        )


def _credentials() -> tuple[int, int, list[int]] | None:
    if not hasattr(os, "geteuid"):
        return None
    return os.geteuid(), os.getegid(), sorted(os.getgroups())


def _terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True)
class Recorded:
    """What a run printed and its exit code, for the inputs it names."""

    inputs: Inputs
    printed: Printed
    code: int


_CHECKS = {
    "files": checker(list[str]),
    "beside": checker(list[str]),
    "digests": checker(list[bytes]),
    "statuses": checker(list[list[int]]),
    "started": checker(int),
    "printed": checker(list[list[Any]]),
    "code": checker(int),
}


def recall(folder: Path, key: str) -> Recorded | None:
    """The entry under ``key`` in the corpus's cache ``folder``, or None: none, or not one
    (damaged, forged, of another shape)."""
    replays = folder / FOLDER
    if not private_folder(replays):
        return None
    found = fetch(replays / f"{key}{ENTRY}", dict[str, Any])
    if found is None or set(found) != set(_CHECKS):
        return None
    if not all(check(found[name]) for name, check in _CHECKS.items()):
        return None
    printed, statuses = found["printed"], found["statuses"]
    if not all(
        len(item) == 2 and item[0] in (1, 2) and isinstance(item[1], str) for item in printed
    ):
        return None
    count = len(found["files"]) + len(found["beside"])
    if len(found["digests"]) != count or len(statuses) != count:
        return None
    if not all(len(status) in (0, 6) for status in statuses):
        return None
    return Recorded(
        Inputs(
            tuple(found["files"]),
            tuple(found["beside"]),
            tuple(found["digests"]),
            tuple(tuple(status) if status else None for status in statuses),
            found["started"],
        ),
        [(item[0], item[1]) for item in printed],
        found["code"],
    )


def keep(folder: Path, key: str, recorded: Recorded) -> None:
    """Store ``recorded`` under ``key``; the oldest entries beyond ``KEEP`` are removed."""
    replays = folder / FOLDER
    if not private_folder(replays):
        return
    inputs = recorded.inputs
    store(
        replays / f"{key}{ENTRY}",
        {
            "files": list(inputs.files),
            "beside": list(inputs.beside),
            "digests": list(inputs.digests),
            "statuses": [list(status or ()) for status in inputs.statuses],
            "started": inputs.started,
            "printed": [[stream, text] for stream, text in recorded.printed],
            "code": recorded.code,
        },
    )
    try:
        entries = sorted(
            (p for p in replays.iterdir() if p.name.endswith(ENTRY)),
            key=lambda p: p.lstat().st_mtime,  # a link is not followed, even to be dated
        )
    except OSError:
        return
    for old in entries[:-KEEP]:
        remove_entry(old)
