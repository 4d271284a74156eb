"""An OpenAPI 3.0 Schema Object keyword left in an OpenAPI 3.1 document, where it means nothing.

What it does
    In an OpenAPI 3.1 (or later) document, reports each Schema Object that says
    ``nullable: true`` while its own keywords reject ``null`` (a ``type`` without ``"null"``,
    an ``enum`` or ``const`` without it, a ``$ref`` or composition), and each that writes
    ``example`` beside a JSON Schema ``examples`` array, at the keyword, with the 3.1 spelling.
    Files the document's ``$ref``\\s keep schemas in are judged too, unless a document of
    another version (OpenAPI 3.0, where ``nullable`` is a keyword) also reaches them. A boolean
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
    ``example`` alone is deprecated but valid: not reported. A Schema Object with a ``$schema`` of
    its own is judged by it, not here. A loose schema that neither the OpenAPI structure
    (``schema``, ``components``) nor a ``$ref`` names is not judged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import (
    SchemaObject,
    openapi_schema_roots,
    referenced_schema_maps,
    schema_objects_from,
)
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer

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

    def judged_file(path: str) -> Document | None:
        """The document at ``path`` when its Schema Objects are 3.1's: a 3.1 document, or a
        fragment only 3.1 documents own."""
        document = corpus.documents.get(path)
        if document is None:
            return None
        if document.kind is DocumentKind.OPENAPI:
            return document if _family(document) == "3.1+" and _modern_default(document) else None
        declared = document.data.get("$schema") if isinstance(document.data, dict) else None
        if declared is not None and str(declared).rstrip("#") not in _MODERN_DIALECTS:
            return None  # a file of another dialect: judged by it, wherever a `$ref` enters
        return document if owners.get(path) == {"3.1+"} else None

    # Where Schema Objects start (path, pointer): the API structure of each 3.1 document and of
    # its fragments, a schema file's root, and every target of a `$ref` written in a schema
    # (a map of loose schemas, `schemas.json#/Error`, holds schemas only where one names them).
    work: list[tuple[str, str]] = []
    for path in sorted({*(d.path for d in corpus.of_kind(DocumentKind.OPENAPI)), *owners}):
        document = judged_file(path)
        if document is None or not isinstance(document.data, dict):
            continue
        if document.kind is DocumentKind.SCHEMA:
            work.append((path, ""))
        else:
            work += [(path, at) for at, _ in openapi_schema_roots(document.data)]
            # `components: {schemas: {$ref: ./schemas.json}}`: a bundler puts the map there, so
            # each of its members is a component schema.
            for at in referenced_schema_maps(document.data):
                reference = corpus.references.at(path, join_pointer(at, "$ref"))
                if reference is None or reference.outcome != "ok" or not reference.target_path:
                    continue
                held = corpus.documents.get(reference.target_path)
                inside = reference.target_pointer or ""
                members = resolve_pointer(held.data, inside) if held is not None else None
                if isinstance(members, dict):
                    work += [(reference.target_path, join_pointer(inside, str(n))) for n in members]
    seen: set[tuple[str, str]] = set()
    work.reverse()
    while work:
        path, root_at = work.pop()
        document = judged_file(path)
        if document is None or (path, root_at) in seen:
            continue
        fresh = []
        for schema in schema_objects_from(resolve_pointer(document.data, root_at), root_at):
            if (path, schema.pointer) in seen:
                continue
            seen.add((path, schema.pointer))
            fresh.append(schema)
            reference = corpus.references.at(path, join_pointer(schema.pointer, "$ref"))
            if reference is not None and reference.outcome == "ok" and reference.target_path:
                work.append((reference.target_path, reference.target_pointer or ""))
        yield from _judged(document, fresh)


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
