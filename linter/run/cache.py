"""Content-hash caches in the user's cache folder, so a pre-commit run that changed nothing costs a
hash of each file.

Three kinds of entry:

- the **run cache** keeps a whole run's result (findings, waived findings, the rules that ran)
  under a key that hashes everything the result depends on: the code that judges (speclint and
  the installed dependencies that parse and validate), the configuration (its file and the
  profile it names), every discovered file's path and content, which files exist at all, the
  rules selected, and today's date (waivers expire). The same key gives byte-identical reports,
  because reports are a pure function of the result and the files;
- the **parse cache** keeps each file's parsed document (data, positions, prose model) under the
  hash of its path and bytes, so after a change only the changed files are parsed again;
- the **rule cache** keeps the findings of rules that read only JSON/YAML documents
  (``READS = "structured"``), keyed on those documents, so a prose edit does not re-run them,
  or only what they read of the prose (``READS = "extract"``);
  and, for rules checked one unit at a time (``READS = "page"`` or ``"document"``,
  :mod:`speclint.analyses.units`), each unit's result, keyed on what that unit reads.

Where, and why there (issue 13): the repository under check may come from a fork, so nothing in
it is ever read as a cache. The caches live in ``$SPECLINT_CACHE_DIR``, else the platform's user
cache folder (``$XDG_CACHE_HOME/speclint`` or ``~/.cache/speclint`` on Linux), one folder per
corpus path. Every folder is used only when it is a real directory (not a symlink), owned by the
user running speclint and writable by nobody else; otherwise speclint runs without a cache and
says so once. Entries are msgpack read back only into a fixed list of speclint's own data classes,
each field of its declared type, and each entry of the type its reader expects
(:mod:`speclint.common.storage`): a damaged or forged entry is a miss, never code and never a crash.
Pruning removes only files named as speclint names its entries, one by one; it never removes a
folder tree, and never follows a link. Hypothesis keeps its files here too (``hypothesis/``,
:func:`keep_hypothesis_private`), not in the repository.

``--no-cache`` (or ``SPECLINT_NO_CACHE=1``) bypasses all three.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import functools
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import time
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import import_prefixes
from speclint.analyses.prose.enumerations import ProseSet
from speclint.analyses.repository.downloads import (
    build_inputs,
    build_outputs,
    bundled_outputs,
    downloads,
    program_text,
    program_writes,
)
from speclint.analyses.units import extract_digest, reach
from speclint.common.cache_folder import (
    ENTRY,
    TEMPORARY,
    code_fingerprint,
    enabled,
    fetch,
    remove_entry,
    store,
)
from speclint.common.findings import Finding
from speclint.common.lifecycle import child_started, start_child
from speclint.common.places import cache_home, private_folder
from speclint.common.storage import StorageError, checker, dumps, stored_class
from speclint.model.corpus import Document
from speclint.parsing.kinds import ATTRIBUTES_FILE, DocumentKind
from speclint.parsing.protobuf import BAZEL_BUILD_FILES, GO_MODULE_FILE
from speclint.parsing.reading import read_raw
from speclint.parsing.shell import build_files
from speclint.run.catalog import RuleInfo
from speclint.run.waivers import today

if TYPE_CHECKING:
    from speclint.model.config import Config
    from speclint.parsing.reading import LoadProblem

# The folder name earlier versions kept inside the corpus; it is still never linted, never read.
LEGACY_FOLDER = ".speclint-cache"
KEEP_RUNS = 8
FORGET_AFTER_DAYS = 30  # a corpus folder nobody used for this long is removed
WRITER_WAIT = 120.0  # seconds a run waits at its end for the parse cache's writer

HYPOTHESIS = "HYPOTHESIS_STORAGE_DIRECTORY"


@functools.cache
def hypothesis_home() -> Path:
    """Where Hypothesis keeps its files (its Unicode tables, the constants it collects): the
    ``hypothesis`` folder of the cache folder; when caching is off or that folder is not private,
    a private folder of this user in the temporary folder (made afresh if someone else holds that
    name). Never ``.hypothesis`` in the working directory, Hypothesis's default, which is the
    repository under check when speclint runs from its root."""
    if enabled():
        home = cache_home()
        folder = home / "hypothesis"
        if private_folder(home) and private_folder(folder):
            return folder
    user = os.geteuid() if hasattr(os, "geteuid") else os.environ.get("USERNAME", "")
    shared = Path(tempfile.gettempdir()) / f"speclint-hypothesis-{user}"
    if private_folder(shared):
        return shared
    made = Path(tempfile.mkdtemp(prefix="speclint-hypothesis-"))
    atexit.register(shutil.rmtree, made, True)
    return made


def keep_hypothesis_private() -> None:
    """Point Hypothesis (which generates the witnesses of ``unsatisfiable-schema``) at
    :func:`hypothesis_home` before it is imported. It reads ``$HYPOTHESIS_STORAGE_DIRECTORY`` the
    first time it needs a file, and reads back what it finds there: a gzip bomb committed as
    ``.hypothesis/unicode_data/.../charmap.json.gz`` took a check 50 s and 6 GB (issue 25). Set
    in the process that forks the rules, every child inherits it. A process that imported
    Hypothesis itself (a test session) has chosen where it keeps its files."""
    if "hypothesis" not in sys.modules:
        os.environ[HYPOTHESIS] = str(hypothesis_home())


# --- reading and writing entries -----------------------------------------------------------------


def _sweep_temporaries(folder: Path, older_than: float = 3600.0) -> None:
    """Temporary files a killed run left behind (atomic writes not renamed)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(TEMPORARY) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime > older_than:
                        os.unlink(entry.path)


def forget_stale(home: Path | None = None, days: float = FORGET_AFTER_DAYS) -> None:
    """Remove the entries of corpus folders unused for ``days`` (their ``root.txt`` says when),
    file by file, then the folders if that emptied them."""
    corpora = (home or cache_home()) / "corpora"
    limit = time.time() - days * 86400
    with contextlib.suppress(OSError):
        for folder in os.scandir(corpora):
            if not folder.is_dir(follow_symlinks=False):
                continue
            marker = Path(folder.path) / "root.txt"
            try:
                if os.lstat(marker).st_mtime > limit:
                    continue
            except OSError:
                continue  # not a folder of ours
            _remove_ours(Path(folder.path))


def _remove_ours(folder: Path) -> None:
    """Remove our entries in ``folder`` and in its ``parse-*`` and ``runs`` folders, file by file,
    then each folder that this emptied. A link is never followed, wherever it is: one named like
    our folders (``parse-0 -> /home/me``) may point anywhere, and is left as it is."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return
    except OSError:
        return
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False) and (
                entry.name.startswith("parse-") or entry.name == "runs"
            ):
                _remove_ours(path)
            elif (
                entry.name.endswith(ENTRY)
                or entry.name.startswith(TEMPORARY)
                or entry.name == "root.txt"
            ):
                remove_entry(path)
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when nothing else is in it


# --- the three caches ----------------------------------------------------------------------------


# Files read beside the corpus's by name (not corpus documents): their text is in the run's key.
_READ_BESIDE = frozenset({ATTRIBUTES_FILE, GO_MODULE_FILE, *BAZEL_BUILD_FILES})


def run_key_head(root: Path, config: Config, rules: Iterable[str]) -> tuple[str, ...]:
    """What a run's result depends on besides the files: speclint's code, the corpus root, the
    rules, the date waivers are judged against, the configuration. A key of a whole run starts
    with it (:func:`run_key`, and a resident checker's kept base, ``engine._base_key``)."""
    return (
        code_fingerprint(),
        str(root.resolve()),
        repr(sorted(rules)),
        today().isoformat(),
        repr(config),  # a plain dataclass of strings, tuples and mappings: its repr is exact
    )


def run_key(
    root: Path,
    config: Config,
    files: dict[str, bytes | LoadProblem],
    rules: Iterable[str],
    tree: Iterable[str] = (),
    read: Callable[[str], bytes | LoadProblem] | None = None,
    beside: dict[str, bytes | LoadProblem] | None = None,
) -> str:
    """The key of a whole run. ``tree`` is every file under the root, linted or not
    (``rfc-affects`` asks whether a path an RFC names exists). ``read`` reads the files the run
    reads beside the corpus (``Corpus.read_file``: a base revision's, read from git's objects);
    None: from the disk at ``root``. ``beside``, when given, is told what the key read of those
    files, by name (the replay cache names them: ``speclint.run.replay.Inputs``)."""

    digest = hashlib.sha256()
    for part in run_key_head(root, config, rules):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\x00")
    tree = list(tree)
    scripts = set(build_files(tree))
    for present in tree:
        digest.update(present.encode("utf-8", "surrogateescape") + b"\x00")
        name = present.rpartition("/")[2]
        if name in _READ_BESIDE or present in scripts:
            # Read by the run (``Corpus.generated``; a bundler's command line,
            # ``speclint.analyses.api.merging``; the protos' import prefixes,
            # ``speclint.analyses.grpc.protos.import_prefixes``), though not a corpus file: its text
            # is key.
            attributes = read_raw(root, present) if read is None else read(present)
            digest.update(attributes if isinstance(attributes, bytes) else b"\x02")
            if beside is not None:
                beside[present] = attributes
    digest.update(b"\x01")
    for path, raw in files.items():
        digest.update(path.encode("utf-8", "surrogateescape") + b"\x00")
        digest.update(raw if isinstance(raw, bytes) else repr(raw).encode("utf-8") + b"\x01")
        digest.update(b"\x00")
    return digest.hexdigest()[:40]


class RunCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder / "runs"
        self.usable = private_folder(self.folder)
        if self.usable:
            _sweep_temporaries(self.folder)

    def get(self, key: str) -> dict[str, Any] | None:
        """The record under ``key``, marked used: ``put`` keeps the entries used last, not those
        written last (the hook's base, HEAD, is read by every attempt at a commit and written by
        none of them)."""
        found = self.peek(key)
        if found is not None:
            with contextlib.suppress(OSError, NotImplementedError):
                os.utime(self.folder / f"{key}{ENTRY}", follow_symlinks=False)
        return found

    def peek(self, key: str) -> dict[str, Any] | None:
        """The record under ``key``, the folder left as it is (a reader that never writes it)."""
        if not self.usable:
            return None
        found: dict[str, Any] | None = fetch(self.folder / f"{key}{ENTRY}", dict[str, Any])
        if found is not None and found.get("code") == code_fingerprint():
            return found
        return None

    def put(self, key: str, value: dict[str, Any]) -> None:
        if not self.usable:
            return
        store(self.folder / f"{key}{ENTRY}", {**value, "code": code_fingerprint()})
        try:
            runs = sorted(
                (p for p in self.folder.iterdir() if p.name.endswith(ENTRY)),
                key=lambda p: p.lstat().st_mtime,  # a link is not followed, even to be dated
            )
        except OSError:
            return
        for old in runs[:-KEEP_RUNS]:
            remove_entry(old)


class ParseCache:
    """Parsed documents by content hash, one entry per document (``parse-<code>/<sha>.msgpack``),
    so a one-file change reads the others' entries and writes one. ``save`` stores the documents
    parsed in this run (with what the run memoised on them) and drops entries no file has now."""

    def __init__(self, folder: Path) -> None:
        self.parent = folder
        self.folder = folder / f"parse-{code_fingerprint()}"
        self.usable = private_folder(self.folder)
        if self.usable:
            _sweep_temporaries(self.folder)
        self.used: set[str] = set()
        self.parsed: dict[str, Document] = {}
        self.misses = 0
        # Each document read from an entry or written to one, with how many memos it had then
        # (``Document.derived``): one the run memoises more on is written again (:meth:`save_memos`).
        self.memos: dict[str, tuple[Document, int]] = {}

    @staticmethod
    def _name(path: str, raw: bytes) -> str:
        return hashlib.sha256(path.encode("utf-8", "surrogateescape") + b"\x00" + raw).hexdigest()

    def cached(self, path: str, raw: bytes) -> Document | None:
        """The parsed document, when this path with these bytes was parsed before; else None (a
        miss, to be parsed and given to :meth:`add`)."""
        name = self._name(path, raw)
        self.used.add(name)
        found: Document | None = (
            fetch(self.folder / f"{name}{ENTRY}", Document) if self.usable else None
        )
        # Of the memos a page keeps, the value sets are taken as they are by their reader
        # (``enumerations.prose_sets``); ``links.read_page`` and ``units.extract_digest`` check theirs.
        if (
            found is not None
            and found.path == path
            and checker(list[ProseSet] | None)(found.derived.get("prose_sets"))
        ):
            self.memos[name] = (found, len(found.derived))
            return found
        self.misses += 1
        return None

    def add(self, path: str, raw: bytes, document: Document) -> None:
        """A document parsed in this run, stored by :meth:`save`."""
        self.parsed[self._name(path, raw)] = document

    def save_soon(self) -> Callable[[], None]:
        """:meth:`save` in a forked process, so the rules run while the entries are written (a
        cold run's 12 MB of entries); the function returned waits for it. Where the platform
        cannot fork, that function saves in this process."""
        # Deferred: multiprocessing is imported only by a run that writes entries.
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:
            return self.save
        parent = os.getpid()
        self._written()

        def write() -> None:
            child_started(parent)
            self.save()

        process = context.Process(target=write, daemon=True)
        start_child(process)

        def wait() -> None:
            process.join(WRITER_WAIT)
            if process.exitcode is None:  # never a run held up by its cache: entries are atomic
                process.kill()
                process.join()

        return wait

    def _written(self) -> None:
        """Note the memos each document parsed in this run has as its entry is written."""
        self.memos.update((name, (d, len(d.derived))) for name, d in self.parsed.items())

    def save_memos(self) -> None:
        """Write again, once, the entry of each document on which the run memoised more after
        its entry was read (or written): a page parsed by a run whose rules read none of its value
        sets (``RuleInfo.reads_prose_sets``) is kept without them, and every later run that reads
        them would otherwise make them again, until the page changes. Called once the entries
        :meth:`save_soon` writes are written."""
        grown = {
            name: document
            for name, (document, count) in self.memos.items()
            if len(document.derived) > count
        }
        self.memos.update((name, (d, len(d.derived))) for name, d in grown.items())
        if self.usable:
            for name, document in sorted(grown.items()):
                store(self.folder / f"{name}{ENTRY}", _packed(document))

    def save(self) -> None:
        self._written()
        if not self.usable:
            return
        for name, document in self.parsed.items():
            store(self.folder / f"{name}{ENTRY}", _packed(document))
        try:
            present = list(self.folder.iterdir())
        except OSError:
            return
        for entry in present:
            if entry.name.endswith(ENTRY) and entry.name[: -len(ENTRY)] not in self.used:
                remove_entry(entry)
        with contextlib.suppress(OSError):
            for other in self.parent.iterdir():
                if other.name.startswith("parse-") and other != self.folder:
                    _remove_ours(other)  # another installation's entries


def _packed(document: Document) -> Document:
    """The document as its entry keeps it: the prose model packed apart, so a later run decodes
    it only if it reads it (``Document.prose``)."""

    model = document.model
    if model is None:
        return dataclasses.replace(document, kept={}) if document.kept else document
    try:
        packed = dumps(model)
    except StorageError:
        return dataclasses.replace(document, kept={})
    return dataclasses.replace(document, model=None, packed_model=packed, kept={})


# A rule-cache key starts with what its entry is a list of, and the run takes an entry as it is once
# it is that: a rule's findings, a unit rule's results as its ``check_unit`` declares them
# (``broken-link``'s are its own ``Problem``\s), or anything (the reference index's record, which
# ``ReferenceIndex.from_record`` checks item by item).
ANYTHING = "any"


def _holding(items: Any) -> str:
    return ANYTHING if items is Any else f"{items.__module__}:{items.__qualname__}"


def _held(key: str) -> Any:
    """The type of the entry under ``key``: a list of what the key starts with; None for a key
    that names no class an entry may hold."""
    name, _, _ = key.partition("/")
    if name == ANYTHING:
        return list[Any]
    try:
        return list[stored_class(name)]  # type: ignore[misc]
    except StorageError:
        return None


def _unit_results(info: RuleInfo) -> Any:
    """What a unit rule's ``check_unit`` says it returns (``list[Finding]``, or its own dataclass:
    ``broken-link``'s ``list[Problem]``), read from its annotations; findings when they say nothing
    that can be read."""
    try:
        declared = typing.get_type_hints(
            info.check_unit, localns={"Context": Context, "Document": Document}
        )
    except Exception:  # an annotation naming what the module does not import at run time
        return list[Finding]
    return declared.get("return", list[Finding])


def _build_digest(corpus: Context, info: RuleInfo | None) -> bytes:
    """What a rule reads of the repository's build commands, which no corpus document it is
    keyed on holds (a script, a Makefile, a CI workflow, a guide's shell fence): the merges they
    run (``merges``: ``speclint.analyses.api.merging``) for a rule that reads them, and the files
    they download or write (``speclint.analyses.repository.downloads``, behind ``provenance`` and
    ``derived``) for a rule that reads those. Keyed on what the commands make, not on their
    text: a CI edit that merges and downloads nothing keeps every rule's results. Each made
    once a run (every rule's key asks)."""
    facts = info.facts if info is not None else frozenset()
    digest = b""
    if "merges" in facts:
        digest += _memoised(corpus, "cache:merges-digest", _merges_digest)
    if facts & {"provenance", "derived"}:
        digest += _memoised(corpus, "cache:made-digest", _made_digest)
    if info is not None and info.reads_protos:
        # go.mod's module path and Bazel's import_prefix name the files some imports are
        digest += _memoised(corpus, "cache:proto-prefixes", _prefixes_digest)
    return digest


def _prefixes_digest(corpus: Context) -> bytes:
    shown = repr(sorted(import_prefixes(corpus).items()))
    return b"\x05" + hashlib.sha256(shown.encode("utf-8", "surrogateescape")).digest()


def _memoised(corpus: Context, name: str, make: Callable[[Context], bytes]) -> bytes:
    known: bytes | None = corpus.memo.get(name)
    if known is None:
        known = corpus.memo[name] = make(corpus)
    return known


def _merges_digest(corpus: Context) -> bytes:
    found = corpus.merges
    shown = repr(
        (sorted(found.by_document.items()), sorted(found.partial), sorted(found.built.items()))
    )
    return b"\x03" + hashlib.sha256(shown.encode("utf-8", "surrogateescape")).digest()


def _made_digest(corpus: Context) -> bytes:
    shown = repr(
        (
            downloads(corpus),
            build_outputs(corpus),
            build_inputs(corpus),
            bundled_outputs(corpus),
            program_writes(corpus),
            # unresolved-ref reads more of a writer's text than its writes (the folder it
            # copies: ``downloads.program_text_names``)
            [
                program_text(corpus, program)
                for program in sorted({writer for writer, _ in program_writes(corpus).values()})
            ],
        )
    )
    return b"\x04" + hashlib.sha256(shown.encode("utf-8", "surrogateescape")).digest()


def _listed(corpus: Context) -> bytes:
    """Every file of the listing, sorted, each followed by a NUL: what every rule's key holds
    of it, made once a run (the keys hash it whole, as they hashed each path in turn)."""
    known: bytes | None = corpus.memo.get("cache:listed")
    if known is None:
        known = corpus.memo["cache:listed"] = b"".join(
            present.encode("utf-8", "surrogateescape") + b"\x00" for present in sorted(corpus.tree)
        )
    return known


def _described(corpus: Context) -> list[tuple[Document, bytes, bytes]]:
    """Each document with what every key holds of it (its path, kind and dialect: a file's
    dialect may come of who ``$ref``\\s it, ``refine``) and its content's digest, as bytes,
    made once a run for every rule's key."""
    known: list[tuple[Document, bytes, bytes]] | None = corpus.memo.get("cache:described")
    if known is None:
        known = corpus.memo["cache:described"] = [
            (
                document,
                f"{document.path}\x00{document.kind.value}\x00{document.dialect}\x00".encode(),
                f"{document.digest}\x00".encode(),
            )
            for document in corpus.documents.values()
        ]
    return known


def _others_running(corpus: Context, info: RuleInfo | None) -> bytes:
    """Which of the rules a rule leaves a defect to run (``RuleInfo.leaves_to``; None: not a
    rule, the reference index): its findings differ with them, and the command line's
    ``--select``/``--ignore`` is not in the configuration the key holds."""
    leaves_to = info.leaves_to if info is not None else ()
    return ("\x00".join(r for r in leaves_to if corpus.runs(r)) + "\x01").encode()


class RuleCache:
    """Findings of rules that read only JSON/YAML documents (``READS = "structured"``), keyed by
    those documents' contents and the configuration: an edit to prose does not re-run them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = folder / f"rules-{code_fingerprint()}{ENTRY}"
        loaded = fetch(self.file, dict[str, list[Any]])
        self.entries: dict[str, list[Any]] = loaded if loaded is not None else {}
        self.used: dict[str, Any] = {}

    @staticmethod
    def key(
        corpus: Context,
        rule_id: str,
        info: RuleInfo | None = None,
        contents: frozenset[str] | None = None,
    ) -> str | None:
        """The key of a ``READS = "structured"`` rule's findings: every JSON/YAML document, the
        listing and every document's path and kind; for a ``READS = "extract"`` rule, also what
        it reads of each Markdown page (``speclint.analyses.units.extract_digest``); for a rule
        that reads merges, provenance or derived documents (its ``info.facts``; None: none, as
        the reference index), what the build commands make (``_build_digest``). ``contents``:
        the JSON/YAML documents whose content the result is made of, when not all of them (the
        reference index: ``references.indexed``); of each other one, the key holds whether it
        parsed (``usable``) beside its path, kind and dialect."""

        documents = [d for d in corpus.documents.values() if d.kind is not DocumentKind.MARKDOWN]
        if any(not d.digest for d in documents):
            return None  # an in-memory corpus: nothing to key on
        digest = hashlib.sha256()
        digest.update(f"{code_fingerprint()}\x00{rule_id}\x00{corpus.config!r}\x00".encode())
        digest.update(_others_running(corpus, info))
        digest.update(_listed(corpus))
        digest.update(_build_digest(corpus, info))
        digest.update(b"\x01")
        parts: list[bytes] = []
        for document, head, content in _described(corpus):
            parts.append(head)
            if document.kind is not DocumentKind.MARKDOWN:
                if contents is None or document.path in contents:
                    parts.append(content)
                else:
                    parts.append(f"\x02{document.usable}\x00".encode())
            elif info is not None and info.extract is not None and document.usable:
                parts.append(f"{extract_digest(document, rule_id, info.extract)}\x00".encode())
        digest.update(b"".join(parts))
        # A name in parentheses is not a rule's (``runner.REFERENCES``, the reference index).
        items = Any if rule_id.startswith("(") else Finding
        return f"{_holding(items)}/{digest.hexdigest()}"

    @staticmethod
    def unit_keys(corpus: Context, rule_id: str, info: RuleInfo) -> dict[str, str] | None:
        """The key of each unit of a ``READS = "page"`` or ``"document"`` rule
        (``speclint.analyses.units``): what every unit of that kind may read, then the unit's
        document and the other documents it reads. None for an in-memory corpus."""

        if info.units is None or any(not d.digest for d in corpus.documents.values()):
            return None
        shared = hashlib.sha256()
        shared.update(f"{code_fingerprint()}\x00{rule_id}\x00{info.reads}\x00".encode())
        shared.update(f"{corpus.config!r}\x00".encode("utf-8", "surrogateescape"))
        shared.update(_others_running(corpus, info))
        shared.update(_listed(corpus))
        shared.update(_build_digest(corpus, info))
        shared.update(b"\x01")
        # A page's unit reads every JSON/YAML document (or what its `shared` says it reads of
        # them); a document's, those it reaches.
        every = info.reads == "page" and info.shared is None
        shared.update(
            b"".join(
                head + content if every and document.kind is not DocumentKind.MARKDOWN else head
                for document, head, content in _described(corpus)
            )
        )
        if info.shared is not None:
            shown = repr(info.shared(corpus)).encode("utf-8", "surrogateescape")
            shared.update(b"\x02" + hashlib.sha256(shown).digest())
        keys: dict[str, str] = {}
        [items] = typing.get_args(_unit_results(info)) or (Finding,)
        holds = _holding(items)
        for unit in info.units(corpus):
            inputs: set[str] = set()
            if info.unit_reach is not None:
                inputs.update(info.unit_reach(corpus, unit))
            elif info.reads == "document":
                inputs.update(reach(corpus, unit.path))
            if info.unit_inputs is not None:
                inputs.update(info.unit_inputs(corpus, unit))
            inputs.discard(unit.path)
            digest = shared.copy()
            for path in [unit.path, *sorted(inputs)]:
                other = corpus.documents.get(path)
                digest.update(f"{path}\x00{other.digest if other else '-'}\x00".encode())
            keys[unit.path] = f"{holds}/{digest.hexdigest()}"
        return keys

    def get(self, key: str) -> Any:
        found = self.entries.get(key)
        holds = _held(key)
        if found is None or holds is None or not checker(holds)(found):
            return None
        self.used[key] = found
        return found

    def put(self, key: str, findings: Any) -> None:
        self.used[key] = findings

    def save(self) -> None:
        if set(self.used) != set(self.entries):
            store(self.file, self.used)
            with contextlib.suppress(OSError):
                for other in self.folder.iterdir():
                    if other.name.startswith("rules-") and other != self.file:
                        remove_entry(other)

    def durations(self) -> dict[str, float]:
        """Seconds each rule took last time (the runner starts the slowest first)."""
        found = fetch(self.folder / f"durations{ENTRY}", dict[str, float])
        if found is None:
            return {}
        return {
            str(k): float(v) for k, v in found.items() if isinstance(v, (int, float)) and v >= 0
        }

    def record_durations(self, durations: dict[str, float]) -> None:
        store(self.folder / f"durations{ENTRY}", durations)
