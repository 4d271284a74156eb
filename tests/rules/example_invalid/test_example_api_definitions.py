"""Examples bound to API components, copies of one definition as one, names by case convention
(issue 46, items 1, 4 and 9: ``speclint.analyses.api.api_definitions``, ``example-invalid``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_cli import cli
from test_fence_invalid import BROKEN_FENCE, JOB, api

from conftest import run_cli, run_rule
from speclint.common.findings import Finding
from speclint.parsing.inlined import content_digest, source_pointer

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


# An OpenAPI document whose only schemas are its components: a closed job with an enum.
JOB_30 = """\
openapi: 3.0.3
info: {title: Jobs, version: 1.0.0}
paths:
  /jobs:
    get:
      responses:
        '200':
          description: the jobs
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Job'}}
components:
  schemas:
    Job:
      type: object
      additionalProperties: false
      required: [kind, jobId, state, attempts]
      properties:
        kind: {const: job}
        jobId: {type: string}
        state: {$ref: '#/components/schemas/JobState'}
        attempts: {type: integer}
        note: {type: string, nullable: true}
    JobState:
      type: string
      enum: [queued, running, done]
"""


def fence(value: Any) -> str:
    return f"```json\n{json.dumps(value, indent=2)}\n```\n"


def readme(*examples: Any) -> str:
    body = "\n".join(f"A job:\n\n{fence(e)}" for e in examples)
    return f"# Jobs\n\n{body}"


def example_findings(root: Path) -> list[Finding]:
    return run_rule(root, "example-invalid")


GOOD_JOB = {"kind": "job", "jobId": "j-1", "state": "running", "attempts": 2, "note": None}


def test_an_example_that_breaks_an_openapi_component_is_reported_at_the_component(
    make_corpus: MakeCorpus,
) -> None:
    bad = [
        {**GOOD_JOB, "owner": "ada"},  # an unknown member of a closed object
        {**GOOD_JOB, "state": "paused"},  # a value outside the enum (through a `$ref`)
        {**GOOD_JOB, "attempts": "two"},  # a wrong type
    ]
    root = make_corpus({"openapi.yaml": JOB_30, "README.md": readme(*bad)})
    found = example_findings(root)
    assert [(f.location.path, f.heuristic) for f in found] == [
        ("README.md", "example-invalid/api-component")
    ] * 3
    for finding in found:
        assert finding.related[0].path == "openapi.yaml"
        # At the keyword that rejects the example, inside the component (issue 48, item 4).
        assert finding.related[0].pointer.startswith("/components/schemas/Job/")
    assert "'owner' was unexpected" in found[0].message.replace('"', "'")
    assert '"paused" is not one of' in found[1].message
    assert '"two" is not of type "integer"' in found[2].message


def test_a_valid_example_of_a_component_is_quiet_in_the_30_dialect(
    make_corpus: MakeCorpus,
) -> None:
    # `note: null` is valid only in OpenAPI 3.0's own dialect (`nullable: true`, §4.7.24.1).
    root = make_corpus({"openapi.yaml": JOB_30, "README.md": readme(GOOD_JOB)})
    assert example_findings(root) == []
    assert "-> openapi.yaml#/components/schemas/Job " in run_cli("bindings", str(root)).output


def test_a_31_component_is_judged_in_the_31_dialect(make_corpus: MakeCorpus) -> None:
    api = (
        JOB_30.replace("3.0.3", "3.1.0")
        .replace("nullable: true", "")
        .replace("{type: string, }", '{type: ["string", "null"]}')
    )
    root = make_corpus({"openapi.yaml": api, "README.md": readme({**GOOD_JOB, "state": "x"})})
    [finding] = example_findings(root)
    assert '"x" is not one of' in finding.message


ORDERS_ASYNC = """\
asyncapi: 3.0.0
info: {title: Orders, version: 1.0.0}
channels:
  orders:
    address: orders
    messages:
      placed: {$ref: '#/components/messages/OrderPlaced'}
components:
  messages:
    OrderPlaced:
      name: OrderPlaced
      payload:
        type: object
        additionalProperties: false
        required: [orderId, kind, total]
        properties:
          orderId: {type: string}
          kind: {const: order.placed}
          total: {type: number}
          currency: {$ref: '#/components/schemas/Currency'}
  schemas:
    Currency: {type: string, enum: [EUR, USD]}
"""


def test_an_example_that_breaks_an_asyncapi_message_payload_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    bad = {"orderId": "o-1", "kind": "order.placed", "total": 3, "currency": "GBP"}
    root = make_corpus({"asyncapi.yaml": ORDERS_ASYNC, "README.md": readme(bad)})
    [finding] = example_findings(root)
    assert '"GBP" is not one of' in finding.message
    assert finding.related[0].pointer == (
        "/components/messages/OrderPlaced/payload/properties/currency/enum"
    )
    assert '`kind: "order.placed"`' in finding.message  # bound by its value


def test_a_valid_example_of_a_message_payload_is_quiet(make_corpus: MakeCorpus) -> None:
    good = {"orderId": "o-1", "kind": "order.placed", "total": 3, "currency": "EUR"}
    root = make_corpus({"asyncapi.yaml": ORDERS_ASYNC, "README.md": readme(good)})
    assert example_findings(root) == []
    bound = "-> asyncapi.yaml#/components/messages/OrderPlaced/payload "
    assert bound in run_cli("bindings", str(root)).output


def test_a_component_named_by_the_text_above_binds_by_definition_name(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Jobs\n\nA `Job` object:\n\n" + fence({"state": "gone", "note": "late"})
    root = make_corpus({"openapi.yaml": JOB_30, "README.md": page})
    [finding] = example_findings(root)
    assert '"gone" is not one of' in finding.message
    assert "definition name" in finding.message or "the definition name" in str(finding.related)


def test_an_example_file_binds_to_a_component(make_corpus: MakeCorpus) -> None:
    example = json.dumps({**GOOD_JOB, "state": "paused"})
    root = make_corpus({"openapi.yaml": JOB_30, "examples/job.json": example})
    [finding] = example_findings(root)
    assert finding.location.path == "examples/job.json"
    assert finding.related[0].pointer == "/components/schemas/Job/properties/state/enum"


def test_bindings_lists_the_component_with_its_document_and_pointer(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": JOB_30, "README.md": readme(GOOD_JOB)})
    result = run_cli("bindings", str(root))
    assert (
        '-> openapi.yaml#/components/schemas/Job (by example value: `kind: "job"`' in result.output
    )


def test_a_message_in_another_schema_format_binds_nothing(make_corpus: MakeCorpus) -> None:
    api = ORDERS_ASYNC.replace(
        "      name: OrderPlaced\n",
        "      name: OrderPlaced\n      schemaFormat: application/vnd.apache.avro;version=1.9.0\n",
    )
    bad = {"orderId": "o-1", "kind": "order.placed", "total": 3, "currency": "GBP"}
    root = make_corpus({"asyncapi.yaml": api, "README.md": readme(bad)})
    assert example_findings(root) == []


def job_schema(*extra: str, title: str = "Job") -> str:
    """A job schema file with a `kind` discriminator; ``extra`` string members beside."""
    properties: dict[str, Any] = {
        "kind": {"const": "job"},
        "jobId": {"type": "string"},
        "state": {"enum": ["queued", "running", "done"]},
        "attempts": {"type": "integer"},
        **{name: {"type": "string"} for name in extra},
    }
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": title,
            "type": "object",
            "required": ["kind", "jobId", "state"],
            "properties": properties,
        },
        indent=2,
    )


BROKEN_JOB = {"kind": "job", "jobId": "j-1", "state": "paused", "attempts": 1}


def bound_to(root: Path) -> list[str]:
    """The targets ``speclint bindings`` lists for the examples of the corpus."""
    output = run_cli("bindings", str(root)).output
    return [line.split("-> ")[1].split(" (by")[0] for line in output.splitlines() if "-> " in line]


def test_frozen_versions_of_a_definition_bind_the_newest(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/v1/job.schema.json": job_schema(),
            "schemas/v2/job.schema.json": job_schema("owner"),
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["schemas/v2/job.schema.json"]
    [finding] = example_findings(root)
    assert finding.related[0].path == "schemas/v2/job.schema.json"


def test_a_versioned_page_binds_its_own_version(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/v1/job.schema.json": job_schema(),
            "schemas/v2/job.schema.json": job_schema("owner"),
            "docs/v1/guide.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["schemas/v1/job.schema.json"]


def test_a_generated_copy_gives_way_to_its_source(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/job.schema.json": job_schema(),
            "out/job.schema.json": job_schema("generatedAt"),
            ".gitattributes": "out/** linguist-generated=true\n",
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["schemas/job.schema.json"]
    assert len(example_findings(root)) == 1


def test_a_vendored_copy_gives_way_to_its_source(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/job.schema.json": job_schema(),
            "third/job.schema.json": job_schema("legacy"),
            ".gitattributes": "third/** linguist-vendored\n",
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["schemas/job.schema.json"]


def test_a_client_copy_gives_way_to_its_source(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/job.schema.json": job_schema("owner"),
            "clients/python/job.schema.json": job_schema(),
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["schemas/job.schema.json"]
    [finding] = example_findings(root)
    assert finding.related[0].path == "schemas/job.schema.json"


def test_a_component_copying_a_schema_file_gives_way_to_the_file(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/job.schema.json": job_schema("owner"),
            "openapi.yaml": JOB_30,
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["schemas/job.schema.json"]
    assert len(example_findings(root)) == 1


def test_two_first_party_definitions_of_one_name_stay_ambiguous(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a/job.schema.json": job_schema(),
            "schemas/b/job.schema.json": job_schema("owner"),
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == []
    assert "fit several definitions" in run_cli("bindings", str(root)).output


def test_a_definition_named_in_two_versions_binds_the_newest_by_name(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Jobs\n\nA `Job` object:\n\n" + fence({"state": "gone", "attempts": 1})
    root = make_corpus(
        {
            "schemas/v1/job.schema.json": job_schema(),
            "schemas/v2/job.schema.json": job_schema("owner"),
            "README.md": page,
        }
    )
    [finding] = example_findings(root)
    assert finding.related[0].path == "schemas/v2/job.schema.json"
    assert "definition name" in finding.message


RETRY = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "RetryPolicy",
    "type": "object",
    "properties": {
        "kind": {"const": "retry"},
        "max_retries": {"type": "integer"},
        "retryCount": {"type": "integer"},
        "backoff": {"$ref": "#/$defs/Backoff"},
    },
    "$defs": {"Backoff": {"type": "object", "properties": {"initial_delay": {"type": "number"}}}},
}


def convention_findings(root: Path) -> list[Finding]:
    return [f for f in example_findings(root) if f.heuristic == "example-invalid/case-convention"]


def test_a_member_in_another_case_convention_is_reported_where_the_schema_is_open(
    make_corpus: MakeCorpus,
) -> None:
    example = {"kind": "retry", "maxRetries": 3, "retry-count": 1, "backoff": {"initialDelay": 2}}
    root = make_corpus(
        {"schemas/retry.schema.json": json.dumps(RETRY), "README.md": readme(example)}
    )
    [finding] = convention_findings(root)
    assert finding.message.startswith(
        "example at /maxRetries: `maxRetries` is `max_retries` in another case convention"
    )
    assert "write `max_retries`" in finding.message
    assert finding.severity.label == "warning"
    assert finding.location.line == 8  # the line of `"maxRetries"` in the fence
    notes = [r.note for r in finding.related[1:]]
    assert notes == [
        "`retry-count`: write `retryCount`",
        "`initialDelay`: write `initial_delay`",  # through the `$ref`
    ]
    assert example_findings(root) == [finding]  # the example is otherwise valid


def test_the_declared_spelling_is_quiet(make_corpus: MakeCorpus) -> None:
    example = {"kind": "retry", "max_retries": 3, "retryCount": 1, "extra": True}
    root = make_corpus(
        {"schemas/retry.schema.json": json.dumps(RETRY), "README.md": readme(example)}
    )
    assert example_findings(root) == []


def test_a_closed_object_reports_the_member_once(make_corpus: MakeCorpus) -> None:
    closed = {**RETRY, "additionalProperties": False}
    example = {"kind": "retry", "maxRetries": 3}
    root = make_corpus(
        {"schemas/retry.schema.json": json.dumps(closed), "README.md": readme(example)}
    )
    [finding] = example_findings(root)
    assert "was unexpected" in finding.message
    assert finding.heuristic != "example-invalid/case-convention"


def test_a_map_or_a_matching_pattern_takes_any_member(make_corpus: MakeCorpus) -> None:
    schema = {
        **RETRY,
        "patternProperties": {"^x-": {}},
        "properties": {
            **RETRY["properties"],
            "labels": {
                "type": "object",
                "properties": {"team_name": {"type": "string"}},
                "additionalProperties": {"type": "string"},
            },
        },
    }
    example = {"kind": "retry", "x-max-retries": 3, "labels": {"teamName": "a"}}
    root = make_corpus(
        {"schemas/retry.schema.json": json.dumps(schema), "README.md": readme(example)}
    )
    assert convention_findings(root) == []


def test_an_api_documents_own_example_in_another_convention_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    api = JOB_30.replace("      additionalProperties: false\n", "").replace(
        "    JobState:",
        "      example: {kind: job, jobId: j-1, state: done, attempts: 1, Note: late}\n"
        "    JobState:",
    )
    root = make_corpus({"openapi.yaml": api})
    [finding] = convention_findings(root)
    assert finding.location.pointer == "/components/schemas/Job/example/Note"
    assert "write `note`" in finding.message


def test_an_example_file_in_another_convention_is_reported(make_corpus: MakeCorpus) -> None:
    example = json.dumps({"kind": "retry", "MaxRetries": 3})
    root = make_corpus(
        {"schemas/retry.schema.json": json.dumps(RETRY), "examples/retry.json": example}
    )
    [finding] = convention_findings(root)
    assert finding.location.path == "examples/retry.json"
    assert finding.location.pointer == "/MaxRetries"


def test_members_shown_without_braces_are_a_fragment(make_corpus: MakeCorpus) -> None:
    # Three settings of a component shown as bare members: they bind by shape, and what the
    # fragment leaves out (the required `kind`, `jobId`) is not its defect; a wrong type is.
    page = '# Jobs\n\nTuning:\n\n```json\n"state": "done",\n"attempts": 2,\n"note": "x"\n```\n'
    root = make_corpus({"openapi.yaml": JOB_30, "README.md": page})
    assert example_findings(root) == []
    wrong = page.replace('"attempts": 2', '"attempts": "2"')
    root = make_corpus({"openapi.yaml": JOB_30, "README.md": wrong})
    [finding] = example_findings(root)
    assert '"2" is not of type "integer"' in finding.message


def test_a_page_of_an_obsolete_version_binds_no_component(make_corpus: MakeCorpus) -> None:
    # The page documents the API as it stood: the components are what it is now.
    bad = {**GOOD_JOB, "state": "paused"}
    root = make_corpus({"openapi.yaml": JOB_30, "docs/obsolete/get-job-v1.md": readme(bad)})
    assert example_findings(root) == []
    assert bound_to(root) == []


def test_of_identical_copies_the_source_is_the_binding(make_corpus: MakeCorpus) -> None:
    # `spec/job.schema.json` is published unchanged as release 2's copy: one definition, and
    # the binding names the file the maintainers edit (the unversioned one).
    root = make_corpus(
        {
            "spec/job.schema.json": job_schema(),
            "site/static/spec/2-0-0/job.schema.json": job_schema(),
            "site/static/spec/1-0-0/job.schema.json": job_schema("legacy"),
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["spec/job.schema.json"]


def test_a_schema_file_generated_from_a_component_gives_way_under_another_name(
    make_corpus: MakeCorpus,
) -> None:
    # A build writes each operation's schema from the API document (`getJobs_get.json`): the
    # same members as the component `Job`, another name; the component is the source.
    generated = job_schema("note", title="getJobs_get")
    root = make_corpus(
        {
            "openapi.yaml": JOB_30,
            "static/jsonschemas/getJobs_get.json": generated,
            ".gitattributes": "static/jsonschemas/* linguist-generated=true\n",
            "README.md": readme(BROKEN_JOB),
        }
    )
    assert bound_to(root) == ["openapi.yaml#/components/schemas/Job"]
    [finding] = example_findings(root)
    assert finding.related[0].pointer == "/components/schemas/Job/properties/state/enum"


def test_a_proto_fields_own_name_is_its_json_name_too_in_a_proto_api(
    make_corpus: MakeCorpus,
) -> None:
    # ProtoJSON parsers accept a field's proto name (`retry_count`) beside its lowerCamelCase
    # JSON name (`retryCount`): in a repository of protos, that spelling is no slip. The
    # reverse (`maxRetries` for a declared `max_retries`) still is.
    example = {"kind": "retry", "maxRetries": 3, "retry_count": 1}
    files = {"schemas/retry.schema.json": json.dumps(RETRY), "README.md": readme(example)}
    proto = 'syntax = "proto3";\nmessage RetryPolicy { int32 retry_count = 1; }\n'
    [alone] = convention_findings(make_corpus(files))
    assert alone.message.startswith("example at /maxRetries")
    assert [r.note for r in alone.related[1:]] == ["`retry_count`: write `retryCount`"]
    [finding] = convention_findings(make_corpus({**files, "proto/retry.proto": proto}))
    assert "`retry_count`" not in finding.message and not finding.related[1:]


# An API document's own prose and vendor examples (issue 46's missed classes).
#
# - ``x-examples`` (a map of name to example, as Stoplight and others write it on a schema or a
#   media type) is validated against its schema as ``examples`` are: a preview heuristic of
#   ``example-invalid``.
# - The ``description`` text of an OpenAPI or AsyncAPI document is CommonMark (OpenAPI 3.1 §4.3):
#   its fences and the routes it names are read as a page's are, and reported at the line of the
#   YAML or JSON file they are written on.


def lines_of(found: list[Finding]) -> list[tuple[str, int]]:
    return [(f.location.path, f.location.line) for f in found if f.coverage is None]


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


# Classes of invalid examples a first read of a public repository missed (issue 46, round 2):
#
# - an API document published twice, as written (``$ref``\s to its components) and dereferenced
#   (every ``$ref`` written out in place): the copies of one example are one finding, at the
#   example as written, each copy a related location, wherever the copy sits;
# - a schema example of an API document written as the JSON text of the object its schema wants
#   (``example: |-`` over lines): the API exchanges a string there, so it is reported, with the
#   fix (write the value itself); a JSON Schema file's block of JSON text is still judged by the
#   value it shows;
# - a sample response after a ``curl`` call, bound through the operation although the dereferenced
#   copy gives the same schema in another text.


# A component used by `$ref` in two responses; its `age` example is not an integer.
API = """\
openapi: 3.0.1
info: {title: Pets, version: '1'}
paths:
  /pets:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewPet'}
      responses:
        '200':
          description: the pet made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '422':
          description: not made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Problem'}
  /pets/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
components:
  schemas:
    NewPet:
      type: object
      properties:
        name: {type: string}
      required: [name]
    Pet:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
        age: {type: integer, example: old}
        traits: {$ref: '#/components/schemas/Traits'}
      required: [id, name]
    Traits:
      description: Anything the owner tells.
      type: object
%s
    Problem:
      type: object
      properties:
        detail: {type: string}
"""


NO_EXAMPLE = ""


# A block scalar holding JSON text where the schema wants an object.
JSON_TEXT = """\
      example: |-
        {
        "playful": true,
        "colour": "brown"
        }"""


def dereferenced(root: Any, node: Any = None) -> Any:
    """``node`` of ``root`` with every local ``$ref`` written out in place (what a bundler's
    dereference does)."""
    node = root if node is None else node
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/"):
            target: Any = root
            for token in reference[2:].split("/"):
                target = target[token]
            return dereferenced(root, target)
        return {k: dereferenced(root, v) for k, v in node.items()}
    if isinstance(node, list):
        return [dereferenced(root, v) for v in node]
    return node


def published_twice(example: str) -> dict[str, str | bytes]:
    written = API % example
    copy = dereferenced(yaml.safe_load(written))
    return {"api/openapi.yml": written, "api/openapi.json": json.dumps(copy, indent=2) + "\n"}


def findings(root: Path, rule: str = "example-invalid") -> list[dict[str, Any]]:
    run = cli("check", str(root), "--no-cache", "--preview", "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    return [f for f in json.loads(run.stdout)["findings"] if f["rule"] == rule]


def test_copies_in_a_dereferenced_twin_are_one_finding_at_the_example_as_written(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(published_twice(NO_EXAMPLE))
    found = findings(root)
    # The twin fold once kept the copy at the component's own pointer, and every inlined copy
    # (at a path's pointer) as a finding of its own.
    (one,) = found
    assert one["location"]["path"] == "api/openapi.yml"
    assert one["location"]["pointer"] == "/components/schemas/Pet/properties/age/example"
    copies = {r["pointer"] for r in one["related"] if r["path"] == "api/openapi.json"}
    success = "/responses/200/content/application~1json/schema/properties/age/example"
    assert copies == {
        "/components/schemas/Pet/properties/age/example",
        f"/paths/~1pets/post{success}",
        f"/paths/~1pets~1{{id}}/get{success}",
    }


def test_a_copy_only_the_dereferenced_twin_has_is_kept(make_corpus: MakeCorpus) -> None:
    files = published_twice(NO_EXAMPLE)
    copy = json.loads(files["api/openapi.json"])
    inlined = copy["paths"]["/pets"]["post"]["responses"]["200"]["content"]["application/json"]
    inlined["schema"]["properties"]["name"]["example"] = 7  # edited in the copy alone
    files["api/openapi.json"] = json.dumps(copy, indent=2) + "\n"
    at = {(f["location"]["path"], f["location"]["pointer"]) for f in findings(make_corpus(files))}
    assert (
        "api/openapi.json",
        "/paths/~1pets/post/responses/200/content/application~1json/schema/properties/name/example",
    ) in at
    assert ("api/openapi.yml", "/components/schemas/Pet/properties/age/example") in at


@pytest.mark.parametrize("copy", ["api/openapi.dereferenced.json", "bundle/openapi-resolved.yaml"])
def test_a_dereferenced_copy_under_another_name_is_one_finding_at_the_example_as_written(
    make_corpus: MakeCorpus, copy: str
) -> None:
    """The copy is recognised by its content (the source once its `$ref`s are read), not by
    its name: another name, another folder, or the same format as the source."""
    files = published_twice(NO_EXAMPLE)
    inlined = json.loads(files.pop("api/openapi.json"))
    text = json.dumps(inlined, indent=2) if copy.endswith(".json") else yaml.safe_dump(inlined)
    (one,) = findings(make_corpus({**files, copy: text + "\n"}))
    assert one["location"]["path"] == "api/openapi.yml"
    assert one["location"]["pointer"] == "/components/schemas/Pet/properties/age/example"
    assert len([r for r in one["related"] if r["path"] == copy]) == 3


@pytest.mark.parametrize("copy", ["api/openapi.json", "api/openapi.dereferenced.json"])
def test_a_prose_example_binds_to_the_source_not_to_both_texts_of_a_dereferenced_copy(
    make_corpus: MakeCorpus, copy: str
) -> None:
    """The component in the document and in its dereferenced copy are one definition (issue
    46, item 4): the example fits it, not "several definitions", and is judged at the source."""
    files = published_twice(NO_EXAMPLE)
    files[copy] = files.pop("api/openapi.json")
    example = '```json\n{"id": "p1", "name": "Rex", "age": "three"}\n```\n'
    files["docs/pets.md"] = "# Pets\n\nA pet as the API returns it:\n\n" + example
    (found,) = [f for f in findings(make_corpus(files)) if f["location"]["path"] == "docs/pets.md"]
    assert "`three`" in found["message"] or '"three"' in found["message"]
    assert {r["path"] for r in found["related"]} - {"docs/pets.md"} == {"api/openapi.yml"}


def test_a_document_under_another_name_that_says_more_is_no_copy(make_corpus: MakeCorpus) -> None:
    files = published_twice(NO_EXAMPLE)
    other = json.loads(files.pop("api/openapi.json"))
    other["components"]["schemas"]["Owner"] = {"type": "object"}  # not the source's content
    files["api/owners.json"] = json.dumps(other, indent=2) + "\n"
    at = {f["location"]["path"] for f in findings(make_corpus(files))}
    assert at == {"api/openapi.yml", "api/owners.json"}


def test_json_text_of_an_object_in_an_api_schema_example_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yml": API % JSON_TEXT})
    (found,) = [
        f
        for f in findings(root)
        if f["location"]["pointer"] == "/components/schemas/Traits/example"
    ]
    assert found["heuristic"] == "example-invalid/api-json-text"
    assert "JSON text" in found["message"]
    assert "write the object itself" in found["message"]


def test_json_text_in_a_json_schema_file_is_still_judged_by_the_value_it_shows(
    make_corpus: MakeCorpus,
) -> None:
    text = '{\n  "playful": true\n}'
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"traits": {"type": "object", "examples": [text]}},
    }
    root = make_corpus({"schemas/pet.schema.json": json.dumps(schema, indent=2) + "\n"})
    assert findings(root) == []


# A response whose JSON media type shows its example as JSON text (a trailing comma: it does not
# even parse), an XML one as a string, and a schema example giving an object's text for an array.
MEDIA_TEXT = """\
openapi: 3.1.0
info: {title: Balances, version: '1'}
paths:
  /balances:
    get:
      responses:
        '200':
          description: the balances
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Balances'}
              examples:
                two:
                  value: "{\\n  \\"accounts\\": [\\n    {\\"id\\": \\"a-1\\"},\\n  ]\\n}\\n"
                templated:
                  value: "{\\n  \\"accounts\\": [{\\"id\\": \\"{{ uuid() }}\\"}]\\n}"
            application/xml:
              schema: {$ref: '#/components/schemas/Balances'}
              example: "<balances> <account id='a-1'/> <account id='a-2'/> </balances>"
components:
  schemas:
    Balances:
      type: object
      properties:
        accounts:
          type: array
          items: {type: object, properties: {id: {type: string}}}
          example: '{ "id": "a-1", "note": "the first account of the list" }'
"""


def test_json_text_in_a_json_media_type_example_is_reported(make_corpus: MakeCorpus) -> None:
    """A JSON media type's example is the value (OpenAPI 3.1.0 §4.8.19.1: a string only for
    media types JSON cannot represent): its JSON text is a string where an object goes, parsed
    or not; an XML media type's string is how its example is written, a mock server's template
    (Microcks' ``{{ uuid() }}``) is rendered per request, and an object's text where an array
    goes is a string all the same."""
    found = {
        f["location"]["pointer"]: f for f in findings(make_corpus({"api/openapi.yml": MEDIA_TEXT}))
    }
    media = "/paths/~1balances/get/responses/200/content/application~1json/examples/two/value"
    schema = "/components/schemas/Balances/properties/accounts/example"
    assert set(found) == {media, schema}
    assert found[media]["severity"] == "error"
    assert found[media]["heuristic"] == "example-invalid/api-json-text"
    assert "write the object itself, not its JSON text" in found[media]["message"]
    assert "write the array itself, not its JSON text" in found[schema]["message"]


def test_a_sentence_where_a_number_goes_is_reported_where_one_for_an_object_is_not(
    make_corpus: MakeCorpus,
) -> None:
    """A sentence describes an object or an array too large to show (CycloneDX's "a reference
    to a service"); where a number goes it stands in for one the author could have written."""
    epoch = {"type": "number", "example": "2017-03-25 in the Gregorian calendar is 2017.23"}
    service = {"type": "object", "example": "a reference to a service used in a task"}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Epochs", "version": "1"},
        "paths": {},
        "components": {"schemas": {"Epoch": epoch, "Service": service}},
    }
    root = make_corpus({"api/openapi.json": json.dumps(document, indent=2) + "\n"})
    (found,) = findings(root)
    assert found["location"]["pointer"] == "/components/schemas/Epoch/example"
    assert 'is not of type "number"' in found["message"]


def test_a_sample_response_binds_though_a_dereferenced_copy_gives_its_schema_again(
    make_corpus: MakeCorpus,
) -> None:
    files = published_twice(NO_EXAMPLE)
    files["docs/calling.md"] = """\
# Calling the API

To make a pet run

```sh
curl --request POST \\
  --url http://localhost:8000/pets \\
  --header 'Content-Type: application/json' \\
  --data '{"name": "Rex"}'
```

To get a response like this:

```json
{
  "name": "Rex",
  "age": 3
}
```
"""
    page = [f for f in findings(make_corpus(files)) if f["location"]["path"] == "docs/calling.md"]
    (missing,) = page
    assert '"id" is a required property' in missing["message"]
    assert missing["heuristic"] == "example-invalid/by-exchange"


def test_an_inlined_copy_reads_as_its_reference() -> None:
    written = yaml.safe_load(API % NO_EXAMPLE)
    copy = dereferenced(written)
    inlined = "/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema"
    assert source_pointer(written, f"{inlined}/properties/age") == (
        "/components/schemas/Pet/properties/age"
    )
    assert source_pointer(written, f"{inlined}/properties/nothing") is None
    memo: dict[str, str] = {}
    pet = written["components"]["schemas"]["Pet"]
    assert content_digest(copy, copy["components"]["schemas"]["Pet"]) == content_digest(
        written, pet, memo
    )
    assert content_digest(written, {"$ref": "#/components/schemas/Pet"}, memo) == (
        content_digest(written, pet, memo)
    )
    assert content_digest(written, pet) != content_digest(
        written, written["components"]["schemas"]["Problem"]
    )
