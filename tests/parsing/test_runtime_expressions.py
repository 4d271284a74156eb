"""Arazzo runtime expressions (issue 49, item 4): what they name resolves to declared inputs,
steps, outputs, workflows, sources and components (arazzo-unresolved-expression), to the
response of the step's operation (arazzo-response-pointer); action targets and dependsOn name
existing steps and workflows (arazzo-unknown-target); ids are unique (arazzo-duplicate-id).
Fixtures: a small shop API and workflows written for these tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.parsing.runtime_expressions import (
    expressions_in,
    expressions_in_condition,
    name_prefixes,
)

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

SHOP = """\
openapi: 3.1.0
info: {title: Shop, version: 1.0.0}
paths:
  /orders:
    post:
      operationId: placeOrder
      responses:
        '201':
          description: placed
          headers:
            Location: {schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
        '400':
          description: rejected
          content:
            application/json:
              schema:
                type: object
                properties:
                  title: {type: string}
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the order
          content:
            application/json:
              schema:
                allOf:
                  - $ref: '#/components/schemas/Order'
                  - description: with its history
  /search:
    get:
      operationId: search
      responses:
        '200':
          description: hits
          content:
            application/json:
              schema:
                oneOf:
                  - type: array
                    items: {$ref: '#/components/schemas/Order'}
                  - type: object
                    properties:
                      next: {type: string}
  /notes:
    get:
      operationId: notes
      responses:
        '200':
          description: free-form
          content:
            application/json:
              schema: {type: object}
  /ping:
    get:
      operationId: ping
      responses:
        '200': {description: pong}
components:
  schemas:
    Order:
      type: object
      properties:
        orderId: {type: string}
        lines:
          type: array
          items:
            type: object
            properties:
              sku: {type: string}
"""

HEAD = """\
arazzo: 1.0.1
info: {title: Shop flows, version: 1.0.0}
sourceDescriptions:
  - {name: shop, url: ../api/shop.yaml, type: openapi}
workflows:
  - workflowId: buy
    inputs:
      type: object
      properties:
        sku: {type: string}
        page[size]: {type: integer}
        $.xgafv: {type: string}
    steps:
"""


def flows(steps: str, tail: str = "") -> dict[str, str | bytes]:
    """The shop at api/shop.yaml and workflow `buy` at flows/buy.arazzo.yaml with ``steps``
    (indented as list items of ``steps``), then ``tail`` (more workflows, components)."""
    return {"api/shop.yaml": SHOP, "flows/buy.arazzo.yaml": HEAD + steps + tail}


PLACE = """\
      - stepId: place
        operationId: placeOrder
        outputs:
          orderId: $response.body#/orderId
          where: $response.header.Location
"""


# --- reading expressions -------------------------------------------------------------------------


def test_bare_and_embedded_expressions_are_read() -> None:
    (bare,) = expressions_in("$steps.place.outputs.orderId")
    assert (bare.root, bare.rest) == ("steps", "place.outputs.orderId")
    embedded = expressions_in("Bearer {$inputs.token} for {$inputs.user}")
    assert [e.text for e in embedded] == ["$inputs.token", "$inputs.user"]
    # A literal dollar amount and a JSONPath root are no runtime expressions.
    assert expressions_in("$100") == [] and expressions_in("plain") == []


def test_an_embedded_expression_ends_at_white_space() -> None:
    (expression,) = expressions_in("{$steps.a.outputs.b || 'fallback'}")
    assert expression.text == "$steps.a.outputs.b"


def test_a_condition_yields_its_expressions_not_its_literals() -> None:
    found = expressions_in_condition(
        "$statusCode == 200 && ($response.body#/state != '$inputs.x') && $inputs.page[size] > 1"
    )
    assert [e.text for e in found] == ["$statusCode", "$response.body#/state", "$inputs.page[size]"]
    (inside,) = expressions_in_condition("$[?@.id == $steps.a.outputs.id]")
    assert inside.text == "$steps.a.outputs.id"


def test_names_may_hold_dots_and_brackets() -> None:
    assert list(name_prefixes("page[size]")) == ["page[size]", "page"]
    assert list(name_prefixes("list.items[0]#/id")) == [
        "list.items[0]#/id",
        "list.items[0]",
        "list.items",
        "list",
    ]


# --- names the document declares -----------------------------------------------------------------


def test_an_input_the_workflow_does_not_declare_names_the_nearest(make_corpus: MakeCorpus) -> None:
    steps = PLACE.replace(
        "        outputs:",
        "        requestBody:\n          payload: {sku: $inputs.SKU}\n        outputs:",
    )
    (finding,) = run_rule(make_corpus(flows(steps)), "arazzo-unresolved-expression")
    assert finding.location.pointer == "/workflows/0/steps/0/requestBody/payload/sku"
    assert "workflow `buy` has no input `SKU`" in finding.message
    assert "did you mean `sku`" in finding.message
    assert finding.related[0].pointer == "/workflows/0/inputs/properties"


def test_input_names_with_brackets_and_dollars_resolve(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - stepId: find\n        operationId: search\n        parameters:\n"
        "          - {name: size, in: query, value: $inputs.page[size]}\n"
        "          - {name: x, in: query, value: '{$inputs.$.xgafv}'}\n"
        "          - {name: y, in: query, value: $inputs.sku.length}\n"
    )
    assert run_rule(make_corpus(flows(steps)), "arazzo-unresolved-expression") == []


def test_inputs_by_ref_to_components_and_open_inputs(make_corpus: MakeCorpus) -> None:
    files = flows(
        "      - {stepId: a, operationId: ping, parameters: [{name: q, in: query, value: $inputs.tokn}]}\n",
        "  - workflowId: open\n    inputs: {type: object}\n    steps:\n"
        "      - {stepId: b, operationId: ping, parameters: [{name: q, in: query, value: $inputs.any}]}\n"
        "components:\n  inputs:\n    auth:\n      type: object\n      properties: {token: {type: string}}\n",
    )
    text = str(files["flows/buy.arazzo.yaml"])
    files["flows/buy.arazzo.yaml"] = text.replace(
        "    inputs:\n      type: object\n      properties:\n        sku: {type: string}\n"
        "        page[size]: {type: integer}\n        $.xgafv: {type: string}\n",
        "    inputs: {$ref: '#/components/inputs/auth'}\n",
    )
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-expression")
    assert "has no input `tokn`" in finding.message and "`token`" in finding.message
    assert finding.related[0].pointer == "/components/inputs/auth/properties"


def test_names_holding_spaces_resolve_as_declared_and_prose_after_a_name_does_not(
    make_corpus: MakeCorpus,
) -> None:
    """`$inputs.Unit Price` reads the input `Unit Price` (§4.7: `name = *( CHAR )`), and
    `$steps.place.outputs.Order (id)` the output so named (its name is arazzo-invalid's to
    judge, once); white space still ends a name nothing declares (`Unit Cost`)."""
    steps = PLACE.replace(
        "        outputs:", "        outputs:\n          'Order (id)': $response.body#/orderId"
    ) + (
        "      - stepId: read\n        operationId: getOrder\n        parameters:\n"
        "          - {name: id, in: path, value: '$steps.place.outputs.Order (id)'}\n"
        "          - {name: q, in: query, value: '$inputs.Unit Price'}\n"
        "          - {name: r, in: query, value: '{$inputs.Unit Price}'}\n"
        "          - {name: s, in: query, value: '$inputs.Unit Cost'}\n"
    )
    files = flows(steps)
    files["flows/buy.arazzo.yaml"] = str(files["flows/buy.arazzo.yaml"]).replace(
        "        sku: {type: string}\n", "        sku: {type: string}\n        Unit Price: {}\n"
    )
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-expression")
    assert finding.location.pointer == "/workflows/0/steps/1/parameters/3/value"
    assert "has no input `Unit`" in finding.message


def test_a_workflow_without_inputs_reading_one(make_corpus: MakeCorpus) -> None:
    files = flows(PLACE, "  - workflowId: bare\n    steps:\n"
                  "      - {stepId: b, operationId: ping, parameters: [{name: q, in: query, value: $inputs.q}]}\n")  # fmt: skip
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-expression")
    assert "workflow `bare` declares no `inputs`" in finding.message


def test_a_step_output_that_is_not_declared(make_corpus: MakeCorpus) -> None:
    steps = PLACE + (
        "      - stepId: read\n        operationId: getOrder\n        parameters:\n"
        "          - {name: id, in: path, value: $steps.place.outputs.orderID}\n"
        "          - {name: id, in: path, value: $steps.plase.outputs.orderId}\n"
        "          - {name: id, in: path, value: $steps.read.outputs.orderId}\n"
        "          - {name: id, in: path, value: $steps.place.outputs.where#/x}\n"
    )
    findings = run_rule(make_corpus(flows(steps)), "arazzo-unresolved-expression")
    messages = [f.message for f in findings]
    assert len(findings) == 3
    assert "step `place` has no output `orderID`; did you mean `orderId`?" in messages[0]
    assert "workflow `buy` has no step `plase`; did you mean `place`?" in messages[1]
    # The output another step declares is the one meant.
    assert "did you mean `$steps.place.outputs.orderId`" in messages[2]
    assert findings[0].location.pointer == "/workflows/0/steps/1/parameters/0/value"


def test_one_undeclared_output_read_in_several_places_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    """Three parameters reading the one output step `place` never declares are one defect: one
    finding at the first read, the other two related; another missing name is its own."""
    steps = PLACE + (
        "      - stepId: read\n        operationId: getOrder\n        parameters:\n"
        "          - {name: id, in: path, value: $steps.place.outputs.total}\n"
        "          - {name: a, in: query, value: $steps.place.outputs.total}\n"
        "          - {name: b, in: query, value: $steps.place.outputs.total}\n"
        "          - {name: c, in: query, value: $steps.place.outputs.price}\n"
    )
    total, price = sorted(
        run_rule(make_corpus(flows(steps)), "arazzo-unresolved-expression"),
        key=lambda f: f.location.line,
    )
    assert "(read in 2 more places, related)" in total.message
    assert [r.pointer for r in total.related][-2:] == [
        "/workflows/0/steps/1/parameters/1/value",
        "/workflows/0/steps/1/parameters/2/value",
    ]
    assert "has no output `price`" in price.message and "more place" not in price.message


def test_a_step_of_another_workflow_is_named_as_such(make_corpus: MakeCorpus) -> None:
    files = flows(PLACE, "  - workflowId: track\n    steps:\n"
                  "      - {stepId: follow, operationId: getOrder, parameters: "
                  "[{name: id, in: path, value: $steps.place.outputs.orderId}]}\n")  # fmt: skip
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-expression")
    assert "`place` is a step of workflow `buy`" in finding.message
    assert "$workflows.buy.outputs" in finding.message


def test_workflow_source_and_component_expressions(make_corpus: MakeCorpus) -> None:
    tail = (
        "    outputs: {orderId: $steps.place.outputs.orderId}\n"
        "  - workflowId: after\n    steps:\n"
        "      - stepId: read\n        operationId: getOrder\n        parameters:\n"
        "          - {name: id, in: path, value: $workflows.buy.outputs.orderId}\n"
        "          - {name: id, in: path, value: $workflows.buy.outputs.order}\n"
        "          - {name: id, in: path, value: $workflows.Buy.outputs.orderId}\n"
        "          - {name: u, in: query, value: '{$sourceDescriptions.shops.url}'}\n"
        "          - reference: $components.parameters.pge\n"
        "        onSuccess:\n"
        "          - reference: $components.failureActions.stop\n"
        "components:\n  parameters:\n    page: {name: page, in: query, value: 1}\n"
        "  failureActions:\n    stop: {name: stop, type: end}\n"
    )
    findings = run_rule(make_corpus(flows(PLACE, tail)), "arazzo-unresolved-expression")
    messages = [f.message for f in findings]
    assert len(messages) == 5, messages
    assert "workflow `buy` has no output `order`; did you mean `orderId`?" in messages[0]
    assert "no workflow `Buy`" in messages[1] and "did you mean `buy`" in messages[1]
    assert "no source description `shops`; did you mean `shop`?" in messages[2]
    assert "`components.parameters` has no `pge`; did you mean `page`?" in messages[3]
    assert "names a failure action where a success action is expected" in messages[4]


def test_a_misspelt_root_is_named_but_other_dollar_words_are_not(make_corpus: MakeCorpus) -> None:
    steps = PLACE + (
        "        successCriteria:\n          - condition: $statuscode == 201\n"
        "      - stepId: read\n        operationId: getOrder\n"
        "        parameters: [{name: id, in: path, value: $input.sku}]\n"
        "        requestBody:\n          payload: {update: {$set: 1}, op: $set}\n"
    )
    findings = run_rule(make_corpus(flows(steps)), "arazzo-unresolved-expression")
    assert [f.message.split(";")[1].strip() for f in findings] == [
        "did you mean `$statusCode`?",
        "did you mean `$inputs.sku`?",
    ]


def test_regex_and_xpath_conditions_are_not_read(make_corpus: MakeCorpus) -> None:
    steps = PLACE + (
        "        successCriteria:\n"
        "          - {context: $statusCode, condition: '^$inptus$', type: regex}\n"
        "          - {context: $response.body, condition: '$[?@.orderId != null]', type: jsonpath}\n"
    )
    assert run_rule(make_corpus(flows(steps)), "arazzo-unresolved-expression") == []


# --- the response of the operation ---------------------------------------------------------------


def test_a_body_pointer_the_response_schema_lacks_names_the_nearest(
    make_corpus: MakeCorpus,
) -> None:
    steps = PLACE.replace("#/orderId", "#/orderid").replace("Location", "location")
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-response-pointer")
    assert finding.location.pointer == "/workflows/0/steps/0/outputs/orderId"
    assert "POST /orders (responses 201) has no `orderid`" in finding.message
    assert "did you mean `#/orderId`" in finding.message
    assert finding.related[0].path == "api/shop.yaml"


def test_pointers_through_refs_all_of_one_of_and_items(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - stepId: read\n        operationId: getOrder\n        outputs:\n"
        "          sku: $response.body#/lines/0/sku\n"
        "          bad: $response.body#/lines/0/SKU\n"
        "      - stepId: find\n        operationId: search\n        outputs:\n"
        "          first: $response.body#/0/orderId\n"
        "          next: $response.body#/next\n"
        "          none: $response.body#/nxt\n"
        "      - stepId: notes\n        operationId: notes\n        outputs:\n"
        "          any: $response.body#/whatever/0\n"
    )
    findings = run_rule(make_corpus(flows(steps)), "arazzo-response-pointer")
    assert [f.location.pointer for f in findings] == [
        "/workflows/0/steps/0/outputs/bad",
        "/workflows/0/steps/1/outputs/none",
    ]
    assert "has no `SKU` at `#/lines/0`; did you mean `#/lines/0/sku`?" in findings[0].message


def test_a_step_asserting_an_error_status_reads_that_response(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - stepId: reject\n        operationId: placeOrder\n"
        "        successCriteria: [{condition: $statusCode == 400}]\n"
        "        outputs: {title: $response.body#/title}\n"
        "        onFailure:\n          - name: why\n            type: end\n"
        "            criteria: [{condition: $response.body#/title != null}]\n"
    )
    assert run_rule(make_corpus(flows(steps)), "arazzo-response-pointer") == []


def test_a_body_the_response_does_not_declare_and_an_unknown_header(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: ping\n        operationId: ping\n"
        "        outputs: {x: $response.body#/x, h: $response.header.X-Trace}\n"
    )
    findings = run_rule(make_corpus(flows(steps)), "arazzo-response-pointer")
    # The body: the API document declares none, so the read cannot be checked (a warning).
    assert "declares no response header `X-Trace`" in findings[0].message
    assert findings[1].severity.name == "WARNING"
    assert "declares no response content for GET /ping" in findings[1].message


def test_an_unresolved_or_remote_step_is_not_judged(make_corpus: MakeCorpus) -> None:
    steps = PLACE.replace("placeOrder", "placeOrdr").replace("#/orderId", "#/nope")
    assert run_rule(make_corpus(flows(steps)), "arazzo-response-pointer") == []
    files = flows(PLACE.replace("#/orderId", "#/nope"))
    files["flows/buy.arazzo.yaml"] = str(files["flows/buy.arazzo.yaml"]).replace(
        "../api/shop.yaml", "https://example.com/shop.yaml"
    )
    assert run_rule(make_corpus(files), "arazzo-response-pointer") == []


# --- targets and ids -----------------------------------------------------------------------------


def test_action_targets_and_depends_on(make_corpus: MakeCorpus) -> None:
    steps = PLACE + (
        "        onFailure:\n"
        "          - {name: again, type: goto, stepId: plase}\n"
        "          - {name: other, type: goto, workflowId: trak}\n"
        "          - {name: fine, type: goto, stepId: place}\n"
    )
    tail = "  - workflowId: track\n    dependsOn: [buy, Buy]\n    steps:\n      - {stepId: t, operationId: ping}\n"
    findings = run_rule(make_corpus(flows(steps, tail)), "arazzo-unknown-target")
    assert [f.location.pointer for f in findings] == [
        "/workflows/0/steps/0/onFailure/0/stepId",
        "/workflows/0/steps/0/onFailure/1/workflowId",
        "/workflows/1/dependsOn/1",
    ]
    assert "did you mean `place`?" in findings[0].message
    assert "did you mean `track`?" in findings[1].message
    assert "did you mean `buy`?" in findings[2].message


def test_repeated_step_and_workflow_ids(make_corpus: MakeCorpus) -> None:
    steps = PLACE + "      - {stepId: place, operationId: ping}\n"
    tail = "  - workflowId: buy\n    steps:\n      - {stepId: place, operationId: ping}\n"
    findings = run_rule(make_corpus(flows(steps, tail)), "arazzo-duplicate-id")
    assert [f.location.pointer for f in findings] == ["/workflows/0/steps/1", "/workflows/1"]
    assert "stepId `place` is given twice in workflow `buy`" in findings[0].message
    assert findings[0].related[0].pointer == "/workflows/0/steps/0"


def test_an_id_given_three_times_says_so_at_each_repeat(make_corpus: MakeCorpus) -> None:
    steps = PLACE + "      - {stepId: place, operationId: ping}\n" * 2
    findings = run_rule(make_corpus(flows(steps)), "arazzo-duplicate-id")
    assert [f.location.pointer for f in findings] == [
        "/workflows/0/steps/1",
        "/workflows/0/steps/2",
    ]
    assert all("is given 3 times in workflow `buy`" in f.message for f in findings)
    assert all("can mean any of them" in f.message for f in findings)


def test_a_response_schema_in_another_file_is_followed(make_corpus: MakeCorpus) -> None:
    files = flows(
        "      - stepId: read\n        operationId: getOrder\n"
        "        outputs: {a: $response.body#/total, b: $response.body#/totl}\n"
    )
    files["api/shop.yaml"] = SHOP.replace(
        "                  - description: with its history",
        "                  - $ref: './totals.yaml'",
    )
    files["api/totals.yaml"] = "type: object\nproperties:\n  total: {type: number}\n"
    (finding,) = run_rule(make_corpus(files), "arazzo-response-pointer")
    assert "has no `totl`; did you mean `#/total`?" in finding.message
