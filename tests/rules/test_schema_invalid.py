"""Tests of schema invalid."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule, schema

# Issue 45, ecosystem batch 3 at first read: a `$ref` a bundler inlines that only a `oneOf`
# branch rejects, the explanation of a `oneOf` of a Reference and an object, errors past the
# cap said, not dropped. Every fixture here is our own.


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


# Classes found at the first read of ecosystem batch 4 (issue 45), each on a fixture of ours.


def test_a_json_file_with_lone_carriage_returns_is_located_line_for_line(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"schemas/bad.schema.json": '{\r  "type": 5\r}\r'})
    [finding] = run_rule(root, "schema-invalid")
    assert finding.location.line == 2


# Issue 26, items 4 and 5: precision of version-drift, remote-ref, undeclared-tag,
# instance-invalid, openapi-invalid, schema-invalid and parse-error on layouts seen in public spec
# repositories, and short first lines for the closure, union, satisfiability and identity rules.
# Every fixture here is our own.


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


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


# Issue 45, ecosystem batch 1: split API sources a bundler resolves, versions whose official
# schema speclint does not ship, and messages garbled on their way to the report. Every fixture
# here is our own.


SPLIT_API = """
openapi: 3.0.3
info: {title: Widgets, version: "1"}
tags:
  - name: Intro
    description:
      $ref: texts.yaml#/intro
paths:
  /widgets:
    get:
      $ref: ops/list.yaml
    post:
      $ref: ops/missing.yaml
"""


LIST_OPERATION = """
operationId: listWidgets
parameters:
  - $ref: ../params/limit.yaml
responses:
  "200":
    description: The widgets.
    content:
      application/json:
        schema: {type: array, items: {type: string}}
"""


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
