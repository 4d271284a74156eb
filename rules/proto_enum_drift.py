"""A protobuf enum and the JSON Schema enum of the same thing that list different values.

What it does
    Pairs each enum of the corpus's own ``.proto`` files (and read proto fences; vendored protos
    aside) with a JSON Schema enum, where the evidence binds them (``speclint bindings`` lists
    each pair and its evidence):

    - by name: a ``definitions``/``$defs`` entry, an OpenAPI ``components/schemas`` (Swagger
      ``definitions``) entry, or a schema file's ``title``, named as the proto enum
      (``TaskState``), whose ``enum`` lists strings;
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
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.protojson import EnumPair, enum_pairs
from speclint.analyses.protos import ProtoFence, corpus_protos, page_fences
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.protobuf import ProtoEnum

ID = "proto-enum-drift"
SEVERITY = Severity.WARNING
READS = "extract"  # of a page, only its proto fences (speclint.analyses.units)
READS_PROTOS = True  # the corpus's compiled protos (speclint.analyses.protos)
SHOWN = 4  # values of each side in the message; all of them on the related locations


def extract(document: Document) -> tuple[ProtoFence, ...]:
    return page_fences(document)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    place = corpus_protos(corpus).place
    for pair in enum_pairs(corpus):
        found = _compare(pair, place)
        if found is not None:
            yield found


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


def _unset(enum: ProtoEnum, number: int, prefix: str) -> bool:
    """proto3's zero value (``…_UNSPECIFIED = 0``): "not set", not a value the schema must
    list (it may: then it agrees)."""
    if number != 0:
        return False
    names = [v.name[len(prefix) :] if v.name.startswith(prefix) else v.name for v in enum.values]
    return any(
        v.number == 0 and n in ("UNSPECIFIED", "UNKNOWN", "UNSET", "NONE")
        for v, n in zip(enum.values, names, strict=True)
    )


def _key(value: str) -> str:
    return value.upper().replace("-", "_").replace(" ", "_")


def _compare(pair: EnumPair, place: Any) -> Finding | None:
    enum, proto = pair.enum, pair.proto
    prefix = _prefix(enum)
    theirs = {_key(v): v for v in pair.values}
    # every spelling of each number: its names (aliases too), with and without the prefix;
    # ProtoJSON writes the names whole (`TASK_STATE_SUBMITTED`), specifications the short ones
    spellings: dict[int, set[str]] = {}
    for value in enum.values:
        short = value.name[len(prefix) :] if value.name.startswith(prefix) else value.name
        spellings.setdefault(value.number, set()).update({_key(short), _key(value.name)})
    only_proto = sorted(
        min(v.name for v in enum.values if v.number == number)
        for number, keys in spellings.items()
        if not keys & theirs.keys() and not _unset(enum, number, prefix)
    )
    known = set().union(*spellings.values())
    only_schema = sorted(value for key, value in theirs.items() if key not in known)
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
    pointer = pair.pointer + "/enum"
    schema_line, schema_column = pair.document.position(pointer)
    return Finding(
        ID,
        SEVERITY,
        f"proto enum `{simple}` and the JSON Schema enum {pair.name} disagree: "
        f"{'; '.join(parts)} (values compared without the `{prefix}` prefix, in any case, hyphens "
        "for underscores): give both surfaces the same values",
        Location(page, line, column, pointer=f"/{enum.name}"),
        (
            Location(
                pair.document.path,
                schema_line,
                schema_column,
                pointer=pointer,
                note=f"the schema's values: {', '.join(pair.values)}",
            ),
        ),
        key=f"{enum.name}:{pair.document.path}#{pair.pointer}",
    )
