"""An Arazzo workflow against the corpus (issue 49, items 2 and 3): its sources resolve to corpus
files (arazzo-unresolved-source), its steps' operationId / operationPath / workflowId to
operations and workflows (arazzo-unresolved-operation), their parameters to the operation's or
the called workflow's (arazzo-unknown-parameter), their payloads to the request schema
(arazzo-payload-invalid). Fixtures: a pet store whose operations have path-item, operation-level
and `$ref`'d parameters and one JSON request body."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import AMBIGUOUS, RESOLVED, UNCHECKED, step_bindings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PETS = """\
openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
        - $ref: '#/components/parameters/Trace'
      responses: {'200': {description: ok}}
    post:
      operationId: addPet
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses: {'201': {description: ok}}
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: string}}
    get:
      operationId: getPet
      responses: {'200': {description: ok}}
components:
  parameters:
    Trace: {name: X-Trace-Id, in: header, schema: {type: string}}
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        age: {type: integer}
"""

HEAD = """\
arazzo: 1.0.1
info: {title: Adopt, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ../api/pets.yaml, type: openapi}
workflows:
  - workflowId: main
    steps:
"""


def flows(steps: str, head: str = HEAD) -> dict[str, str | bytes]:
    """The pet store at api/pets.yaml and a workflow at flows/main.arazzo.yaml with ``steps``
    (indented as list items of ``steps``)."""
    return {"api/pets.yaml": PETS, "flows/main.arazzo.yaml": head + steps}


# --- sources -------------------------------------------------------------------------------------


def test_a_source_resolves_relative_to_the_arazzo_file(make_corpus: MakeCorpus) -> None:
    root = make_corpus(flows("      - {stepId: find, operationId: getPet}\n"))
    assert run_rule(root, "arazzo-unresolved-source") == []
    (binding,) = step_bindings(Context.load(root))
    assert binding.status == RESOLVED and binding.source is not None
    assert binding.source.path == "api/pets.yaml"


def test_a_source_naming_no_file_names_the_document_meant(make_corpus: MakeCorpus) -> None:
    files = flows("      - {stepId: find, operationId: getPet}\n", HEAD.replace("../api/", "./"))
    root = make_corpus(files)
    (finding,) = run_rule(root, "arazzo-unresolved-source")
    assert finding.location.pointer == "/sourceDescriptions/0/url"
    assert finding.location.line == 4
    assert "flows/pets.yaml" in finding.message and "`api/pets.yaml`" in finding.message
    assert [r.path for r in finding.related] == ["api/pets.yaml"]
    # One defect, one finding: the step calling that source is not reported again.
    assert run_rule(root, "arazzo-unresolved-operation") == []


def test_a_missing_openapi_source_is_never_matched_to_an_arazzo_file_or_itself(
    make_corpus: MakeCorpus,
) -> None:
    """A close spelling of the missing file's name is suggested only among documents of the
    source's type: not the Arazzo document naming it (`pet-coupons.yaml` for
    `pet-coupons.openapi.yaml`), nor another workflow, for an `openapi` source."""
    head = HEAD.replace("../api/pets.yaml", "./pet-coupons.openapi.yaml")
    flow = head + "      - {stepId: find, operationId: getPet}\n"
    files: dict[str, str | bytes] = {
        "flows/pet-coupons.yaml": flow,
        "flows/pet-coupon.yaml": flow,
    }
    (finding, _) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert "did you mean" not in finding.message and finding.related == ()
    files["flows/pet-coupons.openapi.yml"] = PETS
    findings = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert {r.path for f in findings for r in f.related} == {"flows/pet-coupons.openapi.yml"}


def test_a_missing_arazzo_source_is_matched_to_another_workflow_never_to_itself_or_an_api(
    make_corpus: MakeCorpus,
) -> None:
    """For an `arazzo` source the near miss is another Arazzo document (`shared/…` of the same
    name), never the document naming it (`flows/coupons.yaml` for `./coupons.arazzo.yaml`) nor
    an OpenAPI document of a close name; with none, the fix names an Arazzo document."""
    head = HEAD.replace(
        "type: openapi}\n",
        "type: openapi}\n  - {name: sub, url: ./coupons.arazzo.yaml, type: arazzo}\n",
    )
    flow = head + "      - {stepId: apply, workflowId: $sourceDescriptions.sub.apply}\n"
    files: dict[str, str | bytes] = {
        "api/pets.yaml": PETS,
        "flows/coupons.arazzo.yml": PETS,
        "flows/coupons.yaml": flow,
    }
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert "did you mean" not in finding.message and finding.related == ()
    assert finding.message.endswith(
        "point it at the Arazzo document, relative to this file's folder"
    )
    files["shared/coupons.arazzo.yaml"] = HEAD + "      - {stepId: find, operationId: getPet}\n"
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert [r.path for r in finding.related] == ["shared/coupons.arazzo.yaml"]


def test_a_workflow_whose_sources_were_never_copied_along_is_one_finding_per_source(
    make_corpus: MakeCorpus,
) -> None:
    """None of the document's sources is in the repository (an example kept without its API
    documents): every step, parameter, payload and response expression is unresolvable for that
    one reason, so each missing source is one finding and nothing is filed per step."""
    head = """\
arazzo: 1.0.1
info: {title: Adopt, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ./pets.openapi.yaml, type: openapi}
  - {name: shop, url: ../api/shop.yaml, type: openapi}
  - {name: auth, url: ./login.arazzo.yaml, type: arazzo}
workflows:
  - workflowId: main
    inputs: {type: object, properties: {tag: {type: string}}}
    steps:
"""
    steps = """\
      - stepId: find
        operationId: findPets
        parameters: [{name: tag, in: query, value: $inputs.tag}]
        successCriteria:
          - condition: $statusCode == 200
          - {context: $response.body, condition: '$[?(@.id)]', type: jsonpath}
        outputs: {id: '$response.body#/0/id', rate: $response.header.X-Rate}
      - stepId: order
        operationId: $sourceDescriptions.shop.placeOrder
        requestBody: {contentType: application/json, payload: {petId: $steps.find.outputs.id}}
        outputs: {orderId: '$response.body#/id'}
      - stepId: get
        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets~1{petId}/get'
        parameters: [{name: petId, in: path, value: $steps.find.outputs.id}]
      - stepId: login
        workflowId: $sourceDescriptions.auth.login
        parameters: [{name: order, value: $steps.order.outputs.orderId}]
    outputs: {order: $steps.order.outputs.orderId, api: $sourceDescriptions.pets.url}
"""
    run = run_cli(
        "check",
        str(make_corpus({"flows/main.arazzo.yaml": head + steps})),
        "--no-cache",
        "--preview",
        "--format",
        "json",
    )
    report, _ = json.JSONDecoder().raw_decode(run.output)
    found = [(f["rule"], f["location"]["pointer"]) for f in report["findings"]]
    assert found == [("arazzo-unresolved-source", f"/sourceDescriptions/{n}/url") for n in range(3)]


def test_sources_written_relative_to_the_root_are_one_warning_per_document_and_still_bound(
    make_corpus: MakeCorpus,
) -> None:
    """A catalogue's workflows name their APIs from the repository root (`./api/pets.yaml` in
    `flows/`); Arazzo 1.0.1 §4.5 resolves a relative URL from the document, so a runner finds
    nothing. One warning for the document, each URL rewritten; the steps are still bound to
    the root's file and checked."""
    head = HEAD.replace("../api/pets.yaml", "./api/pets.yaml").replace(
        "type: openapi}\n", "type: openapi}\n  - {name: again, url: api/pets.yaml, type: openapi}\n"
    )
    steps = (
        "      - {stepId: a, operationId: $sourceDescriptions.pets.getpet}\n"
        "      - {stepId: b, operationId: $sourceDescriptions.again.getPet}\n"
    )
    root = make_corpus(flows(steps, head))
    (finding,) = run_rule(root, "arazzo-unresolved-source")
    assert (
        finding.severity.name == "WARNING"
        and finding.location.pointer == "/sourceDescriptions/0/url"
    )
    assert "`./api/pets.yaml` → `../api/pets.yaml`" in finding.message
    assert "`api/pets.yaml` → `../api/pets.yaml`" in finding.message
    assert [r.path for r in finding.related] == [
        "flows/main.arazzo.yaml",
        "api/pets.yaml",
        "api/pets.yaml",
    ]
    (unresolved,) = run_rule(root, "arazzo-unresolved-operation")
    assert unresolved.location.pointer == "/workflows/0/steps/0/operationId"
    assert "did you mean `getPet`" in unresolved.message
    # A file next to the document is what the URL names, whatever the root holds.
    files = flows(steps, head)
    files["flows/api/pets.yaml"] = PETS
    assert run_rule(make_corpus(files), "arazzo-unresolved-source") == []


def test_a_missing_source_in_a_catalogue_of_same_named_files_suggests_its_own_folder_only(
    make_corpus: MakeCorpus,
) -> None:
    """Where every API is `openapi.yaml`, the same file name elsewhere is no clue: the one in a
    folder of the missing path's distinctive name is suggested, else none."""
    files: dict[str, str | bytes] = {
        f"apis/{name}/v1/openapi.yaml": PETS for name in ("acme.com", "globex.com", "initech.com")
    }
    head = HEAD.replace("../api/pets.yaml", "../apis/acme.com/v2/openapi.yaml")
    flow = head + "      - {stepId: find, operationId: getPet}\n"
    files["flows/main.arazzo.yaml"] = flow
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert [r.path for r in finding.related] == ["apis/acme.com/v1/openapi.yaml"]
    files["flows/main.arazzo.yaml"] = flow.replace("acme", "hooli")
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert finding.related == () and "did you mean" not in finding.message


def test_a_source_naming_a_file_that_is_no_api_document(make_corpus: MakeCorpus) -> None:
    files = flows("      - {stepId: find, operationId: getPet}\n")
    files["api/pets.yaml"] = "name: not an API\n"
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert "no OpenAPI or Arazzo document" in finding.message


def test_a_remote_source_is_a_coverage_note_not_a_finding(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace("../api/pets.yaml", "https://example.com/pets.yaml")
    root = make_corpus(flows("      - {stepId: find, operationId: nope}\n", head))
    (note,) = run_rule(root, "arazzo-unresolved-source")
    assert note.coverage == "arazzo-remote-source"
    (binding,) = step_bindings(Context.load(root))
    assert binding.status == UNCHECKED
    assert run_rule(root, "arazzo-unresolved-operation") == []


# --- what a step calls ---------------------------------------------------------------------------


def test_an_operation_id_in_the_wrong_case_names_the_operation_meant(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(flows("      - {stepId: find, operationId: getpet}\n"))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/0/operationId"
    assert "did you mean `getPet` (GET /pets/{petId})" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("api/pets.yaml", 21)]


def test_a_qualified_operation_id_resolves_in_its_source(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - {stepId: a, operationId: $sourceDescriptions.pets.addPet}\n"
        "      - {stepId: b, operationId: $sourceDescriptions.pet.addPet}\n"
    )
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/1/operationId"
    assert "no source description named `pet`" in finding.message
    assert "did you mean `pets`" in finding.message
    first = step_bindings(Context.load(root))[0]
    assert first.operation is not None and first.operation.label == "POST /pets"
    assert first.evidence == "operationId `addPet` of api/pets.yaml"


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


def test_a_source_name_for_its_url_in_operation_paths_is_one_warning_per_document(
    make_corpus: MakeCorpus,
) -> None:
    """`pets#/paths/~1pets/get` (a generator's form) for `{$sourceDescriptions.pets.url}#...`:
    every step of the document written so is one warning at the first, the others related,
    and each step is bound to its operation."""
    steps = (
        "      - {stepId: a, operationPath: 'pets#/paths/~1pets/get'}\n"
        "      - {stepId: b, operationPath: 'pets#/paths/~1pets~1{petId}/get'}\n"
        "      - {stepId: c, operationPath: 'pets#/paths/~1pets/put'}\n"
    )
    root = make_corpus(flows(steps))
    warning, error = sorted(
        run_rule(root, "arazzo-unresolved-operation"), key=lambda f: f.location.line
    )
    assert warning.severity.name == "WARNING" and error.severity.name == "ERROR"
    assert warning.location.pointer == "/workflows/0/steps/0/operationPath"
    assert "(and 1 more step of this document)" in warning.message
    assert "write `{$sourceDescriptions.pets.url}#/paths/~1pets/get`" in warning.message
    assert [r.pointer for r in warning.related][1:] == ["/workflows/0/steps/1/operationPath"]
    assert error.location.pointer == "/workflows/0/steps/2/operationPath"
    bound = [b.operation.label for b in step_bindings(Context.load(root)) if b.operation]
    assert bound == ["GET /pets", "GET /pets/{petId}"]


def test_an_operation_path_written_without_the_braces_or_url_is_one_warning_not_an_error(
    make_corpus: MakeCorpus,
) -> None:
    """`$sourceDescriptions.pets#/paths/...` and `$sourceDescriptions.pets.url#/paths/...`
    (Redocly's runner reads both) name the operation plainly: bound, and one warning saying
    how Arazzo 1.0 writes it, not an error that the operation does not exist."""
    steps = (
        "      - {stepId: a, operationPath: '$sourceDescriptions.pets#/paths/~1pets/get'}\n"
        "      - {stepId: b, operationPath: '$sourceDescriptions.pets.url#/paths/~1pets/get'}\n"
    )
    root = make_corpus(flows(steps))
    [warning] = run_rule(root, "arazzo-unresolved-operation")
    assert warning.severity.name == "WARNING"
    assert "write `{$sourceDescriptions.pets.url}#/paths/~1pets/get`" in warning.message
    bound = [b.operation.label for b in step_bindings(Context.load(root)) if b.operation]
    assert bound == ["GET /pets", "GET /pets"]


def test_a_bare_operation_id_two_sources_hold_is_ambiguous(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace(
        "workflows:", "  - {name: copy, url: ../api/copy.yaml, type: openapi}\nworkflows:"
    )
    files = flows("      - {stepId: find, operationId: getPet}\n", head)
    files["api/copy.yaml"] = PETS
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-operation")
    assert "ambiguous" in finding.message and "$sourceDescriptions.<name>.getPet" in finding.message
    assert sorted(r.path for r in finding.related) == ["api/copy.yaml", "api/pets.yaml"]


def test_an_operation_path_with_unescaped_slashes_names_the_pointer_meant(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: list\n"
        "        operationPath: '{$sourceDescriptions.pets.url}#/paths/pets/get'\n"
        "      - stepId: add\n"
        "        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets/post'\n"
    )
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/0/operationPath"
    assert "did you mean `/paths/~1pets/get`" in finding.message
    added = step_bindings(Context.load(root))[1]
    assert added.status == RESOLVED and added.operation is not None
    assert added.operation.identifier == "addPet"


def test_a_workflow_id_resolves_locally_or_names_the_workflow_meant(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - {stepId: a, workflowId: other}\n"
        "      - {stepId: b, workflowId: Other}\n"
        "  - workflowId: other\n    steps:\n      - {stepId: c, operationId: getPet}\n"
    )
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/1/workflowId"
    assert "did you mean `other`" in finding.message
    called = step_bindings(Context.load(root))[0]
    assert called.called is not None and called.called.workflow_id == "other"


def test_a_workflow_id_of_an_arazzo_source_resolves_there(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace(
        "workflows:", "  - {name: shared, url: ./shared.arazzo.yaml, type: arazzo}\nworkflows:"
    )
    files = flows(
        "      - {stepId: a, workflowId: $sourceDescriptions.shared.login}\n"
        "      - {stepId: b, workflowId: $sourceDescriptions.shared.logon}\n",
        head,
    )
    files["flows/shared.arazzo.yaml"] = HEAD.replace("main", "login") + (
        "      - {stepId: c, operationId: listPets}\n"
    )
    root = make_corpus(files)
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert "flows/shared.arazzo.yaml has no workflow `logon`" in finding.message
    assert [r.path for r in finding.related] == ["flows/shared.arazzo.yaml"]


def test_redoclys_workflows_segment_in_a_qualified_workflow_id_is_a_warning_saying_how_to_write_it(
    make_corpus: MakeCorpus,
) -> None:
    """`$sourceDescriptions.shared.workflows.login` is Redocly Respect's form for
    `$sourceDescriptions.shared.login`: bound to the workflow, one warning with the standard
    form (not "no workflow `workflows.login`"); a `workflows.` prefix before a workflow the
    source lacks is still unresolved, and a local `workflows.x` is not read so."""
    head = HEAD.replace(
        "workflows:", "  - {name: shared, url: ./shared.arazzo.yaml, type: arazzo}\nworkflows:"
    )
    files = flows(
        "      - {stepId: a, workflowId: $sourceDescriptions.shared.workflows.login}\n"
        "      - {stepId: b, workflowId: $sourceDescriptions.shared.workflows.logon}\n"
        "      - {stepId: c, workflowId: workflows.main}\n",
        head,
    )
    files["flows/shared.arazzo.yaml"] = HEAD.replace("main", "login") + (
        "      - {stepId: c, operationId: listPets}\n"
    )
    root = make_corpus(files)
    findings = sorted(run_rule(root, "arazzo-unresolved-operation"), key=lambda f: f.location.line)
    assert [(f.location.pointer, f.severity.name) for f in findings] == [
        ("/workflows/0/steps/0/workflowId", "WARNING"),
        ("/workflows/0/steps/1/workflowId", "ERROR"),
        ("/workflows/0/steps/2/workflowId", "ERROR"),
    ]
    warning = findings[0]
    assert "names workflow `login` of flows/shared.arazzo.yaml" in warning.message
    assert "write `$sourceDescriptions.shared.login`" in warning.message
    assert [r.path for r in warning.related] == ["flows/shared.arazzo.yaml"]
    bound = step_bindings(Context.load(root))[0]
    assert bound.status == RESOLVED and bound.called is not None
    assert bound.called.workflow_id == "login"


# --- parameters ----------------------------------------------------------------------------------


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


# --- payloads ------------------------------------------------------------------------------------


def body_step(step_id: str, body: str, operation: str = "addPet") -> str:
    return (
        f"      - stepId: {step_id}\n        operationId: {operation}\n        requestBody:\n{body}"
    )


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


def test_speclint_bindings_lists_each_step_with_its_operation(make_corpus: MakeCorpus) -> None:
    steps = "      - {stepId: find, operationId: getPet}\n      - {stepId: gone, operationId: x}\n"
    run = run_cli("bindings", str(make_corpus(flows(steps))))
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    at = lines.index("flows/main.arazzo.yaml:8 step `find` (workflow `main`) operationId `getPet`")
    assert lines[at + 1] == (
        "    -> api/pets.yaml#/paths/~1pets~1{petId}/get GET /pets/{petId} "
        "(operationId `getPet` of api/pets.yaml)"
    )
    assert lines[at + 3].startswith("    (unresolved: no operation of `api/pets.yaml`")
    assert "speclint: 1 Arazzo step binding(s); 1 step(s) not bound" in lines


def shared_id(steps: str) -> dict[str, str | bytes]:
    """The pet store with `GET /pets` and `GET /pets/{petId}` both called `getPet` (as an
    imported catalogue names a list and a by-id read alike), and a workflow of ``steps``."""
    files = flows(steps)
    files["api/pets.yaml"] = PETS.replace("operationId: listPets", "operationId: getPet")
    return files


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


def test_a_parameter_in_body_is_arazzo_invalids_not_an_unknown_parameter(
    make_corpus: MakeCorpus,
) -> None:
    """`in: body` is no Arazzo place (§4.6.6: path, query, header, cookie): the schema's
    finding; "takes no such parameter" would mislead (the value belongs in `requestBody`)."""
    root = make_corpus(
        flows(
            "      - stepId: add\n        operationId: addPet\n"
            "        parameters: [{name: pet, in: body, value: {name: Rex}}]\n"
        )
    )
    assert run_rule(root, "arazzo-unknown-parameter") == []
    (invalid,) = run_rule(root, "arazzo-invalid")
    assert invalid.location.pointer == "/workflows/0/steps/0/parameters/0/in"


def test_body_pointers_into_responses_declaring_no_content_are_one_warning_per_operation(
    make_corpus: MakeCorpus,
) -> None:
    """The pet store's 200s give a description only: the API document is silent, so the reads
    cannot be checked; one warning per Arazzo document and operation, its reads related. A
    string body read at `#/x` contradicts the document: still an error."""
    files = flows(
        "      - stepId: a\n        operationId: getPet\n"
        "        parameters: [{name: petId, in: path, value: '1'}]\n"
        "        outputs: {name: $response.body#/name, age: $response.body#/age}\n"
        "      - stepId: b\n        operationId: getPet\n"
        "        parameters: [{name: petId, in: path, value: '2'}]\n"
        "        outputs: {tag: $response.body#/tag}\n"
        "      - stepId: c\n        operationId: listPets\n"
        "        outputs: {x: $response.body#/x}\n"
    )
    files["api/pets.yaml"] = PETS.replace(
        "      operationId: listPets\n"
        "      parameters:\n"
        "        - {name: limit, in: query, schema: {type: integer}}\n"
        "        - $ref: '#/components/parameters/Trace'\n"
        "      responses: {'200': {description: ok}}",
        "      operationId: listPets\n"
        "      responses:\n"
        "        '200': {description: ok, content: {text/plain: {schema: {type: string}}}}",
    )
    findings = run_rule(make_corpus(files), "arazzo-response-pointer")
    assert [(f.severity.name, f.location.pointer) for f in findings] == [
        ("ERROR", "/workflows/0/steps/2/outputs/x"),
        ("WARNING", "/workflows/0/steps/0/outputs/name"),
    ]
    warning = findings[1]
    assert warning.message.startswith(
        "step `a`: api/pets.yaml declares no response content for GET /pets/{petId} "
        "(responses 200), so what the document reads of its body (`$response.body#/age`, "
        "`$response.body#/name`, `$response.body#/tag`) cannot be checked"
    )
    assert "declare the response's content schema in api/pets.yaml" in warning.message
    files["api/pets.yaml"] = PETS.replace(
        "{'200': {description: ok}}", "{'204': {description: ok}}"
    )
    findings = run_rule(make_corpus(files), "arazzo-response-pointer")
    assert {f.severity.name for f in findings} == {"ERROR"}  # 204 No Content: no body to read
    assert [r.pointer for r in warning.related] == [
        "/paths/~1pets~1{petId}/get",
        "/workflows/0/steps/0/outputs/age",
        "/workflows/0/steps/1/outputs/tag",
    ]
    # A redirect's value is in its Location header, which is what the fix says to read.
    files["api/pets.yaml"] = PETS.replace(
        "{'200': {description: ok}}", "{'302': {description: to the pet}}"
    )
    redirect = run_rule(make_corpus(files), "arazzo-response-pointer")[-1]
    assert redirect.severity.name == "WARNING" and "(responses 302)" in redirect.message
    assert "read `$response.header.Location`" in redirect.message


def test_an_absolute_source_path_of_a_runners_mount_is_read_by_its_tail(
    make_corpus: MakeCorpus,
) -> None:
    """`/app/api/pets.yaml` names nothing from the root, but its tail `api/pets.yaml` does (the
    repository as a runner's container mounts it at `/app`): the source is bound to that file,
    so the steps are checked there, and the run notes the assumption instead of a finding. A
    tail that is a bare file name is no evidence: still missing."""
    head = HEAD.replace("url: ../api/pets.yaml", "url: /app/api/pets.yaml")
    root = make_corpus(flows("      - {stepId: find, operationId: getPett}\n", head))
    (note,) = run_rule(root, "arazzo-unresolved-source")
    assert note.severity.name == "INFO" and note.coverage == "arazzo-mounted-source"
    assert "read as api/pets.yaml, the repository mounted at `/app`" in note.message
    (binding,) = step_bindings(Context.load(root))
    assert binding.source is not None and binding.source.path == "api/pets.yaml"
    (unresolved,) = run_rule(root, "arazzo-unresolved-operation")
    assert "did you mean `getPet`" in unresolved.message
    bare = HEAD.replace("url: ../api/pets.yaml", "url: /app/pets.yaml")
    files = flows("      - {stepId: find, operationId: getPet}\n", bare)
    files["pets.yaml"] = files.pop("api/pets.yaml")
    (missing,) = run_rule(make_corpus(files), "arazzo-unresolved-source")
    assert missing.severity.name == "ERROR" and "does not hold" in missing.message


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
