"""Issue 30, item 3b: a proto message against the JSON Schema definition of its name, as ProtoJSON
writes the message (proto-message-drift), and the pairs ``speclint bindings`` lists. Every corpus
here is written for the test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from test_proto_enum_drift import AGREED, PROTO, _schema

from speclint.analyses.grpc.protojson import described, field_types, schema_types
from speclint.analyses.grpc.surfaces import path_fields
from speclint.frontends.cli import main
from speclint.parsing.protobuf import ProtoField

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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


def test_a_type_json_schema_no_longer_has_makes_no_claim() -> None:
    assert schema_types({"type": "any"}, {}) is None
    assert schema_types({"type": ["string", "any"]}, {}) is None


def test_the_fields_a_route_template_carries() -> None:
    assert path_fields("/v1/{parent=projects/*}/tasks/{task.name=*}:get") == {"parent", "task"}
    assert path_fields("/v1/tasks") == set()


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
