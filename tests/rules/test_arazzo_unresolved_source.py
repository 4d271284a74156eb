"""``arazzo-unresolved-source`` on fixtures written here, one test a case, named after it. The
rule: an Arazzo source description whose URL names no OpenAPI or Arazzo document of the
repository."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_arazzo_response_pointer import HEAD, PETS, flows

from conftest import run_cli, run_rule
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import RESOLVED, step_bindings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_source_resolves_relative_to_the_arazzo_file(make_corpus: MakeCorpus) -> None:
    root = make_corpus(flows("      - {stepId: find, operationId: getPet}\n"))
    assert run_rule(root, "arazzo-unresolved-source") == []
    (binding,) = step_bindings(Context.load(root))
    assert binding.status == RESOLVED and binding.source is not None
    assert binding.source.path == "api/pets.yaml"


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
