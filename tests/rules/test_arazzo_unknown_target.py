"""``arazzo-unknown-target`` on fixtures written here, one test a case, named after it. The rule:
an Arazzo action whose `stepId` or `workflowId` names no step or workflow, or a"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_duplicate_id import HEAD, flows, lend
from test_arazzo_response_pointer import PLACE

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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
