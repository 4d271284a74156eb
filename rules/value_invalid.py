"""A ``default``, ``const`` or ``enum`` member that the schema it sits in rejects.

What it does
    Checks the values a schema states about itself, at every depth of every schema object
    (schema files, and the schema objects of OpenAPI and AsyncAPI documents), each in the
    dialect that object is written in (an OpenAPI 3.0 ``nullable: true`` admits ``null``):

    - ``default``: validated against its schema (JSON Schema Validation 2020-12 §9.2: it
      "SHOULD be valid against the associated schema");
    - ``const``: validated against the schema's other keywords (``type: string`` with
      ``const: 3`` is a schema no instance satisfies);
    - each ``enum`` member: validated against the schema's other keywords (``type: string``
      with ``enum: [a, b, null]`` never accepts ``null``).

    The finding is at the value (``.../enum/2``), the keyword it breaks related; a component's
    value is reported there once; one ``enum``'s members breaking one keyword are one finding.
    A default of the wrong type (``""`` or ``"8"`` for an integer) is an error; one that stands
    for "unset" or "the newest" and fails only for that (``""`` outside an ``enum``, ``latest``
    beside versions, ``2^63 - 1`` over a ``maximum``) is one ``info`` per file.

Why is this bad?
    A default is what a server assumes when the field is absent, and what generated clients and
    forms pre-fill: a default the schema rejects makes the documented behaviour invalid by the
    contract's own rules. An ``enum`` member or ``const`` the other keywords reject is a value no
    valid instance can hold, so the enum documents a value the API can never send.

Example
    ::

        "mode": {"type": "string", "enum": ["sync", "async"], "default": "auto"}

    FAIL: ``error [value-invalid] `default` `"auto"` fails its own schema: "auto" is not one of
    ["sync", "async"] (keyword `enum`) ...``

Use instead
    ::

        "mode": {"type": "string", "enum": ["sync", "async"], "default": "sync"}

    PASS.

Options
    ``keywords`` (default ``["default", "const", "enum"]``): the value keywords to check.

Limitations
    ``default: null``, and an empty ``{}`` or ``[]`` that fails only ``required``,
    ``minItems`` or ``minProperties``, say "none" by convention and are not reported. A schema
    whose references do not resolve is skipped. ``examples`` are ``example-invalid``'s;
    Swagger 2.0's defaults ``openapi-invalid``'s.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema.exceptions import ValidationError
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.schema_objects import (
    SchemaObject,
    schema_objects,
    types_of,
    validator_class_of,
)
from speclint.analyses.schemas.validation import (
    MALFORMED_SCHEMA,
    default_by_convention,
    error_pointer,
    explain,
    placeholder_default,
    short_message,
)
from speclint.analyses.units import check_by_unit
from speclint.common.findings import Finding, Member, Severity, first_fitting, json_value
from speclint.model.corpus import Document
from speclint.parsing.dialects import dialect_of_schema, ref_replaces_siblings
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "value-invalid"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references")  # speclint.analyses.context
# One document at a time (speclint.analyses.units), with the schemas its `$ref`s reach.
READS = "document"

KEYWORDS = ("default", "const", "enum")
_SHOWN = 40  # characters of a value quoted in a message


# A schema that cannot judge the value: its defect is another rule's finding.
_NOT_JUDGED: tuple[type[BaseException], ...] = (*MALFORMED_SCHEMA, RecursionError)
# What ends the check of a value without a finding of this rule: a reference that does not
# resolve (unresolved-ref reports it), an invalid schema (schema-invalid's finding).
_UNCHECKED: tuple[type[BaseException], ...] = (Unresolvable, *_NOT_JUDGED)


def units(corpus: Context) -> list[Document]:
    """Each schema and API document, but a generated bundle (judged at its sources)."""
    return [
        document
        for document in corpus.of_kind(
            DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
        )
        if document.path not in corpus.derived
    ]


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    wanted = [str(k) for k in options.get("keywords", KEYWORDS) if str(k) in KEYWORDS]
    found = []
    placeholders: list[str] = []
    for schema in schema_objects(document):
        values = list(_values(document, schema, wanted))
        if not values:
            continue
        validator_class = validator_class_of(document, schema.declared)
        uri = f"{file_uri(document.path)}#{schema.pointer}"
        try:
            # Looked up once for all the object's values (an `enum` of hundreds); what the
            # look-up raises, each value's check would have (see _errors).
            validator = corpus.references.validator_at(validator_class, uri)
        except _UNCHECKED:
            continue
        # the enum's failing members, with their values, by the keyword they break: one
        # finding each (`_members`)
        members: dict[str, list[tuple[Finding, Any]]] = {}
        for keyword, pointer, value in values:
            errors = _errors(validator, value)
            if not errors or default_by_convention(keyword, value, errors[0]):
                continue
            if keyword == "default":
                real = [e for e in errors if not placeholder_default(e)]
                if not real:
                    placeholders.append(pointer)
                    continue
                errors = real
            finding = _finding(document, schema, keyword, pointer, value, errors[0])
            if keyword == "enum":
                members.setdefault(str(errors[0].validator), []).append((finding, value))
            else:
                found.append(finding)
        found += [_members(group) for group in members.values()]
    if placeholders:
        found.append(_placeholder_defaults(document, placeholders))
    return found


def _values(
    document: Document, schema: SchemaObject, wanted: list[str]
) -> Iterator[tuple[str, str, Any]]:
    """(keyword, pointer of the value, value) for each value this schema object states."""
    node = schema.node
    if "$ref" in node and len(node) > 1 and _ref_alone(document, schema):
        return  # draft-07 and older, OpenAPI 3.0: the siblings of a `$ref` are ignored
    # Swagger 2.0's Schema Objects are draft-04 with OpenAPI's words (a boolean
    # `exclusiveMinimum`): openapi-invalid's validator judges their defaults.
    swagger = document.kind is DocumentKind.OPENAPI and document.dialect.startswith("Swagger")
    if "default" in wanted and "default" in node and not swagger:
        yield "default", join_pointer(schema.pointer, "default"), node["default"]
    if "const" in wanted and "const" in node:
        yield "const", join_pointer(schema.pointer, "const"), node["const"]
    members = node.get("enum")
    if "enum" in wanted and isinstance(members, list):
        for index, member in enumerate(members):
            yield "enum", join_pointer(join_pointer(schema.pointer, "enum"), index), member


def _ref_alone(document: Document, schema: SchemaObject) -> bool:
    return ref_replaces_siblings(dialect_of_schema(schema.declared, document.dialect or "2020-12"))


def _errors(validator: Any, value: Any) -> list[ValidationError]:
    """The value's errors, each at its most specific, in the order of their place in it."""
    try:
        errors = sorted(
            validator.iter_errors(value), key=lambda e: [str(t) for t in e.absolute_path]
        )
    except _UNCHECKED:
        return []
    return [explain(e) for e in errors]


def _placeholder_defaults(document: Document, pointers: list[str]) -> Finding:
    count = f"{len(pointers)} default{'s' if len(pointers) > 1 else ''}"
    return Finding(
        ID,
        Severity.INFO,
        first_fitting(
            f'{count} in this file stand for "unset" and fail their schema (`""` outside an '
            "`enum` or `pattern`, `latest` beside versions, a machine integer's largest value "
            "over `maximum`): drop them, or let the schema accept them",
            f'{count} in this file stand for "unset" and fail their schema (each a related '
            "location): drop them, or let the schema accept them",
        ),
        document.location(pointers[0]),
        related=tuple(
            document.location(p, note="another placeholder default") for p in pointers[1:]
        ),
        key="placeholder-defaults",
    )


def _finding(
    document: Document,
    schema: SchemaObject,
    keyword: str,
    pointer: str,
    value: Any,
    error: ValidationError,
) -> Finding:
    broken = error.validator if isinstance(error.validator, str) else ""
    # The schema path is relative to this schema object; keep the part inside it (up to a
    # `$ref`, where it leaves for another schema).
    tokens = [str(t) for t in error.absolute_schema_path]
    if "$ref" in tokens:
        tokens = tokens[: tokens.index("$ref") + 1]
    at = schema.pointer
    for token in tokens:
        at = join_pointer(at, token)
    where = error_pointer(error)
    inside = f" at {where}" if where else ""
    what = "an `enum` member" if keyword == "enum" else f"`{keyword}`"
    advice = _advice(keyword, broken)
    written = _unquoted(document, pointer, value, schema.node, broken)
    if keyword == "enum" and written is not None:
        # YAML reads a plain `08` or `240` as a number (YAML 1.2 §10.3.2): the member was
        # meant as a string, and quoting it is the fix, not removing it.
        advice = (
            f'written unquoted, `{written}`, YAML reads it as a number: quote it (`"{written}"`)'
        )
    return Finding(
        ID,
        SEVERITY,
        f"{what} {_shown(value)} fails its own schema{inside}: {short_message(error)}; {advice}",
        document.location(pointer),
        related=(document.location(at, note=f"the `{broken or 'schema'}` it breaks"),),
        key=pointer,
    )


def _members(found: list[tuple[Finding, Any]]) -> Finding:
    """The failing members of one ``enum``: one mistake made once per member (a list of
    unquoted numbers, a ``maxLength`` too short for the longest names), so one finding, at the
    first, the others related and its members."""
    first, others = found[0][0], [f for f, _ in found[1:]]
    if not others:
        return first
    also = tuple(
        dataclasses.replace(f.location, note=f"{_shown(value)} fails the same way")
        for f, value in found[1:]
    )
    failure, sep, advice = first.message.rpartition("; ")
    more = f"{len(others)} more `enum` member{'s' if len(others) > 1 else ''}"
    return dataclasses.replace(
        first,
        message=f"{failure} ({more} the same way, each a related location){sep}{advice}",
        related=(*first.related, *also),
        members=tuple(Member(f.location, f.key) for f, _ in found),
    )


_PLAIN_SCALAR = re.compile(r"[^\s,\[\]{}#'\"][^\s,\]}#]*")


def _unquoted(
    document: Document, pointer: str, value: Any, node: dict[str, Any], broken: str
) -> str | None:
    """The source text of a number a YAML file writes as a plain scalar where the schema wants a
    string (``type: string``, ``enum: [08, 240]``), or None."""
    if (
        broken != "type"
        or not document.path.endswith((".yaml", ".yml"))
        or isinstance(value, bool)
        or not isinstance(value, (int, float))
        or "string" not in types_of(node)
    ):
        return None
    line, column = document.position(pointer)
    if not 0 < line <= len(document.lines):
        return None
    scalar = _PLAIN_SCALAR.match(document.lines[line - 1], column - 1)
    return scalar.group(0) if scalar else None


def _advice(keyword: str, broken: str) -> str:
    if keyword == "default" and broken == "enum":
        return "make the default one of the `enum` values, or add it to the `enum`"
    if keyword == "default":
        return "make the default a value the schema accepts, or drop it"
    if keyword == "enum" and broken == "type":
        return "remove the member from the `enum`, or add its type to `type`"
    if keyword == "enum":
        return f"remove the member from the `enum`, or relax the `{broken}` it breaks"
    return f"fix the `const`, or the `{broken}` it contradicts (no instance can match both)"


def _shown(value: Any) -> str:
    return f"`{json_value(value, _SHOWN)}`"
