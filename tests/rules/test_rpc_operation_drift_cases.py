"""rpc-operation-drift: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _openapi(*operation_ids: str) -> str:
    paths = "".join(
        f"  /v1/{name.lower()}:\n    post:\n      operationId: {name}\n"
        "      responses: {'200': {description: ok}}\n"
        for name in operation_ids
    )
    return f"openapi: 3.1.0\ninfo: {{title: Parcels, version: 1.0.0}}\npaths:\n{paths}"


def _proto(*rpcs: str) -> str:
    body = "".join(f"  rpc {name}(Req) returns (Req);\n" for name in rpcs)
    return (
        'syntax = "proto3";\npackage parcels.v1;\n'
        f"service Parcels {{\n{body}}}\nmessage Req {{ string id = 1; }}\n"
    )


def test_rpc_operation_drift_reports_no_operation_without_an_rpc(make_corpus: MakeCorpus) -> None:
    # the REST surface is larger than the gRPC one: `trackParcel` and `listDepots` have no rpc
    api = _openapi("sendParcel", "getParcel", "cancelParcel", "trackParcel", "listDepots")
    proto = _proto("SendParcel", "GetParcel", "CancelParcel")
    root = make_corpus({"api/openapi.yaml": api, "api/parcels.proto": proto})
    assert run_rule(root, "rpc-operation-drift", {}) == []
    # the control: an rpc without an operation, where rpcs are named after operations, is
    (root / "api/parcels.proto").write_text(
        _proto("SendParcel", "GetParcel", "CancelParcel", "HoldParcel")
    )
    [finding] = run_rule(root, "rpc-operation-drift", {})
    assert "rpc `HoldParcel` has no operation" in finding.message
