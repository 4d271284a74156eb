"""What changed in the gRPC surface between two revisions (issue 30, item 4), as ``buf breaking``
judges it, for ``speclint changes`` and compat-claim beside the schema changes.

The corpus's own ``.proto`` files (not the prose's fences: they are examples; not vendored
protos: another API's) are read at both revisions (``speclint.analyses.grpc.protos``) and paired by
fully qualified name: messages, enums, services. Within them, a field is its number (the wire),
an enum value its number, an rpc its name. The judgement is buf's ``PACKAGE`` and ``WIRE_JSON``
categories (a definition moved between files of one package breaks no client of the spec),
plus the REST transcoding: breaking are a message, enum, service, rpc, field or enum value
removed; a field renumbered, renamed or given another JSON name (ProtoJSON parsers read both
names); a field's type, cardinality (``repeated``, proto2's ``required``), presence (proto3's
``optional``), proto2 ``default`` (as buf, the value an unset field reads) or oneof changed; a reservation dropped, or a reserved number
or name used again; an enum value renamed (ProtoJSON writes the name); an rpc's request,
response, streaming or ``idempotency_level`` changed; an HTTP binding (verb, path and body)
gone; a language file option (``go_package``, ``csharp_namespace``, ``java_package``,
``java_outer_classname``, ``java_multiple_files``, ``objc_class_prefix``, ``php_namespace``,
``ruby_package``, ``swift_prefix`` ...) added, changed or removed in a file of the same path, as
buf's FILE_SAME_* rules (in its ``PACKAGE`` category too) judge it: the wire is unchanged, but
the code generated for that language moves, and code that imported it no longer compiles. Additions are listed as not breaking.

A ``.proto`` file that could not be read or compiled at either revision is not compared, and
that is itself listed as breaking: a gate must not read "could not compile" as "removed".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from speclint.analyses.changes.compat import Change, schema_changes
from speclint.analyses.changes.workflow_changes import workflow_changes
from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos, vendored_proto
from speclint.common.findings import Location
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.protobuf import (
    ProtoEnum,
    ProtoEnumValue,
    ProtoField,
    ProtoFile,
    ProtoMessage,
    ProtoRpc,
    ProtoService,
)


def contract_changes(base: Context, head: Context) -> list[Change]:
    """The schema changes (``speclint.analyses.changes.compat``), the proto surface's and what they
    break in the corpus's Arazzo workflows (``speclint.analyses.changes.workflow_changes``), in one
    stable order: what ``speclint changes`` lists and compat-claim weighs."""
    changes = schema_changes(base, head) + proto_changes(base, head)
    changes += workflow_changes(base, head)
    return sorted(
        {change.identity: change for change in changes}.values(),
        key=lambda c: (c.location.path, c.location.line, c.location.column, c.kind, c.description),
    )


def proto_changes(base: Context, head: Context) -> list[Change]:
    """Every change of the corpus's ``.proto`` files from ``base`` to ``head``."""
    before, base_failed = _files(base)
    after, head_failed = _files(head)
    if not before and not after and not base_failed and not head_failed:
        return []
    changes = []
    unknown = set(base_failed) | set(head_failed)
    for path in sorted(unknown):
        base_text, head_text = _text(base, path), _text(head, path)
        if path in base_failed and path in head_failed and base_text == head_text:
            continue  # broken at both revisions alike: nothing changed that could be compared
        where = "head" if path in head_failed else "base"
        why = (head_failed if where == "head" else base_failed)[path]
        changes.append(
            Change(
                "proto not compared",
                True,
                "both",
                f"`{path}` could not be compiled at the {where} revision ({why}): its changes "
                "are unknown, so they are counted as breaking; fix the file (`speclint check` "
                "says why) and compare again",
                Location(path, 1, 1, pointer="/"),
            )
        )
    before = [proto for proto in before if proto.path not in unknown]
    after = [proto for proto in after if proto.path not in unknown]
    return changes + list(_changes(before, after))


def _files(corpus: Context) -> tuple[list[ProtoFile], dict[str, str]]:
    """The corpus's own compiled protos, and those it has that protoc did not read, with why."""
    protos = corpus_protos(corpus)
    read = []
    failed: dict[str, str] = {}
    for path in protos.files:
        proto = protos.compilation.files.get(path)
        if proto is not None:
            if not vendored_proto(path, proto.package, corpus):
                read.append(proto)
            continue
        problems = [p for p in protos.compilation.problems if p.path == path]
        failed[path] = (
            f"{problems[0].line}:{problems[0].column}: {problems[0].message}"
            if problems
            else protos.compilation.unavailable or "protoc did not read it"
        )
    for document in corpus.documents.values():
        if document.kind is DocumentKind.PROTO and not document.usable:
            failed.setdefault(document.path, "it could not be read as text")
    return read, failed


def _text(corpus: Context, path: str) -> str | None:
    document = corpus.documents.get(path)
    return None if document is None else document.text


def _at(proto: ProtoFile, line: int, column: int, pointer: str) -> Location:
    return Location(proto.path, line, column, pointer=pointer)


@dataclass(frozen=True)
class _Sides:
    """The base's and the head's file of a definition both revisions have."""

    base: ProtoFile
    head: ProtoFile

    def broke(
        self, kind: str, text: str, now: Any, was: Any, pointer: str, role: str = "both"
    ) -> Change:
        """A breaking change: located at the head's ``now``, the base's ``was`` beside it."""
        return Change(
            kind,
            True,
            role,
            text,
            _at(self.head, now.line, now.column, pointer),
            _at(self.base, was.line, was.column, pointer),
        )

    def new(
        self,
        kind: str,
        text: str,
        now: Any,
        pointer: str,
        breaking: bool = False,
        role: str = "both",
    ) -> Change:
        """A change the head alone locates (an addition; a reserved name used again)."""
        return Change(kind, breaking, role, text, _at(self.head, now.line, now.column, pointer))


def _renamed_packages(before: list[ProtoFile], after: list[ProtoFile]) -> dict[str, str]:
    """A package that is gone, when exactly one new package came and most of the old one's
    definitions came back in it by their names (A2A's ``a2a.v1`` -> ``lf.a2a.v1``): old ->
    new, so the two revisions' definitions are still paired (the rename is reported once, as
    buf's ``FILE_SAME_PACKAGE``). An unrelated package swapped in is no rename."""
    old = {f.package for f in before} - {f.package for f in after}
    new = {f.package for f in after} - {f.package for f in before}
    if len(old) != 1 or len(new) != 1:
        return {}
    gone, came = old.pop(), new.pop()
    if not gone or not came:
        return {}
    was = _relative(before, gone)
    now = _relative(after, came)
    if not was or 2 * len(was & now) < len(was):
        return {}
    return {gone: came}


def _relative(protos: list[ProtoFile], package: str) -> set[str]:
    """The names of a package's messages, enums and services, without the package."""
    cut = len(package) + 1
    return {
        item.name[cut:]
        for proto in protos
        if proto.package == package
        for item in _definitions(proto)
    }


def _definitions(proto: ProtoFile) -> list[ProtoMessage | ProtoEnum | ProtoService]:
    return [*proto.messages, *proto.enums, *proto.services]


def _requalified(name: str, renamed: dict[str, str]) -> str:
    for old, new in renamed.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old) :]
    return name


def _requalified_map(written: str, renamed: dict[str, str]) -> str:
    """A map field's ``map<K, V>`` with its value type (a message or enum of the renamed
    package) in the new package, as every other field type is: a rename is one change."""
    if not written.startswith("map<") or not written.endswith(">"):
        return written
    key, _, value = written[4:-1].partition(", ")
    return f"map<{_requalified(key, renamed)}, {_requalified(value, renamed)}>"


def _changes(before: list[ProtoFile], after: list[ProtoFile]) -> Iterator[Change]:
    renamed = _renamed_packages(before, after)
    for gone, came in renamed.items():
        proto = next(f for f in after if f.package == came)
        yield Change(
            "package renamed",
            True,
            "both",
            f"package `{gone}` was renamed `{came}`: every message, enum and service changed "
            "its full name (gRPC routes calls by it, `Any` types by it); keep the package, or "
            "publish the new one beside the old",
            _at(proto, proto.package_line, 1, f"/{came}"),
        )
    # the names the base wrote, for what is gone (pairing reads them in the new package)
    original = {
        _requalified(item.name, renamed): item.name
        for proto in before
        for item in _definitions(proto)
    }
    yield from _file_options(before, after)
    before = [_renamed(proto, renamed) for proto in before] if renamed else before
    compared: tuple[tuple[str, Callable[[ProtoFile], Any], Any], ...] = (
        ("message", lambda proto: proto.messages, _fields),
        ("enum", lambda proto: proto.enums, _values),
    )
    for what, items, compare in compared:
        old, new = _by_name(before, items), _by_name(after, items)
        yield from _presence(what, old, new, "both", original)
        for name, (item, proto) in sorted(old.items()):
            if name in new:
                yield from compare(name, item, new[name][0], _Sides(proto, new[name][1]))
    old_services = _by_name(before, lambda proto: proto.services)
    new_services = _by_name(after, lambda proto: proto.services)
    yield from _presence("service", old_services, new_services, "operation", original)
    old_rpcs = {f"{s.name}.{r.name}": (r, f) for f in before for s in f.services for r in s.rpcs}
    new_rpcs = {f"{s.name}.{r.name}": (r, f) for f in after for s in f.services for r in s.rpcs}
    # the rpcs of a removed service are said with it
    dropped = {f"{name}." for name in old_services if name not in new_services}
    kept_rpcs = {n: v for n, v in old_rpcs.items() if not any(n.startswith(d) for d in dropped)}
    rpc_names = {
        f"{service}.{rpc.name}": f"{original.get(service, service)}.{rpc.name}"
        for service in old_services
        for rpc in old_services[service][0].rpcs
    }
    yield from _presence("rpc", kept_rpcs, new_rpcs, "operation", rpc_names)
    for qualified, (rpc, proto) in sorted(old_rpcs.items()):
        if qualified in new_rpcs:
            current, new_proto = new_rpcs[qualified]
            yield from _rpc(qualified, rpc, current, _Sides(proto, new_proto))


def _file_options(before: list[ProtoFile], after: list[ProtoFile]) -> Iterator[Change]:
    """A language file option (``go_package``, ``csharp_namespace``, ``java_package`` ...)
    added, changed or removed in a file of the same path, as buf breaking's FILE_SAME_* rules
    (its FILE and PACKAGE categories) judge it: breaking, since the code generated for that
    language moves to another package, namespace or class, and code that imported it no
    longer compiles (the wire is unchanged)."""
    old = {proto.path: proto for proto in before}
    for proto in after:
        was = old.get(proto.path)
        if was is None:
            continue
        values = {option.name: option for option in was.options}
        for option in proto.options:
            previous = values.get(option.name)
            if previous is None or previous.value == option.value:
                continue
            yield Change(
                "file option changed",
                True,
                "both",
                f"`{option.name}` of `{proto.path}` is now `{option.value or '(unset)'}` (was "
                f"`{previous.value or '(unset)'}`): the code generated for its language moves, "
                "and code written against the old one no longer compiles; keep the option, or "
                "publish the change as breaking",
                _at(proto, option.line, option.column, f"/{option.name}"),
                _at(was, previous.line, previous.column, f"/{option.name}"),
            )


def _by_name(
    protos: list[ProtoFile], items: Callable[[ProtoFile], Any]
) -> dict[str, tuple[Any, ProtoFile]]:
    """A kind of definition of the files, by qualified name, each with its file."""
    return {item.name: (item, proto) for proto in protos for item in items(proto)}


def _values(name: str, enum: ProtoEnum, new_enum: ProtoEnum, sides: _Sides) -> Iterator[Change]:
    """An enum's values by number: every name a number has (``allow_alias`` gives several)."""
    names: dict[int, list[Any]] = {}
    for value in new_enum.values:
        names.setdefault(value.number, []).append(value)
    was: dict[int, list[Any]] = {}
    for value in enum.values:
        was.setdefault(value.number, []).append(value)
    for number, values in sorted(was.items()):
        now = names.get(number)
        for value in values:
            where = f"/{name}/{value.name}"
            if now is None:
                yield sides.broke(
                    "enum value removed",
                    f"`{value.name}` (= {number}) was removed from enum `{name}`: keep it (mark "
                    f'it `deprecated`), or `reserved {number}; reserved "{value.name}";`',
                    new_enum,
                    value,
                    where,
                )
            elif value.name not in {v.name for v in now}:
                if any(v.name in {n.name for n in now} for v in values):
                    # another alias of the number stays: this name alone is gone
                    shown = ", ".join(f"`{v.name}`" for v in now)
                    text = f"alias `{value.name}` of value {number} of enum `{name}` was "
                    text += f"removed (still {shown}): ProtoJSON readers of the name reject it"
                else:
                    text = f"value {number} of enum `{name}` was renamed `{value.name}` -> "
                    text += f"`{now[0].name}` (ProtoJSON writes the name): keep the old name, "
                    text += "or add the new one as an alias (`allow_alias`)"
                yield sides.broke(
                    "enum value renamed",
                    text,
                    now[0],
                    value,
                    where,
                )
    yield from _reservations("enum", name, enum, new_enum, sides)
    written = {v.name for v in enum.values}
    for value in new_enum.values:
        if value.number in was and value.name in written:
            continue
        where = f"/{name}/{value.name}"
        reused = _reused(
            enum,
            value,
            f"`{value.name}` (= {value.number}) of enum `{name}`",
            "a retired value comes back with another meaning",
            sides,
            where,
        )
        if reused is not None:
            yield reused
        elif value.number not in was:
            yield sides.new(
                "enum value added",
                f"`{value.name}` (= {value.number}) was added to enum `{name}`",
                value,
                where,
            )
        elif {v.name for v in was[value.number]} & {v.name for v in names[value.number]}:
            yield sides.new(
                "enum value added",
                f"`{value.name}` was added to enum `{name}` as an alias of {value.number}",
                value,
                where,
            )


def _rpc(qualified: str, rpc: ProtoRpc, current: ProtoRpc, sides: _Sides) -> Iterator[Change]:
    where = _pointer(qualified, rpc)
    signature = (rpc.input, rpc.output, rpc.client_streaming, rpc.server_streaming)
    if signature != (
        current.input,
        current.output,
        current.client_streaming,
        current.server_streaming,
    ):
        yield sides.broke(
            "rpc signature changed",
            f"rpc `{qualified}` was `{_signature(rpc)}`, is `{_signature(current)}`: keep the "
            "signature, or add a new rpc beside it",
            current,
            rpc,
            where,
            role="operation",
        )
    if rpc.idempotency != current.idempotency:
        yield sides.broke(
            "rpc idempotency changed",
            f"the idempotency_level of rpc `{qualified}` was `{rpc.idempotency or 'unset'}`, is "
            f"`{current.idempotency or 'unset'}`: clients retry (and HTTP transcoders pick GET) "
            "by it (buf RPC_SAME_IDEMPOTENCY_LEVEL): keep it",
            current,
            rpc,
            where,
            role="operation",
        )
    # REST transcoding: a route (verb, path, body) is kept or gone; which one is first and the
    # routes added beside the old ones break no client
    was = {(h.verb, h.path, h.body) for h in rpc.http}
    now = {(h.verb, h.path, h.body) for h in current.http}
    for verb, path, body in sorted(was - now):
        changed = [h for h in current.http if (h.verb, h.path) == (verb, path)]
        if changed:
            text = f"the body of rpc `{qualified}`'s `{verb.upper()} {path}` was "
            text += f"`{body or '(none)'}`, is `{changed[0].body or '(none)'}`"
        else:
            shown = ", ".join(f"{h.verb.upper()} {h.path}" for h in current.http) or "none"
            text = f"rpc `{qualified}` is no longer bound to `{verb.upper()} {path}` (its "
            text += f"routes now: {shown})"
        yield sides.broke(
            "rpc HTTP binding changed",
            text + ": REST clients of the old route fail; keep it as an `additional_bindings`",
            current,
            rpc,
            where,
            role="operation",
        )
    for verb, path, _ in sorted(now - was):
        if any((h.verb, h.path) == (verb, path) for h in rpc.http):
            continue  # a body change, said above
        yield sides.new(
            "rpc HTTP binding added",
            f"rpc `{qualified}` is bound to `{verb.upper()} {path}` too",
            current,
            where,
            role="operation",
        )


def _presence(
    what: str,
    before: dict[str, tuple[Any, ProtoFile]],
    after: dict[str, tuple[Any, ProtoFile]],
    role: str,
    original: dict[str, str],
) -> Iterator[Change]:
    """A message, enum, service or rpc (by qualified name) removed, breaking, or added,
    additive. A removed one is located where the base had it, and named as the base named
    it (``original``: its name before a package rename)."""
    for name, (item, proto) in sorted(before.items()):
        if name not in after:
            shown = original.get(name, name)
            yield Change(
                f"{what} removed",
                True,
                role,
                f"{what} `{shown}` was removed: keep it (`option deprecated = true;`) until "
                "a new major version",
                _at(proto, item.line, item.column, _pointer(shown, item)),
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
        return replace(
            item,
            type_name=_requalified(item.type_name, renamed),
            map=_requalified_map(item.map, renamed),
        )

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


# The zero value a field without a `default` reads as (proto2 §"Optional Fields And Default
# Values"; editions alike); an enum's is its first value.
_ZEROS = {"bool": "false", "string": "", "bytes": ""}


def _default(field: ProtoField, proto: ProtoFile) -> tuple[str, str]:
    """The value an unset field reads as, as compared (an enum's by number: aliases are one
    value) and as shown (escaped, "(implicit)" when no `default` is written). Fields with no
    default (repeated, message, map) read as ""."""
    if field.label == "repeated" or field.type in ("message", "group") or field.map:
        return "", ""
    written = field.default
    if field.type == "enum":
        enum = next((e for e in proto.enums if e.name == field.type_name), None)
        if enum is None or not enum.values:
            return written or "", written or ""  # another file's enum: as written
        value = next((v for v in enum.values if v.name == written), None)
        value = value or enum.values[0]
        shown = value.name if written is not None else f"{value.name} (implicit)"
        return str(value.number), shown
    if written is None:
        zero = _ZEROS.get(field.type, "0")
        return zero, f"{_escaped(zero)} (implicit)"
    return written, _escaped(written)


def _escaped(text: str) -> str:
    """A default as one printable line: control characters and line breaks escaped."""
    return text.encode("unicode_escape").decode("ascii")


def _fields(
    message: str,
    old: ProtoMessage,
    new: ProtoMessage,
    sides: _Sides,
) -> Iterator[Change]:
    before, after = old.fields, new.fields
    by_number = {f.number: f for f in after}
    by_name = {f.name: f for f in after}
    was_numbers = {f.number for f in before}
    renumbered: set[int] = set()
    for field in before:
        where = f"/{message}/{field.name}"
        now = by_number.get(field.number)
        if now is None:
            moved = by_name.get(field.name)
            if moved is not None and moved.number not in was_numbers:
                renumbered.add(moved.number)
                yield sides.broke(
                    "field renumbered",
                    f"field `{message}.{field.name}` moved from number {field.number} to "
                    f"{moved.number} (the wire reads it by number; {moved.number} is a new "
                    f"field to old readers): give it back {field.number}",
                    moved,
                    field,
                    where,
                )
            else:
                reserved = _reserved(new, field.number, field.name)
                advice = (
                    f"{reserved} is reserved now: old clients' values are dropped"
                    if reserved
                    else f'keep it (`[deprecated = true]`), or `reserved {field.number}; reserved "{field.name}";`'
                )
                yield sides.broke(
                    "field removed",
                    f"field `{message}.{field.name}` (= {field.number}) was removed: {advice}",
                    new,
                    field,
                    where,
                )
            continue
        if now.name != field.name and _kind(now) != _kind(field):
            # the number now holds another field: the worst wire break, said once
            yield sides.broke(
                "field number reused",
                f"number {field.number} of `{message}` now holds another field (`{field.name}` "
                f"{_type(field)} -> `{now.name}` {_type(now)}): keep {field.number} for "
                f"`{field.name}` and give `{now.name}` a new number, or reserve "
                f"{field.number} and `{field.name}`",
                now,
                field,
                where,
            )
            continue
        if now.name != field.name:
            yield sides.broke(
                "field renamed",
                f"field {field.number} of `{message}` was renamed `{field.name}` -> `{now.name}` "
                "(ProtoJSON parsers read the field's name as well as its JSON name): keep the "
                "name",
                now,
                field,
                where,
            )
        elif now.json_name != field.json_name:
            yield sides.broke(
                "field JSON name changed",
                f"the JSON name of field `{message}.{field.name}` was `{field.json_name}`, is "
                f"`{now.json_name}` (ProtoJSON writes the JSON name): keep `{field.json_name}`",
                now,
                field,
                where,
            )
        if _kind(now) != _kind(field):
            yield sides.broke(
                "field type changed",
                f"field `{message}.{field.name}` was `{_type(field)}`, is `{_type(now)}`: keep "
                "the type, or add a new field beside it",
                now,
                field,
                where,
            )
        was_default = _default(field, sides.base)
        now_default = _default(now, sides.head)
        if _kind(now) == _kind(field) and was_default[0] != now_default[0]:
            yield sides.broke(
                "field default changed",
                f"the default of field `{message}.{field.name}` was `{was_default[1]}`, is "
                f"`{now_default[1]}`: a reader of an unset field sees another value (buf "
                "FIELD_SAME_DEFAULT): keep the default",
                now,
                field,
                where,
            )
        if now.proto3_optional != field.proto3_optional:
            state = "explicit (`optional`)" if now.proto3_optional else "implicit"
            yield sides.broke(
                "field presence changed",
                f"field `{message}.{field.name}` has {state} presence now: the wire and "
                "ProtoJSON stay compatible, but generated code changes and an unset value and "
                "its zero value no longer read alike (buf FILE_SAME_FIELD_PRESENCE)",
                now,
                field,
                where,
            )
        if now.oneof != field.oneof:
            state = (
                f"from oneof `{field.oneof or '(none)'}` to `{now.oneof or '(none)'}`"
                if field.oneof and now.oneof
                else (f"into oneof `{now.oneof}`" if now.oneof else f"out of oneof `{field.oneof}`")
            )
            yield sides.broke(
                "field oneof changed",
                f"field `{message}.{field.name}` moved {state}: setting one member clears the "
                "others, so messages that set both read otherwise; keep the oneof as it was",
                now,
                field,
                where,
            )
    yield from _reservations("message", message, old, new, sides)
    names = {f.name for f in before}
    for field in after:
        if field.number in was_numbers or field.number in renumbered:
            continue
        where = f"/{message}/{field.name}"
        reused = _reused(
            old,
            field,
            f"field `{message}.{field.name}` (= {field.number})",
            "old data of the retired field is read as this one",
            sides,
            where,
        )
        if reused is not None:
            yield reused
        else:
            again = " (a new field under an old field's name)" if field.name in names else ""
            yield sides.new(
                "field added",
                f"field `{message}.{field.name}` (= {field.number}) was added{again}",
                field,
                where,
            )


def _reserved(item: ProtoMessage | ProtoEnum, number: int, name: str) -> str:
    """How ``item`` reserves a number or a name (``number 2``, ``the name `note```), or ""."""
    if any(start <= number <= end for start, end in item.reserved):
        return f"number {number}"
    if name in item.reserved_names:
        return f"the name `{name}`"
    return ""


def _reused(
    base: ProtoMessage | ProtoEnum,
    item: ProtoField | ProtoEnumValue,
    label: str,
    consequence: str,
    sides: _Sides,
    where: str,
) -> Change | None:
    """A field or enum value of the head on a number or name ``base`` reserved: breaking."""
    reserved = _reserved(base, item.number, item.name)
    if not reserved:
        return None
    return sides.new(
        "reserved reused",
        f"{label} uses {reserved}, which the base reserved: {consequence}; give it a new number "
        "and name",
        item,
        where,
        breaking=True,
    )


def _reservations(
    what: str,
    name: str,
    old: ProtoMessage | ProtoEnum,
    new: ProtoMessage | ProtoEnum,
    sides: _Sides,
) -> Iterator[Change]:
    """Reserved numbers and names the base had and the head dropped (buf
    ``RESERVED_MESSAGE_NO_DELETE``, ``RESERVED_ENUM_NO_DELETE``)."""
    kept = set(new.reserved)
    gone = [f"{a}" if a == b else f"{a} to {b}" for a, b in old.reserved if (a, b) not in kept]
    gone += [f'"{n}"' for n in old.reserved_names if n not in new.reserved_names]
    if gone:
        yield sides.broke(
            "reserved removed",
            f"{what} `{name}` no longer reserves {', '.join(gone)}: a retired number or name can "
            "be used again with another meaning; keep the reservation",
            new,
            old,
            f"/{name}",
        )


def _kind(field: ProtoField) -> tuple[str, str, str]:
    # a map by its `map<K, V>`: its entry message is named after the field, not a type of its own
    return (field.type, field.map or field.type_name, field.label)


def _type(field: ProtoField) -> str:
    if field.map:
        return field.map
    kind = field.type_name or field.type
    return f"{field.label} {kind}" if field.label in ("repeated", "required") else kind
