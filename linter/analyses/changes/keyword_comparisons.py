"""The comparisons of what one schema node allows at two revisions, keyword by keyword
(``speclint.analyses.changes.compat``'s table): values (``enum``/``const``), ``required``, the members
of a shape (properties, closing), types (narrowed, widened), numeric and length bounds
(tightened, loosened), and the other assertions (``multipleOf``, ``format``, ``pattern``,
``uniqueItems``, ``contains`` and its counts, ``not``, ``dependentRequired``, ``false``
subschemas). Each difference is recorded in a ``ChangeLog``, breaking or not by the role."""

from __future__ import annotations

from typing import Any

from speclint.analyses.changes.change_log import ChangeLog
from speclint.analyses.changes.schema_assertions import (
    LOWER_BOUNDS,
    NUMERIC_BOUNDS,
    UPPER_BOUNDS,
    allowed_types,
    as_number,
    dependency_pairs,
    divides,
    listed_values,
    looser,
    numeric_bound,
    valid_divisor,
)
from speclint.analyses.schemas.schema_objects import types_of
from speclint.analyses.schemas.shapes import Site, is_closed_false
from speclint.common.findings import json_value
from speclint.parsing.structured import canonical


def shown(values: list[Any]) -> str:
    listed = ", ".join(f"`{canonical(v).strip(chr(34))}`" for v in values[:5])
    return listed + (f" and {len(values) - 5} more" if len(values) > 5 else "")


def compare_node(
    log: ChangeLog, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
) -> None:
    """The comparisons of what the node itself allows: values, ``required``, types, bounds
    and constraints (its members and subschemas are compared apart)."""
    compare_values(log, base, head, field, role, client, server)
    compare_required(log, base, head, role, client, server)
    compare_types(log, base, head, field, role, client, server)
    compare_bounds(log, base, head, field, role, client)
    compare_loosened(log, base, head, field, role, server)
    compare_constraints(log, base, head, field, role, client, server)


def compare_values(
    log: ChangeLog, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
) -> None:
    before, after = listed_values(base.node), listed_values(head.node)
    keyword = "enum" if "enum" in head.node or "enum" in base.node else "const"
    name = f"`{field}`" if field else "the value"
    if before is not None and after is not None:
        now = {canonical(v) for v in after}
        was = {canonical(v) for v in before}
        removed = shown([v for v in before if canonical(v) not in now])
        added = shown([v for v in after if canonical(v) not in was])
        said_removed, said_added = f"{name}: {removed} removed", f"{name}: {added} added"
    elif before is not None:  # the enum is gone: any value is allowed now
        removed, added = "", "any value"
        said_removed, said_added = "", f"{name}: any value allowed ({keyword} removed)"
    elif after is not None:  # a new enum: every other value is refused now
        removed, added = "any value outside " + shown(after), ""
        said_removed, said_added = f"{name}: limited to {shown(after)}", ""
    else:
        return
    if removed:
        log.add(
            "enum value removed",
            client,
            role,
            f"{name} of {role} `{head.label}` no longer accepts {removed}"
            + (": requests that send it are rejected" if client else ""),
            head,
            base,
            keyword if keyword in head.node else "",
            summary=said_removed,
        )
    if added:
        tolerated = log.tolerated(head, field)
        log.add(
            "enum value added",
            server and not tolerated,
            role,
            f"{name} of {role} `{head.label}` may now be {added}"
            + (
                ": a client validating against the base rejects it, and no ignore-unknown "
                "statement covers this field"
                if server and not tolerated
                else ""
            ),
            head,
            base,
            keyword if keyword in head.node else "",
            summary=said_added,
        )


def compare_required(
    log: ChangeLog, base: Site, head: Site, role: str, client: bool, server: bool
) -> None:
    before = base.node.get("required")
    after = head.node.get("required")
    was = {r for r in before if isinstance(r, str)} if isinstance(before, list) else set()
    now = {r for r in after if isinstance(r, str)} if isinstance(after, list) else set()
    added, removed = sorted(now - was), sorted(was - now)
    if added:
        log.add(
            "required added",
            client,
            role,
            f"{role} `{head.label}` now requires {shown(list(added))}"
            + (": requests written against the base lack it" if client else ""),
            head,
            base,
            "required",
        )
    if removed:
        log.add(
            "required removed",
            server,
            role,
            f"{role} `{head.label}` no longer guarantees {shown(list(removed))}"
            + (": clients that read it may get nothing" if server else ""),
            head,
            base,
            "required" if "required" in head.node else "",
        )


def compare_members(
    log: ChangeLog,
    base: Site,
    head: Site,
    role: str,
    client: bool,
    server: bool,
    base_branches: frozenset[str] = frozenset(),
    head_branches: frozenset[str] = frozenset(),
) -> None:
    """Properties removed, added, and the shape closed. ``base_branches``/``head_branches``: the
    properties each side's ``allOf`` branches declare, the schema's too (2020-12 Core
    §10.2.1.1): one that moved between the node and a branch is neither removed nor added (a
    branch's own change is reported at the branch)."""
    closed_before = is_closed_false(base.node)
    closed_after = is_closed_false(head.node)
    if closed_after and not closed_before:
        log.add(
            "shape closed",
            client,
            role,
            f"{role} `{head.label}` is now closed (`{closed_after}: false`)"
            + (": requests with members the base allowed are rejected" if client else ""),
            head,
            base,
            closed_after,
        )
    before = base.node.get("properties")
    after = head.node.get("properties")
    was = set(before) if isinstance(before, dict) else set()
    now = set(after) if isinstance(after, dict) else set()
    removed = sorted(was - now - head_branches)
    added = sorted(now - was - base_branches)
    if removed:
        breaking = server or (client and closed_after is not None)
        why = (
            ": clients that read it lose it"
            if server
            else (": requests that still send it are rejected" if breaking else "")
        )
        log.add(
            "property removed",
            breaking,
            role,
            f"{role} `{head.label}` no longer has {shown(list(removed))}{why}",
            head,
            base,
            "properties" if "properties" in head.node else "",
        )
    if added:
        log.add(
            "property added",
            False,
            role,
            f"{role} `{head.label}` has new {shown(list(added))}",
            head,
            base,
            "properties",
        )


def compare_types(
    log: ChangeLog, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
) -> None:
    before, after = allowed_types(base.node), allowed_types(head.node)
    if (not before and not types_of(head.node)) or (not after and not types_of(base.node)):
        return  # values listed on one side only: the value change says it (compare_values)
    # a `type` moved into the branches of a composition is no type dropped
    before = before or log.reader.implied_types(log.base, base, 0)
    after = after or log.reader.implied_types(log.head, head, 0)

    def covered(kind: str, types: set[str]) -> bool:
        return not types or kind in types or (kind == "integer" and "number" in types)

    narrowed = shown(sorted(t for t in before if not covered(t, after)))
    if not before and after:
        narrowed = "anything but " + " or ".join(f"`{t}`" for t in sorted(after))
    widened = sorted(t for t in after if before and not covered(t, before))
    name = f"`{field}` of " if field else ""
    if before and not after:  # `type` dropped: every type is allowed now
        log.add(
            "type widened",
            server,
            role,
            f"{name}{role} `{head.label}` may now be of any type (was {shown(sorted(before))})",
            head,
            base,
            *(("type",) if "type" in head.node else ()),
        )
    if narrowed:
        log.add(
            "type narrowed",
            client,
            role,
            f"{name}{role} `{head.label}` no longer accepts type {narrowed}",
            head,
            base,
            "type",
        )
    if widened:
        log.add(
            "type widened",
            server,
            role,
            f"{name}{role} `{head.label}` may now be of type {shown(list(widened))}",
            head,
            base,
            *(("type",) if "type" in head.node else ()),
        )


def compare_bounds(
    log: ChangeLog, base: Site, head: Site, field: str | None, role: str, breaking: bool
) -> None:
    """Bounds added or tightened, and a ``pattern`` added: values the base accepted are
    rejected, which breaks whoever sends them (``breaking``: client-submitted) and is listed
    as additive elsewhere. ``minimum`` and ``exclusiveMinimum`` (the maxima too) are read
    together: ``exclusiveMinimum: 0`` become ``minimum: 0`` tightens nothing."""
    name = f"`{field}` of " if field else ""
    why = ": values the base accepted are rejected" if breaking else ""
    for kind in ("lower", "upper"):
        was = numeric_bound(base.node, kind)
        now = numeric_bound(head.node, kind)
        if now is not None and (was is None or looser(was, now, kind)):
            said = "none" if was is None else canonical(was[1])
            if was is not None and was[0] != now[0]:
                said = f"`{was[0]}` {said}"
            log.add(
                "bound tightened",
                breaking,
                role,
                f"{name}{role} `{head.label}`: `{now[0]}` is now {canonical(now[1])} "
                f"(was {said}){why}",
                head,
                base,
                now[0],
            )
    for keyword in (*LOWER_BOUNDS, *UPPER_BOUNDS):
        if keyword in NUMERIC_BOUNDS:
            continue  # read together above
        after, before = as_number(head.node.get(keyword)), as_number(base.node.get(keyword))
        if after is None:
            continue
        if before is None or (after > before if keyword in LOWER_BOUNDS else after < before):
            log.add(
                "bound tightened",
                breaking,
                role,
                f"{name}{role} `{head.label}`: `{keyword}` is now {canonical(after)} "
                f"(was {'none' if before is None else canonical(before)}){why}",
                head,
                base,
                keyword,
            )
    if isinstance(head.node.get("pattern"), str) and "pattern" not in base.node:
        log.add(
            "pattern added",
            breaking,
            role,
            f"{name}{role} `{head.label}` now has `pattern` {json_value(head.node['pattern'])}"
            + (": values the base accepted may be rejected" if breaking else ""),
            head,
            base,
            "pattern",
        )


def compare_loosened(
    log: ChangeLog, base: Site, head: Site, field: str | None, role: str, breaking: bool
) -> None:
    """Bounds loosened or removed (the mirror of ``compare_bounds``): the head allows values
    the base rejected, which a client validating a server-emitted value against the base
    rejects (``breaking``), and is listed as additive elsewhere."""
    name = f"`{field}` of " if field else ""
    for kind in ("lower", "upper"):
        was = numeric_bound(base.node, kind)
        now = numeric_bound(head.node, kind)
        if was is not None and (now is None or looser(now, was, kind)):
            _loosened(log, base, head, name, role, breaking, was[0], now[0] if now else None)
    for keyword in (*LOWER_BOUNDS, *UPPER_BOUNDS):
        if keyword in NUMERIC_BOUNDS:
            continue  # read together above: a `minimum` become `exclusiveMinimum` is tighter
        before, after = as_number(base.node.get(keyword)), as_number(head.node.get(keyword))
        if before is None:
            continue
        if after is None or (after < before if keyword in LOWER_BOUNDS else after > before):
            kept = keyword if after is not None else None
            _loosened(log, base, head, name, role, breaking, keyword, kept)


def _loosened(
    log: ChangeLog,
    base: Site,
    head: Site,
    name: str,
    role: str,
    breaking: bool,
    keyword: str,
    now: str | None,
) -> None:
    value = head.node.get(now) if now else None
    log.add(
        "bound loosened",
        breaking,
        role,
        f"{name}{role} `{head.label}`: `{keyword}` {canonical(base.node[keyword])} is "
        + (f"now `{now}` {canonical(value)}" if now else "gone")
        + (
            ": a client validating against the base rejects the values the head now allows"
            if breaking
            else ""
        ),
        head,
        base,
        *((now,) if now else ()),
    )


def compare_constraints(
    log: ChangeLog, base: Site, head: Site, field: str | None, role: str, client: bool, server: bool
) -> None:
    """The assertions other than types, values, bounds and members (2020-12 Validation §6
    and the applicators that only narrow): each added or tightened one rejects values the
    base accepted (client-submitted: breaking); each removed or loosened one allows values
    the base rejected (server-emitted: breaking)."""
    b, h = base.node, head.node
    name = f"`{field}` of " if field else ""
    found: list[tuple[str, bool, str]] = []  # (keyword, narrowed (else widened), what)
    multiple = valid_divisor(b.get("multipleOf")), valid_divisor(h.get("multipleOf"))
    if multiple != (None, None) and multiple[0] != multiple[1]:
        was, now = multiple
        if now is not None and (was is None or not divides(now, was)):
            found.append(("multipleOf", True, f"`multipleOf` is now {canonical(now)}"))
        if was is not None and (now is None or not divides(was, now)):
            found.append(("multipleOf", False, f"`multipleOf` {canonical(was)} is relaxed"))
    for keyword in ("format", "pattern"):
        was, now = b.get(keyword), h.get(keyword)
        if not isinstance(now, str):
            now = None
        if not isinstance(was, str) or was == now:
            if keyword == "format" and was is None and now is not None:
                found.append((keyword, True, f"`format` `{now}` is added"))
            continue
        if now is not None:  # two formats or patterns: neither contains the other, in general
            found.append((keyword, True, f"`{keyword}` is now {json_value(now)}"))
        found.append(
            (
                keyword,
                False,
                f"`{keyword}` {json_value(was)} is " + ("replaced" if now is not None else "gone"),
            )
        )
    for keyword, what in (
        ("uniqueItems", "items must be unique"),
        ("contains", "an item must match `contains`"),
        ("not", "`not` excludes values"),
    ):
        was = b.get(keyword) not in (None, False) if keyword == "uniqueItems" else keyword in b
        now = h.get(keyword) not in (None, False) if keyword == "uniqueItems" else keyword in h
        if now and not was:
            found.append((keyword, True, f"{what} now"))
        elif was and not now:
            found.append((keyword, False, f"no longer {what.replace('must', 'need')}"))
    if "contains" in b and "contains" in h:  # the counts apply only beside `contains`
        for keyword, default, lower in (("minContains", 1, True), ("maxContains", None, False)):
            was, now = as_number(b.get(keyword, default)), as_number(h.get(keyword, default))
            if was == now:
                continue
            tighter = was is None or (now is not None and (now > was if lower else now < was))
            if lower or now is not None:
                found.append((keyword, tighter, f"`{keyword}` is now {canonical(now)}"))
            else:
                found.append((keyword, False, f"`{keyword}` {canonical(was)} is gone"))
    for kind in ("dependentRequired",):
        was_map, now_map = b.get(kind), h.get(kind)
        was_pairs = dependency_pairs(was_map)
        now_pairs = dependency_pairs(now_map)
        for narrowed, pairs in ((True, now_pairs - was_pairs), (False, was_pairs - now_pairs)):
            if pairs:
                listed = ", ".join(f"`{a}` needs `{c}`" for a, c in sorted(pairs)[:5])
                verb = "now" if narrowed else "no longer"
                found.append((kind, narrowed, f"{verb}: {listed}"))
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if b.get(keyword) is False and h.get(keyword) is not False:
            found.append((keyword, False, f"no longer closed (`{keyword}: false` is gone)"))
    for keyword in ("items", "unevaluatedItems", "propertyNames"):
        if (h.get(keyword) is False) != (b.get(keyword) is False):
            narrowed = h.get(keyword) is False
            found.append(
                (
                    keyword,
                    narrowed,
                    f"`{keyword}: false` is " + ("added" if narrowed else "gone"),
                )
            )
    for keyword, narrowed, what in found:
        opened = keyword in ("additionalProperties", "unevaluatedProperties")
        log.add(
            "shape opened"
            if opened
            else ("constraint narrowed" if narrowed else "constraint widened"),
            client if narrowed else server,
            role,
            f"{name}{role} `{head.label}`: {what}: "
            + (
                "values the base accepted may be rejected"
                if narrowed
                else "a client validating against the base may reject what the head allows"
            ),
            head,
            base,
            *((keyword,) if keyword in h else ()),
        )
