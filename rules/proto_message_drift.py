"""A protobuf message and the JSON Schema definition of the same name that give different fields.

What it does
    Pairs each message of the corpus's own ``.proto`` files (and read proto fences) with the
    JSON Schema definitions of its name: a ``$defs``/``definitions`` key, a schema's ``title``,
    an OpenAPI ``components/schemas`` (Swagger ``definitions``) entry. ``speclint bindings``
    lists every pair with its evidence. A message and a definition are one thing written
    twice only when they share at least a third of their fields; else they are not compared.

    The two are compared as ProtoJSON writes the message: each field by its JSON name
    (lowerCamelCase or its ``json_name``), a ``repeated`` field as an array, a ``map`` as an
    object, 64-bit integers as strings or numbers, enums as strings, the well-known types as
    their JSON forms (``Timestamp`` a string). A definition's properties are its own and its
    ``allOf``/``oneOf``/``anyOf`` branches', local references followed. Reported, once per
    pair, with the differences as related locations:

    - a field only the proto has, and a property only the schema has (one no field can be,
      such as a variant's ``const`` tag or an ``Any``'s ``@type``, is not expected);
    - a field whose JSON types and the property's share none (``int32`` against ``"type":
      "string"``).

Why is this bad?
    A protocol that publishes a gRPC surface and a JSON surface promises one message. A field
    the JSON Schema lacks is data a gateway between the transports drops; a property named
    otherwise (``in`` against the proto's ``location``) is one a ProtoJSON parser rejects as
    unknown.

Example
    ::

        message Message { string message_id = 1; repeated Part content = 2; }

    with ``"Message": {"properties": {"messageId": {"type": "string"}, "parts": {...}}}``.
    FAIL: ``warning [proto-message-drift] proto message `Message` and the JSON Schema definition
    `Message` disagree: `content` only in the proto; `parts` only in the schema ...``

Use instead
    The same fields on both sides, named as ProtoJSON names them (``json_name`` where the JSON
    surface needs another name). PASS.

Options
    None.

Limitations
    Not compared: a vendored proto, a bundle's copy of a definition, a definition of another
    version, a union with no properties of its own. ``required`` is not compared (every
    proto3 field is optional on the wire). A field an rpc's ``google.api.http`` path carries
    is not expected in the request's body schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protojson import (
    MessagePair,
    Property,
    described,
    field_types,
    message_pairs,
    schema_types,
    simple_name,
)
from speclint.analyses.grpc.protos import corpus_protos
from speclint.common.findings import Finding, Location, Severity, left_out
from speclint.model.corpus import Document
from speclint.parsing.protobuf import ProtoField

ID = "proto-message-drift"
SEVERITY = Severity.WARNING
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
FACTS = ("derived",)  # a derived copy (a bundle) is no definition of its own (protojson)
SHOWN = 4  # names of each kind in the message; the related locations have more
RELATED = 12  # related locations at most: the definition, then each kind of difference in turn


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    place = corpus_protos(corpus).place
    for pair in message_pairs(corpus):
        if pair.compared:
            found = _compare(pair, place)
            if found is not None:
                yield found


def _mismatch(field: ProtoField, schema: Any, root: Any) -> str:
    """How a shared field's JSON types and its property's disagree, or ""."""
    mine = field_types(field)
    theirs = schema_types(schema, root)
    if mine is None or theirs is None:
        return ""
    if not mine & theirs:
        return f"{described(mine)} in the proto, {described(theirs)} in the schema"
    if field.label == "repeated" and not field.map and isinstance(schema, dict):
        items = schema.get("items")
        elements = field_types(field, element=True)
        theirs_items = schema_types(items, root) if isinstance(items, dict) else None
        if elements and theirs_items and not elements & theirs_items:
            return (
                f"an array whose items are {described(elements)} in the proto, "
                f"{described(theirs_items)} in the schema"
            )
    return ""


def _shown(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names[:SHOWN]) + (" ..." if len(names) > SHOWN else "")


def _compare(pair: MessagePair, place: Any) -> Finding | None:
    document = pair.definition.document
    root = document.data
    only_proto = pair.only_proto
    only_schema = pair.only_schema
    mismatched = [
        (field, prop, why)
        for field, prop in pair.shared
        if (why := _mismatch(field, prop.schema, root))
    ]
    if not only_proto and not only_schema and not mismatched:
        return None
    name = simple_name(pair.message.name)
    parts = []
    if only_proto:
        parts.append(f"{_shown([f.json_name for f in only_proto])} only in the proto")
    if only_schema:
        parts.append(f"{_shown([p.name for p in only_schema])} only in the schema")
    for field, _, why in mismatched[:SHOWN]:
        parts.append(f"`{field.json_name}` is {why}")
    if len(mismatched) > SHOWN:
        parts.append(f"{len(mismatched) - SHOWN} more of other types")
    line, column = document.position(pair.definition.pointer)
    definition = Location(
        document.path,
        line,
        column,
        pointer=pair.definition.pointer,
        note=f"the JSON Schema definition `{pair.definition.name}` ({pair.why})",
    )
    # Each kind of difference gets its share of the related locations, in turn.
    kinds: list[list[Location]] = [
        [_at_property(document, prop, why) for _, prop, why in mismatched],
        [_at_field(pair, field, place) for field in only_proto],
        [_at_property(document, prop, "schema only") for prop in only_schema],
    ]
    differences = sum(len(places) for places in kinds)
    related = [definition]
    while len(related) < RELATED and any(kinds):
        for places in kinds:
            if places and len(related) < RELATED:
                related.append(places.pop(0))
    fixes = []
    if only_proto or only_schema:
        fixes.append(
            "give both surfaces the same fields (a `json_name` where the JSON name differs)"
        )
    if mismatched:
        fixes.append("give each property the type ProtoJSON writes for its field")
    page, line, column = place(pair.proto.path, pair.message.line, pair.message.column)
    return Finding(
        ID,
        SEVERITY,
        f"proto message `{name}` and the JSON Schema definition `{pair.definition.name}` "
        f"disagree: {'; '.join(parts)} (fields compared by their ProtoJSON names and types): "
        f"{'; '.join(fixes)}"
        # past the limit, the message says how many differences are not listed (issue 44)
        + left_out(len(related) - 1, differences - (len(related) - 1), "differences"),
        Location(page, line, column, pointer=f"/{pair.message.name}"),
        tuple(related),
        key=f"{pair.message.name}:{pair.definition.label}",
    )


def _at_property(document: Document, prop: Property, note: str) -> Location:
    line, column = document.position(prop.pointer)
    return Location(
        document.path, line, column, pointer=prop.pointer, note=f"`{prop.name}`: {note}"
    )


def _at_field(pair: MessagePair, field: ProtoField, place: Any) -> Location:
    path, line, column = place(pair.proto.path, field.line, field.column)
    json = f" (JSON `{field.json_name}`)" if field.json_name != field.name else ""
    pointer = f"/{pair.message.name}/{field.name}"
    return Location(
        path, line, column, pointer=pointer, note=f"field `{field.name}`{json}: proto only"
    )
