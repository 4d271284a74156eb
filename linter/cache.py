"""Content-hash caches in ``<corpus>/.speclint-cache/``, so a pre-commit run that changed nothing
costs a hash of each file.

Two levels:

- the **run cache** keeps a whole run's result (findings, waived findings, the rules that ran) under
  a key that hashes everything the result depends on: speclint's version, the configuration
  (its file and the profile it names), every discovered file's path and content, the rules
  selected, and today's date (waivers expire). The same key gives byte-identical reports, because
  reports are a pure function of the result and the files;
- the **parse cache** keeps each file's parsed document (data, positions, prose model) under the
  hash of its bytes, so after a change only the changed files are parsed again.

Entries are pickles written by this version of speclint, in a folder the user owns (add
``.speclint-cache/`` to ``.gitignore``); a corrupt or foreign entry is ignored and rewritten. At
most ``KEEP_RUNS`` run results are kept. ``--no-cache`` (or ``SPECLINT_NO_CACHE=1``) bypasses both.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import hashlib
import os
import pickle
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__

if TYPE_CHECKING:
    from .config import Config
    from .corpus import Corpus, Document, LoadProblem

FOLDER = ".speclint-cache"
KEEP_RUNS = 8


@functools.cache
def code_fingerprint() -> str:
    """This installation of speclint: its version and every file of its packages (path, size,
    modification time). Caches are keyed on it, so an upgrade, or an edit to speclint itself
    within one version (an editable install), never meets results or pickles of other code."""
    from . import rules as rule_package

    digest = hashlib.sha256(__version__.encode())
    folders = {Path(__file__).resolve().parent, Path(rule_package.__file__).resolve().parent}
    for folder in sorted(folders):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                digest.update(f"{path.name}\x00{stat.st_size}\x00{stat.st_mtime_ns}\x00".encode())
    return digest.hexdigest()[:16]


def enabled() -> bool:
    return os.environ.get("SPECLINT_NO_CACHE", "") in ("", "0")


def _store(target: Path, value: Any) -> None:
    """Write atomically: a concurrent run reads the old entry or the new one, never half."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        ignore = target.parent / ".gitignore"
        if not ignore.exists():
            ignore.write_text("*\n", encoding="utf-8")  # never committed by accident
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        with os.fdopen(handle, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, target)
    except OSError:
        pass  # a read-only checkout: run without a cache


def _prune(keep: Path, prefix: str) -> None:
    """Remove the entries of other speclint installations (``prefix-<fingerprint>.pickle``)."""
    for other in keep.parent.glob(f"{prefix}-*.pickle"):
        if other != keep:
            with contextlib.suppress(OSError):
                other.unlink()


def _fetch(source: Path) -> Any:
    try:
        with open(source, "rb") as handle:
            return pickle.load(handle)
    except Exception:  # missing, truncated, or from another version: a miss
        return None


def run_key(
    root: Path,
    config: Config,
    files: dict[str, bytes | LoadProblem],
    rules: Iterable[str],
) -> str:
    digest = hashlib.sha256()
    for part in (
        code_fingerprint(),
        str(root.resolve()),
        repr(sorted(rules)),
        os.environ.get("SPECLINT_TODAY") or datetime.date.today().isoformat(),
        repr(config),  # a plain dataclass of strings, tuples and mappings: its repr is exact
    ):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\x00")
    # Which files exist at all, linted or not: rfc-affects asks whether a path an RFC names exists.
    from .corpus import walk

    resolved = root.resolve()
    for present in walk(resolved):
        digest.update(present.relative_to(resolved).as_posix().encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    for path, raw in files.items():
        digest.update(path.encode("utf-8", "surrogatepass") + b"\x00")
        digest.update(raw if isinstance(raw, bytes) else repr(raw).encode("utf-8") + b"\x01")
        digest.update(b"\x00")
    return digest.hexdigest()[:40]


class RunCache:
    def __init__(self, root: Path) -> None:
        self.folder = root / FOLDER

    def get(self, key: str) -> Any:
        found = _fetch(self.folder / f"run-{key}.pickle")
        if isinstance(found, tuple) and len(found) == 2 and found[0] == code_fingerprint():
            return found[1]
        return None

    def put(self, key: str, value: Any) -> None:
        _store(self.folder / f"run-{key}.pickle", (code_fingerprint(), value))
        try:
            runs = sorted(self.folder.glob("run-*.pickle"), key=lambda p: p.stat().st_mtime)
        except OSError:
            return
        for old in runs[:-KEEP_RUNS]:
            with contextlib.suppress(OSError):
                old.unlink()


class ParseCache:
    """Parsed documents by content hash, one pickle per document (``parse-<code>/<sha>.pickle``),
    so a one-file change reads the others' pickles and writes one. ``save`` stores the documents
    parsed in this run (with what the run memoised on them) and drops entries no file has now."""

    def __init__(self, root: Path) -> None:
        self.folder = root / FOLDER / f"parse-{code_fingerprint()}"
        self.used: set[str] = set()
        self.parsed: dict[str, Document] = {}
        self.misses = 0

    def document(self, path: str, raw: bytes) -> Document:
        from .corpus import Document, parse_document

        name = hashlib.sha256(path.encode("utf-8", "surrogatepass") + b"\x00" + raw).hexdigest()
        self.used.add(name)
        found = _fetch(self.folder / f"{name}.pickle")
        if isinstance(found, Document) and found.path == path:
            return found
        self.misses += 1
        document = parse_document(path, raw)
        self.parsed[name] = document
        return document

    def save(self) -> None:
        for name, document in self.parsed.items():
            _store(self.folder / f"{name}.pickle", document)
        try:
            present = list(self.folder.glob("*.pickle"))
        except OSError:
            return
        for entry in present:
            if entry.stem not in self.used:
                with contextlib.suppress(OSError):
                    entry.unlink()
        for other in self.folder.parent.glob("parse-*"):
            if other != self.folder and other.is_dir():
                shutil.rmtree(other, ignore_errors=True)  # another installation's entries


class RuleCache:
    """Findings of rules that read only JSON/YAML documents (``READS = "structured"``), keyed by
    those documents' contents and the configuration: an edit to prose does not re-run them."""

    def __init__(self, root: Path) -> None:
        self.file = root / FOLDER / f"rules-{code_fingerprint()}.pickle"
        loaded = _fetch(self.file)
        self.entries: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
        self.used: dict[str, Any] = {}

    @staticmethod
    def key(corpus: Corpus, rule_id: str) -> str | None:
        from .corpus import DocumentKind

        documents = [d for d in corpus.documents.values() if d.kind is not DocumentKind.MARKDOWN]
        if any(not d.digest for d in documents):
            return None  # an in-memory corpus: nothing to key on
        digest = hashlib.sha256()
        digest.update(f"{code_fingerprint()}\x00{rule_id}\x00{corpus.config!r}\x00".encode())
        for document in documents:
            digest.update(f"{document.path}\x00{document.digest}\x00".encode())
        return digest.hexdigest()

    def get(self, key: str) -> Any:
        found = self.entries.get(key)
        if found is not None:
            self.used[key] = found
        return found

    def put(self, key: str, findings: Any) -> None:
        self.used[key] = findings

    def save(self) -> None:
        if set(self.used) != set(self.entries):
            _store(self.file, self.used)
            _prune(self.file, "rules")

    def durations(self) -> dict[str, float]:
        """Seconds each rule took last time (the runner starts the slowest first)."""
        found = _fetch(self.file.parent / "durations.pickle")
        return dict(found) if isinstance(found, dict) else {}

    def record_durations(self, durations: dict[str, float]) -> None:
        _store(self.file.parent / "durations.pickle", durations)
