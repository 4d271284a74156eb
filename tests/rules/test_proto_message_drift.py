"""``proto-message-drift`` on fixtures written here, one test a case, named after it. The rule: a
protobuf message and the JSON Schema definition of the same name that give different fields."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_proto_enum_drift import AGREED, PROTO, _schema

from conftest import findings_of, run_rule
from speclint.frontends.cli import main

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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


def test_a_json_surface_written_in_kebab_case_names_the_fields_its_own_way(
    make_corpus: MakeCorpus,
) -> None:
    task = json.loads(json.dumps(AGREED))
    task["properties"]["context-id"] = task["properties"].pop("contextId")
    root = make_corpus({"proto/tasks.proto": PROTO, "json/tasks.json": _schema(task)})
    assert _drift(root) == []


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


MakeCorpus = Callable[[dict[str, str | bytes]], Path]

SHOP_PROTO = """\
syntax = "proto3";
package shop.v1;

message Order {
  string id = 1;
  string customer_id = 2;
  int32 quantity = 3;
  string note = 4;
}
"""


def _schemas(order: dict[str, Any], **more: Any) -> str:
    return json.dumps(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"Order": order, **more},
        },
        indent=2,
    )


REST = {
    "type": "object",
    "properties": {
        "customerId": {"type": "string"},
        "quantity": {"type": "integer"},
        "note": {"type": "string"},
    },
}


def test_proto_message_drift_skips_a_definition_whose_properties_reach_another_document(
    make_corpus: MakeCorpus,
) -> None:
    # `id` may come from the other document: the definition's fields cannot all be known
    order = {"allOf": [{"$ref": "common.json#/definitions/Base"}, REST]}
    root = make_corpus({"proto/shop.proto": SHOP_PROTO, "json/shop.json": _schemas(order)})
    assert run_rule(root, "proto-message-drift", {}) == []
    # the control: the same branch kept in the document is read, and `id` is missing from it
    order = {"allOf": [{"$ref": "#/definitions/Base"}, REST]}
    base = {"type": "object", "properties": {"key": {"type": "string"}}}
    (root / "json/shop.json").write_text(_schemas(order, Base=base))
    [found] = run_rule(root, "proto-message-drift", {})
    assert "`id` only in the proto" in found.message


def test_proto_message_drift_does_not_compare_required(make_corpus: MakeCorpus) -> None:
    # every proto3 field is optional on the wire: a `required` list is the JSON surface's promise
    order = json.loads(json.dumps(REST))
    order["properties"]["id"] = {"type": "string"}
    order["required"] = ["id", "customerId", "quantity"]
    root = make_corpus({"proto/shop.proto": SHOP_PROTO, "json/shop.json": _schemas(order)})
    assert run_rule(root, "proto-message-drift", {}) == []
    # the control: the definition is paired with the message, so a field it lacks is drift
    del order["properties"]["id"]
    (root / "json/shop.json").write_text(_schemas(order))
    [found] = run_rule(root, "proto-message-drift", {})
    assert "`id` only in the proto" in found.message
