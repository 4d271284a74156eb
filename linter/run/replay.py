"""The replay cache: what ``speclint check`` printed, and its exit code, for inputs that have not
changed since (issue 51: a run that changed nothing in 0.15 s, where importing the engine alone
takes 0.27 s).

An entry is kept under a key over every input that can change what the command prints, made
before anything of the engine is imported (``speclint.frontends.replay`` reads it):

- the code: speclint and the packages that judge (``cache_folder.installed_code``), the command
  line library that prints (click), the interpreter and its flags;
- the command line, the working folder, the environment (all of it, less two variables a shell
  changes as it moves about and that nothing reads: ``VOLATILE``), whether standard output and
  standard error are terminals (colour, the progress bar), and today's date (waivers expire);
- the corpus: its root (resolved) and the part of it reported on, as ``speclint.run.roots``
  finds them now; every file's path under the root (``speclint.parsing.tree.listing``); what
  git ignores there (``gitbase.ignored``, which reads the index, the ``.gitignore`` files and
  git's configuration); and the bytes of the configuration file(s) the run would read.

Those decide which files the run reads (discovery is a function of the listing, the
configuration, what git ignores and the code), but not their bytes: the entry itself names the
files whose bytes the run read (its discovered files, and the files read beside them by name,
which ``speclint.run.cache.run_key`` keys the run cache on), with a digest of those bytes made
from what the run read (:func:`inputs_digest`). A replay reads the same files again and answers
only when the digest is the same. So a replayed run prints what the run cache would have answered
for the same inputs, without importing what answers it.

Entries live in the corpus's private cache folder (``replays/``), as msgpack read back
type-checked (:func:`recall`): a damaged or forged entry is a miss.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
from speclint.parsing.gitbase import ignored
from speclint.parsing.kinds import CONFIGURATION_FILES
from speclint.parsing.reading import LoadProblem, read_named, read_raw
from speclint.parsing.tree import listing
from speclint.run.roots import Scope

FOLDER = "replays"
KEEP = 8  # entries per corpus: a few command lines (text, json, --preview) answered at once
VERSION = "speclint-replay/1"
# Variables a shell sets as it moves about (the previous folder; the last command's path) that
# nothing speclint runs reads: every other variable is in the key.
VOLATILE = frozenset({"OLDPWD", "_"})
# The libraries that print what a run says (not judging what it finds: ``JUDGING_MODULES``).
PRINTING_MODULES = ("click",)

Printed = list[tuple[int, str]]  # (1 for stdout or 2 for stderr, text), in the order written


@dataclass(frozen=True)
class Inputs:
    """The files whose bytes a run read, and a digest of the bytes it read: ``files`` read from
    the resolved root (its discovered files), ``beside`` from the root as the command named it
    (what ``run_key`` reads by name: ``.gitattributes``, ``go.mod``, build scripts)."""

    files: tuple[str, ...]
    beside: tuple[str, ...]
    digest: str


def inputs_digest(read: Iterable[tuple[str, bytes | LoadProblem]]) -> str:
    """A digest of files' paths and what reading them gave (bytes, or why not), in order."""
    digest = hashlib.sha256()
    for path, raw in read:
        digest.update(path.encode("utf-8", "surrogateescape") + b"\x00")
        if isinstance(raw, bytes):
            digest.update(b"B%d\x00" % len(raw))
            digest.update(raw)
        else:
            digest.update(b"P" + repr(raw).encode("utf-8", "surrogateescape") + b"\x00")
    return digest.hexdigest()


def read_again(root: Path, inputs: Inputs) -> str:
    """:func:`inputs_digest` of the files ``inputs`` names as they are now."""
    resolved = root.resolve()
    return inputs_digest(
        [
            *((path, read_raw(resolved, path)) for path in inputs.files),
            *((path, read_raw(root, path)) for path in inputs.beside),
        ]
    )


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
    hidden_files, hidden_folders = ignored(root)
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
        datetime.date.today().isoformat(),
        str(root),
        repr(scope),
        # Sorted: a frozenset's order changes with the process's string hashes.
        repr((sorted(hidden_files), hidden_folders)),
    ):
        part(value)
    for path in listing(root):
        part(path)
    digest.update(b"\x01")
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
    return digest.hexdigest()[:40]


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
    "digest": checker(str),
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
    printed = found["printed"]
    if not all(
        len(item) == 2 and item[0] in (1, 2) and isinstance(item[1], str) for item in printed
    ):
        return None
    return Recorded(
        Inputs(tuple(found["files"]), tuple(found["beside"]), found["digest"]),
        [(item[0], item[1]) for item in printed],
        found["code"],
    )


def keep(folder: Path, key: str, recorded: Recorded) -> None:
    """Store ``recorded`` under ``key``; the oldest entries beyond ``KEEP`` are removed."""
    replays = folder / FOLDER
    if not private_folder(replays):
        return
    store(
        replays / f"{key}{ENTRY}",
        {
            "files": list(recorded.inputs.files),
            "beside": list(recorded.inputs.beside),
            "digest": recorded.inputs.digest,
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
