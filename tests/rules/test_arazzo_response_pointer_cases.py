"""arazzo-response-pointer: the special cases its docstring leaves out, each a test named after
it. Fixtures: a small kennel API and a workflow written for these tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

KENNEL = """\
openapi: 3.1.0
info: {title: Kennel, version: 1.0.0}
paths:
  /dogs/{id}:
    delete:
      operationId: removeDog
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '404':
          description: no such dog
          content:
            application/json:
              schema:
                type: object
                properties:
                  detail: {type: string}
  /dogs:
    get:
      operationId: listDogs
      responses:
        '200': {$ref: './responses.yaml#/Dogs'}
"""

FLOW = """\
arazzo: 1.0.1
info: {title: Kennel flows, version: 1.0.0}
sourceDescriptions:
  - {name: kennel, url: ../api/kennel.yaml, type: openapi}
workflows:
  - workflowId: tidy
    steps:
"""


def corpus(make_corpus: MakeCorpus, steps: str) -> Path:
    return make_corpus({"api/kennel.yaml": KENNEL, "flows/tidy.arazzo.yaml": FLOW + steps})


def test_arazzo_response_pointer_reads_every_response_of_an_operation_declaring_no_2xx(
    make_corpus: MakeCorpus,
) -> None:
    """`removeDog` declares only a 404: an output reads that response, not nothing."""
    steps = (
        "      - stepId: remove\n        operationId: removeDog\n"
        "        parameters: [{name: id, in: path, value: '1'}]\n"
        "        outputs: {why: $response.body#/detail, typo: $response.body#/detial}\n"
    )
    (finding,) = run_rule(corpus(make_corpus, steps), "arazzo-response-pointer")
    assert finding.location.pointer == "/workflows/0/steps/0/outputs/typo"
    assert "(responses 404)" in finding.message
    assert "did you mean `#/detail`?" in finding.message


def test_arazzo_response_pointer_skips_a_response_object_in_another_file(
    make_corpus: MakeCorpus,
) -> None:
    """What a Response Object `$ref`'d into another file declares is not read here: unknown,
    so no pointer into it is reported."""
    steps = (
        "      - stepId: list\n        operationId: listDogs\n"
        "        outputs: {anything: $response.body#/nowhere}\n"
    )
    assert run_rule(corpus(make_corpus, steps), "arazzo-response-pointer") == []
