"""``rpc-operation-drift`` on fixtures written here, one test a case, named after it. The rule: an
rpc of the gRPC surface whose HTTP binding or name disagrees with the OpenAPI document."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_surfaces import _openapi

from conftest import findings_of, run_rule, write_files

# Issue 30, item 3: the gRPC surface against the prose's method tables (method-table-drift) and
# the OpenAPI document (rpc-operation-drift). Every corpus here is written for the test.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


OPENAPI = """\
openapi: 3.1.0
info:
  title: Runs
  version: 1.0.0
servers:
  - url: https://api.example.test/api
paths:
  /v1/runs:
    post:
      operationId: createRun
      responses:
        "201":
          description: created
  /v1/runs/{runId}:
    get:
      operationId: getRun
      responses:
        "200":
          description: the run
  /v1/runs/{runId}:cancel:
    post:
      operationId: cancelRun
      responses:
        "200":
          description: cancelled
"""


RUNS = """\
syntax = "proto3";
package runs.v1;
import "google/api/annotations.proto";
service Runs {
  rpc CreateRun(Req) returns (Req) { option (google.api.http) = {post: "/api/v1/runs" body: "*"}; }
  rpc GetRun(Req) returns (Req) { option (google.api.http) = {get: "/v1/run/{run_id}"}; }
  rpc CancelRun(Req) returns (Req);
}
message Req { string run_id = 1; }
"""


PLAIN = """\
syntax = "proto3";
package runs.v1;
service Runs {
  rpc CreateRun(Req) returns (Req);
  rpc GetRun(Req) returns (Req);
  rpc CancelRun(Req) returns (Req);
  rpc PauseRun(Req) returns (Req);
}
message Req { string run_id = 1; }
"""


SERVED = """\
syntax = "proto3";
package tasks.v1;
import "google/api/annotations.proto";
service Tasks {
  rpc GetTask(R) returns (R) { option (google.api.http) = {get: "/v1/{name=tasks/*}"}; }
  rpc CancelTask(R) returns (R) {
    option (google.api.http) = {post: "/v1/{name=tasks/*}:cancel" body: "*"};
  }
  rpc ListTasks(R) returns (R) { option (google.api.http) = {get: "/v1/tasks"}; }
}
message R { string name = 1; }
"""


def test_an_rpc_bound_to_another_route_than_its_operation_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": OPENAPI, "api/runs.proto": RUNS})
    (finding,) = findings_of("rpc-operation-drift", root)
    assert (finding.location.path, finding.location.line) == ("api/runs.proto", 6)
    assert "rpc `GetRun` is bound to `GET /v1/run/{run_id}`" in finding.message
    assert "its operation `getRun` is `GET /v1/runs/{runId}`" in finding.message
    assert [(r.path, r.pointer) for r in finding.related] == [
        ("api/openapi.yaml", "/paths/~1v1~1runs~1{runId}/get")
    ]
    # CreateRun's route names the operation through the server's base path: no finding
    (root / "api/runs.proto").write_text(RUNS.replace("/v1/run/{run_id}", "/v1/runs/{run_id}"))
    assert findings_of("rpc-operation-drift", root) == []


def test_an_rpc_named_after_no_operation_is_reported_only_where_rpcs_are_so_named(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": OPENAPI, "api/runs.proto": PLAIN})
    (finding,) = findings_of("rpc-operation-drift", root)
    assert "rpc `PauseRun` has no operation" in finding.message
    assert "3 of the 4 rpc names are operationIds" in finding.message
    # two rpc names of three are operationIds: no convention yet (at least three are needed)
    fewer = PLAIN.replace("  rpc CancelRun(Req) returns (Req);\n", "")
    (root / "api/runs.proto").write_text(fewer)
    assert findings_of("rpc-operation-drift", root) == []
    # one of three, as well
    (root / "api/runs.proto").write_text(fewer.replace("rpc CreateRun", "rpc MakeRun"))
    assert findings_of("rpc-operation-drift", root) == []


def test_an_rpc_without_a_binding_beside_bound_ones_is_grpc_only(make_corpus: MakeCorpus) -> None:
    bound = RUNS.replace("/v1/run/{run_id}", "/v1/runs/{run_id}").replace(
        "  rpc CancelRun(Req) returns (Req);\n",
        "  rpc CancelRun(Req) returns (Req);\n  rpc PollRuns(Req) returns (Req);\n",
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI, "api/runs.proto": bound})
    assert findings_of("rpc-operation-drift", root) == []
    # bound to a route the OpenAPI document does not have: reported
    routed = bound.replace(
        "rpc PollRuns(Req) returns (Req);",
        'rpc PollRuns(Req) returns (Req) { option (google.api.http) = {get: "/v1/polls"}; }',
    )
    (root / "api/runs.proto").write_text(routed)
    (finding,) = findings_of("rpc-operation-drift", root)
    assert "rpc `PollRuns` has no operation" in finding.message
    assert "nor any at `GET /v1/polls`" in finding.message


def test_routes_are_read_below_base_paths_and_as_gateway_templates(
    make_corpus: MakeCorpus,
) -> None:
    paths = {
        "/tasks/{name}": ("get", "getTask"),
        "/tasks/{name}:cancel": ("post", "cancelTask"),
        "/tasks": ("get", "listTasks"),
    }
    variable = (
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers:\n"
        "  - url: https://api.example.test/{version}\n    variables:\n"
        "      version: {default: v1}\n"
    )
    root = make_corpus({"api/tasks.proto": SERVED, "openapi.yaml": _openapi(variable, paths)})
    assert findings_of("rpc-operation-drift", root) == []
    swagger = "swagger: '2.0'\ninfo: {title: t, version: '1'}\nbasePath: /v1\n"
    (root / "openapi.yaml").write_text(_openapi(swagger, paths))
    assert findings_of("rpc-operation-drift", root) == []
    # the control: below the same base path, a path the binding does not name is reported
    moved = {**paths, "/taskz": ("get", "listTasks")}
    del moved["/tasks"]
    (root / "openapi.yaml").write_text(_openapi(swagger, moved))
    (finding,) = findings_of("rpc-operation-drift", root)
    assert "`listTasks` is `GET /taskz`" in finding.message
    gateway = {  # grpc-gateway writes the binding's template, or a variable for its segments
        "/v1/{name=tasks/*}": ("get", "getTask"),
        "/v1/{name}:cancel": ("post", "cancelTask"),
        "/v1/tasks": ("get", "listTasks"),
    }
    (root / "openapi.yaml").write_text(_openapi(swagger.replace("basePath: /v1\n", ""), gateway))
    assert findings_of("rpc-operation-drift", root) == []


def test_vendored_protos_and_operations_other_rpcs_serve_are_not_compared(
    make_corpus: MakeCorpus,
) -> None:
    paths = {
        "/v1/tasks/{name}": ("get", "getTask"),
        "/v1/tasks/{name}:cancel": ("post", "cancelTask"),
        "/v1/tasks": ("get", "listTasks"),
    }
    # another API's proto kept in `third_party/` (its package no `google.*` one, its rpc bound
    # to a route no operation has): not ours, not compared
    vendored = (
        'syntax = "proto3";\npackage ops.v1;\nimport "google/api/annotations.proto";\n'
        "service Operations {\n  rpc GetOperation(L) returns (L) {\n"
        '    option (google.api.http) = {get: "/v1/{name=operations/**}"};\n  }\n}\n'
        "message L {}\n"
    )
    v2 = SERVED.replace("package tasks.v1;", "package tasks.v2;").replace("/v1/", "/v2/")
    root = make_corpus(
        {
            "api/v1/tasks.proto": SERVED,
            "api/v2/tasks.proto": v2,
            "third_party/google/longrunning/operations.proto": vendored,
            "openapi.yaml": _openapi("openapi: 3.1.0\ninfo: {title: t, version: '1'}\n", paths),
        }
    )
    # v2's rpcs share v1's names; their operations are v1's, which v1's routes serve
    assert findings_of("rpc-operation-drift", root) == []
    # the control: the same proto as the corpus's own is compared
    write_files(root, {"api/ops.proto": vendored})
    (finding,) = findings_of("rpc-operation-drift", root)
    assert finding.location.path == "api/ops.proto"


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _openapi_of(*operation_ids: str) -> str:
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
    api = _openapi_of("sendParcel", "getParcel", "cancelParcel", "trackParcel", "listDepots")
    proto = _proto("SendParcel", "GetParcel", "CancelParcel")
    root = make_corpus({"api/openapi.yaml": api, "api/parcels.proto": proto})
    assert run_rule(root, "rpc-operation-drift", {}) == []
    # the control: an rpc without an operation, where rpcs are named after operations, is
    (root / "api/parcels.proto").write_text(
        _proto("SendParcel", "GetParcel", "CancelParcel", "HoldParcel")
    )
    [finding] = run_rule(root, "rpc-operation-drift", {})
    assert "rpc `HoldParcel` has no operation" in finding.message
