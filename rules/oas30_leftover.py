"""An OpenAPI 3.0 Schema Object keyword left in an OpenAPI 3.1 document, where it means nothing.

What it does
    In an OpenAPI 3.1 (or later) document, reports each Schema Object that says
    ``nullable: true`` while its own keywords reject ``null`` (a ``type`` without ``"null"``,
    an ``enum`` or ``const`` without it, a ``$ref`` or composition), and each Schema Object
    that writes ``example`` beside a JSON Schema ``examples`` array, at the keyword, with the
    3.1 spelling. Schema Objects in files the document's ``$ref``\\s keep them in are judged
    too when only 3.1 documents own those files; one reached through an OpenAPI 3.0 document,
    or from it, is that document's, and ``nullable`` is a keyword there. A boolean
    ``exclusiveMinimum``/``exclusiveMaximum``, which 3.1 rejects, is ``openapi-invalid``'s.

Why is this bad?
    OpenAPI 3.1's Schema Object is JSON Schema 2020-12 (3.1.0 §4.8.24), which has no
    ``nullable``: an unknown keyword is an annotation, so ``type: string, nullable: true`` still
    rejects ``null``, and a client that sends the ``null`` the author meant to allow fails
    validation. ``example`` is deprecated in the 3.1 Schema Object "in favor of the JSON Schema
    examples keyword" (§4.8.24.1); beside ``examples`` one of the two is ignored by whichever
    tool reads the other.

Example
    ::

        openapi: 3.1.0
        components:
          schemas:
            Run:
              properties:
                note: {type: string, nullable: true}
                tag: {type: string, example: a, examples: [b]}

    FAIL: ``warning [oas30-leftover] `nullable` is no keyword in OpenAPI 3.1: this schema
    still rejects `null`; write `type: ["string", "null"]` and delete `nullable` ...``

Use instead
    ::

                note: {type: [string, "null"]}
                tag: {type: string, examples: [a, b]}

    PASS.

Options
    None.

Limitations
    ``example`` alone (no ``examples`` beside it) is deprecated but valid, and is not reported.
    A Schema Object that declares a ``$schema`` of its own is judged by it, not here. Fragment
    files are read where the OpenAPI structure puts schemas (``schema``, ``components``) and as
    whole schema files; a ``$ref`` into a map of loose schemas is not followed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schema_objects import (
    SchemaObject,
    openapi_schema_roots,
    schema_objects,
    schema_objects_from,
)
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "oas30-leftover"
SEVERITY = Severity.WARNING
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
FACTS = ("references",)

# The dialects a 3.1 document's Schema Objects may declare and still be 2020-12 underneath
# (3.1.0 §4.8.24.3: the OAS base dialect, or plain 2020-12).
_MODERN_DIALECTS = frozenset(
    {
        "https://spec.openapis.org/oas/3.1/dialect/base",
        "https://json-schema.org/draft/2020-12/schema",
    }
)
_COMPOSITIONS = ("$ref", "allOf", "oneOf", "anyOf")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    owners = _owners(corpus)
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        if _family(document) == "3.1+" and _modern_default(document):
            for root_at, root in openapi_schema_roots(document.data):
                yield from _judged(document, schema_objects_from(root, root_at))
    for path, families in sorted(owners.items()):
        fragment = corpus.documents.get(path)
        if fragment is None or families != {"3.1+"}:
            continue
        if fragment.kind is DocumentKind.SCHEMA:
            data = fragment.data
            if isinstance(data, dict) and "$schema" not in data:
                yield from _judged(fragment, schema_objects(fragment))
        elif fragment.kind is DocumentKind.DATA and isinstance(fragment.data, dict):
            for root_at, root in openapi_schema_roots(fragment.data):
                yield from _judged(fragment, schema_objects_from(root, root_at))


def _family(document: Document) -> str:
    """``3.0`` (``nullable`` is a keyword), ``3.1+`` (2020-12 Schema Objects), or another
    (Swagger, AsyncAPI: their own dialects)."""
    data = document.data if isinstance(document.data, dict) else {}
    if document.kind is not DocumentKind.OPENAPI:
        return "other"
    version = str(data.get("openapi", ""))
    if version.startswith("3.0"):
        return "3.0"
    # 3.1 and later: JSON Schema 2020-12 Schema Objects (3.2 keeps them).
    return "3.1+" if version.startswith("3.") and version[2:3].isdigit() else "other"


def _modern_default(document: Document) -> bool:
    """Whether the document's ``jsonSchemaDialect`` (3.1.0 §4.8.1), if any, is 2020-12's."""
    data = document.data if isinstance(document.data, dict) else {}
    declared = data.get("jsonSchemaDialect")
    return declared is None or str(declared).rstrip("#") in _MODERN_DIALECTS


def _owners(corpus: Context) -> dict[str, set[str]]:
    """Each fragment file (no API document itself) that API documents reach by ``$ref``,
    directly or through other fragments, with the families of the documents that reach it.
    The walk stops at another API document: what it reaches is that document's."""
    index = corpus.references
    owners: dict[str, set[str]] = {}
    api_kinds = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
    for document in sorted(
        (d for kind in api_kinds for d in corpus.of_kind(kind)), key=lambda d: d.path
    ):
        family = _family(document)
        seen = {document.path}
        stack = [document.path]
        while stack:
            current = stack.pop()
            for reference in index.within(current, ""):
                target = reference.target_path
                if target is None or target in seen:
                    continue
                seen.add(target)
                found = corpus.documents.get(target)
                if found is None or found.kind in api_kinds:
                    continue
                owners.setdefault(target, set()).add(family)
                stack.append(target)
    return owners


def _judged(document: Document, schemas: Iterable[SchemaObject]) -> Iterator[Finding]:
    for schema in schemas:
        if schema.declared is not None and schema.declared.rstrip("#") not in _MODERN_DIALECTS:
            continue  # a `$schema` of its own: judged by that dialect
        node = schema.node
        if node.get("nullable") is True:
            fix = _nullable_fix(node)
            if fix is not None:
                yield Finding(
                    ID,
                    SEVERITY,
                    "`nullable` is no keyword in OpenAPI 3.1 (its Schema Objects are JSON Schema "
                    f"2020-12, §4.8.24): this schema still rejects `null`; {fix} and delete "
                    "`nullable`",
                    document.location(join_pointer(schema.pointer, "nullable")),
                    key=f"nullable:{schema.pointer}",
                )
        examples = node.get("examples")
        if "example" in node and isinstance(examples, list):
            already = node["example"] in examples
            fix = (
                "delete `example`: its value is already in `examples`"
                if already
                else "move its value into the `examples` array and delete `example`"
            )
            yield Finding(
                ID,
                SEVERITY,
                "`example` beside `examples` in an OpenAPI 3.1 Schema Object: `example` is "
                "deprecated there in favour of JSON Schema's `examples` (§4.8.24.1), and tools "
                f"read one or the other; {fix}",
                document.location(join_pointer(schema.pointer, "example")),
                related=(document.location(join_pointer(schema.pointer, "examples")),),
                key=f"example:{schema.pointer}",
            )


def _nullable_fix(node: dict[str, Any]) -> str | None:
    """The 3.1 spelling of ``nullable: true`` for ``node``, or None when its keywords admit
    ``null`` already (``nullable`` is then only dead weight, and changes nothing)."""
    declared = node.get("type")
    enum = node.get("enum")
    enum_fix = (
        " and add `null` to its `enum`" if isinstance(enum, list) and None not in enum else ""
    )
    if isinstance(declared, str):
        if declared == "null":
            return None
        return f"write `type: {json.dumps([declared, 'null'])}`{enum_fix}"
    if isinstance(declared, list):
        if "null" in declared:
            return None
        return f'add `"null"` to `type`{enum_fix}'
    if isinstance(enum, list):
        return "add `null` to its `enum`" if None not in enum else None
    if "const" in node:
        return None if node["const"] is None else 'write `anyOf: [{const: ...}, {type: "null"}]`'
    for keyword in _COMPOSITIONS:
        if keyword in node:
            return f'write `anyOf: [{{{keyword}: ...}}, {{type: "null"}}]`'
    return None
