"""An Arazzo action whose `stepId` or `workflowId` names no step or workflow, or a
`dependsOn` entry naming no workflow.

What it does
    Checks where each Success Action (Arazzo 1.0.1 §4.6.7) and Failure Action (§4.6.8) goes: a
    `stepId` must be a step of the current workflow (the one the action is written in; an
    action of `components` has no current workflow and its `stepId` is not judged), a
    `workflowId` a workflow of the document, or, written
    `$sourceDescriptions.<name>.<workflowId>`, of that Arazzo source. Each entry of a
    workflow's `dependsOn` (§4.6.4) must name a workflow the same way; a source that is an
    OpenAPI document, or is declared `type: openapi`, holds no workflow (§4.6.3). The finding
    is at the field, with the nearest existing name in the fix.

Why is this bad?
    A `goto` to a step that does not exist, or a dependency on a workflow that does not,
    stops the runner at run time (or, worse, ends the workflow as if it had succeeded), on the
    branch that is least often tested: the failure path.

Example
    ::

        - stepId: pay
          operationId: createPayment
          onFailure:
            - {name: again, type: goto, stepId: retry-payment}   # the step is retryPayment

    FAIL: action `again` goes to step `retry-payment`, which workflow `checkout` does not
    have; did you mean `retryPayment`?

Use instead
    ::

            - {name: again, type: goto, stepId: retryPayment}

    PASS.

Options
    None.

Limitations
    A workflowId of an Arazzo source that is not read (a remote URL), or of one whose `type`
    is not declared, is not judged; a source
    name that is not declared is reported here, one that names no file is
    `arazzo-unresolved-source`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo_expressions import unknown_targets
from speclint.common.findings import Finding, Severity, headed

ID = "arazzo-unknown-target"
SEVERITY = Severity.ERROR


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for target in unknown_targets(corpus):
        document = corpus.documents[target.arazzo.path]
        yield Finding(
            ID,
            SEVERITY,
            headed(target.problem, target.fix),
            document.location(target.pointer),
            related=target.related,
            key=f"{target.pointer}:{target.written}",
        )
