"""The JSON-RPC methods a corpus defines (issue 30, item 3: a method table's JSON-RPC column).

JSON-RPC 2.0 (§4) names the procedure of a request or notification in its ``method`` member. A
specification defines its methods in one of two ways:

- a JSON Schema definition of the request (or notification) that fixes ``method`` with a
  ``const`` or a one-value ``enum`` beside the envelope's other members (A2A's
  ``SendMessageRequest``: ``"method": {"const": "message/send"}`` with ``jsonrpc``, ``id`` and
  ``params``; MCP's ``CallToolRequest``: ``method`` and ``params``), or an ``enum`` of several
  methods one definition serves;
- an OpenRPC document's ``methods[].name`` (OpenRPC 1.x §4.8.2).

A definition fixing ``method`` without any other JSON-RPC member (an HTTP ``method`` of a route
object, say) is not a JSON-RPC request and defines nothing here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from speclint.analyses.context import Context
from speclint.analyses.fences import example_definitions
from speclint.common.findings import Location
from speclint.parsing.structured import resolve_pointer

# The envelope members beside `method` that make a definition a JSON-RPC message (JSON-RPC 2.0
# §4); `id` alone is not one (any resource has an id).
_ENVELOPE = frozenset({"jsonrpc", "params"})


@dataclass(frozen=True)
class MethodDefinition:
    """Where a JSON-RPC method is defined: a schema definition or an OpenRPC method object."""

    method: str
    path: str
    pointer: str

    def location(self, corpus: Context, note: str) -> Location:
        document = corpus.documents[self.path]
        return document.location(self.pointer, note=note)


def defined_methods(corpus: Context) -> Mapping[str, tuple[MethodDefinition, ...]]:
    """Each JSON-RPC method the corpus defines, with its definitions (in path order). Built
    once."""
    cached = corpus.memo.get("jsonrpc:methods")
    if cached is not None:
        return cast(Mapping[str, tuple[MethodDefinition, ...]], cached)
    found: dict[str, list[MethodDefinition]] = {}
    for definition in example_definitions(corpus):
        allowed = definition.fixed.get("method")
        if allowed is None or not (definition.properties & _ENVELOPE):
            continue
        target = definition.target
        for value in sorted(allowed[0]):
            method = json.loads(value)
            if isinstance(method, str) and method:
                pointer = f"{target.pointer}/properties/method"
                if resolve_pointer(target.document.data, pointer) is None:
                    pointer = target.pointer  # fixed in an allOf part
                found.setdefault(method, []).append(
                    MethodDefinition(method, target.document.path, pointer)
                )
    for document in sorted(corpus.documents.values(), key=lambda d: d.path):
        data = document.data if document.usable else None
        if not isinstance(data, dict) or not isinstance(data.get("openrpc"), str):
            continue
        methods = data.get("methods")
        for number, entry in enumerate(methods if isinstance(methods, list) else ()):
            name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(name, str) and name:
                found.setdefault(name, []).append(
                    MethodDefinition(name, document.path, f"/methods/{number}/name")
                )
    result = {method: tuple(entries) for method, entries in sorted(found.items())}
    corpus.memo["jsonrpc:methods"] = result
    return result
