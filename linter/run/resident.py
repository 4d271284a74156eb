"""What a resident checker keeps of one corpus between runs (issue 29, item 3).

A daemon (``speclint daemon``) and the language server live as long as a session does, and each
check they make is mostly the check before it again. :class:`Resident` holds, in memory, what the
run otherwise reads back from the user's cache folder (``speclint.run.cache``), under the same
keys, so the same inputs give the same result, byte for byte:

- each file's **bytes**, re-read only when its status changes (size, modification and change
  times, inode). A file modified or changed in the last two seconds is re-read every time, since a
  second edit within the file system's timestamp resolution would not show in its status (git's
  "racily clean" files); so is a symlink, whose target may move without its status changing;
- each **parsed document**, by the hash of its path and bytes, as the parse cache keys it; a
  document is the parse cache's, what a run memoises on it is a pure function of its content
  (``Document.derived``), and refined classifications replace a document, never change it
  (``speclint.model.corpus.refine``);
- the **rule cache**'s entries and the last runs' durations;
- the **run cache**'s last results.

Entries no run used last time are dropped, so memory follows the corpus, not its history. Nothing
here is written to disk, and nothing is read that the run would not read itself (``read_raw``).
"""

from __future__ import annotations

import os
import stat
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from speclint.model.corpus import Document
from speclint.parsing.reading import LoadProblem, read_raw
from speclint.run.cache import ParseCache, RuleCache, RunCache

# Git's answer to "racily clean" files: a file whose timestamp is this close to the moment it
# was read may change again without its status changing; its bytes are not kept.
RACY_NANOSECONDS = 2_000_000_000
KEPT_RUNS = 4  # results of the last runs (a check, the hook's base and head, a focused check)

Signature = tuple[int, ...]


def _signature(full: Path) -> Signature | None:
    """What changes when a file's bytes may have: the link's status and its target's."""
    try:
        link = os.lstat(full)
        target = os.stat(full) if stat.S_ISLNK(link.st_mode) else link
    except OSError:
        return None
    return (
        link.st_ino,
        link.st_size,
        link.st_mtime_ns,
        link.st_ctime_ns,
        target.st_dev,
        target.st_ino,
        target.st_size,
        target.st_mtime_ns,
        target.st_ctime_ns,
    )


def _through_link(signature: Signature) -> bool:
    """Whether the path is a symlink: its own inode is not its target's."""
    return signature[0] != signature[5]


class Files:
    """The bytes of the corpus's files, by path, with the status they were read at."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[Signature, bytes]] = {}
        self.seen: set[str] = set()
        self.reads = 0  # files read from disk in the last run

    def begin(self) -> None:
        self.seen = set()
        self.reads = 0

    def read(self, root: Path, path: str) -> bytes | LoadProblem:
        """``read_raw(root, path)``, from memory when the file's status is what it was."""
        self.seen.add(path)
        signature = _signature(root / path)
        kept = self.kept.get(path)
        if signature is not None and kept is not None and kept[0] == signature:
            return kept[1]
        self.reads += 1
        raw = read_raw(root, path)
        self.kept.pop(path, None)
        if (
            signature is not None
            and not _through_link(signature)  # a link's target may move unseen
            and isinstance(raw, bytes)
            and time.time_ns() - max(signature[2:4]) > RACY_NANOSECONDS
            and _signature(root / path) == signature  # not changed while it was read
        ):
            self.kept[path] = (signature, raw)
        return raw

    def end(self) -> None:
        for gone in set(self.kept) - self.seen:
            del self.kept[gone]


class Documents(ParseCache):
    """The parse cache in memory: the documents the last run used, by path and content."""

    def __init__(self) -> None:  # no folder: nothing is read from or written to disk
        self.kept: dict[str, Document] = {}
        self.used: set[str] = set()
        self.parsed: dict[str, Document] = {}
        self.misses = 0

    def begin(self) -> None:
        self.used = set()
        self.parsed = {}
        self.misses = 0

    def cached(self, path: str, raw: bytes) -> Document | None:
        name = self._name(path, raw)
        self.used.add(name)
        found = self.kept.get(name)
        if found is None:
            self.misses += 1
        return found

    def save_soon(self) -> Callable[[], None]:
        return self.save

    def save_memos(self) -> None:
        """Nothing to write: the documents themselves are kept, each with what the runs memoised
        on it."""

    def save(self) -> None:
        everything = {**self.kept, **self.parsed}
        self.kept = {name: everything[name] for name in sorted(self.used) if name in everything}
        self.parsed = {}


class Results(RuleCache):
    """The rule cache in memory: the entries the last run used, and the rules' durations. A run
    with a base revision runs the rules twice (the base, then the head): both find what the run
    before kept, and what either used is what the next run keeps."""

    def __init__(self) -> None:  # no folder: nothing is read from or written to disk
        self.entries: dict[str, list[Any]] = {}
        self.used: dict[str, Any] = {}
        self.timings: dict[str, float] = {}

    def begin(self) -> None:
        if self.used:
            self.entries = self.used
        self.used = {}

    def get(self, key: str) -> Any:
        # The entries are this process's own results, never read back from a file: taken as
        # they are, without the type check a disk entry gets.
        found = self.entries.get(key)
        if found is not None:
            self.used[key] = found
        return found

    def save(self) -> None:
        """Nothing to write: :meth:`begin` keeps what the run used."""

    def durations(self) -> dict[str, float]:
        return dict(self.timings)

    def record_durations(self, durations: dict[str, float]) -> None:
        self.timings = dict(durations)


class Runs(RunCache):
    """The run cache in memory: the last few results, by run key."""

    def __init__(self) -> None:  # no folder: nothing is read from or written to disk
        self.records: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def get(self, key: str) -> dict[str, Any] | None:
        found = self.records.get(key)
        if found is not None:
            self.records.move_to_end(key)
        return found

    def put(self, key: str, value: dict[str, Any]) -> None:
        self.records[key] = value
        self.records.move_to_end(key)
        while len(self.records) > KEPT_RUNS:
            self.records.popitem(last=False)


class Resident:
    """What one corpus's resident checker keeps between runs (see the module docstring): the
    run's caches (``speclint.run.reuse.Caches``) in memory. A run of
    :func:`speclint.run.engine.lint` uses it when its ``Options.resident`` is this corpus's."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.files = Files()
        self.documents = Documents()
        self.results = Results()
        self.runs = Runs()

    def serves(self, root: Path) -> bool:
        return root.resolve() == self.root

    def begin(self) -> None:
        """A new run: what it uses is what the next one keeps."""
        self.files.begin()
        self.documents.begin()
        self.results.begin()

    def read(self, root: Path, path: str) -> bytes | LoadProblem:
        return self.files.read(root, path)

    def listed(self) -> None:
        """The run's files are read: those no longer listed are forgotten."""
        self.files.end()
