"""Every ``$ref`` in the corpus, resolved against a registry of the corpus itself.

The registry is a ``referencing.Registry`` holding each schema under its file URI and under its
``$id`` (JSON Schema 2020-12 §8.2.1: ``$id`` sets the base URI that relative references resolve
against), plus the OpenAPI and AsyncAPI documents under their file URIs. It has no ``retrieve``
function: a reference that the corpus does not hold fails to resolve instead of being fetched, so a
pull request cannot make speclint open a network connection. ``ref-map`` in the configuration maps
remote prefixes to corpus files for the references that are meant to be remote.

Each reference gets one outcome: ``ok``, ``missing-file``, ``missing-pointer``, ``unknown-id``,
``remote``, ``cycle`` (a chain of ``$ref``-only schemas that returns to its start: a validator
following it never reaches a schema), ``invalid-uri`` or ``text`` (a file that is there but is not
JSON or YAML: Redocly replaces a ``$ref`` to a Markdown description or a code sample by its text).

A plain YAML/JSON file that such a document reaches by ``$ref`` (a fragment: servers, parameters,
path items kept in files of their own) is registered under its file URI as well, opaque (not
crawled as a schema), and its own ``$ref``\\s are resolved and checked like the others.
"""

from __future__ import annotations

import bisect
import functools
import posixpath
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

import attrs
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry, Resource, Specification
from referencing.exceptions import NoSuchResource, PointerToNowhere, Unresolvable
from referencing.jsonschema import DRAFT202012, specification_with

from speclint.model.corpus import kept
from speclint.parsing.keyword_positions import (
    DATA_KEYWORDS as DATA_KEYWORDS,  # the skip-list the other walks import from here
)
from speclint.parsing.keyword_positions import (
    Position,
    item_position,
    member_position,
    root_position,
)
from speclint.parsing.kinds import STRUCTURED_SUFFIXES, DocumentKind, draft_of
from speclint.parsing.structured import escape_token, join_pointer, pointer_within

if TYPE_CHECKING:
    from speclint.model.corpus import Corpus, Document

CORPUS_BASE = "file:///corpus/"  # a fixed base keeps URIs (and so reports) machine-independent
REMOTE_SCHEMES = ("http", "https")
# Annotations that do not change what a "$ref"-only schema means (for cycle detection).
ANNOTATIONS = frozenset(
    {
        "$comment",
        "description",
        "title",
        "examples",
        "deprecated",
        "$id",
        "$schema",
        "$defs",
        "definitions",
        "$anchor",
        "$dynamicAnchor",
        "$vocabulary",
        "readOnly",
        "writeOnly",
    }
)


@dataclass(frozen=True)
class Reference:
    path: str  # the referencing document
    pointer: str  # pointer of the "$ref" member
    value: str  # the reference as written
    target: str  # absolute URI it resolves to (with fragment)
    # ok | missing-file | missing-pointer | unknown-id | remote | cycle | invalid-uri | text (a
    # file that exists but is not JSON/YAML: its text is what some tools put in its place)
    outcome: str
    target_path: str | None = None  # corpus file that holds the target, when local
    target_pointer: str | None = None
    detail: str = ""


@dataclass
class ReferenceIndex:
    built: Registry[Any] | None  # the corpus's schemas as a registry (``registry``, made lazily)
    references: list[Reference]
    uri_to_path: dict[str, str]
    # (path, pointer) of each resolved target -> the referenced value, for the other analyses
    targets: dict[tuple[str, str], Any]
    _by_site: dict[tuple[str, str], Reference] | None = None
    _validators: dict[type, Any] = field(default_factory=dict, repr=False)
    _by_path: dict[str, tuple[list[str], list[Reference]]] | None = field(default=None, repr=False)
    # Makes the registry of an index restored from its record (``from_record``).
    _make_registry: Callable[[], Registry[Any]] | None = field(default=None, repr=False)

    @property
    def registry(self) -> Registry[Any]:
        if self.built is None:
            assert self._make_registry is not None
            self.built = self._make_registry()
        return self.built

    def record(self) -> list[Any]:
        """What the index found, as plain data for the rule cache: its references (outcomes and
        cycles included) and which file holds each URI. The registry is not kept: it is made
        again when a validator is asked for."""
        return [list(self.references), dict(self.uri_to_path)]

    @classmethod
    def from_record(cls, corpus: Corpus, record: Any) -> ReferenceIndex | None:
        """The index a :meth:`record` holds (made from this corpus's JSON/YAML documents as they
        are now: the cache keys it on them), or None when it is not one."""
        if not (isinstance(record, list) and len(record) == 2):
            return None
        references, uri_to_path = record
        if not isinstance(references, list) or not all(
            isinstance(r, Reference) for r in references
        ):
            return None
        if not isinstance(uri_to_path, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in uri_to_path.items()
        ):
            return None
        return cls(
            None,
            references,
            uri_to_path,
            {},
            _make_registry=lambda: _registry_of(corpus)[0],
        )

    @cached_property
    def all_resolved(self) -> bool:
        """Does every reference resolve to a corpus file? (Then no walk can meet one that does not.)"""
        return all(r.outcome == "ok" and r.target_path is not None for r in self.references)

    def within(self, path: str, pointer: str) -> list[Reference]:
        """The references in ``path`` at or below ``pointer`` ("" for the whole document).

        From an index sorted by pointer (bisect), so a walk along references costs what it visits,
        not the corpus's reference count at each step (issue 13, item 9: 0.5 s a step at 5,000
        schemas)."""
        if self._by_path is None:
            grouped: dict[str, list[Reference]] = {}
            for reference in self.references:
                grouped.setdefault(reference.path, []).append(reference)
            self._by_path = {}
            for where, found in grouped.items():
                found.sort(key=lambda r: r.pointer)
                self._by_path[where] = ([r.pointer for r in found], found)
        pointers, found = self._by_path.get(path, ([], []))
        if not pointer:
            return list(found)
        start = bisect.bisect_left(pointers, pointer)
        end = bisect.bisect_left(pointers, pointer + "0")  # "0" follows "/": past the subtree
        return [r for r in found[start:end] if pointer_within(r.pointer, pointer)]

    def validator(self, dialect: type[Any], uri: str) -> Any:
        """A ``dialect`` validator for the schema at ``uri`` (absolute, fragment allowed), resolving
        through the corpus registry.

        A validator built with ``registry=`` merges jsonschema's metaschema registry into it, at a
        cost that grows with the corpus (5,000 schemas: 20 ms a validator, 100 s for their
        examples); each dialect's merge is made once here and shared through ``evolve``, which
        keeps the resolver (the ``$ref`` is absolute, so the root it resolves against is moot)."""
        base = self._validators.get(dialect)
        if base is None:
            base = self._validators[dialect] = dialect({}, registry=self.registry)
        return base.evolve(schema={"$ref": uri})

    def validator_at(self, dialect: type[Any], uri: str) -> Any:
        """:meth:`validator`, with its ``$ref`` to ``uri`` looked up once, here, rather than at
        each instance it validates: a validator of that schema itself, at its base URI, whose
        errors are those :meth:`validator`'s would be (jsonschema does not put the ``$ref`` in an
        error's schema path). For a rule validating many values against one schema object:
        SchemaStore's 77,000 ``enum``/``default`` values, at 80 µs a lookup. Raises
        ``Unresolvable`` where ``uri`` does not resolve, and what building a validator of that
        schema raises (a ``$schema`` that is no string) where validating through the root would
        have; :meth:`validator`'s where jsonschema keeps its resolver otherwise than as
        ``_resolver`` (a private name) or the schema names another dialect."""
        root = self.validator(dialect, uri)
        resolver = getattr(root, "_resolver", None)
        if resolver is None:
            return root
        resolved = resolver.lookup(uri)
        try:
            at = root.evolve(schema=resolved.contents, _resolver=resolved.resolver)
        except TypeError:  # no `_resolver` field to evolve
            return root
        # A schema naming another dialect than ``dialect``: jsonschema reads the `$ref`'s
        # siblings by the outer class, so only the `$ref` root judges it as before.
        return at if type(at) is type(root) else root

    @classmethod
    def build(cls, corpus: Corpus) -> ReferenceIndex:

        registry, uri_to_path = _registry_of(corpus)
        index = cls(registry, [], uri_to_path, {})
        for document in (
            *corpus.of_kind(DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI),
            *fragments(corpus),
        ):
            for pointer, value, base in _sites(document):
                index.references.append(index.resolve(corpus, document, pointer, value, base))
        index.mark_cycles(corpus)
        index.references.sort(key=lambda r: (r.path, r.pointer))
        return index

    def at(self, path: str, pointer: str) -> Reference | None:
        """The reference whose ``$ref`` member is at path#pointer."""
        if self._by_site is None:
            self._by_site = {(r.path, r.pointer): r for r in self.references}
        return self._by_site.get((path, pointer))

    def path_for(self, uri: str) -> str | None:
        return self.uri_to_path.get(defragmented(uri))

    def resolve(
        self, corpus: Corpus, document: Document, pointer: str, value: str, base: str
    ) -> Reference:
        # A reference written as a file path (`paths/runs_{runId}.yaml`, a space) names that
        # file, as the tools that write them read it; as a URI its `{` and `}` are escaped.
        ref = as_uri_reference(value)
        joined = join_uri(base, ref)
        if joined is None:
            return Reference(
                document.path,
                pointer,
                value,
                value,
                "invalid-uri",
                detail="not a URI reference (RFC 3986): an unclosed `[` or a bad port",
            )
        target = joined
        scheme = urlsplit(target).scheme
        mapped = map_remote(corpus.config.ref_map, target)
        if mapped is not None:
            target = mapped
        document_uri = file_uri(document.path)
        attempts = [base] if base == document_uri else [base, document_uri]
        if value.startswith("#") and defragmented(base) == root_base(document):
            # A same-document reference means this document (RFC 3986 §4.4), even when another
            # file declares the same `$id` and holds it in the registry.
            attempts = [document_uri]
        last_error = ""
        for attempt in attempts:
            try:
                resolved = self.registry.resolver(base_uri=attempt).lookup(
                    ref if mapped is None else target
                )
            except (PointerToNowhere, ValueError, TypeError):
                # `referencing` reads a token below a list as an index with `int()` (`#/list/name`:
                # ValueError) and indexes whatever it meets (`#/count/x` below a number:
                # TypeError); each points to nothing just the same.
                fragment = urldefrag(_join(attempt, ref)).fragment
                holder = self.path_for(_join(attempt, ref))
                return Reference(
                    document.path,
                    pointer,
                    value,
                    _join(attempt, ref),
                    "missing-pointer",
                    holder,
                    unquote(fragment),
                    f"{holder or 'the target'} has no `{unquote(fragment)}`",
                )
            except (NoSuchResource, Unresolvable) as error:
                last_error = str(error)
                continue
            resolved_uri = _join(attempt, ref if mapped is None else target)
            holder = self.path_for(resolved_uri)
            fragment = unquote(urldefrag(resolved_uri).fragment)
            target_pointer = fragment if fragment.startswith("/") or not fragment else None
            if target_pointer is None and holder is not None:
                # A plain-name fragment names the subschema that declares that anchor (JSON
                # Schema 2020-12 §8.2.2 `$anchor`, §8.2.3.2 `$dynamicAnchor`), never the root.
                target_pointer = anchor_pointer(
                    corpus.documents.get(holder), fragment, resolved.contents
                )
            if holder is not None and target_pointer is not None:
                self.targets[(holder, target_pointer)] = resolved.contents
            return Reference(
                document.path, pointer, value, resolved_uri, "ok", holder, target_pointer
            )
        if mapped is not None:
            local = self.missing_path(target)
            return Reference(
                document.path,
                pointer,
                value,
                target,
                "missing-file",
                local,
                None,
                f"mapped by [ref-map] to `{local}`, which the corpus did not load (check `include`)",
            )
        if scheme in REMOTE_SCHEMES and not self.is_own_namespace(target):
            return Reference(
                document.path, pointer, value, target, "remote", detail="remote URL, not fetched"
            )
        # The file a validator looks for: relative to the base in force when that is a corpus
        # file (a relative `$id` moves it, JSON Schema 2020-12 §8.2.1), else to the document.
        relative_uri = _join(base if base.startswith(CORPUS_BASE) else document_uri, ref)
        if urlsplit(relative_uri).scheme == "file" and not urlsplit(value).scheme:
            missing = self.missing_path(relative_uri)
            if missing is not None and missing in corpus.tree and not _structured(missing):
                # The file is there but is no JSON/YAML document: Redocly and others replace
                # such a reference (a Markdown description, a code sample) by the file's text.
                return Reference(
                    document.path,
                    pointer,
                    value,
                    relative_uri,
                    "text",
                    missing,
                    None,
                    "a file that is not JSON or YAML",
                )
            if missing is not None:
                return Reference(
                    document.path, pointer, value, relative_uri, "missing-file", missing, None
                )
        if urlsplit(target).scheme in REMOTE_SCHEMES:
            return Reference(document.path, pointer, value, target, "unknown-id", detail=last_error)
        fragment = urldefrag(target).fragment
        return Reference(
            document.path,
            pointer,
            value,
            target,
            "missing-pointer",
            self.path_for(target),
            unquote(fragment),
            last_error,
        )

    def is_own_namespace(self, uri: str) -> bool:
        """Is ``uri`` under a namespace the corpus' own ``$id``\\s use? Then it is ours, not
        remote. A namespace is the authority (``https://openwop.dev/`` owns
        ``.../schemas/missing.json``), except on hosts that serve many owners' repositories,
        where it is the owner and repository: an ``$id`` under
        ``raw.githubusercontent.com/oasis-tcs/sarif-spec/`` does not make WordPress's schemas
        on that host ours (SchemaStore's schemas refer to schemas others publish); on a
        project-pages host (``OWNER.github.io``) it is the repository, the first folder."""
        parts = urlsplit(uri)
        host = parts.netloc.lower()
        depth = _owner_depth(host)
        folders = tuple(parts.path.split("/")[1:-1])[:depth]
        return folders in self.namespaces.get(host, ())

    @cached_property
    def namespaces(self) -> dict[str, set[tuple[str, ...]]]:
        """Authority -> the owner's folders (:func:`_owner_depth`) of each corpus ``$id`` on it,
        but for a stale one (:attr:`stale_ids`): a file left with another repository's `$id`
        does not make that repository ours."""
        found: dict[str, set[tuple[str, ...]]] = {}
        stale = self.stale_ids
        for known in self.uri_to_path:
            if known.startswith("http") and known not in stale:
                parts = urlsplit(known)
                host = parts.netloc.lower()
                depth = _owner_depth(host)
                folders = tuple(parts.path.split("/")[1:-1])[:depth]
                if len(folders) == depth:
                    found.setdefault(host, set()).add(folders)
        return found

    @cached_property
    def publications(self) -> dict[str, dict[str, int]]:
        """Corpus folder -> each URL folder it is published under, with how many ``$id``\\s
        say so. An ``$id`` that ends with its own file's path, segment by segment, says where
        the corpus publishes that folder (``https://example.org/spec/v1/run.json`` in
        ``schemas/v1/run.json``: ``https://example.org/spec/`` is ``schemas/``)."""
        found: dict[str, dict[str, int]] = {}
        for uri, path in self.uri_to_path.items():
            aligned = _aligned(uri, path)
            if aligned is not None:
                url, folder = aligned
                found.setdefault(folder, {}).setdefault(url, 0)
                found[folder][url] += 1
        return found

    @cached_property
    def stale_ids(self) -> frozenset[str]:
        """Root ``$id``\\s that disagree, alone, with where the corpus's other ``$id``\\s
        publish their file: a schema copied from another repository of the same host's
        owner that kept that repository's ``$id``, when two or more others place the file in
        another repository there (``OWNER.github.io/REPO/``, ``raw.githubusercontent.com/
        OWNER/REPO/``) and none where its own ``$id`` does. Such an ``$id`` still
        names its file (a ``$ref`` to it resolves) but says nothing of where the corpus is
        published."""
        publications = self.publications
        stale: set[str] = set()
        for uri, path in self.uri_to_path.items():
            aligned = _aligned(uri, path)
            if aligned is None or publications[aligned[1]][aligned[0]] > 1:
                continue
            predicted: dict[str, int] = {}
            owner = _owner(uri)
            for folder in _folders_holding(path):
                for url, count in publications.get(folder, {}).items():
                    # Only another repository of the same owner's host (`OWNER.github.io/A/`
                    # for `.../B/`): a vendored schema keeps its publisher's `$id` (first.org's
                    # CVSS schemas in an OASIS repository), and one host may publish a file
                    # away from its folder on purpose (`https://asyncapi.com/schema-store/`).
                    theirs = _owner(url)
                    if (url, folder) != aligned and theirs[0] == owner[0] and theirs != owner:
                        at = url + quote(path[len(folder) :])
                        predicted[at] = predicted.get(at, 0) + count
            own = defragmented(uri)
            if own not in predicted and max(predicted.values(), default=0) >= 2:
                stale.add(uri)
        return frozenset(stale)

    def published_at(self, uri: str) -> list[str]:
        """The corpus files a URL names where the corpus publishes its folders there (read off
        its other ``$id``\\s, :attr:`publications`, but for the stale ones)."""
        url = defragmented(uri)
        stale = {_aligned(each, self.uri_to_path[each]) for each in self.stale_ids}
        found: set[str] = set()
        for folder, urls in self.publications.items():
            for prefix in urls:
                if (prefix, folder) in stale and urls[prefix] == 1:
                    continue
                rest = unquote(url[len(prefix) :]) if url.startswith(prefix) else ""
                if rest and not rest.endswith("/") and ".." not in rest.split("/"):
                    found.add(folder + rest)
        return sorted(found)

    def missing_path(self, uri: str) -> str | None:
        """The corpus-relative path a file URI names, when it is inside the corpus root."""
        if not uri.startswith(CORPUS_BASE):
            return None
        path = unquote(defragmented(uri)[len(CORPUS_BASE) :])
        return path

    def mark_cycles(self, corpus: Corpus) -> None:
        """Replace the outcome of references that start a ``$ref``-only loop with ``cycle``."""
        by_site = {(r.path, r.pointer): r for r in self.references}
        reported: set[frozenset[tuple[str, str]]] = set()
        for index, reference in enumerate(self.references):
            chain = [(reference.path, reference.pointer)]
            current = reference
            while current.outcome == "ok" and current.target_path is not None:
                node_pointer = current.target_pointer or ""
                node = self.targets.get((current.target_path, node_pointer))
                if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                    break
                if set(node) - ANNOTATIONS - {"$ref"}:
                    break  # the schema asserts something besides following the reference
                site = (current.target_path, join_pointer(node_pointer, "$ref"))
                if site in chain:
                    loop = frozenset(chain[chain.index(site) :])
                    if loop not in reported and site == chain[0]:
                        reported.add(loop)
                        steps = " → ".join(
                            f"{p}#{q.rsplit('/$ref', 1)[0] or '/'}" for p, q in [*chain, site]
                        )
                        self.references[index] = Reference(
                            reference.path,
                            reference.pointer,
                            reference.value,
                            reference.target,
                            "cycle",
                            reference.target_path,
                            reference.target_pointer,
                            f"circular $ref chain that never reaches a schema: {steps}",
                        )
                    break
                chain.append(site)
                following = by_site.get(site)
                if following is None:
                    break
                current = following

    def unresolved(self) -> Iterator[Reference]:
        return (r for r in self.references if r.outcome not in {"ok", "remote", "text"})


def _registry_of(corpus: Corpus) -> tuple[Registry[Any], dict[str, str]]:
    """The corpus's schema and API documents as a crawled registry, and which file each URI
    (file URI, ``$id``, embedded resource) names."""

    resources: list[tuple[str, Resource[Any]]] = []
    uri_to_path: dict[str, str] = {}
    contested: set[str] = set()  # `$id`s two files declare (at their roots, or inside)
    # What each `$id` names, walked only through its own subschemas (not into inner `$id`s).
    unwalked: dict[str, Resource[Any]] = {}
    files: dict[str, Document] = {}  # each file's own URI: it names that file, whatever claims it
    for document in corpus.of_kind(
        DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
    ):
        uri = file_uri(document.path)
        files[uri] = document
        if uri_to_path.get(uri, document.path) != document.path:
            # An earlier file's embedded `$id` (a bundle's copy, `"$id": "config.json"`) is
            # this file's own URI: the file keeps it.
            contested.add(uri)
        # Walked only when the document's kept answer says it embeds a resource: the walk of a
        # schema that embeds none (MCP's schema.json, 45,000 nodes) is made once, not every run.
        embedded = (
            list(embedded_resources(document))
            if document.kind is DocumentKind.SCHEMA and embedded_uris(document)
            else []
        )
        # An embedded `$id` already says the crawl must walk it: no second walk to find out.
        flat = document.kind is DocumentKind.SCHEMA and not embedded and not names_inside(document)
        resource = make_resource(document, FLAT if flat else WALKED)
        resources.append((uri, resource))
        uri_to_path[uri] = document.path
        # Its own `$id`, or a draft-04 `id` (draft-04 Core §7.2): the URI others name it by.
        absolute = root_base(document)
        if absolute != uri and document.kind is DocumentKind.SCHEMA:
            if absolute not in uri_to_path:
                resources.append((absolute, resource))
                uri_to_path[absolute] = document.path
                unwalked[absolute] = make_resource(document, OWN)
            elif uri_to_path[absolute] != document.path:
                contested.add(absolute)
        for absolute, node, dialect in embedded:
            if absolute not in uri_to_path:
                resources.append((absolute, tolerant(dialect).create_resource(node)))
                uri_to_path[absolute] = document.path
                unwalked[absolute] = tolerant(dialect, OWN).create_resource(node)
            elif uri_to_path[absolute] != document.path:
                contested.add(absolute)  # a bundle's copy of another file's schema
    # The published metaschemas (jsonschema-specifications) are known offline: a `$ref` to
    # `http://json-schema.org/draft-04/schema#/properties/description` resolves, unfetched.

    for document in fragments(corpus):
        # A plain YAML/JSON file an API document or schema reaches by `$ref` (servers,
        # parameters, path items kept in files of their own): registered under its file URI
        # only, as an opaque resource, so a pointer into it resolves but nothing in it is
        # crawled for `$id`s or anchors (it is not a schema: it was not reached as one).
        uri = file_uri(document.path)
        resources.append((uri, Specification.OPAQUE.create_resource(document.data)))
        uri_to_path[uri] = document.path
    registry = _crawled(SPECIFICATIONS, resources)
    if contested:
        # A crawl registers every resource under its own `$id`, in an order that varies
        # between runs (with the hash seed); the first file (in path order) keeps a contested
        # `$id`, every run, with the anchors inside it. Walked again only as far as its own
        # subschemas go: walking into an inner `$id` would register that once more, in that
        # varying order (asyncapi/spec-json-schemas: a bundle holding copies of 351 files'
        # schemas gave one copy or the other from run to run).
        # A file's own URI stays the file's, whatever `$id` also names it.
        registry = _crawled(
            registry,
            [
                (uri, make_resource(files[uri], OWN) if uri in files else unwalked[uri])
                for uri in sorted(contested)
            ],
        )
    return registry, uri_to_path


# What `referencing` raises when a crawl meets what is not a schema where one goes.
_UNWALKABLE = (AttributeError, TypeError, ValueError)


def _crawled(base: Registry[Any], resources: list[tuple[str, Resource[Any]]]) -> Registry[Any]:
    """``base`` with ``resources``, crawled for the `$id`s and anchors inside them.

    `referencing` gives an embedded resource that names its dialect (`$schema`) the stock
    specification of that dialect, detected afresh (``Resource.from_contents``), not the
    :func:`tolerant` one of its document; so a number where a schema goes inside it (the
    generated `additionalProperties: 1` of ga4gh-beacon/beacon-v2) ended the crawl, and with it
    every rule that reads references. Then the resources are crawled one by one, and one whose
    crawl fails is registered uncrawled: its own URIs and the pointers into it still resolve
    (:func:`embedded_resources` registered its embedded `$id`s already), and schema-invalid
    reports what is malformed in it."""
    try:
        return base.with_resources(resources).crawl()
    except _UNWALKABLE:
        pass
    registry = base
    for uri, resource in resources:
        try:
            registry = registry.with_resource(uri, resource).crawl()
        except _UNWALKABLE:
            opaque = Specification.OPAQUE.create_resource(resource.contents)
            registry = registry.with_resource(uri, opaque).crawl()
    return registry


def indexed(corpus: Corpus) -> frozenset[str]:
    """The documents whose content :meth:`ReferenceIndex.build` reads: the schema and API
    documents, and the plain JSON/YAML documents they reach by ``$ref`` (:func:`fragments`).
    Of every other document it reads only whether it is there, of which kind, and whether it
    parsed (a ``$ref`` to it: ``fragments``); the rule cache keys the index on these
    (``RuleCache.key``), so an edit of a data file no ``$ref`` reaches keeps it."""
    return frozenset(
        [
            *(
                d.path
                for d in corpus.of_kind(
                    DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
                )
            ),
            *(d.path for d in fragments(corpus)),
        ]
    )


def fragments(corpus: Corpus) -> list[Document]:
    """The plain JSON/YAML documents (kind DATA) that a schema or API document reaches by
    ``$ref``, directly or through other such fragments, in path order.

    Multi-file API descriptions keep servers, parameters, responses and path items in files of
    their own (``$ref: ../common/servers.yaml#/prod``, the layout AsyncAPI and Redocly
    recommend); such a file says nothing of itself, so discovery calls it data. A fragment
    reached at a schema position is a schema already (``speclint.model.corpus.refine``); the others
    are registered so their pointers resolve, and stay data for every other analysis."""

    memo = corpus.memo.get("references.fragments")
    if isinstance(memo, list):
        return memo
    found: dict[str, Document] = {}
    pending = list(corpus.of_kind(DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI))
    while pending:
        document = pending.pop()
        for path in _reached(document, corpus.config.ref_map):
            target = corpus.documents.get(path)
            if (
                target is not None
                and path not in found
                and target.usable
                and target.kind is DocumentKind.DATA
            ):
                found[path] = target
                pending.append(target)
    ordered = [found[path] for path in sorted(found)]
    corpus.memo["references.fragments"] = ordered
    return ordered


def _reached(document: Document, ref_map: Mapping[str, str]) -> tuple[str, ...]:
    """The corpus paths the document's ``$ref``\\s name, in the order of its sites: a pure
    function of its path, kind and content and of ``ref_map``, remembered with the document (a
    resident checker's next run, whose every run asks :func:`fragments` for the reference
    index's key, does not join its thousand references again)."""

    def reached() -> tuple[str, ...]:
        found: list[str] = []
        for _, value, base in _sites(document):
            joined = join_uri(base, as_uri_reference(value))
            # A published URL that `[ref-map]` maps into the corpus names that file (`resolve`).
            mapped = map_remote(ref_map, joined) if joined is not None else None
            joined = mapped or joined
            if joined is None or not joined.startswith(CORPUS_BASE):
                continue
            found.append(unquote(defragmented(joined)[len(CORPUS_BASE) :]))
        return tuple(found)

    # By kind, as ``_sites``: a resident document promoted from data to schema keeps this dict.
    mapping = repr(sorted(ref_map.items()))
    return document.remember(f"references.reached:{document.kind.value}:{mapping}", reached)


# Memoised, as `join_uri` below: both are pure functions of their strings, and the reference
# index asks them of the same few thousand paths and bases a hundred thousand times (SchemaStore:
# 120,000 file URIs of 4,000 paths, 180,000 joins, each one `urllib.parse` in Python).
@functools.lru_cache(maxsize=1 << 16)
def file_uri(path: str) -> str:
    return CORPUS_BASE + "/".join(escape_uri_segment(s) for s in path.split("/"))


# `urljoin`, memoised: ``resolve`` joins each reference to its base three times over.
_join = functools.lru_cache(maxsize=1 << 17)(urljoin)


def anchor_pointer(document: Document | None, name: str, contents: Any) -> str | None:
    """The JSON pointer in ``document`` of the subschema that declares the plain-name anchor
    ``name`` (``$anchor``, ``$dynamicAnchor``, draft-07's ``$id: "#name"``), the one equal to
    ``contents`` (what the registry resolved) when several do; None when none does."""
    if document is None or not document.usable:
        return None
    found: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = [("", document.data)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict):
            if any(node.get(k) == name for k in ("$anchor", "$dynamicAnchor")) or any(
                node.get(k) == f"#{name}" for k in ("$id", "id")
            ):
                found.append((pointer, node))
            items = [(join_pointer(pointer, k), v) for k, v in node.items()]
        elif isinstance(node, list):
            items = [(join_pointer(pointer, i), v) for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(items))
    if not found:
        return None
    return next((p for p, node in found if node is contents or node == contents), found[0][0])


def located(corpus: Corpus, reference: Reference) -> tuple[str, str] | None:
    """(path, JSON pointer from that file's root) of what a resolved reference names; None when
    it did not resolve in the corpus or its target cannot be placed in the file.

    ``target_pointer`` is the fragment as the reference wrote it, which is relative to the
    resource its URI names (JSON Schema 2020-12 §9.2: a JSON pointer fragment is evaluated
    against that resource's root): the file's root when the URI is the file's or its root
    `$id`, a subschema of the file when an embedded `$id` names it (§8.2.1), so
    `https://example.com/step.json#/properties/n` is below that subschema, and `step.json`
    alone is the subschema, never the whole file. A plain-name fragment (`schemas.json#Run`,
    §8.2.2) was placed by the index where the anchor is declared, from the file's root; an
    anchor the index did not find (``target_pointer`` None) is not the file's root either."""
    if reference.outcome != "ok" or reference.target_path is None:
        return None
    if reference.target_pointer is None:
        return None
    holder = corpus.documents.get(reference.target_path)
    if holder is None:
        return None
    fragment = urldefrag(reference.target).fragment
    if fragment and not unquote(fragment).startswith("/"):
        return reference.target_path, reference.target_pointer  # an anchor, placed in the file
    base = defragmented(reference.target)
    if base in (file_uri(holder.path), root_base(holder)):
        return reference.target_path, reference.target_pointer
    inside = holder.remember("references.embedded_at", lambda: _embedded_at(holder)).get(base)
    if inside is None:
        return None
    return reference.target_path, inside + reference.target_pointer


def _embedded_at(document: Document) -> dict[str, str]:
    """Each embedded resource's URI -> its pointer in the document (the first, when a bundle
    holds it twice); none of a document that is no schema (the registry's embedded resources
    are those of schemas: :func:`_registry_of`)."""
    if document.kind is not DocumentKind.SCHEMA or not embedded_uris(document):
        return {}
    found: dict[str, str] = {}
    for uri, pointer, _node, _dialect in _embedded_walk(document):
        found.setdefault(uri, pointer)
    return found


@functools.lru_cache(maxsize=1 << 17)
def defragmented(uri: str) -> str:
    """``urldefrag(uri).url``, without parsing a URI that has no fragment (it returns those as
    they are); memoised (a rule asks for the same targets' tens of thousands of times)."""
    return uri if "#" not in uri else urldefrag(uri).url


def escape_uri_segment(segment: str) -> str:
    return quote(segment, safe="@:+!$&'()*,;=-._~")


# Characters a URI reference may hold as they are (RFC 3986 §2.2 and §2.3), and `%`, which
# starts an escape the author wrote.
_URI_CHARACTERS = ":/?#[]@!$&'()*+,;=-._~%"


def as_uri_reference(value: str) -> str:
    """``value`` with what a URI cannot hold (``{``, ``}``, a space, non-ASCII) percent-encoded:
    a ``$ref`` written as a file path names the file a validator reading paths would open."""
    return quote(value, safe=_URI_CHARACTERS)


def _structured(path: str) -> bool:
    return path.lower().endswith(STRUCTURED_SUFFIXES)


@functools.lru_cache(maxsize=1 << 17)
def join_uri(base: str, value: str) -> str | None:
    """``value`` resolved against ``base`` (RFC 3986 §5), or None when either is not a URI
    reference Python can parse (``http://[bad``: an unclosed IPv6 literal raises ValueError)."""
    try:
        joined = urljoin(base, value)
        urlsplit(joined)
    except ValueError:
        return None
    return joined


# How far the registry's crawl walks a resource (see :func:`tolerant`).
WALKED = "walked"  # every subschema, as `referencing` does
FLAT = "flat"  # none: its subschemas name nothing (no inner `$id`, no anchor)
OWN = "own"  # its own subschemas, not those with an `$id` of their own or a `$schema`


def make_resource(document: Document, walk: str = WALKED) -> Resource[Any]:
    """The document as a `referencing` resource, crawled as ``walk`` says."""

    if document.kind is DocumentKind.SCHEMA and isinstance(document.data, dict):
        dialect = document.data.get("$schema")
        if isinstance(dialect, str):
            return tolerant(dialect, walk).create_resource(document.data)
    # OpenAPI 3.1 schema objects are 2020-12 dialect; pointer lookups work for any JSON.
    return tolerant("", walk).create_resource(document.data)


# What makes a subschema worth a crawl: `referencing` registers a subschema by its id or its
# anchors (draft-07's `$id: "#name"` is an id to both).
_NAMING = frozenset({"$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"})
_ANCHORS = frozenset({"$anchor", "$dynamicAnchor", "$recursiveAnchor"})


NAMES_INSIDE_KEY = "names-inside"


def names_inside(document: Document) -> bool:
    """:func:`_names_inside` of the document's data, a pure function of its content: kept with
    the document (``model.corpus.kept``), so the registry of a later run does not walk every
    schema again."""
    return kept(document, NAMES_INSIDE_KEY, _names_inside_document, bool)


def _names_inside_document(document: Document) -> bool:
    return _names_inside(document.data)


def _names_inside(data: Any) -> bool:
    """Whether a schema's crawl could register anything but its root: an `$id` or `id` string
    below the root (both keywords, whatever the dialect says), or an anchor anywhere. Read from
    the parsed data, a superset of what `referencing` walks (every member but the values:
    ``DATA_KEYWORDS``). A schema without any is registered without walking its subschemas
    (SchemaStore: 2.5 s of crawling, for a handful of documents)."""
    stack: list[tuple[Any, bool, Position]] = [(data, True, Position.SCHEMA)]
    while stack:
        node, root, position = stack.pop()
        if isinstance(node, dict):
            if not _NAMING.isdisjoint(node):
                if not _ANCHORS.isdisjoint(node):
                    return True
                if not root and any(isinstance(node.get(k), str) for k in ("$id", "id")):
                    return True
            for key, child in node.items():
                place = member_position(position, key)
                if place is not Position.DATA and isinstance(child, (dict, list)):
                    stack.append((child, False, place))
        elif isinstance(node, list):
            stack.extend(
                (child, False, position) for child in node if isinstance(child, (dict, list))
            )
    return False


@functools.cache
def tolerant(dialect: str, walk: str = WALKED) -> Specification[Any]:
    """The `referencing` specification of ``dialect`` (2020-12 when unknown), made to step over
    what is not a schema where a schema is expected. `referencing` 0.37 judges draft-04 to -07
    `dependencies` by its first value, so `{"a": {...}, "b": ["a"]}` yields the list `["a"]` as a
    subschema and its crawl dies on it (SchemaStore's tmlanguage.json); `"properties": []` dies
    the same way. A malformed schema is schema-invalid's finding, never a crash of every rule."""
    stock = specification_with(dialect.rstrip("#"), default=DRAFT202012)
    stock_walk = stock.subresources_of

    def subresources_of(contents: Any) -> list[Any]:
        if walk == FLAT:
            return []
        try:
            found = list(stock_walk(contents))
        except (AttributeError, TypeError):
            return []
        found = [each for each in found if isinstance(each, (Mapping, bool))]
        if walk == OWN:
            found = [each for each in found if not _own_resource(each)]
        return found

    def _own_resource(each: Any) -> bool:
        return isinstance(each, Mapping) and ("$schema" in each or id_of(each) is not None)

    identify = stock.id_of

    def id_of(contents: Any) -> str | None:
        # A draft-04 `id` that is not a string (a property schema a `$ref` points into by
        # mistake, SchemaStore's specif-1.0.json) names nothing; `referencing` calls
        # `.startswith` on it.
        try:
            found = identify(contents)
        except (AttributeError, TypeError):
            return None
        # An id that is no URI reference (`http://[bad`) names nothing either: `referencing`
        # would raise ValueError joining it, and end the whole run.
        return found if isinstance(found, str) and join_uri("file:///", found) else None

    # `referencing` declares Specification with its own attrs wrapper, which mypy does not read
    evolved: Specification[Any] = attrs.evolve(
        cast(Any, stock), subresources_of=subresources_of, id_of=id_of
    )
    return evolved


EMBEDDED_KEY = "embedded-uris"


def embedded_uris(schema: Document) -> tuple[str, ...]:
    """The URIs of the resources a schema embeds (:func:`embedded_resources`), a pure
    function of its path and content: kept with the document (the run makes it as a schema is
    parsed), so neither finding the bundles nor the registry walks every schema on every run
    (0.04 s of a one-page edit of the MCP repository, whose schema.json holds 45,000 nodes)."""
    return kept(schema, EMBEDDED_KEY, _embedded_uris, tuple[str, ...])


def _embedded_uris(schema: Document) -> tuple[str, ...]:
    return tuple(uri for uri, _node, _dialect in embedded_resources(schema))


def embedded_resources(document: Document) -> Iterator[tuple[str, Any, str]]:
    """(absolute URI, contents, dialect) of each subschema that names itself with the id keyword of the
    dialect in force there: `id` under draft-04, `$id` later; a nested `$schema` switches the
    dialect. `referencing` crawls a resource by its root's dialect only, so an embedded draft-04
    schema (`id`) inside a draft-07 bundle would not be found by its URI without this."""
    for uri, _pointer, node, dialect in _embedded_walk(document):
        yield uri, node, dialect


def _embedded_walk(document: Document) -> Iterator[tuple[str, str, Any, str]]:
    """:func:`embedded_resources`, each with its JSON pointer in the document."""
    root = document.data
    dialect = root.get("$schema") if isinstance(root, dict) else None
    stack: list[tuple[Any, str, str, Any, Position]] = [
        (root, "", file_uri(document.path), dialect, Position.SCHEMA)
    ]
    while stack:
        node, pointer, base, dialect, position = stack.pop()
        if isinstance(node, dict):
            if position is Position.SCHEMA_NAMES:
                declared = None  # `properties: {id: {...}}` names a property, no resource
            else:
                if pointer and isinstance(node.get("$schema"), str):
                    dialect = node["$schema"]
                declared = node.get("id") if _uses_plain_id(dialect) else node.get("$id")
            joined = join_uri(base, declared) if isinstance(declared, str) else None
            if joined is not None:
                base = joined
                if pointer:
                    yield (
                        defragmented(base),
                        pointer,
                        node,
                        dialect if isinstance(dialect, str) else "",
                    )
            for key, child in node.items():
                place = member_position(position, key)
                if place is not Position.DATA and isinstance(child, (dict, list)):
                    stack.append((child, f"{pointer}/{escape_token(key)}", base, dialect, place))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                if isinstance(child, (dict, list)):
                    stack.append((child, f"{pointer}/{index}", base, dialect, position))


# Hosts that serve many owners' repositories: there, a namespace is `owner/repository/`.
SHARED_HOSTS = frozenset(
    {
        "github.com",
        "raw.githubusercontent.com",
        "gist.githubusercontent.com",
        "gitlab.com",
        "bitbucket.org",
        "codeberg.org",
        "cdn.jsdelivr.net",
        "unpkg.com",
    }
)


# Project-pages hosts: `https://OWNER.github.io/REPOSITORY/` serves one repository of the owner.
PAGES_HOSTS = (".github.io", ".gitlab.io")


def _owner_depth(host: str) -> int:
    """How many leading path folders of a URL on ``host`` name whose it is: the owner and
    repository on a shared host, the repository on a project-pages host, none elsewhere."""
    if host in SHARED_HOSTS:
        return 2
    return 1 if host.endswith(PAGES_HOSTS) else 0


def _owner(url: str) -> tuple[str, tuple[str, ...]]:
    """The host of a URL and the folders that name the owner there (:func:`_owner_depth`)."""
    parts = urlsplit(url)
    host = parts.netloc.lower()
    return host, tuple(parts.path.split("/")[1:-1])[: _owner_depth(host)]


def _aligned(uri: str, path: str) -> tuple[str, str] | None:
    """(URL folder, corpus folder) where an ``$id`` ends with its own file's path, segment by
    segment (the longest such ending), or None (an ``$id`` named otherwise than its file)."""
    parts = urlsplit(uri)
    if parts.scheme not in REMOTE_SCHEMES or parts.query:
        return None
    segments = parts.path.split("/")[1:]
    files = path.split("/")
    matched = 0
    while (
        matched < min(len(segments), len(files))
        and unquote(segments[-1 - matched]) == files[-1 - matched]
    ):
        matched += 1
    if not matched:
        return None
    url = f"{parts.scheme}://{parts.netloc}/" + "".join(s + "/" for s in segments[:-matched])
    return url, "".join(f + "/" for f in files[:-matched])


def _folders_holding(path: str) -> list[str]:
    """The corpus folders a file is in, from the root (``""``) down to its own."""
    files = path.split("/")[:-1]
    return ["".join(f + "/" for f in files[:end]) for end in range(len(files) + 1)]


def map_remote(ref_map: Mapping[str, str], target: str) -> str | None:
    """Rewrite a remote URI through ``ref-map`` (longest prefix wins) to a corpus file URI."""
    for prefix, local in sorted(ref_map.items(), key=lambda item: (-len(item[0]), item[0])):
        if not target.startswith(prefix):
            continue
        rest, hash_mark, fragment = target[len(prefix) :].partition("#")
        mapped = file_uri(local + rest) if local.endswith("/") else file_uri(local)
        return mapped + hash_mark + fragment
    return None


def bare_host(url: str) -> bool:
    """Whether the URL's host is a bare word that names no host on the network: no dot, not
    ``localhost``, not an address (``https://schemas/opengis.org/x.json``: a `/` for a `.`)."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return bool(host) and "." not in host and ":" not in host and host != "localhost"


def held_at_raw_url(paths: Container[str], url: str) -> str | None:
    """The corpus file a GitHub raw URL names when the repository holds a file at that path
    (``https://raw.githubusercontent.com/<owner>/<repo>/<branch or refs/heads/x>/<path>``): the
    repository's own file, published by its host; the longest such path. Never fetched."""
    parts = urlsplit(url)
    if parts.netloc != "raw.githubusercontent.com":
        return None
    segments = [s for s in parts.path.split("/") if s]
    for start in range(3, len(segments)):
        candidate = "/".join(segments[start:])
        if candidate in paths:
            return candidate
    return None


def ref_sites(document: Document) -> Iterator[tuple[str, str, str]]:
    """(pointer of the "$ref" member, its value, the base URI in force there)."""

    root_base = file_uri(document.path)
    track_ids = document.kind is DocumentKind.SCHEMA
    asyncapi = document.kind is DocumentKind.ASYNCAPI
    api = document.kind if document.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI) else None
    root_dialect = document.data.get("$schema") if isinstance(document.data, dict) else None
    stack: list[tuple[Any, str, str, bool, Position]] = [
        (
            document.data,
            "",
            root_base,
            _uses_plain_id(root_dialect),
            root_position(document.kind),
        )
    ]
    while stack:
        node, pointer, base, plain_id, position = stack.pop()
        if isinstance(node, dict):
            # The dialect in force says which keyword sets the base URI: `id` up to draft-04,
            # `$id` from draft-06 (draft-06 Core §9.2); a nested `$schema` switches it (an
            # embedded draft-04 metaschema in a draft-07 bundle).
            if "$schema" in node and pointer:
                plain_id = _uses_plain_id(node.get("$schema"))
            declared = node.get("id") if plain_id else node.get("$id")
            joined = join_uri(base, declared) if track_ids and isinstance(declared, str) else None
            if joined is not None:
                # Without its fragment: draft-04 ids end in an empty one (`...schema#`), and a
                # base URI with `#` resolves no `#/...` pointer in `referencing`.
                base = defragmented(joined)
            reference = node.get("$ref")
            if isinstance(reference, str):
                yield join_pointer(pointer, "$ref"), reference, base
            for key in sorted(node, reverse=True):
                # Data only where the key is a keyword (`keyword_positions`): a property named
                # `default` is a schema, a Responses Object's `default` its default response.
                place = member_position(position, key, api)
                if place is Position.DATA:
                    if key == "examples" and asyncapi and _message_object(pointer):
                        yield from _example_refs(node[key], f"{pointer}/examples", base)
                    continue
                child = node[key]
                if isinstance(child, (dict, list)):
                    stack.append((child, f"{pointer}/{escape_token(key)}", base, plain_id, place))
        elif isinstance(node, list):
            place = item_position(position)
            for index in range(len(node) - 1, -1, -1):
                child = node[index]
                if isinstance(child, (dict, list)):
                    stack.append((child, f"{pointer}/{index}", base, plain_id, place))


# Where an AsyncAPI document holds a Message Object or a Message Trait Object (2.x: an operation's
# `message`, a `oneOf` of messages, `components/messages`, `traits`; 3.0: a channel's `messages`).
_MESSAGE_PARENTS = frozenset({"messages", "messageTraits", "traits", "oneOf"})
# Members under which an AsyncAPI document holds schemas (whose `examples` are data).
_SCHEMA_MEMBERS = frozenset({"payload", "headers", "schemas", "schema", "properties", "items"})


def _message_object(pointer: str) -> bool:
    """Whether the object at ``pointer`` of an AsyncAPI document is a Message (or Message
    Trait) Object, whose ``examples`` are Message Example Objects (AsyncAPI 2.6.0 §4.3.21,
    3.0.0 §3.3.27), each of which the tooling reads through a ``$ref`` as any other object."""
    tokens = pointer.split("/")[1:]
    if not tokens or not _SCHEMA_MEMBERS.isdisjoint(tokens):
        return False
    if tokens[-1] == "message":
        return True
    return len(tokens) >= 2 and tokens[-2] in _MESSAGE_PARENTS


def _example_refs(examples: Any, pointer: str, base: str) -> Iterator[tuple[str, str, str]]:
    """The ``$ref`` of each Message Example Object of ``examples`` written as a reference
    (``- $ref: open.example.json``): what the example holds inside is data, not walked."""
    if not isinstance(examples, list):
        return
    for position, item in enumerate(examples):
        if isinstance(item, dict) and isinstance(item.get("$ref"), str):
            yield f"{pointer}/{position}/$ref", item["$ref"], base


def _sites(document: Document) -> list[tuple[str, str, str]]:
    """:func:`ref_sites` of a corpus document, walked once: finding the fragments and building
    the index both read them (SchemaStore: 2.5 s a walk)."""
    # By kind too: `ref_sites` tracks `$id`s in schemas only, and a resident document can be
    # promoted from data to schema between runs (``speclint.model.corpus.refine``).
    return document.remember(
        f"references.ref_sites:{document.kind.value}", lambda: list(ref_sites(document))
    )


def root_base(document: Document) -> str:
    """The base URI of a document's root: its own `$id` (or draft-04 `id`), else its file URI."""
    return document.remember("references.root_base", lambda: _root_base(document))


def _root_base(document: Document) -> str:
    uri = file_uri(document.path)
    data = document.data if isinstance(document.data, dict) else {}
    declared = data.get("id") if _uses_plain_id(data.get("$schema")) else data.get("$id")
    joined = join_uri(uri, declared) if isinstance(declared, str) else None
    return defragmented(joined) if joined is not None else uri


def declared_id(document: Document) -> str | None:
    """The `$id` (draft-04 `id`) a schema declares at its root, as written, without its
    fragment; None when it declares none."""
    data = document.data if isinstance(document.data, dict) else {}
    declared = data.get("id") if _uses_plain_id(data.get("$schema")) else data.get("$id")
    if not isinstance(declared, str):
        return None
    return declared.split("#", 1)[0] or None


def _uses_plain_id(dialect: object) -> bool:
    """Whether a dialect names its base URI with `id` (draft-03 and draft-04)."""

    return draft_of(dialect) in ("draft-03", "draft-04")


def rebased(
    node: Any,
    source: str,
    document: str,
    written: dict[tuple[str, str], str] | None = None,
    *,
    merged: bool = False,
) -> Any:
    """A copy of ``node`` (from the file ``source``) whose relative ``$ref``\\s name from
    ``document``'s place what they named from ``source``'s, as a bundler rewrites them: a piece
    inlined into ``document`` (a local ``#/...`` names ``source``), or, ``merged``, a fragment
    merged into it (a local ``#/...`` names the merged document and stays). Data (examples,
    defaults, enums, ``x-`` members) is copied as it is; below an ``$id`` nothing is rewritten
    (it sets the base its references resolve against). ``written`` records each rewritten
    ``$ref`` as ``source`` wrote it."""
    if source == document or (merged and posixpath.dirname(source) == posixpath.dirname(document)):
        return node
    here = posixpath.dirname(document) or "."

    def moved(reference: str) -> str:
        file_part, hash_, fragment = reference.partition("#")
        if "://" in file_part or file_part.startswith(("/", "urn:")):
            return reference
        if not file_part and merged:
            return reference
        named = (
            posixpath.normpath(posixpath.join(posixpath.dirname(source), file_part))
            if file_part
            else source
        )
        if named == document:
            return f"#{fragment}"
        return posixpath.relpath(named, here) + (hash_ + fragment)

    def walk(current: Any, position: Position) -> Any:
        if isinstance(current, dict):
            if position is not Position.SCHEMA_NAMES and isinstance(current.get("$id"), str):
                return current
            copy: dict[Any, Any] = {}
            for key, value in current.items():
                place = member_position(position, key)
                if (
                    key == "$ref"
                    and isinstance(value, str)
                    and position is not Position.SCHEMA_NAMES
                ):
                    copy[key] = moved(value)
                    if written is not None and copy[key] != value:
                        written[(source, copy[key])] = value
                elif place is Position.DATA or str(key).startswith("x-"):
                    copy[key] = value
                else:
                    copy[key] = walk(value, place)
            return copy
        if isinstance(current, list):
            return [walk(item, item_position(position)) for item in current]
        return current

    # A piece of an API document or a schema: read as an API object, whose maps of names
    # include a schema's (`keyword_positions`).
    return walk(node, Position.API)
