"""A protobuf enum and the JSON Schema enum or prose list of the same thing that list
different values.

What it does
    Pairs each enum of the corpus's own protos (``.proto`` files and read proto fences) with the
    JSON Schema enum the evidence binds it to, by name (a definition named ``TaskState``) or by
    use (the schema property that matches a field of that enum type), and with a prose value
    list that names the enum or one of its fields; ``speclint bindings`` lists each pair and
    its evidence. Values are compared as ProtoJSON and specifications write them
    (``TASK_STATE_INPUT_REQUIRED`` is ``INPUT_REQUIRED`` is ``input-required``; the aliases of
    one number are one value; a zero value for "not set" is not expected). A value on one side
    only is reported, the other side related; one disagreement repeated in many places is one
    finding.

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

Use instead
    One spelling on both sides (``"enum": ["submitted", "cancelled"]``). PASS.

Options
    None.

Limitations
    A bundle's copy of a definition, a definition of another version, a proposal's list (an
    RFC, a design folder) and a vendored proto bind nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protojson import (
    EnumBinding,
    EnumSpellings,
    ProseEnumPair,
    SchemaEnum,
    SchemaEnums,
    enum_bindings,
    enum_spellings,
    prose_enum_pairs,
    simple_name,
)
from speclint.analyses.grpc.protos import corpus_protos
from speclint.analyses.prose.enumerations import FORM_WORDS, ProseSet, page_value_lists
from speclint.common.findings import (
    Finding,
    Location,
    Member,
    Severity,
    bounded_related,
    left_out,
)

ID = "proto-enum-drift"
SEVERITY = Severity.WARNING
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
FACTS = ("derived", "references")  # bundles are no definitions (protojson); the Binder
SHOWN = 4  # values of each side in the message; all of them on the related locations
READS = "extract"  # of a page: its value lists and whether it is a proposal (and proto fences)
READS_PROSE_SETS = True  # the pages' value sets, made before it runs (speclint.run.catalog)
# Related locations a finding carries, its message counting the rest: the evidence of one
# disagreement repeated in many places, not every place (as enum-drift's).
RELATED_LIMIT = 50


extract = page_value_lists

# (page, line, column) of a place in reading order
_Place = tuple[str, int, int]


class _First:
    """Some places in reading order: the first ``RELATED_LIMIT + 1``, what a finding shows of
    them, and every one of them, the finding's members (a waiver may be at any of them). A
    place is added once per comparison that finds it disagreeing: memory grows with the work."""

    def __init__(self) -> None:
        self.every: list[tuple[_Place, str, Any]] = []

    def add(self, place: _Place, name: str, item: Any) -> None:
        self.every.append((place, name, item))

    @property
    def count(self) -> int:
        return len(self.every)

    def first(self) -> list[tuple[_Place, str, Any]]:
        self.every.sort(key=lambda kept: kept[:2])
        return self.every[: RELATED_LIMIT + 1]


@dataclass
class _Disagreement:
    """A group of alike schema enums that a proto enum disagrees with: ``only_proto`` and
    ``only_schema``."""

    group: SchemaEnums
    only_proto: list[str]
    only_schema: list[str]

    @functools.cached_property
    def first(self) -> SchemaEnum:
        """The group's first schema enum in reading order."""
        return min(self.group.members, key=_reading)


class _ProtoSide:
    """Alike proto enums (the same name and ProtoJSON spellings): each group of schema enums
    bound to any of them compared once, the groups they disagree with (the first
    ``RELATED_LIMIT + 1`` in reading order kept, all counted), and the proto enums that
    disagree with any. Memory grows with the groups, not with the pairs."""

    def __init__(self, spellings: EnumSpellings) -> None:
        self.spellings = spellings
        self.protos = _First()
        self.disagreements: list[_Disagreement] = []
        self.count = 0  # groups disagreeing
        self.schemas = 0  # schema enums in them
        self._seen: dict[int, tuple[SchemaEnums, bool]] = {}  # the group held: ids not reused

    def compared(self, group: SchemaEnums) -> bool:
        """Whether the proto enums disagree with ``group``, compared the first time asked."""
        seen = self._seen.get(id(group))
        if seen is None:
            found = _compare(self.spellings, group)
            seen = self._seen[id(group)] = (group, found is not None)
            if found is not None:
                self.count += 1
                self.schemas += len(group.members)
                self.disagreements.append(found)
                if len(self.disagreements) > 2 * (RELATED_LIMIT + 1):
                    self.disagreements = self.first()
        return seen[1]

    def first(self) -> list[_Disagreement]:
        self.disagreements.sort(key=lambda found: _reading(found.first))
        return self.disagreements[: RELATED_LIMIT + 1]


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    place = corpus_protos(corpus).place
    # Issue 44: 40 proto enums and 400 schema enums of one name and the same values were
    # 16,000 findings of one disagreement. Each distinct proto enum is compared once with each
    # group of alike schema enums (``enum_bindings``), and the proto enums that disagree the
    # same way are one finding, at the first of them; a distinct proto enum that disagrees
    # with many groups of other values is one finding too, the groups related: findings grow
    # with the proto enums, not with proto enums × schema enums (120 × 1,000 of distinct
    # values were 120,000 findings).
    sides: dict[tuple[Any, ...], _ProtoSide] = {}
    for binding in enum_bindings(corpus):
        spellings = enum_spellings(binding.enum)
        alike = _alike(binding, spellings)
        side = sides.get(alike)
        if side is None:
            side = sides[alike] = _ProtoSide(spellings)
        disagrees = False
        for group in binding.groups:
            found = side.compared(group)
            disagrees = disagrees or found
        if disagrees:
            at = place(binding.proto.path, binding.enum.line, binding.enum.column)
            note = "a proto enum of the same values"
            shown = Location(*at, pointer=f"/{binding.enum.name}", note=note)
            side.protos.add(at, binding.enum.name, (binding, shown))
    for side in sides.values():
        if side.protos.count:
            yield _finding(side)
    yield from _prose_findings(corpus, place)


def _alike(binding: EnumBinding, spellings: EnumSpellings) -> tuple[Any, ...]:
    """What a comparison and its message read of a proto enum: its simple name and spellings."""
    return (
        simple_name(binding.enum.name),
        spellings.prefix,
        tuple(sorted((number, tuple(sorted(keys))) for number, keys in spellings.keys.items())),
        tuple(sorted(spellings.names.items())),
        spellings.unset,
    )


def _sides(*sides: tuple[list[str], str]) -> str:
    """What each side alone lists ("`A`, `B` only in the proto; `c` only in the schema")."""
    return "; ".join(
        ", ".join(f"`{v}`" for v in values[:SHOWN])
        + (" ..." if len(values) > SHOWN else "")
        + f" only in {side}"
        for values, side in sides
        if values
    )


def _compare(spellings: EnumSpellings, group: SchemaEnums) -> _Disagreement | None:
    only_proto = spellings.missing(group.values)
    only_schema = sorted(set(spellings.unknown(group.values)))
    if not only_proto and not only_schema:
        return None
    return _Disagreement(group, only_proto, only_schema)


def _others(count: int) -> str:
    return f" (and {count} other{'s' if count > 1 else ''} of the same values)" if count else ""


def _finding(side: _ProtoSide) -> Finding:
    """At the first proto enum in reading order, the schema enums and the other proto enums
    related (the first schema enum always)."""
    protos = side.protos.first()
    (page, line, column), _, (binding, _) = protos[0]
    enum = binding.enum
    disagreements = side.first()
    found = disagreements[0]
    first = found.first
    simple = simple_name(enum.name)
    compared = f"(values compared without the `{side.spellings.prefix}` prefix, in any case, "
    compared += "hyphens for underscores)"
    others = _others(side.protos.count - 1)
    if side.count == 1:
        group = found.group
        schemas = sorted(group.members, key=_reading)
        parts = _sides((found.only_proto, "the proto"), (found.only_schema, "the schema"))
        values = ", ".join(group.values)
        schema_side = (
            [
                _schema_location(
                    member,
                    f"the schema's values: {values}"
                    if member is first
                    else "a schema enum of the same values",
                )
                for member in schemas[: RELATED_LIMIT + 1]
            ],
            len(schemas),
        )
        message = (
            f"proto enum `{simple}`{others} and the JSON Schema enum {group.name}"
            f"{_others(len(schemas) - 1)} disagree: {parts} {compared}: give both surfaces the "
            "same values"
        )
    else:
        # each group's schema enums related, the first with its values and the difference
        schema_side = (
            [
                _schema_location(
                    member,
                    f"the schema's values: {', '.join(other.group.values)} ("
                    + _sides((other.only_proto, "the proto"), (other.only_schema, "the schema"))
                    + ")"
                    if member is other.first
                    else "a schema enum of the same values as the one above",
                )
                for other in disagreements
                for member in sorted(other.group.members, key=_reading)[: RELATED_LIMIT + 1]
            ][: RELATED_LIMIT + 1],
            side.schemas,
        )
        parts = _sides((found.only_proto, "the proto"), (found.only_schema, "the schema"))
        message = (
            f"proto enum `{simple}`{others} disagrees with {side.count} JSON Schema enums bound "
            f"to it, each of other values: with {found.group.name}, {parts} {compared}; the "
            "related locations give each one's difference: give both surfaces the same values"
        )
    related, unlisted = bounded_related(
        schema_side,
        ([shown for _, _, (_, shown) in protos[1:]], side.protos.count - 1),
        room=RELATED_LIMIT,
    )
    return Finding(
        ID,
        SEVERITY,
        message + left_out(len(related), unlisted, "other places"),
        Location(page, line, column, pointer=f"/{enum.name}"),
        related,
        # the key of the finding at its first place, that of the pair it was before grouping
        key=f"{enum.name}:{first.document.path}#{first.pointer}",
        # every proto enum, each with the key of its own pair: a waiver at one covers that one
        members=tuple(
            Member(shown, f"{other.enum.name}:{first.document.path}#{first.pointer}")
            for _, _, (other, shown) in side.protos.every
        )
        if side.protos.count > 1
        else (),
    )


def _reading(member: SchemaEnum) -> tuple[str, int, int]:
    return (member.document.path, *member.document.position(member.pointer + "/enum"))


def _schema_location(member: SchemaEnum, note: str) -> Location:
    pointer = member.pointer + "/enum"
    line, column = member.document.position(pointer)
    return Location(member.document.path, line, column, pointer=pointer, note=note)


def _prose_findings(corpus: Context, place: Any) -> Iterator[Finding]:
    """Alike lists (the same values, in the same form, as complete) bound to one proto enum by
    the same evidence: compared once, one finding at the first of them, the others related."""
    lists: dict[tuple[Any, ...], _First] = {}
    for pair in prose_enum_pairs(corpus):
        prose = pair.prose
        key = (
            pair.proto.path,
            pair.enum.name,
            pair.why,
            prose.form,
            prose.values,
            prose.complete,
        )
        lists.setdefault(key, _First()).add((prose.path, prose.line, 1), "", pair)
    for places in lists.values():
        found = _compare_prose(places, place)
        if found is not None:
            yield found


def _compare_prose(places: _First, place: Any) -> Finding | None:
    """Prose lists against the proto enum they list: a value the enum lacks; and, where the
    text gives the list as complete, an enum value the list lacks."""
    listed = places.first()
    pair: ProseEnumPair = listed[0][2]
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
    form = FORM_WORDS.get(prose.form, "list")
    related, unlisted = bounded_related(
        (
            [
                Location(
                    page,
                    line,
                    column,
                    pointer=f"/{enum.name}",
                    note=f"the proto's values: {values}",
                )
            ],
            1,
        ),
        (
            [_prose_location(other.prose) for _, _, other in listed[1:]],
            places.count - 1,
        ),
        room=RELATED_LIMIT,
    )
    message = (
        f"the {form} here{_others(places.count - 1)} and proto enum `{shown}` disagree: "
        f"{parts} (bound because {pair.why}; values compared without the "
        f"`{spellings.prefix}` prefix, in any case, hyphens for underscores): list the enum's "
        "values, or change the enum"
    )
    return Finding(
        ID,
        SEVERITY,
        message + left_out(len(related), unlisted, "other places"),
        prose.location(),
        related,
        key=f"prose:{enum.name}:{','.join(prose.values)}",
        # every list: a waiver at one covers that one
        members=tuple(
            Member(_prose_location(other.prose), f"prose:{enum.name}:{','.join(prose.values)}")
            for _, _, other in places.every
        )
        if places.count > 1
        else (),
    )


def _prose_location(prose: ProseSet) -> Location:
    return prose.location(note=f"lists the same {len(prose.values)} values")
