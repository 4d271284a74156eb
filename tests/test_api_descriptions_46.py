"""An API document's own prose and vendor examples (issue 46's missed classes).

- ``x-examples`` (a map of name to example, as Stoplight and others write it on a schema or a
  media type) is validated against its schema as ``examples`` are: a preview heuristic of
  ``example-invalid``.
- The ``description`` text of an OpenAPI or AsyncAPI document is CommonMark (OpenAPI 3.1 §4.3):
  its fences and the routes it names are read as a page's are, and reported at the line of the
  YAML or JSON file they are written on.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule
from speclint.common.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

JOB = """\
    Job:
      type: object
      required: [id, state]
      properties:
        id: {type: string}
        state: {type: string, enum: [queued, running, done]}
"""


def api(
    paths: str = "", schemas: str = JOB, top: str = "", version: str = "3.1.0", info: str = ""
) -> str:
    """An OpenAPI document: ``info`` (YAML members of ``info``), ``top`` (YAML members after
    ``info``), ``paths`` (under ``paths:``) and ``schemas`` (under ``components/schemas``)."""
    return (
        f"openapi: {version}\ninfo:\n  title: Jobs\n  version: 1.0.0\n"
        + textwrap.indent(textwrap.dedent(info), "  ")
        + textwrap.dedent(top)
        + ("paths:\n" + textwrap.indent(textwrap.dedent(paths), "  ") if paths else "paths: {}\n")
        + "components:\n  schemas:\n"
        + schemas
    )


def lines_of(found: list[Finding]) -> list[tuple[str, int]]:
    return [(f.location.path, f.location.line) for f in found if f.coverage is None]


# ---------------------------------------------------------------- x-examples


X_SCHEMA = (
    JOB
    + """\
      x-examples:
        Queued:
          id: job-1
          state: queued
        Paused:
          id: job-2
          state: paused
"""
)


def test_a_schemas_x_examples_are_validated_against_it(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(schemas=X_SCHEMA)})
    found = [f for f in run_rule(root, "example-invalid") if f.coverage is None]
    # `Paused:`; the empty map and the valid one are no finding
    assert lines_of(found) == [("openapi.yaml", 18)]
    assert '"paused" is not one of' in found[0].message
    assert found[0].location.pointer == "/components/schemas/Job/x-examples/Paused"
    assert found[0].heuristic == "example-invalid/x-examples"


def test_a_media_types_x_examples_are_validated_against_its_schema(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /jobs:
      get:
        responses:
          '200':
            description: A job.
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Job'}
                x-examples:
                  first: {id: job-1, state: done}
                  second:
                    summary: An example object, its value the example
                    value: {id: job-2}
    """
    root = make_corpus({"openapi.yaml": api(paths)})
    found = [f for f in run_rule(root, "example-invalid") if f.coverage is None]
    assert [f.location.pointer for f in found] == [
        "/paths/~1jobs/get/responses/200/content/application~1json/x-examples/second/value"
    ]
    assert '"state" is a required property' in found[0].message
    assert found[0].heuristic == "example-invalid/x-examples"


# ---------------------------------------------------------------- description text


BROKEN_FENCE = """\
description: |
  Jobs run processes.

  ## A job

  ```json
  {
    "id": "job-1"
    "state": "queued"
  }
  ```
"""


def test_a_broken_fence_in_a_literal_description_is_reported_at_its_line(
    make_corpus: MakeCorpus,
) -> None:
    # a `description` member of an example is data, not prose
    schemas = (
        JOB + '      example:\n        id: job-1\n        description: "```json\\n{,}\\n```"\n'
    )
    root = make_corpus({"openapi.yaml": api(info=BROKEN_FENCE, schemas=schemas)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, f.location.column) for f in found] == [(13, 7)]  # `"state"`
    assert found[0].location.path == "openapi.yaml"
    assert found[0].location.pointer == "/info/description"


def test_an_untagged_fence_of_a_description_is_untagged_json_invalids(
    make_corpus: MakeCorpus,
) -> None:
    info = BROKEN_FENCE.replace("```json", "```")
    page = '```\n{"a": 1\n"b": 2}\n```\n'
    root = make_corpus({"openapi.yaml": api(info=info), "guide.md": page})
    # one reading of an untagged block, on a page or in a description: untagged-json-invalid's
    assert run_rule(root, "fence-invalid") == []
    found = run_rule(root, "untagged-json-invalid")
    assert [(f.location.path, f.location.line, f.location.column) for f in found] == [
        ("guide.md", 3, 1),
        ("openapi.yaml", 13, 7),  # `"state"`, at the file's line
    ]
    assert found[1].location.pointer == "/info/description"
    assert "untagged fence is JSON" in found[1].message


def test_an_indented_block_of_a_description_is_untagged_json_invalids(
    make_corpus: MakeCorpus,
) -> None:
    # (a description is read as prose when it holds a fence or a route: `/jobs` here)
    info = """\
    description: |
      Jobs run processes; `/jobs` lists them. A job:

          {
            "id": "job-1"
            "state": "queued"
          }
    """
    root = make_corpus({"openapi.yaml": api(info=info)})
    assert run_rule(root, "fence-invalid") == []
    found = run_rule(root, "untagged-json-invalid")
    assert [(f.location.line, f.location.column) for f in found] == [(10, 11)]  # `"state"`
    assert "indented code block is JSON" in found[0].message


def test_an_untagged_sketch_of_a_description_is_judged_as_a_pages_is(
    make_corpus: MakeCorpus,
) -> None:
    # a string broken across lines is as often a sketch's shorthand as a slip: on a page it is
    # not reported, and a description's untagged block is read by the same policy
    sketch = '```\n{\n  "id": "job-1",\n  "note": "runs\n  for ever"\n}\n```\n'
    info = "description: |\n" + textwrap.indent(sketch, "  ")
    root = make_corpus({"openapi.yaml": api(info=info), "guide.md": sketch})
    assert run_rule(root, "fence-invalid") == []
    assert run_rule(root, "untagged-json-invalid") == []


def test_a_folded_or_quoted_description_is_reported_at_its_key(make_corpus: MakeCorpus) -> None:
    paths = """\
    /jobs:
      get:
        description: "Lists jobs:\\n\\n```json\\n{\\"id\\": \\"job-1\\",}\\n```\\n"
        responses:
          '200': {description: OK}
    """
    root = make_corpus({"openapi.yaml": api(paths)})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.line, f.location.pointer) for f in found] == [
        (8, "/paths/~1jobs/get/description")
    ]


def test_a_json_api_documents_descriptions_are_read(make_corpus: MakeCorpus) -> None:
    document = (
        '{"openapi": "3.1.0",\n "info": {"title": "Jobs", "version": "1",\n'
        '  "description": "```json\\n{\\"a\\": 1 \\"b\\": 2}\\n```"},\n "paths": {}}\n'
    )
    # JSON Schema gives `description` no markup (Validation 2020-12 §9.1): a schema file's
    # descriptions are not read
    schema = (
        '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",\n'
        ' "description": "```json\\n{\\"a\\": 1 \\"b\\": 2}\\n```"}\n'
    )
    root = make_corpus({"openapi.json": document, "job.schema.json": schema})
    found = run_rule(root, "fence-invalid")
    assert [(f.location.path, f.location.line) for f in found] == [("openapi.json", 3)]


ORDERS = """\
/orders:
  post:
    summary: Create an order
    responses:
      '201': {description: Created}
/orders/{orderId}:
  get:
    summary: Read an order
    responses:
      '200': {description: OK}
  post:
    summary: Confirm an order
    description: |-
      Confirm an order created through `POST /order`.

      Sign in first at the provider's `/.well-known/openid-configuration`,
      then read it back with `GET /orders/{orderId}`.
    responses:
      '200': {description: OK}
/.well-known/jobs:
  get:
    description: |-
      Clients append `/.well-knwon/jobs` to the URL a user gives, as in
      `https://api.example.org/v1/other/thing` or `GET https://elsewhere.org/order`.
    responses:
      '200': {description: OK}
"""


def test_a_route_an_operations_description_names_is_held_to_its_document(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api(ORDERS)})
    found = run_rule(root, "route-undeclared")
    assert [(f.location.line, f.location.column, f.location.pointer) for f in found] == [
        (19, 42, "/paths/~1orders~1{orderId}/post/description"),  # the code span
        (28, 24, "/paths/~1.well-known~1jobs/get/description"),
    ]
    assert "`POST /order` is no operation" in found[0].message
    assert "the nearest is `POST /orders`" in found[0].message
    assert "the nearest is `GET /.well-known/jobs`" in found[1].message


def test_a_fence_left_open_in_one_description_does_not_swallow_the_next(
    make_corpus: MakeCorpus,
) -> None:
    top = "tags:\n  - name: jobs\n    description: |\n      Jobs.\n\n      ```text\n      open\n"
    root = make_corpus({"openapi.yaml": api(ORDERS, top=top)})
    found = run_rule(root, "route-undeclared")
    assert [f.location.line for f in found] == [26, 35]


def test_a_description_fence_bound_to_an_operation_is_validated(make_corpus: MakeCorpus) -> None:
    paths = """\
    /jobs:
      post:
        description: |
          Create a job:

          ```http
          POST /jobs HTTP/1.1
          Content-Type: application/json

          {"id": "job-1", "state": "paused"}
          ```
        requestBody:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
        responses:
          '201': {description: Created}
    """
    root = make_corpus({"openapi.yaml": api(paths)})
    found = [f for f in run_rule(root, "example-invalid") if f.coverage is None]
    assert [(f.location.path, f.location.line) for f in found] == [("openapi.yaml", 15)]
    assert '"paused" is not one of' in found[0].message
    assert found[0].heuristic == "example-invalid/api-description"


def test_bindings_list_the_routes_and_examples_of_the_descriptions(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api(ORDERS, info=BROKEN_FENCE)})
    result = run_cli("bindings", str(root))
    assert result.exit_code == 0, result.output
    said = result.output
    assert "openapi.yaml:10 (description /info/description) json example" in said
    assert (
        "openapi.yaml:30 (description /paths/~1orders~1{orderId}/post/description) code route "
        "`POST /order`\n    (no operation of openapi.yaml; nearest `POST /orders`)"
    ) in said
    assert "route `GET /orders/{orderId}`\n    -> `GET /orders/{orderId}` of openapi.yaml" in said


def test_a_descriptions_placeholder_is_its_own_unless_it_misspells_the_apis(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /parties/{Type}/{SubId}:
      get:
        description: |-
          Send `PUT /parties/{Type}/{SubI}` to answer, as `GET /parties/:type/:id` asks.
        responses:
          '200': {description: OK}
      put:
        responses:
          '200': {description: OK}
    """
    root = make_corpus({"openapi.yaml": api(paths)})
    found = run_rule(root, "route-undeclared")
    assert [(f.location.line, f.severity.label) for f in found] == [(9, "info")]
    assert "names its parameter `SubI` where the API names this parameter `SubId`" in (
        found[0].message
    )
