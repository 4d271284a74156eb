"""Arazzo cases found by comparing speclint's Arazzo rules with Spectral's `spectral:arazzo` on
the same files (issue 49): headers OpenAPI never declares, an Arazzo 1.1 document, a step that
expects its request to be rejected, output names and values the specification's text governs,
`$response` where no response exists, inputs that are no object, and a workflow looked for in
an OpenAPI source. Fixtures: a small library API and workflows written for these tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

ARAZZO_RULES = (
    "arazzo-invalid",
    "arazzo-unresolved-source",
    "arazzo-unresolved-operation",
    "arazzo-unknown-parameter",
    "arazzo-payload-invalid",
    "arazzo-unresolved-expression",
    "arazzo-response-pointer",
    "arazzo-unknown-target",
    "arazzo-duplicate-id",
)

LIBRARY = """\
openapi: 3.1.0
info: {title: Library, version: 1.0.0}
paths:
  /books:
    post:
      operationId: addBook
      parameters:
        - {name: X-Shelf, in: header, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [isbn]
              properties:
                isbn: {type: string}
                pages: {type: integer}
      responses:
        '201':
          description: added
          headers:
            X-Copies: {schema: {type: integer}}
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: string}
        '422': {description: refused}
"""

HEAD = """\
arazzo: 1.0.1
info: {title: Lend, version: 1.0.0}
sourceDescriptions:
  - {name: library, url: ./library.yaml, type: openapi}
workflows:
  - workflowId: lend
"""


def lend(body: str, head: str = HEAD) -> dict[str, str | bytes]:
    """The library API and a workflow `lend` whose fields (indented under it) are ``body``."""
    return {"library.yaml": LIBRARY, "lend.arazzo.yaml": head + body}


def findings(root: Path, *rules: str) -> list[tuple[str, str]]:
    return [(f.rule, f.location.pointer) for rule in rules for f in run_rule(root, rule)]


# --- 4: headers no OpenAPI document declares ---------------------------------------------------


def test_a_content_type_response_header_is_always_there(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        outputs:
          type: $response.header.content-type
          copies: $response.header.X-Copies
          other: $response.header.X-Other
"""
    (finding,) = run_rule(make_corpus(lend(steps)), "arazzo-response-pointer")
    assert finding.location.pointer == "/workflows/0/steps/0/outputs/other"


def test_accept_and_content_type_request_headers_are_never_unknown(
    make_corpus: MakeCorpus,
) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        parameters:
          - {name: Accept, in: header, value: application/json}
          - {name: Content-Type, in: header, value: application/json}
          - {name: accept, in: query, value: x}
"""
    (finding,) = run_rule(make_corpus(lend(steps)), "arazzo-unknown-parameter")
    # Only a header is content negotiation's: a query parameter `accept` is still unknown.
    assert finding.location.pointer == "/workflows/0/steps/0/parameters/2"


# --- 5: an Arazzo 1.1 document --------------------------------------------------------------------

ARAZZO_1_1 = """\
arazzo: 1.1.0
info: {title: Orders, version: 1.0.0}
sourceDescriptions:
  - {name: events, url: ./events.yaml, type: asyncapi}
workflows:
  - workflowId: watch
    outputs:
      seen: $message.payload#/id
    steps:
      - stepId: wait
        channelPath: '{$sourceDescriptions.events.url}#/channels/orders'
        action: receive
        outputs:
          id: $message.payload#/id
"""

EVENTS = """\
asyncapi: 3.0.0
info: {title: Events, version: 1.0.0}
channels:
  orders: {address: orders}
"""


def test_an_arazzo_1_1_document_is_listed_not_checked_and_judged_by_no_rule(
    make_corpus: MakeCorpus,
) -> None:
    caller = HEAD.replace(
        "type: openapi}", "type: openapi}\n  - {name: orders, url: ./orders.yaml, type: arazzo}"
    )
    files = lend("    steps:\n      - {stepId: go, workflowId: $sourceDescriptions.orders.watch}\n")
    files["lend.arazzo.yaml"] = files["lend.arazzo.yaml"].replace(HEAD, caller)
    files |= {"orders.yaml": ARAZZO_1_1, "events.yaml": EVENTS}
    root = make_corpus(files)
    found = [f for rule in ARAZZO_RULES for f in run_rule(root, rule)]
    (note,) = found
    assert note.location.path == "orders.yaml" and note.coverage == "no-schema"
    assert "no Arazzo rule judges it" in note.message
    # (No arazzo-unresolved-operation: the 1.0 workflow calling the 1.1 one still finds it.)


# --- 6: a step that expects its request to be rejected ------------------------------------------


def test_a_step_expecting_a_4xx_has_its_payload_not_judged(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: refused
        operationId: addBook
        requestBody: {payload: {pages: 3}}
        successCriteria:
          - condition: $statusCode == 422
      - stepId: either
        operationId: addBook
        requestBody: {payload: {pages: 3}}
        successCriteria:
          - condition: $statusCode == 201 || $statusCode == 422
      - stepId: added
        operationId: addBook
        requestBody: {payload: {pages: 3}}
"""
    found = findings(make_corpus(lend(steps)), "arazzo-payload-invalid")
    assert found == [
        ("arazzo-payload-invalid", "/workflows/0/steps/1/requestBody/payload"),
        ("arazzo-payload-invalid", "/workflows/0/steps/2/requestBody/payload"),
    ]


# --- 7 and 8: output names and values ----------------------------------------------------------


def test_output_names_outside_the_pattern_are_reported_at_the_output(
    make_corpus: MakeCorpus,
) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        outputs:
          book id: $response.body#/id
          book.id-2_x: $response.body#/id
    outputs:
      'copies/left': $steps.add.outputs.book.id-2_x
"""
    found = run_rule(make_corpus(lend(steps)), "arazzo-invalid")
    assert [(f.location.pointer, f.location.line) for f in found] == [
        ("/workflows/0/steps/0/outputs/book id", 11),
        ("/workflows/0/outputs/copies~1left", 14),
    ]
    assert "rename it `book_id`" in found[0].message
    assert "§4.6.5" in found[0].message and "§4.6.4" in found[1].message


def test_a_constant_output_value_is_reported(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        outputs:
          state: Done
          id: '{$response.body#/id}'
    outputs:
      status: success
      book: 'book {$steps.add.outputs.id}'
"""
    found = run_rule(make_corpus(lend(steps)), "arazzo-invalid")
    assert [f.location.pointer for f in found] == [
        "/workflows/0/steps/0/outputs/state",
        "/workflows/0/outputs/status",
    ]
    assert "the constant `Done`, not a runtime expression" in found[0].message


# --- 9: `$response` where there is no response, or no body reference ----------------------------


def test_response_in_a_request_is_reported(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        parameters:
          - {name: X-Shelf, in: header, value: $response.header.X-Copies}
        requestBody: {payload: {isbn: $response.body#/id}}
        outputs:
          id: $response.body#/id
"""
    found = run_rule(make_corpus(lend(steps)), "arazzo-unresolved-expression")
    assert [f.location.pointer for f in found] == [
        "/workflows/0/steps/0/parameters/0/value",
        "/workflows/0/steps/0/requestBody/payload/isbn",
    ]
    assert "does not exist while its request is built" in found[0].message


def test_a_body_read_with_a_dot_in_a_value_is_no_body_reference(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        successCriteria:
          - condition: $response.body.id != null
        outputs:
          id: $response.body.id
          first: $response.body.items[0].id
          slash: $response.body/id
          whole: $response.body
"""
    # Several runners accept the dot: one warning for the document, at the first place, the
    # others related (with what each reads), not a finding per place.
    [found] = run_rule(make_corpus(lend(steps)), "arazzo-unresolved-expression")
    assert found.severity is Severity.WARNING
    assert found.location.pointer == "/workflows/0/steps/0/outputs/id"
    assert [r.pointer for r in found.related] == [
        "/workflows/0/steps/0/outputs/first",
        "/workflows/0/steps/0/outputs/slash",
    ]
    assert "write `$response.body#/id`" in found.message
    assert "(and 2 more like it, related)" in found.message
    assert [r.note for r in found.related] == [
        "`$response.body.items[0].id`",
        "`$response.body/id`",
    ]


# --- 10: `$inputs` of a schema that is no object -------------------------------------------------


def test_inputs_of_a_scalar_schema_name_no_property(make_corpus: MakeCorpus) -> None:
    body = """\
    inputs: {$ref: '#/components/inputs/isbn'}
    steps:
      - stepId: add
        operationId: addBook
        requestBody: {payload: {isbn: $inputs.isbn}}
components:
  inputs:
    isbn: {type: string}
"""
    (finding,) = run_rule(make_corpus(lend(body)), "arazzo-unresolved-expression")
    assert finding.location.pointer == "/workflows/0/steps/0/requestBody/payload/isbn"
    assert "of type `string`, which has no properties" in finding.message
    assert finding.related[0].pointer == "/components/inputs/isbn/type"


# --- 11: a workflow looked for in an OpenAPI source ---------------------------------------------


def test_a_workflow_named_through_an_openapi_source_is_reported(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace(
        "type: openapi}",
        "type: openapi}\n  - {name: remote, url: 'https://example.com/api.yaml', type: openapi}\n"
        "  - {name: flows, url: 'https://example.com/flows.yaml', type: arazzo}",
    )
    body = """\
    dependsOn:
      - $sourceDescriptions.library.restock
      - $sourceDescriptions.remote.restock
      - $sourceDescriptions.flows.restock
    steps:
      - {stepId: go, workflowId: $sourceDescriptions.remote.restock}
      - {stepId: also, workflowId: $sourceDescriptions.flows.restock}
  - workflowId: restock
    steps:
      - {stepId: add, operationId: addBook}
"""
    root = make_corpus(lend(body, head))
    targets = run_rule(root, "arazzo-unknown-target")
    assert [f.location.pointer for f in targets] == [
        "/workflows/0/dependsOn/0",
        "/workflows/0/dependsOn/1",
    ]
    assert "an OpenAPI document (library.yaml), which holds no workflows" in targets[0].message
    assert "declared `type: openapi`" in targets[1].message
    assert "did you mean `restock` of this document?" in targets[1].message
    (call,) = run_rule(root, "arazzo-unresolved-operation")
    assert call.location.pointer == "/workflows/0/steps/0/workflowId"
    assert "did you mean `restock`?" in call.message
    assert call.related[0].pointer == "/workflows/1"
