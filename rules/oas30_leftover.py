"""An OpenAPI 3.0 Schema Object keyword left in an OpenAPI 3.1 document, where it means nothing.

What it does
    In an OpenAPI 3.1 (or later) document, reports each Schema Object that writes ``nullable``
    (saying whether its own keywords still reject ``null``: a ``type`` without ``"null"``, an
    ``enum`` or ``const`` without it, a ``$ref`` or composition, or already allow it), and each
    that writes ``example`` beside a JSON Schema ``examples`` array, at the keyword, with the
    3.1 spelling.
    Files the document's ``$ref``\\s keep schemas in are judged too, unless a document of
    another version (OpenAPI 3.0, where ``nullable`` is a keyword) also reaches them. A boolean
    ``exclusiveMinimum``/``exclusiveMaximum``, which 3.1 rejects, is ``openapi-invalid``'s.

Why is this bad?
    OpenAPI 3.1's Schema Object is JSON Schema 2020-12 (3.1.0 §4.8.24), which has no
    ``nullable``: an unknown keyword is an annotation, so ``type: string, nullable: true`` still
    rejects ``null``, and a client that sends the ``null`` the author meant to allow fails
    validation; elsewhere it misleads the reader. ``example`` is deprecated in the 3.1 Schema
    Object "in favor of the JSON Schema examples keyword" (§4.8.24.1); beside ``examples`` one
    of the two is ignored by whichever tool reads the other.

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

from speclint.analyses.api.versioned_schemas import MODERN_DIALECTS, family_schema_objects
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import SchemaObject
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.structured import join_pointer

ID = "oas30-leftover"
SEVERITY = Severity.WARNING
FACTS = ("references",)

_COMPOSITIONS = ("$ref", "allOf", "oneOf", "anyOf")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document, schemas in family_schema_objects(corpus, "3.1+"):
        yield from _judged(document, schemas)


def _judged(document: Document, schemas: Iterable[SchemaObject]) -> Iterator[Finding]:
    for schema in schemas:
        if schema.declared is not None and schema.declared.rstrip("#") not in MODERN_DIALECTS:
            continue  # a `$schema` of its own: judged by that dialect
        node = schema.node
        if "nullable" in node:
            yield _nullable(document, schema)
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


def _nullable(document: Document, schema: SchemaObject) -> Finding:
    """The finding of a ``nullable`` member in a 3.1 Schema Object: every one means nothing
    there (2020-12 has no such keyword: an unknown keyword is an annotation, Core §6.5)."""
    node = schema.node
    fix = _nullable_fix(node) if node["nullable"] is True else None
    if fix is not None:
        message = (
            "`nullable` is no keyword in OpenAPI 3.1 (its Schema Objects are JSON Schema "
            f"2020-12, §4.8.24): this schema still rejects `null`; {fix} and delete `nullable`"
        )
    elif node["nullable"] is True:
        why = (
            'its `type` lists "null"'
            if "type" in node
            else "its `enum` or `const` holds `null`"
            if "enum" in node or "const" in node
            else "it names no `type`"
        )
        message = (
            "`nullable` is no keyword in OpenAPI 3.1 (its Schema Objects are JSON Schema "
            f"2020-12, §4.8.24) and means nothing here: this schema already allows `null` ({why}); "
            "delete `nullable`"
        )
    else:
        message = (
            f"`nullable: {json.dumps(node['nullable'])}` is no keyword in OpenAPI 3.1 (its Schema "
            "Objects are JSON Schema 2020-12, §4.8.24) and means nothing here: whether `null` is "
            "allowed is for `type` to say; delete `nullable`"
        )
    return Finding(
        ID,
        SEVERITY,
        message,
        document.location(join_pointer(schema.pointer, "nullable")),
        key=f"nullable:{schema.pointer}",
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
