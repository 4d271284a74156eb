"""What changed in the gRPC surface between two revisions (issue 30, item 4), as ``buf breaking``
judges it, for ``speclint changes`` and compat-claim beside the schema changes.

The corpus's ``.proto`` files (not the prose's fences: they are examples) are read at both
revisions (``speclint.analyses.protos``) and paired by fully qualified name: messages, enums,
services. Within them, a field is its number (the wire), an enum value its number, an rpc its
name. Breaking, as buf's ``FILE`` rules have it: a message, enum, service, rpc, field or enum
value removed; a field renumbered (its name at another number) or renamed (its JSON name is the
ProtoJSON wire); a field's type or cardinality changed; an enum value renamed (ProtoJSON writes
the name); an rpc's request, response or streaming changed, or its HTTP binding. Additions are
reported as not breaking.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from speclint.analyses.compat import Change, schema_changes
from speclint.analyses.context import Context
from speclint.analyses.protos import corpus_protos
from speclint.common.findings import Location
from speclint.parsing.protobuf import ProtoField, ProtoFile, ProtoMessage, ProtoRpc


def contract_changes(base: Context, head: Context) -> list[Change]:
    """The schema changes (``speclint.analyses.compat``) and the proto surface's, in one
    stable order: what ``speclint changes`` lists and compat-claim weighs."""
    changes = schema_changes(base, head) + proto_changes(base, head)
    return sorted(
        {change.identity: change for change in changes}.values(),
        key=lambda c: (c.location.path, c.location.line, c.location.column, c.kind, c.description),
    )


def proto_changes(base: Context, head: Context) -> list[Change]:
    """Every change of the corpus's ``.proto`` files from ``base`` to ``head``."""
    before = _files(base)
    after = _files(head)
    if not before and not after:
        return []
    return list(_changes(before, after))


def _files(corpus: Context) -> list[ProtoFile]:
    protos = corpus_protos(corpus)
    return [
        protos.compilation.files[path] for path in protos.files if path in protos.compilation.files
    ]


def _at(proto: ProtoFile, line: int, column: int, pointer: str) -> Location:
    return Location(proto.path, line, column, pointer=pointer)


def _renamed_packages(before: list[ProtoFile], after: list[ProtoFile]) -> dict[str, str]:
    """A package that is gone, when exactly one new package came (A2A's ``a2a.v1`` ->
    ``lf.a2a.v1``): old -> new, so the two revisions' definitions are still paired (the
    rename is reported once, as buf's FILE_SAME_PACKAGE)."""
    old = {f.package for f in before} - {f.package for f in after}
    new = {f.package for f in after} - {f.package for f in before}
    if len(old) == 1 and len(new) == 1:
        return {old.pop(): new.pop()}
    return {}


def _requalified(name: str, renamed: dict[str, str]) -> str:
    for old, new in renamed.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old) :]
    return name


def _changes(before: list[ProtoFile], after: list[ProtoFile]) -> Iterator[Change]:
    renamed = _renamed_packages(before, after)
    for gone, came in renamed.items():
        proto = next(f for f in after if f.package == came)
        yield Change(
            "package renamed",
            True,
            "both",
            f"package `{gone}` was renamed `{came}`: every message, enum and service changed "
            "its full name (gRPC routes calls by it, `Any` types by it)",
            _at(proto, 1, 1, f"/{came}"),
        )
    before = [_renamed(proto, renamed) for proto in before] if renamed else before
    old_messages = {m.name: (m, f) for f in before for m in f.messages}
    new_messages = {m.name: (m, f) for f in after for m in f.messages}
    yield from _presence("message", old_messages, new_messages, "both")
    for name, (message, proto) in sorted(old_messages.items()):
        if name in new_messages:
            new, new_proto = new_messages[name]
            yield from _fields(name, message.fields, new.fields, proto, new_proto, new)
    old_enums = {e.name: (e, f) for f in before for e in f.enums}
    new_enums = {e.name: (e, f) for f in after for e in f.enums}
    yield from _presence("enum", old_enums, new_enums, "both")
    for name, (enum, proto) in sorted(old_enums.items()):
        if name not in new_enums:
            continue
        new_enum, new_proto = new_enums[name]
        values = {v.number: v for v in new_enum.values}
        for value in enum.values:
            now = values.get(value.number)
            where = f"/{name}/{value.name}"
            if now is None:
                yield Change(
                    "enum value removed",
                    True,
                    "both",
                    f"`{value.name}` (= {value.number}) was removed from enum `{name}`",
                    _at(new_proto, new_enum.line, new_enum.column, where),
                    _at(proto, value.line, value.column, where),
                )
            elif now.name != value.name:
                yield Change(
                    "enum value renamed",
                    True,
                    "both",
                    f"value {value.number} of enum `{name}` was renamed `{value.name}` -> "
                    f"`{now.name}` (ProtoJSON writes the name)",
                    _at(new_proto, now.line, now.column, where),
                    _at(proto, value.line, value.column, where),
                )
        numbers = {v.number for v in enum.values}
        for value in new_enum.values:
            if value.number not in numbers:
                yield Change(
                    "enum value added",
                    False,
                    "both",
                    f"`{value.name}` (= {value.number}) was added to enum `{name}`",
                    _at(new_proto, value.line, value.column, f"/{name}/{value.name}"),
                )
    old_rpcs = {f"{s.name}.{r.name}": (r, f) for f in before for s in f.services for r in s.rpcs}
    new_rpcs = {f"{s.name}.{r.name}": (r, f) for f in after for s in f.services for r in s.rpcs}
    yield from _presence("rpc", old_rpcs, new_rpcs, "operation")
    for qualified, (rpc, proto) in sorted(old_rpcs.items()):
        if qualified not in new_rpcs:
            continue
        where = _pointer(qualified, rpc)
        current, new_proto = new_rpcs[qualified]
        signature = (rpc.input, rpc.output, rpc.client_streaming, rpc.server_streaming)
        if signature != (
            current.input,
            current.output,
            current.client_streaming,
            current.server_streaming,
        ):
            yield Change(
                "rpc signature changed",
                True,
                "operation",
                f"rpc `{qualified}` was `{_signature(rpc)}`, is `{_signature(current)}`",
                _at(new_proto, current.line, current.column, where),
                _at(proto, rpc.line, rpc.column, where),
            )
        routes = [(h.verb, h.path) for h in rpc.http]
        if routes and routes != [(h.verb, h.path) for h in current.http]:
            shown = ", ".join(f"{h.verb.upper()} {h.path}" for h in current.http) or "none"
            yield Change(
                "rpc HTTP binding changed",
                True,
                "operation",
                f"rpc `{qualified}` was bound to "
                f"{', '.join(f'{v.upper()} {p}' for v, p in routes)}, is bound to {shown}",
                _at(new_proto, current.line, current.column, where),
                _at(proto, rpc.line, rpc.column, where),
            )


def _presence(
    what: str,
    before: dict[str, tuple[Any, ProtoFile]],
    after: dict[str, tuple[Any, ProtoFile]],
    role: str,
) -> Iterator[Change]:
    """A message, enum or rpc (by qualified name) removed, breaking, or added, additive."""
    for name, (item, proto) in sorted(before.items()):
        if name not in after:
            yield Change(
                f"{what} removed",
                True,
                role,
                f"{what} `{name}` was removed",
                _at(proto, item.line, item.column, _pointer(name, item)),
            )
    for name, (item, proto) in sorted(after.items()):
        if name not in before:
            yield Change(
                f"{what} added",
                False,
                role,
                f"{what} `{name}` was added",
                _at(proto, item.line, item.column, _pointer(name, item)),
            )


def _pointer(qualified: str, item: Any) -> str:
    """``/pkg.Message``; an rpc's ``/pkg.Service/Method``."""
    if isinstance(item, ProtoRpc):
        return f"/{qualified[: -len(item.name) - 1]}/{item.name}"
    return f"/{qualified}"


def _renamed(proto: ProtoFile, renamed: dict[str, str]) -> ProtoFile:
    """``proto`` with its definitions' names in the renamed package (for pairing only)."""

    def field(item: ProtoField) -> ProtoField:
        return replace(item, type_name=_requalified(item.type_name, renamed))

    return replace(
        proto,
        messages=tuple(
            replace(m, name=_requalified(m.name, renamed), fields=tuple(map(field, m.fields)))
            for m in proto.messages
        ),
        enums=tuple(replace(e, name=_requalified(e.name, renamed)) for e in proto.enums),
        services=tuple(
            replace(
                service,
                name=_requalified(service.name, renamed),
                rpcs=tuple(
                    replace(
                        rpc,
                        input=_requalified(rpc.input, renamed),
                        output=_requalified(rpc.output, renamed),
                    )
                    for rpc in service.rpcs
                ),
            )
            for service in proto.services
        ),
    )


def _signature(rpc: ProtoRpc) -> str:
    client = "stream " if rpc.client_streaming else ""
    server = "stream " if rpc.server_streaming else ""
    return f"({client}{rpc.input}) returns ({server}{rpc.output})"


def _fields(
    message: str,
    before: tuple[ProtoField, ...],
    after: tuple[ProtoField, ...],
    proto: ProtoFile,
    new_proto: ProtoFile,
    new: ProtoMessage,
) -> Iterator[Change]:
    by_number = {f.number: f for f in after}
    by_name = {f.name: f for f in after}
    line, column = new.line, new.column
    for field in before:
        where = f"/{message}/{field.name}"
        now = by_number.get(field.number)
        if now is None:
            moved = by_name.get(field.name)
            if moved is not None:
                yield Change(
                    "field renumbered",
                    True,
                    "both",
                    f"field `{message}.{field.name}` moved from number {field.number} to "
                    f"{moved.number} (the wire reads it by number)",
                    _at(new_proto, moved.line, moved.column, where),
                    _at(proto, field.line, field.column, where),
                )
            else:
                yield Change(
                    "field removed",
                    True,
                    "both",
                    f"field `{message}.{field.name}` (= {field.number}) was removed",
                    _at(new_proto, line, column, where),
                    _at(proto, field.line, field.column, where),
                )
            continue
        if now.name != field.name or now.json_name != field.json_name:
            yield Change(
                "field renamed",
                True,
                "both",
                f"field {field.number} of `{message}` was renamed `{field.name}` -> `{now.name}` "
                f"(ProtoJSON `{field.json_name}` -> `{now.json_name}`)",
                _at(new_proto, now.line, now.column, where),
                _at(proto, field.line, field.column, where),
            )
        was = (field.type, field.type_name, field.label == "repeated")
        if was != (now.type, now.type_name, now.label == "repeated"):
            yield Change(
                "field type changed",
                True,
                "both",
                f"field `{message}.{field.name}` was `{_type(field)}`, is `{_type(now)}`",
                _at(new_proto, now.line, now.column, where),
                _at(proto, field.line, field.column, where),
            )
    numbers = {f.number for f in before}
    for field in after:
        if field.number not in numbers and field.name not in {f.name for f in before}:
            yield Change(
                "field added",
                False,
                "both",
                f"field `{message}.{field.name}` (= {field.number}) was added",
                _at(new_proto, field.line, field.column, f"/{message}/{field.name}"),
            )


def _type(field: ProtoField) -> str:
    kind = field.type_name or field.type
    return f"repeated {kind}" if field.label == "repeated" else kind
