"""``arazzo-unresolved-expression`` on fixtures written here, one test a case, named after it. The
rule: an Arazzo runtime expression naming an input, step, output, workflow, source or component"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_duplicate_id import flows, lend
from test_arazzo_response_pointer import PLACE

from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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
