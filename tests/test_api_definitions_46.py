"""Examples bound to API components, copies of one definition as one, names by case convention
(issue 46, items 1, 4 and 9: ``speclint.analyses.api_definitions``, ``example-invalid``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_cli, run_rule
from speclint.common.findings import Finding

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


# --- item 1: API components are definitions ------------------------------------------------


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
        assert finding.related[0].pointer == "/components/schemas/Job"
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
    assert finding.related[0].pointer == "/components/messages/OrderPlaced/payload"
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
    assert finding.related[0].pointer == "/components/schemas/Job"


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
