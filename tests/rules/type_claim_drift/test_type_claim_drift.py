"""type-claim-drift (issue 46, item 8): the types and requiredness field references state, held
to the bound schema (and proto ``field_behavior``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_fence_invalid import ANCHORED

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.prose import enumerations
from speclint.analyses.prose.type_claims import ClaimBinder, claim_groups, parse_type
from speclint.common.findings import Finding
from speclint.frontends.cli import main
from speclint.model.config import load_config
from speclint.run import preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


JOB = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Job",
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "retries": {"type": "string"},
        "url": {"type": "string", "format": "uri"},
        "count": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "note": {"type": "string"},
    },
    "required": ["id", "mode"],
}


def corpus(make_corpus: MakeCorpus, page: str, schema: dict[str, object] = JOB) -> Path:
    return make_corpus(
        {"schemas/job.json": json.dumps(schema, indent=2), "docs/job.md": f"# Jobs\n\n{page}"}
    )


def found(root: Path) -> list[tuple[int, str]]:
    """(line, what) of each finding: `type` or `required`."""
    return sorted(
        (f.location.line, "type" if "documented as `" in f.message else "required")
        for f in run_rule(root, "type-claim-drift")
    )


def test_a_definition_list_integer_against_a_string_schema_is_reported_on_both_sides(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "## Job\n\n- `retries` (integer): how often to retry.\n")
    findings = run_rule(root, "type-claim-drift")
    assert [(f.location.path, f.location.line) for f in findings] == [("docs/job.md", 5)]
    finding = findings[0]
    assert "`retries` is documented as `integer`" in finding.message
    assert "says `type: string`" in finding.message
    assert "correct the type in the prose, or change the schema" in finding.message
    assert [(r.path, r.pointer) for r in finding.related] == [
        ("schemas/job.json", "/properties/retries")
    ]
    assert finding.severity.label == "warning"


def test_a_table_type_column_that_disagrees_is_reported(make_corpus: MakeCorpus) -> None:
    page = (
        "## Job\n\n| Field | Type | Description |\n| --- | --- | --- |\n"
        "| `id` | string | the id |\n| `count` | boolean | how many |\n"
    )
    assert found(corpus(make_corpus, page)) == [(8, "type")]


def test_required_where_the_schema_does_not_require_is_reported(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "## Job\n\n- `id` (string, REQUIRED)\n- `note` (string, REQUIRED)\n")
    findings = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.related[0].pointer) for f in findings] == [(6, "/required")]
    assert "add `note` to its `required`, or document it as OPTIONAL" in findings[0].message


def test_this_field_is_required_in_a_table_description_is_a_claim(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "## Job\n\n| Field | Type | Description |\n| --- | --- | --- |\n"
        "| `id` | string | the id |\n| `note` | string | This field is REQUIRED. |\n"
    )
    assert found(corpus(make_corpus, page)) == [(8, "required")]


def test_optional_where_the_schema_requires_is_reported_at_the_required_item(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "## Job\n\n| Field | Type | Required |\n| --- | --- | --- |\n"
        "| `id` | string | No |\n| `count` | integer | No |\n"
    )
    findings = run_rule(corpus(make_corpus, page), "type-claim-drift")
    assert [(f.location.line, f.related[0].pointer) for f in findings] == [(7, "/required/0")]
    assert "documented as OPTIONAL (its `Required` cell says `No`)" in findings[0].message


def test_an_array_of_objects_against_an_array_of_strings_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "## Job\n\n- **`tags`** *(array of objects, OPTIONAL)*\n")
    findings = run_rule(root, "type-claim-drift")
    assert [f.location.line for f in findings] == [5]
    assert "says items with `type: string`" in findings[0].message


def test_agreeing_claims_and_generous_type_words_are_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "## Job\n\n"
        "- **`id`** *(string, REQUIRED)*: the id.\n"
        "- `count` (int64, OPTIONAL): how many.\n"
        "- `url` (URL): where.\n"
        "- `tags` (array of strings): labels.\n"
        "- `mode` (enum, REQUIRED): the mode.\n"
        "- `retries` (string): how often.\n\n"
        "| Field | Type | Required |\n| --- | --- | --- |\n"
        "| `count` | number | no |\n| `tags` | `string[]` | no |\n| `url` | uri | no |\n"
    )
    assert found(corpus(make_corpus, page)) == []


def test_unions_unknown_words_any_and_nullable_forms_are_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "## Job\n\n"
        "- `count` (string or number)\n"
        "- `retries` (Duration)\n"
        "- `note` (any)\n"
        "- `id` (integer | null)\n"
        "- `tags` (whatever)\n"
        "- `mode` (nullable boolean)\n"
    )
    assert found(corpus(make_corpus, page)) == []
    assert parse_type("string or number") is None
    assert parse_type("any") is None
    assert parse_type("string?") is None


def test_a_named_schema_type_is_held_to_the_ref_target(make_corpus: MakeCorpus) -> None:
    schema = {
        "$defs": {
            "Job": {
                "type": "object",
                "properties": {
                    "owner": {"$ref": "#/$defs/User"},
                    "team": {"$ref": "#/$defs/Team"},
                },
            },
            "User": {"type": "object", "properties": {"name": {"type": "string"}}},
            "Team": {"type": "object", "properties": {"name": {"type": "string"}}},
        }
    }
    page = "## Job\n\n- `owner` ([User](#user)): who.\n- `team` (User): which team.\n"
    assert found(corpus(make_corpus, page, schema)) == [(6, "type")]


def test_a_conditionally_required_field_documented_required_is_not_reported(
    make_corpus: MakeCorpus,
) -> None:
    schema = {
        **JOB,
        "if": {"properties": {"mode": {"const": "a"}}},
        "then": {"required": ["note"]},
    }
    assert found(corpus(make_corpus, "## Job\n\n- `note` (string, REQUIRED)\n", schema)) == []


def test_a_table_of_an_operations_parameters_is_not_judged(make_corpus: MakeCorpus) -> None:
    """An ``In`` column says the rows are a request's parameters (query, path, header), not
    the members of the object whose names they share."""
    rows = "| `id` | path | string |\n| `count` | query | boolean |\n"
    page = "## Job\n\n| Name | In | Type |\n| --- | --- | --- |\n" + rows
    assert found(corpus(make_corpus, page)) == []
    page = "## Job\n\n| Name | Where | Type |\n| --- | --- | --- |\n" + rows
    assert found(corpus(make_corpus, page)) == [(8, "type")]


def test_where_two_objects_fit_alike_only_a_claim_both_contradict_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    """Two schemas declare the table's fields alike (an old and a new copy of one object):
    `count` is an integer in one and a string in the other, so `integer` contradicts only
    one of them and is not reported; `boolean` contradicts both."""
    other = {
        **JOB,
        "title": "Task",
        "properties": {**JOB["properties"], "count": {"type": "string"}},
    }
    files = {"schemas/job.json": json.dumps(JOB), "schemas/task.json": json.dumps(other)}
    table = "## Runs\n\n| Field | Type |\n| --- | --- |\n| `id` | string |\n| `mode` | string |\n"
    agreeing = make_corpus({**files, "docs/job.md": table + "| `count` | integer |\n"})
    assert found(agreeing) == []
    contradicting = make_corpus({**files, "docs/job.md": table + "| `count` | boolean |\n"})
    assert found(contradicting) == [(7, "type")]


def test_a_table_of_fields_no_schema_declares_is_not_bound(make_corpus: MakeCorpus) -> None:
    page = (
        "## Other\n\n| Field | Type |\n| --- | --- |\n"
        "| `alpha` | integer |\n| `beta` | integer |\n| `retries` | integer |\n"
    )
    root = corpus(make_corpus, page)
    assert found(root) == []
    context = Context.load(root, load_config(root))
    document = context.documents["docs/job.md"]
    (group,) = claim_groups(document)
    binding = ClaimBinder(context).bind(group)
    assert binding.views == []
    assert "no schema object declares more than half of its 3 fields" in binding.why


def test_nested_items_are_held_to_the_parent_fields_schema(make_corpus: MakeCorpus) -> None:
    schema = {
        "title": "Job",
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "limits": {
                "type": "object",
                "properties": {"cpu": {"type": "integer"}, "memory": {"type": "integer"}},
            },
        },
    }
    page = (
        "## Job\n\n- `id` (string)\n- `limits` (object, OPTIONAL)\n"
        "  - `cpu` (string, OPTIONAL)\n  - `memory` (integer, OPTIONAL)\n"
    )
    assert found(corpus(make_corpus, page, schema)) == [(7, "type")]


def test_a_proposal_binds_nothing(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/job.json": json.dumps(JOB),
            "rfcs/0001-jobs.md": "# Jobs\n\n## Job\n\n- `retries` (integer)\n- `id` (string)\n",
        }
    )
    assert found(root) == []


def test_a_page_of_an_old_folder_binds_nothing(make_corpus: MakeCorpus) -> None:
    # a page kept for what the object was: a schema of today sharing its fields is another
    # version of it
    page = "# Jobs\n\n## Job\n\n- `retries` (integer)\n- `id` (string)\n"
    root = make_corpus({"schemas/job.json": json.dumps(JOB), "docs/old/job.md": page})
    assert found(root) == []
    root = make_corpus({"schemas/job.json": json.dumps(JOB), "docs/job.md": page})
    assert found(root) == [(5, "type")]


def test_binding_claims_reads_the_schema_names_without_an_enum_index(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the named schemas are read once a run (enumerations.schema_names); the enumerated
    # properties' index, a walk of every schema that enum-drift needs, is not built
    built: list[object] = []
    original = enumerations.SchemaIndex.build.__func__  # type: ignore[attr-defined]

    def counted(cls: type[enumerations.SchemaIndex], corpus: Context) -> object:
        built.append(corpus)
        return original(cls, corpus)

    monkeypatch.setattr(enumerations.SchemaIndex, "build", classmethod(counted))
    page = "## Job\n\n| Field | Type |\n| --- | --- |\n| `id` | string |\n| `count` | boolean |\n"
    assert found(corpus(make_corpus, page)) == [(8, "type")]
    assert built == []


PROTO = """\
syntax = "proto3";
package demo.v1;

import "google/api/field_behavior.proto";

message Task {
  string task_id = 1 [(google.api.field_behavior) = REQUIRED];
  string context_id = 2 [
    (google.api.field_behavior) = OPTIONAL
  ];
  string note = 3;
}
"""


def test_proto_field_behavior_required_against_prose_optional_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "proto/task.proto": PROTO,
            "docs/task.md": (
                "# Task\n\n- `taskId` (string, OPTIONAL): the id.\n"
                "- `contextId` (string, REQUIRED): the context.\n- `note` (string, OPTIONAL)\n"
            ),
        }
    )
    findings = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.related[0].path, f.related[0].line) for f in findings] == [
        (3, "proto/task.proto", 7),
        (4, "proto/task.proto", 8),
    ]
    assert "`(google.api.field_behavior) = REQUIRED`" in findings[0].message
    assert "`(google.api.field_behavior) = OPTIONAL`" in findings[1].message


def test_proto_field_behavior_against_the_paired_json_schema(make_corpus: MakeCorpus) -> None:
    schema = {
        "$defs": {
            "Task": {
                "type": "object",
                "properties": {
                    "taskId": {"type": "string"},
                    "contextId": {"type": "string"},
                    "note": {"type": "string"},
                },
                "required": ["contextId"],
            }
        }
    }
    root = make_corpus({"proto/task.proto": PROTO, "schemas/task.json": json.dumps(schema)})
    findings = run_rule(root, "type-claim-drift")
    assert [(f.location.path, f.location.line) for f in findings] == [
        ("proto/task.proto", 7),
        ("proto/task.proto", 8),
    ]
    assert "does not require `taskId`" in findings[0].message
    assert "requires `contextId`" in findings[1].message


def test_a_same_named_definition_sharing_under_a_third_of_the_proto_fields_is_no_pair(
    make_corpus: MakeCorpus,
) -> None:
    """`Task` names a JSON-RPC envelope in the schema and a resource in the proto: one shared
    field of nine is two things under one name, whose requiredness is not compared."""
    envelope = {name: {"type": "string"} for name in ("taskId", "jsonrpc", "id", "method")}
    envelope |= {"params": {"type": "object"}, "a": {}, "b": {}}
    schema = {"$defs": {"Task": {"type": "object", "properties": envelope, "required": []}}}
    root = make_corpus({"proto/task.proto": PROTO, "schemas/task.json": json.dumps(schema)})
    assert run_rule(root, "type-claim-drift") == []


def test_the_rule_is_a_preview_rule_until_it_is_measured() -> None:
    assert preview.why_preview("type-claim-drift") == (
        "declared preview by its module: new, not yet measured"
    )


def test_a_page_in_an_obsolete_folder_binds_nothing(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/job.json": json.dumps(JOB),
            "docs/obsolete/job-v1.md": "# Job\n\n- `retries` (integer)\n- `id` (string)\n",
        }
    )
    assert found(root) == []


def test_an_html_heading_above_a_generated_table_names_its_schema(
    make_corpus: MakeCorpus,
) -> None:
    schema = {
        "$defs": {
            "Job": {"type": "object", "properties": {"id": {"type": "string"}}},
            "Run": {"type": "object", "properties": {"id": {"type": "integer"}}},
        }
    }
    page = (
        '<h2 id="tocS_Run">Run</h2>\n\n### Properties\n\n'
        "|Name|Type|Required|Description|\n|---|---|---|---|\n|id|string|false|the id|\n"
    )
    root = corpus(make_corpus, page, schema)
    findings = run_rule(root, "type-claim-drift")
    assert [(f.location.line, f.related[0].pointer) for f in findings] == [
        (9, "/$defs/Run/properties/id")
    ]
    assert "bound by the text names `Run`" in findings[0].message


def test_bindings_lists_each_field_reference_with_its_evidence_or_why_not(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "## Job\n\n- `retries` (integer)\n- `id` (string)\n\n"
        "## Other\n\n| Field | Type |\n| --- | --- |\n| `alpha` | integer |\n| `beta` | string |\n"
    )
    result = CliRunner().invoke(main, ["bindings", str(corpus(make_corpus, page))])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    listed = lines.index("docs/job.md:5 field list (2 field claim(s))")
    assert lines[listed + 1] == "    -> schemas/job.json (high; by the text names `Job`)"
    table = lines.index("docs/job.md:10 field table (2 field claim(s))")
    assert lines[table + 1] == (
        "    (not bound: no schema object declares more than half of its 2 fields)"
    )
    assert "speclint: 1 field reference(s) bound; 1 bound to nothing" in lines


def test_a_heading_that_only_contains_a_schema_name_does_not_name_it(
    make_corpus: MakeCorpus,
) -> None:
    # "Task Parameters" documents the parameters, not `Task`, which requires `ttl`
    schema = {
        "$defs": {
            "Task": {
                "type": "object",
                "properties": {"ttl": {"type": "integer"}, "id": {"type": "string"}},
                "required": ["ttl"],
            },
            "TaskMetadata": {"type": "object", "properties": {"ttl": {"type": "integer"}}},
        }
    }
    page = "## Task Parameters\n\nFields:\n\n- `ttl` (number, optional): how long.\n"
    assert found(corpus(make_corpus, page, schema)) == []
    named = "## Task\n\nFields:\n\n- `ttl` (number, optional): how long.\n"
    assert found(corpus(make_corpus, named, schema)) == [(7, "required")]


def test_a_format_is_judged_only_when_both_sides_name_one_rfc_3339_names_alike(
    make_corpus: MakeCorpus,
) -> None:
    schema = {
        "title": "Person",
        "type": "object",
        "properties": {
            "born": {"type": "string", "format": "full-date"},
            "seen": {"type": "string", "format": "date-time"},
            "site": {"type": "string"},
        },
    }
    page = "## Person\n\n- `born` (date)\n- `seen` (date)\n- `site` (URL)\n"
    assert found(corpus(make_corpus, page, schema)) == [(6, "type")]


def test_a_schema_without_a_type_says_none_whatever_keywords_it_has(
    make_corpus: MakeCorpus,
) -> None:
    # `additionalProperties` or `items` without `type` constrain objects or arrays only: a value
    # of another type passes, so "object" read from them would be a type the schema never said.
    schema = {
        **JOB,
        "properties": {
            **JOB["properties"],
            "env": {"additionalProperties": {"type": "string"}},
            "args": {"items": {"type": "string"}},
        },
    }
    page = "## Job\n\n- `env` (array): the variables.\n- `args` (string): the arguments.\n"
    assert found(corpus(make_corpus, page, schema)) == []
    schema["properties"]["env"]["type"] = "object"  # now said: the claim is held to it
    assert found(corpus(make_corpus, page, schema)) == [(5, "type")]


def test_a_bundlers_ref_segment_is_no_name_where_the_targets_title_is_the_claimed_one(
    make_corpus: MakeCorpus,
) -> None:
    # A bundled document points into another schema (`.../properties/payload`): the last
    # segment is no type name; the target's `title` names it.
    schema = {
        "$defs": {
            "Job": {
                "type": "object",
                "properties": {
                    "proof": {"$ref": "#/$defs/Envelope/properties/payload"},
                    "owner": {"$ref": "#/$defs/Envelope/properties/payload"},
                },
            },
            "Envelope": {
                "type": "object",
                "properties": {"payload": {"title": "Attestation", "type": "object"}},
            },
            "Team": {"title": "Team", "type": "object"},
        }
    }
    page = "## Job\n\n- `proof` (Attestation): the proof.\n- `owner` (Team): who.\n"
    assert found(corpus(make_corpus, page, schema)) == [(6, "type")]


def test_a_required_cell_with_a_footnote_mark_is_a_condition_not_a_claim(
    make_corpus: MakeCorpus,
) -> None:
    table = (
        "## Job\n\n| Field | Type | Required |\n| --- | --- | --- |\n"
        "| `id` | string | Yes |\n| `note` | string | %s |\n\n* when `mode` is `a`.\n"
    )
    assert found(corpus(make_corpus, table % "**Yes**")) == [(8, "required")]
    for marked in ("Yes*", "Yes\\*", "Yes†", "Yes [1]", "**Yes**\\*"):
        assert found(corpus(make_corpus, table % marked)) == [], marked


def test_a_generated_sdks_date_class_is_a_string_of_any_date_format(
    make_corpus: MakeCorpus,
) -> None:
    schema = {
        **JOB,
        "properties": {**JOB["properties"], "at": {"type": "string", "format": "date-time"}},
    }
    assert found(corpus(make_corpus, "## Job\n\n- `at` (Date): when.\n", schema)) == []
    assert found(corpus(make_corpus, "## Job\n\n- `at` (integer): when.\n", schema)) == [
        (5, "type")
    ]


def _claims(root: Path) -> list[Finding]:
    return run_rule(root, "type-claim-drift")


ORDERS = """\
openapi: 3.0.3
info: {title: Orders, version: 1.0.0}
paths: {}
components:
  schemas:
    Order:
      type: object
      required: [order_id]
      properties:
        order_id: {type: string}
        note: {type: string}
        total: {type: integer}
        receipt: {type: string}
"""


ORDER_TABLE = """\
# Orders

The `Order` object has the following properties:

| Property   | Type      | Description              |
| ---------- | --------- | ------------------------ |
| `order_id` | `string`  | The order's id.          |
| `note`     | `string`  | A note.                  |
| `total`    | `integer` | The total, in cents.     |
| `lines`    | `array`   | The lines of the order.  |
| `receipt`  | `string`  | The receipt, once paid.  |
"""


NULL_TABLE = """\
# Orders

The `Order` object:

| Field      | Type     | Description                                                    |
| ---------- | -------- | -------------------------------------------------------------- |
| `order_id` | string   | The order's id.                                                |
| `receipt`  | string   | The receipt; before payment the value will be `null`.          |
"""


HTML_TABLE = """\
# Orders

The response has the following fields:

<table>
<tr><td>
<code>order_id</code><br/>
string
</td><td>
The order's id.
</td></tr>
<tr><td>
<code>receipt</code><br/>
string
</td><td>
The receipt; if the order is unpaid the value will be <code>null</code>.
</td></tr>
</table>
"""


KEYS = """\
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "title": {"type": "string"},
    "authors": {"type": "array", "items": {"type": "object"}},
    "contact": {"type": "array", "items": {"type": "object"}},
    "keywords": {"type": "array", "items": {"type": "string"}}
  }
}
"""


KEY_INDEX = """\
# Keys

## Index

- [`title`](#title)
- [`authors`](#authors) (array of objects)
- [`contact`](#contact) (object)
- [`keywords`](#keywords) (array of strings)
"""


NESTED_HTML = """\
# Orders

<table>
<tr><td>
<code>order</code><br/>
object
</td><td>
The order.
<table>
<tr><td>
<code>order_id</code><br/>
string
</td><td>
The id; for a draft the value will be <code>null</code>.
</td></tr>
</table>
</td></tr>
</table>
"""


def test_a_documented_member_the_named_object_lacks_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": ORDER_TABLE})
    (finding,) = _claims(root)
    assert (finding.location.line, finding.severity.label) == (10, "info")
    assert "`lines` is documented as a member (`array`)" in finding.message
    assert "does not declare it (an open object lets it through)" in finding.message


def test_a_documented_member_a_closed_object_lacks_is_a_warning(make_corpus: MakeCorpus) -> None:
    api = ORDERS.replace(
        "      required: [order_id]\n",
        "      required: [order_id]\n      additionalProperties: false\n",
    )
    root = make_corpus({"api/openapi.yaml": api, "docs/orders.md": ORDER_TABLE})
    (finding,) = _claims(root)
    assert finding.severity.label == "warning"
    assert "and rejects it (a closed object)" in finding.message


def test_a_reference_bound_by_shared_members_only_reports_no_member_it_lacks(
    make_corpus: MakeCorpus,
) -> None:
    page = ORDER_TABLE.replace("The `Order` object has the following properties:", "Fields:")
    page = page.replace("# Orders", "# Reference")
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": page})
    assert _claims(root) == []


def test_a_table_cell_saying_its_field_will_be_null_is_held_to_the_type(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": NULL_TABLE})
    (finding,) = _claims(root)
    assert finding.location.line == 8
    assert "the text says `receipt` may be null" in finding.message


def test_an_html_table_row_saying_its_field_will_be_null_is_held_to_the_type(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": HTML_TABLE})
    (finding,) = _claims(root)
    assert finding.location.line == 16
    assert "the text says `receipt` may be null" in finding.message


def test_a_null_cell_against_a_nullable_field_is_no_finding(make_corpus: MakeCorpus) -> None:
    api = ORDERS.replace("receipt: {type: string}", "receipt: {type: string, nullable: true}")
    root = make_corpus({"api/openapi.yaml": api, "docs/orders.md": NULL_TABLE})
    assert _claims(root) == []


def test_a_key_index_linking_each_key_states_its_type(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schema.json": KEYS, "guide.md": KEY_INDEX})
    (finding,) = _claims(root)
    assert finding.location.line == 7
    assert "`contact` is documented as `object`" in finding.message


def test_a_nested_html_rows_null_is_its_own_field_not_the_outer_rows(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": ORDERS, "docs/orders.md": NESTED_HTML})
    (finding,) = _claims(root)
    assert "the text says `order_id` may be null" in finding.message
    assert finding.location.line == 14


# Issue 49, first-read batch 7: the general classes behind its false and noise verdicts. A
# docs renderer's diff markers in a fence, a `$ref` to a plain-name fragment (an `$anchor`), a
# readOnly property an example of a request leaves out, a `.json` file its tool reads as JSON with
# comments, a test input whose name says it is broken on purpose, and a third party's API document
# kept as a tool's input.


# `"$ref": "#jobId"` names the subschema whose `$anchor` is `jobId` (JSON Schema 2020-12 §8.2.2):
# a string. Read as the document's root it was an object, and the page's `string` a drift.


ANCHOR_PAGE = (
    "# Pipelines\n\n## Pipeline\n\n"
    "- `name` (string): the pipeline's name.\n"
    "- `after` (string): the pipeline to run first.\n"
    "- `before` (string): the pipeline to run next.\n"
)


def test_a_ref_to_an_anchor_is_read_as_the_anchored_subschema(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/pipeline.json": json.dumps(ANCHORED, indent=2), "docs/pipeline.md": ANCHOR_PAGE}
    )
    assert run_rule(root, "type-claim-drift") == []
