"""A method table in the prose that names a gRPC method, JSON-RPC method or route the protos,
the schemas or the OpenAPI document do not have.

What it does
    Reads the Markdown tables with a column headed ``gRPC`` method, or ``JSON-RPC`` method beside a
    REST one (a method mapping table), and holds each row to the surfaces of the page's version:

    - a gRPC method must be an rpc of the corpus's ``.proto`` files or proto fences (by the last
      part of ``Service.Method``), else the rpc the row's route binds or a near name is named;
    - a REST route (``POST /v1/tasks/{id}:cancel``) must be the ``google.api.http`` binding of
      the row's rpc, verb and path (``/v1/{name=tasks/*}:cancel`` reads as
      ``/v1/tasks/{id}:cancel``), where the protos declare bindings at all;
    - a JSON-RPC method must be defined: a request or notification schema fixing ``method``
      beside ``jsonrpc`` or ``params`` (JSON-RPC 2.0 §4), or an OpenRPC ``methods[].name``;
    - a REST route must be an operation of the API document the table is bound to (the one
      with most of its routes), below each server's base path; the nearest one is named.

    A table is held to a surface once bound to it (two of its entries, and half, found there); a
    pair is compared only when the evidence binds it (one rpc name, or one verb and path). Prose
    cells ("N/A") and rows limited to some transports ("gRPC/REST only") are not held to the others.

Why is this bad?
    A specification publishing REST/JSON and gRPC surfaces of one protocol (A2A's JSON-RPC, gRPC and
    HTTP+JSON transports) promises the same methods. A table naming an rpc, a JSON-RPC method or a
    route one surface does not have sends implementers of one transport to a method the other does
    not serve.

Example
    ::

        | JSON-RPC Method | gRPC Method | REST Endpoint |
        | --- | --- | --- |
        | `tasks/resubscribe` | `TaskSubscription` | `POST /v1/tasks/{id}:subscribe` |

    with ``rpc TaskSubscription`` bound to ``get: "/v1/{name=tasks/*}:subscribe"`` in the proto.
    FAIL: ``warning [method-table-drift] the table gives `POST /v1/tasks/{id}:subscribe` for rpc
    `TaskSubscription`, which the proto binds with GET ...``

Use instead
    The verb the proto binds (or change the binding). PASS.

Options
    None.

Limitations
    The protos of other APIs kept in the corpus (``google.*``, ``third_party/``, ``vendor/``)
    are not read. Where a proto fence showing a service could not be read, no name or route is
    said to have no rpc; an OpenRPC method kept in another file leaves the methods unknown.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.api.jsonrpc import defined_methods, table_methods
from speclint.analyses.api.operations import Operation, api_operations, base_paths
from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos
from speclint.analyses.grpc.surfaces import (
    BoundRule,
    MethodRow,
    Route,
    RpcIndex,
    camel_words,
    method_rows,
    route_shape,
    rpc_index,
    rpc_name,
    table_operations,
)
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.protobuf import ProtoRpc

ID = "method-table-drift"
SEVERITY = Severity.WARNING
READS = "extract"  # of a page: its method tables (speclint.analyses.units)
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
FACTS = ("derived",)  # a derived copy (a bundle) defines no JSON-RPC method of its own


def extract(document: Document) -> tuple[MethodRow, ...]:
    return method_rows(document)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    rows = [row for page in corpus.of_kind(DocumentKind.MARKDOWN) for row in method_rows(page)]
    if not rows:
        return
    index = rpc_index(corpus)
    place = corpus_protos(corpus).place

    def where(path: str, line: int, column: int, note: str) -> Location:
        page, line, column = place(path, line, column)
        return Location(page, line, column, note=note)

    tables: dict[tuple[str, int], list[MethodRow]] = {}
    for row in rows:
        tables.setdefault((row.page, row.table), []).append(row)
    for table in tables.values():
        absent = _absent_operations(corpus, table)
        said: set[tuple[int, Route]] = set()
        # no proto declares a service: nothing the table's gRPC names can be held to
        for row in table if index and table[0].grpc_column else ():
            yield from _row_findings(row, index, where, absent, said)
        yield from _method_findings(corpus, table)
        for (line, route), (row, text, related) in sorted(
            absent.items(), key=lambda item: (item[0][0], item[0][1].column)
        ):
            if (line, route) in said:
                continue  # said with the proto's binding of the same cell
            shown = f"`{route.verb.upper()} {route.path}`"
            what = f" (for `{row.jsonrpc}`)" if row.jsonrpc else ""
            yield Finding(
                ID,
                SEVERITY,
                f"the table gives {shown}{what}, which {text}: fix the route in the table or "
                "add the operation",
                Location(row.page, row.line, route.column, heading=row.heading),
                related,
                key=f"operation:{route.verb}:{route.path}",
            )


# (row line, route) -> (row, "is no operation of `api.yaml`; the nearest is ...", related)
Absent = dict[tuple[int, Route], tuple[MethodRow, str, tuple[Location, ...]]]


def _row_findings(
    row: MethodRow, index: RpcIndex, where: Any, absent: Absent, said: set[tuple[int, Route]]
) -> Iterator[Finding]:
    bound = [entry for written, _ in row.grpc for entry in index.lookup(written)]
    # A row that says it has no gRPC form is not held to the protos at all.
    checked_routes = bool(index.rules) and not row.no_grpc
    by_route = {route: index.serving(route) for route in row.routes} if checked_routes else {}
    unbound_routes = [route for route in row.routes if checked_routes and not by_route[route]]
    for written, column in row.grpc:
        name = rpc_name(written)
        if index.lookup(written) or name in index.types or not index.complete:
            continue  # a message or enum named beside the rpc; or rpcs we could not all read
        serving = sorted(
            {rule.rpc.name for route in row.routes for rule in by_route.get(route, [])}
        )
        near = [] if serving else _near(name, index)
        what = f" (for `{row.jsonrpc}`)" if row.jsonrpc else ""
        here = Location(row.page, row.line, column, heading=row.heading)
        if serving:
            rule = next(r for route in row.routes for r in by_route.get(route, []))
            yield Finding(
                ID,
                SEVERITY,
                f"the table names gRPC method `{written}`{what}, which no rpc has; its route "
                f"`{rule.rule.verb.upper()} {rule.rule.path}` is rpc `{rule.rpc.name}`'s: name "
                f"`{rule.rpc.name}` in the table (or rename the rpc)",
                here,
                (where(rule.path, rule.rpc.line, rule.rpc.column, f"rpc {rule.rpc.name}"),),
                key=f"name:{written}",
            )
        elif near:
            rpc, service, path = near[0]
            yield Finding(
                ID,
                SEVERITY,
                f"the table names gRPC method `{written}`{what}, which no rpc has; service "
                f"`{service}` has `{rpc.name}`: name it so in the table (or rename the rpc)",
                here,
                (where(path, rpc.line, rpc.column, f"rpc {rpc.name}"),),
                key=f"name:{written}",
            )
        else:
            routes = ", ".join(f"`{r.verb.upper()} {r.path}`" for r in unbound_routes)
            also = f", and no rpc is bound to {routes}" if routes else ""
            services = sorted(index.services)
            yield Finding(
                ID,
                SEVERITY,
                f"the table names gRPC method `{written}`{what}, which no rpc of "
                f"{', '.join(f'`{s}`' for s in services)} has{also}: add the rpc to the proto, "
                "or say in the table that the method has no gRPC form",
                here,
                tuple(_service_locations(index, where)),
                key=f"name:{written}",
            )
            unbound_routes = []  # said with the name: one finding for a method the proto lacks
    for route in row.routes:
        if not checked_routes:
            break
        for finding in _route_findings(
            row, route, bound, by_route[route], unbound_routes, index, where
        ):
            operation_side = absent.get((row.line, route))
            if operation_side is not None:
                said.add((row.line, route))
                # the same cell against the OpenAPI document: one finding, both sides related
                head = finding.message.rpartition(": ")[0]
                fix = "make the table, the proto and the OpenAPI document say the same route"
                finding = replace(
                    finding,
                    message=f"{head}; and it {operation_side[1]}: {fix}",
                    related=finding.related + operation_side[2],
                )
            yield finding


def _binds(rpc: ProtoRpc, route: Route) -> bool:
    return any(r.verb == route.verb and _same(r.path, route) for r in rpc.http)


def _route_findings(
    row: MethodRow,
    route: Route,
    bound: list[Any],
    serving: list[BoundRule],
    unbound: list[Route],
    index: RpcIndex,
    where: Any,
) -> Iterator[Finding]:
    here = Location(row.page, row.line, route.column, heading=row.heading)
    shown = f"`{route.verb.upper()} {route.path}`"
    # A row naming several rpcs gives a route of one of them: reported only when none binds it.
    if any(_binds(rpc, route) for rpc, _, _ in bound):
        return
    for rpc, _, path in bound:
        if not rpc.http:
            continue
        rule = next((r for r in rpc.http if _same(r.path, route)), rpc.http[0])
        differs = (
            f"with {rule.verb.upper()}"
            if _same(rule.path, route)
            else f"to `{rule.verb.upper()} {rule.path}`"
        )
        yield Finding(
            ID,
            SEVERITY,
            f"the table gives {shown} for rpc `{rpc.name}`, which the proto binds {differs} "
            "(google.api.http): make the two say the same route",
            here,
            (where(path, rule.line, rule.column, f"rpc {rpc.name}'s http binding"),),
            key=f"route:{rpc.name}:{route.verb}:{route.path}",
        )
        return
    if bound or serving or route not in unbound or not index.complete:
        return  # (a proto fence showing a service could not be read: its routes are unknown)
    near = _near_route(route, index)
    hint = ""
    # no route near it: the services whose routes it is none of
    related: tuple[Location, ...] = tuple(_service_locations(index, where))
    if near is not None:
        rule, difference = near
        hint = (
            f"; the nearest is rpc `{rule.rpc.name}`'s `{rule.rule.verb.upper()} "
            f"{rule.rule.path}`{difference}"
        )
        related = (where(rule.path, rule.rule.line, rule.rule.column, f"rpc {rule.rpc.name}"),)
    yield Finding(
        ID,
        SEVERITY,
        f"the table gives {shown}, to which no rpc is bound (google.api.http){hint}: fix the "
        "route in the table or in the proto",
        here,
        related,
        key=f"route:{route.verb}:{route.path}",
    )


def _same(path: str, route: Route) -> bool:
    return Route("", path, 0).shape == route.shape


def _near(name: str, index: RpcIndex) -> list[Any]:
    """The rpcs whose name is ``name`` with one more word (``…Config``), or differs from it by
    letter case only."""
    found = []
    for other, entries in sorted(index.by_name.items()):
        extra = other[len(name) :] if other.startswith(name) else ""
        if (extra and len(camel_words(extra)) == 1) or other.lower() == name.lower():
            found += entries
    return found


def _near_route(route: Route, index: RpcIndex) -> tuple[BoundRule, str] | None:
    """The http binding with the route's verb and all but one segment of its path."""
    for rule in index.rules:
        if rule.rule.verb == route.verb:
            difference = _one_segment_off(
                route.shape, rule.shape, _written(route.path), _written(rule.rule.path)
            )
            if difference:
                return rule, difference
    return None


def _one_segment_off(
    shape: tuple[str, ...],
    other: tuple[str, ...],
    mine: tuple[str, ...] = (),
    theirs: tuple[str, ...] = (),
) -> str:
    """How ``other`` differs from the table's ``shape`` when in one segment only, else "";
    said with the segments as written (``mine``, ``theirs``) where they line up with the
    shapes (a template's `{name=tasks/*}` does not)."""
    if len(other) != len(shape):
        return ""
    differ = [n for n, (a, b) in enumerate(zip(shape, other, strict=True)) if a != b]
    if len(differ) != 1:
        return ""
    (n,) = differ
    said = mine[n] if len(mine) == len(shape) else shape[n]
    other_said = theirs[n] if len(theirs) == len(other) else other[n]
    return f", whose path says `{other_said}` where the table says `{said}`"


def _written(path: str) -> tuple[str, ...]:
    """A route's segments as written; none for a template whose variables hold a pattern
    (`{name=tasks/*}` spans segments: its shape says them)."""
    if "=" in path:
        return ()
    return tuple(segment for segment in path.split("?", 1)[0].split("/") if segment)


def _service_locations(index: RpcIndex, where: Any) -> Iterator[Location]:
    for service, (path, line, column) in sorted(index.services.items()):
        yield where(path, line, column, f"service {service}")


def _method_findings(corpus: Context, table: list[MethodRow]) -> Iterator[Finding]:
    """The table's JSON-RPC methods against the methods the corpus defines (of the page's
    version), once the table is bound to them."""
    found = table_methods(corpus, table)
    if found is None:
        return
    defined = defined_methods(corpus).by_name
    first = next(d for definitions in found.values() for d in definitions)
    openrpc = all(d.openrpc for definitions in found.values() for d in definitions)
    for row in table:
        for method, column in row.methods:
            if found.get((row.line, method), (first,)):
                continue  # defined (or a row limited to other transports)
            others = [d for d in defined.get(method, ()) if d.path]
            near = [
                d
                for other, entries in defined.items()
                if other.lower() == method.lower() and other != method
                for d in entries
                if corpus.versions.comparable(row.page, d.path)
            ]
            where = "of this version " if others else "of the corpus "
            if near:
                hint = f"; `{near[0].method}` is defined: write it so"
                related = (near[0].location(corpus, f"method {near[0].method}"),)
            else:
                hint = f" (only another version's: {others[0].path})" if others else ""
                related = (
                    first.location(corpus, f"method {first.method}, beside the table's others"),
                )
            fix = (
                "add it to the OpenRPC document's methods"
                if openrpc
                else "define it (a request schema whose `method` is that constant)"
            )
            yield Finding(
                ID,
                SEVERITY,
                f"the table names JSON-RPC method `{method}`, which no request schema or OpenRPC "
                f"document {where}defines{hint}: {fix}, or say in the table that the method has "
                "no JSON-RPC form",
                Location(row.page, row.line, column, heading=row.heading),
                related,
                key=f"jsonrpc:{method}",
            )


def _absent_operations(corpus: Context, table: list[MethodRow]) -> Absent:
    """The table's REST routes that no operation of the API document it is bound to has, each
    with what to say and the nearest operation related."""
    bound = table_operations(corpus, table)
    if bound is None:
        return {}
    document = bound.document
    operations = [op for op in api_operations(corpus) if op.document.path == document]
    absent: Absent = {}
    for row in table:
        for route in row.routes if row.claims("rest") else ():
            if bound.served[(row.line, route)]:
                continue  # an operation of this or another API document
            near = _near_operation(route, operations)
            text = f"is no operation of `{document}`"
            related: tuple[Location, ...]
            if near is not None:
                operation, difference = near
                text += f"; the nearest is `{operation.label}`{difference}"
                related = (operation.document.location(operation.pointer, operation.label),)
            else:
                related = (corpus.documents[document].location("/paths", "the API's paths"),)
            absent[(row.line, route)] = (row, text, related)
    return absent


def _near_operation(route: Route, operations: list[Operation]) -> tuple[Operation, str] | None:
    """The operation with the route's path and another verb, else the one with its verb and,
    below the same base path, all but one of two or more segments (one segment alone shares
    nothing: `/health` is not near `/tasks`)."""
    shape = route.shape
    written = _written(route.path)
    below = [
        (operation, len(base), route_shape(operation.path))
        for operation in operations
        for base in ((), *(route_shape(b) for b in base_paths(operation.document)))
        if shape[: len(base)] == base
    ]
    for operation, cut, path in below:
        if operation.method != route.verb and shape[cut:] == path:
            return operation, f", which is {operation.method.upper()}"
    for operation, cut, path in below:
        if operation.method == route.verb and len(shape) - cut >= 2:
            mine = written[cut:] if len(written) == len(shape) else ()
            difference = _one_segment_off(shape[cut:], path, mine, _written(operation.path))
            if difference:
                return operation, difference
    return None
