"""An Arazzo workflow against the corpus (issue 49, items 2 and 3): its sources resolve to corpus
files (arazzo-unresolved-source), its steps' operationId / operationPath / workflowId to
operations and workflows (arazzo-unresolved-operation), their parameters to the operation's or
the called workflow's (arazzo-unknown-parameter), their payloads to the request schema
(arazzo-payload-invalid). Fixtures: a pet store whose operations have path-item, operation-level
and `$ref`'d parameters and one JSON request body."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_response_pointer import flows

from conftest import run_cli

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


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
