"""example-invalid: examples in OpenAPI and AsyncAPI documents checked against their schemas."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import schema
from speclint.catalog import all_rules
from speclint.corpus import Corpus
from speclint.findings import Finding

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

SNAPSHOT = schema(
    type="object",
    required=["runId", "status"],
    properties={"runId": {"type": "string"}, "status": {"enum": ["queued", "running", "done"]}},
)


def openapi(example: str, extra: str = "") -> str:
    return (
        textwrap.dedent(
            f"""\
        openapi: 3.1.0
        info: {{title: Runs, version: 1.0.0}}
        paths:
          /v1/runs/{{runId}}:
            get:
              parameters:
                - {{name: runId, in: path, required: true, schema: {{type: string, minLength: 4}}, example: run-1}}
              responses:
                '200':
                  description: The run.
                  content:
                    application/json:
                      schema: {{$ref: '../schemas/run-snapshot.schema.json'}}
                      {example}
        components:
          examples:
            Paused: {{value: {{runId: run-0001, status: paused}}}}
        """
        )
        + extra
    )


def findings(root: Path) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(Corpus.load(root), {}))


def test_media_type_example_fail_and_pass(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/run-snapshot.schema.json": SNAPSHOT,
            "api/openapi.yaml": openapi("example: {runId: run-0001, status: paused}"),
        }
    )
    [finding] = findings(root)
    assert finding.location.pointer.endswith("/application~1json/example")
    assert finding.location.line == 14
    assert "example at /status" in finding.message and "keyword `enum`" in finding.message
    assert finding.related[0].pointer.endswith("/application~1json/schema")
    (root / "api/openapi.yaml").write_text(openapi("example: {runId: run-0001, status: running}"))
    assert findings(root) == []


def test_named_examples_through_components_and_parameters(make_corpus: MakeCorpus) -> None:
    doc = openapi(
        "examples: {paused: {$ref: '#/components/examples/Paused'}, ok: {value: {runId: r, status: done}}}"
    )
    root = make_corpus(
        {
            "schemas/run-snapshot.schema.json": SNAPSHOT,
            "api/openapi.yaml": doc.replace("example: run-1", "example: r1"),
        }
    )
    found = sorted(f.location.pointer for f in findings(root))
    assert found == [
        "/paths/~1v1~1runs~1{runId}/get/parameters/0/example",
        "/paths/~1v1~1runs~1{runId}/get/responses/200/content/application~1json/examples/paused",
    ]


def test_openapi_31_schema_examples(make_corpus: MakeCorpus) -> None:
    extra = "  schemas:\n    Priority: {type: integer, maximum: 9, examples: [3, 12]}\n"
    root = make_corpus(
        {
            "schemas/run-snapshot.schema.json": SNAPSHOT,
            "api/openapi.yaml": openapi("example: {runId: r, status: done}", extra),
        }
    )
    [finding] = findings(root)
    assert finding.location.pointer == "/components/schemas/Priority/examples/1"
    assert "maximum" in finding.message


def test_asyncapi_message_examples(make_corpus: MakeCorpus) -> None:
    doc = textwrap.dedent(
        """\
        asyncapi: 3.0.0
        info: {title: Events, version: 1.0.0}
        channels:
          runs:
            messages:
              snapshot:
                payload: {$ref: '../schemas/run-snapshot.schema.json'}
                examples:
                  - payload: {runId: run-0001, status: queued}
                  - payload: {status: queued}
        """
    )
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "api/asyncapi.yaml": doc})
    [finding] = findings(root)
    assert finding.location.pointer == "/channels/runs/messages/snapshot/examples/1/payload"
    assert "'runId' is a required property" in finding.message


def test_example_of_an_unresolvable_schema_is_skipped(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": openapi("example: {anything: 1}")})
    assert findings(root) == []
