"""A protobuf enum and the JSON Schema enum of the same thing that list different values.

What it does
    Pairs each enum of the corpus's own ``.proto`` files (and read proto fences; vendored protos
    aside) with a JSON Schema enum, where the evidence binds them (``speclint bindings`` lists
    each pair and its evidence):

    - by name: a JSON Schema definition named as the proto enum (``TaskState``) whose
      ``enum`` lists strings: a ``$defs``/``definitions`` key or a schema's ``title``, an OpenAPI
      ``components/schemas`` (Swagger ``definitions``) entry; a derived copy (a bundle) is none,
      nor is a definition of another version;
    - by use: the property that proto-message-drift's pairing of a message and its definition
      matches with a field of that enum type (``Message.role`` and
      ``definitions/Message/properties/role``, an ``allOf`` branch's property too; ``items`` for
      a ``repeated`` field). A same-named definition that is another thing binds nothing.

    Values are compared as ProtoJSON and specifications write them: a proto value with or
    without the prefix its values share (``TASK_STATE_INPUT_REQUIRED`` is ``INPUT_REQUIRED``;
    the prefix is read from the values, else from the enum's name), in any letter case, with
    hyphens for underscores (``input-required``). The aliases of one number are one value. A
    proto3 zero value named for "not set" (``…_UNSPECIFIED``, ``…_UNKNOWN``, ``…_NULL``...)
    is not expected in the schema, and no disagreement when it is there. A value on one side only is reported, once per pair, at
    the proto enum, with the schema's enum related.

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
from speclint.analyses.protos import corpus_protos
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.protobuf import ProtoEnum

ID = "proto-enum-drift"
SEVERITY = Severity.WARNING
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
FACTS = ("derived",)  # a derived copy (a bundle) is no definition of its own (protojson)
SHOWN = 4  # values of each side in the message; all of them on the related locations
# The names a proto3 zero value is given when it means "not set" (the style guide's UNSPECIFIED,
# and what repositories write instead: CycloneDX's `NULL`, A2A's `UNKNOWN`).
_NOT_SET = frozenset({"UNSPECIFIED", "UNKNOWN", "UNSET", "NOT_SET", "NONE", "NULL", "UNDEFINED"})


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
    return any(v.number == 0 and n in _NOT_SET for v, n in zip(enum.values, names, strict=True))


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
