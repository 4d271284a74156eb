"""A protobuf enum and the JSON Schema enum or prose list of the same thing that list
different values.

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
    is not expected in the schema, and no disagreement when it is there. A value on one side
    only is reported, once per pair, at the proto enum, with the schema's enum related.

    A value list of the prose (the shapes enum-drift reads) that binds to no JSON Schema enum is
    held to a proto enum where the evidence binds it: its sentence names the enum
    (`` `TaskState` ``, a nested one by its message, `` `Task.State` ``) or an enum-typed field
    (`` `TaskStatus.state` ``); else the list is of a field of the enum's type (its name or
    JSON name) or of the enum's name, and its values overlap the enum's as enum-drift's
    overlap. Of several enums so bound the one sharing clearly most values is; a list all of
    whose values two enums hold binds neither (the text does not say which). A value the enum
    lacks is reported at the list; where the text gives the list as complete, the enum's
    values it lacks too ("not set" aside). A list that binds to a schema enum is enum-drift's
    (and that enum is compared with the proto above); a proposal's list (an RFC page, a page
    in a design folder: ``rfcs/``, ``adrs/``...) states a change and binds to nothing here.

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
    `TASK_STATE_CANCELLED` only in the proto; `canceled` only in the schema ...``

    A prose list, "The `state` of a task is one of: `submitted`, `working`, `canceled`" (with
    ``TASK_STATE_WORKING = 3`` too, and ``TaskState state = 1;`` in ``TaskStatus``). FAIL:
    ``warning [proto-enum-drift] the "one of" list here and proto enum `TaskState` disagree:
    `canceled` only in the prose; `TASK_STATE_CANCELLED` only in the proto ...``

Use instead
    One spelling on both sides. PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.enumerations import FORM_WORDS, page_value_lists
from speclint.analyses.protojson import (
    EnumPair,
    ProseEnumPair,
    enum_pairs,
    enum_spellings,
    prose_enum_pairs,
)
from speclint.analyses.protos import corpus_protos
from speclint.common.findings import Finding, Location, Severity

ID = "proto-enum-drift"
SEVERITY = Severity.WARNING
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
FACTS = ("derived", "references")  # bundles are no definitions (protojson); the Binder
SHOWN = 4  # values of each side in the message; all of them on the related locations
READS = "extract"  # of a page: its value lists and whether it is a proposal (and proto fences)


extract = page_value_lists


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    place = corpus_protos(corpus).place
    for pair in enum_pairs(corpus):
        found = _compare(pair, place)
        if found is not None:
            yield found
    for prose_pair in prose_enum_pairs(corpus):
        found = _compare_prose(prose_pair, place)
        if found is not None:
            yield found


def _sides(*sides: tuple[list[str], str]) -> str:
    """What each side alone lists ("`A`, `B` only in the proto; `c` only in the schema")."""
    return "; ".join(
        ", ".join(f"`{v}`" for v in values[:SHOWN])
        + (" ..." if len(values) > SHOWN else "")
        + f" only in {side}"
        for values, side in sides
        if values
    )


def _compare(pair: EnumPair, place: Any) -> Finding | None:
    enum, proto = pair.enum, pair.proto
    spellings = enum_spellings(enum)
    only_proto = spellings.missing(pair.values)
    only_schema = sorted(set(spellings.unknown(pair.values)))
    if not only_proto and not only_schema:
        return None
    simple = enum.name.rsplit(".", 1)[-1]
    parts = _sides((only_proto, "the proto"), (only_schema, "the schema"))
    page, line, column = place(proto.path, enum.line, enum.column)
    pointer = pair.pointer + "/enum"
    schema_line, schema_column = pair.document.position(pointer)
    return Finding(
        ID,
        SEVERITY,
        f"proto enum `{simple}` and the JSON Schema enum {pair.name} disagree: "
        f"{parts} (values compared without the `{spellings.prefix}` prefix, in any "
        "case, hyphens for underscores): give both surfaces the same values",
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


def _compare_prose(pair: ProseEnumPair, place: Any) -> Finding | None:
    """A prose list against the proto enum it lists: a value the enum lacks; and, where the
    text gives the list as complete, an enum value the list lacks."""
    prose, enum = pair.prose, pair.enum
    spellings = enum_spellings(enum)
    only_prose = spellings.unknown(prose.values)
    only_proto = spellings.missing(prose.values) if prose.complete else []
    if not only_prose and not only_proto:
        return None
    # a nested enum by its message too (`Task.State`): the package alone is left out
    package = pair.proto.package + "." if pair.proto.package else ""
    shown = enum.name.removeprefix(package)
    parts = _sides((only_prose, "the prose"), (only_proto, "the proto"))
    page, line, column = place(pair.proto.path, enum.line, enum.column)
    values = ", ".join(v.name for v in enum.values)
    return Finding(
        ID,
        SEVERITY,
        f"the {FORM_WORDS.get(prose.form, 'list')} here and proto enum `{shown}` disagree: "
        f"{parts} (bound because {pair.why}; values compared without the "
        f"`{spellings.prefix}` prefix, in any case, hyphens for underscores): list the enum's "
        "values, or change the enum",
        prose.location(),
        (
            Location(
                page, line, column, pointer=f"/{enum.name}", note=f"the proto's values: {values}"
            ),
        ),
        key=f"prose:{enum.name}:{','.join(prose.values)}",
    )
