"""Every schema object of a document, at every depth, with the dialect in force there.

A schema file is one schema; an OpenAPI document holds schema objects under ``components/schemas``
and in each parameter, header and media type (``schema``); an AsyncAPI document in each message
``payload`` and ``headers`` and under ``components/schemas``. Below each root, the subschemas are
the values of the applicator keywords of JSON Schema 2020-12 Core §10 and Validation §8, plus the
older spellings of the same places (``definitions``, array ``items``, ``additionalItems``,
``dependencies`` with schema values). Data keywords (``default``, ``const``, ``enum``,
``examples``) are never walked into: their values are instances, not schemas.

The walk is iterative and bounded (``MAX_DEPTH``), so a generated schema nested thousands deep is
read to that depth, never a RecursionError.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from speclint.analyses.schemas.validation import validator_class_at
from speclint.common.findings import headed
from speclint.model.corpus import Document
from speclint.parsing.ecma_patterns import unreadable as unreadable_pattern
from speclint.parsing.keyword_positions import Position, holds_data, position_at
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.regex_cost import oversized
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

MAX_DEPTH = 200

# Keywords whose value is one subschema; one map of them; a list of them.
_ONE = (
    "additionalItems",
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_MAP = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties")
_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")


@dataclass(frozen=True)
class SchemaObject:
    pointer: str
    node: dict[str, Any]
    declared: str | None  # the nearest `$schema` at or above this object, as written


def types_of(node: dict[str, Any]) -> set[str]:
    """The types a schema object's ``type`` names (none: any)."""
    declared = node.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    return set()


def schema_objects(document: Document) -> Iterator[SchemaObject]:
    """Every schema object (a mapping; boolean schemas say nothing to check) of ``document``."""
    for pointer, node in schema_roots(document):
        yield from _subschemas(node, pointer, None)


def schema_objects_from(root: Any, pointer: str) -> Iterator[SchemaObject]:
    """Every schema object from ``root`` (at ``pointer``) down: one of :func:`schema_roots`."""
    return _subschemas(root, pointer, None)


def schema_patterns(root: Any, pointer: str = "") -> Iterator[tuple[str, Any]]:
    """(pointer, pattern) of each regular expression of the schema objects from ``root`` (at
    ``pointer``) down: a ``pattern`` keyword's value, at that value, and each ``patternProperties``
    key, at that key (2020-12 Validation §6.3.3, §10.3.2.2). A property *named* ``pattern`` is
    a ``properties`` entry, a subschema, never the keyword."""
    for schema in _subschemas(root, pointer, None):
        node = schema.node
        if "pattern" in node:
            yield join_pointer(schema.pointer, "pattern"), node["pattern"]
        keyed = node.get("patternProperties")
        if isinstance(keyed, dict):
            under = join_pointer(schema.pointer, "patternProperties")
            yield from ((join_pointer(under, str(key)), key) for key in keyed)


OVERSIZED = "oversized-pattern"
UNREADABLE = "unreadable-pattern"


def refused_patterns(
    root: Any, pointer: str = "", *, unreadable: bool = True
) -> Iterator[tuple[str, str, str]]:
    """(pointer, kind, message) of each pattern of the schema objects from ``root`` (at
    ``pointer``) down (:func:`schema_patterns`) that no validator takes: one not compiled
    (:data:`OVERSIZED`: ``speclint.parsing.regex_cost.oversized``) and, with ``unreadable``,
    one no engine reads (:data:`UNREADABLE`: ``ecma_patterns.unreadable``; ``^a(b$``). Both
    are valid to a metaschema that does not assert ``format: "regex"`` (2020-12 Validation
    §7.3.8), and defects of the schema all the same. The rules that judge schemas report them
    (schema-invalid, openapi-invalid, asyncapi-invalid; openapi-invalid's validator asserts the
    format in OpenAPI 3: it asks for no ``unreadable`` there); the rules that judge values
    against them pass over them (issue 44, items 2 and 3)."""
    for at, pattern in schema_patterns(root, pointer):
        if not isinstance(pattern, str):
            continue
        # Quoted as JSON, as the schema writes it (messages speak JSON).
        shown = json.dumps(pattern if len(pattern) <= 60 else pattern[:57] + "...")
        why = oversized(pattern)
        if why is not None:
            yield (
                at,
                OVERSIZED,
                headed(
                    f"{at}: pattern {shown} cannot be compiled",
                    f": {why}; validators refuse it or run out of memory on it, and no value is "
                    "checked against it: write smaller counts (a length limit is "
                    "`minLength`/`maxLength`'s)",
                    f"pattern {shown} cannot be compiled",
                ),
            )
            continue
        refused = unreadable_pattern(pattern) if unreadable else None
        if refused is not None:
            yield (
                at,
                UNREADABLE,
                headed(
                    f"{at}: pattern {shown} is read by no engine: {refused.python}",
                    f" (Python; ECMA-262: {refused.ecma}); "
                    "ajv and check-jsonschema refuse the schema, and Python's jsonschema fails "
                    f"on the first string it checks: {refused.fix}",
                    f"pattern {shown} is read by no engine: {refused.python}",
                    f"pattern {shown} is read by no engine",
                ),
            )


def validator_class_of(document: Document, declared: str | None = None) -> Any:
    """The validator class for a schema object of ``document`` whose nearest ``$schema`` is
    ``declared`` (``SchemaObject.declared``): that dialect, else the document's own: a schema
    file's discovered draft, OpenAPI 3.1's ``jsonSchemaDialect`` (§4.8.1) or its OAS dialect,
    OpenAPI 3.0's Schema Object dialect, AsyncAPI's draft-07 (``validation.validator_class_at``)."""
    data = document.data if isinstance(document.data, dict) else {}
    if document.kind is DocumentKind.OPENAPI:
        default = data.get("jsonSchemaDialect")
        fallback = default if isinstance(default, str) else None
        return validator_class_at("openapi", str(data.get("openapi", "")), declared or fallback)
    if document.kind is DocumentKind.ASYNCAPI:
        return validator_class_at("asyncapi", str(data.get("asyncapi", "")), declared)
    own = data.get("$schema")
    return validator_class_at(
        "schema", document.dialect, declared or (own if isinstance(own, str) else None)
    )


def schema_holders(document: Document) -> Iterator[tuple[str, dict[str, Any]]]:
    """The objects of an OpenAPI document that hold a ``schema`` next to their examples:
    parameters, headers and media types, wherever they are (paths, webhooks, components)."""
    if document.kind is not DocumentKind.OPENAPI or not isinstance(document.data, dict):
        return
    for pointer, _ in _api_roots(document.data, "", frozenset({"schema"})):
        holder_pointer, _, last = pointer.rpartition("/")
        if last != "schema" or holder_pointer == "/components/schemas":
            continue  # a `components/schemas` entry: a schema, not a holder
        holder = resolve_pointer(document.data, holder_pointer)
        if isinstance(holder, dict):
            yield holder_pointer, holder


def schema_roots(document: Document) -> Iterator[tuple[str, Any]]:
    """Where the schema objects of a document start: a schema file's root; an OpenAPI
    document's ``components/schemas`` (Swagger 2.0: ``definitions``) and every ``schema``; an
    AsyncAPI document's ``components/schemas``, message ``payload``\\s and ``headers`` and
    parameter ``schema``\\s, never one written in another schema format (``schemaFormat``)."""
    data = document.data
    if document.kind is DocumentKind.SCHEMA:
        yield "", data
        return
    if not isinstance(data, dict):
        return
    if document.kind is DocumentKind.OPENAPI:
        yield from openapi_schema_roots(data)
    elif document.kind is DocumentKind.ASYNCAPI:
        yield from _api_roots(data, "", frozenset({"payload", "headers", "schema"}))


def openapi_schema_roots(node: Any, at: str = "") -> Iterator[tuple[str, Any]]:
    """:func:`schema_roots` of a part of an OpenAPI document at ``at``: a whole document, or a
    path item, parameter or response kept in a file of its own and reached by ``$ref``."""
    if isinstance(node, dict):
        yield from _api_roots(node, at, frozenset({"schema"}))


def referenced_schema_maps(data: Any) -> Iterator[str]:
    """The pointer of an API document's schema map written as a ``$ref`` to the file that holds
    it (``components: {schemas: {$ref: ./schemas/_index.yaml}}``; Swagger 2.0's
    ``definitions``): a bundler replaces it by the map, as it replaces ``paths: {$ref: …}``. Read
    as written, its ``$ref`` member would be a schema named ``$ref`` (a string, no schema)."""
    if not isinstance(data, dict):
        return
    places = [("/components", data.get("components"), "schemas")]
    if "swagger" in data:
        places.append(("", data, "definitions"))
    for at, holder, key in places:
        value = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(value, dict) and isinstance(value.get("$ref"), str):
            yield join_pointer(at, key)


def _api_roots(data: dict[str, Any], at: str, keys: frozenset[str]) -> Iterator[tuple[str, Any]]:
    """Schema roots of an API document: values under ``keys`` and ``components/schemas``, found
    by walking the document's own structure (never into a schema, an example or an extension)."""
    stack: list[tuple[str, Any, int]] = [(at, data, 0)]
    while stack:
        pointer, node, depth = stack.pop()
        if depth > MAX_DEPTH:
            continue
        children: list[tuple[str, Any]] = []
        if isinstance(node, dict):
            for key, value in node.items():
                key = str(key)
                here = join_pointer(pointer, key)
                if not api_structure(key, pointer):
                    continue
                if (
                    key in ("schemas", "definitions")
                    and isinstance(value, dict)
                    and (
                        (pointer == "/components" and key == "schemas")
                        or (pointer == "" and key == "definitions" and "swagger" in data)
                    )
                ):
                    for name, schema in value.items():
                        yield from _schema_or_multi_format(join_pointer(here, str(name)), schema)
                elif key in keys and isinstance(value, dict):
                    if _multi_format(node) and key == "schema":
                        continue  # the schema of a Multi Format Schema Object: judged above
                    if key == "payload" and "schemaFormat" in value:
                        # AsyncAPI 3 Multi Format Schema Object: the schema is its `schema`, and
                        # only when the format is JSON Schema or AsyncAPI's own (3.0.0 §3.3.32).
                        if _json_schema_format(value.get("schemaFormat")):
                            yield join_pointer(here, "schema"), value.get("schema")
                    elif key == "payload" and not _json_schema_format(
                        node.get("schemaFormat", "application/schema")
                    ):
                        continue  # AsyncAPI 2: an Avro or RAML payload (2.6.0 §4.3.10)
                    else:
                        yield here, value
                else:
                    children.append((here, value))
        elif isinstance(node, list):
            children = [(join_pointer(pointer, index), value) for index, value in enumerate(node)]
        for child in reversed(children):
            stack.append((child[0], child[1], depth + 1))


def structure_refs(node: Any, at: str, schemas: frozenset[str]) -> Iterator[str]:
    """The pointer of each object with a ``$ref`` member below ``node`` (at ``at``), in document
    order: not in a schema object (at ``schemas``), an extension (``x-``) or data, the places
    where an API document keeps a part in another file (a path item, a response, an example)."""
    stack: list[tuple[str, Any]] = [(at, node)]
    while stack:
        pointer, current = stack.pop()
        if pointer in schemas:
            continue
        if isinstance(current, dict):
            if isinstance(current.get("$ref"), str):
                yield pointer
            for key, value in reversed(current.items()):
                if isinstance(value, (dict, list)) and api_structure(str(key), pointer):
                    stack.append((join_pointer(pointer, str(key)), value))
        elif isinstance(current, list):
            stack.extend(
                (join_pointer(pointer, index), value)
                for index, value in reversed(list(enumerate(current)))
                if isinstance(value, (dict, list))
            )


def api_structure(key: str, pointer: str) -> bool:
    """Whether the member ``key`` of the object at ``pointer`` of an API document is part of its
    structure, to walk into for schemas and references: not an extension (``x-``), bindings
    (foreign formats) nor data (an example, a default, an enum) where ``key`` is a field; a
    Responses Object's ``default`` response, a parameter component named ``example``, are
    structure (OpenAPI 3.1.1 §4.8.16.1; ``keyword_positions``)."""
    if key.startswith("x-") or key == "bindings":
        return False
    return not holds_data(_api_position(pointer), key)


@functools.lru_cache(maxsize=1 << 14)
def _api_position(pointer: str) -> Position:
    """The position of the object at ``pointer`` of an API document (or of a part of one in a
    file of its own): asked for each of its members, found once."""
    return position_at(split_pointer(pointer), Position.API)


def _multi_format(node: Any) -> bool:
    """An AsyncAPI 3 Multi Format Schema Object (3.0.0 §3.3.32): ``schemaFormat`` and ``schema``."""
    return isinstance(node, dict) and "schemaFormat" in node and "schema" in node


def _schema_or_multi_format(pointer: str, node: Any) -> Iterator[tuple[str, Any]]:
    if not _multi_format(node):
        yield pointer, node
    elif _json_schema_format(node.get("schemaFormat")):
        yield join_pointer(pointer, "schema"), node["schema"]


def _json_schema_format(schema_format: Any) -> bool:
    text = str(schema_format or "")
    return text.startswith(("application/vnd.aai.asyncapi", "application/schema"))  # +json, +yaml


def _subschemas(root: Any, pointer: str, declared: str | None) -> Iterator[SchemaObject]:
    stack: list[tuple[str, Any, str | None, int]] = [(pointer, root, declared, 0)]
    while stack:
        at, node, inherited, depth = stack.pop()
        if not isinstance(node, dict) or depth > MAX_DEPTH:
            continue
        own = node.get("$schema")
        dialect = own if isinstance(own, str) else inherited
        yield SchemaObject(at, node, dialect)
        children: list[tuple[str, Any]] = []
        for keyword in _ONE:
            if keyword in node:
                children.append((join_pointer(at, keyword), node[keyword]))
        items = node.get("items")
        if isinstance(items, list):  # draft-04 to 2019-09 tuple form
            children += [
                (join_pointer(join_pointer(at, "items"), i), v) for i, v in enumerate(items)
            ]
        elif items is not None:
            children.append((join_pointer(at, "items"), items))
        for keyword in (*_MAP, "dependencies"):
            members = node.get(keyword)
            if isinstance(members, dict):
                for name, value in members.items():
                    # `dependencies` values are schemas or lists of names (draft-07 §6.5.7).
                    children.append((join_pointer(join_pointer(at, keyword), str(name)), value))
        for keyword in _LIST:
            members = node.get(keyword)
            if isinstance(members, list):
                children += [
                    (join_pointer(join_pointer(at, keyword), i), v) for i, v in enumerate(members)
                ]
        for child_at, child in reversed(children):
            stack.append((child_at, child, dialect, depth + 1))
