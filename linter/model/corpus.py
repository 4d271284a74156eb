"""The corpus model: every file of a spec repository, parsed once, with positions.

``Corpus.load(root)`` discovers files by the configured globs, reads each one (never a file outside
the root, never a binary file as text), and parses it by kind: JSON and YAML into data with a line
and column for every JSON pointer, Markdown into the prose model. A file that cannot be read or
parsed stays in the corpus with its ``problem`` set, so the rest of the corpus is still checked and
the ``parse-error`` rule reports it.

The corpus is plain data: documents, the configuration, the file listing, each file's version
line. What is computed across files (the reference index, roles, derived bundles) is the analysis
layer's (``speclint.analyses.context.Context``: a corpus with those facts); this module imports
nothing above parsing (issue 27).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache, partial
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar, cast

from speclint.common.findings import Location
from speclint.common.lines import Lines
from speclint.common.parallel import default_jobs, forked_map
from speclint.common.progress import current
from speclint.common.storage import StorageError, checker, loads
from speclint.model.config import Config
from speclint.parsing.gitbase import GitIgnored, ignored
from speclint.parsing.kinds import (
    ATTRIBUTES_FILE,
    GENERATOR_MANIFEST,
    SWAGGER_CODEGEN_MARK,
    AttributeRule,
    DocumentKind,
    at_example,
    classify,
    contradicts_schema,
    generated_header,
    generator_outputs,
    generator_page,
    gitattributes_rules,
    glob_body,
    in_sample_folder,
    kind_for_path,
    linguist_generated,
)
from speclint.parsing.links import DERIVED_KEY, page_of
from speclint.parsing.mdx import is_mdx
from speclint.parsing.prose import ListItem, Paragraph, ProseDocument, parse_markdown_with_tokens
from speclint.parsing.protobuf import syntax_of
from speclint.parsing.reading import (
    MAX_FILE_BYTES,
    LoadProblem,
    lone_returns_as_newlines,
    read_raw,
    shown_path,
)
from speclint.parsing.structured import (
    DuplicateKey,
    Parsed,
    ParseFailure,
    Position,
    escape_token,
    fast_json,
    parse_json,
    parse_yaml,
    strip_jsonc,
    without_front_matter,
)
from speclint.parsing.templates import (
    has_marks,
    template_data,
    template_folder,
    template_name,
    template_text,
)
from speclint.parsing.tree import listing, skipped_folders
from speclint.parsing.versions import VersionLines, version_lines

PARSING = "parsing, kB"  # the progress phase, counted in kilobytes
BIG_FILE = 256 * 1024  # bytes: a file this big reports progress while it is parsed
# Why a vendored file is in ``Corpus.generated``: kept from elsewhere (GitHub Linguist's
# ``linguist-vendored``), fixed where it comes from, so nothing in it is judged (issue 26).
VENDORED = ".gitattributes: linguist-vendored"


T = TypeVar("T")


@dataclass
class Document:
    path: str  # POSIX, relative to the corpus root
    kind: DocumentKind
    text: str | None = None
    data: Any = None
    positions: dict[str, Position] = field(default_factory=dict)
    duplicates: list[DuplicateKey] = field(default_factory=list)
    # YAML mapping members whose key is no string (``structured.Parsed.non_string_keys``)
    non_string_keys: list[str] = field(default_factory=list)
    # YAML values continued on lines indented too little (``structured.Parsed.deficient_indents``)
    deficient_indents: list[tuple[str, int, int, int]] = field(default_factory=list)
    model: ProseDocument | None = None  # a Markdown page's prose model: read it as ``prose``
    problem: LoadProblem | None = None
    digest: str = ""  # sha256 of the file's bytes, when read from disk (the caches' key)
    # "json" / "jsonc": ``positions`` are found from the text when first asked for
    # (``structured.fast_json``: read by the C decoder, positions left for a finding that needs one).
    positions_from: str = ""
    # What discovery made of it (``speclint.parsing.kinds``): the dialect or API version, why, and
    # for an instance the schema it names (as written).
    dialect: str = ""
    reason: str = ""
    schema: str | None = None
    # Committed empty (nothing but whitespace): no document to read, and none that is broken;
    # coverage says it was not read (``speclint.run.coverage``: "empty").
    empty: bool = False
    # Pure functions of this document's content, memoised (``enumerations.prose_sets``); they
    # travel with the document in the parse cache, so an unchanged page is not read again.
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # The prose model as the parse cache keeps it (``speclint.common.storage`` bytes), decoded when
    # first read: a run re-checking one page never decodes the other pages' models.
    packed_model: bytes | None = field(default=None, repr=False, compare=False)
    # Pure functions of this document's path and content that a run computes for every document
    # and that are cheap to redo but not free (its waivers, its file `$ref`s): memoised here in
    # memory only (see :meth:`remember`). The parse cache does not store them; a resident checker
    # (``speclint.run.resident``), which keeps the document itself, keeps them with it.
    kept: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def usable(self) -> bool:
        return self.problem is None

    @property
    def prose(self) -> ProseDocument | None:
        if self.model is None and self.packed_model is not None:
            packed, self.packed_model = self.packed_model, None
            try:
                model = loads(packed)
            except StorageError:
                model = None
            if not isinstance(model, ProseDocument) and self.text is not None:
                # A damaged entry is a miss, never a page without prose: parse it again.
                model = parse_markdown_with_tokens(self.text, mdx=is_mdx(self.path))[0]
            elif isinstance(model, ProseDocument) and not _slices(model, self.text):
                # Offsets into another text, or out of it (a damaged or forged entry): never
                # sliced wrongly, parsed again.
                model = parse_markdown_with_tokens(self.text or "", mdx=is_mdx(self.path))[0]
            elif isinstance(model, ProseDocument) and model.page is not None:
                object.__setattr__(model.page, "text", self.text)  # one copy in memory, not two
            self.model = model if isinstance(model, ProseDocument) else None
        return self.model

    def remember(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, computed once per document: ``make`` must be a pure function of the
        document's path and content (never of the corpus around it)."""
        if name not in self.kept:
            self.kept[name] = make()
        return cast(T, self.kept[name])

    @cached_property
    def lines(self) -> Lines:
        """The text's lines (split on ``\n``), indexed once: rules that look around a position
        (the comment above a schema) would otherwise split a 20 MB document at every look. Each
        line is made when read (``speclint.common.lines``): a list of them would be a second copy
        of every page in memory."""
        return Lines(self.text)

    def position(self, pointer: str) -> Position:
        """The closest recorded position: the pointer itself or its nearest ancestor."""
        if self.positions_from and not self.positions:
            self.positions = _positions_of(self.text or "", self.positions_from)
        probe = pointer
        while True:
            found = self.positions.get(probe)
            if found is not None:
                return found
            if not probe:
                return (1, 1)
            probe = probe.rsplit("/", 1)[0]

    def location(self, pointer: str = "", note: str | None = None) -> Location:
        line, column = self.position(pointer)
        return Location(self.path, line, column, pointer=pointer, note=note)


class FileReader(Protocol):
    """Where a corpus reads the files beside its documents (a ``.gitattributes``, a build
    script, a Sphinx ``conf.py``, an HTML page): the disk at its root when it has none (as
    :func:`read_raw` reads it), or a git revision's objects (``gitbase.RevisionFiles``: a base
    revision read without a checkout). Every reader of ``Corpus.root`` goes through it
    (:meth:`Corpus.read_file`), so a corpus never reads another revision's files."""

    def read(
        self, path: str, limit: int = MAX_FILE_BYTES, *, head: bool = False
    ) -> bytes | LoadProblem: ...


def kept(document: Document, name: str, make: Callable[[Document], T], hint: Any) -> T:
    """``make(document)``, kept in ``document.derived`` under ``name``: the parse cache stores it
    with the page, so a later run reads it without decoding the page's prose. A value read back
    is taken only when it is of type ``hint`` (``speclint.common.storage.checker``); else it is
    made again."""
    memo = document.derived.get(name)
    if memo is None or not _accepts(hint)(memo):
        memo = document.derived[name] = make(document)
    return cast(T, memo)


@cache
def _accepts(hint: Any) -> Callable[[Any], bool]:
    return checker(hint)


GENERATED_KEY = "generated-mark"


def generated_mark(document: Document) -> str:
    """Why the document says a tool wrote it (``kinds.generated_header``; of a Markdown page,
    also ``kinds.generator_page``), or "": kept with the document (the run makes it as the
    document is parsed), so ``Corpus.generated`` does not search every file's text on every
    run (0.1 s of a one-page edit of the MCP repository's 717 documents)."""
    return kept(document, GENERATED_KEY, _generated_mark, str)


def _generated_mark(document: Document) -> str:
    text = document.text or ""
    found = generated_header(text)
    if found is None and document.kind is DocumentKind.MARKDOWN:
        found = generator_page(text)
    return found or ""


class DocumentCache(Protocol):
    """Where unchanged files' documents come from (``speclint.run.cache.ParseCache``): the
    model says what it needs of a cache, the run provides one."""

    def cached(self, path: str, raw: bytes) -> Document | None: ...

    def add(self, path: str, raw: bytes, document: Document) -> None: ...


@dataclass
class Corpus:
    root: Path
    config: Config
    documents: dict[str, Document]
    # Every file under the root, linted or not (as ``shown_path`` writes them): what rules ask
    # about the repository's files (``rfc-affects``) is answered from this list, never the disk,
    # so it stays inside the root and inside the run cache's key.
    tree: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    # Indexes that modules above build once per run from this corpus (``fences.definition_index``):
    # kept here by name, as opaque data, so the corpus model need not import them.
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # What git ignores under the root, as discovery asked it (``gitbase.ignored``): kept so that
    # what else reads the listing by discovery's filters (``speclint.run.coverage``: the pages
    # of a markup speclint does not read) does not run git again. None: not asked (a corpus
    # built in memory); a reader then asks git.
    git_ignored: GitIgnored | None = field(default=None, repr=False, compare=False)
    # Where the files beside the documents are read (:meth:`read_file`); None: the disk at the
    # root. A base revision read from git's objects has no folder on the disk.
    reader: FileReader | None = field(default=None, repr=False, compare=False)
    # The folders the walk did not enter, and why (``tree.skipped_folders``), when the listing
    # was not walked on the disk (a revision's, ``tree.revision_listing``); None: walk the root.
    skipped: tuple[tuple[str, str], ...] | None = field(default=None, repr=False, compare=False)

    def read_file(
        self, path: str, limit: int = MAX_FILE_BYTES, *, head: bool = False
    ) -> bytes | LoadProblem:
        """A file of the corpus folder (``path`` root-relative) as this corpus reads it: through
        its ``reader``, else from the disk (``read_raw``: never out of the root). Read as text,
        never run."""
        if self.reader is not None:
            return self.reader.read(path, limit, head=head)
        return read_raw(self.root, path, limit, head=head)

    def folders_skipped(self) -> list[tuple[str, str]]:
        """The folders discovery does not enter, and why (``tree.skipped_folders``)."""
        return list(self.skipped) if self.skipped is not None else skipped_folders(self.root)

    @classmethod
    def load(
        cls, root: Path, config: Config | None = None, cache: DocumentCache | None = None
    ) -> Self:
        config = config or Config()
        root = root.resolve()
        tree = listing(root)
        hidden = ignored(root)
        files = snapshot(root, config, tree, git_ignored=hidden)
        return cls.from_snapshot(root, config, files, cache, tree, git_ignored=hidden)

    @classmethod
    def from_snapshot(
        cls,
        root: Path,
        config: Config,
        files: dict[str, bytes | LoadProblem],
        cache: DocumentCache | None = None,
        tree: list[str] | None = None,
        prepare: Callable[[Document], None] | None = None,
        git_ignored: GitIgnored | None = None,
        reader: FileReader | None = None,
        skipped: tuple[tuple[str, str], ...] | None = None,
    ) -> Self:
        """The corpus from files already read (see ``snapshot``); unchanged files come from the
        parse cache when one is given. ``tree`` is the root's file listing (``listing``).
        ``prepare`` is called on each document parsed here, in the process that parses it: what
        the run memoises on a page (its value sets), made on every core and kept with the page
        in the parse cache. ``git_ignored``: what git ignores, as the snapshot's discovery was
        told (``Corpus.git_ignored``). ``reader`` and ``skipped``: where the files beside the
        documents are read, and the folders the listing skipped, when not on the disk at
        ``root`` (``Corpus.reader``, ``Corpus.skipped``)."""

        # Progress in kilobytes, not files: one 20 MB document is most of the work, and its bar
        # moves as ruamel reads it (issue 13, item 9).
        sink = current()
        total = sum(len(raw) for raw in files.values() if isinstance(raw, bytes)) // 1024 + 1
        done = 0

        def reading(before: int) -> Callable[[int], None] | None:
            if sink is None:
                return None
            return lambda characters: sink(
                PARSING, min(total - 1, before + characters // 1024), total
            )

        documents: dict[str, Document] = {}
        pending: list[tuple[str, bytes]] = []  # not in the parse cache: parsed below
        for path, raw in files.items():
            if isinstance(raw, LoadProblem):
                documents[path] = Document(
                    path, kind_for_path(path) or DocumentKind.DATA, problem=raw
                )
                documents[path].digest = hashlib.sha256(repr(raw).encode()).hexdigest()
                continue
            found = cache.cached(path, raw) if cache is not None else None
            if found is None:
                pending.append((path, raw))
            else:
                documents[path] = found
                done += len(raw)

        drawing = os.getpid()  # a forked parser does not draw over this process's bar

        def parse(item: tuple[str, bytes]) -> Document:
            nonlocal done
            path, raw = item
            mine = sink is not None and os.getpid() == drawing
            if sink is not None and mine:
                sink(PARSING, done // 1024, total)
            progress = reading(done // 1024) if len(raw) >= BIG_FILE and mine else None
            parsed = parse_document(path, raw, progress)
            if prepare is not None:
                prepare(parsed)
            done += len(raw)
            return parsed

        # A cold corpus is parsed on every core (``speclint.common.parallel``); the result is the
        # same.
        weights = [parse_cost(path, raw) for path, raw in pending]
        for (path, raw), document in zip(
            pending, forked_map(parse, pending, weights, default_jobs()), strict=True
        ):
            documents[path] = document
            if cache is not None:
                cache.add(path, raw, document)
        documents = {path: documents[path] for path in files}  # the listing's order, as before
        for path, raw in files.items():
            if isinstance(raw, bytes):
                documents[path].digest = hashlib.sha256(raw).hexdigest()
        if sink is not None:
            sink(PARSING, total, total)
        shown = frozenset(shown_path(p) for p in tree) if tree is not None else frozenset(files)
        set_templates_apart(documents, shown)
        refine(documents, config)
        return cls(
            root.resolve(),
            config,
            dict(sorted(documents.items())),
            tree=shown,
            git_ignored=git_ignored,
            reader=reader,
            skipped=skipped,
        )

    @classmethod
    def from_texts(cls, files: dict[str, str], config: Config | None = None) -> Self:
        """A corpus built in memory (tests, and the single-file API): path -> text."""
        documents = {path: parse_document(path, text) for path, text in sorted(files.items())}
        set_templates_apart(documents, frozenset(files))
        return cls(
            Path("/nonexistent-corpus-root"), config or Config(), documents, tree=frozenset(files)
        )

    def of_kind(self, *kinds: DocumentKind) -> Iterator[Document]:
        for document in self.documents.values():
            if document.kind in kinds and document.usable:
                yield document

    def config_path(self) -> str:
        """The configuration file as reports name files: relative to the root when inside it."""
        source = self.config.source or "speclint.toml"
        try:
            return Path(source).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return source

    def sources(self) -> dict[str, str]:
        return {path: doc.text for path, doc in self.documents.items() if doc.text is not None}

    @cached_property
    def versions(self) -> VersionLines:
        """Each file's version, from its path (``speclint.parsing.versions``)."""
        return version_lines(self.documents, self.config.versions)

    @cached_property
    def submodules(self) -> frozenset[str]:
        """The folders ``.gitmodules`` (at the root) names as git submodules that hold no file
        here: another repository's content, not checked out, so not checked (issue 45, item
        7). Read as text (:meth:`read_file`), never run."""
        if ".gitmodules" not in self.tree:
            return frozenset()
        raw = self.read_file(".gitmodules")
        if not isinstance(raw, bytes):
            return frozenset()
        named = re.findall(r"^\s*path\s*=\s*(.+?)\s*$", raw.decode("utf-8", "replace"), re.M)
        folders = {name.strip().strip("/") for name in named if name.strip().strip("/")}
        present = set(self.tree) | set(self.documents)
        return frozenset(
            folder for folder in folders if not any(p.startswith(folder + "/") for p in present)
        )

    @cached_property
    def generated(self) -> dict[str, str]:
        """The documents a tool writes (issue 26): path -> why (a ``Code generated ... DO NOT
        EDIT.`` header, ``linguist-generated`` in a ``.gitattributes``), and those kept from
        elsewhere (``linguist-vendored``: ``VENDORED``). The ``.gitattributes``
        files are read as text (:meth:`read_file`: never out of the root), never run."""
        rules: list[AttributeRule] = []
        files = [p for p in self.tree if p.rpartition("/")[2] == ATTRIBUTES_FILE]
        for path in sorted(files, key=lambda p: (p.count("/"), p)):
            raw = self.read_file(path)
            if isinstance(raw, bytes):
                text = raw.decode("utf-8", "replace")
                rules += gitattributes_rules(path.rpartition("/")[0], text)
        # An API client generator's output folder (issue 45, item 3): what its manifest lists,
        # or all of swagger-codegen's folder (it lists nothing).
        outputs: dict[str, str] = {}
        codegen_folders: list[tuple[str, str]] = []
        for path in sorted(self.tree):
            if path == GENERATOR_MANIFEST or path.endswith("/" + GENERATOR_MANIFEST):
                raw = self.read_file(path)
                if isinstance(raw, bytes):
                    outputs.update(generator_outputs(path, raw.decode("utf-8", "replace")))
            elif path == SWAGGER_CODEGEN_MARK or path.endswith("/" + SWAGGER_CODEGEN_MARK):
                folder = path[: -len(SWAGGER_CODEGEN_MARK)]
                codegen_folders.append((folder, f"in swagger-codegen's output folder ({path})"))
        found: dict[str, str] = {}
        for path, document in self.documents.items():
            header = (generated_mark(document) or None) if document.text is not None else None
            if header is None:
                header = outputs.get(path) or next(
                    (why for folder, why in codegen_folders if path.startswith(folder)), None
                )
            if header is not None:
                found[path] = header
            elif rules and linguist_generated(path, rules):
                found[path] = ".gitattributes: linguist-generated"
            elif rules and linguist_generated(path, rules, "linguist-vendored"):
                found[path] = VENDORED
        return found


# --- discovery ----------------------------------------------------------------------------------

# Where in an API document a `$ref` names a schema (OpenAPI 3.x Schema Objects, Swagger 2.0 and
# AsyncAPI payloads): a `$ref` elsewhere names a path item, a parameter, a message... Matched on
# escaped pointers, so a route's own `/items` (`/paths/~1orders~1{id}~1items`) is no place. An
# OpenAPI `headers` map holds Header Objects (3.1.1 §4.8.21), an AsyncAPI one a schema.
_SCHEMA_PLACES = re.compile(r"/(schema|schemas|payload|headers|items|properties|definitions)(/|$)")
_OPENAPI_SCHEMA_PLACES = re.compile(r"/(schema|schemas|items|properties|definitions)(/|$)")


def set_templates_apart(documents: dict[str, Document], files: frozenset[str]) -> None:
    """Templates by where they live (issue 45, item 2): a file in a Helm chart's ``templates/``
    or under a folder named by a template expression is a template, whatever it parses as
    (``speclint.parsing.templates.template_folder``). Replaced, not changed, as ``refine`` does:
    the parse cache keeps what the file alone says."""
    for path, document in list(documents.items()):
        if document.text is None:
            continue  # not read (binary, too large): ``parse-error`` says so
        why = template_folder(path, files)
        if why is not None:
            documents[path] = _template(document, why)


def _template(document: Document, why: str) -> Document:
    """``document`` as a template: its text kept, nothing read from it."""
    return Document(
        document.path,
        DocumentKind.TEMPLATE,
        text=document.text,
        digest=document.digest,
        reason=f"{why}: not read as a document",
    )


def refine(documents: dict[str, Document], config: Config) -> None:
    """Classification that needs the whole corpus (issue 14): files the configuration's
    ``[instances]`` table names are instances of their schema, and a JSON/YAML file that a
    schema's ``$ref`` targets is a schema, though it says nothing of itself. Refined documents
    are replaced, not changed: the parse cache keeps what the file alone says."""
    mapped = [(glob_to_regex(glob), schema) for glob, schema in sorted(config.instances.items())]
    for path, document in list(documents.items()):
        if not document.usable or document.kind is DocumentKind.MARKDOWN:
            continue
        schema = next((target for pattern, target in mapped if pattern.match(path)), None)
        if schema is not None and document.kind in (DocumentKind.DATA, DocumentKind.INSTANCE):
            named = classify(path, document.data, document.text, schema)
            # An empty file the table names is read as its instance (null), so no longer "not
            # read" (``empty``).
            documents[path] = replace(
                document, kind=named.kind, reason=named.reason, schema=named.schema, empty=False
            )
    # Examples first: a file that is an example (what an `example` names, an event with its
    # event type) is data, and what it names by `$ref` is not a schema on its account.
    examples = _examples(documents)
    for path, why in sorted(examples.items()):
        document = documents[path]
        if _open_schema(document):  # a file read as data keeps its own reason
            documents[path] = replace(document, kind=DocumentKind.DATA, reason=why)
    # The parts of API documents kept in files of their own (a response, a parameter, a path
    # item) say nothing of themselves and stay data, but the `$ref`s of the schemas they hold
    # name schemas as the documents' own do, in the places of the kinds of API that reach them.
    fragments = _fragments_reached(documents)
    # The fragments last (the list is a stack): a file a schema and a fragment both name is
    # "the target of a `$ref` in" the schema, as before fragments were read.
    pending = [documents[p] for p in sorted(fragments, reverse=True) if p not in examples]
    pending += [d for d in documents.values() if d.usable and d.kind in _REFERRING]
    while pending:
        referrer = pending.pop()
        # A fragment only OpenAPI documents reach is read with OpenAPI's places.
        openapi = fragments.get(referrer.path) == {DocumentKind.OPENAPI}
        refs = _file_refs(referrer, openapi=openapi)
        for target in refs:
            found = documents.get(target)
            if (
                found is not None
                and target not in examples
                and found.usable
                and found.kind is DocumentKind.DATA
                and isinstance(found.data, (dict, bool))
            ):
                promoted = replace(
                    found,
                    kind=DocumentKind.SCHEMA,
                    reason=f"the target of a `$ref` in {referrer.path}",
                )
                documents[target] = promoted
                pending.append(promoted)
    _inherit_oas30_dialect(documents)


def _slices(model: ProseDocument, text: str | None) -> bool:
    """Whether every paragraph and list item of a model read back from the parse cache is a
    slice of ``text``, through the model's own page, and every paragraph's rendered text is
    made of such slices (``Paragraph.rendering``: pairs of offsets, ``-1, -1`` a space)."""
    page = model.page
    if page is None or page.text != text:
        return False
    size = len(page.text)
    nodes: list[Paragraph | ListItem] = [*model.paragraphs, *model.list_items]
    if not all(node.page is page and 0 <= node.start <= node.stop <= size for node in nodes):
        return False
    for paragraph in model.paragraphs:
        rendering = paragraph.rendering
        if isinstance(rendering, bytes) and rendering:
            if len(rendering) % 8:
                return False
            numbers = memoryview(rendering).cast("i")
            if min(numbers) < -1 or max(numbers) > size:
                return False
        elif not isinstance(rendering, (bytes, str)):
            return False
    return True


def _inherit_oas30_dialect(documents: dict[str, Document]) -> None:
    """A schema file that says nothing of its dialect (no ``$schema``), reached by ``$ref`` only
    from OpenAPI 3.0 documents, is an OpenAPI 3.0 Schema Object kept in a file of its own: that
    is a dialect of its own (3.0.3 §4.7.24: ``nullable``, a boolean ``exclusiveMinimum``, no type
    arrays), so it is recorded as the file's (``Document.dialect``), and every rule judges it so
    (schema-invalid called ``exclusiveMinimum: true`` an error there). Reached through API
    fragments and other such files too, cycles included; one reached also from anything else
    (an OpenAPI 3.1 document, a schema declaring its draft, a schema no 3.0 document reaches,
    which is 2020-12 by default) keeps the default, since no one dialect is its own. Replaced,
    not changed, as ``refine`` does. Linear: each file's set of reaching dialects only grows,
    and there are few dialects."""

    def open_dialect(document: Document | None) -> bool:
        return (
            document is not None
            and document.usable
            and document.kind is DocumentKind.SCHEMA
            and not document.dialect
            and not (isinstance(document.data, dict) and "$schema" in document.data)
        )

    def passable(document: Document | None) -> bool:
        return (
            document is not None
            and document.usable
            and (document.kind is DocumentKind.DATA or open_dialect(document))
        )

    def spread(sources: dict[str, str]) -> dict[str, set[str]]:
        """The dialect families that reach each passable file from ``sources`` (path: family)."""
        reaching: dict[str, set[str]] = {}
        work = sorted(sources)
        while work:
            path = work.pop()
            families = {sources[path]} if path in sources else reaching.get(path, set())
            # Every `$ref` of a file: an API document's responses and parameters kept in
            # files of their own hold schemas too.
            for target in _anywhere_refs(documents[path]):
                if not passable(documents.get(target)):
                    continue
                had = reaching.setdefault(target, set())
                if not families <= had:
                    had |= families
                    work.append(target)
        return reaching

    def family(document: Document) -> str:
        return (
            "OpenAPI 3.0" if document.dialect.startswith("OpenAPI 3.0") else document.dialect or "?"
        )

    roots = {
        d.path: family(d)
        for d in documents.values()
        if d.usable and d.kind in _REFERRING and not open_dialect(d)
    }
    if "OpenAPI 3.0" not in roots.values():
        return
    from_30 = spread({path: f for path, f in roots.items() if f == "OpenAPI 3.0"})
    # A schema without `$schema` that no 3.0 document reaches is 2020-12's, and so is what it names.
    for document in documents.values():
        if open_dialect(document) and document.path not in from_30:
            roots[document.path] = "2020-12"
    for path, families in sorted(spread(roots).items()):
        if families == {"OpenAPI 3.0"} and open_dialect(documents[path]):
            documents[path] = replace(documents[path], dialect="OpenAPI 3.0")


def _fragments_reached(documents: dict[str, Document]) -> dict[str, set[DocumentKind]]:
    """Each plain JSON/YAML file that an API document reaches by ``$ref`` (anywhere), directly
    or through other such files, with the kinds of API documents that reach it."""
    # One work list for all the documents: a file's set of kinds only grows, and there are two
    # kinds, so each file is walked at most twice (a walk per document was documents × files:
    # 400 versions of one API sharing 2,000 fragments took 3.4 s; review).
    reached: dict[str, set[DocumentKind]] = {}
    work = [
        (target, frozenset({document.kind}))
        for document in documents.values()
        if document.usable and document.kind in _API_KINDS
        for target in _anywhere_refs(document)
    ]
    while work:
        target, kinds = work.pop()
        found = documents.get(target)
        if found is None or not found.usable or found.kind is not DocumentKind.DATA:
            continue
        had = reached.setdefault(target, set())
        if kinds <= had:
            continue
        had |= kinds
        work.extend((onward, frozenset(had)) for onward in _anywhere_refs(found))
    return reached


def _open_schema(document: Document) -> bool:
    """Whether ``document`` is a schema by its keywords alone: no ``$schema``, no
    ``*.schema.json`` name, which an example's shape can imitate (``allOf`` of `$ref`s)."""
    return (
        document.usable
        and document.kind is DocumentKind.SCHEMA
        and not (isinstance(document.data, dict) and "$schema" in document.data)
        and not document.path.lower().endswith(".schema.json")
    )


def _examples(documents: dict[str, Document]) -> dict[str, str]:
    """The JSON/YAML files that are examples, not schemas, from what names them and what they
    say (path -> why):

    - the target of a `$ref` in the value of an example keyword (``at_example``) of a schema or
      an API document, or of an Example Object's relative ``externalValue`` (OpenAPI 3.1.1
      §4.8.19.1): what names it shows it as an example, anywhere in the corpus;
    - a file in a folder of samples whose root ``type`` is no JSON type (an event example's
      ``"type": "m.room.message"``: JSON Schema Validation §6.1.1 allows only the seven
      type names), or whose `$ref`s name only such examples and other data (an example that
      inherits another example's members, which some corpora assemble with a resolver).

    Each file joins once, and a file is looked at again only when one it names joins."""
    found: dict[str, str] = {}
    for document in documents.values():
        if not document.usable or document.kind not in _REFERRING:
            continue
        for target in _example_targets(document):
            if target in documents and target not in found:
                found[target] = f"an example: named by an example in {document.path}"
    for path, document in sorted(documents.items()):
        if (
            path not in found
            and document.usable
            and in_sample_folder(path)
            and contradicts_schema(document.data)
        ):
            kind = document.data.get("type") if isinstance(document.data, dict) else None
            found[path] = f"an example: its `type` {kind!r} is no JSON type"
    work = sorted(found)
    # Who names whom, for the sample folders' files that may turn out to be examples.
    referrers: dict[str, list[str]] = {}
    for path, document in sorted(documents.items()):
        if document.usable and in_sample_folder(path) and _open_schema(document):
            for target in _anywhere_refs(document):
                referrers.setdefault(target, []).append(path)
    while work:
        for path in referrers.get(work.pop(), ()):
            if path in found:
                continue
            targets = _anywhere_refs(documents[path])
            if all(_plain_data(documents.get(target)) or target in found for target in targets):
                named = ", ".join(t for t in targets if t in found)
                found[path] = f"an example: its `$ref`s name examples ({named})"
                work.append(path)
    return found


def _plain_data(document: Document | None) -> bool:
    """Whether ``document`` is JSON/YAML data by what it says of itself (not a schema)."""
    return document is not None and document.usable and document.kind is DocumentKind.DATA


def _example_targets(document: Document) -> list[str]:
    """The corpus paths a schema or an API document names as examples: `$ref`s at example
    places (``at_example``) and Example Objects' relative ``externalValue``s, sorted."""
    targets = {target for pointer, target in _ref_sites(document) if at_example(pointer)}
    if document.kind in _API_KINDS:
        folder = posixpath.dirname(document.path)
        stack: list[Any] = [document.data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                value = node.get("externalValue")
                if (
                    isinstance(value, str)
                    and value
                    and "://" not in value
                    and not value.startswith(("/", "urn:"))
                ):
                    targets.add(posixpath.normpath(posixpath.join(folder, value)))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return sorted(targets)


def _anywhere_refs(document: Document) -> list[str]:
    """The corpus paths every relative ``$ref`` of the document names, sorted."""
    return sorted({target for _, target in _ref_sites(document)})


def _file_refs(document: Document, openapi: bool = False) -> list[str]:
    r"""The corpus paths the document's relative ``$ref``\s name, sorted: a schema's every one;
    an API document's or a fragment's at schema places only (OpenAPI's in an OpenAPI document,
    and in a fragment only OpenAPI documents reach: ``openapi``)."""
    sites = [
        (pointer, target) for pointer, target in _ref_sites(document) if not at_example(pointer)
    ]
    if document.kind is DocumentKind.SCHEMA:
        return sorted({target for _, target in sites})
    openapi = openapi or document.kind is DocumentKind.OPENAPI
    places = _OPENAPI_SCHEMA_PLACES if openapi else _SCHEMA_PLACES
    return sorted({target for pointer, target in sites if places.search(pointer)})


def _ref_sites(document: Document) -> list[tuple[str, str]]:
    """(escaped pointer of the holding object, corpus path named) of each relative ``$ref`` of
    the document: one walk per document and run, which the readings above filter."""
    return document.remember("ref-sites", partial(_walk_ref_sites, document))


def _walk_ref_sites(document: Document) -> list[tuple[str, str]]:
    folder = posixpath.dirname(document.path)
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(document.data, "")]
    while stack:  # iterative: generated schemas nest deeper than Python's recursion limit
        node, pointer = stack.pop()
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str):
                file_part = reference.split("#", 1)[0]
                if file_part and "://" not in file_part and not file_part.startswith(("/", "urn:")):
                    found.append((pointer, posixpath.normpath(posixpath.join(folder, file_part))))
            stack.extend(
                (value, f"{pointer}/{escape_token(str(key))}") for key, value in node.items()
            )
        elif isinstance(node, list):
            stack.extend((value, f"{pointer}/{index}") for index, value in enumerate(node))
    return found


_REFERRING = (DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
_API_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)


def snapshot(
    root: Path,
    config: Config,
    tree: list[str] | None = None,
    read: Callable[[Path, str], bytes | LoadProblem] = read_raw,
    git_ignored: GitIgnored | None = None,
) -> dict[str, bytes | LoadProblem]:
    """Every discovered file's bytes (or why it is not read), in path order. ``read`` reads one
    (``read_raw``; a resident checker's keeps the bytes of files whose status is unchanged).
    ``git_ignored``: what git ignores under ``root``, when the caller asked already."""
    root = root.resolve()
    listed = listing(root) if tree is None else tree
    return {
        shown_path(path): read(root, path) for path in discover(root, config, listed, git_ignored)
    }


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Translate a root-relative glob with ``**`` (any number of folders) into a regex."""
    return re.compile(glob_body(pattern) + r"\Z")


def discover(
    root: Path,
    config: Config,
    tree: list[str] | None = None,
    git_ignored: GitIgnored | None = None,
) -> list[str]:
    """The files of ``tree`` (default: every file under ``root``) that the configuration
    includes and git does not ignore (``git_ignored``; None: git is asked), as listed (a name
    that is not UTF-8 keeps its undecodable bytes; see :func:`shown_path`)."""
    included = any_glob(tuple(config.include))
    # The kinds it reads first: the rest of the tree (images, sources) is never matched against
    # the exclusions and the git-ignored folders.
    return not_left_out(
        root,
        config,
        (relative for relative in (listing(root) if tree is None else tree) if included(relative)),
        git_ignored,
    )


def not_left_out(
    root: Path, config: Config, tree: Iterable[str], git_ignored: GitIgnored | None = None
) -> list[str]:
    """The files of ``tree`` that discovery does not leave out, whatever their kind (``include``
    names the kinds it reads): not excluded, not build output, not a test fixture, not ignored
    by git (``git_ignored``, as ``gitbase.ignored`` says; None: git is asked). What it would
    read of a kind it does not (a reStructuredText page) is these."""
    left_out = any_glob((*_excluded(config), *config.fixtures))
    # A repository's own .gitignore says what is not its content (a virtualenv, generated
    # output): untracked files it ignores are not read (issue 14).
    ignored_files, ignored_folders = ignored(root) if git_ignored is None else git_ignored
    return sorted(
        {
            relative
            for relative in tree
            if not left_out(relative)
            and relative not in ignored_files
            and not relative.startswith(ignored_folders)
        }
    )


def fixtures(config: Config, tree: Iterable[str]) -> list[str]:
    """The files of ``tree`` that discovery leaves out as test fixtures (``config.fixtures``)."""
    marked = any_glob(tuple(config.fixtures))
    included = any_glob(tuple(config.include))
    excluded = any_glob(_excluded(config))
    return sorted(path for path in tree if marked(path) and included(path) and not excluded(path))


def _excluded(config: Config) -> tuple[str, ...]:
    """The globs discovery leaves out. Build outputs are copies of the corpus's schemas (same
    `$id`s): never linted as sources. Test fixtures are a test suite's data, often wrong on
    purpose: ``discover`` leaves them out, ``fixtures`` lists them."""
    return (*config.exclude, f"{config.build_output}/**")


@cache
def any_glob(globs: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a path matches any of ``globs`` (each as :func:`glob_to_regex` reads it), in one
    regular expression: the alternatives are tried in turn from the path's start, each anchored
    at its end, as matching each glob's would (a glob's regex holds no group a backreference
    could name). Discovery asks it of every file of the listing at every run (the MCP
    repository: 74,000 matches of 944 paths, one per glob, 0.03 s)."""
    if not globs:
        return _nothing
    return partial(_matches, globs)


@lru_cache(maxsize=1 << 16)
def _matches(globs: tuple[str, ...], path: str) -> bool:
    """Whether ``path`` matches one of ``globs``, remembered: a resident checker lists the same
    paths at every run."""
    return _either(globs).match(path) is not None


@cache
def _either(globs: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{glob_body(glob)}\\Z)" for glob in globs))


def _nothing(path: str) -> bool:
    return False


# --- reading and parsing ------------------------------------------------------------------------


# Files that tools read as JSON with comments (VS Code's settings and `*.jsonc`, TypeScript's
# tsconfig, Rush's `rush.json` and every file of its `common/config/rush/` folder, which Rush
# writes with comments itself, and API Extractor's config): comments and trailing commas there
# are not parse errors.
_JSONC = re.compile(
    r"(?:^|/)(?:[^/]+\.jsonc|(?:ts|js)config(?:\.[^/]*)?\.json|\.vscode/.+\.json|"
    r"\.devcontainer/.+\.json|devcontainer\.json|\.eslintrc\.json|\.babelrc|\.swcrc|"
    r"rush\.json|common/config/rush/[^/]+\.json|api-extractor\.json)$"
)


def is_jsonc(path: str) -> bool:
    return _JSONC.search(path) is not None


# What parsing a byte costs, relative to a byte of JSON (measured on OpenWOP and the ecosystem
# repositories: Markdown with its prose model and value sets about 0.86 µs a byte, YAML 0.31,
# JSON, read by the C decoder, 0.03). The parse is dealt to the cores by these costs: dealt by
# bytes, the share with the pages took 1.0 s and the other 0.65 s.
_COST_PER_BYTE = {DocumentKind.MARKDOWN: 28, "yaml": 10, "json": 1}


def parse_cost(path: str, raw: bytes) -> int:
    """The cost of parsing ``raw`` (``path``'s bytes), in bytes of JSON."""
    lowered = path.lower()
    if kind_for_path(path) is DocumentKind.MARKDOWN:
        return len(raw) * _COST_PER_BYTE[DocumentKind.MARKDOWN]
    return len(raw) * _COST_PER_BYTE["yaml" if lowered.endswith((".yaml", ".yml")) else "json"]


def decode(raw: bytes) -> tuple[str | None, LoadProblem | None]:
    if b"\x00" in raw[:8192]:
        return None, LoadProblem("binary file (NUL bytes), not UTF-8 text")
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return None, LoadProblem(f"not valid UTF-8 (byte 0x{raw[error.start]:02x})", line, column)


def _positions_of(text: str, reader: str) -> dict[str, Position]:
    """The positions of a document whose data the C decoder read (``Document.positions_from``)."""
    try:
        return parse_json(strip_jsonc(text) if reader == "jsonc" else text).positions
    except ParseFailure:
        return {"": (1, 1)}


# The reason of a JSON or YAML file holding nothing but whitespace: listed, not read.
EMPTY_REASON = "an empty file: nothing to read"


def parse_document(
    path: str, content: str | bytes, progress: Callable[[int], None] | None = None
) -> Document:
    """The document at ``path``; ``progress``, when given, is told how many characters of a YAML
    document are read as its parse goes (see ``Corpus.from_snapshot``)."""
    kind = kind_for_path(path) or DocumentKind.DATA
    if isinstance(content, bytes):
        text, problem = decode(content)
        if text is None:
            return Document(path, kind, problem=problem)
    else:
        text = content
    text = lone_returns_as_newlines(text)
    named = template_name(path)
    if named is not None:
        return _template(Document(path, kind, text=text), named)
    if kind is DocumentKind.PROTO:
        # Read by protoc with the other protos it may import (speclint.analyses.grpc.protos): here
        # only what the file says it is.
        syntax = syntax_of(text)
        reason = f'Protocol Buffers (`syntax = "{syntax}"`)' if syntax else "Protocol Buffers"
        return Document(path, kind, text=text, dialect=syntax or "proto2", reason=reason)
    if kind is DocumentKind.MARKDOWN:
        prose, tokens, env = parse_markdown_with_tokens(text, mdx=is_mdx(path))
        document = Document(path, kind, text=text, model=prose)
        # The links of the page, from the same parse (``speclint.parsing.links``): cached with it. A
        # page it cannot read is read again by the rule, which reports the failure.
        with contextlib.suppress(Exception):
            document.derived[DERIVED_KEY] = page_of(text, tokens, env, prose.headings)
        return document
    positions_from = ""
    json = is_jsonc(path) or path.lower().endswith(".json")
    if not text.strip():
        # Committed empty (a tool's state file, a placeholder): no document, so none that is
        # broken; YAML reads it as nothing, and JSON (RFC 8259 §2: a text is one value) is read
        # alike. Coverage says it was not read (``speclint.run.coverage``: "empty").
        return Document(path, kind, text=text, reason=EMPTY_REASON, empty=True)
    try:
        if json:
            positions_from = "jsonc" if is_jsonc(path) else "json"
            source = strip_jsonc(text) if positions_from == "jsonc" else text
            # A JSON file under YAML front matter: a site generator's source (Jekyll serves
            # the JSON after it), read as the site serves it, at its own lines.
            served = without_front_matter(source)
            fast = fast_json(source) if served is None else None
            if served is not None:
                parsed, positions_from = parse_json(served), ""
            elif fast is not None:
                parsed = Parsed(fast[0])
            else:
                parsed, positions_from = parse_json(source), ""
        else:
            parsed = parse_yaml(text, progress)
    except ParseFailure as failure:
        # Template syntax that is no JSON or YAML: a template, whose parse error nobody can
        # fix (issue 45, item 2). A real error elsewhere stays one.
        templated = template_text(text, json, parsed=False)
        if templated is not None:
            return _template(Document(path, kind, text=text), templated)
        return Document(
            path,
            kind,
            text=text,
            problem=LoadProblem(failure.message, failure.line, failure.column),
        )
    found = classify(path, parsed.data, text)
    # what a document declares is walked only when its text has a template mark at all: the
    # walk visits every node, and this runs for every file of every load
    templated = None
    if has_marks(text):
        templated = template_text(text, json, parsed=True, data=parsed.data) or template_data(
            found.kind.value, parsed.data
        )
    if templated is not None:
        return _template(Document(path, kind, text=text), templated)
    return Document(
        path,
        found.kind,
        text=text,
        data=parsed.data,
        positions=parsed.positions,
        duplicates=parsed.duplicates,
        non_string_keys=parsed.non_string_keys,
        deficient_indents=parsed.deficient_indents,
        positions_from=positions_from,
        dialect=found.dialect,
        reason=found.reason,
        schema=found.schema,
    )
