"""Which schema checks an instance: the corpus document (and fragment) a data file names as its
schema, or why none can check it. It is the ``instances`` fact (``speclint.analyses.context``):
built once a run, before the rules that read it fork (``speclint.run.runner.prime``).

An instance names its schema by a ``$schema`` member, a YAML language server modeline, or the
configuration's ``[instances]`` table (``speclint.parsing.kinds``; ``instance-invalid``'s
documentation says how the name is looked up). ``instance-invalid`` validates an instance against
the schema found and turns each reason none is found into its finding or "not checked" note;
``duplicate-item`` walks the instances whose schema is found and leaves the others to it.
"""

from __future__ import annotations

import enum
import posixpath
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit

from speclint.analyses.schemas.references import ReferenceIndex, held_at_raw_url, map_remote
from speclint.model.corpus import Corpus, Document
from speclint.parsing.kinds import INSTALLED_FOLDER_NAMES, DocumentKind
from speclint.parsing.tree import skipped_folders


@dataclass(frozen=True)
class Schema:
    """The schema that checks an instance: a usable corpus document, and the fragment named."""

    document: Document
    fragment: str


class Unchecked(enum.Enum):
    """Why no schema of the corpus can check an instance."""

    UNREADABLE = "unreadable"  # the schema is a corpus file that could not be read
    NOT_LOADED = "not-loaded"  # a raw URL of a file the repository holds but speclint does not load
    REMOTE = "remote"  # a URL the corpus does not hold (never fetched)
    INSTALLED = "installed"  # a file in a folder a package manager fills
    MISSING = "missing"  # a path that names no corpus file (a broken reference)


@dataclass(frozen=True)
class NotChecked:
    """An instance no schema of the corpus checks, and why."""

    why: Unchecked
    named: str  # the schema as the instance names it
    path: str | None = None  # the file it names, when it names one inside the root
    folder: str = ""  # INSTALLED: the installed folder the file lies in


Target = Schema | NotChecked


def instances(corpus: Corpus) -> list[Document]:
    """Each instance that names its schema."""
    return [d for d in corpus.of_kind(DocumentKind.INSTANCE) if d.schema is not None]


@dataclass
class InstanceSchemas:
    """Each instance's :data:`Target`, by the instance's path."""

    targets: dict[str, Target] = field(default_factory=dict)

    @classmethod
    def build(cls, corpus: Corpus, references: ReferenceIndex) -> InstanceSchemas:
        lookup = _Lookup(corpus, references)
        return cls({d.path: lookup.target(d) for d in instances(corpus)})

    def of(self, document: Document) -> Target:
        return self.targets[document.path]


@dataclass
class _Lookup:
    corpus: Corpus
    references: ReferenceIndex
    skipped: list[str] | None = None  # walked once, and only for a schema not in the corpus

    def target(self, document: Document) -> Target:
        corpus = self.corpus
        named = str(document.schema)
        reference, fragment = urldefrag(named)
        configured = "[instances]" in document.reason
        absolute = bool(urlsplit(reference).scheme)  # a URL, not a path
        path: str | None = None
        if absolute:
            mapped = map_remote(corpus.config.ref_map, named)
            uri = mapped if mapped is not None else reference
            path = self.references.path_for(uri)
            if mapped is not None and path is None:
                path = self.references.missing_path(mapped)
        else:
            folder = "" if configured else posixpath.dirname(document.path)
            joined = posixpath.normpath(posixpath.join(folder, reference))
            path = None if joined.startswith("../") or joined == ".." else joined
            from_root = posixpath.normpath(reference)
            if (
                folder
                and (path is None or path not in corpus.documents)
                and from_root in corpus.documents
                and "modeline" not in document.reason
            ):
                # A `$schema` member that only the repository root resolves
                # (`./json_schemas/x.yaml` in `spec/`): the repository's own tooling reads it
                # from where it runs, so that schema is meant. Not a modeline: the YAML language
                # server reads it from the file's folder, and an editor would not find the schema.
                path = from_root
        if path is None and absolute:
            # A GitHub raw URL of a file this repository holds (`.../master/schemas/x.json`):
            # the repository's own schema, judged as this revision has it (never fetched).
            path = held_at_raw_url(corpus.documents, reference)
        schema_document = corpus.documents.get(path) if path else None
        if schema_document is not None and schema_document.usable:
            return Schema(schema_document, fragment)
        if schema_document is not None:
            return NotChecked(Unchecked.UNREADABLE, named, schema_document.path)
        remote = absolute and path is None
        held = held_at_raw_url(corpus.tree, reference) if remote else None
        if held is not None:
            # The repository holds it, in a folder discovery leaves out (a test fixture folder).
            return NotChecked(Unchecked.NOT_LOADED, named, held)
        if remote:
            return NotChecked(Unchecked.REMOTE, named)
        installed = self._installed(path) if path else None
        if installed is not None:
            return NotChecked(Unchecked.INSTALLED, named, path, installed)
        return NotChecked(Unchecked.MISSING, named, path)

    def _installed(self, path: str) -> str | None:
        """The folder of installed software that ``path`` lies in: one named as only installers
        name theirs (``node_modules``, ``site-packages``: ``kinds.INSTALLED_FOLDER_NAMES``),
        there or not (never committed), or one discovery leaves out for its installer's marker
        (Go's ``vendor/`` with ``modules.txt``: ``kinds.installed_folder``); None for any
        other."""
        parts = path.split("/")
        for index, part in enumerate(parts[:-1]):
            if part in INSTALLED_FOLDER_NAMES:
                return "/".join(parts[: index + 1])
        if self.skipped is None:
            self.skipped = [folder for folder, _ in skipped_folders(self.corpus.root)]
        return next((f.rstrip("/") for f in self.skipped if path.startswith(f)), None)
