"""An Arazzo 1.0 workflow document: found by its `arazzo` field, listed by ``speclint files``, and
read into plain data with every node's pointer and line (``speclint.model.arazzo``, issue 49)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.model.arazzo import arazzo_documents, is_expression
from speclint.parsing.kinds import DocumentKind, classify

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

WORKFLOWS = """\
arazzo: 1.0.1
info: {title: Adopt a pet, version: 1.0.0}
sourceDescriptions:
  - name: petStore
    url: ./pets.yaml
    type: openapi
workflows:
  - workflowId: adopt
    inputs:
      type: object
      properties:
        petId: {type: string}
    dependsOn: [register]
    parameters:
      - name: X-Trace
        in: header
        value: abc
    steps:
      - stepId: find
        operationId: $sourceDescriptions.petStore.getPet
        parameters:
          - name: petId
            in: path
            value: $inputs.petId
          - reference: $components.parameters.page
            value: 2
        successCriteria:
          - condition: $statusCode == 200
          - context: $response.body
            condition: $.status
            type: {type: jsonpath, version: draft-goessner-dispatch-jsonpath-00}
        onFailure:
          - name: again
            type: retry
            retryAfter: 1
            retryLimit: 3
        outputs:
          status: $response.body#/status
      - stepId: adopt
        operationPath: '{$sourceDescriptions.petStore.url}#/paths/~1pets~1{petId}/post'
        requestBody:
          contentType: application/json
          payload: {owner: '{$inputs.owner}'}
          replacements:
            - target: /owner
              value: $inputs.owner
        onSuccess:
          - reference: $components.successActions.done
    outputs:
      status: $steps.find.outputs.status
  - workflowId: register
    steps:
      - stepId: call
        workflowId: $sourceDescriptions.petStore.other
components:
  parameters:
    page: {name: page, in: query, value: 1}
  successActions:
    done: {name: done, type: end}
  inputs:
    owner: {type: string}
"""


def test_an_arazzo_document_is_found_by_its_arazzo_field() -> None:
    found = classify("flows/adopt.yaml", {"arazzo": "1.0.1", "workflows": []})
    assert (found.kind, found.dialect, found.reason) == (
        DocumentKind.ARAZZO,
        "Arazzo 1.0",
        "`arazzo: 1.0.1`",
    )
    # A section named `arazzo` (a tool's configuration) is no version field.
    assert classify("tool.yaml", {"arazzo": {"lint": True}}).kind is DocumentKind.DATA


def test_speclint_files_lists_an_arazzo_document(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"adopt.arazzo.yaml": WORKFLOWS})
    run = run_cli("files", str(root))
    assert run.exit_code == 0, run.output
    row = next(line for line in run.output.splitlines() if "adopt.arazzo.yaml" in line)
    assert "arazzo" in row and "`arazzo: 1.0.1`" in row


def test_the_model_holds_every_node_with_its_pointer_and_line(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"adopt.arazzo.yaml": WORKFLOWS})
    (document,) = arazzo_documents(Context.load(root))
    assert document.version == "1.0.1" and document.title == "Adopt a pet"
    (source,) = document.source_descriptions
    assert (source.name, source.url, source.type, source.pointer) == (
        "petStore",
        "./pets.yaml",
        "openapi",
        "/sourceDescriptions/0",
    )
    assert source.location.line == 4
    adopt = document.workflow("adopt")
    assert adopt is not None and adopt.depends_on == ("register",)
    assert adopt.inputs["properties"] == {"petId": {"type": "string"}}
    assert adopt.inputs_pointer == "/workflows/0/inputs"
    assert [p.name for p in adopt.parameters] == ["X-Trace"]
    find, post = adopt.steps
    assert find.operation_id == "$sourceDescriptions.petStore.getPet"
    assert find.pointer == "/workflows/0/steps/0" and find.location.line == 19
    assert [(p.name, p.in_, p.value, p.reference) for p in find.parameters] == [
        ("petId", "path", "$inputs.petId", ""),
        ("", "", 2, "$components.parameters.page"),
    ]
    assert find.parameters[0].pointer == "/workflows/0/steps/0/parameters/0"
    assert [(c.condition, c.context, c.type) for c in find.success_criteria] == [
        ("$statusCode == 200", "", ""),
        ("$.status", "$response.body", "jsonpath"),
    ]
    (retry,) = find.on_failure
    assert (retry.type, retry.retry_after, retry.retry_limit) == ("retry", 1, 3)
    assert [(o.name, o.value, o.pointer) for o in find.outputs] == [
        ("status", "$response.body#/status", "/workflows/0/steps/0/outputs/status")
    ]
    assert post.operation_path.endswith("#/paths/~1pets~1{petId}/post")
    assert post.request_body is not None
    assert post.request_body.content_type == "application/json"
    assert post.request_body.payload == {"owner": "{$inputs.owner}"}
    assert [r.target for r in post.request_body.replacements] == ["/owner"]
    assert post.on_success[0].reference == "$components.successActions.done"
    assert [o.name for o in adopt.outputs] == ["status"]
    register = document.workflow("register")
    assert register is not None
    assert register.steps[0].workflow_id == "$sourceDescriptions.petStore.other"
    assert document.components.parameters["page"].in_ == "query"
    assert document.components.success_actions["done"].type == "end"
    assert document.components.inputs == {"owner": {"type": "string"}}
    assert [step.step_id for _, step in document.steps()] == ["find", "adopt", "call"]


def test_a_malformed_arazzo_document_reads_as_far_as_it_can(make_corpus: MakeCorpus) -> None:
    # Left to arazzo-invalid: a step that is a string, a workflow with no steps.
    text = "arazzo: 1.0.0\nworkflows:\n  - workflowId: w\n    steps: [call-it]\n  - 3\n"
    root = make_corpus({"broken.yaml": text})
    (document,) = arazzo_documents(Context.load(root))
    assert [w.workflow_id for w in document.workflows] == ["w"]
    assert document.workflows[0].steps == () and document.source_descriptions == ()


def test_runtime_expressions_are_told_from_values() -> None:
    assert is_expression("$inputs.petId")
    assert is_expression("Bearer {$inputs.token}")
    assert not is_expression("plain") and not is_expression(3) and not is_expression("{x}")
