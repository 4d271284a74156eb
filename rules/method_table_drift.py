"""A method table in the prose that names a gRPC method or route the protos do not have.

What it does
    Reads the Markdown tables with a column headed ``gRPC`` (a method mapping table: JSON-RPC
    method, gRPC method, REST endpoint) and holds each row to the rpcs of the corpus's
    ``.proto`` files and whole proto fences:

    - a gRPC method the row names must be an rpc (a qualified name, ``Service.Method``, by its
      last part); one that is not is reported with the rpc the row's route is bound to, or the
      rpc whose name is the row's plus one word (``CreateTaskPushNotification`` for
      ``CreateTaskPushNotificationConfig``), when there is one;
    - a REST route the row gives (``POST /v1/tasks/{id}:cancel``) must be the ``google.api.http``
      binding of the row's rpc, verb and path (path variables read as wildcards:
      ``/v1/{name=tasks/*}:cancel`` is ``/v1/tasks/{id}:cancel``); for a row whose rpc is not
      found, some rpc must be bound to it. A route is checked only where the protos declare
      http bindings at all.

    A pair is compared only when the evidence binds it: the same rpc name (a qualified one,
    ``Tasks.GetTask``, in its own service), or the same verb and path. Nothing is paired by a
    similar name alone; a near name is only suggested. A cell of prose ("Not supported"), a
    message or enum name beside the rpc's, a row that says it has no gRPC form ("N/A", "—"),
    a route in a link or after "see", and the protos of other APIs kept in the corpus
    (``google.*``, ``third_party/``, ``vendor/``) are not read as names or routes; and where a
    proto fence showing a service could not be read, no name or route is said to have no rpc.

Why is this bad?
    A specification that publishes a REST/JSON surface and a gRPC surface of one protocol
    (A2A's JSON-RPC, gRPC and HTTP+JSON transports) promises they are the same methods. A table
    that names an rpc the proto does not have, or a route the proto binds with another verb,
    sends implementers of one transport to a method the other does not serve.

Example
    ::

        | JSON-RPC Method | gRPC Method | REST Endpoint |
        | --- | --- | --- |
        | `tasks/resubscribe` | `TaskSubscription` | `POST /v1/tasks/{id}:subscribe` |

    with ``rpc TaskSubscription(...) { option (google.api.http) = { get:
    "/v1/{name=tasks/*}:subscribe" }; }`` in the proto. FAIL: ``docs/specification.md:220:50:
    warning [method-table-drift] the table gives `POST /v1/tasks/{id}:subscribe` for rpc
    `TaskSubscription`, which the proto binds to GET ...``

Use instead
    The verb the proto binds (or change the binding). PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.protos import corpus_protos
from speclint.analyses.surfaces import (
    BoundRule,
    MethodRow,
    Route,
    RpcIndex,
    camel_words,
    method_rows,
    rpc_index,
    rpc_name,
)
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.protobuf import ProtoRpc

ID = "method-table-drift"
SEVERITY = Severity.WARNING
READS = "extract"  # of a page: its method tables (speclint.analyses.units)
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)


def extract(document: Document) -> tuple[MethodRow, ...]:
    return method_rows(document)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    rows = [row for page in corpus.of_kind(DocumentKind.MARKDOWN) for row in method_rows(page)]
    if not rows:
        return
    index = rpc_index(corpus)
    if not index:
        return  # no proto declares a service: nothing the table's gRPC names can be held to
    place = corpus_protos(corpus).place

    def where(path: str, line: int, column: int, note: str) -> Location:
        page, line, column = place(path, line, column)
        return Location(page, line, column, note=note)

    for row in rows:
        yield from _row_findings(row, index, where)


def _row_findings(row: MethodRow, index: RpcIndex, where: Any) -> Iterator[Finding]:
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
        yield from _route_findings(row, route, bound, by_route[route], unbound_routes, index, where)


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
    related: tuple[Location, ...] = ()
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
    shape = route.shape
    for rule in index.rules:
        other = rule.shape
        if rule.rule.verb != route.verb or len(other) != len(shape):
            continue
        differ = [(a, b) for a, b in zip(shape, other, strict=True) if a != b]
        if len(differ) == 1:
            mine, theirs = differ[0]
            return rule, f", whose path says `{theirs}` where the table says `{mine}`"
    return None


def _service_locations(index: RpcIndex, where: Any) -> Iterator[Location]:
    for service, (path, line, column) in sorted(index.services.items()):
        yield where(path, line, column, f"service {service}")
