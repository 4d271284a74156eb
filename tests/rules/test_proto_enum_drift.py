"""``proto-enum-drift`` on fixtures written here, one test a case, named after it. The rule: a
protobuf enum and the JSON Schema enum or prose list of the same thing that list"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import findings_of, write_files
from speclint.analyses.grpc import protojson
from speclint.rules import proto_enum_drift

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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


STATUS = ENUMS.replace(
    "message Message {", "message TaskStatus {\n  TaskState state = 1;\n}\nmessage Message {"
)


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


def test_a_list_in_a_design_folder_states_a_change_and_binds_no_proto_enum(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Renaming\n\nA `Run.State` is one of `queued`, `running`, `paused`.\n"
    root = make_corpus({"api/runs.proto": NESTED, "adrs/adr-003-states.md": page})
    assert findings_of("proto-enum-drift", root) == []
    write_files(root, {"docs/runs.md": page})
    assert [f.location.path for f in findings_of("proto-enum-drift", root)] == ["docs/runs.md"]


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


def test_a_nullable_enum_binds_without_its_null(make_corpus: MakeCorpus) -> None:
    proto = PROTO.replace("  string display = 9", "  State state = 10;\n  string display = 9")
    proto += "enum State {\n  STATE_UNSPECIFIED = 0;\n  STATE_OPEN = 1;\n}\n"
    task = json.loads(json.dumps(AGREED))
    task["properties"]["state"] = {"type": "string", "nullable": True, "enum": ["open", "x", None]}
    root = make_corpus({"proto/tasks.proto": proto, "json/tasks.json": _schema(task)})
    [found] = findings_of("proto-enum-drift", root)
    assert "`x` only in the schema" in found.message
