"""Object shapes and their closure: where a schema is used, what it resolves to, whether it is closed.

The closure rules (RFC 0094 §G) and the union rules need the same few facts about a schema
location: the schema a chain of ``$ref``\\s ends at, whether it describes an object, and whether
it is *closed* (unknown members rejected) or *open*. Closure in 2020-12 is
``additionalProperties`` (sees only sibling ``properties``/``patternProperties``) or
``unevaluatedProperties`` (sees every subschema that was evaluated, so it can close an ``allOf``
composition).

A *use site* is where an API document puts a schema on the wire: an OpenAPI request body,
parameter or response schema, or an AsyncAPI message payload. A *named shape* is a schema other
locations ``$ref``: a schema file, a ``$defs`` entry, a ``components/schemas`` entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import ANNOTATIONS, located
from speclint.analyses.schemas.roles import Role, asyncapi_uses, openapi_uses
from speclint.analyses.schemas.schema_objects import types_of
from speclint.analyses.units import kept_with_page
from speclint.common.findings import Location
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import follow_local, join_pointer, resolve_pointer

if TYPE_CHECKING:
    from speclint.parsing.prose import Heading

CLOSING = ("additionalProperties", "unevaluatedProperties")
MAX_HOPS = 32


@dataclass(frozen=True)
class Site:
    """A schema location: the document, the JSON pointer, and the schema there."""

    document: Document
    pointer: str
    node: Any

    def location(self, note: str | None = None) -> Location:
        return self.document.location(self.pointer, note=note)

    def at(self, *tokens: str | int) -> Location:
        pointer = self.pointer
        for token in tokens:
            pointer = join_pointer(pointer, token)
        return self.document.location(pointer)

    @property
    def label(self) -> str:
        return f"{self.document.path}#{self.pointer or '/'}"


def resolve(document: Document, pointer: str) -> Any:
    return resolve_pointer(document.data, pointer)


def follow_once(corpus: Context, site: Site) -> Site | None:
    """The target of the ``$ref`` at ``site`` (through the corpus index), or None."""
    node = site.node
    if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
        return None
    reference = corpus.references.at(site.document.path, join_pointer(site.pointer, "$ref"))
    where = located(corpus, reference) if reference is not None else None
    target = corpus.documents.get(where[0]) if where is not None else None
    if where is None or target is None:
        return None
    return Site(target, where[1], resolve(target, where[1]))


def is_pure_reference(node: Any) -> bool:
    """``{"$ref": ...}`` with nothing beside it but annotations."""
    return (
        isinstance(node, dict)
        and isinstance(node.get("$ref"), str)
        and all(key == "$ref" or key in ANNOTATIONS for key in node)
    )


def follow(corpus: Context, site: Site) -> Site:
    """Follow ``$ref``-only schemas to the schema that says something (cycles stop)."""
    seen = {(site.document.path, site.pointer)}
    for _ in range(MAX_HOPS):
        if not is_pure_reference(site.node):
            return site
        target = follow_once(corpus, site)
        if target is None or (target.document.path, target.pointer) in seen:
            return site
        seen.add((target.document.path, target.pointer))
        site = target
    return site


def is_object_shape(node: Any) -> bool:
    """Does this schema describe an object with members (the only thing closure applies to)?"""
    if not isinstance(node, dict):
        return False
    types = types_of(node)
    if types and "object" not in types:
        return False
    return bool(
        "object" in types
        or "properties" in node
        or "required" in node
        or any(k in node for k in ("allOf", "anyOf", "oneOf"))
    )


def closing_keyword(node: Any) -> str | None:
    """The keyword that closes this object schema, if any.

    ``false`` closes; so does a schema value (``additionalProperties: {type: string}`` is a
    deliberate map, not an open shape) and ``propertyNames`` (the names are constrained).
    ``true`` and ``{}`` are open.
    """
    if not isinstance(node, dict):
        return None
    for keyword in CLOSING:
        value = node.get(keyword)
        if value is False or (isinstance(value, dict) and value):
            return keyword
    if isinstance(node.get("propertyNames"), dict) and node["propertyNames"]:
        return "propertyNames"
    return None


def is_closed_false(node: Any) -> str | None:
    """The keyword that closes ``node`` with a literal ``false`` (what a policy forbids)."""
    if not isinstance(node, dict):
        return None
    for keyword in CLOSING:
        if node.get(keyword) is False:
            return keyword
    return None


@dataclass(frozen=True)
class UseSite:
    site: Site
    role: Role
    label: str  # "POST /v1/runs (createRun) request body"


def use_sites(corpus: Context) -> Iterator[UseSite]:
    """Every place an API document puts a schema on the wire, with the direction it travels."""
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        for pointer, role, label in openapi_uses(document):
            if pointer.endswith("/schema"):
                node = resolve(document, pointer)
                if node is not None:
                    yield UseSite(Site(document, pointer, node), role, label)
    for document in corpus.of_kind(DocumentKind.ASYNCAPI):
        seen: set[tuple[str, Role]] = set()
        for pointer, role, label in asyncapi_uses(document, corpus.config.asyncapi_perspective):
            for message in _messages(document, pointer):
                if (message, role) in seen:
                    continue
                seen.add((message, role))
                payload = resolve(document, message + "/payload")
                if isinstance(payload, dict) and "schemaFormat" in payload:
                    continue  # a Multi Format Schema Object: not JSON Schema
                if payload is not None:
                    name = message.rsplit("/", 1)[-1]
                    yield UseSite(
                        Site(document, message + "/payload", payload),
                        role,
                        f"message {name} payload ({label.split(' [')[0]})",
                    )


def _messages(document: Document, pointer: str) -> Iterator[str]:
    """The message objects an operation's ``messages[i]`` or ``channel`` reference points at."""
    target = _local_target(document, pointer)
    if target is None:
        return
    node = resolve(document, target)
    if isinstance(node, dict) and "payload" in node:
        yield target
    elif isinstance(node, dict) and isinstance(node.get("messages"), dict):  # a channel
        for name in sorted(node["messages"]):
            inner = _local_target(document, f"{target}/messages/{name}")
            if inner is not None and isinstance(resolve(document, inner), dict):
                yield inner


def _local_target(document: Document, pointer: str) -> str | None:
    """Where the node at ``pointer`` leads, its local references followed; None where it leads
    nowhere, or to a reference not followed within the document (another file, an anchor)."""
    pointer, node = follow_local(document.data, resolve(document, pointer), pointer)
    if node is None or (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
        return None
    return pointer


def named_shapes(corpus: Context) -> Iterator[Site]:
    """Schemas that carry a role of their own: every location the role map reached (``$ref``
    targets and use sites) that holds a schema, in a stable order."""
    for path, pointer in sorted(corpus.roles.evidence):
        document = corpus.documents.get(path)
        if document is None or not document.usable:
            continue
        if document.kind is not DocumentKind.SCHEMA and not _is_schema_pointer(pointer):
            continue
        node = resolve(document, pointer)
        if isinstance(node, dict):
            yield Site(document, pointer, node)


def _is_schema_pointer(pointer: str) -> bool:
    return (
        pointer.endswith("/schema")
        or pointer.endswith("/payload")
        or bool(re.match(r"^/components/schemas/[^/]+$", pointer))
    )


@dataclass(frozen=True)
class ValueSet:
    """The enumerated values a schema lists, and whether anything outside them also passes."""

    values: tuple[Any, ...]
    holder: Site  # the schema that holds the list
    keyword: str  # enum | const | anyOf | oneOf
    open: bool  # an alternative admits values outside the list (a forward-compatible enum)


def value_set(corpus: Context, site: Site) -> ValueSet | None:
    """The listed values of a schema, comparing forward-compatible enums on their closed part
    (``anyOf: [{enum: [...]}, {pattern: ...}]`` lists the enum's values, and is ``open``). An
    array's ``items`` list counts as the array's. None when the schema lists no values."""
    return _value_set(corpus, site, frozenset())


def _value_set(
    corpus: Context, site: Site, visiting: frozenset[tuple[str, str]]
) -> ValueSet | None:
    site = follow(corpus, site)
    # A recursive schema (AsyncAPI's own: `anyOf: [{$ref: "#"}, ...]`) reaches itself again: that
    # alternative lists no values of its own, and the walk must end.
    here = (site.document.path, site.pointer)
    if here in visiting:
        return None
    visiting = visiting | {here}
    node = site.node
    if not isinstance(node, dict):
        return None
    if "const" in node:
        return ValueSet((node["const"],), site, "const", False)
    if isinstance(node.get("enum"), list):
        return ValueSet(tuple(node["enum"]), site, "enum", False)
    for keyword in ("anyOf", "oneOf"):
        alternatives = node.get(keyword)
        if isinstance(alternatives, list) and alternatives:
            values: list[Any] = []
            is_open = False
            for index, alternative in enumerate(alternatives):
                inner = _value_set(
                    corpus,
                    Site(
                        site.document,
                        join_pointer(join_pointer(site.pointer, keyword), index),
                        alternative,
                    ),
                    visiting,
                )
                if inner is None:
                    is_open = True
                    continue
                values += [v for v in inner.values if v not in values]
                is_open = is_open or inner.open
            if values:
                return ValueSet(tuple(values), site, keyword, is_open)
            return None
    branches = node.get("allOf")
    for index, branch in enumerate(branches if isinstance(branches, list) else []):
        at = join_pointer(join_pointer(site.pointer, "allOf"), index)
        inner = _value_set(corpus, Site(site.document, at, branch), visiting)
        if inner is not None:
            return inner  # a branch that lists the values bounds the whole
    # A draft-04..2019-09 tuple (`items: [...]`) has no one item schema (speclint.parsing.dialects).
    if isinstance(node.get("items"), (dict, bool)) and "array" in types_of(node):
        return _value_set(
            corpus,
            Site(site.document, join_pointer(site.pointer, "items"), node["items"]),
            visiting,
        )
    return None


def closed_values(corpus: Context, site: Site) -> tuple[list[Any], Site, str] | None:
    """The closed set of values a schema admits: (values, the schema holding the keyword, the
    keyword), or None when something outside a fixed set also passes."""
    found = value_set(corpus, site)
    if found is None or found.open:
        return None
    return list(found.values), found.holder, found.keyword


# --- the corpus's own words about closure ---------------------------------------------------------

_CLIENT_CLAUSE = re.compile(r"client[- ]submitted[^.]*\bclosed\b", re.IGNORECASE)
_SERVER_CLAUSE = re.compile(
    r"server[- ]emitted[^.]*\b(open|must not be closed|not closed)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class PolicyClause:
    text: str
    location: Location


def closure_policy(corpus: Context) -> dict[str, PolicyClause]:
    """Where the corpus states its closure policy in prose: {"client": ..., "server": ...}."""
    found: dict[str, PolicyClause] = {}
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        for side, clause in page_clauses(document):
            found.setdefault(side, clause)
    return found


def page_clauses(document: Document) -> list[tuple[str, PolicyClause]]:
    """The closure-policy clauses of one Markdown page, in order: all that is read of the page
    (``READS = "extract"``), kept with it (``speclint.analyses.units.kept_with_page``)."""
    return kept_with_page(document, "shapes.clauses", _page_clauses, list[tuple[str, PolicyClause]])


def _page_clauses(document: Document) -> list[tuple[str, PolicyClause]]:
    found: list[tuple[str, PolicyClause]] = []
    for paragraph in document.prose.paragraphs if document.prose is not None else ():
        plain = paragraph.plain  # made from the page's slices at each reading (prose.Paragraph)
        for side, pattern in (("client", _CLIENT_CLAUSE), ("server", _SERVER_CLAUSE)):
            if pattern.search(plain):
                found.append(
                    (
                        side,
                        PolicyClause(
                            _first_sentence(plain),
                            Location(
                                document.path,
                                paragraph.line,
                                1,
                                pointer=_anchor(paragraph.heading),
                                note="the closure policy this corpus states",
                            ),
                        ),
                    )
                )
    return found


def _anchor(heading: Heading | None) -> str:
    return f"#{heading.anchor}" if heading else ""


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    end = re.search(r"(?<=[a-z0-9)`*])\.(\s|$)", flat)
    sentence = flat[: end.start() + 1] if end else flat
    if len(sentence) <= 240:
        return sentence
    return sentence[:237].rsplit(" ", 1)[0] + " ..."
