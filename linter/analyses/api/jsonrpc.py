"""The JSON-RPC methods a corpus defines (issue 30, item 3: a method table's JSON-RPC column).

JSON-RPC 2.0 (§4) names the procedure of a request or notification in its ``method`` member. A
specification defines its methods in one of two ways:

- a JSON Schema definition of the request (or notification) that fixes ``method`` with a
  ``const`` or a one-value ``enum`` beside the envelope's other members (A2A's
  ``SendMessageRequest``: ``"method": {"const": "message/send"}`` with ``jsonrpc``, ``id`` and
  ``params``; MCP's ``CallToolRequest``: ``method`` and ``params``), or an ``enum`` of several
  methods one definition serves;
- an OpenRPC document's ``methods[].name`` (OpenRPC 1.x §4.8.2), a method given by a local
  reference read through it.

Schemas are read wherever they are: schema files (a definition's ``allOf`` parts too) and the
schemas of OpenAPI and AsyncAPI documents (a JSON-RPC request defined as a component). A
``method`` fixed to an HTTP verb is a route's, not a procedure's.

A definition fixing ``method`` without any other JSON-RPC member (an HTTP ``method`` of a route
object, say) is not a JSON-RPC request and defines nothing here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote

from speclint.analyses.api.operations import HTTP_METHODS
from speclint.analyses.context import Context
from speclint.analyses.grpc.surfaces import MethodRow, bound
from speclint.analyses.prose.fences import example_definitions
from speclint.common.findings import Location
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer

# The envelope members beside `method` that make a definition a JSON-RPC message (JSON-RPC 2.0
# §4); `id` alone is not one (any resource has an id).
_ENVELOPE = frozenset({"jsonrpc", "params"})
_DEPTH = 64  # how deep schemas are walked for request definitions: deeper is a pathology


@dataclass(frozen=True)
class MethodDefinition:
    """Where a JSON-RPC method is defined: a schema definition or an OpenRPC method object."""

    method: str
    path: str
    pointer: str
    openrpc: bool = False

    def location(self, corpus: Context, note: str) -> Location:
        document = corpus.documents[self.path]
        return document.location(self.pointer, note=note)


@dataclass(frozen=True)
class DefinedMethods:
    """The corpus's JSON-RPC methods by name, each with its definitions (in path order), and
    whether all were read: an OpenRPC method given by a reference out of its document is not,
    and then no method may be said to be undefined."""

    by_name: Mapping[str, tuple[MethodDefinition, ...]]
    complete: bool


def defined_methods(corpus: Context) -> DefinedMethods:
    """Each JSON-RPC method the corpus defines (kept in the memo): request and notification
    schemas wherever a schema is (schema files, with their ``allOf`` parts; OpenAPI and AsyncAPI
    documents' schemas too), and OpenRPC methods."""
    cached = corpus.memo.get("jsonrpc:methods")
    if cached is not None:
        return cast(DefinedMethods, cached)
    found: dict[str, dict[tuple[str, str], MethodDefinition]] = {}

    def add(method: Any, path: str, pointer: str, openrpc: bool = False) -> None:
        # an HTTP verb is a route's method, not a procedure's (a `method` enum of verbs)
        verb = isinstance(method, str) and method.isupper() and method.lower() in HTTP_METHODS
        if isinstance(method, str) and method and not verb:
            found.setdefault(method, {})[(path, pointer)] = MethodDefinition(
                method, path, pointer, openrpc
            )

    for definition in example_definitions(corpus):
        allowed = definition.fixed.get("method")
        if allowed is None or not (definition.properties & _ENVELOPE):
            continue
        target = definition.target
        pointer = f"{target.pointer}/properties/method"
        if resolve_pointer(target.document.data, pointer) is None:
            pointer = target.pointer  # fixed in an allOf part
        for value in sorted(allowed[0]):
            add(json.loads(value), target.document.path, pointer)
    kinds = (DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
    for document in corpus.of_kind(*kinds):
        if document.usable and document.path not in corpus.derived:
            for pointer, method in _envelopes(document.data, ""):
                add(method, document.path, pointer)
    complete = True
    for document in sorted(corpus.documents.values(), key=lambda d: d.path):
        data = document.data if document.usable else None
        if not isinstance(data, dict) or not isinstance(data.get("openrpc"), str):
            continue
        methods = data.get("methods")
        for number, entry in enumerate(methods if isinstance(methods, list) else ()):
            pointer = f"/methods/{number}"
            reference = entry.get("$ref") if isinstance(entry, dict) else None
            if isinstance(reference, str):
                # OpenRPC 1.x §4.8.2: a method may be a Reference Object
                referenced = (
                    resolve_pointer(data, unquote(reference[1:]))
                    if reference.startswith("#/")
                    else None
                )
                if not isinstance(referenced, dict):
                    complete = False  # another file's method: unknown here
                    continue
                entry, pointer = referenced, unquote(reference[1:])
            name = entry.get("name") if isinstance(entry, dict) else None
            add(name, document.path, f"{pointer}/name", openrpc=True)
    result = DefinedMethods(
        {
            method: tuple(entries[k] for k in sorted(entries))
            for method, entries in sorted(found.items())
        },
        complete,
    )
    corpus.memo["jsonrpc:methods"] = result
    return result


def _envelopes(node: Any, pointer: str, depth: int = 0) -> Iterator[tuple[str, Any]]:
    """(pointer of ``properties/method``, each method) of every schema below ``node`` whose
    ``properties`` fix ``method`` beside ``jsonrpc`` or ``params``."""
    if depth > _DEPTH:
        return
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and properties.keys() & _ENVELOPE:
            method = properties.get("method")
            if isinstance(method, dict):
                at = f"{pointer}/properties/method"
                if "const" in method:
                    yield at, method["const"]
                elif isinstance(method.get("enum"), list):
                    yield from ((at, value) for value in method["enum"])
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                yield from _envelopes(value, join_pointer(pointer, str(key)), depth + 1)
    elif isinstance(node, list):
        for number, value in enumerate(node):
            if isinstance(value, (dict, list)):
                yield from _envelopes(value, f"{pointer}/{number}", depth + 1)


def table_methods(
    corpus: Context, rows: list[MethodRow]
) -> dict[tuple[int, str], tuple[MethodDefinition, ...]] | None:
    """Each JSON-RPC method of a method table's rows, by (row line, method), with its
    definitions of the page's version (none: undefined), or None when the table is not bound
    to the definitions (:func:`speclint.analyses.grpc.surfaces.bound`) or not all methods could be
    read. Rows limited to other transports ("gRPC/REST only") give no method."""
    defined = defined_methods(corpus)
    if not defined.complete:
        return None  # a method defined in another file: none may be said to be undefined
    found = {
        (row.line, method): tuple(
            d
            for d in defined.by_name.get(method, ())
            if corpus.versions.comparable(row.page, d.path)
        )
        for row in rows
        if row.claims("jsonrpc")
        for method, _ in row.methods
    }
    matched = sum(1 for definitions in found.values() if definitions)
    return found if bound(matched, len(found)) else None
