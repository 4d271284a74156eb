"""The ProtoJSON mapping, and the JSON Schema definitions it binds to the corpus's proto messages
and enums (issue 30, item 3).

ProtoJSON (https://protobuf.dev/programming-guides/json/) writes a message as a JSON object whose
members are its fields by their JSON name (lowerCamelCase, or the ``json_name`` option; parsers
accept the field's own name too), a ``repeated`` field as an array, a ``map`` as an object, an
enum value as its name (or number), 64-bit integers as strings (numbers accepted), ``bytes`` as
base64 strings, and the well-known types as their JSON forms (``Timestamp`` an RFC 3339 string,
``Struct`` an object, ``Value`` anything, the wrappers their primitive or ``null``).

A proto message or enum and a JSON Schema definition are paired only by evidence: the same name
(a ``$defs``/``definitions`` entry, an OpenAPI ``components/schemas`` or Swagger ``definitions``
entry, or a schema file's ``title``), or, for an enum, its use (the property, by JSON name, of
the definition named as a message whose field has the enum's type). A same-named message and
definition are compared only when they are the same thing written twice: they share at least a
third of their fields. A2A's JSON Schema names its JSON-RPC envelopes as its proto names the gRPC
requests (``SendMessageRequest``: ``jsonrpc, id, method, params`` against ``message,
configuration, metadata``); nothing in common is two things under one name, not a drift.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos, is_fence, own_protos
from speclint.analyses.grpc.surfaces import path_fields, rpc_index
from speclint.analyses.prose.enumerations import (
    SHAPE_FORMS,
    Binder,
    ProseSet,
    all_prose_sets,
    overlap,
)
from speclint.analyses.prose.fences import definition_index
from speclint.analyses.prose.rfcs import is_rfc
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind, in_design_folder
from speclint.parsing.protobuf import ProtoEnum, ProtoField, ProtoFile, ProtoMessage
from speclint.parsing.structured import join_pointer, json_type, local_pointer, resolve_pointer

_MEMO = "protojson:definitions"
_DEPTH = 8  # how deep `$ref` and `allOf` are followed: a cycle or a long chain stops here

# The JSON types ProtoJSON writes (and accepts) for each scalar type; "integer" stands for a
# whole number, which JSON Schema's "number" admits too.
_SCALARS: dict[str, frozenset[str]] = {
    "double": frozenset({"number", "string"}),  # "NaN", "Infinity" are strings
    "float": frozenset({"number", "string"}),
    "int32": frozenset({"integer"}),
    "sint32": frozenset({"integer"}),
    "sfixed32": frozenset({"integer"}),
    "uint32": frozenset({"integer"}),
    "fixed32": frozenset({"integer"}),
    "int64": frozenset({"integer", "string"}),  # written as a string, a number accepted
    "sint64": frozenset({"integer", "string"}),
    "sfixed64": frozenset({"integer", "string"}),
    "uint64": frozenset({"integer", "string"}),
    "fixed64": frozenset({"integer", "string"}),
    "bool": frozenset({"boolean"}),
    "string": frozenset({"string"}),
    "bytes": frozenset({"string"}),  # base64
    "enum": frozenset({"string", "integer"}),
}
_ANY = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
# google.protobuf's well-known types, as their JSON forms (the ProtoJSON guide's table)
_WELL_KNOWN: dict[str, frozenset[str]] = {
    "google.protobuf.Timestamp": frozenset({"string"}),
    "google.protobuf.Duration": frozenset({"string"}),
    "google.protobuf.FieldMask": frozenset({"string"}),
    "google.protobuf.Struct": frozenset({"object"}),
    "google.protobuf.Any": frozenset({"object"}),
    "google.protobuf.Empty": frozenset({"object"}),
    "google.protobuf.Value": _ANY,
    "google.protobuf.ListValue": frozenset({"array"}),
    "google.protobuf.NullValue": frozenset({"null"}),
    "google.protobuf.DoubleValue": frozenset({"number", "string", "null"}),
    "google.protobuf.FloatValue": frozenset({"number", "string", "null"}),
    "google.protobuf.Int64Value": frozenset({"integer", "string", "null"}),
    "google.protobuf.UInt64Value": frozenset({"integer", "string", "null"}),
    "google.protobuf.Int32Value": frozenset({"integer", "null"}),
    "google.protobuf.UInt32Value": frozenset({"integer", "null"}),
    "google.protobuf.BoolValue": frozenset({"boolean", "null"}),
    "google.protobuf.StringValue": frozenset({"string", "null"}),
    "google.protobuf.BytesValue": frozenset({"string", "null"}),
}


@dataclass(frozen=True)
class Definition:
    """A named JSON Schema definition of the corpus: ``pointer`` is where its schema is in
    ``document`` ("" for a whole schema file named by its ``title``)."""

    document: Document
    pointer: str
    schema: dict[str, Any]
    name: str

    @property
    def label(self) -> str:
        return f"{self.document.path}#{self.pointer}" if self.pointer else self.document.path


def schema_definitions(corpus: Context) -> dict[str, list[Definition]]:
    """The corpus's JSON Schema definitions by name (kept in the memo): those of its schema
    files, named as the example binding names them (``fences.definition_index``: a root
    ``title``, a ``$defs``/``definitions`` key, a definition's ``title``), and the
    ``components/schemas`` of OpenAPI 3 and AsyncAPI documents and Swagger 2's
    ``definitions``. A derived copy (a bundle, a build output) is not a definition of its own."""
    found: dict[str, list[Definition]] | None = corpus.memo.get(_MEMO)
    if found is not None:
        return found
    found = {}
    for name, targets in definition_index(corpus).items():
        for target in targets:
            schema = resolve_pointer(target.document.data, target.pointer)
            if isinstance(schema, dict):
                found.setdefault(name, []).append(
                    Definition(target.document, target.pointer, schema, name)
                )
    holders = {
        DocumentKind.OPENAPI: (("components", "schemas"), ("definitions",)),
        DocumentKind.ASYNCAPI: (("components", "schemas"),),
    }
    for document in corpus.of_kind(*holders):
        data = document.data if document.usable else None
        if not isinstance(data, dict) or document.path in corpus.derived:
            continue
        for path in holders[document.kind]:
            holder = resolve_pointer(data, "".join(join_pointer("", step) for step in path))
            for name, schema in sorted(holder.items()) if isinstance(holder, dict) else ():
                if isinstance(schema, dict):
                    pointer = "".join(join_pointer("", step) for step in (*path, str(name)))
                    found.setdefault(str(name), []).append(
                        Definition(document, pointer, schema, str(name))
                    )
    corpus.memo[_MEMO] = found
    return found


def simple_name(name: str) -> str:
    """``a2a.v1.Task.Status`` -> ``Status``."""
    return name.rsplit(".", 1)[-1]


# --- types -------------------------------------------------------------------------------------


def field_types(field: ProtoField, *, element: bool = False) -> frozenset[str] | None:
    """The JSON types ProtoJSON gives a field (its elements' when ``element``), or None when
    any will do. A message is an object unless it is a well-known type."""
    if not element and field.map:
        return frozenset({"object"})
    if not element and field.label == "repeated":
        return frozenset({"array"})
    if field.type == "message":
        return _WELL_KNOWN.get(field.type_name, frozenset({"object"}))
    if field.type == "enum" and field.type_name == "google.protobuf.NullValue":
        return frozenset({"null"})
    return _SCALARS.get(field.type)


def schema_types(schema: Any, root: Any, depth: int = 0) -> frozenset[str] | None:
    """The JSON types a schema admits, read from ``type``, ``const``, ``enum``, local ``$ref``s
    and the branches of ``anyOf``/``oneOf``; None when they cannot be told (no type written, a
    reference out of the document), which is never a disagreement."""
    if schema is True or depth > _DEPTH:
        return None
    if not isinstance(schema, dict):
        return None
    written = schema.get("type")
    if isinstance(written, str | list) and not set(_listed(written)) <= _ANY:
        return None  # draft-03's "any", a schema as a type: not told here
    if isinstance(written, str):
        types = {written}
    elif isinstance(written, list) and all(isinstance(t, str) for t in written):
        types = set(written)
    elif "const" in schema:
        types = {json_type(schema["const"])}
    elif isinstance(schema.get("enum"), list) and schema["enum"]:
        types = {json_type(value) for value in schema["enum"]}
    elif isinstance(schema.get("$ref"), str):
        # Each reference read is a step of the recursion, which its depth bounds.
        pointer = local_pointer(schema["$ref"])
        if pointer is None:
            return None  # another document, or an anchor: not read here
        return schema_types(resolve_pointer(root, pointer), root, depth + 1)
    elif isinstance(schema.get("properties"), dict):
        types = {"object"}
    elif isinstance(schema.get("allOf"), list) and schema["allOf"]:
        # every branch holds: the types they all admit (`allOf: [$ref]`, as generators wrap)
        known = [schema_types(branch, root, depth + 1) for branch in schema["allOf"]]
        told = [branch for branch in known if branch is not None]
        if not told:
            return None
        types = set(frozenset.intersection(*told))
    else:
        branches = schema.get("anyOf") or schema.get("oneOf")
        if not isinstance(branches, list) or not branches:
            return None
        union: set[str] = set()
        for branch in branches:
            found = schema_types(branch, root, depth + 1)
            if found is None:
                return None
            union |= found
        types = union
    if schema.get("nullable") is True:  # OpenAPI 3.0
        types.add("null")
    if "number" in types:
        types.add("integer")  # JSON Schema's number admits whole numbers
    return frozenset(types)


def _listed(written: Any) -> list[Any]:
    return [written] if isinstance(written, str) else list(written)


def described(types: frozenset[str]) -> str:
    """``{"integer", "string"}`` -> ``an integer or a string``."""
    shown = sorted(types - {"integer"} if "number" in types else types)
    return " or ".join(("an " if t[0] in "aeiou" else "a ") + t for t in shown)


# --- messages ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Property:
    name: str
    pointer: str  # in the definition's document
    schema: Any
    # a member the JSON form has and no proto field could be: a variant's tag (a `const`, a
    # `discriminator`'s property), an `Any`'s `@type`, an extension's `[pkg.name]`
    tag: bool = False


@dataclass(frozen=True)
class MessagePair:
    """A proto message and the JSON Schema definition of its name. ``compared`` says whether
    they are one thing written twice; ``why`` is the evidence, or why they are not compared."""

    proto: ProtoFile
    message: ProtoMessage
    definition: Definition
    properties: tuple[Property, ...]  # the definition's, tags aside
    shared: tuple[tuple[ProtoField, Property], ...]
    compared: bool
    why: str
    # fields an rpc's HTTP binding carries in its path: not expected in a body's schema
    outside: frozenset[str] = frozenset()

    @property
    def only_proto(self) -> tuple[ProtoField, ...]:
        paired = {field.number for field, _ in self.shared}
        return tuple(
            f for f in self.message.fields if f.number not in paired and f.name not in self.outside
        )

    @property
    def only_schema(self) -> tuple[Property, ...]:
        paired = {prop.name for _, prop in self.shared}
        return tuple(p for p in self.properties if p.name not in paired)


def message_pairs(corpus: Context) -> list[MessagePair]:
    """Every proto message of the corpus's own protos beside each JSON Schema definition of its
    name, in proto path and line order (kept in the memo). Where several messages of one simple
    name (nested ones, other packages) fit a definition, only the one sharing the most of its
    fields is compared with it."""
    found: list[MessagePair] | None = corpus.memo.get("protojson:messages")
    if found is not None:
        return found
    found = []
    definitions = schema_definitions(corpus)
    outside = _outside_body(corpus)
    quoted = _quoted(corpus)
    seen: set[tuple[str, str, str, tuple[str, ...]]] = set()
    for proto in own_protos(corpus):
        for message in proto.messages:
            if (proto.path, message.name) in quoted:
                continue
            for definition in _comparable(
                corpus, proto, definitions.get(simple_name(message.name), ())
            ):
                pair = _pair(proto, message, definition, outside.get(message.name, set()))
                # one definition under two names (a root `title` and the `$defs` entry its
                # `$ref` names) is one pair
                key = (proto.path, message.name, definition.document.path, _pointers(pair))
                if pair.properties and key in seen:
                    continue
                seen.add(key)
                found.append(pair)
    best: dict[int, MessagePair] = {}
    for pair in found:
        held = best.get(id(pair.definition))
        if pair.compared and (held is None or _fit(pair) > _fit(held)):
            best[id(pair.definition)] = pair
    for index, pair in enumerate(found):
        chosen = best.get(id(pair.definition))
        if pair.compared and chosen is not None and chosen is not pair:
            why = f"`{chosen.message.name}` shares more of its fields: compared with that one"
            found[index] = replace(pair, compared=False, why=why)
    corpus.memo["protojson:messages"] = found
    return found


def _comparable(
    corpus: Context, proto: ProtoFile, definitions: Iterable[Definition]
) -> list[Definition]:
    """The definitions of a version the proto may be compared with: the same version, or
    either has none (``speclint.parsing.versions``: CycloneDX keeps ``bom-1.6.proto`` beside
    ``bom-1.7.schema.json``). A fence is of its page's version."""
    path = corpus_protos(corpus).place(proto.path, 1, 1)[0]
    return [d for d in definitions if corpus.versions.comparable(path, d.document.path)]


def _pointers(pair: MessagePair) -> tuple[str, ...]:
    return tuple(sorted(prop.pointer for prop in pair.properties))


def _quoted(corpus: Context) -> set[tuple[str, str]]:
    """(fence, definition) of each message and enum a proto fence quotes from a corpus file: the
    file's is compared, not the example's."""
    own = own_protos(corpus)
    names = {
        proto.path: [m.name for m in proto.messages] + [e.name for e in proto.enums]
        for proto in own
    }
    filed = {name for path, listed in names.items() if not is_fence(path) for name in listed}
    return {
        (path, name)
        for path, listed in names.items()
        if is_fence(path)
        for name in listed
        if name in filed
    }


def _fit(pair: MessagePair) -> float:
    union = len(pair.message.fields) + len(pair.properties) - len(pair.shared)
    return len(pair.shared) / union if union else 0.0


def _outside_body(corpus: Context) -> dict[str, set[str]]:
    """The fields of each request message that an rpc's ``google.api.http`` binding carries in
    its path (``/v1/{parent=tasks/*}``): not in the JSON body a request schema describes."""
    found: dict[str, set[str]] = {}
    for bound in rpc_index(corpus).rules:
        found.setdefault(bound.rpc.input, set()).update(path_fields(bound.rule.path))
    return found


def _pair(
    proto: ProtoFile,
    message: ProtoMessage,
    definition: Definition,
    outside: set[str] | frozenset[str] = frozenset(),
) -> MessagePair:
    read = _properties(definition)
    name = simple_name(message.name)
    if isinstance(read, str):
        return MessagePair(proto, message, definition, (), (), False, read, frozenset(outside))
    tags = {p.name for p in read if p.tag}
    by_name = {p.name: p for p in read}
    # A JSON surface that writes its names in kebab-case (CycloneDX's `bom-ref`) is no
    # ProtoJSON: its names are the fields' in the repository's own spelling.
    kebab = {_spelling(p.name): p for p in reversed(read) if "-" in p.name}
    shared: list[tuple[ProtoField, Property]] = []
    for field in message.fields:
        prop = (
            by_name.get(field.json_name)
            or by_name.get(field.name)
            or kebab.get(_spelling(field.name))
        )
        if prop is not None:
            shared.append((field, prop))
    paired = {prop.name for _, prop in shared}
    paired_fields = {field.name for field, _ in shared}
    # a tag (`"kind": {"const": "task"}`) names the JSON form's variant: ProtoJSON has none
    properties = tuple(p for p in read if p.name not in tags or p.name in paired)
    fields = [f for f in message.fields if f.name not in outside or f.name in paired_fields]
    union = len(fields) + len(properties) - len(shared)
    if not shared or 3 * len(shared) < union:
        why = (
            f"by name: `{name}` names both, but they share {len(shared)} of {union} fields: "
            "two things under one name"
        )
        return MessagePair(
            proto, message, definition, properties, tuple(shared), False, why, frozenset(outside)
        )
    why = f"by name: `{name}` names both; they share {len(shared)} of {union} fields"
    return MessagePair(
        proto, message, definition, properties, tuple(shared), True, why, frozenset(outside)
    )


def _spelling(name: str) -> str:
    """A name without its case and word separators: ``bom-ref``, ``bom_ref``, ``bomRef``."""
    return name.replace("-", "").replace("_", "").lower()


def _tag(name: str, schema: Any) -> bool:
    """A property no proto field can be: ProtoJSON's own (``@type``, ``[pkg.extension]``), or
    one that only names its object's variant (a ``const``, an ``enum`` of one)."""
    if name.startswith("@") or (name.startswith("[") and name.endswith("]")):
        return True
    if not isinstance(schema, dict):
        return False
    values = schema.get("enum")
    return "const" in schema or (isinstance(values, list) and len(values) == 1)


def _properties(definition: Definition) -> tuple[Property, ...] | str:
    """The properties a definition gives its objects, its ``allOf`` branches' and local
    references' included; a string saying why when they cannot all be known."""
    root = definition.document.data
    found: dict[str, Property] = {}

    seen: set[str] = set()  # references read once: a diamond of `allOf`s is no fan-out

    def read(schema: Any, pointer: str, depth: int) -> str:
        if depth > _DEPTH or not isinstance(schema, dict):
            return ""
        reference = schema.get("$ref")
        if isinstance(reference, str) and reference not in seen:
            seen.add(reference)
            # Not follow_local: the members beside a `$ref` count too (2020-12 §8.2.3.1), so
            # each reference is one step of this walk, bounded by its depth and `seen`.
            at = local_pointer(reference)
            target = None if at is None else resolve_pointer(root, at)
            if at is None or target is None:
                return f"it refers to `{reference}`, which is not read here"
            fault = read(target, at, depth + 1)
            if fault:
                return fault
        # `allOf` branches add to the object; `oneOf`/`anyOf` branches are the members it may
        # have (a proto `oneof` is written so)
        for keyword in ("allOf", "oneOf", "anyOf"):
            branches = schema.get(keyword)
            for index, branch in enumerate(branches if isinstance(branches, list) else ()):
                fault = read(branch, f"{pointer}/{keyword}/{index}", depth + 1)
                if fault:
                    return fault
        discriminator = schema.get("discriminator")
        if isinstance(discriminator, dict) and isinstance(discriminator.get("propertyName"), str):
            tags.add(discriminator["propertyName"])
        properties = schema.get("properties")
        for name, value in properties.items() if isinstance(properties, dict) else ():
            where = join_pointer(f"{pointer}/properties", str(name))
            found.setdefault(str(name), Property(str(name), where, value))
        return ""

    tags: set[str] = set()
    fault = read(definition.schema, definition.pointer, 0)
    if fault:
        return f"its properties cannot all be read: {fault}"
    if not found:
        return "it declares no properties (a union, a scalar or an open object)"
    return tuple(
        replace(prop, tag=True) if prop.name in tags or _tag(prop.name, prop.schema) else prop
        for prop in found.values()
    )


# --- enums -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnumPair:
    """A proto enum and a JSON Schema enum it is bound to: ``pointer`` is the schema holding
    ``enum`` in ``document``; ``name`` how the schema side is named in messages; ``why`` the
    evidence."""

    proto: ProtoFile
    enum: ProtoEnum
    document: Document
    pointer: str
    values: tuple[str, ...]
    name: str
    why: str


@dataclass(frozen=True)
class SchemaEnum:
    """One JSON Schema enum of a :class:`SchemaEnums`: ``pointer`` is the schema holding ``enum``
    in ``document``; ``why`` the evidence; ``order`` where the pairing found it (by name, in the
    order of the definitions of that name; then by use)."""

    document: Document
    pointer: str
    why: str
    order: tuple[int, int]


@dataclass(frozen=True, eq=False)
class SchemaEnums:
    """JSON Schema enums bound to a proto enum that any comparison with it treats alike: the
    same strings (``values``), named alike in messages (``name``). Made once for every proto
    enum of one name and version (by name), and compared by identity: 40 proto enums and 400
    schema enums of one name and the same values are one group, compared once with each
    distinct proto enum, never 16,000 pairs (issue 44, item 7)."""

    values: tuple[str, ...]
    name: str
    members: tuple[SchemaEnum, ...]  # in the order found


@dataclass(frozen=True)
class EnumBinding:
    """A proto enum and the groups of JSON Schema enums bound to it: by name, then by use."""

    proto: ProtoFile
    enum: ProtoEnum
    groups: tuple[SchemaEnums, ...]


def enum_bindings(corpus: Context) -> list[EnumBinding]:
    """Every proto enum of the corpus's own protos with the JSON Schema enums bound to it, as
    groups of alike ones (kept in the memo): by name, a definition of the enum's name (the
    groups made once per name and version, shared by every enum of that name); by use, the
    property a compared message pair (:func:`message_pairs`) matches with a field of the
    enum's type. A schema location is bound to an enum once."""
    found: list[EnumBinding] | None = corpus.memo.get("protojson:enums")
    if found is not None:
        return found
    found = []
    definitions = schema_definitions(corpus)
    uses: dict[str, list[tuple[MessagePair, ProtoField, Property]]] = {}
    for pair in message_pairs(corpus):
        for field, prop in pair.shared if pair.compared else ():
            if field.type == "enum":
                uses.setdefault(field.type_name, []).append((pair, field, prop))
    quoted = _quoted(corpus)
    place = corpus_protos(corpus).place
    # (simple name, version) -> its groups by name, and the schema locations they hold
    named: dict[tuple[str, str], tuple[tuple[SchemaEnums, ...], frozenset[tuple[str, str]]]] = {}
    for proto in own_protos(corpus):
        version = corpus.versions.of(place(proto.path, 1, 1)[0])
        for enum in proto.enums:
            if (proto.path, enum.name) in quoted:
                continue
            simple = simple_name(enum.name)
            by_name = named.get((simple, version))
            if by_name is None:
                comparable = _comparable(corpus, proto, definitions.get(simple, ()))
                groups = _by_name(simple, comparable)
                taken = frozenset(
                    (m.document.path, m.pointer) for group in groups for m in group.members
                )
                by_name = named[simple, version] = (groups, taken)
            by_use = _by_use(uses.get(enum.name, []), by_name[1])
            found.append(EnumBinding(proto, enum, by_name[0] + by_use))
    corpus.memo["protojson:enums"] = found
    return found


def enum_pairs(corpus: Context) -> list[EnumPair]:
    """Every proto enum of the corpus's own protos with each JSON Schema enum bound to it, one
    pair per enum and schema location, in the order the evidence finds them: what ``speclint
    bindings`` lists (:func:`enum_bindings` has them grouped, for comparing)."""
    return [
        EnumPair(
            binding.proto,
            binding.enum,
            member.document,
            member.pointer,
            group.values,
            group.name,
            member.why,
        )
        for binding in enum_bindings(corpus)
        for group, member in sorted(
            ((group, member) for group in binding.groups for member in group.members),
            key=lambda bound: bound[1].order,
        )
    ]


def _strings(schema: Any) -> tuple[str, ...] | None:
    """The strings an enum lists (its ``null``, OpenAPI 3.0's nullable, aside), or None."""
    values = schema.get("enum") if isinstance(schema, dict) else None
    if not isinstance(values, list):
        return None
    values = [value for value in values if value is not None]
    if values and all(isinstance(v, str) for v in values):
        return tuple(values)
    return None


def _by_name(simple: str, definitions: list[Definition]) -> tuple[SchemaEnums, ...]:
    """The string enums among ``definitions`` (of the name ``simple``), grouped by values."""
    why = f"by name: `{simple}` names both"
    alike: dict[tuple[str, ...], list[SchemaEnum]] = {}
    seen: set[tuple[str, str]] = set()
    for order, definition in enumerate(definitions):
        values = _strings(definition.schema)
        where = (definition.document.path, definition.pointer)
        if values is None or where in seen:
            continue
        seen.add(where)
        alike.setdefault(values, []).append(
            SchemaEnum(definition.document, definition.pointer, why, (0, order))
        )
    return tuple(
        SchemaEnums(values, f"`{simple}`", tuple(members)) for values, members in alike.items()
    )


def _by_use(
    uses: list[tuple[MessagePair, ProtoField, Property]], taken: frozenset[tuple[str, str]]
) -> tuple[SchemaEnums, ...]:
    """The string enums of the properties ``uses`` match with a field of the enum's type (not
    those bound by name already), grouped by values and label. A definition is compared with
    one message (:func:`message_pairs`), so a property is bound by use to one enum at most."""
    alike: dict[tuple[tuple[str, ...], str], list[SchemaEnum]] = {}
    seen: set[tuple[str, str]] = set()  # beside ``taken``, never a copy of it: one per enum
    for order, (pair, field, prop) in enumerate(uses):
        repeated = field.label == "repeated"
        schema = prop.schema if isinstance(prop.schema, dict) else {}
        values = _strings(schema.get("items") if repeated else schema)
        document = pair.definition.document
        where = prop.pointer + ("/items" if repeated else "")
        if values is None or (document.path, where) in taken or (document.path, where) in seen:
            continue
        seen.add((document.path, where))
        name = simple_name(pair.message.name)
        why = f"by use: the field `{name}.{field.name}`, of the enum's type"
        alike.setdefault((values, f"`{name}.{prop.name}`"), []).append(
            SchemaEnum(document, where, why, (1, order))
        )
    return tuple(
        SchemaEnums(values, label, tuple(members)) for (values, label), members in alike.items()
    )


# --- enum values as the surfaces spell them ------------------------------------------------------

# The names a proto3 zero value is given when it means "not set" (the style guide's UNSPECIFIED,
# and what repositories write instead: CycloneDX's `NULL`, A2A's `UNKNOWN`).
_NOT_SET = frozenset({"UNSPECIFIED", "UNKNOWN", "UNSET", "NOT_SET", "NONE", "NULL", "UNDEFINED"})


@dataclass(frozen=True)
class EnumSpellings:
    """Every spelling of each number of a proto enum, as ProtoJSON and specifications write its
    values: the name whole (``TASK_STATE_SUBMITTED``) or without the prefix the values share
    (``SUBMITTED``), in any letter case, hyphens or spaces for underscores (``input-required``).
    The aliases of one number are one value."""

    prefix: str
    keys: dict[int, frozenset[str]]  # number -> its spellings, as :func:`spelling_key` makes them
    names: dict[int, str]  # number -> its first name (of its aliases)
    unset: frozenset[int]  # proto3's zero value named for "not set": not expected elsewhere

    @cached_property
    def numbers(self) -> dict[str, int]:
        """Spelling -> its number (the inverse of ``keys``)."""
        return {key: number for number, keys in self.keys.items() for key in keys}

    def number(self, written: str) -> int | None:
        return self.numbers.get(spelling_key(written))

    def missing(self, written: Iterable[str]) -> list[str]:
        """The names of the numbers (but "not set") none of ``written`` spells, sorted."""
        given = {spelling_key(w) for w in written}
        return sorted(
            self.names[n]
            for n, keys in self.keys.items()
            if not keys & given and n not in self.unset
        )

    def unknown(self, written: Iterable[str]) -> list[str]:
        """The values of ``written`` that spell no number, in order."""
        return [w for w in written if self.number(w) is None]


def spelling_key(value: str) -> str:
    return value.upper().replace("-", "_").replace(" ", "_")


def enum_spellings(enum: ProtoEnum) -> EnumSpellings:
    prefix = _prefix(enum)
    keys: dict[int, set[str]] = {}
    names: dict[int, str] = {}
    for value in enum.values:
        short = value.name[len(prefix) :] if value.name.startswith(prefix) else value.name
        keys.setdefault(value.number, set()).update({spelling_key(short), spelling_key(value.name)})
        names[value.number] = min(names.get(value.number, value.name), value.name)
    unset = frozenset(
        value.number
        for value in enum.values
        if value.number == 0 and value.name.removeprefix(prefix) in _NOT_SET
    )
    return EnumSpellings(prefix, {n: frozenset(k) for n, k in keys.items()}, names, unset)


def _prefix(enum: ProtoEnum) -> str:
    """The prefix its values share up to an underscore (``TASK_STATE_``), as the style guide
    has them written; else the enum's name in upper snake case (``TaskState`` ->
    ``TASK_STATE_``). Read from the values first: ``HTTPMethod``'s are ``HTTP_METHOD_…``, a
    nested ``Task.State``'s ``TASK_STATE_…``."""
    names = [value.name for value in enum.values]
    if len(names) > 1:
        common = min(names)
        for other in names:  # the characters every name starts with
            while not other.startswith(common):
                common = common[:-1]
        cut = common.rfind("_")
        if cut > 0:
            return common[: cut + 1]
    simple = enum.name.rsplit(".", 1)[-1]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", simple).upper() + "_"


# --- prose lists bound to a proto enum -------------------------------------------------------------

_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class ProseEnumPair:
    """A value list of the prose and the proto enum it lists (``why``: the evidence). Only a
    list that binds to no JSON Schema enum is paired: one that does is enum-drift's, and that
    schema enum is proto-enum-drift's to compare with the proto."""

    prose: ProseSet
    proto: ProtoFile
    enum: ProtoEnum
    why: str


def _proposed(corpus: Context, proto: ProtoFile, place: Any) -> bool:
    """Whether ``proto`` is a fence of a proposal's page (an RFC, a page in a design folder)."""
    if not is_fence(proto.path):
        return False
    page = place(proto.path, 1, 1)[0]
    document = corpus.documents.get(page)
    return in_design_folder(page) or (document is not None and is_rfc(document))


def prose_enum_pairs(corpus: Context) -> list[ProseEnumPair]:
    """Every prose value list bound to a proto enum of the corpus's own protos (kept in the
    memo): explicitly, its sentence names the enum (`` `TaskState` ``, a nested one as
    `` `Task.State` ``) or an enum-typed field (`` `TaskStatus.state` ``); else by the field it
    lists (a field's name or JSON name) or the enum's name as the list's field, when the values
    overlap as enum-drift's do (ProtoJSON spellings). Of several enums so bound, the one sharing
    clearly the most values, or none. Not a proposal's list (an RFC page, a page in a design
    folder: it states a change), not one of another version, not one bound to a schema."""
    found: list[ProseEnumPair] | None = corpus.memo.get("protojson:prose-enums")
    if found is not None:
        return found
    found = []
    place = corpus_protos(corpus).place
    # A proto fence of a proposal (an RFC page, a page in a design folder) sketches a change:
    # the normative prose is not held to it (an OTEP's draft `StatusCode` is not the spec's).
    protos = [proto for proto in own_protos(corpus) if not _proposed(corpus, proto, place)]
    enums = {enum.name: (proto, enum) for proto in protos for enum in proto.enums}
    if not enums:
        corpus.memo["protojson:prose-enums"] = found
        return found
    # every name an enum goes by: `pkg.Task.State`, `Task.State`, `State`
    by_name: dict[str, list[str]] = {}
    for name in enums:
        parts = name.split(".")
        for cut in range(len(parts)):
            by_name.setdefault(".".join(parts[cut:]), []).append(name)
    by_field: dict[str, list[tuple[str, str]]] = {}  # field spelling -> (enum, `Owner.field`)
    by_member: dict[tuple[str, str], list[str]] = {}
    for proto in protos:
        for message in proto.messages:
            for field in message.fields:
                if field.type != "enum" or field.type_name not in enums:
                    continue
                owner = simple_name(message.name)
                for spelled in {field.name, field.json_name}:
                    by_field.setdefault(spelled, []).append(
                        (field.type_name, f"{owner}.{field.name}")
                    )
                    by_member.setdefault((owner, spelled), []).append(field.type_name)
    binder = Binder(corpus)
    spellings = {name: enum_spellings(enum) for name, (_, enum) in enums.items()}
    seen: set[tuple[str, int, str]] = set()
    for prose in all_prose_sets(corpus):
        page = corpus.documents.get(prose.path)
        if page is None or is_rfc(page) or in_design_folder(prose.path):
            continue
        if prose.form in SHAPE_FORMS:
            continue  # enum-drift's preview shapes (issue 46, item 10): not measured on protos

        explicit: dict[str, str] = {}  # enum -> why
        for reference in (r.strip() for r in _CODE.findall(prose.context)):
            for name in by_name.get(reference, ()):
                explicit.setdefault(name, f"the text names `{reference}`")
            owner, _, member = reference.rpartition(".")
            for name in by_member.get((owner, member), ()) if owner else ():
                explicit.setdefault(name, f"the text names `{reference}`, of the enum's type")
        by_list: dict[str, str] = {}
        if prose.field and not explicit:
            for name in by_name.get(prose.field, ()):
                by_list.setdefault(name, f"the list is of `{prose.field}`, the enum's name")
            for name, typed in by_field.get(prose.field, ()):
                why = f"the list is of `{prose.field}`, the field `{typed}` of the enum's type"
                by_list.setdefault(name, why)
        candidates = explicit or by_list
        if not candidates or binder.grouped(prose):
            continue
        scored = []
        for name, why in sorted(candidates.items()):
            proto, enum = enums[name]
            if not corpus.versions.comparable(prose.path, place(proto.path, 1, 1)[0]):
                continue
            # the list's own subject named among its values ("values of `TaskState` are")
            values = tuple(v for v in prose.values if v not in by_name or name not in by_name[v])
            its = spellings[name]
            given = tuple(str(n) if (n := its.number(v)) is not None else f"?{v}" for v in values)
            listed = tuple(str(n) for n in its.keys if n not in its.unset)
            shared = len({g for g in given if not g.startswith("?")})
            if not (overlap(given, listed, prose.complete) or (name in explicit and shared)):
                continue
            union = len(set(given) | set(listed))
            holds = not its.unknown(values)
            scored.append((shared / union if union else 0.0, name, why, values, holds))
        holding = [item for item in scored if item[4]]
        if not prose.complete:
            # a few values named in passing: the enums holding all of them, if any
            scored = holding or scored
        if not scored or (not explicit and len(holding) > 1):
            continue  # every value in two enums: which one the list is of, the text does not say
        scored.sort(key=lambda item: -item[0])
        if len(scored) > 1 and scored[0][0] == scored[1][0]:
            continue  # two enums fit as well
        _, name, why, values, _ = scored[0]
        if (prose.path, prose.line, name) in seen:
            continue  # two readings of one line (a sentence and its list): one pair
        seen.add((prose.path, prose.line, name))
        proto, enum = enums[name]
        found.append(ProseEnumPair(replace(prose, values=values), proto, enum, why))
    corpus.memo["protojson:prose-enums"] = found
    return found
