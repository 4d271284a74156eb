"""What a run reuses of the runs before it: one small interface, :class:`Caches`, that the engine
(``speclint.run.engine``) calls and nothing else.

Two keep it:

- :class:`FolderCaches`, the user's cache folder (``speclint.run.cache``): ``speclint check``,
  the pre-commit hook, ``speclint baseline write``;
- :class:`speclint.run.resident.Resident`, memory over the cache folder's: the daemon's
  resident checker (``speclint.frontends.daemon``), which reads the folder and writes to it what
  its runs add, and the language server (``speclint.frontends.lsp``), which only reads it, each
  holding one for its corpus.

Both keep the same entries under the same keys, so the same inputs give the same result, byte for
byte, whichever answered. ``--no-cache`` and ``SPECLINT_NO_CACHE=1`` mean no caches at all
(:func:`caches_for` gives None): every file is read, every document parsed, every rule run.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from speclint.common.cache_folder import corpus_folder, enabled
from speclint.parsing.reading import LoadProblem, read_raw
from speclint.run.cache import ParseCache, RuleCache, RunCache, forget_stale

if TYPE_CHECKING:
    from speclint.run.resident import Resident


class Caches(Protocol):
    """The caches of one run, in the order a run uses them: it begins, reads the files, asks
    the run cache for a whole result, parses what it must (the parse cache) and runs the rules
    (the rule cache). Every key is made of contents, never of where the files are, so a run
    with a base revision lints the base through the same caches."""

    def begin(self) -> None:
        """A run starts: what it uses is what the next one finds."""

    def read(self, root: Path, path: str) -> bytes | LoadProblem:
        """A file's bytes, as ``read_raw(root, path)`` reads them."""

    def listed(self) -> None:
        """Every file of the run has been read: forget those no longer listed."""

    @property
    def runs(self) -> RunCache:
        """Whole results, by run key (``cache.run_key``)."""

    @property
    def documents(self) -> ParseCache:
        """Parsed documents, by path and content."""

    @property
    def results(self) -> RuleCache:
        """Rules' findings, by what the rule reads; and the rules' last durations."""


class FolderCaches:
    """The caches of one corpus in the user's cache folder; each is opened when the run first
    asks for it (a run the run cache answers reads no rule cache and opens no parse folder)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def begin(self) -> None:
        forget_stale()  # the folders of corpora nobody checked for a month

    def read(self, root: Path, path: str) -> bytes | LoadProblem:
        return read_raw(root, path)

    def listed(self) -> None:
        """Nothing to forget: the folder keeps no file's bytes."""

    @cached_property
    def runs(self) -> RunCache:
        return RunCache(self.folder)

    @cached_property
    def documents(self) -> ParseCache:
        return ParseCache(self.folder)

    @cached_property
    def results(self) -> RuleCache:
        return RuleCache(self.folder)


def caches_for(root: Path, wanted: bool, resident: Resident | None) -> Caches | None:
    """The caches of a run of the corpus at ``root``, begun: the resident checker's when it is
    this corpus's (over the cache folder's, when that is private), else the cache folder's; None with ``--no-cache`` (``wanted`` false), with
    ``SPECLINT_NO_CACHE=1`` (for a resident checker too: a cold run is asked for), and when no
    private cache folder can be had."""
    if not (wanted and enabled()):
        return None
    caches: Caches
    folder = corpus_folder(root)
    if resident is not None and resident.serves(root):
        # Memory over the folder's caches; over none when the folder is not private (refused
        # as for a run in its own process, and said so).
        resident.use_folder(folder)
        caches = resident
    else:
        if folder is None:
            return None
        caches = FolderCaches(folder)
    caches.begin()
    return caches
