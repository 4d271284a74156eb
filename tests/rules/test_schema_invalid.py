"""``schema-invalid`` on fixtures written here, one test a case, named after it. The rule: a JSON
Schema that is not valid against the metaschema of its declared ``$schema``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from test_openapi_invalid import LIST_OPERATION, SPLIT_API

from conftest import dedented as yaml
from conftest import findings_of, run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_schema_errors_past_the_cap_are_counted_not_dropped(make_corpus: MakeCorpus) -> None:
    """schema-invalid cut at 50 errors a schema silently; now as asyncapi-invalid: the first 50,
    and an `info` (what the run did not check) with how many more."""
    members = {f"p{i}": {"type": 5} for i in range(63)}  # a number is no type: 63 errors
    document = json.dumps(
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": members}
    )
    found = run_rule(make_corpus({"schemas/many.json": document}), "schema-invalid")
    errors = [f for f in found if not f.coverage]
    [note] = [f for f in found if f.coverage]
    assert len(errors) == 50
    assert note.coverage == "errors-not-shown"
    assert note.message.startswith("13 more errors of the schema")


def test_a_json_file_with_lone_carriage_returns_is_located_line_for_line(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"schemas/bad.schema.json": '{\r  "type": 5\r}\r'})
    [finding] = run_rule(root, "schema-invalid")
    assert finding.location.line == 2


def test_an_event_example_referenced_from_an_api_is_not_judged_as_a_schema(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api.yaml": yaml(
                """
                openapi: 3.1.0
                info: {title: Events, version: "1.0"}
                paths:
                  /events:
                    get:
                      responses:
                        "200":
                          description: ok
                          content:
                            application/json:
                              schema:
                                type: object
                                properties:
                                  event: {$ref: examples/ping.json}
                """
            ),
            "examples/ping.json": json.dumps(
                {"type": "org.example.ping", "content": {"body": "hi"}}
            ),
        }
    )
    assert run_rule(root, "schema-invalid") == []


def test_a_schema_with_a_wrong_type_name_is_still_invalid(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/count.schema.json": schema(type="object", properties={"n": {"type": "int"}})}
    )
    assert [f.location.pointer for f in run_rule(root, "schema-invalid")] == ["/properties/n/type"]


def split_api(operation: str = LIST_OPERATION) -> dict[str, str]:
    return {
        "api/openapi.yaml": yaml(SPLIT_API),
        "api/texts.yaml": "intro: The widgets API.\n",
        "api/ops/list.yaml": yaml(operation),
        "api/params/limit.yaml": yaml("name: limit\nin: query\nschema: {type: integer}\n"),
    }


def test_a_properties_map_kept_in_another_file_is_judged_there(make_corpus: MakeCorpus) -> None:
    # `properties: {$ref: attributes.yaml#/ids}` in an OpenAPI 3.0 schema file: the bundler
    # puts the map in its place. It was "`$ref`: ... is not of type object" in every schema
    # file that did so; now the map is judged, and its own errors are reported where written.
    files = split_api()
    files["api/ops/list.yaml"] = files["api/ops/list.yaml"].replace(
        "schema: {type: array, items: {type: string}}", "schema: {$ref: ../models/widget.yaml}"
    )
    files["api/models/widget.yaml"] = yaml(
        """
        type: object
        properties:
          $ref: attributes.yaml#/widget_ids
        """
    )
    files["api/models/attributes.yaml"] = yaml(
        """
        widget_ids:
          ids: {type: array, items: {type: integer}}
        """
    )
    root = make_corpus(files)
    assert run_rule(root, "schema-invalid") == []
    files["api/models/attributes.yaml"] = files["api/models/attributes.yaml"].replace(
        "type: array,", "type: array, minItems: -1,"
    )
    root = make_corpus(files)
    [finding] = run_rule(root, "schema-invalid")
    assert finding.location.path == "api/models/attributes.yaml"
    assert finding.location.pointer == "/widget_ids/ids/minItems"


# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


def test_schema_invalid_fail_and_pass(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/run.schema.json": schema(type="object", required="runId")})
    [finding] = findings_of("schema-invalid", root)
    assert finding.location.pointer == "/required"
    assert 'not of type "array"' in finding.message
    (root / "schemas/run.schema.json").write_text(schema(type="object", required=["runId"]))
    assert findings_of("schema-invalid", root) == []


def test_schema_invalid_uses_the_declared_dialect(make_corpus: MakeCorpus) -> None:
    # draft-04's exclusiveMinimum is a boolean; a number is invalid there and valid in 2020-12.
    draft4 = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "minimum": 1,
        "exclusiveMinimum": 1,
    }
    root = make_corpus(
        {
            "schemas/a.schema.json": json.dumps(draft4),
            "schemas/b.schema.json": schema(exclusiveMinimum=1),
        }
    )
    found = findings_of("schema-invalid", root)
    assert [f.location.path for f in found] == ["schemas/a.schema.json"]


def test_schema_invalid_unknown_dialect(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": json.dumps(
                {"$schema": "https://json-schema.org/draft/2099/schema"}
            )
        }
    )
    assert any("unknown dialect" in f.message for f in findings_of("schema-invalid", root))


def test_schema_invalid_asks_the_python_validator_only_about_rejected_schemas(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jsonschema-rs judges first; the slower validator explains only what it rejects, with the
    same findings as before (issue 16)."""
    import speclint.rules.schema_invalid as rule

    asked: list[object] = []
    original = rule.located_errors

    def counting(validator: object, part: object, limit: int) -> object:
        asked.append(part)
        return original(validator, part, limit)  # type: ignore[arg-type]

    monkeypatch.setattr(rule, "located_errors", counting)
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    root = make_corpus(
        {
            "schemas/ok.schema.json": schema(type="object", properties={"a": {"type": "string"}}),
            "schemas/old.schema.json": json.dumps(draft7),
            "schemas/bad.schema.json": schema(type="objekt"),
        }
    )
    [finding] = findings_of("schema-invalid", root)
    assert finding.location.path == "schemas/bad.schema.json" and "objekt" in finding.message
    assert len(asked) == 1
