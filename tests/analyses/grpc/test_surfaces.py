"""The gRPC surface (``speclint.analyses.grpc.surfaces``): how a proto service, its HTTP
annotations and the prose that documents it are read together, apart from what one rule finds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import write_files
from speclint.analyses.api.operations import named_operations
from speclint.analyses.changes.proto_changes import contract_changes
from speclint.analyses.context import Context
from speclint.analyses.grpc.surfaces import route_shape
from speclint.frontends.cli import main

# Issue 30, item 3: the gRPC surface against the prose's method tables (method-table-drift) and
# the OpenAPI document (rpc-operation-drift). Every corpus here is written for the test.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _openapi(head: str, paths: dict[str, tuple[str, str]]) -> str:
    body = "".join(
        f"  {path}:\n    {verb}:\n      operationId: {name}\n      responses:\n"
        '        "200":\n          description: ok\n'
        for path, (verb, name) in paths.items()
    )
    return head + "paths:\n" + body


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


def test_route_shapes_read_variables_as_wildcards() -> None:
    assert route_shape("/v1/{name=tasks/*}:cancel") == ("v1", "tasks", "{}:cancel")
    assert route_shape("/v1/tasks/{id}:cancel?x=1") == ("v1", "tasks", "{}:cancel")
    assert route_shape("v1/{parent=tasks/*}/configs") == ("v1", "tasks", "{}", "configs")
    assert route_shape("/v1/{name=files/**}") == ("v1", "files", "{}")


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
