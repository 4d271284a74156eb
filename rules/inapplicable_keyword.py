"""A schema keyword that can never apply beside the schema's ``type``.

What it does
    Reports each keyword of a Schema Object (or JSON Schema) that constrains only values of a
    type the schema's own ``type`` excludes: ``properties``, ``required``,
    ``additionalProperties``, ``patternProperties``, ``minProperties``/``maxProperties`` beside
    a ``type`` without ``object``; ``items``, ``prefixItems``, ``minItems``/``maxItems``,
    ``uniqueItems``, ``contains`` without ``array``; ``minLength``/``maxLength``/``pattern``
    without ``string``; ``minimum``/``maximum``/``exclusiveMinimum``/``exclusiveMaximum``/
    ``multipleOf`` without ``number`` or ``integer``. API documents of every version (and the
    schema files they reach, judged in their own file) and plain schema files alike.

Why is this bad?
    JSON Schema's type-specific keywords ignore values of other types (2020-12 Validation §6;
    draft-04 §5, which Swagger 2.0 and OpenAPI 3.0 adopt): ``type: string`` with
    ``properties`` validates strings and never looks at the properties. Either the ``type`` is
    wrong (clients are told an object is a string) or the keyword documents what no one checks.

Example
    ::

        components:
          schemas:
            Owner:
              type: string
              properties:
                id: {type: string}

    FAIL: ``warning [inapplicable-keyword] `properties` never applies beside `type: string`;
    remove it or fix the type``

Use instead
    ::

            Owner:
              type: object
              properties:
                id: {type: string}

    PASS.

Options
    None.

Limitations
    Only the schema's own ``type`` is read (not one its ``allOf`` adds). A keyword with the value
    that constrains nothing (``uniqueItems: false``, ``minItems: 0``, ``additionalProperties:
    true``) is left alone, as is a boolean ``required`` (``openapi-invalid``'s). Siblings of a
    ``$ref`` in Swagger 2.0 and OpenAPI 3.0 are ignored there (3.0.4 §4.7.23), not judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.api_schemas import api_schema_objects
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import types_of
from speclint.common.findings import Finding, Severity
from speclint.parsing.structured import join_pointer

ID = "inapplicable-keyword"
SEVERITY = Severity.WARNING
FACTS = ("references",)

# Each type-specific keyword, the types it applies to (2020-12 Validation §6.2-6.5, Core §10.3),
# and the values that constrain nothing (reported nowhere: they change nothing either way).
_OBJECT = frozenset({"object"})
_ARRAY = frozenset({"array"})
_STRING = frozenset({"string"})
_NUMBER = frozenset({"number", "integer"})
_KEYWORDS: dict[str, tuple[frozenset[str], tuple[Any, ...]]] = {
    "properties": (_OBJECT, ({},)),
    "required": (_OBJECT, ([],)),
    "additionalProperties": (_OBJECT, (True, {})),
    "patternProperties": (_OBJECT, ({},)),
    "minProperties": (_OBJECT, (0,)),
    "maxProperties": (_OBJECT, ()),
    "items": (_ARRAY, (True, {})),
    "prefixItems": (_ARRAY, ([],)),
    "minItems": (_ARRAY, (0,)),
    "maxItems": (_ARRAY, ()),
    "uniqueItems": (_ARRAY, (False,)),
    "contains": (_ARRAY, ()),
    "minLength": (_STRING, (0,)),
    "maxLength": (_STRING, ()),
    "pattern": (_STRING, ()),
    "minimum": (_NUMBER, ()),
    "maximum": (_NUMBER, ()),
    "exclusiveMinimum": (_NUMBER, (False,)),
    "exclusiveMaximum": (_NUMBER, (False,)),
    "multipleOf": (_NUMBER, ()),
}
_KNOWN_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
_OLD = frozenset({"2.0", "3.0"})


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for found in api_schema_objects(corpus):
        node = found.schema.node
        declared = types_of(node)
        if not declared or not declared <= _KNOWN_TYPES:
            continue  # no `type` (any value), or one misspelt (openapi-invalid's, schema-invalid's)
        if "$ref" in node and found.families & _OLD:
            continue  # 3.0.4 §4.7.23: a Reference Object's siblings are ignored
        written = node.get("type")
        said = f"`type: {written}`" if isinstance(written, str) else f"`type: {sorted(declared)}`"
        for keyword, (applies, inert) in _KEYWORDS.items():
            if keyword not in node or applies & declared:
                continue
            value = node[keyword]
            if any(value == nothing and type(value) is type(nothing) for nothing in inert):
                continue
            if keyword == "required" and not isinstance(value, list):
                continue  # draft-03's boolean: a structural error, not this rule's
            yield Finding(
                ID,
                SEVERITY,
                f"`{keyword}` never applies beside {said}: it constrains only "
                f"{_kind(applies)}, and JSON Schema ignores it for every other value, so it "
                f"does nothing here; if the value is {_article(applies)}, correct the `type`, "
                f"else delete `{keyword}`",
                found.document.location(join_pointer(found.schema.pointer, keyword)),
                related=(found.document.location(join_pointer(found.schema.pointer, "type")),),
                key=f"{keyword}:{found.schema.pointer}",
            )


def _kind(applies: frozenset[str]) -> str:
    return {
        _OBJECT: "objects",
        _ARRAY: "arrays",
        _STRING: "strings",
    }.get(applies, "numbers")


def _article(applies: frozenset[str]) -> str:
    return {
        _OBJECT: "an object",
        _ARRAY: "an array",
        _STRING: "a string",
    }.get(applies, "a number")
