"""Issue 30, item 3: the gRPC surface against the prose's method tables (method-table-drift) and
the OpenAPI document (rpc-operation-drift). Every corpus here is written for the test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_integrity_rules import findings_of

from conftest import write_files
from speclint.analyses.api.operations import named_operations
from speclint.analyses.changes.proto_changes import contract_changes
from speclint.analyses.context import Context
from speclint.analyses.grpc import protojson
from speclint.analyses.grpc.protos import corpus_protos
from speclint.analyses.grpc.surfaces import route_shape
from speclint.frontends.cli import main
from speclint.rules import proto_enum_drift

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PROTO = """\
syntax = "proto3";

package tasks.v1;

import "google/api/annotations.proto";

service Tasks {
  rpc GetTask(GetTaskRequest) returns (Task) {
    option (google.api.http) = {get: "/v1/{name=tasks/*}"};
  }
  rpc CancelTask(GetTaskRequest) returns (Task) {
    option (google.api.http) = {post: "/v1/{name=tasks/*}:cancel" body: "*"};
  }
  rpc CreateTaskConfig(GetTaskRequest) returns (Task) {
    option (google.api.http) = {post: "/v1/{parent=task/*}/configs" body: "*"};
  }
  rpc ListTaskConfig(GetTaskRequest) returns (Task) {
    option (google.api.http) = {get: "/v1/{parent=tasks/*}/configs"};
  }
}

message GetTaskRequest {
  string name = 1;
}

message Task {
  string id = 1;
}
"""

HEADER = "# Methods\n\n| JSON-RPC Method | gRPC Method | REST Endpoint |\n| --- | --- | --- |\n"


def _table(*rows: str) -> str:
    return HEADER + "".join(row + "\n" for row in rows)


def test_a_route_the_proto_binds_with_another_verb_is_reported_and_fixed_is_quiet(
    make_corpus: MakeCorpus,
) -> None:
    row = "| `tasks/cancel` | `CancelTask` | `GET /v1/tasks/{id}:cancel` |"
    root = make_corpus({"api/tasks.proto": PROTO, "docs/methods.md": _table(row)})
    (finding,) = findings_of("method-table-drift", root)
    assert finding.location.path == "docs/methods.md" and finding.location.line == 5
    assert finding.location.column == row.index("GET") + 1
    assert "which the proto binds with POST" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("api/tasks.proto", 12)]
    (root / "docs/methods.md").write_text(_table(row.replace("GET /v1", "POST /v1")))
    assert findings_of("method-table-drift", root) == []


def test_a_name_that_is_no_rpc_is_reported_with_the_rpc_its_route_is_bound_to(
    make_corpus: MakeCorpus,
) -> None:
    rows = (
        "| `tasks/config/list` | `ListTask` | `GET /v1/tasks/{id}/configs` |",
        "| `tasks/config/set` | `CreateTask` | `POST /v1/tasks/{id}/configs` |",
    )
    root = make_corpus({"api/tasks.proto": PROTO, "docs/methods.md": _table(*rows)})
    found = findings_of("method-table-drift", root)
    by_line = {(f.location.line, f.location.column): f for f in found}
    listed = by_line[(5, rows[0].index("ListTask") + 1)]
    # the route is the evidence: ListTaskConfig is bound to GET /v1/{parent=tasks/*}/configs
    assert "is rpc `ListTaskConfig`'s" in listed.message
    created = by_line[(6, rows[1].index("CreateTask") + 1)]
    # no route evidence (the proto says `task/*`): the name plus one word is suggested
    assert "has `CreateTaskConfig`" in created.message
    route = by_line[(6, rows[1].index("POST") + 1)]
    assert "no rpc is bound" in route.message and "says `task` where the table says `tasks`" in (
        route.message
    )
    assert len(found) == 3


def test_a_method_with_no_rpc_at_all_is_one_finding(make_corpus: MakeCorpus) -> None:
    row = "| `tasks/list` | `ListTasks` | `GET /v1/tasks` |"
    root = make_corpus({"api/tasks.proto": PROTO, "docs/methods.md": _table(row)})
    (finding,) = findings_of("method-table-drift", root)
    assert "which no rpc of `tasks.v1.Tasks` has, and no rpc is bound to `GET /v1/tasks`" in (
        finding.message
    )
    assert [r.line for r in finding.related] == [7]  # the service


def test_tables_of_other_grpc_things_are_not_method_tables(make_corpus: MakeCorpus) -> None:
    page = (
        "# Retry\n\n| gRPC Code | Retryable? |\n| --- | --- |\n| CANCELLED | Yes |\n"
        "| Unavailable | Yes |\n\n| Property | gRPC | HTTP |\n| --- | --- | --- |\n"
        "| Span name | `Sent.Method` | `GET /x` |\n\n"
        "| Error (JSON-RPC / gRPC / HTTP) | When |\n| --- | --- |\n"
        "| `TaskNotFoundError` (`-32001` / `NOT_FOUND` / `404`) | never |\n"
    )
    root = make_corpus({"api/tasks.proto": PROTO, "docs/retry.md": page})
    assert findings_of("method-table-drift", root) == []


def test_without_a_proto_service_a_method_table_is_not_judged(make_corpus: MakeCorpus) -> None:
    row = "| `tasks/list` | `ListTask` | `GET /v1/tasks` |"
    root = make_corpus({"docs/methods.md": _table(row)})
    assert findings_of("method-table-drift", root) == []


def test_route_shapes_read_variables_as_wildcards() -> None:
    assert route_shape("/v1/{name=tasks/*}:cancel") == ("v1", "tasks", "{}:cancel")
    assert route_shape("/v1/tasks/{id}:cancel?x=1") == ("v1", "tasks", "{}:cancel")
    assert route_shape("v1/{parent=tasks/*}/configs") == ("v1", "tasks", "{}", "configs")
    assert route_shape("/v1/{name=files/**}") == ("v1", "files", "{}")


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


def test_a_service_fence_shown_without_its_messages_is_read_and_compared(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        '# gRPC\n\n```protobuf\nsyntax = "proto3";\npackage runs.v1;\n'
        "service Runs {\n  rpc CreateRun(CreateRunRequest) returns (Run);\n"
        "  rpc GetRun(GetRunRequest) returns (Run);\n"
        "  rpc CancelRun(CancelRunRequest) returns (google.protobuf.Empty);\n"
        "  rpc ForkRun(ForkRunRequest) returns (Run);\n}\n```\n"
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI, "spec/grpc.md": page})
    protos = corpus_protos(Context.load(root))
    excerpt = protos.fence_file(protos.fences[0])
    assert excerpt is not None
    assert [rpc.name for rpc in excerpt.services[0].rpcs] == [
        "CreateRun",
        "GetRun",
        "CancelRun",
        "ForkRun",
    ]
    assert findings_of("proto-invalid", root) == []  # an excerpt, not an error
    (finding,) = findings_of("rpc-operation-drift", root)
    assert (finding.location.path, finding.location.line) == ("spec/grpc.md", 10)
    assert "rpc `ForkRun` has no operation" in finding.message


ENUMS = """\
syntax = "proto3";
package tasks.v1;
enum TaskState {
  TASK_STATE_UNSPECIFIED = 0;
  TASK_STATE_SUBMITTED = 1;
  TASK_STATE_INPUT_REQUIRED = 2;
  TASK_STATE_CANCELLED = 3;
}
enum Role {
  ROLE_UNSPECIFIED = 0;
  ROLE_USER = 1;
  ROLE_AGENT = 2;
}
message Message {
  Role role = 1;
  repeated Role seen_by = 2;
}
"""

SCHEMA = """\
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "definitions": {
    "TaskState": {"type": "string", "enum": ["submitted", "input-required", "canceled", "unknown"]},
    "Message": {
      "type": "object",
      "properties": {
        "role": {"type": "string", "enum": ["agent", "user"]},
        "seenBy": {"type": "array", "items": {"type": "string", "enum": ["agent", "user", "tool"]}}
      }
    }
  }
}
"""


def test_a_proto_enum_and_the_schema_enum_of_its_name_or_use_are_compared(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"grpc/tasks.proto": ENUMS, "json/tasks.json": SCHEMA})
    found = sorted(findings_of("proto-enum-drift", root), key=lambda f: f.location.line)
    assert [(f.location.path, f.location.line) for f in found] == [
        ("grpc/tasks.proto", 3),
        ("grpc/tasks.proto", 9),
    ]
    state, role = found
    # by name: the prefix dropped, `-` for `_`, the zero value aside
    assert "`TASK_STATE_CANCELLED` only in the proto" in state.message
    assert "`canceled`, `unknown` only in the schema" in state.message
    assert state.related[0].pointer == "/definitions/TaskState/enum"
    # by use: Message.role agrees; Message.seen_by's items list `tool`
    assert "`Message.seenBy`" in role.message and "`tool` only in the schema" in role.message
    fixed = SCHEMA.replace('"canceled", "unknown"', '"cancelled"').replace(', "tool"', "")
    (root / "json/tasks.json").write_text(fixed)
    assert findings_of("proto-enum-drift", root) == []


def test_enum_values_written_whole_as_protojson_does_are_the_same(make_corpus: MakeCorpus) -> None:
    schema = SCHEMA.replace(
        '["submitted", "input-required", "canceled", "unknown"]',
        '["TASK_STATE_SUBMITTED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_CANCELLED"]',
    ).replace(', "tool"', "")
    root = make_corpus({"grpc/tasks.proto": ENUMS, "json/tasks.json": schema})
    assert findings_of("proto-enum-drift", root) == []


def test_an_enum_no_schema_names_is_not_compared(make_corpus: MakeCorpus) -> None:
    other = SCHEMA.replace('"TaskState"', '"TaskPhase"').replace('"Message"', '"Envelope"')
    root = make_corpus({"grpc/tasks.proto": ENUMS, "json/tasks.json": other})
    assert findings_of("proto-enum-drift", root) == []


def test_a_vendored_proto_enum_binds_nothing(make_corpus: MakeCorpus) -> None:
    # another API's proto kept in the repository is not this one's contract
    root = make_corpus({"third_party/tasks/tasks.proto": ENUMS, "json/tasks.json": SCHEMA})
    assert findings_of("proto-enum-drift", root) == []


# --- the cases a review found (each a small corpus written here) ---------------------------------


def test_cells_that_name_no_rpc_are_not_read_as_rpc_names(make_corpus: MakeCorpus) -> None:
    page = _table(
        "| `tasks/get` | `GetTask` / `CancelTask` | `GET /v1/tasks/{id}`, `POST /v1/tasks/{id}:cancel` |",
        "| `tasks/watch` | Not supported | N/A |",
        "| `tasks/x` | — | `GET /healthz` |",
        "| `tasks/y` | `GetTask` (returns `Task`) | see `GET /v1/tasks/{id}` |",
        "| `tasks/z` | `Tasks.GetTask` | `GET https://api.example.test/v1/tasks/{id}` |",
    ) + (
        "\n| Method available over gRPC | Compression method for gRPC | gRPC calls |\n"
        "| --- | --- | --- |\n| Yes | Gzip | Unary |\n"
    )
    root = make_corpus({"api/tasks.proto": PROTO, "docs/methods.md": page})
    assert findings_of("method-table-drift", root) == []


def test_a_qualified_name_is_held_to_its_own_service(make_corpus: MakeCorpus) -> None:
    two = PROTO.replace("service Tasks {", "service Tasks {").replace(
        "message GetTaskRequest {",
        "service Projects {\n  rpc GetTask(GetTaskRequest) returns (Task) {\n"
        '    option (google.api.http) = {get: "/v1/{name=projects/*}"};\n  }\n}\n\n'
        "message GetTaskRequest {",
    )
    rows = (
        "| `a` | `Tasks.GetTask` | `GET /v1/tasks/{id}` |",
        "| `b` | `Projects.GetTask` | `GET /v1/projects/{id}` |",
    )
    root = make_corpus({"api/tasks.proto": two, "docs/methods.md": _table(*rows)})
    assert findings_of("method-table-drift", root) == []
    swapped = _table(rows[0].replace("tasks/{id}", "projects/{id}"), rows[1])
    (root / "docs/methods.md").write_text(swapped)
    (finding,) = findings_of("method-table-drift", root)
    assert "for rpc `GetTask`, which the proto binds to `GET /v1/{name=tasks/*}`" in finding.message


def test_a_service_fence_that_could_not_be_read_makes_no_claim(make_corpus: MakeCorpus) -> None:
    page = (
        "# Events\n\n```proto\nservice Events {\n  rpc Watch(W) returns (stream W) {\n"
        '    option (google.api.http) = {get: "/v1/events:watch"};\n  }\n}\n```\n\n'
        + _table("| `events/watch` | `Watch` | `GET /v1/events:watch` |")
    )
    root = make_corpus({"api/tasks.proto": PROTO, "docs/events.md": page})
    assert findings_of("method-table-drift", root) == []


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


def _openapi(head: str, paths: dict[str, tuple[str, str]]) -> str:
    body = "".join(
        f"  {path}:\n    {verb}:\n      operationId: {name}\n      responses:\n"
        '        "200":\n          description: ok\n'
        for path, (verb, name) in paths.items()
    )
    return head + "paths:\n" + body


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


# --- item 4: what changed in the proto surface ---------------------------------------------------

V1 = """\
syntax = "proto3";
package tasks.v1;
import "google/api/annotations.proto";
service Tasks {
  rpc GetTask(GetTaskRequest) returns (Task) {
    option (google.api.http) = {get: "/v1/{name=tasks/*}"};
  }
  rpc DeleteTask(GetTaskRequest) returns (Task);
}
message GetTaskRequest { string name = 1; }
message Task {
  string id = 1;
  string context_id = 2;
  State state = 3;
  string note = 4;
}
enum State {
  STATE_UNSPECIFIED = 0;
  STATE_WORKING = 1;
  STATE_CANCELLED = 2;
  STATE_FAILED = 3;
}
"""

V2 = (
    V1.replace('get: "/v1/{name=tasks/*}"', 'post: "/v1/{name=tasks/*}:get" body: "*"')
    .replace("  rpc DeleteTask(GetTaskRequest) returns (Task);\n", "")
    .replace("string context_id = 2;", "string context_id = 5;")
    .replace("  string note = 4;\n", "  repeated string note = 4;\n  string owner = 6;\n")
    .replace("STATE_CANCELLED = 2;", "STATE_CANCELED = 2;")
    .replace("  STATE_FAILED = 3;\n", "  STATE_REJECTED = 4;\n")
)


def test_the_proto_surface_changes_are_listed_as_buf_breaking_judges_them(tmp_path: Path) -> None:

    base = Context.load(write_files(tmp_path / "base", {"api/tasks.proto": V1}))
    head = Context.load(write_files(tmp_path / "head", {"api/tasks.proto": V2}))
    changes = {(c.kind, c.breaking) for c in contract_changes(base, head)}
    assert changes == {
        ("rpc HTTP binding changed", True),
        ("rpc HTTP binding added", False),
        ("rpc removed", True),
        ("field renumbered", True),
        ("field type changed", True),
        ("field added", False),
        ("enum value renamed", True),
        ("enum value removed", True),
        ("enum value added", False),
    }
    renamed = next(c for c in contract_changes(base, head) if c.kind == "enum value renamed")
    assert "`STATE_CANCELLED` -> `STATE_CANCELED`" in renamed.description
    assert renamed.location.path == "api/tasks.proto" and renamed.base is not None
    assert contract_changes(base, base) == []
    # a package renamed is one change, and the definitions are still paired across it
    moved = V2.replace("package tasks.v1;", "package acme.tasks.v1;")
    head = Context.load(write_files(tmp_path / "moved", {"api/tasks.proto": moved}))
    kinds = {(c.kind, c.breaking) for c in contract_changes(base, head)}
    assert kinds == changes | {("package renamed", True)}


BASE = """\
syntax = "proto3";
package t.v1;
import "google/api/annotations.proto";
service Tasks {
  rpc Get(Task) returns (Task) {
    option (google.api.http) = {get: "/v1/{id=tasks/*}"};
  }
  rpc Send(Task) returns (Task) {
    option (google.api.http) = {post: "/v1/tasks" body: "*"};
  }
}
message Task {
  reserved 9;
  reserved "legacy";
  string id = 1;
  oneof body {
    string text = 2;
    bytes raw = 3;
  }
  string note = 4;
  map<string, string> labels = 5;
  int32 retries = 6;
  Task parent = 7;
}
enum State {
  option allow_alias = true;
  STATE_UNSPECIFIED = 0;
  STATE_CANCELLED = 1;
  STATE_CANCELED = 1;
}
"""


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        # an aliased enum unchanged, and a binding added or reordered: nothing breaks
        ((), set()),
        (
            (
                (
                    'get: "/v1/{id=tasks/*}"};',
                    'get: "/v1/{id=tasks/*}" '
                    'additional_bindings {get: "/v1/{tenant}/{id=tasks/*}"}};',
                ),
            ),
            {("rpc HTTP binding added", False)},
        ),
        ((('body: "*"', 'body: "note"'),), {("rpc HTTP binding changed", True)}),
        ((("  reserved 9;\n", ""),), {("reserved removed", True)}),
        (
            # the reservation dropped, and its name used again
            (('  reserved "legacy";\n', "  string legacy = 10;\n"),),
            {("reserved removed", True), ("reserved reused", True)},
        ),
        ((("    bytes raw = 3;\n  }", "  }\n  bytes raw = 3;"),), {("field oneof changed", True)}),
        (
            (("map<string, string> labels", "map<string, int32> labels"),),
            {("field type changed", True)},
        ),
        (
            (("int32 retries = 6;", "optional int32 retries = 6;"),),
            {("field presence changed", True)},
        ),
        (
            (("Task parent = 7;", "string tenant = 7;"),),
            {("field number reused", True)},
        ),
        (
            (("string note = 4;", 'string note = 4 [json_name = "remark"];'),),
            {("field JSON name changed", True)},
        ),
        (
            (("  STATE_CANCELED = 1;\n", ""), ("  option allow_alias = true;\n", "")),
            {("enum value renamed", True)},  # one alias of 1 gone
        ),
        (
            (("  string note = 4;\n", '  string note = 4;\n  reserved "gone";\n'),),
            set(),  # a reservation added breaks nothing
        ),
        (
            # buf RPC_SAME_IDEMPOTENCY_LEVEL (WIRE and WIRE_JSON categories)
            (
                (
                    'get: "/v1/{id=tasks/*}"};',
                    'get: "/v1/{id=tasks/*}"};\n    option idempotency_level = NO_SIDE_EFFECTS;',
                ),
            ),
            {("rpc idempotency changed", True)},
        ),
    ],
)
def test_proto_changes_follow_buf_on_the_cases_a_review_found(
    tmp_path: Path, edit: tuple[tuple[str, str], ...], expected: set[tuple[str, bool]]
) -> None:
    head_text = BASE
    for old, new in edit:
        assert old in head_text
        head_text = head_text.replace(old, new)
    base = Context.load(write_files(tmp_path / "base", {"api/t.proto": BASE}))
    head = Context.load(write_files(tmp_path / "head", {"api/t.proto": head_text}))
    assert {(c.kind, c.breaking) for c in contract_changes(base, head)} == expected


def test_a_proto2_default_changed_breaks_as_buf_judges_it(tmp_path: Path) -> None:
    # buf FIELD_SAME_DEFAULT: a reader of an unset field sees another value
    proto2 = 'syntax = "proto2";\npackage t.v1;\nmessage Page {\n  optional int32 size = 1%s;\n}\n'
    base = Context.load(write_files(tmp_path / "base", {"api/t.proto": proto2 % " [default = 10]"}))
    for head_text, expected in (
        (proto2 % " [default = 20]", {("field default changed", True)}),
        (proto2 % "", {("field default changed", True)}),  # 10 -> 0 (implicit)
        (proto2 % " [default = 10]", set()),
    ):
        head = Context.load(write_files(tmp_path / "head", {"api/t.proto": head_text}))
        changes = contract_changes(base, head)
        assert {(c.kind, c.breaking) for c in changes} == expected
        assert all("was `10`" in c.description for c in changes)


def test_a_default_is_compared_as_the_value_an_unset_field_reads(tmp_path: Path) -> None:
    # as buf compares them: no `default` is the type's zero (an enum's first value), and the
    # aliases of one number are one value
    proto2 = (
        'syntax = "proto2";\npackage t.v1;\nenum E {\n  option allow_alias = true;\n  B = 1;\n'
        "  A = 2;\n  BB = 1;\n}\nmessage M {\n  optional bool on = 1%s;\n"
        "  optional int32 n = 2%s;\n  optional E e = 3%s;\n}\n"
    )
    base = Context.load(write_files(tmp_path / "base", {"api/t.proto": proto2 % ("", "", "")}))
    same = proto2 % (" [default = false]", " [default = 0]", " [default = BB]")
    head = Context.load(write_files(tmp_path / "head", {"api/t.proto": same}))
    assert contract_changes(base, head) == []
    other = proto2 % ("", "", " [default = A]")
    head = Context.load(write_files(tmp_path / "head2", {"api/t.proto": other}))
    (change,) = contract_changes(base, head)
    assert change.kind == "field default changed" and "was `B (implicit)`, is `A`" in (
        change.description
    )


def test_a_proto_that_does_not_compile_at_one_revision_is_not_compared_and_that_breaks(
    tmp_path: Path,
) -> None:
    base = Context.load(write_files(tmp_path / "base", {"api/t.proto": BASE}))
    broken = BASE.replace("string id = 1;", "string id = 1")
    head = Context.load(write_files(tmp_path / "head", {"api/t.proto": broken}))
    [change] = contract_changes(base, head)
    assert (change.kind, change.breaking) == ("proto not compared", True)
    assert "at the head revision" in change.description and "api/t.proto" in change.description
    # broken alike at both revisions: nothing to say; vendored protos are another API's
    assert contract_changes(head, head) == []
    vendored = {"third_party/t.proto": BASE}
    base = Context.load(write_files(tmp_path / "vb", vendored))
    head = Context.load(
        write_files(
            tmp_path / "vh", {"third_party/t.proto": BASE.replace("  string note = 4;\n", "")}
        )
    )
    assert contract_changes(base, head) == []


def test_a_package_swapped_for_an_unrelated_one_is_no_rename(tmp_path: Path) -> None:
    other = 'syntax = "proto3";\npackage billing.v1;\nmessage Invoice { string id = 1; }\n'
    base = Context.load(write_files(tmp_path / "base", {"api/t.proto": BASE}))
    head = Context.load(write_files(tmp_path / "head", {"api/t.proto": other}))
    kinds = {c.kind for c in contract_changes(base, head)}
    assert "package renamed" not in kinds
    assert {"message removed", "service removed", "message added"} <= kinds
    removed = [c for c in contract_changes(base, head) if c.kind == "service removed"]
    assert [c.description.split("`")[1] for c in removed] == ["t.v1.Tasks"]
    assert "rpc removed" not in kinds  # said with their service


def test_a_map_of_a_renamed_packages_message_is_requalified_as_other_field_types(
    tmp_path: Path,
) -> None:
    # a package rename is one change: a map's value type is read in the new package, as a
    # message field's type is, and a value type that really changed is still one
    proto = (
        'syntax = "proto3";\npackage a.v1;\nmessage Part { string t = 1; }\n'
        "message Other { string t = 1; }\n"
        "message Msg {\n  map<string, Part> parts = 1;\n  Part one = 2;\n}\n"
    )
    base = Context.load(write_files(tmp_path / "base", {"api/a.proto": proto}))
    renamed = proto.replace("a.v1", "a.v2")
    head = Context.load(write_files(tmp_path / "head", {"api/a.proto": renamed}))
    assert [c.kind for c in contract_changes(base, head)] == ["package renamed"]
    retyped = renamed.replace("map<string, Part>", "map<string, Other>")
    head = Context.load(write_files(tmp_path / "retyped", {"api/a.proto": retyped}))
    [changed] = [c for c in contract_changes(base, head) if c.kind != "package renamed"]
    assert changed.kind == "field type changed"
    assert "is `map<string, a.v2.Other>`" in changed.description


def test_base_paths_read_server_variables_and_swagger_base_path(make_corpus: MakeCorpus) -> None:
    # the shared mechanism the example binding reads too (`operations.named_operations`)
    paths = {"/tasks/{name}": ("get", "getTask")}
    head = (
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers:\n"
        "  - url: https://api.example.test/{version}\n    variables:\n"
        "      version: {default: v1}\n"
    )
    root = make_corpus({"openapi.yaml": _openapi(head, paths)})
    corpus = Context.load(root)
    assert [op.path for op in named_operations(corpus, "GET /v1/tasks/{id}")] == ["/tasks/{name}"]
    swagger = "swagger: '2.0'\ninfo: {title: t, version: '1'}\nbasePath: /api/\n"
    (root / "openapi.yaml").write_text(_openapi(swagger, paths))
    corpus = Context.load(root)
    assert [op.path for op in named_operations(corpus, "GET /api/tasks/{id}")] == ["/tasks/{name}"]
    assert named_operations(corpus, "GET /v1/tasks/{id}") == ()


# --- a method table's JSON-RPC methods and REST routes (issue 30, item 3d) -----------------------

METHODS_SCHEMA = """\
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "GetTaskRequest": {
      "type": "object",
      "properties": {
        "jsonrpc": {"const": "2.0"},
        "method": {"const": "tasks/get"},
        "params": {"type": "object"}
      }
    },
    "CancelTaskRequest": {
      "type": "object",
      "properties": {
        "jsonrpc": {"const": "2.0"},
        "method": {"const": "tasks/cancel"},
        "params": {"type": "object"}
      }
    },
    "Route": {
      "type": "object",
      "properties": {"method": {"const": "tasks/list"}, "path": {"type": "string"}}
    }
  }
}
"""


def test_a_json_rpc_method_no_request_schema_defines_is_reported_and_fixed_is_quiet(
    make_corpus: MakeCorpus,
) -> None:
    rows = (
        "| `tasks/get` | `GetTask` | `GET /v1/tasks/{id}` |",
        "| `tasks/cancel` | `CancelTask` | `POST /v1/tasks/{id}:cancel` |",
        "| `tasks/list` | `ListTaskConfig` | `GET /v1/tasks/{id}/configs` |",
    )
    files: dict[str, str | bytes] = {
        "api/tasks.proto": PROTO,
        "schemas/methods.json": METHODS_SCHEMA,
        "docs/methods.md": _table(*rows),
    }
    root = make_corpus(files)
    # `Route` fixes a `method` but is no JSON-RPC envelope (no `jsonrpc`, no `params`)
    (finding,) = findings_of("method-table-drift", root)
    assert (finding.location.path, finding.location.line, finding.location.column) == (
        "docs/methods.md",
        7,
        4,  # the method's first letter, inside its code span
    )
    assert "JSON-RPC method `tasks/list`, which no request schema" in finding.message
    (related,) = finding.related
    assert related.path == "schemas/methods.json" and related.line == 8  # tasks/get's method
    defined = METHODS_SCHEMA.replace('"path": {"type": "string"}', '"params": {"type": "object"}')
    (root / "schemas/methods.json").write_text(defined)
    assert findings_of("method-table-drift", root) == []


def test_a_json_rpc_method_differing_in_case_is_named_and_openrpc_defines_methods(
    make_corpus: MakeCorpus,
) -> None:
    # OpenRPC 1.x: a method may be a Reference Object, read through
    openrpc = (
        '{"openrpc": "1.2.6", "info": {"title": "t", "version": "1"}, "methods": ['
        '{"name": "tasks_get", "params": [], "result": {"name": "r", "schema": {}}},'
        '{"$ref": "#/components/x/cancel"}],'
        '"components": {"x": {"cancel": {"name": "tasks_cancel", "params": [], '
        '"result": {"name": "r", "schema": {}}}}}}'
    )
    rows = (
        "| `tasks_get` | `GetTask` | |",
        "| `tasks_cancel` | `CancelTask` | |",
        "| `Tasks_Cancel` | `CancelTask` | |",
    )
    root = make_corpus(
        {"api/tasks.proto": PROTO, "openrpc.json": openrpc, "docs/methods.md": _table(*rows)}
    )
    (finding,) = findings_of("method-table-drift", root)
    assert "`tasks_cancel` is defined: write it so" in finding.message
    assert "add it to the OpenRPC document's methods" in finding.message
    assert [(r.path, r.pointer) for r in finding.related] == [
        ("openrpc.json", "/components/x/cancel/name")
    ]
    # A method given by another file's reference: the methods are not all known, none judged.
    unknown = openrpc.replace('"#/components/x/cancel"', '"other.json#/cancel"')
    (root / "openrpc.json").write_text(unknown)
    assert findings_of("method-table-drift", root) == []


def test_a_table_few_of_whose_methods_are_defined_or_that_says_only_is_not_held(
    make_corpus: MakeCorpus,
) -> None:
    # One method of three defined: the table is not bound to these definitions.
    rows = (
        "| `tasks/get` | `GetTask` | |",
        "| `jobs/get` | `GetTask` | |",
        "| `jobs/cancel` | `CancelTask` | |",
    )
    files: dict[str, str | bytes] = {
        "api/tasks.proto": PROTO,
        "schemas/methods.json": METHODS_SCHEMA,
        "docs/methods.md": _table(*rows),
    }
    root = make_corpus(files)
    assert findings_of("method-table-drift", root) == []
    # A row that says the method is of other transports only gives no JSON-RPC method.
    rows = (
        "| `tasks/get` | `GetTask` | |",
        "| `tasks/cancel` | `CancelTask` | |",
        "| `tasks/list` | `ListTaskConfig` | List configs (gRPC/REST only) |",
    )
    (root / "docs/methods.md").write_text(_table(*rows))
    assert findings_of("method-table-drift", root) == []


def test_cells_and_columns_that_name_no_json_rpc_method_are_not_read(
    make_corpus: MakeCorpus,
) -> None:
    # A bare "JSON-RPC" column compares properties; prose cells ("Unsupported", "SSE") are no
    # methods; every code span of a method cell is one, located in its own cell.
    page = (
        "# Transports\n\n| Feature | JSON-RPC | gRPC | HTTP+JSON/REST |\n| --- | --- | --- | --- |\n"
        "| Send | `tasks/get` | yes | `GET /v1/tasks/{id}` |\n"
        "| Cancel | `tasks/cancel` | yes | `POST /v1/tasks/{id}:cancel` |\n"
        "| Auth | Bearer | Bearer | Bearer |\n\n"
        + HEADER.replace("# Methods\n\n", "")
        + "| `tasks/get` | `GetTask` | |\n| `tasks/cancel` | `CancelTask` | |\n"
        "| Unsupported | `ListTaskConfig` | |\n| SSE | `ListTaskConfig` | |\n"
        "| `tasks/get`, `tasks/gets` | `GetTask` | |\n"
    )
    files: dict[str, str | bytes] = {
        "api/tasks.proto": PROTO,
        "schemas/methods.json": METHODS_SCHEMA,
        "docs/methods.md": page,
    }
    root = make_corpus(files)
    (finding,) = findings_of("method-table-drift", root)
    last = page.rstrip("\n").split("\n")[-1]
    assert finding.location.line == page.count("\n")
    assert finding.location.column == last.index("tasks/gets") + 1
    assert "`tasks/gets`" in finding.message


def test_json_rpc_methods_of_another_version_or_an_http_verb_define_nothing(
    make_corpus: MakeCorpus,
) -> None:
    verbs = METHODS_SCHEMA.replace(
        '"method": {"const": "tasks/list"}', '"method": {"enum": ["GET", "POST"]}'
    ).replace('"path": {"type": "string"}', '"params": {"type": "object"}')
    rows = (
        "| `tasks/get` | `GetTask` | |",
        "| `tasks/cancel` | `CancelTask` | |",
        "| `GET` | `GetTask` | |",
    )
    root = make_corpus(
        {"api/tasks.proto": PROTO, "schemas/methods.json": verbs, "docs/methods.md": _table(*rows)}
    )
    (finding,) = findings_of("method-table-drift", root)
    assert "JSON-RPC method `GET`" in finding.message


def test_a_table_is_held_to_the_json_rpc_methods_of_its_own_version(
    make_corpus: MakeCorpus,
) -> None:
    # the 2024 page's table is held to the 2024 schemas, not to the 2025 ones
    newer = METHODS_SCHEMA.replace('"tasks/list"', '"tasks/watch"').replace(
        '"path": {"type": "string"}', '"params": {"type": "object"}'
    )
    rows = (
        "| `tasks/get` | `GetTask` | |",
        "| `tasks/cancel` | `CancelTask` | |",
        "| `tasks/watch` | `GetTask` | |",
    )
    root = make_corpus(
        {
            "api/tasks.proto": PROTO,
            "schema/2024-11-05/schema.json": METHODS_SCHEMA,
            "schema/2025-03-26/schema.json": newer,
            "docs/2024-11-05/methods.md": _table(*rows),
            "docs/2025-03-26/methods.md": _table(*rows),
        }
    )
    (finding,) = findings_of("method-table-drift", root)
    assert finding.location.path == "docs/2024-11-05/methods.md"
    assert "`tasks/watch`" in finding.message


TASKS_API = """\
openapi: 3.1.0
info: {title: Tasks, version: 1.0.0}
servers:
  - url: https://api.example.test/v1
paths:
  /tasks/{id}:
    get:
      operationId: getTask
      responses: {"200": {description: the task}}
  /tasks/{id}:cancel:
    post:
      operationId: cancelTask
      responses: {"200": {description: cancelled}}
  /tasks:
    get:
      operationId: listTasks
      responses: {"200": {description: the tasks}}
"""

ROUTE_TABLE = "# Methods\n\n| JSON-RPC Method | REST Endpoint |\n| --- | --- |\n"


def test_a_route_no_operation_has_is_reported_with_the_nearest_and_fixed_is_quiet(
    make_corpus: MakeCorpus,
) -> None:
    # No gRPC column: a JSON-RPC column beside a REST one is a method table too. A route
    # written as a google.api.http template is read as one.
    page = ROUTE_TABLE + (
        "| `tasks/get` | `GET /v1/{name=tasks/*}` |\n| `tasks/list` | `GET /v1/tasks` |\n"
        "| `tasks/cancel` | `GET /v1/tasks/{id}:cancel` |\n"
    )
    root = make_corpus({"api/openapi.yaml": TASKS_API, "docs/methods.md": page})
    (finding,) = findings_of("method-table-drift", root)
    assert finding.location.line == 7
    assert finding.location.column == page.split("\n")[6].index("GET") + 1
    assert "`GET /v1/tasks/{id}:cancel` (for `tasks/cancel`), which is no operation" in (
        finding.message
    )
    assert "the nearest is `POST /tasks/{id}:cancel`, which is POST" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("api/openapi.yaml", 11)]
    fixed = page.replace("GET /v1/tasks/{id}:c", "POST /v1/tasks/{id}:c")
    (root / "docs/methods.md").write_text(fixed)
    assert findings_of("method-table-drift", root) == []


def test_a_table_whose_routes_are_no_operation_of_the_api_is_not_held_to_it(
    make_corpus: MakeCorpus,
) -> None:
    # Another API's routes (one generic route the API has too): not bound.
    page = ROUTE_TABLE + (
        "| `jobs/get` | `GET /v1/tasks` |\n| `jobs/stop` | `POST /v2/jobs` |\n"
        "| `jobs/list` | `GET /v2/jobs` |\n"
    )
    root = make_corpus({"api/openapi.yaml": TASKS_API, "docs/methods.md": page})
    assert findings_of("method-table-drift", root) == []
    # A path one segment off is said with the operation it nearly is; one of a single segment
    # below the base path is near nothing.
    page = ROUTE_TABLE + (
        "| `tasks/get` | `GET /v1/tasks/{id}` |\n| `tasks/list` | `GET /v1/tasks` |\n"
        "| `x` | `POST /v1/task/{id}:cancel` |\n| `y` | `GET /v1/health` |\n"
    )
    (root / "docs/methods.md").write_text(page)
    near, health = findings_of("method-table-drift", root)
    assert "whose path says `tasks` where the table says `task`" in near.message
    assert "nearest" not in health.message
    assert [r.note for r in health.related] == ["the API's paths"]


# --- prose lists bound to a proto enum (issue 30, item 3a) ---------------------------------------

STATUS = ENUMS.replace(
    "message Message {", "message TaskStatus {\n  TaskState state = 1;\n}\nmessage Message {"
)


def test_a_prose_list_of_an_enum_typed_field_is_held_to_the_proto_enum(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Tasks\n\nThe `state` of a task is one of:\n\n- `submitted`: accepted\n"
        "- `input-required`: waiting\n- `canceled`: stopped\n"
    )
    root = make_corpus({"grpc/tasks.proto": STATUS, "docs/tasks.md": page})
    (finding,) = findings_of("proto-enum-drift", root)
    assert (finding.location.path, finding.location.line) == ("docs/tasks.md", 5)
    assert "`canceled` only in the prose" in finding.message
    assert "`TASK_STATE_CANCELLED` only in the proto" in finding.message
    assert "the field `TaskStatus.state` of the enum's type" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("grpc/tasks.proto", 3)]
    # The proto's spellings (whole or short, any case) agree; its zero value is not expected.
    page = page.replace("`canceled`", "`TASK_STATE_CANCELLED`").replace(
        "`submitted`", "`SUBMITTED`"
    )
    (root / "docs/tasks.md").write_text(page)
    assert findings_of("proto-enum-drift", root) == []


def test_a_prose_list_names_its_enum_and_a_few_values_in_passing_lack_none(
    make_corpus: MakeCorpus,
) -> None:
    # Named explicitly (`TaskState`), the list binds though its field is not the enum's.
    page = "# Tasks\n\nA `TaskState` is one of `submitted` | `paused` | `input-required`.\n"
    root = make_corpus({"grpc/tasks.proto": STATUS, "docs/tasks.md": page})
    (finding,) = findings_of("proto-enum-drift", root)
    assert "`paused` only in the prose" in finding.message
    assert "the text names `TaskState`" in finding.message
    # A few values named in passing: only a value the enum lacks would be drift.
    page = "# Tasks\n\nOnce the task's `state` flips to `submitted` / `cancelled`, it is kept.\n"
    (root / "docs/tasks.md").write_text(page)
    assert findings_of("proto-enum-drift", root) == []


def test_a_prose_list_bound_to_a_schema_enum_or_in_a_proposal_is_not_paired_with_the_proto(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Tasks\n\nThe `role` is one of `agent` | `user` | `tool`.\n"
    files: dict[str, str | bytes] = {
        "grpc/tasks.proto": STATUS,
        "json/tasks.json": SCHEMA,
        "docs/tasks.md": page,
    }
    root = make_corpus(files)
    # bound to `Message.role` of the schema: enum-drift's, not this rule's (which compares
    # that schema enum with the proto's, at the proto)
    found = findings_of("proto-enum-drift", root)
    assert found and {f.location.path for f in found} == {"grpc/tasks.proto"}
    assert findings_of("enum-drift", root) != []
    proposal = (
        "# RFC 0007: Roles\n\n- **Status:** Draft\n- **Authors:** A. Author\n"
        "- **Created:** 2026-01-01\n\nThe `role` is one of `agent` | `user` | `tool`.\n"
    )
    (root / "json/tasks.json").unlink()
    (root / "docs/tasks.md").unlink()
    write_files(root, {"rfcs/0007-roles.md": proposal})
    assert findings_of("proto-enum-drift", root) == []
    write_files(root, {"docs/tasks.md": page})
    (finding,) = findings_of("proto-enum-drift", root)
    assert "`TOOL`" not in finding.message and "`tool` only in the prose" in finding.message


NESTED = """\
syntax = "proto3";
package runs.v1;
message Task {
  enum State {
    STATE_UNSPECIFIED = 0;
    QUEUED = 1;
    RUNNING = 2;
    DONE = 3;
  }
  State state = 1;
}
message Run {
  enum State {
    RUN_STATE_UNSPECIFIED = 0;
    RUN_STATE_QUEUED = 1;
    RUN_STATE_RUNNING = 2;
    RUN_STATE_FAILED = 3;
  }
  State state = 1;
}
"""


def test_a_nested_enum_is_named_by_its_message_and_a_list_two_enums_hold_binds_neither(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Lifecycle\n\n"
        "The `state` MUST be one of `queued`, `running`.\n\n"  # both enums hold both: unbound
        "A `Run.State` is one of `queued`, `running`, `paused`.\n\n"
        "Supported values of `Task.State` are: `queued`, `running`, `done`.\n"
    )
    root = make_corpus({"api/runs.proto": NESTED, "docs/runs.md": page})
    (finding,) = findings_of("proto-enum-drift", root)
    assert finding.location.line == 5
    assert "proto enum `Run.State`" in finding.message
    assert "`paused` only in the prose" in finding.message
    assert "`RUN_STATE_FAILED` only in the proto" in finding.message
    assert "the text names `Run.State`" in finding.message
    # (line 7 agrees with `Task.State`: the enum's own name among the values is no value)


def test_a_list_in_a_design_folder_states_a_change_and_binds_no_proto_enum(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Renaming\n\nA `Run.State` is one of `queued`, `running`, `paused`.\n"
    root = make_corpus({"api/runs.proto": NESTED, "adrs/adr-003-states.md": page})
    assert findings_of("proto-enum-drift", root) == []
    write_files(root, {"docs/runs.md": page})
    assert [f.location.path for f in findings_of("proto-enum-drift", root)] == ["docs/runs.md"]


# --- the cases a second review found ------------------------------------------------------------


def test_a_table_without_a_grpc_column_is_not_held_to_the_protos(make_corpus: MakeCorpus) -> None:
    # JSON-RPC over one HTTP endpoint: its routes are no rpc's google.api.http binding
    page = ROUTE_TABLE + (
        "| `tasks/get` | `POST /rpc` |\n| `tasks/cancel` | `POST /rpc` |\n"
        "| `tasks/list` | `POST /rpc` |\n"
    )
    files: dict[str, str | bytes] = {
        "api/tasks.proto": PROTO,
        "schemas/methods.json": METHODS_SCHEMA.replace(
            '"path": {"type": "string"}', '"params": {"type": "object"}'
        ),
        "docs/methods.md": page,
    }
    root = make_corpus(files)
    assert findings_of("method-table-drift", root) == []


def test_plain_cells_links_and_split_cells_are_read_as_gfm_does(make_corpus: MakeCorpus) -> None:
    page = (
        "# Methods\n\n| Note | JSON-RPC Method | gRPC Method |\n| --- | --- | --- |\n"
        "| | `tasks/get` | `GetTask` |\n| | `tasks/cancel` | `CancelTask` |\n"
        "| | deprecated | `GetTask` |\n"  # a word of prose, no method
        "| | [tasks/getx](#get) | `GetTask` |\n"  # a link's text is the method
        "| get \\| `tasks/gety` | `tasks/gety` | `GetTask` |\n"  # an escaped pipe splits nothing
    )
    files: dict[str, str | bytes] = {
        "api/tasks.proto": PROTO,
        "schemas/methods.json": METHODS_SCHEMA,
        "docs/methods.md": page,
    }
    root = make_corpus(files)
    found = sorted(findings_of("method-table-drift", root), key=lambda f: f.location.line)
    last = page.split("\n")[8]
    assert [(f.location.line, f.location.column) for f in found] == [
        (8, 6),
        (9, last.index("tasks/gety", last.index("` |")) + 1),  # its own cell's, not the note's
    ]
    assert "`tasks/getx`" in found[0].message


def test_express_parameters_are_variables_and_hints_say_segments_as_written(
    make_corpus: MakeCorpus,
) -> None:
    page = ROUTE_TABLE + (
        "| `tasks/get` | `GET /v1/tasks/:taskId` |\n| `tasks/list` | `GET /v1/tasks` |\n"
        "| `tasks/watch` | `GET /v1/tasks/{id}:watch` |\n"
        "| `tasks/runs` | `GET /v1/tasks/{id}/runs` |\n"  # no `/tasks/{id}`: one variable each
    )
    root = make_corpus({"api/openapi.yaml": TASKS_API, "docs/methods.md": page})
    watch, runs = sorted(findings_of("method-table-drift", root), key=lambda f: f.location.line)
    assert "whose path says `{id}` where the table says `{id}:watch`" in watch.message
    assert "`GET /v1/tasks/{id}/runs`" in runs.message


def test_bindings_list_a_method_table_of_a_corpus_without_a_proto(tmp_path: Path) -> None:
    page = ROUTE_TABLE + (
        "| `tasks/get` | `GET /v1/tasks/{id}` |\n| `tasks/list` | `GET /v1/tasks` |\n"
        "| `tasks/gone` | `GET /v1/gone` |\n"
    )
    root = write_files(tmp_path, {"api/openapi.yaml": TASKS_API, "docs/methods.md": page})
    result = CliRunner().invoke(main, ["bindings", str(root)])
    assert result.exit_code == 0, result.output
    assert "-> api/openapi.yaml GET /tasks/{id} (by its route)" in result.output
    assert "(`GET /v1/gone` is no operation of api/openapi.yaml)" in result.output
    assert "speclint: 2 method-table binding(s); 1 pair(s) not bound" in result.output
    assert "proto binding" not in result.output


# --- one disagreement, many places (issue 44 item 7) ---------------------------------------------


def protos_and_schemas(
    protos: int, schemas: int, values: tuple[str, ...] = ("x", "y", "z")
) -> dict[str, str | bytes]:
    """``protos`` proto files (a package each) whose `TaskState` is `X`, `Y`, `Q`, and
    ``schemas`` schemas whose `$defs/TaskState` lists ``values``: every proto enum binds to every
    schema enum by its name."""
    files: dict[str, str | bytes] = {
        f"protos/p{n}.proto": (
            f'syntax = "proto3";\npackage scale.p{n};\nenum TaskState {{\n'
            "  TASK_STATE_UNSPECIFIED = 0;\n  TASK_STATE_X = 1;\n  TASK_STATE_Y = 2;\n"
            "  TASK_STATE_Q = 3;\n}\n"
        )
        for n in range(protos)
    }
    for n in range(schemas):
        files[f"schemas/s{n}.schema.json"] = json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {"TaskState": {"type": "string", "enum": list(values)}},
            },
            indent=2,
        )
    return files


@pytest.mark.parametrize(("protos", "schemas"), [(1, 1), (2, 3), (4, 6)])
def test_alike_proto_enums_against_alike_schema_enums_are_one_disagreement(
    make_corpus: MakeCorpus, protos: int, schemas: int
) -> None:
    # One finding whatever the number of protos and schemas (it was one per proto and schema):
    # at the first proto enum, every schema enum and the other proto enums related.
    (finding,) = findings_of("proto-enum-drift", make_corpus(protos_and_schemas(protos, schemas)))
    assert (finding.location.path, finding.location.line) == ("protos/p0.proto", 3)
    assert "`TASK_STATE_Q` only in the proto; `z` only in the schema" in finding.message
    schema_paths = [f"schemas/s{n}.schema.json" for n in range(schemas)]
    proto_paths = [f"protos/p{n}.proto" for n in range(1, protos)]
    assert [r.path for r in finding.related] == schema_paths + proto_paths
    assert finding.related[0].note == "the schema's values: x, y, z"
    if protos > 1:
        others = f"(and {protos - 1} other{'s' if protos > 2 else ''} of the same values)"
        assert f"proto enum `TaskState` {others}" in finding.message
    if schemas > 1:
        assert f"`TaskState` (and {schemas - 1} others of the same values) disagree" in (
            finding.message
        )


def test_a_grouped_proto_enum_finding_keeps_the_fingerprint_of_its_first_pair(
    make_corpus: MakeCorpus,
) -> None:
    # A baseline taken when one proto and one schema disagreed still holds the finding once
    # more protos and schemas repeat the disagreement.
    (alone,) = findings_of("proto-enum-drift", make_corpus(protos_and_schemas(1, 1)))
    (grouped,) = findings_of("proto-enum-drift", make_corpus(protos_and_schemas(4, 6)))
    assert grouped.fingerprint == alone.fingerprint


def test_a_proto_enum_against_schema_enums_of_other_values_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    files = protos_and_schemas(2, 2)
    files.update(
        (f"schemas/w{n}.schema.json", text)
        for n, text in enumerate(protos_and_schemas(0, 3, ("x", "y", "w")).values())
    )
    (finding,) = findings_of("proto-enum-drift", make_corpus(files))
    assert finding.location.path == "protos/p0.proto"
    assert "disagrees with 2 JSON Schema enums bound to it, each of other values" in (
        finding.message
    )
    # each group's schema enums, the first of each with its values and what differs
    assert [(r.path, r.note) for r in finding.related] == [
        (
            "schemas/s0.schema.json",
            "the schema's values: x, y, z (`TASK_STATE_Q` only in the proto; `z` only in the schema)",
        ),
        ("schemas/s1.schema.json", "a schema enum of the same values as the one above"),
        (
            "schemas/w0.schema.json",
            "the schema's values: x, y, w (`TASK_STATE_Q` only in the proto; `w` only in the schema)",
        ),
        ("schemas/w1.schema.json", "a schema enum of the same values as the one above"),
        ("schemas/w2.schema.json", "a schema enum of the same values as the one above"),
        ("protos/p1.proto", "a proto enum of the same values"),
    ]


def test_proto_enums_of_distinct_values_against_schema_enums_of_distinct_values_grow_linearly(
    make_corpus: MakeCorpus,
) -> None:
    # issue 44, item 7: every proto enum bound to every schema enum, each pair a disagreement
    # of its own, was protos × schemas findings (120 × 1,000: 120,000); one per proto enum
    files: dict[str, str | bytes] = {}
    for n in range(6):
        (proto,) = protos_and_schemas(1, 0).values()
        assert isinstance(proto, str)
        files[f"protos/p{n}.proto"] = proto.replace("scale.p0", f"scale.p{n}").replace(
            "TASK_STATE_Q", f"TASK_STATE_P{n}"
        )
    for n in range(8):
        (schema,) = protos_and_schemas(0, 1, ("x", "y", f"z{n}")).values()
        files[f"schemas/s{n}.schema.json"] = schema
    found = findings_of("proto-enum-drift", make_corpus(files))
    assert sorted(f.location.path for f in found) == [f"protos/p{n}.proto" for n in range(6)]
    assert all("disagrees with 8 JSON Schema enums" in f.message for f in found)
    assert all(len(f.related) == 8 for f in found)


def test_proto_enum_drift_caps_its_related_locations_and_says_how_many_are_left_out(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proto_enum_drift, "RELATED_LIMIT", 5)
    (finding,) = findings_of("proto-enum-drift", make_corpus(protos_and_schemas(4, 6)))
    # 6 schema enums and 3 other proto enums: 9 places besides the finding's own, 5 related
    assert len(finding.related) == 5
    assert finding.message.endswith(
        "\nThe related locations list 5 of its 9 other places, and 4 more are not listed"
    )
    assert {r.path.split("/")[0] for r in finding.related} == {"schemas", "protos"}
    assert finding.related[0].path == "schemas/s0.schema.json"


def test_each_distinct_proto_enum_is_compared_once_with_each_group_of_alike_schema_enums(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus(protos_and_schemas(4, 6))
    compared: list[Any] = []
    read: list[Any] = []
    real_compare, real_strings = proto_enum_drift._compare, protojson._strings

    def comparing(*arguments: Any) -> Any:
        compared.append(arguments)
        return real_compare(*arguments)

    def reading(schema: Any) -> Any:
        read.append(schema)
        return real_strings(schema)

    monkeypatch.setattr(proto_enum_drift, "_compare", comparing)
    monkeypatch.setattr(protojson, "_strings", reading)
    assert len(findings_of("proto-enum-drift", root)) == 1
    # 4 alike proto enums and 6 alike schema enums: one comparison (it was 24), and each
    # schema enum read once (it was once per proto enum)
    assert len(compared) == 1
    assert len(read) == 6


def test_pages_repeating_a_list_bound_to_a_proto_enum_are_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Tasks {n}\n\nA `TaskState` is one of `x` | `y` | `paused`.\n"
    files = protos_and_schemas(1, 0)
    (alone,) = findings_of(
        "proto-enum-drift", make_corpus({**files, "docs/t0.md": page.format(n=0)})
    )
    files.update((f"docs/t{n}.md", page.format(n=n)) for n in range(3))
    (finding,) = findings_of("proto-enum-drift", make_corpus(files))
    assert (finding.location.path, finding.location.line) == ("docs/t0.md", 3)
    assert "`paused` only in the prose" in finding.message
    assert "here (and 2 others of the same values) and proto enum `TaskState`" in finding.message
    assert [(r.path, r.note) for r in finding.related] == [
        (
            "protos/p0.proto",
            "the proto's values: TASK_STATE_UNSPECIFIED, TASK_STATE_X, TASK_STATE_Y, TASK_STATE_Q",
        ),
        ("docs/t1.md", "lists the same 3 values"),
        ("docs/t2.md", "lists the same 3 values"),
    ]
    assert finding.fingerprint == alone.fingerprint


@pytest.mark.parametrize("page", ["oteps/0042-status.md", "docs/status.md"])
def test_a_proto_fence_of_a_proposal_does_not_bind_the_normative_prose(
    make_corpus: MakeCorpus, page: str
) -> None:
    # An enhancement proposal sketches `StatusCode` as a proto; the spec lists the codes it
    # settled on. The spec is not held to the sketch (a false finding in a real repository);
    # the same fence on a page of the specification itself binds.
    sketch = (
        '# Status\n\n```proto\nsyntax = "proto3";\npackage draft;\n'
        "enum StatusCode {\n  OK = 0;\n  ERROR = 1;\n}\n```\n"
    )
    spec = (
        "# Tracing\n\n`StatusCode` is one of the following values:\n\n"
        "- `Unset`\n  - The default.\n- `Ok`\n  - Done.\n- `Error`\n  - Failed.\n"
    )
    root = make_corpus({page: sketch, "specification/api.md": spec})
    found = findings_of("proto-enum-drift", root)
    if page.startswith("oteps/"):
        assert found == []
    else:
        (finding,) = found
        assert finding.location.path == "specification/api.md"
        assert "`Unset` only in the prose" in finding.message


def test_a_language_file_option_added_changed_or_removed_breaks_as_buf_judges_it(
    tmp_path: Path,
) -> None:
    # buf's FILE_SAME_* rules (PACKAGE category): generated code moves to another namespace,
    # package or class, so code that imported it no longer compiles
    proto = 'syntax = "proto3";\npackage t.v1;\n%s\nmessage Job { string id = 1; }\n'
    base = Context.load(
        write_files(tmp_path / "base", {"api/t.proto": proto % 'option go_package = "t/v1";'})
    )
    for options, expected in (
        ('option go_package = "t/v1";', []),
        (
            'option go_package = "t/v1";\noption csharp_namespace = "T.V1";',
            [("file option changed", True, "csharp_namespace")],
        ),
        ('option go_package = "t/v2";', [("file option changed", True, "go_package")]),
        ("", [("file option changed", True, "go_package")]),
        (
            'option go_package = "t/v1";\noption java_multiple_files = true;',
            [("file option changed", True, "java_multiple_files")],
        ),
    ):
        head = Context.load(write_files(tmp_path / "head", {"api/t.proto": proto % options}))
        changes = contract_changes(base, head)
        assert [(c.kind, c.breaking, c.description.split("`")[1]) for c in changes] == expected
        assert all(c.location.path == "api/t.proto" for c in changes)
