"""arazzo-invalid: an Arazzo document against the official Arazzo 1.0 schema (issue 49, item 1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

HEAD = """\
arazzo: 1.0.1
info: {title: Adopt a pet, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ./pets.yaml, type: openapi}
workflows:
  - workflowId: adopt
    steps:
"""


def test_a_step_naming_two_operations_is_reported_at_the_step(make_corpus: MakeCorpus) -> None:
    step = (
        "      - stepId: find\n        operationId: findPet\n"
        "        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets/get'\n"
    )
    root = make_corpus({"adopt.arazzo.yaml": HEAD + step})
    findings = run_rule(root, "arazzo-invalid")
    assert findings, "two operations in one step pass"
    assert {f.location.pointer for f in findings} == {"/workflows/0/steps/0"}
    assert findings[0].location.line == 8
    assert "names `operationId` and `operationPath`" in findings[0].message
    root = make_corpus({"adopt.arazzo.yaml": HEAD + "      - {stepId: find, operationId: a}\n"})
    assert run_rule(root, "arazzo-invalid") == []


def test_a_member_the_specification_does_not_define_is_reported_there(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"adopt.arazzo.yaml": HEAD + "      - {stepId: find, operationId: a, retries: 3}\n"}
    )
    (finding,) = run_rule(root, "arazzo-invalid")
    assert finding.location.pointer.startswith("/workflows/0/steps/0")
    assert "retries" in finding.message


def test_a_later_release_is_not_checked_and_a_wrong_version_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"adopt.arazzo.yaml": HEAD.replace("1.0.1", "1.1.0") + "      - 3\n"})
    (note,) = run_rule(root, "arazzo-invalid")
    assert note.coverage == "no-schema" and "1.1.0" in note.message
    root = make_corpus({"adopt.arazzo.yaml": HEAD.replace("1.0.1", "latest") + "      - 3\n"})
    (finding,) = run_rule(root, "arazzo-invalid")
    assert finding.location.pointer == "/arazzo" and finding.coverage is None
