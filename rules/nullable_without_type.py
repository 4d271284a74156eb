"""``nullable: true`` in an OpenAPI 3.0 Schema Object with no ``type`` beside it: it has no effect.

What it does
    In an OpenAPI 3.0 document, and in the files of schemas only 3.0 documents reach by
    ``$ref``, reports each Schema Object that says ``nullable: true`` and has no ``type`` of its
    own, at the ``nullable`` keyword, saying whether ``null`` still depends on a ``$ref``, a
    composition or an ``enum`` beside it.

Why is this bad?
    OpenAPI 3.0.3 and 3.0.4 (§4.7.24.1) say ``nullable: true`` "adds "null" to the allowed types
    specified by the type keyword, only if type is explicitly defined within the same Schema
    Object": without a ``type`` it does nothing, and a schema that meant to allow ``null``
    (``nullable: true`` with ``allOf: [{$ref: ...}]``) still rejects it through its subschemas.
    Beside a ``$ref``, every other member is ignored anyway (Reference Object, §4.7.23).

Example
    ::

        openapi: 3.0.3
        components:
          schemas:
            Run:
              properties:
                owner:
                  nullable: true
                  allOf: [{$ref: "#/components/schemas/User"}]

    FAIL: ``warning [nullable-without-type] `nullable: true` has no effect without a `type` in
    the same Schema Object ...``

Use instead
    ::

                owner:
                  type: object
                  nullable: true
                  allOf: [{$ref: "#/components/schemas/User"}]

    PASS.

Options
    None.

Limitations
    Files of schemas that a 3.1 document reaches too, or that no OpenAPI 3.0 document reaches
    (a plain JSON Schema file), are not judged: ``nullable`` is no keyword there
    (``oas30-leftover`` reports it in 3.1). A Schema Object with a ``$schema`` of its own is
    not judged. ``nullable: false`` without ``type`` (the default) is not reported.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.versioned_schemas import family_schema_objects
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.structured import join_pointer

ID = "nullable-without-type"
SEVERITY = Severity.WARNING  # no MUST broken: the keyword silently does nothing
FACTS = ("references",)

_BESIDE = ("$ref", "allOf", "oneOf", "anyOf", "enum")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document, schemas in family_schema_objects(corpus, "3.0"):
        for schema in schemas:
            node = schema.node
            if node.get("nullable") is not True or "type" in node or schema.declared is not None:
                continue
            beside = next((k for k in _BESIDE if k in node), None)
            enum = node.get("enum")
            if beside == "enum" and isinstance(enum, list) and None in enum:
                beside = None  # the `enum` lists `null`: nothing here rejects it
            if beside is None:
                # Nothing here rejects `null`, but validators that read `nullable` (Ajv's
                # OpenAPI mode, behind Spectral's example checks) refuse the whole schema.
                said = (
                    "this schema allows `null` anyway, but validators that implement "
                    "`nullable` (Ajv) refuse a schema with `nullable` and no `type`; add the "
                    "`type` the values have, or delete `nullable`"
                )
            elif beside == "$ref":
                said = (
                    "`null` passes only if the `$ref`'s schema allows it, and every member "
                    "beside `$ref` is ignored (Reference Object, §4.7.23): write "
                    "`type: <the referenced schema's type>`, `nullable: true` and "
                    "`allOf: [{$ref: ...}]` instead"
                )
            else:
                said = (
                    f"`null` passes only if its `{beside}` allows it; add the `type` the values "
                    f"have (e.g. `type: object`) beside `{beside}`, or delete `nullable` if "
                    "`null` is not meant to be allowed"
                )
            yield Finding(
                ID,
                SEVERITY,
                "`nullable: true` has no effect without a `type` in the same Schema Object "
                f"(OpenAPI 3.0.4 §4.7.24.1): {said}",
                document.location(join_pointer(schema.pointer, "nullable")),
                related=(document.location(join_pointer(schema.pointer, beside)),)
                if beside is not None
                else (),
                key=f"nullable:{schema.pointer}",
            )
