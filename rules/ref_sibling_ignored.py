"""A Swagger 2.0 or OpenAPI 3.0 schema that says more beside its ``$ref``, which is ignored.

What it does
    In Schema Objects that only Swagger 2.0 and OpenAPI 3.0 documents read (and the files they
    reach), finds each ``$ref`` with members beside it that would change what the schema means:
    ``readOnly``, ``writeOnly``, ``nullable`` (beside a ``type``), ``default``, ``enum``,
    ``required``, bounds and lengths, ``properties``, compositions. One finding per schema, at
    the first such member, the others named. Not reported: annotations (``description``,
    ``title``, ``example``, ``deprecated``, ``x-``), ``type`` and ``format``, and a member
    whose value the target already has.

Why is this bad?
    A Reference Object "cannot be extended with additional properties, and any properties added
    SHALL be ignored" (OpenAPI 3.0.4 §4.7.23; Swagger 2.0 reads ``$ref`` as JSON Reference,
    which replaces the object). ``{$ref: Link, readOnly: true}`` is not read-only to a client
    generator or a validator: the author's constraint is silently lost. OpenAPI 3.1 made
    ``$ref`` a keyword beside others (JSON Schema 2020-12), so the same text means what it says
    there.

Example
    ::

        openapi: 3.0.3
        components:
          schemas:
            Run:
              properties:
                self: {$ref: '#/components/schemas/Link', readOnly: true}

    FAIL: ``warning [ref-sibling-ignored] `readOnly` beside `$ref` is ignored ...``

Use instead
    ::

                self:
                  readOnly: true
                  allOf: [{$ref: '#/components/schemas/Link'}]

    PASS.

Options
    None.

Limitations
    A ``nullable`` beside a ``$ref`` with no ``type`` is ``nullable-without-type``'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.api_schemas import api_schema_objects
from speclint.analyses.api.inlining import corpus_target
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.structured import join_pointer

ID = "ref-sibling-ignored"
SEVERITY = Severity.WARNING  # the document is valid; what the author wrote does nothing
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)

_OLD = frozenset({"2.0", "3.0"})
# The members that change what a value may be, or how a client treats it (2.0 and 3.0 Schema
# Object); annotations, `type` and `format` (most often a copy of the target's) are left out.
_MEANINGFUL = (
    "readOnly",
    "writeOnly",
    "nullable",
    "default",
    "enum",
    "required",
    "properties",
    "additionalProperties",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "discriminator",
)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for found in api_schema_objects(corpus):
        node = found.schema.node
        if not isinstance(node.get("$ref"), str) or not found.families or found.families - _OLD:
            continue  # read by 3.1 too (a keyword beside others there), or no `$ref`
        ignored = [key for key in _MEANINGFUL if key in node]
        if "nullable" in ignored and "type" not in node:
            ignored.remove("nullable")  # nullable-without-type says it, with the fix
        if not ignored:
            continue
        target = corpus_target(corpus, found.document, found.schema.pointer)
        said = target[2] if target is not None and isinstance(target[2], dict) else {}
        ignored = [key for key in ignored if key not in said or said[key] != node[key]]
        if not ignored:
            continue  # each repeats what the target says: nothing is lost
        pointer = found.schema.pointer
        first = ignored[0]
        others = f" (and {', '.join(f'`{k}`' for k in ignored[1:])})" if ignored[1:] else ""
        yield Finding(
            ID,
            SEVERITY,
            f"`{first}`{others} beside `$ref` is ignored: a Reference Object's other members "
            "SHALL be ignored (OpenAPI 3.0.4 §4.7.23; Swagger 2.0's JSON Reference replaces the "
            "object), so the schema is exactly its target's: write it beside "
            "`allOf: [{$ref: ...}]` instead of beside `$ref` to keep it",
            found.document.location(join_pointer(pointer, first)),
            related=(found.document.location(join_pointer(pointer, "$ref"), note="the `$ref`"),),
            key=f"ref-sibling:{pointer}",
        )
