"""An rpc of the gRPC surface whose HTTP binding or name disagrees with the OpenAPI document.

What it does
    Holds each rpc of the corpus's ``.proto`` files and proto fences (a service shown without
    its messages is read too) to the operations of its OpenAPI documents, where the evidence
    binds the two:

    - by name: the operation whose ``operationId``, in PascalCase, is the rpc's name
      (``createRun`` and ``CreateRun``);
    - by route: the operation with the method and path of the rpc's ``google.api.http``
      binding (path variables read as wildcards, an operation's variable standing for several
      segments as grpc-gateway writes them; below the servers' base paths, a server variable
      read as its default, or Swagger 2.0's ``basePath``).

    An operation another rpc's binding serves is that rpc's, not evidence for a same-named one
    (a ``v2`` service beside ``v1``); the protos of other APIs kept in the corpus (``google.*``,
    ``third_party/``, ``vendor/``) are not compared.

    An rpc bound by name whose HTTP binding names another operation, or none, is reported with
    both places. An rpc bound neither way is reported where the corpus shows that its rpcs are
    named after the operations (three rpcs or more, and most of them so named), unless the
    protos bind other rpcs to HTTP and not this one (it is gRPC-only, as Temporal's task-queue
    polls are); an operation without an rpc is not reported (a REST surface may be larger than
    its gRPC one).

Why is this bad?
    Two surfaces of one protocol (``POST /v1/runs`` and ``CreateRun``) that the specification
    promises are the same method drift apart when one is edited: a route moves, an rpc is
    renamed, and gateways and generated clients route one transport to another method.

Example
    ::

        rpc GetRun(GetRunRequest) returns (Run) {
          option (google.api.http) = { get: "/v1/run/{run_id}" };
        }

    with ``GET /v1/runs/{runId}`` (``operationId: getRun``) in the OpenAPI document. FAIL:
    ``api/grpc/runs.proto:18:5: warning [rpc-operation-drift] rpc `GetRun` is bound to
    `GET /v1/run/{run_id}`, but its operation `getRun` is `GET /v1/runs/{runId}` ...``

Use instead
    ``get: "/v1/runs/{run_id}"``. PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.operations import Operation, api_operations, base_paths
from speclint.analyses.protos import ProtoFence, corpus_protos, page_fences
from speclint.analyses.surfaces import route_shape, rpc_index
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.protobuf import ProtoRpc
from speclint.parsing.structured import resolve_pointer

ID = "rpc-operation-drift"
SEVERITY = Severity.WARNING
READS = "extract"  # of a page, only its proto fences (speclint.analyses.units)
READS_PROTOS = True  # the corpus's compiled protos (speclint.analyses.protos)
NAMED_AFTER = 3  # rpcs named after operationIds before an unnamed one is one to report


def extract(document: Document) -> tuple[ProtoFence, ...]:
    return page_fences(document)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    index = rpc_index(corpus)
    operations = api_operations(corpus)
    if not index or not operations:
        return
    place = corpus_protos(corpus).place
    by_name: dict[str, list[tuple[Operation, str]]] = {}
    by_verb: dict[str, list[tuple[Operation, list[tuple[str, ...]]]]] = {}
    for operation in operations:
        data = resolve_pointer(operation.document.data, operation.pointer)
        identifier = data.get("operationId") if isinstance(data, dict) else None
        if isinstance(identifier, str) and identifier:
            by_name.setdefault(identifier[:1].upper() + identifier[1:], []).append(
                (operation, identifier)
            )
        by_verb.setdefault(operation.method, []).append((operation, _shapes(operation)))
    rpcs = sorted(
        (entry for entries in index.by_name.values() for entry in entries),
        key=lambda entry: (entry[2], entry[0].line, entry[0].name),
    )
    routed = {id(rpc): _served(rpc, by_verb) for rpc, _, _ in rpcs}
    claimed = {id(op): id(rpc) for rpc, _, _ in rpcs for op in routed[id(rpc)]}
    names = {rpc.name for rpc, _, _ in rpcs}
    named = len(names & by_name.keys())
    after_names = named >= NAMED_AFTER and named * 2 > len(names)
    # Where the protos bind rpcs to HTTP, one without a binding is gRPC-only by their word.
    bindings = any(rpc.http for rpc, _, _ in rpcs)
    documents = sorted({op.document.path for op in operations})
    for rpc, service, path in rpcs:
        page, line, column = place(path, rpc.line, rpc.column)
        here = Location(page, line, column, pointer=f"/{service}/{rpc.name}")
        # an operation another rpc's route serves is that rpc's, not evidence for this one
        bound = [
            (op, identifier)
            for op, identifier in by_name.get(rpc.name, [])
            if claimed.get(id(op), id(rpc)) == id(rpc)
        ]
        served = routed[id(rpc)]
        if bound and rpc.http:
            if any(op in served for op, _ in bound):
                continue
            operation, identifier = bound[0]
            rule = rpc.http[0]
            page, line, column = place(path, rule.line, rule.column)
            yield Finding(
                ID,
                SEVERITY,
                f"rpc `{rpc.name}` is bound to `{rule.verb.upper()} {rule.path}` "
                f"(google.api.http), but its operation `{identifier}` is `{operation.label}`: "
                "make the binding and the path say the same route",
                Location(page, line, column, pointer=f"/{service}/{rpc.name}"),
                (_where(operation, f"operation {identifier}"),),
                key=f"route:{service}.{rpc.name}",
            )
        elif (
            not by_name.get(rpc.name) and not served and after_names and (rpc.http or not bindings)
        ):
            shown = f"`{rpc.name[:1].lower()}{rpc.name[1:]}`"
            route = "".join(f" nor any at `{r.verb.upper()} {r.path}`" for r in rpc.http)
            related = list(_closest(rpc, by_name)) or [
                Location(path, 1, 1, note="the OpenAPI document") for path in documents[:1]
            ]
            yield Finding(
                ID,
                SEVERITY,
                f"rpc `{rpc.name}` has no operation in the OpenAPI document: no operationId "
                f"{shown}{route}, though {named} of the {len(names)} rpc names are "
                "operationIds: add the operation, or name the rpc after the one it serves",
                here,
                tuple(related),
                key=f"missing:{service}.{rpc.name}",
            )


def _shapes(operation: Operation) -> list[tuple[str, ...]]:
    """The operation's path as a shape, alone and below each base path of its document
    (``operations.base_paths``: servers, their variables' defaults, Swagger's ``basePath``)."""
    path = route_shape(operation.path)
    bases = (route_shape(base) for base in base_paths(operation.document))
    return [path, *(base + path for base in bases if base)]


def _served(
    rpc: ProtoRpc, by_verb: Mapping[str, list[tuple[Operation, list[tuple[str, ...]]]]]
) -> list[Operation]:
    """The operations the rpc's bindings name: same verb, same path (variables as wildcards; a
    variable of the operation may stand for several segments, as grpc-gateway writes
    ``/v1/{name}`` for ``/v1/{name=tasks/*}``)."""
    found = []
    for rule in rpc.http:
        mine = route_shape(rule.path)
        exact = [op for op, shapes in by_verb.get(rule.verb, []) if mine in shapes]
        candidates = exact or [
            op
            for op, shapes in by_verb.get(rule.verb, [])
            if any(_matches(mine, shape) for shape in shapes)
        ]
        found += [op for op in candidates if op not in found]
    return found


def _matches(binding: tuple[str, ...], operation: tuple[str, ...]) -> bool:
    """Whether a binding's path is an operation's: segment by segment (a custom verb, the
    ``:cancel`` of ``{}:cancel``, must be the same), a ``{}`` of either side any segment, and a
    ``{}`` of the operation's any run of segments."""
    if not operation:
        return not binding
    theirs, others = operation[0], operation[1:]
    if _base(theirs) == "{}":
        longest = len(binding) - len(others)
        return any(
            _verb(binding[taken - 1]) == _verb(theirs) and _matches(binding[taken:], others)
            for taken in range(1, longest + 1)
        )
    if not binding:
        return False
    mine = binding[0]
    return (
        _base(mine) in ("{}", _base(theirs))
        and _verb(mine) == _verb(theirs)
        and _matches(binding[1:], others)
    )


def _base(segment: str) -> str:
    return segment.rsplit(":", 1)[0] if ":" in segment else segment


def _verb(segment: str) -> str:
    """A custom method's verb (``:cancel`` of ``{}:cancel``), or ""."""
    return segment.rsplit(":", 1)[1] if ":" in segment else ""


def _where(operation: Operation, note: str) -> Location:
    line, column = operation.document.position(operation.pointer)
    return Location(operation.document.path, line, column, pointer=operation.pointer, note=note)


def _closest(
    rpc: ProtoRpc, by_name: Mapping[str, list[tuple[Operation, str]]]
) -> Iterator[Location]:
    """The operation whose name differs from the rpc's by letter case only, if any."""
    for name, entries in sorted(by_name.items()):
        if name.lower() == rpc.name.lower():
            operation, identifier = entries[0]
            yield _where(operation, f"operation {identifier}")
