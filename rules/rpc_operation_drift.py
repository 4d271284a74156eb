"""An rpc of the gRPC surface whose HTTP binding or name disagrees with the OpenAPI document.

What it does
    Holds each rpc of the corpus's ``.proto`` files and proto fences to the operations of its
    OpenAPI documents, where the evidence binds the two:

    - by name: the operation whose ``operationId``, in PascalCase, is the rpc's name
      (``createRun`` and ``CreateRun``);
    - by route: the operation with the method and path of the rpc's ``google.api.http``
      binding (path variables read as wildcards, as grpc-gateway writes them; below the
      servers' base paths).

    An rpc bound by name whose HTTP binding names another operation, or none, is reported with
    both places. An rpc bound neither way is reported where the corpus shows that its rpcs are
    named after the operations (at least three rpc names are operationIds, and more than half
    of them are).

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
    `GET /v1/run/{run_id}` (google.api.http), but its operation `getRun` is
    `GET /v1/runs/{runId}` ...``

Use instead
    ``get: "/v1/runs/{run_id}"``. PASS.

Options
    None.

Limitations
    An operation without an rpc is not reported (a REST surface may be larger than its gRPC
    one), nor an unbound rpc beside rpcs bound to HTTP (it is gRPC-only). The protos of other
    APIs kept in the corpus (``google.*``, ``third_party/``, ``vendor/``) are not compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.operations import Operation
from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos
from speclint.analyses.grpc.surfaces import rpc_operations
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.protobuf import ProtoRpc

ID = "rpc-operation-drift"
SEVERITY = Severity.WARNING
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
NAMED_AFTER = 3  # rpcs named after operationIds before an unnamed one is one to report


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    found = rpc_operations(corpus)
    if found is None:
        return
    place = corpus_protos(corpus).place
    names = {binding.rpc.name for binding in found.bindings}
    named = len(names & found.by_name.keys())
    after_names = named >= NAMED_AFTER and named * 2 > len(names)
    # Where the protos bind rpcs to HTTP, one without a binding is gRPC-only by their word.
    bindings = any(binding.rpc.http for binding in found.bindings)
    for binding in found.bindings:
        rpc, service, path = binding.rpc, binding.service, binding.path
        page, line, column = place(path, rpc.line, rpc.column)
        here = Location(page, line, column, pointer=f"/{service}/{rpc.name}")
        if binding.named and rpc.http:
            if any(op in binding.served for op in binding.named):
                continue
            operation = binding.named[0]
            identifier = operation.identifier
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
            not found.by_name.get(rpc.name)
            and not binding.served
            and after_names
            and (rpc.http or not bindings)
        ):
            shown = f"`{rpc.name[:1].lower()}{rpc.name[1:]}`"
            route = "".join(f" nor any at `{r.verb.upper()} {r.path}`" for r in rpc.http)
            related = list(_closest(rpc, found.by_name)) or [
                corpus.documents[path].location("/paths", "the OpenAPI document's paths")
                for path in found.documents[:1]
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


def _where(operation: Operation, note: str) -> Location:
    line, column = operation.document.position(operation.pointer)
    return Location(operation.document.path, line, column, pointer=operation.pointer, note=note)


def _closest(rpc: ProtoRpc, by_name: Mapping[str, list[Operation]]) -> Iterator[Location]:
    """The operation whose name differs from the rpc's by letter case only, if any."""
    for name, entries in sorted(by_name.items()):
        if name.lower() == rpc.name.lower():
            yield _where(entries[0], f"operation {entries[0].identifier}")
