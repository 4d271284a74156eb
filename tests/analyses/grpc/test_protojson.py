"""Issue 30, item 3b: a proto message against the JSON Schema definition of its name, as ProtoJSON
writes the message (proto-message-drift), and the pairs ``speclint bindings`` lists. Every corpus
here is written for the test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import findings_of
from speclint.analyses.grpc.protojson import described, field_types, schema_types
from speclint.analyses.grpc.surfaces import path_fields
from speclint.frontends.cli import main
from speclint.parsing.protobuf import ProtoField

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PROTO = """\
syntax = "proto3";
package tasks.v1;

import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";

message Task {
  string id = 1;
  string context_id = 2;
  int32 retries = 3;
  repeated string labels = 4;
  map<string, string> annotations = 5;
  google.protobuf.Timestamp created_at = 6;
  google.protobuf.Struct metadata = 7;
  int64 size_bytes = 8;
  string display = 9 [json_name = "title"];
}

message SendMessageRequest {
  string text = 1;
  google.protobuf.Struct metadata = 2;
}
"""


def _schema(task: dict[str, Any], **more: Any) -> str:
    return json.dumps(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"Task": task, **more},
        },
        indent=2,
    )


AGREED = {
    "type": "object",
    "required": ["id", "kind"],
    "properties": {
        "kind": {"const": "task"},
        "id": {"type": "string"},
        "contextId": {"type": "string"},
        "retries": {"type": "integer"},
        "labels": {"type": "array", "items": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
        "createdAt": {"type": "string", "format": "date-time"},
        "metadata": {"type": "object"},
        "sizeBytes": {"type": "string"},
        "title": {"type": "string"},
    },
}


def _drift(root: Path) -> list[Any]:
    return sorted(findings_of("proto-message-drift", root), key=lambda f: f.location.line)


def test_a_message_written_as_protojson_writes_it_agrees(make_corpus: MakeCorpus) -> None:
    # json names, json_name, a map as an object, a Timestamp as a string, int64 as a string, the
    # `kind` tag of the JSON form: all one message
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(AGREED)})
    assert _drift(root) == []


def test_a_field_on_one_side_only_is_reported_in_both_directions(make_corpus: MakeCorpus) -> None:
    task = json.loads(json.dumps(AGREED))
    del task["properties"]["retries"]  # the proto's only
    task["properties"]["priority"] = {"type": "integer"}  # the schema's only
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    [found] = _drift(root)
    assert (found.location.path, found.location.line) == ("proto/tasks.proto", 7)
    assert "`retries` only in the proto" in found.message
    assert "`priority` only in the schema" in found.message
    notes = {(r.path, r.pointer, r.note) for r in found.related}
    assert (
        "json/tasks.json",
        "/definitions/Task/properties/priority",
        "`priority`: schema only",
    ) in notes
    proto_side = [r for r in found.related if r.path == "proto/tasks.proto"]
    assert [(r.line, r.column) for r in proto_side] == [(10, 3)]  # the field `retries`
    assert found.related[0].pointer == "/definitions/Task"
    # fixed on either side: quiet
    (root / "json/tasks.json").write_text(_schema(AGREED))
    assert _drift(root) == []


def test_the_field_name_is_not_the_json_name(make_corpus: MakeCorpus) -> None:
    # `title` is the field `display`'s JSON name; a schema saying `display` is accepted (parsers
    # take both), a schema saying `contextID` is not the field `context_id`
    task = json.loads(json.dumps(AGREED))
    task["properties"]["display"] = task["properties"].pop("title")
    task["properties"]["contextID"] = task["properties"].pop("contextId")
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    [found] = _drift(root)
    assert "`contextId` only in the proto" in found.message
    assert "`contextID` only in the schema" in found.message
    assert "display" not in found.message


@pytest.mark.parametrize(
    ("name", "schema", "said"),
    [
        ("retries", {"type": "string"}, "`retries` is an integer in the proto, a string"),
        ("labels", {"type": "string"}, "`labels` is an array in the proto, a string"),
        ("labels", {"type": "array", "items": {"type": "integer"}}, "items are a string"),
        ("createdAt", {"type": "integer"}, "`createdAt` is a string in the proto, an integer"),
        ("annotations", {"type": "array"}, "`annotations` is an object in the proto, an array"),
        ("metadata", {"type": "string"}, "`metadata` is an object in the proto, a string"),
    ],
)
def test_a_type_protojson_cannot_write_is_reported(
    make_corpus: MakeCorpus, name: str, schema: dict[str, Any], said: str
) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"][name] = schema
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    [found] = _drift(root)
    assert said in found.message
    pointer = f"/definitions/Task/properties/{name}"
    assert any(r.pointer == pointer for r in found.related)


def test_types_read_through_local_references_and_unions(make_corpus: MakeCorpus) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["retries"] = {"$ref": "#/definitions/Count"}
    task["properties"]["sizeBytes"] = {"oneOf": [{"type": "integer"}, {"type": "null"}]}
    task["properties"]["id"] = {"$ref": "other.json#/Id"}  # not read here: no claim
    root = make_corpus(
        {
            "proto/tasks.proto": PROTO,
            "json/tasks.json": _schema(task, Count={"type": "integer", "minimum": 0}),
        }
    )
    assert _drift(root) == []
    task["properties"]["retries"] = {"$ref": "#/definitions/Count"}
    (root / "json/tasks.json").write_text(_schema(task, Count={"type": "boolean"}))
    [found] = _drift(root)
    assert "`retries` is an integer in the proto, a boolean in the schema" in found.message


def test_properties_of_all_of_branches_count(make_corpus: MakeCorpus) -> None:
    base = {"type": "object", "properties": {"id": {"type": "string"}}}
    rest = json.loads(json.dumps(AGREED))
    del rest["properties"]["id"]
    task = {"allOf": [{"$ref": "#/definitions/Base"}, rest]}
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task, Base=base)})
    assert _drift(root) == []
    # the control: a branch without `id` leaves it to the proto alone
    other = {"type": "object", "properties": {"key": {"type": "string"}}}
    (root / "json/tasks.json").write_text(_schema(task, Base=other))
    [found] = _drift(root)
    assert "`id` only in the proto" in found.message


def test_same_named_things_that_share_no_fields_are_not_compared(make_corpus: MakeCorpus) -> None:
    # A2A's shape: the JSON Schema's `SendMessageRequest` is the JSON-RPC envelope, the proto's
    # the gRPC request; a union with no properties is no object to compare either
    envelope = {
        "type": "object",
        "properties": {
            "jsonrpc": {"const": "2.0"},
            "id": {"type": "string"},
            "method": {"const": "message/send"},
            "params": {"type": "object"},
        },
    }
    union = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    schema = _schema(AGREED, SendMessageRequest=envelope, Envelope=envelope)
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": schema})
    assert _drift(root) == []
    schema = _schema(union, SendMessageRequest=envelope, Envelope=envelope)
    (root / "json/tasks.json").write_text(schema)
    assert _drift(root) == []
    result = CliRunner().invoke(main, ["bindings", str(root)])
    assert result.exit_code == 0, result.output
    assert "proto message `SendMessageRequest`" in result.output
    assert "share 0 of 4 fields: two things under one name)" in result.output
    assert "declares no properties" in result.output
    # a pair not compared is listed, and not counted as a binding
    assert "speclint: 0 proto binding(s); 2 pair(s) not bound or not compared" in result.output


def test_openapi_components_are_definitions_too(make_corpus: MakeCorpus) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["retries"] = {"type": "boolean"}
    openapi = json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "Tasks", "version": "1.0.0"},
            "paths": {},
            "components": {"schemas": {"Task": task}},
        }
    )
    root = make_corpus({"proto/tasks.proto": PROTO, "openapi.json": openapi})
    [found] = _drift(root)
    assert found.related[0].path == "openapi.json"
    assert found.related[0].pointer == "/components/schemas/Task"


def test_vendored_protos_are_not_compared(make_corpus: MakeCorpus) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["priority"] = {"type": "integer"}
    root = make_corpus({"third_party/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    assert _drift(root) == []


def test_the_bindings_command_lists_the_proto_pairs_with_their_evidence(
    make_corpus: MakeCorpus,
) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["state"] = {"type": "string", "enum": ["open", "closed"]}
    proto = (
        PROTO.replace(
            "  string display = 9",
            "  State state = 10;\n  string display = 9",
        )
        + "enum State {\n  STATE_UNSPECIFIED = 0;\n  STATE_OPEN = 1;\n}\n"
    )
    root = make_corpus({"proto/tasks.proto": proto, "json/tasks.json": _schema(task)})
    result = CliRunner().invoke(main, ["bindings", str(root)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = lines.index("proto/tasks.proto:7 proto message `Task`")
    assert lines[at + 1].startswith("    -> json/tasks.json#/definitions/Task (compared;")
    assert "proto enum `State`" in result.output
    assert "(by use: the field `Task.state`, of the enum's type)" in result.output


def test_protojson_types_of_fields() -> None:
    def field(kind: str, label: str = "optional", name: str = "", is_map: str = "") -> Any:
        return ProtoField("f", 1, "f", False, kind, name, label, False, "", 1, 1, is_map)

    assert field_types(field("int64")) == {"integer", "string"}
    assert field_types(field("message", name="google.protobuf.Value")) is not None
    assert "null" in (field_types(field("message", name="google.protobuf.Value")) or ())
    assert field_types(field("message", "repeated", "x.Entry", is_map="map<string, int32>")) == {
        "object"
    }
    assert field_types(field("string", "repeated"), element=True) == {"string"}
    assert schema_types({"type": "number"}, {}) == {"number", "integer"}
    assert schema_types({"enum": ["a", 1]}, {}) == {"string", "integer"}
    assert schema_types({"description": "anything"}, {}) is None
    assert schema_types({"type": "string", "nullable": True}, {}) == {"string", "null"}
    assert described(frozenset({"integer", "string"})) == "an integer or a string"
    assert described(frozenset({"number", "integer"})) == "a number"


# --- the cases a review found (each a small corpus written here) ---------------------------------


def test_a_oneof_written_as_one_of_branches_and_odd_keywords_are_read(
    make_corpus: MakeCorpus,
) -> None:
    task = json.loads(json.dumps(AGREED))
    retries = task["properties"].pop("retries")
    task["oneOf"] = [{"properties": {"retries": retries}}, {"required": ["id"]}]
    task["allOf"] = 5  # not a list: read as nothing, never a crash
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    assert _drift(root) == []
    result = CliRunner().invoke(main, ["bindings", str(root)])
    assert result.exit_code == 0, result.output


def test_of_several_messages_of_one_name_the_one_that_fits_is_compared(
    make_corpus: MakeCorpus,
) -> None:
    other = PROTO.replace("package tasks.v1;", "package archive.v1;").replace(
        "  int32 retries = 3;\n", "  int32 retries = 3;\n  string archived_by = 10;\n"
    )
    root = make_corpus(
        {
            "proto/tasks.proto": PROTO,
            "proto/archive.proto": other,
            "json/tasks.json": _schema(AGREED),
        }
    )
    assert _drift(root) == []  # tasks.v1.Task fits; archive.v1.Task is another thing


def test_fields_a_route_carries_in_its_path_are_not_expected_in_the_body(
    make_corpus: MakeCorpus,
) -> None:
    service = (
        'import "google/api/annotations.proto";\n'
        "service Tasks {\n  rpc CreateTask(CreateTaskRequest) returns (Task) {\n"
        '    option (google.api.http) = {post: "/v1/{parent=projects/*}/tasks" body: "*"};\n'
        "  }\n}\n"
        "message CreateTaskRequest {\n  string parent = 1;\n  string title = 2;\n"
        "  string note = 3;\n}\n"
    )
    body = {"type": "object", "properties": {"title": {"type": "string"}, "note": {}}}
    root = make_corpus(
        {
            "proto/tasks.proto": PROTO + service,
            "json/tasks.json": _schema(AGREED, CreateTaskRequest=body),
        }
    )
    assert _drift(root) == []


def test_an_enum_prefix_is_read_from_its_values(make_corpus: MakeCorpus) -> None:
    proto = (
        'syntax = "proto3";\npackage t.v1;\n'
        "enum HTTPMethod { HTTP_METHOD_UNSPECIFIED = 0; HTTP_METHOD_GET = 1; HTTP_METHOD_POST = 2; }\n"
    )
    schema = _schema(AGREED, HTTPMethod={"type": "string", "enum": ["get", "post"]})
    root = make_corpus({"proto/t.proto": proto, "json/tasks.json": schema})
    assert findings_of("proto-enum-drift", root) == []
    # the control: a value the proto lacks is still one
    more = _schema(AGREED, HTTPMethod={"type": "string", "enum": ["get", "post", "put"]})
    (root / "json/tasks.json").write_text(more)
    (found,) = findings_of("proto-enum-drift", root)
    assert "`put` only in the schema" in found.message


@pytest.mark.parametrize(
    ("values", "schema"),
    [
        # the zero value listed by the schema agrees; aliases of one number are one value
        ("STATE_UNSPECIFIED = 0; STATE_OPEN = 1;", ["unspecified", "open"]),
        (
            "option allow_alias = true; STATE_UNSPECIFIED = 0; STATE_CANCELED = 1; "
            "STATE_CANCELLED = 1;",
            ["canceled"],
        ),
    ],
)
def test_zero_values_and_aliases_written_in_the_schema_agree(
    make_corpus: MakeCorpus, values: str, schema: list[str]
) -> None:
    proto = f'syntax = "proto3";\npackage t.v1;\nenum State {{ {values} }}\n'
    root = make_corpus(
        {"proto/t.proto": proto, "json/t.json": _schema(AGREED, State={"enum": schema})}
    )
    assert findings_of("proto-enum-drift", root) == []
    (root / "json/t.json").write_text(_schema(AGREED, State={"enum": [*schema, "closed"]}))
    [found] = findings_of("proto-enum-drift", root)
    assert "`closed` only in the schema" in found.message


def test_a_type_json_schema_no_longer_has_makes_no_claim() -> None:
    assert schema_types({"type": "any"}, {}) is None
    assert schema_types({"type": ["string", "any"]}, {}) is None


def test_an_enum_is_bound_by_use_through_the_properties_its_message_pair_reads(
    make_corpus: MakeCorpus,
) -> None:
    # the property sits in an `allOf` branch: bound as the message pair reads it
    proto = PROTO.replace("  string display = 9", "  State state = 10;\n  string display = 9")
    proto += "enum State {\n  STATE_UNSPECIFIED = 0;\n  STATE_OPEN = 1;\n}\n"
    base = {"properties": {"state": {"type": "string", "enum": ["open", "closed"]}}}
    task = {"allOf": [{"$ref": "#/definitions/Base"}, AGREED]}
    root = make_corpus({"proto/tasks.proto": proto, "json/tasks.json": _schema(task, Base=base)})
    [found] = findings_of("proto-enum-drift", root)
    assert "`closed` only in the schema" in found.message
    assert found.related[0].pointer == "/definitions/Base/properties/state/enum"


def test_the_fields_a_route_template_carries() -> None:
    assert path_fields("/v1/{parent=projects/*}/tasks/{task.name=*}:get") == {"parent", "task"}
    assert path_fields("/v1/tasks") == set()


# --- the cases the ecosystem check found (CycloneDX keeps a .proto beside each schema version) --


def test_a_proto_is_compared_with_the_definitions_of_its_own_version(
    make_corpus: MakeCorpus,
) -> None:
    proto = (
        'syntax = "proto3";\npackage t.v1;\n'
        "enum Severity { SEVERITY_NULL = 0; SEVERITY_HIGH = 1; SEVERITY_INFO = 2; }\n"
    )
    old = _schema(AGREED, Severity={"enum": ["high"]})  # 1.0 had no `info`
    new = _schema(AGREED, Severity={"enum": ["high", "info"]})
    root = make_corpus(
        {"schema/bom-1.1.proto": proto, "schema/bom-1.0.json": old, "schema/bom-1.1.json": new}
    )
    assert findings_of("proto-enum-drift", root) == []  # `NULL` is the zero value, 1.0 apart
    (root / "schema/bom-1.1.json").write_text(old)
    [found] = findings_of("proto-enum-drift", root)
    assert found.related[0].path == "schema/bom-1.1.json"


def test_a_json_surface_written_in_kebab_case_names_the_fields_its_own_way(
    make_corpus: MakeCorpus,
) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["context-id"] = task["properties"].pop("contextId")
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    assert _drift(root) == []


def test_the_bindings_command_says_what_it_paired_only_where_there_are_protos(
    make_corpus: MakeCorpus,
) -> None:
    alone = make_corpus({"proto/tasks.proto": PROTO, "docs/readme.md": "# Tasks\n"})
    result = CliRunner().invoke(main, ["bindings", str(alone)])
    assert result.exit_code == 0, result.output
    assert "speclint: 0 proto binding(s)" in result.output  # read, and nothing to pair it with
    (alone / "proto/tasks.proto").unlink()
    result = CliRunner().invoke(main, ["bindings", str(alone)])
    assert result.exit_code == 0, result.output
    assert "proto binding" not in result.output


# --- the rest of the review of proto-message-drift (each a small corpus written here) -----------


def test_members_no_field_can_be_are_not_expected_in_the_proto(make_corpus: MakeCorpus) -> None:
    # an Any's `@type`, an extension's `[pkg.ext]`, and a discriminator's property
    task = json.loads(json.dumps(AGREED))
    task["properties"]["@type"] = {"type": "string"}
    task["properties"]["[tasks.v1.origin]"] = {"type": "string"}
    task["properties"]["variant"] = {"type": "string"}
    task["discriminator"] = {"propertyName": "variant"}
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    assert _drift(root) == []


def test_a_type_behind_an_all_of_wrapper_is_read(make_corpus: MakeCorpus) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["retries"] = {"allOf": [{"$ref": "#/definitions/Label"}]}
    root = make_corpus(
        {"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task, Label={"type": "string"})}
    )
    [found] = _drift(root)
    assert "`retries` is an integer in the proto, a string in the schema" in found.message
    # a type-only difference is mended by the type, not by names
    assert found.message.endswith("give each property the type ProtoJSON writes for its field")


def test_a_nullable_enum_binds_without_its_null(make_corpus: MakeCorpus) -> None:
    proto = PROTO.replace("  string display = 9", "  State state = 10;\n  string display = 9")
    proto += "enum State {\n  STATE_UNSPECIFIED = 0;\n  STATE_OPEN = 1;\n}\n"
    task = json.loads(json.dumps(AGREED))
    task["properties"]["state"] = {"type": "string", "nullable": True, "enum": ["open", "x", None]}
    root = make_corpus({"proto/tasks.proto": proto, "json/tasks.json": _schema(task)})
    [found] = findings_of("proto-enum-drift", root)
    assert "`x` only in the schema" in found.message


def test_a_fence_quoting_the_corpus_file_and_a_title_naming_a_defs_entry_count_once(
    make_corpus: MakeCorpus,
) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["priority"] = {"type": "integer"}
    schema = json.dumps(
        {"title": "Task", "$ref": "#/$defs/Task", "$defs": {"Task": task}}, indent=2
    )
    page = "# Tasks\n\n```proto\n" + PROTO + "```\n"
    root = make_corpus(
        {"proto/tasks.proto": PROTO, "json/tasks.json": schema, "docs/tasks.md": page}
    )
    [found] = _drift(root)
    assert found.location.path == "proto/tasks.proto"  # the file's, not the example's


def test_each_kind_of_difference_gets_related_locations(make_corpus: MakeCorpus) -> None:
    task = json.loads(json.dumps(AGREED))
    for index in range(12):
        task["properties"][f"extra{index}"] = {"type": "string"}
    task["properties"]["retries"] = {"type": "string"}
    del task["properties"]["title"]
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    [found] = _drift(root)
    notes = [r.note or "" for r in found.related]
    assert any(note.startswith("field `display` (JSON `title`): proto only") for note in notes)
    assert any("`retries`:" in note for note in notes)
    assert len(found.related) == 12


def test_differences_past_the_related_limit_are_counted(make_corpus: MakeCorpus) -> None:
    # 20 fields, 8 of them in the schema: 12 only in the proto, 11 related beside the
    # definition (the limit is 12), and the message says one is not listed (issue 44).
    fields = "".join(f"  string f{n} = {n + 1};\n" for n in range(20))
    proto = f'syntax = "proto3";\npackage wide.v1;\nmessage Wide {{\n{fields}}}\n'
    wide = {"type": "object", "properties": {f"f{n}": {"type": "string"} for n in range(8)}}
    schema = json.dumps(
        {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Wide", **wide}
    )
    [found] = findings_of(
        "proto-message-drift", make_corpus({"p/wide.proto": proto, "wide.json": schema})
    )
    assert len(found.related) == 12
    assert found.message.endswith(
        "\nThe related locations list 11 of its 12 differences, and 1 more is not listed"
    )
