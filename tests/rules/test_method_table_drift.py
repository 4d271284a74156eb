"""``method-table-drift`` on fixtures written here, one test a case, named after it. The rule: a
method table in the prose that names a gRPC method, JSON-RPC method or route the protos,"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_surfaces import TASKS_API

from conftest import findings_of

# Issue 30, item 3: the gRPC surface against the prose's method tables (method-table-drift) and
# the OpenAPI document (rpc-operation-drift). Every corpus here is written for the test.


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


ROUTE_TABLE = "# Methods\n\n| JSON-RPC Method | REST Endpoint |\n| --- | --- |\n"


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
