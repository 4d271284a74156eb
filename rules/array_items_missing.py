"""A Swagger 2.0 or OpenAPI 3.0 Schema Object with ``type: array`` and no ``items``.

What it does
    Reports each Schema Object that says ``type: array`` without ``items`` when every document
    that reads it is Swagger 2.0 or OpenAPI 3.0: in the document's structure, in the path
    items, parameters and responses it keeps in other files, and in the schema files its
    ``$ref``\\s reach (the finding is in the file where the schema is written).

Why is this bad?
    OpenAPI 3.0 says "``items`` MUST be present if the ``type`` is ``array``" (3.0.4
    §4.7.24.1); Swagger 2.0 makes ``items`` "Required if type is array". Without it the element
    type is unknown: generators emit a list of anything, and validators disagree.

Example
    ::

        openapi: 3.0.3
        components:
          schemas:
            Tags: {type: array}

    FAIL: ``error [array-items-missing] `type: array` without `items` ...``

Use instead
    ::

            Tags: {type: array, items: {type: string}}

    PASS.

Options
    None.

Limitations
    OpenAPI 3.1 and later are not judged: their Schema Objects are JSON Schema 2020-12, where
    an array schema without ``items`` accepts any elements. A schema that a 3.1 document also
    reaches is not judged. Swagger 2.0's non-body parameters and headers are not read. A
    ``type: array`` beside a ``$ref`` is ignored with its siblings (3.0.4 §4.7.23), not judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.api_schemas import api_schema_objects
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.structured import join_pointer

ID = "array-items-missing"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)

_OLD = frozenset({"2.0", "3.0"})


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for found in api_schema_objects(corpus):
        if not found.families or not found.families <= _OLD:
            continue
        node = found.schema.node
        if node.get("type") != "array" or "items" in node or "$ref" in node:
            continue
        if found.schema.declared is not None:
            continue  # a `$schema` of its own: judged by that dialect
        version = "Swagger 2.0" if found.families == {"2.0"} else "OpenAPI 3.0"
        yield Finding(
            ID,
            SEVERITY,
            f"`type: array` without `items`: {version} requires `items` on every array schema "
            "(OpenAPI 3.0.4 §4.7.24.1: `items` MUST be present; Swagger 2.0 Schema Object); "
            "add `items` with the schema of the elements (`items: {}` for any)",
            found.document.location(join_pointer(found.schema.pointer, "type")),
            key=f"items:{found.schema.pointer}",
        )
