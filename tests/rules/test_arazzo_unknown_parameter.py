"""``arazzo-unknown-parameter`` on fixtures written here, one test a case, named after it. The
rule: an Arazzo step parameter that the operation it calls does not take, or that the workflow
it"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_payload_invalid import shared_id
from test_arazzo_response_pointer import HEAD, PETS, flows, lend

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import RESOLVED, step_bindings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


# The pet store with security: a bearer scheme for the whole API, an API key in the query for
# `listPets`, and `getPet` open to all (`security: []`).
SECURED = (
    PETS.replace(
        "      operationId: listPets\n",
        "      operationId: listPets\n      security: [{key: []}]\n",
    )
    .replace("      operationId: getPet\n", "      operationId: getPet\n      security: []\n")
    .replace(
        "components:\n",
        "security: [{token: []}]\ncomponents:\n  securitySchemes:\n"
        "    token: {type: http, scheme: bearer}\n"
        "    key: {type: apiKey, in: query, name: api_key}\n",
    )
)


def test_redoclys_source_dot_operation_id_shorthand_is_a_warning_saying_how_to_write_it(
    make_corpus: MakeCorpus,
) -> None:
    """`pets.getPet` is Redocly Respect's shorthand for `$sourceDescriptions.pets.getPet`, not
    Arazzo 1.0: bound to the operation (its parameters still checked), a warning with the
    standard form, not "no such operation"; a prefix naming no source, or an operation the
    source lacks, is still unresolved."""
    steps = (
        "      - stepId: find\n        operationId: pets.getPet\n        parameters:\n"
        "          - {name: petid, in: path, value: 1}\n"
        "      - {stepId: b, operationId: pets.getPets}\n"
        "      - {stepId: c, operationId: shop.getPet}\n"
    )
    root = make_corpus(flows(steps))
    findings = sorted(run_rule(root, "arazzo-unresolved-operation"), key=lambda f: f.location.line)
    assert [(f.location.pointer, f.severity.name) for f in findings] == [
        ("/workflows/0/steps/0/operationId", "WARNING"),
        ("/workflows/0/steps/1/operationId", "ERROR"),
        ("/workflows/0/steps/2/operationId", "ERROR"),
    ]
    assert "is not Arazzo 1.0" in findings[0].message
    assert "write `$sourceDescriptions.pets.getPet`" in findings[0].message
    assert [(r.path, r.line) for r in findings[0].related] == [("api/pets.yaml", 21)]
    (unknown,) = run_rule(root, "arazzo-unknown-parameter")
    assert unknown.location.pointer == "/workflows/0/steps/0/parameters/0"


def test_a_path_parameter_written_in_query_is_named_with_its_place(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: find\n        operationId: getPet\n        parameters:\n"
        "          - {name: petId, in: query, value: $inputs.id}\n"
    )
    (finding,) = run_rule(make_corpus(flows(steps)), "arazzo-unknown-parameter")
    assert finding.location.pointer == "/workflows/0/steps/0/parameters/0"
    assert "takes `petId` in `path`, not in `query`" in finding.message
    # The path item's parameter is the one related (declared above the operation).
    assert [(r.path, r.line) for r in finding.related] == [("api/pets.yaml", 20)]


def test_parameters_the_operation_takes_by_ref_or_header_case_pass(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: list\n        operationId: listPets\n        parameters:\n"
        "          - {name: limit, in: query, value: 3}\n"
        "          - {name: x-trace-id, in: header, value: abc}\n"
        "      - stepId: find\n        operationId: getPet\n        parameters:\n"
        "          - {name: petId, in: path, value: $inputs.id}\n"
    )
    assert run_rule(make_corpus(flows(steps)), "arazzo-unknown-parameter") == []


def test_a_misspelt_parameter_and_a_component_parameter_are_checked(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: list\n        operationId: listPets\n        parameters:\n"
        "          - {name: limt, in: query, value: 3}\n"
        "          - reference: $components.parameters.page\n"
        "      - stepId: find\n        operationId: getPet\n        parameters:\n"
        "          - {name: pet_id, in: path, value: 1}\n"
        "components:\n  parameters:\n    page: {name: page, in: query, value: 1}\n"
    )
    findings = run_rule(make_corpus(flows(steps)), "arazzo-unknown-parameter")
    assert [f.location.pointer for f in findings] == [
        "/workflows/0/steps/0/parameters/0",
        "/workflows/0/steps/0/parameters/1",
        "/workflows/0/steps/1/parameters/0",
    ]
    assert "did you mean `limit` (in: query)" in findings[0].message
    assert "did you mean `petId` (in: path)" in findings[2].message
    assert "`page`" in findings[1].message and "`X-Trace-Id` (header)" in findings[1].message


def test_credential_parameters_a_security_scheme_of_the_operation_supplies_are_known(
    make_corpus: MakeCorpus,
) -> None:
    """OpenAPI describes credentials by security schemes, not parameters (it ignores a header
    parameter named `Authorization`): a step passing the one its operation's scheme names
    (the document's bearer `Authorization`, an operation's API key in the query) passes; a
    header no list or scheme names is sent and served (HTTP allows any), so it passes too; a
    query key the operation does not take is reported, with declaring the scheme as the fix."""
    steps = (
        "      - stepId: add\n        operationId: addPet\n        parameters:\n"
        "          - {name: authorization, in: header, value: 'Bearer {$inputs.token}'}\n"
        "      - stepId: list\n        operationId: listPets\n        parameters:\n"
        "          - {name: api_key, in: query, value: $inputs.key}\n"
        "          - {name: Authorization, in: header, value: $inputs.token}\n"
        "      - stepId: find\n        operationId: getPet\n        parameters:\n"
        "          - {name: petId, in: path, value: $inputs.id}\n"
        "          - {name: Authorization, in: header, value: $inputs.token}\n"
        "          - {name: X-Gateway-Key, in: header, value: $inputs.key}\n"
        "          - {name: api_key, in: query, value: $inputs.key}\n"
    )
    root = make_corpus({"api/pets.yaml": SECURED, "flows/main.arazzo.yaml": HEAD + steps})
    findings = run_rule(root, "arazzo-unknown-parameter")
    assert [f.location.pointer for f in findings] == ["/workflows/0/steps/2/parameters/3"]
    assert "declare it in api/pets.yaml as a security scheme" in findings[0].message
    assert "`type: apiKey, in: query, name: api_key`" in findings[0].message


def test_a_gateway_header_the_api_does_not_list_is_sent_not_reported_but_a_near_miss_is(
    make_corpus: MakeCorpus,
) -> None:
    """A header the operation does not list is no defect of the step (a gateway's key an API
    describes only in prose is sent and served); one a letter away from a header it does list
    is a misspelling."""
    api = (
        "openapi: 3.1.0\ninfo: {title: Pets, version: 1.0.0}\npaths:\n  /pets:\n    get:\n"
        "      operationId: listPets\n      parameters:\n"
        "        - {name: X-Request-Id, in: header, schema: {type: string}}\n"
        "      responses: {'200': {description: ok}}\n"
    )
    steps = (
        "      - stepId: list\n        operationId: listPets\n        parameters:\n"
        "          - {name: Internal-Key, in: header, value: $inputs.key}\n"
        "          - {name: X-Reqest-Id, in: header, value: $inputs.id}\n"
    )
    root = make_corpus({"api/pets.yaml": api, "flows/main.arazzo.yaml": HEAD + steps})
    [finding] = run_rule(root, "arazzo-unknown-parameter")
    assert finding.location.pointer == "/workflows/0/steps/0/parameters/1"
    assert "did you mean `X-Request-Id`" in finding.message


def test_a_swagger_2_api_key_header_is_a_known_credential(make_corpus: MakeCorpus) -> None:
    swagger = (
        "swagger: '2.0'\ninfo: {title: Pets, version: 1.0.0}\n"
        "securityDefinitions:\n  gateway: {type: apiKey, in: header, name: X-Api-Key}\n"
        "security: [{gateway: []}]\n"
        "paths:\n  /pets:\n    get:\n      operationId: listPets\n"
        "      responses: {'200': {description: ok}}\n"
    )
    steps = (
        "      - stepId: list\n        operationId: listPets\n        parameters:\n"
        "          - {name: x-api-key, in: header, value: $inputs.key}\n"
    )
    root = make_corpus({"api/pets.yaml": swagger, "flows/main.arazzo.yaml": HEAD + steps})
    assert run_rule(root, "arazzo-unknown-parameter") == []


def test_a_parameter_of_a_workflow_step_is_one_of_its_inputs(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - stepId: call\n        workflowId: sub\n        parameters:\n"
        "          - {name: petid, value: 3}\n          - {name: owner, value: me}\n"
        "  - workflowId: sub\n    inputs: {$ref: '#/components/inputs/subIn'}\n"
        "    steps:\n      - {stepId: s, operationId: getPet}\n"
        "components:\n  inputs:\n"
        "    subIn: {type: object, properties: {petId: {type: string}, owner: {}}}\n"
    )
    (finding,) = run_rule(make_corpus(flows(steps)), "arazzo-unknown-parameter")
    assert "workflow `sub` has no input of that name; did you mean `petId`" in finding.message


def test_an_operation_id_two_operations_share_binds_to_the_one_the_steps_parameters_fit(
    make_corpus: MakeCorpus,
) -> None:
    """The repetition is openapi-invalid's defect (OpenAPI 3.1 §4.8.10); the step is bound to
    the candidate taking every parameter it passes: a path-item one (`petId`), or a `$ref`'d
    one (`X-Trace-Id`), and then judged against it, not against the first in the document."""
    root = make_corpus(
        shared_id(
            "      - stepId: one\n        operationId: getPet\n"
            "        parameters: [{name: petId, in: path, value: $inputs.id}]\n"
            "      - stepId: all\n        operationId: getPet\n"
            "        parameters:\n"
            "          - {name: limit, in: query, value: 5}\n"
            "          - {name: x-trace-id, in: header, value: t}\n"
        )
    )
    one, every = step_bindings(Context.load(root))
    assert one.status == RESOLVED and one.operation is not None
    assert one.operation.label == "GET /pets/{petId}"
    assert one.evidence == (
        "operationId `getPet` of api/pets.yaml (of the 2 of that id, the one taking the step's "
        "parameters)"
    )
    assert every.operation is not None and every.operation.label == "GET /pets"
    assert run_rule(root, "arazzo-unknown-parameter") == []
    assert run_rule(root, "arazzo-unresolved-operation") == []


def test_two_sources_naming_one_file_count_its_operations_once(make_corpus: MakeCorpus) -> None:
    """A second source description of the same API file does not make each of its operations
    two: a bare operationId still binds to its one operation, and its parameters are checked."""
    head = HEAD.replace(
        "workflows:", "  - {name: again, url: ../api/pets.yaml, type: openapi}\nworkflows:"
    )
    steps = "      - stepId: find\n        operationId: getPet\n        parameters:\n"
    steps += "          - {name: petid, in: path, value: 1}\n"
    root = make_corpus(flows(steps, head))
    assert run_rule(root, "arazzo-unresolved-operation") == []
    (binding,) = step_bindings(Context.load(root))
    assert binding.status == RESOLVED
    (unknown,) = run_rule(root, "arazzo-unknown-parameter")
    assert unknown.location.pointer == "/workflows/0/steps/0/parameters/0"


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
