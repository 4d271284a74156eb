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
- the **run cache**'s last results;
- the **base revision** the last run judged from git's objects (:class:`Base`: the hook judges
  HEAD at every attempt at a commit), under a key that holds what the run key holds and git's
  listing of the revision, each file by its object id, taken only while git replaces no object.

Entries no run used last time are dropped, so memory follows the corpus, not its history.

The caches are a layer over the cache folder's (``speclint.run.cache``), issue 51: a checker
starts where the run that started it left the folder, and leaves the folder where it is.

- A miss in memory is looked up in the folder, by the folder's own readers under the same key (a
  document's parse entry, the rule cache's entries, a run's record): what they refuse (a damaged
  or forged entry, another code's) is a miss here too. The rule cache's file, which holds every
  entry of a run, is read again only when its status changed since this process read or wrote it.
- What a run adds (the documents it parsed, the rules' entries it used and their durations, its
  result) is written to the folder by the folder's own writers, in a forked process, after the
  answer is sent (:meth:`Resident.write`), for a checker that ``writes`` (the daemon's; the
  language server's runs hold unsaved texts, and it only reads).
- The folder is the one a run in its own process would use, asked at every run
  (``speclint.run.reuse.caches_for``): when it is not private, the checker keeps memory only.

Nothing is read that the run would not read itself (``read_raw``, the folder's entries).
"""

from __future__ import annotations

import os
import stat
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from speclint.common.cache_folder import ENTRY, code_fingerprint
from speclint.common.lifecycle import child_started, start_child
from speclint.model.corpus import Document
from speclint.parsing.reading import LoadProblem, read_raw
from speclint.run.cache import WRITER_WAIT, ParseCache, RuleCache, RunCache

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
    """The parse cache in memory, over the folder's: the documents the last run used, by path
    and content; one not in memory is looked up in the folder (its own reader, which checks what
    it reads), and what the run parsed is written there by :meth:`Resident.write`."""

    def __init__(self) -> None:  # the folder's cache is opened by a run that misses in memory
        self.kept: dict[str, Document] = {}
        self.used: set[str] = set()
        self.parsed: dict[str, Document] = {}
        self.fetched: dict[str, Document] = {}  # read from the folder in this run
        self.unwritten: dict[str, Document] = {}  # parsed, not in the folder yet
        self.packed: list[Document] = []  # read from the folder, their prose models packed
        self.home: Path | None = None
        self.writes = False
        self.opened: ParseCache | None = None
        self.misses = 0  # documents parsed in the last run
        self.reads = 0  # documents read from the folder in the last run

    def begin(self, home: Path | None = None, writes: bool = False) -> None:
        self.used = set()
        self.parsed = {}
        self.fetched = {}
        self.home = home
        self.writes = writes
        self.opened = None
        self.misses = 0
        self.reads = 0

    def cached(self, path: str, raw: bytes) -> Document | None:
        name = self._name(path, raw)
        self.used.add(name)
        found = self.kept.get(name)
        if found is None and self.home is not None:
            if self.opened is None:
                self.opened = ParseCache(self.home)
            found = self.opened.cached(path, raw)
            if found is not None:
                self.fetched[name] = found
                self.reads += 1
        if found is None:
            self.misses += 1
        return found

    def save_soon(self) -> Callable[[], None]:
        return self.save

    def save_memos(self) -> None:
        """Nothing to write: the documents themselves are kept, each with what the runs memoised
        on it."""

    def save(self) -> None:
        everything = {**self.kept, **self.fetched, **self.parsed}
        self.kept = {name: everything[name] for name in sorted(self.used) if name in everything}
        if self.home is not None and self.writes:
            self.unwritten.update(self.parsed)
        self.packed.extend(self.fetched.values())
        self.parsed = {}
        self.fetched = {}

    def unpack(self) -> None:
        """Decode the prose models of the documents read from the folder (kept packed there,
        ``Document.prose``): once, in this process, not in every forked rule that reads them at
        every run (``runner._read_models`` decodes only what several rules would)."""
        for document in self.packed:
            _ = document.prose
        self.packed = []

    def pending(self) -> bool:
        return bool(self.unwritten)

    def write(self, home: Path) -> None:
        """The folder's writer, as a run in its own process calls it: the documents parsed, and
        the entries the last run did not use dropped."""
        writer = ParseCache(home)
        writer.parsed = self.unwritten
        writer.used = set(self.used)
        writer.save()


class Results(RuleCache):
    """The rule cache in memory, over the folder's: the entries the last run used, and the
    rules' durations. A run with a base revision runs the rules twice (the base, then the head):
    both find what the run before kept, and what either used is what the next run keeps. A key
    not in memory is looked up in the folder's cache (read once a run, each entry type-checked
    as the folder's reader checks it); what the run used is written there as a run in its own
    process writes it (:meth:`Resident.write`)."""

    def __init__(self) -> None:  # the folder's cache is opened by a run that misses in memory
        self.entries: dict[str, list[Any]] = {}
        self.used: dict[str, Any] = {}
        self.timings: dict[str, float] = {}
        self.home: Path | None = None
        self.writes = False
        self.opened: RuleCache | None = None
        self.checked = False  # the folder's file was looked at in this run
        # The status of the folder's file when this process last read or wrote it: while it is
        # the same, the folder holds nothing that memory lacks, and a miss is not looked up there
        # (the file holds every entry of a run: read once, not at every edit's miss).
        self.seen: Signature | None = None
        self.saved = False  # the rules ran this run: the folder's entries are what it used
        self.rewritten = False  # a writer is writing the file
        self.timed = False  # durations recorded, not yet in the folder
        self.stored: frozenset[str] | None = None  # the keys the folder is known to hold
        self.misses = 0  # keys found neither in memory nor in the folder in the last run
        self.reads = 0  # entries read from the folder in the last run

    def begin(self, home: Path | None = None, writes: bool = False) -> None:
        if self.used:
            self.entries = self.used
        self.used = {}
        if home != self.home:
            self.stored = self.seen = None
            self.opened = None
        elif self.opened is not None:
            self.opened.used = {}
        self.home = home
        self.writes = writes
        self.checked = False
        self.saved = False
        self.misses = 0
        self.reads = 0

    def _file(self, home: Path) -> Path:
        return home / f"rules-{code_fingerprint()}{ENTRY}"

    def _folder(self) -> RuleCache | None:
        """The folder's rule cache as this process read it, read again once a run when its file
        changed since (another process wrote it); None when there is none to read. Every entry
        is keyed by what it was made of: one read earlier is as good as one read now."""
        if self.home is None:
            return None
        if not self.checked:
            self.checked = True
            status = _signature(self._file(self.home))
            if status is None:
                self.opened = None
            elif status != self.seen:
                self.opened = RuleCache(self.home)
                self.stored = frozenset(self.opened.entries)
            self.seen = status
        return self.opened

    def prime(self) -> None:
        """Read the folder's rule cache now (a checker's warm-up, which no commit waits for),
        not at the first request that misses in memory."""
        self.checked = False
        self._folder()

    def get(self, key: str) -> Any:
        # This process's own results are taken as they are; the folder's are checked by its
        # reader (a damaged or forged entry is a miss).
        found = self.entries.get(key)
        if found is None and (opened := self._folder()) is not None:
            found = opened.get(key)
            if found is not None:
                self.reads += 1
        if found is None:
            self.misses += 1
            return None
        self.used[key] = found
        return found

    def save(self) -> None:
        """Nothing to write now: :meth:`begin` keeps what the run used, and the folder is
        written after the answer (:meth:`Resident.write`)."""
        self.saved = self.home is not None and self.writes

    def durations(self) -> dict[str, float]:
        if not self.timings and (opened := self._folder()) is not None:
            self.timings = opened.durations()
        return dict(self.timings)

    def record_durations(self, durations: dict[str, float]) -> None:
        self.timings = dict(durations)
        self.timed = self.home is not None and self.writes

    def pending(self) -> bool:
        return self.timed or (self.saved and frozenset(self.used) != self.stored)

    def write(self, home: Path) -> None:
        """The folder's writer: the entries the last run used when its rules ran (and the file
        holds others), the rules' durations when they were measured."""
        writer = RuleCache(home)
        if self.saved:
            writer.used = dict(self.used)
            writer.save()
        if self.timed:
            writer.record_durations(self.timings)

    def written(self) -> None:
        """What :meth:`write` writes is the folder's now."""
        if self.saved:
            self.stored = frozenset(self.used)
            self.rewritten = True
        self.saved = self.timed = False

    def reread(self) -> None:
        """The writer is done: the file as it left it is what memory holds."""
        if self.rewritten and self.home is not None:
            self.seen = _signature(self._file(self.home))
        self.rewritten = False


class Runs(RunCache):
    """The run cache in memory, over the folder's: the last few results, by run key; a key not
    in memory is looked up in the folder (its reader checks the record and the code that made
    it), and a result put is written there too (:meth:`Resident.write`)."""

    def __init__(self) -> None:  # the folder's cache is opened by a run that misses in memory
        self.records: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.unwritten: dict[str, dict[str, Any]] = {}
        self.home: Path | None = None
        self.writes = False
        self.reads = 0  # records read from the folder in the last run

    def begin(self, home: Path | None = None, writes: bool = False) -> None:
        self.home = home
        self.writes = writes
        self.reads = 0

    def get(self, key: str) -> dict[str, Any] | None:
        found = self.records.get(key)
        if found is None and self.home is not None:
            folder = RunCache(self.home)
            # A resident that never writes the folder (the language server's) leaves it as it is.
            found = folder.get(key) if self.writes else folder.peek(key)
            if found is not None:
                self.reads += 1
                self._keep(key, found)
        if found is not None:
            self.records.move_to_end(key)
        return found

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._keep(key, value)
        if self.home is not None and self.writes:
            self.unwritten[key] = value

    def _keep(self, key: str, value: dict[str, Any]) -> None:
        self.records[key] = value
        self.records.move_to_end(key)
        while len(self.records) > KEPT_RUNS:
            self.records.popitem(last=False)

    def pending(self) -> bool:
        return bool(self.unwritten)

    def write(self, home: Path) -> None:
        writer = RunCache(home)
        for key, value in self.unwritten.items():
            writer.put(key, value)


class Base:
    """The base revision the last run judged from git's objects (``engine._lint_base``), kept
    under its key (``engine._base_key``: the code, the corpus root, the rules run, the date
    waivers are judged against, the configuration, and git's listing of the revision, each
    file's object id, with the settings that decide how it is written, taken only while git
    replaces no object). The hook judges HEAD at every attempt at a commit: the next attempt
    finds it here and reads, parses and keys none of its files again. What the run made of it
    (the corpus with its facts, the entries of its findings, its result) is a function of
    those inputs alone; the corpus is never changed once judged (its facts are memoised on
    demand, the same whichever run asks)."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.base: Any = None  # engine._Base
        self.documents: frozenset[str] = frozenset()  # the parse cache's names it used
        self.reused = 0  # runs it answered

    @contextmanager
    def noting(self, documents: Any) -> Iterator[set[str]]:
        """The names of the parse cache's entries a parse of the base uses that the run had not
        used before (``documents``: the run's parse cache, or None)."""
        noted: set[str] = set()
        before = set(documents.used) if isinstance(documents, Documents) else set()
        try:
            yield noted
        finally:
            if isinstance(documents, Documents):
                noted.update(documents.used - before)

    def keep(self, key: str | None, base: Any, documents: set[str]) -> None:
        """Keep ``base`` under ``key``, or forget what was kept when there is no key (a result
        with a rule stopped, git replacing objects)."""
        if key is None:
            self.key, self.base, self.documents = None, None, frozenset()
        else:
            self.key, self.base, self.documents = key, base, frozenset(documents)

    def recalled(self, documents: Any) -> Any:
        """The base kept, its documents' entries marked used in this run's parse cache as a
        parse of it would have marked them (the entries a run used are those the next keeps)."""
        if isinstance(documents, Documents):
            documents.used |= self.documents
        self.reused += 1
        return self.base


class Resident:
    """What one corpus's resident checker keeps between runs (see the module docstring): the
    run's caches (``speclint.run.reuse.Caches``) in memory, over the cache folder's. A run of
    :func:`speclint.run.engine.lint` uses it when its ``Options.resident`` is this corpus's.

    ``writes``: what a run adds is written to the folder too, by :meth:`write` (the daemon calls
    it once its answer is sent). The language server reads the folder and never writes it: its
    runs hold the editor's unsaved texts, whose entries would push out those of the files."""

    def __init__(self, root: Path, writes: bool = False) -> None:
        self.root = root.resolve()
        self.writes = writes
        self.home: Path | None = None
        self.files = Files()
        self.documents = Documents()
        self.results = Results()
        self.runs = Runs()
        self.base = Base()
        self.writer: Any = None  # the process writing the last run's entries, if any

    def serves(self, root: Path) -> bool:
        return root.resolve() == self.root

    def use_folder(self, home: Path | None) -> None:
        """The corpus's cache folder for the next run (``speclint.run.cache.corpus_folder``,
        asked by each run in the requester's environment); None: memory only (no private
        folder)."""
        self.home = home

    def begin(self) -> None:
        """A new run: what it uses is what the next one keeps."""
        self._reap()
        self.files.begin()
        self.documents.begin(self.home, self.writes)
        self.results.begin(self.home, self.writes)
        self.runs.begin(self.home, self.writes)

    def read(self, root: Path, path: str) -> bytes | LoadProblem:
        return self.files.read(root, path)

    def listed(self) -> None:
        """The run's files are read: those no longer listed are forgotten."""
        self.files.end()

    def settle(self) -> None:
        """Between runs (a checker's warm-up, and after each answer): what the folder gave the
        last run made ready for the next, the documents' prose models decoded and the rule
        cache's file read, so that no run pays for them again."""
        self._reap()  # a writer done: the file it wrote is the one memory holds
        self.documents.unpack()
        self.results.prime()

    def pending(self) -> bool:
        """Whether the last run added what the folder does not hold yet."""
        return self.writes and (
            self.documents.pending() or self.results.pending() or self.runs.pending()
        )

    def write(self) -> None:
        """Write to the cache folder what the last run added to the caches, with the folder
        caches' own writers (the run's result, the rules' entries and durations, the documents
        parsed), in a forked process: the daemon calls this after its answer is sent, and the
        next request is not held up by it. One writer at a time: an older one's pruning never
        removes what a newer one wrote."""
        home = self.home
        if home is None or not self.pending():
            return
        self.wait()
        documents, results, runs = self.documents, self.results, self.runs
        parent = os.getpid()

        def write() -> None:
            child_started(parent)
            runs.write(home)  # first: what the next hook in its own process asks first
            results.write(home)
            documents.write(home)

        # Deferred: multiprocessing is imported only by a checker that writes entries.
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:  # no fork on this platform: written here, after the answer all the same
            write_here = True
        else:
            write_here = False
            self.writer = context.Process(target=write, daemon=True)
            start_child(self.writer)
        if write_here:
            runs.write(home)
            results.write(home)
            documents.write(home)
        self.documents.unwritten = {}
        self.runs.unwritten = {}
        self.results.written()
        if write_here:
            self.results.reread()

    def wait(self) -> None:
        """Wait for the writer, if one is writing (the daemon waits before it exits)."""
        if self.writer is not None:
            self.writer.join(WRITER_WAIT)
            if self.writer.exitcode is None:  # entries are atomic: a killed writer leaves none half
                self.writer.kill()
                self.writer.join()
            self.writer = None
            self.results.reread()

    def _reap(self) -> None:
        if self.writer is not None and not self.writer.is_alive():
            self.wait()
