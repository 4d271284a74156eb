"""A protobuf enum and the JSON Schema enum of the same thing that list different values.

What it does
    Pairs each enum of the corpus's ``.proto`` files (and read proto fences) with a JSON Schema
    enum, where the evidence binds them:

    - by name: a ``definitions``/``$defs`` entry named as the proto enum (``TaskState``), or a
      schema file titled so, whose ``enum`` lists strings;
    - by use: a proto message's field of that enum type and the JSON Schema definition (or
      schema file title) named as the message, its property named as the field's JSON name
      (``Message.role`` and ``definitions/Message/properties/role``).

    Values are compared as ProtoJSON and specifications write them: a proto value without its
    enum's prefix (``TASK_STATE_INPUT_REQUIRED`` is ``INPUT_REQUIRED``), in any letter case, with
    hyphens for underscores (``input-required``); the proto3 zero value ``…_UNSPECIFIED`` stands for
    "not set" and is not expected in the schema. A value on one side only is reported, once per
    pair, at the proto enum, with the schema's enum related.

Why is this bad?
    A protocol that publishes a JSON surface and a gRPC surface promises one set of values.
    ``canceled`` in the JSON Schema and ``TASK_STATE_CANCELLED`` in the proto are two spellings
    of a state that a gateway between the transports cannot map; a value only one side has is
    one the other side's clients reject.

Example
    ::

        enum TaskState { TASK_STATE_UNSPECIFIED = 0; TASK_STATE_SUBMITTED = 1;
                         TASK_STATE_CANCELLED = 2; }

    with ``"TaskState": {"enum": ["submitted", "canceled"]}``. FAIL: ``warning
    [proto-enum-drift] proto enum `TaskState` and the JSON Schema enum `TaskState` disagree:
    `CANCELLED` only in the proto; `canceled` only in the schema ...``

Use instead
    One spelling on both sides. PASS.

Options
    None.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.protos import ProtoFence, corpus_protos, page_fences
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.protobuf import ProtoEnum, ProtoFile
from speclint.parsing.structured import join_pointer

ID = "proto-enum-drift"
SEVERITY = Severity.WARNING
READS = "extract"  # of a page, only its proto fences (speclint.analyses.units)
READS_PROTOS = True  # the corpus's compiled protos (speclint.analyses.protos)
_NAME = re.compile(r"[A-Z][A-Za-z0-9]*")
SHOWN = 4  # values of each side in the message; all of them on the related locations


def extract(document: Document) -> tuple[ProtoFence, ...]:
    return page_fences(document)


@dataclass(frozen=True)
class _SchemaEnum:
    document: Document
    pointer: str  # of the schema holding `enum`
    values: tuple[str, ...]
    name: str  # how the schema side is named in the message


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    protos = corpus_protos(corpus)
    read = protos.read()
    if not any(proto.enums for proto in read):
        return
    definitions = _definitions(corpus)
    if not definitions:
        return
    seen: set[tuple[str, str, str]] = set()
    for proto in read:
        for enum in proto.enums:
            for schema in _bound(enum, read, definitions):
                key = (enum.name, schema.document.path, schema.pointer)
                if key in seen:
                    continue
                seen.add(key)
                found = _compare(enum, schema, proto, protos.place)
                if found is not None:
                    yield found


def _definitions(corpus: Context) -> dict[str, list[tuple[Document, str, dict[str, Any]]]]:
    """Schema definitions by name: every ``definitions``/``$defs`` entry of every schema, and a
    schema file by its ``title`` when that is a name (``RunSnapshot``)."""
    found: dict[str, list[tuple[Document, str, dict[str, Any]]]] = {}
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        data = document.data
        if not isinstance(data, dict):
            continue
        title = data.get("title")
        if isinstance(title, str) and _NAME.fullmatch(title):
            found.setdefault(title, []).append((document, "", data))
        for keyword in ("$defs", "definitions"):
            holder = data.get(keyword)
            for name, schema in sorted(holder.items()) if isinstance(holder, dict) else ():
                if isinstance(schema, dict):
                    pointer = join_pointer(f"/{keyword}", str(name))
                    found.setdefault(str(name), []).append((document, pointer, schema))
    return found


def _strings(schema: dict[str, Any]) -> tuple[str, ...] | None:
    values = schema.get("enum")
    if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
        return tuple(values)
    return None


def _bound(
    enum: ProtoEnum,
    read: list[ProtoFile],
    definitions: Mapping[str, list[tuple[Document, str, dict[str, Any]]]],
) -> Iterator[_SchemaEnum]:
    simple = enum.name.rsplit(".", 1)[-1]
    for document, pointer, schema in definitions.get(simple, []):
        values = _strings(schema)
        if values is not None:
            yield _SchemaEnum(document, pointer, values, f"`{simple}`")
    for proto in read:
        for message in proto.messages:
            fields = [f for f in message.fields if f.type == "enum" and f.type_name == enum.name]
            name = message.name.rsplit(".", 1)[-1]
            for field in fields:
                for document, pointer, schema in definitions.get(name, []):
                    properties = schema.get("properties")
                    prop = properties.get(field.json_name) if isinstance(properties, dict) else None
                    if not isinstance(prop, dict):
                        continue
                    target = prop.get("items") if field.label == "repeated" else prop
                    values = _strings(target) if isinstance(target, dict) else None
                    if values is None:
                        continue
                    where = join_pointer(f"{pointer}/properties", field.json_name)
                    where += "/items" if field.label == "repeated" else ""
                    yield _SchemaEnum(document, where, values, f"`{name}.{field.json_name}`")


def _prefix(enum: ProtoEnum) -> str:
    """``TaskState`` -> ``TASK_STATE_`` (the style guide's value prefix)."""
    simple = enum.name.rsplit(".", 1)[-1]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", simple).upper() + "_"


def _key(value: str) -> str:
    return value.upper().replace("-", "_").replace(" ", "_")


def _compare(enum: ProtoEnum, schema: _SchemaEnum, proto: ProtoFile, place: Any) -> Finding | None:
    prefix = _prefix(enum)
    written = {value.name: value for value in enum.values}
    mine: dict[str, str] = {}
    for value in enum.values:
        short = value.name[len(prefix) :] if value.name.startswith(prefix) else value.name
        if value.number == 0 and short in ("UNSPECIFIED", "UNKNOWN", "UNSET", "NONE"):
            continue  # proto3's zero value: "not set", not a value of the other side
        mine[_key(short)] = value.name
    theirs = {_key(v): v for v in schema.values}
    # ProtoJSON writes the names whole (`TASK_STATE_SUBMITTED`): accepted too
    theirs_whole = {_key(v) for v in schema.values}
    only_proto = sorted(
        name for key, name in mine.items() if key not in theirs and _key(name) not in theirs_whole
    )
    only_schema = sorted(
        value
        for key, value in theirs.items()
        if key not in mine and not any(_key(name) == key for name in written)
    )
    if not only_proto and not only_schema:
        return None
    simple = enum.name.rsplit(".", 1)[-1]
    parts = []
    if only_proto:
        shown = ", ".join(f"`{n}`" for n in only_proto[:SHOWN]) + (
            " ..." if len(only_proto) > SHOWN else ""
        )
        parts.append(f"{shown} only in the proto")
    if only_schema:
        shown = ", ".join(f"`{v}`" for v in only_schema[:SHOWN]) + (
            " ..." if len(only_schema) > SHOWN else ""
        )
        parts.append(f"{shown} only in the schema")
    page, line, column = place(proto.path, enum.line, enum.column)
    pointer = schema.pointer + "/enum"
    schema_line, schema_column = schema.document.position(pointer)
    return Finding(
        ID,
        SEVERITY,
        f"proto enum `{simple}` and the JSON Schema enum {schema.name} disagree: "
        f"{'; '.join(parts)} (values compared without the `{prefix}` prefix, in any case, hyphens "
        "for underscores): give both surfaces the same values",
        Location(page, line, column, pointer=f"/{enum.name}"),
        (
            Location(
                schema.document.path,
                schema_line,
                schema_column,
                pointer=pointer,
                note=f"the schema's values: {', '.join(schema.values)}",
            ),
        ),
        key=f"{enum.name}:{schema.document.path}#{schema.pointer}",
    )
