"""Components of an OpenAPI document that no operation reaches.

What it does
    Reports the components of an OpenAPI document with operations (3.x ``components``: every
    map; Swagger 2.0 ``definitions``, ``parameters``, ``responses``, ``securityDefinitions``)
    that nothing outside them reaches by ``$ref``: no operation, webhook, other member, other
    corpus file (an AsyncAPI document, a schema file, another API) or component so reached. A
    security scheme is used where a security requirement names it. One warning per document,
    at ``components``, the unused ones as related locations.

Why is this bad?
    Nothing in the API uses such a component: it is documentation of nothing. Most often it
    is left over from a rename or a removed operation, or the operation that should ``$ref``
    it writes its own copy inline, which then drifts from the component. Code generators still
    emit a model class for each unused schema. A security scheme no requirement names means
    the operations meant to be protected declare no security (OpenAPI 3.1 §4.8.30).

Example
    ::

        paths:
          /dogs:
            get:
              responses:
                '200':
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Dog'}
        components:
          schemas:
            Dog: {type: object}
            Puppy: {type: object}

    FAIL: ``warning [unused-component] 1 component no operation reaches (`schemas/Puppy`) ...``

Use instead
    Remove ``Puppy``, or ``$ref`` it where it is meant to be used. PASS.

Options
    None.

Limitations
    A component reached only through an unused one is unused too. Used: a schema a reached
    ``discriminator`` ``mapping`` names, or whose ``allOf`` refs a reached schema with a
    ``discriminator`` (3.1.1 §4.8.25); one a description names by pointer (Redoc's
    ``<SchemaDefinition schemaRef=...>``); one that only names a file the operations reach.
    Not judged: a document without operations (a library published for whoever refs it), one
    merged with others (``redocly join``), a component that is a broken ``$ref``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from speclint.analyses.api.components import OPENAPI_32_COMPONENTS
from speclint.analyses.api.written_operations import METHODS
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import located
from speclint.common.findings import Finding, Severity, first_fitting
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import escape_token, join_pointer, pointer_within, resolve_pointer

ID = "unused-component"
SEVERITY = Severity.WARNING
FACTS = ("merges", "references")

# Every version's (`pathItems` from 3.1, `mediaTypes` from 3.2): a key of another version is
# no component of it either way.
_COMPONENTS_3 = OPENAPI_32_COMPONENTS
# Swagger 2.0 §"Swagger Object": the document-level definitions.
_COMPONENTS_2 = ("definitions", "parameters", "responses", "securityDefinitions")
_METHODS = frozenset(METHODS)
# A local pointer to a component written in a description (Redoc's Markdown tags).
_DESCRIBED = re.compile(r"#(/(?:components/[A-Za-z]+|definitions|parameters|responses)/[\w.\-~%]+)")
_SHOWN = 4  # components named in the message; the others are related locations only


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    judged = [d for d in corpus.of_kind(DocumentKind.OPENAPI) if _judged(corpus, d)]
    if not judged:
        return
    reach = _Reach(corpus, {d.path for d in judged})
    reach.run()
    for document in sorted(judged, key=lambda d: d.path):
        unused = [c for c in _components(document) if not reach.uses(document, *c)]
        if unused:
            yield _finding(document, unused)


def _judged(corpus: Context, document: Document) -> bool:
    """Is ``document`` an API whose components can be judged unused here: one with operations,
    not merged with other files (its partners' operations may use its components)."""
    data = document.data
    if not document.usable or not isinstance(data, dict):
        return False
    if not _has_operations(data):
        return False  # a library of components: published for whoever refs them
    merges = corpus.merges
    if document.path in merges.partial or document.path in merges.built:
        return False
    return not merges.partners(document.path)


def _has_operations(data: dict[str, Any]) -> bool:
    for container in ("paths", "webhooks"):
        items = data.get(container)
        for key, item in items.items() if isinstance(items, dict) else ():
            if str(key).startswith("x-") or not isinstance(item, dict):
                continue
            if "$ref" in item or _METHODS.intersection(item) or "additionalOperations" in item:
                return True
    return False


def _containers(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(pointer of the map, its kind) of each components map of the document."""
    if "swagger" in data:
        return [(f"/{name}", name) for name in _COMPONENTS_2]
    return [(f"/components/{name}", name) for name in _COMPONENTS_3]


def _components(document: Document) -> list[tuple[str, str, str]]:
    """(kind, name, pointer) of each component the document declares, in document order."""
    found: list[tuple[str, str, str]] = []
    for at, kind in _containers(document.data):
        held = resolve_pointer(document.data, at)
        if not isinstance(held, dict) or "$ref" in held:
            continue  # a map kept in another file (`schemas: {$ref: ...}`): judged there
        for name, value in held.items():
            if isinstance(value, dict):  # a component that is no object is openapi-invalid's
                found.append((kind, str(name), join_pointer(at, str(name))))
    return found


class _Reach:
    """What the corpus reaches from its operations and its other files, through ``$ref``\\s
    (the corpus's :class:`ReferenceIndex`), discriminator mappings and polymorphism."""

    def __init__(self, corpus: Context, judged: set[str]) -> None:
        self.corpus = corpus
        self.index = corpus.references
        self.judged = judged
        self.seen: dict[str, set[str]] = {}  # path -> pointers reached
        # path -> pointers a `$ref` or a mapping names (not those read as roots: a schema file)
        self.named: dict[str, set[str]] = {}
        self.work: list[tuple[str, str]] = []
        # security scheme names a requirement uses: by API document, "" for any (a fragment's)
        self.security: dict[str, set[str]] = {}
        self.mapped: set[str] = set()  # bare discriminator names written in fragments

    def run(self) -> None:
        for document in self.corpus.documents.values():
            if not document.usable:
                continue
            if document.path not in self.judged:
                if document.kind is DocumentKind.OPENAPI or _not_fragment(document):
                    self.add(document.path, "")
                continue
            data = document.data
            held = {"components"} if "swagger" not in data else set(_COMPONENTS_2)
            for key in data:
                if key not in held:
                    self.add(document.path, join_pointer("", str(key)))
            components = data.get("components")
            if "swagger" not in data and isinstance(components, dict):
                for key in components:  # `components/x-...`: an extension, read as used
                    if key not in _COMPONENTS_3:
                        self.add(document.path, join_pointer("/components", str(key)))
        while True:
            self.drain()
            if not self.polymorphic():
                break

    def add(self, path: str, pointer: str) -> None:
        pointers = self.seen.setdefault(path, set())
        if self.covered(path, pointer):
            return
        pointers.add(pointer)
        self.work.append((path, pointer))

    def covered(self, path: str, pointer: str, within: dict[str, set[str]] | None = None) -> bool:
        """Is ``pointer`` at or below a pointer reached in ``path`` (or one of ``within``)?"""
        pointers = (self.seen if within is None else within).get(path, ())
        if not pointers:
            return False
        at = pointer
        while True:
            if at in pointers:
                return True
            if not at:
                return False
            at = at.rsplit("/", 1)[0]

    def drain(self) -> None:
        while self.work:
            path, pointer = self.work.pop()
            for reference in self.index.within(path, pointer):
                where = located(self.corpus, reference)
                if where is not None:
                    self.named.setdefault(where[0], set()).add(where[1])
                    self.add(*where)
            document = self.corpus.documents.get(path)
            if document is not None and document.usable:
                self.scan(document, pointer)

    def scan(self, document: Document, pointer: str) -> None:
        """Security requirements and discriminator mappings in the reached node."""
        owner = document.path if document.path in self.judged else ""
        names = self.security.setdefault(owner, set())
        top = resolve_pointer(document.data, pointer)
        if pointer == "/security":
            _requirements(top, names)  # the document's default (3.1.1 §4.8.1 `security`)
        stack = [(top, pointer)]
        while stack:
            node, at = stack.pop()
            if isinstance(node, dict):
                _requirements(node.get("security"), names)
                described = node.get("description")
                if isinstance(described, str) and "#/" in described and owner:
                    # Redoc's `<SchemaDefinition schemaRef="#/components/schemas/Order"
                    # exampleRef="#/components/examples/Order" />` in Markdown renders it.
                    for found in _DESCRIBED.finditer(described):
                        self.add(document.path, unquote(found.group(1)))
                discriminator = node.get("discriminator")
                mapping = discriminator.get("mapping") if isinstance(discriminator, dict) else None
                for value in mapping.values() if isinstance(mapping, dict) else ():
                    if isinstance(value, str):
                        self.mapped_value(document, value)
                for key, child in node.items():
                    if isinstance(child, (dict, list)):
                        stack.append((child, join_pointer(at, str(key))))
            elif isinstance(node, list):
                for position, child in enumerate(node):
                    if isinstance(child, (dict, list)):
                        stack.append((child, f"{at}/{position}"))

    def mapped_value(self, document: Document, value: str) -> None:
        """A ``mapping`` value: a schema name or a reference (3.1.1 §4.8.25.1)."""
        if "#" not in value and "/" not in value:
            # A name (`Dog`; `Dog.v2` may be a name or a file: read as both).
            if document.path in self.judged:
                self.add(document.path, f"/components/schemas/{escape_token(value)}")
            else:
                self.mapped.add(value)
            if "." not in value:
                return
        file, _, fragment = value.partition("#")
        if not file and document.path not in self.judged:
            # `#/components/schemas/Dog` in a piece: the root that bundles it holds `Dog`.
            self.mapped.add(unquote(fragment).rsplit("/", 1)[-1])
            return
        path = document.path
        if file:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(document.path), file))
        self.add(path, unquote(fragment))

    def polymorphic(self) -> bool:
        """Reach each unreached schema whose ``allOf`` refs a reached schema with a
        ``discriminator`` (3.1.1 §4.8.25: the subtypes are found that way). Any new?"""
        added = False
        for path in sorted(self.judged):
            document = self.corpus.documents[path]
            for kind, _name, at in _components(document):
                if kind not in ("schemas", "definitions") or self.covered(path, at):
                    continue
                if self.subtype(path, at) or self.subtype(*self.leads_to(path, at)):
                    self.add(path, at)
                    added = True
        return added

    def leads_to(self, path: str, at: str) -> tuple[str, str]:
        """Where a component that is only a ``$ref`` leads (a root's `definitions` listing
        subtypes kept in other files: openziti's ``postureCheckDomainCreate: {$ref: ...}``),
        else ("", "")."""
        reference = self.index.at(path, f"{at}/$ref")
        where = located(self.corpus, reference) if reference is not None else None
        return where if where is not None else ("", "")

    def subtype(self, path: str, at: str) -> bool:
        """Whether the schema at ``at`` has an ``allOf`` member that refs a reached schema with
        a ``discriminator``."""
        held = self.corpus.documents.get(path)
        if held is None:
            return False
        parts = resolve_pointer(held.data, join_pointer(at, "allOf"))
        for position in range(len(parts) if isinstance(parts, list) else 0):
            reference = self.index.at(path, f"{at}/allOf/{position}/$ref")
            where = located(self.corpus, reference) if reference is not None else None
            base = self.corpus.documents.get(where[0]) if where is not None else None
            if where is None or base is None:
                continue
            target = resolve_pointer(base.data, where[1])
            if isinstance(target, dict) and "discriminator" in target and self.covered(*where):
                return True
        return False

    def uses(self, document: Document, kind: str, name: str, at: str) -> bool:
        path = document.path
        if kind in ("securitySchemes", "securityDefinitions") and (
            name in self.security.get(path, ()) or name in self.security.get("", ())
        ):
            return True
        if kind in ("schemas", "definitions") and name in self.mapped:
            return True
        if self.covered(path, at):
            return True
        # A component that only names a file (`link: {$ref: schemas/link.yaml}`) while the
        # operations `$ref` that file directly: the same schema, which a bundler files under
        # this name. Used when what it names is.
        held = resolve_pointer(document.data, at)
        if isinstance(held, dict) and isinstance(held.get("$ref"), str):
            reference = self.index.at(path, join_pointer(at, "$ref"))
            if reference is not None and reference.outcome != "ok":
                return True  # a `$ref` to nothing: unresolved-ref's, whatever names it
            where = located(self.corpus, reference) if reference is not None else None
            if where is not None and where[0] != path and self.covered(*where, self.named):
                return True
        # A `$ref` into the component (`#/components/schemas/Pet/properties/id`) uses it too.
        return any(pointer_within(p, at) for p in self.seen.get(path, ()))


def _requirements(requirements: Any, names: set[str]) -> None:
    """The scheme names a list of Security Requirement Objects uses (3.1.1 §4.8.30)."""
    for requirement in requirements if isinstance(requirements, list) else ():
        if isinstance(requirement, dict):
            # 3.2 §4.10.30: a name may also be a URI to a security scheme component.
            names.update(str(n).rsplit("/", 1)[-1] for n in requirement)


def _not_fragment(document: Document) -> bool:
    """A document read for itself (a schema, an AsyncAPI or Arazzo document...), not a plain
    YAML/JSON piece that only a ``$ref`` brings in."""
    return document.kind is not DocumentKind.DATA


def _finding(document: Document, unused: list[tuple[str, str, str]]) -> Finding:
    data = document.data
    at = "/components" if "swagger" not in data else f"/{unused[0][0]}"
    count = len(unused)
    shown = ", ".join(f"`{kind}/{name}`" for kind, name, _ in unused[:_SHOWN])
    more = f" and {count - _SHOWN} more" if count > _SHOWN else ""
    subject = f"{count} component{'s' if count > 1 else ''} no operation reaches"
    it, verb = ("them", "they are") if count > 1 else ("it", "it is")
    fix = f"remove {it}, or `$ref` {it} where {verb} meant to be used"
    if any(kind in ("securitySchemes", "securityDefinitions") for kind, _, _ in unused):
        fix += " (a security scheme: name it in a `security` requirement)"
    message = first_fitting(
        f"{subject} ({shown}{more}), directly or through other components or files: {fix}",
        f"{subject} (listed as related locations): {fix}",
    )
    return Finding(
        ID,
        SEVERITY,
        message,
        document.location(at),
        related=tuple(document.location(p, note=f"unused: `{k}/{n}`") for k, n, p in unused),
        key="unused-components",
    )
