"""The corpus's private cache folder, and the fingerprint of the code that judges: what every
cache entry is kept in and keyed on.

Standard library, ``speclint.common.places`` and ``speclint.common.storage`` only: the replay
front (``speclint.frontends.replay``) reads an entry here before the engine, the rules or the
reporters are imported, with the same privacy checks as the run's caches (``speclint.run.cache``).
An entry is msgpack read back type-checked (:func:`fetch`), written atomically
(:func:`write_atomically`): a damaged or forged entry is a miss, never code and never a crash.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from speclint import __version__
from speclint.common.places import cache_home, private_folder
from speclint.common.storage import StorageError, dumps, loads

ENTRY = ".msgpack"
TEMPORARY = ".tmp-"

# The installed packages that decide what a finding is: a changed vocabulary in
# jsonschema-specifications, a new openapi-spec-validator, another YAML or Markdown parser must
# never meet results cached under the old one (issue 13: 113 cached findings against 797).
JUDGING_MODULES = (
    "jsonschema",
    "jsonschema_specifications",
    "referencing",
    "rpds",
    "openapi_spec_validator",
    "openapi_schema_validator",
    "jsonschema_path",
    "pathable",
    "ruamel.yaml",
    "yaml",
    "_yaml",
    "markdown_it",
    "pyromark",
    "mdit_py_plugins",
    "mdurl",
    "regex",
    "jsonschema_rs",
    "hypothesis",
    "hypothesis_jsonschema",
    "msgpack",
)


def enabled() -> bool:
    return os.environ.get("SPECLINT_NO_CACHE", "") in ("", "0")


def _tree_digest(digest: Any, folders: Iterable[str]) -> None:
    """Every file under ``folders``: path, size and modification time (an upgrade, or an edit in
    place, changes them), in a stable order. ``__pycache__`` is derived and skipped."""
    stack = sorted(set(folders), reverse=True)
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        below = []
        for entry in listed:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        below.append(entry.path)
                    continue
                status = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            digest.update(f"{entry.path}\x00{status.st_size}\x00{status.st_mtime_ns}\x00".encode())
        stack.extend(reversed(below))


@functools.cache
def code_fingerprint() -> str:
    """The code that judges a corpus: this installation of speclint (every file of its packages)
    and of each package in ``JUDGING_MODULES``, and the Python that runs them. Every cache key
    starts with it. Computed once per process; :func:`installed_code` looks again."""
    return installed_code()


def installed_code() -> str:
    """:func:`code_fingerprint` as the installed files are now (a few milliseconds): a resident
    checker asks before every run whether the code it runs is still the code installed."""

    digest = hashlib.sha256(f"{__version__}\x00{sys.version}\x00".encode())
    # The whole package (every layer), not this module's folder, and the rules (found, not
    # imported: the replay front asks before any rule module is loaded).
    package = Path(__file__).resolve().parents[1]
    own = {str(package)}
    rules = importlib.util.find_spec("speclint.rules")
    if rules is not None:
        own.update(str(Path(folder).resolve()) for folder in rules.submodule_search_locations or ())
    _tree_digest(digest, own)
    _packages_digest(digest, JUDGING_MODULES)
    return digest.hexdigest()[:16]


def packages_code(names: Iterable[str]) -> str:
    """The installed files of the packages ``names``, as :func:`installed_code` digests the
    judging ones (the replay cache adds the library that prints: ``speclint.run.replay``)."""
    digest = hashlib.sha256()
    _packages_digest(digest, names)
    return digest.hexdigest()[:16]


def _packages_digest(digest: Any, names: Iterable[str]) -> None:
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            digest.update(f"{name}\x00absent\x00".encode())
            continue
        locations = list(spec.submodule_search_locations or ())
        if not locations and spec.origin:
            # A single-module distribution: the module file alone.
            with contextlib.suppress(OSError):
                status = os.stat(spec.origin)
                digest.update(f"{spec.origin}\x00{status.st_size}\x00{status.st_mtime_ns}".encode())
        digest.update(f"{name}\x00".encode())
        _tree_digest(digest, locations)


# --- where the caches live ----------------------------------------------------------------------


_warned: set[str] = set()


def warn_afresh() -> None:
    """A run starts in a process that ran others (a resident checker's request): what a run says
    once, that a folder is refused, it says again, as a run in its own process would."""
    _warned.clear()


def _refuse(folder: Path) -> None:
    if str(folder) not in _warned:
        _warned.add(str(folder))
        print(
            f"speclint: {folder} is not a private folder of this user (a symlink, someone "
            "else's, or writable by others): running without a cache",
            file=sys.stderr,
        )


def corpus_folder(root: Path) -> Path | None:
    """This corpus's cache folder (by its resolved path), or None when no private one can be had."""
    home = cache_home()
    resolved = str(root.resolve())
    folder = (
        home
        / "corpora"
        / hashlib.sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    )
    for level in (home, home / "corpora", folder):
        if not private_folder(level):
            _refuse(level)
            return None
    marker = folder / "root.txt"
    with contextlib.suppress(OSError):
        # Names the corpus for a person looking in the folder, and its mtime says when it was last
        # used (stale corpus folders are forgotten, see ``forget_stale``).
        write_atomically(marker, (resolved + "\n").encode("utf-8", "surrogateescape"))
    return folder


def write_atomically(target: Path, payload: bytes) -> None:
    """Write atomically: a concurrent run reads the old entry or the new one, never half."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=TEMPORARY)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def store(target: Path, value: Any) -> None:
    # A full disk, a value msgpack cannot hold: run without this entry.
    with contextlib.suppress(OSError, StorageError):
        write_atomically(target, dumps(value))


def fetch(source: Path, expected: Any = Any) -> Any:
    """The entry's value, or None: missing, not a regular file of this user, damaged, forged, or
    not of type ``expected``."""
    try:
        descriptor = os.open(source, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return None
        if os.name == "posix" and status.st_uid != os.geteuid():
            return None
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            blob = handle.read()
    except OSError:
        return None
    finally:
        os.close(descriptor)
    try:
        return loads(blob, expected)
    except StorageError:
        return None


def remove_entry(path: Path) -> None:
    """Unlink one of our entries: a regular file with our name pattern, never a folder."""
    with contextlib.suppress(OSError):
        if stat.S_ISREG(os.lstat(path).st_mode):
            path.unlink()
