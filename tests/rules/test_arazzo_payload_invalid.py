"""``arazzo-payload-invalid`` on fixtures written here, one test a case, named after it. The rule:
an Arazzo step's `requestBody.payload` that the operation's request schema rejects."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_response_pointer import PETS, flows, lend

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import AMBIGUOUS, step_bindings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def body_step(step_id: str, body: str, operation: str = "addPet") -> str:
    return (
        f"      - stepId: {step_id}\n        operationId: {operation}\n        requestBody:\n{body}"
    )


def shared_id(steps: str) -> dict[str, str | bytes]:
    """The pet store with `GET /pets` and `GET /pets/{petId}` both called `getPet` (as an
    imported catalogue names a list and a by-id read alike), and a workflow of ``steps``."""
    files = flows(steps)
    files["api/pets.yaml"] = PETS.replace("operationId: listPets", "operationId: getPet")
    return files


def test_a_payload_the_request_schema_rejects_is_reported_at_its_value(
    make_corpus: MakeCorpus,
) -> None:
    steps = body_step(
        "bad", "          contentType: application/json\n          payload: {name: Rex, age: x}\n"
    )
    (finding,) = run_rule(make_corpus(flows(steps)), "arazzo-payload-invalid")
    assert finding.location.pointer == "/workflows/0/steps/0/requestBody/payload/age"
    assert finding.location.line == 12
    assert "is not of type" in finding.message and "POST /pets" in finding.message


def test_a_field_the_request_schema_both_requires_and_forbids_is_the_apis_defect_not_the_payloads(
    make_corpus: MakeCorpus,
) -> None:
    """A request schema `allOf: [closed Pet, {required: [terms]}]` admits no body (RFC 0094's
    createRun): a payload with `terms` fails the closed branch, one without it the other. The
    API document is what to fix (unsatisfiable-schema reports it there), so the payload is
    not reported for it; its other errors still are."""
    closed = PETS.replace(
        "            schema: {$ref: '#/components/schemas/Pet'}",
        "            schema:\n              allOf:\n"
        "                - $ref: '#/components/schemas/Pet'\n"
        "                - {type: object, required: [terms], properties: {terms: {type: boolean}}}",
    ).replace(
        "        age: {type: integer}\n",
        "        age: {type: integer}\n      additionalProperties: false\n",
    )
    steps = body_step("closed", "          payload: {name: Rex, terms: true}\n") + body_step(
        "typed", "          payload: {name: Rex, age: x, terms: true}\n"
    )
    files = flows(steps)
    files["api/pets.yaml"] = closed
    (finding,) = run_rule(make_corpus(files), "arazzo-payload-invalid")
    assert finding.location.pointer == "/workflows/0/steps/1/requestBody/payload/age"
    assert "and 1 more" not in finding.message


def test_runtime_expressions_and_replacements_are_placeholders(make_corpus: MakeCorpus) -> None:
    steps = (
        body_step("a", "          payload: {name: $inputs.name, age: '{$inputs.age}'}\n")
        + body_step(
            "b",
            "          payload: {age: 3}\n          replacements:\n"
            "            - {target: /name, value: $inputs.name}\n",
        )
        + body_step("c", "          payload: $inputs.pet\n")
        + body_step(
            "d", '          payload: |\n            {"name": "{$inputs.n}", "age": {$inputs.a}}\n'
        )
    )
    assert run_rule(make_corpus(flows(steps)), "arazzo-payload-invalid") == []


def test_a_json_template_string_is_validated_as_json(make_corpus: MakeCorpus) -> None:
    steps = body_step("t", '          payload: |\n            {"age": 3}\n')
    (finding,) = run_rule(make_corpus(flows(steps)), "arazzo-payload-invalid")
    assert "`required`" in finding.message
    assert finding.location.pointer == "/workflows/0/steps/0/requestBody/payload"


def test_a_content_type_the_operation_does_not_accept_and_a_body_it_does_not_take(
    make_corpus: MakeCorpus,
) -> None:
    steps = body_step(
        "xml", "          contentType: application/xml\n          payload: <pet/>\n"
    ) + body_step("get", "          payload: {a: 1}\n", operation="getPet")
    first, second = run_rule(make_corpus(flows(steps)), "arazzo-payload-invalid")
    assert "does not accept `application/xml`" in first.message
    assert "`application/json`" in first.message
    assert "GET /pets/{petId} declares no request body" in second.message


def test_an_operation_id_shared_by_operations_the_step_does_not_single_out_is_one_warning(
    make_corpus: MakeCorpus,
) -> None:
    """Parameters that fit both candidates (none) or neither (`nope`): the step is not bound,
    nothing is judged against a guessed operation (its parameters, its response pointers, its
    payload), and one warning per document and operationId says so, the candidates related."""
    root = make_corpus(
        shared_id(
            "      - stepId: any\n        operationId: getPet\n"
            "        outputs: {x: $response.body#/x}\n"
            "      - stepId: neither\n        operationId: getPet\n"
            "        parameters: [{name: nope, in: query, value: 1}]\n"
            "        requestBody: {contentType: application/json, payload: {name: 3}}\n"
        )
    )
    bindings = step_bindings(Context.load(root))
    assert [b.status for b in bindings] == [AMBIGUOUS, AMBIGUOUS]
    assert bindings[0].operation is None and len(bindings[0].candidates) == 2
    for rule in ("arazzo-unknown-parameter", "arazzo-response-pointer", "arazzo-payload-invalid"):
        assert run_rule(root, rule) == [], rule
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.severity.name == "WARNING"
    assert finding.location.pointer == "/workflows/0/steps/0/operationId"
    assert finding.message.startswith(
        "operationId `getPet` names 2 operations of api/pets.yaml (GET /pets, GET /pets/{petId}) "
        "(step `any` and 1 more step): the step cannot be resolved unambiguously"
    )
    assert "use `operationPath`" in finding.message
    assert [r.pointer for r in finding.related] == [
        "/paths/~1pets/get",
        "/paths/~1pets~1{petId}/get",
        "/workflows/0/steps/1/operationId",
    ]
    assert "{$sourceDescriptions.pets.url}#/paths/~1pets/get" in str(finding.related[0].note)


def findings(root: Path, *rules: str) -> list[tuple[str, str]]:
    return [(f.rule, f.location.pointer) for rule in rules for f in run_rule(root, rule)]


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
